"""One test (at least) for every rule and trap of docs/rules.md §1-§4, each on a position built
to show it, asserting exact move sets or counts.

Expected move sets are worked out here from the rules, not read back from the engine:
piece geometry by the small `reach` helper below (file/rank arithmetic), classes from the
table in docs/rules.md §1 written out again as `CLASSES`.
"""

from __future__ import annotations

import pytest

from gcadj.engine.move import Move
from gcadj.engine.pieces import KIND
from gcadj.engine.position import Position
from gcadj.engine.squares import BLACK, POCKET, WHITE, parse_square, square_name
from gcadj.errors import FenError, IllegalMoveError
from gcadj.vocabulary import Termination

# docs/rules.md §1: class -> labels.
CLASSES = {
    1: "P", 2: "BN", 3: "RID", 4: "AG", 5: "QMUV", 6: "FWX", 7: "TH", 8: "Z",
}  # fmt: skip
CLASS_OF = {letter: c for c, letters in CLASSES.items() for letter in letters}
# docs/rules.md §1: label -> components.
COMPONENTS = {
    "B": "B", "N": "N", "R": "R", "I": "I", "D": "BK", "A": "BN", "G": "RK", "Q": "BR",
    "M": "RN", "U": "BI", "V": "BNK", "F": "RI", "W": "RNK", "X": "BIK", "T": "BRN",
    "H": "RIK", "Z": "BRI",
}  # fmt: skip
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def reach(origin: str, components: str, occupied: frozenset[str] = frozenset()) -> set[str]:
    """Squares a piece with these components reaches from `origin` (stopping at, and
    including, the first occupied square of each line)."""
    f0, r0 = "abcdefgh".index(origin[0]), int(origin[1]) - 1
    out: set[str] = set()

    def walk(vectors: tuple[tuple[int, int], ...], limit: int) -> None:
        for df, dr in vectors:
            f, r = f0, r0
            for _ in range(limit):
                f, r = f + df, r + dr
                if not (0 <= f < 8 and 0 <= r < 8):
                    break
                name = "abcdefgh"[f] + str(r + 1)
                out.add(name)
                if name in occupied:
                    break

    if "K" in components:
        walk(DIAG + ORTH, 1)
    if "N" in components:
        walk(KNIGHT, 1)
    if "B" in components:
        walk(DIAG, 8)
    if "R" in components:
        walk(ORTH, 8)
    if "I" in components:
        walk(KNIGHT, 8)
    return out


def legal(pos: Position) -> set[str]:
    moves = [m.uci() for m in pos.legal_moves()]
    assert len(moves) == len(set(moves)), "duplicate legal moves"
    return set(moves)


def board_moves_from(pos: Position, origin: str) -> set[str]:
    """Destinations of the legal board moves of the piece on `origin`."""
    return {m[2:] for m in legal(pos) if m.startswith(origin) and "@" not in m}


def pocketings_from(pos: Position, origin: str) -> set[str]:
    """The letters the piece on `origin` may be pocketed as."""
    return {m[3] for m in legal(pos) if m.startswith(origin + "@")}


def drops(pos: Position) -> set[str]:
    return {m[2:] for m in legal(pos) if m[1] == "@"}


def play(pos: Position, *ucis: str) -> Position:
    for uci in ucis:
        pos.push(Move.from_uci(uci))
    return pos


def squares_on_ranks(ranks: str) -> set[str]:
    return {f + r for f in "abcdefgh" for r in ranks}


# ---------------------------------------------------------------------------------------
# §1 pieces


@pytest.mark.parametrize("letter", sorted(COMPONENTS))
def test_every_piece_moves_by_its_components(letter: str) -> None:
    """Alone on d4 (Kings on h1 and a8, off all its lines): exactly its components' squares."""
    pos = Position(f"k7/8/8/8/3{letter}4/8/8/7K[] w - - 0 1")
    assert board_moves_from(pos, "d4") == reach("d4", COMPONENTS[letter])


