"""The move generator and the single-move check are two descriptions of one rule set.

`Position.legal_moves()` builds every legal move from one walk along the lines out of the
King; `Position.is_legal()` / `play_if_legal()` (what the judge asks about one recorded
ply) make the move and look at the King. They must accept exactly the same moves, and
the end of the game (`has_legal_move`, `is_checkmate`, `is_stalemate`, `outcome`,
`perft(1)`) must agree with both. tests/engine/test_properties.py checks this in random
games, where double checks and en passant squares are rare; the positions here come from
tests/crafted_positions.py, built to be rich in checks, double checks, pins and en
passant squares, and a few random plies after each.

Issue 19.6: in ``4u3/8/n7/2Pp4/2K5/8/pk6/3h4[] w - d6 0 30`` the generator returned only
the King's moves in double check, missing the en passant that takes one checker and
blocks the other; the single-move check accepted it.
"""

from __future__ import annotations

import pytest
from conftest import budget, invoke_gcadj
from crafted_positions import crafted_fens, walk_a_few_plies
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import gcadj
from gcadj.engine.move import Move
from gcadj.engine.pieces import KINDS
from gcadj.engine.position import Position, Termination
from gcadj.engine.squares import POCKET

# Every move the single-move check could be asked about: every from/to pair, every
# pocketing choice of every square, every drop of every kind on every square.
ALL_CANDIDATES: tuple[Move, ...] = (
    tuple(Move(f, t) for f in range(64) for t in range(64))
    + tuple(Move(f, POCKET, kind) for f in range(64) for kind in KINDS)
    + tuple(Move(POCKET, t, kind) for t in range(64) for kind in KINDS)
)

DOUBLE_CHECK_EP_FEN = "4u3/8/n7/2Pp4/2K5/8/pk6/3h4[] w - d6 0 30"
DOUBLE_CHECK_EP_FEN_MIRRORED = "3H4/PK6/8/2k5/2pP4/N7/8/4U3[] b - d3 0 30"

SETTINGS = settings(
    max_examples=budget(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def assert_agreement(pos: Position) -> None:
    """The generator, the point checks and the game-end answers describe one rule set."""
    before = pos.fen()
    generated = pos.legal_moves()
    assert len(generated) == len(set(generated)), f"duplicate moves in {before}"
    accepted = {move for move in ALL_CANDIDATES if pos.is_legal(move)}
    assert set(generated) == accepted, (
        f"{before}: generated only {sorted(m.uci() for m in set(generated) - accepted)}, "
        f"accepted only {sorted(m.uci() for m in accepted - set(generated))}"
    )
    played = set()
    for move in ALL_CANDIDATES:
        if pos.play_if_legal(move):
            played.add(move)
            pos.pop()
    assert played == accepted, before
    assert pos.fen() == before

    check = pos.is_check()
    assert pos.has_legal_move() == bool(accepted), before
    assert pos.is_checkmate() == (check and not accepted), before
    assert pos.is_stalemate() == (not check and not accepted), before
    outcome = pos.outcome()
    if not accepted:
        assert outcome is not None
        assert outcome.termination is (Termination.CHECKMATE if check else Termination.STALEMATE)
        assert outcome.winner == (pos.turn ^ 1 if check else None)
    else:
        assert outcome is None or outcome.termination not in (
            Termination.CHECKMATE,
            Termination.STALEMATE,
        )
    assert pos.perft(1) == len(accepted)


def note_kind(pos: Position) -> None:
    """Tell hypothesis's statistics what kind of position was checked."""
    checkers = len(pos.checkers())
    event(["not in check", "check", "double check", "triple check"][min(checkers, 3)])
    if pos.has_legal_en_passant():
        event("legal en passant" + (" in double check" if checkers > 1 else ""))
    if not pos.has_legal_move():
        event("checkmate" if pos.is_check() else "stalemate")


@SETTINGS
@given(st.data(), crafted_fens())
def test_generator_and_single_move_check_agree(data: st.DataObject, fen: str) -> None:
    """In the crafted position and a few random plies after it, at every node."""
    note_kind(Position(fen))
    walk_a_few_plies(data, fen, assert_agreement)


# -- the position of issue 19.6 ----------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "capture"),
    [(DOUBLE_CHECK_EP_FEN, "c5d6"), (DOUBLE_CHECK_EP_FEN_MIRRORED, "c4d3")],
    ids=["white", "black"],
)
def test_double_check_answered_by_en_passant(fen: str, capture: str) -> None:
    """The pawn that just double-stepped and the CardinalRider's Nightrider line through
    the en passant square both check the King; the capture takes the one and blocks the
    other. Every King step is covered: it is the only legal move."""
    pos = Position(fen)
    assert len(pos.checkers()) == 2
    assert pos.legal_moves() == [Move.from_uci(capture)]
    assert pos.is_legal(Move.from_uci(capture))
    assert pos.has_legal_move() and not pos.is_checkmate() and pos.outcome() is None
    assert pos.perft(1) == 1
    assert pos.fen() == fen  # the en passant square is written: the capture is legal
    assert_agreement(pos)


def test_double_check_position_in_a_log_and_in_perft() -> None:
    only_the_fen = gcadj.check_text(f'[FEN "{DOUBLE_CHECK_EP_FEN}"]\n')
    assert only_the_fen.status == "legal"
    assert (only_the_fen.result, only_the_fen.termination) == ("*", "ongoing")
    captured = gcadj.check_text(f'[FEN "{DOUBLE_CHECK_EP_FEN}"]\nP c5-d6; d5-\n')
    assert captured.status == "legal" and captured.legal_plies == 1
    assert captured.final_fen == "4u3/8/n2P4/8/2K5/8/pk6/3h4[] b - - 0 30"

    result = invoke_gcadj("perft", DOUBLE_CHECK_EP_FEN, "1")
    assert result.returncode == 0, result.stderr
    assert (result.stdout + result.stderr).strip().splitlines() == ["1"]
    divided = invoke_gcadj("perft", DOUBLE_CHECK_EP_FEN, "1", "--divide")
    assert (divided.stdout + divided.stderr).strip().splitlines() == ["c5d6: 1", "1"]
