"""Make the fixed positions of bench/bench_adjudicate.py (bench/data/adjudicate/positions.tsv).

    python bench/make_adjudicate_positions.py   # rewrites the file; run it with a compiled build

The positions come from real games: the master games of bench/data/pgn (standard chess,
read with python-chess, GPL, bench-only), whose positions are all Pocket Mutation Chess
positions too (castling is only a matter of the FEN's castling field, which gcadj ignores).
Three kinds of moment are taken from each decisive game, in the order of the files:

* the last eight positions before the end (where mates in 1 to 3 are);
* the position after ply 30 (a middlegame) and the one six plies before the end (often an
  endgame);

each with the pockets empty, as the game had them; with a piece of each side lifted into
its pocket ("pockets full": the side's Knight if it has one, else its Bishop, Rook, Queen or
Pawn, whichever comes first); and with each side's Queen in its pocket ("queens": a drop
threatens checks on many squares, the hardest case for a mate search). A variant that
leaves the side not to move in check is skipped.
gcadj's prover classifies each (the shortest mate within 3, for or against the side to
move, or none), and the first positions of each class are kept: mates in 1, 2 and 3, and
no mate within 3, with pockets empty and full. The file records where each came from.
The bench checks every answer again, and the naive search confirms those it can finish.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.pgn

from gcadj.analysis.search import search_mate
from gcadj.engine.position import Position
from gcadj.errors import FenError

BENCH = Path(__file__).resolve().parent
PGN_DIR = BENCH / "data" / "pgn"
OUT = BENCH / "data" / "adjudicate" / "positions.tsv"
FILES = ("Capablanca.pgn", "London1851.pgn", "tatamast22.pgn")
LIFTED = {"full": "NBRQP", "queens": "Q"}  # the piece lifted into each pocket: the first it has
WANTED = {  # (class, pockets) -> how many
    **{(f"for {n}", pockets): 3 for n in (1, 2, 3) for pockets in ("empty", "full")},
    **{(f"against {n}", pockets): 1 for n in (1, 2) for pockets in ("empty", "full")},
    **{("none 3", pockets): 3 for pockets in ("empty", "full")},
    **{(f"for {n}", "queens"): 2 for n in (2, 3)},
    ("none 3", "queens"): 3,
}
HEADER = """\
# Fixed positions of bench/bench_adjudicate.py, made by bench/make_adjudicate_positions.py
# from the master games of bench/data/pgn (see that script for how they were chosen).
# name<TAB>expected (for N: the side to move mates in N; against N: it is mated in N;
# none 3: neither within 3)<TAB>gcadj FEN<TAB>where it comes from
"""


def gcadj_fen(board: chess.Board, pockets: str = "") -> str:
    placement, turn, _castling, ep, halfmove, fullmove = board.fen().split()
    return f"{placement}[{pockets}] {turn} - {ep} {halfmove} {fullmove}"


def lifted(board: chess.Board, letters: str) -> str | None:
    """The position with a piece of each side in its pocket (the first of `letters` it has),
    or None when that is no position (see the docstring)."""
    board = board.copy()
    pockets = ""
    for color in (chess.WHITE, chess.BLACK):
        for letter in letters:
            squares = sorted(board.pieces(chess.Piece.from_symbol(letter).piece_type, color))
            if squares:
                board.remove_piece_at(squares[0])
                pockets += letter if color == chess.WHITE else letter.lower()
                break
    board.ep_square = None
    fen = gcadj_fen(board, pockets)
    try:
        Position(fen)
    except FenError:
        return None
    return fen


def moments(path: Path) -> Iterator[tuple[str, chess.Board]]:
    """(where, board) of the moments of each decisive game of a PGN file."""
    with path.open(encoding="utf-8", errors="replace") as handle:
        number = 0
        while (game := chess.pgn.read_game(handle)) is not None:
            number += 1
            if game.headers.get("Result") not in ("1-0", "0-1"):
                continue
            boards = []
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
                boards.append(board.copy())
            picks = {len(boards) - k for k in range(1, 9)} | {30, len(boards) - 6}
            for ply in sorted(p for p in picks if 1 <= p <= len(boards)):
                yield f"{path.name} game {number} after ply {ply}", boards[ply - 1]


def classify(fen: str) -> str:
    position = Position(fen)
    if position.outcome() is not None:
        return "over"
    result = search_mate(position, 3, node_limit=3_000_000)
    if result.cut is not None:
        return "cut"
    if result.proof is None:
        return "none 3"
    side = "for" if result.proof.winner == position.turn else "against"
    return f"{side} {result.proof.moves}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args()
    kept: dict[tuple[str, str], list[tuple[str, str]]] = {key: [] for key in WANTED}
    seen: set[str] = set()
    for name in FILES:
        for where, board in moments(PGN_DIR / name):
            variants = [("empty", gcadj_fen(board))]
            variants += [(name, lifted(board, letters)) for name, letters in LIFTED.items()]
            for pockets, fen in variants:
                if fen is None or fen in seen:
                    continue
                seen.add(fen)
                key = (classify(fen), pockets)
                if key in kept and len(kept[key]) < WANTED[key]:
                    kept[key].append((fen, f"{where}, pockets {pockets}"))
            if all(len(kept[key]) == WANTED[key] for key in WANTED):
                break
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w", encoding="utf-8") as out:
        out.write(HEADER)
        for (expected, pockets), found in kept.items():
            for index, (fen, where) in enumerate(found, 1):
                name = f"{expected.replace(' ', '')}-{pockets}-{index}"
                out.write(f"{name}\t{expected}\t{fen}\t{where}\n")
    print(f"wrote {sum(map(len, kept.values()))} positions to {OUT}")


if __name__ == "__main__":
    main()
