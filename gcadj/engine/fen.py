"""gcadj's FEN: standard FEN with the variant's letters and the two pockets in brackets.

``rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1`` — the bracket holds White's
pocketed piece (upper case) then Black's (lower case), each pocket holding at most one.
The castling field is always ``-`` on output; on input castling letters are accepted and
ignored, since there is no castling. The halfmove field counts plies since the last
capture or promotion (docs/rules.md §4), not since the last pawn move.

This module only reads and writes text; whether the position makes sense as a game
(kings, checks) is checked by `Position.from_fen`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, NamedTuple

from gcadj.engine.pieces import PIECE, Piece
from gcadj.engine.squares import BLACK, WHITE, parse_square, square_name
from gcadj.errors import FenError


class FenSetup(NamedTuple):
    """The fields of a FEN, decoded but not yet judged as a position."""

    board: tuple[Piece | None, ...]  # 64 squares, a1 first
    pockets: tuple[Piece | None, Piece | None]  # White's, Black's
    turn: int
    ep_square: int | None
    halfmove_clock: int
    fullmove_number: int


STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1"


@lru_cache(maxsize=256)
def parse_fen(fen: str) -> FenSetup:
    """Decode a FEN; raises `FenError` naming the column and what was expected.

    Cached: an archive's games nearly all start from the same FEN, and a `FenSetup` is
    immutable.
    """
    text = fen.strip()
    if not text:
        raise FenError(fen, 1, "empty FEN")
    offset = len(fen) - len(fen.lstrip())
    fields: list[tuple[str, int]] = []  # (field, 1-based column)
    column = 0
    for part in text.split(" "):
        if part:
            fields.append((part, offset + column + 1))
        column += len(part) + 1
    placement, placement_col = fields[0]
    board, pockets = _parse_placement(fen, placement, placement_col)

    turn = WHITE
    if len(fields) > 1:
        value, col = fields[1]
        if value not in ("w", "b"):
            raise FenError(fen, col, f"side to move must be 'w' or 'b', not {value!r}")
        turn = WHITE if value == "w" else BLACK
    if len(fields) > 2:
        value, col = fields[2]
        if value != "-" and not set(value) <= set("KQkqABCDEFGHabcdefgh"):
            raise FenError(
                fen, col, f"castling field must be '-' (no castling here), not {value!r}"
            )
    ep_square = None
    if len(fields) > 3:
        value, col = fields[3]
        if value != "-":
            try:
                ep_square = parse_square(value)
            except ValueError:
                raise FenError(
                    fen, col, f"en passant square must be '-' or like e3, not {value!r}"
                ) from None
            if value[1] not in ("3", "6"):
                raise FenError(fen, col, f"en passant square must be on rank 3 or 6, not {value!r}")
    halfmove = _parse_counter(fen, fields, 4, "halfmove clock", 0, minimum=0)
    fullmove = _parse_counter(fen, fields, 5, "fullmove number", 1, minimum=1)
    if len(fields) > 6:
        raise FenError(
            fen, fields[6][1], f"unexpected text {fields[6][0]!r} after the fullmove number"
        )
    return FenSetup(board, pockets, turn, ep_square, halfmove, fullmove)


def _parse_counter(
    fen: str, fields: list[tuple[str, int]], index: int, name: str, default: int, minimum: int
) -> int:
    if len(fields) <= index:
        return default
    value, col = fields[index]
    if not value.isdigit() or int(value) < minimum:
        raise FenError(fen, col, f"{name} must be a whole number >= {minimum}, not {value!r}")
    return int(value)


def _parse_placement(
    fen: str, placement: str, start_col: int
) -> tuple[tuple[Piece | None, ...], tuple[Piece | None, Piece | None]]:
    pocket_text = ""
    pocket_col = start_col
    if "[" in placement:
        cut = placement.index("[")
        if not placement.endswith("]"):
            raise FenError(fen, start_col + len(placement) - 1, "pockets must end with ']'")
        pocket_text = placement[cut + 1 : -1]
        pocket_col = start_col + cut + 1
        placement = placement[:cut]
    ranks = placement.split("/")
    if len(ranks) != 8:
        raise FenError(
            fen, start_col, f"the board needs 8 ranks separated by '/', found {len(ranks)}"
        )
    board: list[Piece | None] = [None] * 64
    col = start_col
    for i, rank_text in enumerate(ranks):
        rank = 7 - i
        file = 0
        for ch in rank_text:
            if ch.isdigit():
                if ch == "0":
                    raise FenError(fen, col, "a run of empty squares cannot be 0")
                file += int(ch)
            elif ch in PIECE:
                if file < 8:
                    board[rank * 8 + file] = PIECE[ch]
                file += 1
            else:
                raise FenError(fen, col, f"{ch!r} is not a piece letter of this variant or a digit")
            if file > 8:
                raise FenError(fen, col, f"rank {rank + 1} has more than 8 squares")
            col += 1
        if file < 8:
            raise FenError(
                fen, col - 1 if rank_text else col, f"rank {rank + 1} has only {file} squares"
            )
        col += 1
    return tuple(board), _parse_pockets(fen, pocket_text, pocket_col)


def _parse_pockets(fen: str, text: str, col: int) -> tuple[Piece | None, Piece | None]:
    pockets: list[Piece | None] = [None, None]
    for i, ch in enumerate(text):
        piece = PIECE.get(ch)
        if piece is None or ch in "-":
            raise FenError(fen, col + i, f"{ch!r} is not a piece letter of this variant")
        if piece.kind.is_king:
            raise FenError(fen, col + i, "a King can never be in a pocket")
        side = piece.color
        if pockets[side] is not None:
            who = "White" if side == WHITE else "Black"
            raise FenError(fen, col + i, f"{who}'s pocket holds at most one piece")
        pockets[side] = piece
    return pockets[0], pockets[1]


_EMPTY_RUNS: Final = tuple(("." * n, str(n)) for n in range(8, 0, -1))


def format_fen(
    board: list[Piece | None] | tuple[Piece | None, ...],
    pockets: list[Piece | None] | tuple[Piece | None, Piece | None],
    turn: int,
    ep_square: int | None,
    halfmove_clock: int,
    fullmove_number: int,
) -> str:
    """Write a FEN; `ep_square` should be given only when an en passant capture is legal.

    Every viewer step and every ply of a JSON export writes one, so the placement is made
    with string operations (one symbol per square, then runs of empty squares counted by
    `str.replace`, longest first) rather than square by square in Python."""
    cells = "".join(["." if piece is None else piece.symbol for piece in board])
    placement = "/".join([cells[start : start + 8] for start in range(56, -8, -8)])
    for run, count in _EMPTY_RUNS:
        placement = placement.replace(run, count)
    pocket = "".join(p.symbol for p in pockets if p is not None)
    ep = "-" if ep_square is None else square_name(ep_square)
    side = "w" if turn == WHITE else "b"
    return f"{placement}[{pocket}] {side} - {ep} {halfmove_clock} {fullmove_number}"
