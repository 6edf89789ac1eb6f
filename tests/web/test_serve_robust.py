"""`gcadj serve` never answers 500 and never leaves a result running (issue 39, items 1,
5, 6 and 8): API clients that hang up, a full disk, download names in any script, path
parameters out of range, a torn store, the lock on the data folder, a killed server.

Every test talks to a real ``gcadj serve`` (uvicorn on a free port of 127.0.0.1) over real
sockets, and reads the real SQLite file of its data folder; the full disk is the server's
own file size limit (``RLIMIT_FSIZE``, set on the running process: every write past it
fails with EFBIG, as on a full disk). Expected verdicts come from the library.
"""

from __future__ import annotations

import contextlib
import json
import re
import resource
import signal
import socket
import sqlite3
import subprocess
import threading
from pathlib import Path
from urllib.parse import unquote

import requests
from conftest import FIXTURES, GCADJ, ROOT
from serving import (
    Server,
    connect_from,
    multipart,
    request_from,
    running_server,
    stop,
    wait_for,
    zip_of,
)

from gcadj.app.exit_codes import EXIT_CANNOT_WRITE
from gcadj.app.pipeline import judge_source
from gcadj.app.pool import HANG_ENV
from gcadj.web.check_work import file_stem
from gcadj.web.jobs import check_name

LEGAL = FIXTURES / "logs" / "legal" / "checkmate.txt"
EX1 = FIXTURES / "examples" / "ex1_pocket_mutation_drops.txt"
WAIT = 60.0  # the most any answer may take here (a loaded machine): never a speed test


def states(data: Path) -> dict[str, str]:
    """Every result the store holds, by id: its state (read, and the connection closed:
    one left open would keep the server from recovering the store after a failed write)."""
    with contextlib.closing(sqlite3.connect(data / "results.sqlite3")) as db:
        return dict(db.execute("SELECT id, state FROM results").fetchall())


def games_kept(data: Path) -> int:
    """How many games the store holds, of every result."""
    if not (data / "results.sqlite3").exists():
        return 0
    with contextlib.closing(sqlite3.connect(data / "results.sqlite3")) as db:
        (count,) = db.execute("SELECT count(*) FROM games").fetchone()
        return int(count)


def result_id(location: str) -> str:
    found = re.search(r"/r/([A-Za-z0-9_-]+)", location)
    assert found is not None, location
    return found[1]


# -- 1. every result reaches a final state ----------------------------------------------------


