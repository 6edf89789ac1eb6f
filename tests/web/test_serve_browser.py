"""`gcadj serve` in headless Chromium: a real uvicorn server, a real browser, a person's steps.

Paste a log and read the verdict; see the illegal ply in red with its suggestion; upload a
zip of 300 games and read the report; be refused, with the reason, for an oversized
upload, a zip bomb, names that climb out of a zip and a private address; and, on a phone
(390×844), neither the viewer nor the report scrolls sideways and both open at the top.
Every expected value comes from the library (`judge_source`, the exports), not from here.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

import pytest
from conftest import FIXTURES, ROOT
from httpserver import FixtureServer, page
from serving import Server, running_server, wait_for, zip_of

from gcadj.app.pipeline import judge_source
from gcadj.judging.fix import fix_log
from gcadj.outputs.game_export import export_game
from gcadj.outputs.plain_words import CATEGORY_SENTENCES
from gcadj.outputs.writers.gc import write_fixed_gc

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

EXAMPLES = FIXTURES / "examples"
EX1 = EXAMPLES / "ex1_pocket_mutation_drops.txt"
EX5 = EXAMPLES / "ex5_syntax_variants.txt"
LOGS = sorted((FIXTURES / "logs").rglob("*.txt"))
DOCS = ROOT / "docs"
REGEN = os.environ.get("GCADJ_REGEN") == "1"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The pages' server, with no mate searched (``--adjudicate-budget 0``): no test here
    looks at an adjudication, and a zip of 300 games is judged in seconds, not a minute."""
    tmp = tmp_path_factory.mktemp("serve-browser")
    flags = ("--public-urls-only", "--max-upload", "1", "--jobs", "2", "--adjudicate-budget", "0")
    with running_server(tmp, *flags) as s:
        yield s


@pytest.fixture
def desktop(browser: WebDriver) -> Iterator[WebDriver]:
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    browser.set_window_size(1280, 900)
    yield browser


@pytest.fixture
def phone(browser: WebDriver) -> Iterator[WebDriver]:
    """The browser as a phone: 390×844 CSS pixels, mobile (the viewport meta tag counts)."""
    metrics = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        yield browser
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def submit(
    browser: WebDriver, server: Server, *, text: str = "", url: str = "", files: list[Path] = ()
) -> None:  # type: ignore[assignment]
    """Fill the home page's form as a person would, and press Check."""
    from selenium.webdriver.common.by import By

    browser.get(server.url)
    if text:
        box = browser.find_element(By.NAME, "text")
        browser.execute_script("arguments[0].value = arguments[1];", box, text)  # a paste
    if url:
        browser.find_element(By.NAME, "url").send_keys(url)
    if files:
        browser.find_element(By.NAME, "file").send_keys("\n".join(str(f) for f in files))
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()


