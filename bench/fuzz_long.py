"""Run the robustness properties with a large random budget: for developers, not for CI.

CI runs every hypothesis property derandomized with a fixed budget (tests/conftest.py), so
it is deterministic and quick. This script runs the same properties with random seeds and
``--scale`` times as many examples (`GCADJ_FUZZ_SCALE`, the ``fuzz`` profile), to find what
the fixed examples miss. A failure prints the falsifying example and a
``@reproduce_failure`` line to paste above the test; turn it into a plain regression test.

The properties: any bytes into ``gcadj check`` and any text into ``check_text``; random
literal sub-moves into the judge (tests/crosslayer/test_reliability_properties.py); the
judge against the brute-force oracle on legal and corrupted plies
(tests/judging/test_adjudicator_properties.py); any log the grammar generates
(tests/judging/test_adjudicator_robust.py); and the parser's two paths
(tests/notation/test_parse_props.py, scaled through GCADJ_PARSE_EXAMPLES).

Run: ``python bench/fuzz_long.py [--scale 50] [-k NAME] [--minutes M]``; ``--minutes`` stops
the run after about that long (pytest's own time-out per test is not used: one slow
example is a finding too).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROPERTIES = (
    "tests/crosslayer/test_reliability_properties.py",
    "tests/judging/test_adjudicator_properties.py",
    "tests/judging/test_adjudicator_robust.py",
    "tests/notation/test_parse_props.py",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=50, help="examples × this (default 50)")
    parser.add_argument("-k", default=None, help="only the properties matching (pytest -k)")
    parser.add_argument("--minutes", type=float, default=None, help="stop after about this")
    options = parser.parse_args()
    env = {
        **os.environ,
        "CI": "",  # the CI profile would derandomize
        "GCADJ_HYPOTHESIS_PROFILE": "fuzz",
        "GCADJ_FUZZ_SCALE": str(options.scale),
        "GCADJ_PARSE_EXAMPLES": str(200 * options.scale),
    }
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-x", "-q", *PROPERTIES]
    command += ["--hypothesis-show-statistics"]
    if options.k:
        command += ["-k", options.k]
    print(f"fuzz: {options.scale}× the CI budget, random seeds: {' '.join(command[3:])}")
    try:
        timeout = options.minutes * 60 if options.minutes else None
        return subprocess.run(command, cwd=ROOT, env=env, timeout=timeout).returncode
    except subprocess.TimeoutExpired:
        print(f"fuzz: stopped after {options.minutes} minutes without a failure")
        return 0


if __name__ == "__main__":
    sys.exit(main())
