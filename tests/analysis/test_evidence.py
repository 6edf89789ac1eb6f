"""Evidence that sees tactics (docs/rules.md §7.2, §7.4): the evidence class weighs the
material after the forced exchanges, names their line, and states a mate the side not to
move threatens.

The Done-when game of issue 35: the sample game ex4_resignation.txt cut after ply 4
(fixtures/adjudicate/queen-hangs.txt) leaves Black's Queen hanging with White to move; the
static count is level, the adjudication is evidence for White and names the Queen lost.
"""

from __future__ import annotations

import json

import pytest
from conftest import FIXTURES

import gcadj
from gcadj.analysis import exchanges
from gcadj.analysis.adjudicator import AdjudicateOptions, null_move, threat_of
from gcadj.analysis.proof_check import check_proof
from gcadj.engine.position import Position
from gcadj.judging.verdict import Verdict

QUEEN_HANGS = FIXTURES / "adjudicate" / "queen-hangs.txt"
THREAT = FIXTURES / "adjudicate" / "threat.txt"


def only(path: str, **options: object) -> Verdict:
    games = gcadj.adjudicate(path, **options)  # type: ignore[arg-type]
    assert len(games) == 1
    return games[0]


def test_the_queen_left_hanging_is_evidence_for_white() -> None:
    cut = FIXTURES / "examples" / "ex4_resignation.txt"
    plies = [line for line in cut.read_text().splitlines() if not line.startswith("[")][:4]
    assert [line.split(" //")[0] for line in plies] == [
        line.split(" //")[0]
        for line in QUEEN_HANGS.read_text().splitlines()
        if line and line[0] not in "[/"
    ]  # the fixture is the sample game, cut after ply 4
    game = only(str(QUEEN_HANGS), mate_depth=3, budget=None)  # no clock in the answer
    found = game.adjudication
    assert (found.kind.value, found.result.value) == ("evidence", "1-0")
    assert found.material is not None and found.material.lead == 0  # the static count
    assert found.exchanges is not None
    assert (found.exchanges.line, found.exchanges.san) == (("N f3-g5",), ("Nxg5",))
    assert (found.exchanges.white, found.exchanges.black, found.exchanges.balance) == (27, 22, 5)
    assert found.reason == (
        "no forced mate within 3 moves for either side; after the exchanges 3. Nxg5 "
        "(Black loses a Queen), White leads by 5 class units, at least the evidence margin "
        "of 3: evidence, not proof"
    )
    record = json.loads(game.json_line())["adjudication"]
    assert record["exchanges"] == {
        "white": 27,
        "black": 22,
        "balance": 5,
        "line": ["N f3-g5"],
        "san": ["Nxg5"],
        "mate": None,
        "cut": None,
    }
    assert record["threat"] is None


def test_the_text_shows_the_static_count_and_the_count_after_the_exchanges() -> None:
    from gcadj.outputs.adjudication_text import render_adjudication

    game = only(str(QUEEN_HANGS), mate_depth=3, budget=None)
    text = render_adjudication(game)
    assert text.splitlines()[-6:] == [
        "  material    1   2   3   4   5   6   7   8  total  pocket",
        "    White     8   4   2   0   1   0   0   0     27  -",
        "    Black     8   4   2   0   1   0   0   0     27  -",
        "  after the exchanges: White 27, Black 22",
        "    line: 3. N f3-g5",
        "     SAN: 3. Nxg5",
    ]


def test_a_threat_of_the_side_not_to_move_is_stated() -> None:
    game = only(str(THREAT), mate_depth=3, budget=None)  # no clock in the answer
    found = game.adjudication
    assert (found.kind.value, found.result.value) == ("undetermined", "*")
    assert found.reason == (
        "no forced mate within 3 moves for either side; Black threatens mate in 1: Qh4#; "
        "material is level"
    )
    threat = found.threat
    assert threat is not None and (threat.side.value, threat.moves) == ("black", 1)
    assert (threat.line, threat.san) == (("q d8-h4",), ("Qh4#",))
    assert threat.position.split()[1] == "b"  # White passed: Black to move
    passed = Position(threat.position)
    tree = {"move": "q d8-h4", "replies": {}}
    assert check_proof(passed, tree, winner="black", moves=1).accepted
    assert json.loads(game.json_line())["adjudication"]["threat"] == threat.to_json()


def test_no_threat_is_looked_for_when_the_side_to_move_is_in_check() -> None:
    in_check = Position("4k3/8/8/8/8/8/3q4/4K3[] w - - 0 30")
    assert in_check.is_check()
    assert null_move(in_check) is None and threat_of(in_check) is None
    found = gcadj.adjudicate_position(in_check, AdjudicateOptions(mate_depth=1))
    assert found.threat is None


def test_a_null_move_passes_the_turn_and_keeps_the_rest() -> None:
    position = Position("4k3/8/8/3pP3/8/8/8/4K3[Q] w - d6 7 30")
    passed = null_move(position)
    assert passed is not None
    assert passed.fen() == "4k3/8/8/3pP3/8/8/8/4K3[Q] b - - 7 30"
    assert null_move(passed) is not None and null_move(passed).fen().endswith("w - - 7 31")  # type: ignore[union-attr]


def test_exchanges_that_end_in_mate_beyond_the_search_are_evidence() -> None:
    """Qhxc2+ Qxc2 Qxc2#: a mate in 2 made of captures, which a search to depth 1 does not
    reach and the count of the exchanges does."""
    fen = "5n2/7Q/2q4b/8/8/5R2/2p1Q1R1/pk5K[] w - - 0 5"
    found = gcadj.adjudicate_position(fen, AdjudicateOptions(mate_depth=1))
    assert (found.kind.value, found.result.value) == ("evidence", "1-0")
    assert found.exchanges is not None and found.exchanges.mate is not None
    assert found.exchanges.san == ("Qhxc2+", "Qxc2", "Qxc2#")
    assert "are a forced mate of captures and checks" in found.reason
    assert "Black is mated" in found.reason
    proven = gcadj.adjudicate_position(fen, AdjudicateOptions(mate_depth=2))
    assert proven.kind.value == "proven" and proven.mate is not None


def test_a_cut_count_is_never_weighed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exchanges, "NODE_LIMIT", 1)
    found = only(str(QUEEN_HANGS), mate_depth=3, budget=None).adjudication
    assert found.exchanges is not None and found.exchanges.cut == "nodes"
    assert (found.kind.value, found.result.value) == ("undetermined", "*")
    assert found.reason.endswith(
        "the count of the exchanges was cut (it visited 1 position), so the board as it "
        "stands is weighed: material is level"
    )


def test_the_search_for_a_threat_is_bounded() -> None:
    """Its nodes are the adjudication's node limit at most: here too few to find it."""
    found = only(str(THREAT), node_limit=1).adjudication
    assert found.cut == "nodes" and found.threat is None
    assert "threatens" not in found.reason
