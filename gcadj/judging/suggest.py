"""What the player probably meant: the legal plies closest to an illegal one (issue 12).

Most illegal plies in uncoded Game Courier logs are typing slips: the en passant victim
removed from the wrong square (the preset's own help text teaches `P c5-d6; c6-`), a
forgotten removal, a label in the wrong case or the wrong letter, `I*c4` for `I i1-c4`, a
square one off, the two squares swapped, a forgotten promotion piece. Only the typed ply
and the position before it are needed to find the move behind such a slip, so this runs
only for illegal plies (a legal game never gets here) and tries every legal move:

1. *What the player got right on the literal board* decides first: the piece (the label,
   or the piece standing on the typed origin when there is no label; a label in the wrong
   case counts less), the origin and the destination typed (a placement `I*c4` comes from
   the pocket; a square one off counts half), whether a pocket was involved, and for a
   pocketing what the piece became. The piece weighs a little more than one square, so
   `b g8-e7` with a Knight on g8 reads as the Bishop on f8, not the Knight.
2. Then how near the squares that differ are (one file or rank off; the two pockets are
   near each other), then the edit distance between the typed text and the candidate's
   canonical text (`gcadj.notation.san.gc_text`), then the rules' table order of the
   pieces (a forgotten promotion lists the Queen before the Chancellor).

A legal move is a candidate only when it is *close*: both squares right (or swapped), or
the destination and the piece right, or one square right and the other one off; and when
some legal move keeps both typed squares, only such moves are listed (the others are
different moves, not spellings of this one). No close move, no suggestion: the list is
never padded with unrelated moves. A castling attempt (a
King moved two files along its first rank) has no legal equivalent and gets none: a
one-step King move would be a different plan, not a spelling of the same one.

A candidate is *strong* when it keeps the typed origin and destination and differs from
the typed ply only in a label (letter or case), the en passant removal, or the case of
the letter a pocketed piece becomes; `gcadj export --fix` replaces a ply only by its one
strong candidate (at most one legal move has given origin, destination and piece).
"""

from __future__ import annotations

from dataclasses import dataclass

from gcadj.engine.move import Move
from gcadj.engine.pieces import Piece, PieceKind
from gcadj.engine.position import Position
from gcadj.engine.squares import POCKET, WHITE, relative_rank, square_file, square_rank
from gcadj.judging.judge import POCKET_INDEX, SquareMap, square_map
from gcadj.notation.records import CaptureSub, ClearSub, MoveRecord, MoveSub, PlaceSub
from gcadj.notation.san import gc_text, move_san, submoves_text
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile, Side

__all__ = ["Candidate", "edit_distance", "suggest"]

FAR = 3  # square nearness: 0 same, 1 one off, 2 two off or a diagonal neighbour, 3 far


@dataclass(frozen=True)
class Candidate:
    """A legal ply close to the typed one: the move, its canonical Game Courier text, its
    SAN, a few words on what differs, and whether it is a strong (safe to apply) fix."""

    move: Move
    text: str
    san: str
    why: str
    strong: bool


@dataclass(frozen=True)
class _Typed:
    """The typed ply as this module reads it: one move (origin, destination, label), the
    letter its pocketing piece becomes, the squares it cleared, and what else it did."""

    label: str | None
    origin: int  # literal-board index; the own pocket for a placement `I*c4`
    dest: int
    placement: bool  # typed as `L*d` / `L-d` rather than `L o-d`
    became: str | None  # the letter placed on a pocket square, if any
    removed: frozenset[int]
    extra: bool  # more moves, or placements on board squares, besides the primary one
    text: str  # normalised typed text


@dataclass(frozen=True)
class _Scored:
    key: tuple[int, int, int, int, str]
    move: Move
    text: str
    origin: int
    dest: int
    piece: Piece
    swapped: bool
    both: bool  # keeps both typed squares (or swaps them)


def suggest(
    position: Position,
    record: MoveRecord,
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
    limit: int = 3,
) -> list[Candidate]:
    """Up to `limit` legal plies closest to the illegal `record`, best first (see the module
    docstring); empty when none is close. `position` is the position before the ply."""
    squares = square_map(pocket_file)
    typed = _read(position, record, squares)
    if typed is None or _castling_attempt(position, record, squares):
        return []
    scored = []
    for move in position.legal_moves():
        found = _score(position, move, typed, squares, pocket_file)
        if found is not None:
            scored.append(found)
    scored.sort(key=lambda s: s.key)
    if scored and scored[0].both:  # the typed squares are right: nothing else is close
        scored = [s for s in scored if s.both]
    return [_candidate(position, s, typed, squares, pocket_file) for s in scored[:limit]]


# -- reading the typed ply -------------------------------------------------------------


