"""`gcadj serve` over HTTP: the JSON API, the limits and the refusals, against a real server.

Each expectation is computed here by the library itself (`judge_source`, the same pipeline
the CLI uses) or by ``gcadj check --json``, never written by hand.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from conftest import FIXTURES, ROOT, invoke_gcadj
from httpserver import FixtureServer, page
from serving import Server, running_server, wait_for, zip_of

from gcadj.app.pipeline import judge_source
from gcadj.app.pool import HANG_ENV, KILL_ENV

EXAMPLES = FIXTURES / "examples"
EX1 = EXAMPLES / "ex1_pocket_mutation_drops.txt"
EX5 = EXAMPLES / "ex5_syntax_variants.txt"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Guarding addresses as on a public host, and a 1 MB limit (small test files)."""
    tmp = tmp_path_factory.mktemp("serve-api")
    with running_server(tmp, "--public-urls-only", "--max-upload", "1", "--jobs", "2") as s:
        yield s


@pytest.fixture(scope="module")
def open_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Fetching any address (--any-urls): pages of the test's server on 127.0.0.1."""
    with running_server(tmp_path_factory.mktemp("serve-open"), "--jobs", "1", "--any-urls") as s:
        yield s


def lines(response: requests.Response) -> list[dict[str, object]]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in response.text.splitlines()]


def cli_json(*paths: Path) -> list[str]:
    """What `gcadj check --json` prints for these files, run from their folder."""
    done = invoke_gcadj("check", "--json", *(p.name for p in paths), cwd=paths[0].parent)
    return done.stdout.splitlines()


def test_a_raw_body_gives_exactly_the_line_of_gcadj_check_json(server: Server) -> None:
    response = requests.post(
        server.url + "api/check?name=" + EX5.name, data=EX5.read_bytes(), timeout=60
    )
    assert response.status_code == 200
    assert response.text.splitlines() == cli_json(EX5)


def test_files_are_named_by_their_upload_names_in_order(server: Server) -> None:
    files = [("file", (EX1.name, EX1.read_bytes())), ("file", (EX5.name, EX5.read_bytes()))]
    response = requests.post(server.url + "api/check", files=files, timeout=60)
    assert response.text.splitlines() == cli_json(EX1, EX5)


def test_a_zip_is_opened_and_each_game_file_judged(server: Server) -> None:
    logs = sorted((FIXTURES / "logs").rglob("*.txt"))
    members = {f"games/{p.parent.name}/{p.name}": p.read_bytes() for p in logs}
    members["games/notes.md"] = b"not a game"
    members["games/.hidden.txt"] = b"P e2-e4\n"
    archive = zip_of(members)
    response = requests.post(
        server.url + "api/check", files=[("file", ("all.zip", archive))], timeout=120
    )
    got = lines(response)
    expected = [
        json.loads(v.json_line())
        for name, data in members.items()
        if name.endswith(".txt") and "/." not in name
        for v in judge_source(f"all.zip/{name}", text=data.decode("utf-8"))
    ]
    assert got == expected and len(got) == len(logs) > 40


def test_options_travel_like_the_cli_options(server: Server) -> None:
    response = requests.post(
        server.url + "api/check?name=g.txt&all=1", data=EX5.read_bytes(), timeout=60
    )
    record = lines(response)[0]
    expected = judge_source("g.txt", text=EX5.read_text("utf-8"))[0]
    assert len(record["illegal"]) >= len(expected.illegal)  # type: ignore[arg-type]
    bad = requests.post(server.url + "api/check?pocket_file=7", data=b"P e2-e4", timeout=30)
    assert bad.status_code == 400 and "pocket_file" in bad.text


def test_a_body_over_the_limit_is_refused_with_413(server: Server) -> None:
    big = b"P e2-e4\n" * 200_000  # 1.6 MB, over the server's 1 MB
    response = requests.post(server.url + "api/check", data=big, timeout=60)
    assert (
        response.status_code == 413 and "larger than this server's limit of 1 MB" in response.text
    )
    # without a declared length (chunked): refused while it streams in
    chunks = (big[i : i + 65536] for i in range(0, len(big), 65536))
    response = requests.post(server.url + "api/check", data=chunks, timeout=60)
    assert response.status_code == 413
    page_response = requests.post(
        server.url + "check", files=[("file", ("big.txt", big))], timeout=60
    )
    assert page_response.status_code == 413 and "Too large" in page_response.text
    assert "content-security-policy" in page_response.headers


