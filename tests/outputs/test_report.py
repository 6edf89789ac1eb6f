"""The audit report of a few hundred games: its order, size and links, then used in
headless Chromium (sorting, filtering, the sticky header, the width).

The archive is built from the fixture logs, copied and cut at different lengths, so
the games differ in status, category and length (1 to over 100 plies). Every expected
value is computed from the audit's own JSONL file, never written here.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest import FIXTURES, ROOT

from gcadj.about import GENERATOR_META
from gcadj.app.audit import AuditPlan, run_audit
from gcadj.app.batch import Limits
from gcadj.app.products import ViewerChoice
from gcadj.outputs.audit_report import iter_records, summarize, write_report
from gcadj.outputs.plain_words import CATEGORY_SENTENCES
from gcadj.outputs.viewer import viewer_filename
from gcadj.vocabulary import Category

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.remote.webelement import WebElement

GAMES = 300
SCREENSHOT = ROOT / "docs" / "report.png"
LOGS = sorted((FIXTURES / "logs").rglob("*.txt")) + sorted((FIXTURES / "examples").glob("*.txt"))


def make_archive(folder: Path) -> None:
    """GAMES logs named game000.txt ...: fixture logs, some cut short, a few unreadable."""
    folder.mkdir()
    for i in range(GAMES):
        lines = LOGS[i % len(LOGS)].read_text(encoding="utf-8").splitlines()
        cut = (i // len(LOGS)) % 4  # the same log at up to four lengths
        text = "\n".join(lines[: len(lines) - 2 * cut] if cut else lines) + "\n"
        if i % 97 == 5:
            text = "this is not a game (((\n"
        (folder / f"game{i:03d}.txt").write_text(text, encoding="utf-8")


class Audit:
    def __init__(self, root: Path) -> None:
        self.archive = root / "archive"
        self.out = root / "audit.jsonl"
        self.report = root / "report.html"
        self.viewers = root / "report-viewers"
        make_archive(self.archive)
        run = run_audit(
            AuditPlan(
                sources=(str(self.archive),),
                out=self.out,
                limits=Limits(jobs=1),
                viewers=self.viewers,
                viewer_games=ViewerChoice.ALL,
            )
        )
        assert run.judged == GAMES
        self.order = run.order
        # A parallel audit writes lines in the order they finish: shuffle them so the
        # report has to restore the order of the sources.
        lines = self.out.read_text(encoding="utf-8").splitlines(keepends=True)
        random.Random(15).shuffle(lines)
        self.out.write_text("".join(lines), encoding="utf-8")
        write_report(self.out, self.report, order=self.order, viewers=self.viewers)
        self.records = {r["source"]: r for r in iter_records(self.out)}


@pytest.fixture(scope="module")
def audit(tmp_path_factory: pytest.TempPathFactory) -> Audit:
    return Audit(tmp_path_factory.mktemp("report"))


def rows_of(html: str) -> list[str]:
    return re.findall(r"<tr data-s=.*?</tr>", html)


def test_rows_come_in_the_order_of_the_sources(audit: Audit) -> None:
    html = audit.report.read_text(encoding="utf-8")
    shown = [re.search(r"game\d{3}\.txt", row).group(0) for row in rows_of(html)]  # type: ignore[union-attr]
    assert shown == sorted(os.listdir(audit.archive))  # a folder is walked in sorted order
    given = sorted(audit.order, key=audit.order.__getitem__)
    assert [Path(s).name for s in given] == shown
    file_order = [Path(s).name for s in audit.records]
    assert file_order != shown  # the file itself was not in that order


def test_without_an_order_rows_follow_the_file(audit: Audit, tmp_path: Path) -> None:
    plain = tmp_path / "plain.html"
    write_report(audit.out, plain)
    shown = [re.search(r"game\d{3}\.txt", r).group(0) for r in rows_of(plain.read_text())]  # type: ignore[union-attr]
    assert shown == [Path(s).name for s in audit.records]
    assert "report-viewers" not in plain.read_text()  # no viewers named: no links to them


def test_a_game_of_a_multi_game_file_follows_its_file(tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl"
    records = [
        {"source": name, "status": "legal", "plies": 1, "legal_plies": 1, "result": "*"}
        for name in ("b.txt", "all.pgn#10", "unknown.txt", "all.pgn#2", "a.txt")
    ]
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    write_report(out, tmp_path / "r.html", order={"a.txt": 0, "all.pgn": 1, "b.txt": 2})
    html = (tmp_path / "r.html").read_text()
    names = [re.search(r"<td>\d+</td><td>([^<]+)", row).group(1) for row in rows_of(html)]  # type: ignore[union-attr]
    assert names == ["a.txt", "all.pgn#2", "all.pgn#10", "b.txt", "unknown.txt"]


def test_the_report_is_small_escaped_and_links_every_game_to_its_viewer(audit: Audit) -> None:
    html = audit.report.read_text(encoding="utf-8")
    assert GENERATOR_META in html
    assert len(html.encode("utf-8")) <= 3 * 1024 * GAMES  # at most 3 KB a game
    assert html.count("<svg") == 2  # the two bar charts; the diagrams are in the viewers
    assert html.count("<script>") == 1
    # a source that could not be read (an empty cut is "error: empty") or parsed has none
    games = [r for r in audit.records.values() if r["status"] not in ("syntax-error", "error")]
    for record in games:
        name = viewer_filename(record["source"])
        viewer = audit.viewers / name
        assert viewer.is_file() and GENERATOR_META in viewer.read_text(encoding="utf-8")
        assert f'href="report-viewers/{name}"' in html
        first = record.get("first_illegal")
        if first:
            assert f'href="report-viewers/{name}#ply={first["ply"]}"' in html
    broken = [r for r in audit.records.values() if r["status"] in ("syntax-error", "error")]
    assert broken and not any(
        (audit.viewers / viewer_filename(r["source"])).exists() for r in broken
    )


# -- in a browser -----------------------------------------------------------------------


def open_report(browser: WebDriver, audit: Audit) -> None:
    browser.set_window_size(1280, 900)
    browser.get("about:blank")
    browser.get(audit.report.resolve().as_uri())


SHOWN_ROWS = (
    "return Array.prototype.filter.call(document.querySelectorAll('#games tbody tr'),"
    " function (r) { return r.getClientRects().length > 0; })"
)
"""The rows the browser lays out (a filtered-out row is `display: none`: no box at all), in
one script: one WebDriver round trip for the table rather than one a row."""


def visible_rows(browser: WebDriver) -> list[WebElement]:
    return list(browser.execute_script(SHOWN_ROWS + ";"))


def visible_attribute(browser: WebDriver, attribute: str) -> list[str]:
    """The `attribute` of each row shown, read in the same one round trip."""
    script = f"{SHOWN_ROWS}.map(function (r) {{ return r.getAttribute('{attribute}') || ''; }});"
    return [str(v) for v in browser.execute_script(script)]


def column(browser: WebDriver, index: int) -> list[str]:
    """The text of one column in the rows' current order, hidden rows included."""
    script = (
        "return Array.prototype.map.call(document.querySelectorAll('#games tbody tr'),"
        f" function (r) {{ return r.cells[{index}].textContent.trim(); }});"
    )
    return [str(v) for v in browser.execute_script(script)]


