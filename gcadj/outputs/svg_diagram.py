"""SVG diagrams of a Pocket Mutation Chess position, for exports and the audit report.

A diagram is one self-contained ``<svg>`` (no external references, no script, no fonts to
fetch) that any browser opens and that `resvg` renders: the 8x8 board with its
coordinates, Game Courier's ninth file beside it holding the two pockets (i8 beside
rank 8 for Black, i1 beside rank 1 for White, labelled), whose turn it is, the last move
highlighted, a King in check on a red square (a darker one, with a ``#``, when mated), and
an illegal move marked with a red outline and arrow.

Every mark is drawn under the pieces, and an arrow stops at the edge of the discs it
joins, so no mark ever hides a piece letter. The same pieces serve the HTML game viewer:
`board_kit` gives the parts that do not change from one position to the next (board,
coordinates, one drawing per piece, the turn marks) and `marks` the ones that do, so the
viewer draws any position from a FEN-like placement with no drawing code of its own.

There are nineteen kinds of piece and no standard glyphs for most of them, so each piece
is its Game Courier letter in a disc (every kind has its own letter): White a light disc
with a dark letter, Black a dark disc with a light letter. The letters use a generic
sans-serif family, so every renderer has a font for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from html import escape

from gcadj.engine.move import Move
from gcadj.engine.pieces import PIECE, Piece
from gcadj.engine.position import Position
from gcadj.engine.squares import (
    BLACK,
    FILE_NAMES,
    POCKET,
    WHITE,
    parse_square,
    square_file,
    square_rank,
)
from gcadj.notation.records import (
    CaptureSub,
    ClearSub,
    MoveRecord,
    MoveSub,
    PlaceSub,
    RemoveSpaceSub,
)
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile, Side

__all__ = [
    "BLACK_POCKET_CELL",
    "WHITE_POCKET_CELL",
    "BoardKit",
    "board_kit",
    "diagram_size",
    "marks",
    "render_svg",
    "sides_marks",
]

Square = str | int
"""A cell: a square name ('e4', or 'i1'/'i8' for the pockets) or an index (0-63 the board,
64 White's pocket, 65 Black's, as the adjudicator's literal board numbers them)."""

WHITE_POCKET_CELL = 64
BLACK_POCKET_CELL = 65

LIGHT = "#f0d9b5"
DARK = "#b58863"
POCKET_FILL = "#e4e4ee"
LAST_MOVE = "#f2e14c"
ILLEGAL = "#d01c1c"
CHECK = "#ff6b5e"
MATE = "#8c0a1e"
INK = "#1b1b1b"
PAPER = "#fbfbf6"
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

# Layout in units of one square.
_LEFT = 0.55  # rank numbers
_TOP = 0.25
_GAP = 0.3  # between the board and the pocket file
_RIGHT = 0.45  # room for the pocket file's captions
_LABEL = 0.36  # the coordinates and captions: 12 px or more when a phone shows the diagram
_BOTTOM = 0.55  # file letters
_DISC = 0.4  # radius of a piece's disc


def diagram_size(size: int) -> tuple[int, int]:
    """Width and height in pixels of a diagram whose squares are `size` pixels."""
    width = (_LEFT + 8 + _GAP + 1 + _RIGHT) * size
    height = (_TOP + 8 + _BOTTOM) * size
    return round(width), round(height)


def _n(value: float) -> str:
    """A coordinate as short text: 12, 12.5, 12.25."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text != "-0" else "0"


class _Canvas:
    """Cell geometry for one square size, and the SVG elements drawn so far. `flipped`:
    seen from Black's side (rank 8 at the bottom, file h on the left); the pocket file
    stays on the right, each pocket beside its own rank (Black's i8 at the bottom)."""

    def __init__(self, size: int, pocket_file: PocketFile, flipped: bool = False) -> None:
        self.u = float(size)
        self.pocket_file = pocket_file
        self.flipped = flipped
        self.parts: list[str] = []

    def cell(self, square: Square) -> tuple[float, float]:
        """Top-left corner of a cell in pixels."""
        col, row = self.grid(square)
        x = (_LEFT + col + (_GAP if col == 8 else 0)) * self.u
        return x, (_TOP + row) * self.u

    def centre(self, square: Square) -> tuple[float, float]:
        x, y = self.cell(square)
        return x + self.u / 2, y + self.u / 2

    def index(self, square: Square) -> int:
        """A cell's index: 0-63 the board, `WHITE_POCKET_CELL`, `BLACK_POCKET_CELL`."""
        if isinstance(square, int):
            return square
        if square == f"{self.pocket_file}1":
            return WHITE_POCKET_CELL
        if square == f"{self.pocket_file}8":
            return BLACK_POCKET_CELL
        return parse_square(square)

    def grid(self, square: Square) -> tuple[int, int]:
        """(column 0-8, row 0-7 from the top) of a cell; ValueError for anything else."""
        square = self.index(square)
        if square in (WHITE_POCKET_CELL, BLACK_POCKET_CELL):
            bottom = (square == WHITE_POCKET_CELL) != self.flipped
            return 8, 7 if bottom else 0
        if not 0 <= square < 64:
            raise ValueError(f"not a cell of the diagram: {square!r}")
        if self.flipped:
            return 7 - square_file(square), square_rank(square)
        return square_file(square), 7 - square_rank(square)

    def add(self, element: str) -> None:
        self.parts.append(element)

    def rect(self, square: Square, fill: str, extra: str = "") -> None:
        x, y = self.cell(square)
        u = _n(self.u)
        self.add(f'<rect x="{_n(x)}" y="{_n(y)}" width="{u}" height="{u}" fill="{fill}"{extra}/>')

    def text(self, x: float, y: float, label: str, size: float, fill: str, extra: str = "") -> None:
        self.add(
            f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" fill="{fill}" '
            f'text-anchor="middle"{extra}>{escape(label, quote=False)}</text>'
        )


def render_svg(
    position: Position,
    *,
    last_move: Move | tuple[Square, Square] | None = None,
    illegal: tuple[Square | None, Square] | None = None,
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
    size: int = 48,
) -> str:
    """An SVG diagram of `position` (see the module docstring); `size` is one square in px.

    `last_move` is a `Move` played to reach the position (its pocket end is the pocket of
    the side that made it) or an (origin, target) pair of cells. `illegal` is the
    (origin, target) of an illegal move, origin None when the ply had no origin (``I*d5``):
    it gets a red outline on both cells and a red arrow between them. A King in check, or
    checkmated, is marked whatever the arguments.
    """
    canvas = _Canvas(size, pocket_file)
    width, height = diagram_size(size)
    _board(canvas)
    canvas.add(
        marks(position, last_move=last_move, illegal=illegal, pocket_file=pocket_file, size=size)
    )
    _coordinates(canvas)
    for sq, piece in enumerate(position.board):
        if piece is not None:
            canvas.add(_piece_markup(canvas, *canvas.centre(sq), piece))
    for owner, cell in ((WHITE, WHITE_POCKET_CELL), (BLACK, BLACK_POCKET_CELL)):
        held = position.pockets[owner]
        if held is not None:
            canvas.add(_piece_markup(canvas, *canvas.centre(cell), held))
    canvas.add(_turn_markup(canvas, position.turn))
    state = ""
    if position.is_checkmate():
        state = f"{Side.of(position.turn).capitalized} is checkmated. "
    elif position.is_check():
        state = f"{Side.of(position.turn).capitalized} is in check. "
    side = Side.of(position.turn).capitalized
    title = escape(f"{state}{side} to move. FEN {position.fen()}", quote=False)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT}">'
    )
    background = f'<rect width="{width}" height="{height}" fill="#ffffff"/>'
    return "\n".join([head, f"<title>{title}</title>", background, *canvas.parts, "</svg>"]) + "\n"


