"""How a legal move is written: SAN-like text for chess users, and Game Courier's own text.

SAN needs the position (which pieces could also go there, whether the move checks), so
both directions take a `Position`, as python-chess's ``board.san`` / ``board.parse_san``
do. The notation, for this variant:

* board moves as in chess, with the variant's letters: ``Nf3``, ``Ixc5+``, ``exd5``; en
  passant is an ordinary pawn capture, ``exd6``; a pawn reaching rank 8 stays a pawn
  (``g8``, no ``=``); disambiguation is SAN's: the origin file, else the rank, else both
  (``Nbd2``, ``R1a3``, ``Qh4e1``);
* drops, Crazyhouse style: ``I@c4``, ``P@e2``;
* pocketing names the piece and its square, then ``@`` (into the pocket), then what it
  becomes if that differs: ``Rh1@`` (kept), ``Rh1@=I`` (mutated), ``Pg8@=B`` (promoted);
* ``+`` check, ``#`` checkmate, after any of the above (``Rh1@+`` is a discovered check).

Reading accepts the same text; check marks (``++`` too) and ``!``/``?`` are ignored, as
python-chess does, and so is long algebraic (`long_algebraic`: ``e2e4``, ``Ng1-f3``).

The Game Courier side (`gc_submoves`, `gc_text`) writes the canonical ply a player would
type for a legal move, every piece labelled: ``P e2-e4``, en passant ``P c5-d6; d5-``,
pocketing ``R h1-i1`` / ``R h1-i1; I-i1``, drop ``I i1-c4``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gcadj.engine.move import BOARD_MOVES, Move
from gcadj.engine.pieces import KIND, PIECES, Piece, PieceKind
from gcadj.engine.position import KING_REASONS, IllegalReason, Position
from gcadj.engine.squares import (
    FILE_NAMES,
    POCKET,
    WHITE,
    parse_square,
    square_file,
    square_name,
    square_rank,
)
from gcadj.errors import SanError
from gcadj.notation.records import (
    CaptureSub,
    ClearSub,
    MoveSub,
    PlaceSub,
    RemoveSpaceSub,
    SubMove,
)
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile, Side

__all__ = [
    "LongMove",
    "SanError",
    "gc_submoves",
    "gc_text",
    "long_algebraic",
    "looks_like_san",
    "move_san",
    "numbered_moves",
    "parse_san",
    "submoves_text",
]


# -- writing SAN -----------------------------------------------------------------------


def move_san(position: Position, move: Move) -> str:
    """The SAN of a legal move, with ``+`` or ``#``. The move is not checked again: it
    comes from the judge (`gcadj.judging.plies`) or from `parse_san`."""
    text = _san_body(position, move)
    position.push_trusted(move)  # the move is legal: trying it needs no second check
    try:
        if position.is_check():
            text += "#" if not position.has_legal_move() else "+"
    finally:
        position.pop()
    return text


def _san_body(position: Position, move: Move) -> str:
    f, t, kind = move
    if f == POCKET:
        assert kind is not None
        return f"{kind.letter}@{square_name(t)}"
    piece = position.board[f]
    if piece is None:
        raise ValueError(f"no piece on {square_name(f)} for {move.uci()}")
    if t == POCKET:
        assert kind is not None
        became = "" if kind is piece.kind else f"={kind.letter}"
        return f"{piece.kind.letter}{square_name(f)}@{became}"
    capture = position.board[t] is not None
    if piece.pawn:
        if square_file(f) != square_file(t):
            return f"{FILE_NAMES[square_file(f)]}x{square_name(t)}"
        return square_name(t)
    return f"{piece.kind.letter}{_disambiguation(position, move, piece)}" + (
        f"{'x' if capture else ''}{square_name(t)}"
    )


def _disambiguation(position: Position, move: Move, piece: Piece) -> str:
    """SAN's minimal origin hint: none, the file, else the rank, else both."""
    f, t, _ = move
    rivals = [square for square in position.legal_origins(piece, t) if square != f]
    if not rivals:
        return ""
    if all(square_file(r) != square_file(f) for r in rivals):
        return FILE_NAMES[square_file(f)]
    if all(square_rank(r) != square_rank(f) for r in rivals):
        return str(square_rank(f) + 1)
    return square_name(f)


