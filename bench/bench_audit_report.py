"""What `gcadj audit --report` costs: the same audit with and without the HTML report.

    python bench/bench_audit_report.py [--games 10000] [--jobs 2] [--rounds 3]
                                       [--illegal-every 10]

The corpus is `--games` short real games (bench/data/pgn cut before the first castling or
promotion, cycled; see corpus.py), one file each; every `--illegal-every`-th game gets an
illegal ply in its middle (a piece sent where it cannot go; the plies after it stay), so
the report has failing games to show. Each round runs, as whole processes, one after the
other: the audit alone (``gcadj audit DIR --jobs N --out F --quiet --no-cache``), then with
``--report R.html`` and each ``--viewers`` choice (``none``: the report only; ``failing``,
the default; ``all``: a page per game). The medians of the wall times and of the CPU
times of the process trees are compared with the audit alone (target for the report with
its default viewers: at most 2x). Run it with the interpreter of the build to measure.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import chess
import chess.pgn
from corpus import BenchGame, load_corpus
from program import GCADJ, build_of_program


def with_illegal_ply(game: BenchGame) -> str:
    """The game's log with an illegal ply inserted in its middle: a piece (not a pawn or
    the King) of the side to move sent to an empty square it cannot reach, illegal in
    chess and so in Pocket Mutation Chess, whose board moves for these pieces are chess's."""
    parsed = chess.pgn.read_game(io.StringIO(game.pgn))
    assert parsed is not None
    moves = list(parsed.mainline_moves())
    middle = len(moves) // 2
    board = parsed.board()
    for move in moves[:middle]:
        board.push(move)
    reachable = {(m.from_square, m.to_square) for m in board.legal_moves}
    for origin in chess.SQUARES:
        piece = board.piece_at(origin)
        if piece is None or piece.color != board.turn or piece.piece_type in (1, 6):
            continue
        for target in chess.SQUARES:
            if board.piece_at(target) is None and (origin, target) not in reachable:
                lines = game.gamecourier.splitlines()
                plies_from = len(lines) - game.plies
                ply = f"{piece.symbol()} {chess.square_name(origin)}-{chess.square_name(target)}"
                lines.insert(plies_from + middle, ply)
                return "\n".join(lines) + "\n"
    return game.gamecourier


def write_corpus(folder: Path, games: int, illegal_every: int = 0) -> tuple[int, int]:
    """`games` log files in `folder`; the number of plies they hold and of illegal games."""
    corpus = load_corpus()
    folder.mkdir(parents=True)
    plies = illegal = 0
    for number in range(games):
        game = corpus[number % len(corpus)]
        text = game.gamecourier
        if illegal_every and number % illegal_every == illegal_every - 1:
            text = with_illegal_ply(game)
            illegal += text != game.gamecourier
        (folder / f"game{number:06d}.txt").write_text(text, encoding="utf-8")
        plies += game.plies
    return plies, illegal


def audit(corpus: Path, work: Path, jobs: int, viewers: str | None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its workers) of one audit; with
    `viewers`, with ``--report`` and that ``--viewers`` choice."""
    out = work / "audit.jsonl"
    out.unlink(missing_ok=True)
    command = [GCADJ, "audit", str(corpus), "--jobs", str(jobs)]
    command += ["--out", str(out), "--quiet", "--no-cache", "--force"]
    if viewers is not None:
        command += ["--report", str(work / "report.html"), "--viewers", viewers]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"audit failed: {' '.join(command)}")
    return seconds, usage.ru_utime + usage.ru_stime


CHOICES = (None, "none", "failing", "all")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--illegal-every", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gcadj-bench-") as scratch:
        corpus = Path(scratch) / "games"
        plies, illegal = write_corpus(corpus, args.games, args.illegal_every)
        print(
            f"{build_of_program()}; {args.games} games ({illegal} illegal), {plies} plies; "
            f"--jobs {args.jobs}; {args.rounds} rounds"
        )
        runs: dict[str | None, list[tuple[float, float]]] = {choice: [] for choice in CHOICES}
        for _ in range(args.rounds):
            for choice in CHOICES:
                work = Path(scratch) / f"out-{choice}"
                if work.exists():
                    shutil.rmtree(work)  # each round writes its viewers afresh
                work.mkdir()
                runs[choice].append(audit(corpus, work, args.jobs, choice))
    wall = {choice: statistics.median(r[0] for r in rs) for choice, rs in runs.items()}
    cpu = {choice: statistics.median(r[1] for r in rs) for choice, rs in runs.items()}
    for choice in CHOICES:
        name = "audit" if choice is None else f"audit --report --viewers {choice}"
        line = f"  {name:38} {wall[choice]:6.1f} s wall, {cpu[choice]:6.1f} s CPU"
        if choice is not None:
            line += f"   {wall[choice] / wall[None]:.2f}x wall, {cpu[choice] / cpu[None]:.2f}x CPU"
        print(line)
    print("target: --report with the default viewers (failing) at most 2x the audit alone")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