def hang_up_after_first_line(server: Server, body: bytes, content_type: str) -> str:
    """POST /api/check, read the answer until its first JSON line, hang up: the result's id."""
    with connect_from(server) as sock:
        head = (
            f"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        sock.sendall(head.encode() + body)
        received = b""
        while b"\r\n\r\n" not in received or b"{" not in received.partition(b"\r\n\r\n")[2]:
            chunk = sock.recv(65536)
            assert chunk, received
            received += chunk
    link = re.search(rb"(?i)\r\nlink: <([^>]+)>", received)
    assert link is not None, received
    return result_id(link[1].decode())


def test_a_temporary_folder_too_deep_for_a_socket_still_serves_and_judges(tmp_path: Path) -> None:
    """A forkserver's socket lives under TMPDIR, and a Unix socket's path is at most 108
    bytes: under a deep TMPDIR the workers start another way and the server judges as
    ever (it failed to start its workers, after printing its address, and refused every
    connection)."""
    deep = tmp_path / ("d" * 50) / ("e" * 50)
    assert len(str(deep)) > 108
    with running_server(deep, "--jobs", "1") as server:
        answer = requests.post(
            server.url + "api/check", files=[("file", ("g.txt", LEGAL.read_bytes()))], timeout=WAIT
        )
        assert answer.status_code == 200
        expected = judge_source("g.txt", text=LEGAL.read_text("utf-8"))[0].status
        assert json.loads(answer.text.splitlines()[0])["status"] == expected


def test_an_api_client_that_hangs_up_leaves_no_result_behind(tmp_path: Path) -> None:
    """Each check's second source stalls its worker (the hook), so every check is still
    judging when its client hangs up after the first line: each result is deleted, as
    the manual says, and none stays running; a check that reads to the end is kept."""
    data = LEGAL.read_bytes()
    files = [("file", name, data) for name in ("first.txt", "stall.txt", "third.txt")]
    body, headers = multipart(files)
    flags = ("--jobs", "1", "--source-timeout", "60")
    with running_server(tmp_path / "t", *flags, env={HANG_ENV: "stall"}) as server:
        gone = [hang_up_after_first_line(server, body, headers["content-type"]) for _ in range(3)]
        store = server.tmp / "data-home" / "gcadj"
        wait_for(lambda: not set(gone) & set(states(store)), WAIT)
        kept = requests.post(
            server.url + "api/check", files=[("file", ("whole.txt", data))], timeout=WAIT
        )
        assert kept.status_code == 200 and len(kept.text.splitlines()) == 1
        assert list(states(store).values()) == ["done"]
        for rid in gone:
            assert requests.get(f"{server.url}r/{rid}", timeout=WAIT).status_code == 404


def test_a_full_disk_ends_a_result_all_the_same_without_a_traceback(tmp_path: Path) -> None:
    """The disk fills while a check judges (its second source stalls, then passes its
    deadline): nothing more can be written, so the result cannot be finished, and its
    page is answered 503 (the store cannot be read either). The log says why in a line,
    never a traceback, and once the disk has room again the result is ended in the
    store, not left running, and its page says the check did not finish."""
    data = LEGAL.read_bytes()
    flags = ("--jobs", "1", "--source-timeout", "3")
    with running_server(tmp_path / "t", *flags, env={HANG_ENV: "stall"}) as server:
        answers: list[requests.Response] = []

        def post() -> None:
            files = [("file", ("first.txt", data)), ("file", ("stall.txt", data))]
            answers.append(
                requests.post(
                    server.url + "check", files=files, timeout=WAIT, allow_redirects=False
                )
            )

        poster = threading.Thread(target=post)
        poster.start()
        wait_for(lambda: "stalls on stall.txt" in server.log_text(), WAIT)
        store = server.tmp / "data-home" / "gcadj"
        wait_for(lambda: games_kept(store) == 1, WAIT)  # the first game is kept first
        _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE, (1, hard))  # full
        poster.join(WAIT)
        (started,) = answers
        rid = result_id(started.headers["location"])
        wait_for(lambda: "could not be interrupted yet" in server.log_text(), WAIT)
        while_full = requests.get(f"{server.url}r/{rid}", timeout=WAIT)  # reading fails too
        assert while_full.status_code == 503, while_full.text
        assert "gcadj cannot read or keep results now" in while_full.text
        assert states(store)[rid] == "running"  # the disk is full: not ended yet
        resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE, (hard, hard))  # room again
        wait_for(lambda: states(store)[rid] == "interrupted", WAIT)
        page = requests.get(f"{server.url}r/{rid}", timeout=WAIT)
        assert page.status_code == 200 and "This check did not finish" in page.text
        assert 'href="/r/' + rid + '/g/1"' in page.text  # the game judged before is linked
        assert server.log_text().count("could not be interrupted yet") == 1  # said once


# -- 5. download names in any script -----------------------------------------------------------

NAMES = [
    "партия",  # Cyrillic
    "棋譜",  # CJK
    "משחק",  # Hebrew
    "مباراة",  # Arabic
    "παρτίδα",  # Greek
    "खेल",  # Devanagari
    "เกม",  # Thai
    "게임",  # Hangul
    "ゲーム",  # Katakana
    "Ōsaka-ŝako",  # Latin beyond Latin-1
    "café",  # Latin-1
    "♞ knight",  # a symbol
]


def disposition_name(header: str) -> str:
    """The name a Content-Disposition gives, as RFC 6266 says a client reads it: the
    UTF-8 ``filename*`` when there is one, and its ASCII ``filename`` must be there too."""
    assert header.isascii() and header.startswith("attachment; ")
    assert re.search(r'filename="[\x20-\x7e]+"', header), header
    extended = re.search(r"filename\*=UTF-8''([^;\s]+)", header)
    assert extended is not None, header
    return unquote(extended[1], encoding="utf-8", errors="strict")


