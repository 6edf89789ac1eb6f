"""HTTP for gcadj: polite, bounded, cached GETs of web pages (nothing here knows chess).

Game Courier is a volunteer-run site; an audit may ask it for thousands of pages. So a
`Fetcher` behaves the way a careful client should:

* one `requests.Session` (connection reuse) with a descriptive User-Agent;
* connect and read timeouts, plus a wall-clock deadline per response body, checked
  after every socket read (a server that trickles one byte per read timeout would
  otherwise never time out);
* retries with exponential backoff on connection errors, timeouts, truncated bodies,
  429 and 5xx, honouring ``Retry-After`` (and giving up at once when the server asks
  for a longer pause than we are willing to wait, rather than asking again early);
* a polite minimum delay between requests to one host;
* a cap on the body size, enforced while streaming (a huge or endless page is cut off
  and refused; the cap applies to decoded bytes, so a compressed bomb is caught too);
* http and https only, at every redirect hop (redirects are followed by hand so each
  Location is checked before it is requested);
* with ``public_only`` (a server fetching for others: ``gcadj serve``), public addresses
  only: each hop's host is resolved and refused if any of its addresses is loopback,
  private, link-local or a cloud's metadata service, and every socket's peer is checked
  again once connected (`gcadj.sources.addresses`); proxies from the environment are
  then not used (the peer would be the proxy);
* an on-disk cache of successful responses, written atomically (temporary file and
  rename), so a re-run or resumed audit does not download the same page again; an
  empty or whitespace-only body is a failure ("empty"), never cached.

Every failure is a `FetchError` whose message names the URL and says what happened.
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import logging
import os
import re
import socket
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import urljoin, urlsplit

import requests
import requests.adapters
import urllib3
import urllib3.connection
import urllib3.connectionpool

from gcadj.about import __version__
from gcadj.errors import FetchError, RetryableFetch
from gcadj.sources.addresses import AddressRefused, check_host, refused_address
from gcadj.sources.decode import decode_text
from gcadj.urls import SCHEMES, is_url, redact_text, redact_url

log = logging.getLogger(__name__)

PROJECT_URL: Final = "https://github.com/gcadj/gcadj"
USER_AGENT: Final = f"gcadj/{__version__} (Game Courier log adjudicator; +{PROJECT_URL})"
REDIRECT_CODES: Final = frozenset({301, 302, 303, 307, 308})
RETRY_CODES: Final = frozenset({429, 500, 502, 503, 504})
MAX_REDIRECTS: Final = 10
CHUNK: Final = 64 * 1024


def _failed(url: str, reason: str, status: int | None = None) -> FetchError:
    """The `FetchError` of `url`, its URL and reason without credentials (`redact_url`,
    `redact_text`): every fetch failure is made here, and its message is shown."""
    return FetchError(redact_url(url), redact_text(reason), status)


def default_cache_dir() -> Path:
    """The page cache: ``pages`` in gcadj's per-user cache folder (`about.user_cache_dir`)."""
    from gcadj.about import user_cache_dir

    return user_cache_dir() / "pages"


@dataclass(frozen=True)
class FetchOptions:
    """How politely and how patiently to fetch; the defaults suit a public site.

    ``cache_dir`` None disables the cache. ``delay`` is the minimum pause between the
    start of two requests to one host. ``retries`` counts attempts after the first.
    ``public_only`` refuses hosts that are not public addresses (see the module docstring).
    """

    connect_timeout: float = 10.0
    read_timeout: float = 30.0
    total_timeout: float = 120.0
    retries: int = 3
    backoff: float = 1.0
    max_backoff: float = 60.0
    max_retry_after: float = 300.0
    delay: float = 1.0
    max_bytes: int = 5 * 1024 * 1024
    cache_dir: Path | None = None
    user_agent: str = USER_AGENT
    public_only: bool = False


@dataclass(frozen=True)
class Page:
    """A fetched body with where it finally came from and how the server labelled it."""

    url: str  # the URL asked for
    final_url: str  # after redirects
    content_type: str
    body: bytes
    from_cache: bool = False

    def text(self) -> str:
        """The body as text (`gcadj.sources.decode.decode_text`: never raises)."""
        return decode_text(self.body, self.content_type)