@pytest.mark.parametrize(
    ("letter", "steps", "not_further"),
    [
        ("D", {"c4", "e4", "d3", "d5"}, {"b4", "f4", "d2", "d6"}),  # B + orthogonal K steps
        ("G", {"c3", "c5", "e3", "e5"}, {"b2", "b6", "f2", "f6"}),  # R + diagonal K steps
        ("V", {"c4", "e4", "d3", "d5"}, {"b4", "f4", "d2", "d6"}),  # B+N + orthogonal steps
        ("W", {"c3", "c5", "e3", "e5"}, {"b2", "b6", "f2", "f6"}),  # R+N + diagonal steps
        ("X", {"c4", "e4", "d3", "d5"}, {"b4", "f4", "d2", "d6"}),  # B+I + orthogonal steps
        ("H", {"c3", "c5", "e3", "e5"}, {"b2", "b6", "f2", "f6"}),  # R+I + diagonal steps
    ],
)
def test_super_pieces_king_steps(letter: str, steps: set[str], not_further: set[str]) -> None:
    pos = Position(f"k7/8/8/8/3{letter}4/8/8/7K[] w - - 0 1")
    targets = board_moves_from(pos, "d4")
    assert steps <= targets
    assert not (not_further & targets)


def test_king_steps_one_square_and_there_is_no_castling() -> None:
    pos = Position("r3k2r/8/8/8/8/8/8/R3K2R[] w KQkq - 0 1")  # castling letters are ignored
    assert board_moves_from(pos, "e1") == {"d1", "d2", "e2", "f2", "f1"}
    for uci in ("e1g1", "e1c1", "e1h1", "e1a1"):
        assert not pos.is_legal(Move.from_uci(uci))
    black = Position("r3k2r/8/8/8/8/8/8/R3K2R[] b - - 0 1")
    assert board_moves_from(black, "e8") == {"d8", "d7", "e7", "f7", "f8"}


def test_nightrider_line_blocked_and_unblocked_moves() -> None:
    # Nightrider a1: line b3-c5-d7 and line c2-e3-g4.
    free = Position("k7/8/8/8/8/8/8/I6K[] w - - 0 1")
    assert board_moves_from(free, "a1") == {"b3", "c5", "d7", "c2", "e3", "g4"}
    own = Position("k7/8/8/2P5/8/8/8/I6K[] w - - 0 1")  # own pawn on c5 blocks
    assert board_moves_from(own, "a1") == {"b3", "c2", "e3", "g4"}
    enemy = Position("k7/8/8/2p5/8/8/8/I6K[] w - - 0 1")  # enemy pawn on c5: capture, stop
    assert board_moves_from(enemy, "a1") == {"b3", "c5", "c2", "e3", "g4"}
    near = Position("k7/8/8/8/8/1p6/8/I6K[] w - - 0 1")  # first leap captures
    assert board_moves_from(near, "a1") == {"b3", "c2", "e3", "g4"}
    # Pieces beside the leaps (a2, a3, b1, b2) do not block a Nightrider.
    beside = Position("k7/8/8/8/8/P7/PP6/IP5K[] w - - 0 1")
    assert board_moves_from(beside, "a1") == {"b3", "c5", "d7", "c2", "e3", "g4"}


def test_nightrider_line_blocked_and_unblocked_checks() -> None:
    # Black nightrider a1, White King d7, on the line b3-c5-d7.
    pos = Position("8/3K4/8/8/8/8/8/i6k[] w - - 0 1")
    assert pos.is_check()
    assert pos.checkers() == [parse_square("a1")]
    blocked = Position("8/3K4/8/2P5/8/8/8/i6k[] w - - 0 1")
    assert not blocked.is_check()
    # Pieces beside the line (b2, c3, b4, c4, d4) do not block it.
    beside = Position("8/3K4/8/8/1PPP4/2P5/1P6/i6k[] w - - 0 1")
    assert beside.is_check()
    # Line a1-c2-e3: a check from two leaps away, blocked by a drop on c2 (and only there).
    line = Position("8/8/8/8/8/4K3/8/i6k[N] w - - 0 1")
    assert line.checkers() == [parse_square("a1")]
    assert drops(line) == {"c2"}
    assert not play(Position("8/8/8/8/8/4K3/8/i6k[N] w - - 0 1"), "N@c2").is_check()


def test_king_cannot_hide_behind_itself_on_a_slide() -> None:
    pos = Position("7k/8/8/8/8/8/8/r2K4[] w - - 0 1")  # rook a1 checks along rank 1
    assert board_moves_from(pos, "d1") == {"c2", "d2", "e2"}


# ---------------------------------------------------------------------------------------
# §2 pawns


