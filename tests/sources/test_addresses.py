"""Public addresses only (`FetchOptions.public_only`, for `gcadj serve` on a network).

No request ever leaves this machine: refused addresses are refused before connecting, and
the connected-socket check is shown on the test's own server on 127.0.0.1.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

import pytest
import requests
from httpserver import FixtureServer, page, redirect

from gcadj.sources.addresses import AddressRefused, check_host, refused_address
from gcadj.sources.fetch import Fetcher, FetchError, FetchOptions, PublicOnlyAdapter


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "a loopback address"),
        ("127.8.9.10", "a loopback address"),
        ("::1", "a loopback address"),
        ("::ffff:127.0.0.1", "a loopback address"),
        ("10.1.2.3", "a private address"),
        ("172.16.0.1", "a private address"),
        ("192.168.1.1", "a private address"),
        ("fd12::1", "a private address"),
        ("169.254.1.1", "a link-local address"),
        ("fe80::1%eth0", "a link-local address"),
        ("169.254.169.254", "a cloud metadata address"),
        ("100.100.100.200", "a cloud metadata address"),
        ("100.64.0.1", "not a public address"),
        ("0.0.0.0", "a private address"),
        ("224.0.0.1", "not a public address"),
        ("nonsense", "not an IP address"),
    ],
)
def test_every_kind_of_non_public_address_is_named(address: str, kind: str) -> None:
    assert refused_address(address) == kind


@pytest.mark.parametrize("address", ["8.8.8.8", "1.1.1.1", "2606:4700::1111"])
def test_public_addresses_pass(address: str) -> None:
    assert refused_address(address) is None


def test_a_name_is_judged_by_what_it_resolves_to() -> None:
    with pytest.raises(AddressRefused, match=r"localhost \((127\.0\.0\.1|::1)\) is a loopback"):
        check_host("localhost", 80)


def test_the_fetcher_refuses_before_asking_and_at_each_redirect() -> None:
    with FixtureServer({"/game": page("P e2-e4\n")}) as site:
        fetcher = Fetcher(FetchOptions(public_only=True, retries=0, delay=0))
        with pytest.raises(FetchError, match="loopback address; this server fetches public"):
            fetcher.get(site.url("/game"))
        assert site.hits("/game") == []
        plain = Fetcher(FetchOptions(retries=0, delay=0))  # the CLI's: no such check
        assert plain.get(site.url("/game")).text() == "P e2-e4\n"


def test_a_redirect_to_a_private_address_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first hop passes the check (as a public name would), the redirect does not."""
    import gcadj.sources.fetch as fetch

    with FixtureServer() as site:
        site.routes["/start"] = redirect("http://169.254.169.254/latest/meta-data/")
        first = site.url("/start")
        real = fetch.check_host
        monkeypatch.setattr(
            fetch,
            "check_host",
            lambda host, port: None if port == site.httpd.server_address[1] else real(host, port),
        )
        fetcher = Fetcher(FetchOptions(public_only=True, retries=0, delay=0))
        fetcher.session.adapters.clear()  # the plain adapter: this hop is "public" here
        fetcher.session.mount("http://", requests.adapters.HTTPAdapter())
        with pytest.raises(
            FetchError, match=r"169\.254\.169\.254 is a cloud metadata address.*redirect to"
        ):
            fetcher.get(first)
        assert len(site.hits("/start")) == 1


def test_the_connected_socket_is_checked_too() -> None:
    """A name that resolved to a public address and then to a private one (DNS rebinding)
    is caught on the socket: the adapter refuses a peer on loopback."""
    with FixtureServer({"/x": page("hello")}) as site:
        session = requests.Session()
        session.mount("http://", PublicOnlyAdapter())
        with pytest.raises(AddressRefused, match=r"connected to 127\.0\.0\.1, a loopback address"):
            session.get(site.url("/x"), timeout=10)
        assert site.hits("/x") == []


def six_to_four(ipv4: str) -> str:
    """The 6to4 address (2002::/16) of an IPv4 address: its 32 bits after the prefix."""
    return str(ipaddress.IPv6Address((0x2002 << 112) | (int(ipaddress.IPv4Address(ipv4)) << 80)))


def nat64(ipv4: str) -> str:
    """The well-known-prefix NAT64 address (64:ff9b::/96) of an IPv4 address."""
    return str(ipaddress.IPv6Address((0x64FF9B << 96) | int(ipaddress.IPv4Address(ipv4))))


def mapped(ipv4: str) -> str:
    return f"::ffff:{ipv4}"


@pytest.mark.parametrize("wrap", [six_to_four, nat64, mapped])
@pytest.mark.parametrize(
    "ipv4", ["127.0.0.1", "10.0.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0"]
)
def test_an_ipv6_address_carrying_a_refused_ipv4_one_is_refused_as_that_one(
    wrap: Callable[[str], str], ipv4: str
) -> None:
    """2002:7f00:1:: (6to4), 64:ff9b::7f00:1 (NAT64) and ::ffff:127.0.0.1 reach 127.0.0.1."""
    assert refused_address(ipv4) is not None
    assert refused_address(wrap(ipv4)) == refused_address(ipv4)


@pytest.mark.parametrize("wrap", [six_to_four, nat64, mapped])
def test_an_ipv6_address_carrying_a_public_ipv4_one_is_public(
    wrap: Callable[[str], str],
) -> None:
    assert refused_address("8.8.8.8") is None
    assert refused_address(wrap("8.8.8.8")) is None


@pytest.mark.parametrize(
    "address",
    [
        "192.0.0.8",  # IPv4 dummy: global to Python before 3.11.10 / 3.12.4
        "192.0.0.170",
        "64:ff9b:1::808:808",  # local-use NAT64, whatever it carries
        "2001:2::1",  # benchmarking
        "2001:10::1",  # ORCHID
        "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
        "::127.0.0.1",  # IPv4-compatible (deprecated)
    ],
)
def test_special_purpose_blocks_are_refused_whatever_the_python(address: str) -> None:
    assert refused_address(address) is not None


def test_the_issue_s_addresses_are_refused() -> None:
    assert six_to_four("127.0.0.1") == "2002:7f00:1::"  # the issue's own examples
    assert six_to_four("10.0.0.1") == "2002:a00:1::"
    for address in ("2002:7f00:1::", "2002:a00:1::", "192.0.0.8"):
        assert refused_address(address) is not None
