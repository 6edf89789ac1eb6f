"""The reference for the exchange count: a naive capture-only minimax, written here and
nowhere in gcadj.

Plain negamax, no alpha-beta, no ordering: every move searched at every node. Its moves
are a filter of `Position.legal_moves()` by what each does to the board (a capture, en
passant, a pocketing from rank 8 whose kind is of a higher class), not the engine's
`material_moves`; its material is summed from the board and the pockets, not kept up to
date move by move. The rules of the count are docs/rules.md §8.1's: a side not in check
may stand pat; a side in check searches every legal move, and with none it is mated
(``ply - MATE``); a line ends where the fifty-move count has reached 100 plies, and at
`MAX_PLIES` (the count is then cut: the tests compare only counts that were not).
"""

from __future__ import annotations

from gcadj.engine.move import Move
from gcadj.engine.position import Position
from gcadj.engine.squares import POCKET

MATE = 10_000


def totals(position: Position) -> tuple[int, int]:
    """Each side's class units, board and pocket, read square by square."""
    counts = [0, 0]
    for piece in [*position.board, *position.pockets]:
        if piece is not None and not piece.king:
            counts[piece.color] += piece.kind.value_class
    return counts[0], counts[1]


def changes_material(position: Position, move: Move) -> bool:
    f, t, kind = move
    if f == POCKET:
        return False
    piece = position.board[f]
    assert piece is not None
    if t == POCKET:
        assert kind is not None
        return kind.value_class > piece.kind.value_class
    return position.board[t] is not None or (piece.pawn and (f & 7) != (t & 7))


class NaiveExchanges:
    """Counts by trying everything; `nodes` counts the positions visited."""

    def __init__(self, max_plies: int, *, node_limit: int = -1) -> None:
        self.max_plies = max_plies
        self.node_limit = node_limit
        self.nodes = 0

    def value(self, position: Position, ply: int = 0) -> int:
        """The count for the side to move: class units, or a mate score."""
        self.nodes += 1
        if 0 <= self.node_limit <= self.nodes:
            raise TimeoutError(f"the naive count passed {self.node_limit} nodes")
        white, black = totals(position)
        stand = white - black if position.turn == 0 else black - white
        legal = position.legal_moves()
        in_check = position.is_check()
        if in_check and not legal:
            return ply - MATE
        if position.halfmove_clock >= 100 or ply >= self.max_plies:
            return stand
        moves = legal if in_check else [m for m in legal if changes_material(position, m)]
        values = [] if in_check else [stand]
        for move in moves:
            position.push(move)
            values.append(-self.value(position, ply + 1))
            position.pop()
        return max(values)
