"""The two readers of a move agree: the same move typed as a Game Courier ply and written in
PGN gets the same verdict, whatever the category.

For random positions (`random_positions`: pieces of every kind near the Kings, pockets
full or empty, either side to move), every board move of every piece of the side to move,
every pocketing (kept, mutated, promoted, into any kind) and every drop of any kind is
written both ways: as the ply a player types (`N g1-f4`, `R h1-i1; I-i1`, `I i1-c4`; a
legal move as its canonical text, en passant with its removal) and as SAN naming it
exactly (`Ng1f4`, `e2e4`, `Rh1@=I`, `I@c4`). Each is judged as a one-ply game from that
position (a log with a FEN tag, a PGN game with one), and the two verdicts must have the
same status and category. The readers' own points of the issue (a push onto one's own
piece, ``e.p.``, the pocket files of the presets, ``{gc: ...}`` plies) have tests of their
own beside this one.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from conftest import budget
from random_positions import LETTERS, random_position

from gcadj.app.pipeline import judge_source
from gcadj.engine.move import BOARD_MOVES, Move
from gcadj.engine.pieces import KIND
from gcadj.engine.position import Position
from gcadj.engine.squares import POCKET, WHITE, square_name
from gcadj.judging.verdict import Verdict
from gcadj.notation.san import gc_text
from gcadj.vocabulary import Category, Status

POCKET_SQUARES = ("i1", "i8")


def positions(seed: int, wanted: int) -> list[Position]:
    rng = random.Random(seed)
    found: list[Position] = []
    for _ in range(20 * wanted):
        position = random_position(rng, rng.randint(3, 10))
        if position is not None and position.outcome() is None:
            found.append(position)
            if len(found) == wanted:
                break
    assert len(found) == wanted
    return found


def typed_and_san(position: Position, move: Move) -> tuple[str, str]:
    """The ply a player types for `move` and the SAN that names it exactly."""
    us = position.turn
    f, t, kind = move
    pocket = POCKET_SQUARES[us]
    if f == POCKET:
        assert kind is not None
        letter = kind.letter if us == WHITE else kind.letter.lower()
        typed = f"{letter} {pocket}-{square_name(t)}"
        san = f"{kind.letter}@{square_name(t)}"
    else:
        piece = position.board[f]
        assert piece is not None
        if t == POCKET:
            assert kind is not None
            typed = f"{piece.symbol} {square_name(f)}-{pocket}"
            became = ""
            if kind is not piece.kind:
                new = kind.letter if us == WHITE else kind.letter.lower()
                typed += f"; {new}-{pocket}"
                became = f"={kind.letter}"
            san = f"{piece.kind.letter}{square_name(f)}@{became}"
        else:
            typed = f"{piece.symbol} {square_name(f)}-{square_name(t)}"
            x = "x" if position.board[t] is not None else ""
            letter = "" if piece.pawn else piece.kind.letter
            san = f"{letter}{square_name(f)}{x}{square_name(t)}"
    if position.is_legal(move):
        typed = gc_text(position, move)  # en passant with its removal, as a player types it
    return typed, san


def moves_of(position: Position, rng: random.Random) -> list[Move]:
    """Every board move of a piece of the side to move, every pocketing into its own kind
    and a few others, and drops of the pocket's kind and a few others."""
    us = position.turn
    out: list[Move] = []
    kinds = [KIND[letter] for letter in LETTERS]
    for f in range(64):
        piece = position.board[f]
        if piece is None or piece.color != us:
            continue
        out += [BOARD_MOVES[f][t] for t in range(64) if t != f]
        into = {piece.kind, *rng.sample(kinds, 3)}
        out += [Move(f, POCKET, kind) for kind in into]
    held = position.pockets[us]
    dropped = {*rng.sample(kinds, 2), *([held.kind] if held is not None else [])}
    squares = rng.sample(range(64), 12)
    out += [Move(POCKET, t, kind) for kind in dropped for t in squares]
    return out


def judged(text: str) -> Verdict:
    (verdict,) = judge_source("game", text=text)
    return verdict


def outcome(verdict: Verdict) -> tuple[Status, Category | None]:
    finding = verdict.first_illegal
    return verdict.status, None if finding is None else finding.category


