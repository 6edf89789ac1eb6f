"""Parser speed: gcadj.parse_log against python-chess read_game on the same games.

The corpus is every game of bench/data/pgn/ cut before its first castling or
promotion (see corpus.py), held both as PGN text and as Game Courier text, so
both readers see the same plies and the same Seven Tag Roster. In one run:

(a) python-chess ``chess.pgn.read_game`` over the PGN texts (it also replays
    the moves, which its reader always does);
(b) ``gcadj.notation.parse.parse_log`` over the Game Courier texts, cold: the ply memo
    is cleared before every repetition, as in a fresh process. The Lark
    parser itself is built before timing (once per process, and cached on
    disk);
(c) ``parse_log`` warm (memo kept from the previous repetition), for the
    record;
(d) the reference path alone (the whole text through Lark, no memo).

Each is repeated and the median wall time reported, with plies/s and ratios.
Run: ``python bench/bench_parse.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import chess.pgn

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import BenchGame, load_corpus

from gcadj.notation.parse import clear_memo, normalise_text, parse_log, parse_with_lark


def time_runs(work: Callable[[], int], repeat: int, before: Callable[[], None] | None) -> float:
    """Median seconds of ``repeat`` runs of ``work`` (``before`` runs untimed ahead of each)."""
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def read_pgn(corpus: list[BenchGame]) -> int:
    plies = 0
    for game in corpus:
        parsed = chess.pgn.read_game(io.StringIO(game.pgn))
        assert parsed is not None
        plies += sum(1 for _ in parsed.mainline_moves())
    return plies


def read_gamecourier(corpus: list[BenchGame]) -> int:
    return sum(len(parse_log(game.gamecourier, game.name).records) for game in corpus)


def read_reference(corpus: list[BenchGame]) -> int:
    texts = [(normalise_text(game.gamecourier), game.name) for game in corpus]
    return sum(len(parse_with_lark(text, name, "i").records) for text, name in texts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    corpus = load_corpus()
    plies = sum(game.plies for game in corpus)
    assert read_pgn(corpus) == plies, "python-chess must read the same plies"
    assert read_gamecourier(corpus) == plies, "parse_log must read the same plies"
    print(f"corpus: {len(corpus)} games, {plies} plies (cut before castling/promotion)")

    results = {
        "python-chess read_game": time_runs(lambda: read_pgn(corpus), args.repeat, None),
        "gcadj parse_log (cold memo)": time_runs(
            lambda: read_gamecourier(corpus), args.repeat, clear_memo
        ),
        "gcadj parse_log (warm memo)": time_runs(
            lambda: read_gamecourier(corpus), args.repeat, None
        ),
        "gcadj Lark reference path": time_runs(lambda: read_reference(corpus), args.repeat, None),
    }
    baseline = plies / results["python-chess read_game"]
    for name, seconds in results.items():
        rate = plies / seconds
        print(f"{name:30} {seconds * 1000:8.1f} ms  {rate:10,.0f} plies/s  x{rate / baseline:5.2f}")
    cold = plies / results["gcadj parse_log (cold memo)"]
    print(f"ratio parse_log (cold) / read_game: {cold / baseline:.2f}")


if __name__ == "__main__":
    main()
