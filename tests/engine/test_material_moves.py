"""`Position.material_moves()`, the moves an exchange count searches, are exactly the legal
moves that change the material: a filter of `legal_moves()` by what each move does to the
board (captures, en passant, pocketings from the mover's rank 8 that promote), on crafted
positions rich in checks, pins and en passant squares, on sparse random boards with
pockets and pieces of every kind, and on built positions."""

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


def changes_material(position: Position, move: Move) -> bool:
    """The other description: what the move does to the board, read from the board."""
    f, t, kind = move
    if f == POCKET:
        return False  # a drop: the piece was counted in the pocket
    piece = position.board[f]
    assert piece is not None
    if t == POCKET:
        assert kind is not None
        return kind.value_class != piece.kind.value_class
    en_passant = piece.pawn and (f & 7) != (t & 7) and position.board[t] is None
    return position.board[t] is not None or en_passant


def assert_material_moves_agree(position: Position) -> None:
    before = position.fen()
    expected = {move for move in position.legal_moves() if changes_material(position, move)}
    generated = position.material_moves()
    assert len(generated) == len(set(generated)), f"duplicate moves in {before}"
    assert set(generated) == expected, (
        f"{before}: generated only {sorted(m.uci() for m in set(generated) - expected)}, "
        f"missing {sorted(m.uci() for m in expected - set(generated))}"
    )
    assert position.fen() == before


@SETTINGS
@given(st.data(), crafted_fens())
def test_material_moves_on_crafted_positions(data: st.DataObject, fen: str) -> None:
    walk_a_few_plies(data, fen, assert_material_moves_agree)


@SETTINGS
@given(st.integers(0, 2**32), st.integers(0, 30))
def test_material_moves_on_random_boards(seed: int, pieces: int) -> None:
    position = random_position(random.Random(seed), pieces)
    if position is not None:
        assert_material_moves_agree(position)


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        # the Knight takes the Queen or the Pawn
        ("rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R[] w - - 2 3", {"f3g5", "f3e5"}),
        # a Pawn on its rank 8 promotes by pocketing (a Bishop or a Knight); the Rook on
        # rank 8 to class 4; the AmazonRider stays what it is: no change
        ("P5RZ/8/8/8/8/8/8/1k2K3[] w - - 0 40", {"a8@B", "a8@N", "g8@A", "g8@G"}),
        # a full pocket: no pocketing at all
        ("6R1/8/8/8/8/8/8/k3K3[Q] w - - 0 40", set()),
        # in check: only the captures of the checker, and not by the pinned Bishop
        ("4k3/8/8/8/1b6/R3r3/3B4/4K3[] w - - 0 20", {"a3e3"}),
        # the Bishop pinned along a diagonal takes the pinner, and nothing off its pin
        ("4k3/8/8/b7/5r2/8/3B4/4K3[] w - - 0 20", {"d2a5"}),
        # en passant
        ("4k3/8/8/3pP3/8/8/8/4K3[] w - d6 0 20", {"e5d6"}),
        # double check: the King's captures alone
        ("4k3/8/8/8/8/5n2/4r3/4K3[] w - - 0 20", {"e1e2"}),
    ],
)
def test_material_moves_in_built_positions(fen: str, expected: set[str]) -> None:
    position = Position(fen)
    assert_material_moves_agree(position)
    assert {move.uci() for move in position.material_moves()} == expected