def click_heading(browser: WebDriver, name: str) -> None:
    from selenium.webdriver.common.by import By

    for th in browser.find_elements(By.CSS_SELECTOR, "#games thead th"):
        if th.text.strip() == name:
            th.click()
            return
    raise AssertionError(f"no heading {name!r}")


def numbers(cells: list[str]) -> Iterator[int | None]:
    for cell in cells:
        match = re.match(r"\d+", cell)
        yield int(match.group(0)) if match else None


def sort_keys(browser: WebDriver, index: int) -> list[str]:
    """What one column sorts by (a cell's data-v, else its text), in the rows' order."""
    script = (
        "return Array.prototype.map.call(document.querySelectorAll('#games tbody tr'),"
        f" function (r) {{ var c = r.cells[{index}];"
        " return c.getAttribute('data-v') || c.textContent.trim(); });"
    )
    return [str(v) for v in browser.execute_script(script)]


def test_browser_sorts_numbers_numerically_and_blanks_last(
    browser: WebDriver, audit: Audit
) -> None:
    open_report(browser, audit)
    plies = sorted(int(r["plies"]) for r in audit.records.values())
    assert plies[-1] >= 10 and plies[0] < 10  # one and two digits: not in text order
    click_heading(browser, "Plies")
    assert [int(c) for c in column(browser, 3)] == plies
    click_heading(browser, "Plies")
    assert [int(c) for c in column(browser, 3)] == plies[::-1]
    for _ in range(2):  # both directions: blanks (legal games) stay last
        click_heading(browser, "First illegal move")
        values = list(numbers(sort_keys(browser, 7)))
        filled = [v for v in values if v is not None]
        assert values == filled + [None] * (len(values) - len(filled))
        assert filled in (sorted(filled), sorted(filled, reverse=True))
        assert min(filled) < 10 <= max(filled)  # one and two digits: not in text order
    click_heading(browser, "Source")
    sources = column(browser, 1)
    assert sources == sorted(sources)
    click_heading(browser, "#")
    assert [int(c) for c in column(browser, 0)] == list(range(1, GAMES + 1))


