"""What each kind of verdict is adjudicated on, and each class (docs/rules.md §7).

Through the public API (`gcadj.adjudicate`, `gcadj.adjudicate_position`), which takes the
games through the one pipeline. Every mate an adjudication gives is read back from its
JSON text by the proof checker: what gcadj writes, it accepts.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import FIXTURES

import gcadj
from gcadj.analysis import adjudicator as adjudicate_module
from gcadj.analysis.adjudicator import AdjudicateOptions, adjudicate_verdict
from gcadj.analysis.proof_check import check_proof
from gcadj.app.stages import guarded_adjudication
from gcadj.engine.move import Move
from gcadj.engine.position import Position
from gcadj.errors import FenError
from gcadj.judging.verdict import Verdict

MATE_IN_ONE = "P e2-e4\np f7-f6\nP d2-d4\np g7-g5\n"  # Qh5#
QUICK = AdjudicateOptions(mate_depth=1)


def only(text: str, **options: Any) -> Verdict:
    games = gcadj.adjudicate("game.txt", text=text, **options)
    assert len(games) == 1
    return games[0]


def assert_mate_reads_back(game: Verdict) -> dict[str, Any]:
    """The game's JSON line, parsed, and its proof accepted from that text alone."""
    record: dict[str, Any] = json.loads(game.json_line())
    found = record["adjudication"]
    mate = found["mate"]
    assert mate is not None
    checked = check_proof(
        Position(found["position"]), mate["tree"], winner=mate["winner"], moves=mate["moves"]
    )
    assert checked.accepted, checked.reason
    return record


def test_an_unfinished_game_with_a_mate_in_one() -> None:
    game = only(MATE_IN_ONE)
    found = game.adjudication
    assert (found.kind.value, found.result.value) == ("proven", "1-0")
    assert found.reason == "White, to move, mates in 1"
    assert found.mate is not None and found.mate.line == ("Q d1-h5",)
    assert found.mate.san == ("Qh5#",) and found.mate.tree == {"move": "Q d1-h5", "replies": {}}
    assert found.position == game.final_fen
    record = assert_mate_reads_back(game)
    plain = gcadj.check_text(MATE_IN_ONE, "game.txt")
    assert {key: record[key] for key in plain.to_json()} == json.loads(
        plain.json_line()
    )  # the check's object, unchanged, with the adjudication beside it
    assert set(record["adjudication"]) >= {
        "class",
        "result",
        "reason",
        "mate",
        "no_mate_within",
        "material",
        "nodes",
        "seconds",
    }


@pytest.mark.parametrize(
    ("name", "result", "how"),
    [
        ("checkmate.txt", "0-1", "Black won by checkmate"),
        ("stalemate.txt", "1/2-1/2", "a draw by stalemate"),
        ("dead-position.txt", "1/2-1/2", "a draw by dead position"),
    ],
)
def test_a_board_that_has_ended_is_proven_without_a_search(
    name: str, result: str, how: str
) -> None:
    found = gcadj.adjudicate(str(FIXTURES / "logs" / "legal" / name))[0].adjudication
    assert (found.kind.value, found.result.value) == ("proven", result)
    assert found.reason == f"the game has ended on the board: {how}"
    assert found.nodes == 0 and found.no_mate_within is None and found.mate is None


def test_a_resignation_stands_and_the_board_is_described() -> None:
    game = gcadj.adjudicate(str(FIXTURES / "examples" / "ex4_resignation.txt"), mate_depth=1)[0]
    found = game.adjudication
    assert found.kind.value == "recorded" and found.result == game.result == "1-0"
    assert found.reason.startswith("the record ends the game by resignation (1-0); on the board, ")
    assert found.material is not None and found.notes == ()


def test_a_pgn_result_alone_is_said_as_the_records_result() -> None:
    """A result with no word of how the game ended reads as such, never "by recorded"."""
    found = only('[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n', mate_depth=1).adjudication
    assert (found.kind.value, found.result.value) == ("recorded", "1-0")
    assert found.reason.startswith("the record gives the result 1-0; on the board, ")
    assert "by recorded" not in found.reason


def test_a_budget_of_0_seconds_searches_no_mate() -> None:
    """``--budget 0`` is no search, as ``serve --adjudicate-budget 0`` is: the class comes
    from the board, the record, a repetition and the material."""
    found = only(MATE_IN_ONE, budget=0).adjudication
    assert found.mate is None and found.no_mate_within is None and found.nodes == 0
    assert (found.kind.value, found.result.value) == ("undetermined", "*")
    assert found.reason == "no mate was searched (a budget of 0 s); material is level"


def test_a_win_on_time_with_a_bare_king_gets_the_fide_note() -> None:
    text = (
        '[White "Alice"]\n[Black "Bob"]\n[FEN "4k3/8/8/8/8/8/8/Q3K3[] w - - 0 40"]\n'
        '[Status "Alice has lost on time."]\nQ a1-a2\nk e8-d7\n'
    )
    found = only(text, mate_depth=1).adjudication
    assert (found.kind.value, found.result.value) == ("recorded", "0-1")
    assert found.notes == (
        "Black won on time with only its King (nothing in its pocket): by FIDE's rule 6.9 "
        "that would be a draw, since a bare King can never mate",
    )
    no_note = only(text.replace("Alice has lost", "Bob has lost"), mate_depth=1).adjudication
    assert no_note.result.value == "1-0" and no_note.notes == ()


def test_an_illegal_game_is_adjudicated_before_its_first_illegal_ply() -> None:
    game = only(MATE_IN_ONE + "Q d1-h6\n")
    assert game.status == "illegal"
    found = game.adjudication
    assert found.reason == (
        "on the position before ply 5 ('Q d1-h6'), the first illegal one: "
        "White, to move, mates in 1"
    )
    assert found.position == game.first_illegal.fen_before  # type: ignore[union-attr]
    assert_mate_reads_back(game)


def test_a_game_read_up_to_an_unreadable_ply_is_adjudicated_where_reading_stopped() -> None:
    game = only(MATE_IN_ONE + "Qh5\n")
    assert game.partial
    found = game.adjudication
    assert found.kind.value == "proven"
    assert found.reason == (
        "on the position where reading stopped, before ply 5: White, to move, mates in 1"
    )


@pytest.mark.parametrize("text", ["", '[White "Alice"\n'])
def test_a_source_with_no_game_has_no_position(text: str) -> None:
    game = only(text)
    found = game.adjudication
    assert (found.kind.value, found.result.value) == ("undetermined", "*")
    assert found.reason == f"no position to adjudicate: {game.error.splitlines()[0]}"  # type: ignore[union-attr]
    assert found.position is None and found.material is None and found.mate is None


def test_a_threefold_repetition_is_claimable() -> None:
    shuffle = "N g1-f3\nn g8-f6\nN f3-g1\nn f6-g8\n"
    game = only(shuffle * 3, mate_depth=1)
    found = game.adjudication
    assert (found.kind.value, found.result.value) == ("claimable", "1/2-1/2")
    assert found.reason.startswith(
        "the position has occurred 3 times (after plies 4, 8 and 12): a draw by threefold "
        "repetition may be claimed; no forced mate within 1 move for either side"
    )
    # The plies listed are those after which the position (its repetition key: the board,
    # the side to move and, at the start, White's ply-1 ban) is the adjudicated one, found
    # by replaying the judged game to each ply on its own.
    from gcadj.judging.plies import JudgedGame

    final = JudgedGame(game).position_after(game.legal_plies).key
    after = [
        n for n in range(game.legal_plies + 1)
        if JudgedGame(game).position_after(n).key == final
    ]  # fmt: skip
    assert list(found.repeated_plies) == after == [4, 8, 12]
    assert game.to_json()["adjudication"]["repeated_plies"] == after
    twice = only(shuffle * 2, mate_depth=1).adjudication
    assert twice.kind.value == "undetermined" and twice.repeated_plies == ()


def test_a_loser_to_move_in_a_third_occurrence_claims_the_draw() -> None:
    """White to move is mated in 1 whatever it plays. After two different round trips
    (Kb8-a8 f c6-d6 Ka8-b8 f d6-c6, Kb8-b7 f c6-e6 Kb7-b8 f e6-c6) the position stands a
    third time, and no move of White's repeats one a third time: the search finds the mate
    in 1, and White may claim the draw instead."""
    position = Position("1K6/8/2f3B1/7X/2k5/8/4R3/8[Rx] w - - 0 20")
    fresh = gcadj.adjudicate_position(position, QUICK)
    assert (fresh.kind.value, fresh.result.value) == ("proven", "0-1")
    for uci in ("b8a8", "c6d6", "a8b8", "d6c6", "b8b7", "c6e6", "b7b8", "e6c6"):
        position.push(Move.from_uci(uci))
    again = gcadj.adjudicate_position(position, QUICK)
    assert (again.kind.value, again.result.value) == ("claimable", "1/2-1/2")
    assert again.mate is not None and again.reason.startswith(
        "the position has occurred 3 times (at the start, after plies 4 and 8): White, to "
        "move, may claim a draw by threefold repetition instead of being mated in 1"
    )
    assert again.repeated_plies == (0, 4, 8)


def test_a_material_lead_is_evidence_from_the_margin_on() -> None:
    fen = "4k3/8/8/8/8/8/8/R3K3[] b - - 0 1"  # White leads by a Rook, no mate within 2
    lead = gcadj.adjudicate_position(fen, AdjudicateOptions(mate_depth=2))
    assert (lead.kind.value, lead.result.value) == ("evidence", "1-0")
    assert lead.reason == (
        "no forced mate within 2 moves for either side; White leads by 3 class units, at "
        "least the evidence margin of 3: evidence, not proof"
    )
    level = gcadj.adjudicate_position(fen, AdjudicateOptions(mate_depth=2, evidence_margin=4))
    assert (level.kind.value, level.result.value) == ("undetermined", "*")
    assert level.reason.endswith("; White leads by 3 class units")
    assert lead.no_mate_within == lead.not_mated_within == 2


def test_a_search_cut_by_its_node_limit_says_how_far_it_got() -> None:
    fen = "1K2F3/8/1p4g1/8/k7/8/8/8[N] w - - 0 20"  # mate in 3
    found = gcadj.adjudicate_position(fen, AdjudicateOptions(node_limit=300))
    assert found.cut == "nodes" and found.mate is None and found.nodes == 300
    assert "was cut by the node limit (300 nodes)" in found.reason
    assert found.no_mate_within is not None and found.no_mate_within < 3
    full = gcadj.adjudicate_position(fen)
    assert full.mate is not None and full.mate.moves == 3 and full.cut is None


def test_a_bug_in_adjudicating_one_game_is_that_games_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    verdict = gcadj.check_text(MATE_IN_ONE)

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("injected")

    monkeypatch.setattr(adjudicate_module, "search_mate", broken)
    with pytest.raises(ValueError):
        adjudicate_verdict(verdict)
    found = guarded_adjudication(verdict, AdjudicateOptions())
    assert found.internal and found.kind.value == "undetermined"
    assert found.reason == "internal error: ValueError: injected"


def test_a_fen_or_a_game_courier_code_can_be_adjudicated() -> None:
    from gcadj.notation.gccode import fen_to_gc_code

    fen = "k7/8/2K5/8/8/8/8/7R[] w - - 0 1"
    by_fen = gcadj.adjudicate_position(fen)
    by_code = gcadj.adjudicate_position(fen_to_gc_code(fen))
    assert by_fen.mate is not None and by_code.mate is not None
    assert by_fen.mate.line == by_code.mate.line == ("K c6-b6", "k a8-b8", "R h1-h8")
    with pytest.raises(FenError):
        gcadj.adjudicate_position("not a position")


def test_a_mate_whose_proof_is_too_large_is_not_proven(monkeypatch: pytest.MonkeyPatch) -> None:
    from gcadj.analysis import search

    monkeypatch.setattr(search, "PROOF_LIMIT", 2)
    found = gcadj.adjudicate_position("2K5/R7/8/8/8/8/8/3k4[Wg] w - - 0 20")
    assert found.mate is None and found.kind.value == "evidence" and found.cut == "proof"
    assert found.reason.startswith(
        "no forced mate within 1 move for either side; a forced mate in 2 for White was "
        "found, but its proof has more than "
    )
    assert "too many to write out and check: it is not proven" in found.reason


def test_options_and_adjudications_travel_to_worker_processes() -> None:
    """The seam for the audit's workers and the server: picklable both ways."""
    import pickle

    options = AdjudicateOptions(mate_depth=2, budget=None, node_limit=5_000, evidence_margin=4)
    assert pickle.loads(pickle.dumps(options)) == options
    game = only(MATE_IN_ONE)
    back = pickle.loads(pickle.dumps(game.adjudication))
    assert back == game.adjudication and back.to_json() == game.adjudication.to_json()
