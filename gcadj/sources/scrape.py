"""Game Courier pages to gcadj log text: the game's facts as tag pairs, then its move list.

We have never seen the markup of a real viewing page (GAMECOURIER.md §4 describes what it
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
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final
from urllib.parse import parse_qs, urljoin, urlsplit

from gcadj.engine.pieces import KIND, KINDS
from gcadj.notation.parse import LogSyntaxError, parse_log
from gcadj.sources.urls import is_url

if TYPE_CHECKING:
    from bs4 import BeautifulSoup, Tag

log = logging.getLogger(__name__)

FILES: Final = "abcdefgh"
MAX_TRIM: Final = 3
_SPACE: Final = " \t\u00a0\r\n\f\v"

# Elements whose text is never part of the game (display controls, scripts, ...).
SKIP: Final = frozenset(
    {
        "script", "style", "head", "title", "noscript", "template", "select", "option",
        "button", "iframe", "object", "embed", "svg", "math", "canvas", "map", "area",
    }
)  # fmt: skip
BLOCK: Final = frozenset(
    {
        "address", "article", "aside", "blockquote", "body", "caption", "center", "dd",
        "details", "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure",
        "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "html",
        "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody",
        "textarea", "tfoot", "thead", "tr", "ul", "legend", "menu", "listing", "xmp",
    }
)  # fmt: skip
PREFORMATTED: Final = frozenset({"pre", "textarea", "listing", "xmp", "plaintext"})


class PageError(LogSyntaxError):
    """A page that holds no readable game; says which page and what is missing.

    It is a `LogSyntaxError` so that a page without a move list is judged the way a
    text that is not a log is ("syntax-error", exit code 3), by the same code path.
    """

    def __init__(self, source: str, message: str) -> None:
        self.message = message
        super().__init__(source, 1, 1, "a Game Courier move list", "", None)

    def _render(self) -> str:
        return f"{self.source}: {self.message}"

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.source, self.message))


@dataclass(frozen=True)
class ScrapedGame:
    """What a viewing page says about a game; `log_text` is the log gcadj reads."""

    moves: tuple[str, ...]  # the move list's lines, as shown
    pocket_file: str
    game: str | None = None
    log_name: str | None = None
    site: str | None = None
    white: str | None = None
    black: str | None = None
    status: str | None = None
    board: str | None = None  # gcadj placement + pockets, e.g. "rnbq.../...[Ii]"
    warnings: tuple[str, ...] = ()

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
            ("PocketFile", self.pocket_file if self.pocket_file != "i" else None),
            ("PageBoard", self.board),
        ]
        tags += [("ScrapeWarning", w) for w in self.warnings]
        lines = [f'[{name} "{tag_value(value)}"]' for name, value in tags if value]
        return "\n".join([*lines, *self.moves]) + "\n"


def tag_value(value: str) -> str:
    """A value fit for a tag pair: one line, PGN escapes for backslash and quote."""
    flat = " ".join(value.split())
    return flat.replace("\\", "\\\\").replace('"', '\\"')


def query_value(url: str, key: str) -> str | None:
    """The first value of `key` in the URL's query string (``+`` read as a space), or None."""
    values = parse_qs(urlsplit(url).query).get(key)
    return values[0] if values else None


def soup_of(html: str) -> BeautifulSoup:
    """Parse HTML with the standard library's parser (no lxml needed)."""
    from bs4 import BeautifulSoup

    return BeautifulSoup(html, "html.parser")


# ---------------------------------------------------------------------------------------
# Rendering elements to text lines


