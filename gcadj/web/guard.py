"""The server's front door: what every request passes before the app sees it (ASGI).

`Guard` wraps the whole Starlette app, its error handling included, so that:

- **every answer carries the security headers** (`security_headers`: the
  Content-Security-Policy, no sniffing, no framing, no referrer to other sites, no
  caching), a 500 and the guard's own refusals too;
- **a request must name this server** in its ``Host`` (`ServeSettings.host_allowed`): a
  page that rebinds its own name to 127.0.0.1 (DNS rebinding) is answered 400 and never
  reads a thing;
- **a form posted from another site is refused** (403): a request that changes something
  (any method but GET, HEAD and OPTIONS) whose ``Origin`` (or, without one, ``Referer``)
  is not this server's own origin (`foreign_origin`). A client that sends neither
  (``curl``, a script) is not a browser carrying someone's page, and passes;
- **at most `ServeSettings.max_requests` requests run at once**, and at most
  `ServeSettings.client_requests` of one client (`gcadj.web.clients`: its address, or
  behind a trusted proxy the address the proxy names); one more is answered 503 at once,
  before anything is read, so a flood costs nothing but its answers, and one client's
  slow uploads cannot take every place. The client is left in the request's scope
  (`CLIENT_SCOPE`) for the app: its share of uploads and checks.

Idle and slow connections never reach here: `gcadj.web.protocol` times them out below.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gcadj.errors import Refused
from gcadj.web.clients import CLIENT_SCOPE, Shares, request_client
from gcadj.web.limits import ANY_HOST, ServeSettings, host_name

log = logging.getLogger(__name__)

SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS: Final = {"http": 80, "https": 443}
PLAIN_CSP: Final = "default-src 'none'; frame-ancestors 'none'"  # an answer with no page


def security_headers(csp: str = PLAIN_CSP) -> list[tuple[bytes, bytes]]:
    """The headers every answer of the server carries, with this Content-Security-Policy."""
    return [
        (b"content-security-policy", csp.encode("ascii")),
        (b"x-content-type-options", b"nosniff"),
        # Not "no-referrer": with it a browser sends "Origin: null" with the server's own
        # forms, which `foreign_origin` must refuse; "same-origin" still tells other sites
        # nothing (a check's address is its key).
        (b"referrer-policy", b"same-origin"),
        (b"x-frame-options", b"DENY"),
        (b"cross-origin-opener-policy", b"same-origin"),
        (b"cache-control", b"no-store"),
    ]


def split_host(value: str) -> tuple[str, int | None] | None:
    """A ``Host`` header's name and port ("[::1]:8000" is ("::1", 8000)); None if malformed."""
    try:
        parts = urlsplit("//" + value)
        name, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not name or parts.path or parts.query or parts.fragment or parts.username:
        return None
    return host_name(name), port


def foreign_origin(
    origin: str | None, referer: str | None, host: str, trusted: Iterable[str] = ()
) -> str | None:
    """The origin a request came from when it is not this server's (`host`, the request's
    ``Host``) nor one of the `trusted` names (``--allowed-host``, behind a proxy that
    rewrites ``Host``); None for the server's own pages and for clients that say nothing.

    ``Origin`` is what browsers send with a form's POST; ``Referer`` stands in for it
    when it is missing. ``Origin: null`` (a sandboxed frame, a local file) is foreign."""
    claimed = origin if origin is not None else referer
    if claimed is None:
        return None
    if claimed.strip() == "null":
        return "null"
    try:
        parts = urlsplit(claimed.strip())
        name, port = parts.hostname, parts.port
    except ValueError:
        return claimed
    ours = split_host(host)
    if not name or ours is None or parts.scheme not in DEFAULT_PORTS:
        return claimed
    name = host_name(name)
    if name in {host_name(t) for t in trusted}:
        return None
    default = DEFAULT_PORTS[parts.scheme]
    if (name, port or default) == (ours[0], ours[1] or default):
        return None
    return f"{parts.scheme}://{parts.netloc}"


def header(scope: Scope, name: bytes) -> str | None:
    """A request header's value (the first), decoded as Latin-1 as HTTP/1.1 sends it."""
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class Guard:
    """ASGI middleware around the whole app: see the module docstring."""

    def __init__(self, app: ASGIApp, settings: ServeSettings, csp: str) -> None:
        self.app = app
        self.settings = settings
        self.headers = security_headers(csp)
        self.plain_headers = security_headers()
        self.active = 0  # requests being handled now (the event loop's only: no lock)
        self.clients = Shares(settings.client_requests)  # and of each client

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # the lifespan: start and stop the app
            await self.app(scope, receive, send)
            return
        started = False

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.headers if k not in names]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        refusal = self.refusal(scope)
        if refusal is not None:
            await self.answer(send, refusal.status, refusal.message)
            return
        client = client_of(scope, self.settings)
        if not self.clients.take(client):
            await self.answer(send, 503, self.client_busy())
            return
        scope[CLIENT_SCOPE] = client
        self.active += 1
        try:
            await self.app(scope, receive, with_headers)
        except Exception as err:  # the app's handler logged it and answered, if it could
            if not started:
                log.error("internal error on %s", scope.get("path"), exc_info=err)
                await self.answer(send, 500, "gcadj failed on this request (internal error)")
        finally:
            self.active -= 1
            self.clients.give_back(client)

    def client_busy(self) -> str:
        return (
            f"busy: {self.clients.cap} requests from your address are being handled, the "
            "most this server takes from one client at once; try again in a minute"
        )

    def refusal(self, scope: Scope) -> Refused | None:
        """Why a request is refused before the app, or None."""
        settings = self.settings
        host = header(scope, b"host")
        if host is not None:
            named = split_host(host)
            if named is None or not settings.host_allowed(named[0]):
                log.info("refused a request for Host %r", host)
                return Refused(
                    400,
                    f"refused: this server does not answer to the name {host!r}; start it "
                    "with --allowed-host NAME to serve it under that name",
                )
        if scope.get("method", "GET") not in SAFE_METHODS:
            origin = foreign_origin(
                header(scope, b"origin"),
                header(scope, b"referer"),
                host or "",
                [h for h in settings.allowed_hosts if h != ANY_HOST],
            )
            if origin is not None:
                log.info("refused a %s from %s", scope.get("method"), origin)
                return Refused(
                    403,
                    f"refused: a form from another site ({origin}) may not post to this "
                    "server; open the server's own page and use its form",
                )
        if self.active >= settings.max_requests:
            return Refused(
                503,
                f"busy: {self.active} requests are being handled, the most this server takes "
                "at once; try again in a minute",
            )
        return None

    async def answer(self, send: Send, status: int, message: str) -> None:
        """An answer of the guard's own (a refusal, or a failure the app could not
        answer): a line of text, as the API's refusals are (the app has not run, so no
        page is made, whoever asks), closing the connection."""
        body = (message + "\n").encode("utf-8")
        headers = [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-length", str(len(body)).encode("ascii")),
            (b"connection", b"close"),
            *self.plain_headers,
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def client_of(scope: Scope, settings: ServeSettings) -> str:
    """The client a request comes from (`gcadj.web.clients.request_client`)."""
    peer = scope.get("client")
    return request_client(
        scope.get("headers", []),
        str(peer[0]) if peer else None,
        trust_proxy=settings.trust_proxy,
    )


__all__ = ["Guard", "client_of", "foreign_origin", "header", "security_headers", "split_host"]
