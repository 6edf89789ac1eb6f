"""Material after the forced exchanges: a quiescence search in class units.

A static count of material is blind to a Queen left hanging; what a director reads off a
board is the material **after the exchanges** that are about to happen. This module
counts it. It knows the rules only through the engine (an import contract keeps it so).

The search (docs/rules.md §8.1 says it for users):

* **The moves that change material**: captures, en passant included, and pocketings from
  the mover's rank 8, which promote (`Position.material_moves`). Drops, other
  pocketings and quiet moves change nothing and are not searched.
* **Stand pat**: a side not in check may decline every exchange; its value is then the
  material as it stands (each side's total in class units, pocket included, the King not
  counted, as `gcadj.judging.material` counts it). A stalemate is not looked for.
* **Checks are escaped properly**: a side in check may not stand pat; every legal move
  is searched (`Position.legal_moves`: King moves, blocks, drops that block), and a side
  in check with none is mated: a mate found counts as a mate, worth more than any
  material, the shorter the better.
* **Alpha-beta** (negamax, fail-soft) with the captures of the most valuable piece first,
  by the least valuable piece first; the principal line is kept as it is found.
* **Where a line ends**: where the side to move stands pat, where it is mated, or where the
  game ends by the fifty-move rule (a hundred plies without capture or promotion: only a
  line's first replies can get there, since every move searched otherwise resets the
  count); no repetition is possible in a line whose every second move at least takes or
  promotes, except through checks answered by checks, which the bounds below stop.
* **Bounds**: a line is at most `MAX_PLIES` plies long and the search visits at most
  `NODE_LIMIT` nodes (or the caller's limit). Either bound reached makes the answer a
  **cut** one (`ExchangeCount.cut` says which), which callers report and never weigh as a
  count: nothing is claimed from it. Neither is reached on the master games or the long
  random games of the tests and the bench (tests/analysis/test_exchanges.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from gcadj.engine.move import Move
from gcadj.engine.position import Position
from gcadj.engine.squares import BLACK, POCKET, WHITE

MATE: Final = 10_000
"""The score of a mate at the root; a mate `p` plies away scores ``MATE - p``."""
_INFINITY: Final = 1_000_000

# Not Final: mypyc would compile the numbers in, and tests lower them at run time.
MAX_PLIES = 32
"""The longest line searched, in plies: longer than any run of captures a board allows
(30 pieces can be taken) plus the checks answered on the way."""
NODE_LIMIT = 50_000
"""The nodes one count may visit when its caller sets no limit."""


@dataclass(frozen=True)
class ExchangeCount:
    """The material after the forced exchanges from a position.

    `score`: the outcome for the side to move, in class units (its total minus the
    other's, at the end of the line), or ``±(MATE - plies)`` when the line ends in mate
    (positive: the side to move mates). `line`: the principal line of exchanges (empty
    when the side to move stands pat at once). `white`, `black`: each side's total at the
    end of the line; `mated`: the colour mated at its end, or None. `cut`: None, or why
    the count is not to be weighed: ``"nodes"`` (the node limit) or ``"plies"`` (a line
    reached `MAX_PLIES`). `nodes`: the positions visited.
    """

    score: int
    line: tuple[Move, ...]
    white: int
    black: int
    mated: int | None
    cut: str | None
    nodes: int

    @property
    def balance(self) -> int:
        """White's total minus Black's at the end of the line, in class units."""
        return self.white - self.black

    @property
    def mate_moves(self) -> int | None:
        """The mating side's moves to the mate the line ends in, or None."""
        if self.mated is None:
            return None
        return (len(self.line) + 1) // 2


def count_exchanges(position: Position, *, node_limit: int | None = None) -> ExchangeCount:
    """The material of `position` (not changed) after the forced exchanges.

    Examples:
        >>> from gcadj.engine.position import Position
        >>> hanging = Position("rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R[] w - - 2 3")
        >>> found = count_exchanges(hanging)  # the Knight takes the Queen, nothing takes back
        >>> [move.uci() for move in found.line], found.white, found.black, found.balance
        (['f3g5'], 27, 22, 5)
    """
    return ExchangeSearch(position, NODE_LIMIT if node_limit is None else node_limit).run()


def side_totals(position: Position) -> tuple[int, int]:
    """Each side's material in class units, pocket included, the King not counted."""
    totals = [0, 0]
    board = position.board
    for color in (WHITE, BLACK):
        total = 0
        for square in position.occupied[color]:
            piece = board[square]
            assert piece is not None
            total += piece.kind.value_class
        held = position.pockets[color]
        if held is not None:
            total += held.kind.value_class
        totals[color] = total
    return totals[WHITE], totals[BLACK]


def gain(position: Position, move: Move) -> int:
    """The class units the mover gains by a legal `move` (before it is played): the class
    of the piece it takes (1 for en passant), or the class a pocketing climbs."""
    f, t, kind = move
    if f == POCKET:
        return 0
    board = position.board
    piece = board[f]
    assert piece is not None
    if t == POCKET:
        assert kind is not None
        return kind.value_class - piece.kind.value_class
    taken = board[t]
    if taken is not None:
        return taken.kind.value_class
    if piece.pawn and (f & 7) != (t & 7):
        return 1  # en passant
    return 0


class ExchangeSearch:
    """One count from one position (see the module docstring); `run` it once."""

    def __init__(self, position: Position, node_limit: int) -> None:
        self.pos = position.copy()
        white, black = side_totals(position)
        self.totals = [white, black]
        self.node_limit = node_limit
        self.nodes = 0
        self.cut: str | None = None
        self.lines: list[list[Move]] = [[] for _ in range(MAX_PLIES + 2)]

    def run(self) -> ExchangeCount:
        score = self._search(-_INFINITY, _INFINITY, 0)
        line = tuple(self.lines[0])
        pos = self.pos
        for move in line:
            pos.push_trusted(move)
        white, black = side_totals(pos)
        mated = pos.turn if pos.is_check() and not pos.has_legal_move() else None
        return ExchangeCount(score, line, white, black, mated, self.cut, self.nodes)

    def _search(self, alpha: int, beta: int, ply: int) -> int:
        """The value for the side to move (negamax, fail-soft), its line in
        ``self.lines[ply]``."""
        pos = self.pos
        self.nodes += 1
        self.lines[ply] = []
        us = pos.turn
        stand = self.totals[us] - self.totals[us ^ 1]
        if pos.is_check():
            moves = pos.legal_moves()
            if not moves:
                return ply - MATE
            best = -_INFINITY
        else:
            moves = []
            best = stand
        if pos.halfmove_clock >= 100:
            return stand  # the game is drawn by the fifty-move rule: the line ends
        if self.nodes > self.node_limit:
            self.cut = "nodes"
            return stand
        if ply >= MAX_PLIES:
            self.cut = "plies"
            return stand
        if best >= beta:
            return best
        if not moves:
            moves = pos.material_moves()
        alpha = max(alpha, best)
        for move, won in self._ordered(moves):
            self.totals[us] += won
            pos.push_trusted(move)
            score = -self._search(-beta, -alpha, ply + 1)
            pos.pop()
            self.totals[us] -= won
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    self.lines[ply] = [move, *self.lines[ply + 1]]
                    if score >= beta:
                        break
        return best

    def _ordered(self, moves: list[Move]) -> list[tuple[Move, int]]:
        """Each move with its gain, the most valuable capture first, by the least
        valuable piece first (the order they come in otherwise)."""
        pos = self.pos
        board = pos.board
        keyed = []
        for move in moves:
            won = gain(pos, move)
            f = move[0]
            mover = 0 if f == POCKET else board[f].kind.value_class  # type: ignore[union-attr]
            keyed.append((-(won * 16 - mover), move, won))
        keyed.sort(key=_first)
        return [(move, won) for _, move, won in keyed]


def _first(item: tuple[int, Move, int]) -> int:
    return item[0]


__all__ = [
    "MATE",
    "MAX_PLIES",
    "NODE_LIMIT",
    "ExchangeCount",
    "ExchangeSearch",
    "count_exchanges",
    "gain",
    "side_totals",
]