def render_lines(
    element: Tag,
    *,
    keep_newlines: bool = False,
    cells_as_lines: bool = False,
    markers: Mapping[int, str] | None = None,
) -> list[str]:
    """The element's text as a reader sees it, one string per line, stripped, blanks dropped.

    ``keep_newlines`` keeps source newlines everywhere (a ``div`` styled as preformatted);
    ``cells_as_lines`` puts each table cell on its own line (a table holding a number and
    two plies per row). ``markers`` replaces the elements with those ids by a line of its
    own (used to find what stands between the heading and the board).
    """
    from bs4.element import NavigableString, PreformattedString, Tag

    out: list[str] = []
    buf: list[str] = []

    def end_line() -> None:
        if buf:
            out.append("".join(buf))
            buf.clear()

    def text(value: str, pre: bool) -> None:
        if pre or keep_newlines:
            first, *rest = value.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            buf.append(first)
            for part in rest:
                end_line()
                buf.append(part)
        else:
            buf.append(re.sub(r"[ \t\r\n\f]+", " ", value))

    def walk(node: Tag, pre: bool) -> None:
        for child in node.children:
            if isinstance(child, NavigableString):
                if not isinstance(child, PreformattedString):  # comments, doctype, CDATA
                    text(str(child), pre)
                continue
            if not isinstance(child, Tag):
                continue
            if markers is not None and id(child) in markers:
                end_line()
                out.append(markers[id(child)])
                continue
            name = child.name
            if name in SKIP:
                continue
            if name == "br":
                end_line()
                continue
            cell = name in ("td", "th")
            block = name in BLOCK or (cell and cells_as_lines)
            if block:
                end_line()
            elif cell:
                buf.append(" ")
            walk(child, pre or name in PREFORMATTED)
            if block:
                end_line()
            elif cell:
                buf.append(" ")

    walk(element, element.name in PREFORMATTED)
    end_line()
    lines = [" ".join(line.replace("\u00a0", " ").split()) for line in out]
    lines = [line for line in lines if line]
    return _merge_number_cells(lines) if cells_as_lines else lines


_NUMBER_ONLY = re.compile(r"\d+\.(?:\.\.)?")
_INTEGER_ONLY = re.compile(r"\d+")


def _merge_number_cells(lines: list[str]) -> list[str]:
    """Cell-by-cell lines: a lone "3." joins the next cell, a lone "3" (a row number) goes."""
    merged: list[str] = []
    prefix = ""
    for line in lines:
        if _NUMBER_ONLY.fullmatch(line):
            prefix = f"{line} "
        elif _INTEGER_ONLY.fullmatch(line):
            continue
        else:
            merged.append(prefix + line)
            prefix = ""
    return merged


# ---------------------------------------------------------------------------------------
# The move list

# A cheap superset test of "this line could be part of a log" (the parser decides).
_TAG_LINE = re.compile(r'\[\s*[A-Za-z]\w*\s*".*"\s*\]')
_PLY_START = re.compile(r"(?:\d+\.(?:\.\.)?\s*)?(?:[A-Za-z@;-])")
_PLY_CHARS = re.compile(r"[A-Za-z0-9 ;@*.\-]*")


def _could_be_log_line(line: str) -> bool:
    if line.startswith("//") or _TAG_LINE.fullmatch(line):
        return True
    body = line.split("//", 1)[0]
    return (
        _PLY_START.match(body) is not None
        and _PLY_CHARS.fullmatch(body) is not None
        and any(ch.isdigit() or ch == ";" for ch in body)
    )


def _trim(lines: list[str]) -> list[str] | None:
    """Drop up to MAX_TRIM non-move lines at each end; None if lines in between are not moves."""
    start, end = 0, len(lines)
    while start < end and start < MAX_TRIM and not _could_be_log_line(lines[start]):
        start += 1
    while end > start and len(lines) - end < MAX_TRIM and not _could_be_log_line(lines[end - 1]):
        end -= 1
    kept = lines[start:end]
    if not kept or not all(_could_be_log_line(line) for line in kept):
        return None
    return kept


_POCKET_SQUARE = re.compile(r"(?<![A-Za-z])([i-z])[18](?![0-9])")


def _pocket_letter_in(lines: list[str]) -> str | None:
    """The ninth-file letter the moves use (i1, p8, ...), if any; the commonest wins."""
    counts: Counter[str] = Counter()
    for line in lines:
        body = line.split("//", 1)[0]
        counts.update(m.group(1) for m in _POCKET_SQUARE.finditer(body))
    return counts.most_common(1)[0][0] if counts else None


@dataclass(frozen=True)
class _MoveList:
    element: Tag
    lines: tuple[str, ...]
    plies: int
    pocket_file: str


def _candidates(root: Tag) -> Iterator[tuple[Tag, int]]:
    """Every element outside SKIP that stands alone, with its depth, in document order."""
    from bs4.element import Tag

    block_texts: dict[int, str] = {}  # one scrape's blocks, by id: each computed once
    stack: list[tuple[Tag, int]] = [(root, 0)]
    while stack:
        element, depth = stack.pop()
        if depth == 0 or _stands_alone(element, block_texts):
            yield element, depth
        children = [c for c in element.children if isinstance(c, Tag) and c.name not in SKIP]
        stack.extend((child, depth + 1) for child in reversed(children))