def test_browser_filters_by_text_status_and_category(browser: WebDriver, audit: Audit) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    open_report(browser, audit)
    shown = browser.find_element(By.ID, "shown")
    assert len(visible_rows(browser)) == GAMES and shown.text == str(GAMES)
    box = browser.find_element(By.ID, "filter")
    box.send_keys("game01")
    expected = sum("game01" in source for source in audit.records)
    WebDriverWait(browser, 5).until(lambda _: shown.text == str(expected))
    assert len(visible_rows(browser)) == expected == 10
    box.clear()
    box.send_keys("x")  # clear() fires no input event; type and erase to refilter
    box.send_keys("\b")
    WebDriverWait(browser, 5).until(lambda _: shown.text == str(GAMES))
    summary = summarize(audit.out)
    category, count = summary.by_category.most_common(1)[0]
    browser.find_element(By.CSS_SELECTOR, f'.chip[data-kind="c"][data-value="{category}"]').click()
    assert len(visible_rows(browser)) == count and shown.text == str(count)
    cells = [r.find_elements(By.TAG_NAME, "td")[8] for r in visible_rows(browser)]
    assert {c.text for c in cells} == {CATEGORY_SENTENCES[Category(category)]}  # in words
    assert {c.find_element(By.CSS_SELECTOR, ".term").get_attribute("title") for c in cells} == {
        category  # and the precise term on hover
    }
    browser.find_element(By.CSS_SELECTOR, f'.chip[data-kind="c"][data-value="{category}"]').click()
    browser.find_element(By.CSS_SELECTOR, '.chip[data-kind="s"][data-value="legal"]').click()
    assert len(visible_rows(browser)) == summary.by_status["legal"]
    browser.find_element(By.CSS_SELECTOR, '.chip[data-kind="s"][data-value="legal"]').click()
    assert len(visible_rows(browser)) == GAMES


