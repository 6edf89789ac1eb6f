"""Deadlines for slow and idle clients, kept where uvicorn reads the bytes (its h11 protocol).

uvicorn times out only an idle keep-alive connection, and only until its first byte: a
client that sends a header a byte every few seconds (slowloris) holds its connection for
ever, and with enough of them nobody else gets in. ASGI middleware cannot help, since it
runs only once the headers are whole. So `GuardedH11Protocol` adds, per connection:

- **a header deadline**: a request's headers must be whole `ClientLimits.header_timeout`
  seconds after the connection opened (or after the previous answer, on a kept-alive
  connection); past it the connection gets a 408 and is closed. An idle connection (not
  a byte sent) is closed by the same clock, quietly (`gcadj.web.serve` sets uvicorn's own
  keep-alive timer a little later, so that this one speaks first);
- **a minimum rate and a deadline for a body**: once the headers are in, the body has
  the same time again, plus one second for every `ClientLimits.min_rate` bytes received
  (Apache's mod_reqtimeout rule), and never more than `ClientLimits.body_timeout` seconds
  in all, however fast it comes; a client slower than that is cut off, and the app hears
  it hang up (one line in the log). Time while the server itself stopped reading does
  not count;
- **caps on connections**: past `ClientLimits.max_connections` open at once, or past
  `ClientLimits.client_connections` from one client (its address,
  `gcadj.web.clients.client_key`), a new one is closed at once. Behind a reverse proxy
  (`ClientLimits.trust_proxy`) every connection is the proxy's, so only the first cap
  holds here; the proxy's clients are told apart by their requests
  (`gcadj.web.guard`).

Idle connections count against nothing but these caps (the server's limit on requests
at once counts requests, in `gcadj.web.guard`), so slow clients cost a socket each, for
seconds, and one client's cannot take every socket.
"""

from __future__ import annotations

import asyncio
import logging
import math
from dataclasses import dataclass
from typing import Any, ClassVar, Final

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from gcadj.web.clients import Shares, client_key
from gcadj.web.guard import security_headers

log = logging.getLogger(__name__)

TIMED_OUT: Final = b"request timeout: the request's headers did not arrive in time\n"


@dataclass(frozen=True)
class ClientLimits:
    """How long a client may take (see the module docstring)."""

    header_timeout: float
    min_rate: int  # bytes a second
    max_connections: int
    body_timeout: float = 0.0  # seconds for a whole body (0: no deadline but the rate)
    client_connections: int = 0  # per client (0: no cap)
    trust_proxy: bool = False  # every connection is a proxy's: no cap per client here


def timeout_answer() -> bytes:
    """The whole 408 answer, written to the socket as it is (no request was read)."""
    lines = [
        b"HTTP/1.1 408 Request Timeout",
        b"content-type: text/plain; charset=utf-8",
        b"content-length: " + str(len(TIMED_OUT)).encode("ascii"),
        b"connection: close",
        *(name + b": " + value for name, value in security_headers()),
    ]
    return b"\r\n".join(lines) + b"\r\n\r\n" + TIMED_OUT


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the deadlines of the module docstring; `protocol_for`
    makes the class with its limits."""

    limits: ClassVar[ClientLimits] = ClientLimits(10.0, 10_000, 1000)
    shares: ClassVar[Shares] = Shares(0)  # connections per client, of one server

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.phase = "header"  # "header": waiting for one; "body": reading one; "answer"
        self.phase_started = 0.0
        self.phase_bytes = 0
        self.paused_time = 0.0  # seconds of this body during which the server did not read
        self.deadline_timer: asyncio.TimerHandle | None = None
        self.counted: str | None = None  # its client, counted in `shares` while it is open

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.limits.max_connections:
            log.debug("too many connections: closed a new one")
            transport.close()
            return
        if not self.limits.trust_proxy:
            peer = transport.get_extra_info("peername")
            client = client_key(peer[0] if isinstance(peer, tuple) and peer else None)
            if not self.shares.take(client):
                log.debug("too many connections from %s: closed a new one", client)
                transport.close()
                return
            self.counted = client
        self.enter("header")

    def connection_lost(self, exc: Exception | None) -> None:
        self.cancel_deadline()
        if self.counted is not None:
            self.shares.give_back(self.counted)
            self.counted = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.phase != "answer":
            self.phase_bytes += len(data)
        super().data_received(data)
        self.follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self.follow()

    def follow(self) -> None:
        """Move to the phase h11 says the client is in; each phase starts its own clock."""
        if self.transport.is_closing():
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            wanted = "header"
        elif state is h11.SEND_BODY:
            wanted = "body"
        else:  # the request is whole (or the connection is ending): the app's turn
            wanted = "answer"
        if wanted != self.phase:
            self.enter(wanted)

    def enter(self, phase: str) -> None:
        self.cancel_deadline()
        self.phase = phase
        self.phase_started = self.loop.time()
        self.phase_bytes = 0
        self.paused_time = 0.0
        if phase != "answer":
            self.arm(self.limits.header_timeout)

    def arm(self, delay: float) -> None:
        self.deadline_timer = self.loop.call_later(max(0.05, delay), self.check_deadline)

    def cancel_deadline(self) -> None:
        if self.deadline_timer is not None:
            self.deadline_timer.cancel()
            self.deadline_timer = None

    def deadline(self) -> float:
        """When the current phase must be over: the headers' deadline, or the body's,
        which moves on with every `min_rate` bytes received, up to `body_timeout`."""
        limits = self.limits
        end = self.phase_started + limits.header_timeout
        if self.phase != "body":
            return end
        end = math.inf if limits.min_rate <= 0 else end + self.phase_bytes / limits.min_rate
        if limits.body_timeout > 0:
            end = min(end, self.phase_started + limits.body_timeout)
        return end + self.paused_time

    def check_deadline(self) -> None:
        self.deadline_timer = None
        if self.transport.is_closing() or self.phase == "answer":
            return
        if self.phase == "body" and self.flow.read_paused:  # our turn, not the client's
            self.paused_time += 1.0
            self.arm(1.0)
            return
        left = self.deadline() - self.loop.time()
        if left > 0:
            self.arm(min(left, 60.0))
            return
        if self.phase == "header":
            if self.phase_bytes or self.conn.trailing_data[0]:  # a request begun: say why
                log.info("closed a connection whose request headers took too long")
                self.transport.write(timeout_answer())
            self.transport.close()
        else:
            log.info("closed a connection whose request body came too slowly")
            self.transport.close()


def protocol_for(limits: ClientLimits) -> type[GuardedH11Protocol]:
    """The protocol class uvicorn is given (``http=``): `GuardedH11Protocol` with `limits`
    (and the count of each client's connections, of this server only)."""
    shares = Shares(limits.client_connections)
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"limits": limits, "shares": shares})


__all__ = ["ClientLimits", "GuardedH11Protocol", "protocol_for", "timeout_answer"]
