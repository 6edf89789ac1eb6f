"""Parser memory and linearity: ``gcadj check`` on logs of 1 MB and 10 MB, wherever the error is.

Each log is written to a temporary folder and checked by a whole process
(``gcadj check FILE``, the program beside the interpreter: `program.py`), exactly as
a user would run it; ``os.wait4`` gives
the peak resident set (the largest RSS the process reached) and its CPU seconds,
which other load on a shared machine hardly disturbs (wall time it does). The logs are
written line by line, so this process stays small (a forked child starts with its RSS).

Shapes, each at 1 MB and at 10 MB (``--scale``):

* plies without numbers (about 10^6 plies at 10 MB), a syntax error on the last line;
* numbered plies, a syntax error on the last line, in the middle, on the first ply;
* numbered plies, no syntax error;
* one ply line of 10 MB (a million sub-moves), a syntax error at its end;
* one ply, then nothing but ``//`` comment lines (524,288 of them at 11 MB): they were
  joined into the ply's comment one line at a time, quadratic (107 s at 11 MB);
* ``--all --json`` on plies without numbers (the Knights' shuffle: every ply after the
  fivefold repetition is an illegal "after-game-end"), with and without a syntax error on
  the last line: all of them were kept, with a suggestion each, and written as one JSON
  line (141 s, 1.9 GB and a 312 MB line at 10 MB); now the first 1,000 are listed and the
  rest counted.

The games are Knights going back and forth, so the replay stops at ply 18 (fivefold
repetition) and what is measured is reading the text. The targets (issue 10): under
400 MB at 10 MB, and linear time: CPU seconds per MB at 10 MB within 3× of those at
1 MB (start-up, about 0.3 s, makes the 1 MB figure look slower per MB, so the ratio is
usually below 1). The size of what the command printed is given too.

Run: ``python bench/bench_memory.py [--scale 10]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from program import GCADJ

CYCLE = ("N g1-f3", "n g8-f6", "N f3-g1", "n f6-g8")
HEAD = '[White "Ann"]\n[Black "Bob"]\n'
MB = 1_000_000


def plain(size: int, error_at: float | None) -> Iterator[str]:
    """Plies without numbers up to `size` bytes; 'Nf3' at the fraction `error_at` of them."""
    count = size // 8
    bad = None if error_at is None else min(count - 1, int(count * error_at))
    yield HEAD
    for i in range(count):
        yield ("Nf3" if i == bad else CYCLE[i % 4]) + "\n"


def numbered(size: int, error_at: float | None) -> Iterator[str]:
    count = size // 16
    bad = None if error_at is None else min(count - 1, int(count * error_at))
    yield HEAD
    for i in range(count):
        number = f"{i // 2 + 1}{'.' if i % 2 == 0 else '...'}"
        yield f"{number} {'Nf3' if i == bad else CYCLE[i % 4]}\n"


def one_line(size: int, error_at: float | None) -> Iterator[str]:
    yield HEAD
    for _ in range(size // 9):
        yield "P e2-e4; "
    yield "x\n"


def comments(size: int, error_at: float | None) -> Iterator[str]:
    """One ply, then `//` lines up to `size` (21 bytes each: 524,288 of them at 11 MB)."""
    yield HEAD + "P e2-e4\n"
    for _ in range(size // 21):
        yield "// a comment line ..\n"


Maker = Callable[[int, float | None], Iterator[str]]
SHAPES: tuple[tuple[str, Maker, float | None, tuple[str, ...]], ...] = (
    ("plies, error on the last line", plain, 1.0, ()),
    ("numbered, error on the last line", numbered, 1.0, ()),
    ("numbered, error in the middle", numbered, 0.5, ()),
    ("numbered, error on the first ply", numbered, 0.0, ()),
    ("numbered, no syntax error", numbered, None, ()),
    ("one 10 MB ply line, error at its end", one_line, 1.0, ()),
    ("comment lines after one ply", comments, None, ()),
    ("--all --json, plies, no syntax error", plain, None, ("--all", "--json")),
    ("--all --json, plies, error on the last line", plain, 1.0, ("--all", "--json")),
)


def measure(path: Path, flags: tuple[str, ...] = ()) -> tuple[float, float, int, int]:
    """(wall s, CPU s, peak RSS KiB, bytes printed) of one ``gcadj check`` process."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as printed:
        process = subprocess.Popen(
            [GCADJ, "check", *flags, str(path)],
            stdout=printed,
            stderr=subprocess.DEVNULL,
        )
        _, _, usage = os.wait4(process.pid, 0)
        size = printed.seek(0, os.SEEK_END)
    wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=10, help="size of the big logs in MB")
    parser.add_argument("--shape", action="append", help="only the shapes whose name has this")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}")
    big = f"{args.scale} MB"
    print(
        f"| shape | CPU s 1 MB | CPU s {big} | CPU per MB, {big} / 1 MB | RSS 1 MB "
        f"| RSS {big} | printed at {big} |\n|---|---|---|---|---|---|---|"
    )
    with tempfile.TemporaryDirectory() as folder:
        for name, make, error_at, flags in SHAPES:
            if args.shape and not any(part in name for part in args.shape):
                continue
            figures = []
            for size in (MB, args.scale * MB):
                path = Path(folder) / "log.txt"
                with path.open("w", encoding="utf-8") as handle:  # streamed: this process
                    handle.writelines(make(size, error_at))  # stays small, and so its fork
                figures.append(measure(path, flags))
            (_, cpu_small, rss_small, _), (_, cpu_big, rss_big, printed) = figures
            growth = (cpu_big / args.scale) / cpu_small
            print(
                f"| {name} | {cpu_small:.2f} | {cpu_big:.2f} | {growth:.2f}× "
                f"| {rss_small / 1024:.0f} MB | {rss_big / 1024:.0f} MB | {printed:,} bytes |",
                flush=True,
            )


if __name__ == "__main__":
    main()