def test_pawn_double_step_from_rank_2_only() -> None:
    pos = Position("4k3/8/8/8/8/8/4P3/P3K3[] w - - 0 1")
    assert board_moves_from(pos, "e2") == {"e3", "e4"}
    assert board_moves_from(pos, "a1") == {"a2"}  # no double step from rank 1


def test_pawn_moved_up_from_rank_1_may_double_step() -> None:
    pos = play(Position("4k3/8/8/8/8/8/8/P3K3[] w - - 0 1"), "a1a2", "e8d8")
    assert board_moves_from(pos, "a2") == {"a3", "a4"}


def test_dropped_pawn_double_steps_and_can_be_taken_en_passant() -> None:
    pos = play(Position("4k3/8/8/8/4p3/8/8/4K3[P] w - - 0 1"), "P@d2", "e8e7")
    assert board_moves_from(pos, "d2") == {"d3", "d4"}
    play(pos, "d2d4")
    assert pos.ep_square == parse_square("d3")
    assert board_moves_from(pos, "e4") == {"e3", "d3"}
    play(pos, "e4d3")
    assert pos.piece_at(parse_square("d4")) is None
    assert pos.fen() == "8/4k3/8/8/8/3p4/8/4K3[] w - - 0 3"


def test_en_passant_only_right_after_the_double_step() -> None:
    pos = play(Position("4k3/3p4/8/4P3/8/8/8/4K3[] b - - 0 1"), "d7d5")
    assert "e5d6" in legal(pos)
    play(pos, "e1d1", "e8d8")
    assert "e5d6" not in legal(pos)


def test_en_passant_that_exposes_the_king_is_illegal() -> None:
    pos = play(Position("8/2p5/8/KP5r/8/8/8/7k[] b - - 0 1"), "c7c5")
    assert pos.ep_square == parse_square("c6")
    assert board_moves_from(pos, "b5") == {"b6"}
    assert not pos.has_legal_en_passant()


def test_no_promotion_on_arrival_and_a_rank_8_pawn_has_no_move() -> None:
    pos = play(Position("1n2k3/P7/8/8/8/8/8/4K3[] w - - 0 1"), "a7a8")
    assert pos.piece_at(parse_square("a8")).symbol == "P"  # type: ignore[union-attr]
    play(pos, "e8e7")
    assert board_moves_from(pos, "a8") == set()  # nothing ahead: no step, no capture
    assert pocketings_from(pos, "a8") == {"B", "N"}  # pocketed from rank 8: promotes


def test_captures_never_fill_a_pocket() -> None:
    pos = play(Position("4k3/8/8/3q4/8/8/8/3RK3[] w - - 0 1"), "d1d5")
    assert pos.pockets == [None, None]


# ---------------------------------------------------------------------------------------
# §2 Black's ranks are mirrored


def test_black_double_steps_from_board_rank_7_and_single_steps_from_rank_8() -> None:
    pos = Position("4k2p/3p4/8/8/8/8/8/4K3[] b - - 0 1")
    assert board_moves_from(pos, "d7") == {"d6", "d5"}
    assert board_moves_from(pos, "h8") == {"h7"}  # Black's rank 1: single step only


def test_black_pawn_on_board_rank_1_promotes_when_pocketed() -> None:
    pos = Position("4k3/8/8/8/8/8/8/K6p[] b - - 0 1")
    assert board_moves_from(pos, "h1") == set()
    assert pocketings_from(pos, "h1") == {"B", "N"}


def test_black_drops_anywhere_but_board_rank_1_and_pawns_on_board_rank_8() -> None:
    pos = Position("4k3/8/8/8/8/8/8/4K3[p] b - - 0 1")
    assert drops(pos) == squares_on_ranks("2345678") - {"e8"}


def test_black_dropped_pawn_on_board_rank_7_double_steps() -> None:
    pos = play(Position("4k3/8/8/8/8/8/8/4K3[p] b - - 0 1"), "P@d7", "e1e2")
    assert board_moves_from(pos, "d7") == {"d6", "d5"}


# ---------------------------------------------------------------------------------------
# §3 the pocket: pocketing


