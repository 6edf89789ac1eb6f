"""The mate prover finds what the naive search finds, and proves it.

The reference is tests/naive_mate.py: every move at every node, the moves found by asking
the single-move check (`Position.is_legal`) about every candidate -- the other description
of the rules. On random small positions (few pieces, pockets full and empty, either side
to move) the prover and the naive search give the same shortest mate, for or against the
side to move, or none within the depth; every proof the prover gives is accepted by the
proof checker. Built positions add what random ones rarely reach: mates in 3, the fifty-move
rule and repetitions on the way, and the search's limits (nodes, Ctrl-C, a full table).
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from conftest import budget
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive_mate import NaiveSearch
from random_positions import random_position

from gcadj.analysis import search
from gcadj.analysis.proof import tree_json
from gcadj.analysis.proof_check import check_proof
from gcadj.analysis.search import Progress, SearchResult, search_mate
from gcadj.analysis.table import entries_for
from gcadj.engine.move import Move
from gcadj.engine.position import Position

SIDES = ("white", "black")


def answer(position: Position, result: SearchResult) -> tuple[str, int] | None:
    """The prover's answer in the naive search's words, its proof checked first."""
    proof = result.proof
    if proof is None:
        return None
    tree = tree_json(position, proof.tree)
    checked = check_proof(position, tree, winner=SIDES[proof.winner], moves=proof.moves)
    assert checked.accepted, (position.fen(), checked.reason)
    assert proof.tree.moves() == proof.moves  # the longest line is as long as claimed
    return ("for" if proof.winner == position.turn else "against", proof.moves)


def assert_prover_agrees(position: Position, depth: int) -> tuple[str, int] | None:
    fen = position.fen()
    expected = NaiveSearch().shortest(position, depth)
    result = search_mate(position, depth)
    assert result.cut is None
    assert answer(position, result) == expected, fen
    if expected is None:
        assert (result.no_mate_within, result.not_mated_within) == (depth, depth)
    assert position.fen() == fen  # the position searched is not changed
    return expected


def some_position(seed: int, pieces: int) -> Position | None:
    position = random_position(random.Random(seed), pieces)
    if position is None or position.outcome() is not None:
        return None
    return position


@settings(max_examples=budget(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 6))
def test_mates_in_one_as_the_naive_search_finds_them(seed: int, pieces: int) -> None:
    position = some_position(seed, pieces)
    if position is not None:
        assert_prover_agrees(position, 1)


@settings(max_examples=budget(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 3))
def test_mates_in_two_as_the_naive_search_finds_them(seed: int, pieces: int) -> None:
    position = some_position(seed, pieces)
    if position is not None:
        assert_prover_agrees(position, 2)


@settings(max_examples=budget(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 6))
def test_the_search_mates_in_one_as_the_engine_does(seed: int, pieces: int) -> None:
    """At a mate in one the search plays the engine's `mates_in_one()` (the first checking
    move that mates), found by asking `gives_mate` of each check here, and counts one
    node for each check it tried, then two for the proof: its move played again when it
    is rebuilt (the table has the mate), its position written out."""
    position = some_position(seed, pieces)
    if position is None:
        return
    checks = position.checking_moves()
    mates = [move for move in checks if position.gives_mate(move)]
    assert position.mates_in_one() == (mates[0] if mates else None)
    result = search_mate(position, 1)
    if mates:
        assert result.proof is not None and result.proof.tree.move == mates[0]
        if position.halfmove_clock < 99:  # (else the table is not used, nor counted on)
            assert result.nodes == checks.index(mates[0]) + 1 + 2
    else:
        assert result.proof is None or result.proof.winner != position.turn
        assert result.nodes >= len(checks)


def test_a_node_limit_stops_the_checks_of_a_mate_in_one_where_it_says() -> None:
    """The engine tries the checks a stretch at a time, each ending at the search's next
    look at its limits: cut anywhere among the 30 checks before the mate, the search has
    counted exactly its limit; the mate is claimed only when it and its proof fit."""
    position = Position("2k1t3/8/8/1Q6/R1D4K/8/8/2F5[Vi] w - - 0 3")
    checks = position.checking_moves()
    mate = position.mates_in_one()
    assert mate is not None and checks.index(mate) == 30
    full = search_mate(position, 1)
    assert full.proof is not None and full.nodes == 31 + 2
    for limit in range(1, full.nodes + 1):
        cut = search_mate(position, 1, node_limit=limit)
        assert (cut.proof is None) == (limit < full.nodes), limit
        if limit <= 30:
            assert (cut.cut, cut.nodes) == ("nodes", limit)
        assert cut.nodes <= limit


# Built positions, each with its shortest mate: (FEN, ("for"|"against", moves)). The first
# ones are random positions of few pieces where the prover found a mate of that length; the
# tests confirm with the naive search that there is no shorter one.
KNOWN = [
    ("k7/8/2K5/8/8/8/8/7R[] w - - 0 1", ("for", 2)),  # Kb6 Kb8 Rh8#
    ("k7/8/1K6/8/8/8/8/7R[] w - - 0 1", ("for", 1)),
    ("7k/8/8/8/8/8/8/K7[Q] b - - 0 1", None),  # a pocketed Queen and a bare King
    ("8/8/1V6/8/KW6/8/k7/8[N] b - - 0 20", ("against", 1)),
    ("8/8/4K3/8/8/4x3/1k6/8[f] b - - 0 20", ("for", 2)),
    ("2K5/R7/8/8/8/8/8/3k4[Wg] w - - 0 20", ("for", 2)),
    ("2D5/8/8/8/F7/8/4k3/K7[V] b - - 0 20", ("against", 2)),
    ("1K2F3/8/1p4g1/8/k7/8/8/8[N] w - - 0 20", ("for", 3)),
    ("8/6h1/8/4K3/8/2k5/8/5H2[] w - - 0 20", ("for", 3)),
    ("6ik/8/8/8/4b3/7w/5K2/8[P] w - - 0 20", ("against", 3)),
]


@pytest.mark.parametrize(("fen", "expected"), KNOWN, ids=[fen for fen, _ in KNOWN])
def test_the_shortest_mate_of_built_positions(fen: str, expected: tuple[str, int] | None) -> None:
    position = Position(fen)
    depth = 3 if expected is None else expected[1]
    result = search_mate(position, depth)
    assert answer(position, result) == expected
    naive = NaiveSearch()
    if expected is None:
        assert naive.shortest(position, 2) is None
        return
    # no shorter mate, either way, by the naive search; the last depth only by the proof
    assert naive.shortest(position, expected[1] - 1) is None
    if expected[1] <= 2:
        assert naive.shortest(position, expected[1]) == expected


def test_a_mate_on_the_hundredth_ply_stands_and_one_after_it_is_a_draw() -> None:
    """docs/rules.md §4: fifty moves draw after a hundred plies without capture or
    promotion, unless the hundredth ply mates. Kb6 Kb8 Rh8# is three plies."""
    in_time = Position("k7/8/2K5/8/8/8/8/7R[] w - - 97 60")  # Rh8# is ply 100
    too_late = Position("k7/8/2K5/8/8/8/8/7R[] w - - 98 60")  # Kb8 is ply 100: drawn
    assert answer(in_time, search_mate(in_time, 2)) == ("for", 2)
    assert answer(too_late, search_mate(too_late, 2)) is None
    for position in (in_time, too_late):
        assert answer(position, search_mate(position, 2)) == NaiveSearch().shortest(position, 2)


