"""PGN as other programs write it (issue 28 item 4): each shape has its own fixture in
fixtures/pgn/ (see its README), read as python-chess reads it: the same number of games,
except where the README says why not (python-chess ends a game at a blank line in its
movetext)."""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn
import pytest
from conftest import FIXTURES

from gcadj.app.pipeline import judge_source
from gcadj.judging.verdict import Verdict
from gcadj.notation.parse import normalise_text
from gcadj.notation.pgn import without_forum_wrappers

SHAPES = FIXTURES / "pgn"
# python-chess ends a game at a blank line in the movetext; gcadj at its result or the next
# tag section (fixtures/pgn/README.md).
DIFFERENT_COUNTS = {"blank_line_before_comment.pgn": (1, 2)}


def python_chess_games(path: Path) -> int:
    """How many games python-chess reads in a file (it passes over a ``[pgn]`` line as a
    tag line it cannot read)."""
    handle = io.StringIO(path.read_text(encoding="utf-8"))
    count = 0
    while chess.pgn.read_game(handle) is not None:
        count += 1
    return count


def verdicts(name: str) -> list[Verdict]:
    return judge_source(str(SHAPES / name))


@pytest.mark.parametrize("path", sorted(SHAPES.glob("*.pgn")), ids=lambda p: p.name)
def test_as_many_games_as_python_chess_reads(path: Path) -> None:
    ours, theirs = len(judge_source(str(path))), python_chess_games(path)
    assert (ours, theirs) == DIFFERENT_COUNTS.get(path.name, (theirs, theirs))


def test_every_shape_has_its_fixture_and_its_line_in_the_readme() -> None:
    readme = (SHAPES / "README.md").read_text(encoding="utf-8")
    for path in SHAPES.glob("*.pgn"):
        assert f"`{path.name}`" in readme


def test_a_blank_line_inside_a_tag_section_does_not_split_the_game() -> None:
    games = verdicts("blank_line_in_tags.pgn")
    assert [(v.status, v.plies) for v in games] == [("legal", 8), ("legal", 6), ("legal", 4)]
    first = games[0].log
    assert first is not None
    assert [first.tag(name) for name in ("Event", "Round", "White", "Result")] == [
        "Club championship",
        "1",
        "Ann Archer",
        "1-0",
    ]
    assert games[2].log is not None and games[2].log.tag("Black") == "Fay Fox"


def test_a_broken_tag_section_still_ends_at_a_blank_line() -> None:
    """The one blank line a tag section may hold ends it after a broken tag line, so the
    broken game costs only itself."""
    good = '[Event "b"]\n\n1. d4 d5 *\n'
    games = judge_source("db.pgn", text='[Event "a"]\n[Site "cut off\n\n' + good)
    assert [v.status for v in games] == ["syntax-error", "legal"]
    two_blanks = judge_source("db.pgn", text='[Event "a"]\n\n\n' + good)
    assert len(two_blanks) == 2  # two blank lines end a tag section, as in python-chess


def test_pgn_without_tags_is_pgn_when_its_moves_are_numbered_san() -> None:
    games = verdicts("no_tags.pgn")
    assert [(v.status, v.plies, v.result) for v in games] == [
        ("legal", 8, "*"),
        ("legal", 6, "1/2-1/2"),
    ]
    (pasted,) = judge_source("forum.txt", text="1. e4 e5 2. Nf3 Nc6 *")
    assert pasted.status == "legal" and pasted.plies == 4 and not pasted.warnings


def test_several_tags_on_a_line() -> None:
    games = verdicts("tags_on_one_line.pgn")
    assert [v.status for v in games] == ["legal", "legal"]
    log = games[0].log
    assert log is not None
    assert [log.tag(name) for name in ("Event", "Site", "Date", "White", "Black")] == [
        "Blitz arena",
        "online",
        "2022.11.05",
        "grace",
        "henry",
    ]
    assert (games[0].result, games[0].termination) == ("0-1", "checkmate")


def test_double_check_marks() -> None:
    (game,) = verdicts("double_check.pgn")
    assert (game.status, game.plies, game.termination) == ("legal", 13, "checkmate")
    assert game.log is not None and game.log.records[10].text == "Bxf7++"