def _stands_alone(element: Tag, block_texts: dict[int, str]) -> bool:
    """True unless the element is words inside running text (``<code>`` in a sentence).

    A move list is lines of its own; an inline element counts only when it holds all the
    text of the block around it. This keeps the rules' examples (``P c5-d6; c6-``) out.
    `block_texts` caches each block's normalised text by id() for one walk of the tree
    (the tree is alive and unchanged meanwhile, so no id is reused): recomputing it for
    every inline element made a block of n spans cost n² (4,000 spans took 21 s).
    """
    if element.name in BLOCK or element.name in ("td", "th"):
        return True
    block = element.parent
    while block is not None and block.name not in BLOCK and block.name not in ("td", "th"):
        block = block.parent
    if block is None:
        return True
    text = block_texts.get(id(block))
    if text is None:
        text = block_texts[id(block)] = " ".join(block.get_text().split())
    return text == " ".join(element.get_text().split())


# Elements that hold a list by themselves; a candidate spanning two of them is a merge.
LIST_CONTAINERS: Final = frozenset({"pre", "textarea", "ol", "ul", "table", "dl", "listing"})


def find_move_list(root: Tag, label_letter: str | None) -> _MoveList | None:
    """The element whose lines parse into the most plies (smallest on ties); None if none.

    An element that merely wraps two separate lists (a rules example in a ``pre`` next
    to the game's ``pre``) would parse into more plies than either; it is not taken.
    """
    found: list[tuple[tuple[int, int, int, int], _MoveList]] = []
    for index, (element, depth) in enumerate(_candidates(root)):
        if not any(ch.isdigit() for ch in element.get_text()):
            continue
        has_cells = element.name in ("td", "th", "tr") or element.find("td") is not None
        modes = [(False, False), (True, False)] + ([(False, True)] if has_cells else [])
        best: tuple[tuple[int, int, int, int], _MoveList] | None = None
        for keep_newlines, cells in modes:
            lines = render_lines(element, keep_newlines=keep_newlines, cells_as_lines=cells)
            kept = _trim(lines)
            parsed = None if kept is None else _parse_candidate(kept, label_letter)
            if kept is None or parsed is None:
                continue
            plies, letter = parsed
            key = (-plies, sum(len(line) for line in kept), -depth, index)
            if best is None or key < best[0]:
                best = (key, _MoveList(element, tuple(kept), plies, letter))
        if best is not None:
            found.append(best)
    containers = [m.element for _, m in found if m.element.name in LIST_CONTAINERS]
    whole = [(key, m) for key, m in found if _lists_inside(m.element, containers) < 2]
    return min(whole, key=lambda item: item[0])[1] if whole else None


def _lists_inside(element: Tag, containers: list[Tag]) -> int:
    """How many separate move-list containers `element` wraps (outermost ones only)."""
    inside = [c for c in containers if c is not element and _within(c, element)]
    return sum(1 for c in inside if not any(o is not c and _within(c, o) for o in inside))


def _within(element: Tag, ancestor: Tag) -> bool:
    """Identity, not equality: bs4 tags with the same markup compare equal."""
    return any(parent is ancestor for parent in element.parents)


def _parse_candidate(lines: list[str], label_letter: str | None) -> tuple[int, str] | None:
    """(plies, pocket file) if the lines parse as a log with at least one ply."""
    letters = [label_letter or _pocket_letter_in(lines) or "i"]
    used = _pocket_letter_in(lines)
    if used is not None and used not in letters:
        letters.append(used)
    text = "\n".join(lines)
    for letter in letters:
        try:
            game = parse_log(text, source="<page>", pocket_file=letter)
        except (LogSyntaxError, ValueError):
            continue
        if game.records:
            return len(game.records), letter
    return None


# ---------------------------------------------------------------------------------------
# File labels and the board diagram

_LABEL_ROW = re.compile(r"(?:^|\s)a b c d e f g h(?: ([i-z]))?(?:\s|$)")
_LABEL_ROW_FLIPPED = re.compile(r"(?:^|\s)(?:([i-z]) )?h g f e d c b a(?:\s|$)")


