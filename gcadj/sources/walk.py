"""Every source the user named, expanded: folders walked, an audit's JSONL read, indexes listed.

`gcadj check`, `export` and `audit` take the same kinds of source, and they must see the
same games in the same order, so the expansion lives here, once:

- a **folder** is walked recursively, in sorted order (the entries of a folder by name,
  files and sub-folders together, as ``find | sort`` lists them), for every kind of file
  gcadj reads (`SOURCE_SUFFIXES`); hidden files and folders are skipped, and so are gcadj's
  own outputs: an HTML page carrying `gcadj.about.GENERATOR_META` (an audit report, a game
  viewer) and an audit's JSONL and CSV files (their suffixes are not read at all);
- a file named ``*.jsonl`` is an **audit's results**: its games are the ``source`` of each
  line, in order (so ``gcadj export --to pgn results.jsonl`` gathers an audited archive);
- a **log index** (``--index``, audit only) is fetched once and its viewing pages of one
  game listed;
- anything else (a file, a URL, ``-``, a missing path) is passed on as it is, so that
  reading it gives a verdict (an "error" one if it cannot be read), never a silent drop.

What cannot be expanded (a folder with no game in it, a folder or an entry in it that
cannot be read, a symbolic link in a loop, a JSONL that is not an audit's, an index that
cannot be fetched or lists no game of the variant) is a *problem*: the walker collects
them in `problems`, and the command reports them and exits 4; the walk goes on.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, BinaryIO, Final

# Start-up matters (`gcadj check` of one game): json loads only for a JSONL, fetch for an index.
from gcadj.about import is_gcadj_html
from gcadj.urls import is_url, redact_url

if TYPE_CHECKING:
    from gcadj.sources.fetch import Fetcher

HTML_SUFFIXES: Final = (".html", ".htm")
SOURCE_SUFFIXES: Final = (".txt", ".log", ".pgn", *HTML_SUFFIXES)
"""The endings of the files a folder walk reads (in either case): logs, PGN, pages."""
SOURCE_SUFFIXES_TEXT: Final = " ".join(SOURCE_SUFFIXES)
"""`SOURCE_SUFFIXES` as the help texts and messages name them: ``.txt .log .pgn .html .htm``."""
AUDIT_SUFFIX: Final = ".jsonl"
DEFAULT_GAME: Final = "Pocket Mutation Chess"
HEAD_BYTES: Final = 16384  # where an HTML page's <head> and its generator tag are


def is_own_output(path: str) -> bool:
    """Is this file one gcadj wrote about other games (an HTML page with its generator tag)?"""
    if os.path.splitext(path)[1].lower() not in HTML_SUFFIXES:
        return False
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEAD_BYTES)
    except OSError:
        return False  # unreadable: judged, so that the user hears why
    return is_gcadj_html(head.decode("utf-8", "replace"))


def is_walked(name: str, path: str | None = None) -> bool:
    """Does a folder walk read this file? A game file by its ending, not hidden, and (when
    its `path` is given, to look inside) not a page gcadj wrote. The one statement of the
    rule: the walk follows it, and the audit's file-safety checks ask it."""
    if name.startswith("."):
        return False
    if os.path.splitext(name)[1].lower() not in SOURCE_SUFFIXES:
        return False
    return path is None or not is_own_output(path)


def walk_folder(folder: str, problem: Callable[[str], None] | None = None) -> Iterator[str]:
    """The game files under `folder`, recursively, in sorted order (see the module docstring).

    What cannot be looked at costs only itself: a folder that cannot be listed, or an
    entry whose kind cannot be told (a symbolic link in a loop, an entry that cannot be
    examined), is told to `problem` (the walker reports it, exit 4) and the walk goes on.
    A symbolic link to a folder is not followed (a loop could never end)."""
    try:
        with os.scandir(folder) as entries:
            listing = sorted(entries, key=lambda entry: entry.name)
    except OSError as err:
        if problem is not None:
            problem(f"{folder}: cannot read this folder: {err.strerror or err}")
        return
    for entry in listing:
        if entry.name.startswith("."):
            continue
        try:
            is_folder = entry.is_dir(follow_symlinks=False)
            is_file = not is_folder and entry.is_file()
        except OSError as err:
            if problem is not None:
                problem(f"{entry.path}: cannot read: {err.strerror or err}")
            continue
        if is_folder:
            yield from walk_folder(entry.path, problem)
        elif is_file and is_walked(entry.name, entry.path):
            yield entry.path


MAX_AUDIT_LINE: Final = 64 * 1024 * 1024  # a verdict with --all's 1,000 findings is ~1 MB


