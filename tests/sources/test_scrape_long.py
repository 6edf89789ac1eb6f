"""A move list in one huge text node (a ``<pre>`` or ``<textarea>`` of every ply) is read
whole, and every line is located at its own line and column of the page. Each line was
once located by copying the whole node (quadratic: 19 s for 2 MB); bench/bench_scrape.py
measures the speed, these tests only the answers."""

from __future__ import annotations

import pytest

from gcadj.app.check import check_text
from gcadj.sources.pages.html_tree import PagePositions
from gcadj.sources.pages.movelist import int_code
from gcadj.sources.pages.scrape import PageError, scrape_page

PLIES = ("P e2-e4", "p e7-e5", "N g1-f3", "n b8-c6", "N f3-g1", "n c6-b8")


def moves(count: int) -> list[str]:
    """`count` ply lines, some indented, some with a comment: columns vary."""
    out = []
    for i in range(count):
        line = PLIES[i % len(PLIES)]
        if i % 7 == 3:
            line = "   " + line
        if i % 11 == 5:
            line += " // note"
        out.append(line)
    return out


def where_in_page(page: str, line_text: str, after: int) -> tuple[tuple[int, int], int]:
    """The (line, column) of `line_text`'s first visible character at or after `after`."""
    at = page.index(line_text, after)
    at += len(line_text) - len(line_text.lstrip())
    line = page.count("\n", 0, at) + 1
    column = at - (page.rfind("\n", 0, at) + 1) + 1
    return (line, column), at + 1


@pytest.mark.parametrize("element", ["pre", "textarea"])
def test_every_line_of_one_huge_text_node_is_located(element: str) -> None:
    lines = moves(3000)
    page = (
        "<html><body><h1>Viewing Game</h1>\n<p>White: ann</p>\n"
        f"<{element}>\n" + "\n".join(lines) + f"\n</{element}>\n</body></html>"
    )
    game = scrape_page(page)
    assert list(game.moves) == [" ".join(line.split()) for line in lines]
    expected = []
    after = page.index(f"<{element}>")
    for line in lines:
        place, after = where_in_page(page, line, after)
        expected.append(place)
    assert list(game.positions) == expected


def test_a_bad_line_at_the_end_of_a_huge_pre_is_located() -> None:
    lines = moves(2000)
    page = "<html><body><pre>" + "\n".join([*lines, "P e2-e9 oops"]) + "</pre></body></html>"
    with pytest.raises(PageError) as caught:
        scrape_page(page)
    assert (caught.value.line, caught.value.column) == (len(lines) + 1, 1)
    assert "'P e2-e9 oops'" in caught.value.message


def test_a_bad_line_deep_in_a_huge_pre_is_located_at_its_page_line() -> None:
    lines = moves(3000)
    lines[1700] = "   P e2-e9 oops"
    page = "<html><body><pre>\n" + "\n".join(lines) + "\n</pre></body></html>"
    verdict = check_text(page, "page.html")
    assert verdict.status == "syntax-error" and verdict.error is not None
    # line 1 of the page holds "<html><body><pre>": lines[i] is on page line i + 2
    assert verdict.error.startswith(f"page.html:{1700 + 2}:4: no move list found")


def test_page_positions_are_a_sequence_of_pairs() -> None:
    pairs = ((5, 3), (6, 1), (7, 12))
    positions = PagePositions(pairs)
    assert positions == pairs and positions == list(pairs) and len(positions) == 3
    assert positions[1] == (6, 1) and positions[-1] == (7, 12)
    assert positions[1:] == pairs[1:]
    assert hash(positions) == hash(pairs)
    assert positions != ((5, 3),) and positions != "abc"


def test_counts_fit_the_page() -> None:
    assert int_code(5 << 20) == "i"  # 4 bytes: any page under 1 GiB
    assert int_code(1 << 30) == "q"
