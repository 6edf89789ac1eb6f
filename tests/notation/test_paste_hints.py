"""Hints for what people paste: a ply with both an 'x' and a mate mark, a position (a FEN)
given as a game's text."""

from __future__ import annotations

from gcadj.app.check import check_text
from gcadj.notation.hints import foreign_notation_hint
from gcadj.vocabulary import DEFAULT_POCKET_FILE

OPENING = "P e2-e4\np e7-e5\nQ d1-h5\nn b8-c6\nB f1-c4\nn g8-f6\n"


def test_a_capture_with_a_mate_mark_gets_both_in_one_hint() -> None:
    verdict = check_text(OPENING + "Q h5xf7#\n", "paste.txt")
    error = str(verdict.error)
    assert "'+', '#'" in error and "'x'" in error
    assert "write 'Q h5-f7'" in error
    fixed = check_text(OPENING + "Q h5-f7\n", "paste.txt")  # what the hint says to write
    assert fixed.status == "legal" and fixed.termination == "checkmate"


def test_a_position_given_as_a_game_is_told_to_use_fen() -> None:
    for fen in (
        "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[]",
    ):
        verdict = check_text(fen + "\n", "x.fen")
        assert verdict.status == "syntax-error"
        assert "this is a position (a FEN), not moves: give it with --fen" in str(verdict.error)
    assert "--fen" not in str(foreign_notation_hint("Nf3", "Nf3", DEFAULT_POCKET_FILE))
