"""SAN-like notation: writing and reading moves, and the Game Courier text of a legal move."""

from __future__ import annotations

import random

import pytest

from gcadj.engine.move import Move
from gcadj.engine.pieces import KIND
from gcadj.engine.position import Position
from gcadj.engine.squares import POCKET, parse_square
from gcadj.errors import SanError
from gcadj.notation.san import (
    gc_submoves,
    gc_text,
    looks_like_san,
    move_san,
    parse_san,
    submoves_text,
)


def sans(fen: str) -> dict[str, Move]:
    position = Position(fen)
    return {move_san(position, m): m for m in position.legal_moves()}


def san_of(fen: str, uci: str) -> str:
    return move_san(Position(fen), Move.from_uci(uci))


# -- disambiguation --------------------------------------------------------------------

TWO_KNIGHTS = "4k3/8/8/2N5/8/2N3N1/8/4K3[] w - - 0 1"  # c3, c5, g3


def test_two_knights_on_different_files_take_the_file() -> None:
    assert san_of(TWO_KNIGHTS, "g3e2") == "Nge2"
    assert san_of(TWO_KNIGHTS, "c3e2") == "Nce2"


def test_two_knights_on_one_file_take_the_rank() -> None:
    assert san_of(TWO_KNIGHTS, "c3a4") == "N3a4"
    assert san_of(TWO_KNIGHTS, "c5a4") == "N5a4"


def test_three_knights_on_one_square_need_what_separates_each() -> None:
    # e4 is reached from c3, c5 and g3: c5 is alone on rank 5 but shares the c-file.
    assert san_of(TWO_KNIGHTS, "g3e4") == "Nge4"
    assert san_of(TWO_KNIGHTS, "c5e4") == "N5e4"
    assert san_of(TWO_KNIGHTS, "c3e4") == "Nc3e4"


def test_a_lone_knight_needs_no_hint() -> None:
    assert san_of(TWO_KNIGHTS, "g3h5") == "Nh5"


def test_two_rooks_on_a_file() -> None:
    fen = "4k3/8/8/R7/8/8/8/R3K3[] w - - 0 1"
    assert san_of(fen, "a1a3") == "R1a3"
    assert san_of(fen, "a5a3") == "R5a3"
    assert san_of(fen, "a5a6") == "Ra6"


def test_three_queens_need_file_rank_or_both() -> None:
    fen = "8/8/1k6/8/4Q2Q/8/8/K6Q[] w - - 0 1"  # e4, h4, h1 all reach e1
    assert san_of(fen, "e4e1") == "Qee1"
    assert san_of(fen, "h1e1") == "Q1e1"
    assert san_of(fen, "h4e1") == "Qh4e1"
    for text in ("Qee1", "Q1e1", "Qh4e1"):
        assert move_san(Position(fen), parse_san(Position(fen), text)) == text


def test_pinned_rival_does_not_count() -> None:
    # Both knights reach e4, but the one on c3 is pinned to the King by the Bishop on e5.
    fen = "4k3/8/8/4b3/8/2N3N1/8/K7[] w - - 0 1"
    assert san_of(fen, "g3e4") == "Ne4"
    assert parse_san(Position(fen), "Ne4") == Move.from_uci("g3e4")


# -- check, mate, en passant -----------------------------------------------------------


def test_check_and_mate_marks() -> None:
    assert san_of("4k3/8/8/R7/8/8/8/R3K3[] w - - 0 1", "a5a8") == "Ra8+"
    assert san_of("6k1/5ppp/8/8/8/8/8/R3K3[] w - - 0 1", "a1a8") == "Ra8#"


def test_a_drop_can_mate() -> None:
    fen = "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1"
    assert san_of(fen, "Q@a7") == "Q@a7#"
    assert parse_san(Position(fen), "Q@a7#") == Move.from_uci("Q@a7")


def test_pocketing_can_give_discovered_check() -> None:
    fen = "k7/8/8/8/N7/8/8/R3K3[] w - - 0 1"
    assert san_of(fen, "a4@N") == "Na4@+"
    assert san_of(fen, "a4@B") == "Na4@=B+"


def test_nightrider_capture_with_check() -> None:
    fen = "8/3k4/8/2p5/8/8/8/I3K3[] w - - 0 1"
    assert san_of(fen, "a1c5") == "Ixc5+"


def test_en_passant_is_a_plain_pawn_capture() -> None:
    fen = "4k3/8/8/3pP3/8/8/8/4K3[] w - d6 0 1"
    position = Position(fen)
    move = parse_san(position, "exd6")
    assert move == Move.from_uci("e5d6")
    assert move_san(position, move) == "exd6"
    assert gc_text(position, move) == "P e5-d6; d5-"


def test_pawn_on_rank_8_stays_a_pawn() -> None:
    fen = "r3k3/1P6/8/8/8/8/8/4K3[] w - - 0 1"
    assert san_of(fen, "b7b8") == "b8"
    assert san_of(fen, "b7a8") == "bxa8"
    assert san_of(fen, "b7@P") == "Pb7@"  # pocketed from rank 7: a pawn cannot change


# -- pocket moves ----------------------------------------------------------------------

POCKETS = "3qknPZ/8/8/8/8/8/8/4K2R[] w - - 0 1"


