"""`Position.why_illegal`: the engine says which rule a move breaks, and it is that rule.

The judge, the SAN reader and `push`'s error word the engine's reason instead of working
the rules out again, so the reason must be true: each one is checked here against the
board itself (read square by square, not through the engine's tables), and no reason
must be given exactly for the moves `legal_moves()` generates. Positions: tests/
crafted_positions.py's (checks, double checks, pins, en passant) and random ones with
pieces of every kind near the Kings and full or empty pockets.
"""

from __future__ import annotations

import random
import re

import pytest
from conftest import budget
from crafted_positions import crafted_fen
from random_positions import random_position
from test_agreement import ALL_CANDIDATES

from gcadj.engine.move import Move
from gcadj.engine.pieces import KINDS, mutation_choices, promotion_choices
from gcadj.engine.position import KING_REASONS, IllegalReason, Position
from gcadj.engine.squares import POCKET, WHITE, parse_square
from gcadj.errors import FenError, IllegalMoveError

R = IllegalReason


def own_rank_8(color: int, square: int) -> bool:
    """Is `square` on the rank 8 of `color` (the last rank it moves towards)?"""
    return square // 8 == (7 if color == WHITE else 0)


def king_attacked_after(position: Position, move: Move) -> bool:
    """Is the mover's King attacked once the move is made (it is pseudo-legal)?"""
    us = position.turn
    with position.trial(move):
        return bool(position.attackers(us ^ 1, position.king_squares[us]))


def assert_reason_is_true(position: Position, move: Move, reason: IllegalReason) -> None:
    """What each reason claims, read off the board."""
    us = position.turn
    f, t, kind = move
    where = f"{position.fen()} {move.uci()}: {reason.name}"
    if f == POCKET:
        held = position.pockets[us]
        claims = {
            R.NO_PIECE: held is None,
            R.DROP_WRONG_PIECE: held is not None and held.kind is not kind,
            R.DROP_LAST_RANK: own_rank_8(us, t),
            R.DROP_OCCUPIED: position.board[t] is not None and not own_rank_8(us, t),
        }
    elif t == POCKET and position.board[f] is None:
        claims = {R.NO_PIECE: True}
    elif t == POCKET:
        piece = position.board[f]
        assert piece is not None, where
        pick = promotion_choices if own_rank_8(us, f) else mutation_choices
        choices = () if piece.kind.is_king else pick(piece.kind)
        claims = {
            R.NOT_YOURS: piece.color != us,
            R.POCKET_KING: piece.kind.is_king,
            R.POCKET_FULL: position.pockets[us] is not None,
            R.POCKET_FIRST_MOVE: position.pocket_ban and us == WHITE,
            R.MISSING_PROMOTION: own_rank_8(us, f) and kind is piece.kind,
            R.BAD_PROMOTION: own_rank_8(us, f) and kind not in choices,
            R.BAD_MUTATION: not own_rank_8(us, f) and kind not in choices,
        }
    else:
        piece, target = position.board[f], position.board[t]
        claims = {
            R.NO_PIECE: piece is None,
            R.NOT_YOURS: piece is not None and piece.color != us,
            R.OWN_CAPTURE: target is not None and target.color == us,
            R.PAWN_CAPTURES_NOTHING: target is None and abs(f % 8 - t % 8) == 1,
            R.PAWN_BLOCKED: target is not None and f % 8 == t % 8,
            R.PAWN_DOUBLE_BLOCKED: f % 8 == t % 8 and abs(f - t) == 16,
            R.PAWN_DOUBLE_OFF_RANK_2: abs(f - t) == 16 and f // 8 != (1 if us == WHITE else 6),
        }
        if reason.name.startswith("PAWN_"):
            assert piece is not None and piece.pawn, where
    if reason in KING_REASONS:
        assert position.why_not_pseudo_legal(move) is None, where
        assert king_attacked_after(position, move), where
        claims = {
            R.LEAVES_KING_IN_CHECK: position.is_check() and t != POCKET,
            R.POCKETING_IN_CHECK: position.is_check() and t == POCKET,
            R.EXPOSES_KING: not position.is_check(),
        }
    if reason in claims:
        assert claims[reason], where


