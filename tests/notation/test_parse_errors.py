"""LogSyntaxError: exact place, words, caret and hints for the notations people paste."""

from __future__ import annotations

import pickle
import re

import pytest
from conftest import FIXTURES, read_log
from hypothesis import given, settings
from hypothesis import strategies as st

from gcadj.errors import LogSyntaxError
from gcadj.notation import syntax_errors
from gcadj.notation.parse import parse_log


def error_of(text: str, pocket_file: str = "i", source: str = "game.txt") -> LogSyntaxError:
    with pytest.raises(LogSyntaxError) as info:
        parse_log(text, source=source, pocket_file=pocket_file)
    return info.value


def test_message_layout() -> None:
    err = error_of("P e2-e4\np e7-e5\n\n2. N g1-f9 // oops\n")
    assert (err.source, err.line, err.column) == ("game.txt", 4, 9)
    assert err.expected == "a square like e4 after '-'"
    assert err.line_text == "2. N g1-f9 // oops"
    assert err.hint == "f9 is not a square: ranks run from 1 to 8"
    assert str(err) == (
        "game.txt:4:9: syntax error: expected a square like e4 after '-'\n"
        "    2. N g1-f9 // oops\n"
        "            ^\n"
        "hint: f9 is not a square: ranks run from 1 to 8"
    )
    assert isinstance(err, ValueError)


def test_message_without_hint_has_no_hint_line() -> None:
    err = error_of("P e2-e4 ; capture")
    assert err.hint is None
    assert str(err) == (
        "game.txt:1:18: syntax error: expected a square like e4 after 'capture'\n"
        "    P e2-e4 ; capture\n"
        "                     ^"
    )


def test_caret_follows_tabs() -> None:
    err = error_of("\tP\te2-x")
    assert (err.line, err.column) == (1, 7)
    assert str(err).splitlines()[1:3] == ["    \tP\te2-x", "    \t \t   ^"]


def test_long_lines_are_cut_around_the_error() -> None:
    err = error_of("P e2-e4 // " + "x" * 200 + "\n" + "p e7-e5 " + " " * 150 + "x")
    shown, caret = str(err).splitlines()[1:3]
    assert shown.startswith("    ...") and len(shown) < 140
    assert shown[len(caret) - 1] == "x"
    assert (err.line, err.column) == (2, 159)


def test_errors_can_cross_processes() -> None:
    err = error_of("Nf3")
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.line, copy.column, copy.hint, str(copy)) == (1, 4, err.hint, str(err))


@pytest.mark.parametrize(
    ("text", "line", "column", "expected"),
    [
        ("e4", 1, 3, "'-' and a square after the square e4"),
        ("P", 1, 2, "a square like e2, or '-' or '*' and a square after the label 'P'"),
        ("P e2-e4 x", 1, 9, "';' and another sub-move, a '//' comment or the end of the line"),
        ("3.", 1, 3, "a sub-move like 'P e2-e4' after the move number '3.'"),
        ("P e2-e4;x", 1, 10, "a square like e2, or '-' or '*' and a square after the label 'x'"),
        ("e2-%", 1, 4, "a square like e4, ';', a '//' comment or the end of the line after '-'"),
        ("@", 1, 2, "'-' and a square after '@'"),
        ("P e2-e4\n*", 2, 1, "a ply like 'P e2-e4' or a '//' comment"),
        ("%", 1, 1, "a ply like 'P e2-e4', a tag like [White \"...\"] or a '//' comment"),
        ("[1", 1, 2, "a tag name like White after '['"),
        ("[White x]", 1, 8, "a quoted value like \"Alice\" after the tag name 'White'"),
        ('[White "x"', 1, 11, "']' after the tag value"),
        ('[White "x"] P e2-e4', 1, 13, "the end of the line after ']'"),
        ('[White "x', 1, 8, "a quoted value like \"Alice\" after the tag name 'White'"),
        ("P e2-e4 ; capture d5 ?", 1, 22, "a square like e4, ';', a '//' comment or the end"),
    ],
)
def test_expected_words(text: str, line: int, column: int, expected: str) -> None:
    err = error_of(text)
    assert (err.line, err.column) == (line, column)
    assert err.expected.startswith(expected)


@pytest.mark.parametrize(
    ("text", "column", "hint"),
    [
        ("Nf3", 4, "this looks like SAN; Game Courier names the piece"),
        ("exd5", 2, "this looks like SAN"),
        ("e4", 3, "this looks like SAN"),
        ("1.e4", 5, "this looks like SAN"),
        (
            "P e4xd5",
            5,
            "Game Courier has no 'x': moving onto an occupied square captures, so write 'P e4-d5'",
        ),
        ("e4:d5", 3, "so write 'e4-d5'"),
        ("P e7-e8=Q", 8, "Game Courier has no '=Q' promotion suffix"),
        ("e8=Q", 3, "no '=Q' promotion suffix"),
        ("O-O", 3, "Game Courier has no 'O-O'"),
        ("0-0-0", 1, "Game Courier has no 'O-O'"),
        ("P e2-e4+", 8, "check and mate marks"),
        ("Q d1-h5#", 8, "check and mate marks"),
        ("1. e4 e5", 7, "this looks like PGN movetext"),
        ("1. e4 e5 2. Nf3 Nc6", 7, "this looks like PGN movetext"),
        ("P e2-e4 2. N g1-f3", 9, "this looks like PGN movetext"),
        ("1-0", 1, "results are not moves"),
        ("1/2-1/2", 1, "results are not moves"),
        ("P e2-e4 0-1", 9, "results are not moves"),
        ("e2e4", 3, "put '-' between the squares"),
        ("P e2 e4", 6, "join the two squares with '-': write 'P e2-e4'"),
        ("P E2-E4", 3, "squares are written in lower case: e2"),
    ],
)
def test_foreign_notation_hints(text: str, column: int, hint: str) -> None:
    err = error_of(text)
    assert err.hint is not None and hint in err.hint, err.hint
    assert err.column == column


