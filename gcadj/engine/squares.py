"""Squares and board geometry: names, and the step and ray tables every piece moves by.

Squares are ints 0..63 (a1 = 0, b1 = 1, ..., h8 = 63), as in python-chess, so a move or a
position prints as something you can read. The pocket is not a board square: moves to or
from it use the sentinel `POCKET` (64). Game Courier's ninth-file pocket squares (i1, i8
or p1, p8) are a notation matter and are mapped by the adjudicator, not here.

All movement is precomputed once per square as tuples of destination squares, so the move
generator only walks tuples: a leaper has a tuple of targets, a rider a tuple of rays, and
a ray is the tuple of squares in one direction, nearest first.
"""

from __future__ import annotations

from typing import Final

WHITE: Final = 0
BLACK: Final = 1

POCKET: Final = 64
"""Sentinel square for the side to move's pocket in `Move` values."""

FILE_NAMES: Final = "abcdefgh"
RANK_NAMES: Final = "12345678"
SQUARES: Final = range(64)
SQUARE_NAMES: Final = tuple(f + r for r in RANK_NAMES for f in FILE_NAMES)


def square(file_index: int, rank_index: int) -> int:
    """The square on file 0..7 and rank 0..7."""
    return rank_index * 8 + file_index


def square_file(sq: int) -> int:
    """0..7 for files a..h (a square is rank * 8 + file). The hot loops of the engine and
    the prover keep the raw ``sq & 7``; everything else asks here."""
    return sq & 7


def square_rank(sq: int) -> int:
    """0..7 for ranks 1..8, from White's side (see `relative_rank` for the mover's)."""
    return sq >> 3


def square_name(sq: int) -> str:
    """'e4' for a board square, '@' for the pocket sentinel."""
    return "@" if sq == POCKET else SQUARE_NAMES[sq]


def parse_square(name: str) -> int:
    """'e4' -> 28. Raises ValueError for anything that is not a board square."""
    if len(name) == 2 and name[0] in FILE_NAMES and name[1] in RANK_NAMES:
        return square(FILE_NAMES.index(name[0]), RANK_NAMES.index(name[1]))
    raise ValueError(f"not a board square: {name!r}")


def relative_rank(sq: int, color: int) -> int:
    """Rank 0..7 counted from `color`'s own side (docs/rules.md: Black's rank 1 is board rank 8)."""
    rank = square_rank(sq)
    return rank if color == WHITE else 7 - rank


# Direction vectors as (file delta, rank delta).
DIAGONAL_VECTORS: Final = ((1, 1), (-1, 1), (1, -1), (-1, -1))
ORTHOGONAL_VECTORS: Final = ((1, 0), (-1, 0), (0, 1), (0, -1))
KNIGHT_VECTORS: Final = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING_VECTORS: Final = DIAGONAL_VECTORS + ORTHOGONAL_VECTORS

Ray = tuple[int, ...]


def _full_ray(sq: int, vector: tuple[int, int]) -> Ray:
    """Squares from `sq` in direction `vector` to the edge, nearest first."""
    df, dr = vector
    f, r = square_file(sq), square_rank(sq)
    out: list[int] = []
    while True:
        f, r = f + df, r + dr
        if not (0 <= f < 8 and 0 <= r < 8):
            return tuple(out)
        out.append(r * 8 + f)


_RAYS_BY_VECTOR: dict[tuple[int, int], tuple[Ray, ...]] = {}


def _rays_along(vector: tuple[int, int]) -> tuple[Ray, ...]:
    """Per square, its ray in direction `vector` to the edge (built once per direction:
    nineteen piece kinds ask for the same few directions, and import time is start-up)."""
    table = _RAYS_BY_VECTOR.get(vector)
    if table is None:
        table = _RAYS_BY_VECTOR[vector] = tuple(_full_ray(s, vector) for s in SQUARES)
    return table


def rays_for(vectors: tuple[tuple[int, int], ...], limit: int = 8) -> tuple[tuple[Ray, ...], ...]:
    """For every square, the non-empty rays in the given directions (limit 1 = a leaper)."""
    if not vectors:
        return ((),) * 64
    tables = [_rays_along(v) for v in vectors]
    if limit < 7:  # no ray is longer than 7 squares
        tables = [tuple(ray[:limit] for ray in table) for table in tables]
    return tuple(tuple(ray for ray in rays if ray) for rays in zip(*tables, strict=True))


def steps_for(vectors: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """For every square, the squares one step away in the given directions."""
    if not vectors:
        return ((),) * 64
    tables = [_steps_along(v) for v in vectors]
    return tuple(tuple(t for t in steps if t >= 0) for steps in zip(*tables, strict=True))


_STEPS_BY_VECTOR: dict[tuple[int, int], tuple[int, ...]] = {}


def _steps_along(vector: tuple[int, int]) -> tuple[int, ...]:
    """Per square, the square one step away in direction `vector`, -1 off the board."""
    table = _STEPS_BY_VECTOR.get(vector)
    if table is None:
        rays = _rays_along(vector)
        table = _STEPS_BY_VECTOR[vector] = tuple(ray[0] if ray else -1 for ray in rays)
    return table


KING_STEPS: Final = steps_for(KING_VECTORS)
KNIGHT_LEAPS: Final = steps_for(KNIGHT_VECTORS)

# The three kinds of line a piece can ride (indices into `Piece.rides` and `Piece.near`).
LINE_DIAGONAL: Final = 0
LINE_ORTHOGONAL: Final = 1
LINE_KNIGHT: Final = 2
