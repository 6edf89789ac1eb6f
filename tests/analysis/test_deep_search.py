"""The deeper prover against the one it replaced, its proofs in both forms, and its limits.

The reference is tests/reference_mate.py, the prover before issue 38, kept as it was. On
random small positions both must give the same shortest mate (for or against the side to
move) or the same "no mate within", to depth 3 and 4; every proof of the new one goes
through the proof checker, written as a tree and as a graph. Then the graph form's own
faults (a shared node wrong on one line, a cycle, a missing defence, one position twice),
the paths the table must not trust (repetitions in the game before the search), and the
limits that must cover the whole answer.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
import reference_mate
from conftest import budget
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_positions import random_position

from gcadj.about import compiled_modules
from gcadj.analysis import search
from gcadj.analysis.options import MAX_MATE_DEPTH, AdjudicateOptions
from gcadj.analysis.proof import graph_json, proof_json, tree_json
from gcadj.analysis.proof_check import check_proof
from gcadj.analysis.search import Proof, SearchResult, positions, search_mate
from gcadj.engine.move import Move
from gcadj.engine.position import Position
from gcadj.errors import FenError, OptionError

SIDES = ("white", "black")


def both_forms_accepted(position: Position, proof: Proof) -> None:
    """The proof, written as a tree and as a graph, accepted by the checker."""
    for tree in (tree_json(position, proof.tree), graph_json(position, proof.tree)):
        checked = check_proof(position, tree, winner=SIDES[proof.winner], moves=proof.moves)
        assert checked.accepted, (position.fen(), checked.reason)
    assert proof.tree.moves() == proof.moves


def said(position: Position, result: Any) -> tuple[str, int] | None:
    proof = result.proof
    if proof is None:
        return None
    return ("for" if proof.winner == position.turn else "against", proof.moves)


def assert_as_the_reference(position: Position, depth: int) -> None:
    old = reference_mate.search_mate(position, depth)
    new = search_mate(position, depth)
    assert old.cut is None and new.cut is None
    assert said(position, new) == said(position, old), position.fen()
    assert (new.no_mate_within, new.not_mated_within) == (
        old.no_mate_within,
        old.not_mated_within,
    ), position.fen()
    if new.proof is not None:
        both_forms_accepted(position, new.proof)


def some_position(seed: int, pieces: int) -> Position | None:
    position = random_position(random.Random(seed), pieces)
    if position is None or position.outcome() is not None:
        return None
    return position


@settings(max_examples=budget(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 4))
def test_the_same_answers_as_the_old_prover_to_depth_3(seed: int, pieces: int) -> None:
    position = some_position(seed, pieces)
    if position is not None:
        assert_as_the_reference(position, 3)


@settings(max_examples=budget(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 2))
def test_the_same_answers_as_the_old_prover_to_depth_4(seed: int, pieces: int) -> None:
    position = some_position(seed, pieces)
    if position is not None:
        assert_as_the_reference(position, 4)


@settings(max_examples=budget(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 4))
def test_df_pn_from_three_moves_gives_the_old_provers_answers(seed: int, pieces: int) -> None:
    """df-pn searches the iterations of 3 moves too (it starts at 4 by default, where a
    depth-4 test can afford few examples): the same shortest mate, the same "no mate
    within", the proof (rebuilt by df-pn below its root too) accepted in both forms."""
    position = some_position(seed, pieces)
    if position is not None:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(search, "DFPN_FROM", 3)
            assert_as_the_reference(position, 3)


@settings(max_examples=budget(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 4), st.integers(94, 98))
def test_df_pn_near_the_fifty_move_limit_gives_the_old_provers_answers(
    seed: int, pieces: int, clock: int
) -> None:
    """As above, the fifty-move count at 94 to 98: the draw at 100 falls inside the search,
    where the table is neither read nor written."""
    position = some_position(seed, pieces)
    if position is not None:
        fields = position.fen().split(" ")
        fields[4] = str(clock)
        position = Position(" ".join(fields))
        if position.outcome() is None:
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(search, "DFPN_FROM", 3)
                assert_as_the_reference(position, 3)


