"""The rules engine: a Pocket Mutation Chess position, its legal moves, push/pop and outcome.

The board is a list of 64 `Piece` singletons or None; each side has a one-piece pocket.
Legal moves are generated without making them: one walk along the 24 lines out of the
side to move's King (8 queen lines, 8 Nightrider lines, leaps at distance 1) finds every
checker and every pinned piece with the squares it may still move to. A move is then
legal when it is a pseudo-legal move that (a) moves a pinned piece only along its pin,
(b) answers a check by capturing the checker or blocking its line, or (c) takes the King
to a square no enemy attacks with the King lifted off the board. En passant is the one
move tested by playing it on the board, since it empties two squares at once; it is
tried even in double check, where it can take the pawn that checks and land on the other
checker's line. tests/engine/test_agreement.py checks that this generator and the point
checks `is_legal`/`play_if_legal` accept the same moves in positions built around
checks, double checks, pins and en passant squares.

The rules (docs/rules.md §2–§4) that shape this code:
* pocketing needs an empty pocket, never takes the King, never answers check and never
  moves a pinned piece (removing it would expose the King), and White may not pocket on
  ply 1 of a game that starts from the standard array;
* a piece pocketed from its owner's rank 8 promotes to the next class; from ranks 1-7 it
  may mutate within its class;
* a drop goes to any empty square but the owner's rank 8; a drop may block a check;
* pawns double-step from their owner's rank 2 however they got there; no promotion on arrival;
* the halfmove clock counts plies since the last capture or promotion (pawn moves do not
  reset it); fifty moves (100 plies) draw automatically unless the last ply mates.
"""

from __future__ import annotations

import _random
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache, partial
from typing import Any, Final

from gcadj.engine.compiled import rebuild_args
from gcadj.engine.fen import STARTING_FEN, format_fen, parse_fen
from gcadj.engine.move import BOARD_MOVES, DROP_MOVES, POCKET_MOVES, Move
from gcadj.engine.pieces import (
    ATTACKS_ALONG,
    ATTACKS_DIRECTLY,
    HIGHEST_CLASS,
    KINDS,
    PIECES,
    Piece,
    PieceKind,
    mutation_choices,
    promotion_choices,
)
from gcadj.engine.squares import (
    BLACK,
    DIAGONAL_VECTORS,
    KING_STEPS,
    KNIGHT_LEAPS,
    KNIGHT_VECTORS,
    LINE_DIAGONAL,
    LINE_KNIGHT,
    LINE_ORTHOGONAL,
    ORTHOGONAL_VECTORS,
    POCKET,
    WHITE,
    Ray,
    rays_for,
)
from gcadj.errors import FenError, IllegalMoveError
from gcadj.vocabulary import Result, Side, Termination


@dataclass(frozen=True)
class Outcome:
    """How a game ended on the board, and who won (`winner`: WHITE, BLACK or None).

    Examples:
        >>> outcome = Outcome(Termination.CHECKMATE, BLACK)
        >>> outcome.result()
        <Result.BLACK_WINS: '0-1'>
        >>> Outcome(Termination.STALEMATE, None).result()
        <Result.DRAW: '1/2-1/2'>
    """

    termination: Termination
    winner: int | None  # WHITE, BLACK, or None for a draw

    def result(self) -> Result:
        if self.winner is None:
            return Result.DRAW
        return Result.WHITE_WINS if self.winner == WHITE else Result.BLACK_WINS

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), rebuild_args(self))  # pickling (see gcadj.engine.compiled)


# ---------------------------------------------------------------------------------------
# Tables: lines out of a square for checks/pins/attacks, pawn steps, pocketing choices.


_DIAGONAL_RAYS: Final = rays_for(DIAGONAL_VECTORS)
_ORTHOGONAL_RAYS: Final = rays_for(ORTHOGONAL_VECTORS)
_KNIGHT_RAYS: Final = rays_for(KNIGHT_VECTORS)


def _pawn_color_attacking_along(ray: Ray, sq: int) -> int:
    """Which colour's pawn on ray[0] attacks `sq` (White pawns attack upwards)."""
    return WHITE if ray[0] < sq else BLACK


# Per square: (ray, line kind, colour of a pawn attacking from ray[0] or -1), for the walk
# that finds checks and pins. QUEEN_LINES has the 8 queen lines, KING_LINES adds the 8
# knight lines (walked only while the enemy has a piece that rides them).
QUEEN_LINES: Final = tuple(
    tuple((ray, LINE_DIAGONAL, _pawn_color_attacking_along(ray, sq)) for ray in _DIAGONAL_RAYS[sq])
    + tuple((ray, LINE_ORTHOGONAL, -1) for ray in _ORTHOGONAL_RAYS[sq])
    for sq in range(64)
)
KING_LINES: Final = tuple(
    QUEEN_LINES[sq] + tuple((ray, LINE_KNIGHT, -1) for ray in _KNIGHT_RAYS[sq]) for sq in range(64)
)
# The same lines split into (first square, the rest, line kind, pawn colour) for `_attacked`.
QUEEN_LINE_SPLITS: Final = tuple(
    tuple((ray[0], ray[1:], line, pawn) for ray, line, pawn in QUEEN_LINES[sq]) for sq in range(64)
)
KING_LINE_SPLITS: Final = tuple(
    QUEEN_LINE_SPLITS[sq] + tuple((ray[0], ray[1:], LINE_KNIGHT, -1) for ray in _KNIGHT_RAYS[sq])
    for sq in range(64)
)
# Every square on those lines: a piece anywhere else cannot be pinned to a King on `sq`.
QUEEN_LINE_SQUARES: Final = tuple(
    frozenset(t for ray, _, _ in QUEEN_LINES[sq] for t in ray) for sq in range(64)
)
KING_LINE_SQUARES: Final = tuple(
    frozenset(t for ray, _, _ in KING_LINES[sq] for t in ray) for sq in range(64)
)


