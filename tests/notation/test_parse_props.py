"""Properties: the line path equals the Lark reference on generated text; nothing escapes.

The line path in gcadj.notation.parse (line split, comment cut, number prefix, tag and
``[L] o-d`` regular expressions, memo) makes assumptions about the grammar.
These tests generate text from the grammar itself with
``hypothesis.extra.lark.from_lark`` and check the assumptions hold: on valid
text the line path never gives up and returns exactly what Lark's own parse
returns; on mutated text it never returns a log Lark would not.
"""

from __future__ import annotations

import dataclasses
import os

import pytest
from grammar_text import logs, ply_bodies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gcadj.errors import LogSyntaxError, ParserDeclined
from gcadj.notation import records
from gcadj.notation.parse import (
    clear_memo,
    normalise_text,
    parse_by_lines,
    parse_log,
    parse_with_lark,
)
from gcadj.notation.records import GameLog

# 200 examples keep the suite fast; GCADJ_PARSE_EXAMPLES=5000 runs a deeper search.
SETTINGS = settings(
    max_examples=int(os.environ.get("GCADJ_PARSE_EXAMPLES", "200")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def reference(text: str, pocket_file: str) -> GameLog | LogSyntaxError:
    try:
        return parse_with_lark(text, "<string>", pocket_file)
    except LogSyntaxError as error:
        return error


def line_path(text: str, pocket_file: str) -> GameLog | None:
    try:
        return parse_by_lines(text, "<string>", pocket_file)
    except ParserDeclined:
        return None


def assert_paths_agree_on_valid(text: str, pocket_file: str, cold: bool) -> GameLog:
    if cold:
        clear_memo()
    normal = normalise_text(text)
    expected = reference(normal, pocket_file)
    assert isinstance(expected, GameLog), f"grammar-generated text must parse: {text!r}"
    assert line_path(normal, pocket_file) == expected
    assert parse_log(text, pocket_file=pocket_file) == expected
    return expected


@SETTINGS
@given(text=logs("i"), cold=st.booleans())
def test_generated_logs_parse_identically_on_both_paths(text: str, cold: bool) -> None:
    log = assert_paths_agree_on_valid(text, "i", cold)
    namespace = {name: getattr(records, name) for name in records.__all__}
    assert eval(repr(log), namespace) == log


@SETTINGS
@given(text=logs("p"))
def test_generated_logs_with_pocket_file_p(text: str) -> None:
    assert_paths_agree_on_valid(text, "p", cold=False)


@SETTINGS
@given(body=ply_bodies("i"), number=st.sampled_from(["", "7.", "7..."]))
def test_generated_plies_parse_identically(body: str, number: str) -> None:
    log = assert_paths_agree_on_valid(number + body, "i", cold=True)
    assert len(log.records) == 1


NOISE = [
    *'[]"\\-*@;/ \t\n\r\u00a0.0123456789abcdefghijpxPNQK=+#O:',
    "capture",
    "//",
    "e4",
    "i3",
    "p1",
    "1.",
]


@st.composite
def mutated_logs(draw: st.DrawFn) -> str:
    """Valid text with a few insertions, deletions and replacements."""
    text = draw(logs("i"))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = draw(st.sampled_from(NOISE))
        if action == "insert":
            text = text[:at] + piece + text[at:]
        elif action == "delete":
            text = text[:at] + text[at + 1 :]
        else:
            text = text[:at] + piece + text[at + len(piece) :]
    return text


@SETTINGS
@given(text=mutated_logs(), cold=st.booleans())
def test_line_path_never_accepts_what_lark_rejects(text: str, cold: bool) -> None:
    if cold:
        clear_memo()
    normal = normalise_text(text)
    fast = line_path(normal, "i")
    expected = reference(normal, "i")
    if fast is not None:
        assert fast == expected
    got: GameLog | LogSyntaxError
    try:
        got = parse_log(text)
    except LogSyntaxError as error:
        got = error
    if isinstance(expected, GameLog):
        assert got == expected
    else:
        assert isinstance(got, LogSyntaxError)
        assert str(got) == str(expected)


def check_outcome(text: str, pocket_file: str) -> None:
    """parse_log returns a log or raises LogSyntaxError pointing inside the text; nothing else."""
    try:
        parse_log(text, pocket_file=pocket_file)
    except LogSyntaxError as error:
        lines = normalise_text(text).split("\n")
        assert 1 <= error.line <= len(lines)
        assert error.line_text == lines[error.line - 1]
        assert 1 <= error.column <= len(error.line_text) + 1
        assert str(error).startswith(f"<string>:{error.line}:{error.column}: syntax error: ")


@SETTINGS
@given(text=st.text(), pocket_file=st.sampled_from(["i", "p"]))
def test_any_text_gives_a_log_or_a_syntax_error(text: str, pocket_file: str) -> None:
    check_outcome(text, pocket_file)


@SETTINGS
@given(text=st.lists(st.sampled_from(NOISE), max_size=80).map("".join))
def test_log_like_noise_gives_a_log_or_a_syntax_error(text: str) -> None:
    check_outcome(text, "i")


@SETTINGS
@given(text=mutated_logs())
def test_a_syntax_error_keeps_what_was_read_before_its_line(text: str) -> None:
    normal = normalise_text(text)
    try:
        parse_log(text)
    except LogSyntaxError as error:
        before = "\n".join(normal.split("\n")[: error.line - 1]) + "\n"
        prefix = reference(before, "i")
        assert isinstance(prefix, GameLog)
        if error.partial is None:
            assert prefix.records == ()
        else:
            assert prefix.records != ()
            unread = error.partial.unread
            assert unread is not None  # the rest of the text, kept as typed
            assert (unread.line, unread.column) == (error.line, 1)
            assert unread.text == normal[len(before) :] and unread.error == str(error)
            assert dataclasses.replace(error.partial, unread=None) == prefix


def test_an_error_on_the_last_line_of_a_long_log_is_read_by_lark_alone() -> None:
    text = '[White "a"]\n' + "N g1-f3\nn g8-f6\nN f3-g1\nn f6-g8\n" * 2000 + "Nf3\n"
    with pytest.raises(LogSyntaxError) as info:
        parse_log(text)
    expected = reference(normalise_text(text), "i")
    assert isinstance(expected, LogSyntaxError)
    assert str(info.value) == str(expected)
    assert info.value.partial is not None and len(info.value.partial.records) == 8000
    assert info.value.partial.tag("White") == "a"


@SETTINGS
@given(
    parts=st.lists(ply_bodies("i"), min_size=1, max_size=5),
    noise=st.lists(st.sampled_from(NOISE), min_size=1, max_size=4).map("".join),
    at=st.integers(0, 5),
    number=st.sampled_from(["", "7. ", "7..."]),
    after_ply=st.booleans(),
)
def test_a_bad_part_among_good_sub_moves_gets_the_reference_error(
    parts: list[str], noise: str, at: int, number: str, after_ply: bool
) -> None:
    """Lark reads a long ply from its first bad part on (the good ones blanked): same error."""
    parts.insert(min(at, len(parts)), noise)
    text = ("P e2-e4\n" if after_ply else "") + number + ";".join(parts) + " // c\n"
    expected = reference(normalise_text(text), "i")
    try:
        got: GameLog | LogSyntaxError = parse_log(text)
    except LogSyntaxError as error:
        got = error
    if isinstance(expected, GameLog):
        assert got == expected
    else:
        assert isinstance(got, LogSyntaxError)
        assert str(got) == str(expected)
