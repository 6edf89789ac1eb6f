"""Properties of the adjudicator over random games, against a brute-force oracle.

The oracle is the rule of docs/rules.md §5 taken literally and written independently of
gcadj.judging.judge: apply a ply's sub-moves to a board of square names, then compare
that board with the board every legal move leaves; the ply is legal when exactly one matches.
"""

from __future__ import annotations

import random

from conftest import budget
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_games import (
    apply_literally,
    board_of,
    corrupt,
    oracle_moves,
    random_game,
    write_ply,
)

from gcadj.app.check import check_text
from gcadj.engine.position import Position

SETTINGS = settings(
    max_examples=budget(60), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@SETTINGS
@given(st.integers(0, 2**32), st.integers(1, 60))
def test_random_legal_games_in_every_notation_replay_to_the_engines_position(
    seed: int, plies: int
) -> None:
    texts, final = random_game(random.Random(seed), plies)
    verdict = check_text("\n".join(texts) + "\n")
    assert verdict.status == "legal", (texts, verdict.first_illegal)
    assert verdict.legal_plies == len(texts)
    assert verdict.final_fen == final.fen()


@SETTINGS
@given(st.integers(0, 2**32), st.integers(1, 40))
def test_a_corrupted_ply_is_found_illegal_at_exactly_that_ply(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    texts, _ = random_game(rng, plies)
    if not texts:
        return
    at = rng.randrange(len(texts))
    position = Position()
    if at:  # no plies before it: the start position (an empty log is no game at all)
        replay = check_text("\n".join(texts[:at]) + "\n")
        assert replay.status == "legal"
        for move in replay.moves:
            position.push(move)
    bad = corrupt(texts[at], rng)
    literal_ok = apply_literally(board_of(position), bad) is not None
    # A corruption may leave exactly the board of a legal move (`N g1-h3` for `N g1-f3`, or
    # a sub-move that happens to write a pocketing with mutation): that ply is legal, and
    # the game only goes wrong later, if at all. The oracle says which case this is.
    still_legal = literal_ok and len(oracle_moves(position, bad)) == 1
    verdict = check_text("\n".join([*texts[:at], bad, *texts[at + 1 :]]) + "\n")
    found = verdict.first_illegal
    if still_legal:
        assert found is None or found.ply > at + 1, (texts[: at + 1], bad, found)
    else:
        assert found is not None, (texts[:at], bad)
        assert found.ply == at + 1, (texts[: at + 1], bad, found)


@SETTINGS
@given(st.integers(0, 2**32), st.integers(0, 30))
def test_judge_agrees_with_the_brute_force_oracle_on_random_plies(seed: int, plies: int) -> None:
    """Legal plies and corrupted ones: gcadj accepts a ply iff exactly one legal move matches."""
    rng = random.Random(seed)
    texts, position = random_game(rng, plies)
    moves = position.legal_moves()
    if not moves:
        return
    ply = write_ply(position, rng.choice(moves), rng)
    if rng.random() < 0.7:
        ply = corrupt(ply, rng)
    literal = apply_literally(board_of(position), ply)
    expected_legal = literal is not None and len(oracle_moves(position, ply)) == 1
    verdict = check_text("\n".join([*texts, ply]) + "\n")
    assert (verdict.status == "legal") == expected_legal, (texts, ply, verdict.first_illegal)