def audit_sources(path: str) -> list[str]:
    """The ``source`` of every line of an audit's JSONL, in order; `ValueError` naming the
    line if the file is not one (a torn last line, as a kill leaves it, is ignored).

    Read a line at a time, each at most `MAX_AUDIT_LINE` bytes: a huge file named
    ``*.jsonl`` costs its list of sources, never the whole file in memory. A FIFO or a
    device so named is refused (opening a FIFO would wait for a writer)."""
    import json  # not at start-up: most commands never meet a JSONL
    import stat

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise ValueError(f"{path}: not a regular file, so not an audit's results")
        with open(path, "rb") as handle:
            return _sources_of(path, handle, json.loads)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except OSError as err:
        raise ValueError(f"{path}: cannot read: {err.strerror or err}") from None


def _sources_of(path: str, handle: BinaryIO, loads: Callable[[bytes], object]) -> list[str]:
    sources = []
    number = 0
    while raw := handle.readline(MAX_AUDIT_LINE + 1):
        number += 1
        if not raw.endswith(b"\n"):
            if len(raw) > MAX_AUDIT_LINE:
                raise ValueError(f"{path}:{number}: a line of over 64 MiB is no audit's result")
            break  # no newline at the end: a torn last line
        if not raw.strip():
            continue
        try:
            record = loads(raw)
            source = record["source"] if isinstance(record, dict) else None
        except (ValueError, KeyError):
            source = None
        if not isinstance(source, str):
            raise ValueError(
                f'{path}:{number}: not an audit\'s result line (a JSON object with a "source")'
            )
        sources.append(source)
    return sources


def is_folder(spec: str) -> bool:
    return spec != "-" and not is_url(spec) and os.path.isdir(spec)


@dataclass
class SourceWalker:
    """Every source of a command, lazily and in a stable order; see the module docstring.

    It may be iterated more than once (the audit counts its sources first): an index is
    fetched once per walker, and each problem is recorded once.
    """

    specs: tuple[str, ...]
    index_urls: tuple[str, ...] = ()
    game: str = DEFAULT_GAME
    fetcher: Fetcher | None = None
    problems: list[str] = field(default_factory=list)
    _indexes: dict[str, list[str]] = field(default_factory=dict)

    def __iter__(self) -> Iterator[str]:
        for spec in self.specs:
            yield from self.expand(spec)
        for url in self.index_urls:
            yield from self._index(url)

    def expand(self, spec: str) -> Iterator[str]:
        """The sources one spec stands for."""
        if is_folder(spec):
            found = 0
            known = len(self.problems)
            for path in walk_folder(spec, self._problem):
                found += 1
                yield path
            if not found and len(self.problems) == known:
                self._problem(f"{spec}: no game file ({SOURCE_SUFFIXES_TEXT}) in this folder")
        elif not is_url(spec) and spec.lower().endswith(AUDIT_SUFFIX):
            try:
                sources = audit_sources(spec)
            except ValueError as err:
                self._problem(str(err))
                return
            if not sources:
                self._problem(f"{spec}: an audit's results with no game in them")
            yield from sources
        else:
            yield spec

    def _problem(self, message: str) -> None:
        if message not in self.problems:
            self.problems.append(message)

    def _index(self, url: str) -> list[str]:
        if url not in self._indexes:
            self._indexes[url] = self._read_index(url)
        return self._indexes[url]

    def _read_index(self, url: str) -> list[str]:
        from gcadj.errors import FetchError
        from gcadj.sources.fetch import default_fetcher
        from gcadj.sources.pages.index import index_entries

        fetcher = self.fetcher or default_fetcher()
        try:
            page = fetcher.get(url, fresh=True)  # an index changes; its games mostly do not
        except FetchError as err:
            self._problem(f"index {err}")
            return []
        entries = index_entries(page.text(), page.final_url, self.game)
        if not entries:
            self._problem(f"index {redact_url(url)}: lists no game of {self.game!r}")
        return [entry.url for entry in entries]


def expand_sources(specs: tuple[str, ...] | list[str]) -> tuple[list[str], list[str]]:
    """Every source `specs` stand for, and the problems met (for commands that want a list)."""
    walker = SourceWalker(tuple(specs))
    return list(walker), walker.problems


__all__ = [
    "AUDIT_SUFFIX",
    "SOURCE_SUFFIXES",
    "SOURCE_SUFFIXES_TEXT",
    "SourceWalker",
    "audit_sources",
    "expand_sources",
    "is_own_output",
    "walk_folder",
]
