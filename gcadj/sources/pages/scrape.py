"""Game Courier pages to gcadj log text: the game's facts as tag pairs, then its move list.

We have never seen the markup of a real viewing page (docs/rules.md §6.3 describes what it
shows, not how), so nothing here depends on one selector or class name:

* The **move list** is found by content. Every element of the page is rendered to text
  lines (``<br>`` and block elements end lines; ``pre``/``textarea`` keep theirs; table
  rows are tried both as one line and cell by cell) and the real parser,
  `gcadj.notation.parse.parse_log`, is the judge: the chosen element is the one whose lines parse
  into the most plies, the smallest such one when several nest. Up to three header or
  footer lines that are not moves ("Moves:", "Game over") are trimmed off a candidate.
* The **players** are the text after "White:" and "Black:"; the **status line** is what
  stands between the "Viewing Game" heading and the board; **game** and **log** come from
  the URL's query (``game=…&log=…``), else from form fields or links on the page.
* The **pocket file** letter (``i`` on the 2009 preset, ``p`` on the newer one) comes from
  the board's file labels (a row reading a–h and one more letter), else from the squares
  the moves use.
* The **board diagram**, when it can be read, becomes a ``PageBoard`` tag in gcadj's FEN
  placement-and-pockets form, so that whoever replays the game can compare it with the
  final position (`with_page_checks`). Two shapes are read: an HTML table with
  file labels (cells holding a piece image whose ``alt``/``title`` is a letter or a name,
  or whose file name is like ``wrook.gif`` / ``bN.png``, or a bare letter), and a
  Game Courier code (FEN-like, ``-`` for cells that do not exist) in an input named
  ``fen``/``code`` or as a line of the page's text. Anything else: no comparison.

What the scraper doubts goes into ``ScrapeWarning`` tags, so that a saved log carries
the same warnings as the page it came from.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from gcadj.errors import PageError
from gcadj.urls import is_url, redact_url
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile

if TYPE_CHECKING:
    from bs4 import BeautifulSoup, Tag

from gcadj.sources.pages.board import find_board, pocket_letter_from_labels
from gcadj.sources.pages.html_tree import text_position
from gcadj.sources.pages.movelist import MoveList, find_move_list
from gcadj.sources.pages.text import query_value, render_lines, soup_of, tag_value

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ScrapedGame:
    """What a viewing page says about a game; `log_text` is the log gcadj reads."""

    moves: tuple[str, ...]  # the move list's lines, as shown
    pocket_file: PocketFile
    game: str | None = None
    log_name: str | None = None
    site: str | None = None
    white: str | None = None
    black: str | None = None
    status: str | None = None
    board: str | None = None  # gcadj placement + pockets, e.g. "rnbq.../...[Ii]"
    warnings: tuple[str, ...] = ()
    positions: Sequence[tuple[int, int]] = ()  # where each move line stands in the page

    def page_position(self, log_line: int) -> tuple[int, int] | None:
        """Where line `log_line` (1-based) of `log_text` stands in the page, for a move line."""
        index = log_line - (self.log_text.count("\n") - len(self.moves)) - 1
        return self.positions[index] if 0 <= index < len(self.positions) else None

    @property
    def log_text(self) -> str:
        """Tag pairs, then the move lines: text that `gcadj check` and `export` read."""
        tags = [
            ("Game", self.game),
            ("Log", self.log_name),
            ("Site", self.site),
            ("White", self.white),
            ("Black", self.black),
            ("Status", self.status),
            ("PocketFile", self.pocket_file if self.pocket_file != DEFAULT_POCKET_FILE else None),
            ("PageBoard", self.board),
        ]
        tags += [("ScrapeWarning", w) for w in self.warnings]
        lines = [f'[{name} "{tag_value(value)}"]' for name, value in tags if value]
        return "\n".join([*lines, *self.moves]) + "\n"


# ---------------------------------------------------------------------------------------
# Players, status, names


WHITE_PLAYER = re.compile(r"\bWhite\s*:\s*(.*?)\s*(?=\bBlack\s*:|$)")
BLACK_PLAYER = re.compile(r"\bBlack\s*:\s*(.*?)\s*(?=\bWhite\s*:|$)")
_NOTICE = re.compile(r"\buncoded\b|no rules (?:are )?enforced", re.IGNORECASE)
_STATUS_WORDS = re.compile(
    r"resign|draw|won\b|wins\b|forfeit|time(?:d)? ?out|checkmate|stalemate|game (?:is )?over",
    re.IGNORECASE,
)
BOARD_MARK: Final = "\x00board"
MOVES_MARK: Final = "\x00moves"


def player_name(lines: list[str], pattern: re.Pattern[str]) -> str | None:
    """The name after the first `WHITE_PLAYER` or `BLACK_PLAYER` label in `lines`, if any."""
    for line in lines:
        match = pattern.search(line)
        if match:
            name = match.group(1).strip(" :")
            return name or None
    return None


def _status(lines: list[str], names: tuple[str | None, ...] = ()) -> str | None:
    """The line(s) between the "Viewing Game" heading and the board, if any.

    Without the heading, only a line before the board that reads like an ending
    ("... has resigned.") is taken. A line that only repeats the game's or log's name
    (a sub-heading, perhaps) is not a status.
    """
    skip = {name.casefold() for name in names if name}
    heading = next((i for i, line in enumerate(lines) if "viewing game" in line.lower()), None)
    found: list[str] = []
    for line in lines[(heading + 1 if heading is not None else 0) :]:
        if line in (BOARD_MARK, MOVES_MARK) or _NOTICE.search(line):
            break
        players = WHITE_PLAYER.search(line) or BLACK_PLAYER.search(line)
        if players or pocket_letter_from_labels([line]):
            break
        if line.casefold() in skip:
            continue
        if heading is not None or _STATUS_WORDS.search(line):
            found.append(line)
    if not found or len(found) > 2 or any(len(line) > 200 for line in found):
        return None
    return " ".join(found)


def _names(root: Tag, url: str | None) -> tuple[str | None, str | None]:
    """(game, log) from the URL's query, else form fields, else a link to a viewing page."""
    from bs4 import Tag

    def from_query(address: str) -> tuple[str | None, str | None]:
        return query_value(address, "game"), query_value(address, "log")

    game, log_name = from_query(url) if url else (None, None)
    for name in ("game", "log"):
        field = root.find("input", attrs={"name": name})
        value = field.get("value") if isinstance(field, Tag) else None
        if isinstance(value, str) and value.strip():
            if name == "game":
                game = game or value.strip()
            else:
                log_name = log_name or value.strip()
    if game is None or log_name is None:
        for link in root.find_all("a", href=True):
            href = link.get("href") if isinstance(link, Tag) else None
            if isinstance(href, str) and "play.php" in href and "log=" in href:
                link_game, link_log = from_query(href)
                game, log_name = game or link_game, log_name or link_log
                break
    return game, log_name


