"""gcadj.sources.fetch against a real HTTP server on 127.0.0.1: each fault and what it gives."""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from httpserver import (
    FixtureServer,
    endless,
    page,
    play_path,
    redirect,
    sequence,
    slow,
    status,
    trickle,
    truncated,
)

from gcadj.errors import FetchError
from gcadj.sources.decode import decode_text
from gcadj.sources.fetch import USER_AGENT, Fetcher, FetchOptions, _retry_after

HTML = "<html><body><pre>P e2-e4</pre></body></html>"


def fast(tmp_path: Path | None = None, **changes: object) -> FetchOptions:
    """Options that keep the suite quick: short timeouts, tiny backoff, no delay."""
    values: dict[str, object] = {
        "connect_timeout": 0.5,
        "read_timeout": 0.3,
        "total_timeout": 5.0,
        "retries": 1,
        "backoff": 0.01,
        "delay": 0.0,
        "cache_dir": tmp_path,
    }
    values.update(changes)
    return FetchOptions(**values)  # type: ignore[arg-type]


@pytest.fixture
def server() -> Iterator[FixtureServer]:
    with FixtureServer() as running:
        yield running


def test_a_page_comes_back_with_our_user_agent(server: FixtureServer) -> None:
    server.routes[play_path("ok")] = page(HTML)
    got = Fetcher(fast()).get(server.url(play_path("ok")))
    assert got.text() == HTML
    assert got.final_url == server.url(play_path("ok"))
    (seen,) = server.hits(play_path("ok"))
    assert seen.headers["User-Agent"] == USER_AGENT
    assert USER_AGENT.startswith("gcadj/") and "+http" in USER_AGENT


def test_the_cache_answers_a_second_time_without_a_request(
    server: FixtureServer, tmp_path: Path
) -> None:
    server.routes[play_path("ok")] = page(HTML)
    url = server.url(play_path("ok"))
    first = Fetcher(fast(tmp_path)).get(url)
    again = Fetcher(fast(tmp_path)).get(url)  # a new process would do just this
    assert not first.from_cache and again.from_cache
    assert again.body == first.body
    assert len(server.hits(play_path("ok"))) == 1
    stored = list(tmp_path.rglob("*"))
    assert [p.suffix for p in stored if p.is_file()] == [".page"]  # no temp file left behind


def test_a_damaged_cache_entry_is_fetched_again(server: FixtureServer, tmp_path: Path) -> None:
    server.routes[play_path("ok")] = page(HTML)
    url = server.url(play_path("ok"))
    Fetcher(fast(tmp_path)).get(url)
    (entry,) = [p for p in tmp_path.rglob("*.page")]
    entry.write_bytes(entry.read_bytes()[:-5])  # as if cut short by a crash
    assert Fetcher(fast(tmp_path)).get(url).text() == HTML
    assert len(server.hits(play_path("ok"))) == 2


def test_fresh_skips_the_cache_and_no_cache_never_stores(
    server: FixtureServer, tmp_path: Path
) -> None:
    server.routes[play_path("ok")] = page(HTML)
    url = server.url(play_path("ok"))
    Fetcher(fast(tmp_path)).get(url)
    Fetcher(fast(tmp_path)).get(url, fresh=True)
    Fetcher(fast(None)).get(url)
    Fetcher(fast(None)).get(url)
    assert len(server.hits(play_path("ok"))) == 4


def test_requests_to_one_host_are_spaced_by_the_delay(server: FixtureServer) -> None:
    for name in ("a", "b", "c"):
        server.routes[play_path(name)] = page(HTML)
    fetcher = Fetcher(fast(delay=0.25))
    for name in ("a", "b", "c"):
        fetcher.get(server.url(play_path(name)))
    times = [s.at for s in server.seen]
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert all(gap >= 0.22 for gap in gaps), gaps


def test_a_slow_server_times_out_after_the_retries(server: FixtureServer) -> None:
    server.routes[play_path("slow")] = slow(2.0, page(HTML))
    start = time.monotonic()
    with pytest.raises(FetchError) as caught:
        Fetcher(fast()).get(server.url(play_path("slow")))
    assert "read timeout of 0.3 s" in str(caught.value)
    assert "gave up after 2 attempts" in str(caught.value)
    assert play_path("slow") in str(caught.value)  # the message names the URL
    assert len(server.hits(play_path("slow"))) == 2
    assert time.monotonic() - start < 1.9  # never waited for the server's 2 s


def test_a_server_error_then_success_is_retried(server: FixtureServer) -> None:
    server.routes[play_path("flaky")] = sequence(status(500), status(503), page(HTML))
    got = Fetcher(fast(retries=3)).get(server.url(play_path("flaky")))
    assert got.text() == HTML
    assert len(server.hits(play_path("flaky"))) == 3


def test_backoff_grows_between_retries(server: FixtureServer) -> None:
    server.routes[play_path("flaky")] = sequence(status(500), status(500), page(HTML))
    Fetcher(fast(retries=2, backoff=0.1)).get(server.url(play_path("flaky")))
    first, second, third = (s.at for s in server.hits(play_path("flaky")))
    assert second - first >= 0.09 and third - second >= 0.19


def test_not_found_is_not_retried(server: FixtureServer) -> None:
    with pytest.raises(FetchError) as caught:
        Fetcher(fast(retries=3)).get(server.url(play_path("gone")))
    assert caught.value.status == 404 and "HTTP 404" in str(caught.value)
    assert len(server.hits(play_path("gone"))) == 1


