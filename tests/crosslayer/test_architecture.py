"""The house has no import circles, at any scale, imports inside functions included.

`lint-imports` (contracts in pyproject.toml) checks the layers; this test checks what a layers
contract cannot see: a circle *within* one layer, between two modules or two sub-packages.
grimp reads every import statement of a module, wherever it stands, so a lazy import inside
a function counts like any other.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import grimp

import gcadj


def _cycles(edges: Mapping[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one member (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work: list[tuple[str, Iterable[str]]] = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(iter(children), None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _module_graph() -> dict[str, set[str]]:
    # Imports made only for type hints (`if TYPE_CHECKING:`) run nothing, so they cannot
    # close a circle at run time; gcadj.errors, at the bottom, names GameLog and Move that
    # way. import-linter reads the graph the same way (pyproject.toml).
    graph = grimp.build_graph("gcadj", cache_dir=None, exclude_type_checking_imports=True)
    return {
        module: {m for m in graph.find_modules_directly_imported_by(module) if m != module}
        for module in graph.modules
    }


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The checker itself can fail: a known circle is reported, a chain is not."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_no_module_imports_itself_back_through_others() -> None:
    graph = _module_graph()
    assert "gcadj.engine.position" in graph  # the graph was really built
    assert "gcadj.errors" in graph["gcadj.notation.parse"]
    assert _cycles(graph) == []


def test_no_two_sub_packages_import_each_other() -> None:
    def package(module: str) -> str:
        return ".".join(module.split(".")[:2])

    packages: dict[str, set[str]] = {}
    for module, imported in _module_graph().items():
        targets = {package(m) for m in imported} - {package(module)}
        packages.setdefault(package(module), set()).update(targets)
    sub_packages = {p for p in packages if p.count(".") == 1}
    assert len(sub_packages) >= 4
    assert _cycles(packages) == []


# -- private stays private -------------------------------------------------------------


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_uses(source: str) -> list[str]:
    """What a module takes of another module's private parts: ``from gcadj.x import _y``
    (any gcadj module), and ``thing._y`` where this module defines no ``_y`` of its own
    (a private method or attribute of a class that lives elsewhere, like ``position._push``).
    Private names of other libraries reached through their module (``os._exit``) are theirs.
    """
    import ast

    tree = ast.parse(source)
    own: set[str] = set()
    foreign_modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            own.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
        elif isinstance(node, ast.arg):
            own.add(node.arg)
        elif isinstance(node, ast.Import):
            foreign_modules.update(
                (a.asname or a.name).split(".")[0]
                for a in node.names
                if not a.name.startswith("gcadj")
            )
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gcadj"):
            found += [
                f"line {node.lineno}: from {node.module} import {a.name}"
                for a in node.names
                if _is_private(a.name)
            ]
        elif (
            isinstance(node, ast.Attribute)
            and _is_private(node.attr)
            and node.attr not in own
            and not (isinstance(node.value, ast.Name) and node.value.id in foreign_modules)
        ):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_the_private_name_checker_can_fail() -> None:
    assert private_uses("from gcadj.engine.position import _pawn_tables, Position\n") == [
        "line 1: from gcadj.engine.position import _pawn_tables"
    ]
    assert private_uses("def f(position):\n    position._push(m)\n") == ["line 2: position._push"]
    clean = (
        "import os\nclass A:\n    def _step(self):\n        self._n = 1\n"
        "    def go(self, other):\n        other._step()\n        os._exit(0)\n"
    )
    assert private_uses(clean) == []  # its own private parts, and os's


def test_no_module_uses_another_modules_private_names() -> None:
    import gcadj

    package = Path(gcadj.__file__).parent
    modules = sorted(package.rglob("*.py"))
    assert len(modules) > 50  # the whole package was read
    found = {
        str(path.relative_to(package)): uses
        for path in modules
        if (uses := private_uses(path.read_text(encoding="utf-8")))
    }
    assert found == {}


# -- one root for every error, defined in one module ------------------------------------


def _exception_classes_outside_errors(package: Path) -> list[str]:
    """Classes outside gcadj/errors.py whose bases name an exception type (by name)."""
    import ast

    found = []
    for path in sorted(package.rglob("*.py")):
        if path.name == "errors.py" and path.parent == package:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = [ast.unparse(base) for base in node.bases]
            if any(base.endswith(("Error", "Exception", "Warning", "Fault")) for base in bases):
                found.append(f"{path.relative_to(package.parent)}:{node.lineno} {node.name}")
    return found


def test_every_exception_class_is_written_in_gcadj_errors() -> None:
    package = Path(gcadj.__file__).parent  # the sources of the gcadj under test
    assert (package / "errors.py").is_file()  # the finder looked where the modules are
    assert _exception_classes_outside_errors(package) == []


def test_the_exception_finder_can_fail(tmp_path: Path) -> None:
    package = tmp_path / "gcadj"
    package.mkdir()
    (package / "errors.py").write_text("class GcadjError(Exception): ...\n")
    (package / "stray.py").write_text("class Oops(ValueError): ...\n")
    assert _exception_classes_outside_errors(package) == ["gcadj/stray.py:1 Oops"]


def test_every_exception_gcadj_defines_derives_from_one_root() -> None:
    import inspect

    import gcadj.errors as errors

    classes = [
        value
        for _, value in inspect.getmembers(errors, inspect.isclass)
        if issubclass(value, BaseException) and value.__module__ == errors.__name__
    ]
    assert len(classes) >= 17
    assert all(issubclass(cls, errors.GcadjError) for cls in classes), classes


# -- a word of the vocabulary is compared as its member --------------------------------


def _vocabulary_words() -> dict[str, str]:
    """Every value of gcadj's closed vocabularies (the enums built on `Word`: a verdict's
    status, a category, a side, a source format...) -> the member that carries it; and the
    presets' pocket files (``"i"``: `DEFAULT_POCKET_FILE`), which are written once too."""
    import gcadj.notation.lexicon  # noqa: F401  (its SourceFormat is a Word too)
    from gcadj.vocabulary import PRESETS, Word

    members: dict[str, list[str]] = {}
    kinds = [Word]
    while kinds:
        kind = kinds.pop()
        kinds.extend(kind.__subclasses__())
        for member in kind.__members__.values():
            members.setdefault(member.value, []).append(f"{kind.__name__}.{member.name}")
    for number, preset in enumerate(PRESETS):
        members[preset.pocket_file] = [f"PRESETS[{number}].pocket_file"]
    return {value: " or ".join(sorted(names)) for value, names in members.items()}


