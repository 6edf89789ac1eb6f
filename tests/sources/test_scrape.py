"""gcadj.sources.pages: the move list found by content in every shape, names, status, board.

The pages in fixtures/pages are invented from docs/rules.md §6.3 (we have no real one);
the same eleven-ply game appears in each move-list shape.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from conftest import FIXTURES

from gcadj.app.check import check_source, check_text
from gcadj.errors import PageError
from gcadj.notation.lexicon import SourceFormat
from gcadj.notation.parse import parse_log
from gcadj.sources.decode import decode_text
from gcadj.sources.formats import detect_format
from gcadj.sources.pages.board import board_mismatch, read_board_code
from gcadj.sources.pages.index import index_entries
from gcadj.sources.pages.scrape import scrape_page
from gcadj.sources.pages.text import render_lines, soup_of, tag_value

PAGES = FIXTURES / "pages"
FINAL = "r3kbnr/ppp2ppp/2np4/4p3/2I1P1b1/3PBN2/PPP2PPP/RN1QKB2[m]"
PLIES = [
    "P e2-e4",
    "p e7-e5",
    "N g1-f3",
    "n b8-c6",
    "R h1-i1; I-i1",
    "p d7-d6",
    "I i1-c4",
    "b c8-g4",
    "P d2-d3",
    "q d8-i8; m-i8",
    "B c1-e3",
]
SHAPES = ["pmc_textarea", "pmc_pre", "pmc_list", "pmc_table", "pmc_div_br"]


def read(name: str) -> str:
    return decode_text((PAGES / f"{name}.html").read_bytes())


@pytest.mark.parametrize("name", SHAPES)
def test_every_shape_gives_the_same_game(name: str) -> None:
    game = scrape_page(read(name), source=name)
    log = parse_log(game.log_text, pocket_file=game.pocket_file)
    assert [r.text for r in log.records] == PLIES
    assert log.records[4].comment == "pocket the h1 Rook and mutate it to a Nightrider"
    assert (game.game, game.log_name) == ("Pocket Mutation Chess", "alice-bob-2009-166-518")
    assert (game.white, game.black) == ("alice", "bob")
    assert game.status == "bob has resigned."
    assert game.pocket_file == "i" and game.board == FINAL
    assert game.warnings == ()


@pytest.mark.parametrize("name", SHAPES)
def test_every_shape_is_judged_legal_and_won_by_resignation(name: str) -> None:
    verdict = check_source(str(PAGES / f"{name}.html"))
    assert verdict.status == "legal", verdict.error
    assert (verdict.result, verdict.termination) == ("1-0", "resignation")
    assert verdict.warnings == ()  # the diagram agrees with the replay


def test_the_rules_examples_are_not_a_move_list() -> None:
    with pytest.raises(PageError) as caught:
        scrape_page(read("no_moves"), source="http://example.org/play.php?log=x")
    message = str(caught.value)
    # Located like every syntax error (issue 10): nothing on this page stands alone as a
    # move (the rules' examples are words in sentences), so the page's start.
    assert message.startswith("http://example.org/play.php?log=x:1:1: no move list found")
    assert "Game Courier viewing page" in message


def test_a_page_without_moves_is_a_syntax_error_naming_it() -> None:
    spec = str(PAGES / "no_moves.html")
    verdict = check_source(spec)
    assert verdict.status == "syntax-error"
    assert verdict.error is not None and verdict.error.startswith(f"{spec}:1:1: no move list")


def test_the_newer_preset_pocket_file_comes_from_the_labels_and_a_code() -> None:
    game = scrape_page(read("pmc_pocket_p_code"), source="p")
    assert game.pocket_file == "p"
    assert '[PocketFile "p"]' in game.log_text
    assert game.board == FINAL  # read from the code in the page's input field
    assert (game.white, game.black, game.status) == ("carol", "dave", "dave has resigned.")
    verdict = check_text(game.log_text, "p")  # default pocket file i: the tag wins
    assert verdict.status == "legal" and verdict.warnings == ()
    assert verdict.result == "1-0"


def test_a_board_that_disagrees_with_the_moves_is_reported() -> None:
    verdict = check_source(str(PAGES / "pmc_board_mismatch.html"))
    assert verdict.status == "legal"
    (warning,) = verdict.warnings
    assert "differs from the replayed final position" in warning
    assert "h2 empty vs P" in warning and "h3 P vs empty" in warning


def test_board_mismatch_names_pockets_and_counts_the_rest() -> None:
    fen = "r3kbnr/ppp2ppp/2np4/4p3/2I1P1b1/3PBN2/PPP2PPP/RN1QKB2[m] b - - 11 6"
    assert board_mismatch(FINAL, fen) is None
    text = board_mismatch("8/8/8/8/8/8/8/8[I]", fen, limit=2)
    assert text is not None and "and 31 more" in text  # 31 pieces + 2 pockets - 2 shown
    assert "White's pocket I vs empty" in (board_mismatch(FINAL[:-3] + "[Im]", fen) or "")


def test_latin1_page_names() -> None:
    game = scrape_page(read("pmc_latin1"), source="l")
    assert (game.white, game.black) == ("José Núñez", "Jörg Müller")
    assert check_text(game.log_text, "l").result == "1-0"


def test_untrusted_names_are_kept_as_text() -> None:
    game = scrape_page(read("pmc_untrusted"), source="u")
    assert game.white == "<script>alert(1)</script>"
    assert game.black == '"><b>mallory</b>'
    log = parse_log(game.log_text)
    assert log.tag("Black") == '"><b>mallory</b>'  # the quote survives the tag escaping
    assert log.records[1].comment == '<img src=x onerror="alert(2)">'


def test_a_saved_page_knows_its_address_from_the_canonical_link() -> None:
    game = scrape_page(read("pmc_pre"), source="saved.html")
    assert game.site is not None and game.site.startswith("https://www.chessvariants.com/")
    assert "log=alice-bob-2009-166-518" in game.site


def test_the_url_supplies_site_game_and_log() -> None:
    url = "https://example.org/play/pbm/play.php?game=Pocket+Mutation+Chess&log=zed-2010-1-1"
    game = scrape_page(read("pmc_textarea"), source=url)
    assert game.site == url and game.log_name == "zed-2010-1-1"


def test_html_is_detected_and_read_through_the_format_seam() -> None:
    text = read("pmc_pre")
    assert detect_format(text) is SourceFormat.HTML
    assert detect_format("P e2-e4\n") is not SourceFormat.HTML
    log = check_text(text, "page").log
    assert log is not None
    assert len(log.records) == 11 and log.tag("White") == "alice"


def test_a_pocket_file_tag_is_honoured_and_checked() -> None:
    text = '[PocketFile "p"]\nP e2-e4\np e7-e5\nR h1-p1\n'
    log = check_text(text, "t").log
    assert log is not None and len(log.records) == 3 and log.pocket_file == "p"
    verdict = check_text('[PocketFile "pp"]\nP e2-e4\n', "t")
    assert verdict.status == "syntax-error"
    assert verdict.error is not None and verdict.error.startswith("t:1:14: syntax error")
    # A tag-like text after the first ply is not a header tag.
    assert check_source_text('P e2-e4\n// [PocketFile "p"]\n') == "legal"


def check_source_text(text: str) -> str:
    return check_text(text, "t").status


def test_tag_values_are_one_line_and_escaped() -> None:
    assert tag_value('a "b"\\c\n  d') == 'a \\"b\\"\\\\c d'


@pytest.mark.parametrize(
    ("markup", "expected"),
    [
        ("<div>1. P e2-e4<br>1... p e7-e5<br></div>", ["1. P e2-e4", "1... p e7-e5"]),
        ("<div>P e2-e4\np e7-e5</div>", ["P e2-e4 p e7-e5"]),
        ("<pre>P e2-e4\n  p e7-e5</pre>", ["P e2-e4", "p e7-e5"]),
        ("<ul><li>P e2-e4</li><li>p e7-e5 <i>// ok</i></li></ul>", ["P e2-e4", "p e7-e5 // ok"]),
        ("<table><tr><td>1.</td><td>P e2-e4</td></tr></table>", ["1. P e2-e4"]),
        ("<p>a<!-- hidden P e2-e4 --><script>x()</script>b</p>", ["ab"]),
    ],
)
def test_render_lines(markup: str, expected: list[str]) -> None:
    assert render_lines(soup_of(markup)) == expected


def test_a_pre_styled_div_with_bare_newlines_is_read() -> None:
    page = "<html><body><h1>Viewing Game</h1><div>P e2-e4\np e7-e5\nN g1-f3</div></body></html>"
    assert len(parse_log(scrape_page(page).log_text).records) == 3


def test_a_table_with_one_ply_per_row_and_a_header() -> None:
    rows = "".join(f"<tr><td>{i + 1}</td><td>{ply}</td></tr>" for i, ply in enumerate(PLIES))
    page = f"<html><body><table><tr><th>Ply</th><th>Move</th></tr>{rows}</table></body></html>"
    game = scrape_page(page)
    assert [r.text for r in parse_log(game.log_text).records] == PLIES


def test_the_largest_move_list_wins_over_a_short_example() -> None:
    page = (
        "<html><body><div><p>Example:</p><pre>P e2-e4</pre></div>"
        "<pre>P d2-d4\np d7-d5\nP c2-c4</pre></body></html>"
    )
    game = scrape_page(page)
    assert game.moves == ("P d2-d4", "p d7-d5", "P c2-c4")


def test_board_code_with_pockets_and_missing_cells() -> None:
    squares = read_board_code("rnbqkbnr1/pppppppp-/8-/8-/8-/8-/PPPPPPPP-/RNBQKBNRI", "i")
    assert squares is not None and squares["i1"] == "I" and squares["i8"] is None
    assert squares["e1"] == "K" and squares["e4"] is None
    assert read_board_code("8/8/8", "i") is None
    assert read_board_code("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNY", "i") is None


def test_the_index_lists_each_game_of_the_name_once_as_absolute_urls() -> None:
    base = "http://127.0.0.1:8000/play/pbm/logs.php?status=finished"
    entries = index_entries((PAGES / "logs_index.html").read_text(), base, "Pocket Mutation Chess")
    logs = [e.log_name for e in entries]
    assert len(logs) == len(set(logs)) == 11
    assert "carol-dave-2010-001-2" not in logs and "ivan-judy-2011-100-3" not in logs
    first = entries[0]
    assert first.url == (
        "http://127.0.0.1:8000/play/pbm/play.php?game=Pocket+Mutation+Chess"
        "&log=alice-bob-2009-166-518"
    )
    assert (first.last_modified, first.last_move_by, first.next_move_for) == (
        "2009-06-15",
        "alice",
        "bob",
    )
    everything = index_entries((PAGES / "logs_index.html").read_text(), base)
    assert len(everything) == 13


def test_an_index_without_a_table_still_gives_its_links() -> None:
    page = (
        '<p><a href="play.php?game=Pocket+Mutation+Chess&amp;log=a-1">a</a> '
        '<a href="play.php?game=Chess&amp;log=b-2">b</a></p>'
    )
    entries = index_entries(page, "https://h/play/pbm/logs.php", "pocket mutation chess")
    assert [e.url for e in entries] == [
        "https://h/play/pbm/play.php?game=Pocket+Mutation+Chess&log=a-1"
    ]


def test_scraping_never_needs_the_network(tmp_path: Path) -> None:
    copy = tmp_path / "page.html"
    copy.write_bytes((PAGES / "pmc_table.html").read_bytes())
    assert check_source(str(copy)).status == "legal"


def test_the_status_is_not_a_sub_heading_naming_the_game() -> None:
    page = (
        "<html><body><h1>Viewing Game</h1><h2>Pocket Mutation Chess</h2>"
        "<p>ann has resigned.</p><pre>P e2-e4</pre><p>White: bob</p><p>Black: ann</p>"
        "</body></html>"
    )
    game = scrape_page(page, source="https://x/play.php?game=Pocket+Mutation+Chess&log=a")
    assert (game.status, game.white, game.black) == ("ann has resigned.", "bob", "ann")
    assert check_text(game.log_text, "x").result == "1-0"


def test_no_status_when_the_board_follows_the_heading() -> None:
    assert scrape_page(read("pmc_untrusted"), source="u").status is None


def _many_spans_page(spans: int) -> str:
    words = "".join(f"<span>word{n} </span>" for n in range(spans))
    moves = "\n".join(PLIES)
    return f"<html><body><div>{words}</div><pre>{moves}</pre></body></html>"


def calls_made(work: Callable[[], object]) -> int:
    """The Python and C functions `work()` calls (generators resumed included): a count of
    work that, unlike a clock, gives the same answer on a loaded machine."""
    count = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return count


def test_a_block_of_many_inline_elements_scrapes_in_linear_work() -> None:
    # Each span's "does it stand alone" test once re-read the whole div: n spans, n² work
    # (4,000 spans took 21 s). Ten times the spans must cost about ten times the calls,
    # never a hundred. bench/bench_scrape.py measures the time.
    scrape_page(_many_spans_page(20), source="warm-up")  # grammar, caches: paid once
    calls = {}
    for spans in (200, 2000):
        page = _many_spans_page(spans)
        calls[spans] = calls_made(partial(scrape_page, page, source="spans"))
        assert list(scrape_page(page, source="spans").moves) == PLIES
    assert 5 * calls[200] < calls[2000] < 20 * calls[200], calls
