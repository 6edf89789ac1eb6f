"""Bench corpora: real master games (standard chess, PGN) turned into Game Courier logs.

Bench-only code: it imports python-chess (GPL), which gcadj itself never does.

Every standard move is also a Pocket Mutation Chess move except castling and
promotion on arrival, so each game is cut just before its first castling or
promotion; what remains is a legal PMC game. The same cut game is kept twice:

* as Game Courier text, one ply per line, each board move written
  ``L o-d`` with the mover's letter (upper case White, lower case Black) and
  en passant written ``P c5-d6; d5-`` (move, then clear the victim's square);
* as PGN text, so python-chess can read exactly the same plies.

Both texts carry the same Seven Tag Roster, so header parsing costs both sides
the same. The benchmarks in this folder (parser speed, replay speed) reuse
:func:`load_corpus`.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.pgn

BENCH_DIR = Path(__file__).resolve().parent
PGN_DIR = BENCH_DIR / "data" / "pgn"

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


@dataclass(frozen=True, slots=True)
class BenchGame:
    """One cut game in both notations, with the number of plies they hold."""

    name: str
    plies: int
    gamecourier: str
    pgn: str


def pgn_files(folder: Path = PGN_DIR) -> list[Path]:
    """The PGN files of the bench corpus (committed in bench/data/pgn)."""
    return sorted(folder.glob("*.pgn"))


def read_games(path: Path) -> Iterator[chess.pgn.Game]:
    """Every game of one PGN file, in file order (python-chess tolerates the odd bad move)."""
    with path.open(encoding="utf-8", errors="replace") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            yield game


def pmc_prefix(game: chess.pgn.Game) -> list[chess.Move]:
    """The game's main line up to (not including) its first castling or promotion."""
    board = game.board()
    moves: list[chess.Move] = []
    for move in game.mainline_moves():
        if board.is_castling(move) or move.promotion is not None:
            break
        moves.append(move)
        board.push(move)
    return moves


def gamecourier_ply(board: chess.Board, move: chess.Move) -> str:
    """One ply in Game Courier notation, for the position *before* the move."""
    piece = board.piece_at(move.from_square)
    if piece is None:
        raise ValueError(f"no piece on {chess.square_name(move.from_square)}")
    origin, target = chess.square_name(move.from_square), chess.square_name(move.to_square)
    text = f"{piece.symbol()} {origin}-{target}"
    if board.is_en_passant(move):
        file, rank = chess.square_file(move.to_square), chess.square_rank(move.from_square)
        victim = chess.square(file, rank)
        text += f"; {chess.square_name(victim)}-"
    return text


def roster_lines(game: chess.pgn.Game) -> list[str]:
    """The Seven Tag Roster as tag lines, the result forced to '*' (the game is cut)."""
    lines = []
    for name in ROSTER:
        value = "*" if name == "Result" else game.headers.get(name, "?")
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'[{name} "{escaped}"]')
    return lines


def to_gamecourier(game: chess.pgn.Game, moves: list[chess.Move], numbered: bool = False) -> str:
    """The cut game as a Game Courier log: roster tags, then one ply per line."""
    board = game.board()
    lines = roster_lines(game)
    for index, move in enumerate(moves):
        ply = gamecourier_ply(board, move)
        if numbered:
            ply = f"{index // 2 + 1}{'.' if index % 2 == 0 else '...'} {ply}"
        lines.append(ply)
        board.push(move)
    return "\n".join(lines) + "\n"


def to_pgn(game: chess.pgn.Game, moves: list[chess.Move]) -> str:
    """The cut game as PGN text with the same roster, for python-chess to read back."""
    cut = chess.pgn.Game()
    cut.headers.clear()
    for name in ROSTER:
        cut.headers[name] = "*" if name == "Result" else game.headers.get(name, "?")
    cut.setup(game.board())
    node: chess.pgn.GameNode = cut
    for move in moves:
        node = node.add_variation(move)
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=False)
    return cut.accept(exporter) + "\n"


def load_corpus(folder: Path = PGN_DIR, min_plies: int = 1) -> list[BenchGame]:
    """Every game of the bench PGN files with at least ``min_plies`` plies before the cut."""
    corpus = []
    for path in pgn_files(folder):
        for number, game in enumerate(read_games(path), 1):
            if game.errors or "FEN" in game.headers:
                continue  # keep to clean games from the standard start
            moves = pmc_prefix(game)
            if len(moves) < min_plies:
                continue
            corpus.append(
                BenchGame(
                    name=f"{path.name}#{number}",
                    plies=len(moves),
                    gamecourier=to_gamecourier(game, moves),
                    pgn=to_pgn(game, moves),
                )
            )
    return corpus


def count_pgn_plies(pgn_text: str) -> int:
    """Plies python-chess reads from one PGN text (used to check both sides match)."""
    game = chess.pgn.read_game(io.StringIO(pgn_text))
    return 0 if game is None else sum(1 for _ in game.mainline_moves())