# -- reading SAN -----------------------------------------------------------------------

_SAN = re.compile(
    r"""
    (?:
        (?P<drop>[A-Z])@(?P<drop_to>[a-h][1-8])
      | (?P<pocketed>[A-Z])?(?P<pocket_from>[a-h][1-8])@(?:=(?P<into>[A-Z]))?
      | (?P<piece>[A-Z])(?P<from_file>[a-h])?(?P<from_rank>[1-8])?x?(?P<to>[a-h][1-8])
      | (?P<pawn_file>[a-h])(?:x(?P<pawn_to>[a-h][1-8])|(?P<push_rank>[1-8]))
    )
    (?:\+\+?|\#)?(?:[!?]{1,2})?
    """,
    re.VERBOSE,
)

# Long algebraic, as some programs write moves: the origin and the target (``e2e4``,
# ``Ng1-f3``, ``Bb5xc6``, ``e7e8q``); python-chess reads it too.
_LONG = re.compile(
    r"(?P<piece>[A-Z])?(?P<origin>[a-h][1-8])[-x:]?(?P<target>[a-h][1-8])"
    r"(?:=?\(?(?P<promotion>[A-Za-z])\)?)?(?:\+\+?|\#)?(?:[!?]{1,2})?"
)


class LongMove(NamedTuple):
    """A move in long algebraic: the piece letter (None for a Pawn's ``e2e4``), its origin,
    its target, and the letter of a promotion suffix (``e7e8q``), upper case."""

    piece: str | None
    origin: str
    target: str
    promotion: str | None


def long_algebraic(text: str) -> LongMove | None:
    """The move `text` names in long algebraic, or None when it is not written so."""
    match = _LONG.fullmatch(text)
    if match is None:
        return None
    promotion = match["promotion"]
    return LongMove(
        match["piece"], match["origin"], match["target"], promotion and promotion.upper()
    )


SAN_EXAMPLES = "Nf3, exd5, I@c4, Rh1@ or Rh1@=I"


def looks_like_san(text: str) -> bool:
    """Is `text` shaped like a SAN move of this notation (legal or not)?"""
    return _SAN.fullmatch(text) is not None


def parse_san(position: Position, text: str) -> Move:
    """The legal move `text` names in `position`; raises `SanError` saying why not."""
    match = _SAN.fullmatch(text)
    if match is None:
        raise SanError(text, position.fen(), f"not a move in SAN (like {SAN_EXAMPLES})")
    g = match.groupdict()
    if g["drop"]:
        return _parse_drop(position, text, g["drop"], g["drop_to"])
    if g["pocket_from"]:
        return _parse_pocketing(position, text, g["pocketed"], g["pocket_from"], g["into"])
    if g["piece"] and g["piece"] != "P":
        kind = _kind(position, text, g["piece"])
        return _pick(position, text, kind, g["to"], g["from_file"], g["from_rank"], None)
    if g["piece"]:  # "Pe4" / "Pexd5": a pawn written with its letter
        return _pick(position, text, KIND["P"], g["to"], g["from_file"], g["from_rank"], None)
    if g["pawn_to"]:
        return _pick(position, text, KIND["P"], g["pawn_to"], g["pawn_file"], None, False)
    target = g["pawn_file"] + g["push_rank"]
    return _pick(position, text, KIND["P"], target, g["pawn_file"], None, True)


def _kind(position: Position, text: str, letter: str) -> PieceKind:
    kind = KIND.get(letter)
    if kind is None:
        raise SanError(
            text,
            position.fen(),
            f"{letter!r} is not a piece letter of Pocket Mutation Chess ({''.join(KIND)})",
        )
    return kind


