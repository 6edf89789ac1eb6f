"""Comment lines after a ply are joined once, not line by line (that was quadratic): the
comments the readers give are still exactly the lines, in order, whatever the mix of
plies, inline comments, comment lines and blank lines. Speed is bench/bench_memory.py's."""

from __future__ import annotations

from conftest import budget
from hypothesis import given, settings
from hypothesis import strategies as st

from gcadj.notation.parse import (  # the two paths
    LogSyntaxError,
    normalise_text,
    parse_by_lines,
    parse_log,
    parse_with_lark,
)

PLIES = ("P e2-e4", "p e7-e5", "N g1-f3", "n b8-c6")

# One line of a log: ("ply", inline comment or None), ("note", text) or ("blank", "").
line_kinds = st.one_of(
    st.tuples(st.just("ply"), st.none() | st.sampled_from(["", "x", "two words", "a // b"])),
    st.tuples(st.just("note"), st.sampled_from(["", "one", "two words", "//", "é ü"])),
    st.tuples(st.just("blank"), st.just("")),
)


def render(lines: list[tuple[str, str | None]]) -> tuple[str, list[str | None], str | None]:
    """The log text, and the comments a reader must give: each ply's, and the leading."""
    text = []
    comments: list[str | None] = []
    leading: list[str] = []
    for kind, value in lines:
        if kind == "ply":
            ply = PLIES[len(comments) % 4]
            text.append(ply if value is None else f"{ply} // {value}")
            comments.append(None if value is None else value.strip())
        elif kind == "note":
            text.append(f"// {value}")
            note = value.strip()
            if not comments:
                leading.append(note)
            else:
                last = comments[-1]
                comments[-1] = note if last is None else f"{last}\n{note}"
        else:
            text.append("")
    return "\n".join(text) + "\n", comments, "\n".join(leading) if leading else None


@settings(max_examples=budget(300))
@given(st.lists(line_kinds, max_size=30))
def test_comments_are_the_lines_in_order(lines: list[tuple[str, str | None]]) -> None:
    text, comments, leading = render(lines)
    normal = normalise_text(text)
    for read in (parse_by_lines, parse_with_lark):
        log = read(normal, "<string>", "i")
        assert [r.comment for r in log.records] == comments, read.__name__
        assert log.leading_comment == leading, read.__name__


def test_a_long_run_of_comment_lines_is_one_comment() -> None:
    count = 50_000
    text = "P e2-e4 // first\n" + "// more\n" * count + "p e7-e5\n// last\n"
    log = parse_log(text)
    assert log.records[0].comment == "first" + "\nmore" * count
    assert log.records[1].comment == "last"


def test_the_plies_before_an_error_keep_their_comment_lines() -> None:
    # the partial log a syntax error carries is built with the comments joined too
    text = "P e2-e4\n// a\n// b\np e7-e5\n// c\nNf3\n"
    try:
        parse_log(text)
    except LogSyntaxError as err:
        assert err.partial is not None
        assert [r.comment for r in err.partial.records] == ["a\nb", "c"]
    else:
        raise AssertionError("Nf3 is no Game Courier ply")
