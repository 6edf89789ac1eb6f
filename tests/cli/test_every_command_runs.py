"""Every command of gcadj runs once as a process, from whatever build is installed, and
prints what the facts it reads say it must.

CI runs this file against the compiled wheel installed in a fresh venv, from a copy of the
tests outside the source tree (see `.ci/run`): with the agreement tests of the compiled
layers, it is what proves that the wheel holds every command and its data files (the
grammar, the report's and the served pages' templates and static files), since the rest of
the suite, which runs against the pure build, is the same Python in both builds. A new
command fails `test_every_command_has_a_run_here` until it has a run here.

Each expected value comes from a fixture's own record of it (fixtures/logs/expected.json,
fixtures/perft/pmc.epd) or from another command, never from this file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import requests
import typer
from conftest import FIXTURES, run_gcadj
from httpserver import FixtureServer, page, play_path

from gcadj.cli.main import app

EXPECTED = json.loads((FIXTURES / "logs" / "expected.json").read_text(encoding="utf-8"))
ILLEGAL = "illegal/wrong-side.txt"
LEGAL = "legal/checkmate.txt"


def lines_of(stdout: str | None) -> list[dict[str, object]]:
    return [json.loads(line) for line in (stdout or "").splitlines()]


def run_check(tmp_path: Path) -> None:
    done = run_gcadj("check", "--json", f"fixtures/logs/{ILLEGAL}", f"fixtures/logs/{LEGAL}")
    illegal, legal = lines_of(done.stdout)
    first = illegal["first_illegal"]
    assert isinstance(first, dict)
    assert (first["ply"], first["category"]) == (
        EXPECTED[ILLEGAL]["ply"],
        EXPECTED[ILLEGAL]["category"],
    )
    assert (legal["result"], legal["termination"]) == (
        EXPECTED[LEGAL]["result"],
        EXPECTED[LEGAL]["termination"],
    )


def run_adjudicate(tmp_path: Path) -> None:
    done = run_gcadj("adjudicate", "--json", "fixtures/adjudicate/mate-in-1.txt")
    (line,) = lines_of(done.stdout)
    adjudication = line["adjudication"]
    assert isinstance(adjudication, dict)
    assert adjudication["mate"]["moves"] == 1  # the fixture's name says what it holds
    assert adjudication["position"] == line["final_fen"]


def run_analyse(tmp_path: Path) -> None:
    done = run_gcadj("analyse", "--json", "fixtures/analyse/allows-mate-in-1.txt")
    (line,) = lines_of(done.stdout)
    analysis = line["analysis"]
    assert isinstance(analysis, dict)
    assert analysis["counts"]["allows-mate"] == 1


def run_export(tmp_path: Path) -> None:
    """The PGN ends with the result check found; the viewer is one page with the game's
    last position in it."""
    source = f"fixtures/logs/{LEGAL}"
    pgn = run_gcadj("export", "--to", "pgn", source).stdout or ""
    assert pgn.rstrip().endswith(EXPECTED[LEGAL]["result"])
    viewer = tmp_path / "game.html"
    assert run_gcadj("export", "--to", "html", "-o", str(viewer), source).returncode == 0
    final_fen = lines_of(run_gcadj("check", "--json", source).stdout)[0]["final_fen"]
    html = viewer.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and str(final_fen) in html


def run_audit(tmp_path: Path) -> None:
    """An audit of the fixture logs: one line a source, and the report (templates and
    static files) with one row each."""
    out, report = tmp_path / "audit.jsonl", tmp_path / "report.html"
    run_gcadj("audit", "fixtures/logs", "-o", str(out), "--report", str(report))
    sources = sorted((FIXTURES / "logs").rglob("*.txt"))
    assert len(lines_of(out.read_text(encoding="utf-8"))) == len(sources)
    html = report.read_text(encoding="utf-8")
    assert len(re.findall(r"<tr data-s=", html)) == len(sources)


def run_fetch(tmp_path: Path) -> None:
    """A page served on 127.0.0.1 is fetched and saved as a log that check judges as the
    fixture it came from."""
    log = (FIXTURES / "logs" / LEGAL).read_text(encoding="utf-8")
    path = play_path("smoke")
    with FixtureServer({path: page(f"<html><body><pre>{log}</pre></body></html>")}) as server:
        saved = tmp_path / "fetched.txt"
        done = run_gcadj(
            "fetch", server.url(path), "-o", str(saved), "--retries", "0", "--delay", "0"
        )
        assert done.returncode == 0, done.stderr
    fetched = lines_of(run_gcadj("check", "--json", str(saved)).stdout)[0]
    fixture = lines_of(run_gcadj("check", "--json", f"fixtures/logs/{LEGAL}").stdout)[0]
    assert fetched["final_fen"] == fixture["final_fen"]


def run_fen(tmp_path: Path) -> None:
    """startpos to Game Courier's code and back gives perft's start position."""
    code = (run_gcadj("fen", "--to-gc", "startpos").stdout or "").strip()
    back = (run_gcadj("fen", "--from-gc", code).stdout or "").strip()
    start = (FIXTURES / "perft" / "pmc.epd").read_text(encoding="utf-8").splitlines()
    epd = next(line for line in start if line.endswith('"startpos"'))
    assert back == epd.split(";")[0].strip()


def run_perft(tmp_path: Path) -> None:
    epd = (FIXTURES / "perft" / "pmc.epd").read_text(encoding="utf-8").splitlines()
    line = next(line for line in epd if line.endswith('"startpos"'))
    counts = dict(field.split() for field in line.split(";")[1:] if field.startswith("D"))
    total = (run_gcadj("perft", "startpos", "2").stdout or "").splitlines()[-1]
    assert total.strip() == counts["D2"]


def run_serve(tmp_path: Path) -> None:
    """The served home page (a template) and a check through the API, which answers the
    line `gcadj check --json` prints."""
    from web.serving import running_server

    source = FIXTURES / "logs" / ILLEGAL
    with running_server(tmp_path / "serve") as server:
        home = requests.get(server.url, timeout=60)
        assert home.status_code == 200 and "<form" in home.text
        answer = requests.post(
            server.url + "api/check?name=" + source.name, data=source.read_bytes(), timeout=60
        )
    expected = lines_of(run_gcadj("check", "--json", str(source)).stdout)[0]
    (got,) = lines_of(answer.text)
    assert {k: v for k, v in got.items() if k != "source"} == {
        k: v for k, v in expected.items() if k != "source"
    }


RUNS: dict[str, Callable[[Path], None]] = {
    "check": run_check,
    "adjudicate": run_adjudicate,
    "analyse": run_analyse,
    "export": run_export,
    "audit": run_audit,
    "fetch": run_fetch,
    "fen": run_fen,
    "perft": run_perft,
    "serve": run_serve,
}


def test_every_command_has_a_run_here() -> None:
    commands = set(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    assert commands - {"analyze"} == set(RUNS)  # analyze: analyse's other spelling


@pytest.mark.parametrize("command", sorted(RUNS))
def test_the_command_runs_as_a_process(command: str, tmp_path: Path) -> None:
    RUNS[command](tmp_path)