def _pick(
    position: Position,
    text: str,
    kind: PieceKind,
    target: str,
    from_file: str | None,
    from_rank: str | None,
    same_file: bool | None,
) -> Move:
    """The one legal board move of a `kind` piece to `target` matching the origin hints.

    `same_file` is True for a pawn push, False for a pawn capture, None for pieces. When
    none is legal, the `SanError` names the move of the one such piece whose pattern takes
    it there (`SanError.named`: into check, or onto its own side's piece), if there is
    exactly one, or, when the origin is written whole (``Ng1f4``), the move from there:
    the text names that ply as a Game Courier log types it (``N g1-f4``), and the judge
    says what is wrong with it, as for the log.
    """
    t = parse_square(target)
    board = position.board
    candidates = []
    # A point check of each piece of that kind (not the whole move list): the board moves
    # to `target` of the legal moves, as `PlyResolver` checks a typed ply.
    for f in tuple(position.occupied[position.turn]):  # in legal_moves order; is_legal moves them
        p = board[f]
        if p is None or p.kind is not kind:
            continue
        if from_file is not None and FILE_NAMES[square_file(f)] != from_file:
            continue
        if from_rank is not None and str(square_rank(f) + 1) != from_rank:
            continue
        if same_file is not None and (square_file(f) == square_file(t)) != same_file:
            continue
        candidates.append(BOARD_MOVES[f][t])
    found = [m for m in candidates if position.is_legal(m)]
    side = Side.of(position.turn).capitalized
    if not found:
        hint = ""
        if from_file or from_rank:
            hint = f" from {'the ' + from_file + '-file' if from_file else ''}"
            hint += f"{' on ' if from_file and from_rank else ''}"
            hint += f"{'rank ' + from_rank if from_rank else ''}"
        reachable = [m for m in candidates if position.reaches(m)]
        named = reachable[0] if len(reachable) == 1 else None
        if named is None and from_file and from_rank and len(candidates) == 1:
            named = candidates[0]  # its origin written whole: the ply is named exactly
        reason = f"no {side} {kind.name}{hint} can move to {target}"
        raise SanError(text, position.fen(), reason, named)
    if len(found) > 1:
        options = " or ".join(_san_body(position, m) for m in found)
        raise SanError(text, position.fen(), f"ambiguous: it could be {options}")
    return found[0]


def _parse_drop(position: Position, text: str, letter: str, target: str) -> Move:
    kind = _kind(position, text, letter)
    move = Move(POCKET, parse_square(target), kind)
    why = position.why_illegal(move)
    if why is None:
        return move
    held = position.pockets[position.turn]
    side = Side.of(position.turn).capitalized
    if held is None:
        reason = f"{side}'s pocket is empty"
    elif why is IllegalReason.DROP_WRONG_PIECE:
        reason = f"{side}'s pocket holds a {held.kind.name}, not a {kind.name}"
    elif why is IllegalReason.DROP_OCCUPIED:
        reason = f"{target} is occupied"
    elif why is IllegalReason.DROP_LAST_RANK:
        reason = f"{side} may not drop on its own rank 8"
    else:
        reason = f"dropping on {target} leaves {side}'s King in check"
    raise SanError(text, position.fen(), reason, move)  # the drop a log types: judged


def _parse_pocketing(
    position: Position, text: str, letter: str | None, origin: str, into: str | None
) -> Move:
    f = parse_square(origin)
    piece = position.board[f]
    us = position.turn
    side = Side.of(us).capitalized
    if piece is None or piece.color != us:
        raise SanError(text, position.fen(), f"there is no {side} piece on {origin} to pocket")
    if letter is not None and _kind(position, text, letter) is not piece.kind:
        raise SanError(
            text, position.fen(), f"the piece on {origin} is a {piece.kind.name}, not {letter}"
        )
    kind = piece.kind if into is None else _kind(position, text, into)
    move = Move(f, POCKET, kind)
    why = position.why_illegal(move)
    if why is None:
        return move
    if why is IllegalReason.POCKET_FULL:
        reason = f"{side}'s pocket is full"
    elif why in KING_REASONS:
        reason = f"pocketing the {piece.kind.name} on {origin} leaves {side}'s King in check"
    elif why in (IllegalReason.POCKET_KING, IllegalReason.POCKET_FIRST_MOVE):
        reason = why.value
    else:
        reason = f"a {piece.kind.name} pocketed from {origin} cannot become a {kind.name}"
    raise SanError(text, position.fen(), reason, move)


