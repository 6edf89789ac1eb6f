"""Positions built to be rich in checks, double checks, pins and en passant squares.

Random games rarely reach a double check or an en passant square (tests/engine/
test_properties.py walks them); the builder here places them on purpose, around the side
to move's King:

* an enemy pawn that has just double-stepped (the en passant square set, the square it
  passed and the one it left both empty), often beside our pawns and often checking;
* checkers on the lines out of our King (queen lines, Nightrider lines, leaps, pawn
  steps), up to two of them: double checks;
* pins: an own piece on a line out of the King, an enemy rider behind it;
* enemy riders aimed at the King *through* the en passant square, the pawn to be taken
  or the capturing pawn (the capture that blocks, uncovers or leaves a check);
* other pieces of any kind anywhere, pockets empty or full, either side to move.

One builder, two drivers: `crafted_fens()` draws its choices from hypothesis (so a
failure shrinks), `crafted_fen(rng)` from a seeded `random.Random` (for the
Fairy-Stockfish comparison, which wants a fixed list).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from hypothesis import assume
from hypothesis import strategies as st

from gcadj.engine.fen import FenError, format_fen
from gcadj.engine.move import Move
from gcadj.engine.pieces import PAWN, PIECES, Piece
from gcadj.engine.position import KING_LINES, Position
from gcadj.engine.squares import KING_STEPS, WHITE, Ray

T = TypeVar("T")

NON_KING: tuple[tuple[Piece, ...], ...] = tuple(
    tuple(p for p in side if not p.king) for side in PIECES
)
PAWNS: tuple[Piece, Piece] = (PIECES[0][PAWN.index], PIECES[1][PAWN.index])


class Chooser(Protocol):
    """Where the builder's choices come from (hypothesis or a seeded random generator)."""

    def integer(self, low: int, high: int, label: str) -> int: ...

    def choice(self, options: Sequence[T], label: str) -> T: ...


class HypothesisChooser:
    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def integer(self, low: int, high: int, label: str) -> int:
        return self.draw(st.integers(low, high), label=label)

    def choice(self, options: Sequence[T], label: str) -> T:
        return self.draw(st.sampled_from(options), label=label)


class RandomChooser:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, low: int, high: int, label: str) -> int:
        return self.rng.randint(low, high)

    def choice(self, options: Sequence[T], label: str) -> T:
        return self.rng.choice(options)


class _Board:
    """A board under construction: pieces placed, and squares that must stay empty."""

    def __init__(self) -> None:
        self.squares: list[Piece | None] = [None] * 64
        self.keep_empty: set[int] = set()

    def free(self, sq: int) -> bool:
        return self.squares[sq] is None and sq not in self.keep_empty


def _checking_pieces(them: int, line: int, distance: int, pawn_color: int) -> list[Piece]:
    """Enemy pieces that, `distance` squares out on a line of this kind, attack the King."""
    return [
        p
        for p in NON_KING[them]
        if p.rides[line] or (distance == 0 and (p.near[line] or (p.pawn and pawn_color == them)))
    ]


def _riders(them: int, line: int) -> list[Piece]:
    return [p for p in NON_KING[them] if p.rides[line]]


