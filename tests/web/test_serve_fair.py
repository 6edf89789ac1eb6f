"""No client of `gcadj serve` locks out the rest (issue 39, items 2, 3, 4 and 7): slow
bodies, bodies that declare much and send little, idle connections, uploads of any shape,
and checks that would keep every worker.

Clients come from different addresses of the loopback network (127.0.0.2, 127.0.0.3...),
as different machines would; the server tells them apart by address (or, told it sits
behind a proxy, by ``X-Forwarded-For``). Every test talks to a real ``gcadj serve`` over
real sockets and asserts what was answered and in which order, never how fast: a
legitimate client gets its verdict while the others still hold what they hold.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import requests
from conftest import FIXTURES
from serving import (
    Server,
    admitted,
    connect_from,
    multipart,
    request_from,
    running_server,
    stalled,
    wait_for,
    zip_of,
)

from gcadj.analysis.search import TICK
from gcadj.app.pipeline import judge_source
from gcadj.app.pool import HANG_ENV

LEGAL = FIXTURES / "logs" / "legal" / "checkmate.txt"
EX1 = FIXTURES / "examples" / "ex1_pocket_mutation_drops.txt"  # unfinished: adjudicated
WAIT = 60.0  # the most any answer may take here (a loaded machine): never a speed test


def verdict_of(answer_text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in answer_text.splitlines()]


def paste_from(server: Server, source: str, data: bytes, name: str = "g.txt") -> list[dict]:  # type: ignore[type-arg]
    """A single game pasted to the API from `source`: its verdict (asserted 200)."""
    answer = request_from(
        server,
        "POST",
        f"/api/check?name={name}",
        data,
        {"content-type": "text/plain"},
        source=source,
    )
    assert answer.status == 200, (answer.status, answer.text)
    return verdict_of(answer.text)


def expected(name: str, data: bytes) -> list[dict[str, object]]:
    return [json.loads(judge_source(name, text=data.decode("utf-8"))[0].json_line())]


def post_head(server: Server, length: int, path: str = "/api/check") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        f"Content-Type: text/plain\r\nContent-Length: {length}\r\n\r\n"
    ).encode()


def closed_by_server(sock: socket.socket, wait: float = 0.0) -> bool:
    """Has the server closed this connection (or answered and closed)?"""
    sock.settimeout(wait if wait > 0 else 0.001)
    try:
        return sock.recv(65536, socket.MSG_PEEK) == b""
    except (TimeoutError, BlockingIOError):
        return False
    except OSError:
        return True


def answered_503(sock: socket.socket) -> bool:
    sock.settimeout(0.001)
    try:
        return sock.recv(12, socket.MSG_PEEK).startswith(b"HTTP/1.1 503")
    except (TimeoutError, BlockingIOError, OSError):
        return False


def in_background(
    server: Server, path: str, body: bytes, headers: dict[str, str], source: str
) -> None:
    """POST from `source` in a thread of its own, its answer not awaited (nor its failure,
    when the server stops first)."""

    def post() -> None:
        with contextlib.suppress(OSError, http.client.HTTPException):
            request_from(server, "POST", path, body, headers, source=source)

    threading.Thread(target=post, daemon=True).start()


@contextlib.contextmanager
def sockets() -> Iterator[list[socket.socket]]:
    held: list[socket.socket] = []
    try:
        yield held
    finally:
        for sock in held:
            sock.close()


# -- 3. idle connections ------------------------------------------------------------------------


def test_one_clients_idle_connections_do_not_fill_the_server(tmp_path: Path) -> None:
    """With 256 files the server takes 128 connections; one client opening 200 idle ones
    keeps 50 (its share), the others are closed at once, and another client is served."""
    flags = ("--jobs", "1", "--client-timeout", "60")
    with running_server(tmp_path / "t", *flags, open_files=256) as server, sockets() as idle:
        for _ in range(200):
            idle.append(connect_from(server, "127.0.0.2"))
        wait_for(lambda: sum(closed_by_server(s) for s in idle) == 150, WAIT)
        assert requests.get(server.url, timeout=WAIT).status_code == 200
        assert paste_from(server, "127.0.0.3", LEGAL.read_bytes()) == expected(
            "g.txt", LEGAL.read_bytes()
        )
        assert sum(not closed_by_server(s) for s in idle) == 50  # still open, idle


# -- 2. slow bodies ----------------------------------------------------------------------------


def test_slow_bodies_of_a_few_clients_do_not_take_every_request(tmp_path: Path) -> None:
    """225 uploads crawling in (45 from each of five addresses) would hold more than the
    200 requests the server handles at once; each client has 20 of them (its share), so
    125 are turned away at once and another client's page and paste are answered."""
    flags = ("--jobs", "1", "--client-timeout", "60")
    with running_server(tmp_path / "t", *flags) as server, sockets() as slow:
        for n in range(225):
            sock = connect_from(server, f"127.0.0.{2 + n % 5}")
            sock.sendall(post_head(server, 100_000) + b"P e2-e4\n")
            slow.append(sock)
        wait_for(lambda: sum(answered_503(s) for s in slow) == 125, WAIT)
        assert requests.get(server.url, timeout=WAIT).status_code == 200
        data = LEGAL.read_bytes()
        assert paste_from(server, "127.0.0.9", data) == expected("g.txt", data)
        refusal = next(s for s in slow if answered_503(s)).recv(65536)
        assert b"requests from your address are being handled" in refusal