def test_a_line_through_a_third_repetition_is_no_mate() -> None:
    """After Kb6 Kb8 Kc6 Ka8 twice, the position after Kb6 has occurred twice: Kb6 again
    makes it the third time, and Black claims the draw instead of being mated."""
    fresh = Position("k7/8/2K5/8/8/8/8/7R[] w - - 0 1")
    repeated = fresh.copy()
    for _ in range(2):
        for uci in ("c6b6", "a8b8", "b6c6", "b8a8"):
            repeated.push(Move.from_uci(uci))
    assert repeated.repetition_count() == 3 and repeated.key == fresh.key
    assert answer(fresh, search_mate(fresh, 2)) == ("for", 2)
    result = search_mate(repeated, 2)
    assert answer(repeated, result) == NaiveSearch().shortest(repeated, 2)
    assert result.proof is None or result.proof.tree.move != Move.from_uci("c6b6")


def test_a_node_limit_cuts_the_search_the_same_way_every_time() -> None:
    position = Position("1K2F3/8/1p4g1/8/k7/8/8/8[N] w - - 0 20")  # mate in 3
    full = search_mate(position, 3)
    assert full.proof is not None and full.nodes > 200
    cut = [dataclasses.replace(search_mate(position, 3, node_limit=200), seconds=0) for _ in "ab"]
    assert cut[0] == cut[1]
    assert cut[0].cut == "nodes" and cut[0].proof is None and cut[0].nodes == 200
    assert cut[0].no_mate_within < 3 and cut[0].cut_at == cut[0].no_mate_within + 1


