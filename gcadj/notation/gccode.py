"""Game Courier's own position code, read and written, beside gcadj's FEN.

Game Courier stores a position as an extended FEN "code" (docs/rules.md §6.2): pieces by
label, base-ten numbers for runs of empty cells, ``-`` for a cell that does not exist,
``{...}`` for a long label, ``/`` between ranks. Game Courier itself does not need the
``/`` (it knows the width of a rank from the preset), so both forms are read here. The
Pocket Mutation Chess board is 9 cells wide: files a-h, then a ninth file whose only
existing cells are the pockets, i8 (Black's, ending the first rank of the code) and i1
(White's, ending the last). The standard array is::

    rnbqkbnr1/pppppppp-/8-/8-/8-/8-/PPPPPPPP-/RNBQKBNR1

A code holds only the board. Turn, en passant and the counters are not in it, so turning
a code into gcadj's FEN *assumes* White to move (or the `turn` given), no en passant,
halfmove clock 0 and move 1; a code followed by FEN fields (``CODE b - - 0 12``) keeps
those fields instead. That is also how a code is accepted wherever a FEN is
(`as_gcadj_fen`): ``--fen``, the ``[FEN]`` tag.

Errors are `GcCodeError`, a `FenError`, so code that already handles a bad FEN handles a
bad code; the message names the column, the cell (``e4``, ``i8``) and what was expected.
"""

from __future__ import annotations

from typing import NamedTuple

from gcadj.engine.fen import STARTING_FEN, format_fen, parse_fen
from gcadj.engine.pieces import KIND, PIECE, Piece
from gcadj.engine.squares import BLACK, FILE_NAMES, WHITE
from gcadj.errors import FenError, GcCodeError
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile, Side
from gcadj.words import plural

WIDTH = 9  # files a-h and the pocket file
RANKS = 8
CELLS = WIDTH * RANKS

__all__ = [
    "GcCodeError",
    "as_gcadj_fen",
    "fen_to_gc_code",
    "gc_code_to_fen",
    "is_gc_code",
]


class _Cell(NamedTuple):
    """One cell of the code: a piece, None for empty, or '-' for a cell that does not exist."""

    content: Piece | str | None
    column: int  # 1-based column of the token that produced the cell


def _cell_name(row: int, col: int, pocket_file: PocketFile) -> str:
    """The square name of a cell: row 0 is rank 8, col 8 is the pocket file."""
    file = FILE_NAMES[col] if col < 8 else pocket_file
    return f"{file}{RANKS - row}"


def is_gc_code(text: str) -> bool:
    """Does this position text look like a Game Courier code rather than gcadj's FEN?

    The board field of gcadj's FEN has 8 cells per rank and may end in ``[pockets]``; a
    code has a ``-`` or a ``{label}``, or 9 cells per rank (72 in all).
    """
    fields = text.split()
    if not fields:
        return False
    board = fields[0]
    if "[" in board:
        return False
    if "-" in board or "{" in board:
        return True
    cells = 0
    number = ""
    for ch in board + "/":
        if ch.isdigit():
            number += ch
            continue
        if number:
            cells += int(number)
            number = ""
        if ch.isalpha():
            cells += 1
    return cells == CELLS


def _tokens(code: str, start: int) -> list[tuple[str, Piece | str | None, int, int]]:
    """The code as (kind, value, count, column): 'cells' (count copies of value) or '/'."""
    out: list[tuple[str, Piece | str | None, int, int]] = []
    i = 0
    while i < len(code):
        ch = code[i]
        column = start + i
        if ch == "/":
            out.append(("/", None, 0, column))
            i += 1
        elif ch.isdigit():
            j = i
            while j < len(code) and code[j].isdigit():
                j += 1
            run = int(code[i:j])
            if run == 0:
                raise GcCodeError(code, column, "a run of empty cells cannot be 0")
            out.append(("cells", None, run, column))
            i = j
        elif ch == "-":
            out.append(("cells", "-", 1, column))
            i += 1
        elif ch == "{":
            end = code.find("}", i)
            if end < 0:
                raise GcCodeError(code, column, "a long label '{...}' is never closed with '}'")
            label = code[i + 1 : end]
            out.append(("cells", _piece(code, label, column, long=True), 1, column))
            i = end + 1
        else:
            out.append(("cells", _piece(code, ch, column, long=False), 1, column))
            i += 1
    return out