def body_text(browser: WebDriver) -> str:
    """The page's text; "" while a new page replaces it."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By

    try:
        return browser.find_element(By.TAG_NAME, "body").text
    except WebDriverException:
        return ""


def wait_text(browser: WebDriver, words: str, timeout: float = 60) -> str:
    return wait_for(lambda: words in body_text(browser) and body_text(browser), timeout)


def no_sideways_scroll_and_at_top(browser: WebDriver) -> None:
    width = browser.execute_script("return document.documentElement.scrollWidth")
    inner = browser.execute_script("return window.innerWidth")
    assert width <= inner, f"scrolls sideways: {width} > {inner}"
    assert browser.execute_script("return window.scrollY") == 0


def test_paste_gives_the_verdict_and_the_board(server: Server, desktop: WebDriver) -> None:
    from selenium.webdriver.common.by import By

    submit(desktop, server, text=EX1.read_text("utf-8"))
    wait_for(lambda: desktop.find_elements(By.ID, "board"))
    verdict = judge_source("pasted text", text=EX1.read_text("utf-8"))[0]
    banner = desktop.find_element(By.CSS_SELECTOR, ".verdict")
    assert "legal" in (banner.get_attribute("class") or "").split()
    assert verdict.status == "legal" and banner.text.startswith("Every move is legal")
    assert desktop.find_element(By.ID, "fen").text == verdict.final_fen
    pieces = desktop.find_elements(
        By.CSS_SELECTOR, "#pieces text"
    )  # drawn by the script: CSP allows it
    assert len(pieces) == sum(c.isalpha() for c in (verdict.final_fen or "").split(" ")[0])
    no_sideways_scroll_and_at_top(desktop)


def test_an_illegal_game_shows_the_red_ply_its_suggestion_and_downloads(
    server: Server, desktop: WebDriver
) -> None:
    from selenium.webdriver.common.by import By

    text = EX5.read_text("utf-8")
    submit(desktop, server, text=text)
    wait_for(lambda: desktop.find_elements(By.ID, "board"))
    verdict = judge_source("pasted text", text=text)[0]
    finding = verdict.first_illegal
    assert finding is not None and finding.suggestions
    item = desktop.find_element(By.CSS_SELECTOR, "#moves li.illegal.current")
    assert CATEGORY_SENTENCES[finding.category] in item.text
    assert finding.suggestions[0].text in item.text
    assert desktop.find_elements(By.CSS_SELECTOR, '#marks [stroke="#d01c1c"]')  # the red mark
    colour = item.value_of_css_property("background-color")
    r, g, b = (int(v) for v in re.findall(r"\d+", colour)[:3])
    assert r - g > 40 and abs(g - b) < 10  # red
    links = {a.text: a for a in desktop.find_elements(By.CSS_SELECTOR, "nav.serve-bar a[download]")}
    expected = {
        "Download PGN": export_game(verdict, "pgn"),
        "Download Game Courier log": export_game(verdict, "gc"),
        "Download fixed log": write_fixed_gc(fix_log(verdict.log)),  # type: ignore[arg-type]
    }
    assert set(links) == set(expected)
    for label, content in expected.items():
        href = links[label].get_attribute("href") or ""
        assert unquote(href.split(",", 1)[1]) == content
    no_sideways_scroll_and_at_top(desktop)
    if REGEN:  # the manual's pictures (docs/serve.md): the viewer as served, desktop then phone
        desktop.save_screenshot(str(DOCS / "serve-viewer.png"))


def make_zip(folder: Path, count: int = 300) -> tuple[Path, dict[str, bytes]]:
    members = {}
    for i in range(count):
        log = LOGS[i % len(LOGS)]
        members[f"club/{log.parent.name}/game_{i:03d}-{log.stem}.txt"] = log.read_bytes()
    path = folder / "archive.zip"
    path.write_bytes(zip_of(members))
    return path, members


def test_a_zip_of_300_games_gives_the_report_with_the_right_counts(
    server: Server, desktop: WebDriver, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    archive, members = make_zip(tmp_path)
    expected = Counter(
        v.status
        for name, data in members.items()
        for v in judge_source(f"archive.zip/{name}", text=data.decode("utf-8"))
    )
    submit(desktop, server, files=[archive])
    wait_for(lambda: desktop.find_elements(By.ID, "games"), timeout=180)
    rows = desktop.find_elements(By.CSS_SELECTOR, "#games tbody tr")
    assert len(rows) == 300 and desktop.find_element(By.ID, "shown").text == "300"
    chips = {
        chip.get_attribute("data-value"): chip.text
        for chip in desktop.find_elements(By.CSS_SELECTOR, '.chip[data-kind="s"]')
    }
    assert chips == {status: f"{status} ({n})" for status, n in expected.items()}
    no_sideways_scroll_and_at_top(desktop)
    # every source names its game and links its viewer
    link = desktop.find_element(By.CSS_SELECTOR, "#games tbody tr td:nth-child(2) a")
    name = link.text
    link.click()
    wait_for(lambda: desktop.find_elements(By.ID, "board"))
    source = next(f"archive.zip/{m}" for m in members if m.endswith(name.split("/")[-1]))
    verdict = judge_source(source, text=members[source.split("/", 1)[1]].decode("utf-8"))[0]
    assert desktop.find_element(By.ID, "fen").text == verdict.final_fen


def test_oversized_upload_zip_bomb_climbing_names_and_private_address_are_refused(
    server: Server, desktop: WebDriver, tmp_path: Path
) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"P e2-e4\n" * 200_000)  # 1.6 MB: over this server's 1 MB
    submit(desktop, server, files=[big])
    assert "larger than this server's limit of 1 MB" in wait_text(desktop, "Too large")

    bomb = tmp_path / "bomb.zip"
    bomb.write_bytes(zip_of({"bomb.txt": b"\0" * 30_000_000}))
    submit(desktop, server, files=[bomb])
    text = wait_text(desktop, "zip bomb")
    assert "bomb.zip" in text and "refused: bomb.txt expands" in text

    climbing = tmp_path / "climb.zip"
    climbing.write_bytes(zip_of({"../evil.txt": EX1.read_bytes()}))
    submit(desktop, server, files=[climbing])
    text = wait_text(desktop, "climbs out of the archive")
    assert "climb.zip/../evil.txt" in text
    assert not any(p.name == "evil.txt" for p in server.tmp.parent.rglob("*"))

    with FixtureServer({"/game.txt": page(EX1.read_bytes(), "text/plain")}) as site:
        submit(desktop, server, url=site.url("/game.txt"))
        text = wait_text(desktop, "public addresses only")
        assert "127.0.0.1 is a loopback address" in text
        assert site.hits("/game.txt") == []


def test_on_a_phone_the_viewer_and_the_report_fit_and_open_at_the_top(
    server: Server, phone: WebDriver, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    longest = max(LOGS, key=lambda p: len(p.read_text("utf-8")))
    submit(phone, server, text=longest.read_text("utf-8"))
    wait_for(lambda: phone.find_elements(By.ID, "board"))
    assert phone.execute_script("return window.innerWidth") == 390
    no_sideways_scroll_and_at_top(phone)
    heading = phone.find_element(By.TAG_NAME, "h1")
    assert phone.execute_script("return arguments[0].getBoundingClientRect().top", heading) >= 0
    if REGEN:
        phone.save_screenshot(str(DOCS / "viewer-phone.png"))

    archive, _ = make_zip(tmp_path, 40)
    submit(phone, server, files=[archive])
    wait_for(lambda: phone.find_elements(By.ID, "games"), timeout=120)
    no_sideways_scroll_and_at_top(phone)
    # every column is readable: each shown cell of a card is wider than a word
    widths = phone.execute_script(
        "return Array.from(document.querySelectorAll('#games tbody tr:nth-child(-n+20) td'))"
        ".filter(function (c) { return c.offsetParent !== null && c.textContent.trim(); })"
        ".map(function (c) { return c.getBoundingClientRect().width; });"
    )
    assert widths and min(widths) >= 20
    # file names break only after / _ or -
    breaks = phone.execute_script(
        """var out = [];
        document.querySelectorAll('#games tbody tr:nth-child(-n+20) td:nth-child(2) a:first-child')
          .forEach(function (a) {
            var walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT), node, prev = null;
            while ((node = walker.nextNode())) {
              for (var i = 0; i < node.length; i++) {
                var range = document.createRange();
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                var top = range.getBoundingClientRect().top;
                if (prev && top > prev.top + 2) { out.push(prev.ch); }
                prev = {top: top, ch: node.data.charAt(i)};
              }
            }
          });
        return out;"""
    )
    assert set(breaks) <= {"/", "_", "-"}
    if REGEN:
        phone.save_screenshot(str(DOCS / "report-phone.png"))


def test_the_home_page_fits_a_phone_and_says_its_default_limits(
    phone: WebDriver, tmp_path: Path
) -> None:
    with running_server(tmp_path / "defaults") as server:  # every limit at its default
        phone.get(server.url)
        no_sideways_scroll_and_at_top(phone)
        text = body_text(phone)
        assert "20 MB per check" in text and "10,000 files and 200 MB" in text
        assert "60 s to judge one file" in text
        if REGEN:
            phone.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            phone.set_window_size(1280, 900)
            phone.get(server.url)
            phone.save_screenshot(str(DOCS / "serve.png"))
