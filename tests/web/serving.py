"""A real `gcadj serve` for the web tests: the CLI started as a process on a free port.

Nothing is a test client: the tests talk HTTP to uvicorn over 127.0.0.1, with `requests`,
raw sockets and headless Chromium. The server's temporary folder (TMPDIR) and its
per-user data folder (XDG_DATA_HOME: where its results are kept unless ``--data`` says
otherwise) are the test's own, so a test can look at what the server wrote there, and
that it removed it; nothing is written to the home folder of whoever runs the tests.
What the server prints after its first line (its log, its stderr included) is read as it
comes into `Server.log`, so a test can read it and the server never blocks on a full pipe;
when the block ends without a failure of its own, the log must hold no traceback (a bug
of the server's is a test's failure, whatever the test was looking at).

Clients come from several addresses of the loopback network (127.0.0.2, 127.0.0.3, ...:
`connect_from`, `request_from`), as different machines would, for the server's shares
per client.
"""

from __future__ import annotations

import http.client
import io
import os
import resource
import socket
import subprocess
import threading
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conftest import GCADJ, ROOT


@dataclass
class Server:
    url: str
    process: subprocess.Popen[str]
    tmp: Path
    log: list[str] = field(default_factory=list)  # the lines it printed after the first

    @property
    def port(self) -> int:
        return int(self.url.rstrip("/").rsplit(":", 1)[1])

    def log_text(self) -> str:
        return "".join(list(self.log))


TRACEBACK = "Traceback (most recent call last)"


@contextmanager
def running_server(
    tmp: Path, *flags: str, env: dict[str, str] | None = None, open_files: int | None = None
) -> Iterator[Server]:
    """`gcadj serve --port 0 FLAGS`, until the block ends (then stopped with SIGINT, as
    Ctrl-C); `env`: more environment variables for it (the test hooks); `open_files`: the
    most files it may open (``ulimit -n``). Its log must then hold no traceback."""
    tmp.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp / "data-home"),
        **(env or {}),
        "TMPDIR": str(tmp),
        "PYTHONUNBUFFERED": "1",
    }

    def limit() -> None:
        if open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    process = subprocess.Popen(
        [*GCADJ, "serve", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=ROOT,
        env=env,
        preexec_fn=limit if open_files is not None else None,
    )
    assert process.stdout is not None
    line = process.stdout.readline()  # "gcadj serve: http://127.0.0.1:PORT/ (Ctrl-C to stop); ..."
    if "http://" not in line:
        process.kill()
        raise AssertionError(f"gcadj serve did not start: {line}{process.stdout.read()}")
    server = Server(line.split()[2], process, tmp, [line])
    output = process.stdout

    def drain() -> None:  # ends when the server does
        for printed in output:
            server.log.append(printed)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        yield server
    finally:
        stop(server)
        reader.join(10)
    assert TRACEBACK not in server.log_text(), server.log_text()


def stop(server: Server) -> None:
    """Stop the server as Ctrl-C does (killed if it has not stopped 20 s later)."""
    process = server.process
    if process.poll() is None:
        process.send_signal(2)
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def connect_from(server: Server, source: str = "127.0.0.1", timeout: float = 60) -> socket.socket:
    """A connection to the server from `source`, an address of the loopback network."""
    return socket.create_connection(
        ("127.0.0.1", server.port), timeout=timeout, source_address=(source, 0)
    )


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


def request_from(
    server: Server,
    method: str,
    path: str,
    body: bytes = b"",
    headers: dict[str, str] | None = None,
    *,
    source: str = "127.0.0.1",
    timeout: float = 120,
) -> Answer:
    """One whole request from `source` (`http.client`), and its whole answer."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=timeout, source_address=(source, 0)
    )
    try:
        connection.request(
            method, path, body=body if body or method != "GET" else None, headers=headers or {}
        )
        response = connection.getresponse()
        return Answer(
            response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        )
    finally:
        connection.close()


def multipart(files: list[tuple[str, str | None, bytes]]) -> tuple[bytes, dict[str, Any]]:
    """A multipart form of (field, file name or None, bytes), and its content type header."""
    parts = []
    for name, filename, data in files:
        disposition = f'form-data; name="{name}"'
        if filename is not None:
            disposition += f'; filename="{filename}"'
        parts.append(f"--B0undary\r\nContent-Disposition: {disposition}\r\n\r\n".encode() + data)
    body = b"\r\n".join(parts) + b"\r\n--B0undary--\r\n"
    return body, {"content-type": "multipart/form-data; boundary=B0undary"}


def zip_of(members: dict[str, bytes], *, level: int = 9) -> bytes:
    """A zip archive of these members, compressed (deflate)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as archive:
        for name, data in members.items():
            archive.writestr(
                zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED
            )
    return out.getvalue()


def wait_for(condition, timeout: float = 30.0, every: float = 0.1):  # type: ignore[no-untyped-def]
    """The first true value of `condition()` within `timeout` seconds (else AssertionError)."""
    end = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError("timed out waiting")
        time.sleep(every)


class Admitted:
    """A check of the JSON API whose request was taken (its answer's headers came: 200),
    still running or waiting, from its own connection; `close` hangs up (the check stops
    and its result is deleted)."""

    def __init__(self, connection: http.client.HTTPConnection, status: int, text: str) -> None:
        self.connection = connection
        self.status = status
        self.text = text

    def close(self) -> None:
        self.connection.close()


def admitted(
    server: Server,
    body: bytes,
    *,
    source: str,
    name: str = "g.txt",
    timeout: float = 60,
) -> Admitted:
    """POST `body` to the API from `source` and wait for the answer's headers only: a 200
    means the check was taken (it holds its upload until it ends); another status comes
    with its text."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=timeout, source_address=(source, 0)
    )
    connection.request("POST", f"/api/check?name={name}", body, {"content-type": "text/plain"})
    response = connection.getresponse()
    text = "" if response.status == 200 else response.read().decode("utf-8", "replace")
    return Admitted(connection, response.status, text)


def stalled(server: Server, source: str = "127.0.0.9") -> Admitted:
    """A check from `source` whose source stalls its worker (the server must run with
    ``HANG_ENV=stall``), once the worker says it stalls: the worker is held until its
    deadline or until the check is closed (hung up)."""
    before = server.log_text().count("stalls on stall.txt")
    check = admitted(server, b"P e2-e4\n", source=source, name="stall.txt")
    assert check.status == 200, check.text
    wait_for(lambda: server.log_text().count("stalls on stall.txt") > before, 60)
    return check