def _piece(code: str, label: str, column: int, *, long: bool) -> Piece:
    piece = PIECE.get(label)
    if piece is None:
        shown = f"{{{label}}}" if long else label
        letters = "".join(KIND)
        raise GcCodeError(
            code,
            column,
            f"{shown!r} is not a piece label of Pocket Mutation Chess "
            f"(labels are one letter of {letters}, upper case White, lower case Black)",
        )
    return piece


def _cells(code: str, pocket_file: PocketFile) -> list[_Cell]:
    """The 72 cells of a code, row by row from rank 8, with or without '/' between ranks."""
    tokens = _tokens(code, 1)
    has_slashes = any(kind == "/" for kind, *_ in tokens)
    cells: list[_Cell] = []
    row_start = 0  # index in `cells` where the current '/'-separated rank began
    row = 0
    for kind, value, count, column in tokens:
        if kind == "/":
            _check_rank_width(code, cells, row_start, row, column, pocket_file)
            row += 1
            if row >= RANKS:
                raise GcCodeError(
                    code, column, f"more than {RANKS} ranks: the board has ranks 8 down to 1"
                )
            row_start = len(cells)
            continue
        for _ in range(count):
            if has_slashes and len(cells) - row_start >= WIDTH:
                raise GcCodeError(
                    code,
                    column,
                    f"rank {RANKS - row} has more than {WIDTH} cells "
                    f"(files a-h and the pocket file {pocket_file})",
                )
            if not has_slashes and len(cells) >= CELLS:
                raise GcCodeError(
                    code,
                    column,
                    f"more than {CELLS} cells: the board is {RANKS} ranks of {WIDTH} "
                    f"(files a-h and the pocket file {pocket_file})",
                )
            cells.append(_Cell(value, column))
    end = len(code) + 1
    if has_slashes:
        _check_rank_width(code, cells, row_start, row, end, pocket_file)
        if row != RANKS - 1:
            raise GcCodeError(
                code,
                end - 1 if code else 1,
                f"found {row + 1} ranks separated by '/'; expected {RANKS} (rank 8 down to 1)",
            )
    elif len(cells) < CELLS:
        raise GcCodeError(
            code,
            max(end - 1, 1),
            f"found {len(cells)} cell{'' if len(cells) == 1 else 's'}; expected {CELLS}: "
            f"{RANKS} ranks of {WIDTH} "
            f"(files a-h and the pocket file {pocket_file}), the missing ones start at "
            f"{_cell_name(len(cells) // WIDTH, len(cells) % WIDTH, pocket_file)}",
        )
    return cells


def _check_rank_width(
    code: str, cells: list[_Cell], row_start: int, row: int, column: int, pocket_file: PocketFile
) -> None:
    found = len(cells) - row_start
    if found < WIDTH:
        raise GcCodeError(
            code,
            max(column - 1, 1),
            f"rank {RANKS - row} has only {plural(found, 'cell')}; expected {WIDTH} "
            f"(files a-h and the pocket file {pocket_file}; '-' for a cell that does not exist)",
        )