def king_and_piece(squares: list[int], piece: str) -> Position | None:
    """White's King and `piece` against Black's bare King on three squares, White to move:
    None when that is no position of a game going on, or Black is in check."""
    kings_apart = (
        abs(squares[0] % 8 - squares[1] % 8) > 1 or abs(squares[0] // 8 - squares[1] // 8) > 1
    )
    if len(set(squares)) < 3 or not kings_apart:
        return None
    board = ["1"] * 64
    board[squares[0]], board[squares[1]], board[squares[2]] = "K", "k", piece
    rows = ["".join(board[8 * rank : 8 * rank + 8]) for rank in range(8)]
    try:
        position = Position("/".join(rows) + "[] w - - 0 40")
    except FenError:
        return None
    if position.outcome() is not None or position.is_check():
        return None
    return position


def stalemates_by_a_quiet_move(position: Position) -> bool:
    """Has the side to move a move that gives no check and leaves the other side no move?"""
    for move in position.legal_moves():
        position.push(move)
        stalemate = not position.is_check() and not position.has_legal_move()
        position.pop()
        if stalemate:
            return True
    return False


def test_a_quiet_move_that_stalemates_is_no_mate() -> None:
    """After the winner's move that gives no check the prover does not ask whether the
    loser has a move (the search finds out when it looks for a refutation): where such a
    move stalemates (the first 8 such endings of random squares, a fixed seed), the answers
    are still the old prover's, which asked every time."""
    rng = random.Random(38)
    found = 0
    while found < 8:
        squares = [rng.randrange(64) for _ in range(3)]
        position = king_and_piece(squares, rng.choice("QR"))
        if position is not None and stalemates_by_a_quiet_move(position):
            assert_as_the_reference(position, 3)
            found += 1


@settings(max_examples=budget(6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 63), min_size=3, max_size=3))
def test_the_king_and_rook_to_depth_4_as_the_old_prover(squares: list[int]) -> None:
    """A bare King steps back and forth: the lines go back to positions of the path, and the
    refutations that rest on them are the prover's last resort (or, proved by the table on
    any path, rest on nothing). The answers stay the old prover's."""
    position = king_and_piece(squares, "R")
    if position is not None:
        assert_as_the_reference(position, 4)


# Endings of a King and one piece against a bare King, with their shortest mates: found by
# the new prover, and (to depth 4) confirmed by the old one in the same test.
ENDINGS = [
    ("4K3/k7/8/8/2Q5/8/8/8[] w - - 0 40", 4),
    ("8/8/8/8/8/1k6/8/1K6[Q] w - - 0 40", 3),
    ("4K3/k7/8/8/2R5/8/8/8[] w - - 0 40", 6),
]


@pytest.mark.parametrize(("fen", "moves"), ENDINGS, ids=[fen for fen, _ in ENDINGS])
def test_endings_against_a_bare_king(fen: str, moves: int) -> None:
    position = Position(fen)
    result = search_mate(position, moves)
    assert said(position, result) == ("for", moves)
    assert result.no_mate_within == moves - 1
    assert result.proof is not None
    both_forms_accepted(position, result.proof)
    if moves <= 4:
        assert said(position, reference_mate.search_mate(position, moves)) == ("for", moves)


