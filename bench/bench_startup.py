"""Start-up: the CPU time of `gcadj check` on a one-ply log against `python -c "import chess.pgn"`.

    python bench/bench_startup.py [--rounds 21] [--gcadj PATH]

Checking one small game is mostly start-up: the interpreter, typer, and the modules that
checking needs. The peer is python-chess's PGN reader, imported by the same interpreter.
Each round runs both as processes, side by side, and takes their CPU time (user + system,
from `os.wait4`), which other load on a shared machine disturbs far less than wall time;
the median over the rounds is reported, with the ratio (target <= 1.2). Also measured,
to show where gcadj's share goes: the bare interpreter (`python -c pass`), `import typer`
(the CLI library, kept), and `gcadj --version` (typer and the command table, no judging).

`--gcadj` names the gcadj program to time; by default the one beside this interpreter,
so run the bench with the python of the install to measure (editable: pure; a venv with
the compiled wheel: compiled). It prints which build that is.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# Children may write their byte-code caches, as on a user's machine (an environment that
# forbids it would make every start compile gcadj's sources again).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cpu_seconds(args: list[str]) -> float:
    """User + system CPU seconds of one process run to its end (output discarded)."""
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} exited with {process.returncode}")
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--gcadj", default=str(Path(sys.executable).parent / "gcadj"))
    args = parser.parse_args()
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "one-ply.txt"
        log.write_text("P e2-e4\n", encoding="utf-8")
        commands = {
            "python -c pass": [python, "-c", "pass"],
            "python -c 'import typer'": [python, "-c", "import typer"],
            "python -c 'import chess.pgn'": [python, "-c", "import chess.pgn"],
            "gcadj --version": [args.gcadj, "--version"],
            "gcadj check one-ply.txt": [args.gcadj, "check", str(log)],
        }
        flavour = subprocess.run(
            [args.gcadj, "--version"], capture_output=True, text=True, check=True
        ).stdout.strip()
        print(f"{flavour}; Python {sys.version.split()[0]}; {args.rounds} rounds, CPU time")
        for command in commands.values():  # warm the file cache and the byte-code caches
            cpu_seconds(command)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.rounds):
            for name, command in commands.items():
                times[name].append(cpu_seconds(command))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, value in medians.items():
        print(f"  {name:<30} {value * 1000:6.1f} ms")
    ratio = medians["gcadj check one-ply.txt"] / medians["python -c 'import chess.pgn'"]
    per_round = sorted(
        a / b
        for a, b in zip(
            times["gcadj check one-ply.txt"], times["python -c 'import chess.pgn'"], strict=True
        )
    )
    typer_ms = (medians["python -c 'import typer'"] - medians["python -c pass"]) * 1000
    print(
        f"gcadj check / import chess.pgn: {ratio:.2f} (target <= 1.2; per round "
        f"{per_round[0]:.2f}-{per_round[-1]:.2f}); importing typer costs {typer_ms:.0f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