def _layout(
    code: str, cells: list[_Cell], pocket_file: PocketFile
) -> tuple[list[Piece | None], list[Piece | None]]:
    """Board and pockets from the cells, checking each cell against what the board has there."""
    board: list[Piece | None] = [None] * 64
    pockets: list[Piece | None] = [None, None]
    for index, (content, column) in enumerate(cells):
        row, col = divmod(index, WIDTH)
        name = _cell_name(row, col, pocket_file)
        rank = RANKS - 1 - row
        if col < 8:
            if content == "-":
                raise GcCodeError(
                    code,
                    column,
                    f"'-' marks a cell that does not exist, but {name} is on the board",
                )
            board[rank * 8 + col] = content if isinstance(content, Piece) else None
            continue
        if row not in (0, RANKS - 1):
            if isinstance(content, Piece):
                raise GcCodeError(
                    code,
                    column,
                    f"{name} does not exist (the only cells of the pocket file are "
                    f"{pocket_file}1 and {pocket_file}8); expected '-' there, "
                    f"not {content.symbol!r}",
                )
            continue
        owner = BLACK if row == 0 else WHITE
        whose = f"{Side.of(owner).capitalized}'s pocket"
        if content == "-":
            raise GcCodeError(
                code, column, f"'-' marks a cell that does not exist, but {name} is {whose}"
            )
        if isinstance(content, Piece):
            if content.kind.is_king:
                raise GcCodeError(code, column, f"a King can never be in a pocket ({name})")
            if content.color != owner:
                raise GcCodeError(
                    code,
                    column,
                    f"{name} is {whose}, but it holds a {Side.of(content.color).capitalized} "
                    f"{content.kind.name} ({content.symbol!r})",
                )
            pockets[owner] = content
    return board, pockets


def gc_code_to_fen(
    code: str, turn: str = "w", pocket_file: PocketFile = DEFAULT_POCKET_FILE
) -> str:
    """gcadj's FEN for a Game Courier code; raises `GcCodeError`.

    A bare code gives ``<board>[pockets] <turn> - - 0 1``. A code followed by FEN fields
    (``CODE b - - 0 12``) keeps them and ignores `turn`. `pocket_file` only names cells
    in error messages: the code itself is positional.
    """
    if turn not in ("w", "b"):
        raise ValueError(f"turn must be 'w' or 'b', not {turn!r}")
    stripped = code.strip()
    if not stripped:
        raise GcCodeError(code, 1, "empty code")
    board_text, _, rest = stripped.partition(" ")
    board, pockets = _layout(board_text, _cells(board_text, pocket_file), pocket_file)
    placement = format_fen(board, pockets, WHITE, None, 0, 1).split(" ")[0]
    rest = rest.strip()
    if not rest:
        return f"{placement} {turn} - - 0 1"
    fen = f"{placement} {rest}"
    try:
        parse_fen(fen)  # the fields after the code must be FEN fields
    except FenError as err:
        shift = stripped.index(rest) - (len(placement) + 1)
        raise GcCodeError(stripped, max(err.column + shift, 1), err.message) from None
    return fen


def fen_to_gc_code(fen: str) -> str:
    """The Game Courier code of a gcadj FEN's board and pockets (raises `FenError`).

    Only the board goes into a code; turn, en passant and counters are dropped. ``startpos``
    is the standard array, as everywhere a FEN is taken.
    """
    setup = parse_fen(STARTING_FEN if fen.strip() == "startpos" else fen)
    rows = []
    for row in range(RANKS):
        rank = RANKS - 1 - row
        cells: list[Piece | str | None] = list(setup.board[rank * 8 : rank * 8 + 8])
        if row == 0:
            cells.append(setup.pockets[BLACK])
        elif row == RANKS - 1:
            cells.append(setup.pockets[WHITE])
        else:
            cells.append("-")
        text = ""
        empty = 0
        for cell in cells:
            if cell is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += cell.symbol if isinstance(cell, Piece) else cell
        if empty:
            text += str(empty)
        rows.append(text)
    return "/".join(rows)


def as_gcadj_fen(text: str, pocket_file: PocketFile = DEFAULT_POCKET_FILE) -> str:
    """`text` unchanged if it is a gcadj FEN, converted if it is a Game Courier code.

    The one hook through which user-given positions (``--fen``, the ``[FEN]`` tag) accept
    Game Courier's own notation.
    """
    return gc_code_to_fen(text, pocket_file=pocket_file) if is_gc_code(text) else text