def test_bodies_that_declare_much_and_send_little_hold_only_what_they_sent(
    tmp_path: Path,
) -> None:
    """Three bodies each declaring 1 MB of the 1.5 MB budget, and sending 1 KB: the budget
    is charged for what arrived, so another client's 0.6 MB paste is judged."""
    flags = ("--jobs", "1", "--max-upload", "1", "--max-buffer", "1.5", "--client-timeout", "60")
    data = LEGAL.read_bytes()
    body = data + b"\n" * (600_000 - len(data))
    with running_server(tmp_path / "t", *flags) as server, sockets() as trickling:
        for _ in range(3):
            sock = connect_from(server, "127.0.0.2")
            sock.sendall(post_head(server, 1_000_000) + b"\n" * 1000)
            trickling.append(sock)
        assert paste_from(server, "127.0.0.3", body) == expected("g.txt", body)
        assert not any(closed_by_server(s) for s in trickling)  # still being received


def test_one_client_holds_at_most_its_share_of_the_upload_budget(tmp_path: Path) -> None:
    """The one worker is stalled, so checks wait, each holding its upload. One client's
    0.9 MB waits; its next 0.2 MB would take it past its share (1 MB) and is answered
    503, while another client's 0.6 MB is taken (the budget is 2 MB)."""
    flags = ("--jobs", "1", "--max-upload", "1", "--max-buffer", "2", "--client-buffer", "1")
    data = LEGAL.read_bytes()
    body = data + b"\n" * (900_000 - len(data))
    with running_server(tmp_path / "t", *flags, env={HANG_ENV: "stall"}) as server:
        held = [stalled(server)]
        try:
            held.append(admitted(server, body, source="127.0.0.2"))
            assert held[-1].status == 200
            over = admitted(server, body[:200_000], source="127.0.0.2")
            assert (
                over.status == 503 and "of your uploads are being received or judged" in over.text
            )
            held.append(admitted(server, body[:600_000], source="127.0.0.3"))
            assert held[-1].status == 200
        finally:
            for check in held:
                check.close()


