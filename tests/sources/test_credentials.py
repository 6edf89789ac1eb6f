"""Credentials never leave the command line: a URL's password and its secret query values
are used for the request and shown as ``***`` everywhere else.

End to end: whole ``gcadj`` processes (check, export, audit with --csv and --report,
fetch) against the real HTTP server on 127.0.0.1, then every file they wrote, their
stdout, their stderr and the page cache are searched for the secrets."""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import FIXTURES, invoke_gcadj
from httpserver import FixtureServer, page, play_path, redirect, status

from gcadj.app.pipeline import source_name
from gcadj.outputs.registry import writers
from gcadj.sources.fetch import Fetcher, FetchError, FetchOptions
from gcadj.urls import is_secret_key, redact_text, redact_url

PASSWORD = "s3cretPW"
TOKEN = "T0kenXYZ"
SECRETS = (PASSWORD, TOKEN)
GAME = play_path("alice-bob-2009-166-518")
MISSING = play_path("gone-2009-172-1")
NO_MOVES = play_path("nomoves-2009-176-1")
PAGES = FIXTURES / "pages"


@pytest.fixture
def server() -> Iterator[FixtureServer]:
    routes = {
        f"{GAME}&token={TOKEN}": page((PAGES / "pmc_pre.html").read_bytes()),
        GAME: page((PAGES / "pmc_pre.html").read_bytes()),
        f"{MISSING}&token={TOKEN}": status(404),
        f"{NO_MOVES}&token={TOKEN}": page((PAGES / "no_moves.html").read_bytes()),
        f"/hop?sig={TOKEN}": redirect(f"ftp://bob:{PASSWORD}@example.org/log.txt"),
    }
    with FixtureServer(routes) as running:
        yield running


def secret_url(server: FixtureServer, path: str, *, token: bool = True) -> str:
    host = server.base.removeprefix("http://")
    return f"http://alice:{PASSWORD}@{host}{path}" + (f"&token={TOKEN}" if token else "")


def shown_url(server: FixtureServer, path: str, *, token: bool = True) -> str:
    host = server.base.removeprefix("http://")
    return f"http://alice:***@{host}{path}" + ("&token=***" if token else "")


def cache_home(tmp_path: Path) -> dict[str, str]:
    """The fetch cache in the test's own folder, never the home folder's."""
    return {"XDG_CACHE_HOME": str(tmp_path / "cache")}