@pytest.mark.parametrize("seed", range(3))
def test_a_move_typed_and_written_in_san_gets_the_same_verdict(seed: int) -> None:
    rng = random.Random(seed)
    seen: Counter[Category | None] = Counter()
    for position in positions(1000 + seed, budget(6)):
        fen = position.fen()
        number = position.fullmove_number
        dots = "." if position.turn == WHITE else "..."
        for move in moves_of(position, rng):
            typed, san = typed_and_san(position, move)
            log = judged(f'[FEN "{fen}"]\n{typed}\n')
            pgn = judged(f'[FEN "{fen}"]\n\n{number}{dots} {san} *\n')
            assert outcome(pgn) == outcome(log), (fen, typed, san, pgn.error)
            seen[outcome(log)[1]] += 1
    assert seen[None] and seen[Category.OWN_CAPTURE] and seen[Category.ILLEGAL_PIECE_MOVE]


# What random positions seldom reach: each (FEN, typed ply, SAN) gives its category both ways.
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1"
MATED = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR[] w - - 1 3"
SPECIAL = [
    (START, "P e2-i1", "Pe2@", "pocket-first-move"),
    ("k7/4P3/8/8/8/8/8/4K3[] w - - 0 9", "P e7-e8; Q-e8", "e8=Q", "promotion-on-arrival"),
    ("k7/4P3/8/8/8/8/8/4K3[] w - - 0 9", "P e7-e8; Q-e8", "e7e8q", "promotion-on-arrival"),
    ("r3k2r/8/8/8/8/8/8/R3K2R[] w - - 0 9", "K e1-g1; R h1-f1", "O-O", "castling"),
    ("r3k2r/8/8/8/8/8/8/R3K2R[] b - - 0 9", "k e8-c8; r a8-d8", "O-O-O", "castling"),
    ("k7/8/8/8/8/8/8/1R2K3[] w - - 0 9", "K e1-i1", "Ke1@", "pocket-king"),
    (MATED, "P a2-a3", "a3", "after-game-end"),
    ("k7/8/8/8/4N3/8/4P3/4K3[] w - - 0 9", "P e2-e4", "e4", "own-capture"),
    ("k7/8/8/8/8/4N3/4P3/4K3[] w - - 0 9", "P e2-e3", "e3", "own-capture"),
]  # fmt: skip


@pytest.mark.parametrize(("fen", "typed", "san", "category"), SPECIAL)
def test_the_rarer_categories_too(fen: str, typed: str, san: str, category: str) -> None:
    number = fen.split()[-1]
    dots = "." if fen.split()[1] == "w" else "..."
    log = judged(f'[FEN "{fen}"]\n{typed}\n')
    pgn = judged(f'[FEN "{fen}"]\n\n{number}{dots} {san} *\n')
    assert outcome(log) == (Status.ILLEGAL, Category(category)), log.error
    assert outcome(pgn) == outcome(log), pgn.error


def test_a_push_onto_its_own_piece_is_an_own_capture_in_pgn_too() -> None:
    """``e4`` with White's own Knight on e4 names the push a log types ``P e2-e4``: not a
    syntax error, an own capture with the log's reason."""
    moves = "1. Nc3 a6 2. Ne4 a5 3. e4 *\n"
    log = judged("N b1-c3\np a7-a6\nN c3-e4\np a6-a5\nP e2-e4\n")
    pgn = judged(moves)
    assert outcome(pgn) == outcome(log) == (Status.ILLEGAL, Category.OWN_CAPTURE)
    assert pgn.first_illegal is not None and log.first_illegal is not None
    assert pgn.first_illegal.reason == log.first_illegal.reason


def test_the_en_passant_suffix_is_read_as_python_chess_reads_it() -> None:
    """``exf6 e.p.``: the suffix some programs and books write after an en passant capture
    is passed over, as python-chess passes it over; the game is the log's."""
    import io

    import chess.pgn

    pgn = "1. e4 d5 2. e5 f5 3. exf6 e.p. Nc6 *\n"
    log = judged("P e2-e4\np d7-d5\nP e4-e5\np f7-f5\nP e5-f6; f5-\nn b8-c6\n")
    read = judged(pgn)
    assert outcome(read) == outcome(log) == (Status.LEGAL, None)
    assert read.final_fen == log.final_fen and read.plies == log.plies == 6
    oracle = chess.pgn.read_game(io.StringIO(pgn))
    assert oracle is not None and not oracle.errors
    board = oracle.end().board()
    assert read.final_fen is not None
    assert read.final_fen.split("[")[0] == board.board_fen()
