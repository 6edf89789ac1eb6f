"""A side converts between the engine's colours and the `Side` enum in one place
(`gcadj.vocabulary`): both ways, against the engine's own numbers, and a result names its
winner as `Result.win_for` does."""

from __future__ import annotations

import pytest

from gcadj.engine.position import Position
from gcadj.engine.squares import BLACK, WHITE
from gcadj.vocabulary import SIDES, Result, Side


@pytest.mark.parametrize(("colour", "side"), [(WHITE, Side.WHITE), (BLACK, Side.BLACK)])
def test_a_side_is_the_engines_colour_both_ways(colour: int, side: Side) -> None:
    assert Side.of(colour) is side and side.colour == colour
    assert side.other is Side.of(colour ^ 1) and side.other.other is side
    assert side.capitalized == side.value.capitalize()
    assert Result.win_for(side).winner is side


def test_the_side_to_move_of_a_fen_is_the_engines_turn() -> None:
    for letter, side in (("w", Side.WHITE), ("b", Side.BLACK)):
        position = Position(f"4k3/8/8/8/8/8/8/4K3[] {letter} - - 0 1")
        assert Side.of(position.turn) is side


def test_only_a_win_has_a_winner() -> None:
    assert [result.winner for result in Result] == [Side.WHITE, Side.BLACK, None, None]
    assert tuple(Side) == SIDES