def test_a_body_past_its_deadline_is_cut_off_however_it_keeps_coming(tmp_path: Path) -> None:
    flags = ("--jobs", "1", "--body-timeout", "2", "--min-upload-rate", "0")
    with running_server(tmp_path / "t", *flags) as server:
        with connect_from(server, "127.0.0.2") as sock:
            sock.sendall(post_head(server, 100_000))

            def cut() -> bool:
                with contextlib.suppress(OSError):
                    sock.sendall(b"\n")  # a byte at a time, for ever
                return closed_by_server(sock, 0.2)

            wait_for(cut, WAIT)
        wait_for(lambda: "came too slowly" in server.log_text(), WAIT)


# -- 4. uploads of any shape spill -------------------------------------------------------------


def test_small_parts_and_url_encoded_fields_are_not_kept_in_memory(tmp_path: Path) -> None:
    """A request keeps at most 2 MB in memory, whatever its shape: ten parts of 1.5 MB (each
    under the limit) go to files but the first, and a URL-encoded text of 3 MB goes to a
    file decoded, as it streams in. The checks wait (the one worker is stalled by another
    client's check), so their uploads are still held when the folder is looked at."""
    flags = ("--jobs", "1", "--max-upload", "25", "--source-timeout", "60")
    part = (LEGAL.read_text() + "\n" * 1_500_000)[:1_500_000].encode()
    with running_server(tmp_path / "t", *flags, env={HANG_ENV: "stall"}) as server:
        (folder,) = wait_for(lambda: list(server.tmp.glob("gcadj-upload-*")), WAIT)
        stall = stalled(server)
        body, headers = multipart([("file", f"g{i}.txt", part) for i in range(10)])
        in_background(server, "/check", body, headers, "127.0.0.2")
        spilled = wait_for(
            lambda: (
                len(found := [p for p in folder.iterdir() if p.stat().st_size == len(part)]) == 10
                and found
            ),
            WAIT,
        )
        assert all(p.read_bytes() == part for p in spilled)
        text = ("P e2-e4 % + & = é\n" * 200_000)[:3_000_000]
        form = ("text=" + quote(text, safe="") + "&pocket_file=").encode()
        urlencoded = {"content-type": "application/x-www-form-urlencoded"}
        in_background(server, "/check", form, urlencoded, "127.0.0.3")
        decoded = text.encode()
        wait_for(
            lambda: any(
                p.stat().st_size == len(decoded) and p.read_bytes() == decoded
                for p in folder.iterdir()
            ),
            WAIT,
        )
        stall.close()


# -- 7. fair scheduling ------------------------------------------------------------------------


def test_a_single_game_is_judged_while_another_clients_archives_wait(tmp_path: Path) -> None:
    """One worker; client A sends two archives of unfinished games, each game adjudicated
    (0.3 s), and a third (turned away: two checks is its share). Client B then pastes one
    game: B's verdict comes while A's first archive is still being judged and before A's
    second has a single verdict: A's check gave the worker up between two sources."""
    games = 20  # 6 s of searches an archive, whatever the load: the budget is wall clock
    archive = zip_of({f"g{i:02d}.txt": EX1.read_bytes() for i in range(games)})
    flags = ("--jobs", "1", "--client-checks", "2", "--adjudicate-budget", "0.3")
    with running_server(tmp_path / "t", *flags) as server:
        events: list[str] = []
        lines: dict[str, int] = {}
        lock = threading.Lock()

        def archive_check(name: str) -> None:
            body, headers = multipart([("file", f"{name}.zip", archive)])
            connection = http.client.HTTPConnection(
                "127.0.0.1", server.port, timeout=WAIT * 3, source_address=("127.0.0.2", 0)
            )
            connection.request("POST", "/api/check?adjudicate=1", body, headers)
            response = connection.getresponse()
            assert response.status == 200
            with lock:
                events.append(f"{name} admitted")
            for n, _ in enumerate(response, 1):
                lines[name] = n
                if n == 1:
                    with lock:
                        events.append(f"{name} first")
            with lock:
                events.append(f"{name} done")
            connection.close()

        first = threading.Thread(target=archive_check, args=("a1",))
        first.start()
        wait_for(lambda: "a1 first" in events, WAIT)
        second = threading.Thread(target=archive_check, args=("a2",))
        second.start()
        wait_for(lambda: "a2 admitted" in events, WAIT)
        third = request_from(
            server, "POST", "/api/check?name=x.txt", b"P e2-e4\n", source="127.0.0.2"
        )
        assert third.status == 503 and "you have 2 checks running or waiting" in third.text
        data = EX1.read_bytes()
        (verdict,) = paste_from(server, "127.0.0.3", data, "b.txt")
        with lock:
            events.append("b done")
            seen = list(events)
        assert verdict == expected("b.txt", data)[0]
        assert seen == ["a1 admitted", "a1 first", "a2 admitted", "b done"], seen
        first.join(WAIT * 3)
        second.join(WAIT * 3)
        assert lines == {"a1": games, "a2": games}