def test_too_many_requests_waits_for_retry_after(server: FixtureServer) -> None:
    server.routes[play_path("busy")] = sequence(status(429, {"Retry-After": "1"}), page(HTML))
    assert Fetcher(fast()).get(server.url(play_path("busy"))).text() == HTML
    first, second = (s.at for s in server.hits(play_path("busy")))
    assert second - first >= 0.95  # honoured, though our own backoff is 0.01 s


def test_a_retry_after_longer_than_we_wait_fails_at_once(server: FixtureServer) -> None:
    server.routes[play_path("busy")] = status(503, {"Retry-After": "3600"})
    start = time.monotonic()
    with pytest.raises(FetchError, match="asks to wait 3600 s"):
        Fetcher(fast(retries=5)).get(server.url(play_path("busy")))
    assert time.monotonic() - start < 1
    assert len(server.hits(play_path("busy"))) == 1


def test_a_truncated_body_is_retried_then_refused(server: FixtureServer) -> None:
    server.routes[play_path("cut")] = truncated(HTML.encode(), claimed=10_000)
    with pytest.raises(FetchError, match="truncated") as caught:
        Fetcher(fast()).get(server.url(play_path("cut")))
    assert "gave up after 2 attempts" in str(caught.value)
    assert len(server.hits(play_path("cut"))) == 2


def test_a_truncated_body_is_never_cached(server: FixtureServer, tmp_path: Path) -> None:
    server.routes[play_path("cut")] = sequence(truncated(HTML.encode(), 10_000), page(HTML))
    assert Fetcher(fast(tmp_path)).get(server.url(play_path("cut"))).text() == HTML
    assert Fetcher(fast(tmp_path)).get(server.url(play_path("cut"))).from_cache


def test_a_declared_size_over_the_cap_is_refused_unread(server: FixtureServer) -> None:
    server.routes[play_path("huge")] = page(b"x" * 300_000)
    with pytest.raises(FetchError, match="300000 bytes, over the cap of 100000"):
        Fetcher(fast(max_bytes=100_000)).get(server.url(play_path("huge")))
    assert len(server.hits(play_path("huge"))) == 1  # a size problem is not retried


def test_an_endless_body_is_cut_off_at_the_cap(server: FixtureServer) -> None:
    server.routes[play_path("endless")] = endless()
    start = time.monotonic()
    with pytest.raises(FetchError, match="over the cap of 100000 bytes"):
        Fetcher(fast(max_bytes=100_000)).get(server.url(play_path("endless")))
    assert time.monotonic() - start < 2


def test_a_trickling_body_fails_at_the_wall_clock_limit(
    server: FixtureServer, tmp_path: Path
) -> None:
    # 200 bytes, one every 0.05 s: 10 s in all, each byte well within the read timeout.
    server.routes[play_path("trickle")] = trickle(b"<p>" + b"x" * 193 + b"</p>", 0.05)
    options = fast(tmp_path, read_timeout=1.0, total_timeout=0.5, retries=0)
    start = time.monotonic()
    with pytest.raises(FetchError, match=r"no complete response within 0\.5 s"):
        Fetcher(options).get(server.url(play_path("trickle")))
    assert time.monotonic() - start < 2  # the deadline plus at most one read timeout
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]  # never cached


def test_a_redirect_to_another_scheme_is_refused(server: FixtureServer) -> None:
    server.routes[play_path("ftp")] = redirect("ftp://example.org/log.txt")
    refused = re.escape("redirect to 'ftp://example.org/log.txt' refused")
    with pytest.raises(FetchError, match=refused):
        Fetcher(fast(retries=3)).get(server.url(play_path("ftp")))
    assert len(server.hits(play_path("ftp"))) == 1


def test_a_redirect_within_http_is_followed(server: FixtureServer) -> None:
    server.routes[play_path("old")] = redirect(play_path("new"), 301)
    server.routes[play_path("new")] = page(HTML)
    got = Fetcher(fast()).get(server.url(play_path("old")))
    assert got.text() == HTML and got.final_url == server.url(play_path("new"))
    assert got.url == server.url(play_path("old"))


def test_only_http_and_https_are_fetched() -> None:
    for url in ("ftp://example.org/x", "file:///etc/passwd"):
        with pytest.raises(FetchError, match="only http and https"):
            Fetcher(fast()).get(url)


def test_a_refused_connection_is_retried_then_reported() -> None:
    with FixtureServer() as gone:
        url = gone.url(play_path("x"))
    with pytest.raises(FetchError, match="connection failed") as caught:
        Fetcher(fast()).get(url)
    assert "gave up after 2 attempts" in str(caught.value)


def test_latin1_bytes_without_a_charset_decode(server: FixtureServer) -> None:
    body = "<html><body>White: José Núñez</body></html>".encode("latin-1")
    server.routes[play_path("latin1")] = page(body, content_type="text/html")
    assert "José Núñez" in Fetcher(fast()).get(server.url(play_path("latin1"))).text()


def test_decode_body_prefers_what_the_page_declares() -> None:
    text = "Jörg – “Müller”"
    assert decode_text(text.encode("cp1252"), "text/html; charset=windows-1252") == text
    assert decode_text(text.encode("utf-8"), "text/html") == text
    meta = f'<meta charset="iso-8859-1"><p>{"Jörg"}</p>'.encode("latin-1")
    assert "Jörg" in decode_text(meta, "")
    assert decode_text(b"\x81\x8d\xff", "text/html; charset=nonsense") == "\x81\x8dÿ"


def test_retry_after_reads_seconds_and_dates() -> None:
    assert _retry_after("7") == 7.0
    assert _retry_after(None) is None and _retry_after("soon") is None
    later = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 30))
    wait = _retry_after(later)
    assert wait is not None and 25 <= wait <= 31