# -- Game Courier text of a legal move -------------------------------------------------


def gc_submoves(
    position: Position, move: Move, pocket_file: PocketFile = DEFAULT_POCKET_FILE
) -> tuple[SubMove, ...]:
    """The sub-moves a player types on Game Courier for a move, every piece labelled: a
    legal move's canonical ply, or the ply an illegal one names (a drop of a piece the
    pocket does not hold is typed with that piece's label)."""
    us = position.turn
    pocket = f"{pocket_file}{1 if us == WHITE else 8}"
    f, t, kind = move
    if f == POCKET:  # the piece the drop names (the pocket's own, for a legal drop)
        assert kind is not None
        return (MoveSub(PIECES[us][kind.index].symbol, pocket, square_name(t)),)
    piece = position.board[f]
    assert piece is not None
    if t == POCKET:
        assert kind is not None
        subs: tuple[SubMove, ...] = (MoveSub(piece.symbol, square_name(f), pocket),)
        if kind is not piece.kind:
            subs += (PlaceSub(PIECES[us][kind.index].symbol, pocket, "-"),)
        return subs
    subs = (MoveSub(piece.symbol, square_name(f), square_name(t)),)
    if piece.pawn and position.board[t] is None and square_file(f) != square_file(t):  # en passant
        subs += (ClearSub(square_name(t - 8 if us == WHITE else t + 8), "-"),)
    return subs


def submoves_text(submoves: tuple[SubMove, ...]) -> str:
    """Sub-moves as Game Courier text, joined by ``; `` (the parser reads it back the same)."""
    parts = []
    for sub in submoves:
        if isinstance(sub, MoveSub):
            parts.append(
                f"{sub.label} {sub.origin}-{sub.target}"
                if sub.label
                else f"{sub.origin}-{sub.target}"
            )
        elif isinstance(sub, PlaceSub):
            parts.append(f"{sub.label}{sub.operator}{sub.target}")
        elif isinstance(sub, ClearSub):
            parts.append(f"@-{sub.square}" if sub.form == "@" else f"{sub.square}-")
        elif isinstance(sub, CaptureSub):
            parts.append("capture " + " ".join(sub.squares))
        elif isinstance(sub, RemoveSpaceSub):
            parts.append(f"-{sub.target}")
    return "; ".join(parts)


def gc_text(position: Position, move: Move, pocket_file: PocketFile = DEFAULT_POCKET_FILE) -> str:
    """The canonical Game Courier ply for a legal move: ``P c5-d6; d5-``, ``R h1-i1; I-i1``."""
    return submoves_text(gc_submoves(position, move, pocket_file))


def numbered_moves(moves: tuple[str, ...] | list[str], fen: str) -> str:
    """Moves played from the position `fen`, numbered as a game's moves are: ``12. Q e1-e8
    k g8-h7  13. Q e8-h5`` (``12... k g8-h7`` when Black moves first), whatever notation
    the moves are written in.

    Examples:
        >>> numbered_moves(("Nxg5", "Bc5", "d3"), "8/8/8/8/8/8/8/k3K3[] w - - 0 3")
        '3. Nxg5  Bc5  4. d3'
        >>> numbered_moves(["Qh4#"], "8/8/8/8/8/8/8/k3K3[] b - - 0 2")
        '2... Qh4#'
    """
    fields = fen.split()
    black = len(fields) > 1 and fields[1] == "b"
    number = int(fields[5]) if len(fields) > 5 and fields[5].isdigit() else 1
    parts = []
    for move in moves:
        if not black:
            parts.append(f"{number}. {move}")
        elif not parts:
            parts.append(f"{number}... {move}")
        else:
            parts.append(move)
        if black:
            number += 1
        black = not black
    return "  ".join(parts)