def test_a_zip_bomb_is_refused_before_it_is_expanded(server: Server) -> None:
    bomb = zip_of({"bomb.txt": b"\0" * 30_000_000})  # 30 MB of zeros in about 30 KB
    assert len(bomb) < 100_000
    response = requests.post(
        server.url + "api/check", files=[("file", ("bomb.zip", bomb))], timeout=60
    )
    (record,) = lines(response)
    assert record["source"] == "bomb.zip" and record["status"] == "error"
    assert "expands" in str(record["error"]) and "zip bomb" in str(record["error"])


def test_too_many_files_or_bytes_in_a_zip_are_refused(tmp_path: Path) -> None:
    flags = ("--zip-max-files", "5", "--zip-max-mb", "0.5")
    with running_server(tmp_path / "t", *flags) as small:
        many = zip_of({f"g{i}.txt": b"P e2-e4\n" for i in range(6)})
        (record,) = lines(
            requests.post(small.url + "api/check", files=[("file", ("m.zip", many))], timeout=60)
        )
        assert "6 files in the zip, more than the limit of 5" in str(record["error"])
        text = ("P e2-e4\np e7-e5\n" * 20_000).encode()  # 320 KB each, compresses well
        wide = zip_of({"a.txt": text, "b.txt": text})
        (record,) = lines(
            requests.post(small.url + "api/check", files=[("file", ("w.zip", wide))], timeout=60)
        )
        assert "expands to 640 KB, more than the limit of 500 KB" in str(record["error"])
        # a page's check of several games: its report is kept in the store, titled with
        # what was checked; nothing stays in the server's private folder...
        two = [("file", ("a.txt", EX1.read_bytes())), ("file", ("b.txt", EX5.read_bytes()))]
        report = requests.post(small.url + "check", files=two, timeout=60)
        assert report.status_code == 200 and "<h1>a.txt and b.txt</h1>" in report.text
        (private,) = (tmp_path / "t").glob("gcadj-serve-*")
        assert list(private.iterdir()) == []
    assert small.process.returncode == 0
    assert list((tmp_path / "t").glob("gcadj-serve-*")) == []  # ...deleted when it stops
    assert (tmp_path / "t" / "data-home" / "gcadj" / "results.sqlite3").is_file()  # kept


def test_names_that_climb_out_of_the_zip_are_refused_and_nothing_is_written(
    server: Server,
) -> None:
    game = EX1.read_bytes()
    archive = zip_of({"../evil.txt": game, "/etc/evil2.txt": game, "fine/ok.txt": game})
    response = requests.post(
        server.url + "api/check", files=[("file", ("x.zip", archive))], timeout=60
    )
    by_source = {str(r["source"]): r for r in lines(response)}
    assert "'..' climbs out of the archive" in str(by_source["x.zip/../evil.txt"]["error"])
    assert "absolute path" in str(by_source["x.zip//etc/evil2.txt"]["error"])
    assert (
        by_source["x.zip/fine/ok.txt"]["status"]
        == judge_source("x", text=EX1.read_text("utf-8"))[0].status
    )
    written = {p.name for p in server.tmp.parent.rglob("*")}
    assert "evil.txt" not in written and "evil2.txt" not in written
    assert not (ROOT.parent / "evil.txt").exists()


def test_an_api_check_answers_its_address_and_leaves_no_file(server: Server) -> None:
    answer = requests.post(
        server.url + "api/check", files=[("file", ("k.txt", EX1.read_bytes()))], timeout=60
    )
    (record,) = lines(answer)  # the lines keep check --json's shape...
    (expected,) = judge_source("k.txt", text=EX1.read_text("utf-8"))
    assert record == expected.to_json()
    where = answer.links["alternate"]["url"]  # ...the address is in the Link header
    assert answer.links["alternate"]["type"] == "text/html"
    assert re.fullmatch(re.escape(server.url) + r"r/[A-Za-z0-9_-]{24}", where)
    page = requests.get(where, timeout=30)
    assert page.status_code == 200 and f'<code id="fen">{expected.final_fen}</code>' in page.text
    (private,) = [p for p in server.tmp.iterdir() if p.name.startswith("gcadj-serve-")]
    assert private.stat().st_mode & 0o077 == 0  # the server's folder: its own
    assert list(private.iterdir()) == []


