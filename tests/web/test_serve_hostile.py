"""`gcadj serve` facing hostile clients (issue 29): names in any script, slow and idle
connections, a flood of uploads, other sites' pages, clients that hang up, names that
look like options, zips that amplify.

Every test talks to a real ``gcadj serve`` (uvicorn on a free port of 127.0.0.1) over real
sockets: `requests` for whole requests, raw sockets for what no polite client sends (half
a header, half a body, a hang-up). Waits are bounded and generous: a test asserts that an
answer arrives and what it says, never how fast. Expected verdicts come from the library
(`judge_source`), as ``gcadj check --json`` gives them.
"""

from __future__ import annotations

import html
import json
import re
import socket
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from conftest import FIXTURES
from httpserver import FixtureServer, page
from serving import Server, admitted, connect_from, running_server, stalled, wait_for, zip_of

from gcadj.app.pipeline import judge_source
from gcadj.app.pool import HANG_ENV

EX1 = FIXTURES / "examples" / "ex1_pocket_mutation_drops.txt"
LEGAL = FIXTURES / "logs" / "legal" / "checkmate.txt"
ILLEGAL = FIXTURES / "logs" / "illegal" / "castling.txt"
WAIT = 60.0  # the most any answer may take here (a loaded machine): never a speed test


def expected_line(name: str, data: bytes) -> dict[str, object]:
    record: dict[str, object] = json.loads(
        judge_source(name, text=data.decode("utf-8"))[0].json_line()
    )
    return record


def records(response: requests.Response) -> list[dict[str, object]]:
    assert response.status_code == 200, response.text
    return [json.loads(line) for line in response.text.splitlines()]


def connect(server: Server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)


def read_until_closed(sock: socket.socket, limit: int = 1 << 20) -> bytes:
    """Everything the server sends until it closes the connection (bounded: `WAIT`
    seconds, `limit` bytes)."""
    sock.settimeout(WAIT)
    received = b""
    while len(received) < limit:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        received += chunk
    return received


