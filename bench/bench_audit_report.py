"""What `gcadj audit --report` costs: the same audit with and without the HTML report.

    python bench/bench_audit_report.py [--games 10000] [--jobs 2] [--rounds 2]

The corpus is `--games` short real games (bench/data/pgn cut before the first castling or
promotion, cycled; see corpus.py), one file each. Each round runs both audits as whole
processes, one after the other (``gcadj audit DIR --jobs N --out F --quiet --no-cache``,
then the same with ``--report R.html``, which also writes one game viewer per game); the
medians of the wall times and of the CPU times of the process trees are compared (target
for the report: at most 2x). Run it with the interpreter of the build to measure.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import load_corpus

from gcadj.about import build_flavour


def write_corpus(folder: Path, games: int) -> int:
    """`games` log files in `folder`; the number of plies they hold."""
    corpus = load_corpus()
    folder.mkdir(parents=True)
    plies = 0
    for number in range(games):
        game = corpus[number % len(corpus)]
        (folder / f"game{number:06d}.txt").write_text(game.gamecourier, encoding="utf-8")
        plies += game.plies
    return plies


def audit(corpus: Path, work: Path, jobs: int, report: bool) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its workers) of one audit."""
    out = work / "audit.jsonl"
    out.unlink(missing_ok=True)
    command = [sys.executable, "-m", "gcadj", "audit", str(corpus), "--jobs", str(jobs)]
    command += ["--out", str(out), "--quiet", "--no-cache", "--force"]
    if report:
        command += ["--report", str(work / "report.html")]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"audit failed: {' '.join(command)}")
    return seconds, usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gcadj-bench-") as scratch:
        corpus = Path(scratch) / "games"
        plies = write_corpus(corpus, args.games)
        print(
            f"gcadj {build_flavour()}; {args.games} games, {plies} plies; --jobs {args.jobs}; "
            f"{args.rounds} rounds"
        )
        runs: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
        for _ in range(args.rounds):
            for report in (False, True):
                work = Path(scratch) / f"out-{report}"
                work.mkdir(exist_ok=True)
                runs[report].append(audit(corpus, work, args.jobs, report))
    wall = {report: statistics.median(r[0] for r in rs) for report, rs in runs.items()}
    cpu = {report: statistics.median(r[1] for r in rs) for report, rs in runs.items()}
    print(f"  audit            {wall[False]:7.1f} s wall, {cpu[False]:7.1f} s CPU")
    print(f"  audit --report   {wall[True]:7.1f} s wall, {cpu[True]:7.1f} s CPU")
    print(
        f"--report costs {wall[True] / wall[False]:.1f}x the audit's wall time, "
        f"{cpu[True] / cpu[False]:.1f}x its CPU time (target <= 2)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
