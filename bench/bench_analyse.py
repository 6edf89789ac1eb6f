"""Speed of the analysis of whole games: CPU per ply, on master games and on long fairy-rich
games, with the naive searches of the tests on the same plies beside it.

    python bench/bench_analyse.py [--games 100] [--fairy 5] [--naive-every 20]
                                  [--naive-nodes 30000] [--seed 20240521] [--audit 20]

The games, fixed:

* **ordinary games**: the first `--games` master games of bench/data/pgn, each cut before
  its first castling or promotion (bench/corpus.py), as Game Courier logs;
* **fairy-rich games**: `--fairy` random legal games of exactly 100 plies from a fixed seed
  (`fairy_game`: a pocketing, mutated or promoted, three times in five when the pocket is
  empty, a drop one time in six when it is full), so that the pockets are full most of
  the time (the share is printed) and dropped fairy pieces fill the board.

Each game is judged first (not timed), then analysed (`gcadj.analysis.analyser
.analyse_verdict`, default options: mates within 2, the material threshold 2): CPU seconds
per game and per ply. Start-up (the interpreter, the imports, the first analysis of a
short game) is timed apart and left out of the per-ply figures.

Beside it, on every `--naive-every`-th position of the same games: the work the analysis
does per position (one mate search to depth 2, one count of the exchanges) against the
naive searches of the tests (tests/naive_mate.py over `Position.legal_moves`: every move at
every node; tests/naive_exchanges.py: plain negamax, no alpha-beta), each capped at
`--naive-nodes` nodes per position; a capped position counts in no ratio, and where both
finish their answers must agree (the run fails otherwise).

Then ``gcadj audit --analyse`` on a folder of the first `--audit` ordinary games (0: not
run), in the batch runner with two workers, beside a plain ``gcadj audit`` of the same
folder in the same run: wall-clock and the workers' CPU seconds of each, and their ratio.

Targets (issue 35, compiled build, CPU time): on the ordinary games 20 ms per ply or less
on average beyond start-up; a 100-ply fairy-rich game in 10 s or less. The script runs
the build of the interpreter that runs it: ``.cvenv/bin/python`` (compiled) or
``.venv/bin/python`` (editable, pure Python).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TypeVar

START = time.process_time()
BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent / "tests"))  # the naive searches of the tests

from corpus import load_corpus  # noqa: E402
from naive_exchanges import NaiveExchanges  # noqa: E402
from naive_mate import NaiveSearch  # noqa: E402
from program import cpu_name  # noqa: E402
from random_corpus import SEED  # noqa: E402

from gcadj.about import build_flavour  # noqa: E402
from gcadj.analysis.analyser import analyse_verdict  # noqa: E402
from gcadj.analysis.exchanges import MAX_PLIES, count_exchanges  # noqa: E402
from gcadj.analysis.options import AnalyseOptions  # noqa: E402
from gcadj.analysis.search import search_mate  # noqa: E402
from gcadj.app.check import check_text  # noqa: E402
from gcadj.engine.move import Move  # noqa: E402
from gcadj.engine.position import Position  # noqa: E402
from gcadj.engine.squares import POCKET  # noqa: E402
from gcadj.judging.plies import JudgedGame  # noqa: E402
from gcadj.judging.verdict import Verdict  # noqa: E402
from gcadj.notation.san import gc_text  # noqa: E402
from gcadj.outputs.writers.gc import write_gc  # noqa: E402

T = TypeVar("T")
OPTIONS = AnalyseOptions()
FAIRY_PLIES = 100
TARGET_PLY_MS = 20.0
TARGET_FAIRY_GAME_S = 10.0


@dataclass
class Side:
    """The naive searches against the analysis's per-position work, on sampled positions."""

    positions: int = 0
    capped: int = 0
    naive: float = 0.0
    ours: float = 0.0


def timed(work: Callable[[], T]) -> tuple[T, float]:
    """What `work` gives, and the CPU seconds it takes."""
    start = time.process_time()
    result = work()
    return result, time.process_time() - start


