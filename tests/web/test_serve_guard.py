"""The server's front door (`gcadj.web.guard`) and what it is told (`gcadj.web.limits`):
which names a request may use, which origins may post, what the start-up line says, and
the security headers on an answer the app never meant to give (a 500).

The 500 needs a route that fails, which the real app has none of: here the real `Guard`
and the real app's error handler (`gcadj.web.app.failure`) sit in front of a Starlette
route that raises, served by a real uvicorn on a free port of 127.0.0.1.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator

import pytest
import requests
from hypothesis import given
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from gcadj.outputs.viewer import VIEWER_FILE, viewer_filename
from gcadj.web.app import failure
from gcadj.web.guard import Guard, foreign_origin, security_headers, split_host
from gcadj.web.limits import ServeSettings
from gcadj.web.serve import bind, startup_line


@pytest.mark.parametrize(
    ("origin", "referer", "host", "foreign"),
    [
        ("http://127.0.0.1:8000", None, "127.0.0.1:8000", None),
        (None, "http://127.0.0.1:8000/job/x/", "127.0.0.1:8000", None),
        (None, None, "127.0.0.1:8000", None),  # curl: names no origin
        ("http://localhost:8000", None, "localhost:8000", None),
        ("http://[::1]:8000", None, "[::1]:8000", None),
        ("http://example.org", None, "example.org:80", None),  # the scheme's default port
        ("https://example.org", None, "example.org", None),
        ("http://evil.example", None, "127.0.0.1:8000", "http://evil.example"),
        ("http://localhost:8000", None, "127.0.0.1:8000", "http://localhost:8000"),
        ("http://127.0.0.1:8001", None, "127.0.0.1:8000", "http://127.0.0.1:8001"),
        ("null", None, "127.0.0.1:8000", "null"),
        ("file://", None, "127.0.0.1:8000", "file://"),
        (None, "http://evil.example/a?b", "127.0.0.1:8000", "http://evil.example"),
        ("http://127.0.0.1:8000", "http://evil.example/", "127.0.0.1:8000", None),  # Origin wins
    ],
)
def test_an_origin_is_foreign_unless_it_is_the_server_s_own(
    origin: str | None, referer: str | None, host: str, foreign: str | None
) -> None:
    assert foreign_origin(origin, referer, host) == foreign


def test_a_trusted_name_may_post_behind_a_proxy_that_rewrites_host() -> None:
    origin = "https://gcadj.example.org"
    assert foreign_origin(origin, None, "127.0.0.1:8000") == origin
    assert foreign_origin(origin, None, "127.0.0.1:8000", ["GCADJ.example.org"]) is None


@pytest.mark.parametrize(
    ("value", "split"),
    [
        ("127.0.0.1:8000", ("127.0.0.1", 8000)),
        ("[::1]:80", ("::1", 80)),
        ("Example.ORG.", ("example.org", None)),
        ("a b", ("a b", None)),
        ("x:notaport", None),
        ("x/y", None),
        ("user@x", None),
        ("", None),
    ],
)
def test_host_headers_are_read_as_a_name_and_a_port(
    value: str, split: tuple[str, int | None] | None
) -> None:
    assert split_host(value) == split


def test_the_names_a_server_answers_to_follow_its_address() -> None:
    loopback = ServeSettings()
    for name in ("127.0.0.1", "localhost", "::1", "LocalHost."):
        assert loopback.host_allowed(name)
    for name in ("rebound.example", "10.0.0.1", "127.0.0.2"):
        assert not loopback.host_allowed(name)
    everywhere = ServeSettings(host="0.0.0.0")
    assert everywhere.host_allowed("192.168.1.20") and everywhere.host_allowed("localhost")
    assert not everywhere.host_allowed("rebound.example")
    proxied = ServeSettings(allowed_hosts=("gcadj.example.org",))
    assert proxied.host_allowed("gcadj.example.org") and not proxied.host_allowed("x.example")
    assert ServeSettings(allowed_hosts=("*",)).host_allowed("anything.example")


def test_the_start_up_line_tells_the_truth() -> None:
    default = startup_line(ServeSettings(port=8000), 2)
    assert default.startswith("gcadj serve: http://127.0.0.1:8000/ ")
    assert "reachable from this machine only" in default
    assert "fetches public addresses only" in default
    exposed = startup_line(ServeSettings(host="0.0.0.0", public_urls_only=False), 2)
    assert "reachable from the network" in exposed and "loopback only" not in exposed
    assert "fetches any address, loopback and private ones too (--any-urls)" in exposed
    assert "its IP addresses" in exposed
    assert "any name" in startup_line(ServeSettings(allowed_hosts=("*",)), 1)


@given(st.text(max_size=200))
def test_every_source_name_gives_a_viewer_name_the_server_serves(source: str) -> None:
    name = viewer_filename(source)
    assert VIEWER_FILE.fullmatch(name), name
    assert not name.startswith((".", "-")) and "/" not in name


def test_viewer_names_are_distinct_for_distinct_sources() -> None:
    sources = ["-final.txt", "final.txt", ".final.txt", "a/-final.txt", "партия.txt", "игра.txt"]
    assert len({viewer_filename(s) for s in sources}) == len(sources)


# -- a 500 through the real guard and the real error handler ------------------------------


async def boom(request: Request) -> Response:
    raise RuntimeError("a bug for the test")


async def bare_failure(scope: Scope, receive: Receive, send: Send) -> None:
    """An app with no error handling at all: only the guard can answer."""
    if scope["type"] == "http":
        raise RuntimeError("a bug below every handler")


def served(app: Guard) -> Iterator[str]:
    import uvicorn

    sock = bind("127.0.0.1", 0)
    config = uvicorn.Config(app, log_config=None, lifespan="off", log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(200):  # at most 20 s to start
            if server.started:
                break
            threading.Event().wait(0.1)
        assert server.started
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    finally:
        server.should_exit = True
        thread.join(20)
        sock.close()


@pytest.fixture
def failing() -> Iterator[str]:
    app = Starlette(routes=[Route("/boom", boom)], exception_handlers={Exception: failure})
    yield from served(Guard(app, ServeSettings(), "default-src 'none'"))


@pytest.fixture
def bare() -> Iterator[str]:
    yield from served(Guard(bare_failure, ServeSettings(), "default-src 'none'"))  # type: ignore[arg-type]


def expected_headers(csp: str) -> dict[str, str]:
    return {name.decode(): value.decode() for name, value in security_headers(csp)}


def test_a_500_carries_the_security_headers_and_is_logged_once(
    failing: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        response = requests.get(failing + "boom", timeout=30)
    assert response.status_code == 500
    assert "internal error: RuntimeError" in response.text and "Traceback" not in response.text
    for name, value in expected_headers("default-src 'none'").items():
        assert response.headers[name] == value, name
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == ["internal error on /boom"]


def test_a_failure_below_every_handler_still_gets_a_500_with_the_headers(
    bare: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        response = requests.get(bare + "x", timeout=30)
    assert response.status_code == 500 and "internal error" in response.text
    for name, value in expected_headers("default-src 'none'; frame-ancestors 'none'").items():
        assert response.headers[name] == value, name
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == [
        "internal error on /x"
    ]
