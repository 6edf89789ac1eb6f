"""``gcadj audit --adjudicate``: every JSON line carries the game's adjudication, the same as
``gcadj adjudicate --json`` gives for that source; the CSV gains its class, result and mate
length; the report gains a column and filters, "forced mate" among them; the exit code
counts a failed adjudication as gcadj's own failure.

Real processes (whatever build is installed) and a real headless Chromium for the report.
Searches are bounded by a node limit, never by the clock, so every run gives the same
answers; only the ``seconds`` each search took differ between runs.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest import FIXTURES, invoke_gcadj

import gcadj
from gcadj.analysis.options import AdjudicateOptions
from gcadj.app.stages import guarded_adjudication
from gcadj.outputs.audit_report import (
    ADJUDICATED_CSV_HEADER,
    ADJUDICATION_COLUMNS,
    CSV_HEADER,
    is_audit_csv,
    summarize,
)
from gcadj.vocabulary import VerdictKind

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

# Deterministic searches: a node limit, and a budget no test search comes near.
SEARCH = ["--mate-depth", "2", "--nodes", "20000", "--budget", "600"]


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def timeless(record: dict[str, Any]) -> dict[str, Any]:
    """A record without the seconds its search took (the one field that varies)."""
    adjudication = record.get("adjudication")
    if not isinstance(adjudication, dict):
        return record
    return {**record, "adjudication": {**adjudication, "seconds": None}}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The adjudication fixtures (a mate in 1, a repetition, a game won on time by a bare
    King) and the example logs (legal, illegal, resigned, unfinished)."""
    folder = tmp_path_factory.mktemp("corpus")
    for source in (
        *sorted((FIXTURES / "adjudicate").glob("*.txt")),
        *sorted((FIXTURES / "examples").glob("*.txt")),
    ):
        shutil.copy(source, folder / source.name)
    return folder