@pytest.mark.parametrize(
    ("text", "pocket_file", "column", "hint"),
    [
        (
            "P i3-d4",
            "i",
            3,
            "i3 is not a square: only i1 and i8 (the pockets) exist on the ninth file",
        ),
        ("i7-d4", "i", 1, "i7 is not a square: only i1 and i8 (the pockets)"),
        ("R h1-i2; I-i2", "i", 6, "i2 is not a square"),
        ("capture i5", "i", 9, "i5 is not a square"),
        ("I-i0", "i", 3, "i0 is not a square"),
        (
            "P p3-d4",
            "p",
            3,
            "p3 is not a square: only p1 and p8 (the pockets) exist on the ninth file",
        ),
        (
            "R h1-i1",
            "p",
            6,
            "i1 is not a square: files run from a to h, plus p for the pockets p1 and p8",
        ),
        ("P e2-j4", "i", 6, "j4 is not a square: files run from a to h, plus i for the pockets"),
        ("P e2-e9", "i", 6, "e9 is not a square: ranks run from 1 to 8"),
        ("P e2-e10", "i", 6, "e10 is not a square: ranks run from 1 to 8"),
        ("P e2-e4;x2", "i", 9, "x2 is not a square: files run from a to h"),
        ("P e0-e4", "i", 3, "e0 is not a square"),
    ],
)
def test_square_hints_point_at_the_whole_square(
    text: str, pocket_file: str, column: int, hint: str
) -> None:
    err = error_of(text, pocket_file)
    assert err.hint is not None and err.hint.startswith(hint), err.hint
    assert err.column == column
    assert err.expected.startswith("a square like e4")


def test_tag_after_the_first_ply() -> None:
    err = error_of('[White "A"]\nP e2-e4\n  [Black "B"]\n')
    assert (err.line, err.column) == (3, 3)
    assert err.hint == "tags go in the header, before the first ply"


def test_malformed_tag() -> None:
    err = error_of("[White Alice]")
    assert err.hint == 'a tag is written [Name "value"], one per line'


def test_labelled_clear_is_not_a_form() -> None:
    err = error_of("k a1-")
    assert (err.column, err.expected) == (6, "a square like e4 after '-'")


def test_error_lines_count_every_kind_of_line_end() -> None:
    err = read_log_error("cr_error.txt")
    assert (err.line, err.column, err.line_text) == (3, 6, "N g1-f9")
    crlf = error_of("P e2-e4\r\n\r\nN g1-f9\r\n")
    assert (crlf.line, crlf.column, crlf.line_text) == (3, 6, "N g1-f9")


def read_log_error(name: str) -> LogSyntaxError:
    with pytest.raises(LogSyntaxError) as info:
        read_log(FIXTURES / "parse" / name)
    assert info.value.source.endswith(name)
    return info.value


def test_bom_does_not_shift_columns() -> None:
    assert error_of("\ufeffNf3").column == 4


def test_only_the_first_error_is_reported_even_far_down() -> None:
    text = "P e2-e4\np e7-e5\n" * 500 + "N g1-f9\nbad bad\n"
    err = error_of(text)
    assert (err.line, err.column) == (1001, 6)


@pytest.mark.parametrize(
    "text",
    ["\x00", "P e2-e4\x00", "\u2028", "P e2-e4\x0b", "[", '["', "\\", "١. P e2-e4", "½-½", "@-"],
)
def test_odd_characters_are_syntax_errors(text: str) -> None:
    error_of(text)


def _word_at_by_scan(text: str, col0: int) -> str:
    previous = ""
    for found in re.finditer(r"[^\s;]+", text):
        if found.start() <= col0 < found.end():
            return found.group()
        if found.end() <= col0:
            previous = found.group()
    return previous


def _bad_square_by_scan(line: str, col0: int) -> tuple[int, str] | None:
    for found in re.finditer(r"[A-Za-z][0-9]+", line):
        if found.start() <= col0 < found.end() and not re.fullmatch(r"[a-h][1-8]|i[18]", found[0]):
            return found.start(), found.group()
    return None


@settings(max_examples=500, deadline=None)
@given(text=st.text(alphabet="ae2x9 ;\t\u00a0i8p1Q0", max_size=14), col0=st.integers(0, 16))
def test_words_are_found_outwards_from_the_error_as_a_scan_finds_them(text: str, col0: int) -> None:
    """The hint helpers read around the error only (a line may be megabytes long)."""
    assert syntax_errors._word_at(text, col0) == _word_at_by_scan(text, col0)
    assert syntax_errors._bad_square_at(text, col0, "i") == _bad_square_by_scan(text, col0)
