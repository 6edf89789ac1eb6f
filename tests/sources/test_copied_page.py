"""The text of a viewing page copied from a browser: read as a game, or told how to get one."""

from __future__ import annotations

import random

import pytest
from conftest import FIXTURES

from gcadj.app.check import check_source, check_text
from gcadj.sources.pages.copied import looks_like_copied_page

PAGES = FIXTURES / "pages"
NO_MOVES = (PAGES / "copied_no_moves.text").read_text(encoding="utf-8")
# The parts of the copy without moves, as (first line, end) slices of its lines.
PARTS = [(0, 1), (1, 3), (3, 12), (12, 13), (13, 14), (14, 16), (16, 22), (22, None)]


def test_a_copy_without_moves_is_an_error_that_says_how_to_get_them() -> None:
    verdict = check_source(str(PAGES / "copied_no_moves.text"))
    assert verdict.status == "error"
    assert verdict.error is not None
    assert "text of a Game Courier viewing page without its move list" in verdict.error
    assert "URL" in verdict.error and "saved from the browser as HTML" in verdict.error
    assert "PGN" not in verdict.error and "hint" not in verdict.error
    assert "White: dave; Black: carol; status: 'carol has resigned.'" in verdict.error
    assert "pocket file: i" in verdict.error


@pytest.mark.parametrize("seed", range(6))
def test_the_parts_of_a_copy_may_come_in_any_order(seed: int) -> None:
    lines = NO_MOVES.splitlines()
    parts = [lines[start:end] for start, end in PARTS]
    random.Random(seed).shuffle(parts)
    text = "\n".join(line for part in parts for line in part) + "\n"
    assert looks_like_copied_page(text)
    verdict = check_text(text, "copy.txt")
    assert verdict.status == "error" and verdict.error is not None
    assert "White: dave; Black: carol; status: 'carol has resigned.'" in verdict.error


def test_a_copy_with_moves_is_judged_with_its_players_and_pocket_file() -> None:
    verdict = check_source(str(PAGES / "copied_with_moves_black_side.text"))
    assert verdict.status == "legal", verdict.error
    assert verdict.plies == 5
    assert verdict.log is not None
    assert verdict.log.pocket_file == "p"  # from the file letters "p h g ... a"
    assert (verdict.log.tag("White"), verdict.log.tag("Black")) == ("erin", "frank")
    assert verdict.log.tag("Status") is None  # "Moves of this game:" is a label
    assert any("cannot be read: its empty squares are missing" in w for w in verdict.warnings)


def test_a_log_with_a_typo_is_not_taken_for_a_copied_page() -> None:
    verdict = check_text("P e2-e4\n1. e4 e5 2. Nf3\n", "g.txt")
    assert verdict.status == "syntax-error"
    assert verdict.error is not None and "hint: this looks like PGN movetext" in verdict.error
    assert not looks_like_copied_page("White: a\nP e2-e4\n")
