"""The reference for the mate prover: a naive exhaustive search, written here and nowhere
in gcadj.

It tries every move at every node, with no table, no ordering and no shortcut for the last
move (a mate is any move after which the side to move is in check with no legal move). Its
moves come from a move source: `moves_by_point_checks`, the tests' own, asks
`Position.is_legal` about every (from, to, kind) candidate of the side to move -- the
single-move check that judges a log, the other description of the rules than the
generator the prover uses; bench/bench_adjudicate.py runs the same search over
`Position.legal_moves` (faster, so the ratio it prints is the prover's lead over a naive
search, not over a slow move source).

The game ends as in docs/rules.md §4: checkmate, stalemate, a dead position, fifty moves
(after a hundred plies, unless that ply mates), and a position's third occurrence, which
the loser claims (docs/rules.md, "Adjudication").
"""

from __future__ import annotations

from collections.abc import Callable

from gcadj.engine.move import Move
from gcadj.engine.pieces import KINDS
from gcadj.engine.position import Position
from gcadj.engine.squares import KING_STEPS, POCKET

MoveSource = Callable[[Position], list[Move]]
AnyMove = Callable[[Position], bool]

GOES_ON, MATED, DRAWN = "goes on", "mated", "drawn"


def candidates(position: Position) -> list[Move]:
    """Every (from, to, kind) the side to move might mean: each of its pieces to every
    square and into the pocket as every kind, its pocket's piece onto every square. The
    King's steps first (a quick answer when only the existence of a move is asked)."""
    us = position.turn
    king = position.king_squares[us]
    found = [Move(king, t) for t in KING_STEPS[king]]
    for f, piece in enumerate(position.board):
        if piece is None or piece.color != us:
            continue
        found += [Move(f, t) for t in range(64) if not (f == king and t in KING_STEPS[king])]
        found += [Move(f, POCKET, kind) for kind in KINDS]
    held = position.pockets[us]
    if held is not None:
        found += [Move(POCKET, t, held.kind) for t in range(64)]
    return found


def moves_by_point_checks(position: Position) -> list[Move]:
    """The legal moves as the single-move check sees them."""
    return [move for move in candidates(position) if position.is_legal(move)]


def any_move_by_point_checks(position: Position) -> bool:
    """Has the side to move a legal move, as the single-move check sees them? (It stops at
    the first: the King's steps are tried first.)"""
    return any(position.is_legal(move) for move in candidates(position))


class NaiveSearch:
    """Shortest forced mates by trying everything; `nodes` counts the moves played."""

    def __init__(
        self,
        moves: MoveSource = moves_by_point_checks,
        any_move: AnyMove | None = any_move_by_point_checks,
        *,
        node_limit: int = -1,
    ):
        """`any_move` answers whether there is a legal move (None: ask `moves`)."""
        self.moves = moves
        self.any_move = any_move or (lambda position: bool(moves(position)))
        self.nodes = 0
        self.node_limit = node_limit

    def status(self, position: Position) -> str:
        if not self.any_move(position):
            return MATED if position.is_check() else DRAWN
        if (
            position.is_dead_position()
            or position.halfmove_clock >= 100
            or position.repetition_count() >= 3
        ):
            return DRAWN
        return GOES_ON

    def play(self, position: Position, move: Move) -> str:
        self.nodes += 1
        if 0 <= self.node_limit <= self.nodes:
            raise TimeoutError(f"the naive search passed {self.node_limit} nodes")
        position.push(move)
        return self.status(position)

    def mates_within(self, position: Position, n: int) -> bool:
        """The side to move (the game going on) mates in at most `n` of its moves."""
        for move in self.moves(position):
            state = self.play(position, move)
            won = state == MATED or (
                state == GOES_ON and n > 1 and self.mated_within(position, n - 1)
            )
            position.pop()
            if won:
                return True
        return False

    def mated_within(self, position: Position, n: int) -> bool:
        """Whatever the side to move (the game going on) plays, it is mated in at most `n`
        moves of the other side."""
        for move in self.moves(position):
            state = self.play(position, move)
            lost = state == GOES_ON and self.mates_within(position, n)
            position.pop()
            if not lost:
                return False
        return True

    def shortest(self, position: Position, depth: int) -> tuple[str, int] | None:
        """("for", n): the side to move mates in n; ("against", n): it is mated in n; the
        smallest n up to `depth`, trying "for" before "against" at each n; None: neither."""
        for n in range(1, depth + 1):
            if self.mates_within(position, n):
                return ("for", n)
            if self.mated_within(position, n):
                return ("against", n)
        return None
