"""Every output says the same of a game's adjudication, made once where the game is judged:
``gcadj adjudicate``'s JSON, its text and its ``-q`` line, the audit's JSONL, CSV and
report, the viewer ``export --to html --adjudicate`` writes, the audit's viewers, and the
page ``gcadj serve`` shows, for each game of ``fixtures/adjudicate/`` (a mate in 1, a
claimable repetition, a bare King's win on time, an illegal game whose position before
its illegal move has a mate, and a game lost on time by the side holding a mate in 1).

The JSON is the reference; each other output is read as a person or a program reads it
(the report and the served page in a real headless Chromium) and must say the class, the
result, who mates in how many, the reason about the board, and every note.
"""

from __future__ import annotations

import csv
import html
import json
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest import FIXTURES, invoke_gcadj

from gcadj.outputs.plain_words import ADJUDICATION_WORDS, PROPOSED_WORDS
from gcadj.outputs.viewer import viewer_filename
from gcadj.vocabulary import AdjudicationClass, Result
from gcadj.web.defaults import ADJUDICATE_DEPTH

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

GAMES = sorted((FIXTURES / "adjudicate").glob("*.txt"))
# Searches that finish: the served page's depth, with a budget no search here reaches.
SEARCH = ("--mate-depth", str(ADJUDICATE_DEPTH), "--budget", "600")


def board_reason(adjudication: dict[str, Any]) -> str:
    return str(adjudication["board_reason"] or adjudication["reason"])


def mate_words(adjudication: dict[str, Any]) -> str | None:
    mate = adjudication["mate"]
    return None if mate is None else f"{mate['winner'].capitalize()} mates in {mate['moves']}"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("agree")
    games = folder / "games"
    games.mkdir()
    for game in GAMES:
        shutil.copy(game, games / game.name)
    sources = sorted(str(p) for p in games.iterdir())
    found: dict[str, Any] = {"sources": sources, "folder": folder}
    found["json"] = {
        r["source"]: r
        for r in map(
            json.loads, invoke_gcadj("adjudicate", "--json", *SEARCH, *sources).stdout.splitlines()
        )
    }
    found["text"] = invoke_gcadj("adjudicate", *SEARCH, *sources).stdout
    found["quiet"] = invoke_gcadj("adjudicate", "-q", *SEARCH, *sources).stdout.splitlines()
    done = invoke_gcadj(
        "audit", str(games), "--adjudicate", *SEARCH, "-q", "-o", str(folder / "a.jsonl"),
        "--csv", str(folder / "a.csv"), "--report", str(folder / "a.html"),
        "--viewer-dir", str(folder / "viewers"), "--viewers", "all",
    )  # fmt: skip
    assert done.returncode == 1, done.stderr  # one game is illegal
    found["jsonl"] = {
        r["source"]: r
        for r in map(json.loads, (folder / "a.jsonl").read_text(encoding="utf-8").splitlines())
    }
    with (folder / "a.csv").open(encoding="utf-8", newline="") as handle:
        found["csv"] = {row["source"]: row for row in csv.DictReader(handle)}
    found["export"] = {
        source: invoke_gcadj("export", "--to", "html", "--adjudicate", *SEARCH, source).stdout
        for source in sources
    }
    return found


def timeless(record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "adjudication": {**record["adjudication"], "seconds": None}}


def box(page: str) -> str:
    """The adjudication's box of a viewer page (its header's end)."""
    start = page.index('<div class="adjudication ')
    return page[start : page.index("</header>", start)]


def test_the_json_lines_agree(outputs: dict[str, Any]) -> None:
    assert {s: timeless(r) for s, r in outputs["jsonl"].items()} == {
        s: timeless(r) for s, r in outputs["json"].items()
    }
    kinds = {r["adjudication"]["class"] for r in outputs["json"].values()}
    assert {"proven", "claimable", "recorded"} <= kinds
    lost = outputs["json"][next(s for s in outputs["json"] if "lost-on-time" in s)]
    assert lost["adjudication"]["class"] == "recorded" and lost["result"] == "0-1"
    assert lost["adjudication"]["mate"]["winner"] == "white"  # the loser holds the mate


