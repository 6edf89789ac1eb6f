"""The engine's shortcuts agree with the slow, obvious answers they replace."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from random_positions import random_position

from gcadj.engine.position import Position


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 62))
def test_has_legal_move_equals_generating_them(seed: int, pieces: int) -> None:
    """Sparse boards, and boards so full that a pocketed piece has nowhere to drop."""
    position = random_position(random.Random(seed), pieces)
    if position is None:
        return
    assert position.has_legal_move() == bool(position.legal_moves()), position.fen()


def test_has_legal_move_on_mates_stalemates_and_a_full_board() -> None:
    mated = Position("k7/1Q6/1K6/8/8/8/8/8[] b - - 0 1")
    stalemated = Position("7k/5Q2/6K1/8/8/8/8/8[] b - - 0 1")
    # Every square off White's rank 8 is full and White holds a Queen in the pocket: the
    # drop shortcut must not claim a drop, and no piece can be pocketed with a full pocket.
    crowded = Position(
        "k7/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPK[Q] w - - 0 9"
    )
    for position in (mated, stalemated, crowded):
        assert position.has_legal_move() == bool(position.legal_moves())
    assert not mated.has_legal_move() and not stalemated.has_legal_move()
