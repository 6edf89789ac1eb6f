"""The gcadj program the benches start: the console script installed beside the running
interpreter, so ``venv/bin/python bench/X.py`` measures that venv's build.

``python -m gcadj`` would not do: it puts the current folder first on the module path,
so from a checkout it runs the source tree (pure Python) whatever is installed.
"""

from __future__ import annotations

import platform
import subprocess
import sys
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
