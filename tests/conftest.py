"""Shared test helpers: fixture paths resolved from this file, never the working directory,
and the hypothesis profiles that make property tests deterministic in CI.

Profiles: with ``CI=true`` (set by ``.ci/run``) every property test runs derandomized (the
same examples on every run, no example database, no deadline), so a red CI is a real
finding and never a roll of the dice. ``bench/fuzz_long.py`` selects the ``fuzz`` profile
and multiplies every property's budget by ``GCADJ_FUZZ_SCALE`` (see `budget`): random
seeds and many more examples, for developers hunting bugs rather than for CI.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

settings.register_profile("ci", derandomize=True, deadline=None, database=None)
settings.register_profile("fuzz", derandomize=False, deadline=None, database=None)
if os.environ.get("CI", "").lower() == "true":
    settings.load_profile("ci")
elif os.environ.get("GCADJ_HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["GCADJ_HYPOTHESIS_PROFILE"])

FUZZ_SCALE = max(1, int(os.environ.get("GCADJ_FUZZ_SCALE", "1") or "1"))


def budget(examples: int) -> int:
    """A property's number of examples: fixed in CI and by default, scaled by fuzz_long."""
    return examples * FUZZ_SCALE


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES
