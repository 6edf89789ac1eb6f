"""The analysis of a whole game (docs/rules.md §8): each mistake where it is, and nowhere else.

The hand-made games of fixtures/analyse get exactly their finding. On random games (from
the usual array, tests/random_games.py, and from sparse random positions with pockets,
where mates are common) every "missed mate" and "allows mate" at depth 1 is what the naive
mate search of the tests (tests/naive_mate.py) says, ply by ply, both ways: none missing,
none extra. Built games settle the readings (a stalemate instead of a mate, a mate missed
and one allowed on the same ply, a sacrifice that keeps the mate, a lost position); a cut
search or count claims nothing; the JSON of a plain check does not change.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import random

import pytest
from conftest import FIXTURES, budget
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive_mate import NaiveSearch
from random_games import random_game
from random_positions import random_position

import gcadj
from gcadj.analysis import adjudicator as adjudicate_module
from gcadj.analysis import exchanges
from gcadj.analysis.analyser import analyse_verdict
from gcadj.analysis.options import AnalyseOptions
from gcadj.analysis.proof_check import ProofCheck
from gcadj.engine.position import Position
from gcadj.errors import ProofRejected
from gcadj.judging.game_analysis import GameAnalysis, MateFact, Mistake
from gcadj.notation.san import gc_text
from gcadj.vocabulary import MistakeKind, Side, Termination

FIXTURE_GAMES = FIXTURES / "analyse"
DEPTH_ONE = AnalyseOptions(mate_depth=1, node_limit=None)


def analysed(text: str, options: AnalyseOptions | None = None) -> GameAnalysis:
    verdict = gcadj.check_text(text)
    assert verdict.status == "legal", verdict.error or verdict.first_illegal
    return analyse_verdict(verdict, options)


def found(analysis: GameAnalysis) -> list[tuple[int, str, str, int | None]]:
    """Each mistake as (ply, side, kind, mate length or class units lost)."""
    return [
        (m.ply, m.side.value, m.kind.value, m.moves if m.lost is None else m.lost)
        for m in analysis.mistakes
    ]


def assert_mate_line_checks(mistake: Mistake) -> None:
    """A mistake's mating line (its tree was accepted by the proof checker when it was
    made) is legal from its position, its positions are the ones it says, and it ends in
    checkmate after the mate's number of moves."""
    position = Position(mistake.position)
    for step in mistake.steps:
        assert position.is_legal(step.move)
        position.push(step.move)
        assert position.fen() == step.fen_after
    assert position.is_checkmate()
    assert len(mistake.line) == len(mistake.san) == 2 * (mistake.moves or 0) - 1


# -- the hand-made games ---------------------------------------------------------------


def test_a_missed_mate_in_one() -> None:
    analysis = analysed((FIXTURE_GAMES / "missed-mate-in-1.txt").read_text())
    assert found(analysis) == [(1, "white", "missed-mate", 1)]
    missed = analysis.mistakes[0]
    assert (missed.line, missed.san) == (("R a1-a8",), ("Ra8#",))
    assert missed.position == "6k1/5ppp/8/8/8/8/5PPP/R5K1[] w - - 0 30"  # before the ply
    assert missed.reason == (
        "White had a forced mate in 1 (30. Ra8#); after 30. Kf1 it has none within 2 moves"
    )
    assert_mate_line_checks(missed)


def test_a_move_that_allows_a_mate_in_one() -> None:
    analysis = analysed((FIXTURE_GAMES / "allows-mate-in-1.txt").read_text())
    assert found(analysis) == [(3, "white", "allows-mate", 1)]
    allowed = analysis.mistakes[0]
    assert (allowed.line, allowed.san) == (("q d8-h4",), ("Qh4#",))
    assert allowed.reason == "White allows a forced mate in 1 with 2. g4: 2... Qh4#"
    assert_mate_line_checks(allowed)
    assert analysis.plies[2].after.mate == MateFact(Side.BLACK, 1)


def test_a_piece_lost() -> None:
    analysis = analysed((FIXTURE_GAMES / "loses-a-piece.txt").read_text())
    assert found(analysis) == [(4, "black", "loses-material", 5)]
    lost = analysis.mistakes[0]
    assert (lost.line, lost.san, lost.before, lost.after) == (("N f3-g5",), ("Nxg5",), 0, 5)
    assert [ply.after.balance for ply in analysis.plies] == [0, 0, 0, 5, 5, 5, 5]
    assert "Black loses a Queen" in lost.reason


# -- the readings ----------------------------------------------------------------------


