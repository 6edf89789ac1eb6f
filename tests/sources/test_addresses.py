"""Public addresses only (`FetchOptions.public_only`, for `gcadj serve` on a network).

No request ever leaves this machine: refused addresses are refused before connecting, and
the connected-socket check is shown on the test's own server on 127.0.0.1.
"""

from __future__ import annotations

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