class Fetcher:
    """One session, one cache, one politeness clock per host; reuse it for every request.

    `clock` and `sleep` are where the fetcher reads the time and waits (the politeness
    delay, the backoff, a Retry-After, the deadline of a body): `time.monotonic` and
    `time.sleep`, or a test's own, which then sees every wait exactly, with no stopwatch.
    """

    def __init__(
        self,
        options: FetchOptions | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.options = options or FetchOptions()
        self.clock = clock
        self.sleep = sleep
        self.session = requests.Session()
        self.session.headers["User-Agent"] = self.options.user_agent
        self.session.max_redirects = MAX_REDIRECTS
        if self.options.public_only:
            self.session.trust_env = False  # no proxy from the environment: see the docstring
            adapter = PublicOnlyAdapter()
            self.session.mount("http://", adapter)
            self.session.mount("https://", adapter)
        self._last_request: dict[str, float] = {}
        self.requests_made = 0

    def close(self) -> None:
        self.session.close()

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(self, url: str, *, fresh: bool = False) -> Page:
        """The page at `url`, from the cache unless `fresh`; raises `FetchError`.

        Only a complete 200 response is cached (and stored even when `fresh`).
        """
        _check_scheme(url, url)
        cache = self.options.cache_dir
        if cache is not None and not fresh:
            cached = _cache_read(cache, url)
            if cached is not None:
                log.debug("cache hit for %s", redact_url(url))
                return cached
        page = self._get_with_retries(url)
        if cache is not None:
            _cache_write(cache, page)
        return page

    def cached(self, url: str) -> Page | None:
        """The cached copy of `url`, without touching the network; None if there is none."""
        cache = self.options.cache_dir
        return None if cache is None else _cache_read(cache, url)

    # -- one URL, several attempts -------------------------------------------------

    def _get_with_retries(self, url: str) -> Page:
        opts = self.options
        attempt = 0
        while True:
            try:
                return self._follow(url)
            except RetryableFetch as retry:
                if attempt >= opts.retries:
                    tries = "attempt" if attempt == 0 else "attempts"
                    reason = f"{retry.reason} (gave up after {attempt + 1} {tries})"
                    raise _failed(url, reason) from None
                wait = retry.wait
                if wait is None:
                    wait = min(opts.max_backoff, opts.backoff * 2**attempt)
                elif wait > opts.max_retry_after:
                    raise _failed(
                        url,
                        f"{retry.reason}; the server asks to wait {wait:g} s, "
                        f"more than the {opts.max_retry_after:g} s we wait",
                    ) from None
                attempt += 1
                log.info(
                    "%s: %s; retry %d in %.2f s",
                    redact_url(url),
                    redact_text(retry.reason),
                    attempt,
                    wait,
                )
                self.sleep(wait)

    def _follow(self, url: str) -> Page:
        """One attempt: request, following redirects by hand (each hop checked)."""
        current = url
        for _ in range(MAX_REDIRECTS + 1):
            if self.options.public_only:
                _check_public(url, current)
            response = self._request(url, current)
            with response:
                if response.status_code in REDIRECT_CODES:
                    location = response.headers.get("Location")
                    if not location:
                        raise _failed(url, f"HTTP {response.status_code} without a Location")
                    try:
                        target = urljoin(current, location)
                    except ValueError as err:
                        raise _failed(url, f"malformed redirect to {location!r} ({err})") from None
                    _check_scheme(url, target, redirect=True)
                    log.debug("%s redirects to %s", redact_url(current), redact_url(target))
                    current = target
                    continue
                return self._read(url, current, response)
        raise _failed(url, f"more than {MAX_REDIRECTS} redirects")

    def _request(self, url: str, current: str) -> requests.Response:
        opts = self.options
        self._be_polite(current)
        self.requests_made += 1
        try:
            return self.session.get(
                current,
                timeout=(opts.connect_timeout, opts.read_timeout),
                allow_redirects=False,
                stream=True,
            )
        except requests.exceptions.ConnectTimeout:
            raise RetryableFetch(f"connect timed out after {opts.connect_timeout:g} s") from None
        except requests.exceptions.ReadTimeout:
            raise RetryableFetch(
                f"no response within the read timeout of {opts.read_timeout:g} s"
            ) from None
        except requests.exceptions.ConnectionError as err:
            raise RetryableFetch(f"connection failed ({_short(err)})") from None
        except AddressRefused as err:  # the connected peer, checked by PublicOnlyAdapter
            raise _failed(url, str(err)) from None
        except requests.exceptions.RequestException as err:
            raise _failed(url, f"request failed ({_short(err)})") from None
        except ValueError as err:
            # requests parses a redirect's Location even with allow_redirects=False, and
            # urllib.parse raises a bare ValueError ("Invalid IPv6 URL") for a malformed one
            # (our own URL passed _check_scheme, so it is the Location that is malformed).
            raise _failed(url, f"malformed redirect Location ({err})") from None

    def _read(self, url: str, current: str, response: requests.Response) -> Page:
        opts = self.options
        status = response.status_code
        if status in RETRY_CODES:
            wait = _retry_after(response.headers.get("Retry-After"))
            raise RetryableFetch(f"HTTP {status} {response.reason}", wait)
        if status != 200:
            raise _failed(url, f"HTTP {status} {response.reason}", status)
        declared = response.headers.get("Content-Length")
        if declared is not None and declared.isdigit() and int(declared) > opts.max_bytes:
            raise _failed(
                url, f"the page is {int(declared)} bytes, over the cap of {opts.max_bytes}"
            )
        body = self._read_body(url, response, self.clock() + opts.total_timeout)
        encoded = response.headers.get("Content-Encoding", "identity").lower()
        identity = encoded == "identity" and declared is not None and declared.isdigit()
        if identity and declared is not None and len(body) < int(declared):
            raise RetryableFetch(f"truncated response: got {len(body)} of {declared} bytes")
        page = Page(
            url=url,
            final_url=current,
            content_type=response.headers.get("Content-Type", ""),
            body=bytes(body),
        )
        empty = _emptiness(page)
        if empty is not None:  # never cached, never judged as a game of 0 plies
            raise _failed(url, f"empty: the server sent HTTP 200 with {empty}", status)
        return page

    def _read_body(self, url: str, response: requests.Response, deadline: float) -> bytearray:
        """The decoded body, read with `read1` so that the deadline is checked after every
        socket read, whatever arrives: `iter_content(CHUNK)` blocks until CHUNK bytes come,
        so a server trickling a byte per second would never meet the deadline. Each read
        waits at most the read timeout, so this returns or fails by the deadline plus one
        read timeout. Errors are urllib3's own here (requests wraps only `iter_content`)."""
        opts = self.options
        raw = response.raw
        body = bytearray()
        try:
            while True:
                if self.clock() > deadline:
                    raise RetryableFetch(f"no complete response within {opts.total_timeout:g} s")
                chunk = raw.read1(CHUNK, decode_content=True)
                if not chunk:
                    return body
                body += chunk
                if len(body) > opts.max_bytes:
                    raise _failed(
                        url, f"the page is over the cap of {opts.max_bytes} bytes (stopped reading)"
                    )
        except urllib3.exceptions.ReadTimeoutError:
            raise RetryableFetch(
                f"connection broken while reading (no data within {opts.read_timeout:g} s)"
            ) from None
        except urllib3.exceptions.ProtocolError as err:  # the connection closed mid-body
            raise RetryableFetch(f"truncated response ({_short(err)})") from None
        except urllib3.exceptions.DecodeError as err:
            raise _failed(url, f"the body does not decompress ({_short(err)})") from None
        except (urllib3.exceptions.HTTPError, OSError) as err:
            raise RetryableFetch(f"connection broken while reading ({_short(err)})") from None

    def _be_polite(self, url: str) -> None:
        """Sleep until `delay` seconds have passed since the last request to this host."""
        host = urlsplit(url).netloc.lower()
        last = self._last_request.get(host)
        now = self.clock()
        if last is not None:
            pause = self.options.delay - (now - last)
            if pause > 0:
                self.sleep(pause)
                now = self.clock()
        self._last_request[host] = now


def _emptiness(page: Page) -> str | None:
    """What an empty page holds ("no content", "only whitespace"), None if it is not empty."""
    if not page.body:
        return "no content"
    if not page.text().strip():
        return "only whitespace"
    return None


def _check_scheme(url: str, target: str, *, redirect: bool = False) -> None:
    """Refuse a malformed URL (``http://[::1/x``) or one not http(s), naming `url`."""
    try:
        scheme = urlsplit(target).scheme.lower()
    except ValueError as err:  # urllib.parse's "Invalid IPv6 URL" and the like
        what = f"redirect to {target!r}" if redirect else "URL"
        raise _failed(url, f"malformed {what} ({err})") from None
    if scheme not in SCHEMES:
        what = f"redirect to {target!r}" if redirect else "URL"
        raise _failed(url, f"{what} refused: only http and https are fetched, not {scheme!r}")


def _check_public(url: str, target: str) -> None:
    """Refuse `target` (the URL or a redirect's) when its host is not a public address."""
    parts = urlsplit(target)
    host = parts.hostname or ""
    try:
        port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
    except ValueError as err:
        raise _failed(url, f"malformed URL {target!r} ({err})") from None
    try:
        check_host(host, port)
    except AddressRefused as err:
        where = "" if target == url else f" (redirect to {target})"
        raise _failed(url, f"{err}{where}") from None


def _public_peer(sock: socket.socket) -> socket.socket:
    """The socket if its peer is a public address; else closed, and `AddressRefused`."""
    try:
        peer = str(sock.getpeername()[0])
    except OSError:
        peer = ""
    kind = refused_address(peer)
    if kind is not None:
        sock.close()
        raise AddressRefused(
            f"refused: connected to {peer}, {kind}; this server fetches public addresses only"
        )
    return sock


class _PublicHTTPConnection(urllib3.connection.HTTPConnection):
    def _new_conn(self) -> socket.socket:
        return _public_peer(super()._new_conn())


class _PublicHTTPSConnection(urllib3.connection.HTTPSConnection):
    def _new_conn(self) -> socket.socket:
        return _public_peer(super()._new_conn())


class _PublicHTTPPool(urllib3.connectionpool.HTTPConnectionPool):
    ConnectionCls = _PublicHTTPConnection


class _PublicHTTPSPool(urllib3.connectionpool.HTTPSConnectionPool):
    ConnectionCls = _PublicHTTPSConnection


class PublicOnlyAdapter(requests.adapters.HTTPAdapter):
    """requests' adapter whose connections check the peer they reached (DNS rebinding: the
    name may resolve to another address than the one `check_host` saw)."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _PublicHTTPPool,
            "https": _PublicHTTPSPool,
        }


def _retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


_ERRNO = re.compile(r"\[Errno -?\d+\] ([^'\")\]]+)")
_INCOMPLETE = re.compile(r"IncompleteRead\((\d+) bytes read, (\d+) more expected\)")


def _short(err: Exception) -> str:
    """The innermost useful words of a requests/urllib3 error (they nest deeply)."""
    text = str(err)
    incomplete = _INCOMPLETE.search(text)
    if incomplete:
        return f"{incomplete[1]} bytes read, {incomplete[2]} more announced"
    errno = _ERRNO.search(text)
    if errno:
        return errno[1].strip()
    return text if len(text) <= 200 else text[:197] + "..."


# -- the cache -------------------------------------------------------------------------


def _cache_path(cache_dir: Path, url: str) -> Path:
    """A page's file in the cache, keyed by its URL without credentials (`redact_url`):
    no password reaches the disk, and a new password finds the page already there."""
    key = hashlib.sha256(redact_url(url).encode("utf-8")).hexdigest()
    return cache_dir / key[:2] / f"{key}.page"


def _cache_read(cache_dir: Path, url: str) -> Page | None:
    """A cached page, or None if absent or unreadable (a damaged entry is fetched again)."""
    path = _cache_path(cache_dir, url)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head, sep, body = data.partition(b"\n")
    try:
        meta = json.loads(head) if sep else None
    except ValueError:
        meta = None
    shown = redact_url(url)
    if not isinstance(meta, dict) or meta.get("url") != shown or meta.get("length") != len(body):
        log.warning("ignoring damaged cache entry %s", path)
        return None
    page = Page(
        url=url,
        # stored without credentials: where it was not redirected, the URL asked for
        final_url=url if meta.get("final_url", shown) == shown else str(meta["final_url"]),
        content_type=str(meta.get("content_type", "")),
        body=body,
        from_cache=True,
    )
    if _emptiness(page) is not None:  # an empty page cached by an older gcadj: fetch again
        log.warning("ignoring empty cache entry %s", path)
        return None
    return page


def _cache_write(cache_dir: Path, page: Page) -> None:
    """Store a page atomically: a temporary file in the same folder, then a rename.

    A failure to cache is logged, never raised: the page itself was fetched fine.
    """
    path = _cache_path(cache_dir, page.url)
    meta = {
        "url": redact_url(page.url),
        "final_url": redact_url(page.final_url),
        "content_type": page.content_type,
        "length": len(page.body),
        "fetched": time.time(),
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".page")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(json.dumps(meta).encode("utf-8") + b"\n" + page.body)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as err:
        log.warning("could not cache %s in %s: %s", redact_url(page.url), cache_dir, err)


_default: Fetcher | None = None


def default_fetcher() -> Fetcher:
    """The process's shared fetcher with default options and the per-user cache.

    Sources named as URLs (``gcadj check URL``) go through it, so several URLs on one
    command line share one session and one politeness clock.
    """
    global _default
    if _default is None:
        _default = Fetcher(FetchOptions(cache_dir=default_cache_dir()))
    return _default


def set_default_fetcher(fetcher: Fetcher | None) -> None:
    """Replace the shared fetcher (the CLI does, to apply --cache, --delay, ...)."""
    global _default
    _default = fetcher


__all__ = [
    "FetchError",
    "FetchOptions",
    "Fetcher",
    "Page",
    "PublicOnlyAdapter",
    "default_cache_dir",
    "default_fetcher",
    "is_url",
    "set_default_fetcher",
]