def marks(
    position: Position,
    *,
    last_move: Move | tuple[Square | None, Square] | None = None,
    illegal: tuple[Square | None, Square] | None = None,
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
    size: int = 48,
    flipped: bool = False,
) -> str:
    """The marks of one position, to be drawn over the board and under the pieces: the
    last move, a King in check or mated, an illegal move (see `render_svg`); `flipped`:
    for the board seen from Black's side (`board_kit`'s)."""
    return sides_marks(
        position,
        last_move=last_move,
        illegal=illegal,
        pocket_file=pocket_file,
        size=size,
        sides=(flipped,),
    )[0]


def sides_marks(
    position: Position,
    *,
    last_move: Move | tuple[Square | None, Square] | None = None,
    illegal: tuple[Square | None, Square] | None = None,
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
    size: int = 48,
    sides: tuple[bool, ...] = (False, True),
) -> tuple[str, ...]:
    """`marks` of one position for each of `sides` (flipped or not), the check and mate
    worked out once: a viewer draws every position from both sides."""
    cells = () if last_move is None else tuple(_move_cells(last_move, position.turn ^ 1))
    king = position.king_squares[position.turn]
    checked = king if king >= 0 and position.is_check() else None
    mate = checked is not None and position.is_checkmate()
    out = []
    for flipped in sides:
        drawn = _marks(cells, checked, mate, pocket_file, size, flipped)
        if illegal is not None:
            canvas = _Canvas(size, pocket_file, flipped)
            canvas.parts.append(drawn)
            _illegal(canvas, illegal, position)
            drawn = "\n".join(part for part in canvas.parts if part)
        out.append(drawn)
    return tuple(out)