@pytest.mark.parametrize("letter", "PBNRIDAGQMUVFWXTHZ")
def test_promotion_choices_from_rank_8_for_every_class(letter: str) -> None:
    pos = Position(f"{letter}7/8/8/7k/8/8/8/7K[] w - - 0 1")
    cls = CLASS_OF[letter]
    expected = set(CLASSES[cls + 1]) if cls < 8 else {"Z"}
    assert pocketings_from(pos, "a8") == expected
    play(pos, f"a8@{min(expected)}")
    assert pos.pockets[WHITE].symbol == min(expected)  # type: ignore[union-attr]


@pytest.mark.parametrize("letter", "PBNRIDAGQMUVFWXTHZ")
def test_promotion_choices_for_black_from_board_rank_1(letter: str) -> None:
    pos = Position(f"8/8/7k/8/7K/8/8/{letter.lower()}7[] b - - 0 1")
    cls = CLASS_OF[letter]
    expected = set(CLASSES[cls + 1]) if cls < 8 else {"Z"}
    assert pocketings_from(pos, "a1") == expected
    play(pos, f"a1@{min(expected)}")
    assert pos.pockets[BLACK].symbol == min(expected).lower()  # type: ignore[union-attr]


@pytest.mark.parametrize("letter", "PBNRIDAGQMUVFWXTHZ")
@pytest.mark.parametrize("rank", range(1, 8))
def test_mutation_choices_from_ranks_1_to_7_stay_in_class(letter: str, rank: int) -> None:
    """White piece on a1..a7; Black King h8 behind its pawn g7, off every line from there."""
    rows = ["7k", "6p1", "8", "8", "8", "8", "8", "7K"]  # board ranks 8..1
    rows[8 - rank] = letter + {7: "5p1", 1: "6K"}.get(rank, "7")
    pos = Position("/".join(rows) + "[] w - - 0 1")
    assert pocketings_from(pos, f"a{rank}") == set(CLASSES[CLASS_OF[letter]])


@pytest.mark.parametrize("letter", "PBNRIDAGQMUVFWXTHZ")
def test_black_mutation_choices_stay_in_class(letter: str) -> None:
    pos = Position(f"8/8/7k/{letter.lower()}7/7K/8/8/8[] b - - 0 1")
    assert pocketings_from(pos, "a5") == set(CLASSES[CLASS_OF[letter]])


def test_pawn_pocketed_from_ranks_1_to_7_stays_a_pawn() -> None:
    pos = Position("4k3/8/8/8/8/8/4P3/P3K3[] w - - 0 1")
    assert pocketings_from(pos, "e2") == {"P"}
    assert pocketings_from(pos, "a1") == {"P"}
    assert not pos.is_legal(Move(parse_square("e2"), POCKET, KIND["B"]))


def test_amazonrider_stays_an_amazonrider() -> None:
    pos = Position("Z7/8/8/7k/8/8/Z7/7K[] w - - 0 1")
    assert pocketings_from(pos, "a8") == {"Z"}  # rank 8: no higher class
    assert pocketings_from(pos, "a2") == {"Z"}  # ranks 1-7: its class has one member
    play(pos, "a8@Z")
    assert pos.pockets[WHITE].symbol == "Z"  # type: ignore[union-attr]


def test_pocketing_needs_an_empty_pocket_and_never_takes_the_king() -> None:
    full = Position("4k3/8/8/8/8/8/4P3/4K3[N] w - - 0 1")
    assert not any(m.is_pocketing for m in full.legal_moves())
    assert not full.is_legal(Move.from_uci("e2@P"))
    empty = Position("4k3/8/8/8/8/8/4P3/4K3[] w - - 0 1")
    assert pocketings_from(empty, "e2") == {"P"}
    assert pocketings_from(empty, "e1") == set()
    assert not empty.is_legal(Move(parse_square("e1"), POCKET, KIND["K"]))


def test_pinned_piece_cannot_be_pocketed_rook_pin() -> None:
    pos = Position("4r2k/8/8/8/8/8/4N3/4K3[] w - - 0 1")
    assert pocketings_from(pos, "e2") == set()
    assert board_moves_from(pos, "e2") == set()  # a knight cannot move along its pin


