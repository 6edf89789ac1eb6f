"""The page scraper's restatement of a log's lines, held to the grammar: before it asks the
real parser, `could_be_log_line` throws away what cannot be part of a log, cheaply; it
must never throw away a line the grammar reads (else a page's move list would be cut
short), and a ply line kept is a ply to the parser (`line_kind`).

Lines are compared as the renderer gives them (`normal_line`: stripped, runs of spaces
made one space, no-break spaces as spaces), the only form the scraper sees.
"""

from __future__ import annotations

from grammar_text import logs, ply_bodies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gcadj.notation.parse import normalise_text
from gcadj.sources.pages.movelist import PLY, could_be_log_line, line_kind
from gcadj.sources.pages.text import normal_line

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(text=logs("i") | logs("p"))
def test_no_line_the_grammar_reads_is_thrown_away(text: str) -> None:
    for line in normalise_text(text).split("\n"):
        shown = normal_line(line)
        if shown:
            assert could_be_log_line(shown), shown


@SETTINGS
@given(
    body=ply_bodies("i"),
    number=st.sampled_from(["", "12. ", "12... ", "3."]),
    comment=st.sampled_from(["", " // a note", "//x"]),
)
def test_a_ply_line_is_a_ply_to_the_scraper(body: str, number: str, comment: str) -> None:
    shown = normal_line(number + body + comment)
    assert line_kind(shown, "i") == PLY, shown