def _site(root: Tag, url: str | None) -> str | None:
    """The page's address: the URL it was fetched from, else its canonical link; without
    credentials (`redact_url`): a Site tag is shown everywhere."""
    from bs4 import Tag

    if url:
        return redact_url(url)
    for link in root.find_all("link", href=True):
        rel = link.get("rel") if isinstance(link, Tag) else None
        href = link.get("href") if isinstance(link, Tag) else None
        if rel and "canonical" in rel and isinstance(href, str) and is_url(href):
            return redact_url(href)
    meta = root.find("meta", attrs={"property": "og:url"})
    content = meta.get("content") if isinstance(meta, Tag) else None
    return redact_url(content) if isinstance(content, str) and is_url(content) else None


# ---------------------------------------------------------------------------------------
# The page


def scrape_page(html: str, source: str = "<page>", url: str | None = None) -> ScrapedGame:
    """Read a viewing page; raises `PageError` (naming `source`) if it has no move list.

    `url` is where the page came from (it supplies game, log and Site); when `source`
    is itself a URL it is used for that.
    """
    if url is None and is_url(source):
        url = source
    source = redact_url(source)  # it names the page in every message
    soup = soup_of(html)
    root = soup.body or soup
    everything = render_lines(root)
    label_letter = pocket_letter_from_labels(everything)
    viewing = any("viewing game" in line.lower() for line in everything)
    del everything  # a page's worth of lines, not kept while the move list is sought
    found = find_move_list(root, label_letter, soup)
    if not isinstance(found, MoveList):
        what = "a Game Courier viewing page" if viewing else "the page"
        if found is None:
            raise PageError(
                source,
                f"no move list found on {what} "
                "(no element's text lines parse as Game Courier moves)",
            )
        raise PageError(
            source,
            f"no move list found on {what}: the nearest, {found.plies} "
            f"{'ply' if found.plies == 1 else 'plies'} in {_named(soup, found.element)}, "
            f"has a line that is not a move here: {found.text[:80]!r}",
            found.line,
            found.column,
        )
    warnings: list[str] = []
    if found.rival is not None:
        warnings.append(
            f"two equally good move lists ({found.plies} plies each): "
            f"{_named(soup, found.element)} and {_named(soup, found.rival)}; the first is taken"
        )
    pocket_file = found.pocket_file
    if label_letter is not None and pocket_file != label_letter:
        warnings.append(
            f"the board's file labels name the pocket file {label_letter!r}, "
            f"but the moves use {pocket_file!r}"
        )
    board_element, board = find_board(root, pocket_file)
    markers = {id(found.element): MOVES_MARK}
    if board_element is not None:
        markers[id(board_element)] = BOARD_MARK
    marked = render_lines(root, markers=markers)
    game, log_name = _names(soup, url)
    if board is None:
        log.debug("%s: no readable board diagram", source)
    return ScrapedGame(
        moves=found.lines,
        pocket_file=pocket_file,
        game=game,
        log_name=log_name,
        site=_site(soup, url),
        white=player_name(marked, WHITE_PLAYER),
        black=player_name(marked, BLACK_PLAYER),
        status=_status(marked, (game, log_name)),
        board=board,
        warnings=tuple(warnings),
        positions=found.positions,
    )


def _named(soup: BeautifulSoup, element: Tag) -> str:
    """An element as a reader finds it in the page's source: "a <pre> at line 12:5"."""
    where = text_position(soup, element)
    at = f" at line {where[0]}:{where[1]}" if where else ""
    return f"a <{element.name}>{at}"
