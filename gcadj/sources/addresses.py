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


def refused_address(address: str) -> str | None:
    """What kind of non-public address this is ("a loopback address", ...), or None when it
    is a public one a server may fetch from. Unparsable text is refused too."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])  # a zone id: fe80::1%eth0
    except ValueError:
        return "not an IP address"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # ::ffff:127.0.0.1 is 127.0.0.1
    if ip in METADATA:
        return "a cloud metadata address"
    if ip.is_loopback:
        return "a loopback address"
    if ip.is_link_local:
        return "a link-local address"
    if ip.is_private:
        return "a private address"
    if ip.is_multicast or ip.is_unspecified or ip.is_reserved or not ip.is_global:
        return "not a public address"
    return None


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


__all__ = ["METADATA", "AddressRefused", "check_host", "refused_address"]
