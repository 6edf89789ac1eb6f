"""Properties of the rules engine over random legal games (hypothesis).

Games start from the standard array or from random positions holding any of the
eighteen piece kinds with random pockets; every move is drawn from the legal moves.

* push then pop restores the position exactly: board, pockets, side to move, en passant
  square, clocks, pocket ban, repetition keys, FEN, and what can be done next;
* `legal_moves()` has no duplicates and equals, as a set, the moves accepted by the point
  check `is_legal()` among ALL candidates -- every from/to pair, every pocketing choice of
  every square, every drop of every kind on every square -- a naive generator that shares
  nothing with the fast one but make/unmake and the attack test;
* a FEN round-trips and rebuilds a position with the same moves.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from gcadj.engine.fen import format_fen
from gcadj.engine.move import Move
from gcadj.engine.pieces import KINDS, PIECES, Piece
from gcadj.engine.position import Position
from gcadj.engine.squares import BLACK, POCKET, WHITE
from gcadj.errors import FenError

ALL_CANDIDATES: tuple[Move, ...] = (
    tuple(Move(f, t) for f in range(64) for t in range(64))
    + tuple(Move(f, POCKET, kind) for f in range(64) for kind in KINDS)
    + tuple(Move(POCKET, t, kind) for t in range(64) for kind in KINDS)
)
NON_KING_PIECES: tuple[Piece, ...] = tuple(p for side in PIECES for p in side if not p.kind.is_king)

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@st.composite
def random_fens(draw: st.DrawFn) -> str:
    """A legal-looking position: two Kings, up to 16 pieces of any kind, random pockets."""
    white_king = draw(st.integers(0, 63))
    black_king = draw(
        st.sampled_from(
            [
                sq
                for sq in range(64)
                if abs((sq & 7) - (white_king & 7)) > 1 or abs((sq >> 3) - (white_king >> 3)) > 1
            ]
        )
    )
    others = draw(
        st.dictionaries(st.integers(0, 63), st.sampled_from(NON_KING_PIECES), max_size=16)
    )
    board: list[Piece | None] = [None] * 64
    for sq, piece in others.items():
        board[sq] = piece
    board[white_king] = PIECES[WHITE][0]
    board[black_king] = PIECES[BLACK][0]
    pockets = [draw(st.none() | st.sampled_from(PIECES[color][1:])) for color in (WHITE, BLACK)]
    turn = draw(st.sampled_from((WHITE, BLACK)))
    fen = format_fen(board, pockets, turn, None, draw(st.integers(0, 90)), 1)
    try:
        Position(fen)
    except FenError:  # the side not to move is in check
        assume(False)
    return fen


start_fens = st.just("startpos") | random_fens()


def snapshot(pos: Position) -> tuple[object, ...]:
    return (
        tuple(pos.board),
        tuple(pos.pockets),
        pos.turn,
        pos.ep_square,
        pos.halfmove_clock,
        pos.fullmove_number,
        pos.pocket_ban,
        pos.history_keys(),
        pos.repetition_count(),
        tuple(pos.king_squares),
        pos.fen(),
        pos.is_check(),
        tuple(sorted(m.uci() for m in pos.legal_moves())),
    )


def random_game(
    data: st.DataObject, fen: str, max_plies: int, visit: Callable[[Position], None] | None = None
) -> Position:
    """Play up to `max_plies` random legal moves from `fen`, visiting every node on the way."""
    pos = Position(fen)
    plies = data.draw(st.integers(max_plies // 2, max_plies), label="plies")
    for _ in range(plies):
        if visit is not None:
            visit(pos)
        moves = sorted(pos.legal_moves(), key=Move.uci)
        if not moves:
            break
        pos.push(data.draw(st.sampled_from(moves), label="move"))
    event(f"plies played: {pos.ply // 5 * 5}+")
    return pos


@SETTINGS
@given(st.data(), start_fens)
def test_push_then_pop_restores_the_position_exactly(data: st.DataObject, fen: str) -> None:
    pos = Position(fen)
    trail = [snapshot(pos)]
    for _ in range(data.draw(st.integers(4, 16), label="plies")):
        moves = sorted(pos.legal_moves(), key=Move.uci)
        if not moves:
            break
        for move in moves:  # every move at this node: make, unmake, compare
            pos.push(move)
            pos.pop()
            assert snapshot(pos) == trail[-1], move
        pos.push(data.draw(st.sampled_from(moves), label="move"))
        trail.append(snapshot(pos))
    while pos.ply:
        pos.pop()
        trail.pop()
        assert snapshot(pos) == trail[-1]
    assert pos.fen() == Position(fen).fen()


@settings(SETTINGS, max_examples=100)
@given(st.data(), start_fens)
def test_legal_moves_equal_the_naive_is_legal_set(data: st.DataObject, fen: str) -> None:
    def check(pos: Position) -> None:
        generated = pos.legal_moves()
        assert len(generated) == len(set(generated)), "duplicate moves"
        naive = {move for move in ALL_CANDIDATES if pos.is_legal(move)}
        assert set(generated) == naive, pos.fen()
        if pos.is_check():
            event("in check")
            assert not any(move.is_pocketing for move in generated)

    check(random_game(data, fen, 16, check))


@SETTINGS
@given(st.data(), start_fens)
def test_fen_round_trips_with_the_same_moves(data: st.DataObject, fen: str) -> None:
    pos = random_game(data, fen, 20)
    text = pos.fen()
    again = Position(text)
    assert again.fen() == text
    assert set(again.legal_moves()) == set(pos.legal_moves())
    assert again.is_check() == pos.is_check()
    assert again.has_legal_en_passant() == pos.has_legal_en_passant()


@settings(max_examples=15, deadline=None)
@given(st.data(), start_fens)
def test_perft_is_the_sum_of_divide(data: st.DataObject, fen: str) -> None:
    pos = random_game(data, fen, 6)
    before = pos.fen()
    divided = dict(pos.divide(2))
    assert sum(divided.values()) == pos.perft(2)
    assert set(divided) == set(pos.legal_moves())
    assert pos.fen() == before