def test_the_adjudication_budget_cuts_searches_once_it_is_spent(tmp_path: Path) -> None:
    """A bucket of 0.3 s refilled at 0.005 s a second: the first games of a check are
    adjudicated in full (up to their budget each), and once the bucket is spent the next
    ones are adjudicated with no mate searched, so a check of many unfinished games
    cannot take the machine for long. With the default share, none goes without. The
    budget, 1 s, lets even a loaded machine's search pass its first look at the clock."""
    archive = zip_of({f"g{i:02d}.txt": EX1.read_bytes() for i in range(6)})
    common = ("--jobs", "1", "--adjudicate-budget", "1")
    nodes: dict[str, list[int]] = {}
    for label, share in (("spent", ["--adjudicate-share", "0.005"]), ("default", [])):
        with running_server(tmp_path / label, *common, *share) as server:
            answer = requests.post(
                server.url + "api/check?adjudicate=1",
                files=[("file", ("a.zip", archive))],
                timeout=WAIT * 3,
            )
            records = verdict_of(answer.text)
            nodes[label] = [r["adjudication"]["nodes"] for r in records]  # type: ignore[index]
    assert len(nodes["spent"]) == 6 and nodes["spent"][0] > TICK
    assert nodes["spent"][-1] == 0  # no mate searched
    assert all(n > TICK for n in nodes["default"])


def test_behind_a_trusted_proxy_clients_are_told_apart_by_the_header(tmp_path: Path) -> None:
    """Each client has one check at a time (--client-checks 1); the first one's check
    stalls. Behind a trusted proxy the header names the client, so another client (by
    the header) gets in; without --trust-proxy the header is never read."""
    hooks = {HANG_ENV: "stall"}
    data = LEGAL.read_bytes()
    for trusted in (True, False):
        flags = ["--jobs", "2", "--client-checks", "1", "--source-timeout", "60"]
        flags += ["--trust-proxy"] if trusted else []
        with running_server(tmp_path / str(trusted), *flags, env=hooks) as server:
            stalling = connect_from(server)
            head = post_head(server, 8, "/api/check?name=stall.txt")
            stalling.sendall(
                head.replace(b"\r\n\r\n", b"\r\nX-Forwarded-For: 203.0.113.7\r\n\r\n")
                + b"P e2-e4\n"
            )
            wait_for(lambda: "stalls on stall.txt" in server.log_text(), WAIT)

            def post(forwarded: str) -> requests.Response:
                return requests.post(
                    server.url + "api/check?name=g.txt",
                    data=data,
                    headers={"x-forwarded-for": forwarded},
                    timeout=WAIT,
                )

            same = post("198.51.100.1, 203.0.113.7")  # the proxy's word is the last
            other = post("203.0.113.7, 198.51.100.9")
            stalling.close()
            assert same.status_code == 503 and "you have 1 checks" in same.text
            if trusted:
                assert verdict_of(other.text) == expected("g.txt", data)
            else:
                assert other.status_code == 503  # one client: the peer address
            assert ("clients named by X-Forwarded-For" in server.log[0]) == trusted