def test_pinned_piece_cannot_be_pocketed_nightrider_pin() -> None:
    # White King a1, White Knight b3, Black Nightrider d7: line a1-b3-c5-d7.
    pos = Position("7k/3i4/6r1/8/8/1N6/2P1F3/K7[] w - - 0 1")
    assert pocketings_from(pos, "b3") == set()
    assert board_moves_from(pos, "b3") == {"c5"}  # only along the pin line
    assert pocketings_from(pos, "c2") == {"P"}  # not pinned
    # And Black's rook g6 is pinned by the White ChancellorRider e2 on line e2-f4-g6-h8.
    black = Position("7k/3i4/6r1/8/8/1N6/2P1F3/K7[] b - - 0 1")
    assert pocketings_from(black, "g6") == set()
    assert board_moves_from(black, "g6") == set()
    assert pocketings_from(black, "d7") == {"R", "I", "D"}


def test_pocketing_never_answers_check() -> None:
    checked = Position("4r2k/8/8/8/8/8/3P4/4K1N1[] w - - 0 1")  # rook e8 checks e1
    assert checked.is_check()
    assert legal(checked) == {"e1d1", "e1f1", "e1f2", "g1e2"}  # no pocketing at all
    unchecked = Position("3r3k/8/8/8/8/8/3P4/4K1N1[] w - - 0 1")  # the rook on d8 instead
    assert pocketings_from(unchecked, "g1") == {"B", "N"}
    assert pocketings_from(unchecked, "d2") == {"P"}


def test_white_may_not_pocket_on_ply_1() -> None:
    start = Position()
    assert start.pocket_ban
    assert len(start.legal_moves()) == 20
    assert not any(m.is_pocketing for m in start.legal_moves())
    assert not start.is_legal(Move.from_uci("b1@B"))
    # Black's first move: may pocket (8 pawns x1, 4 minors x2, 2 rooks x3, queen x4).
    play(start, "e2e4")
    assert not start.pocket_ban
    assert sum(m.is_pocketing for m in start.legal_moves()) == 8 + 4 * 2 + 2 * 3 + 4
    # White's second move: may pocket too.
    play(start, "b8@N")
    assert sum(m.is_pocketing for m in start.legal_moves()) == 8 + 4 * 2 + 2 * 3 + 4


def test_no_pocket_ban_in_a_game_set_up_from_another_fen() -> None:
    later = Position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 7")
    assert not later.pocket_ban
    assert len(later.legal_moves()) == 20 + 26
    other = Position("4k3/8/8/8/8/8/4P3/4K3[] w - - 0 1")
    assert pocketings_from(other, "e2") == {"P"}


# ---------------------------------------------------------------------------------------
# §3 the pocket: dropping


def test_drop_anywhere_empty_but_own_rank_8_and_pawns_on_rank_1() -> None:
    queen = Position("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1")
    assert drops(queen) == squares_on_ranks("1234567") - {"e1"}
    pawn = Position("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1")
    assert drops(pawn) == squares_on_ranks("1234567") - {"e1"}
    assert pawn.is_legal(Move.from_uci("P@a1"))
    assert not pawn.is_legal(Move.from_uci("P@a8"))
    assert not pawn.is_legal(Move.from_uci("Q@a3"))  # not the pocketed piece
    occupied = Position("4k3/8/8/8/8/8/3N4/4K3[P] w - - 0 1")
    assert not occupied.is_legal(Move.from_uci("P@d2"))


def test_drop_can_block_a_line_check() -> None:
    # Black Nightrider b7 checks the King e1 along b7-c5-d3-e1: drops on c5 and d3 block.
    pos = Position("6k1/pi6/8/8/8/8/P6P/4K3[Qv] w - - 0 1")
    assert pos.is_check()
    assert drops(pos) == {"c5", "d3"}
    rook = Position("4r1k1/8/8/8/8/8/8/4K3[N] w - - 0 1")
    assert drops(rook) == {"e2", "e3", "e4", "e5", "e6", "e7"}


def test_contact_check_cannot_be_blocked_by_a_drop() -> None:
    knight = Position("6k1/8/8/8/8/3n4/P4P2/4K3[Aa] w - - 0 1")
    assert knight.is_check()
    assert drops(knight) == set()
    assert legal(knight) == {"e1d1", "e1d2", "e1e2", "e1f1"}
    adjacent = Position("6k1/8/8/8/8/8/3q4/4K3[Q] w - - 0 1")
    assert adjacent.is_check()
    assert drops(adjacent) == set()
    assert legal(adjacent) == {"e1d2", "e1f1"}  # take the Queen, or step aside


