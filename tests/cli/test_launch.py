"""A Ctrl-C while gcadj is still importing its command line ends it as a Ctrl-C during a
command does (exit 130, one line), never with a traceback (gcadj.cli.launch).

The interrupt is raised by an import hook at the moment typer is imported, the part of
the start-up a real Ctrl-C is most likely to meet: the same exception at the same place,
without a race against the clock."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT

from gcadj.app.exit_codes import EXIT_INTERRUPTED
from gcadj.cli.launch import interrupted_line

CHILD = """
import builtins, sys
real_import = builtins.__import__
def interrupting(name, *args, **kwargs):
    if name == "typer":
        raise KeyboardInterrupt
    return real_import(name, *args, **kwargs)
builtins.__import__ = interrupting
sys.argv = ["gcadj", *sys.argv[1:]]
from gcadj.cli.launch import main
main()
"""


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["analyse", "game.txt"], "gcadj analyse: interrupted\n"),
        (["check", "-q", "-"], "gcadj check: interrupted\n"),
        (["\x1b[2Jevil"], "gcadj: interrupted\n"),
        ([], "gcadj: interrupted\n"),
    ],
)
def test_ctrl_c_while_starting_exits_130_with_one_line(args: list[str], said: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *args], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == EXIT_INTERRUPTED == 130
    assert done.stderr == said
    assert done.stdout == ""


def test_the_line_echoes_only_a_plain_command_word() -> None:
    assert interrupted_line(["gcadj", "audit"]) == "gcadj audit: interrupted"
    assert interrupted_line(["gcadj", "--version"]) == "gcadj: interrupted"
    assert interrupted_line(["gcadj", "a" * 21]) == "gcadj: interrupted"
    assert interrupted_line(["gcadj"]) == "gcadj: interrupted"


def test_the_console_script_and_python_m_start_through_the_guard() -> None:
    """Both ways of starting gcadj go through launch.main (the script's entry point in
    pyproject.toml, and __main__.py)."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'gcadj = "gcadj.cli.launch:main"' in pyproject
    main_module = (ROOT / "gcadj" / "__main__.py").read_text(encoding="utf-8")
    assert "from gcadj.cli.launch import main" in main_module
