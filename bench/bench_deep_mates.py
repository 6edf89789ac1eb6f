"""Deeper proofs: the prover against the one it replaced, side by side in one run.

    python bench/bench_deep_mates.py [--reference PYTHON] [--only NAME] [--skip NAME]
                                     [--old-seconds 300]
    python bench/bench_deep_mates.py --endings [--count 8] [--depth 8] [--old-seconds 300]

The positions are bench/data/adjudicate/deep.tsv: mates in 4 to 6 (endings of a King and
a Queen or a Rook against a bare King, random endgames of few pieces) and middlegames of
the sample games with no mate within 4 or 5. For each, with the interpreter that runs
this script:

* the new prover (`gcadj.analysis.search.search_mate` to the file's depth): its answer,
  checked against the file's, its nodes and CPU seconds, its proof accepted by the proof
  checker written as a tree and as a graph, and the whole adjudication
  (`gcadj.adjudicate_position`: the search, the proof written out and accepted by the
  checker), CPU seconds;
* the old one, on the same question: by default tests/reference_mate.py (the prover
  before issue 38, kept as it was) in this process, which runs its search as plain
  Python over this build's engine; with ``--reference PYTHON``, the ``search_mate`` of
  the gcadj installed for PYTHON (a venv of the previous release, compiled as this one
  is: the fair comparison), in a child process whose own CPU time is measured. It is
  given ``--old-seconds`` of wall clock per position; one cut there counts in no ratio.

With ``--endings``, the endings of a King and one piece (on the board or in the pocket)
against a bare King, from ``--count`` random positions each (a fixed seed, the weaker side's
King not in check, White to move): the adjudication with the default options (depth,
budget), and the shortest mate within ``--depth``, cut after ``--old-seconds``; CPU
seconds.

Targets (issue 38, compiled build, CPU time, 2 cores): at least 10x the old prover on the
same "no mate within 5" questions; a mate in 5 in a median of 0.3 s or less; "no mate
within 5" on a middlegame in 30 s or less; K+R vs K and K+Q vs K proved in 30 s or less.
The peak memory of the process (ru_maxrss) is printed at the end, to compare with the
table's bound.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from gcadj.about import build_flavour
from gcadj.analysis.adjudicator import AdjudicateOptions, adjudicate_position
from gcadj.analysis.options import DEFAULT_TABLE_MB
from gcadj.analysis.proof import graph_json, proof_json, tree_json
from gcadj.analysis.proof_check import check_proof
from gcadj.analysis.search import search_mate
from gcadj.engine.fen import format_fen
from gcadj.engine.pieces import PIECE, Piece
from gcadj.engine.position import Position
from gcadj.errors import FenError
from gcadj.vocabulary import AdjudicationClass

BENCH = Path(__file__).resolve().parent
POSITIONS = BENCH / "data" / "adjudicate" / "deep.tsv"
sys.path.insert(0, str(BENCH.parent / "tests"))  # the old prover, kept by the tests

import reference_mate  # noqa: E402
from program import cpu_name  # noqa: E402

# Run by the reference interpreter: one question a line on stdin, one answer a line out.
CHILD = """
import json, sys, time
import gcadj.analysis.search
from gcadj.analysis.search import search_mate
from gcadj.engine.position import Position
print(json.dumps({"module": gcadj.analysis.search.__file__}), flush=True)
for line in sys.stdin:
    ask = json.loads(line)
    position = Position(ask["fen"])
    start = time.process_time()
    result = search_mate(position, ask["depth"], seconds=ask["seconds"])
    cpu = time.process_time() - start
    proof = result.proof
    answer = None if proof is None else [proof.winner == position.turn, proof.moves]
    print(json.dumps({"answer": answer, "cut": result.cut, "nodes": result.nodes,
                      "cpu": cpu}), flush=True)