def test_double_check_allows_only_king_moves() -> None:
    pos = Position("4r1k1/8/8/8/1P6/5n2/3P4/4K3[T] w - - 0 1")
    assert len(pos.checkers()) == 2
    assert legal(pos) == {"e1d1", "e1f1", "e1f2"}  # no capture, block, drop or pocketing


# ---------------------------------------------------------------------------------------
# §4 the end of the game


def test_checkmate_by_a_drop() -> None:
    pos = Position("6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1")
    play(pos, "N@f7")
    assert pos.is_check()
    assert pos.legal_moves() == []  # no pocketing out of check
    outcome = pos.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.CHECKMATE
    assert outcome.winner == WHITE
    assert outcome.result() == "1-0"


def test_stalemate_and_pocket_moves_count_as_moves() -> None:
    stalemate = Position("k7/2Q5/1K6/8/8/8/8/8[] b - - 0 1")
    assert stalemate.outcome() is not None
    assert stalemate.outcome().termination is Termination.STALEMATE  # type: ignore[union-attr]
    assert stalemate.outcome().result() == "1/2-1/2"  # type: ignore[union-attr]
    with_drop = Position("k7/2Q5/1K6/8/8/8/8/8[n] b - - 0 1")
    assert with_drop.outcome() is None
    assert len(drops(with_drop)) == 64 - 8 - 3  # ranks 2-8 less c7, b6, a8
    blocked_pawn = Position("k7/2Q4p/1K5P/8/8/8/8/8[] b - - 0 1")
    assert legal(blocked_pawn) == {"h7@P"}  # the pawn cannot move but can be pocketed


def test_fifty_moves_are_counted_in_plies_and_pawn_moves_do_not_reset() -> None:
    pos = Position("4k3/8/8/8/8/8/4P3/4K3[] w - - 98 60")
    play(pos, "e2e3")
    assert pos.halfmove_clock == 99
    assert pos.outcome() is None
    play(pos, "e8d8")
    assert pos.halfmove_clock == 100
    assert pos.outcome().termination is Termination.FIFTY_MOVES  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("fen", "uci", "clock"),
    [
        ("4k3/8/8/8/8/8/4P3/4K3[N] w - - 10 30", "N@c3", 11),  # drop: no reset
        ("4k3/8/8/8/8/8/4P3/4K3[] w - - 10 30", "e2@P", 11),  # pocketing rank 2: no reset
        ("4k3/8/8/8/8/8/Z7/4K3[] w - - 10 30", "a2@Z", 11),  # AmazonRider rank 2: no reset
        ("4k3/8/8/8/8/8/4P3/4K3[] w - - 10 30", "e2e4", 11),  # pawn double step: no reset
        ("4k3/8/8/8/8/3p4/4P3/4K3[] w - - 10 30", "e2d3", 0),  # capture: reset
        ("P3k3/8/8/8/8/8/8/4K3[] w - - 10 30", "a8@N", 0),  # promotion: reset
        ("Z7/8/8/7k/8/8/8/4K3[] w - - 10 30", "a8@Z", 0),  # AmazonRider from rank 8: reset
        ("4k3/8/8/8/8/8/8/p3K3[] b - - 10 30", "a1@B", 0),  # Black's promotion: reset
    ],
)
def test_what_resets_the_fifty_move_count(fen: str, uci: str, clock: int) -> None:
    pos = play(Position(fen), uci)
    assert pos.halfmove_clock == clock


def test_checkmate_on_the_hundredth_ply_stands() -> None:
    pos = play(Position("6rk/6pp/8/8/8/8/8/K7[N] w - - 99 80"), "N@f7")
    assert pos.halfmove_clock == 100
    assert pos.outcome().termination is Termination.CHECKMATE  # type: ignore[union-attr]
    stale = play(Position("k7/8/1K6/8/8/8/8/2Q5[] w - - 99 80"), "c1c7")
    assert stale.halfmove_clock == 100
    assert stale.outcome().termination is Termination.STALEMATE  # type: ignore[union-attr]


KNIGHT_CYCLE = ("g1f3", "g8f6", "f3g1", "f6g8")


