"""The board diagram of a page (an HTML table with file labels, or a Game Courier code), read
into gcadj's placement-and-pockets form, and compared with a replayed position."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

from gcadj.engine.pieces import KIND, KINDS
from gcadj.errors import UnreadableCell
from gcadj.vocabulary import PocketFile

if TYPE_CHECKING:
    from bs4 import Tag

from gcadj.sources.pages.text import render_lines, small_images, small_text, table_rows

log = logging.getLogger(__name__)

FILES: Final = "abcdefgh"

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


def _cell_piece(cell: Tag) -> str | None:
    """The piece in one board cell (None if empty); raises UnreadableCell if unknown."""
    images = small_images(cell)
    text = small_text(cell)
    if images is None or text is None:
        raise UnreadableCell("a cell holding a whole page")
    for img in images:
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
                raise UnreadableCell(f"image {src!r}")
    if not text or text in (".", "-", "·"):
        return None
    piece = _piece_from_words(text)
    if piece is None:
        raise UnreadableCell(f"cell text {text!r}")
    return piece


def cell_texts(row: Tag) -> list[Tag]:
    return [c for c in row.find_all(["td", "th"], recursive=False)]


def _label_files(cells: list[Tag]) -> list[str] | None:
    """The file letters of a label row (cells reading a..h plus maybe one more), else None."""
    if not 8 <= len(cells) <= 12:
        return None
    texts = [small_text(c) or "" for c in cells]
    labels = [t for t in texts if t]
    core = [t for t in labels if t in FILES]
    if sorted(core) != list(FILES) or len(labels) not in (8, 9):
        return None
    if any(len(t) != 1 or not ("a" <= t <= "z") for t in labels):
        return None
    return labels


def read_board_table(table: Tag, rows: list[Tag] | None = None) -> dict[str, str | None] | None:
    """Square -> piece letter (or None) from a board drawn as a table with file labels.

    Rank labels (cells reading 1-8 beside a row) place the rows; without them, rank 8
    is the top row unless the file labels run h to a (a board shown from Black's side).
    Returns None when the table is no board or any cell cannot be read. `rows` are the
    table's own rows when the caller has them (`text.table_rows`).
    """
    if rows is None:
        rows = table_rows(table).get(id(table), [])
    files: list[str] | None = None
    body_rows: list[list[Tag]] = []
    for row in rows:
        cells = cell_texts(row)
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
                rank = rank or small_text(inner[end])
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
        except UnreadableCell as why:
            log.debug("board table not read: %s", why)
            return None
    if sum(1 for sq in squares if sq[0] in FILES) != 64:
        return None
    return squares


def _is_rank_label(cell: Tag) -> bool:
    text = small_text(cell)
    return text is not None and len(text) == 1 and text in "12345678" and not small_images(cell)


# A run of characters a Game Courier code is made of. Each run is matched once, greedily,
# with nothing after it that could fail, so finding every run of a line is linear; the
# old "eight ranks joined by '/'" expression restarted at every letter of a long word
# and scanned to its end each time (quadratic: 39 KB of one word took 42 s).
_CODE_RUN = re.compile(r"(?:[A-Za-z0-9/\-]|\{[^{}/]*\})+")


def _codes_in(line: str) -> Iterator[str]:
    """Every eight consecutive non-empty ranks joined by '/' in the line's code-like runs."""
    if line.count("/") < 7:
        return
    for run in _CODE_RUN.finditer(line):
        ranks = run.group().split("/")
        for start in range(len(ranks) - 7):
            window = ranks[start : start + 8]
            if all(window):
                yield "/".join(window)


def read_board_code(code: str, pocket_file: PocketFile) -> dict[str, str | None] | None:
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


def board_text(squares: Mapping[str, str | None], pocket_file: PocketFile) -> str:
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


def find_board(root: Tag, pocket_file: PocketFile) -> tuple[Tag | None, str | None]:
    """(the board's element, its gcadj placement) from a table or a code; Nones if unread."""
    from bs4 import Tag

    rows = table_rows(root)
    for table in root.find_all("table"):
        if not isinstance(table, Tag) or id(table) not in rows:
            continue
        squares = read_board_table(table, rows[id(table)])
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
        for code in _codes_in(line):
            squares = read_board_code(code, pocket_file)
            if squares is not None:
                return None, board_text(squares, pocket_file)
    return None, None


def board_mismatch(page_board: str, final_fen: str, limit: int = 6) -> str | None:
    """Where a page's diagram differs from a replayed position, in words; None if it agrees."""
    from gcadj.engine.fen import parse_fen
    from gcadj.engine.squares import square_name
    from gcadj.errors import FenError

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