def string_comparisons(source: str, words: dict[str, str]) -> list[str]:
    """Comparisons that spell a vocabulary word as a string literal (``status == "legal"``,
    ``side in ("white", ...)``): each should name the member (``Status.LEGAL``), so that a
    misspelt word is an error, not a comparison that is never true."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        for operand in (node.left, *node.comparators):
            literals = (
                operand.elts if isinstance(operand, (ast.Tuple, ast.List, ast.Set)) else [operand]
            )
            for literal in literals:
                if isinstance(literal, ast.Constant) and literal.value in words:
                    found.append(
                        f"line {node.lineno}: {ast.unparse(node)} ({words[literal.value]})"
                    )
    return found


def test_the_string_comparison_finder_can_fail() -> None:
    words = _vocabulary_words()
    assert words["legal"] == "Status.LEGAL or VerdictKind.LEGAL"
    assert words["pgn"] == "SourceFormat.PGN"
    source = (
        "if verdict.status == 'legal': pass\n"
        "ok = side in ('white', 'black')\n"
        "fine = verdict.status == Status.LEGAL and name == 'legalese'\n"
        "if log.pocket_file != 'i': pass\n"
    )
    assert string_comparisons(source, words) == [
        "line 1: verdict.status == 'legal' (Status.LEGAL or VerdictKind.LEGAL)",
        "line 2: side in ('white', 'black') (Side.WHITE)",
        "line 2: side in ('white', 'black') (Side.BLACK)",
        "line 4: log.pocket_file != 'i' (PRESETS[0].pocket_file)",
    ]


def test_no_module_compares_a_vocabulary_word_as_a_string() -> None:
    package = Path(gcadj.__file__).parent
    words = _vocabulary_words()
    assert len(words) > 50  # every vocabulary was read
    found = {
        str(path.relative_to(package)): uses
        for path in sorted(package.rglob("*.py"))
        if (uses := string_comparisons(path.read_text(encoding="utf-8"), words))
    }
    assert found == {}


# -- no function over 100 lines ----------------------------------------------------------

LONGEST_FUNCTION = 100


def long_functions(source: str, limit: int = LONGEST_FUNCTION) -> list[str]:
    """The functions and methods of a module longer than `limit` lines, from their first
    decorator to their last line (nested functions count in their parent, and on their own)."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            length = (node.end_lineno or node.lineno) - first + 1
            if length > limit:
                found.append(f"line {first}: {node.name} has {length} lines")
    return found


