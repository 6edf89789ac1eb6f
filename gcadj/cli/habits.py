"""Habits users bring from other command-line tools, applied once for every command (by
`gcadj.cli.main.Command`, to what click parsed, before the command runs).

* No source named and standard input not a terminal: the games come from standard input
  (``cat g.txt | gcadj check``), as pgn-extract and most filters do (`READS_STDIN`).
* ``-`` wherever a FEN or a text is expected reads it from standard input
  (`TEXT_FROM_STDIN`): ``echo startpos | gcadj fen --to-gc -``.
* Letters in options are read in either case: ``--pocket-file P`` (`PocketFile.read`),
  ``--to PGN`` and ``--turn B`` (their choices are declared ``case_sensitive=False``).
* Flags that contradict each other are refused in words (`CONTRADICTIONS`).
* A negative number where a count is expected is refused in words: ``perft startpos -1``
  says that DEPTH needs a whole number ≥ 0, not "No such option: -1" (`is_negative_number`).
* An unknown option is answered with a suggestion only when one is close
  (`close_options`): ``--verbos`` gets ``--verbose``; ``--bogus`` gets none; an option
  of another command is said to be that command's (``check --to`` is export's:
  `owners_of`).
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, Final

import typer
from typer.core import TyperOption

# The commands whose games come from standard input when no source is named (an audit
# judges named archives in parallel and can resume: not a stream).
READS_STDIN: Final = frozenset({"check", "export", "adjudicate"})
# The commands for which --fen with no source is the input itself (a position to adjudicate):
# standard input is then not read for games.
FEN_IS_INPUT: Final = frozenset({"adjudicate"})
# Parameters holding a FEN or a text: "-" reads it from standard input.
TEXT_FROM_STDIN: Final = ("fen", "to_gc", "from_gc")
# (parameter, parameter): both given is a usage error, said in words.
CONTRADICTIONS: Final = (
    ("quiet", "verbose"),
    ("cache", "no_cache"),
)

_NEGATIVE_NUMBER: Final = re.compile(r"-(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


@cache
def no_such_option_error() -> type[Exception]:
    """The exception click raises for an unknown option, from the click that typer runs
    on (its own copy, ``typer._click``, since typer 0.28; the click package before): found
    through typer's public Context, so that both work."""
    base = next(kind for kind in typer.Context.__mro__[1:] if kind.__name__ == "Context")
    package = base.__module__.rpartition(".")[0]
    error: type[Exception] = importlib.import_module(f"{package}.exceptions").NoSuchOption
    return error


def is_negative_number(token: str) -> bool:
    """``-1``, ``-0.5``: a value the user typed, which click would take for an option."""
    return _NEGATIVE_NUMBER.fullmatch(token) is not None


def stdin_is_terminal() -> bool:
    """Is standard input a terminal (a person typing), rather than a pipe or a file?"""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (AttributeError, ValueError):  # closed, or no real stream
        return False


def apply_habits(command: str, params: Sequence[Any], values: dict[str, Any]) -> None:
    """Apply the habits to the `values` click parsed for `command`'s `params`, in place;
    a usage error (exit 2, in words) for contradicting flags or a standard input asked
    for twice."""
    from gcadj.cli.common_options import EXIT_USAGE, fail

    problem = contradiction(params, values)
    if problem is not None:
        raise fail(command, problem, EXIT_USAGE)
    position_only = command in FEN_IS_INPUT and values.get("fen") is not None
    if (
        command in READS_STDIN
        and "sources" in values
        and not values["sources"]
        and not position_only
    ):
        if stdin_is_terminal():
            message = "name at least one source, or pipe a game into standard input ('-')"
            raise fail(command, message, EXIT_USAGE)
        values["sources"] = ["-"]
    texts = [name for name in TEXT_FROM_STDIN if values.get(name) == "-"]
    takers = [*texts, *(["sources"] if "-" in (values.get("sources") or ()) else [])]
    if len(takers) > 1:
        words = " and ".join(_spelling(params, name) for name in takers)
        raise fail(command, f"standard input can be read once: {words} both ask for it", EXIT_USAGE)
    for name in texts:
        values[name] = _stdin_line(command, _spelling(params, name))


def _stdin_line(command: str, option: str) -> str:
    """The first non-blank line of standard input, stripped: a FEN or a position code."""
    from gcadj.cli.common_options import EXIT_USAGE, fail
    from gcadj.sources.read import read_source  # one decoding for stdin, files and pages

    text = read_source("-")
    line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if not line:
        raise fail(command, f"{option} -: standard input holds no line", EXIT_USAGE)
    return line


def _spelling(params: Sequence[Any], name: str) -> str:
    """How the user spells a parameter: ``--fen``, ``-q/--quiet``, or FEN for an argument."""
    for param in params:
        if param.name == name:
            if isinstance(param, TyperOption):
                return "/".join(sorted(param.opts, key=len))
            return str(param.human_readable_name)
    return name


def contradiction(params: Sequence[Any], values: dict[str, object]) -> str | None:
    """Words for two flags given together that contradict each other, or None (`params`:
    the command's click parameters, `values` what the command line gave them)."""
    names = {param.name for param in params if isinstance(param, TyperOption)}
    for first, second in CONTRADICTIONS:
        if {first, second} <= names and values.get(first) and values.get(second):
            one, other = _spelling(params, first), _spelling(params, second)
            return f"{one} and {other} contradict each other; give one of them"
    return None


def close_options(typed: str, options: Iterable[str]) -> list[str]:
    """The options an unknown `typed` option was probably meant to be: the same name but for
    a slip or two (``--verbos``, ``--pocket_file``), or one it begins (``--out`` for
    ``--output``). Names are compared without their dashes, which every option shares and
    which made click offer ``--verbose`` for ``--bogus``."""
    import difflib

    bare = typed.lstrip("-")
    names = {option.lstrip("-"): option for option in options if option.startswith("--")}
    if len(bare) < 2:
        return []
    close = difflib.get_close_matches(bare, list(names), n=3, cutoff=0.7)
    begun = [name for name in names if name.startswith(bare) and name not in close]
    return [names[name] for name in [*close, *begun]]


def owners_of(typed: str, options: dict[str, list[str]]) -> list[str]:
    """The commands that have the option `typed` (``--to`` is export's): where the user
    probably meant to give it (`options`: each command's options, by its name)."""
    return sorted(name for name, names in options.items() if typed in names)


def owners_words(typed: str, owners: list[str]) -> str:
    """What the error of an option another command has adds: ``check --to`` is told that
    ``--to`` is export's."""
    commands = " and ".join(f"gcadj {name}" for name in owners)
    example = f"gcadj {owners[0]} {typed} ..." if len(owners) == 1 else ""
    return f"; {typed} is an option of {commands}" + (f" ({example})" if example else "")


__all__ = [
    "CONTRADICTIONS",
    "FEN_IS_INPUT",
    "READS_STDIN",
    "TEXT_FROM_STDIN",
    "apply_habits",
    "close_options",
    "contradiction",
    "is_negative_number",
    "no_such_option_error",
    "owners_of",
    "owners_words",
    "stdin_is_terminal",
]
