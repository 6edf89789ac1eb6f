"""``--to svg``: one self-contained SVG diagram of a position of the game
(`gcadj.outputs.svg_diagram` draws it): by default the last legal position, which for an
illegal game is the position its first illegal ply was played in, with that ply marked;
``--ply N`` the position after N legal plies."""

from __future__ import annotations

from collections.abc import Sequence

from gcadj.judging.plies import JudgedGame
from gcadj.judging.verdict import Verdict
from gcadj.outputs.registry import (
    ExportGame,
    ExportOptions,
    Writer,
    WriteTo,
    check_ply,
    text_writer,
)
from gcadj.outputs.svg_diagram import marked_cells, render_svg

__all__ = ["WRITER", "write_svg"]


def write_svg(verdict: Verdict, ply: int | None = None, *, size: int = 48) -> str:
    """The diagram after `ply` legal plies (default: the end of the legal prefix)."""
    game = JudgedGame(verdict)
    legal = len(verdict.moves)
    n = legal if ply is None else ply
    check_ply(verdict, n)
    illegal = None
    if verdict.first_illegal is not None and n == legal and n < len(game.log.records):
        illegal = marked_cells(game.log.records[n])
    return render_svg(
        game.position_after(n),
        last_move=verdict.moves[n - 1] if n else None,
        illegal=illegal,
        pocket_file=game.log.pocket_file,
        size=size,
    )


def _prepare(games: Sequence[ExportGame], options: ExportOptions) -> WriteTo:
    return text_writer(write_svg(games[0].verdict, options.ply, size=options.size))


WRITER = Writer(
    name="svg",
    title="SVG",
    help="a diagram of the last legal position; --ply N: after N plies",
    many=False,
    accepts=frozenset({"ply"}),
    prepare=_prepare,
    order=50,
)
