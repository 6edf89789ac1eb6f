"""The audit writes in the order of the sources, speaks like check, and outlives its workers.

Real ``gcadj audit`` processes with real worker processes; deaths are real SIGKILLs: one
asked of a worker by the fault hook `KILL_ENV` (as the OOM killer would kill it), one sent
from outside, by pid, to the worker the hook `HANG_ENV` stalls.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES, ROOT
from random_games import random_game

from gcadj.app.workers import HANG_ENV, KILL_ENV, blame, death_words

GCADJ = [sys.executable, "-m", "gcadj"]
EXAMPLES = sorted((FIXTURES / "examples").glob("*.txt"))
LONG = sorted((FIXTURES / "logs" / "legal").glob("*.txt"))


def make_corpus(folder: Path, count: int) -> list[Path]:
    """`count` logs named so that the walk gives them in creation order: the examples and
    the legal fixture logs over and over, and every seventh a random game of up to 300
    plies, many times the work of the others, so that with two workers the batches
    finish out of order."""
    folder.mkdir()
    texts = [p.read_bytes() for p in [*EXAMPLES, *LONG]]
    rng = random.Random(count)
    paths = []
    for number in range(count):
        text = texts[number % len(texts)]
        if number % 7 == 3:
            plies, _ = random_game(rng, rng.randrange(100, 300))
            text = ("\n".join(plies) + "\n").encode()
        path = folder / f"game{number:04d}.txt"
        path.write_bytes(text)
        paths.append(path)
    return paths


def audit(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GCADJ, "audit", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def sources_of(jsonl: Path) -> list[str]:
    return re.findall(r'^\{"source": "([^"]+)"', jsonl.read_text(encoding="utf-8"), re.M)


# ---------------------------------------------------------------------------------------
# Source order, whatever --jobs is


def test_one_and_two_jobs_write_byte_identical_jsonl_and_csv(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    paths = make_corpus(corpus, 400)
    pages = sorted((FIXTURES / "pages").glob("*.htm*"))  # slower to judge than a log
    results = {}
    for jobs in ("1", "2"):
        out, table = tmp_path / f"j{jobs}.jsonl", tmp_path / f"j{jobs}.csv"
        done = audit(
            *map(str, pages), str(corpus), "--jobs", jobs, "--out", str(out), "--csv", str(table)
        )
        assert done.returncode == 3, done.stderr  # a page without moves: a syntax error
        results[jobs] = (out.read_bytes(), table.read_bytes())
    assert results["1"] == results["2"]
    expected = [str(p) for p in pages] + [str(p) for p in paths]
    assert sources_of(tmp_path / "j2.jsonl") == expected  # the order the sources were given


def test_audit_quiet_prints_what_check_quiet_prints(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    paths = make_corpus(corpus, 120)
    checked = subprocess.run(
        [*GCADJ, "check", "-q", str(corpus)], capture_output=True, text=True, cwd=ROOT
    )
    illegal = EXAMPLES[4].read_bytes()  # ex5, the one illegal game of the corpus
    assert checked.stdout.count("\n") == sum(p.read_bytes() == illegal for p in paths) > 1
    for jobs in ("1", "2"):
        audited = audit(str(corpus), "-q", "--jobs", jobs)  # no --out: still no JSON
        assert (audited.returncode, audited.stdout, audited.stderr) == (
            checked.returncode,
            checked.stdout,
            checked.stderr,
        )
    line = checked.stdout.splitlines()[0]
    assert re.fullmatch(r".+/game0004\.txt:\d+:\d+: illegal at ply 7 \(4\. I\*d5\) .+", line)


def test_an_audit_with_nothing_to_judge_says_why_first_without_tables(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.md").write_text("no game here")
    done = audit(str(empty), "--out", str(tmp_path / "r.jsonl"))
    assert done.returncode == 4 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert (
        lines[0] == f"gcadj audit: {empty}: no game file (.htm .html .log .pgn .txt) in this folder"
    )
    assert lines[1:] == ["gcadj audit: no game found in the sources named"]


# ---------------------------------------------------------------------------------------
# A worker that dies costs only the source it was judging


def test_a_source_that_kills_its_worker_gets_an_error_and_the_audit_goes_on(
    tmp_path: Path,
) -> None:
    corpus = tmp_path / "corpus"
    paths = make_corpus(corpus, 200)
    killer = paths[57]
    killer_copy = corpus / "game0057-boom.txt"  # its own name, for the hook
    killer.rename(killer_copy)
    plain, killed = tmp_path / "plain.jsonl", tmp_path / "killed.jsonl"
    assert audit(str(corpus), "--jobs", "1", "--out", str(plain), "-q").returncode == 1
    done = audit(str(corpus), "--jobs", "2", "--out", str(killed), "-q", env={KILL_ENV: "boom"})
    assert done.returncode == 4, done.stderr  # an unreadable source now: the worst wins
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    before, after = plain.read_text().splitlines(), killed.read_text().splitlines()
    assert len(after) == len(before) == 200  # every source, each once, in the same order
    (differs,) = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert sources_of(killed)[differs] == str(killer_copy)
    assert f"{killer_copy}: the worker judging it died: signal 9 (SIGKILL)" in after[differs]
    assert '"status": "error"' in after[differs]
    assert f"{killer_copy}: the worker judging it died: signal 9" in done.stderr  # as check -q


def test_a_worker_killed_from_outside_costs_only_its_source(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    paths = make_corpus(corpus, 150)
    stalled = paths[40].rename(corpus / "game0040-stall.txt")
    out = tmp_path / "r.jsonl"
    process = subprocess.Popen(
        [*GCADJ, "audit", str(corpus), "--jobs", "2", "--out", str(out), "-q"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, HANG_ENV: "stall"},
        start_new_session=True,
    )
    try:
        assert process.stderr is not None
        said = process.stderr.readline()  # the hook names the worker that stalls
        found = re.fullmatch(rf"gcadj: {HANG_ENV}: worker (\d+) stalls on (.+)\n", said)
        assert found is not None, said
        worker = int(found[1])
        assert found[2] == str(stalled) and worker != process.pid
        assert os.getpgid(worker) == process.pid  # a worker of this audit
        os.kill(worker, signal.SIGKILL)
        _, rest = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 4, rest
    assert sources_of(out) == [str(p if p != paths[40] else stalled) for p in paths]
    errors = [line for line in out.read_text().splitlines() if '"status": "error"' in line]
    assert len(errors) == 1 and f"{stalled}: the worker judging it died: signal 9" in errors[0]


# ---------------------------------------------------------------------------------------
# What a death costs, when no source can be blamed


def test_an_unblamed_death_retries_each_source_alone_and_gives_up_after_two() -> None:
    strikes: dict[int, int] = {}
    judging = blame([10, 11, 12], 1, strikes)  # died on the second: only it is failed
    assert (judging.failed, judging.twice, judging.again) == ([11], [], [[10, 12]])
    assert strikes == {}
    first = blame([20, 21, 22], None, strikes)  # died taking the unit in: all suspects
    assert (first.failed, first.twice, first.again) == ([], [], [[20], [21], [22]])
    second = blame([21], None, strikes)  # 21 alone, and it died again: not a third time
    assert (second.failed, second.twice, second.again) == ([], [21], [])
    assert blame([20], 0, strikes).failed == [20]  # blamed for certain: failed at once
    assert death_words(-9) == "signal 9 (SIGKILL)" and death_words(1) == "exit status 1"
