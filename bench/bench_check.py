"""Checking games: gcadj against python-chess, side by side, in one run (issue 7).

    python bench/bench_check.py [--repeat 5] [--startup-runs 15]

Corpus: the real master games in bench/data/pgn, each cut before its first castling or
promotion (the first move that is not a Pocket Mutation Chess move) and kept twice, as
Game Courier text and as PGN (bench/corpus.py). Untimed.

Timed, same process conditions, `--repeat` alternating rounds, medians ((b) against (a) in CPU
time; (c), whole processes, against (a) in wall time):
  (a) python-chess: `chess.pgn.read_game` + replay of the PGN texts (it checks every SAN);
  (b) gcadj: `gcadj.check_text` over the Game Courier texts, through the Python API;
  (c) gcadj: `gcadj audit --jobs 1` and `--jobs 2` on the same games as files, whole
      processes (start-up, file reading and JSONL writing included); once on the corpus
      as it is (a process of about half a second, mostly start-up) and once with every
      game written four times, so the judging rate shows through the fixed start-up.
Start-up: `gcadj check` on one short game as a process, against a python-chess one-liner
that reads and replays the same game as PGN.
Verdicts: every cut game must be legal, and the same game continued by its castling or
promotion must be illegal at exactly that ply with category `castling` or
`promotion-on-arrival`. A faster wrong answer is worth nothing, so wrong verdicts fail
the run (exit 1).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import chess
import chess.pgn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import gamecourier_ply, pgn_files, read_games, roster_lines
from program import GCADJ

from gcadj.about import build_flavour
from gcadj.app.check import check_text


def continuation(board: chess.Board, move: chess.Move) -> tuple[str, str]:
    """The first non-PMC move as a player would type it, with the category it must get."""
    if board.is_castling(move):
        king_from, king_to = chess.square_name(move.from_square), chess.square_name(move.to_square)
        rank = king_from[1]
        rook_from, rook_to = ("h", "f") if king_to[0] == "g" else ("a", "d")
        label = "K" if board.turn == chess.WHITE else "k"
        rook = "R" if board.turn == chess.WHITE else "r"
        text = f"{label} {king_from}-{king_to}; {rook} {rook_from}{rank}-{rook_to}{rank}"
        return text, "castling"
    assert move.promotion is not None
    pawn_move = chess.Move(move.from_square, move.to_square)
    text = gamecourier_ply(board, pawn_move)
    letter = chess.piece_symbol(move.promotion)
    letter = letter.upper() if board.turn == chess.WHITE else letter
    return f"{text}; {letter}-{chess.square_name(move.to_square)}", "promotion-on-arrival"


def build_corpus() -> tuple[list[tuple[str, int, str, str]], list[tuple[str, int, str, str]]]:
    """(name, plies, Game Courier text, PGN text) per cut game; and the continued games
    as (name, ply of the bad move, Game Courier text, expected category)."""
    cut, continued = [], []
    for path in pgn_files():
        for number, game in enumerate(read_games(path), 1):
            if game.errors or "FEN" in game.headers:
                continue
            board = game.board()
            plies = roster_lines(game)
            stop: tuple[str, str] | None = None
            moves: list[chess.Move] = []
            for move in game.mainline_moves():
                if board.is_castling(move) or move.promotion is not None:
                    stop = continuation(board, move)
                    break
                plies.append(gamecourier_ply(board, move))
                moves.append(move)
                board.push(move)
            if not moves:
                continue
            # not "file#N": to gcadj that names game N of a database file
            name = f"{path.name}-game{number}"
            pgn_game = chess.pgn.Game()
            pgn_game.headers.clear()
            for line in roster_lines(game):
                key, value = line[1:-1].split(" ", 1)
                pgn_game.headers[key] = json.loads(value)
            node: chess.pgn.GameNode = pgn_game
            for move in moves:
                node = node.add_variation(move)
            pgn_text = pgn_game.accept(chess.pgn.StringExporter(headers=True)) + "\n"
            gc_text = "\n".join(plies) + "\n"
            cut.append((name, len(moves), gc_text, pgn_text))
            if stop is not None:
                continued.append((name, len(moves) + 1, gc_text + stop[0] + "\n", stop[1]))
    return cut, continued


def python_chess_replay(pgn_texts: list[str]) -> int:
    plies = 0
    for text in pgn_texts:
        game = chess.pgn.read_game(io.StringIO(text))
        assert game is not None and not game.errors
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            plies += 1
    return plies


def gcadj_api(gc_texts: list[str]) -> int:
    plies = 0
    for text in gc_texts:
        verdict = check_text(text)
        plies += verdict.legal_plies
    return plies


def row(label: str, plies_per_second: float, note: str = "") -> None:
    print(f"{label:<38} {plies_per_second:10,.0f} plies/s   {note}".rstrip())


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of `fn`: CPU time compares (a) with (b), as other load on
    a shared machine hardly changes it; wall time compares (a) with whole processes (c)."""
    cpu, wall = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - cpu, time.perf_counter() - wall


