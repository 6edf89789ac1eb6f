"""Which network addresses a server may fetch from for its users: public ones only.

`gcadj serve` fetches game pages for whoever uses it. Exposed on a network, that would
let anyone make it request its own machine (``http://127.0.0.1:…``), the local network
(``10.…``, ``192.168.…``) or a cloud's metadata service (``169.254.169.254``) and show
what came back: server-side request forgery. So, when asked (`FetchOptions.public_only`),
the fetcher refuses every address that is not global unicast, after the host name is
resolved and again at each redirect (`check_host`), and once more on the connected
socket itself (`refused_address` of its peer), so a name that resolves to a public
address the first time and a private one the second (DNS rebinding) is refused too.

Nothing here imports requests: the checks are plain functions over `ipaddress`.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Final

from gcadj.errors import AddressRefused

# Cloud metadata services: link-local or private already, named here so that the message
# says what they are (and 100.100.100.200, Alibaba's, sits in the shared 100.64/10 block).
METADATA: Final = frozenset(
    {
        ipaddress.ip_address("169.254.169.254"),
        ipaddress.ip_address("169.254.170.2"),
        ipaddress.ip_address("100.100.100.200"),
        ipaddress.ip_address("fd00:ec2::254"),
    }
)


# Blocks that are not public although some Python versions' `ipaddress` calls them global
# (its tables were corrected in 3.12.4 and 3.11.10): the IETF protocol assignments of
# 192.0.0.0/24 (192.0.0.8, "IPv4 dummy", among them), local-use NAT64, benchmarking, ORCHID,
# documentation and segment-routing prefixes.
NOT_GLOBAL: Final = tuple(
    ipaddress.ip_network(block)
    for block in (
        "192.0.0.0/24",
        "64:ff9b:1::/48",
        "2001:2::/48",
        "2001:10::/28",
        "3fff::/20",
        "5f00::/16",
    )
)
# The well-known NAT64 prefix: the IPv4 address is in the last 32 bits.
NAT64: Final = ipaddress.ip_network("64:ff9b::/96")


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries and reaches in the end: IPv4-mapped
    (``::ffff:10.0.0.1``), 6to4 (``2002:7f00:1::`` is 127.0.0.1), NAT64 (``64:ff9b::a00:1``)
    and both ends of a Teredo address."""
    found = [ip.ipv4_mapped, ip.sixtofour]
    if ip in NAT64:
        found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    if ip.teredo is not None:
        found += ip.teredo
    return [address for address in found if address is not None]


def address_kind(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """What kind of non-public address `ip` is by itself ("a loopback address", ...), or None."""
    if ip in METADATA:
        return "a cloud metadata address"
    if ip.is_loopback:
        return "a loopback address"
    if ip.is_link_local:
        return "a link-local address"
    if ip.is_private:
        return "a private address"
    if any(ip in block for block in NOT_GLOBAL if block.version == ip.version):
        return "not a public address"
    if ip.is_multicast or ip.is_unspecified or ip.is_reserved or not ip.is_global:
        return "not a public address"
    return None


def refused_address(address: str) -> str | None:
    """What kind of non-public address this is ("a loopback address", ...), or None when it
    is a public one a server may fetch from. Unparsable text is refused too.

    An IPv6 address that carries an IPv4 one (`embedded_ipv4`) is judged by that one as
    well, so ``2002:a00:1::`` is a private address and ``::ffff:127.0.0.1`` a loopback one;
    a NAT64 address of a public IPv4 address is public (the prefix itself is only a
    translator's)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])  # a zone id: fe80::1%eth0
    except ValueError:
        return "not an IP address"
    if isinstance(ip, ipaddress.IPv4Address):
        return address_kind(ip)
    inner = embedded_ipv4(ip)
    for ipv4 in inner:
        kind = address_kind(ipv4)
        if kind is not None:
            return kind
    if ip.ipv4_mapped is not None or (inner and ip in NAT64):
        return None  # the IPv4 address it stands for is public
    return address_kind(ip)


def check_host(host: str, port: int) -> None:
    """Resolve `host` and raise `AddressRefused` if any of its addresses is not public (a
    name with one private address among public ones is refused: the connection could
    use any of them)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as err:
        raise AddressRefused(f"cannot resolve the host {host!r} ({err})") from None
    for info in infos:
        address = str(info[4][0])
        kind = refused_address(address)
        if kind is not None:
            shown = host if host == address else f"{host} ({address})"
            raise AddressRefused(
                f"refused: {shown} is {kind}; this server fetches public addresses only"
            )


__all__ = [
    "METADATA",
    "NAT64",
    "NOT_GLOBAL",
    "AddressRefused",
    "address_kind",
    "check_host",
    "embedded_ipv4",
    "refused_address",
]