def test_the_text_and_the_quiet_lines_say_the_same(outputs: dict[str, Any]) -> None:
    quiet = outputs["quiet"]
    for n, (source, record) in enumerate(sorted(outputs["json"].items())):
        a = record["adjudication"]
        said = f"{source}: {a['class']} {a['result']}: {a['reason']}"
        assert quiet[n] == said + "".join(f"; note: {note}" for note in a["notes"])
        assert said in outputs["text"]
        for note in a["notes"]:
            assert f"  note: {note}" in outputs["text"]
        if a["mate"]:
            assert " ".join(a["mate"]["san"]) in re.sub(r"\d+\.+ ", "", outputs["text"])


def test_the_csv_says_the_same(outputs: dict[str, Any]) -> None:
    for source, record in outputs["json"].items():
        a, row = record["adjudication"], outputs["csv"][source]
        mate = a["mate"] or {}
        assert (row["adjudication"], row["adjudicated_result"]) == (a["class"], a["result"])
        assert (row["mate_in"], row["mate_winner"]) == (
            str(mate.get("moves", "")),
            mate.get("winner", ""),
        )
        assert row["adjudication_reason"] == a["reason"]


def test_the_viewers_say_the_same(outputs: dict[str, Any]) -> None:
    """The exported viewer and the audit's show the same box, and it says the class, the
    result, the reason about the board, the mate and the notes in a player's words."""
    for source, record in outputs["json"].items():
        a = record["adjudication"]
        exported = box(outputs["export"][source])
        audit_page = outputs["folder"] / "viewers" / viewer_filename(source)
        assert box(audit_page.read_text(encoding="utf-8")) == exported
        assert html.escape(ADJUDICATION_WORDS[AdjudicationClass(a["class"])]) in exported
        assert PROPOSED_WORDS[Result(a["result"])] in exported
        assert html.escape(board_reason(a)[1:]) in exported
        for note in a["notes"]:
            assert html.escape(note) in exported
        if a["mate"]:
            assert all(html.escape(san) in exported for san in a["mate"]["san"])


def test_the_report_says_the_same(browser: WebDriver, outputs: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    browser.get((outputs["folder"] / "a.html").as_uri())
    headings = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#games thead th")]
    column = headings.index("Adjudication")
    rows = browser.find_elements(By.CSS_SELECTOR, "#games tbody tr")
    cells = {
        row.find_elements(By.TAG_NAME, "td")[1].text: row.find_elements(By.TAG_NAME, "td")[column]
        for row in rows
    }
    for source, record in outputs["json"].items():
        a = record["adjudication"]
        cell = cells[Path(source).name].text
        first = f"{a['class']} {a['result']}"
        if mate_words(a):
            first += f" · {mate_words(a)}"
        assert cell.splitlines()[0] == first
        assert board_reason(a) in cell
        for note in a["notes"]:
            assert f"note: {note}" in cell


def test_the_served_page_says_the_same(
    browser: WebDriver, outputs: dict[str, Any], tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from web.serving import running_server, wait_for

    def said() -> str:
        """What the page's adjudication box says (all of it, its closed parts too), and
        the steps its links open."""
        element = browser.find_element(By.ID, "adjudication")
        links = [
            a.get_attribute("href").rsplit("#", 1)[1]
            for a in element.find_elements(By.TAG_NAME, "a")
        ]
        return f"{element.get_attribute('textContent')} {links}"

    exported = {}
    served_depth = SEARCH  # the served pages search to ADJUDICATE_DEPTH
    for n, source in enumerate(outputs["sources"]):
        page = tmp_path / f"exported-{n}.html"
        html = invoke_gcadj("export", "--to", "html", "--adjudicate", *served_depth, source).stdout
        page.write_text(html, encoding="utf-8")
        browser.get(page.as_uri())
        exported[source] = said()
    # the server searches to ADJUDICATE_DEPTH, given the time to finish it on
    # a loaded machine (a source's stages get a quarter of its deadline, a check's a tenth)
    flags = ("--adjudicate-budget", "600", "--source-timeout", "2400", "--job-timeout", "6000")
    with running_server(tmp_path / "serve", *flags) as server:
        for source in outputs["sources"]:
            browser.get(server.url)
            text = Path(source).read_text(encoding="utf-8")
            field = browser.find_element(By.NAME, "text")
            browser.execute_script("arguments[0].value = arguments[1];", field, text)
            browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            wait_for(lambda: browser.find_elements(By.ID, "adjudication"), timeout=120)
            assert said() == exported[source], source