def test_browser_filter_finds_the_precise_terms_as_well_as_the_words(
    browser: WebDriver, audit: Audit
) -> None:
    """The rows show a player's words ("move 3, White", a sentence for the category) and
    keep the precise terms on hover; the filter box finds a row by either: the category's
    term (``king-in-check``, as ``check``, the JSON and the CSV print it) and its sentence,
    the first illegal ply's number (``ply 5``)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    open_report(browser, audit)
    box = browser.find_element(By.ID, "filter")
    summary = summarize(audit.out)

    shown = browser.find_element(By.ID, "shown")

    def found(query: str, attribute: str) -> list[str]:
        """The `attribute` of each row shown once `query` is typed and the filter, which
        waits for a pause in the typing, has applied it (the count says for what)."""
        box.clear()
        box.send_keys(query)
        applied = query.strip().lower()
        WebDriverWait(browser, 5, poll_frequency=0.02).until(
            lambda _: shown.get_attribute("data-query") == applied
        )
        return visible_attribute(browser, attribute)

    for category, count in summary.by_category.items():
        by_term = found(category, "data-c")
        assert by_term.count(category) == count  # the term, as check prints it
        by_words = found(CATEGORY_SENTENCES[Category(category)], "data-c")
        assert by_words.count(category) == count  # the words the row shows
    plies = [r["first_illegal"]["ply"] for r in audit.records.values() if r.get("first_illegal")]
    ply = plies[0]
    rows = found(f"ply {ply}", "data-c")
    assert len(rows) >= plies.count(ply) > 0


def test_browser_keeps_the_header_in_view_and_fits_1280_pixels(
    browser: WebDriver, audit: Audit
) -> None:
    from selenium.webdriver.common.by import By

    open_report(browser, audit)
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= browser.execute_script("return window.innerWidth")  # no sideways scroll
    scroller = browser.find_element(By.ID, "scroller")
    browser.execute_script(
        "arguments[0].scrollIntoView(); arguments[0].scrollTop = 4000;", scroller
    )
    top = browser.execute_script("return arguments[0].getBoundingClientRect().top", scroller)
    th = browser.find_element(By.CSS_SELECTOR, "#games thead th")
    head = browser.execute_script("return arguments[0].getBoundingClientRect().top", th)
    first_row = browser.find_element(By.CSS_SELECTOR, "#games tbody tr")
    row_top = browser.execute_script("return arguments[0].getBoundingClientRect().top", first_row)
    assert row_top < top - 1000  # the rows scrolled away...
    assert abs(head - top) <= 2  # ...the header did not
    notes = browser.find_elements(By.CSS_SELECTOR, "#games tbody td:last-child")
    right = max(
        browser.execute_script("return arguments[0].getBoundingClientRect().right", n)
        for n in notes[:50]
    )
    assert right <= 1280  # long notes wrap inside the window
    if os.environ.get("GCADJ_REGEN") == "1":  # the manual's picture (docs/audit.md)
        browser.execute_script("arguments[0].scrollTop = 0;", scroller)
        browser.find_element(By.CSS_SELECTOR, '.chip[data-kind="s"][data-value="illegal"]').click()
        heading = browser.find_element(By.XPATH, "//h2[text()='Games']")
        browser.execute_script("window.scrollTo(0, arguments[0].offsetTop - 150)", heading)
        browser.save_screenshot(str(SCREENSHOT))


def test_browser_follows_a_row_to_its_viewer_at_the_illegal_ply(
    browser: WebDriver, audit: Audit
) -> None:
    from selenium.webdriver.common.by import By

    open_report(browser, audit)
    link = browser.find_element(By.CSS_SELECTOR, '#games tbody td a[href*="#ply="]')
    href = link.get_attribute("href") or ""
    ply = int(href.rsplit("=", 1)[1])
    source = next(
        s for s in audit.records if viewer_filename(s) in href and audit.records[s]["first_illegal"]
    )
    record: dict[str, Any] = audit.records[source]
    link.click()
    assert browser.find_element(By.ID, "fen").text == record["final_fen"]
    assert ply == record["first_illegal"]["ply"]


def test_the_manual_shows_a_screenshot_of_the_report() -> None:
    assert SCREENSHOT.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "](report.png)" in (ROOT / "docs" / "audit.md").read_text(encoding="utf-8")


def test_browser_shows_about_15_rows_above_the_fold_on_a_desktop(
    browser: WebDriver, audit: Audit
) -> None:
    """At 1280×900 the summary folds into one line, so the table starts high and rows are
    compact: at least 12 rows are whole on screen when the report opens (14 when the
    category was its term; its sentence, a player's words, takes a second line)."""
    metrics = {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        open_report(browser, audit)
        whole = browser.execute_script(
            "return Array.from(document.querySelectorAll('#games tbody tr')).filter("
            "function (r) { var b = r.getBoundingClientRect();"
            " return b.height > 0 && b.bottom <= innerHeight; }).length;"
        )
        assert whole >= 12
        assert browser.execute_script("return window.scrollY") == 0
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_browser_on_a_phone_rows_become_cards_that_fit(browser: WebDriver, audit: Audit) -> None:
    metrics = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        open_report(browser, audit)
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= browser.execute_script("return window.innerWidth") == 390
        source = browser.execute_script(
            "return document.querySelector('#games tbody tr td:nth-child(2)')"
            ".getBoundingClientRect().width"
        )
        assert source > 300  # the Source column had 0 px at this width before
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_report_writer_reads_no_source() -> None:
    """Its facts come from the judged games (`GameFacts`), so it imports nothing of sources/."""
    import ast

    from gcadj.outputs import audit_report  # the sources of the gcadj under test

    source = Path(audit_report.__file__).with_name("audit_report.py")
    tree = ast.parse(source.read_text("utf-8"))
    imported = [
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    ]
    assert imported and not [name for name in imported if "gcadj.sources" in str(name)]


@pytest.mark.parametrize(
    "name",
    ["logs/Capablanca_001.txt", "a-b_c/", "", "<&\"'é>/ga<me>&'ü\"-x_y.pgn#2", "--__//"],
)
def test_the_reports_template_breaks_names_where_breakable_does(name: str) -> None:
    """The report's ``breakable`` macro (a template) and `html_text.breakable` (the
    viewer's, Python) put ``<wbr>`` at the same places and show the same text."""
    import html

    from gcadj.outputs.html_text import breakable
    from gcadj.outputs.templating import template

    macro = str(template("report_parts.html").module.breakable(name))  # type: ignore[attr-defined]
    assert macro.count("<wbr>") == sum(name.count(mark) for mark in "/_-")
    assert html.unescape(macro) == html.unescape(breakable(name))


def test_a_report_inlines_its_style_and_script_from_the_static_files(tmp_path: Path) -> None:
    """The report is one file: its style sheet and script are the package's static files,
    inlined (nothing is loaded from elsewhere)."""
    from gcadj.outputs.templating import STATIC

    jsonl = tmp_path / "audit.jsonl"
    jsonl.write_text(json.dumps({"source": "a.txt", "status": "legal", "plies": 2}) + "\n")
    write_report(jsonl, tmp_path / "report.html")
    page = (tmp_path / "report.html").read_text("utf-8")
    for name in ("report.css", "report.js"):
        text = (STATIC / name).read_text("utf-8")
        assert len(text) > 1000 and text in page
    assert not re.search(r"<(link|script)[^>]* (href|src)=", page)