def _read(position: Position, record: MoveRecord, squares: SquareMap) -> _Typed | None:
    us = position.turn
    subs = record.submoves
    moves = [s for s in subs if isinstance(s, MoveSub)]
    placed_on_board = [s for s in subs if isinstance(s, PlaceSub) and squares.index(s.target) < 64]
    odd = any(not isinstance(s, (MoveSub, PlaceSub, ClearSub, CaptureSub)) for s in subs)
    became = None
    removed: set[int] = set()
    for sub in subs:
        if isinstance(sub, PlaceSub) and squares.index(sub.target) >= 64:
            became = sub.label
        elif isinstance(sub, ClearSub):
            removed.add(squares.index(sub.square))
        elif isinstance(sub, CaptureSub):
            removed.update(squares.index(name) for name in sub.squares)
    text = submoves_text(subs)
    if moves:
        first = moves[0]
        return _Typed(
            label=first.label,
            origin=squares.index(first.origin),
            dest=squares.index(first.target),
            placement=False,
            became=became,
            removed=frozenset(removed),
            extra=len(moves) > 1 or bool(placed_on_board) or odd,
            text=text,
        )
    if placed_on_board:
        first_placed = placed_on_board[0]
        return _Typed(
            label=first_placed.label,
            origin=POCKET_INDEX[us],
            dest=squares.index(first_placed.target),
            placement=True,
            became=became,
            removed=frozenset(removed),
            extra=len(placed_on_board) > 1 or odd,
            text=text,
        )
    return None


def _castling_attempt(position: Position, record: MoveRecord, squares: SquareMap) -> bool:
    """Does the ply move the side's King two files along its first rank (docs/rules.md §5.2)?
    A sub-move labelled with another letter meant another piece: no castling attempt."""
    us = position.turn
    first_rank = 0 if us == WHITE else 7
    for sub in record.submoves:
        if not isinstance(sub, MoveSub) or (sub.label is not None and sub.label.upper() != "K"):
            continue
        o, d = squares.index(sub.origin), squares.index(sub.target)
        if o >= 64 or d >= 64:
            continue
        piece = position.board[o]
        if (
            piece is not None
            and piece.king
            and piece.color == us
            and square_rank(o) == square_rank(d) == first_rank
            and abs(square_file(o) - square_file(d)) == 2
        ):
            return True
    return False


# -- scoring one legal move ------------------------------------------------------------


def _nearness(a: int, b: int, squares: SquareMap) -> int:
    """0 the same square, 1 one file or rank off (or the other pocket), 2 two off or a
    diagonal neighbour, 3 anything else."""
    if a == b:
        return 0
    if a >= 64 and b >= 64:
        return 1
    na, nb = squares.name(a), squares.name(b)
    df, dr = abs(ord(na[0]) - ord(nb[0])), abs(ord(na[1]) - ord(nb[1]))
    if min(df, dr) == 0:
        return min(max(df, dr), FAR)
    return 2 if df == dr == 1 else FAR


def _piece_score(position: Position, typed: _Typed, piece: Piece) -> int:
    """2 the typed piece, 1 its letter in the wrong case, 0 another piece (with no label,
    the typed piece is the one standing on the typed origin)."""
    if typed.label is not None:
        if typed.label == piece.symbol:
            return 2
        return 1 if typed.label.upper() == piece.symbol.upper() else 0
    standing = (
        position.board[typed.origin] if typed.origin < 64 else position.pockets[typed.origin - 64]
    )
    return 2 if standing is piece else 0


def _score(
    position: Position, move: Move, typed: _Typed, squares: SquareMap, pocket_file: PocketFile
) -> _Scored | None:
    us = position.turn
    f, t, kind = move
    if f == POCKET:
        piece = position.pockets[us]
        origin, dest = POCKET_INDEX[us], t
    else:
        piece = position.board[f]
        origin, dest = f, (POCKET_INDEX[us] if t == POCKET else t)
    assert piece is not None
    origin_ok, dest_ok = origin == typed.origin, dest == typed.dest
    swapped = not origin_ok and origin == typed.dest and dest == typed.origin
    p = _piece_score(position, typed, piece)
    o_near = _nearness(origin, typed.origin, squares)
    d_near = _nearness(dest, typed.dest, squares)
    close = (
        (origin_ok and dest_ok)
        or swapped
        or (dest_ok and (p == 2 or (o_near <= 2 and (p == 1 or typed.label is None))))
        or (origin_ok and p >= 1 and d_near <= 2)
    )
    if not close:
        return None
    became = 0
    if t == POCKET and (typed.dest >= 64 or typed.became is not None):
        assert kind is not None
        if typed.became is None:
            became = 1 if kind is piece.kind else 0
        else:
            became = 1 if typed.became.upper() == kind.letter else 0
    pocket = (origin >= 64) == (typed.origin >= 64) and (dest >= 64) == (typed.dest >= 64)
    if swapped:
        squares_right = 8
    else:
        squares_right = (4 if origin_ok else 2 if o_near == 1 else 0) + (
            4 if dest_ok else 2 if d_near == 1 else 0
        )
    right = squares_right + (0, 2, 3)[p] + pocket + became
    near = 0 if swapped else o_near + d_near
    text = gc_text(position, move, pocket_file)
    order = kind.index if t == POCKET and kind is not None else 0
    key = (-right, near, edit_distance(typed.text, text), order, move.uci())
    both = swapped or (origin_ok and dest_ok)
    return _Scored(key, move, text, origin, dest, piece, swapped, both)


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance: the fewest single-character insertions, deletions and
    substitutions that turn `a` into `b`."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


