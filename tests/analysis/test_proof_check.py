"""The proof checker accepts a proof only when it is one, and says precisely why not.

Each test takes a tree the prover made (or one written here) and tampers with it as a
careless or dishonest prover might: a defence left out, one added that is illegal or
written otherwise, a line longer than claimed, an illegal winner's move, a line that ends
in stalemate, in no mate, or in a draw on the way. Each is rejected with its reason.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from gcadj.analysis.proof import tree_json
from gcadj.analysis.proof_check import check_proof
from gcadj.analysis.search import search_mate
from gcadj.engine.position import Position

MATE_IN_TWO = "2K5/R7/8/8/8/8/8/3k4[Wg] w - - 0 20"  # R a7-a1+, then a drop mates


def proved(fen: str, depth: int = 2) -> tuple[Position, dict[str, Any], int]:
    position = Position(fen)
    proof = search_mate(position, depth).proof
    assert proof is not None
    return position, tree_json(position, proof.tree), proof.moves


def reason_of(position: Position, tree: Any, *, winner: str = "white", moves: int = 2) -> str:
    checked = check_proof(position, tree, winner=winner, moves=moves)
    assert not checked.accepted, "a tampered proof was accepted"
    return checked.reason


def test_the_provers_tree_is_accepted_and_it_is_what_the_prover_found() -> None:
    position, tree, moves = proved(MATE_IN_TWO)
    assert moves == 2 and tree["move"] == "R a7-a1"
    assert set(tree["replies"]) == {"k d1-e2", "k d1-c2", "k d1-d2"}
    checked = check_proof(position, tree, winner="white", moves=2)
    assert checked.accepted, checked.reason
    assert "3 lines" in checked.reason
    assert position.fen() == MATE_IN_TWO  # the checker works on a copy
    # read back from its JSON text, as a file or another program would give it
    assert check_proof(position, json.loads(json.dumps(tree)), winner="white", moves=2).accepted


def test_a_defence_left_out() -> None:
    position, tree, _ = proved(MATE_IN_TWO)
    del tree["replies"]["k d1-c2"]
    assert reason_of(position, tree) == ("after R a7-a1: the defence 'k d1-c2' is not answered")


def test_a_defence_added_that_is_illegal() -> None:
    position, tree, _ = proved(MATE_IN_TWO)
    tree["replies"]["k d1-d3"] = {"move": "R a1-a3", "replies": {}}
    reason = reason_of(position, tree)
    assert reason.startswith("after R a7-a1: 'k d1-d3' is no legal move here (")
    assert "illegal-piece-move" in reason


def test_a_legal_defence_written_otherwise_is_not_the_legal_move_list() -> None:
    position, tree, _ = proved(MATE_IN_TWO)
    tree["replies"]["d1-c2"] = tree["replies"].pop("k d1-c2")  # no label
    assert reason_of(position, tree) == ("after R a7-a1: the defence 'k d1-c2' is not answered")
    tree["replies"]["k d1-c2"] = tree["replies"]["d1-c2"]
    assert reason_of(position, tree) == (
        "after R a7-a1: 'd1-c2' is a legal move, but it is written 'k d1-c2'"
    )


def test_a_line_longer_than_claimed() -> None:
    position, tree, _ = proved(MATE_IN_TWO)
    assert reason_of(position, tree, moves=1) == (
        "after R a7-a1: the line is longer than claimed: no move is left to mate"
    )


def test_an_illegal_winners_move() -> None:
    position, tree, _ = proved(MATE_IN_TWO)
    tree["replies"]["k d1-e2"]["move"] = "R a1-b2"  # a Rook does not move diagonally
    reason = reason_of(position, tree)
    assert reason.startswith("after R a7-a1, k d1-e2: the winner's move 'R a1-b2' is illegal (")
    bad_root = copy.deepcopy(tree)
    bad_root["move"] = "R a7-h8"
    assert "the winner's move 'R a7-h8' is illegal (illegal-piece-move" in reason_of(
        position, bad_root
    )


def test_a_line_that_ends_in_stalemate_or_in_no_mate() -> None:
    position = Position("k7/8/1K6/8/8/8/8/2Q5[] w - - 0 1")
    stalemate = {"move": "Q c1-c7", "replies": {}}
    assert reason_of(position, stalemate, moves=1) == (
        "after Q c1-c7: the line ends without checkmate (stalemate)"
    )
    no_mate = {"move": "Q c1-c2", "replies": {}}
    assert reason_of(position, no_mate, moves=1) == (
        "after Q c1-c2: the line ends without checkmate (the game goes on)"
    )
    mate = {"move": "Q c1-c8", "replies": {}}
    assert check_proof(position, mate, winner="white", moves=1).accepted


def test_a_line_through_a_draw_by_fifty_moves() -> None:
    """Kb6 Kb8 Rh8# is a mate in 2, but with the count at 98 Black's Kb8 is the hundredth
    ply without a capture: the game is drawn there (docs/rules.md §4)."""
    tree = {"move": "K c6-b6", "replies": {"k a8-b8": {"move": "R h1-h8", "replies": {}}}}
    fine = Position("k7/8/2K5/8/8/8/8/7R[] w - - 97 60")
    assert check_proof(fine, tree, winner="white", moves=2).accepted
    late = Position("k7/8/2K5/8/8/8/8/7R[] w - - 98 60")
    assert reason_of(late, tree) == (
        "after K c6-b6, k a8-b8: the game ends here (fifty-move), not in mate"
    )


def test_a_mate_against_the_side_to_move_needs_every_move_of_it() -> None:
    position, tree, moves = proved("8/8/1V6/8/KW6/8/k7/8[N] b - - 0 20", 1)
    assert tree["move"] is None and moves == 1
    assert check_proof(position, tree, winner="white", moves=1).accepted
    assert reason_of(position, tree, winner="black", moves=1) == (
        "at the start: black is to move, so the root needs black's move"
    )
    first = next(iter(tree["replies"]))
    del tree["replies"][first]
    assert (
        reason_of(position, tree, moves=1) == f"at the start: the defence {first!r} is not answered"
    )


@pytest.mark.parametrize(
    ("tree", "reason"),
    [
        ([], 'at the start: a node must be an object with exactly "move" and "replies"'),
        (
            {"move": "K c6-b6"},
            'at the start: a node must be an object with exactly "move" and "replies"',
        ),
        (
            {"move": 7, "replies": {}},
            'at the start: "move" must be Game Courier text or null, not 7',
        ),
        (
            {"move": "K c6-b6", "replies": []},
            'at the start: "replies" must be an object (defence: answer)',
        ),
        (
            {"move": None, "replies": {}},
            "at the start: white is to move, so the root needs white's move",
        ),
        (
            {"move": "K c6-b6\nK b6-c6", "replies": {}},
            "at the start: 'K c6-b6\\nK b6-c6' is not one ply of Game Courier text",
        ),
        ({"move": "Kb6", "replies": {}}, None),
        (
            {"move": "K c6-b6", "replies": {"k a8-b8": {"move": None, "replies": {}}}},
            "after K c6-b6, k a8-b8: the defence 'k a8-b8' has no answer (its move is null)",
        ),
    ],
)
def test_what_is_no_tree_is_rejected_in_words(tree: Any, reason: str | None) -> None:
    position = Position("k7/8/2K5/8/8/8/8/7R[] w - - 0 1")
    said = reason_of(position, tree)
    if reason is None:  # SAN is not Game Courier text: the reader's own words
        assert said.startswith("at the start: 'Kb6' cannot be read: ")
    else:
        assert said == reason


def test_the_claim_itself_is_checked() -> None:
    position = Position("k7/8/2K5/8/8/8/8/7R[] w - - 0 1")
    tree = {"move": "K c6-b6", "replies": {"k a8-b8": {"move": "R h1-h8", "replies": {}}}}
    assert reason_of(position, tree, winner="green") == (
        "at the start: the winner must be 'white' or 'black', not 'green'"
    )
    assert reason_of(position, tree, moves=0) == (
        "at the start: the number of moves must be a whole number ≥ 1, not 0"
    )
    over = Position("k7/1Q6/1K6/8/8/8/8/8[] b - - 0 1")
    assert reason_of(over, tree) == "at the start: the game is already over (checkmate)"
