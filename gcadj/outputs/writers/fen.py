"""``--to fen``: gcadj's FEN of the start (ply 0) and after each legal ply, one per line;
``--ply N`` writes only the position after N legal plies."""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO

from gcadj.judging.plies import JudgedGame
from gcadj.judging.verdict import Verdict
from gcadj.outputs.registry import ExportGame, ExportOptions, Writer, WriteTo, check_ply

__all__ = ["WRITER", "write_fens", "write_fens_to"]


def write_fens_to(out: IO[str], verdict: Verdict, ply: int | None = None) -> None:
    """The FENs (see the module docstring), one line each, as the walk reaches them."""
    game = JudgedGame(verdict)
    if ply is not None:
        check_ply(verdict, ply)
        out.write(game.position_after(ply).fen() + "\n")
        return
    for position in game.positions():
        out.write(position.fen() + "\n")


def write_fens(verdict: Verdict, ply: int | None = None) -> str:
    """`write_fens_to` as one text."""
    import io

    out = io.StringIO()
    write_fens_to(out, verdict, ply)
    return out.getvalue()


def _prepare(games: Sequence[ExportGame], options: ExportOptions) -> WriteTo:
    verdict = games[0].verdict
    if options.ply is not None:
        check_ply(verdict, options.ply)  # before anything is written

    def write(out: IO[str]) -> None:
        write_fens_to(out, verdict, options.ply)

    return write


WRITER = Writer(
    name="fen",
    title="FEN",
    help="gcadj's FEN of the start and after each legal ply; --ply N: only that one",
    many=False,
    accepts=frozenset({"ply"}),
    prepare=_prepare,
    order=30,
)
