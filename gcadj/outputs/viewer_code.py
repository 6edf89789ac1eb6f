"""The game viewer's style and script, kept as files (``gcadj/outputs/static/viewer.css``
and ``viewer.js``) and read once: `gcadj.outputs.viewer` writes them into a page, or into
the two files an audit's pages share.

The script draws a position from the page's data and the kit (`gcadj.outputs.svg_diagram`'s
board, pieces and turn marks, for both sides of the board): it has no drawing code of
its own. It steps through the steps of a game (``#ply=N``; ``#game=G&ply=N`` on a page
of several games; ``&flip=1`` with the board seen from Black's side), keeps the address
in step with what it shows, and keys: ← → Home End, F to flip. A step may branch from an
earlier one (its ``p``: an adjudication's line, a defence of its proof): ◀ and ← go to the
step it follows, ▶ and → to the first step that follows it (along the game first), ▶| and
End to the end of the line it is on. Keys typed into a form
field (the server's editor) are the field's, never the board's.

Every text is 12 px or more on a 390-pixel phone: the smallest, the facts and the
notes, are 0.8 em of the page's 16 px.
"""

from __future__ import annotations

from typing import Final

from gcadj.outputs.templating import STATIC, read_asset

__all__ = ["VIEWER_SCRIPT", "VIEWER_STYLE"]

VIEWER_STYLE: Final[str] = str(read_asset(STATIC, "viewer.css"))
"""The style sheet (``gcadj/outputs/static/viewer.css``)."""

VIEWER_SCRIPT: Final[str] = str(read_asset(STATIC, "viewer.js"))
"""The script (``gcadj/outputs/static/viewer.js``)."""
