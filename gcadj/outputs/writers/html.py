"""``--to html``: a self-contained game viewer page (`gcadj.outputs.viewer`) to open in a
browser; several games make one page with a game list (``#game=G&ply=N`` opens a position)."""

from __future__ import annotations

from collections.abc import Sequence

from gcadj.outputs.registry import ExportGame, ExportOptions, Writer, WriteTo, text_writer
from gcadj.outputs.viewer import write_games_viewer

__all__ = ["WRITER"]


def _prepare(games: Sequence[ExportGame], options: ExportOptions) -> WriteTo:
    return text_writer(write_games_viewer([game.verdict for game in games], size=options.size))


WRITER = Writer(
    name="html",
    title="an HTML viewer",
    help="a self-contained game viewer page to open in a browser; #ply=N opens ply N",
    many=True,
    accepts=frozenset(),
    prepare=_prepare,
    several="one viewer page with a game list (#game=G&ply=N)",
    refusals={"ply": "open the viewer at #ply=N"},
    order=60,
)