def test_ctrl_c_in_a_search_gives_what_was_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    """A KeyboardInterrupt raised while the search runs (here by its progress callback, as
    Python raises Ctrl-C's at such a call) ends it with what it had proved."""
    monkeypatch.setattr(search, "TICK", 16)
    seen: list[Progress] = []

    def progress(where: Progress) -> None:
        seen.append(where)
        if where.nodes >= 64:
            raise KeyboardInterrupt

    position = Position("1K2F3/8/1p4g1/8/k7/8/8/8[N] w - - 0 20")
    result = search_mate(position, 3, progress=progress)
    assert result.cut == "interrupted" and result.proof is None
    assert seen and seen[-1].nodes >= 64 and seen[-1].searching == result.cut_at
    assert position.fen() == "1K2F3/8/1p4g1/8/k7/8/8/8[N] w - - 0 20"


def test_a_full_table_forgets_its_old_half_and_the_answers_stay() -> None:
    """A table of 1 MB holds 6,250 entries: the search of a middlegame to depth 3 fills it,
    drops its older half, and proves what a roomy table proves. (Not necessarily with more
    nodes: what it forgot also held the moves tried first, and another first refutation
    can cost less.)"""
    position = Position("rnbqkbr1/1p1pppp1/2p5/pB6/4P2p/8/1PPP1PPP/RNBQKBNR[] w - - 3 7")
    roomy = search_mate(position, 3)
    cramped = search_mate(position, 3, table_mb=1)
    assert roomy.table_entries > entries_for(1)  # the small table had to forget
    assert cramped.table_entries <= entries_for(1)
    assert (cramped.no_mate_within, cramped.not_mated_within) == (3, 3)
    assert (roomy.no_mate_within, roomy.not_mated_within) == (3, 3)


def test_a_game_already_over_is_not_searched() -> None:
    mated = Position("k7/1Q6/1K6/8/8/8/8/8[] b - - 0 1")
    result = search_mate(mated, 3)
    assert result.proof is None and result.nodes == 0 and result.cut is None


def test_a_proof_too_large_to_write_out_is_no_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    """R a7-a1+ and three King moves, each answered by a drop: five nodes. With room for
    two, the mate is found but not written out, so nothing is claimed proven."""
    position = Position("2K5/R7/8/8/8/8/8/3k4[Wg] w - - 0 20")
    assert search_mate(position, 2).proof is not None
    monkeypatch.setattr(search, "PROOF_LIMIT", 2)
    result = search_mate(position, 2)
    assert result.proof is None and result.cut == "proof" and result.unwritten == 0
    assert (result.no_mate_within, result.cut_at) == (1, 2)
