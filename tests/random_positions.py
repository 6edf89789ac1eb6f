"""Random positions for property tests: the Kings, a few other pieces of any kind anywhere,
pockets empty or full, either side to move. Most are no game's positions, which is the
point: they reach what games rarely do (pieces of every kind near the Kings, odd pockets)."""

from __future__ import annotations

import random

from gcadj.engine.fen import format_fen
from gcadj.engine.pieces import PIECE, Piece
from gcadj.engine.position import Position
from gcadj.errors import FenError

LETTERS = "PBNRIDAGQMUVFWXTHZ"


def random_fen(rng: random.Random, pieces: int) -> str:
    """A FEN with the Kings and `pieces` other pieces (each side's with even chance), each
    pocket full with chance 0.6, either side to move; it may be no position (a side not to
    move in check)."""
    board: list[Piece | None] = [None] * 64
    squares = rng.sample(range(64), pieces + 2)
    board[squares[0]], board[squares[1]] = PIECE["K"], PIECE["k"]
    for sq in squares[2:]:
        letter = rng.choice(LETTERS)
        board[sq] = PIECE[letter if rng.random() < 0.5 else letter.lower()]
    pockets = [
        PIECE[rng.choice(LETTERS).lower() if color else rng.choice(LETTERS)]
        if rng.random() < 0.6
        else None
        for color in (0, 1)
    ]
    return format_fen(board, pockets, rng.choice((0, 1)), None, 0, rng.randint(1, 40))


def random_position(rng: random.Random, pieces: int) -> Position | None:
    """`random_fen` as a position, or None when it is none."""
    try:
        return Position(random_fen(rng, pieces))
    except FenError:
        return None
