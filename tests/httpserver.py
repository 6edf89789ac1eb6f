"""A real HTTP server on 127.0.0.1 for the fetch, scrape and audit tests.

`FixtureServer` serves `Behaviour`s at exact "path?query" keys, the way Game Courier
serves ``/play/pbm/play.php?game=…&log=…``, and records every request (time, path,
headers) so a test can check retries, delays and the cache from the server's side.
Behaviours cover the faults a careful client must survive: slow answers, 5xx then
success, 429 with Retry-After, truncated bodies, huge bodies, redirects elsewhere.
Nothing in `requests` is patched: the client under test talks to this socket.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Behaviour = Callable[["Handler", int], None]
"""Answers one request; the int is how many earlier requests this route has had."""


@dataclass(frozen=True)
class Seen:
    path: str
    at: float  # time.monotonic() when the request arrived
    headers: dict[str, str]


def send(
    handler: Handler,
    code: int,
    body: bytes = b"",
    content_type: str = "text/html; charset=utf-8",
    headers: dict[str, str] | None = None,
    length: int | None = None,
) -> None:
    handler.send_response(code)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body) if length is None else length))
    for key, value in (headers or {}).items():
        handler.send_header(key, value)
    handler.end_headers()
    handler.wfile.write(body)
    handler.wfile.flush()


def page(body: bytes | str, content_type: str = "text/html; charset=utf-8") -> Behaviour:
    data = body.encode("utf-8") if isinstance(body, str) else body
    return lambda h, n: send(h, 200, data, content_type)


def status(code: int, headers: dict[str, str] | None = None, body: bytes = b"") -> Behaviour:
    return lambda h, n: send(h, code, body or f"HTTP {code}".encode(), headers=headers)


def sequence(*steps: Behaviour) -> Behaviour:
    """The n-th request gets the n-th behaviour; the last one repeats."""
    return lambda h, n: steps[min(n, len(steps) - 1)](h, n)


def slow(seconds: float, then: Behaviour) -> Behaviour:
    def run(handler: Handler, n: int) -> None:
        time.sleep(seconds)
        then(handler, n)

    return run


def truncated(body: bytes, claimed: int) -> Behaviour:
    """Promise `claimed` bytes, send `body`, close the connection."""

    def run(handler: Handler, n: int) -> None:
        send(handler, 200, body, length=claimed)
        handler.close_connection = True

    return run


def endless(chunk: bytes = b"<p>" + b"x" * 8192 + b"</p>\n", limit: int = 64 << 20) -> Behaviour:
    """A body with no Content-Length that goes on until the client hangs up (or `limit`)."""

    def run(handler: Handler, n: int) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html")
        handler.end_headers()
        sent = 0
        try:
            while sent < limit:
                handler.wfile.write(chunk)
                sent += len(chunk)
        except OSError:
            pass
        handler.close_connection = True

    return run


def trickle(body: bytes, every: float, sent: list[int] | None = None) -> Behaviour:
    """Announce the whole body, then send it one byte every `every` seconds (each byte
    written is appended to `sent` as a 1, so a test can tell how much went out before
    the client hung up)."""

    def run(handler: Handler, n: int) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        for byte in body:
            handler.wfile.write(bytes([byte]))
            handler.wfile.flush()
            if sent is not None:
                sent.append(1)
            time.sleep(every)
        handler.close_connection = True

    return run


def redirect(location: str, code: int = 302) -> Behaviour:
    return lambda h, n: send(h, code, b"", headers={"Location": location})


class Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_GET(self) -> None:
        owner = self.server.owner
        with owner.lock:
            count = owner.counts.get(self.path, 0)
            owner.counts[self.path] = count + 1
            owner.seen.append(Seen(self.path, time.monotonic(), dict(self.headers.items())))
        behaviour = owner.routes.get(self.path)
        if behaviour is None:
            send(self, 404, b"<html><body>Not Found</body></html>")
            return
        # A client that gave up (timeout, size cap) breaks the pipe: that is what was tested.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            behaviour(self, count)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    owner: FixtureServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # broken pipes after client timeouts are expected


@dataclass
class FixtureServer:
    """Serve `routes` on 127.0.0.1 (port 0: the OS picks) in a thread; use as a context."""

    routes: dict[str, Behaviour] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.httpd = _Server(("127.0.0.1", 0), Handler)
        self.httpd.owner = self
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)

    @property
    def base(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def url(self, path: str) -> str:
        return self.base + path

    def hits(self, path: str) -> list[Seen]:
        with self.lock:
            return [s for s in self.seen if s.path == path]

    def __enter__(self) -> FixtureServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def play_path(log: str, game: str = "Pocket+Mutation+Chess") -> str:
    """The Game Courier viewing-page path for a log."""
    return f"/play/pbm/play.php?game={game}&log={log}"