def test_a_private_address_is_refused_without_being_asked(server: Server) -> None:
    with FixtureServer({"/game.txt": page(EX1.read_bytes(), "text/plain")}) as site:
        for url in (site.url("/game.txt"), site.url("/game.txt").replace("127.0.0.1", "localhost")):
            response = requests.post(
                server.url + "api/check", files={"url": (None, url)}, timeout=60
            )
            (record,) = lines(response)
            assert record["source"] == url and record["status"] == "error"
            assert "loopback address; this server fetches public addresses only" in str(
                record["error"]
            )
        assert site.hits("/game.txt") == []  # no request reached it
    for url in (
        "http://169.254.169.254/latest/meta-data/",
        "http://10.1.2.3/x",
        "file:///etc/passwd",
    ):
        (record,) = lines(
            requests.post(server.url + "api/check", files={"url": (None, url)}, timeout=60)
        )
        assert record["status"] == "error" and "refused" in str(record["error"])


def test_a_game_page_is_fetched_and_judged_as_the_cli_judges_it(open_server: Server) -> None:
    with FixtureServer({"/game.txt": page(EX1.read_bytes(), "text/plain")}) as site:
        url = site.url("/game.txt")
        response = requests.post(
            open_server.url + "api/check", files={"url": (None, url)}, timeout=60
        )
        (record,) = lines(response)
        assert record == json.loads(judge_source(url, text=EX1.read_text("utf-8"))[0].json_line())
        assert len(site.hits("/game.txt")) == 1


def test_a_slow_source_times_out_and_does_not_block_other_checks(tmp_path: Path) -> None:
    """A source that never finishes (the hook `HANG_ENV` stalls its worker) gets the
    runner's deadline verdict, and one that kills its worker (`KILL_ENV`) the runner's
    death verdict, worded as the audit words them, while another check is judged
    meanwhile, and the rest of their own check goes on."""
    quick = EX1.read_bytes()
    hooks = {HANG_ENV: "stall", KILL_ENV: "boom"}
    with running_server(tmp_path / "t", "--source-timeout", "1", "--jobs", "2", env=hooks) as slow:
        import threading

        results: dict[str, requests.Response] = {}

        def post(name: str, files: list[tuple[str, tuple[str, bytes]]]) -> None:
            results[name] = requests.post(slow.url + "api/check", files=files, timeout=120)

        names = ("stall.txt", "boom.txt", "after.txt")
        worker = threading.Thread(
            target=post, args=("hooked", [("file", (name, quick)) for name in names])
        )
        worker.start()
        post("quick", [("file", ("quick.txt", quick))])  # judged while the other stalls
        (record,) = lines(results["quick"])
        assert record["status"] == "legal"
        worker.join(120)
        stalled, killed, after = lines(results["hooked"])
        assert (stalled["status"], killed["status"]) == ("error", "error")
        assert stalled["error"] == "stall.txt: gave up after 1 s, the limit for judging one source"
        assert killed["error"] == "boom.txt: the worker judging it died: signal 9 (SIGKILL)"
        assert after == record | {"source": "after.txt"}


def test_a_check_over_its_deadline_gives_every_source_left_a_verdict(tmp_path: Path) -> None:
    quick = EX1.read_bytes()
    flags = ("--job-timeout", "3", "--source-timeout", "0", "--jobs", "1")
    with running_server(tmp_path / "t", *flags, env={HANG_ENV: "stall"}) as server:
        files = [("file", (name, quick)) for name in ("first.txt", "stall.txt", "last.txt")]
        response = requests.post(server.url + "api/check", files=files, timeout=120)
        first, stalled, last = lines(response)
    assert first["status"] == "legal"
    over = "not judged: the run took longer than 3 s, its limit"
    assert (stalled["error"], last["error"]) == (f"stall.txt: {over}", f"last.txt: {over}")


def address_space_limit(pid: int) -> str:
    limits = Path(f"/proc/{pid}/limits").read_text()
    return next(line.split()[3] for line in limits.splitlines() if "address space" in line)