def test_a_stalemate_instead_of_a_mate_is_a_missed_mate() -> None:
    text = '[FEN "k7/8/1K6/8/8/8/8/2Q5[] w - - 0 40"]\nQ c1-c7\n'
    analysis = analysed(text)
    assert found(analysis) == [(1, "white", "missed-mate", 1)]
    assert analysis.mistakes[0].reason.endswith("40. Qc7 ends the game in a draw by stalemate")


def test_a_mate_missed_and_a_mate_allowed_on_the_same_ply() -> None:
    """White mates in 2 on the back rank (the Black Rook can only block once) and plays
    Ra7, which also lets that Rook mate on b1: both are said, and no material finding."""
    text = '[FEN "6k1/5ppp/8/8/8/8/1r3PPP/R5K1[] w - - 0 30"]\nR a1-a7\n'
    analysis = analysed(text)
    assert found(analysis) == [(1, "white", "missed-mate", 2), (1, "white", "allows-mate", 1)]
    assert [m.san for m in analysis.mistakes] == [("Ra8+", "Rb8", "Rxb8#"), ("Rb1#",)]


def test_a_sacrifice_that_keeps_the_mate_loses_nothing() -> None:
    """Qg8+ Rxg8 Nf7#: the Queen given up is no material lost, the mate is kept; the forced
    recapture, in a lost position, allows nothing."""
    text = '[FEN "r6k/6pp/7N/3Q4/8/8/8/4K3[] w - - 0 30"]\nQ d5-g8\nr a8-g8\nN h6-f7\n'
    analysis = analysed(text)
    assert found(analysis) == []
    assert [ply.after.mate for ply in analysis.plies[:2]] == [MateFact(Side.WHITE, 1)] * 2
    given = analysis.plies[0].after.balance
    assert given is not None and analysis.start.balance is not None
    assert given <= analysis.start.balance - 5  # the Queen is given up, for the mate


def test_a_mate_already_lost_is_not_the_movers_fault() -> None:
    """Black, to move, is mated in 1 whatever it plays (its one move, Kb8, lets the Rook
    mate): the move allows nothing that was not there; White then mates."""
    text = '[FEN "k7/8/1K6/8/8/8/8/7R[] b - - 0 40"]\nk a8-b8\nR h1-h8\n'
    analysis = analysed(text, AnalyseOptions(mate_depth=1))
    assert analysis.start.mate == MateFact(Side.WHITE, 1)
    assert found(analysis) == []


def test_a_cut_search_claims_nothing() -> None:
    analysis = analysed(
        (FIXTURE_GAMES / "missed-mate-in-1.txt").read_text(), AnalyseOptions(node_limit=1)
    )
    assert found(analysis) == []
    assert all(ply.after.mate_cut == "nodes" and ply.after.mate is None for ply in analysis.plies)
    assert analysis.cut == 3


def test_a_cut_count_claims_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exchanges, "NODE_LIMIT", 1)
    analysis = analysed((FIXTURE_GAMES / "loses-a-piece.txt").read_text())
    assert found(analysis) == []
    cut = [ply.after for ply in analysis.plies if ply.after.exchanges_cut is not None]
    assert cut and all(facts.balance is None for facts in cut)


def test_the_threshold_is_an_option() -> None:
    text = (FIXTURE_GAMES / "loses-a-piece.txt").read_text()
    assert found(analysed(text, AnalyseOptions(threshold=6))) == []
    assert found(analysed(text, AnalyseOptions(threshold=5))) == [(4, "black", "loses-material", 5)]


# -- the naive search, ply by ply ------------------------------------------------------


def naive_findings(verdict: gcadj.Verdict) -> list[tuple[int, str]]:
    """The missed and allowed mates at depth 1, by docs/rules.md §8.3 over the naive
    search's answers (every legal move tried at every node)."""
    naive = NaiveSearch(Position.legal_moves, None)
    position = Position.starting_at(verdict.start_fen)
    answers = []
    overs = []
    for index in range(len(verdict.moves) + 1):
        over = position.outcome()
        overs.append(over)
        answers.append(None if over is not None else naive.shortest(position.copy(), 1))
        if index < len(verdict.moves):
            position.push(verdict.moves[index])
    expected = []
    turn = Position.starting_at(verdict.start_fen).turn
    for index in range(len(verdict.moves)):
        mover = (turn + index) % 2
        before, after, over = answers[index], answers[index + 1], overs[index + 1]
        if before == ("for", 1):
            mated_them = over is not None and (
                over.termination is Termination.CHECKMATE and over.winner == mover
            )
            if (over is not None and not mated_them) or (over is None and after != ("against", 1)):
                expected.append((index + 1, MistakeKind.MISSED_MATE.value))
        if over is None and after == ("for", 1) and before in (("for", 1), None):
            expected.append((index + 1, MistakeKind.ALLOWS_MATE.value))
    return expected


