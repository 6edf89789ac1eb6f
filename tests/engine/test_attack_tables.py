"""The engine's piece-by-piece attack test agrees with the walk along the lines it shortcuts.

With few pieces on a side (`FEW_PIECES`), "is this square attacked?" and "which pieces
check or pin the King?" are asked of each of that side's pieces through its attack table
(`Piece.attacks`, the squares between in `BETWEEN`); with more, the lines out of the
square are walked. Both must give the same answers, whatever the number of pieces: on
sparse and crowded random boards with pockets and Nightriders, on crafted positions
built around checks and pins with a few plies played after them, and with a King lifted
off the board (as the generator tries King steps). The tables themselves are held to a
third description: the squares a piece attacks on an empty board, worked out here from
its components' vectors.
"""

from __future__ import annotations

import random

from conftest import budget
from crafted_positions import crafted_fens, walk_a_few_plies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_positions import random_position

from gcadj.engine.pieces import ATTACKS_ALONG, ATTACKS_DIRECTLY, PIECES, Piece
from gcadj.engine.position import BETWEEN, Position
from gcadj.engine.squares import BLACK, WHITE

SETTINGS = settings(
    max_examples=budget(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

VECTORS = {
    "K": ((1, 1), (-1, 1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1)),
    "N": ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)),
}
VECTORS["B"] = VECTORS["K"][:4]
VECTORS["R"] = VECTORS["K"][4:]
VECTORS["I"] = VECTORS["N"]


def attacked_on_empty_board(piece: Piece, f: int) -> dict[int, int]:
    """Square -> how many squares lie between `piece` on `f` and it, for every square the
    piece attacks on an empty board: from its components (K and N leap once, B, R and I
    ride on), a Pawn diagonally forward."""
    found: dict[int, int] = {}
    file, rank = f & 7, f >> 3
    if piece.pawn:
        forward = 1 if piece.color == WHITE else -1
        for df in (-1, 1):
            if 0 <= file + df < 8 and 0 <= rank + forward < 8:
                found[(rank + forward) * 8 + file + df] = 0
        return found
    for component in piece.kind.components:
        for df, dr in VECTORS[component]:
            reach = 7 if component in "BRI" else 1
            for distance in range(1, reach + 1):
                x, y = file + df * distance, rank + dr * distance
                if not (0 <= x < 8 and 0 <= y < 8):
                    break
                t = y * 8 + x
                found[t] = min(found.get(t, 7), distance - 1)
    return found


def test_attack_tables_are_the_pieces_moves_on_an_empty_board() -> None:
    for side in PIECES:
        for piece in side:
            for f in range(64):
                expected = attacked_on_empty_board(piece, f)
                for t in range(64):
                    code = piece.attacks[f * 64 + t]
                    between = expected.get(t)
                    if between is None:
                        assert code == 0, (piece, f, t)
                    elif between == 0:
                        assert code == ATTACKS_DIRECTLY, (piece, f, t)
                    else:
                        assert code == ATTACKS_ALONG, (piece, f, t)
                        assert len(BETWEEN[f * 64 + t]) == between, (piece, f, t)


def assert_attacks_agree(position: Position) -> None:
    """Every square, both colours, with each King on the board and lifted off it."""
    before = position.fen()
    board = position.board
    for lifted in (None, WHITE, BLACK):
        ksq = -1 if lifted is None else position.king_squares[lifted]
        king = board[ksq] if ksq >= 0 else None
        if ksq >= 0:
            board[ksq] = None
        try:
            for by in (WHITE, BLACK):
                for sq in range(64):
                    expected = position._attacked_by_lines(sq, by)
                    assert position._attacked_by_pieces(sq, by) == expected, (before, by, sq)
                    assert position._attacked(sq, by) == expected, (before, lifted, by, sq)
        finally:
            if ksq >= 0:
                board[ksq] = king
    for us in (WHITE, BLACK):
        few_checkers, few_block, few_pins = position._checks_and_pins_by_few(us)
        checkers, block, pins = position._checks_and_pins_by_lines(us)
        assert sorted(few_checkers) == sorted(checkers), (before, us)
        assert few_block == block, (before, us)
        assert few_pins == pins, (before, us)
        if len(checkers) == 1:  # the blocking squares in the order the walk finds them
            assert list(few_block) == list(block), (before, us)
    assert position.fen() == before


@SETTINGS
@given(st.integers(0, 2**32), st.integers(0, 30))
def test_attacks_agree_on_random_boards(seed: int, pieces: int) -> None:
    position = random_position(random.Random(seed), pieces)
    if position is not None:
        assert_attacks_agree(position)


@SETTINGS
@given(st.data(), crafted_fens())
def test_attacks_agree_on_crafted_positions(data: st.DataObject, fen: str) -> None:
    walk_a_few_plies(data, fen, assert_attacks_agree)


def test_a_pin_and_a_nightrider_check_by_few_pieces() -> None:
    """The Black Rook on e8 pins the Bishop on e4 to the White King on e1; the Black
    Nightrider on h7 checks it along its knight line over f3 and g5."""
    position = Position("4r2k/7i/8/8/4B3/8/8/4K3[] w - - 0 30")
    expected = ([55], {21, 38}, {28: (12, 20, 28, 36, 44, 52, 60)})
    assert position._checks_and_pins_by_lines(WHITE) == expected
    assert position._checks_and_pins_by_few(WHITE) == expected
    assert_attacks_agree(position)