def post_head(server: Server, path: str, length: int, extra: str = "") -> bytes:
    host = f"127.0.0.1:{server.port}"
    return (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: text/plain\r\n"
        f"Content-Length: {length}\r\n{extra}\r\n"
    ).encode("ascii")


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Short deadlines and a small budget, so the tests see them act: headers within 2 s,
    bodies at 100 KB/s after that, 1 MB per request and 1.5 MB held at once."""
    flags = ("--client-timeout", "2", "--min-upload-rate", "100", "--max-upload", "1")
    with running_server(
        tmp_path_factory.mktemp("serve-hostile"), *flags, "--max-buffer", "1.5", "--jobs", "1"
    ) as server:
        yield server


def no_tracebacks(server: Server) -> None:
    log = server.log_text()
    assert "Traceback" not in log and "internal error" not in log, log


# -- 1. names in any script ---------------------------------------------------------------


def test_upload_names_in_any_script_are_kept_exactly(guarded: Server) -> None:
    names = ["партия.txt", "café.txt", '棋譜 "1"\\x.txt', "<b>bold</b>.txt", "-final.txt"]
    data = LEGAL.read_bytes()
    response = requests.post(
        guarded.url + "api/check", files=[("file", (name, data)) for name in names], timeout=WAIT
    )
    assert records(response) == [expected_line(name, data) for name in names]
    # RFC 5987's filename* wins over the plain fallback
    body = (
        b'--B\r\nContent-Disposition: form-data; name="file"; filename="fallback.txt"; '
        b"filename*=UTF-8''%D0%BF%D0%B0%D1%80%D1%82%D0%B8%D1%8F.txt\r\n\r\n"
        + data
        + b"\r\n--B--\r\n"
    )
    response = requests.post(
        guarded.url + "api/check",
        data=body,
        headers={"content-type": "multipart/form-data; boundary=B"},
        timeout=WAIT,
    )
    assert records(response) == [expected_line("партия.txt", data)]


def test_a_name_is_shown_escaped_on_the_page(guarded: Server) -> None:
    name = "<b>bold</b>.txt"
    response = requests.post(
        guarded.url + "check", files=[("file", (name, EX1.read_bytes()))], timeout=WAIT
    )
    assert response.status_code == 200
    assert "&lt;b&gt;bold&lt;/b&gt;.txt" in response.text and name not in response.text


# -- 2. slow and idle clients ---------------------------------------------------------------


def test_slow_header_clients_do_not_lock_the_others_out(tmp_path: Path) -> None:
    """250 connections each holding half a header (50 from each of five addresses, the
    most one client may hold): the home page and a check still answer."""
    with running_server(tmp_path / "t", "--client-timeout", "120", "--jobs", "1") as server:
        slow = []
        try:
            for n in range(250):
                sock = connect_from(server, f"127.0.0.{2 + n % 5}")
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
                slow.append(sock)
            assert requests.get(server.url, timeout=WAIT).status_code == 200
            data = LEGAL.read_bytes()
            response = requests.post(server.url + "api/check?name=g.txt", data=data, timeout=WAIT)
            assert records(response) == [expected_line("g.txt", data)]
        finally:
            for sock in slow:
                sock.close()
        no_tracebacks(server)


def test_a_header_that_does_not_arrive_in_time_gets_408_and_is_closed(guarded: Server) -> None:
    with connect(guarded) as half:
        half.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
        answer = read_until_closed(half)
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert b"x-content-type-options: nosniff" in answer
    with connect(guarded) as idle:  # not a byte: closed all the same
        assert read_until_closed(idle) == b""


def test_a_kept_alive_connection_must_send_its_next_header_in_time_too(guarded: Server) -> None:
    with connect(guarded) as sock:
        request = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{guarded.port}\r\n\r\n".encode()
        sock.sendall(request + b"GET / HTTP/1.1\r\nHost: 12")  # the second never ends
        answer = read_until_closed(sock)
    assert answer.startswith(b"HTTP/1.1 200 ")
    assert answer.count(b"HTTP/1.1 ") == 2 and b"HTTP/1.1 408 " in answer


def test_a_body_slower_than_the_minimum_rate_is_cut_off(guarded: Server) -> None:
    before = guarded.log_text().count("came too slowly")
    with connect(guarded) as sock:
        sock.sendall(post_head(guarded, "/api/check", 500_000) + b"P e2-e4\n")
        assert read_until_closed(sock) == b""  # cut off: nothing to answer a half request
    wait_for(lambda: guarded.log_text().count("came too slowly") > before, WAIT)
    wait_for(lambda: "hung up" in guarded.log_text(), WAIT)  # the app heard it, quietly
    no_tracebacks(guarded)


# -- 3. bounded memory ----------------------------------------------------------------------


def judged_when_free(server: Server, name: str, body: bytes) -> requests.Response:
    """The answer to posting `body` once the server takes it (a 503 is tried again)."""

    def attempt() -> requests.Response | None:
        reply = requests.post(server.url + f"api/check?name={name}", data=body, timeout=WAIT)
        return None if reply.status_code == 503 else reply

    response: requests.Response = wait_for(attempt, WAIT, every=0.5)
    return response


def test_uploads_over_the_budget_are_shed_with_503_and_it_recovers(tmp_path: Path) -> None:
    """The one worker is stalled, so a check of 0.9 MB waits, holding its upload: the
    budget (1.4 MB) has no room for 0.6 MB more, from any client, until it ends."""
    data = LEGAL.read_bytes()
    body = data + b"\n" * (600_000 - len(data))
    flags = ("--max-upload", "1", "--max-buffer", "1.4", "--jobs", "1")
    with running_server(tmp_path / "t", *flags, env={HANG_ENV: "stall"}) as server:
        stall = stalled(server)
        holder = admitted(server, b"P e2-e4\n" + b"\n" * 900_000, source="127.0.0.2")
        assert holder.status == 200
        answers: list[int] = []

        def post(n: int) -> None:
            reply = admitted(server, body, source=f"127.0.0.{3 + n % 3}")
            answers.append(reply.status)
            reply.close()

        flood = [threading.Thread(target=post, args=(n,)) for n in range(10)]
        for thread in flood:
            thread.start()
        for thread in flood:
            thread.join(WAIT)
        assert answers == [503] * 10  # shed, every one, while the budget is held
        # the holders hang up: their shares are given back, and the same upload is judged
        stall.close()
        holder.close()
        response = judged_when_free(server, "g.txt", body)
        assert records(response) == [expected_line("g.txt", body)]


def test_a_large_upload_spills_to_a_private_file_deleted_after_its_check(tmp_path: Path) -> None:
    data = LEGAL.read_bytes()
    body = data + b"\n" * (3_000_000 - len(data))  # past the 256 KB kept in memory
    with running_server(tmp_path / "t", "--max-upload", "5", "--jobs", "1") as server:
        (folder,) = wait_for(lambda: list(server.tmp.glob("gcadj-upload-*")), WAIT)
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        with connect(server) as sock:
            sock.sendall(post_head(server, "/api/check?name=big.txt", len(body)))
            sock.sendall(body[:2_500_000])
            (spilled,) = wait_for(
                lambda: [p for p in folder.iterdir() if p.stat().st_size >= 2_000_000], WAIT
            )
            assert stat.S_IMODE(spilled.stat().st_mode) == 0o600
            sock.sendall(body[2_500_000:])
            answer = read_until_closed(sock)
        head, _, text = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200 ")
        line = re.search(rb"\{.*\}", text)
        assert line is not None and json.loads(line[0]) == expected_line("big.txt", body)
        wait_for(lambda: list(folder.iterdir()) == [], WAIT)
    assert not folder.exists()  # and the folder goes with the server


# -- 4. safe by default on loopback ---------------------------------------------------------


def test_a_request_must_name_this_server(guarded: Server) -> None:
    url = guarded.url
    port = guarded.port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "LOCALHOST."):
        assert requests.get(url, headers={"host": host}, timeout=WAIT).status_code == 200, host
    for host in ("rebound.example", f"rebound.example:{port}", "10.0.0.1", "bad host"):
        response = requests.get(url, headers={"host": host}, timeout=WAIT)
        assert response.status_code == 400 and "does not answer to the name" in response.text
        assert response.headers["x-frame-options"] == "DENY"
    # a page that rebound its name to this server reads nothing of it: its POST is refused
    response = requests.post(
        url + "api/check?name=g.txt",
        data=LEGAL.read_bytes(),
        headers={"host": "rebound.example"},
        timeout=WAIT,
    )
    assert response.status_code == 400


def test_a_form_from_another_site_is_refused(tmp_path: Path) -> None:
    """Even with --any-urls (so the address guard would let it through), another site's
    form that asks the server to fetch a secret of this machine is refused, unread."""
    with (
        FixtureServer({"/secret": page("P e2-e4\nsecret\n", "text/plain")}) as site,
        running_server(tmp_path / "t", "--any-urls", "--jobs", "1") as server,
    ):
        form = {"url": (None, site.url("/secret"))}
        own = server.url.rstrip("/")
        for headers in (
            {"origin": "http://evil.example"},
            {"origin": "null"},
            {"referer": "http://evil.example/page.html"},
            {"origin": own.replace("127.0.0.1", "localhost")},  # another origin, same machine
            {"origin": own + "1"},  # another port
        ):
            for path in ("check", "api/check"):
                response = requests.post(
                    server.url + path, files=form, headers=headers, timeout=WAIT
                )
                assert response.status_code == 403, (path, headers)
                assert "a form from another site" in response.text
        assert site.hits("/secret") == []
        # the server's own page, and a client that names no origin (curl), are served
        for headers in ({"origin": own}, {"referer": server.url}, {}):
            response = requests.post(
                server.url + "api/check", files=form, headers=headers, timeout=WAIT
            )
            assert response.status_code == 200, headers
        assert len(site.hits("/secret")) == 3
        no_tracebacks(server)


def test_a_reverse_proxy_name_is_allowed_when_named(tmp_path: Path) -> None:
    with running_server(tmp_path / "t", "--allowed-host", "gcadj.example.org") as server:
        by_name = {"host": "gcadj.example.org"}
        assert requests.get(server.url, headers=by_name, timeout=WAIT).status_code == 200
        # a proxy that passes its own origin with the listening address as Host
        response = requests.post(
            server.url + "api/check?name=g.txt",
            data=LEGAL.read_bytes(),
            headers={"origin": "https://gcadj.example.org"},
            timeout=WAIT,
        )
        assert records(response) == [expected_line("g.txt", LEGAL.read_bytes())]
        other = {"host": "other.example.org"}
        assert requests.get(server.url, headers=other, timeout=WAIT).status_code == 400


def test_by_default_loopback_and_private_addresses_are_not_fetched_and_it_says_so(
    tmp_path: Path,
) -> None:
    with (
        FixtureServer({"/game.txt": page(EX1.read_bytes(), "text/plain")}) as site,
        running_server(tmp_path / "t", "--jobs", "1") as server,
    ):
        assert "fetches public addresses only" in server.log[0]
        assert "reachable from this machine only" in server.log[0]
        response = requests.post(
            server.url + "api/check", files={"url": (None, site.url("/game.txt"))}, timeout=WAIT
        )
        (record,) = records(response)
        assert "loopback address; this server fetches public addresses only" in str(record["error"])
        assert site.hits("/game.txt") == []
        assert "Only public addresses are fetched" in requests.get(server.url, timeout=WAIT).text


# -- 5. quiet disconnects -------------------------------------------------------------------


def test_clients_that_hang_up_mid_body_are_one_info_line_each(guarded: Server) -> None:
    before = guarded.log_text().count("hung up")
    for _ in range(20):
        with connect(guarded) as sock:
            sock.sendall(post_head(guarded, "/api/check", 20_000) + b"P e2-e4\n" * 100)
    wait_for(lambda: guarded.log_text().count("hung up") >= before + 20, WAIT)
    lines = [line for line in guarded.log if "hung up" in line]
    assert all(line.startswith("gcadj serve: INFO: ") for line in lines)
    no_tracebacks(guarded)
    assert requests.get(guarded.url, timeout=WAIT).status_code == 200


# -- 6. every name routes -------------------------------------------------------------------


def test_every_game_name_opens_its_viewer(guarded: Server) -> None:
    names = ["-final.txt", ".hidden.txt", "партия.txt", "a b.txt", "..txt"]
    data = ILLEGAL.read_bytes()
    started = requests.post(
        guarded.url + "check",
        files=[("file", (name, data)) for name in names],
        timeout=WAIT,
        allow_redirects=False,
    )
    assert started.status_code == 303
    where = guarded.url + started.headers["location"].lstrip("/")
    report = wait_for(
        lambda: (r := requests.get(where, timeout=WAIT)) and "refresh" not in r.text and r, WAIT
    )
    links = re.findall(r'href="(/r/[^/"#]+/g/\d+)', report.text)
    assert len(set(links)) == len(names)
    for link in sorted(set(links)):
        viewer = requests.get(guarded.url + link.lstrip("/"), timeout=WAIT)
        assert viewer.status_code == 200 and 'id="board"' in viewer.text, link
        source = re.search(r"<th>Source</th><td>(.*?)</td>", viewer.text)
        assert source is not None and source[1].replace("<wbr>", "") in {
            html.escape(name) for name in names
        }


# -- 8. zips --------------------------------------------------------------------------------


def test_zips_that_amplify_are_refused_through_the_server(guarded: Server) -> None:
    text = ("P e2-e4\np e7-e5\n" * 50_000).encode()  # 0.8 MB each, under the 1 MB floor
    many = zip_of({f"g{i:03d}.txt": text for i in range(20)})
    response = requests.post(
        guarded.url + "api/check", files=[("file", ("many.zip", many))], timeout=WAIT
    )
    (record,) = records(response)
    assert "the zip expands" in str(record["error"]) and "zip bomb" in str(record["error"])
