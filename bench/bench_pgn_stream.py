"""PGN databases stream: peak memory and CPU of reading 1,000 and 10,000 games.

The databases are the real master games of ``bench/data/pgn`` (standard chess, read as
Pocket Mutation Chess: each game is judged up to its first castling), repeated until there
are enough games, with one game broken by a ``{`` that is never closed (it must cost only
itself: the count of verdicts must equal the count of games).

Each database is written to a temporary folder and read by a whole process, so that
``os.wait4`` gives its peak resident set (the largest RSS it reached) and its CPU seconds:

* ``reader``: the games one at a time from `gcadj.sources.games.source_games`, each read
  and judged in one pass, and dropped: what streaming costs, whatever the caller keeps;
* ``gcadj check --json``: the command a user runs (its output goes to a file).

Constant memory means the peak RSS at 10,000 games is about that at 1,000 (the text
itself, a few MB, aside); linear time means about 10 times the CPU.

Run: ``python bench/bench_pgn_stream.py [--games 1000 10000]``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from program import GCADJ

BENCH_DIR = Path(__file__).resolve().parent
PGN_DIR = BENCH_DIR / "data" / "pgn"

READER = """
import sys
from gcadj.sources.games import source_games

text = open(sys.argv[1], encoding="utf-8").read()
count = 0
for verdict in source_games(sys.argv[1], text=text):
    count += 1
print(count)
"""


def corpus_games() -> list[str]:
    """The text of every game of the corpus, each from its first tag line."""
    games = []
    for path in sorted(PGN_DIR.glob("*.pgn")):
        text = path.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n")
        games += [g.strip() + "\n" for g in re.split(r"\n(?=\[Event )", text) if g.strip()]
    return games


def write_database(path: Path, count: int, games: list[str]) -> None:
    """`count` games, cycling through the corpus; game count // 2 has an unclosed '{'."""
    broken = count // 2
    with path.open("w", encoding="utf-8") as out:
        for number in range(count):
            game = games[number % len(games)]
            if number == broken:
                game = game.replace("\n\n1.", "\n\n1. {this comment is never closed\n1.", 1)
            out.write(game + "\n")


def measure(command: list[str], stdout_path: Path) -> tuple[float, float, int]:
    """(wall s, CPU s, peak RSS MiB) of one process."""
    start = time.perf_counter()
    with stdout_path.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1, 3):
        raise SystemExit(f"{command} failed: {status}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10000])
    args = parser.parse_args()
    games = corpus_games()
    rows: dict[str, list[tuple[int, float, int, int]]] = {"reader": [], "gcadj check": []}
    with tempfile.TemporaryDirectory() as folder:
        for count in args.games:
            database = Path(folder) / f"db{count}.pgn"
            write_database(database, count, games)
            size = database.stat().st_size
            out = Path(folder) / "out.txt"
            for label, command in (
                ("reader", [sys.executable, "-c", READER, str(database)]),
                ("gcadj check", [GCADJ, "check", "--json", str(database)]),
            ):
                _, cpu, rss = measure(command, out)
                lines = out.read_text(encoding="utf-8").splitlines()
                verdicts = int(lines[0]) if label == "reader" else len(lines)
                if verdicts != count:
                    raise SystemExit(f"{label}: {verdicts} verdicts for {count} games")
                rows[label].append((count, cpu, rss, size))
    print("| reader | games | MB | CPU s | peak RSS MiB |")
    print("|---|---:|---:|---:|---:|")
    for label, measured in rows.items():
        for count, cpu, rss, size in measured:
            print(f"| {label} | {count:,} | {size / 1e6:.1f} | {cpu:.2f} | {rss} |")
    for label, measured in rows.items():
        if len(measured) >= 2:
            (n0, cpu0, rss0, _), (n1, cpu1, rss1, _) = measured[0], measured[-1]
            print(
                f"{label}: {n1 // n0}x the games: CPU x{cpu1 / cpu0:.1f}, "
                f"peak RSS x{rss1 / rss0:.2f} ({rss0} -> {rss1} MiB)"
            )


if __name__ == "__main__":
    main()