def assert_no_secret(where: str, text: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"{secret!r} in {where}"


def assert_no_secret_in_files(folder: Path) -> int:
    """Every file under `folder`, read as bytes; returns how many were searched."""
    count = 0
    for path in folder.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            for secret in SECRETS:
                assert secret.encode() not in data, f"{secret!r} in {path}"
            count += 1
    return count


def test_the_request_carries_the_credentials(server: FixtureServer, tmp_path: Path) -> None:
    run = invoke_gcadj("check", "--json", secret_url(server, GAME), env=cache_home(tmp_path))
    assert run.returncode == 0, run.stderr
    (hit,) = server.hits(f"{GAME}&token={TOKEN}")
    assert (
        hit.headers["Authorization"]
        == "Basic " + base64.b64encode(f"alice:{PASSWORD}".encode()).decode()
    )


def test_check_shows_no_secret(server: FixtureServer, tmp_path: Path) -> None:
    urls = [secret_url(server, path) for path in (GAME, MISSING, NO_MOVES)]
    for flags in (["--json"], [], ["-v"], ["-q"]):
        run = invoke_gcadj("check", *flags, *urls, env=cache_home(tmp_path))
        assert run.returncode == 4, run.stderr
        assert_no_secret(f"check {flags} stdout", run.stdout)
        assert_no_secret(f"check {flags} stderr", run.stderr)
    run = invoke_gcadj("check", "--json", *urls, env=cache_home(tmp_path))
    verdicts = [json.loads(line) for line in run.stdout.splitlines()]
    assert [v["source"] for v in verdicts] == [
        shown_url(server, p) for p in (GAME, MISSING, NO_MOVES)
    ]
    assert verdicts[0]["status"] == "legal"
    assert verdicts[1]["error"] == f"{shown_url(server, MISSING)}: HTTP 404 Not Found"
    assert verdicts[2]["error"].startswith(f"{shown_url(server, NO_MOVES)}:1:1: no move list")
    assert_no_secret_in_files(tmp_path)


@pytest.mark.parametrize("to", list(writers()))
def test_export_shows_no_secret(to: str, server: FixtureServer, tmp_path: Path) -> None:
    target = tmp_path / "out" / f"game.{to}"
    target.parent.mkdir()
    run = invoke_gcadj(
        "export", secret_url(server, GAME), "--to", to, "-o", str(target), env=cache_home(tmp_path)
    )
    assert run.returncode == 0, run.stderr
    assert_no_secret("export stderr", run.stderr + run.stdout)
    text = target.read_text(encoding="utf-8")
    assert_no_secret(f"export --to {to}", text)
    if to in ("pgn", "gc"):
        assert f'[Site "{shown_url(server, GAME)}"]' in text  # the Site tag, redacted


def test_audit_shows_no_secret_in_any_output(server: FixtureServer, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    urls = [secret_url(server, path) for path in (GAME, MISSING, NO_MOVES)]
    for flags in ([], ["-v"]):
        run = invoke_gcadj(
            "audit",
            *urls,
            "--out",
            str(out / "r.jsonl"),
            "--csv",
            str(out / "r.csv"),
            "--report",
            str(out / "r.html"),
            "--viewers",
            "all",
            "--force",
            "--delay",
            "0",
            "--jobs",
            "2",
            *flags,
            env=cache_home(tmp_path),
        )
        assert run.returncode == 4, run.stderr
        assert_no_secret("audit stdout", run.stdout)
        assert_no_secret("audit stderr", run.stderr)
    rows = [json.loads(line) for line in (out / "r.jsonl").read_text().splitlines()]
    assert sorted(row["source"] for row in rows) == sorted(
        shown_url(server, p) for p in (GAME, MISSING, NO_MOVES)
    )
    viewers = list((out / "r-viewers").glob("*.html"))
    assert viewers  # the legal game has its viewer
    assert shown_url(server, GAME).replace("&", "&amp;") in viewers[0].read_text()
    assert assert_no_secret_in_files(out) >= 4  # JSONL, CSV, report, viewer
    # --resume knows the redacted sources: nothing is judged again
    run = invoke_gcadj(
        "audit", *urls, "--out", str(out / "r.jsonl"), "--resume", "-q", env=cache_home(tmp_path)
    )
    assert len((out / "r.jsonl").read_text().splitlines()) == 3
    assert_no_secret("audit --resume stderr", run.stderr + run.stdout)


def test_fetch_writes_a_redacted_site_tag(server: FixtureServer, tmp_path: Path) -> None:
    target = tmp_path / "game.txt"
    run = invoke_gcadj(
        "fetch",
        secret_url(server, GAME),
        "-o",
        str(target),
        "--delay",
        "0",
        env=cache_home(tmp_path),
    )
    assert run.returncode == 0, run.stderr
    assert f'[Site "{shown_url(server, GAME)}"]' in target.read_text()
    missing = invoke_gcadj(
        "fetch", secret_url(server, MISSING), "--delay", "0", env=cache_home(tmp_path)
    )
    assert missing.returncode == 4
    assert f"{shown_url(server, MISSING)}: HTTP 404 Not Found" in missing.stderr
    assert_no_secret("fetch stderr", run.stderr + missing.stderr + missing.stdout)
    assert_no_secret_in_files(tmp_path)


def test_the_cache_is_keyed_without_the_credentials(server: FixtureServer, tmp_path: Path) -> None:
    first = invoke_gcadj("check", secret_url(server, GAME), env=cache_home(tmp_path))
    assert first.returncode == 0, first.stderr
    other = secret_url(server, GAME).replace(PASSWORD, "another").replace(TOKEN, "other")
    second = invoke_gcadj("check", other, env=cache_home(tmp_path))
    assert second.returncode == 0, second.stderr
    assert len(server.hits(f"{GAME}&token={TOKEN}")) == 1  # the second came from the cache
    assert server.hits(f"{GAME}&token=other") == []
    (entry,) = (tmp_path / "cache" / "gcadj" / "pages").rglob("*.page")
    key = hashlib.sha256(shown_url(server, GAME).encode()).hexdigest()
    assert entry.name == f"{key}.page"
    assert_no_secret_in_files(tmp_path / "cache")


def test_an_unreachable_url_is_named_without_its_password(tmp_path: Path) -> None:
    url = f"http://bob:{PASSWORD}@127.0.0.1:9/play.php?log=x&apiKey={TOKEN}"
    run = invoke_gcadj("check", "--json", url, env=cache_home(tmp_path))
    assert run.returncode == 4
    (verdict,) = [json.loads(line) for line in run.stdout.splitlines()]
    assert verdict["source"] == "http://bob:***@127.0.0.1:9/play.php?log=x&apiKey=***"
    assert "connection failed" in verdict["error"]
    assert_no_secret("unreachable", run.stdout + run.stderr)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://alice:pw@host/g", "http://alice:***@host/g"),
        ("https://alice@host/g", "https://alice@host/g"),  # a user name alone is no secret
        ("http://:pw@host/g", "http://:***@host/g"),
        ("http://u:p@ss@host/g?x=1", "http://u:***@host/g?x=1"),  # the last '@' ends it
        (
            "https://h/p.php?game=G&log=a-b&token=t&api_key=k&apiKey=k&X-Amz-Signature=s",
            "https://h/p.php?game=G&log=a-b&token=***&api_key=***&apiKey=***&X-Amz-Signature=***",
        ),
        (
            "https://h/p?password=x;secret=y&auth=z&sig=w",
            "https://h/p?password=***;secret=***&auth=***&sig=***",
        ),
        ("https://h/p?monkey=1&keyword=2&token=", "https://h/p?monkey=1&keyword=2&token="),
        ("https://h/p#access_token=abc", "https://h/p#access_token=***"),
        ("https://h/all.pgn#3", "https://h/all.pgn#3"),
        ("games/a?token=b.txt", "games/a?token=b.txt"),  # a file name is shown as it is
    ],
)
def test_redact_url(url: str, shown: str) -> None:
    assert redact_url(url) == shown
    assert redact_url(shown) == shown  # redacting twice changes nothing


