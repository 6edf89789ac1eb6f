"""The engine's answers for mate searches agree with the generator they shortcut.

`Position.checking_moves()` finds the checking moves from the enemy King outwards (check
squares, discoverers, drops, en passant tried); `Position.gives_check` plays a move to
see; `has_legal_move()` in check looks for one answer (`_has_evasion`); `mates_in_one()`
gives the first checking move that leaves no answer, and `first_mate` the first of a
stretch of them. Each must agree
with `legal_moves()`, on crafted positions rich in checks, pins and en passant squares
(tests/crafted_positions.py) with a few random plies after them, on sparse random boards
with pockets, and on positions built around discovered checks.
"""

from __future__ import annotations

import random

import pytest
from conftest import budget
from crafted_positions import crafted_fens, walk_a_few_plies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_positions import random_position

from gcadj.engine.move import Move
from gcadj.engine.position import Position
from gcadj.engine.squares import POCKET

SETTINGS = settings(
    max_examples=budget(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def checks_by_playing(position: Position) -> set[Move]:
    """The other description: every legal move, played, and the enemy King looked at."""
    found = set()
    for move in position.legal_moves():
        position.push(move)
        if position.is_check():
            found.add(move)
        position.pop()
    return found


def assert_checks_agree(position: Position) -> None:
    before = position.fen()
    expected = checks_by_playing(position)
    generated = position.checking_moves()
    assert len(generated) == len(set(generated)), f"duplicate checking moves in {before}"
    assert set(generated) == expected, (
        f"{before}: generated only {sorted(m.uci() for m in set(generated) - expected)}, "
        f"missing {sorted(m.uci() for m in expected - set(generated))}"
    )
    for move in position.legal_moves():
        assert position.gives_check(move) == (move in expected), (before, move.uci())
    assert position.has_legal_move() == bool(position.legal_moves()), before
    assert_mates_agree(position, generated)
    assert position.fen() == before


def assert_mates_agree(position: Position, checks: list[Move]) -> None:
    """`mates_in_one()` is the first of the checking moves that mates, each mate found by
    playing every legal move and asking whether the other side has any move left."""
    mates = set()
    for move in position.legal_moves():
        position.push(move)
        if position.is_check() and not position.legal_moves():
            mates.add(move)
        position.pop()
    for move in checks:
        assert position.gives_mate(move) == (move in mates), (position.fen(), move.uci())
    expected = next((move for move in checks if move in mates), None)
    assert position.mates_in_one() == expected, position.fen()
    n = len(checks)
    for start, stop in ((0, n), (0, n // 2), (n // 2, n), (n // 3, n - n // 3), (n, n)):
        first = next((i for i in range(start, stop) if checks[i] in mates), -1)
        assert position.first_mate(checks, start, stop) == first, (position.fen(), start)


@SETTINGS
@given(st.data(), crafted_fens())
def test_checking_moves_on_crafted_positions(data: st.DataObject, fen: str) -> None:
    walk_a_few_plies(data, fen, assert_checks_agree)


@SETTINGS
@given(st.integers(0, 2**32), st.integers(0, 24))
def test_checking_moves_on_random_boards(seed: int, pieces: int) -> None:
    position = random_position(random.Random(seed), pieces)
    if position is not None:
        assert_checks_agree(position)


@pytest.mark.parametrize(
    ("fen", "some_checks"),
    [
        # the Bishop alone between the Rook and the King: every Bishop move checks, and
        # pocketing it too (with each choice of its class)
        ("4k3/8/8/8/4B3/8/8/4RK2[] w - - 0 20", {"e4d5", "e4h1", "e4@B", "e4@N"}),
        # the White King itself is the discoverer: its steps off the file check
        ("4k3/8/8/8/8/8/4K3/4R3[] w - - 0 20", {"e2d3", "e2f1"}),
        # a Nightrider line: the Bishop between the Nightrider and the King
        ("8/8/8/8/6k1/4B3/8/I3K3[] w - - 0 20", {"e3d2", "e3f4", "e3@B", "e3@N"}),
        # drops on the check squares of the pocketed kind
        ("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 20", {"Q@e2", "Q@a4", "Q@h5"}),
        # en passant that uncovers the Bishop's diagonal by taking the Pawn on it
        ("7k/8/b7/8/2Pp4/8/4K3/8[] b - c3 0 20", {"d4c3"}),
        # in check: only the answers that check back
        ("4k3/8/8/8/8/8/R3r3/4K3[] w - - 0 20", {"a2e2"}),
        # a discoverer (the X shields the King from the Queen) whose trial moves along
        # its line reordered the pieces being walked: 26 moves came twice (issue 38)
        ("1Q2X1k1/3p4/2T4K/8/8/7p/8/8[] w - - 0 30", {"e8f8", "e8@T", "b8b3", "c6e6"}),
    ],
)
def test_checking_moves_in_built_positions(fen: str, some_checks: set[str]) -> None:
    position = Position(fen)
    assert_checks_agree(position)
    found = {move.uci() for move in position.checking_moves()}
    assert some_checks <= found, sorted(found)


def test_a_discoverer_that_is_pinned_cannot_pocket() -> None:
    """The Bishop shields the Black King from the Rook and is pinned to its own King by
    the Black Queen: it may move only along the pin, and never into the pocket."""
    position = Position("q3k3/8/8/8/4B3/8/8/K3R3[] w - - 0 20")
    assert_checks_agree(position)
    assert not any(move.to_square == POCKET for move in position.checking_moves())


@pytest.mark.parametrize(
    ("fen", "mate"),
    [
        ("k7/8/1K6/8/8/8/8/8[Q] w - - 0 1", "Q@b7"),  # two mating drops: the first
        ("6k1/5ppp/8/8/8/8/8/R5K1[] w - - 0 30", "a1a8"),  # the back rank
        ("6k1/5ppp/8/8/8/8/5PPP/R4BK1[q] w - - 0 30", None),  # the drop q@b8 answers
        ("k7/8/2K5/8/8/8/8/1R6[] w - - 0 30", None),  # b1a1+ leaves b8, b1b8+ a7
    ],
)
def test_mates_in_one_in_built_positions(fen: str, mate: str | None) -> None:
    position = Position(fen)
    assert_checks_agree(position)
    found = position.mates_in_one()
    assert (None if found is None else found.uci()) == mate
