"""Peak memory of ``gcadj export --to json`` on a log of a million plies, against ``check``.

``export --to json`` used to build the whole document (a dict per ply, then one string)
before writing a byte: 2.9 GB for 10**6 plies. It now writes ply by ply, so what it holds
beyond ``check`` of the same log (reading, parsing and judging it) should be small and
not grow with the log. This script measures both, each as a whole process started as a
user would start it, and prints peak resident memory (``os.wait4``'s ru_maxrss: the
largest resident set of that process) and wall time, at two sizes to show the growth.

The log is Knight shuffles (``N g1-f3`` / ``n g8-f6`` / back), so the replay ends at the
fivefold repetition and every later ply is exported as "unjudged": the export writes all
10**6 plies, the judge works on a handful. That isolates the export's own memory from the
replay's; the parse of the text is in both figures.

Run: ``python bench/bench_export_memory.py [--plies 1000000] [--baseline DIR]``.
``--baseline DIR`` also runs the export of another checkout of gcadj (a source tree, e.g.
``git archive 318d594 | tar -x -C DIR``, the last commit before the export streamed) in
the same run, for a like-for-like ratio.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHUFFLE = ("N g1-f3", "n g8-f6", "N f3-g1", "n f6-g8")


def write_log(path: Path, plies: int) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for start in range(0, plies, 4096):
            count = min(4096, plies - start)
            handle.write("".join(SHUFFLE[(start + i) % 4] + "\n" for i in range(count)))


def measure(args: list[str], tree: Path | None = None) -> tuple[float, float, int]:
    """(peak RSS in MiB, wall seconds, exit code) of one gcadj process (of `tree`'s gcadj)."""
    env = {**os.environ, "PYTHONPATH": str(tree)} if tree is not None else None
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "gcadj", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=tree,
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss / 1024, wall, process.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=1_000_000)
    parser.add_argument("--baseline", type=Path, default=None, help="another gcadj source tree")
    options = parser.parse_args()
    print(f"cpus: {os.cpu_count()}, load: {os.getloadavg()[0]:.2f}")
    print("| plies | command | peak RSS | wall | exit |")
    print("|---:|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="gcadj-bench-") as scratch:
        for plies in (options.plies // 10, options.plies):
            log = Path(scratch) / f"shuffle{plies}.txt"
            write_log(log, plies)
            out = Path(scratch) / f"out{plies}.json"
            runs = {
                "check": ["check", str(log)],
                "export --to json -o FILE": ["export", str(log), "--to", "json", "-o", str(out)],
            }
            for name, args in runs.items():
                rss, wall, code = measure(args)
                print(f"| {plies:,} | {name} | {rss:,.0f} MiB | {wall:.1f} s | {code} |")
            if options.baseline is not None:
                base = ["export", str(log), "--to", "json", "-o", str(out) + ".base"]
                rss, wall, code = measure(base, options.baseline.resolve())
                name = f"export --to json -o FILE, baseline {options.baseline}"
                print(f"| {plies:,} | {name} | {rss:,.0f} MiB | {wall:.1f} s | {code} |")
            size = out.stat().st_size
            print(f"| {plies:,} | (the JSON written) | {size / 2**20:,.0f} MiB on disk | | |")


if __name__ == "__main__":
    main()