def pocket_letter_from_labels(lines: list[str]) -> str | None:
    """The ninth file's letter from a line of file labels "a b c d e f g h i" (or flipped)."""
    for line in lines:
        spaced = " ".join(line) if " " not in line and len(line) in (8, 9) else line
        for pattern in (_LABEL_ROW, _LABEL_ROW_FLIPPED):
            match = pattern.search(spaced)
            if match and match.group(1):
                return match.group(1)
    return None


_NAME_TO_LETTER: Final = {kind.name.lower(): kind.letter for kind in KINDS}


def _piece_from_words(words: str) -> str | None:
    """A piece letter from "P", "white rook", "wrook", "bN", "Black Nightrider", ..."""
    words = words.strip()
    if len(words) == 1 and words.upper() in KIND:
        return words
    flat = re.sub(r"[\s_\-]+", "", words.lower())
    for prefix, white in (("white", True), ("black", False), ("w", True), ("b", False)):
        if flat.startswith(prefix):
            rest = flat[len(prefix) :]
            letter = _NAME_TO_LETTER.get(rest)
            if letter is None and len(rest) == 1 and rest.upper() in KIND:
                letter = rest.upper()
            if letter is not None:
                return letter if white else letter.lower()
    return None


class _Unreadable(Exception):
    """A board cell whose content is not a piece we recognise: no comparison then."""


def _cell_piece(cell: Tag) -> str | None:
    """The piece in one board cell (None if empty); raises _Unreadable if unknown."""
    from bs4 import Tag

    for img in cell.find_all("img"):
        if not isinstance(img, Tag):
            continue
        for attr in ("alt", "title"):
            value = img.get(attr)
            if isinstance(value, str) and value.strip():
                piece = _piece_from_words(value)
                if piece is not None:
                    return piece
        src = img.get("src")
        if isinstance(src, str) and src:
            stem = urlsplit(src).path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
            piece = _piece_from_words(stem)
            if piece is not None:
                return piece
            if stem.lower() not in ("", "blank", "empty", "space", "spacer", "clear"):
                raise _Unreadable(f"image {src!r}")
    text = " ".join(cell.get_text().split())
    if not text or text in (".", "-", "·"):
        return None
    piece = _piece_from_words(text)
    if piece is None:
        raise _Unreadable(f"cell text {text!r}")
    return piece


def _cell_texts(row: Tag) -> list[Tag]:
    return [c for c in row.find_all(["td", "th"], recursive=False)]


def _label_files(cells: list[Tag]) -> list[str] | None:
    """The file letters of a label row (cells reading a..h plus maybe one more), else None."""
    texts = [" ".join(c.get_text().split()) for c in cells]
    labels = [t for t in texts if t]
    core = [t for t in labels if t in FILES]
    if sorted(core) != list(FILES) or len(labels) not in (8, 9):
        return None
    if any(len(t) != 1 or not ("a" <= t <= "z") for t in labels):
        return None
    return labels


def read_board_table(table: Tag) -> dict[str, str | None] | None:
    """Square -> piece letter (or None) from a board drawn as a table with file labels.

    Rank labels (cells reading 1-8 beside a row) place the rows; without them, rank 8
    is the top row unless the file labels run h to a (a board shown from Black's side).
    Returns None when the table is no board or any cell cannot be read.
    """
    from bs4 import Tag

    rows = [
        r for r in table.find_all("tr") if isinstance(r, Tag) and r.find_parent("table") is table
    ]
    files: list[str] | None = None
    body_rows: list[list[Tag]] = []
    for row in rows:
        cells = _cell_texts(row)
        labels = _label_files(cells)
        if labels is not None:
            files = files or labels
            continue
        body_rows.append(cells)
    if files is None:
        return None
    squares: dict[str, str | None] = {}
    unlabelled = 0
    for cells in body_rows:
        rank: str | None = None
        inner = list(cells)
        for end in (0, -1):
            if inner and _is_rank_label(inner[end]):
                rank = rank or " ".join(inner[end].get_text().split())
                inner.pop(end)
        if len(inner) != len(files):
            continue
        if rank is None:
            unlabelled += 1
            flipped = files.index("a") > files.index("h")
            rank = str(unlabelled if flipped else 9 - unlabelled)
        try:
            for file, cell in zip(files, inner, strict=True):
                if file in FILES or rank in ("1", "8"):
                    squares[f"{file}{rank}"] = _cell_piece(cell)
        except _Unreadable as why:
            log.debug("board table not read: %s", why)
            return None
    if sum(1 for sq in squares if sq[0] in FILES) != 64:
        return None
    return squares


