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
  links are repeated up to the size, the move list at its end.

Target: time per KB within 3× from 10 KB to 5 MiB for every shape: the time per KB of
the largest page over that of the smallest (a growth; below 1 when fixed costs dominate
the small page). The table gives seconds, µs per KB, that growth, and the highest over
the lowest time per KB across all sizes. Small
pages are repeated for at least half a second and the fastest run kept.
Run: ``python bench/bench_scrape.py [--max-kib 5120]``.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gcadj.errors import PageError  # noqa: E402
from gcadj.sources.pages.scrape import scrape_page  # noqa: E402

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


SHAPES: dict[str, Callable[[int], tuple[str, str]]] = {
    "long word": long_word,
    "comment": comment,
    "pre blocks": pre_blocks,
    "tables": tables,
    "spans": spans,
    "inline spans": inline_spans,
    "divs with moves": divs_with_moves,
    "ordinary": ordinary,
}


def timed(page: str) -> tuple[float, str]:
    """The fastest of as many runs as fit in half a second (one for big pages)."""
    best = float("inf")
    spent = 0.0
    outcome = ""
    while spent < 0.5 or best == float("inf"):
        gc.collect()
        start = time.perf_counter()
        try:
            game = scrape_page(page, source="bench")
            outcome = f"{len(game.moves)} lines"
        except PageError as err:
            outcome = f"error {err.message[:30]}"
        took = time.perf_counter() - start
        best, spent = min(best, took), spent + took
        if took > 0.5:
            break
    return best, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-kib", type=int, default=5120)
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES))
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


if __name__ == "__main__":
    main()
