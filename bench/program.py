"""The gcadj program the benches start: the console script installed beside the running
interpreter, so ``venv/bin/python bench/X.py`` measures that venv's build.

``python -m gcadj`` would not do: it puts the current folder first on the module path,
so from a checkout it runs the source tree (pure Python) whatever is installed.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

GCADJ = str(Path(sys.executable).parent / "gcadj")


def build_of_program() -> str:
    """What `GCADJ --version` says it is (which build, compiled or pure)."""
    done = subprocess.run([GCADJ, "--version"], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def cpu_name() -> str:
    """The processor's model name, for a bench's first line (where /proc/cpuinfo says it)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


@contextmanager
def served(tree: Path | None, flags: list[str]) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``gcadj serve --port 0 FLAGS`` running, with its address: `GCADJ`, or the source
    checkout `tree` run as ``python -m gcadj`` (a baseline), its files in a temporary
    folder of its own; stopped with Ctrl-C (SIGINT) when the block ends."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [GCADJ]
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
        command = [sys.executable, "-m", "gcadj"]
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        env["TMPDIR"] = tmp
        env["XDG_DATA_HOME"] = tmp
        process = subprocess.Popen(
            [*command, "serve", "--port", "0", *flags],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
            cwd=tree,
        )
        assert process.stdout is not None
        url = process.stdout.readline().split()[2]
        try:
            yield process, url
        finally:
            process.send_signal(2)
            process.wait(30)