def test_downloads_are_named_in_any_script(tmp_path: Path) -> None:
    """A result uploaded under a name in any script downloads as JSON lines and CSV under
    that name (the report's own links too): never a 500."""
    data = EX1.read_bytes()
    archive = zip_of({"a.txt": data, "b.txt": LEGAL.read_bytes()})
    with running_server(tmp_path / "t", "--jobs", "1", "--adjudicate-budget", "0") as server:
        for name in NAMES:
            answer = requests.post(
                server.url + "api/check", files=[("file", (f"{name}.txt", data))], timeout=WAIT
            )
            where = answer.links["alternate"]["url"]
            stem = file_stem(f"{name}.txt")
            download = requests.get(f"{where}/{stem}.jsonl", timeout=WAIT)
            assert download.status_code == 200, (name, download.text)
            assert disposition_name(download.headers["content-disposition"]) == f"{stem}.jsonl"
            assert download.text.splitlines() == [
                judge_source(f"{name}.txt", text=data.decode())[0].json_line()
            ]
        started = requests.post(
            server.url + "check",
            files=[("file", ("партия.zip", archive))],
            timeout=WAIT,
            allow_redirects=False,
        )
        report = wait_for(
            lambda: (
                (r := requests.get(server.url + started.headers["location"][1:], timeout=WAIT))
                and "refresh" not in r.text
                and r
            )
        )
        links = re.findall(r'href="(/r/[^"]+\.(?:jsonl|csv))"', report.text)
        assert len(links) == 2
        for link in links:
            download = requests.get(server.url + link[1:], timeout=WAIT)
            assert download.status_code == 200, (link, download.text)
            wanted = unquote(link.rsplit("/", 1)[1])
            assert disposition_name(download.headers["content-disposition"]) == wanted
        assert check_name(["партия.zip"]) in report.text


# -- 6. path parameters ------------------------------------------------------------------------


def test_path_parameters_out_of_range_are_404(tmp_path: Path) -> None:
    with running_server(tmp_path / "t", "--jobs", "1") as server:
        answer = requests.post(
            server.url + "api/check?name=g.txt", data=LEGAL.read_bytes(), timeout=WAIT
        )
        real = answer.links["alternate"]["url"].rsplit("/", 1)[1]
        assert requests.get(f"{server.url}r/{real}/g/1", timeout=WAIT).status_code == 200
        paths = [
            f"r/{real}/g/99999999999999999999999",
            f"r/{real}/g/{2**63}",
            f"r/{real}/g/{2**31}",
            f"r/{real}/g/0",
            f"r/{real}/g/2",
            f"r/{real}/g/00000000000000000000000000001000",
            "r/" + "x" * 10_000,
            "r/" + "x" * 10_000 + "/g/1",
            f"r/{real}%00/g/1",
            "r/%00%00/results.jsonl",
            "r/%D0%BF%D0%B0%D1%80%D1%82%D0%B8%D1%8F",
            f"r/{real[:-1]}!/g/1",
            f"r/{real}x/g/1",
            "r/" + "-" * 24 + "/delete",
        ]
        for path in paths:
            method = requests.post if path.endswith("/delete") else requests.get
            response = method(server.url + path, timeout=WAIT)
            assert response.status_code == 404, (path, response.status_code, response.text[:300])
        api = requests.get(f"{server.url}api/r/{real}/g/{2**80}", timeout=WAIT)
        assert api.status_code == 404


# -- 8. the store: torn, locked, interrupted ---------------------------------------------------


