"""Exports from Python: judged games (`Verdict`s with their logs) written in a format named
as ``gcadj export --to`` names it.

The formats are the modules of `gcadj.outputs.writers`, found by `gcadj.outputs.registry`;
each writes from one walk over the judged game (`gcadj.judging.plies`), never judging
again. The legal prefix is written in each format's own notation; an illegal game carries
its first illegal ply and everything after it as typed, and a game cut by an unreadable ply
carries the text it could not read, so reading the export back gives the same verdict.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from gcadj.errors import ExportError
from gcadj.judging.verdict import Verdict
from gcadj.outputs.registry import ExportGame, ExportOptions, WriteTo, writer_for
from gcadj.vocabulary import PocketFile, not_a_pocket_file

__all__ = ["ExportError", "export_game", "export_games", "export_writer"]


def export_writer(
    verdicts: Verdict | Sequence[Verdict],
    fmt: str,
    *,
    ply: int | None = None,
    size: int = 48,
    to_pocket_file: str | None = None,
) -> WriteTo:
    """What writes the games in format `fmt` to a stream, once every check has passed:
    raises `ExportError` now, before anything is written."""
    games = [verdicts] if isinstance(verdicts, Verdict) else list(verdicts)
    target = None if to_pocket_file is None else PocketFile.read(to_pocket_file)
    if to_pocket_file is not None and target is None:
        raise ExportError(not_a_pocket_file("--to-pocket-file", to_pocket_file))
    options = ExportOptions(ply=ply, to_pocket_file=target, size=size)
    return writer_for(fmt).start([ExportGame(v) for v in games], options)


def export_game(
    verdict: Verdict,
    fmt: str,
    *,
    ply: int | None = None,
    size: int = 48,
    to_pocket_file: str | None = None,
) -> str:
    """The game in format `fmt`; `ply` selects a position (fen, svg); `to_pocket_file`
    writes a Game Courier list for the preset with that pocket file."""
    out = io.StringIO()
    export_writer(verdict, fmt, ply=ply, size=size, to_pocket_file=to_pocket_file)(out)
    return out.getvalue()


def export_games(
    verdicts: Sequence[Verdict],
    fmt: str,
    *,
    ply: int | None = None,
    to_pocket_file: str | None = None,
) -> str:
    """Several games in one text, for the formats that hold several (pgn: a database;
    html: one viewer page); `ExportError` for the others."""
    out = io.StringIO()
    export_writer(verdicts, fmt, ply=ply, to_pocket_file=to_pocket_file)(out)
    return out.getvalue()
