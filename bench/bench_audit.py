"""Audit speed and memory: ``gcadj audit`` on a 1,000-game corpus with --jobs 1 and 2.

The corpus is real master games (bench/data/pgn, see corpus.py) cut before their
first castling or promotion and written as Game Courier logs, one file per game; the
955 games are cycled to reach the size asked for. Each audit runs as a whole process,
exactly as a user would start it (``gcadj audit DIR --jobs N --out F
--quiet --no-cache``), so start-up, the directory walk, the JSONL writes and the
final summary are all in the time.

Reported per job count (median wall time of ``--repeat`` runs):

* games per second and the speed-up of --jobs 2 over --jobs 1;
* CPU seconds of the whole process tree: what parallelism costs in extra work, a figure
  that other load on the machine hardly disturbs (wall times it does);
* peak memory as ``os.wait4`` reports it: the largest resident set of any one
  process of the run (the parent or a worker), psutil-free;
* peak memory of the whole process tree (parent + workers, summed), sampled from
  /proc every 20 ms (Linux only; "n/a" elsewhere);
* the same at ``--growth`` times the corpus (default 4x), to show that memory does
  not grow with the archive.

Run: ``python bench/bench_audit.py [--games 1000] [--repeat 3] [--growth 4]``.
The machine matters: on a loaded machine re-run, and read the numbers together with
the "cores" line printed first.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import load_corpus
from program import GCADJ

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Run:
    seconds: float
    cpu_seconds: float  # user + system time of the whole process tree (wait4)
    max_rss_kib: int  # largest single process (wait4)
    tree_rss_kib: int | None  # largest sum over the process tree (sampled)


def write_corpus(folder: Path, games: int) -> int:
    """`games` log files in `folder`; returns the number of plies they hold."""
    corpus = load_corpus()
    folder.mkdir(parents=True, exist_ok=True)
    plies = 0
    for number in range(games):
        game = corpus[number % len(corpus)]
        (folder / f"game{number:06d}.txt").write_text(game.gamecourier, encoding="utf-8")
        plies += game.plies
    return plies


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        parent = int(stat[stat.rfind(b")") + 2 :].split()[1])
        tree.setdefault(parent, []).append(int(entry))
    return tree


def _rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", "rb") as handle:
            for line in handle:
                if line.startswith(b"VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_rss_kib(root: int) -> int:
    tree = _children()
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += _rss_kib(pid)
        todo.extend(tree.get(pid, ()))
    return total


def run_once(corpus: Path, jobs: int, out: Path) -> Run:
    out.unlink(missing_ok=True)
    command = [GCADJ, "audit", str(corpus), "--jobs", str(jobs)]
    command += ["--out", str(out), "--quiet", "--no-cache"]
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL)
    peak = 0
    sampling = os.path.isdir("/proc")
    stop = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, tree_rss_kib(process.pid))
            stop.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    if sampling:
        sampler.start()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    stop.set()
    if sampling:
        sampler.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise SystemExit(f"audit failed with exit code {process.returncode}")
    lines = out.read_bytes().count(b"\n")
    games = sum(1 for _ in corpus.iterdir())
    if lines != games:
        raise SystemExit(f"audit wrote {lines} lines for {games} games")
    cpu = usage.ru_utime + usage.ru_stime
    return Run(seconds, cpu, usage.ru_maxrss, peak if sampling else None)


def measure(corpus: Path, jobs: int, repeat: int, out: Path) -> Run:
    runs = [run_once(corpus, jobs, out) for _ in range(repeat)]
    return Run(
        statistics.median(r.seconds for r in runs),
        statistics.median(r.cpu_seconds for r in runs),
        max(r.max_rss_kib for r in runs),
        None if runs[0].tree_rss_kib is None else max(r.tree_rss_kib or 0 for r in runs),
    )


def mib(kib: int | None) -> str:
    return "n/a" if kib is None else f"{kib / 1024:.1f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--growth", type=int, default=4, help="also audit N times the corpus")
    parser.add_argument("--keep", type=Path, help="write the corpus here and keep it")
    args = parser.parse_args()

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"cores: {cores}; load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="gcadj-bench-") as scratch:
        base = args.keep or Path(scratch)
        corpus = base / f"corpus-{args.games}"
        plies = write_corpus(corpus, args.games)
        out = Path(scratch) / "audit.jsonl"
        print(f"corpus: {args.games} games, {plies} plies ({corpus})")
        run_once(corpus, 1, out)  # warm the disk cache and Lark's parse-table cache
        results = {jobs: measure(corpus, jobs, args.repeat, out) for jobs in (1, 2)}
        print(
            f"{'jobs':>4} {'seconds':>8} {'games/s':>8} {'CPU s':>6} {'max process':>12} "
            f"{'tree peak':>11}"
        )
        for jobs, run in results.items():
            rate = args.games / run.seconds
            print(
                f"{jobs:>4} {run.seconds:>8.2f} {rate:>8.0f} {run.cpu_seconds:>6.2f} "
                f"{mib(run.max_rss_kib):>12} {mib(run.tree_rss_kib):>11}"
            )
        speedup = results[1].seconds / results[2].seconds
        print(f"speed-up of --jobs 2 over --jobs 1: {speedup:.2f}x (target >= 1.7x on 2 cores)")
        tiny = base / "corpus-1"
        write_corpus(tiny, 1)
        fixed = {jobs: measure(tiny, jobs, args.repeat, out) for jobs in (1, 2)}
        print(
            "fixed cost (a one-game audit): "
            + ", ".join(f"--jobs {jobs} {run.seconds:.2f} s" for jobs, run in fixed.items())
        )
        work = {jobs: results[jobs].seconds - fixed[jobs].seconds for jobs in (1, 2)}
        if work[2] > 0:
            print(
                f"judging alone (wall time minus the fixed cost): {work[1]:.2f} s vs "
                f"{work[2]:.2f} s, speed-up {work[1] / work[2]:.2f}x"
            )
        if args.growth > 1:
            size = args.games * args.growth
            big = base / f"corpus-{size}"
            write_corpus(big, size)
            grown = {jobs: measure(big, jobs, 1, out) for jobs in (1, 2)}
            print(
                f"at {args.growth}x the corpus ({size} games): --jobs 1 {grown[1].seconds:.2f} s "
                f"({grown[1].cpu_seconds:.2f} CPU s), --jobs 2 {grown[2].seconds:.2f} s "
                f"({grown[2].cpu_seconds:.2f} CPU s), "
                f"speed-up {grown[1].seconds / grown[2].seconds:.2f}x"
            )
            for jobs in (1, 2):
                print(
                    f"  memory, --jobs {jobs}: max process {mib(grown[jobs].max_rss_kib)} "
                    f"(vs {mib(results[jobs].max_rss_kib)} at {args.games}), tree peak "
                    f"{mib(grown[jobs].tree_rss_kib)} (vs {mib(results[jobs].tree_rss_kib)})"
                )


if __name__ == "__main__":
    main()