@pytest.fixture(scope="module")
def audited(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("audit")
    files = {"jsonl": out / "r.jsonl", "csv": out / "r.csv", "report": out / "r.html"}
    done = invoke_gcadj(
        "audit", str(corpus), "--adjudicate", *SEARCH, "-q", "-j", "2",
        "-o", str(files["jsonl"]), "--csv", str(files["csv"]), "--report", str(files["report"]),
    )  # fmt: skip
    assert done.returncode == 1, done.stderr  # one example log is illegal
    return files


def test_each_line_is_what_adjudicate_gives_for_its_source(
    corpus: Path, audited: dict[str, Path]
) -> None:
    audit = {record["source"]: timeless(record) for record in lines_of(audited["jsonl"])}
    assert sorted(audit) == sorted(str(path) for path in corpus.iterdir())
    alone = invoke_gcadj("adjudicate", "--json", *SEARCH, *sorted(audit))
    assert alone.returncode == 1, alone.stderr
    expected = {r["source"]: timeless(r) for r in map(json.loads, alone.stdout.splitlines())}
    assert audit == expected
    kinds = {record["adjudication"]["class"] for record in audit.values()}
    assert {"proven", "claimable", "recorded"} <= kinds  # the fixtures' classes, at least


def test_one_job_or_two_give_the_same_lines(corpus: Path, audited: dict[str, Path]) -> None:
    out = audited["jsonl"].with_name("one-job.jsonl")
    done = invoke_gcadj(
        "audit", str(corpus), "--adjudicate", *SEARCH, "-q", "-j", "1", "-o", str(out)
    )
    assert done.returncode == 1, done.stderr
    assert list(map(timeless, lines_of(out))) == list(map(timeless, lines_of(audited["jsonl"])))


def test_the_csv_gains_the_class_result_and_mate_length(audited: dict[str, Path]) -> None:
    text = audited["csv"].read_text(encoding="utf-8")
    assert text.splitlines()[0] == ADJUDICATED_CSV_HEADER and is_audit_csv(text)
    rows = list(csv.DictReader(text.splitlines()))
    records = {record["source"]: record for record in lines_of(audited["jsonl"])}
    assert len(rows) == len(records)
    for row in rows:
        adjudication = records[row["source"]]["adjudication"]
        mate = adjudication["mate"]
        expected = [
            adjudication["class"],
            adjudication["result"],
            mate and str(mate["moves"]),
            mate and mate["winner"],
            adjudication["reason"],
        ]
        assert [row[column] or None for column in ADJUDICATION_COLUMNS] == expected
    assert any(row["mate_in"] == "1" for row in rows)
    # A game White lost on time while holding a mate in 1: Black's result stands, and the
    # CSV says whose mate it is, and why.
    (lost,) = [row for row in rows if row["source"].endswith("lost-on-time-holding-mate.txt")]
    assert (lost["adjudication"], lost["adjudicated_result"]) == ("recorded", "0-1")
    assert (lost["mate_in"], lost["mate_winner"]) == ("1", "white")
    assert "on the board, White, to move, mates in 1" in lost["adjudication_reason"]


def test_without_the_flag_nothing_is_adjudicated(corpus: Path, tmp_path: Path) -> None:
    table = tmp_path / "plain.csv"
    done = invoke_gcadj(
        "audit", str(corpus), "-q", "-o", str(tmp_path / "p.jsonl"), "--csv", str(table)
    )
    assert done.returncode == 1, done.stderr
    assert all("adjudication" not in record for record in lines_of(tmp_path / "p.jsonl"))
    assert table.read_text(encoding="utf-8").splitlines()[0] == CSV_HEADER


@pytest.mark.parametrize("option", ["--mate-depth", "--budget", "--nodes", "--evidence-margin"])
def test_an_adjudication_option_needs_the_flag(corpus: Path, option: str) -> None:
    done = invoke_gcadj("audit", str(corpus), "-q", option, "2")
    assert done.returncode == 2
    assert done.stderr.strip() == f"gcadj audit: {option} needs --adjudicate"


def test_a_failed_adjudication_counts_as_gcadj_s_own_failure(tmp_path: Path) -> None:
    """An adjudication gcadj failed on (a bug) is written as such, and the products read it
    back so: the game's outcome is an internal error (exit 5), as for a verdict."""
    verdict = gcadj.judge_source(str(FIXTURES / "adjudicate" / "mate-in-1.txt"))[0]
    broken = dataclasses.replace(verdict, start_fen="not a position")
    adjudication = guarded_adjudication(broken, AdjudicateOptions(mate_depth=1))
    assert adjudication.internal
    jsonl = tmp_path / "r.jsonl"
    jsonl.write_text(
        dataclasses.replace(broken, adjudication=adjudication).json_line() + "\n", encoding="utf-8"
    )
    summary = summarize(jsonl)
    assert summary.by_outcome == {VerdictKind.INTERNAL_ERROR: 1}
    assert summary.by_adjudication == {"undetermined": 1}


def test_the_report_filters_the_forced_mates_by_side(
    browser: WebDriver, audited: dict[str, Path]
) -> None:
    """The Adjudication cell says, visibly, the class and result, who mates in how many,
    which position (before an illegal move, in a player's words) and why; the filters
    split the forced mates by the side that mates, whatever the class."""
    from selenium.webdriver.common.by import By

    browser.get(audited["report"].as_uri())
    headings = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#games thead th")]
    assert "Adjudication" in headings
    column = headings.index("Adjudication")
    records = lines_of(audited["jsonl"])

    def shown() -> list[list[str]]:
        """The text of each cell of the rows laid out (a filtered-out row has no box), read
        in one script: one WebDriver round trip for the table, not one a cell."""
        script = (
            "return Array.prototype.filter.call(document.querySelectorAll('#games tbody tr'),"
            " function (r) { return r.getClientRects().length > 0; }).map(function (r) {"
            " return Array.prototype.map.call(r.cells, function (c) { return c.innerText; }); });"
        )
        return [
            ["\n".join(line.strip() for line in str(cell).strip().splitlines()) for cell in row]
            for row in browser.execute_script(script)
        ]

    assert len(shown()) == len(records)
    for side in ("white", "black"):
        mates = [r for r in records if (r["adjudication"]["mate"] or {}).get("winner") == side]
        chips = browser.find_elements(
            By.CSS_SELECTOR, f'.chip[data-kind="a"][data-value="mate-{side}"]'
        )
        if not mates:
            assert not chips
            continue
        (chip,) = chips
        assert chip.text == f"{side.capitalize()} mates ({len(mates)})"
        chip.click()
        expected = [
            f"{a['class']} {a['result']} · {side.capitalize()} mates in {a['mate']['moves']}"
            for a in (record["adjudication"] for record in mates)
        ]
        assert sorted(row[column].splitlines()[0] for row in shown()) == sorted(expected)
        chip.click()
    cells = {Path(row[1]).name: row[column] for row in shown()}
    lost = cells["lost-on-time-holding-mate.txt"]
    assert lost.splitlines()[0] == "recorded 0-1 · White mates in 1"
    assert "on the board, White, to move, mates in 1" in lost  # the reason, in view
    illegal = cells["illegal-before-mate.txt"]
    assert illegal.splitlines()[0] == "proven 1-0 · White mates in 1"
    assert "Before move 3, White, the first illegal move: White, to move, mates in 1." in illegal
    bare = cells["bare-king-wins-on-time.txt"]
    assert "note: Black won on time with only its King" in bare  # the FIDE 6.9 note
    summary = summarize(audited["jsonl"])
    for kind, count in summary.by_adjudication.items():
        browser.find_element(By.CSS_SELECTOR, f'.chip[data-kind="a"][data-value="{kind}"]').click()
        assert [row[column].split()[0] for row in shown()] == [kind] * count
        browser.find_element(By.CSS_SELECTOR, f'.chip[data-kind="a"][data-value="{kind}"]').click()
    assert len(shown()) == len(records)