def ordinary_games(count: int) -> list[Verdict]:
    return [
        check_text(game.gamecourier, game.name.replace("#", "-")) for game in load_corpus()[:count]
    ]


def fairy_move(position: Position, rng: random.Random) -> Move:
    """A random legal move that keeps the pockets full: a pocketing (with its mutation or
    promotion) three times in five when the pocket is empty, a drop (of a piece often
    mutated) one time in six when it is full, else any board move."""
    moves = position.legal_moves()
    pocketings = [move for move in moves if move.to_square == POCKET]
    drops = [move for move in moves if move.from_square == POCKET]
    if pocketings and rng.random() < 0.6:
        return rng.choice(pocketings)
    if drops and rng.random() < 1 / 6:
        return rng.choice(drops)
    board = [move for move in moves if POCKET not in (move.from_square, move.to_square)]
    return rng.choice(board or moves)


def fairy_game(rng: random.Random) -> list[str]:
    """A legal game of up to 100 plies of `fairy_move`s, as Game Courier plies."""
    position = Position()
    plies = []
    while len(plies) < FAIRY_PLIES and position.outcome() is None:
        move = fairy_move(position, rng)
        plies.append(gc_text(position, move))
        position.push(move)
    return plies


def fairy_games(count: int, seed: int) -> tuple[list[Verdict], float]:
    """`count` legal random games of exactly 100 plies, and the share of their positions
    where both pockets are full."""
    rng = random.Random(seed)
    games: list[Verdict] = []
    full = positions = 0
    while len(games) < count:
        plies = fairy_game(rng)
        if len(plies) < FAIRY_PLIES:
            continue  # it ended early
        verdict = check_text("\n".join(plies) + "\n", f"fairy-{len(games) + 1}")
        games.append(verdict)
        for position in JudgedGame(verdict).positions():
            positions += 1
            full += position.pockets[0] is not None and position.pockets[1] is not None
    return games, full / max(positions, 1)


def analyse_all(name: str, games: list[Verdict]) -> list[tuple[int, float]]:
    """(plies, CPU seconds) of each game's analysis, printed as they come."""
    timings = []
    for verdict in games:
        _, seconds = timed(partial(analyse_verdict, verdict, OPTIONS))
        timings.append((len(verdict.moves), seconds))
    plies = sum(p for p, _ in timings)
    total = sum(s for _, s in timings)
    per_game = [s for _, s in timings]
    print(
        f"{name}: {len(games)} games, {plies} plies, {total:.2f} s CPU: "
        f"{1000 * total / max(plies, 1):.2f} ms per ply; per game median "
        f"{statistics.median(per_game):.2f} s, max {max(per_game):.2f} s"
    )
    return timings


def against_naive(games: list[Verdict], every: int, nodes: int) -> Side:
    """The analysis's per-position work against the naive searches, on every `every`-th
    position; their answers must agree where both finish."""
    side = Side()
    index = 0
    for verdict in games:
        for position in JudgedGame(verdict).positions():
            index += 1
            if index % every or position.outcome() is not None:
                continue
            here = position.copy()
            side.positions += 1
            ours, ours_time = timed(partial(our_answer, here))
            try:
                theirs, naive_time = timed(partial(naive_answer, here, nodes))
            except TimeoutError:
                side.capped += 1
                continue
            if theirs != ours:
                raise SystemExit(f"{here.fen()}: naive {theirs}, the analysis {ours}")
            side.naive += naive_time
            side.ours += ours_time
    return side


def naive_answer(position: Position, nodes: int) -> tuple[object, int]:
    """The naive searches' answers (on copies: a capped search leaves its moves played)."""
    naive = NaiveSearch(Position.legal_moves, None, node_limit=nodes)
    mate = naive.shortest(position.copy(), OPTIONS.mate_depth)
    return mate, NaiveExchanges(MAX_PLIES, node_limit=nodes).value(position.copy())


def our_answer(position: Position) -> tuple[object, int]:
    """The mate search's and the count's answers, in the naive searches' words."""
    result = search_mate(position, OPTIONS.mate_depth, node_limit=OPTIONS.node_limit)
    proof = result.proof
    mate = None
    if proof is not None:
        mate = ("for" if proof.winner == position.turn else "against", proof.moves)
    return mate, count_exchanges(position).score


