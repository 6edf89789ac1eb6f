"""Scraping time against page size, for the page shapes that once made it super-linear.

Each shape is built at sizes from 10 KB to 5 MiB and read by `scrape_page` (parse,
render, find the move list, board, names), in this process, the page already in memory.
Every page also holds a short move list, so each one gives a game, not an error.

Shapes (what grows with the size):

* ``long word``: one word of letters (the board-code regex once took 42 s for 39 KB);
* ``comment``: an unterminated ``<!--`` (html.parser and the regex: over 300 s, 100 KB);
* ``pre blocks``: ``<pre>`` blocks, each a one-ply list (10,000 at 180 KB);
* ``tables``: tables nested in cells (3,000 deep at 70 KB);
* ``spans``: ``<span>`` elements nested in one paragraph (20,000 deep at 260 KB);
* ``inline spans``: ``<span>`` elements side by side in one ``<div>`` (4,000 took 21 s
  when each one's "does it stand alone" test re-read the whole div; the unit test
  tests/sources/test_scrape.py counts that work, this measures its time);
* ``divs with moves``: divs nested, each holding one ply and the next div;
* ``ordinary``: a viewing page (fixtures/pages/pmc_pre.html) whose rules text and
  links are repeated up to the size, the move list at its end;
* ``one pre`` and ``one textarea``: one element holding the whole game, a ply a line,
  so one text node of the page's size (each line was once located by copying the whole
  node: 19 s and 577 MB for 2 MB);
* ``one pre, bad last line``: the same with a line that is no move at its end, so the
  page has no move list and the error says where the nearest one breaks;
* ``br lines``: a ``div`` of plies ended by ``<br>``, a text node a line.

Target: time per KB within 3× from 10 KB to 5 MiB for every shape: the time per KB of
the largest page over that of the smallest (a growth; below 1 when fixed costs dominate
the small page). The table gives seconds, µs per KB, that growth, and the highest over
the lowest time per KB across all sizes. Times are CPU seconds of this process
(`time.process_time`), not wall time: on a shared machine another process's load
lengthens the wall time of a long run far more than a short one's. Small pages are
repeated for at least half a second and the fastest run kept.
With ``--memory``, each shape's largest page is also written to a file and checked by a
whole ``gcadj check FILE`` process, as a user would run it (read, scrape,
parse, replay); ``os.wait4`` gives its peak resident set and CPU seconds. Target: under
400 MB at 5 MiB for every shape.
Run: ``python bench/bench_scrape.py [--max-kib 5120] [--shape NAME] [--memory]``.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from program import GCADJ

from gcadj.errors import PageError
from gcadj.sources.pages.scrape import scrape_page

ROOT = Path(__file__).resolve().parent.parent  # the checkout: its fixture pages

MOVES = "<pre>P e2-e4\np e7-e5\nN g1-f3\nn b8-c6</pre>"
HEAD = f"<html><body><h1>Viewing Game</h1>{MOVES}"


def _fill(unit: str, size: int, head: str = HEAD, tail: str = "") -> tuple[str, int]:
    count = max(1, (size - len(head) - len(tail)) // len(unit))
    return head + unit * count + tail, count


def long_word(size: int) -> tuple[str, str]:
    page, count = _fill("a", size, HEAD + "<p>", "</p></body></html>")
    return page, f"{count:,} letters"


def comment(size: int) -> tuple[str, str]:
    page, count = _fill("x", size, HEAD + "<!--")
    return page, f"{count:,} characters"


def pre_blocks(size: int) -> tuple[str, str]:
    page, count = _fill("<pre>P e2-e4</pre>\n", size)
    return page, f"{count:,} blocks"


def tables(size: int) -> tuple[str, str]:
    opening, closing = "<table><tr><td>", "</td></tr></table>"
    depth = max(1, (size - len(MOVES)) // (len(opening) + len(closing)))
    return f"<html><body>{opening * depth}{MOVES}{closing * depth}", f"{depth:,} deep"


def spans(size: int) -> tuple[str, str]:
    depth = max(1, (size - len(HEAD)) // len("<span></span>"))
    return f"{HEAD}<p>{'<span>' * depth}x{'</span>' * depth}</p>", f"{depth:,} deep"


def inline_spans(size: int) -> tuple[str, str]:
    unit = "<span>word </span>"
    count = max(1, (size - len(HEAD)) // len(unit))
    return f"{HEAD}<div>{unit * count}</div>", f"{count:,} spans"


def divs_with_moves(size: int) -> tuple[str, str]:
    unit = "<div>P e2-e4</div>"
    depth = max(2, size // len(unit))
    plies = ("P e2-e4", "p e7-e5")
    page = "".join(f"<div>{plies[i % 2]}" for i in range(depth)) + "</div>" * depth
    return f"<html><body>{page}", f"{depth:,} deep"


def ordinary(size: int) -> tuple[str, str]:
    text = (ROOT / "fixtures" / "pages" / "pmc_pre.html").read_text(encoding="utf-8")
    body = text.index("<body>") + len("<body>")
    filler = (
        "<p>Pocket Mutation Chess: a piece may be <b>pocketed</b> and later dropped; see the "
        '<a href="/rules/pmc.html">rules</a> and <code>P c5-d6; c6-</code>.</p>\n'
        '<table><tr><td><a href="/play/pbm/play.php?log=x">a game</a></td>'
        "<td>2009-06-15</td></tr></table>\n"
    )
    count = max(0, (size - len(text)) // len(filler))
    return text[:body] + filler * count + text[body:], f"{count:,} paragraphs"


PLIES = ("P e2-e4", "p e7-e5", "N g1-f3", "n b8-c6", "N f3-g1", "n c6-b8")


def _ply_lines(size: int, end: str = "\n") -> tuple[str, int]:
    unit = end.join(PLIES) + end
    count = max(1, size // len(unit))
    return unit * count, count * len(PLIES)


def one_pre(size: int) -> tuple[str, str]:
    lines, count = _ply_lines(size)
    return f"<html><body><h1>Viewing Game</h1><pre>{lines}</pre></body></html>", f"{count:,} lines"


def one_textarea(size: int) -> tuple[str, str]:
    lines, count = _ply_lines(size)
    page = f"<html><body><h1>Viewing Game</h1><textarea>{lines}</textarea></body></html>"
    return page, f"{count:,} lines"


def one_pre_bad_end(size: int) -> tuple[str, str]:
    lines, count = _ply_lines(size)
    page = f"<html><body><h1>Viewing Game</h1><pre>{lines}P e2-e9 oops</pre></body></html>"
    return page, f"{count:,} lines"


def br_lines(size: int) -> tuple[str, str]:
    lines, count = _ply_lines(size, "<br>\n")
    return f"<html><body><h1>Viewing Game</h1><div>{lines}</div></body></html>", f"{count:,} lines"


SHAPES: dict[str, Callable[[int], tuple[str, str]]] = {
    "long word": long_word,
    "comment": comment,
    "pre blocks": pre_blocks,
    "tables": tables,
    "spans": spans,
    "inline spans": inline_spans,
    "divs with moves": divs_with_moves,
    "ordinary": ordinary,
    "one pre": one_pre,
    "one textarea": one_textarea,
    "one pre, bad last line": one_pre_bad_end,
    "br lines": br_lines,
}


def timed(page: str) -> tuple[float, str]:
    """The fastest of as many runs as fit in half a second (one for big pages)."""
    best = float("inf")
    spent = 0.0
    outcome = ""
    while spent < 0.5 or best == float("inf"):
        gc.collect()
        start = time.process_time()
        try:
            game = scrape_page(page, source="bench")
            outcome = f"{len(game.moves)} lines"
        except PageError as err:
            outcome = f"error {err.message[:30]}"
        took = time.process_time() - start
        best, spent = min(best, took), spent + took
        if took > 0.5:
            break
    return best, outcome


# A child's peak RSS counts the memory of the process it was forked from (Linux keeps
# the high-water mark across exec), so ``gcadj check`` is started by a small launcher,
# never by this process once it has held a 5 MiB page's tree.
LAUNCHER = """
import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(usage.ru_utime + usage.ru_stime, usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def whole_check(page: str) -> tuple[float, int, int]:
    """(CPU seconds, peak RSS in MiB, exit code) of ``gcadj check`` on the page."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "page.html"
        path.write_text(page, encoding="utf-8")
        command = [GCADJ, "check", str(path)]
        done = subprocess.run(
            [sys.executable, "-c", LAUNCHER, *command],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
    cpu, rss, code = done.stdout.split()
    return float(cpu), int(rss) // 1024, int(code)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-kib", type=int, default=5120)
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES))
    parser.add_argument(
        "--memory", action="store_true", help="also the peak RSS of gcadj check at the largest size"
    )
    args = parser.parse_args()
    sizes = [s for s in (10_000, 100_000, 1 << 20, 5 << 20) if s <= args.max_kib * 1024]
    print(f"cores: {os.cpu_count()}; load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    scrape_page(HEAD)  # imports and compiled expressions, outside the timings
    print("| shape | size | what | time | µs per KB | outcome |\n|---|---|---|---|---|---|")
    ratios: dict[str, float] = {}
    for name in args.shape or SHAPES:
        per_kb = []
        for size in sizes:
            page, what = SHAPES[name](size)
            seconds, outcome = timed(page)
            kb = len(page) / 1000
            per_kb.append(seconds / kb)
            print(
                f"| {name} | {kb:,.0f} KB | {what} | {seconds:.3f} s "
                f"| {seconds / kb * 1e6:,.0f} | {outcome} |",
                flush=True,
            )
        ratios[name] = (per_kb[-1] / per_kb[0], max(per_kb) / min(per_kb))
    print(
        "\n| shape | time per KB, largest page / smallest | highest / lowest | within 3× |"
        "\n|---|---|---|---|"
    )
    for name, (growth, spread) in ratios.items():
        print(f"| {name} | {growth:.2f}× | {spread:.2f}× | {'yes' if growth <= 3 else 'NO'} |")
    if not args.memory:
        return
    largest = sizes[-1]
    print(
        f"\n| shape | `gcadj check` of the {largest / 1000:,.0f} KB page: peak RSS | CPU | exit |"
        " under 400 MB |\n|---|---|---|---|---|"
    )
    for name in args.shape or SHAPES:
        cpu, rss, code = whole_check(SHAPES[name](largest)[0])
        print(f"| {name} | {rss:,} MiB | {cpu:.1f} s | {code} | {'yes' if rss < 400 else 'NO'} |")


if __name__ == "__main__":
    main()
