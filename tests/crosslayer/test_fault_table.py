"""The manual's table of HTTP faults (docs/audit.md) says what the code does: each row's
quoted message is what the fetcher gives when the real HTTP server on 127.0.0.1 plays that
fault.

Numbers differ (the tests use short timeouts and one retry, the manual the defaults), so
every number is compared as "a number"; "…" in the manual stands for any text."""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT
from httpserver import (
    Behaviour,
    FixtureServer,
    Handler,
    endless,
    page,
    redirect,
    send,
    slow,
    status,
    trickle,
    truncated,
)

from gcadj.sources.fetch import Fetcher, FetchError, FetchOptions

PAGE = (ROOT / "docs" / "audit.md").read_text(encoding="utf-8")


def fault_table() -> dict[str, str]:
    """The rows of the manual's fault table: fault -> outcome."""
    start = PAGE.index("| fault | outcome |")
    rows = {}
    for line in PAGE[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        fault, outcome = (cell.strip() for cell in line.strip("|").split("|", 1))
        rows[fault] = outcome
    return rows


def stalled(handler: Handler, n: int) -> None:
    """Headers and half the body, then silence longer than the read timeout."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html")
    handler.send_header("Content-Length", "100")
    handler.end_headers()
    handler.wfile.write(b"<html>" + b"x" * 44)
    handler.wfile.flush()
    time.sleep(1.5)


def not_gzip(handler: Handler, n: int) -> None:
    send(handler, 200, b"not gzip at all", headers={"Content-Encoding": "gzip"})


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# fault row (its first words) -> what the server does at /fault
SCENARIOS: dict[str, Behaviour | None] = {
    "no answer within the read timeout": slow(1.5, page("<html><pre>P e2-e4</pre>")),
    "the body stalls for a read timeout": stalled,
    "the body trickles in": trickle(b"<html>" + b"x" * 400, 0.02),
    "500/502/503/504 every time": status(503),
    "429 with `Retry-After: N`": status(429, {"Retry-After": "600"}),
    "404, or any other status": status(404),
    "a redirect without `Location`": lambda h, n: send(h, 302, b""),
    "body shorter than its Content-Length": truncated(b"<html><body><pre>P e2-e4", 5000),
    "page over the size cap": endless(),
    "a compressed body that does not decompress": not_gzip,
    "empty or whitespace-only body (HTTP 200)": page(b""),
    "redirect to another scheme": redirect("ftp://example.org/log.txt"),
    "malformed URL or redirect": redirect("http://[::1/x"),
    "connection refused": None,  # nothing listens
}


@pytest.fixture(scope="module")
def server() -> Iterator[FixtureServer]:
    routes = {f"/{number}": behaviour for number, behaviour in enumerate(SCENARIOS.values())}
    with FixtureServer({k: v for k, v in routes.items() if v is not None}) as running:
        yield running


def fetcher(tmp_path: Path) -> Fetcher:
    return Fetcher(
        FetchOptions(
            connect_timeout=0.5,
            read_timeout=0.4,
            total_timeout=0.6,
            retries=1,
            backoff=0.01,
            delay=0.0,
            max_bytes=64 * 1024,
            cache_dir=tmp_path / "cache",
        )
    )


def quoted_messages(outcome: str) -> list[str]:
    """The messages a table cell quotes after "`error`:"."""
    said = outcome.split("`error`", 1)[1] if "`error`" in outcome else ""
    return re.findall(r'"([^"]+)"', said)


def _numbers(text: str) -> str:
    return re.sub(r"[0-9]+(?:\.[0-9]+)?", "#", text)


def matches(message: str, actual: str) -> bool:
    pattern = re.escape(_numbers(message)).replace("…", ".*")
    return re.search(pattern, _numbers(actual)) is not None


@pytest.mark.parametrize("fault", list(SCENARIOS))
def test_each_fault_of_the_readme_table_says_what_the_code_says(
    fault: str, server: FixtureServer, tmp_path: Path
) -> None:
    rows = {row: outcome for row, outcome in fault_table().items() if row.startswith(fault)}
    assert len(rows) == 1, f"no row (or several) for {fault!r} in the manual's fault table"
    ((row, outcome),) = rows.items()
    number = list(SCENARIOS).index(fault)
    url = (
        f"http://127.0.0.1:{closed_port()}/x"
        if SCENARIOS[fault] is None
        else server.url(f"/{number}")
    )
    with pytest.raises(FetchError) as caught:
        fetcher(tmp_path).get(url)
    messages = quoted_messages(outcome)
    assert messages, f"the row {row!r} quotes no message"
    assert any(matches(message, caught.value.reason) for message in messages), (
        f"manual: {messages}; code: {caught.value.reason!r}"
    )
    retried = outcome.startswith("retried")
    assert ("gave up after" in caught.value.reason) == retried, (row, caught.value.reason)


def test_the_slow_trickle_limit_is_the_formula_the_manual_gives() -> None:
    from gcadj.app.fetching import FetchSettings

    said = " ".join(PAGE.split())  # the manual's lines wrap anywhere
    assert "`max(4 × T, T + 10 s)`, 120 s by default, 12 s for `--timeout 2`" in said
    assert FetchSettings().fetch_options().total_timeout == 120.0
    for timeout, limit in ((30.0, 120.0), (2.0, 12.0), (0.5, 10.5)):
        options = FetchSettings(timeout=timeout).fetch_options()
        assert options.total_timeout == limit
        assert options.connect_timeout == options.read_timeout == timeout
