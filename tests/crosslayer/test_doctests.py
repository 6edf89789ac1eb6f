"""The examples (``>>>``) in the public API's docstrings run, and answer what they show.

The examples are read from the modules' source text, not from the imported objects'
``__doc__``: mypyc compiles the engine, the log reader and the verdict, and keeps none of
their docstrings (``__doc__`` is None in the compiled wheel, which ships the sources
beside the extension modules). Each example runs in the
namespace of the *imported* module, so in the compiled run of CI the examples exercise
the compiled build. They run from the project's root, where the sample games are.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import io
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT

import gcadj

# The modules a library user reads: every name of `gcadj.__all__` is defined in one of them.
MODULES = (
    "gcadj",
    "gcadj.app.check",
    "gcadj.app.pipeline",
    "gcadj.app.adjudicate",
    "gcadj.app.analyse",
    "gcadj.analysis.adjudicator",
    "gcadj.analysis.analyser",
    "gcadj.analysis.exchanges",
    "gcadj.analysis.exchange_lines",
    "gcadj.analysis.options",
    "gcadj.app.exit_codes",
    "gcadj.sources.judge_options",
    "gcadj.judging.verdict",
    "gcadj.judging.adjudication",
    "gcadj.judging.game_analysis",
    "gcadj.vocabulary",
    "gcadj.engine.position",
    "gcadj.engine.move",
    "gcadj.notation.parse",
    "gcadj.errors",
)


@dataclass(frozen=True)
class Docstring:
    module: str
    name: str  # the dotted name of what it documents, in its module
    text: str
    path: Path
    line: int


def source_file(module: str) -> Path:
    """The module's source: beside the extension module in a compiled install. Found from
    the package's own place (``gcadj/__init__.py`` is never compiled): a compiled module
    imported by another compiled one first carries a wrong origin (``gcadj/gcadj/...``)."""
    root = Path(gcadj.__file__).resolve().parent.parent
    path = root.joinpath(*module.split("."))
    package = path / "__init__.py"
    return package if package.is_file() else path.with_suffix(".py")


def docstrings(module: str) -> list[Docstring]:
    """The docstrings of a module, its classes and functions (methods included), in order."""
    path = source_file(module)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                text = ast.get_docstring(child, clean=False)
                if text:
                    found.append(Docstring(module, name, text, path, child.lineno))
                visit(child, f"{name}.")

    text = ast.get_docstring(tree, clean=False)
    if text:
        found.append(Docstring(module, "", text, path, 1))
    visit(tree, "")
    return found


def examples() -> list[Docstring]:
    return [d for module in MODULES for d in docstrings(module) if ">>>" in d.text]


EXAMPLES = examples()


@pytest.mark.parametrize(
    "docstring", EXAMPLES, ids=[f"{d.module}:{d.name or '(module)'}" for d in EXAMPLES]
)
def test_the_example_answers_what_it_shows(
    docstring: Docstring, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    namespace = dict(vars(importlib.import_module(docstring.module)))
    name = f"{docstring.module}.{docstring.name}".rstrip(".")
    test = doctest.DocTestParser().get_doctest(
        docstring.text, namespace, name, str(docstring.path), docstring.line
    )
    assert test.examples
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test, out=report.write, clear_globs=True)
    assert result.failed == 0, report.getvalue()


def test_every_public_name_shows_an_example() -> None:
    """Each function and class of `gcadj.__all__` has an example where it is defined."""
    documented = {(d.module, d.name) for d in EXAMPLES}
    missing = []
    for name in gcadj.__all__:
        value = getattr(gcadj, name)
        module = getattr(value, "__module__", None)
        if not callable(value) or module is None:
            continue  # __version__
        if (module, name) not in documented:
            missing.append(f"{module}.{name}")
    assert missing == []


def test_the_examples_are_many_and_cover_the_engine() -> None:
    count = sum(d.text.count(">>>") for d in EXAMPLES)
    assert count >= 60, count
    names = {d.name for d in EXAMPLES if d.module == "gcadj.engine.position"}
    assert {"Position", "Position.push", "Position.legal_moves", "Position.outcome"} <= names
