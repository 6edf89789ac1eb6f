"""gcadj audit (and fetch, check URL): real local HTTP server, real processes, real kills.

The server serves the invented pages of fixtures/pages at Game Courier paths, with one
fault per log of the index (see FAULTS). Every audit must give each source exactly one
verdict, with the documented outcome, whatever the others do.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from html import escape
from pathlib import Path

import pytest
from conftest import FIXTURES, GCADJ, ROOT, invoke_gcadj
from httpserver import (
    Behaviour,
    FixtureServer,
    endless,
    page,
    play_path,
    redirect,
    sequence,
    slow,
    status,
    truncated,
)

from gcadj.app.audit import AuditPlan, run_audit
from gcadj.app.batch import Limits
from gcadj.app.check import check_text
from gcadj.app.jsonl import read_done
from gcadj.app.worker_judging import WorkerSettings, game_result
from gcadj.errors import AuditError
from gcadj.outputs.audit_report import summarize
from gcadj.sources.fetch import Fetcher, FetchOptions, set_default_fetcher

PAGES = FIXTURES / "pages"
INDEX = "/play/pbm/logs.php?status=finished"

# log name -> (behaviour, expected status, words expected in the error or None)
FAULTS: dict[str, tuple[Behaviour, str, str | None]] = {
    "alice-bob-2009-166-518": (page((PAGES / "pmc_textarea.html").read_bytes()), "legal", None),
    "flaky-2009-170-1": (
        sequence(status(500), page((PAGES / "pmc_pre.html").read_bytes())),
        "legal",
        None,
    ),
    # far slower than the timeout, which is far longer than a loaded machine's answer
    "slow-2009-171-1": (slow(8.0, page(b"<p>late</p>")), "error", "read timeout of 1.5 s"),
    "gone-2009-172-1": (status(404), "error", "HTTP 404"),
    "busy-2009-173-1": (
        sequence(status(429, {"Retry-After": "1"}), page((PAGES / "pmc_list.html").read_bytes())),
        "legal",
        None,
    ),
    "cut-2009-174-1": (truncated(b"<html><body><pre>P e2-e4", 5000), "error", "truncated"),
    "huge-2009-175-1": (endless(), "error", "over the cap of 204800 bytes"),
    "nomoves-2009-176-1": (
        page((PAGES / "no_moves.html").read_bytes()),
        "syntax-error",
        "no move list found",
    ),
    "latin1-2009-177-1": (
        page((PAGES / "pmc_latin1.html").read_bytes(), "text/html"),
        "legal",
        None,
    ),
    "ftp-2009-178-1": (redirect("ftp://example.org/log.txt"), "error", "refused"),
    "newer-2021-044-12": (page((PAGES / "pmc_pocket_p_code.html").read_bytes()), "legal", None),
}


@pytest.fixture
def server() -> Iterator[FixtureServer]:
    routes = {play_path(name): behaviour for name, (behaviour, _, _) in FAULTS.items()}
    routes[INDEX] = page((PAGES / "logs_index.html").read_bytes())
    with FixtureServer(routes) as running:
        yield running


@pytest.fixture(autouse=True)
def private_default_fetcher(tmp_path: Path) -> Iterator[None]:
    """URL sources read in this process use a fetcher caching under tmp, never ~/.cache."""
    set_default_fetcher(fast_fetcher(tmp_path / "default-cache"))
    yield
    set_default_fetcher(None)


def fast_fetcher(cache: Path | None) -> Fetcher:
    return Fetcher(
        FetchOptions(
            connect_timeout=1.5,
            read_timeout=1.5,
            retries=1,
            backoff=0.01,
            delay=0.0,
            max_bytes=200 * 1024,
            cache_dir=cache,
        )
    )


HTTP_OPTIONS = ["--timeout", "1.5", "--retries", "1", "--delay", "0", "--max-size", "200"]


def records(path: Path) -> list[dict[str, object]]:
    data = path.read_bytes()
    assert data == b"" or data.endswith(b"\n"), "the file ends in a torn line"
    return [json.loads(line) for line in data.splitlines()]


def by_log(rows: list[dict[str, object]]) -> dict[str, dict[str, object]]:
    return {str(row["source"]).rsplit("log=", 1)[1]: row for row in rows}


# ---------------------------------------------------------------------------------------
# Faults: each source gets its documented outcome, the others finish


def test_an_index_audit_gives_every_fault_its_outcome(
    server: FixtureServer, tmp_path: Path
) -> None:
    out = tmp_path / "audit.jsonl"
    plan = AuditPlan(sources=(), out=out, index_urls=(server.url(INDEX),), limits=Limits(jobs=2))
    run = run_audit(plan, fetcher=fast_fetcher(tmp_path / "cache"))
    rows = records(out)
    assert run.judged == len(rows) == len(FAULTS)  # each once, the duplicate row ignored
    seen = by_log(rows)
    assert set(seen) == set(FAULTS)
    for name, (_, expected, words) in FAULTS.items():
        row = seen[name]
        assert row["status"] == expected, (name, row["error"])
        if words is not None:
            assert words in str(row["error"]), (name, row["error"])
            assert str(row["error"]).startswith(server.url(play_path(name)))
    latin = seen["latin1-2009-177-1"]
    assert (latin["result"], latin["termination"]) == ("1-0", "resignation")  # Jörg resigned
    assert seen["newer-2021-044-12"]["plies"] == 11  # p1/p8 pockets read via PocketFile
    # Other games on the index were never requested.
    assert not server.hits(play_path("carol-dave-2010-001-2", game="Chess"))


def test_a_rerun_reads_pages_from_the_cache_and_resume_skips_what_is_done(
    server: FixtureServer, tmp_path: Path
) -> None:
    out = tmp_path / "audit.jsonl"
    cache = tmp_path / "cache"
    plan = AuditPlan(sources=(), out=out, index_urls=(server.url(INDEX),), limits=Limits(jobs=1))
    run_audit(plan, fetcher=fast_fetcher(cache))
    ok_page = play_path("alice-bob-2009-166-518")
    assert len(server.hits(ok_page)) == 1
    again = AuditPlan(sources=(), out=out, index_urls=(server.url(INDEX),), force=True)
    run_audit(again, fetcher=fast_fetcher(cache))
    assert len(server.hits(ok_page)) == 1  # from the cache this time
    assert len(records(out)) == len(FAULTS)  # --force replaced the file
    before = len(server.seen)
    resumed = AuditPlan(sources=(), out=out, index_urls=(server.url(INDEX),), resume=True)
    run = run_audit(resumed, fetcher=fast_fetcher(cache))
    assert (run.judged, run.skipped) == (0, len(FAULTS))
    assert [s.path for s in server.seen[before:]] == [INDEX]  # only the index, fresh
    assert len(records(out)) == len(FAULTS)


def test_pages_that_cannot_be_fetched_are_written_in_order_with_two_jobs(tmp_path: Path) -> None:
    with FixtureServer() as gone:  # stopped at once: every page is a connection error
        urls = [gone.url(play_path(f"gone-{n}")) for n in range(5)]
    out = tmp_path / "audit.jsonl"
    game = str(FIXTURES / "examples" / "ex1_pocket_mutation_drops.txt")
    sources = (*urls[:3], game, *urls[3:])
    run = run_audit(
        AuditPlan(sources=sources, out=out, limits=Limits(jobs=2)), fetcher=fast_fetcher(None)
    )
    assert run.judged == 6 and run.exit_code == 4
    rows = records(out)
    assert [row["source"] for row in rows] == list(sources)  # the parent's own results too
    assert [row["status"] for row in rows] == ["error"] * 3 + ["legal"] + ["error"] * 2
    only_urls = tmp_path / "only.jsonl"  # nothing for the workers at all
    run = run_audit(
        AuditPlan(sources=tuple(urls), out=only_urls, limits=Limits(jobs=2)),
        fetcher=fast_fetcher(None),
    )
    assert [row["source"] for row in records(only_urls)] == urls and run.judged == 5


def test_an_unreachable_index_is_reported_and_the_rest_still_judged(tmp_path: Path) -> None:
    with FixtureServer() as gone:
        index = gone.url(INDEX)
    out = tmp_path / "audit.jsonl"
    plan = AuditPlan(
        sources=(str(FIXTURES / "examples" / "ex1_pocket_mutation_drops.txt"),),
        out=out,
        index_urls=(index,),
    )
    run = run_audit(plan, fetcher=fast_fetcher(None))
    assert len(run.problems) == 1 and "connection failed" in run.problems[0]
    assert [row["status"] for row in records(out)] == ["legal"]


# ---------------------------------------------------------------------------------------
# Sources, the output file, resume


def test_directories_are_walked_and_each_source_judged_once(tmp_path: Path) -> None:
    games = tmp_path / "games"
    (games / "sub").mkdir(parents=True)
    (games / ".hidden").mkdir()
    ex = FIXTURES / "examples"
    (games / "b.txt").write_bytes((ex / "ex1_pocket_mutation_drops.txt").read_bytes())
    (games / "sub" / "a.log").write_bytes((ex / "ex5_syntax_variants.txt").read_bytes())
    (games / "sub" / "page.HTM").write_bytes((PAGES / "pmc_pre.html").read_bytes())
    (games / "notes.md").write_text("not a game")
    (games / ".hidden" / "c.txt").write_text("P e2-e4\n")
    out = tmp_path / "audit.jsonl"
    explicit = str(games / "b.txt")
    missing = str(tmp_path / "missing.txt")
    run_audit(AuditPlan(sources=(str(games), explicit, missing), out=out, limits=Limits(jobs=2)))
    rows = {str(row["source"]): row for row in records(out)}
    assert sorted(rows) == sorted(
        [explicit, str(games / "sub" / "a.log"), str(games / "sub" / "page.HTM"), missing]
    )
    assert rows[explicit]["status"] == "legal"
    assert rows[str(games / "sub" / "a.log")]["status"] == "illegal"
    assert rows[missing]["status"] == "error" and "no such file" in str(rows[missing]["error"])


def test_one_and_two_jobs_agree(tmp_path: Path) -> None:
    sources = (str(FIXTURES / "examples"), str(PAGES))
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    run_audit(AuditPlan(sources=sources, out=one, limits=Limits(jobs=1)))
    run_audit(AuditPlan(sources=sources, out=two, limits=Limits(jobs=2), batch_size=2))
    assert one.read_bytes() == two.read_bytes()  # the order of the sources, both times
    assert len(records(one)) == 5 + 11  # examples + every .html of fixtures/pages


def test_an_existing_output_is_kept_without_resume_or_force(tmp_path: Path) -> None:
    out = tmp_path / "audit.jsonl"
    out.write_text("precious\n")
    with pytest.raises(AuditError, match="exists; use --resume"):
        run_audit(AuditPlan(sources=(str(FIXTURES / "examples"),), out=out))
    assert out.read_text() == "precious\n"
    with pytest.raises(AuditError, match="not a gcadj audit line"):
        run_audit(AuditPlan(sources=(str(FIXTURES / "examples"),), out=out, resume=True))
    assert out.read_text() == "precious\n"


def test_resume_drops_a_torn_last_line_and_judges_that_source_again(tmp_path: Path) -> None:
    out = tmp_path / "audit.jsonl"
    examples = FIXTURES / "examples"
    run_audit(AuditPlan(sources=(str(examples),), out=out))
    lines = out.read_bytes().splitlines(keepends=True)
    torn_source = json.loads(lines[3])["source"]
    out.write_bytes(b"".join(lines[:3]) + lines[3][:40])  # as a SIGKILL mid-write would
    assert torn_source not in read_done(out)
    assert not out.read_bytes().endswith(lines[3][:40])  # the torn bytes are gone
    run = run_audit(AuditPlan(sources=(str(examples),), out=out, resume=True))
    assert (run.judged, run.skipped) == (2, 3)
    sources = [row["source"] for row in records(out)]
    assert len(sources) == len(set(sources)) == 5 and torn_source in sources


# ---------------------------------------------------------------------------------------
# Killed halfway, then resumed: every source judged exactly once


def make_corpus(folder: Path, count: int) -> list[str]:
    """`count` small logs (the five examples over and over, each file its own source)."""
    folder.mkdir()
    texts = [p.read_bytes() for p in sorted((FIXTURES / "examples").glob("*.txt"))]
    names = []
    for number in range(count):
        path = folder / f"game{number:05d}.txt"
        path.write_bytes(texts[number % len(texts)])
        names.append(str(path))
    return names


def start_audit(corpus: Path, out: Path, *extra: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "XDG_CACHE_HOME": str(out.parent / "xdg")}
    return subprocess.Popen(
        [*GCADJ, "audit", str(corpus), "--out", str(out), "--jobs", "2", "--quiet", *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: the test can clean up workers
        env=env,
        cwd=ROOT,
    )


def wait_for_lines(out: Path, at_least: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120  # a hang guard, not a speed test
    while time.monotonic() < deadline:
        if out.exists() and out.read_bytes().count(b"\n") >= at_least:
            return
        assert process.poll() is None, "the audit ended before it could be interrupted"
        time.sleep(0.005)
    raise AssertionError("the audit wrote nothing")


def group_gone(pgid: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL])
def test_an_audit_killed_halfway_resumes_to_each_source_exactly_once(
    tmp_path: Path, how: signal.Signals
) -> None:
    corpus = tmp_path / "corpus"
    # More sources than the batches in flight can hold (4 x jobs batches of at most
    # MAX_BATCH): an interrupt lets those finish, and the run must still stop halfway.
    names = make_corpus(corpus, 6000)
    out = tmp_path / "audit.jsonl"
    process = start_audit(corpus, out)
    try:
        wait_for_lines(out, 100, process)
        os.kill(process.pid, how)
        process.wait(timeout=60)  # hang guards, with margins for a loaded machine
        # The workers do not outlive their parent, even a SIGKILLed one.
        assert group_gone(process.pid, within=30), "worker processes were left behind"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # whatever is left of what we started
    assert process.stderr is not None
    stderr = process.stderr.read()
    if how == signal.SIGINT:
        assert process.returncode == 130
        assert b"finish with --resume" in stderr
    else:
        assert process.returncode == -signal.SIGKILL
    data = out.read_bytes()
    whole = data[: data.rfind(b"\n") + 1]
    if how == signal.SIGINT:  # an interrupted audit writes whole lines only
        assert whole == data, "the file ends in a torn line"
    # A SIGKILL may land inside a large write and leave part of a line (jsonl.py's docstring
    # says so): the resumed run must cut it off, which `records` below checks.
    partial = [json.loads(line) for line in whole.splitlines()]  # each line valid JSON
    assert 100 <= len(partial) < len(names), ("not killed halfway", stderr[-2000:])
    assert len({row["source"] for row in partial}) == len(partial)

    resumed = start_audit(corpus, out, "--resume")
    _, stderr = resumed.communicate(timeout=60)
    assert resumed.returncode == 1, stderr  # ex5 of the examples has an illegal move
    final = [str(row["source"]) for row in records(out)]
    assert sorted(final) == sorted(names)  # every source, each exactly once
    # What the killed run wrote stays first: the resumed run appended, it did not rewrite.
    assert final[: len(partial)] == [str(row["source"]) for row in partial]


def test_an_interrupted_audit_without_out_says_there_is_nothing_to_resume(
    tmp_path: Path,
) -> None:
    corpus = tmp_path / "corpus"
    make_corpus(corpus, 2500)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    process = subprocess.Popen(
        [*GCADJ, "audit", str(corpus), "--jobs", "2", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env=env,
        cwd=ROOT,
    )
    try:
        assert process.stdout is not None
        for _ in range(100):  # verdicts are streaming to stdout: the audit is halfway
            assert process.stdout.readline(), "the audit ended before it could be interrupted"
        os.kill(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=60)  # a hang guard
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130
    message = stderr.decode()
    assert "the failing ones were printed on stdout" in message, message
    assert "rerun with --output FILE" in message, message
    assert "--resume" not in message and "gcadj-audit-" not in message  # no vanished file


# ---------------------------------------------------------------------------------------
# The CLI: exit codes, summary, CSV, report, fetch, check URL


def invoke(*args: str) -> tuple[int, str, str]:
    """`invoke_gcadj` as (exit code, stdout, stderr), the shape these tests compare."""
    done = invoke_gcadj(*args)
    return done.returncode, done.stdout, done.stderr


def test_cli_audit_of_an_index_writes_csv_and_a_safe_report(
    server: FixtureServer, tmp_path: Path
) -> None:
    out, table, report = tmp_path / "a.jsonl", tmp_path / "a.csv", tmp_path / "a.html"
    hostile = tmp_path / "hostile.txt"
    hostile.write_text('[Site "javascript:alert(3)"]\n[White "x"]\nP e2-e4\np e7-e5\nK e1-e3\n')
    code, stdout, stderr = invoke(
        "audit",
        str(PAGES / "pmc_untrusted.html"),
        str(hostile),
        "--index",
        server.url(INDEX),
        "--out",
        str(out),
        "--csv",
        str(table),
        "--report",
        str(report),
        "--cache",
        str(tmp_path / "cache"),
        *HTTP_OPTIONS,
    )
    assert code == 4, stderr  # some page could not be fetched: the worst status wins
    # results went to --out; stdout has the failing games as check -q prints them
    assert not any(line.startswith("{") for line in stdout.splitlines())
    assert sorted(stdout.splitlines()) == sorted(
        line for _, line in summarize(out, failing=None).failing if _ != "error"
    )
    assert "games by status" in stderr and "13 games in all" in stderr
    summary = summarize(out)
    assert summary.by_status == {"legal": 5, "error": 5, "syntax-error": 1, "illegal": 2}
    assert summary.by_category["illegal-piece-move"] >= 1
    with table.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 13
    assert [row["source"] for row in rows] == [r["source"] for r in records(out)]  # one order
    (untrusted,) = [row for row in rows if row["source"].endswith("pmc_untrusted.html")]
    assert untrusted["move"] == "P e4-e6" and untrusted["category"] == "illegal-piece-move"
    html = report.read_text()
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&#34;&gt;&lt;b&gt;mallory&lt;/b&gt;" in html  # the quote escaped too
    assert "javascript:" not in html  # a Site tag is linked only if it is http(s)
    assert html.count("<svg") == 2  # the two bar charts: the diagrams are in the viewers
    assert html.count("<script>") == 1  # ours: sorting and filtering
    viewers = sorted((tmp_path / "a-viewers").glob("*.html"))  # beside the report
    illegal = [v.read_text() for v in viewers if 'class="verdict illegal"' in v.read_text()]
    assert len(illegal) == 2 and all("<svg" in page for page in illegal)
    assert all("<script>alert" not in v.read_text() for v in viewers)
    link = escape(server.url(play_path("alice-bob-2009-166-518")))  # & becomes &amp;
    assert f'href="{link}"' in html


def test_cli_audit_without_out_streams_json_lines_to_stdout(tmp_path: Path) -> None:
    code, stdout, stderr = invoke("audit", str(FIXTURES / "examples"), "--jobs", "1")
    assert code == 1  # ex5 has an illegal move
    lines = [json.loads(line) for line in stdout.splitlines()]
    assert len(lines) == 5 and set(lines[0]) >= {"source", "status", "first_illegal"}
    assert "5 games in all" in stderr and "ex5_syntax_variants.txt:7:1: illegal" in stderr
    # -q quiets the JSON too: only the failing game, as check -q prints it
    code, stdout, stderr = invoke("audit", str(FIXTURES / "examples"), "--jobs", "1", "-q")
    assert code == 1 and stderr == ""
    assert stdout == invoke("check", str(FIXTURES / "examples"), "-q")[1] != ""


def test_cli_audit_usage_errors(tmp_path: Path) -> None:
    out = tmp_path / "o.jsonl"
    out.write_text("")
    assert invoke("audit", str(FIXTURES / "examples"), "--out", str(out))[0] == 2
    assert invoke("audit")[0] == 2
    assert invoke("audit", "-")[0] == 2
    assert invoke("audit", str(FIXTURES / "examples"), "--resume")[0] == 2
    nowhere = tmp_path / "no" / "such"  # an output that cannot be written: 6, as everywhere
    code, _, stderr = invoke("audit", str(FIXTURES / "examples"), "--out", str(nowhere / "o.jsonl"))
    assert code == 6 and stderr == (
        f"gcadj audit: cannot write {nowhere / 'o.jsonl'}: No such file or directory\n"
    )
    code, _, stderr = invoke("audit", str(FIXTURES / "examples"), "-q", "--report", str(nowhere))
    assert code == 6 and f"cannot write {nowhere}" in stderr
    assert not nowhere.parent.exists()  # no folder made up from a typo
    assert invoke("audit", str(FIXTURES / "examples"), "--out", str(out), "--force", "-q")[0] == 1


def test_cli_fetch_writes_a_log_that_check_reads(server: FixtureServer, tmp_path: Path) -> None:
    url = server.url(play_path("newer-2021-044-12"))
    target = tmp_path / "game.txt"
    cache = ["--cache", str(tmp_path / "cache")]
    code, stdout, stderr = invoke("fetch", url, "-o", str(target), *cache, *HTTP_OPTIONS)
    assert code == 0, stderr
    text = target.read_text()
    assert text.startswith('[Game "Pocket Mutation Chess"]\n[Log "newer-2021-044-12"]\n')
    for tag in (f'[Site "{url}"]', '[White "carol"]', '[Status "dave has resigned."]'):
        assert tag in text
    assert '[PocketFile "p"]' in text and "R h1-p1; I-p1" in text
    code, stdout, _ = invoke("check", str(target), "--json")
    assert code == 0 and json.loads(stdout)["result"] == "1-0"
    # -o never overwrites without --force
    target.write_text("mine")
    assert invoke("fetch", url, "-o", str(target), *cache, *HTTP_OPTIONS)[0] == 2
    assert target.read_text() == "mine"
    assert invoke("fetch", url, "-o", str(target), "--force", *cache, *HTTP_OPTIONS)[0] == 0
    assert target.read_text() == text


def test_cli_fetch_failures_have_their_exit_codes(server: FixtureServer, tmp_path: Path) -> None:
    code, _, stderr = invoke("fetch", server.url(play_path("gone-2009-172-1")), "--no-cache")
    assert code == 4 and "HTTP 404" in stderr
    nomoves = server.url(play_path("nomoves-2009-176-1"))
    code, _, stderr = invoke("fetch", nomoves, "--no-cache")
    assert code == 3 and f"{nomoves}:1:1: no move list found" in stderr  # located (issue 10)


def test_cli_fetch_warns_when_the_diagram_disagrees(tmp_path: Path) -> None:
    with FixtureServer(
        {play_path("m"): page((PAGES / "pmc_board_mismatch.html").read_bytes())}
    ) as s:
        code, stdout, stderr = invoke("fetch", s.url(play_path("m")), "--no-cache")
    assert code == 0 and stdout.startswith("[Game ")
    assert "warning: the page's board diagram differs" in stderr


def test_cli_export_reads_a_url_directly(server: FixtureServer, tmp_path: Path) -> None:
    url = server.url(play_path("alice-bob-2009-166-518"))
    done = invoke_gcadj("export", url, "--to", "gc", env={"XDG_CACHE_HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert '[White "alice"]' in done.stdout and "R h1-i1; I-i1" in done.stdout


def test_cli_check_reads_a_url_directly(server: FixtureServer, tmp_path: Path) -> None:
    url = server.url(play_path("alice-bob-2009-166-518"))
    done = invoke_gcadj("check", "--json", url, env={"XDG_CACHE_HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    verdict = json.loads(done.stdout)
    assert verdict["source"] == url and verdict["result"] == "1-0"
    assert list((tmp_path / "gcadj" / "pages").rglob("*.page"))  # cached per user


def test_cli_check_of_a_malformed_url_is_an_error_naming_it() -> None:
    bad = "http://[::1/play.php"
    code, stdout, stderr = invoke("check", bad)
    assert code == 4, stderr
    assert f"{bad}: malformed URL (Invalid IPv6 URL)" in stdout + stderr


def test_one_rule_says_what_is_a_url_and_other_schemes_are_refused_by_name(
    tmp_path: Path,
) -> None:
    from gcadj.app import audit
    from gcadj.outputs import audit_report
    from gcadj.sources import fetch
    from gcadj.sources import read as sources
    from gcadj.sources.pages import index as scrape
    from gcadj.urls import is_url, url_scheme

    for module in (audit, audit_report, fetch, scrape, sources):
        assert getattr(module, "is_url", is_url) is is_url, module  # no copy of its own
    assert is_url("http://x/a") and is_url("HTTPS://x") and not is_url("ftp://x")
    assert not is_url("game.txt") and not is_url(" http://x") and url_scheme("game.txt") is None
    for spec, scheme in (("ftp://example.org/x", "ftp"), ("file:///etc/passwd", "file")):
        code, stdout, stderr = invoke("check", spec)
        assert code == 4
        assert f"{spec}: only http and https URLs are fetched, not '{scheme}'" in stdout + stderr
    out = tmp_path / "r.jsonl"
    assert invoke("audit", "ftp://example.org/x", "--out", str(out), "-q")[0] == 4
    (row,) = records(out)
    assert row["status"] == "error" and "only http and https" in str(row["error"])


def test_a_malformed_redirect_is_one_error_and_the_audit_finishes(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    good = FIXTURES / "examples" / "ex1_pocket_mutation_drops.txt"
    with FixtureServer({play_path("bad"): redirect("http://[::1/x")}) as s:
        url = s.url(play_path("bad"))
        code, _, stderr = invoke(
            "audit", url, str(good), "--out", str(out), "--no-cache", "-q", *HTTP_OPTIONS
        )
    assert code == 4, stderr
    rows = {str(row["source"]): row for row in records(out)}
    assert len(rows) == 2
    assert rows[url]["status"] == "error"
    assert "malformed redirect" in str(rows[url]["error"])
    assert rows[str(good)]["status"] == "legal"


def test_without_a_terminal_progress_is_a_plain_line_every_ten_seconds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from gcadj.cli.audit import _StderrProgress

    now = [100.0]
    progress = _StderrProgress(quiet=False, json_lines=False)
    assert progress.bar is None  # pytest's stderr is no terminal
    progress.clock = lambda: now[0]
    progress.start(50)
    legal = game_result(check_text("P e2-e4\n", "x"), WorkerSettings())
    for step in (1.0, 4.0, 6.0):  # the third advance is 11 s after the start
        now[0] += step
        progress.advance(legal)
    progress.stop()
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["audit: 3/50 judged, 0.3/s, ETA 172 s"]
    streaming = _StderrProgress(quiet=False, json_lines=True)
    streaming.advance(legal)
    assert capsys.readouterr().out == legal.line == check_text("P e2-e4\n", "x").json_line() + "\n"
    quiet = _StderrProgress(quiet=True, json_lines=False)
    quiet.start(None)
    quiet.advance(legal)  # a legal game: nothing
    quiet.advance(game_result(check_text("K e1-e3\n", "y"), WorkerSettings()))
    out = capsys.readouterr()
    assert out.err == "" and out.out.startswith("y:1:1: illegal at ply 1 (1. K e1-e3)")


def test_csv_cells_are_written_as_typed_even_when_they_look_like_formulas(
    tmp_path: Path,
) -> None:
    # What write_csv's docstring and the manual (docs/audit.md) promise: no quoting or prefix.
    from gcadj.outputs.audit_report import write_csv

    log = tmp_path / "g.txt"
    log.write_text("P e2-e4\np e7-e5\nP d2-d4\n@-d5\n")
    out, table = tmp_path / "r.jsonl", tmp_path / "r.csv"
    run_audit(AuditPlan(sources=(str(log),), out=out, limits=Limits(jobs=1)))
    write_csv(out, table)
    with table.open(newline="") as handle:
        (row,) = list(csv.DictReader(handle))
    assert row["move"] == "@-d5", row
    assert ",@-d5," in table.read_text()  # not '@-d5 nor quoted