def test_threefold_is_claimable_and_fivefold_automatic() -> None:
    pos = Position("4k1n1/8/8/8/8/8/8/4K1N1[] w - - 0 10")
    play(pos, *KNIGHT_CYCLE)
    assert pos.repetition_count() == 2
    play(pos, *KNIGHT_CYCLE)
    assert pos.repetition_count() == 3
    assert pos.can_claim_threefold_repetition()
    assert pos.outcome() is None
    claimed = pos.outcome(claim_draw=True)
    assert claimed is not None and claimed.termination is Termination.THREEFOLD_REPETITION
    play(pos, *KNIGHT_CYCLE)
    assert pos.repetition_count() == 4
    assert pos.outcome() is None
    play(pos, *KNIGHT_CYCLE)
    assert pos.repetition_count() == 5
    assert pos.outcome().termination is Termination.FIVEFOLD_REPETITION  # type: ignore[union-attr]
    play(pos, "g1f3")
    assert pos.repetition_count() == 5  # the position after g1f3, five times too
    pos.pop()
    assert pos.repetition_count() == 5


def test_positions_with_different_pockets_are_not_repetitions() -> None:
    pos = Position("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1")
    play(pos, "N@c3", "e8d8", "c3@B", "d8e8")  # same board, but a Bishop in the pocket
    assert pos.fen().startswith("4k3/8/8/8/8/8/8/4K3[B] w")
    assert pos.repetition_count() == 1
    play(pos, "B@c3", "e8d8", "c3@N", "d8e8")  # the Knight again: a repetition
    assert pos.repetition_count() == 2
    assert pos.history_keys()[0] == pos.history_keys()[-1]
    assert pos.history_keys()[0] != pos.history_keys()[4]


def test_initial_array_differs_from_a_later_recurrence() -> None:
    pos = Position()
    play(pos, *KNIGHT_CYCLE)
    assert pos.fen().split(" ")[:2] == Position().fen().split(" ")[:2]
    assert pos.repetition_count() == 1  # White may pocket now: not the initial position
    play(pos, *KNIGHT_CYCLE)
    assert pos.repetition_count() == 2
    play(pos, *KNIGHT_CYCLE, *KNIGHT_CYCLE, *KNIGHT_CYCLE)
    assert pos.repetition_count() == 5  # five times *after* the start, six arrays in all
    assert pos.outcome().termination is Termination.FIVEFOLD_REPETITION  # type: ignore[union-attr]


SHUFFLE = ("g1f3", "e8e7", "f3g1", "e7e8")


def test_double_step_without_legal_en_passant_repeats_a_position() -> None:
    pos = play(Position("4k3/3p4/8/8/8/8/8/4K1N1[] b - - 0 1"), "d7d5")
    assert pos.ep_square is not None and not pos.has_legal_en_passant()
    play(pos, *SHUFFLE)
    assert pos.repetition_count() == 2


def test_double_step_with_illegal_en_passant_repeats_a_position() -> None:
    # e5xd6 would expose the King on a5 to the rook h5: not a possible move.
    pos = play(Position("4k3/3p4/8/K3P2r/8/8/8/6N1[] b - - 0 1"), "d7d5")
    assert not pos.has_legal_en_passant()
    play(pos, *SHUFFLE)
    assert pos.repetition_count() == 2


def test_double_step_with_legal_en_passant_does_not_repeat() -> None:
    pos = play(Position("4k3/3p4/8/4P3/8/8/8/4K1N1[] b - - 0 1"), "d7d5")
    assert pos.has_legal_en_passant()
    play(pos, *SHUFFLE)
    assert pos.repetition_count() == 1
    play(pos, *SHUFFLE)
    assert pos.repetition_count() == 2


def test_dead_position_is_only_king_against_king_with_empty_pockets() -> None:
    dead = Position("4k3/8/8/8/8/8/8/4K3[] w - - 0 1")
    assert dead.outcome().termination is Termination.DEAD_POSITION  # type: ignore[union-attr]
    for fen in (
        "4k3/8/8/8/8/8/4P3/4K3[] w - - 0 1",  # K+P v K: the pawn can climb and promote
        "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1",  # a piece in White's pocket
        "4k3/8/8/8/8/8/8/4K3[n] b - - 0 1",  # a piece in Black's pocket
        "4k3/8/8/8/8/8/8/3BK3[] w - - 0 1",  # K+B v K: not insufficient here
    ):
        assert Position(fen).outcome() is None, fen
    captured = play(Position("4k3/8/8/8/8/8/4n3/4K3[] w - - 0 1"), "e1e2")
    assert captured.outcome().termination is Termination.DEAD_POSITION  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------------
