"""The gcadj program the benches start: the console script installed beside the running
interpreter, so ``venv/bin/python bench/X.py`` measures that venv's build.

``python -m gcadj`` would not do: it puts the current folder first on the module path,
so from a checkout it runs the source tree (pure Python) whatever is installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

GCADJ = str(Path(sys.executable).parent / "gcadj")


def build_of_program() -> str:
    """What `GCADJ --version` says it is (which build, compiled or pure)."""
    done = subprocess.run([GCADJ, "--version"], capture_output=True, text=True, check=True)
    return done.stdout.strip()
