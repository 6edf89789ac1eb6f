"""The recorded result (issue 19 item 4): where the board shows no end, the verdict takes
the result from the Status line, the Result tag, the Termination tag and the result token;
where the record contradicts the board, or itself, the verdict says so in a warning."""

from __future__ import annotations

import json

import pytest

from gcadj.app.check import check_text
from gcadj.app.pipeline import judge_source
from gcadj.judging.verdict import Verdict
from gcadj.outputs.game_export import export_game

OPENING = "1. e4 e5 2. Nf3 Nc6"
# White mates on ply 7 (Qxf7#): the board shows checkmate, 1-0.
MATE = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#"


def judge(tags: str, moves: str) -> Verdict:
    (verdict,) = judge_source("g.pgn", text=f"{tags}\n{moves}\n")
    assert verdict.status == "legal", verdict.error
    return verdict


def test_the_issues_game_reports_its_result() -> None:
    verdict = judge('[Result "1-0"]\n[Termination "resignation"]\n', f"{OPENING} 1-0")
    assert (verdict.result, verdict.termination, verdict.warnings) == ("1-0", "resignation", ())


@pytest.mark.parametrize(
    ("tags", "token", "result", "termination"),
    [
        ('[Result "0-1"]\n', "0-1", "0-1", "recorded"),  # Result tag only: how is unknown
        ('[Result "0-1"]\n', "", "0-1", "recorded"),  # no result token
        ('[Event "x"]\n', "1/2-1/2", "1/2-1/2", "recorded"),  # the token alone
        ('[Result "1-0"]\n[Termination "Time forfeit"]\n', "1-0", "1-0", "time-forfeit"),
        ('[Result "1/2-1/2"]\n[Termination "draw agreed"]\n', "1/2-1/2", "1/2-1/2", "agreement"),
        ('[Result "1-0"]\n[Termination "abandoned"]\n', "1-0", "1-0", "abandoned"),
        ('[Result "0-1"]\n[Termination "Normal"]\n', "0-1", "0-1", "recorded"),
        ('[Result "*"]\n[Termination "unterminated"]\n', "*", "*", "ongoing"),
    ],
)
def test_the_record_gives_the_result_when_the_board_shows_no_end(
    tags: str, token: str, result: str, termination: str
) -> None:
    verdict = judge(tags, f"{OPENING} {token}")
    assert (verdict.result, verdict.termination, verdict.warnings) == (result, termination, ())


def test_a_game_courier_log_with_a_result_tag() -> None:
    verdict = check_text('[Result "0-1"]\nP e2-e4\np e7-e5\n', "g.txt")
    assert (verdict.status, verdict.result, verdict.termination) == ("legal", "0-1", "recorded")


def test_the_status_line_comes_first_and_a_disagreement_is_a_warning() -> None:
    tags = '[White "Ann"]\n[Black "Bob"]\n[Status "Bob has resigned."]\n[Result "0-1"]\n'
    verdict = judge(tags, f"{OPENING} 0-1")
    assert (verdict.result, verdict.termination) == ("1-0", "resignation")
    assert verdict.warnings == (
        "the recorded result 0-1 disagrees with the status line 'Bob has resigned.' (1-0)",
    )


def test_a_win_recorded_for_the_side_that_was_mated() -> None:
    verdict = judge('[Result "0-1"]\n', f"{MATE} 0-1")
    assert (verdict.result, verdict.termination) == ("1-0", "checkmate")
    assert verdict.warnings == (
        "the recorded result 0-1 disagrees with the board, which shows checkmate (1-0)",
    )
    assert json.loads(verdict.json_line())["warnings"] == list(verdict.warnings)


def test_a_recorded_mate_where_there_is_none() -> None:
    verdict = judge('[Result "1-0"]\n[Termination "checkmate"]\n', f"{OPENING} 1-0")
    assert verdict.result == "1-0"
    assert verdict.warnings == ("the Termination tag says checkmate, but the game has not ended",)
    verdict = judge('[Result "1-0"]\n', "1. e4 e5 2. Qh5 Nc6 3. Qxf7# 1-0")
    assert verdict.warnings == (
        "ply 5 ('Qxf7#', line 3) is marked as mate, but the position after it is not checkmate",
    )
    assert json.loads(verdict.json_line())["warnings"] == list(verdict.warnings)


def test_a_real_mate_and_its_record_agree() -> None:
    verdict = judge('[Result "1-0"]\n[Termination "checkmate"]\n', f"{MATE} 1-0")
    assert (verdict.result, verdict.termination, verdict.warnings) == ("1-0", "checkmate", ())


def test_the_result_tag_against_the_result_token() -> None:
    verdict = judge('[Result "1-0"]\n', f"{OPENING} 0-1")
    assert verdict.result == "1-0"
    assert verdict.warnings == (
        "the Result tag says 1-0 but the moves end with the result 0-1; the tag is taken",
    )
    verdict = judge('[Result "White wins"]\n', f"{OPENING} 0-1")
    assert verdict.result == "0-1"
    assert verdict.warnings[0].startswith("the Result tag 'White wins' is not a result")


@pytest.mark.parametrize("fmt", ["pgn", "gc"])
def test_a_recorded_result_survives_an_export(fmt: str) -> None:
    verdict = judge('[Result "1-0"]\n[Termination "Time forfeit"]\n', f"{OPENING} 1-0")
    again = check_text(export_game(verdict, fmt), f"g.{fmt}")
    assert (again.status, again.result, again.termination) == ("legal", "1-0", "time-forfeit")
    assert again.warnings == ()