def audit_seconds(folder: Path, *flags: str) -> tuple[float, float]:
    """Wall-clock and CPU seconds (the command's process and its workers) of ``gcadj audit
    -q -j 2 FLAGS FOLDER``, run by this interpreter (its build)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    out = folder.parent / f"audit{len(flags)}.jsonl"
    command = [sys.executable, "-m", "gcadj", "audit", "-q", "-j", "2", "-o", str(out)]
    done = subprocess.run(
        [*command, "--force", *flags, str(folder)],
        capture_output=True,
        text=True,
        check=False,
        cwd=folder.parent,  # not the source tree: the build of this interpreter runs
    )
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"gcadj audit {' '.join(flags)} failed: {done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def audit_line(games: list[Verdict]) -> None:
    """``gcadj audit --analyse`` of a folder of `games` against a plain audit of it."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "games"
        folder.mkdir()
        for n, verdict in enumerate(games):
            (folder / f"{n:04d}.txt").write_text(write_gc(verdict), encoding="utf-8")
        plain_wall, plain_cpu = audit_seconds(folder)
        wall, cpu = audit_seconds(folder, "--analyse")
    plies = sum(len(v.moves) for v in games)
    print(
        f"audit --analyse of a folder of {len(games)} ordinary games ({plies} plies), 2 "
        f"workers: {wall:.1f} s wall, {cpu:.1f} s CPU; a plain audit {plain_wall:.1f} s wall, "
        f"{plain_cpu:.1f} s CPU; {cpu / max(plain_cpu, 1e-6):.1f}x the CPU"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="master games")
    parser.add_argument("--fairy", type=int, default=5, help="fairy-rich 100-ply games")
    parser.add_argument("--naive-every", type=int, default=20)
    parser.add_argument("--naive-nodes", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--audit", type=int, default=20, help="games of the audit's folder")
    args = parser.parse_args()
    warm = check_text("P e2-e4\np e7-e5\nN g1-f3\nq d8-g5\n")
    analyse_verdict(warm, OPTIONS)
    startup = time.process_time() - START
    load_average = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{platform.python_implementation()} {platform.python_version()}, {cpu_name()}, "
        f"{os.cpu_count()} cores (load {load_average:.1f}), gcadj {build_flavour()}, CPU time"
    )
    print(f"start-up (interpreter, imports, a first short analysis): {startup:.2f} s")
    ordinary = ordinary_games(args.games)
    fairy, full = fairy_games(args.fairy, args.seed)
    print(f"fairy-rich games: both pockets full in {full:.0%} of their positions")
    timed = analyse_all("ordinary games", ordinary)
    timed_fairy = analyse_all("fairy-rich games", fairy)
    for name, games in (("ordinary", ordinary), ("fairy-rich", fairy)):
        side = against_naive(games, args.naive_every, args.naive_nodes)
        done = side.positions - side.capped
        ratio = side.naive / max(side.ours, 1e-6)
        print(
            f"naive searches, {name} games: {side.positions} positions sampled, {side.capped} "
            f"capped at {args.naive_nodes:,} nodes; on the {done} others {side.naive:.2f} s "
            f"against the analysis's {side.ours:.3f} s, {ratio:.0f}x"
        )
    ply_ms = 1000 * sum(s for _, s in timed) / max(sum(p for p, _ in timed), 1)
    worst = max(s for _, s in timed_fairy)
    print(
        f"targets (compiled): ordinary games {ply_ms:.2f} ms per ply (<= {TARGET_PLY_MS:g}): "
        f"{'met' if ply_ms <= TARGET_PLY_MS else 'MISSED'}; the slowest 100-ply fairy-rich "
        f"game {worst:.2f} s (<= {TARGET_FAIRY_GAME_S:g}): "
        f"{'met' if worst <= TARGET_FAIRY_GAME_S else 'MISSED'}"
    )
    if args.audit:
        audit_line(ordinary[: args.audit])


if __name__ == "__main__":
    main()