def test_one_function_names_sources() -> None:
    assert source_name("-") == "<stdin>"
    assert source_name("http://a:b@h/") == "http://a:***@h/"
    assert is_secret_key("access_token") and is_secret_key("Signature")
    assert not is_secret_key("log") and not is_secret_key("game")
    message = "Max retries exceeded with url: /play.php?log=x&token=abc (Caused by ...)"
    assert (
        redact_text(message)
        == "Max retries exceeded with url: /play.php?log=x&token=*** (Caused by ...)"
    )


def test_every_fetch_failure_is_said_without_credentials(server: FixtureServer) -> None:
    fetcher = Fetcher(FetchOptions(retries=0, delay=0.0, connect_timeout=2, read_timeout=2))
    host = server.base.removeprefix("http://")
    with pytest.raises(FetchError) as caught:
        fetcher.get(f"http://a:{PASSWORD}@{host}/elsewhere?sig={TOKEN}")
    assert str(caught.value) == f"http://a:***@{host}/elsewhere?sig=***: HTTP 404 Not Found"
    assert caught.value.url == f"http://a:***@{host}/elsewhere?sig=***"
    assert_no_secret("what travels to another process", repr(caught.value.__reduce__()))
    with pytest.raises(FetchError) as caught:  # a redirect to a URL with its own password
        fetcher.get(f"http://a:{PASSWORD}@{host}/hop?sig={TOKEN}")
    assert caught.value.reason == (
        "redirect to 'ftp://bob:***@example.org/log.txt' refused: only http and https are "
        "fetched, not 'ftp'"
    )
