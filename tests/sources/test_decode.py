"""gcadj.sources.decode: one rule for files, stdin and pages, and it never raises.

Every codec Python knows is tried as a declared charset on random bytes; pages served
with an undecodable charset, UTF-16 pages and logs, and empty bodies go through the real
fetcher against a real HTTP server on 127.0.0.1, and through the real command line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from encodings.aliases import aliases
from pathlib import Path

import pytest
from conftest import FIXTURES, invoke_gcadj
from httpserver import FixtureServer, page, play_path
from hypothesis import given, settings
from hypothesis import strategies as st

from gcadj.app.check import check_source
from gcadj.errors import FetchError
from gcadj.sources.decode import decode_text, header_charset, meta_charset
from gcadj.sources.fetch import Fetcher, FetchOptions, set_default_fetcher

ROOT = Path(__file__).resolve().parents[2]
GAME = (FIXTURES / "pages" / "pmc_pre.html").read_text(encoding="utf-8")
# Every label Python knows, plus the ones that crashed gcadj and some nonsense.
LABELS = sorted(
    {*aliases, *aliases.values()}
    | {"undefined", "punycode", "idna", "unicode_escape", "utf-7", "x-user-defined", "", "\x00"}
)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200), st.sampled_from(LABELS), st.booleans())
def test_decoding_never_raises_whatever_the_declared_charset(
    data: bytes, label: str, in_meta: bool
) -> None:
    if in_meta:
        body = b'<meta charset="' + label.encode("ascii", "replace") + b'">' + data
        text = decode_text(body)
    else:
        text = decode_text(data, f"text/html; charset={label}")
    assert isinstance(text, str) and not text.startswith("\ufeff")


@pytest.mark.parametrize("label", ["undefined", "punycode", "idna", "unicode_escape", "utf-7"])
def test_a_useless_charset_is_skipped_for_utf8_then_windows_1252(label: str) -> None:
    text = "“good” move — 5 € Jörg"
    assert decode_text(text.encode("utf-8"), f"text/html; charset={label}") == text
    assert decode_text(text.encode("cp1252"), f"text/html; charset={label}") == text
    meta = f'<meta http-equiv="Content-Type" content="text/html; charset={label}"><p>{text}'
    assert decode_text(meta.encode("cp1252")).endswith(text)


def test_latin1_and_ascii_labels_are_read_as_windows_1252_like_browsers() -> None:
    data = "“quoted” €".encode("cp1252")
    assert decode_text(data, "text/html; charset=ISO-8859-1") == "“quoted” €"
    assert decode_text(data, "text/html; charset=us-ascii") == "“quoted” €"


def test_the_five_bytes_windows_1252_leaves_undefined_are_latin1() -> None:
    assert decode_text(b"\x81\x8d\x8f\x90\x9d\x80") == "\x81\x8d\x8f\x90\x9d€"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-8"])
def test_a_bom_wins_and_is_dropped(codec: str) -> None:
    text = "P e2-e4 // é €"
    data = "\ufeff".encode(codec) + text.encode(codec)
    assert decode_text(data) == text
    assert decode_text(data, "text/html; charset=iso-8859-1") == text  # the BOM wins


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_bom_is_known_by_its_nul_bytes(codec: str) -> None:
    text = "P e2-e4\np e7-e5 // ok\n"
    assert decode_text(text.encode(codec)) == text


def test_a_meta_declaring_utf16_in_ascii_is_not_believed() -> None:
    body = '<meta charset="utf-16"><pre>P e2-e4 // é</pre>'.encode()
    assert decode_text(body).endswith("// é</pre>")


def test_charset_labels_are_read_from_header_and_meta() -> None:
    assert header_charset('text/html; Charset="Windows-1251"') == "Windows-1251"
    assert header_charset("text/html") is None
    assert meta_charset(b"<head><meta charset='koi8-r'>") == "koi8-r"
    assert decode_text("<p>Иван</p>".encode("koi8-r"), "text/html; charset=koi8-r") == (
        "<p>Иван</p>"
    )


# -- pages through the real fetcher --------------------------------------------------


@pytest.fixture
def server() -> Iterator[FixtureServer]:
    with FixtureServer() as running:
        yield running


def fetcher(cache: Path | None) -> Fetcher:
    return Fetcher(FetchOptions(delay=0, retries=0, read_timeout=2, cache_dir=cache))


@pytest.fixture
def default_fetcher(tmp_path: Path) -> Iterator[Path]:
    cache = tmp_path / "cache"
    set_default_fetcher(fetcher(cache))
    yield cache
    set_default_fetcher(None)


@pytest.mark.parametrize("where", ["header", "meta"])
@pytest.mark.parametrize("label", ["undefined", "punycode"])
def test_a_page_with_an_undecodable_charset_is_judged(
    server: FixtureServer, default_fetcher: Path, where: str, label: str
) -> None:
    html = GAME.replace("<head>", f'<head><meta charset="{label}">') if where == "meta" else GAME
    content_type = f"text/html; charset={label}" if where == "header" else "text/html"
    server.routes[play_path("odd")] = page(html.encode("utf-8"), content_type)
    url = server.url(play_path("odd"))
    verdict = check_source(url)
    assert (verdict.status, verdict.legal_plies) == ("legal", 11), verdict.error
    again = check_source(url)  # now from the cache: the same verdict, no second download
    assert (again.status, again.legal_plies) == ("legal", 11)
    assert len(server.hits(play_path("odd"))) == 1


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_a_utf16_page_with_a_bom_is_read(
    server: FixtureServer, default_fetcher: Path, codec: str
) -> None:
    body = "\ufeff".encode(codec) + GAME.replace("alice", "Jörg “A”").encode(codec)
    server.routes[play_path("wide")] = page(body, "text/html")
    verdict = check_source(server.url(play_path("wide")))
    assert (verdict.status, verdict.legal_plies) == ("legal", 11), verdict.error
    assert verdict.log is not None and verdict.log.tag("White") == "Jörg “A”"


@pytest.mark.parametrize("body", [b"", b"  \r\n\t ", "\ufeff \n".encode("utf-16")])
def test_an_empty_body_is_an_error_and_never_cached(
    server: FixtureServer, tmp_path: Path, body: bytes
) -> None:
    server.routes[play_path("empty")] = page(body)
    url = server.url(play_path("empty"))
    cache = tmp_path / "cache"
    with pytest.raises(FetchError, match="empty") as caught:
        fetcher(cache).get(url)
    assert str(caught.value).startswith(url)
    assert not any(path.is_file() for path in cache.rglob("*"))  # nothing cached
    set_default_fetcher(fetcher(cache))
    try:
        verdict = check_source(url)
    finally:
        set_default_fetcher(None)
    assert verdict.status == "error"
    assert verdict.error is not None and "empty" in verdict.error and url in verdict.error
    assert len(server.hits(play_path("empty"))) == 2  # asked again: the failure was not kept


def test_fetch_of_an_empty_page_names_the_url_and_exits_4(server: FixtureServer) -> None:
    server.routes[play_path("empty")] = page(b"")
    url = server.url(play_path("empty"))
    done = invoke_gcadj("fetch", url, "--no-cache", "--delay", "0", "--retries", "0")
    assert done.returncode == 4
    assert url in done.stderr and "empty" in done.stderr


def test_an_audit_counts_an_empty_page_as_an_error(server: FixtureServer, tmp_path: Path) -> None:
    server.routes[play_path("empty")] = page(b"")
    server.routes[play_path("good")] = page(GAME)
    out = tmp_path / "out.jsonl"
    urls = [server.url(play_path("empty")), server.url(play_path("good"))]
    args = ["audit", *urls, "--out", str(out), "--jobs", "1", "--quiet", "--no-cache"]
    done = invoke_gcadj(*args, "--delay", "0", "--retries", "0")
    statuses = {line["source"]: line["status"] for line in map(json.loads, out.open())}
    assert statuses == {urls[0]: "error", urls[1]: "legal"}, done.stderr
    assert done.returncode != 0


# -- files and standard input --------------------------------------------------------

CP1252_LOG = '[White "Jörg “Jo” Müller"]\n[Black "Zoë"]\nP e2-e4 // “good” move — 5 €\np e7-e5\n'


@pytest.mark.parametrize("to", ["pgn", "gc", "json"])
def test_a_windows_1252_file_keeps_its_characters_through_every_export(
    tmp_path: Path, to: str
) -> None:
    source = tmp_path / "game.txt"
    source.write_bytes(CP1252_LOG.encode("cp1252"))
    done = invoke_gcadj("export", str(source), "--to", to)
    assert done.returncode == 0, done.stderr
    text = done.stdout if to != "json" else json.dumps(json.loads(done.stdout), ensure_ascii=False)
    for kept in ("“good” move — 5 €", "Jörg “Jo” Müller", "Zoë"):
        assert kept in text, (kept, text)


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_logs_from_stdin_with_or_without_a_bom(codec: str) -> None:
    done = invoke_gcadj("check", "-", "--json", stdin=CP1252_LOG.encode(codec))
    verdict = json.loads(done.stdout)
    assert (verdict["status"], verdict["legal_plies"]) == ("legal", 2), done.stderr