# Legality is checked on push; FEN


def test_push_refuses_an_illegal_move_and_changes_nothing() -> None:
    pos = Position()
    before = pos.fen()
    with pytest.raises(IllegalMoveError, match="e2e5"):
        pos.push(Move.from_uci("e2e5"))
    assert pos.fen() == before
    assert pos.ply == 0


START_BOARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


@pytest.mark.parametrize(
    ("fen", "column", "words"),
    [
        (START_BOARD[:-1] + "Y[] w - - 0 1", 43, "'Y' is not a piece letter"),
        (START_BOARD + "[] x - - 0 1", 47, "side to move must be 'w' or 'b'"),
        (START_BOARD + "[] w - e5 0 1", 51, "must be on rank 3 or 6"),
        (START_BOARD + "[] w - z9 0 1", 51, "en passant square must be '-' or like e3"),
        (START_BOARD + "[QR] w - - 0 1", 46, "White's pocket holds at most one piece"),
        (START_BOARD + "[K] w - - 0 1", 45, "a King can never be in a pocket"),
        (START_BOARD + "[-] w - - 0 1", 45, "'-' is not a piece letter"),
        (START_BOARD + "[ w - - 0 1", 44, "pockets must end with ']'"),
        (START_BOARD + "[] w - - x 1", 53, "halfmove clock must be a whole number"),
        (START_BOARD + "[] w - - 0 0", 55, "fullmove number must be a whole number >= 1"),
        (START_BOARD + "[] w - - 0 1 x", 57, "unexpected text 'x'"),
        (START_BOARD + "[] w KQx - 0 1", 49, "castling field must be '-'"),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1", 19, "rank 6 has more"),
        ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1", 16, "rank 7 has only 7"),
        ("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1", 1, "8 ranks"),
        ("", 1, "empty FEN"),
    ],
)
def test_fen_errors_name_the_column_and_the_fault(fen: str, column: int, words: str) -> None:
    with pytest.raises(FenError) as info:
        Position(fen)
    assert info.value.column == column
    assert words in info.value.message
    assert f"column {column}" in str(info.value)


def test_castling_letters_are_accepted_and_ignored() -> None:
    assert Position(START_BOARD + "[] w KQkq - 0 1").fen() == START_BOARD + "[] w - - 0 1"


def test_fen_errors_for_impossible_positions() -> None:
    with pytest.raises(FenError, match="White has no King") as info:
        Position("4k3/8/8/8/8/8/8/8[] w - - 0 1")
    assert info.value.column == 1
    with pytest.raises(FenError, match="more than one King"):
        Position("4k3/8/8/8/8/8/8/3KK3[] w - - 0 1")
    with pytest.raises(FenError, match="Black is in check but it is not their move"):
        Position("4k3/8/8/8/8/8/8/4R1K1[] w - - 0 1")


@pytest.mark.parametrize(
    "fen",
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 12 9",
        "x1mt2kf/pp3ppp/4vu2/3p4/2A1P3/4DI2/PP3PPP/HW1Z2KG[Ii] b - - 3 21",
        "7k/3h4/4p3/8/3I1g2/1U6/8/K7[R] w - - 0 1",
        "4k3/8/8/3pP1pP/8/8/8/4K3[] w - d6 0 1",
        "4k3/p7/8/8/3pPp2/8/8/4K3[Nb] b - e3 7 40",
        "4k3/8/8/8/8/8/8/4K3[z] b - - 99 200",
        "P6Z/8/8/2k5/8/8/8/z1p1K2p[] b - - 0 1",
    ],
)
def test_canonical_fens_round_trip(fen: str) -> None:
    assert Position(fen).fen() == fen


def test_fen_drops_an_en_passant_square_without_a_legal_capture() -> None:
    assert Position("8/8/8/KPp4r/8/8/8/7k[] w - c6 0 1").fen().endswith("[] w - - 0 1")


def test_side_to_move_and_square_names_are_consistent() -> None:
    pos = Position("4k3/8/8/8/8/8/8/4K3[] b - - 0 1")
    assert pos.turn == BLACK
    assert square_name(pos.king_squares[BLACK]) == "e8"
