"""Every page gets a verdict: deep nesting, hostile markup, random trees, two lists, and
syntax errors located in the HTML the user gave. Speed is measured by
bench/bench_scrape.py, never here: these tests only ask for an answer, not a time."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gcadj.app.check import check_text
from gcadj.errors import PageError
from gcadj.sources.pages.html_tree import parse_html, text_position
from gcadj.sources.pages.scrape import ScrapedGame, scrape_page

MOVES = ["P e2-e4", "p e7-e5", "N g1-f3", "n b8-c6"]
LIST = "<pre>" + "\n".join(MOVES) + "</pre>"


@pytest.mark.parametrize(
    ("open_", "close", "depth"),
    [
        ("<div>", "</div>", 5000),
        ("<span>", "</span>", 5000),  # 5x the recursion limit (1000): deeper proves nothing more
        ("<table><tr><td>", "</td></tr></table>", 3000),
        ("<ul><li>", "</li></ul>", 3000),
    ],
)
def test_deep_nesting_gives_a_verdict(open_: str, close: str, depth: int) -> None:
    page = f"<html><body>{open_ * depth}{LIST}{close * depth}</body></html>"
    assert list(scrape_page(page).moves) == MOVES
    unclosed = f"<html><body>{open_ * depth}{LIST}"  # never closed: the same tree
    assert list(scrape_page(unclosed).moves) == MOVES
    with pytest.raises(PageError):
        scrape_page(f"<body>{open_ * depth}no moves here{close * depth}</body>")


def test_moves_at_every_level_of_a_deep_nest() -> None:
    # Each div holds one ply and the next div: the outermost holds the whole game.
    depth = 2000
    page = "".join(f"<div>{MOVES[i % 2]}" for i in range(depth)) + "</div>" * depth
    game = scrape_page(page)
    assert len(game.moves) == depth


@pytest.mark.parametrize(
    "hostile",
    [
        "<x" * 20000,  # html.parser: 14 s for 80 KB, quadratic
        "</" * 20000,
        "<textarea>" + "x<" * 20000,
        "<title>" + "</" * 20000,
        "<!--" + "x" * 100000,  # unterminated comment
        "<a href='" + "x" * 100000,  # unterminated attribute
        "&#" + "9" * 20000 + ";",  # int() refuses 4,300+ digits
        "<p>" + "a" * 100000 + "</p>",  # one long word (the board-code regex)
        "<script>" + "</scrip" * 10000,
    ],
)
def test_hostile_markup_gives_a_verdict(hostile: str) -> None:
    page = f"<html><body>{LIST}{hostile}"
    verdict = check_text(page, "hostile.html")
    assert verdict.status == "legal" and verdict.legal_plies == 4, verdict.error


def test_text_and_tags_know_where_they_stand() -> None:
    soup = parse_html('<p a="1">x</p>\n  <pre id=m>P e2-e4\n&amp; y</pre><!-- <b>no</b> -->')
    pre = soup.find("pre")
    assert pre is not None and text_position(soup, pre) == (2, 3)
    text = pre.contents[0]
    assert str(text) == "P e2-e4\n& y" and text_position(soup, text) == (2, 13)
    assert soup.find("b") is None  # inside a comment


def test_the_moves_are_located_in_the_page() -> None:
    page = "<html>\n<body>\n<h1>Viewing Game</h1>\n<pre>\n  P e2-e4\n  p e7-e5\n</pre>\n"
    game = scrape_page(page)
    assert game.moves == ("P e2-e4", "p e7-e5")
    assert game.positions == ((5, 3), (6, 3))
    cells = "<table>\n<tr><td>1.</td><td>P e2-e4</td>\n<td>p e7-e5</td></tr>\n</table>"
    assert scrape_page(cells).positions == ((2, 9), (3, 5))  # "1." then "p e7-e5"


def test_a_move_unreadable_with_the_given_pocket_file_is_located_in_the_html() -> None:
    page = "<html><body>\n<h1>Viewing Game</h1>\n<pre>P e2-e4\np e7-e5\n  R h1-i1; I-i1</pre>"
    verdict = check_text(page, "page.html", pocket_file="p")
    assert verdict.status == "syntax-error"
    assert verdict.error is not None and verdict.error.startswith("page.html:5:8: syntax error")
    assert "\n      R h1-i1; I-i1</pre>\n" in verdict.error  # the page's own line


def test_a_page_without_a_list_says_where_the_nearest_one_breaks() -> None:
    page = "<html><body>\n<p>Moves:</p>\n<pre>P e2-e4\np e7-e5\nP e2-e9 oops\n</pre>"
    with pytest.raises(PageError) as caught:
        scrape_page(page, source="s.html")
    err = caught.value
    assert (err.line, err.column) == (5, 1)
    assert str(err).startswith("s.html:5:1: no move list found on the page: the nearest, 2 plies")
    assert "'P e2-e9 oops'" in str(err)


def test_two_equally_good_lists_give_a_warning_naming_both() -> None:
    first = "<pre>P e2-e4\np e7-e5</pre>"
    second = "<pre>P d2-d4\np d7-d5</pre>"
    page = f"<html><body>\n{first}\n<p>and</p>\n{second}\n</body></html>"
    game = scrape_page(page)
    assert game.moves == ("P e2-e4", "p e7-e5")  # the first is taken
    (warning,) = game.warnings
    assert "two equally good move lists" in warning
    assert "<pre> at line 2:1" in warning and "<pre> at line 5:1" in warning
    verdict = check_text(game.log_text, "p")
    assert any("two equally good" in w for w in verdict.warnings)


def test_a_list_and_its_wrappers_are_one_list_not_two() -> None:
    page = f"<html><body><div><div>{LIST}</div></div><p>x</p></body></html>"
    assert scrape_page(page).warnings == ()


# -- random HTML trees --------------------------------------------------------------

TAGS = ["div", "span", "pre", "p", "td", "tr", "table", "br", "li", "ul", "textarea", "b", "x"]
TEXTS = [*MOVES, "1.", "3...", "// note", "White: a", "Black: b", "Viewing Game", "R h1-i1", " "]


def _tree() -> st.SearchStrategy[str]:
    leaf = st.one_of(
        st.sampled_from(TEXTS),
        st.text(alphabet="<>/&;#!-\n abpe24", max_size=8),
    )

    def wrap(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.builds(
            lambda tag, inner, closed: f"<{tag}>{''.join(inner)}" + (f"</{tag}>" if closed else ""),
            st.sampled_from(TAGS),
            st.lists(children, max_size=4),
            st.booleans(),
        )

    return st.recursive(leaf, wrap, max_leaves=40)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_tree())
def test_random_html_trees_give_a_game_or_a_page_error(tree: str) -> None:
    page = f"<html><body>{tree}"
    try:
        game = scrape_page(page, source="r")
    except PageError as err:
        assert err.line >= 1 and err.column >= 1
        return
    assert isinstance(game, ScrapedGame) and game.moves
    assert len(game.positions) == len(game.moves)
    assert check_text(page, "r").status in ("legal", "illegal")
