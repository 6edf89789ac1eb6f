"""Judge one recorded ply: the legal move it made, or a finding saying precisely why not.

Game Courier executes every sub-move literally, so a ply is judged by the board it leaves
(docs/rules.md §5.1): its sub-moves are applied to a *literal board* (64
squares plus the two pocket squares), and the ply is legal when exactly one legal move
leaves that same board.

How: the literal sub-moves give a small *diff* (square -> new content). From the diff we
read the one move that could have made it (the square our piece left and where it went;
a piece appearing in the pocket; a piece leaving the pocket), ask the engine whether
that move is legal, and compare the move's own diff with the literal one. Two different
legal moves never leave the same board, so one match is the "exactly one" of the rules.
This costs a handful of dictionary operations per ply instead of trying every legal move.

Only when a ply is illegal does `explain` look closer, to name the most specific reason
an arbiter would give, in a category from `CATEGORIES`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gcadj.engine.compiled import rebuild_args
from gcadj.engine.move import BOARD_MOVES, DROP_MOVES, POCKET_MOVES, Move
from gcadj.engine.pieces import PIECE, PIECES, Piece, mutation_choices, promotion_choices
from gcadj.engine.position import KING_REASONS, IllegalReason, Position
from gcadj.engine.squares import POCKET, WHITE, relative_rank, square_file, square_name, square_rank
from gcadj.errors import UnsupportedSquare
from gcadj.notation.records import (
    CaptureSub,
    ClearSub,
    MoveRecord,
    MoveSub,
    PlaceSub,
    RemoveSpaceSub,
)
from gcadj.vocabulary import DEFAULT_POCKET_FILE, Category, PocketFile, Side

CATEGORIES = tuple(category.value for category in Category)

_CHOICE_REASONS = frozenset(
    {IllegalReason.MISSING_PROMOTION, IllegalReason.BAD_PROMOTION, IllegalReason.BAD_MUTATION}
)

WHITE_POCKET = 64  # literal-board index of i1 (White's pocket)
BLACK_POCKET = 65  # literal-board index of i8 (Black's pocket)
POCKET_INDEX = (WHITE_POCKET, BLACK_POCKET)

Diff = dict[int, Piece | None]
"""Literal-board index (0..63 squares, 64/65 pockets) -> what stands there after the ply."""


@dataclass(frozen=True)
class IllegalPly:
    """Why a ply is illegal: a category and one sentence naming squares."""

    category: Category
    reason: str

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), rebuild_args(self))  # pickling (see gcadj.engine.compiled)


class SquareMap:
    """Game Courier square names -> literal-board indices, for one pocket-file letter."""

    def __init__(self, pocket_file: PocketFile = DEFAULT_POCKET_FILE) -> None:
        self.pocket_file = pocket_file
        self.indices = {square_name(sq): sq for sq in range(64)}
        """Every square name the literal board has -> its index (read-only)."""
        self.indices[f"{pocket_file}1"] = WHITE_POCKET
        self.indices[f"{pocket_file}8"] = BLACK_POCKET
        self._names = {index: name for name, index in self.indices.items()}

    def index(self, name: str) -> int:
        try:
            return self.indices[name]
        except KeyError:
            raise UnsupportedSquare(name) from None

    def name(self, index: int) -> str:
        return self._names[index]


def _describe(piece: Piece | None) -> str:
    if piece is None:
        return "nothing"
    return f"a {Side.of(piece.color).capitalized} {piece.kind.name}"


def _the(piece: Piece) -> str:
    return f"the {Side.of(piece.color).capitalized} {piece.kind.name}"


@lru_cache(maxsize=8)
def square_map(pocket_file: PocketFile) -> SquareMap:
    """The square map for a pocket-file letter, built once (it is read-only)."""
    return SquareMap(pocket_file)


class PlyResolver:
    """Resolves recorded plies against a `Position`; one per game (it holds the square map)."""

    def __init__(self, pocket_file: PocketFile = DEFAULT_POCKET_FILE) -> None:
        self.squares = square_map(pocket_file)
        self._indices = self.squares.indices

    # -- the literal board -------------------------------------------------------------

    @staticmethod
    def content(position: Position, index: int) -> Piece | None:
        """What stands on a literal-board index in the position."""
        return position.board[index] if index < 64 else position.pockets[index - 64]

    def apply_literally(self, position: Position, record: MoveRecord) -> Diff | IllegalPly:
        """Execute the sub-moves as Game Courier would; the changed indices, or a notation fault.

        Faults that Game Courier itself would stop at (moving from an empty square, a label
        that does not match the piece, a command we do not model) are findings here.
        """
        overlay: Diff = {}
        index = self.squares.index
        content = self.content
        for sub in record.submoves:
            if isinstance(sub, MoveSub):
                o, d = index(sub.origin), index(sub.target)
                piece = overlay[o] if o in overlay else content(position, o)
                if piece is None:
                    return self._empty_origin(position, sub, o)
                if sub.label is not None and sub.label != piece.symbol:
                    return IllegalPly(
                        Category.LABEL_MISMATCH,
                        f"the label {sub.label} does not match the piece on {sub.origin}, "
                        f"which is {_describe(piece)} ({piece.symbol})",
                    )
                if o == d:  # 'f3-f3' leaves the piece where it stands (the replay warns)
                    continue
                overlay[d] = piece
                overlay[o] = None
            elif isinstance(sub, PlaceSub):
                placed = PIECE.get(sub.label)
                if placed is None:
                    return IllegalPly(
                        Category.UNSUPPORTED,
                        f"{sub.label!r} is not a piece of Pocket Mutation Chess "
                        f"(in '{sub.label}{sub.operator}{sub.target}')",
                    )
                overlay[index(sub.target)] = placed
            elif isinstance(sub, ClearSub):
                overlay[index(sub.square)] = None
            elif isinstance(sub, CaptureSub):
                for name in sub.squares:
                    overlay[index(name)] = None
            elif isinstance(sub, RemoveSpaceSub):
                return IllegalPly(
                    Category.UNSUPPORTED,
                    f"'-{sub.target}' removes the square {sub.target} from the board, "
                    "which Pocket Mutation Chess never does",
                )
        return {i: p for i, p in overlay.items() if p is not self.content(position, i)}

    def _empty_origin(self, position: Position, sub: MoveSub, o: int) -> IllegalPly:
        if o == POCKET_INDEX[position.turn]:
            return IllegalPly(
                Category.DROP_NOT_IN_POCKET,
                f"{Side.of(position.turn).capitalized}'s pocket {sub.origin} is empty: "
                "there is nothing to drop",
            )
        return IllegalPly(Category.EMPTY_ORIGIN, f"there is no piece on {sub.origin} to move")

    # -- resolving a ply ---------------------------------------------------------------

    def play(self, position: Position, record: MoveRecord) -> Move | IllegalPly:
        """Play the legal move this ply made and return it, or say why the ply is illegal
        (and leave the position as it was)."""
        submoves = record.submoves
        if len(submoves) == 1:
            sub = submoves[0]
            if type(sub) is MoveSub:
                move = self._direct_move(position, sub)
                if move is not None and position.play_if_legal(move):
                    return move
        elif len(submoves) == 2:
            sub, then = submoves
            if type(sub) is MoveSub and type(then) is PlaceSub:
                move = self._direct_mutation(position, sub, then)
                if move is not None and position.play_if_legal(move):
                    return move
        wrong_side = self._first_move_wrong_side(position, record)
        if wrong_side is not None:
            return wrong_side
        diff = self.apply_literally(position, record)
        if isinstance(diff, IllegalPly):
            return diff
        move = candidate_move(position, diff)
        if (
            move is not None
            and expected_diff(position, move) == diff
            and position.play_if_legal(move)
        ):
            return move
        return self.explain(position, record, diff)

    def _direct_move(self, position: Position, sub: MoveSub) -> Move | None:
        """The fast path for the commonest plies, one sub-move ``L o-d``: a board move, a
        pocketing without mutation (``N g1-i1``) or a drop (``N i1-e4``).

        Its literal board is "o emptied, the piece on d", which is exactly the board of the
        move read off it, unless the board move is en passant (which also empties the
        victim's square) or lands on an own piece, the pocket is already full, or the drop
        lands on a piece; in those cases, and for anything else, this returns None and the
        general path decides (as it does when the move read here is not legal).
        tests/judging/test_adjudicator_properties.py checks both paths against a
        brute-force reading of the rules.
        """
        indices = self._indices
        o = indices.get(sub.origin, -1)
        d = indices.get(sub.target, -1)
        if o < 0 or d < 0 or o == d:  # an unknown square: the general path names it
            return None
        us = position.turn
        label = sub.label
        if o < 64:
            piece = position.board[o]
            if piece is None or piece.color != us or (label is not None and label != piece.symbol):
                return None
            if d < 64:
                target = position.board[d]
                if target is not None and target.color == us:
                    return None
                if piece.pawn and target is None and d == position.ep_square:
                    return None
                return BOARD_MOVES[o][d]
            if d == POCKET_INDEX[us] and position.pockets[us] is None:
                return POCKET_MOVES[o][piece.kind.index]
            return None
        if o != POCKET_INDEX[us] or d >= 64:
            return None
        held = position.pockets[us]
        if held is None or (label is not None and label != held.symbol):
            return None
        if position.board[d] is not None:
            return None
        return DROP_MOVES[held.kind.index][d]

    def _direct_mutation(self, position: Position, sub: MoveSub, then: PlaceSub) -> Move | None:
        """The fast path for a pocketing that mutates or promotes, ``R h1-i1; I-i1``: the
        piece goes into the side's empty pocket and the second sub-move puts the kind it
        becomes there. Its literal board is that of the move read off it; anything else
        returns None for the general path (as `_direct_move`)."""
        indices = self._indices
        o = indices.get(sub.origin, -1)
        d = indices.get(sub.target, -1)
        us = position.turn
        if not 0 <= o < 64 or d != POCKET_INDEX[us] or indices.get(then.target) != d:
            return None
        piece = position.board[o]
        label = sub.label
        if piece is None or piece.color != us or (label is not None and label != piece.symbol):
            return None
        becomes = PIECE.get(then.label)
        if becomes is None or becomes.color != us or position.pockets[us] is not None:
            return None
        return POCKET_MOVES[o][becomes.kind.index]

    def _first_move_wrong_side(self, position: Position, record: MoveRecord) -> IllegalPly | None:
        """`wrong-side` when the ply's first sub-move moves a piece of the side not to move,
        whatever the other sub-moves and squares hold (rules: *the side to move*)."""
        first = record.submoves[0] if record.submoves else None
        if not isinstance(first, MoveSub) or first.origin == first.target:
            return None
        o = self.squares.index(first.origin)
        piece = self.content(position, o)
        if piece is None or piece.color == position.turn:
            return None
        return _wrong_side(position.turn, "pocket" if o >= 64 else first.origin, piece)

    def resolve(self, position: Position, record: MoveRecord) -> Move | IllegalPly:
        """The legal move this ply made, or why it is illegal; the position is unchanged."""
        verdict = self.play(position, record)
        if isinstance(verdict, Move):
            position.pop()
        return verdict

    def literal_board(self, position: Position, diff: Diff) -> list[Piece | None]:
        """The 66-entry literal board after a ply (64 squares, White's pocket, Black's)."""
        board: list[Piece | None] = [*position.board, *position.pockets]
        for i, piece in diff.items():
            board[i] = piece
        return board

    # -- explaining an illegal ply -----------------------------------------------------

    def explain(self, position: Position, record: MoveRecord, diff: Diff) -> IllegalPly:
        """The most specific reason the ply is illegal (it is known not to be legal)."""
        us = position.turn
        castling = self._castling(position, record)
        if castling is not None:
            return castling
        primary = next(
            (s for s in record.submoves if isinstance(s, MoveSub) and s.origin != s.target), None
        )
        if primary is None:
            return self._explain_without_move(position, record, diff)
        o, d = self.squares.index(primary.origin), self.squares.index(primary.target)
        piece = self.content(position, o)
        if piece is None:  # the ply itself put a piece there first (`N*f3; f3-g5`)
            return self._explain_conjured(position, record, primary, diff)
        if piece.color != us:
            return _wrong_side(us, "pocket" if o >= 64 else primary.origin, piece)
        if o >= 64:
            if o != POCKET_INDEX[us]:
                return IllegalPly(
                    Category.WRONG_SIDE,
                    f"{primary.origin} is {Side.of(us).other.capitalized}'s pocket",
                )
            return self._explain_drop(position, primary, d, piece, diff)
        if d >= 64:
            if d != POCKET_INDEX[us]:
                return IllegalPly(
                    Category.ILLEGAL_PIECE_MOVE,
                    f"{primary.target} is {Side.of(us).other.capitalized}'s pocket; a piece "
                    f"can only go into its own side's pocket",
                )
            return self._explain_pocketing(position, primary, o, piece, diff)
        return self._explain_board_move(position, primary, o, d, piece, diff)

    def _castling(self, position: Position, record: MoveRecord) -> IllegalPly | None:
        """`castling`: a sub-move takes the side to move's King two files along its own first
        rank, in whatever order the sub-moves come (``R h1-f1; K e1-g1`` too). Nothing
        else is castling: a King's two-file step elsewhere is an illegal King move."""
        us = position.turn
        home = 0 if us == WHITE else 7
        index = self.squares.index
        for sub in record.submoves:
            if not isinstance(sub, MoveSub):
                continue
            o, d = index(sub.origin), index(sub.target)
            if o >= 64 or d >= 64 or square_rank(o) != home or square_rank(d) != home:
                continue
            king = position.board[o]
            if (
                abs(square_file(o) - square_file(d)) == 2
                and king is not None
                and king.kind.is_king
                and king.color == us
            ):
                return IllegalPly(
                    Category.CASTLING,
                    "castling does not exist in Pocket Mutation Chess "
                    f"(King {sub.origin}-{sub.target})",
                )
        return None

    def _explain_conjured(
        self, position: Position, record: MoveRecord, primary: MoveSub, diff: Diff
    ) -> IllegalPly:
        """The ply's first move starts from a square that was empty before the ply: an
        earlier sub-move put a piece there out of nowhere (docs/rules.md §5.2)."""
        if not diff:
            return IllegalPly(
                Category.ILLEGAL_PIECE_MOVE,
                "the ply changes nothing on the board: a player must make a move",
            )
        us = position.turn
        pocket = self.squares.name(POCKET_INDEX[us])
        step = f"{primary.origin}-{primary.target}"
        placed = next(
            (s for s in record.submoves if isinstance(s, PlaceSub) and s.target == primary.origin),
            None,
        )
        put = (
            f"'{placed.label}{placed.operator}{placed.target}' puts "
            f"{_describe(PIECE.get(placed.label))} on {primary.origin}"
            if placed is not None
            else f"{primary.origin} was empty before the ply"
        )
        return IllegalPly(
            Category.DROP_NOT_IN_POCKET,
            f"{put} out of nowhere and '{step}' moves it on: a new piece enters the board "
            f"only as a drop from {Side.of(us).capitalized}'s pocket {pocket}",
        )

    def _explain_without_move(
        self, position: Position, record: MoveRecord, diff: Diff
    ) -> IllegalPly:
        us = position.turn
        own_pocket = POCKET_INDEX[us]
        if not diff:
            return IllegalPly(
                Category.ILLEGAL_PIECE_MOVE,
                "the ply changes nothing on the board: a player must make a move",
            )
        placements = [s for s in record.submoves if isinstance(s, PlaceSub)]
        pocket_piece = position.pockets[us]
        for sub in placements:
            target = self.squares.index(sub.target)
            placed = PIECE[sub.label]
            if target == own_pocket:
                return IllegalPly(
                    Category.BAD_MUTATION,
                    f"'{sub.label}{sub.operator}{sub.target}' changes the piece in the pocket on a "
                    "later turn; a mutation or promotion is chosen only when pocketing",
                )
            if target < 64:
                if pocket_piece is not None and pocket_piece is placed:
                    return IllegalPly(
                        Category.DROP_NOT_IN_POCKET,
                        f"'{sub.label}{sub.operator}{sub.target}' puts a new {placed.kind.name} on "
                        f"{sub.target} but leaves the one in the pocket "
                        f"{self.squares.name(own_pocket)}; a drop is written "
                        f"'{sub.label} {self.squares.name(own_pocket)}-{sub.target}'",
                    )
                held = "is empty" if pocket_piece is None else f"holds {_describe(pocket_piece)}"
                return IllegalPly(
                    Category.DROP_NOT_IN_POCKET,
                    f"'{sub.label}{sub.operator}{sub.target}' puts {_describe(placed)} "
                    f"on {sub.target}, "
                    f"but {Side.of(us).capitalized}'s pocket {held}",
                )
        first = min(diff)
        before, after = self.content(position, first), diff[first]
        change = (
            f"removes {_the(before)} from {self.squares.name(first)}"
            if after is None and before is not None
            else f"puts {_describe(after)} on {self.squares.name(first)}"
        )
        return IllegalPly(Category.EXTRA_SUBMOVE, f"the ply makes no move; it only {change}")

    def _explain_drop(
        self, position: Position, sub: MoveSub, d: int, piece: Piece, diff: Diff
    ) -> IllegalPly:
        us = position.turn
        if d >= 64:
            return IllegalPly(
                Category.ILLEGAL_PIECE_MOVE,
                f"a piece cannot move from pocket to pocket ({sub.target})",
            )
        move = Move(POCKET, d, piece.kind)
        reason = position.why_illegal(move)
        if reason is IllegalReason.DROP_LAST_RANK:
            return IllegalPly(
                Category.DROP_LAST_RANK,
                f"{Side.of(us).capitalized} may not drop on its own rank 8 ({sub.target})",
            )
        if reason is IllegalReason.DROP_OCCUPIED:
            return IllegalPly(
                Category.DROP_OCCUPIED,
                f"{sub.target} is occupied by {_describe(position.board[d])}; a drop needs an "
                "empty square",
            )
        return self._king_or_extra(position, move, diff, f"dropping on {sub.target}", reason)

    def _explain_pocketing(
        self, position: Position, sub: MoveSub, o: int, piece: Piece, diff: Diff
    ) -> IllegalPly:
        """Why pocketing `piece` from `o` is illegal: the engine's reason, put in words, but
        that what the ply left in the pocket (none, or the other side's) is said before
        the choice of piece."""
        us = position.turn
        pocket_name = self.squares.name(POCKET_INDEX[us])
        became = diff.get(POCKET_INDEX[us])
        move = Move(o, POCKET, (became or piece).kind)
        reason = position.why_illegal(move)
        if reason is IllegalReason.POCKET_KING:
            return IllegalPly(
                Category.POCKET_KING, f"the King on {sub.origin} can never be pocketed"
            )
        if reason is IllegalReason.POCKET_FULL:
            return IllegalPly(
                Category.POCKET_FULL,
                f"{Side.of(us).capitalized}'s pocket {pocket_name} already holds "
                f"{_describe(position.pockets[us])}; a pocket holds one piece",
            )
        if reason is IllegalReason.POCKET_FIRST_MOVE:
            return IllegalPly(
                Category.POCKET_FIRST_MOVE,
                "White may not pocket a piece on the first move of the game",
            )
        if became is None:
            return IllegalPly(
                Category.EXTRA_SUBMOVE, f"the piece moved into {pocket_name} was removed again"
            )
        if became.color != us:
            return IllegalPly(
                Category.BAD_MUTATION,
                f"the pocket {pocket_name} ends up holding {_describe(became)} "
                f"({became.symbol}): {Side.of(us).capitalized}'s pieces are written in "
                f"{'upper' if us == WHITE else 'lower'} case",
            )
        if reason in _CHOICE_REASONS:
            return self._bad_choice(us, sub, piece, became, reason)
        return self._king_or_extra(
            position, move, diff, f"pocketing {_the(piece)} from {sub.origin}", reason
        )

    def _bad_choice(
        self, us: int, sub: MoveSub, piece: Piece, became: Piece, reason: IllegalReason
    ) -> IllegalPly:
        """A pocketed piece that became what it may not: the choices it had, named."""
        kind = piece.kind
        if reason is IllegalReason.BAD_MUTATION:
            names = ", ".join(k.name for k in mutation_choices(kind))
            return IllegalPly(
                Category.BAD_MUTATION,
                f"{_the(piece)} (class {kind.value_class}) pocketed from {sub.origin} may "
                f"become only a piece of its class ({names}), not a {became.kind.name} "
                f"(class {became.kind.value_class})",
            )
        choices = promotion_choices(kind)
        names = ", ".join(k.name for k in choices)
        target_class = choices[0].value_class
        if reason is IllegalReason.MISSING_PROMOTION:
            pocket_name = self.squares.name(POCKET_INDEX[us])
            return IllegalPly(
                Category.MISSING_PROMOTION,
                f"{_the(piece)} pocketed from {sub.origin} (its rank 8) must promote to "
                f"class {target_class} ({names}); add e.g. "
                f"'{PIECES[us][choices[0].index].symbol}-{pocket_name}'",
            )
        return IllegalPly(
            Category.BAD_PROMOTION,
            f"{_the(piece)} (class {kind.value_class}) pocketed from {sub.origin} must "
            f"promote to class {target_class} ({names}), not to a {became.kind.name} "
            f"(class {became.kind.value_class})",
        )

    def _explain_board_move(
        self,
        position: Position,
        sub: MoveSub,
        o: int,
        d: int,
        piece: Piece,
        diff: Diff,
    ) -> IllegalPly:
        """Why the board move from `o` to `d` is illegal: the engine's reason for the move
        as the ply made it (with the piece it left on `d`, if another), put in words."""
        step = f"{sub.origin}-{sub.target}"
        arrived = diff.get(d)
        move = Move(o, d)
        changed = arrived is not None and arrived is not piece
        reason = position.why_illegal(Move(o, d, arrived.kind) if changed and arrived else move)
        target = position.board[d]
        if reason is IllegalReason.OWN_CAPTURE and target is not None:
            return IllegalPly(
                Category.OWN_CAPTURE,
                f"{_the(piece)} on {sub.origin} would capture {_the(target)} on {sub.target}, "
                "a piece of its own side",
            )
        if reason is IllegalReason.PROMOTION_ON_ARRIVAL:
            return IllegalPly(
                Category.PROMOTION_ON_ARRIVAL,
                f"a Pawn reaching rank 8 ({sub.target}) stays a Pawn; it promotes only when "
                f"pocketed from there, not into {_describe(arrived)} on arrival",
            )
        if reason is IllegalReason.CHANGE_ON_ARRIVAL:  # the change is a sub-move too many
            reason = position.why_illegal(move)
        if reason is not None and reason not in KING_REASONS:
            return IllegalPly(
                Category.ILLEGAL_PIECE_MOVE, self._why_unreachable(position, o, d, piece, reason)
            )
        victim = position.en_passant_victim(move)
        if victim is not None and diff.get(victim, position.board[victim]) is not None:
            cleared = [
                self.squares.name(i)
                for i, p in sorted(diff.items())
                if p is None and i not in (o, victim)
            ]
            extra = f"; the ply cleared {', '.join(cleared)} instead" if cleared else ""
            return IllegalPly(
                Category.EN_PASSANT_INCOMPLETE,
                f"en passant {step} must remove the captured Pawn on "
                f"{square_name(victim)}, which was not removed{extra}",
            )
        return self._king_or_extra(position, move, diff, f"{piece.kind.name} {step}", reason)

    def _king_or_extra(
        self,
        position: Position,
        move: Move,
        diff: Diff,
        what: str,
        reason: IllegalReason | None,
    ) -> IllegalPly:
        """The primary move is possible for the piece (`reason`, the engine's, is None or
        about its King): either it exposes the King, or the ply's other sub-moves changed
        the board beyond what the move does."""
        if reason is not None:
            return self._king_in_check(position, move, what, reason)
        expected = expected_diff(position, move)
        content = self.content
        differ = sorted(
            i
            for i in set(diff) | set(expected)
            if diff.get(i, content(position, i)) is not expected.get(i, content(position, i))
        )
        if not differ:  # cannot happen: the move would have been accepted by `resolve`
            return IllegalPly(Category.EXTRA_SUBMOVE, f"{what} leaves a board no legal move leaves")
        i = differ[0]
        now = diff.get(i, content(position, i))
        should = expected.get(i, content(position, i))
        return IllegalPly(
            Category.EXTRA_SUBMOVE,
            f"besides {what}, the ply leaves {_describe(now)} on {self.squares.name(i)} "
            f"where the move leaves {_describe(should)}",
        )

    def _king_in_check(
        self, position: Position, move: Move, what: str, reason: IllegalReason
    ) -> IllegalPly:
        """The move leaves its King attacked (`reason`, one of `KING_REASONS`): by whom."""
        us = position.turn
        with position.trial(move):
            king_sq = position.king_squares[us]
            attackers = position.attackers(us ^ 1, king_sq)
            names = " and ".join(
                f"{_describe(position.board[a])} on {square_name(a)}" for a in attackers
            )
        king = f"the {Side.of(us).capitalized} King on {square_name(king_sq)}"
        if reason is IllegalReason.POCKETING_IN_CHECK:
            return IllegalPly(
                Category.KING_IN_CHECK,
                f"{what} does not answer the check to {king} by {names}: "
                "pocketing never answers check",
            )
        verb = "leaves" if reason is IllegalReason.LEAVES_KING_IN_CHECK else "puts"
        return IllegalPly(Category.KING_IN_CHECK, f"{what} {verb} {king} in check from {names}")

    def _why_unreachable(
        self, position: Position, o: int, d: int, piece: Piece, reason: IllegalReason
    ) -> str:
        """The engine's reason the piece on `o` cannot go to `d`, with the squares named."""
        origin, target = square_name(o), square_name(d)
        occupant = position.board[d]
        if reason is IllegalReason.PAWN_CAPTURES_NOTHING:
            return f"a Pawn moves diagonally only to capture, and {target} is empty"
        if reason is IllegalReason.PAWN_BLOCKED:
            return f"a Pawn captures only diagonally, and {target} holds {_describe(occupant)}"
        if reason is IllegalReason.PAWN_DOUBLE_OFF_RANK_2:
            rank = relative_rank(o, position.turn) + 1
            return f"a Pawn double-steps only from its rank 2, and {origin} is its rank {rank}"
        if reason is IllegalReason.PAWN_DOUBLE_BLOCKED:
            between = (o + d) // 2
            blocker = position.board[between] or occupant
            where = square_name(between) if position.board[between] else target
            return f"the Pawn on {origin} cannot double-step: {where} holds {_describe(blocker)}"
        block = position.blocker(o, d) if reason is IllegalReason.LINE_BLOCKED else None
        if block is not None:
            return (
                f"the {piece.kind.name} on {origin} cannot reach {target}: its line is blocked "
                f"on {square_name(block)} by {_describe(position.board[block])}"
            )
        return f"a {piece.kind.name} cannot move from {origin} to {target}"


def _wrong_side(us: int, where: str, piece: Piece) -> IllegalPly:
    return IllegalPly(
        Category.WRONG_SIDE,
        f"it is {Side.of(us).capitalized}'s turn, but {where} holds {_describe(piece)}",
    )


def candidate_move(position: Position, diff: Diff) -> Move | None:
    """The one move that could leave this diff, read off the squares it changed."""
    us = position.turn
    board = position.board
    pocket_index = POCKET_INDEX[us]
    if pocket_index in diff:
        now = diff[pocket_index]
        if now is not None and position.pockets[us] is None:
            left = [i for i, p in diff.items() if i < 64 and p is None]
            if len(left) == 1 and now.color == us:
                return Move(left[0], POCKET, now.kind)
            return None
        held = position.pockets[us]
        if now is None and held is not None:
            arrived = [i for i, p in diff.items() if i < 64 and p is held]
            if len(arrived) == 1:
                return Move(POCKET, arrived[0], held.kind)
        return None
    left = [
        i
        for i, p in diff.items()
        if p is None and i < 64 and (q := board[i]) is not None and q.color == us
    ]
    for origin in left:
        piece = board[origin]
        for i, p in diff.items():
            if p is piece and i < 64:
                return Move(origin, i)
    return None


def expected_diff(position: Position, move: Move) -> Diff:
    """The literal-board changes a move makes (a board move, pocketing or drop)."""
    us = position.turn
    f, t, kind = move
    if t == POCKET:
        assert kind is not None
        return {f: None, POCKET_INDEX[us]: PIECES[us][kind.index]}
    if f == POCKET:
        return {POCKET_INDEX[us]: None, t: position.pockets[us]}
    diff: Diff = {f: None, t: position.board[f]}
    victim = position.en_passant_victim(move)
    if victim is not None:
        diff[victim] = None
    return diff
