"""Speed of the writers on judged games: each export format over the same long random games,
against another checkout of gcadj (a baseline), as a ratio.

Every writer reads one walk over the judged game (`gcadj.judging.plies`), replaying the
judge's moves with `Position.push_trusted`; before that walk, each writer replayed the game
itself with the checked `Position.push` (a second legality test of every move), and the
Game Courier and FEN writers made every SAN too. This measures what that costs: the games
are judged once (not timed), then each format is written in memory, several times, and
the best time is kept (the machine is shared; the best run is the least disturbed).

The games are random legal games of the variant (seeded, biased to drops, pocketing and en
passant), so they need no data file: ``--games 60 --plies 400`` gives about 23,000 plies.

Run: ``python bench/bench_export.py [--games 60] [--plies 400] [--baseline DIR]``.
``--baseline DIR`` runs the same measurement on the gcadj of DIR (a source tree, such as
``git worktree add /tmp/base <commit>``) in a second process and prints the speed-up.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

FORMATS = ("pgn", "gc", "fen", "json", "html")


def random_games(count: int, plies: int) -> list[str]:
    """`count` random legal logs of up to `plies` plies (only those of 250 plies or more)."""
    from gcadj.engine.position import Position
    from gcadj.notation.san import gc_text

    logs: list[str] = []
    seed = 0
    while len(logs) < count:
        rng = random.Random(seed)
        seed += 1
        position = Position()
        lines = []
        for _ in range(plies):
            moves = position.legal_moves()
            if not moves or position.outcome() is not None:
                break
            special = [m for m in moves if m.from_square >= 64 or m.to_square >= 64]
            move = rng.choice(special if special and rng.random() < 0.4 else moves)
            lines.append(gc_text(position, move))
            position.push(move)
        if len(lines) >= min(250, plies):
            logs.append("\n".join(lines) + "\n")
    return logs


def measure(count: int, plies: int, rounds: int) -> dict[str, float]:
    """Best seconds per format for writing every game once, in this process's gcadj."""
    from gcadj.app.check import check_text
    from gcadj.outputs.game_export import export_game
    from gcadj.outputs.viewer import write_viewer

    verdicts = [check_text(text) for text in random_games(count, plies)]
    best = {"plies": float(sum(v.plies for v in verdicts))}
    for fmt in FORMATS:
        times = []
        for _ in range(rounds):
            started = time.perf_counter()
            for verdict in verdicts:
                if fmt == "html":  # a baseline may not know html as an export format
                    write_viewer(verdict)
                else:
                    export_game(verdict, fmt)
            times.append(time.perf_counter() - started)
        best[fmt] = min(times)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--plies", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="another gcadj source tree")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    figures = measure(options.games, options.plies, options.rounds)
    if options.json:
        print(json.dumps(figures))
        return
    base = None
    if options.baseline is not None:
        env = {**os.environ, "PYTHONPATH": str(options.baseline.resolve())}
        args = [sys.executable, __file__, "--json", f"--games={options.games}"]
        args += [f"--plies={options.plies}", f"--rounds={options.rounds}"]
        done = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
        base = json.loads(done.stdout)
    plies = figures["plies"]
    print(f"{options.games} games, {plies:,.0f} plies, best of {options.rounds}")
    for fmt in FORMATS:
        line = f"  --to {fmt:<4} {figures[fmt]:6.3f} s  {plies / figures[fmt]:9,.0f} plies/s"
        if base is not None:
            line += f"   baseline {base[fmt]:6.3f} s   speed-up {base[fmt] / figures[fmt]:.2f}x"
        print(line)


if __name__ == "__main__":
    main()