def test_unicode_and_en_dash_results() -> None:
    games = verdicts("unicode_results.pgn")
    assert [(v.result, v.termination) for v in games] == [
        ("1/2-1/2", "recorded"),
        ("1-0", "recorded"),
        ("0-1", "recorded"),
    ]
    assert all(not v.warnings for v in games)  # the Result tags' spellings are read too


def test_forum_wrappers() -> None:
    games = verdicts("forum_wrapper.pgn")
    assert [(v.status, v.plies) for v in games] == [("legal", 6), ("legal", 4)]
    assert games[1].log is not None and games[1].log.tag("Event") == "Forum game 2"
    text = normalise_text((SHAPES / "forum_wrapper.pgn").read_text(encoding="utf-8"))
    unwrapped = without_forum_wrappers(text)  # blanked, so lines and columns stay
    assert "[pgn]" not in unwrapped and len(unwrapped) == len(text)
    assert unwrapped.count("\n") == text.count("\n")
    assert without_forum_wrappers("P e2-e4 // [pgn]\n") == "P e2-e4 // [pgn]\n"  # no pair


def test_null_moves_are_illegal_plies_and_the_game_goes_on() -> None:
    games = verdicts("null_moves.pgn")
    for game, (ply, text) in zip(games, [(2, "--"), (3, "Z0")], strict=True):
        finding = game.first_illegal
        assert finding is not None
        assert (finding.ply, finding.text, finding.category) == (ply, text, "illegal-piece-move")
        assert game.plies == 4  # the moves after it are read on the board it left


def test_long_algebraic_is_the_move_it_names() -> None:
    legal, illegal = verdicts("long_algebraic.pgn")
    assert legal.status == "legal" and legal.plies == 8
    san = legal.log and [r.text for r in legal.log.records]
    assert san == ["e2e4", "e7e5", "Ng1-f3", "Nb8-c6", "Bf1-b5", "a7-a6", "Bb5xc6", "d7xc6"]
    finding = illegal.first_illegal
    assert finding is not None and (finding.ply, finding.text) == (3, "e4-e6")
    assert finding.category == "illegal-piece-move"


def test_a_san_move_that_names_one_piece_is_judged_like_a_logs_ply() -> None:
    into_check, pinned = verdicts("illegal_san.pgn")
    for game, (ply, text) in zip([into_check, pinned], [(4, "Kf7"), (7, "Nd5")], strict=True):
        finding = game.first_illegal
        assert finding is not None
        assert (finding.ply, finding.text, finding.category) == (ply, text, "king-in-check")
    log = "P e2-e4\np f7-f6\nQ d1-h5\nk e8-f7\n"  # the same game as a Game Courier log
    (as_log,) = judge_source("g.txt", text=log)
    assert as_log.first_illegal is not None
    assert as_log.first_illegal.reason == into_check.first_illegal.reason  # type: ignore[union-attr]


def test_a_san_move_onto_its_own_piece_is_judged_like_a_logs_ply() -> None:
    """The King on e8 can step to f7, but Black's own Pawn stands there: the log's ply
    (k e8-f7) is own-capture, and so is the SAN move, with the same reason."""
    (game,) = judge_source("g.pgn", text='[Event "x"]\n\n1. e4 e5 2. Ke2 Kf7 *\n')
    (as_log,) = judge_source("g.txt", text="P e2-e4\np e7-e5\nK e1-e2\nk e8-f7\n")
    finding, logged = game.first_illegal, as_log.first_illegal
    assert finding is not None and logged is not None
    assert (finding.ply, finding.text, finding.category) == (4, "Kf7", "own-capture")
    assert (finding.category, finding.reason) == (logged.category, logged.reason)


def test_a_san_move_no_piece_can_make_stays_a_syntax_error() -> None:
    (game,) = judge_source("g.pgn", text='[Event "x"]\n\n1. e4 e5 2. Ke2 Kf5 *\n')
    assert game.status == "syntax-error" and game.plies == 3  # a King steps one square
    assert game.error is not None and "no Black King can move to f5" in game.error