def build_fen(choose: Chooser) -> str | None:
    """A crafted position's FEN, or None when the choices made no position.

    Half the positions focus on en passant under check: the pawn that just double-stepped
    checks the King, our pawn stands beside it, and often a rider is aimed at the King
    through the en passant square (so the capture may answer a double check).
    """
    focus = choose.integer(0, 1, "focus on en passant under check?") == 1
    us = choose.integer(0, 1, "side to move")
    them = us ^ 1
    forward = 8 if us == WHITE else -8
    build = _Board()
    board = build.squares

    # An enemy pawn that has just double-stepped, and our pawns beside it.
    ep: int | None = None
    near_victim: list[int] = []
    if focus or choose.integer(0, 3, "en passant?") > 0:
        file = choose.integer(0, 7, "en passant file")
        victim = (4 if us == WHITE else 3) * 8 + file
        ep = victim + forward
        board[victim] = PAWNS[them]
        build.keep_empty.update((ep, ep + forward))
        sides = [side for side in (file - 1, file + 1) if 0 <= side < 8]
        if focus:
            capturers = choose.choice([sides[:1], sides[-1:], sides], "capturers")
        else:
            capturers = [s for s in sides if choose.integer(0, 2, "capturer") > 0]
        for side in capturers:
            board[victim - file + side] = PAWNS[us]
        # Squares where our King stands in check from the pawn that just moved.
        near_victim = [
            s
            for s in KING_STEPS[victim]
            if s >> 3 == (victim - forward) >> 3 and s & 7 != file and build.free(s)
        ]

    pawn_checks = bool(near_victim) and (focus or choose.integer(0, 2, "pawn checks?") == 0)
    if pawn_checks:
        king = choose.choice(near_victim, "King")
    else:
        king = choose.choice([s for s in range(64) if build.free(s)], "King")
    board[king] = PIECES[us][0]
    lines: tuple[tuple[Ray, int, int], ...] = KING_LINES[king]

    # Checkers: enemy pieces attacking the King along open lines.
    checks = choose.choice((0, 0, 1) if pawn_checks else (0, 0, 1, 2), "checkers")
    for _ in range(checks):
        ray, line, pawn_color = choose.choice(lines, "check line")
        distance = choose.integer(0, len(ray) - 1, "check distance")
        pieces = _checking_pieces(them, line, distance, pawn_color)
        if pieces and all(build.free(s) for s in ray[: distance + 1]):
            board[ray[distance]] = choose.choice(pieces, "checker")
            build.keep_empty.update(ray[:distance])

    # Pins: an own piece on a line out of the King and an enemy rider behind it.
    for _ in range(choose.integer(0, 2, "pins")):
        ray, line, _ = choose.choice(lines, "pin line")
        if len(ray) < 2:
            continue
        near = choose.integer(0, len(ray) - 2, "pinned at")
        far = choose.integer(near + 1, len(ray) - 1, "pinner at")
        if all(build.free(s) for s in ray[: far + 1]):
            board[ray[near]] = choose.choice(NON_KING[us], "pinned")
            board[ray[far]] = choose.choice(_riders(them, line), "pinner")
            build.keep_empty.update(ray[:near] + ray[near + 1 : far])

    # Riders aimed at the King through the en passant squares (x-rays, discovered checks).
    if ep is not None:
        victim = ep - forward
        targets = [ep, victim] + [s for s in (victim - 1, victim + 1) if board[s] is PAWNS[us]]
        aims = [choose.choice(targets, "aim at") for _ in range(choose.choice((0, 0, 1), "aims"))]
        if choose.integer(0, 2, "aim through the en passant square?") > (0 if focus else 1):
            aims.append(ep)  # the capture may then block a check (issue 19.6)
        for target in aims:
            for ray, line, _ in lines:
                if target in ray:
                    beyond = [s for s in ray[ray.index(target) + 1 :] if build.free(s)]
                    if beyond:
                        sq = choose.choice(beyond, "aimed rider at")
                        board[sq] = choose.choice(_riders(them, line), "aimed rider")

    # Anything else, anywhere free.
    everything = NON_KING[0] + NON_KING[1]
    for _ in range(choose.integer(0, 4, "others")):
        sq = choose.integer(0, 63, "other at")
        if build.free(sq):
            board[sq] = choose.choice(everything, "other")

    pockets = [choose.choice((None, *NON_KING[color]), "pocket") for color in (0, 1)]
    halfmove = choose.integer(0, 99, "halfmove clock")
    # The enemy King: the first square from a chosen start where it is not in check (it
    # is not its move), so that few built positions are thrown away.
    start = choose.integer(0, 63, "enemy King from")
    away = [
        s
        for s in range(64)
        if build.free(s) and max(abs((s & 7) - (king & 7)), abs((s >> 3) - (king >> 3))) > 1
    ]
    for sq in sorted(away, key=lambda s: (s - start) % 64):
        board[sq] = PIECES[them][0]
        fen = format_fen(board, pockets, us, ep, halfmove, 30)
        try:
            Position(fen)
        except FenError:  # the side not to move is in check
            board[sq] = None
            continue
        return fen
    return None


@st.composite
def crafted_fens(draw: st.DrawFn) -> str:
    """Hypothesis strategy: `build_fen` with hypothesis's choices (failures shrink)."""
    fen = build_fen(HypothesisChooser(draw))
    assume(fen is not None)
    assert fen is not None
    return fen


def crafted_fen(rng: random.Random) -> str:
    """`build_fen` with a seeded generator's choices: a reproducible list of positions."""
    while (fen := build_fen(RandomChooser(rng))) is None:
        pass
    return fen


def walk_a_few_plies(
    data: st.DataObject, fen: str, visit: Callable[[Position], None], most: int = 3
) -> None:
    """`visit` the position of `fen` and the positions after up to `most` random legal
    plies (hypothesis's choices), at every node: a built position rarely stays the point
    of a test for more than a few moves."""
    position = Position(fen)
    for _ in range(data.draw(st.integers(0, most), label="plies after")):
        visit(position)
        moves = sorted(position.legal_moves(), key=Move.uci)
        if not moves:
            return
        position.push(data.draw(st.sampled_from(moves), label="move"))
    visit(position)
