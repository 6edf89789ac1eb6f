"""The one way in: a source, as the user named it, becomes its judged games.

Every caller that judges games goes through `judge_source`: ``gcadj check``, ``export``,
``audit`` (in its workers), ``fetch``, the viewer, ``gcadj serve`` and the public API
(`gcadj.check_text`, `gcadj.check_source`). So they all give the same verdict, warnings
included, for the same source.

A judged game is a `Verdict`: its summary (the schema of ``gcadj check --json``) and the
game itself (its log, the legal moves, the start position), which writers read and never
judge again.
"""

from __future__ import annotations

from gcadj.adjudication.verdict import Verdict
from gcadj.app.check import CheckOptions, judge_games

JudgeOptions = CheckOptions
"""How each game is judged: the start position, the pocket file, every finding or the first."""


def judge_source(
    spec: str,
    options: JudgeOptions | None = None,
    *,
    text: str | None = None,
) -> list[Verdict]:
    """Every game of a source, judged, in order; never raises for bad input.

    `spec` names the source: a file, '-' for standard input, an http(s) URL, or one game of
    a database (``all.pgn#3``). `text` is its text when the caller already has it (a page
    fetched earlier, an upload, pasted text): it is then not read again, and `spec` is only
    the name the verdicts carry. An unreadable source gives one "error" verdict; a bug of
    gcadj's on a source gives that source an internal-error verdict.
    """
    return judge_games(spec, options or JudgeOptions(), text)


__all__ = ["JudgeOptions", "judge_source"]
