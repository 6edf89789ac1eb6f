"""The audit writes in the order of the sources, speaks like check, and outlives its workers.

``gcadj audit`` (in process, or a real process where a test signals it) with real worker
processes; deaths are real SIGKILLs: asked of a worker by the fault hook `KILL_ENV` (as
the OOM killer would kill it), or sent from outside, by pid, to the workers the hook
`HANG_ENV` stalls; deadlines are driven by that hook too (a stalled worker never
finishes), never by how fast the machine is.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
from pathlib import Path

from conftest import FIXTURES, GCADJ, ROOT, invoke_gcadj
from random_games import random_game

from gcadj.app.pool import HANG_ENV, KILL_ENV

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
    """``gcadj audit ARGS`` run in this process; its workers are real processes all the same."""
    return invoke_gcadj("audit", *args, env=env)


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
    checked = invoke_gcadj("check", "-q", str(corpus))
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
        lines[0] == f"gcadj audit: {empty}: no game file (.txt .log .pgn .html .htm) in this folder"
    )
    assert lines[1:] == ["gcadj audit: no game found in the sources named"]


# ---------------------------------------------------------------------------------------
# A worker that dies costs only the source it was judging


def differing_sources(before: Path, after: Path) -> list[str]:
    """The sources whose lines differ between two audits of the same sources, which must
    hold the same sources in the same order."""
    old, new = before.read_text().splitlines(), after.read_text().splitlines()
    assert sources_of(before) == sources_of(after) and len(old) == len(new)
    return [sources_of(after)[i] for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]


def test_sources_that_kill_their_workers_cost_only_themselves(tmp_path: Path) -> None:
    """Several deaths, with units queued behind them in the dead workers' pipes: every
    other source keeps its own verdict, and no queued source is blamed (issue 29)."""
    corpus = tmp_path / "corpus"
    paths = make_corpus(corpus, 240)
    killers = [paths[n].rename(corpus / f"game{n:04d}-boom.txt") for n in (5, 57, 58, 131, 239)]
    plain, killed = tmp_path / "plain.jsonl", tmp_path / "killed.jsonl"
    assert audit(str(corpus), "--jobs", "1", "--out", str(plain), "-q").returncode == 1
    done = audit(str(corpus), "--jobs", "2", "--out", str(killed), "-q", env={KILL_ENV: "boom"})
    assert done.returncode == 4, done.stderr  # an unreadable source now: the worst wins
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert differing_sources(plain, killed) == [str(k) for k in killers]
    errors = [line for line in killed.read_text().splitlines() if '"status": "error"' in line]
    assert len(errors) == len(killers)
    for killer, line in zip(killers, errors, strict=True):
        assert f"{killer}: the worker judging it died: signal 9 (SIGKILL)" in line
        assert f"{killer}: the worker judging it died: signal 9" in done.stderr  # as check -q
    assert "twice" not in killed.read_text()


def stalled_audit(corpus: Path, out: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*GCADJ, "audit", str(corpus), "--jobs", "2", "--out", str(out), "-q", *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, HANG_ENV: "stall"},
        start_new_session=True,
    )


def kill_each_stalled_worker(process: subprocess.Popen[str], count: int) -> list[str]:
    """SIGKILL each worker the hook says stalls, `count` times; the sources they stalled on."""
    assert process.stderr is not None
    stalled = []
    for _ in range(count):
        # the hook names the worker that stalls; the verdict lines of earlier kills (the
        # audit reports a dead worker's source on stderr too) may come first
        said = [process.stderr.readline()]
        while not said[-1].startswith(f"gcadj: {HANG_ENV}:") and said[-1] and len(said) < 50:
            said.append(process.stderr.readline())
        found = re.fullmatch(rf"gcadj: {HANG_ENV}: worker (\d+) stalls on (.+)\n", said[-1])
        assert found is not None, said
        worker = int(found[1])
        assert worker != process.pid and os.getpgid(worker) == process.pid  # this audit's
        os.kill(worker, signal.SIGKILL)
        stalled.append(found[2])
    return stalled


def test_workers_killed_from_outside_cost_only_their_sources(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    paths = make_corpus(corpus, 150)
    for n in (40, 41, 97):
        paths[n] = paths[n].rename(corpus / f"game{n:04d}-stall.txt")
    out = tmp_path / "r.jsonl"
    process = stalled_audit(corpus, out)
    try:
        stalled = kill_each_stalled_worker(process, 3)
        _, rest = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 4, rest
    assert sorted(stalled) == [str(paths[n]) for n in (40, 41, 97)]
    assert sources_of(out) == [str(p) for p in paths]
    errors = [line for line in out.read_text().splitlines() if '"status": "error"' in line]
    assert len(errors) == 3
    for source, line in zip(sorted(stalled), errors, strict=True):
        assert f"{source}: the worker judging it died: signal 9 (SIGKILL)" in line


def test_a_source_over_its_deadline_gets_an_error_and_the_others_their_verdicts(
    tmp_path: Path,
) -> None:
    corpus = tmp_path / "corpus"
    paths = make_corpus(corpus, 100)
    slow = [paths[n].rename(corpus / f"game{n:04d}-stall.txt") for n in (10, 70)]
    plain, timed = tmp_path / "plain.jsonl", tmp_path / "timed.jsonl"
    assert audit(str(corpus), "--jobs", "1", "--out", str(plain), "-q").returncode == 1
    process = stalled_audit(corpus, timed, "--source-timeout", "1.5")
    _, said = process.communicate(timeout=120)
    assert process.returncode == 4, said
    assert differing_sources(plain, timed) == [str(p) for p in slow]
    for path in slow:
        assert f"{path}: gave up after 1.5 s, the limit for judging one source" in said
    assert "died" not in timed.read_text()


def address_space_limit(pid: int) -> str:
    """The soft limit on a process's address space, as /proc says it."""
    limits = Path(f"/proc/{pid}/limits").read_text()
    return next(line.split()[3] for line in limits.splitlines() if "address space" in line)


def test_memory_caps_every_worker_of_the_audit(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    make_corpus(corpus, 10)[4].rename(corpus / "game0004-stall.txt")
    process = stalled_audit(corpus, tmp_path / "r.jsonl", "--memory", "1500")
    try:
        assert process.stderr is not None
        said = process.stderr.readline()
        found = re.fullmatch(rf"gcadj: {HANG_ENV}: worker (\d+) stalls on .+\n", said)
        assert found is not None, said
        assert address_space_limit(int(found[1])) == str(1500 * 1000 * 1000)
        assert address_space_limit(process.pid) == address_space_limit(os.getpid())  # not it
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate(timeout=60)