def assert_reasons(position: Position) -> None:
    legal = set(position.legal_moves())
    for move in ALL_CANDIDATES:
        reason = position.why_illegal(move)
        assert (reason is None) == (move in legal), (position.fen(), move.uci(), reason)
        if reason is not None:
            assert_reason_is_true(position, move, reason)
            assert not position.is_pseudo_legal(move) or reason in KING_REASONS


def test_reasons_in_crafted_positions() -> None:
    rng = random.Random(20240901)
    for _ in range(budget(40)):
        assert_reasons(Position(crafted_fen(rng)))


def random_positions(seed: int, wanted: int, pieces: tuple[int, int]) -> list[Position]:
    """`wanted` random positions of `pieces` (a range) pieces; most random boards are
    positions, and ten tries per position wanted are plenty (asserted)."""
    rng = random.Random(seed)
    found: list[Position] = []
    for _ in range(10 * wanted):
        position = random_position(rng, rng.randint(*pieces))
        if position is not None:
            found.append(position)
            if len(found) == wanted:
                break
    assert len(found) == wanted
    return found


def test_reasons_in_random_positions() -> None:
    for position in random_positions(20240902, budget(40), (2, 12)):
        assert_reasons(position)


CASES = [
    ("startpos", "e2e5", R.OUT_OF_REACH),
    ("startpos", "e3e4", R.NO_PIECE),
    ("startpos", "e7e5", R.NOT_YOURS),
    ("startpos", "d1d2", R.OWN_CAPTURE),
    ("startpos", "c1e3", R.LINE_BLOCKED),
    ("startpos", "g1@N", R.POCKET_FIRST_MOVE),
    ("4k3/8/8/8/8/8/8/4K3[] w - - 0 9", "e1@K", R.POCKET_KING),
    ("4k3/8/8/8/8/8/4P3/4K3[Q] w - - 0 9", "e2@P", R.POCKET_FULL),
    ("4k3/8/8/8/8/8/4P3/4K3[] w - - 0 9", "e2@N", R.BAD_MUTATION),
    ("7R/8/k7/8/8/8/8/4K3[] w - - 0 9", "h8@R", R.MISSING_PROMOTION),
    ("7R/8/k7/8/8/8/8/4K3[] w - - 0 9", "h8@P", R.BAD_PROMOTION),
    ("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 9", "Q@a8", R.DROP_LAST_RANK),
    ("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 9", "Q@e1", R.DROP_OCCUPIED),
    ("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 9", "N@a1", R.DROP_WRONG_PIECE),
    ("4k3/8/8/8/8/8/4P3/4K3[] w - - 0 9", "e2d3", R.PAWN_CAPTURES_NOTHING),
    ("4k3/8/8/8/8/4p3/4P3/4K3[] w - - 0 9", "e2e3", R.PAWN_BLOCKED),
    ("4k3/8/8/8/8/4p3/4P3/4K3[] w - - 0 9", "e2e4", R.PAWN_DOUBLE_BLOCKED),
    ("4k3/8/8/8/8/4P3/8/4K3[] w - - 0 9", "e3e5", R.PAWN_DOUBLE_OFF_RANK_2),
    ("4k3/4r3/8/8/8/8/4B3/4K3[] w - - 0 9", "e2d3", R.EXPOSES_KING),
    ("4k3/4r3/8/8/8/8/8/4K2B[] w - - 0 9", "h1g2", R.LEAVES_KING_IN_CHECK),
    ("4k3/4r3/8/8/8/8/8/4K2B[] w - - 0 9", "h1@B", R.POCKETING_IN_CHECK),
]