def test_memory_caps_the_servers_workers_not_the_server(tmp_path: Path) -> None:
    """The worker judging a check (stalled by the hook, so it is surely at work, until its
    deadline) has the cap of --memory; the server has what this process has."""
    import threading

    flags = ("--memory", "1500", "--jobs", "1", "--source-timeout", "5")
    with running_server(tmp_path / "t", *flags, env={HANG_ENV: "stall"}) as server:
        answers: list[requests.Response] = []

        def post() -> None:
            url = server.url + "api/check?name=stall.txt"
            answers.append(requests.post(url, data=b"x", timeout=120))

        asking = threading.Thread(target=post)
        asking.start()
        pattern = rf"{HANG_ENV}: worker (\d+) stalls on stall\.txt"
        said = wait_for(lambda: re.search(pattern, server.log_text()))
        assert address_space_limit(int(said[1])) == str(1500 * 10**6)
        assert address_space_limit(server.process.pid) == address_space_limit(os.getpid())
        asking.join(120)
        (record,) = lines(answers[0])
        assert record["error"] == "stall.txt: gave up after 5 s, the limit for judging one source"


def test_hostile_requests_get_clear_answers_never_a_500(server: Server) -> None:
    url = server.url
    cases = [
        requests.post(
            url + "api/check",
            data=b"--x\r\nbroken",
            headers={"content-type": "multipart/form-data; boundary=x"},
            timeout=30,
        ),
        requests.post(
            url + "api/check", data=b"", headers={"content-type": "multipart/form-data"}, timeout=30
        ),
        requests.post(
            url + "check",
            data=b"text=",
            headers={"content-type": "application/x-www-form-urlencoded"},
            timeout=30,
        ),
        requests.get(url + "r/../../etc/passwd", timeout=30),
        requests.get(url + "r/nope/g/..%2f..%2fx.html", timeout=30),
        requests.get(url + "r/nope/results.jsonl", timeout=30),
        requests.post(
            url + "api/check", files=[("file", ("z.zip", b"PK\x03\x04garbage"))], timeout=30
        ),
        requests.post(
            url + "api/check?name=%3Cscript%3E",
            data="\ufeff\x00\x01<script>alert(1)</script>".encode(),
            timeout=30,
        ),
    ]
    for response in cases:
        assert response.status_code < 500, response.text
        assert "Traceback" not in response.text
        assert "content-security-policy" in response.headers
    assert cases[2].status_code == 400 and "Nothing to check" in cases[2].text
    (record,) = lines(cases[6])
    assert "not a readable zip archive" in str(record["error"])
    (record,) = lines(cases[7])
    assert record["source"] == "<script>"


def test_gcadj_help_does_not_load_the_web_framework() -> None:
    """Nor any module of the server but its defaults (plain numbers the command line's
    options show: `gcadj.web.defaults`) and the package that holds them."""
    code = (
        "import sys\nfrom typer.testing import CliRunner\nfrom gcadj.cli.main import app\n"
        "out = CliRunner().invoke(app, ['--help'])\nassert 'serve' in out.output, out.output\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('starlette', 'uvicorn', 'python_multipart', 'gcadj') and "
        "(not m.startswith('gcadj') or m.startswith('gcadj.web'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={**os.environ}
    )
    assert done.stdout.strip() == "['gcadj.web', 'gcadj.web.defaults']"