def _is_rank_label(cell: Tag) -> bool:
    return (
        cell.find("img") is None
        and " ".join(cell.get_text().split()) in "12345678"
        and (len(" ".join(cell.get_text().split())) == 1)
    )


_CODE = re.compile(r"(?:[A-Za-z0-9\-]|\{[^{}/]*\})+(?:/(?:[A-Za-z0-9\-]|\{[^{}/]*\})+){7}")


def read_board_code(code: str, pocket_file: str) -> dict[str, str | None] | None:
    """Square -> piece from a Game Courier code: 8 ranks from the top, ``-`` = no cell.

    Ranks of 8 cells are the board alone; ranks of 9 have the pocket file last.
    """
    ranks = code.strip().split("/")
    if len(ranks) != 8:
        return None
    squares: dict[str, str | None] = {}
    for row, text in enumerate(ranks):
        cells: list[str | None] = []
        for match in re.finditer(r"\d+|\{[^{}]*\}|.", text):
            token = match.group(0)
            if token.isdigit():
                cells.extend([None] * int(token))
            elif token == "-":
                cells.append("-")
            else:
                letter = token.strip("{}")
                if _piece_from_words(letter) is None:
                    return None
                cells.append(_piece_from_words(letter))
        if len(cells) not in (8, 9):
            return None
        rank = str(8 - row)
        for file, piece in zip(FILES + pocket_file, cells, strict=False):
            if piece == "-":
                if file in FILES:
                    return None
                continue
            if file in FILES or rank in ("1", "8"):
                squares[f"{file}{rank}"] = piece
    return squares


def board_text(squares: Mapping[str, str | None], pocket_file: str) -> str:
    """gcadj's FEN placement and pockets for a board read from a page: ``…/RNBQKBNR[Ii]``."""
    rows = []
    for rank in "87654321":
        row, empty = "", 0
        for file in FILES:
            piece = squares.get(f"{file}{rank}")
            if piece is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + piece
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    pockets = "".join(
        p for p in (squares.get(f"{pocket_file}1"), squares.get(f"{pocket_file}8")) if p
    )
    return "/".join(rows) + f"[{pockets}]"


def _find_board(root: Tag, pocket_file: str) -> tuple[Tag | None, str | None]:
    """(the board's element, its gcadj placement) from a table or a code; Nones if unread."""
    from bs4 import Tag

    for table in root.find_all("table"):
        if not isinstance(table, Tag):
            continue
        squares = read_board_table(table)
        if squares is not None:
            return table, board_text(squares, pocket_file)
    for field in root.find_all(["input", "textarea"]):
        if not isinstance(field, Tag):
            continue
        name = str(field.get("name") or field.get("id") or "").lower()
        value = field.get("value") if field.name == "input" else field.get_text()
        if name in ("fen", "code", "position") and isinstance(value, str):
            squares = read_board_code(value, pocket_file)
            if squares is not None:
                return field, board_text(squares, pocket_file)
    for line in render_lines(root):
        for match in _CODE.finditer(line):
            squares = read_board_code(match.group(0), pocket_file)
            if squares is not None:
                return None, board_text(squares, pocket_file)
    return None, None


def board_mismatch(page_board: str, final_fen: str, limit: int = 6) -> str | None:
    """Where a page's diagram differs from a replayed position, in words; None if it agrees."""
    from gcadj.engine.fen import FenError, parse_fen
    from gcadj.engine.squares import square_name

    try:
        page = parse_fen(f"{page_board} w - - 0 1")
        final = parse_fen(final_fen)
    except FenError as err:
        return f"the page's board diagram could not be compared ({err.message})"
    diffs = []
    for index, (seen, played) in enumerate(zip(page.board, final.board, strict=True)):
        if seen != played:
            diffs.append(f"{square_name(index)} {_symbol(seen)} vs {_symbol(played)}")
    pockets = zip(page.pockets, final.pockets, strict=True)
    for side, (seen, played) in zip(("White's", "Black's"), pockets, strict=True):
        if seen != played:
            diffs.append(f"{side} pocket {_symbol(seen)} vs {_symbol(played)}")
    if not diffs:
        return None
    more = f" and {len(diffs) - limit} more" if len(diffs) > limit else ""
    return (
        "the page's board diagram differs from the replayed final position "
        f"(page vs replay: {', '.join(diffs[:limit])}{more})"
    )