def test_the_function_measure_can_fail() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(99))
    short = f"@decorated\ndef short():\n{body}"  # 101 lines with its decorator
    assert long_functions(short) == ["line 1: short has 101 lines"]
    assert long_functions(short.replace("@decorated\n", "")) == []  # exactly 100
    deep = body.replace("    ", "            ")
    nested = f"class A:\n    def outer(self):\n        def inner():\n{deep}{deep}"
    assert long_functions(nested) == ["line 2: outer has 200 lines", "line 3: inner has 199 lines"]


def test_no_function_is_over_100_lines() -> None:
    package = Path(gcadj.__file__).parent
    modules = sorted(package.rglob("*.py"))
    assert len(modules) > 50
    found = {
        str(path.relative_to(package)): long
        for path in modules
        if (long := long_functions(path.read_text(encoding="utf-8")))
    }
    assert found == {}


# -- pages come from templates ----------------------------------------------------------------

# An element's opening or closing tag as pages write them ("<div", "</nav>"); a source name
# in angle brackets ("<stdin>", "<body>": what a text with no file name is called) is none.
HTML_TAG = re.compile(
    r"</?(?:html|head|body|div|p|span|a|ul|ol|li|form|input|style|script|nav|section|h[1-6]"
    r"|pre|table|thead|tbody|tr|td|th|button|label|select|option|textarea|meta|title|code|b"
    r"|progress|fieldset|legend|details|summary|template|main|header|footer|br|wbr|link"
    r"|svg|g|rect|line|polyline|circle|path|text)(?:[\s>]|/>)",
)
SOURCE_NAMES = {"<stdin>", "<body>", "<server>", "<fen>"}
TEMPLATED_LAYERS = ("web", "outputs")  # where no HTML is written in a Python string
FORMAT_WRITERS = {  # the modules of those layers that write a file format, not a page
    "outputs/svg_diagram.py": "the SVG diagram writer (`export --to svg`): an image file, a format "
    "of its own, not a page; the viewer's kit carries its drawings as data",
}


def html_in_strings(source: str) -> list[tuple[int, str]]:
    """The string literals of a module's code (docstrings aside) that write an HTML tag."""
    import ast

    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in docstrings or node.value in SOURCE_NAMES:
                continue
            if HTML_TAG.search(node.value):
                found.append((node.lineno, node.value[:60]))
    return found


def test_the_html_finder_can_fail() -> None:
    assert html_in_strings('x = f"<div class={y}>"\n') == [(1, "<div class=")]
    assert html_in_strings('x = "</nav>"\n') == [(1, "</nav>")]
    assert html_in_strings('"""A <div> in a docstring."""\nx = "<stdin>"\n') == []
    assert html_in_strings("x = '<circle cx=1/><details>'\n") == [(1, "<circle cx=1/><details>")]


def test_no_html_is_written_in_a_python_string_where_pages_have_templates() -> None:
    """The served pages, the game viewer and the audit report are Jinja2 templates
    (gcadj/web/templates/, gcadj/outputs/templates/): a tag written in Python would bypass
    their autoescaping. Only the writers of a format that is not a page are left out, each
    named, with its reason."""
    root = Path(gcadj.__file__).parent
    assert all((root / module).is_file() for module in FORMAT_WRITERS)
    paths = [
        path
        for layer in TEMPLATED_LAYERS
        for path in sorted((root / layer).rglob("*.py"))
        if path.relative_to(root).as_posix() not in FORMAT_WRITERS
    ]
    assert len(paths) > len(TEMPLATED_LAYERS)
    found = {
        f"{path.relative_to(root)}:{line}": text
        for path in paths
        for line, text in html_in_strings(path.read_text(encoding="utf-8"))
    }
    assert found == {}