def test_a_long_check_shows_its_progress_and_can_be_deleted(server: Server) -> None:
    """A page's check that outlasts the first seconds answers a progress page (which
    reloads itself); deleting the check stops it and removes its folder."""
    # 112,000 plies each (about 1 s to judge), a space after some: text that compresses
    # as text does, not a thousandfold (the server refuses a zip that expands like a bomb)
    rng = random.Random(7)
    plies = ["N g1-f3", "n g8-f6", "N f3-g1", "n f6-g8"]

    def shuffle() -> bytes:
        return "".join(f"{plies[i % 4]}{' ' * rng.randrange(2)}\n" for i in range(112_000)).encode()

    archive = zip_of({f"long{i:02d}.txt": shuffle() for i in range(16)})
    files = [("file", ("a.txt", EX1.read_bytes())), ("file", ("long.zip", archive))]
    browser = requests.Session()  # the browser that made the check: it holds the cookie
    started = browser.post(server.url + "check", files=files, timeout=120, allow_redirects=False)
    assert started.status_code == 303
    where = server.url + started.headers["location"].lstrip("/")
    progress = requests.get(where, timeout=30)
    assert progress.status_code == 200
    assert '<meta http-equiv="refresh"' in progress.text
    judged = re.search(r"Judged (\d+) of 17 sources", progress.text)
    assert judged is not None and 1 <= int(judged[1]) < 17
    (private,) = [p for p in server.tmp.iterdir() if p.name.startswith("gcadj-serve-")]
    assert len(list(private.iterdir())) == 1
    refused = requests.post(where + "/delete", timeout=60)  # another browser may not
    assert refused.status_code == 403 and "Only the browser that made" in refused.text
    deleted = browser.post(where + "/delete", timeout=60)
    assert deleted.status_code == 200 and "deleted" in deleted.text
    assert list(private.iterdir()) == []
    assert requests.get(where, timeout=30).status_code == 404


def test_a_log_of_the_newer_preset_needs_no_pocket_file(server: Server) -> None:
    """The pocket-file menu starts at "from the log", and the API without pocket_file
    reads a p1/p8 log as the CLI does."""
    log = (FIXTURES / "parse" / "pocket_p.txt").read_bytes()
    (record,) = lines(requests.post(server.url + "api/check?name=p.txt", data=log, timeout=30))
    (expected,) = judge_source("p.txt", text=log.decode("utf-8"))
    assert record == expected.to_json() and record["status"] == "illegal"
    given = requests.post(server.url + "api/check?pocket_file=i", data=log, timeout=30)
    assert lines(given)[0]["status"] == "syntax-error"
    form = requests.get(server.url, timeout=30).text
    menu = form[form.index('<select name="pocket_file">') :]
    assert menu.index('<option value="">from the log</option>') < menu.index('value="i"')


def test_checks_at_once_keep_every_game_of_each(server: Server) -> None:
    """Two checks judged at once by two workers, each writing its games to the store while
    the other does, and pages read meanwhile: each result keeps all its games, in order,
    as its answer streamed them."""
    logs = sorted((FIXTURES / "logs").rglob("*.txt"))[:40]
    answers: dict[str, requests.Response] = {}

    def check(name: str) -> None:
        archive = zip_of({f"{name}/{p.name}": p.read_bytes() for p in logs})
        answers[name] = requests.post(
            server.url + "api/check", files=[("file", (f"{name}.zip", archive))], timeout=120
        )

    threads = [threading.Thread(target=check, args=(name,)) for name in ("one", "two")]
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        assert requests.get(server.url, timeout=30).status_code == 200  # a page meanwhile
        time.sleep(0.2)
    for name, answer in answers.items():
        streamed = answer.text.splitlines()
        assert len(streamed) == len(logs)
        where = answer.links["alternate"]["url"]
        kept = requests.get(f"{where}/{name}.jsonl", timeout=30)
        assert kept.text.splitlines() == streamed
        report = requests.get(where, timeout=30).text
        assert f"<h1>{name}.zip</h1>" in report and report.count('href="/r/') >= len(logs)


def test_the_api_adjudicates_each_game_when_asked(server: Server) -> None:
    """With adjudicate=1 the lines are `gcadj adjudicate --json`'s (the server's budget);
    without it, `gcadj check --json`'s exactly."""
    import gcadj
    from gcadj.web.defaults import ADJUDICATE_DEPTH

    log = b'[FEN "1k6/8/2K5/8/8/8/8/7R[] b - - 0 1"]\nk b8-a8\n'
    url = server.url + "api/check?name=m.txt"
    (record,) = lines(requests.post(url + "&adjudicate=1", data=log, timeout=60))
    (expected,) = gcadj.adjudicate(
        "m.txt", text=log.decode(), mate_depth=ADJUDICATE_DEPTH, budget=10.0
    )
    want = expected.to_json()
    for answer in (record, want):
        del answer["adjudication"]["seconds"]  # wall clock: the one value that varies
    assert record == want and record["adjudication"]["class"] == "proven"
    (plain,) = lines(requests.post(url, data=log, timeout=60))
    assert plain == {
        key: value for key, value in expected.to_json().items() if key != "adjudication"
    }