def _symbol(piece: object) -> str:
    symbol = getattr(piece, "symbol", None)
    return symbol if isinstance(symbol, str) else "empty"


# ---------------------------------------------------------------------------------------
# Players, status, names


_WHITE = re.compile(r"\bWhite\s*:\s*(.*?)\s*(?=\bBlack\s*:|$)")
_BLACK = re.compile(r"\bBlack\s*:\s*(.*?)\s*(?=\bWhite\s*:|$)")
_NOTICE = re.compile(r"\buncoded\b|no rules (?:are )?enforced", re.IGNORECASE)
_STATUS_WORDS = re.compile(
    r"resign|draw|won\b|wins\b|forfeit|time(?:d)? ?out|checkmate|stalemate|game (?:is )?over",
    re.IGNORECASE,
)
BOARD_MARK: Final = "\x00board"
MOVES_MARK: Final = "\x00moves"


def _player(lines: list[str], pattern: re.Pattern[str]) -> str | None:
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
        if _WHITE.search(line) or _BLACK.search(line) or pocket_letter_from_labels([line]):
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
    """The page's address: the URL it was fetched from, else its canonical link."""
    from bs4 import Tag

    if url:
        return url
    for link in root.find_all("link", href=True):
        rel = link.get("rel") if isinstance(link, Tag) else None
        href = link.get("href") if isinstance(link, Tag) else None
        if rel and "canonical" in rel and isinstance(href, str) and is_url(href):
            return href
    meta = root.find("meta", attrs={"property": "og:url"})
    content = meta.get("content") if isinstance(meta, Tag) else None
    return content if isinstance(content, str) and is_url(content) else None


# ---------------------------------------------------------------------------------------
# The page


def scrape_page(html: str, source: str = "<page>", url: str | None = None) -> ScrapedGame:
    """Read a viewing page; raises `PageError` (naming `source`) if it has no move list.

    `url` is where the page came from (it supplies game, log and Site); when `source`
    is itself a URL it is used for that.
    """
    if url is None and is_url(source):
        url = source
    soup = soup_of(html)
    root = soup.body or soup
    everything = render_lines(root)
    label_letter = pocket_letter_from_labels(everything)
    found = find_move_list(root, label_letter)
    if found is None:
        viewing = any("viewing game" in line.lower() for line in everything)
        what = "a Game Courier viewing page" if viewing else "the page"
        raise PageError(
            source,
            f"no move list found on {what} (no element's text lines parse as Game Courier moves)",
        )
    warnings: list[str] = []
    pocket_file = found.pocket_file
    if label_letter is not None and pocket_file != label_letter:
        warnings.append(
            f"the board's file labels name the pocket file {label_letter!r}, "
            f"but the moves use {pocket_file!r}"
        )
    board_element, board = _find_board(root, pocket_file)
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
        white=_player(marked, _WHITE),
        black=_player(marked, _BLACK),
        status=_status(marked, (game, log_name)),
        board=board,
        warnings=tuple(warnings),
    )


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
    for table in soup.find_all("table"):
        if isinstance(table, Tag):
            entries.extend(_index_table(table, base_url))
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


def _index_table(table: Tag, base_url: str) -> list[IndexEntry]:
    from bs4 import Tag

    columns: dict[int, str] | None = None
    entries = []
    for row in table.find_all("tr"):
        if not isinstance(row, Tag) or row.find_parent("table") is not table:
            continue
        cells = _cell_texts(row)
        texts = [" ".join(c.get_text().split()) for c in cells]
        if columns is None:
            named = {
                i: _COLUMNS[t.casefold()] for i, t in enumerate(texts) if t.casefold() in _COLUMNS
            }
            if "game" in named.values() and "log_name" in named.values():
                columns = named
            continue
        href = None
        for link in row.find_all("a", href=True):
            value = link.get("href") if isinstance(link, Tag) else None
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


__all__ = [
    "IndexEntry",
    "PageError",
    "ScrapedGame",
    "board_mismatch",
    "index_entries",
    "read_board_code",
    "read_board_table",
    "render_lines",
    "scrape_page",
]
