"""The viewer's templates escape text as Python's `html.escape` does (the pages keep the
bytes they had when they were written in Python), the report's as markupsafe does."""

from __future__ import annotations

import html

from hypothesis import given, settings
from hypothesis import strategies as st

from gcadj.outputs.templating import environment, viewer_environment


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab<>&\"' é\u2028/"), max_size=12))
def test_the_viewers_text_and_attributes_are_escaped_as_html_escape_escapes(text: str) -> None:
    page = viewer_environment().from_string('<p title="{{ x }}">{{ x }}</p>')
    assert page.render(x=text) == f'<p title="{html.escape(text)}">{html.escape(text)}</p>'


def test_a_term_leaves_quotes_in_its_words_and_escapes_them_in_its_title() -> None:
    term = viewer_environment().get_template("viewer_parts.html").module.term
    assert str(term('Bob\'s "<b>"', "a'b")) == (
        '<span class="term" title="a&#x27;b">Bob\'s "&lt;b&gt;"</span>'
    )


def test_the_reports_environment_keeps_markupsafes_entities() -> None:
    page = environment().from_string("{{ x }}")
    assert page.render(x="\"'<&") == "&#34;&#39;&lt;&amp;"