@pytest.mark.parametrize(
    ("fen", "uci", "san", "gc"),
    [
        (POCKETS, "h1@R", "Rh1@", "R h1-i1"),  # to the pocket, unchanged
        (POCKETS, "h1@I", "Rh1@=I", "R h1-i1; I-i1"),  # with mutation (class 3)
        (POCKETS, "g8@B", "Pg8@=B", "P g8-i1; B-i1"),  # from rank 8: promotion
        (POCKETS, "h8@Z", "Zh8@", "Z h8-i1"),  # the AmazonRider stays itself
        (POCKETS.replace(" w ", " b "), "d8@M", "Qd8@=M", "q d8-i8; m-i8"),  # Black
        ("4k3/8/8/8/8/8/8/4K2R[I] w - - 0 1", "I@c4", "I@c4+", "I i1-c4"),  # drop
        ("4k3/8/8/8/8/8/8/4K2R[p] b - - 0 1", "P@d2", "P@d2+", "p i8-d2"),  # pawn drop
    ],
)
def test_every_pocket_move_form(fen: str, uci: str, san: str, gc: str) -> None:
    position = Position(fen)
    move = Move.from_uci(uci)
    assert move_san(position, move) == san
    assert parse_san(position, san) == move
    assert parse_san(position, san.rstrip("+#")) == move  # marks are optional on input
    assert gc_text(position, move) == gc


def test_pocket_file_p_names_the_pocket_squares() -> None:
    position = Position("4k3/8/8/8/8/8/8/4K2R[I] w - - 0 1")
    assert gc_text(position, Move.from_uci("I@c4"), "p") == "I p1-c4"
    black = Position(POCKETS.replace(" w ", " b "))
    assert gc_text(black, Move.from_uci("d8@M"), "p") == "q d8-p8; m-p8"


def test_canonical_submoves_read_back_as_the_same_text() -> None:
    position = Position("4k3/8/8/3pP3/8/8/8/4K3[] w - d6 0 1")
    subs = gc_submoves(position, Move.from_uci("e5d6"))
    assert submoves_text(subs) == "P e5-d6; d5-"


# -- reading errors --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "text", "reason"),
    [
        (TWO_KNIGHTS, "Ne4", "ambiguous: it could be Nc3e4 or N5e4 or Nge4"),
        (TWO_KNIGHTS, "Na4", "ambiguous"),
        (TWO_KNIGHTS, "Ng5", "no White Knight can move to g5"),
        (TWO_KNIGHTS, "Nbe2", "no White Knight from the b-file can move to e2"),
        (TWO_KNIGHTS, "Yc3", "'Y' is not a piece letter"),
        (TWO_KNIGHTS, "e2-e4", "not a move in SAN"),
        (TWO_KNIGHTS, "I@c4", "White's pocket is empty"),
        (TWO_KNIGHTS, "Kc3@", "the piece on c3 is a Knight, not K"),
        (TWO_KNIGHTS, "Nc3@=Q", "cannot become a Queen"),
        ("4k3/8/8/8/8/8/8/4K2R[I] w - - 0 1", "Rh1@", "pocket is full"),
        ("4k3/8/8/8/8/8/8/4K2R[I] w - - 0 1", "I@h1", "occupied"),
        ("4k3/8/8/8/8/8/8/4K2R[I] w - - 0 1", "I@e8", "rank 8"),  # occupied too: the rank first
        ("4k3/8/8/8/8/8/8/4K2R[I] w - - 0 1", "I@a8", "may not drop on its own rank 8"),
        ("4k3/8/8/8/8/8/8/4K2R[I] w - - 0 1", "N@c3", "holds a Nightrider, not a Knight"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1", "Ng1@", "first move"),
        ("4k3/8/8/8/8/8/4r3/4K3[N] w - - 0 1", "N@a3", "leaves White's King in check"),
    ],
)
def test_parse_errors_say_why(fen: str, text: str, reason: str) -> None:
    with pytest.raises(SanError) as caught:
        parse_san(Position(fen), text)
    assert reason in str(caught.value)
    assert caught.value.fen == Position(fen).fen()


def test_looks_like_san() -> None:
    for text in ("e4", "exd5", "Nf3", "Nbd2", "Qh4e1", "I@c4", "Rh1@", "Rh1@=I+", "e8", "Ra8#"):
        assert looks_like_san(text), text
    for text in ("e2-e4", "P", "I*d5", "@-d5", "capture", "O-O", "1-0", "ee"):
        assert not looks_like_san(text), text


# -- every legal move, in many positions -----------------------------------------------


def _random_positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        position = Position()
        for _ in range(rng.randrange(0, 60)):
            moves = position.legal_moves()
            if not moves:
                break
            pocket = [m for m in moves if POCKET in (m.from_square, m.to_square)]
            position.push(rng.choice(pocket if pocket and rng.random() < 0.3 else moves))
        out.append(position)
    return out


def test_every_legal_move_has_a_unique_san_that_reads_back() -> None:
    for position in _random_positions(40, seed=5):
        seen: dict[str, Move] = {}
        for move in position.legal_moves():
            text = move_san(position, move)
            assert text not in seen, (position.fen(), text, move, seen.get(text))
            seen[text] = move
            assert parse_san(position, text) == move, (position.fen(), text)


def test_kind_letters_are_the_san_letters() -> None:
    assert parse_square("h1") == 7
    for letter, kind in KIND.items():
        assert kind.letter == letter