@pytest.mark.parametrize(("fen", "uci", "reason"), CASES)
def test_each_reason(fen: str, uci: str, reason: IllegalReason) -> None:
    position = Position(fen)
    move = Move.from_uci(uci)
    assert position.why_illegal(move) is reason
    assert_reason_is_true(position, move, reason)
    with pytest.raises(IllegalMoveError) as raised:
        position.push(move)
    assert str(raised.value).endswith(f"({reason.value})")  # push says which rule
    assert raised.value.why == reason.value


def test_every_reason_can_be_given() -> None:
    """The table above names every reason but two, which no `Move.from_uci` can write: a
    board move whose piece arrives as another (the judge asks it of what a ply left)."""
    named = {reason for _, _, reason in CASES}
    assert set(IllegalReason) - named == {R.PROMOTION_ON_ARRIVAL, R.CHANGE_ON_ARRIVAL}
    pawn = Position("k7/4P3/8/8/8/8/8/4K3[] w - - 0 9")
    e7, e8 = parse_square("e7"), parse_square("e8")
    queen = next(kind for kind in KINDS if kind.letter == "Q")
    assert pawn.why_illegal(Move(e7, e8, queen)) is R.PROMOTION_ON_ARRIVAL
    assert pawn.why_illegal(Move(parse_square("e1"), parse_square("e2"), queen)) is (
        R.CHANGE_ON_ARRIVAL
    )


def with_enemy_on(position: Position, square: int, piece: str | None = None) -> Position | None:
    """The position with the piece on `square` swapped for an enemy Knight (or `piece`:
    "." for none), written as a FEN by hand (None when that is no position: the piece
    swapped was the mover's King)."""
    board, rest = position.fen().split("[", 1)
    rows = ["".join("." * int(c) if c.isdigit() else c for c in row) for row in board.split("/")]
    cells = [list(row) for row in reversed(rows)]  # cells[rank][file], rank 1 first
    cells[square // 8][square % 8] = piece or ("n" if position.turn == WHITE else "N")
    rebuilt = "/".join(
        re.sub(r"\.+", lambda run: str(len(run.group())), "".join(row)) for row in reversed(cells)
    )
    try:
        return Position(f"{rebuilt}[{rest}")
    except FenError:
        return None


def assert_reaches(position: Position) -> None:
    """`reaches` is pseudo-legality with the target's owner left out: a board move onto
    the mover's own piece reaches exactly when it would be pseudo-legal were an enemy
    piece standing there (a capture), or, for a Pawn's push along its file (which never
    captures), were the square empty; any other move, exactly when it is pseudo-legal."""
    us = position.turn
    for move in ALL_CANDIDATES[: 64 * 64]:  # the board moves
        f, t, _ = move
        target = position.board[t]
        mover = position.board[f]
        expected = position.is_pseudo_legal(move)
        if f != t and target is not None and target.color == us and not target.kind.is_king:
            push = mover is not None and mover.pawn and f % 8 == t % 8
            swapped = with_enemy_on(position, t, "." if push else None)
            assert swapped is not None, (position.fen(), move.uci())
            expected = swapped.is_pseudo_legal(move)
        elif target is not None and target.color == us:
            continue  # the mover's own King on t, or f == t: no position to compare with
        assert position.reaches(move) == expected, (position.fen(), move.uci())


def test_reaches_is_the_pattern_whatever_stands_on_the_target() -> None:
    for position in random_positions(20261127, budget(30), (4, 14)):
        assert_reaches(position)
    start = Position()
    assert start.reaches(Move.from_uci("e8f7")) is False  # Black's piece, White to move
    start.push(Move.from_uci("e2e4"))
    assert start.reaches(Move.from_uci("e8f7")) and not start.is_pseudo_legal(Move.from_uci("e8f7"))
    assert not start.reaches(Move.from_uci("e8f6"))
    knight = Position("rnbqkbnr/1ppppppp/8/p7/4N3/8/PPPPPPPP/R1BQKBNR[] w - - 0 3")
    assert knight.reaches(Move.from_uci("e2e4"))  # a push onto its own Knight
    assert not knight.reaches(Move.from_uci("e2e5"))  # no push goes three squares
