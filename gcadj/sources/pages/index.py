"""The index of logs (``logs.php``): which viewing pages hold games of one variant."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Final
from urllib.parse import urljoin

from gcadj.urls import is_url

if TYPE_CHECKING:
    from bs4 import Tag

from gcadj.sources.pages.board import cell_texts
from gcadj.sources.pages.text import SMALL, query_value, small_text, soup_of, table_rows

log = logging.getLogger(__name__)

# ---------------------------------------------------------------------------------------
# Log indexes


@dataclass(frozen=True)
class IndexEntry:
    """One row of a ``logs.php`` index: a game's viewing page and what the row says."""

    url: str
    game: str | None
    log_name: str | None
    last_modified: str | None = None
    last_move_by: str | None = None
    next_move_for: str | None = None


def _same_game(a: str, b: str) -> bool:
    return " ".join(a.replace("+", " ").split()).casefold() == " ".join(b.split()).casefold()


def index_entries(html: str, base_url: str, game: str | None = None) -> list[IndexEntry]:
    """The viewing pages an index lists (of `game` only, if given), in page order, once each.

    Rows of a table headed Game / Log / Last Modified / Last Move by / Next Move for are
    read by column; without such a table every link to a ``play.php?…log=…`` page counts,
    its game taken from the link's query.
    """
    from bs4 import Tag

    soup = soup_of(html)
    entries: list[IndexEntry] = []
    rows = table_rows(soup)
    for table in soup.find_all("table"):
        if isinstance(table, Tag) and id(table) in rows:
            entries.extend(_index_table(rows[id(table)], base_url))
    if not entries:
        for link in soup.find_all("a", href=True):
            href = link.get("href") if isinstance(link, Tag) else None
            if isinstance(href, str) and "play.php" in href and "log=" in href:
                url = urljoin(base_url, href)
                game_name, log_name = query_value(url, "game"), query_value(url, "log")
                entries.append(IndexEntry(url, game_name, log_name))
    seen: set[str] = set()
    kept = []
    for entry in entries:
        if entry.url in seen or not is_url(entry.url):
            continue
        if game is not None and (entry.game is None or not _same_game(entry.game, game)):
            continue
        seen.add(entry.url)
        kept.append(entry)
    return kept


_COLUMNS: Final = {
    "game": "game",
    "log": "log_name",
    "last modified": "last_modified",
    "last move by": "last_move_by",
    "next move for": "next_move_for",
}


def _index_table(rows: list[Tag], base_url: str) -> list[IndexEntry]:
    from bs4 import Tag

    columns: dict[int, str] | None = None
    entries = []
    for row in rows:
        cells = cell_texts(row)
        texts = [small_text(c) or "" for c in cells]
        if columns is None:
            named = {
                i: _COLUMNS[t.casefold()] for i, t in enumerate(texts) if t.casefold() in _COLUMNS
            }
            if "game" in named.values() and "log_name" in named.values():
                columns = named
            continue
        href = None
        for link in islice(row.descendants, 4 * SMALL):  # a row holds a few links
            value = link.get("href") if isinstance(link, Tag) and link.name == "a" else None
            if isinstance(value, str) and "play.php" in value:
                href = value
                break
        if href is None:
            continue
        url = urljoin(base_url, href)
        fields = {name: (texts[i] or None) for i, name in columns.items() if i < len(texts)}
        entries.append(
            IndexEntry(
                url=url,
                game=fields.get("game") or query_value(url, "game"),
                log_name=fields.get("log_name") or query_value(url, "log"),
                last_modified=fields.get("last_modified"),
                last_move_by=fields.get("last_move_by"),
                next_move_for=fields.get("next_move_for"),
            )
        )
    return entries


__all__ = ["IndexEntry", "index_entries"]