@lru_cache(maxsize=4096)
def _marks(
    cells: tuple[Square | None, ...],
    checked: int | None,
    mate: bool,
    pocket_file: PocketFile,
    size: int,
    flipped: bool,
) -> str:
    """The last move's cells and the checked King's, drawn once per distinct set: a viewer
    draws the marks of every position of every game of an audit, and they repeat."""
    canvas = _Canvas(size, pocket_file, flipped)
    for cell in cells:
        if cell is not None:
            canvas.rect(cell, LAST_MOVE, ' fill-opacity="0.6"')
    if checked is not None:
        _check(canvas, checked, mate)
    return "\n".join(canvas.parts)


@dataclass(frozen=True)
class BoardKit:
    """What every diagram of one size and pocket file shares, for a page that draws many.

    `background` is the board, the pocket cells and the coordinates; `pieces` the drawing of
    each piece symbol ('K', 'k', ...) centred on (0, 0); `centres` the centre of each cell
    (0-63 the board a1..h8, 64 White's pocket, 65 Black's); `turn` the to-move mark for
    White and for Black. A position is drawn as: background, its `marks`, each piece
    translated to its cell's centre, the turn mark. `flipped`: the board seen from
    Black's side (its marks are `marks(..., flipped=True)`).
    """

    width: int
    height: int
    background: str
    pieces: dict[str, str]
    centres: tuple[tuple[float, float], ...]
    turn: tuple[str, str]


@lru_cache(maxsize=16)
def board_kit(
    pocket_file: PocketFile = DEFAULT_POCKET_FILE, size: int = 48, flipped: bool = False
) -> BoardKit:
    """The shared parts of every diagram drawn with these settings (see `BoardKit`)."""
    canvas = _Canvas(size, pocket_file, flipped)
    width, height = diagram_size(size)
    _board(canvas)
    _coordinates(canvas)
    cells = range(BLACK_POCKET_CELL + 1)
    return BoardKit(
        width=width,
        height=height,
        background="\n".join(canvas.parts),
        pieces={symbol: _piece_markup(canvas, 0, 0, piece) for symbol, piece in PIECE.items()},
        centres=tuple(canvas.centre(cell) for cell in cells),
        turn=(_turn_markup(canvas, WHITE), _turn_markup(canvas, BLACK)),
    )


def _board(canvas: _Canvas) -> None:
    u = canvas.u
    for sq in range(64):
        dark = (square_file(sq) + square_rank(sq)) % 2 == 0  # a1 is dark
        canvas.rect(sq, DARK if dark else LIGHT)
    x, y = _LEFT * u, _TOP * u  # the board's top-left corner, whichever side is up
    canvas.add(
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(8 * u)}" height="{_n(8 * u)}" '
        f'fill="none" stroke="{INK}" stroke-width="{_n(u / 32)}"/>'
    )
    for cell in (BLACK_POCKET_CELL, WHITE_POCKET_CELL):
        canvas.rect(
            cell,
            POCKET_FILL,
            f' stroke="{INK}" stroke-width="{_n(u / 32)}" stroke-dasharray="{_n(u / 10)}"',
        )