def assert_mates_as_the_naive_search_finds_them(verdict: gcadj.Verdict) -> int:
    analysis = analyse_verdict(verdict, DEPTH_ONE)
    mates = [
        (m.ply, m.kind.value) for m in analysis.mistakes if m.kind is not MistakeKind.LOSES_MATERIAL
    ]
    assert mates == naive_findings(verdict), verdict.start_fen
    for mistake in analysis.mistakes:
        if mistake.moves is not None:
            assert mistake.moves == 1
            assert_mate_line_checks(mistake)
    return len(mates)


def game_from(start: Position, rng: random.Random, plies: int) -> gcadj.Verdict:
    """A random legal game from `start`, as a log with its FEN tag: checks and captures
    preferred half of the time, so that mates come and go."""
    position = start.copy()
    lines = [f'[FEN "{start.fen()}"]']
    for _ in range(plies):
        if position.outcome() is not None:
            break
        moves = position.legal_moves()
        sharp = position.checking_moves() + position.material_moves()
        move = rng.choice(sharp if sharp and rng.random() < 0.5 else moves)
        lines.append(gc_text(position, move))
        position.push(move)
    return gcadj.check_text("\n".join(lines) + "\n")


@settings(max_examples=budget(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(2, 8))
def test_mates_from_sparse_random_positions(seed: int, pieces: int) -> None:
    rng = random.Random(seed)
    start = random_position(rng, pieces)
    if start is None or start.outcome() is not None:
        return
    assert_mates_as_the_naive_search_finds_them(game_from(start, rng, 12))


@settings(max_examples=budget(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_mates_in_random_games_from_the_usual_array(seed: int) -> None:
    texts, _ = random_game(random.Random(seed), 40)
    assert_mates_as_the_naive_search_finds_them(gcadj.check_text("\n".join(texts) + "\n"))


def test_the_random_games_do_find_mates() -> None:
    """The property above is not vacuous: on these fixed seeds the naive search sees
    missed and allowed mates, and the analysis finds the same."""
    seen = 0
    for seed in range(30):
        rng = random.Random(seed)
        start = random_position(rng, 5)
        if start is not None and start.outcome() is None:
            seen += assert_mates_as_the_naive_search_finds_them(game_from(start, rng, 12))
    assert seen >= 5


# -- the data --------------------------------------------------------------------------


def test_the_json_of_a_plain_check_does_not_change() -> None:
    verdict = gcadj.check_text((FIXTURE_GAMES / "loses-a-piece.txt").read_text())
    plain = verdict.json_line()
    assert "analysis" not in json.loads(plain)
    with_it = dataclasses.replace(verdict, analysis=analyse_verdict(verdict))
    record = json.loads(with_it.json_line())
    analysis = record.pop("analysis")
    assert json.dumps(record) == json.dumps(json.loads(plain))
    assert analysis["counts"] == {"missed-mate": 0, "allows-mate": 0, "loses-material": 1}
    assert [ply["balance"] for ply in analysis["plies"]] == [0, 0, 0, 5, 5, 5, 5]
    assert analysis["plies"][3]["mistakes"][0]["kind"] == "loses-material"
    assert set(analysis) == {
        "mate_depth",
        "material_threshold",
        "counts",
        "cut",
        "start",
        "plies",
        "nodes",
        "seconds",
        "error",
    }
    assert analysis["error"] is None
    assert with_it == verdict  # not part of a verdict's equality


def test_an_analysis_pickles() -> None:
    verdict = gcadj.check_text((FIXTURE_GAMES / "allows-mate-in-1.txt").read_text())
    options = AnalyseOptions(mate_depth=1)
    assert pickle.loads(pickle.dumps(options)) == options
    analysis = analyse_verdict(verdict, options)
    again = pickle.loads(pickle.dumps(dataclasses.replace(verdict, analysis=analysis)))
    assert again.analysis == analysis


def test_a_mate_the_proof_checker_rejects_is_never_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every mate of the analysis goes through the proof checker first: one it rejects
    (injected here) is a bug of gcadj's, raised, never a finding."""
    text = (FIXTURE_GAMES / "allows-mate-in-1.txt").read_text()
    assert found(analysed(text)) == [(3, "white", "allows-mate", 1)]

    def rejects(*args: object, **kwargs: object) -> ProofCheck:
        return ProofCheck(False, "injected")

    monkeypatch.setattr(adjudicate_module, "check_proof", rejects)
    with pytest.raises(ProofRejected, match="injected"):
        analysed(text)