def test_a_large_proof_is_written_as_a_graph_with_each_position_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The mate in 6 of King and Rook: its tree repeats positions that transpose, its
    graph holds each once and is accepted; with a smaller tree limit the prover itself
    says 'graph'."""
    position = Position("4K3/k7/8/8/2R5/8/8/8[] w - - 0 40")
    proof = search_mate(position, 6).proof
    assert proof is not None and not proof.graph  # small enough for a tree
    tree, graph = tree_json(position, proof.tree), graph_json(position, proof.tree)
    assert len(graph["nodes"]) == positions(proof.tree) < proof.tree.size()
    assert graph["root"] == "0" and graph["nodes"]["0"]["move"] == tree["move"]
    monkeypatch.setattr(search, "TREE_LIMIT", 10)
    written = search_mate(position, 6).proof
    assert written is not None and written.graph
    assert set(proof_json(position, written)) == {"root", "nodes"}


def graph_of(fen: str, depth: int) -> tuple[Position, dict[str, Any], Proof]:
    position = Position(fen)
    proof = search_mate(position, depth).proof
    assert proof is not None
    return position, graph_json(position, proof.tree), proof


def rejected(position: Position, graph: Any, proof: Proof) -> str:
    checked = check_proof(position, graph, winner=SIDES[proof.winner], moves=proof.moves)
    assert not checked.accepted, "a tampered graph was accepted"
    return checked.reason


def shared_node(graph: dict[str, Any]) -> tuple[str, list[tuple[str, str]]]:
    """A node answering several defences, and where it is named (node id, defence)."""
    named: dict[str, list[tuple[str, str]]] = {}
    for name, node in graph["nodes"].items():
        for defence, answer in node["replies"].items():
            named.setdefault(answer, []).append((name, defence))
    return max(named.items(), key=lambda item: len(item[1]))


def test_a_tampered_graph_is_rejected() -> None:
    """Black, to move, is mated in 2; two of its defences transpose into one position."""
    position, graph, proof = graph_of("2D5/8/8/8/F7/8/4k3/K7[V] b - - 0 20", 2)
    assert check_proof(position, graph, winner="white", moves=2).accepted
    shared, where = shared_node(graph)
    assert len(where) > 1  # the graph shares nodes

    # a defence answered by another position's node: right on its own line, wrong here
    wrong = copy.deepcopy(graph)
    other = next(name for name in wrong["nodes"] if name not in (shared, "0"))
    parent, defence = where[-1]
    wrong["nodes"][parent]["replies"][defence] = other
    reason = rejected(position, wrong, proof)
    assert "reached in two different positions" in reason or "is illegal" in reason

    # a cycle: a node's line comes back to the root
    looped = copy.deepcopy(graph)
    parent, defence = where[0]
    looped["nodes"][parent]["replies"][defence] = "0"
    assert "cycle" in rejected(position, looped, proof) or "two different" in rejected(
        position, looped, proof
    )

    # a defence left out
    missing = copy.deepcopy(graph)
    parent, defence = where[0]
    del missing["nodes"][parent]["replies"][defence]
    assert rejected(position, missing, proof).endswith(f"the defence {defence!r} is not answered")

    # the same position twice: a copy of the shared node answers one of its defences
    twice = copy.deepcopy(graph)
    twice["nodes"]["copy"] = copy.deepcopy(twice["nodes"][shared])
    parent, defence = where[-1]
    twice["nodes"][parent]["replies"][defence] = "copy"
    assert "the same position" in rejected(position, twice, proof)

    # no such node, no such root
    unknown = copy.deepcopy(graph)
    unknown["nodes"][parent]["replies"][defence] = "nowhere"
    assert "no node of the graph" in rejected(position, unknown, proof)
    assert "root" in rejected(position, {"root": "x", "nodes": {}}, proof)


def test_a_graph_claiming_fewer_moves_than_its_lines_take_is_rejected() -> None:
    position, graph, _proof = graph_of("4K3/k7/8/8/2Q5/8/8/8[] w - - 0 40", 4)
    checked = check_proof(position, graph, winner="white", moves=3)
    assert not checked.accepted and "longer than claimed" in checked.reason


def test_repetitions_before_the_search_keep_the_table_and_the_answers() -> None:
    """A Knight out and back twice: the game's positions have occurred twice. The old
    prover switched its table off for the whole search; the new one keeps it, proves the
    same, and searches fewer nodes."""
    fresh = Position("1K2F3/8/1p4g1/8/k7/8/8/8[N] w - - 0 20")
    repeated = Position("1K2F3/8/1p4g1/8/k7/8/8/8[N] w - - 0 20")
    for _ in range(2):
        for uci in ("e8d6", "g6g7", "d6e8", "g7g6"):
            repeated.push(Move.from_uci(uci))
    assert repeated.repetition_count() == 3
    old = reference_mate.search_mate(repeated, 3)
    new = search_mate(repeated, 3)
    assert said(repeated, new) == said(repeated, old)
    assert new.nodes < old.nodes
    if new.proof is not None:
        both_forms_accepted(repeated, new.proof)
    assert said(fresh, search_mate(fresh, 3)) == ("for", 3)


def test_the_node_limit_covers_the_whole_answer() -> None:
    """Search, rebuilding and checking within the limit: a mate whose proof does not fit
    is not claimed; one that fits is, and the nodes never pass the limit."""
    position = Position("4K3/k7/8/8/2Q5/8/8/8[] w - - 0 40")
    full = search_mate(position, 4)
    assert full.proof is not None
    for limit in (full.nodes - 1, full.nodes - 30, full.nodes):
        cut = search_mate(position, 4, node_limit=limit)
        assert cut.nodes <= limit
        assert (cut.proof is None) == (limit < full.nodes)
        if cut.proof is None:
            assert cut.cut == "nodes"


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"mate_depth": 0}, "mate_depth"),
        ({"mate_depth": MAX_MATE_DEPTH + 1}, "mate_depth"),
        ({"mate_depth": 10**8}, "mate_depth"),
        ({"node_limit": -5}, "node_limit"),
        ({"node_limit": 0}, "node_limit"),
        ({"budget": -1.0}, "budget"),
        ({"budget": float("nan")}, "budget"),
        ({"evidence_margin": 0}, "evidence_margin"),
        ({"evidence_margin": -2}, "evidence_margin"),
        ({"table_mb": 0}, "table_mb"),
    ],
)
def test_options_out_of_range_are_refused_once_for_all(
    options: dict[str, Any], option: str
) -> None:
    with pytest.raises(OptionError) as raised:
        AdjudicateOptions(**options)
    assert raised.value.option == option and isinstance(raised.value, ValueError)
    position = Position("k7/8/2K5/8/8/8/8/7R[] w - - 0 1")
    depth = options.get("mate_depth", 2)
    if option in ("node_limit", "budget") or depth > MAX_MATE_DEPTH:
        with pytest.raises(OptionError):
            search_mate(
                position,
                depth,
                node_limit=options.get("node_limit"),
                seconds=options.get("budget"),
            )


def test_a_huge_fen_is_not_echoed_whole() -> None:
    text = "k7/8/8/8/8/8/8/7K[] w - - 0 " + "9" * 5_000_000 + "x"
    with pytest.raises(FenError) as raised:
        Position(text)
    assert len(str(raised.value)) < 400 and raised.value.fen == text


def test_the_search_result_says_what_the_table_held() -> None:
    result: SearchResult = search_mate(Position("4K3/k7/8/8/2Q5/8/8/8[] w - - 0 40"), 4)
    assert 0 < result.table_entries <= result.nodes


@pytest.mark.parametrize(
    "fen",
    [
        "4K3/k7/8/8/2Q5/8/8/8[] w - - 0 40",
        "2D5/8/8/8/F7/8/4k3/K7[V] b - - 0 20",
        "1K2F3/8/1p4g1/8/k7/8/8/8[N] w - - 0 20",
    ],
)
def test_without_the_tables_mates_the_answers_stay(
    fen: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search a proof that does not hold falls back to: no mate taken from the table,
    every proof made on its own path. The same shortest mate, accepted in both forms."""
    position = Position(fen)
    trusting = search_mate(position, 4)
    monkeypatch.setattr(search, "TRUST_TABLE_PROOFS", False)
    careful = search_mate(position, 4)
    assert said(position, careful) == said(position, trusting) is not None
    assert careful.proof is not None
    both_forms_accepted(position, careful.proof)


@pytest.mark.skipif(
    "gcadj.analysis.search" in compiled_modules(),
    reason="a compiled class's methods cannot be replaced",
)
def test_a_proof_that_does_not_hold_is_searched_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first line the rebuilding replays is made to end in a draw: the search is made
    again without the table's mates, and proves the same mate."""
    broken: list[str] = []
    real_status = search.MateSearch._real_status

    def once(self: search.MateSearch) -> int:
        status = real_status(self)
        if not broken and self.trust_proofs and status == search.GOES_ON:
            broken.append(self.pos.fen())
            return search.DRAWN
        return status

    monkeypatch.setattr(search.MateSearch, "_real_status", once)
    position = Position("4K3/k7/8/8/2Q5/8/8/8[] w - - 0 40")
    result = search_mate(position, 4)
    assert broken and said(position, result) == ("for", 4)
    assert result.proof is not None
    both_forms_accepted(position, result.proof)
