"""A player's words for the pages: one sentence per category, results as sentences."""

from __future__ import annotations

import pytest

from gcadj.outputs.plain_words import (
    CATEGORY_SENTENCES,
    category_sentence,
    move_words,
    result_words,
    term,
)
from gcadj.vocabulary import Category, Result, Termination


def test_every_category_has_one_short_sentence() -> None:
    assert set(CATEGORY_SENTENCES) == set(Category)
    sentences = list(CATEGORY_SENTENCES.values())
    assert len(set(sentences)) == len(sentences)  # no two categories read the same
    for category, sentence in CATEGORY_SENTENCES.items():
        assert sentence[0].isupper() and sentence.endswith(".")
        assert len(sentence) <= 70, category  # short: it sits in a table cell
        assert "-" not in category.value or category.value not in sentence  # not the term
        assert category_sentence(category.value) == sentence


def test_an_unknown_category_is_given_back_as_is() -> None:
    assert category_sentence("no-such-category") == "no-such-category"


def test_a_ply_is_a_move_number_and_a_side() -> None:
    assert move_words(12, "black") == "move 12, Black"
    assert move_words(1, "white") == "move 1, White"


@pytest.mark.parametrize("termination", [None, *Termination])
@pytest.mark.parametrize("result", list(Result))
def test_every_result_and_ending_reads_as_a_sentence(
    result: Result, termination: Termination | None
) -> None:
    words = result_words(result.value, None if termination is None else termination.value)
    assert words and "*" not in words and "-" not in words.replace("fifty-move", "")
    if result is Result.UNDECIDED:
        assert words == "Game not finished"
    elif result is Result.DRAW:
        assert words.startswith("Draw")
    else:
        winner = "White" if result is Result.WHITE_WINS else "Black"
        assert words.startswith(f"{winner} won")


def test_a_term_is_shown_on_hover_and_both_are_escaped() -> None:
    assert term("a <b>", 'x"y') == '<span class="term" title="x&quot;y">a &lt;b&gt;</span>'
