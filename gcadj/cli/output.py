"""Where the commands print, in one place: data on stdout, diagnostics on stderr.

Every line that shows a verdict goes through here, so ``check`` and ``audit`` print a game
the same way, on the same stream:

- ``--json``: the verdict's JSON line on stdout (data);
- ``-q``: one line per game that is not legal (`failing`), on stdout, except that a
  source that could not be read is a diagnostic, on stderr;
- otherwise a block per game (`gcadj.outputs.report.render_verdict`; ``-v`` adds the
  tags and the final position), an unreadable source's on stderr;
- a game analysed (``check --analyse``) adds a line per finding and the analysis's
  summary (`gcadj.outputs.analysis`); with ``-q``, only its findings' lines (and its
  check ``-q`` line if it is not legal).

Notes (``gcadj CMD: ...``) always go to stderr. Every line for a person goes through
`gcadj.cli.streams.say`, which makes what the input put in it (a log's bytes, a page's
title, a file name) visible before a terminal can obey it; data (JSON lines, a fetched
log) is written as it is, its format carrying its own escaping.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import typer

from gcadj.app.exit_codes import INTERNAL_ERROR_HINT
from gcadj.cli.streams import say
from gcadj.vocabulary import Status

if TYPE_CHECKING:
    from gcadj.judging.verdict import Verdict


@dataclass(frozen=True)
class VerdictStyle:
    """How a verdict is shown: ``--json``, ``-q``, ``-v`` (see the module docstring)."""

    json: bool = False
    quiet: bool = False
    verbose: bool = False


def note(command: str, message: str) -> None:
    """A diagnostic line: ``gcadj CMD: message`` on stderr."""
    say(f"gcadj {command}: {message}", err=True)


def data(text: str) -> None:
    """Text that is the command's output, on stdout, as it is (its own line ends)."""
    typer.echo(text, nl=False)


def failing(status: str, line: str, *, stdout: bool = True) -> None:
    """A game that is not legal, in one line (``check -q``): on stdout, except a source
    that could not be read (a diagnostic), or everything when stdout carries other data
    (`stdout` false: an audit printing its JSON lines there)."""
    say(line, err=status == Status.ERROR or not stdout)


def verdict(command: str, judged: Verdict, style: VerdictStyle) -> None:
    """One game's verdict, as ``gcadj check`` shows it."""
    from gcadj.outputs.report import render_verdict, verdict_line

    if judged.analysis is not None and not style.json:  # check --analyse: its findings too
        from gcadj.outputs.analysis import analysed_text

        text = analysed_text(judged, quiet=style.quiet, verbose=style.verbose)
        if text:
            say(text, err=judged.status == Status.ERROR)
    elif style.quiet and judged.status == Status.LEGAL:
        return
    elif style.json:
        data(judged.json_line() + "\n")
    elif style.quiet:
        failing(judged.status, verdict_line(judged))
    else:
        text = render_verdict(judged, verbose=style.verbose)
        say(text, err=judged.status == Status.ERROR)  # unreadable: a diagnostic
    if judged.internal:  # after the error it explains
        note(command, f"{judged.source}: {INTERNAL_ERROR_HINT}")


__all__ = ["VerdictStyle", "data", "failing", "note", "verdict"]