"""


@dataclass(frozen=True)
class Case:
    name: str
    expected: str  # "for N", "against N", "none N"
    depth: int
    fen: str


@dataclass(frozen=True)
class Run:
    answer: str  # in the file's words; "cut" when the search was cut
    nodes: int
    cpu: float


def load(only: str | None, skip: str | None = None) -> list[Case]:
    cases = []
    for line in POSITIONS.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, expected, depth, fen, _where = line.split("\t")
        if (only is None or name.startswith(only)) and not (skip and name.startswith(skip)):
            cases.append(Case(name, expected, int(depth), fen))
    return cases


def words(answer: list[object] | None, depth: int, cut: str | None) -> str:
    if cut is not None:
        return "cut"
    if answer is None:
        return f"none {depth}"
    return f"{'for' if answer[0] else 'against'} {answer[1]}"


def new_run(case: Case) -> Run:
    """The new prover's answer; its proof, if any, accepted by the checker in both forms
    (not timed)."""
    position = Position(case.fen)
    start = time.process_time()
    result = search_mate(position, case.depth)
    cpu = time.process_time() - start
    proof = result.proof
    answer = None if proof is None else [proof.winner == position.turn, proof.moves]
    if proof is not None:
        winner = ("white", "black")[proof.winner]
        for tree in (tree_json(position, proof.tree), graph_json(position, proof.tree)):
            checked = check_proof(position, tree, winner=winner, moves=proof.moves)
            if not checked.accepted:
                raise SystemExit(f"{case.name}: the checker rejects a proof: {checked.reason}")
    return Run(words(answer, case.depth, result.cut), result.nodes, cpu)


def old_run(case: Case, child: subprocess.Popen[str] | None, seconds: float) -> Run:
    if child is None:
        position = Position(case.fen)
        start = time.process_time()
        result = reference_mate.search_mate(position, case.depth, seconds=seconds)
        cpu = time.process_time() - start
        proof = result.proof
        answer = None if proof is None else [proof.winner == position.turn, proof.moves]
        return Run(words(answer, case.depth, result.cut), result.nodes, cpu)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(json.dumps({"fen": case.fen, "depth": case.depth, "seconds": seconds}))
    child.stdin.write("\n")
    child.stdin.flush()
    got = json.loads(child.stdout.readline())
    return Run(words(got["answer"], case.depth, got["cut"]), got["nodes"], got["cpu"])


def adjudication_cpu(case: Case) -> float:
    options = AdjudicateOptions(mate_depth=case.depth, budget=None)
    start = time.process_time()
    adjudicate_position(Position(case.fen), options)
    return time.process_time() - start


ENDING_PIECES = ("Q", "R", "@Q", "@R")
"""The endings measured: a piece on the board, or (after @) in White's pocket."""


def ending_positions(piece: str, count: int, seed: int = 38) -> list[Position]:
    """`count` random positions of White's King and `piece` against Black's bare King,
    White to move, Black not in check and the game going on."""
    rng = random.Random(f"{seed}{piece}")
    found: list[Position] = []
    while len(found) < count:
        board: list[Piece | None] = [None] * 64
        king, enemy, square = rng.sample(range(64), 3)
        board[king], board[enemy] = PIECE["K"], PIECE["k"]
        held = PIECE[piece[-1]] if piece.startswith("@") else None
        if held is None:
            board[square] = PIECE[piece]
        try:
            position = Position(format_fen(board, [held, None], 0, None, 0, 40))
        except FenError:
            continue
        if position.outcome() is None and not position.is_check():
            found.append(position)
    return found


