"""Mate-prover speed: gcadj's prover against a naive exhaustive search, on fixed positions.

    python bench/bench_adjudicate.py [--naive-nodes 300000] [--only for2]

The positions are bench/data/adjudicate/positions.tsv (from real master games; how they
were chosen: bench/make_adjudicate_positions.py): mates in 1, 2 and 3 for the side to move,
mates against it in 1 and 2, and positions with no mate within 3, pockets empty and full.
For each, in the same run and with the build of the interpreter that runs this script:

* the prover (`gcadj.analysis.search.search_mate`, depth 3): its answer (checked against
  the file's), nodes, nodes per second and CPU seconds;
* the whole adjudication (`gcadj.adjudicate_position`: the search, the proof tree written
  out and accepted by the proof checker, the material), CPU seconds: the time to the answer
  a user gets;
* the naive search of the tests (tests/naive_mate.py: every move at every node, no table,
  no ordering, no shortcut at the last move) over `Position.legal_moves`, for the same
  shortest mate, in plain Python: CPU seconds and its ratio to the prover's search. It is
  capped at ``--naive-nodes`` moves per position; a capped position says so and counts in
  no ratio (a mate in 3 is 60^5 leaves for it: it never finishes one).

Targets (issue 31, compiled build, CPU time, 2 cores): at least 10x the naive search; a mate
in 2 proved in a median of 0.5 s or less; a mate in 3 in a median of 5 s or less and never
over 30 s (the adjudication's time, proof check included).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gcadj.about import build_flavour
from gcadj.analysis.adjudicator import AdjudicateOptions, adjudicate_position
from gcadj.analysis.search import search_mate
from gcadj.engine.position import Position

BENCH = Path(__file__).resolve().parent
POSITIONS = BENCH / "data" / "adjudicate" / "positions.tsv"
sys.path.insert(0, str(BENCH.parent / "tests"))  # the naive search of the tests

from naive_mate import NaiveSearch  # noqa: E402
from program import cpu_name  # noqa: E402

DEPTH = 3


@dataclass(frozen=True)
class Case:
    name: str
    expected: str  # "for N", "against N", "none 3"
    fen: str


@dataclass(frozen=True)
class Timing:
    answer: str
    nodes: int
    search: float
    adjudication: float
    naive: float | None  # None: capped
    naive_nodes: int


def load(only: str | None) -> list[Case]:
    cases = []
    for line in POSITIONS.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, expected, fen, _where = line.split("\t")
        if only is None or name.startswith(only):
            cases.append(Case(name, expected, fen))
    return cases


def answer_of(position: Position, depth: int) -> tuple[str, int]:
    result = search_mate(position, depth)
    if result.proof is None:
        return f"none {depth}", result.nodes
    side = "for" if result.proof.winner == position.turn else "against"
    return f"{side} {result.proof.moves}", result.nodes


def cpu(work: Callable[[], object]) -> float:
    """The CPU seconds `work` takes."""
    start = time.process_time()
    work()
    return time.process_time() - start


def measure(case: Case, naive_nodes: int) -> Timing:
    position = Position(case.fen)
    found: list[tuple[str, int]] = []
    search = cpu(lambda: found.append(answer_of(position, DEPTH)))
    answer, nodes = found[0]
    options = AdjudicateOptions(mate_depth=DEPTH, budget=None)
    adjudication = cpu(lambda: adjudicate_position(position, options))
    naive = NaiveSearch(Position.legal_moves, None, node_limit=naive_nodes)
    naive_answer: list[tuple[str, int] | None] = []
    try:
        naive_time: float | None = cpu(lambda: naive_answer.append(naive.shortest(position, DEPTH)))
    except TimeoutError:
        naive_time = None
    if naive_answer:
        shortest = naive_answer[0]
        said = f"none {DEPTH}" if shortest is None else f"{shortest[0]} {shortest[1]}"
        if said != answer:
            raise SystemExit(f"{case.name}: the naive search says {said}, the prover {answer}")
    return Timing(answer, nodes, search, adjudication, naive_time, naive.nodes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--naive-nodes", type=int, default=300_000, help="moves the naive search may play"
    )
    parser.add_argument("--only", help="only the positions whose name starts with this")
    args = parser.parse_args()
    cases = load(args.only)
    load_average = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{platform.python_implementation()} {platform.python_version()}, {cpu_name()}, "
        f"{os.cpu_count()} cores (load {load_average:.1f}), gcadj {build_flavour()}, CPU time"
    )
    head = (
        f"{'position':18} {'answer':10} {'nodes':>9} {'nodes/s':>9} {'search s':>9} "
        f"{'answer s':>9} {'naive s':>9} {'ratio':>7}"
    )
    print(head)
    print("-" * len(head))
    timings: dict[str, Timing] = {}
    for case in cases:
        timing = measure(case, args.naive_nodes)
        if timing.answer != case.expected:
            raise SystemExit(
                f"{case.name}: expected {case.expected}, the prover says {timing.answer}"
            )
        timings[case.name] = timing
        rate = timing.nodes / timing.search if timing.search > 0 else float("inf")
        naive = "capped" if timing.naive is None else f"{timing.naive:.3f}"
        ratio = "" if timing.naive is None else f"{timing.naive / max(timing.search, 1e-6):.0f}x"
        print(
            f"{case.name:18} {timing.answer:10} {timing.nodes:>9,} {rate:>9,.0f} "
            f"{timing.search:>9.3f} {timing.adjudication:>9.3f} {naive:>9} {ratio:>7}",
            flush=True,
        )
    summarize(cases, timings, args.naive_nodes)


def summarize(cases: list[Case], timings: dict[str, Timing], naive_nodes: int) -> None:
    print()
    done = [t for t in timings.values() if t.naive is not None]
    capped = len(timings) - len(done)
    if done:
        naive_total = sum(t.naive or 0.0 for t in done)
        prover_total = sum(t.search for t in done)
        print(
            f"naive search finished {len(done)} of {len(timings)} positions ({capped} capped at "
            f"{naive_nodes:,} moves): {naive_total:.2f} s against the prover's "
            f"{prover_total:.3f} s on them, {naive_total / max(prover_total, 1e-6):.0f}x"
        )
    nodes = sum(t.nodes for t in timings.values())
    seconds = sum(t.search for t in timings.values())
    print(f"prover: {nodes:,} nodes in {seconds:.2f} s, {nodes / max(seconds, 1e-6):,.0f} nodes/s")
    for n in (1, 2, 3):
        mates = (f"for {n}", f"against {n}")
        answers = [timings[c.name].adjudication for c in cases if c.expected in mates]
        if answers:
            print(
                f"mate in {n} (for or against the side to move), time to the answer: median "
                f"{statistics.median(answers):.3f} s, max {max(answers):.3f} s "
                f"({len(answers)} positions)"
            )


if __name__ == "__main__":
    main()