def serve_once(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GCADJ, "serve", "--port", "0", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def test_a_torn_store_is_refused_at_start_with_one_line(tmp_path: Path) -> None:
    """A store whose last 1,000 bytes are cut (a disk that lost its end) is refused before
    the server listens, in one line, with exit 6; never a page answered 500 later."""
    data = tmp_path / "data"
    with running_server(tmp_path / "t", "--jobs", "1", "--data", str(data)) as server:
        for i in range(20):
            files = [("file", (f"g{i}.txt", EX1.read_bytes()))]
            assert requests.post(server.url + "api/check", files=files, timeout=WAIT).ok
    database = data / "results.sqlite3"
    whole = database.read_bytes()
    database.write_bytes(whole[:-1000])
    done = serve_once("--data", str(data))
    assert done.returncode == EXIT_CANNOT_WRITE, done.stderr
    assert done.stderr.count("\n") == 1 and done.stdout == ""
    assert done.stderr.startswith(f"gcadj serve: {database} is damaged (torn: ")
    database.write_bytes(whole)  # as it was: served again
    with running_server(tmp_path / "t2", "--jobs", "1", "--data", str(data)) as server:
        assert requests.get(server.url, timeout=WAIT).ok


def test_the_data_folder_is_locked_by_the_process_not_by_a_file(tmp_path: Path) -> None:
    """No file of the data folder can be deleted to let a second server share it: the
    lock is the first server's, on the database itself, and goes with its process."""
    data = tmp_path / "data"
    with running_server(tmp_path / "t", "--jobs", "1", "--data", str(data)):
        (data / "serve.lock").unlink(missing_ok=True)  # what once let a second server in
        assert sorted(p.name for p in data.iterdir() if "lock" in p.name) == []
        done = serve_once("--data", str(data))
        assert done.returncode == EXIT_CANNOT_WRITE
        assert done.stderr.strip() == (
            f"gcadj serve: another gcadj serve is using the data folder {data}; stop it, or "
            "give --data another folder"
        )
    with running_server(tmp_path / "t2", "--jobs", "1", "--data", str(data)) as server:
        assert requests.get(server.url, timeout=WAIT).ok  # free once the first has stopped


def test_a_result_left_running_by_a_killed_server_says_it_was_interrupted(tmp_path: Path) -> None:
    """SIGKILL while a check of two sources judges its second (stalled by the hook): when
    the server starts again, the result's page says the check did not finish, with the
    game judged before, rather than passing that one game off as the whole result."""
    data = tmp_path / "data"
    flags = ("--jobs", "1", "--data", str(data))
    with running_server(tmp_path / "t", *flags, env={HANG_ENV: "stall"}) as server:
        body, headers = multipart(
            [("file", "first.txt", LEGAL.read_bytes()), ("file", "stall.txt", b"x")]
        )
        sock = connect_from(server)
        head = (
            f"POST /check HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            f"Content-Type: {headers['content-type']}\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        sock.sendall(head.encode() + body)
        wait_for(lambda: "stalls on stall.txt" in server.log_text(), WAIT)
        (rid,) = wait_for(lambda: list(states(data)))
        wait_for(lambda: games_kept(data) == 1, WAIT)  # first.txt kept (a loaded machine
        server.process.send_signal(signal.SIGKILL)  # may take a moment after the stall)
        server.process.wait(WAIT)
        sock.close()
        stop(server)
    assert states(data) == {rid: "running"}
    with running_server(tmp_path / "t2", "--jobs", "1", "--data", str(data)) as again:
        page = requests.get(f"{again.url}r/{rid}", timeout=WAIT)
        assert page.status_code == 200 and "This check did not finish" in page.text
        assert f'href="/r/{rid}/g/1"' in page.text
        game = requests.get(f"{again.url}r/{rid}/g/1", timeout=WAIT)
        assert game.status_code == 200 and 'id="board"' in game.text
    assert states(data) == {rid: "interrupted"}


def test_no_answer_is_a_500_whatever_the_path(tmp_path: Path) -> None:
    """Odd but well-formed requests on every route: each is answered, none with 500."""
    with running_server(tmp_path / "t", "--jobs", "1") as server:
        for path in ("/r/", "/r//g/1", "/r/a/g/-1", "/r/a/g/1.5", "/%FF", "/r/%FF%FE"):
            with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as sock:
                sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                first = sock.recv(4096).split(b"\r\n", 1)[0]
            assert first.startswith(b"HTTP/1.1 4"), (path, first)
        answer = request_from(server, "GET", "/r/" + "a" * 24 + "/%D0%BF.csv", source="127.0.0.2")
        assert answer.status == 404


def test_a_signal_as_the_address_is_printed_asks_the_server_to_stop() -> None:
    """From the printed address on, Ctrl-C and SIGTERM reach uvicorn's own handler (the
    server stops gracefully), even before uvicorn listens for them: one that came between
    the address and the event loop used to interrupt asyncio mid-start, with a traceback.
    The handlers before are given back to be put back."""
    from types import FrameType

    from gcadj.web.serve import stops_from_now

    received: list[int] = []

    def stop(number: int, frame: FrameType | None) -> None:
        received.append(number)

    before = stops_from_now(stop)
    try:
        signal.raise_signal(signal.SIGINT)  # no KeyboardInterrupt: asked to stop
        signal.raise_signal(signal.SIGTERM)  # no death by signal either
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
    assert received == [signal.SIGINT, signal.SIGTERM]
    assert signal.getsignal(signal.SIGINT) is before[signal.SIGINT]
    assert signal.getsignal(signal.SIGTERM) is before[signal.SIGTERM]
