"""Where games come from: a file, standard input ('-'), and (see scrape/fetch) pages.

A source is named by what the user typed; reading it gives the log text. Read failures
raise `SourceError` with a message that names the source, so one unreadable source
becomes one "error" verdict and the others go on.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from gcadj.errors import SourceError
from gcadj.notation.parse import parse_log
from gcadj.notation.records import GameLog
from gcadj.sources.decode import decode_text
from gcadj.sources.urls import is_url, url_scheme
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile


def read_source(spec: str) -> str:
    """The text of a source: '-' is standard input, a URL is fetched, anything else a file."""
    if spec == "-":
        return decode_text(sys.stdin.buffer.read())
    if is_url(spec):
        return read_url(spec)
    scheme = url_scheme(spec)
    if scheme is not None:  # ftp://, file://: refused here, neither fetched nor opened
        raise SourceError(f"{spec}: only http and https URLs are fetched, not {scheme!r}")
    path = Path(spec)
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise SourceError(f"{spec}: is a directory, not a game log") from None
    except FileNotFoundError:
        raise SourceError(f"{spec}: no such file") from None
    except OSError as err:
        raise SourceError(f"{spec}: cannot read: {err.strerror or err}") from None
    return decode_text(data)


_GAME_REF = re.compile(r"(.+)#([1-9][0-9]*)")


def game_ref(spec: str) -> tuple[str, int] | None:
    """``all.pgn#3`` names the third game of all.pgn (as check and audit name the games of
    a file of several): the file's spec and the number, or None for a whole source. A file
    whose own name ends like that is itself, not a game of another."""
    match = _GAME_REF.fullmatch(spec)
    if match is None or (not is_url(spec) and os.path.exists(spec)):
        return None
    return match[1], int(match[2])


def read_url(url: str) -> str:
    """The page at an http(s) URL as text, through the shared polite, cached fetcher.

    requests is imported here, not at start-up. Any other scheme is refused by
    `read_source` (and by the fetcher, at every redirect too) with a message naming it.
    """
    from gcadj.errors import FetchError
    from gcadj.sources.fetch import default_fetcher

    try:
        return default_fetcher().get(url).text()
    except FetchError as err:
        raise SourceError(str(err)) from None


def read_log(path: str | Path, pocket_file: PocketFile = DEFAULT_POCKET_FILE) -> GameLog:
    """Read and parse a log file (``OSError`` if it cannot be read, else as :func:`parse_log`)."""
    data = Path(path).read_bytes()
    return parse_log(decode_text(data), source=str(path), pocket_file=pocket_file)
