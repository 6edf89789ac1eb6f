"""A plain-text diagram of a position with both pockets, for terminal reports.

Pieces are shown by their Game Courier letters (upper case White, lower case Black),
empty squares by '.', Black's pocket beside rank 8 and White's beside rank 1, where
the pocket squares stand on Game Courier's ninth file. The diagram is drawn from a FEN
the judge recorded (a verdict's final FEN, a finding's position before the move): it is
only read, never made into a position and judged again.
"""

from __future__ import annotations

from gcadj.engine.fen import parse_fen
from gcadj.engine.squares import BLACK, WHITE
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile, Side


def text_diagram(
    fen: str, pocket_file: PocketFile = DEFAULT_POCKET_FILE, indent: str = "  "
) -> str:
    """Rank 8 at the top; the pockets as Game Courier's ninth-file squares beside the board."""
    setup = parse_fen(fen)
    lines = []
    for rank in range(7, -1, -1):
        cells = " ".join(
            "." if (p := setup.board[rank * 8 + f]) is None else p.symbol for f in range(8)
        )
        pocket = ""
        if rank in (7, 0):
            owner = BLACK if rank == 7 else WHITE
            held = setup.pockets[owner]
            symbol = held.symbol if held else "."
            square = f"{pocket_file}{rank + 1}"
            pocket = f" | {symbol}   {Side.of(owner).capitalized}'s pocket ({square})"
        lines.append(f"{indent}{rank + 1} {cells}{pocket}")
    lines.append(f"{indent}  a b c d e f g h   {pocket_file}")
    lines.append(f"{indent}{Side.of(setup.turn).capitalized} to move")
    return "\n".join(lines)