# -- describing a candidate ------------------------------------------------------------


def _a(piece: Piece) -> str:
    return f"a {Side.of(piece.color).capitalized} {piece.kind.name}"


def _kind_article(kind: PieceKind) -> str:
    return f"an {kind.name}" if kind.name[0] in "AEIOU" else f"a {kind.name}"


def _en_passant_victim(position: Position, move: Move) -> int | None:
    f, t, _ = move
    if f >= 64 or t >= 64:
        return None
    piece = position.board[f]
    if (
        piece is None
        or not piece.pawn
        or position.board[t] is not None
        or square_file(f) == square_file(t)
    ):
        return None
    return t - 8 if position.turn == WHITE else t + 8


def _candidate(
    position: Position, s: _Scored, typed: _Typed, squares: SquareMap, pocket_file: PocketFile
) -> Candidate:
    us = position.turn
    name = squares.name
    move, piece = s.move, s.piece
    f, t, kind = move
    why: list[str] = []
    origin_ok, dest_ok = s.origin == typed.origin, s.dest == typed.dest
    pocket = name(POCKET_INDEX[us])
    if s.swapped:
        why.append(f"the move goes from {name(s.origin)} to {name(s.dest)}, not the other way")
    elif typed.placement and f == POCKET:
        why.append(f"a drop takes the {piece.kind.name} out of the pocket {pocket}")
    elif not origin_ok:
        if f == POCKET:
            why.append(
                f"the {piece.kind.name} to drop is in {Side.of(us).capitalized}'s pocket {pocket}"
            )
        else:
            why.append(
                f"the {piece.kind.name} moves from {name(s.origin)}, not {name(typed.origin)}"
            )
    if not dest_ok and not s.swapped:
        if t == POCKET:
            why.append(f"{Side.of(us).capitalized}'s pocket is {pocket}")
        else:
            why.append(f"to {name(s.dest)}, not {name(typed.dest)}")
    label_wrong = typed.label is not None and typed.label != piece.symbol
    if label_wrong and (origin_ok or s.swapped):
        if s.origin >= 64:
            why.append(f"the pocket {name(s.origin)} holds {_a(piece)} ({piece.symbol})")
        else:
            why.append(f"the piece on {name(s.origin)} is {_a(piece)} ({piece.symbol})")
    elif label_wrong and typed.label is not None and typed.label.upper() == piece.symbol.upper():
        why.append(f"{_a(piece)} is written {piece.symbol}")
    if t == POCKET and kind is not None:
        why.extend(_pocketing_why(piece, f, kind, typed, us))
    victim = _en_passant_victim(position, move)
    if victim is not None and victim not in typed.removed:
        if typed.removed - {victim}:
            why.append(f"the en passant victim stands on {name(victim)}")
        else:
            why.append(f"en passant also removes the Pawn on {name(victim)}")
    elif victim is None and typed.removed:
        why.append("nothing else is removed")
    if typed.extra:
        arrives = piece.pawn and t < 64 and relative_rank(t, us) == 7
        why.append("a Pawn reaching rank 8 stays a Pawn" if arrives else "nothing else changes")
    strong = (
        origin_ok
        and dest_ok
        and not typed.extra
        and (not typed.removed or victim is not None)
        and _became_kept(piece, move, typed)
    )
    return Candidate(
        move, s.text, move_san(position, move), "; ".join(why) or "the same move", strong
    )


def _pocketing_why(piece: Piece, origin: int, kind: PieceKind, typed: _Typed, us: int) -> list[str]:
    letter = kind.letter if us == WHITE else kind.letter.lower()
    last_rank = relative_rank(origin, us) == 7
    if typed.became is not None and typed.became.upper() == kind.letter:
        if typed.became != letter:
            case = "upper" if us == WHITE else "lower"
            return [f"{Side.of(us).capitalized}'s pieces are written in {case} case ({letter})"]
        return []
    if last_rank and kind is not piece.kind:
        if typed.became is None:
            return [f"a piece pocketed from its rank 8 must promote, e.g. to {_kind_article(kind)}"]
        return [f"it promotes to {_kind_article(kind)} ({letter})"]
    if kind is piece.kind:
        return [] if typed.became is None else [f"it stays {_kind_article(kind)}"]
    return [f"it becomes {_kind_article(kind)} ({letter})"]


def _became_kept(piece: Piece, move: Move, typed: _Typed) -> bool:
    """Does the move keep what the typed ply made of a pocketed piece (up to letter case)?"""
    _, t, kind = move
    if t != POCKET:
        return typed.became is None
    assert kind is not None
    if typed.became is None:
        return kind is piece.kind
    return typed.became.upper() == kind.letter
