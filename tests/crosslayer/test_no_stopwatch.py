"""No unit test times anything (issue 20, item 5): a test that compares wall-clock times
fails on a loaded machine and blocks good work. Speed targets live in bench/, which prints
ratios; a test counts work instead (calls made, bytes sent) or injects a clock
(`gcadj.sources.fetch.Fetcher(clock=..., sleep=...)`). Reading the clock to bound a wait
for something to happen (a hang guard: ``deadline = time.monotonic() + 60``) is allowed.
"""

from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT

STOPWATCH = re.compile(
    r"perf_counter|process_time|\btimeit\b"  # made for measuring
    r"|(?:monotonic|time)\(\)\s*-(?!\s*>)"  # now - start
    r"|-\s*(?:time\.)?(?:monotonic|time)\(\)"  # ... - now
)


def test_no_test_reads_a_stopwatch() -> None:
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.resolve() == Path(__file__).resolve():
            continue  # this file names the stopwatches in order to forbid them
        if path.name == "reference_mate.py":
            continue  # the old prover, kept verbatim: it reports its search's seconds as
            # its API did; no test reads them (bench/bench_deep_mates.py times it)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if STOPWATCH.search(code):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_rule_sees_the_stopwatches_it_forbids() -> None:
    for line in (
        "start = time.perf_counter()",
        "assert time.monotonic() - start < 2",
        "elapsed = time.time() - t0",
        "took = end - time.monotonic()",
    ):
        assert STOPWATCH.search(line), line
    for line in ("deadline = time.monotonic() + 60", "while time.monotonic() < deadline:"):
        assert not STOPWATCH.search(line), line
