"""Who a client of `gcadj serve` is, and its share of what the server holds at once.

The server's limits on connections, requests, upload bytes, checks and workers are each
shared twice: by everyone together, and per client, so that one client cannot take them
all and lock out the rest (``docs/security.md`` has the policy). A client is its address:

- **the peer of the connection**, by default. The headers a request carries are never
  read for it: a client could write anything there;
- **the last address of ``X-Forwarded-For``** when the operator says the server sits behind
  a reverse proxy (``--trust-proxy``): every request then comes from the proxy, which
  appends the address of its own client to that header (nginx:
  ``proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;``). Only the last address
  is the proxy's word; those before it are the client's, and may be made up. A request
  without the header is the proxy's own.

An IPv6 address counts as its /64 network, as a host is commonly given a whole /64 and
could otherwise be a new client with every address it takes; an IPv4-mapped address is its
IPv4 address.
"""

from __future__ import annotations

import ipaddress
from collections import Counter
from collections.abc import Iterable
from typing import Final

CLIENT_SCOPE: Final = "gcadj.client"  # where `gcadj.web.guard` leaves a request's client
UNKNOWN: Final = "unknown"  # a peer with no address (a Unix socket): one client
FORWARDED_FOR: Final = b"x-forwarded-for"


def client_key(address: str | None) -> str:
    """The client an address belongs to (see the module docstring): "203.0.113.7",
    "2001:db8:1:2::/64"; an address that cannot be read is its own text, lowered.

    >>> client_key("2001:db8:1:2:aaaa::1"), client_key("::ffff:10.0.0.1"), client_key(None)
    ('2001:db8:1:2::/64', '10.0.0.1', 'unknown')
    """
    if not address:
        return UNKNOWN
    text = address.strip().strip("[]")
    try:
        ip = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return text.lower()[:100] or UNKNOWN
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def forwarded_client(values: Iterable[bytes]) -> str | None:
    """The last address of a request's ``X-Forwarded-For`` headers (several are one list,
    in order), or None when there is none."""
    last = None
    for value in values:
        for item in value.decode("latin-1").split(","):
            if item.strip():
                last = item.strip()
    return last


def request_client(
    headers: Iterable[tuple[bytes, bytes]], peer: str | None, *, trust_proxy: bool
) -> str:
    """The client of a request (see the module docstring), from its headers and the peer
    address of its connection.

    >>> headers = [(b"x-forwarded-for", b"198.51.100.1, 203.0.113.7")]
    >>> request_client(headers, "127.0.0.1", trust_proxy=False)
    '127.0.0.1'
    >>> request_client(headers, "127.0.0.1", trust_proxy=True)
    '203.0.113.7'
    """
    if trust_proxy:
        forwarded = forwarded_client(v for k, v in headers if k.lower() == FORWARDED_FOR)
        if forwarded is not None:
            return client_key(forwarded)
    return client_key(peer)


class Shares:
    """What each client holds of one thing (connections, requests), at most `cap` each
    (0: no cap). For one thread (the event loop): no lock."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.held: Counter[str] = Counter()

    def take(self, client: str) -> bool:
        """One more for `client` if it has fewer than `cap`; whether it did."""
        if self.cap > 0 and self.held[client] >= self.cap:
            return False
        self.held[client] += 1
        return True

    def give_back(self, client: str) -> None:
        self.held[client] -= 1
        if self.held[client] <= 0:
            del self.held[client]


__all__ = [
    "CLIENT_SCOPE",
    "Shares",
    "client_key",
    "forwarded_client",
    "request_client",
]
