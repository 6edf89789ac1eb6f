"""Long, fairy-rich games: how fast gcadj judges plies that pocket and drop.

    python bench/bench_long.py [--games 60] [--plies 300] [--repeat 5] [--seed 20240521]

The master games of bench_check.py are orthodox chess: their plies are plain board moves.
Pocket Mutation Chess games are not, so this bench writes `--games` random legal games of
up to `--plies` plies from a fixed seed (bench/random_corpus.py `long_game`: about one time
in three a pocketing or a drop is chosen if one is legal, else any legal move; some 60% of
the plies pocket or drop), each ply written by gcadj's own writer
(`gcadj.notation.san.gc_text`), and times `gcadj.check_text` over them: `--repeat` rounds
of CPU time (other load on a shared machine hardly counts), the median reported as plies
per second. Untimed first: every game must be judged legal to its last ply (a faster
wrong answer is worth nothing; the run fails otherwise).

Run it with the interpreter of the build to measure: `.venv/bin/python` (editable, pure
Python) or the python of a venv holding the compiled wheel. It prints which build runs.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from random_corpus import SEED, long_game

from gcadj.about import build_flavour
from gcadj.app.check import check_text

TARGETS = {"compiled": 180_000, "pure": 130_000}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--plies", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    texts, plies, fairy = [], 0, 0
    for _ in range(args.games):
        game, pocket_moves = long_game(rng, args.plies)
        texts.append("\n".join(game) + "\n")
        plies += len(game)
        fairy += pocket_moves
    flavour = build_flavour()
    print(f"Python {platform.python_version()}, gcadj {flavour}")
    print(
        f"corpus: {args.games} games, {plies} plies, {fairy / plies:.0%} pocket moves or drops "
        f"(seed {args.seed})"
    )
    wrong = [
        i
        for i, text in enumerate(texts)
        if (v := check_text(text)).status != "legal" or v.legal_plies != text.count("\n")
    ]
    if wrong:
        print(f"WRONG: games {wrong[:10]} are not judged legal to their last ply")
        return 1

    times = []
    for _ in range(args.repeat):
        start = time.process_time()
        for text in texts:
            check_text(text)
        times.append(time.process_time() - start)
    rate = plies / statistics.median(times)
    build = "compiled" if flavour.startswith("compiled") else "pure"
    print(
        f"gcadj check_text: {rate:,.0f} plies/s (median of {args.repeat}; "
        f"rounds {', '.join(f'{plies / t:,.0f}' for t in times)}); "
        f"target for the {build} build >= {TARGETS[build]:,}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
