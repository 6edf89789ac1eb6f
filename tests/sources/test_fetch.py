"""gcadj.sources.fetch against a real HTTP server on 127.0.0.1: each fault and what it gives."""

from __future__ import annotations

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
    """Options that keep the suite quick: tiny backoff, no delay, and timeouts that a local
    server's answer meets however loaded the machine (a test of timeouts sets its own)."""
    values: dict[str, object] = {
        "connect_timeout": 5.0,
        "read_timeout": 5.0,
        "total_timeout": 30.0,
        "retries": 1,
        "backoff": 0.01,
        "delay": 0.0,
        "cache_dir": tmp_path,
    }
    values.update(changes)
    return FetchOptions(**values)  # type: ignore[arg-type]


class Clock:
    """A clock that moves only when the fetcher waits (and by `tick` at each reading): the
    waits it asks for are recorded exactly, and a deadline falls after a known number of
    readings, however loaded the machine. No unit test here reads a stopwatch."""

    def __init__(self, tick: float = 0.0) -> None:
        self.now = 1000.0
        self.tick = tick
        self.waits: list[float] = []

    def __call__(self) -> float:
        self.now += self.tick
        return self.now

    def sleep(self, seconds: float) -> None:
        self.waits.append(round(seconds, 6))
        self.now += seconds


def fetcher(options: FetchOptions, clock: Clock) -> Fetcher:
    return Fetcher(options, clock=clock, sleep=clock.sleep)


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
    clock = Clock()
    polite = fetcher(fast(delay=0.25), clock)
    for name in ("a", "b", "c"):
        polite.get(server.url(play_path(name)))
    assert clock.waits == [0.25, 0.25]  # before the second and the third request
    assert len(server.seen) == 3


def test_the_delay_counts_the_time_already_gone(server: FixtureServer) -> None:
    server.routes[play_path("a")] = page(HTML)
    clock = Clock()
    polite = fetcher(fast(delay=0.25), clock)
    polite.get(server.url(play_path("a")))
    clock.now += 0.2  # the caller spent 0.2 s on something else
    polite.get(server.url(play_path("a")), fresh=True)
    clock.now += 1.0
    polite.get(server.url(play_path("a")), fresh=True)
    assert clock.waits == [0.05]


def test_a_slow_server_times_out_after_the_retries(server: FixtureServer) -> None:
    server.routes[play_path("slow")] = slow(5.0, page(HTML))
    clock = Clock()
    with pytest.raises(FetchError) as caught:
        fetcher(fast(read_timeout=0.3), clock).get(server.url(play_path("slow")))
    # A read timeout, twice: the page the server sends after 5 s was never waited for.
    assert "read timeout of 0.3 s" in str(caught.value)
    assert "gave up after 2 attempts" in str(caught.value)
    assert play_path("slow") in str(caught.value)  # the message names the URL
    assert len(server.hits(play_path("slow"))) == 2
    assert clock.waits == [0.01]  # the backoff between them


def test_a_server_error_then_success_is_retried(server: FixtureServer) -> None:
    server.routes[play_path("flaky")] = sequence(status(500), status(503), page(HTML))
    got = Fetcher(fast(retries=3)).get(server.url(play_path("flaky")))
    assert got.text() == HTML
    assert len(server.hits(play_path("flaky"))) == 3


def test_backoff_grows_between_retries(server: FixtureServer) -> None:
    server.routes[play_path("flaky")] = sequence(status(500), status(500), page(HTML))
    clock = Clock()
    fetcher(fast(retries=2, backoff=0.1), clock).get(server.url(play_path("flaky")))
    assert clock.waits == [0.1, 0.2]
    assert len(server.hits(play_path("flaky"))) == 3


def test_not_found_is_not_retried(server: FixtureServer) -> None:
    with pytest.raises(FetchError) as caught:
        Fetcher(fast(retries=3)).get(server.url(play_path("gone")))
    assert caught.value.status == 404 and "HTTP 404" in str(caught.value)
    assert len(server.hits(play_path("gone"))) == 1


def test_too_many_requests_waits_for_retry_after(server: FixtureServer) -> None:
    server.routes[play_path("busy")] = sequence(status(429, {"Retry-After": "1"}), page(HTML))
    clock = Clock()
    assert fetcher(fast(), clock).get(server.url(play_path("busy"))).text() == HTML
    assert clock.waits == [1.0]  # honoured, though our own backoff is 0.01 s
    assert len(server.hits(play_path("busy"))) == 2


def test_a_retry_after_longer_than_we_wait_fails_at_once(server: FixtureServer) -> None:
    server.routes[play_path("busy")] = status(503, {"Retry-After": "3600"})
    clock = Clock()
    with pytest.raises(FetchError, match="asks to wait 3600 s"):
        fetcher(fast(retries=5), clock).get(server.url(play_path("busy")))
    assert clock.waits == []  # not a moment
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
    # The error itself says the reading stopped at the cap: no stopwatch needed.
    with pytest.raises(FetchError, match=r"over the cap of 100000 bytes \(stopped reading\)"):
        Fetcher(fast(max_bytes=100_000)).get(server.url(play_path("endless")))


def test_a_trickling_body_fails_at_the_wall_clock_limit(
    server: FixtureServer, tmp_path: Path
) -> None:
    # 200 bytes, one every 0.05 s: 10 s in all, each byte well within the read timeout.
    body = b"<p>" + b"x" * 193 + b"</p>"
    sent: list[int] = []
    server.routes[play_path("trickle")] = trickle(body, 0.05, sent=sent)
    options = fast(tmp_path, read_timeout=5.0, total_timeout=0.5, retries=0)
    clock = Clock(tick=0.1)  # each look at the clock is 0.1 s later: 0.5 s is 6 looks on
    with pytest.raises(FetchError, match=r"no complete response within 0\.5 s"):
        fetcher(options, clock).get(server.url(play_path("trickle")))
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]  # never cached
    # The deadline is looked at after every read, whatever arrived: the client hung up
    # a few bytes in (a read that waited for a full chunk would have taken all 200).
    assert sum(sent) < len(body) // 4, sum(sent)


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