def _coordinates(canvas: _Canvas) -> None:
    """The rank numbers, the file letters (the pocket file's too) and the pockets'
    captions, each at the place of its cell, so a flipped canvas labels its own board."""
    u = canvas.u
    small = _LABEL * u
    for i in range(8):
        _, y = canvas.centre(8 * i)  # a1, a2, ... a8
        canvas.text(_LEFT * u / 2, y + small * 0.35, str(i + 1), small, INK)
        x, _ = canvas.centre(i)
        canvas.text(x, (_TOP + 8 + 0.38) * u, FILE_NAMES[i], small, INK)
    x, _ = canvas.centre(WHITE_POCKET_CELL)
    canvas.text(x, (_TOP + 8 + 0.38) * u, canvas.pocket_file, small, INK)
    for cell, lines in (
        (BLACK_POCKET_CELL, ("Black's", "pocket")),
        (WHITE_POCKET_CELL, ("White's", "pocket")),
    ):
        name = f"{canvas.pocket_file}{8 if cell == BLACK_POCKET_CELL else 1}"
        cx, top = canvas.cell(cell)
        cx += u / 2
        if canvas.grid(cell)[1] == 0:  # the top cell: caption below it
            ys = (top + u + small * 1.05, top + u + small * 2.2, top + u + small * 3.35)
        else:  # the bottom cell: caption above it
            ys = (top - small * 2.65, top - small * 1.5, top - small * 0.35)
        for y, line in zip(ys, (name, *lines), strict=True):
            canvas.text(cx, y, line, small, INK)


def _piece_markup(canvas: _Canvas, cx: float, cy: float, piece: Piece) -> str:
    """A piece centred on (cx, cy): its letter in a disc, the King ringed."""
    u = canvas.u
    white = piece.color == WHITE
    disc, ink, rim = (PAPER, INK, INK) if white else (INK, PAPER, "#000000")
    parts = [
        f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(_DISC * u)}" fill="{disc}" '
        f'stroke="{rim}" stroke-width="{_n(u / 24)}"/>'
    ]
    if piece.kind.is_king:  # an inner ring: the one piece that must never be lost
        parts.append(
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(0.33 * u)}" fill="none" '
            f'stroke="{ink}" stroke-width="{_n(u / 40)}"/>'
        )
    font = 0.5 * u
    parts.append(
        f'<text x="{_n(cx)}" y="{_n(cy + font * 0.36)}" font-size="{_n(font)}" fill="{ink}" '
        f'text-anchor="middle" font-weight="bold">{escape(piece.kind.letter, quote=False)}</text>'
    )
    return "".join(parts)


def _turn_markup(canvas: _Canvas, turn: int) -> str:
    """A disc of the mover's colour in the pocket file, between the pockets."""
    u = canvas.u
    cx, _ = canvas.centre(WHITE_POCKET_CELL)
    cy = (_TOP + 4) * u
    fill, rim = (PAPER, INK) if turn == WHITE else (INK, "#000000")
    return (
        f'<circle cx="{_n(cx)}" cy="{_n(cy - 0.15 * u)}" r="{_n(0.18 * u)}" fill="{fill}" '
        f'stroke="{rim}" stroke-width="{_n(u / 24)}"/>'
        f'<text x="{_n(cx)}" y="{_n(cy + 0.45 * u)}" font-size="{_n(_LABEL * u)}" '
        f'fill="{INK}" text-anchor="middle">to move</text>'
    )


def _check(canvas: _Canvas, king: int, mate: bool) -> None:
    """The King's square in red; when mated, darker, with a hash sign drawn (a mark, not
    text: it must fit the corner beside the King's disc) in its top-right corner."""
    canvas.rect(king, MATE if mate else CHECK, ' fill-opacity="0.9"')
    if mate:
        x, y = canvas.cell(king)
        u = canvas.u
        left, right, top, bottom = x + 0.8 * u, x + 0.96 * u, y + 0.04 * u, y + 0.2 * u
        third = (right - left) / 3
        strokes = (
            (left + third, top, left + third - 0.02 * u, bottom),
            (left + 2 * third, top, left + 2 * third - 0.02 * u, bottom),
            (left, top + (bottom - top) / 3, right, top + (bottom - top) / 3),
            (left, top + 2 * (bottom - top) / 3, right, top + 2 * (bottom - top) / 3),
        )
        path = " ".join(f"M{_n(x1)} {_n(y1)}L{_n(x2)} {_n(y2)}" for x1, y1, x2, y2 in strokes)
        canvas.add(
            f'<path class="mate-sign" d="{path}" stroke="#ffffff" '
            f'stroke-width="{_n(u / 32)}" fill="none"><title>#</title></path>'
        )


