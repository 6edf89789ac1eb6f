"""Perft speed: gcadj against python-chess, on the same orthodox positions, in one run.

    python bench/bench_perft.py [--repeat 5] [--shallower 1]

Both engines walk the tree the same way: legal moves counted at the last level, moves
made and unmade above it (python-chess: ``board.legal_moves.count()`` and push/pop;
gcadj: `Position.perft`, which does exactly that). Every timing is the median CPU time of
`--repeat` rounds in which the engines take turns; nodes per second = leaf nodes / median
seconds. Run it with the interpreter of the build to measure (it prints which).
`--shallower N` takes N plies off every depth (at least 1 remains): a quick before/after
comparison of a change.

The positions are orthodox and have no castling rights, but Pocket Mutation Chess still
has more moves than chess in them (pocketings, then drops), so two gcadj figures are
given:

* ``gcadj`` -- its own perft, the PMC tree (more nodes than chess's);
* ``same tree`` -- gcadj's perft walking only the board moves
  (``Position.perft(depth, pockets=False)``), which is chess's tree without castling:
  the node counts must equal python-chess's (checked), so this is the like-for-like
  speed ratio.

python-chess is GPL and only used here and in the tests, never by gcadj itself.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable

import chess
from program import cpu_name

from gcadj.about import build_flavour
from gcadj.engine.position import Position

# (name, FEN without pockets or castling rights, depth)
POSITIONS = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", 4),
    ("italian", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w - - 4 4", 3),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1", 3),
    ("qgd-middlegame", "r2q1rk1/pp1nbppp/2p1pn2/3p4/2PP1B2/2N1PN2/PP3PPP/R2QKB1R w - - 0 9", 3),
    ("endgame-cpw3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
]


def chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += chess_perft(board, depth - 1)
        board.pop()
    return total


def alternating(runs: dict[str, Callable[[], int]], repeat: int) -> dict[str, tuple[int, float]]:
    """Each engine's (nodes, median CPU seconds) over `repeat` rounds, the engines taking
    turns within each round, so that a change in the machine's load hits them alike."""
    times: dict[str, list[float]] = {engine: [] for engine in runs}
    nodes: dict[str, int] = {}
    for _ in range(repeat):
        for engine, run in runs.items():
            start = time.process_time()
            nodes[engine] = run()
            times[engine].append(time.process_time() - start)
    return {engine: (nodes[engine], statistics.median(times[engine])) for engine in runs}


def to_gcadj_fen(fen: str) -> str:
    board, rest = fen.split(" ", 1)
    return f"{board}[] {rest}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (median)")
    parser.add_argument(
        "--shallower", type=int, default=0, help="plies taken off every depth (quick runs)"
    )
    args = parser.parse_args()

    print(
        f"{platform.python_implementation()} {platform.python_version()}, {cpu_name()}, "
        f"{os.cpu_count()} cores, python-chess {chess.__version__}, gcadj {build_flavour()}, "
        f"CPU time, median of {args.repeat} alternating rounds"
    )
    header = f"{'position':16} {'d':>1} {'engine':10} {'nodes':>10} {'seconds':>8} {'nodes/s':>11}"
    print(header)
    print("-" * len(header))
    totals: dict[str, tuple[int, float]] = dict.fromkeys(
        ("python-chess", "gcadj", "same tree"), (0, 0.0)
    )
    for name, fen, full_depth in POSITIONS:
        depth = max(1, full_depth - args.shallower)
        board = chess.Board(fen)
        runs = {
            "python-chess": lambda b=board, d=depth: chess_perft(b, d),
            "gcadj": lambda f=fen, d=depth: Position(to_gcadj_fen(f)).perft(d),
            "same tree": lambda f=fen, d=depth: Position(to_gcadj_fen(f)).perft(d, pockets=False),
        }
        results = alternating(runs, args.repeat)
        if results["same tree"][0] != results["python-chess"][0]:
            raise SystemExit(f"{name}: same-tree node count differs from python-chess's")
        for engine, (nodes, seconds) in results.items():
            totals[engine] = (totals[engine][0] + nodes, totals[engine][1] + seconds)
            print(
                f"{name:16} {depth:>1} {engine:10} {nodes:>10,} {seconds:>8.3f} "
                f"{nodes / seconds:>11,.0f}"
            )
    print("-" * len(header))
    rate = {engine: nodes / seconds for engine, (nodes, seconds) in totals.items()}
    for engine, (nodes, seconds) in totals.items():
        print(f"{'all':16} {'':>1} {engine:10} {nodes:>10,} {seconds:>8.3f} {rate[engine]:>11,.0f}")
    print(
        f"ratio gcadj/python-chess, nodes per second: {rate['gcadj'] / rate['python-chess']:.2f}x "
        f"(PMC perft); {rate['same tree'] / rate['python-chess']:.2f}x (same tree)"
    )


if __name__ == "__main__":
    main()