def run_process(args: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return elapsed


def audit_available() -> bool:
    done = subprocess.run([GCADJ, "audit", "--help"], capture_output=True, text=True)
    return done.returncode == 0


def audit_seconds(folder: Path, jobs: int, out: Path) -> float:
    if out.exists():
        out.unlink()
    return run_process(
        [GCADJ, "audit", str(folder), "--jobs", str(jobs), "--out", str(out), "--quiet"]
    )


def audit_rates(gc_texts: list[str], copies: int, plies: int, repeat: int) -> tuple[float, float]:
    """Plies per second of `gcadj audit --jobs 1` and `--jobs 2` on the games as files.

    With `copies` > 1 every game is written that many times: the same work, long enough
    that the process's fixed start-up (about 0.2 s) no longer hides its judging rate.
    """
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "games"
        folder.mkdir()
        for copy in range(copies):
            for i, text in enumerate(gc_texts):
                (folder / f"game{copy}-{i:04d}.txt").write_text(text)
        out = Path(tmp) / "out.jsonl"
        runs = max(3, repeat)
        c1 = [audit_seconds(folder, 1, out) for _ in range(runs)]
        c2 = [audit_seconds(folder, 2, out) for _ in range(runs)]
    return plies / statistics.median(c1), plies / statistics.median(c2)


def check_verdicts(
    cut: list[tuple[str, int, str, str]], continued: list[tuple[str, int, str, str]]
) -> list[str]:
    """Every problem with gcadj's verdicts (empty when all are right)."""
    problems = []
    for name, plies, gc_text, _ in cut:
        verdict = check_text(gc_text, name)
        if verdict.status != "legal" or verdict.legal_plies != plies:
            problems.append(f"{name}: expected legal with {plies} plies, got {verdict.to_json()}")
    for name, ply, gc_text, category in continued:
        verdict = check_text(gc_text, name)
        found = verdict.first_illegal
        if found is None or (found.ply, found.category) != (ply, category):
            got = None if found is None else (found.ply, found.category)
            problems.append(f"{name}: expected ({ply}, {category!r}), got {got}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--startup-runs", type=int, default=15)
    args = parser.parse_args()

    cut, continued = build_corpus()
    gc_texts = [c[2] for c in cut]
    pgn_texts = [c[3] for c in cut]
    plies = sum(c[1] for c in cut)
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, python-chess {chess.__version__}, "
        f"gcadj {build_flavour()}"
    )
    print(f"corpus: {len(cut)} games, {plies} plies (cut before the first castling/promotion)")

    problems = check_verdicts(cut, continued)
    by_category: dict[str, int] = {}
    for *_, category in continued:
        by_category[category] = by_category.get(category, 0) + 1
    print(
        f"verdicts: {len(cut)} cut games legal; {len(continued)} continued games illegal at "
        f"the continuing ply ({', '.join(f'{n} {c}' for c, n in sorted(by_category.items()))}): "
        f"{'all right' if not problems else f'{len(problems)} WRONG'}"
    )
    for problem in problems[:10]:
        print("  WRONG:", problem)

    assert python_chess_replay(pgn_texts) == plies == gcadj_api(gc_texts)
    a_times, b_times = [], []
    for _ in range(args.repeat):
        a_times.append(timed(lambda: python_chess_replay(pgn_texts)))
        b_times.append(timed(lambda: gcadj_api(gc_texts)))
    a = plies / statistics.median(t[0] for t in a_times)
    b = plies / statistics.median(t[0] for t in b_times)
    a_wall = plies / statistics.median(t[1] for t in a_times)
    row("(a) python-chess read_game + replay", a)
    target = "3.5 compiled" if build_flavour().startswith("compiled") else "2.8 pure"
    row("(b) gcadj check_text (API)", b, f"b/a = {b / a:.2f}  (target >= {target})")

    if audit_available():
        for copies in (1, 4):
            j1, j2 = audit_rates(gc_texts, copies, plies * copies, args.repeat)
            what = "the corpus" if copies == 1 else f"the corpus x{copies} ({copies} files a game)"
            print(f"(c) gcadj audit as whole processes on {what}:")
            row("    --jobs 1", j1, f"c1/a = {j1 / a_wall:.2f}  (target >= 1.5)")
            row("    --jobs 2", j2, f"c2/c1 = {j2 / j1:.2f}  (target >= 1.7)")
    else:
        print("(c) gcadj audit is not available in this build: skipped")

    with tempfile.TemporaryDirectory() as tmp:
        name, _, gc_text, pgn_text = min(cut, key=lambda c: abs(c[1] - 20))
        game_file = Path(tmp) / "short.txt"
        game_file.write_text(gc_text)
        one_liner = (
            "import io, chess.pgn\n"
            f"g = chess.pgn.read_game(io.StringIO({pgn_text!r}))\n"
            "b = g.board()\n"
            "for m in g.mainline_moves(): b.push(m)\n"
            "print(b.fen())\n"
        )
        ours, theirs = [], []
        for _ in range(args.startup_runs):
            ours.append(run_process([GCADJ, "check", str(game_file)]))
            theirs.append(run_process([sys.executable, "-c", one_liner]))
        mine, other = statistics.median(ours), statistics.median(theirs)
        print(
            f"start-up, one {name} game as a process: gcadj check {mine * 1000:.0f} ms, "
            f"python-chess one-liner {other * 1000:.0f} ms, "
            f"ratio {mine / other:.2f}  (target <= 1.5)"
        )
    shutil.rmtree(Path(tempfile.gettempdir()) / "gcadj-bench", ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