def _move_cells(move: Move | tuple[Square | None, Square], mover: int) -> list[Square | None]:
    if isinstance(move, Move):
        pocket = WHITE_POCKET_CELL if mover == WHITE else BLACK_POCKET_CELL
        return [pocket if sq == POCKET else sq for sq in (move.from_square, move.to_square)]
    return [move[0], move[1]]


def _illegal(canvas: _Canvas, illegal: tuple[Square | None, Square], position: Position) -> None:
    """Red outlines on the cells of an illegal move and an arrow between them.

    The arrow leaves the origin's disc at its edge and stops at the target's disc (or
    near the centre of an empty target), and is drawn under the pieces: it never covers
    a letter, however the move runs.
    """
    u = canvas.u
    origin, target = illegal
    outline = f' fill="none" stroke="{ILLEGAL}" stroke-width="{_n(u / 12)}"'
    for cell in (origin, target):
        if cell is not None:
            x, y = canvas.cell(cell)
            inset = u / 24
            canvas.add(
                f'<rect x="{_n(x + inset)}" y="{_n(y + inset)}" width="{_n(u - 2 * inset)}" '
                f'height="{_n(u - 2 * inset)}"{outline}/>'
            )
    if origin is None or canvas.grid(origin) == canvas.grid(target):
        return
    (x1, y1), (x2, y2) = canvas.centre(origin), canvas.centre(target)
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / length, dy / length
    edge = (_DISC + 1 / 24) * u  # the disc and its rim
    start = edge if _occupied(position, origin, canvas) else 0.12 * u
    end = edge if _occupied(position, target, canvas) else 0.12 * u
    room = length - start - end
    head = min(0.38 * u, max(room, 0.0) * 0.6)
    tip_x, tip_y = x2 - ux * end, y2 - uy * end
    base_x, base_y = tip_x - ux * head, tip_y - uy * head
    half = head * 0.53
    if room - head > 0.05 * u:
        sx, sy = x1 + ux * start, y1 + uy * start
        canvas.add(
            f'<line x1="{_n(sx)}" y1="{_n(sy)}" x2="{_n(base_x)}" y2="{_n(base_y)}" '
            f'stroke="{ILLEGAL}" stroke-width="{_n(u / 9)}" stroke-linecap="round" '
            f'stroke-opacity="0.85"/>'
        )
    points = [
        (tip_x, tip_y),
        (base_x - uy * half, base_y + ux * half),
        (base_x + uy * half, base_y - ux * half),
    ]
    canvas.add(
        f'<polygon points="{" ".join(f"{_n(px)},{_n(py)}" for px, py in points)}" '
        f'fill="{ILLEGAL}" fill-opacity="0.85"/>'
    )


def _occupied(position: Position, cell: Square, canvas: _Canvas) -> bool:
    """Does a piece stand on this cell (board square or pocket) of `position`?"""
    index = canvas.index(cell)
    if index >= 64:
        return position.pockets[WHITE if index == WHITE_POCKET_CELL else BLACK] is not None
    return position.board[index] is not None


def marked_cells(record: MoveRecord) -> tuple[str | None, str] | None:
    """The (origin, target) cells to mark for an illegal ply: its first move, else the
    square its first other sub-move changes (origin None); None for a ply that changes none.

    One rule for every picture of an illegal ply (`gcadj export --to svg`, the audit report).
    """
    for sub in record.submoves:
        if isinstance(sub, MoveSub):
            return sub.origin, sub.target
    for sub in record.submoves:
        if isinstance(sub, (PlaceSub, RemoveSpaceSub)):
            return None, sub.target
        if isinstance(sub, ClearSub):
            return None, sub.square
        if isinstance(sub, CaptureSub) and sub.squares:
            return None, sub.squares[0]
    return None