def _pawn_tables(
    color: int,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Per square: single-step target (-1 none), double-step target (-1 none), capture targets."""
    step = 8 if color == WHITE else -8
    single, double, captures = [], [], []
    for sq in range(64):
        rank, file = sq >> 3, sq & 7
        rel = rank if color == WHITE else 7 - rank
        single.append(sq + step if rel < 7 else -1)
        double.append(sq + 2 * step if rel == 1 else -1)
        caps = []
        if rel < 7:
            if file > 0:
                caps.append(sq + step - 1)
            if file < 7:
                caps.append(sq + step + 1)
        captures.append(tuple(caps))
    return tuple(single), tuple(double), tuple(captures)


_WHITE_PAWNS: Final = _pawn_tables(WHITE)
_BLACK_PAWNS: Final = _pawn_tables(BLACK)
PAWN_SINGLE: Final = (_WHITE_PAWNS[0], _BLACK_PAWNS[0])
PAWN_DOUBLE: Final = (_WHITE_PAWNS[1], _BLACK_PAWNS[1])
PAWN_CAPTURES: Final = (_WHITE_PAWNS[2], _BLACK_PAWNS[2])
LAST_RANK: Final = (7, 0)  # board rank index of each colour's own rank 8


def _pawn_check_origins(color: int) -> tuple[frozenset[int], ...]:
    """Per square of the enemy King: the squares from which a `color` pawn's push,
    double step or capture lands where it attacks the King (a pawn anywhere else gives no
    direct check, whatever stands on the board)."""
    table: list[set[int]] = [set() for _ in range(64)]
    for f in range(64):
        for t in (PAWN_SINGLE[color][f], PAWN_DOUBLE[color][f], *PAWN_CAPTURES[color][f]):
            if t >= 0:
                for king in PAWN_CAPTURES[color][t]:
                    table[king].add(f)
    return tuple(frozenset(origins) for origins in table)


PAWN_CHECK_ORIGINS: Final = (_pawn_check_origins(WHITE), _pawn_check_origins(BLACK))


class PawnStep(Enum):
    """How a pawn's step from one square to another relates to the pawn's moves, whatever
    stands on the board: what an explanation of an impossible pawn move starts from."""

    CAPTURE = "capture"  # one square diagonally forward
    SINGLE = "single"  # one square straight forward
    DOUBLE = "double"  # two squares straight forward from its rank 2
    DOUBLE_OFF_RANK_2 = "double-off-rank-2"  # two squares straight forward, not from rank 2
    NONE = "none"  # no pawn move goes there


def pawn_step(color: int, origin: int, target: int) -> PawnStep:
    """The `PawnStep` of a `color` pawn going from `origin` to `target` (board squares)."""
    if target in PAWN_CAPTURES[color][origin]:
        return PawnStep.CAPTURE
    if target == PAWN_SINGLE[color][origin]:
        return PawnStep.SINGLE
    if target == PAWN_DOUBLE[color][origin]:
        return PawnStep.DOUBLE
    if target == origin + (16 if color == WHITE else -16):
        return PawnStep.DOUBLE_OFF_RANK_2
    return PawnStep.NONE


class IllegalReason(Enum):
    """The rule a move breaks in a position (`Position.why_illegal`): the rules engine's own
    answer, so that whoever explains an illegal move (the judge, the SAN reader, `push`'s
    error) words it and never works it out again. When a move breaks several rules, the
    first in this order is given: whose piece, then the move itself (a board move, a
    pocketing, a drop, in the order of their members here), then the King's safety.
    """

    NO_PIECE = "there is nothing to move there"  # an empty origin, or an empty pocket
    NOT_YOURS = "the piece is the other side's"
    OWN_CAPTURE = "it would capture a piece of its own side"
    PROMOTION_ON_ARRIVAL = "a Pawn reaching its rank 8 stays a Pawn"
    CHANGE_ON_ARRIVAL = "a piece does not change on a board move"
    PAWN_CAPTURES_NOTHING = "a Pawn moves diagonally only to capture"
    PAWN_BLOCKED = "a Pawn captures only diagonally"
    PAWN_DOUBLE_BLOCKED = "a Pawn double-steps only over and onto empty squares"
    PAWN_DOUBLE_OFF_RANK_2 = "a Pawn double-steps only from its rank 2"
    LINE_BLOCKED = "the piece's line is blocked"
    OUT_OF_REACH = "the piece does not move that way"
    POCKET_KING = "the King is never pocketed"
    POCKET_FULL = "a pocket holds one piece"
    POCKET_FIRST_MOVE = "White may not pocket on the first move of the game"
    MISSING_PROMOTION = "a piece pocketed from its rank 8 must promote"
    BAD_PROMOTION = "a piece pocketed from its rank 8 promotes to the next class"
    BAD_MUTATION = "a piece pocketed from ranks 1-7 may become only a piece of its class"
    DROP_WRONG_PIECE = "the pocket holds another piece"
    DROP_LAST_RANK = "a piece is never dropped on its side's rank 8"
    DROP_OCCUPIED = "a drop needs an empty square"
    POCKETING_IN_CHECK = "pocketing never answers a check"
    LEAVES_KING_IN_CHECK = "the King stays in check"
    EXPOSES_KING = "the King would be in check"


KING_REASONS: Final = frozenset(
    {
        IllegalReason.POCKETING_IN_CHECK,
        IllegalReason.LEAVES_KING_IN_CHECK,
        IllegalReason.EXPOSES_KING,
    }
)
"""The reasons of a move the piece can make that leaves its own King attacked."""


def _pocketing_table(color: int) -> tuple[tuple[tuple[Move, ...], ...], ...]:
    """Per square, per kind index: every pocketing move of that kind of `color` piece from
    there (the King none). Made at every start-up, so the choices are worked out per kind
    once and only picked per square."""
    choices = {
        last: tuple(
            ()
            if kind.is_king
            else tuple(c.index for c in (promotion_choices if last else mutation_choices)(kind))
            for kind in KINDS
        )
        for last in (False, True)
    }
    table = []
    for sq in range(64):
        pick = POCKET_MOVES[sq].__getitem__
        table.append(
            tuple(tuple(map(pick, kinds)) for kinds in choices[sq >> 3 == LAST_RANK[color]])
        )
    return tuple(table)


# POCKETING[color][square][kind index] -> every pocketing move of that piece from there.
POCKETING: Final = (_pocketing_table(WHITE), _pocketing_table(BLACK))
DROP_SQUARES: Final = tuple(
    tuple(sq for sq in range(64) if sq >> 3 != LAST_RANK[color]) for color in (WHITE, BLACK)
)


def _lines_between() -> tuple[tuple[tuple[int, Ray] | None, ...], ...]:
    """LINE_BETWEEN[f][t]: (line kind, the squares strictly between) when t lies on a queen
    line or a Nightrider line out of f, else None. A rider of that kind of line on f
    reaches t when those squares are empty: how a checking move is found from its target."""
    table: list[list[tuple[int, Ray] | None]] = [[None] * 64 for _ in range(64)]
    for line, rays in (
        (LINE_DIAGONAL, _DIAGONAL_RAYS),
        (LINE_ORTHOGONAL, _ORTHOGONAL_RAYS),
        (LINE_KNIGHT, _KNIGHT_RAYS),
    ):
        for f in range(64):
            for ray in rays[f]:
                for i, t in enumerate(ray):
                    table[f][t] = (line, ray[:i])
    return tuple(tuple(row) for row in table)


LINE_BETWEEN: Final = _lines_between()
# BETWEEN[f * 64 + t]: the squares strictly between f and t on a line out of f (empty when
# t is on no line out of f, or next to f on it): what `Piece.attacks`' ATTACKS_ALONG needs
# empty.
BETWEEN: Final[tuple[Ray, ...]] = tuple(
    () if e is None else e[1] for row in LINE_BETWEEN for e in row
)
# Up to this many pieces, "is this square attacked?" asks each of the attacker's pieces
# (`Piece.attacks`); with more, walking the lines out of the square is cheaper.
FEW_PIECES: Final = 6

# Fixed seed: keys are stable across runs. The generator is `random.Random`'s own C core
# (the same numbers for an integer seed), which spares every start-up `random`'s imports.
_rng = _random.Random(20031105)
Z_SQUARE: Final = {
    p: tuple(_rng.getrandbits(64) for _ in range(64)) for side in PIECES for p in side
}
Z_POCKET: Final = {p: _rng.getrandbits(64) for side in PIECES for p in side}
Z_BLACK_TO_MOVE: Final = _rng.getrandbits(64)
Z_POCKET_BAN: Final = _rng.getrandbits(64)
Z_EN_PASSANT: Final = tuple(_rng.getrandbits(64) for _ in range(8))

_STANDARD_BOARD: Final = parse_fen(STARTING_FEN).board

# The undo record pushed for every move (a tuple: this is the hot path).
_Undo = tuple[Move, Piece, Piece | None, int, int | None, int, bool, int, int, tuple[int, int]]


class Position:
    """A position with its history. Create from a FEN (or ``"startpos"``); push and pop moves.

    `push` checks legality; `legal_moves`, `is_legal`, `is_check`, `outcome` answer questions.
    A FEN is gcadj's: chess's fields, with the two pockets in brackets after the board
    (White's letter upper case, Black's lower case; ``[]`` when both are empty).

    Examples:
        >>> from gcadj.engine.move import Move
        >>> pos = Position()
        >>> pos.push(Move.from_uci("e2e4"))  # a board move
        >>> pos.push(Move.from_uci("g8@B"))  # Black pockets the g8 Knight, mutated into a Bishop
        >>> pos.fen()
        'rnbqkb1r/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[b] w - - 2 2'
        >>> pos.push(Move.from_uci("d1h5"))
        >>> pos.push(Move.from_uci("B@c5"))  # and drops it on c5
        >>> pos.fen()
        'rnbqkb1r/pppppppp/8/2b4Q/4P3/8/PPPP1PPP/RNB1KBNR[] w - - 4 3'
        >>> len(pos.legal_moves()), pos.is_check(), pos.outcome()
        (68, False, None)
        >>> pos.pop(), pos.ply
        (Move.from_uci('B@c5'), 3)
    """

    def __init__(self, fen: str = STARTING_FEN) -> None:
        if fen == "startpos":
            fen = STARTING_FEN
        setup = parse_fen(fen)
        self.board: list[Piece | None] = list(setup.board)
        self.pockets: list[Piece | None] = list(setup.pockets)
        self.turn: int = setup.turn
        self.halfmove_clock: int = setup.halfmove_clock
        self.fullmove_number: int = setup.fullmove_number
        self.occupied: tuple[set[int], set[int]] = (set(), set())
        self.king_squares = [-1, -1]
        for sq, piece in enumerate(self.board):
            if piece is None:
                continue
            self.occupied[piece.color].add(sq)
            if piece.kind.is_king:
                if self.king_squares[piece.color] != -1:
                    raise FenError(
                        fen, 1, f"{Side.of(piece.color).capitalized} has more than one King"
                    )
                self.king_squares[piece.color] = sq
        for color in (WHITE, BLACK):
            if self.king_squares[color] == -1:
                raise FenError(fen, 1, f"{Side.of(color).capitalized} has no King")
        self._nightriders = (
            sum(1 for sq in self.occupied[WHITE] if self._piece(sq).nightrider),
            sum(1 for sq in self.occupied[BLACK] if self._piece(sq).nightrider),
        )
        if self._attacked(self.king_squares[self.turn ^ 1], self.turn):
            raise FenError(
                fen,
                1,
                f"{Side.of(self.turn).other.capitalized} is in check but it is not their move",
            )
        self.ep_square = setup.ep_square if self._ep_is_plausible(setup.ep_square) else None
        # White may not pocket on ply 1 of a game from the standard array (docs/rules.md §3).
        self.pocket_ban: bool = (
            setup.board == _STANDARD_BOARD
            and setup.pockets == (None, None)
            and setup.turn == WHITE
            and setup.fullmove_number == 1
        )
        self._zobrist = self._compute_zobrist()
        self._key = self._repetition_key()
        self._stack: list[_Undo] = []
        self._keys: list[int] = [self._key]
        self._key_counts: dict[int, int] = {self._key: 1}

    # -- reading the position ----------------------------------------------------------

    def _piece(self, sq: int) -> Piece:
        piece = self.board[sq]
        assert piece is not None
        return piece

    def piece_at(self, sq: int) -> Piece | None:
        return self.board[sq]

    def fen(self) -> str:
        """gcadj's FEN of the position; an en passant square only when the capture is legal.

        Examples:
            >>> Position("startpos").fen()
            'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1'
            >>> Position("k7/8/1K6/8/8/8/8/8[Q] w KQ - 0 1").fen()  # castling letters ignored
            'k7/8/1K6/8/8/8/8/8[Q] w - - 0 1'
        """
        ep = self.ep_square if self.ep_square is not None and self.has_legal_en_passant() else None
        return format_fen(
            self.board, self.pockets, self.turn, ep, self.halfmove_clock, self.fullmove_number
        )

    def fen_later(self) -> Callable[[], str]:
        """`fen()` of the position as it stands now, formatted only when called (a snapshot:
        later moves do not change it). A verdict's final FEN is one: formatting it costs
        as much as judging a few plies, and many callers never read it."""
        ep = self.ep_square if self.ep_square is not None and self.has_legal_en_passant() else None
        return partial(
            format_fen,
            tuple(self.board),
            (self.pockets[0], self.pockets[1]),
            self.turn,
            ep,
            self.halfmove_clock,
            self.fullmove_number,
        )

    @property
    def ply(self) -> int:
        """Plies played since the FEN's start (0 at the start)."""
        return len(self._stack)

    @property
    def move_stack(self) -> list[Move]:
        return [undo[0] for undo in self._stack]

    @classmethod
    def starting_at(cls, fen: str) -> Position:
        """A new position from a FEN, copied from a cached prototype.

        Auditing an archive starts thousands of games from the same FEN; copying a built
        position is several times cheaper than reading and checking the FEN again.
        """
        return _prototype(fen).copy()

    def copy(self) -> Position:
        """An independent position with the same board, counters and history."""
        clone = Position.__new__(Position)
        clone.board = self.board.copy()
        clone.pockets = self.pockets.copy()
        clone.turn = self.turn
        clone.halfmove_clock = self.halfmove_clock
        clone.fullmove_number = self.fullmove_number
        clone.occupied = (set(self.occupied[0]), set(self.occupied[1]))
        clone.king_squares = self.king_squares.copy()
        clone.ep_square = self.ep_square
        clone.pocket_ban = self.pocket_ban
        clone._nightriders = self._nightriders
        clone._zobrist = self._zobrist
        clone._key = self._key
        clone._stack = self._stack.copy()
        clone._keys = self._keys.copy()
        clone._key_counts = self._key_counts.copy()
        return clone

    def __repr__(self) -> str:
        return f"Position({self.fen()!r})"

    # -- attacks, checks, pins ---------------------------------------------------------

    def _attacked(self, sq: int, by: int) -> bool:
        """Is `sq` attacked by a piece of colour `by`?

        With few pieces (`FEW_PIECES`), each of `by`'s is asked (`_attacked_by_pieces`);
        else the lines out of `sq` are walked (`_attacked_by_lines`), cheaper on a full
        board. tests/engine/test_attack_tables.py holds the first to the second.
        """
        if len(self.occupied[by]) > FEW_PIECES:
            return self._attacked_by_lines(sq, by)
        return self._attacked_by_pieces(sq, by)

    def _attacked_by_pieces(self, sq: int, by: int) -> bool:
        """`_attacked` by asking each of `by`'s pieces (`Piece.attacks`, and the squares
        between empty when it attacks along a line)."""
        board = self.board
        for s in self.occupied[by]:
            p = board[s]
            if p is None or p.color != by:  # (a square emptied to try en passant)
                continue
            code = p.attacks[(s << 6) | sq]
            if code == ATTACKS_DIRECTLY:
                return True
            if code == ATTACKS_ALONG:
                for b in BETWEEN[(s << 6) | sq]:
                    if board[b] is not None:
                        break
                else:
                    return True
        return False

    def _attacked_by_lines(self, sq: int, by: int) -> bool:
        """`_attacked` by walking the lines out of `sq`.

        On each line the first piece met attacks `sq` if it is `by`'s and rides that kind
        of line, or, on the first square, steps or leaps to `sq` (a pawn only diagonally
        forward). Knight lines are walked only while `by` has a Nightrider-moving piece.
        """
        board = self.board
        riders = self._nightriders[by] > 0
        for first, tail, line, pawn_color in (KING_LINE_SPLITS if riders else QUEEN_LINE_SPLITS)[
            sq
        ]:
            p = board[first]
            if p is None:
                for t in tail:
                    p = board[t]
                    if p is not None:
                        if p.color == by and p.rides[line]:
                            return True
                        break
            elif p.color == by and (p.rides[line] or p.near[line] or (p.pawn and pawn_color == by)):
                return True
        if not riders:
            for t in KNIGHT_LEAPS[sq]:
                p = board[t]
                if p is not None and p.knight and p.color == by:
                    return True
        return False

    def attackers(self, by: int, sq: int) -> list[int]:
        """Squares of the pieces of colour `by` that attack `sq` (for explanations, not speed)."""
        board = self.board
        found = []
        for first, tail, line, pawn_color in KING_LINE_SPLITS[sq]:
            p = board[first]
            if p is not None:
                if p.color == by and (
                    p.rides[line] or p.near[line] or (p.pawn and pawn_color == by)
                ):
                    found.append(first)
                continue
            for t in tail:
                p = board[t]
                if p is not None:
                    if p.color == by and p.rides[line]:
                        found.append(t)
                    break
        return sorted(found)

    def is_check(self) -> bool:
        """Whether the side to move is in check.

        Examples:
            >>> Position("k7/8/1K6/8/8/8/8/R7[] b - - 0 1").is_check()
            True
        """
        return self._attacked(self.king_squares[self.turn], self.turn ^ 1)

    def checkers(self) -> list[int]:
        """Squares of the pieces giving check to the side to move."""
        return self.attackers(self.turn ^ 1, self.king_squares[self.turn])

    def _checks_and_pins(self, us: int) -> tuple[list[int], set[int], dict[int, Ray]]:
        """Checkers of `us`'s King, the squares that block a line check, and pinned pieces:
        asked of each enemy piece when they are few (`_checks_and_pins_by_few`), else
        found by walking the lines out of the King (`_checks_and_pins_by_lines`)."""
        if len(self.occupied[us ^ 1]) <= FEW_PIECES:
            return self._checks_and_pins_by_few(us)
        return self._checks_and_pins_by_lines(us)

    def _checks_and_pins_by_lines(self, us: int) -> tuple[list[int], set[int], dict[int, Ray]]:
        """`_checks_and_pins` in one walk along every line out of the King: the first
        piece met on a line checks if it is the enemy's and rides that kind of line (or
        steps or leaps to the King from the first square); if it is our own, the next
        piece pins it if that one is an enemy riding the line. A pinned piece maps to the
        squares it may still go to: its line up to and including the pinner. A square is
        on at most one line out of the King, so a piece has at most one pin. Knight
        lines are walked only while the enemy has a Nightrider-moving piece; otherwise a
        knight leap is all they carry.
        """
        board = self.board
        ksq = self.king_squares[us]
        them = us ^ 1
        riders = self._nightriders[them] > 0
        checkers: list[int] = []
        block: set[int] = set()
        pins: dict[int, Ray] = {}
        for ray, line, pawn_color in (KING_LINES if riders else QUEEN_LINES)[ksq]:
            own = -1
            for i, t in enumerate(ray):
                p = board[t]
                if p is None:
                    continue
                if p.color == us:
                    if own >= 0:
                        break
                    own = i
                    continue
                if own < 0:
                    if p.rides[line] or (
                        i == 0 and (p.near[line] or (p.pawn and pawn_color == them))
                    ):
                        checkers.append(t)
                        block.update(ray[:i])
                elif p.rides[line]:
                    pins[ray[own]] = ray[: i + 1]
                break
        if not riders:
            for t in KNIGHT_LEAPS[ksq]:
                p = board[t]
                if p is not None and p.knight and p.color == them:
                    checkers.append(t)
        return checkers, block, pins

    def _checks_and_pins_by_few(self, us: int) -> tuple[list[int], set[int], dict[int, Ray]]:
        """`_checks_and_pins` when the enemy has few pieces: each is asked whether it
        attacks the King (`Piece.attacks`), and a rider of a line with one piece between
        them, ours, pins it. The squares between are read from the King outwards, so the
        blocking squares and a pin's line are what the walk out of the King finds."""
        board = self.board
        them = us ^ 1
        ksq = self.king_squares[us]
        checkers: list[int] = []
        block: set[int] = set()
        pins: dict[int, Ray] = {}
        for s in self.occupied[them]:
            p = board[s]
            if p is None or p.color != them:
                continue
            code = p.attacks[(s << 6) | ksq]
            if code == ATTACKS_DIRECTLY:
                checkers.append(s)
            elif code == ATTACKS_ALONG:
                between = BETWEEN[(ksq << 6) | s]
                own = -1
                for i, t in enumerate(between):
                    q = board[t]
                    if q is None:
                        continue
                    if q.color != us or own >= 0:
                        own = -2  # blocked: no check, no pin
                        break
                    own = i
                if own == -1:
                    checkers.append(s)
                    block.update(between)
                elif own >= 0:
                    pins[between[own]] = (*between, s)
        return checkers, block, pins

    # -- move generation ---------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move: board moves, en passant, pocketings (each choice) and drops.

        Examples:
            >>> len(Position().legal_moves())  # no pocketing on White's first ply
            20
            >>> endgame = Position("k7/8/1K6/8/8/8/8/8[Q] w - - 0 1")  # a Queen in the pocket
            >>> sorted(str(move) for move in endgame.legal_moves())[:4]
            ['Q@a1', 'Q@a2', 'Q@a3', 'Q@a4']
        """
        us = self.turn
        checkers, block, pins = self._checks_and_pins(us)
        moves: list[Move] = []
        append = moves.append
        self._king_moves(us, False, append)
        if len(checkers) > 1:
            # Only the King answers a double check -- or an en passant capture, which can
            # take the pawn that checks and land on the other checker's line (issue 19.6).
            if self.ep_square is not None:
                moves.extend(self._en_passant_moves())
            return moves

        targets: set[int] | None = None
        if checkers:
            targets = set(block)
            targets.add(checkers[0])
        self._piece_moves(us, pins, targets, append)
        if self.ep_square is not None:
            for move in self._en_passant_moves():
                append(move)
        self._pocket_moves(us, checkers, block, pins, moves)
        return moves

    def _king_moves(self, us: int, captures: bool, append: Callable[[Move], None]) -> None:
        """The legal steps of `us`'s King (only its captures when `captures`: the material
        moves), each square looked at with the King lifted off the board, so that it
        cannot hide behind itself on a checking line. One place for `legal_moves` and
        `material_moves`: a call per generation, nothing measurable (bench_perft.py)."""
        them = us ^ 1
        board = self.board
        ksq = self.king_squares[us]
        king = board[ksq]
        board[ksq] = None
        row = BOARD_MOVES[ksq]
        for t in KING_STEPS[ksq]:
            p = board[t]
            if p is None:
                if captures or self._attacked(t, them):
                    continue
            elif p.color != them or self._attacked(t, them):
                continue
            append(row[t])
        board[ksq] = king

    def _piece_moves(
        self,
        us: int,
        pins: dict[int, Ray],
        targets: set[int] | None,
        append: Callable[[Move], None],
    ) -> None:
        """The board moves of every piece but the King (en passant apart): along its pin if
        pinned, onto `targets` (the checker and the blocking squares) when in check."""
        board = self.board
        ksq = self.king_squares[us]
        for f in self.occupied[us]:
            if f != ksq:
                piece = board[f]
                assert piece is not None
                self._one_piece_moves(f, piece, pins.get(f), targets, append)

    def _one_piece_moves(
        self,
        f: int,
        p: Piece,
        pin: Ray | None,
        targets: set[int] | None,
        append: Callable[[Move], None],
    ) -> None:
        """The board moves of the piece `p` (not the King) on `f`, as `_piece_moves` says."""
        board = self.board
        us = p.color
        them = us ^ 1
        row = BOARD_MOVES[f]
        if p.pawn:
            self._pawn_moves(f, us, row, pin, targets, append)
            return
        kind = p.kind
        if pin is None and targets is None:
            for t in kind.leaps[f]:
                q = board[t]
                if q is None or q.color == them:
                    append(row[t])
            for ray in kind.rays[f]:
                for t in ray:
                    q = board[t]
                    if q is None:
                        append(row[t])
                    else:
                        if q.color == them:
                            append(row[t])
                        break
            return
        allowed = set(pin) if pin is not None else None
        if targets is not None:
            allowed = targets if allowed is None else allowed & targets
        assert allowed is not None
        for t in kind.leaps[f]:
            if t in allowed:
                q = board[t]
                if q is None or q.color == them:
                    append(row[t])
        for ray in kind.rays[f]:
            for t in ray:
                q = board[t]
                if q is None:
                    if t in allowed:
                        append(row[t])
                else:
                    if q.color == them and t in allowed:
                        append(row[t])
                    break

    def _pocket_moves(
        self,
        us: int,
        checkers: list[int],
        block: set[int],
        pins: dict[int, Ray],
        moves: list[Move],
    ) -> None:
        """Pocketings (never in check, never of a pinned piece, not under White's ply-1 ban)
        with an empty pocket; drops (onto a blocking square when in check) with a full one."""
        board = self.board
        held = self.pockets[us]
        if held is None:
            if not checkers and not (self.pocket_ban and us == WHITE):
                choices = POCKETING[us]
                ksq = self.king_squares[us]
                for f in self.occupied[us]:
                    if f != ksq and f not in pins:
                        p = board[f]
                        assert p is not None
                        moves.extend(choices[f][p.kind.index])
            return
        drops = DROP_MOVES[held.kind.index]
        append = moves.append
        if checkers:
            last = LAST_RANK[us]
            for t in block:
                if t >> 3 != last:
                    append(drops[t])
        else:
            for t in DROP_SQUARES[us]:
                if board[t] is None:
                    append(drops[t])

    def material_moves(self) -> list[Move]:
        """Every legal move that changes the material count: captures (en passant
        included) and pocketings from the mover's rank 8, each promotion choice (an
        AmazonRider's, which stays what it is, changes nothing and is left out).

        The moves of an exchange count (`gcadj.analysis.exchanges`), found without
        generating the drops and the other pocketings that make most of a position's
        moves: each piece looks along its lines only for the first piece met. In check
        they are the captures that answer it (of the checker, or by the King).

        Examples:
            >>> hanging = "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R[] w - - 2 3"
            >>> sorted(move.uci() for move in Position(hanging).material_moves())  # Q, P
            ['f3e5', 'f3g5']
            >>> rook_on_rank_8 = Position("6R1/8/8/8/8/8/8/k3K3[] w - - 0 40")
            >>> [move.uci() for move in rook_on_rank_8.material_moves()]  # promotes to class 4
            ['g8@A', 'g8@G']
        """
        us = self.turn
        checkers, _, pins = self._checks_and_pins(us)
        moves: list[Move] = []
        append = moves.append
        self._king_moves(us, True, append)
        if len(checkers) > 1:
            return moves + self._en_passant_moves() if self.ep_square is not None else moves
        board = self.board
        ksq = self.king_squares[us]
        target = checkers[0] if checkers else -1  # in check, a capture must take the checker
        for f in self.occupied[us]:
            if f != ksq:
                piece = board[f]
                assert piece is not None
                self._piece_captures(f, piece, pins.get(f), target, append)
        if self.ep_square is not None:
            moves.extend(self._en_passant_moves())
        if not checkers and self.pockets[us] is None and not (self.pocket_ban and us == WHITE):
            last = LAST_RANK[us]
            choices = POCKETING[us]
            for f in self.occupied[us]:
                if f >> 3 == last and f != ksq and f not in pins:
                    piece = board[f]
                    assert piece is not None
                    if piece.kind.value_class < HIGHEST_CLASS:
                        moves.extend(choices[f][piece.kind.index])
        return moves

    def _piece_captures(
        self, f: int, p: Piece, pin: Ray | None, target: int, append: Callable[[Move], None]
    ) -> None:
        """The captures of the piece `p` (not the King) on `f`, en passant apart: along its
        pin if pinned, and only of the piece on `target` when that is not -1."""
        board = self.board
        them = p.color ^ 1
        row = BOARD_MOVES[f]
        if p.pawn:
            found: Iterable[int] = PAWN_CAPTURES[p.color][f]
        else:
            hits = []
            for t in p.kind.leaps[f]:
                hits.append(t)
            for ray in p.kind.rays[f]:
                for t in ray:
                    if board[t] is not None:
                        hits.append(t)
                        break
            found = hits
        for t in found:
            q = board[t]
            if (
                q is not None
                and q.color == them
                and (target < 0 or t == target)
                and (pin is None or t in pin)
            ):
                append(row[t])

    # -- checking moves ----------------------------------------------------------------

    def gives_check(self, move: Move) -> bool:
        """Does this legal move check the opponent's King? (It is played and taken back.)"""
        us = self.turn
        self._push(move)
        check = self._attacked(self.king_squares[us ^ 1], us)
        self._pop()
        return check

    def gives_mate(self, move: Move) -> bool:
        """Does this legal move checkmate? (It is played and taken back.) A mate search
        asks it of every checking move at its last ply: the enemy King's safety is read
        from the lines out of it (`_attacked`), and its answers are looked for only until
        the first (`_has_evasion`)."""
        us = self.turn
        self._push(move)
        mate = self._attacked(self.king_squares[us ^ 1], us) and not self._has_evasion()
        self._pop()
        return mate

    def mates_in_one(self) -> Move | None:
        """The first move of `checking_moves()` that checkmates, or None when none does.

        What a mate search asks at its last ply, cheaper than `gives_mate` on each check:
        a checking move is known to check, so only the answers are looked for, until the
        first (`_has_evasion`: a King step first). tests/engine/test_checking_moves.py
        holds it to ``next((m for m in checking_moves() if gives_mate(m)), None)``.

        Examples:
            >>> Position("k7/8/1K6/8/8/8/8/8[Q] w - - 0 1").mates_in_one()
            Move.from_uci('Q@b7')
            >>> Position("k7/8/8/8/8/8/8/K7[Q] w - - 0 1").mates_in_one() is None
            True
        """
        checks = self.checking_moves()
        found = self.first_mate(checks, 0, len(checks))
        return None if found < 0 else checks[found]

    def first_mate(self, checks: list[Move], start: int, stop: int) -> int:
        """The index of the first of ``checks[start:stop]`` that checkmates, or -1.

        `checks` must be legal moves that each give check (`checking_moves()`), so only
        the answers are looked for (`_has_evasion`). A mate search asks this at its last
        ply, a stretch at a time: it counts each check tried as a node, and `stop` keeps
        a stretch within the checks it may still try before its next look at its budget.

        Examples:
            >>> position = Position("k7/8/1K6/8/8/8/8/8[Q] w - - 0 1")
            >>> checks = position.checking_moves()
            >>> checks[position.first_mate(checks, 0, len(checks))]
            Move.from_uci('Q@b7')
            >>> position.first_mate(checks, 0, 0)
            -1
        """
        for i in range(start, stop):
            self._push(checks[i])
            mated = not self._has_evasion()
            self._pop()
            if mated:
                return i
        return -1

    def checking_moves(self) -> list[Move]:
        """Every legal move that checks the opponent's King, without generating the others.

        A mate-in-one search asks only for these, at the leaves of every mate search, so
        they are found from the enemy King outwards: a piece checks directly from the
        squares its kind would attack the King from (`_check_squares`, walked out of the
        King), so only those targets are tried for it; a drop likewise; and a piece that
        alone stands between the King and one of our riders on its line (a discoverer)
        checks with every move off that line, pocketings included. En passant, which
        empties a second square, is played to see. In check (rare when mating), the legal
        moves are filtered. tests/engine/test_checking_moves.py holds this to
        ``[m for m in legal_moves() if gives_check(m)]``.
        """
        us = self.turn
        checkers, _, pins = self._checks_and_pins(us)
        if checkers:
            return [move for move in self.legal_moves() if self.gives_check(move)]
        them = us ^ 1
        board = self.board
        ek = self.king_squares[them]
        discoverers = self._discoverers(us)
        moves: list[Move] = []
        append = moves.append
        by_kind: dict[int, list[int]] = {}
        # A copy: a discoverer's move along its line is played to see whether it checks,
        # and playing changes the set (iterating it then could meet a piece twice).
        for f in sorted(self.occupied[us]):
            p = board[f]
            assert p is not None
            line = discoverers.get(f)
            if line is not None:
                self._discovering_moves(f, p, pins.get(f), line, moves)
            elif p.pawn:
                if f not in PAWN_CHECK_ORIGINS[us][ek]:
                    continue  # no push or capture of this pawn lands where it checks
                found: list[Move] = []
                self._pawn_moves(f, us, BOARD_MOVES[f], pins.get(f), None, found.append)
                for move in found:
                    if ek in PAWN_CAPTURES[us][move.to_square]:
                        append(move)
            elif not p.king:
                squares = by_kind.get(p.kind.index)
                if squares is None:
                    squares = by_kind[p.kind.index] = self._check_squares(p.kind, ek, them)
                pin = pins.get(f)
                row = BOARD_MOVES[f]
                for t in squares:
                    if (pin is None or t in pin) and self._reaches(p, f, t):
                        append(row[t])
        held = self.pockets[us]
        if held is not None:
            drops = DROP_MOVES[held.kind.index]
            last = LAST_RANK[us]
            if held.pawn:
                squares = list(PAWN_CAPTURES[them][ek])
            else:
                squares = by_kind.get(held.kind.index) or self._check_squares(held.kind, ek, them)
            for t in squares:
                if board[t] is None and t >> 3 != last:
                    append(drops[t])
        if self.ep_square is not None:
            for move in self._en_passant_moves():
                if self.gives_check(move):
                    append(move)
        return moves

    def _discoverers(self, us: int) -> dict[int, Ray]:
        """`us`'s pieces that alone stand between the enemy King and one of `us`'s riders of
        their line, each with that line (from the King up to the rider)."""
        board = self.board
        ek = self.king_squares[us ^ 1]
        found: dict[int, Ray] = {}
        for ray, line, _ in (KING_LINES if self._nightriders[us] else QUEEN_LINES)[ek]:
            own = -1
            for i, t in enumerate(ray):
                p = board[t]
                if p is None:
                    continue
                if p.color != us:
                    break
                if own >= 0:
                    if p.rides[line]:
                        found[ray[own]] = ray[: i + 1]
                    break
                own = i
        return found

    def _discovering_moves(
        self, f: int, p: Piece, pin: Ray | None, line: Ray, moves: list[Move]
    ) -> None:
        """The checking moves of a discoverer on `f`: every legal move off `line` (a King's
        steps, a piece's moves, its pocketings), and a move along it that checks itself."""
        us = p.color
        them = us ^ 1
        board = self.board
        if p.king:
            row = BOARD_MOVES[f]
            board[f] = None  # lifted, as in legal_moves
            for t in KING_STEPS[f]:
                q = board[t]
                if (q is None or q.color == them) and t not in line and not self._attacked(t, them):
                    moves.append(row[t])
            board[f] = p
            return
        own: list[Move] = []
        self._one_piece_moves(f, p, pin, None, own.append)
        for move in own:
            if move.to_square not in line or self.gives_check(move):
                moves.append(move)
        if pin is None and self.pockets[us] is None and not (self.pocket_ban and us == WHITE):
            moves.extend(POCKETING[us][f][p.kind.index])

    def _check_squares(self, kind: PieceKind, ek: int, them: int) -> list[int]:
        """The squares a `kind` piece of `them`'s opponent could stand on (empty, or holding
        a piece of `them` to capture) to attack `them`'s King on `ek`: walked out of the
        King along the kind's own lines, which are the same both ways."""
        board = self.board
        found: list[int] = []
        for t in kind.leaps[ek]:
            q = board[t]
            if q is None or q.color == them:
                found.append(t)
        for ray in kind.rays[ek]:
            for t in ray:
                q = board[t]
                if q is None:
                    found.append(t)
                else:
                    if q.color == them:
                        found.append(t)
                    break
        return found

    def _reaches(self, p: Piece, f: int, t: int) -> bool:
        """Can the piece `p` (not a pawn) on `f` move to `t`, whose content it may take?
        Its moves are its attacks (`Piece.attacks`): a leap, or a line with nothing between."""
        code = p.attacks[(f << 6) | t]
        if code == ATTACKS_DIRECTLY:
            return True
        if code == ATTACKS_ALONG:
            board = self.board
            return all(board[s] is None for s in BETWEEN[f << 6 | t])
        return False

    def _pawn_moves(
        self,
        f: int,
        us: int,
        row: tuple[Move, ...],
        pin: Ray | None,
        targets: set[int] | None,
        append: Callable[[Move], None],
    ) -> None:
        """A pawn's pushes and captures (en passant is generated separately)."""
        board = self.board
        out: list[int] = []
        t = PAWN_SINGLE[us][f]
        if t >= 0 and board[t] is None:
            out.append(t)
            t2 = PAWN_DOUBLE[us][f]
            if t2 >= 0 and board[t2] is None:
                out.append(t2)
        for t in PAWN_CAPTURES[us][f]:
            q = board[t]
            if q is not None and q.color != us:
                out.append(t)
        add = append  # a bound list.append
        for t in out:
            if (pin is None or t in pin) and (targets is None or t in targets):
                add(row[t])

    def _en_passant_moves(self) -> list[Move]:
        ep = self.ep_square
        assert ep is not None
        us = self.turn
        board = self.board
        moves = []
        for f in PAWN_CAPTURES[us ^ 1][ep]:  # squares from which our pawn attacks ep
            p = board[f]
            if p is not None and p.pawn and p.color == us and self._en_passant_is_safe(f, ep):
                moves.append(BOARD_MOVES[f][ep])
        return moves

    def _en_passant_is_safe(self, f: int, ep: int) -> bool:
        """Play the capture on the board, ask whether our King is attacked, take it back."""
        board = self.board
        us = self.turn
        victim_sq = ep - 8 if us == WHITE else ep + 8
        pawn, victim = board[f], board[victim_sq]
        board[f] = board[victim_sq] = None
        board[ep] = pawn
        safe = not self._attacked(self.king_squares[us], us ^ 1)
        board[ep] = None
        board[f], board[victim_sq] = pawn, victim
        return safe

    def _ep_is_plausible(self, ep: int | None) -> bool:
        """An en passant square from a FEN counts only behind a pawn that just double-stepped."""
        if ep is None:
            return False
        them = self.turn ^ 1
        behind = ep + 8 if them == WHITE else ep - 8
        victim = self.board[behind] if 0 <= behind < 64 else None
        return (
            self.board[ep] is None
            and victim is not None
            and victim.pawn
            and victim.color == them
            and (ep >> 3) == (2 if them == WHITE else 5)
        )

    def has_legal_en_passant(self) -> bool:
        return self.ep_square is not None and bool(self._en_passant_moves())

    def is_pseudo_legal(self, move: Move) -> bool:
        """Could the piece make this move, ignoring whether it leaves its King in check?"""
        return self.why_not_pseudo_legal(move) is None

    def why_not_pseudo_legal(self, move: Move) -> IllegalReason | None:
        """The rule the move breaks, its King's safety aside; None when the piece can make
        it (it is pseudo-legal). The one statement of how pieces move, drop and pocket:
        `is_pseudo_legal` and `why_illegal` ask it, and the checks that succeed come first,
        so that a legal move costs what a yes/no answer would."""
        us = self.turn
        f, t, kind = move
        board = self.board
        if f == POCKET:
            return self._why_not_drop(us, t, kind)
        p = board[f] if 0 <= f < 64 else None
        if p is None:
            return IllegalReason.NO_PIECE
        if p.color != us:
            return IllegalReason.NOT_YOURS
        if t == POCKET:
            return self._why_not_pocketing(move, p)
        if not 0 <= t < 64:
            return IllegalReason.OUT_OF_REACH
        q = board[t]
        if q is not None and q.color == us:
            return IllegalReason.OWN_CAPTURE
        return self._why_not_board_move(p, f, t, kind, q)

    def reaches(self, move: Move) -> bool:
        """Does the side to move's piece make this board move's pattern, whatever stands on
        its target? What `why_not_pseudo_legal` says with its own-capture rule left out:
        the SAN reader asks it to name ``Kf7`` onto Black's own Pawn, or the push ``e4``
        onto White's own Knight, as the move a log would type (judged ``own-capture``),
        not to call it unreadable. A Pawn's push, which never captures, is weighed as a
        push to an empty square; every other move as a capture."""
        us = self.turn
        f, t, kind = move
        if not (0 <= f < 64 and 0 <= t < 64):
            return False
        p = self.board[f]
        if p is None or p.color != us:
            return False
        q = self.board[t]
        if p.pawn and (f & 7) == (t & 7) and q is not None and q.color == us:
            q = None  # a push onto its own piece: the pattern of a push
        return self._why_not_board_move(p, f, t, kind, q) is None

    def _why_not_board_move(
        self, p: Piece, f: int, t: int, kind: PieceKind | None, q: Piece | None
    ) -> IllegalReason | None:
        """A board move of the side to move's piece `p` from f to t, `q` on t: None when
        the piece's pattern takes it there (its King's safety and t's owner aside)."""
        us = self.turn
        board = self.board
        if kind is not None:
            if p.pawn and t >> 3 == LAST_RANK[us]:
                return IllegalReason.PROMOTION_ON_ARRIVAL
            return IllegalReason.CHANGE_ON_ARRIVAL
        if p.pawn:
            return self._why_not_pawn_move(us, f, t, q)
        kind = p.kind
        if t in kind.leaps[f]:
            return None
        for ray in kind.rays[f]:  # `can_reach` and `blocker` in one walk
            if t in ray:
                for s in ray:
                    if s == t:
                        return None
                    if board[s] is not None:
                        return IllegalReason.LINE_BLOCKED
        return IllegalReason.OUT_OF_REACH

    def _why_not_pawn_move(self, us: int, f: int, t: int, q: Piece | None) -> IllegalReason | None:
        """A Pawn's board move (not onto its own side's piece): None when it can make it."""
        captures = PAWN_CAPTURES[us][f]
        if t in captures:
            if q is not None or t == self.ep_square:
                return None
            return IllegalReason.PAWN_CAPTURES_NOTHING
        single = PAWN_SINGLE[us][f]
        if q is None and (t == single or (t == PAWN_DOUBLE[us][f] and self.board[single] is None)):
            return None
        step = pawn_step(us, f, t)
        if step is PawnStep.SINGLE:
            return IllegalReason.PAWN_BLOCKED
        if step is PawnStep.DOUBLE:
            return IllegalReason.PAWN_DOUBLE_BLOCKED
        if step is PawnStep.DOUBLE_OFF_RANK_2:
            return IllegalReason.PAWN_DOUBLE_OFF_RANK_2
        return IllegalReason.OUT_OF_REACH

    def _why_not_pocketing(self, move: Move, p: Piece) -> IllegalReason | None:
        """Pocketing the side to move's piece `p`: None when it can be pocketed as `move`
        says (the kind it becomes)."""
        us = self.turn
        f = move.from_square
        if p.king:
            return IllegalReason.POCKET_KING
        if self.pockets[us] is not None:
            return IllegalReason.POCKET_FULL
        if self.pocket_ban and us == WHITE:
            return IllegalReason.POCKET_FIRST_MOVE
        if move in POCKETING[us][f][p.kind.index]:
            return None
        if f >> 3 != LAST_RANK[us]:
            return IllegalReason.BAD_MUTATION
        if move.kind is p.kind:
            return IllegalReason.MISSING_PROMOTION
        return IllegalReason.BAD_PROMOTION

    def _why_not_drop(self, us: int, t: int, kind: PieceKind | None) -> IllegalReason | None:
        """Dropping the pocketed `kind` on `t`: None when it can be dropped there."""
        pocket = self.pockets[us]
        if pocket is None:
            return IllegalReason.NO_PIECE
        if pocket.kind is not kind:
            return IllegalReason.DROP_WRONG_PIECE
        if not 0 <= t < 64:
            return IllegalReason.OUT_OF_REACH
        if t >> 3 == LAST_RANK[us]:
            return IllegalReason.DROP_LAST_RANK
        if self.board[t] is not None:
            return IllegalReason.DROP_OCCUPIED
        return None

    def why_illegal(self, move: Move) -> IllegalReason | None:
        """The rule this move breaks here (the first, in `IllegalReason`'s order); None
        when it is legal. What explains an illegal move asks this, and words the answer.

        Examples:
            >>> from gcadj.engine.move import Move
            >>> pos = Position()
            >>> pos.why_illegal(Move.from_uci("e2e4")) is None
            True
            >>> pos.why_illegal(Move.from_uci("e2e5"))
            <IllegalReason.OUT_OF_REACH: 'the piece does not move that way'>
            >>> pos.why_illegal(Move.from_uci("g1@N")).value  # White's first move
            'White may not pocket on the first move of the game'
        """
        reason = self.why_not_pseudo_legal(move)
        if reason is not None:
            return reason
        us = self.turn
        self._push(move)
        safe = not self._attacked(self.king_squares[us], us ^ 1)
        self._pop()
        if safe:
            return None
        if not self.is_check():
            return IllegalReason.EXPOSES_KING
        if move.to_square == POCKET:
            return IllegalReason.POCKETING_IN_CHECK
        return IllegalReason.LEAVES_KING_IN_CHECK

    def en_passant_victim(self, move: Move) -> int | None:
        """The square of the Pawn this move takes en passant (it empties a square besides
        its own two); None when it is no en passant capture."""
        f, t, kind = move
        if t != self.ep_square or kind is not None or not 0 <= f < 64 or (f & 7) == (t & 7):
            return None
        p = self.board[f]
        if p is None or not p.pawn or self.board[t] is not None:
            return None
        return t - 8 if p.color == WHITE else t + 8

    def blocker(self, f: int, t: int) -> int | None:
        """The first occupied square strictly between f and t on the piece's line, if any."""
        kind = self._piece(f).kind
        for ray in kind.rays[f]:
            if t in ray:
                for s in ray[: ray.index(t)]:
                    if self.board[s] is not None:
                        return s
        return None

    def is_legal(self, move: Move) -> bool:
        """A point check: pseudo-legal, and the mover's King is safe afterwards.

        Examples:
            >>> from gcadj.engine.move import Move
            >>> pos = Position()
            >>> pos.is_legal(Move.from_uci("e2e4")), pos.is_legal(Move.from_uci("h1@I"))
            (True, False)
        """
        return self._is_legal(move)

    def legal_origins(self, piece: Piece, target: int) -> list[int]:
        """The squares from which a `piece` of the side to move may legally go to `target`
        on the board: what SAN asks to tell a move from its rivals (``Nbd2``). Each such
        piece is checked on its own, which finds what generating every legal move would,
        at a fraction of the cost (most pieces have no twin that can reach the square)."""
        return [
            square
            for square, other in enumerate(self.board)
            if other is piece and self._is_legal(Move(square, target))
        ]

    def _is_legal(self, move: Move) -> bool:
        """Pseudo-legal, and the mover's King safe afterwards. Out of check, a drop always
        leaves it safe, and so does any other move but the King's and en passant when the
        piece stands on no line out of its King (nothing can be pinned there): those are
        answered without playing them (a mate search asks this of its hinted moves);
        the rest are played to see."""
        if self.why_not_pseudo_legal(move) is not None:
            return False
        us = self.turn
        them = us ^ 1
        f, t, _ = move
        ksq = self.king_squares[us]
        if f != ksq and t != self.ep_square and not self._attacked(ksq, them):
            if f == POCKET:
                return True
            lines = (KING_LINE_SQUARES if self._nightriders[them] else QUEEN_LINE_SQUARES)[ksq]
            if f not in lines:
                return True
        self._push(move)
        safe = not self._attacked(self.king_squares[us], us ^ 1)
        self._pop()
        return safe

    def play_if_legal(self, move: Move) -> bool:
        """Play `move` if it is legal and say whether it was played.

        The replay's hot path: a legal move is pushed once, instead of being pushed and
        popped by `is_legal` and then pushed again; only an unsafe move is taken back.
        """
        if self.why_not_pseudo_legal(move) is not None:
            return False
        us = self.turn
        self._push(move)
        if self._attacked(self.king_squares[us], us ^ 1):
            self._pop()
            return False
        return True

    # -- push and pop ------------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play a legal move; raises `IllegalMoveError` (and changes nothing) otherwise.

        Examples:
            >>> from gcadj.engine.move import Move
            >>> pos = Position()
            >>> pos.push(Move.from_uci("e2e5"))
            Traceback (most recent call last):
            ...
            gcadj.errors.IllegalMoveError: illegal move: 'e2e5' in rnbqkbnr/pppppppp/8/8/...
            >>> pos.ply
            0
        """
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMoveError(move, self.fen(), reason.value)
        self._push(move)

    def push_trusted(self, move: Move) -> None:
        """Play a move already known to be legal here, without checking it again.

        For code that replays what the judge decided (the writers walking a verdict's
        moves): legality was settled once, by the judge. A move that is not at least
        pseudo-legal corrupts the position; use `push` for a move from anywhere else.
        `pop` takes it back.
        """
        self._push(move)

    def pop(self) -> Move:
        """Take back the last move and return it.

        Examples:
            >>> from gcadj.engine.move import Move
            >>> pos = Position()
            >>> pos.push(Move.from_uci("g1f3"))
            >>> pos.pop()
            Move.from_uci('g1f3')
            >>> pos.fen() == Position().fen()
            True
        """
        if not self._stack:
            raise IndexError("pop from a position with no moves played")
        return self._pop()

    @contextmanager
    def trial(self, move: Move) -> Iterator[Position]:
        """Play a pseudo-legal `move` for the length of a ``with`` block, then take it back.

        ``with position.trial(move): ...`` is how other layers look at the position after
        a move (is the King attacked, which pieces attack it) without keeping it. The move
        is not checked (`is_pseudo_legal` is the caller's business), and the position must
        be left as the block found it.
        """
        self._push(move)
        try:
            yield self
        finally:
            self._pop()

    def _push(self, move: Move) -> None:
        f, t, kind = move
        us = self.turn
        them = us ^ 1
        board = self.board
        z = self._zobrist
        riders = self._nightriders
        captured: Piece | None = None
        captured_sq = -1
        new_ep: int | None = None
        halfmove = self.halfmove_clock + 1
        if f == POCKET:  # drop
            moved = self.pockets[us]
            assert moved is not None
            self.pockets[us] = None
            board[t] = moved
            self.occupied[us].add(t)
            z ^= Z_POCKET[moved] ^ Z_SQUARE[moved][t]
            if moved.nightrider:
                self._nightriders = (
                    (riders[0] + 1, riders[1]) if us == WHITE else (riders[0], riders[1] + 1)
                )
        elif t == POCKET:  # pocketing, with mutation or promotion
            moved = board[f]
            assert moved is not None and kind is not None
            board[f] = None
            self.occupied[us].discard(f)
            new_piece = PIECES[us][kind.index]
            self.pockets[us] = new_piece
            z ^= Z_SQUARE[moved][f] ^ Z_POCKET[new_piece]
            if f >> 3 == LAST_RANK[us]:
                halfmove = 0  # a promotion resets the fifty-move count
            if moved.nightrider:
                self._nightriders = (
                    (riders[0] - 1, riders[1]) if us == WHITE else (riders[0], riders[1] - 1)
                )
        else:
            moved = board[f]
            assert moved is not None
            captured = board[t]
            captured_sq = t
            if moved.pawn:
                if captured is None and t == self.ep_square and (f & 7) != (t & 7):
                    captured_sq = t - 8 if us == WHITE else t + 8
                    captured = board[captured_sq]
                    board[captured_sq] = None
                elif t == PAWN_DOUBLE[us][f]:
                    new_ep = (f + t) // 2
            if captured is not None:
                self.occupied[them].discard(captured_sq)
                z ^= Z_SQUARE[captured][captured_sq]
                halfmove = 0
                if captured.nightrider:
                    self._nightriders = (
                        (riders[0] - 1, riders[1]) if them == WHITE else (riders[0], riders[1] - 1)
                    )
            board[t] = moved
            board[f] = None
            occ = self.occupied[us]
            occ.discard(f)
            occ.add(t)
            z ^= Z_SQUARE[moved][f] ^ Z_SQUARE[moved][t]
            if moved.king:
                self.king_squares[us] = t
        self._stack.append(
            (
                move,
                moved,
                captured,
                captured_sq,
                self.ep_square,
                self.halfmove_clock,
                self.pocket_ban,
                self._zobrist,
                self._key,
                riders,
            )
        )
        self.ep_square = new_ep
        self.halfmove_clock = halfmove
        if us == BLACK:
            self.fullmove_number += 1
        self.turn = them
        self.pocket_ban = False
        z ^= Z_BLACK_TO_MOVE
        self._zobrist = z
        # the ban is over and most moves leave no en passant square: the key is the hash
        key = z if new_ep is None else self._repetition_key()
        self._key = key
        self._keys.append(key)
        counts = self._key_counts
        counts[key] = counts.get(key, 0) + 1

    def _pop(self) -> Move:
        move, moved, captured, captured_sq, ep, halfmove, ban, z, key, riders = self._stack.pop()
        counts = self._key_counts
        old_key = self._keys.pop()
        if counts[old_key] == 1:
            del counts[old_key]
        else:
            counts[old_key] -= 1
        self.turn ^= 1
        us = self.turn
        if us == BLACK:
            self.fullmove_number -= 1
        f, t, _ = move
        board = self.board
        if f == POCKET:
            board[t] = None
            self.occupied[us].discard(t)
            self.pockets[us] = moved
        elif t == POCKET:
            board[f] = moved
            self.occupied[us].add(f)
            self.pockets[us] = None
        else:
            board[f] = moved
            board[t] = None
            occ = self.occupied[us]
            occ.discard(t)
            occ.add(f)
            if captured is not None:
                board[captured_sq] = captured
                self.occupied[us ^ 1].add(captured_sq)
            if moved.king:
                self.king_squares[us] = f
        self.ep_square = ep
        self.halfmove_clock = halfmove
        self.pocket_ban = ban
        self._zobrist = z
        self._key = key
        self._nightriders = riders
        return move

    # -- hashing and repetition --------------------------------------------------------

    def _compute_zobrist(self) -> int:
        z = 0
        for sq, piece in enumerate(self.board):
            if piece is not None:
                z ^= Z_SQUARE[piece][sq]
        for piece in self.pockets:
            if piece is not None:
                z ^= Z_POCKET[piece]
        if self.turn == BLACK:
            z ^= Z_BLACK_TO_MOVE
        return z

    def _repetition_key(self) -> int:
        """Board, pockets, side to move, a *legal* en passant, and White's ply-1 pocket ban.

        docs/rules.md §4: positions are the same only with the same possible moves, so the en
        passant square counts only when the capture is legal, and the initial array
        (where White may not pocket) differs from any later recurrence of it.
        """
        key = self._zobrist
        if self.pocket_ban:
            key ^= Z_POCKET_BAN
        if (
            self.ep_square is not None
            and self._en_passant_candidates()
            and self.has_legal_en_passant()
        ):
            key ^= Z_EN_PASSANT[self.ep_square & 7]
        return key

    def _en_passant_candidates(self) -> bool:
        """Cheap pre-test: is there any pawn of the side to move that could capture en passant?"""
        ep = self.ep_square
        assert ep is not None
        us = self.turn
        for f in PAWN_CAPTURES[us ^ 1][ep]:
            p = self.board[f]
            if p is not None and p.pawn and p.color == us:
                return True
        return False

    @property
    def key(self) -> int:
        """The repetition key of the position: board, pockets, side to move, a legal en
        passant and White's ply-1 ban (`_repetition_key`). Equal keys are the same position
        in the sense of docs/rules.md §4, which is what a mate search's table is keyed by."""
        return self._key

    def repetition_count(self) -> int:
        """How many times the current position has occurred, this time included."""
        return self._key_counts[self._key]

    def history_keys(self) -> tuple[int, ...]:
        """The repetition key of every position from the start to now."""
        return tuple(self._keys)

    # -- the end of the game -----------------------------------------------------------

    def has_legal_move(self) -> bool:
        """Is there any legal move? Usually answered without generating them.

        Out of check, a full pocket can drop on any empty square off the owner's rank 8
        (and in a game there always is one), and an empty pocket can take any unpinned
        piece but the King (unless White's ply-1 ban holds). In check, `_has_evasion` looks
        for one answer. Only the rest (a bare King, the ban, a board a FEN filled up) needs
        the full generation.
        """
        us = self.turn
        board = self.board
        if self.is_check():
            return self._has_evasion()
        if self.pockets[us] is not None:  # a drop, if there is an empty square for it
            if any(board[t] is None for t in DROP_SQUARES[us]):
                return True
        elif not (self.pocket_ban and us == WHITE) and len(self.occupied[us]) > 1:
            king = self.king_squares[us]
            lines = (KING_LINE_SQUARES if self._nightriders[us ^ 1] else QUEEN_LINE_SQUARES)[king]
            if any(sq != king and sq not in lines for sq in self.occupied[us]):
                return True  # a piece off every line out of the King is never pinned
            pins = self._checks_and_pins(us)[2]
            if any(sq != king and sq not in pins for sq in self.occupied[us]):
                return True
        return self._king_can_step() or bool(self.legal_moves())

    def _king_can_step(self) -> bool:
        """Has the side to move's King a legal step? Its squares are looked at with the King
        lifted off the board, as in `legal_moves`, until the first safe one."""
        us = self.turn
        them = us ^ 1
        board = self.board
        ksq = self.king_squares[us]
        king = board[ksq]
        board[ksq] = None
        for t in KING_STEPS[ksq]:
            q = board[t]
            if (q is None or q.color == them) and not self._attacked(t, them):
                board[ksq] = king
                return True
        board[ksq] = king
        return False

    def _has_evasion(self) -> bool:
        """In check: is there a legal answer? The cheap ones first, stopping at the first
        found: a King step, a drop on a square that blocks a line check, a piece taking
        the checker or blocking; en passant last (it is tried on the board). Pocketing
        never answers a check (docs/rules.md §3). The same moves as `legal_moves` in check."""
        if self._king_can_step():
            return True
        us = self.turn
        ksq = self.king_squares[us]
        checkers, block, pins = self._checks_and_pins(us)  # only when the King is stuck
        if len(checkers) == 1:
            if self.pockets[us] is not None and any(t >> 3 != LAST_RANK[us] for t in block):
                return True
            targets = (checkers[0], *block)
            for f in self.occupied[us]:
                if f != ksq and self._reaches_one_of(f, targets, pins.get(f)):
                    return True
        return self.ep_square is not None and bool(self._en_passant_moves())

    def _reaches_one_of(self, f: int, targets: tuple[int, ...], pin: Ray | None) -> bool:
        """Can the piece on `f` (not the King; along `pin` if pinned) move to one of
        `targets`, each the checker's square or an empty square? A Pawn asks
        `why_not_pseudo_legal` (en passant is left to the caller); another piece its
        `Piece.attacks`, with the squares between empty."""
        board = self.board
        p = board[f]
        assert p is not None
        if p.pawn:
            ep = self.ep_square
            row = BOARD_MOVES[f]
            for t in targets:
                if (
                    (pin is None or t in pin)
                    and not (t == ep and (f & 7) != (t & 7))  # en passant: the caller's
                    and self.why_not_pseudo_legal(row[t]) is None
                ):
                    return True
            return False
        return any((pin is None or t in pin) and self._reaches(p, f, t) for t in targets)

    def is_checkmate(self) -> bool:
        return self.is_check() and not self.has_legal_move()

    def is_stalemate(self) -> bool:
        return not self.is_check() and not self.has_legal_move()

    def is_dead_position(self) -> bool:
        """Only the two Kings, both pockets empty: no mate is possible (docs/rules.md §4)."""
        return (
            len(self.occupied[WHITE]) == 1
            and len(self.occupied[BLACK]) == 1
            and self.pockets[WHITE] is None
            and self.pockets[BLACK] is None
        )

    def is_fifty_moves(self) -> bool:
        return self.halfmove_clock >= 100

    def is_fivefold_repetition(self) -> bool:
        return self.repetition_count() >= 5

    def can_claim_threefold_repetition(self) -> bool:
        return self.repetition_count() >= 3

    def outcome(self, *, claim_draw: bool = False) -> Outcome | None:
        """The automatic end of the game in this position, or None while it goes on.

        Checkmate and stalemate come first: a mate on the ply that completes the hundred
        stands (docs/rules.md §4). With `claim_draw`, a threefold repetition also ends it.

        Examples:
            >>> from gcadj.engine.move import Move
            >>> pos = Position("k7/8/1K6/8/8/8/8/8[Q] w - - 0 1")
            >>> pos.outcome() is None
            True
            >>> pos.push(Move.from_uci("Q@b7"))  # a drop that mates
            >>> pos.outcome()
            Outcome(termination=<Termination.CHECKMATE: 'checkmate'>, winner=0)
            >>> Position("8/8/8/8/8/8/8/K6k[] w - - 0 1").outcome().termination
            <Termination.DEAD_POSITION: 'dead-position'>
        """
        if not self.has_legal_move():
            if self.is_check():
                return Outcome(Termination.CHECKMATE, self.turn ^ 1)
            return Outcome(Termination.STALEMATE, None)
        if self.is_dead_position():
            return Outcome(Termination.DEAD_POSITION, None)
        if self.is_fifty_moves():
            return Outcome(Termination.FIFTY_MOVES, None)
        if self.is_fivefold_repetition():
            return Outcome(Termination.FIVEFOLD_REPETITION, None)
        if claim_draw and self.can_claim_threefold_repetition():
            return Outcome(Termination.THREEFOLD_REPETITION, None)
        return None

    # -- perft -------------------------------------------------------------------------

    def perft(self, depth: int, *, pockets: bool = True) -> int:
        """Leaf nodes at `depth`; the last level is counted, not made (as python-chess does).

        Without `pockets`, only board moves are counted (no pocketing, hence never a drop):
        the tree an orthodox chess engine walks from the same position, to compare with it.

        Examples:
            >>> Position().perft(1), Position().perft(2), Position().perft(3)
            (20, 920, 44392)
            >>> Position().perft(3, pockets=False)  # chess's count without castling
            8902
        """
        if depth <= 0:
            return 1
        moves = self.legal_moves()
        if not pockets:
            moves = [move for move in moves if move.to_square != POCKET]
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            self._push(move)
            total += self.perft(depth - 1, pockets=pockets)
            self._pop()
        return total

    def divide(self, depth: int) -> Iterator[tuple[Move, int]]:
        """Each root move with the leaf count below it.

        Examples:
            >>> [(str(move), count) for move, count in Position().divide(2)][:3]
            [('b1c3', 46), ('b1a3', 46), ('g1h3', 46)]
        """
        for move in self.legal_moves():
            self._push(move)
            yield move, self.perft(depth - 1)
            self._pop()


@lru_cache(maxsize=64)
def _prototype(fen: str) -> Position:
    return Position(fen)
