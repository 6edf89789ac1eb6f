"""Every output says the same of a game's analysis, made once where the game is judged:
``gcadj analyse``'s JSON, its text and its ``-q`` lines, ``check --analyse``'s, the
audit's JSONL, CSV and report, the PGN ``export --analyse`` writes (read back), the viewer
``export --to html --analyse`` writes, the audit's viewers, and the page ``gcadj serve``
shows with its box ticked, for each game of ``fixtures/analyse/`` (a mate missed in 1, a
mate allowed in 1, a Queen lost).

The issue's Done-when: each of these games gets exactly its one finding, at its ply,
everywhere. The JSON is the reference (itself held to the fixtures' README and to the
library's analysis of the same game); each other output is read as a person or a program
reads it (the report and the pages in a real headless Chromium).
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest import FIXTURES, invoke_gcadj

from gcadj.app.pipeline import judge_source
from gcadj.notation.pgn import CLOSE_VAR, MOVE, NAG, OPEN_VAR, tokens
from gcadj.outputs.analysis import MATE_NAG, MATERIAL_NAG
from gcadj.outputs.viewer import viewer_filename
from gcadj.vocabulary import MistakeKind

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

GAMES = sorted((FIXTURES / "analyse").glob("*.txt"))
# The fixtures' README: each game's one finding, (ply, side, kind).
EXPECTED = {
    "missed-mate-in-1.txt": (1, "white", "missed-mate"),
    "allows-mate-in-1.txt": (3, "white", "allows-mate"),
    "loses-a-piece.txt": (4, "black", "loses-material"),
}


def gcadj(*args: str) -> subprocess.CompletedProcess[str]:
    return invoke_gcadj(*args)


def found(record: dict[str, Any]) -> list[tuple[int, str, str]]:
    """A JSON line's findings: (ply, side, kind)."""
    return [
        (m["ply"], m["side"], m["kind"])
        for ply in record["analysis"]["plies"]
        for m in ply["mistakes"]
    ]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("agree")
    games = folder / "games"
    games.mkdir()
    for game in GAMES:
        shutil.copy(game, games / game.name)
    sources = sorted(str(p) for p in games.iterdir())
    made: dict[str, Any] = {"sources": sources, "folder": folder}
    analysed = gcadj("analyse", "--json", *sources)
    assert analysed.returncode == 0, analysed.stderr
    made["json"] = {r["source"]: r for r in map(json.loads, analysed.stdout.splitlines())}
    made["text"] = gcadj("analyse", *sources).stdout
    made["quiet"] = gcadj("analyse", "-q", *sources).stdout.splitlines()
    made["check"] = gcadj("check", "--analyse", *sources).stdout
    done = gcadj(
        "audit", str(games), "--analyse", "-q", "-o", str(folder / "a.jsonl"),
        "--csv", str(folder / "a.csv"), "--report", str(folder / "a.html"),
        "--viewer-dir", str(folder / "viewers"), "--viewers", "all",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    made["jsonl"] = {
        r["source"]: r
        for r in map(json.loads, (folder / "a.jsonl").read_text(encoding="utf-8").splitlines())
    }
    with (folder / "a.csv").open(encoding="utf-8", newline="") as handle:
        made["csv"] = {row["source"]: row for row in csv.DictReader(handle)}
    made["pgn"] = {s: gcadj("export", "--analyse", "--to", "pgn", s).stdout for s in sources}
    made["html"] = {s: gcadj("export", "--analyse", "--to", "html", s).stdout for s in sources}
    return made


def timeless(record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "analysis": {**record["analysis"], "seconds": None}}


def test_the_json_holds_each_games_one_finding(outputs: dict[str, Any]) -> None:
    import gcadj as api

    for source, record in outputs["json"].items():
        assert found(record) == [EXPECTED[Path(source).name]]
        (library,) = api.analyse(source)  # the library, in this process: the same analysis
        assert library.analysis is not None
        assert timeless(library.to_json()) == timeless(record)
        counts = record["analysis"]["counts"]
        assert counts == {k.value: int(k.value == found(record)[0][2]) for k in MistakeKind}


def test_the_jsonl_and_check_analyse_agree(outputs: dict[str, Any]) -> None:
    assert {s: timeless(r) for s, r in outputs["jsonl"].items()} == {
        s: timeless(r) for s, r in outputs["json"].items()
    }
    assert outputs["check"] == outputs["text"]


def test_the_text_and_the_quiet_lines_say_the_same(outputs: dict[str, Any]) -> None:
    quiet = outputs["quiet"]
    assert len(quiet) == len(outputs["json"])  # one finding each, nothing else
    for line, (source, record) in zip(quiet, sorted(outputs["json"].items()), strict=True):
        ((ply, side, kind),) = found(record)
        move = record["analysis"]["plies"][ply - 1]
        said = (
            f"ply {ply} (move {move['move_number']}, {side.capitalize()}) {move['move']} [{kind}]: "
        )
        assert line.startswith(f"{source}: {said}")
        assert f"\n  {line[len(source) + 2 :]}\n" in outputs["text"]
        (mistake,) = move["mistakes"]
        assert " ".join(mistake["san"]) in re.sub(r"\d+\.+ ", "", line)


def test_the_csv_says_the_same(outputs: dict[str, Any]) -> None:
    columns = {"missed-mate": "missed_mates", "allows-mate": "mates_allowed"}
    columns["loses-material"] = "material_lost"
    for source, record in outputs["json"].items():
        row = outputs["csv"][source]
        for kind, column in columns.items():
            assert row[column] == str(record["analysis"]["counts"][kind])


def nags_by_ply(pgn: str) -> dict[int, list[int]]:
    """The NAGs of the main line's plies (1-based), read with gcadj's PGN tokens."""
    plies, depth, nags = 0, 0, {}
    for token in tokens(pgn):
        kind = token.kind
        if kind == OPEN_VAR:
            depth += 1
        elif kind == CLOSE_VAR:
            depth -= 1
        elif depth == 0 and kind == MOVE:
            plies += 1
        elif depth == 0 and kind == NAG:
            nags.setdefault(plies, []).append(int(pgn[token.start + 1 : token.end]))
    return nags


def test_the_pgn_marks_the_same_ply_and_reads_back(outputs: dict[str, Any]) -> None:
    for source, record in outputs["json"].items():
        pgn = outputs["pgn"][source]
        ((ply, _side, kind),) = found(record)
        nag = MATERIAL_NAG if kind == "loses-material" else MATE_NAG
        assert nags_by_ply(pgn) == {ply: [nag]}
        assert f"{{gcadj: analysis: {kind}: " in pgn.replace("\n", " ")
        (back,) = judge_source("back.pgn", text=pgn)
        assert (back.status, back.legal_plies, back.final_fen) == (
            record["status"],
            record["legal_plies"],
            record["final_fen"],
        )
        assert back.warnings == ()
        assert back.log is not None and all(
            r.comment is None or "gcadj" not in r.comment for r in back.log.records
        )


def marked_items(page: str) -> dict[int, str]:
    """The move list's items marked with a finding: their step, and their kinds."""
    return {
        int(step): kinds
        for step, kinds in re.findall(r'<li data-ply="(\d+)" class="[wb] mistake ([^"]+)">', page)
    }


def test_the_viewers_mark_the_same_ply(outputs: dict[str, Any]) -> None:
    for source, record in outputs["json"].items():
        ((ply, _side, kind),) = found(record)
        exported = outputs["html"][source]
        assert marked_items(exported) == {ply: kind}
        audit_page = (outputs["folder"] / "viewers" / viewer_filename(source)).read_text()
        assert marked_items(audit_page) == {ply: kind}
        box = exported[exported.index('<div class="analysis" id="analysis">') :]
        assert box[: box.index("</header>")] in audit_page
        assert box.count('class="dot"') == 1
        assert f'<a href="#ply={ply}"><circle class="dot"' in box


def test_the_report_says_the_same(browser: WebDriver, outputs: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    browser.get((outputs["folder"] / "a.html").as_uri())
    headings = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#games thead th")]
    column = headings.index("Analysis")
    rows = browser.find_elements(By.CSS_SELECTOR, "#games tbody tr")
    cells = {
        row.find_elements(By.TAG_NAME, "td")[1].text: row.find_elements(By.TAG_NAME, "td")[column]
        for row in rows
    }
    for source, record in outputs["json"].items():
        ((ply, _side, kind),) = found(record)
        cell = cells[Path(source).name].text
        move = record["analysis"]["plies"][ply - 1]["move"]
        assert cell.splitlines() == [
            "1 finding",
            f"ply {ply} {move} {kind} "
            + " ".join(record["analysis"]["plies"][ply - 1]["mistakes"][0]["san"]),
        ]
    shown = browser.find_element(By.ID, "shown")
    chip = browser.find_element(By.CSS_SELECTOR, '.chip[data-kind="m"][data-value="allows-mate"]')
    chip.click()
    assert shown.text == "1"
    visible = [r for r in rows if r.is_displayed()]
    assert [r.find_elements(By.TAG_NAME, "td")[1].text for r in visible] == ["allows-mate-in-1.txt"]
    chip.click()
    box = browser.find_element(By.ID, "filter")
    box.send_keys("missed-mate")
    from web.serving import wait_for

    wait_for(lambda: shown.text == "1", timeout=10)


def test_the_served_page_says_the_same(
    browser: WebDriver, outputs: dict[str, Any], tmp_path: Path
) -> None:
    """The page of a served check with its box ticked shows the analysis the exported
    viewer shows; its line steps on the board from the position it starts from."""
    from selenium.webdriver.common.by import By
    from web.serving import running_server, wait_for

    def said() -> str:
        element = browser.find_element(By.ID, "analysis")
        return str(element.get_attribute("textContent"))

    exported = {}
    for n, source in enumerate(outputs["sources"]):
        page = tmp_path / f"exported-{n}.html"
        page.write_text(outputs["html"][source], encoding="utf-8")
        browser.get(page.as_uri())
        exported[source] = said()
    with running_server(tmp_path / "serve") as server:
        for source, record in outputs["json"].items():
            browser.get(server.url)
            text = Path(source).read_text(encoding="utf-8")
            field = browser.find_element(By.NAME, "text")
            browser.execute_script("arguments[0].value = arguments[1];", field, text)
            browser.find_element(By.CSS_SELECTOR, "input[name=analyse]").click()
            browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            wait_for(lambda: browser.find_elements(By.ID, "analysis"), timeout=120)
            assert said() == exported[source], source
            ((ply, _side, kind),) = found(record)
            item = browser.find_element(By.CSS_SELECTOR, f'#moves li[data-ply="{ply}"]')
            assert "mistake" in str(item.get_attribute("class"))
            assert item.find_element(By.CLASS_NAME, "mark").text == (
                "?" if kind == "loses-material" else "??"
            )
            (mistake,) = record["analysis"]["plies"][ply - 1]["mistakes"]
            links = item.find_elements(By.CSS_SELECTOR, ".analysis-line a")
            assert [a.text.split(" ")[-1] for a in links] == mistake["san"]
            links[0].click()
            label = browser.find_element(By.ID, "ply-label")
            wait_for(lambda label=label: "not played" in label.text, timeout=10)
            fen = browser.find_element(By.ID, "fen").text
            first = mistake["position"]  # the position the line starts from
            assert fen != first  # the board moved along the line
            browser.find_element(By.ID, "prev").click()  # back to the step it branches from
            back = browser.find_element(By.ID, "fen")
            wait_for(lambda back=back, first=first: back.text == first, timeout=10)