def endings(count: int, depth: int, cap: float) -> None:
    """The endings table: per ending, how many random positions the defaults prove and
    how long the adjudication took, and the shortest mates within `depth` (each search
    cut after `cap` seconds of wall clock)."""
    print(
        f"{platform.python_implementation()} {platform.python_version()}, {cpu_name()}, "
        f"{os.cpu_count()} cores (load {os.getloadavg()[0]:.1f}), gcadj {build_flavour()}, "
        f"CPU seconds; {count} random positions an ending; defaults: {AdjudicateOptions()}"
    )
    for piece in ENDING_PIECES:
        proven = 0
        times: list[float] = []
        lengths: list[str] = []
        for position in ending_positions(piece, count):
            start = time.process_time()
            adjudication = adjudicate_position(position.copy())
            times.append(time.process_time() - start)
            proven += adjudication.kind is AdjudicationClass.PROVEN
            start = time.process_time()
            result = search_mate(position, depth, seconds=cap)
            cpu = time.process_time() - start
            proof = result.proof
            moves = "none" if proof is None else str(proof.moves)
            if result.cut is not None:
                moves = f"none within {result.no_mate_within}, cut"
            lengths.append(f"{moves} in {cpu:.2f} s")
            if proof is not None:
                winner = ("white", "black")[proof.winner]
                checked = check_proof(
                    position, proof_json(position, proof), winner=winner, moves=proof.moves
                )
                if not checked.accepted:
                    raise SystemExit(f"{position.fen()}: the checker rejects: {checked.reason}")
        print(
            f"K+{piece} vs K: defaults proved {proven} of {count}, adjudication median "
            f"{statistics.median(times):.2f} s, max {max(times):.2f} s; within {depth}: "
            + ", ".join(lengths),
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", help="a Python with the previous release installed")
    parser.add_argument("--only", help="only the positions whose name starts with this")
    parser.add_argument("--skip", help="leave out the positions whose name starts with this")
    parser.add_argument("--old-seconds", type=float, default=300.0, help="the old one's cap")
    parser.add_argument("--endings", action="store_true", help="the endings' table instead")
    parser.add_argument("--count", type=int, default=8, help="random positions an ending")
    parser.add_argument("--depth", type=int, default=8, help="the endings' deeper search")
    args = parser.parse_args()
    if args.endings:
        endings(args.count, args.depth, args.old_seconds)
        return
    cases = load(args.only, args.skip)
    child = None
    module = ""
    if args.reference:
        # Run from elsewhere: `python -c` puts its working directory first on the path,
        # and from this checkout it would import this gcadj, not the reference's.
        child = subprocess.Popen(
            [args.reference, "-c", CHILD],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=tempfile.gettempdir(),
        )
        assert child.stdout is not None
        module = json.loads(child.stdout.readline())["module"]
        if Path(module).resolve().is_relative_to(BENCH.parent):
            raise SystemExit(f"the reference imports this checkout's prover: {module}")
    load_average = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    old_name = (
        f"old: {args.reference} ({module})" if args.reference else "old: tests/reference_mate.py"
    )
    print(
        f"{platform.python_implementation()} {platform.python_version()}, {cpu_name()}, "
        f"{os.cpu_count()} cores (load {load_average:.1f}), gcadj {build_flavour()}, "
        f"CPU seconds; {old_name}"
    )
    head = (
        f"{'position':16} {'question':9} {'answer':9} {'new nodes':>10} {'new s':>8} "
        f"{'answer s':>8} {'old nodes':>11} {'old s':>8} {'ratio':>7}"
    )
    print(head)
    print("-" * len(head))
    rows = []
    for case in cases:
        new = new_run(case)
        if new.answer != case.expected:
            raise SystemExit(f"{case.name}: expected {case.expected}, the prover says {new.answer}")
        whole = adjudication_cpu(case)
        old = old_run(case, child, args.old_seconds)
        if old.answer not in ("cut", new.answer):
            raise SystemExit(f"{case.name}: the old prover says {old.answer}, the new {new.answer}")
        ratio = "" if old.answer == "cut" else f"{old.cpu / max(new.cpu, 1e-6):.1f}x"
        old_s = f">{old.cpu:.1f}" if old.answer == "cut" else f"{old.cpu:.3f}"
        print(
            f"{case.name:16} {'within ' + str(case.depth):9} {new.answer:9} {new.nodes:>10,} "
            f"{new.cpu:>8.3f} {whole:>8.3f} {old.nodes:>11,} {old_s:>8} {ratio:>7}",
            flush=True,
        )
        rows.append((case, new, whole, old))
    if child is not None:
        assert child.stdin is not None
        child.stdin.close()
        child.wait()
    summarize(rows)


def summarize(rows: list[tuple[Case, Run, float, Run]]) -> None:
    print()
    done = [(new, old) for _, new, _, old in rows if old.answer != "cut"]
    if done:
        old_total = sum(old.cpu for _, old in done)
        new_total = sum(new.cpu for new, _ in done)
        print(
            f"on the {len(done)} questions the old prover finished: {old_total:.2f} s against "
            f"{new_total:.2f} s, {old_total / max(new_total, 1e-6):.1f}x"
        )
    for n in range(4, 11):
        times = [
            whole for case, _, whole, _ in rows if case.expected in (f"for {n}", f"against {n}")
        ]
        if times:
            print(
                f"mate in {n}: time to the answer, median {statistics.median(times):.3f} s, "
                f"max {max(times):.3f} s ({len(times)} positions)"
            )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1000
    print(f"peak memory of this process: {peak:.0f} MB (the table's bound: {DEFAULT_TABLE_MB} MB)")


if __name__ == "__main__":
    main()
