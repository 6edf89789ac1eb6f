"""The engine's public way to replay a judged move and to try one: `push_trusted`, `pop`,
`trial`; and `pawn_step`, the pawn geometry other layers explain moves with."""

from __future__ import annotations

import random

import pytest

from gcadj.engine.move import Move
from gcadj.engine.position import PawnStep, Position, pawn_step
from gcadj.engine.squares import BLACK, WHITE, parse_square


def test_push_trusted_plays_what_push_plays_and_pop_takes_it_back() -> None:
    rng = random.Random(7)
    checked, trusted = Position(), Position()
    for _ in range(120):
        moves = checked.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        checked.push(move)
        trusted.push_trusted(move)
        assert trusted.fen() == checked.fen()
        assert trusted.repetition_count() == checked.repetition_count()
    fens = []
    while trusted.ply:
        fens.append(trusted.fen())
        trusted.pop()
    assert trusted.fen() == Position().fen()
    assert len(set(fens)) > 1


def test_trial_shows_the_position_after_a_move_and_restores_it() -> None:
    position = Position("3k4/8/8/8/8/8/4R3/4K3[] w - - 0 1")
    before = position.fen()
    move = Move(parse_square("e2"), parse_square("d2"))
    with position.trial(move) as after:
        assert after is position
        assert position.turn == BLACK and position.board[parse_square("d2")] is not None
    assert position.fen() == before and position.ply == 0


def test_trial_restores_the_position_when_the_block_raises() -> None:
    position = Position()
    before = position.fen()
    with pytest.raises(RuntimeError), position.trial(Move(parse_square("e2"), parse_square("e4"))):
        raise RuntimeError("inside")
    assert position.fen() == before


def test_push_still_refuses_an_illegal_move() -> None:
    position = Position()
    with pytest.raises(ValueError, match="illegal move"):
        position.push(Move(parse_square("e2"), parse_square("e5")))


@pytest.mark.parametrize(
    ("color", "origin", "target", "step"),
    [
        (WHITE, "e2", "d3", PawnStep.CAPTURE),
        (WHITE, "e2", "e3", PawnStep.SINGLE),
        (WHITE, "e2", "e4", PawnStep.DOUBLE),
        (WHITE, "e3", "e5", PawnStep.DOUBLE_OFF_RANK_2),
        (WHITE, "e2", "e1", PawnStep.NONE),
        (BLACK, "e7", "e5", PawnStep.DOUBLE),
        (BLACK, "e7", "f6", PawnStep.CAPTURE),
        (BLACK, "e6", "e4", PawnStep.DOUBLE_OFF_RANK_2),
        (BLACK, "e7", "e8", PawnStep.NONE),
        (WHITE, "a8", "b8", PawnStep.NONE),
    ],
)
def test_pawn_step(color: int, origin: str, target: str, step: PawnStep) -> None:
    assert pawn_step(color, parse_square(origin), parse_square(target)) is step
