"""`gcadj --version` names the build that runs: the compiled core (mypyc) or pure Python.

CI runs the whole suite twice, against the editable (pure) install and against the
compiled wheel in a fresh venv, and says which it expects in ``GCADJ_EXPECT_BUILD``
(``pure`` or ``compiled``), so a wheel that silently fell back to pure Python fails there.
"""

from __future__ import annotations

import importlib
import os
import subprocess
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from conftest import GCADJ, ROOT

from gcadj.about import __version__, build_flavour, compiled_modules


def running_compiled() -> bool:
    """Is the engine this process imported an extension module?"""
    position = importlib.import_module("gcadj.engine.position")
    return str(position.__file__).endswith(tuple(EXTENSION_SUFFIXES))


def test_the_version_line_names_the_build_that_runs() -> None:
    done = subprocess.run(
        [*GCADJ, "--version"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    line = done.stdout.strip()
    assert line == f"gcadj {__version__}, {build_flavour()}"
    compiled = running_compiled()
    assert ("compiled core (mypyc, " in line) == compiled
    assert ("pure Python" in line) == (not compiled)
    if compiled:
        assert "gcadj.engine.position" in compiled_modules()
    expected = os.environ.get("GCADJ_EXPECT_BUILD")
    if expected is not None:
        assert expected == ("compiled" if compiled else "pure"), line


def test_a_module_counts_as_compiled_only_with_its_source_beside_it(tmp_path: Path) -> None:
    suffix = EXTENSION_SUFFIXES[0]
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "position.py").write_text("")
    (tmp_path / "engine" / f"position{suffix}").write_bytes(b"")
    (tmp_path / "engine" / "move.py").write_text("")  # no extension: runs as Python
    (tmp_path / f"_core__mypyc{suffix}").write_bytes(b"")  # the shared library: no source
    assert compiled_modules(tmp_path) == ["gcadj.engine.position"]
    assert compiled_modules(tmp_path / "engine" / "missing") == []


def test_ci_runs_the_tests_of_every_compiled_layer_against_the_compiled_wheel() -> None:
    """`.ci/run` runs only some folders of tests against the compiled wheel (the rest is the
    same Python in both builds): every layer with a module in hatch_build.py's
    COMPILED_MODULES must be among them, and the run of every command."""
    import ast
    import re

    tree = ast.parse((ROOT / "hatch_build.py").read_text(encoding="utf-8"))
    modules = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.AnnAssign | ast.Assign)
        and "COMPILED_MODULES"
        in ast.unparse(node.targets[0] if isinstance(node, ast.Assign) else node.target)
    )
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = re.search(r"GCADJ_EXPECT_BUILD=compiled .*?pytest(.*?)[^\\]\n", ci, re.S)
    assert command is not None
    folders = set(command.group(1).split())
    layers = {Path(module).parts[1] for module in modules}
    assert layers and {f"tests/{layer}" for layer in layers} <= folders
    assert {"tests/crosslayer", "tests/cli/test_every_command_runs.py"} <= folders
