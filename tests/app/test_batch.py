"""The batch runner's rules, with real worker processes and work of the test's own.

Each death here is real: a worker killed by SIGKILL while it judges a task (the hook
`KILL_ENV`), while it takes a unit in (a task whose unpickling kills the process), or
while it sends a unit's results back (a result whose pickling does); deadlines are driven
by the hook `HANG_ENV` (a stalled worker never finishes), the memory cap by a task that
asks for more than it allows. Every expectation is the task's own result, computed here.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from gcadj.app.batch import Limits, Work, run_batch
from gcadj.app.pool import HANG_ENV, KILL_ENV, Lost, PoolSettings, WorkerPool

MB = 1_000_000


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


class DiesWhenRead:
    """A task whose unpickling kills the process reading it (a worker taking it in)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __reduce__(self) -> tuple[object, ...]:
        return (_die, ())


class DiesWhenSent:
    """A result whose pickling kills the process sending it (a worker sending it back)."""

    def __reduce__(self) -> tuple[object, ...]:
        _die()
        return (str, ())


def work(task: object) -> object:
    """What the test's workers do: a name's length and the worker's pid; "sent-*" gives a
    result that kills its sender, "big-*" asks for 2 GB, "bug-*" raises."""
    if isinstance(task, DiesWhenRead):  # never: it kills its reader first
        return task.name
    name = str(task)
    if name.startswith("sent-"):
        return DiesWhenSent()
    if name.startswith("big-"):
        return len(bytearray(2000 * MB))
    if name.startswith("bug-"):
        raise ValueError(f"no {name}")
    return (len(name), os.getpid())


def name_of(task: object) -> str:
    return task.name if isinstance(task, DiesWhenRead) else str(task)


def lost(name: str, why: Lost) -> object:
    return f"{name}: {'internal error: ' if why.internal else ''}{why.words}"


WORK = Work(work, name_of, lost)


def run(
    tasks: list[object], limits: Limits, *, batch_size: int | None = 3
) -> tuple[list[object], bool]:
    """The results of `tasks` and whether the run finished; a run still going after 120 s
    is stopped (a hang guard: a rule broken could retry forever)."""
    results: list[object] = []
    give_up = time.monotonic() + 120
    with WorkerPool(PoolSettings(limits.jobs, limits.memory)) as pool:
        done = run_batch(
            pool,
            WORK,
            tasks,
            results.extend,
            limits,
            stop=lambda: time.monotonic() > give_up,
            batch_size=batch_size,
        )
    return results, done


def expected(name: str) -> int:
    return len(name)


def lengths(results: list[object]) -> list[object]:
    return [r[0] if isinstance(r, tuple) else r for r in results]


def test_a_task_that_kills_its_worker_costs_only_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KILL_ENV, "boom")
    tasks: list[object] = [f"t{n}" if n % 7 else f"boom{n}" for n in range(40)]
    results, done = run(tasks, Limits(jobs=2))
    assert done
    for task, result in zip(tasks, lengths(results), strict=True):
        if str(task).startswith("boom"):
            assert result == f"{task}: the worker judging it died: signal 9 (SIGKILL)"
        else:
            assert result == expected(str(task))


def test_a_death_taking_a_unit_in_retries_its_tasks_alone_and_blames_none_queued() -> None:
    """The unit in hand is retried task by task; the one that kills a worker twice that
    way is given up; units only queued behind it are given again untouched."""
    tasks: list[object] = [f"t{n}" for n in range(12)]
    tasks[4] = DiesWhenRead("bomb")
    results, done = run(tasks, Limits(jobs=1))
    assert done
    for n, result in enumerate(lengths(results)):
        if n == 4:
            assert result == (
                "bomb: the worker holding it died twice before judging it (signal 9 (SIGKILL)); "
                "it is not tried a third time"
            )
        else:
            assert result == expected(f"t{n}")


def test_a_death_sending_results_back_retries_the_unit_alone() -> None:
    tasks: list[object] = [f"t{n}" for n in range(9)]
    tasks[7] = "sent-x"
    results, done = run(tasks, Limits(jobs=2))
    assert done
    assert lengths(results)[7] == (
        "sent-x: the worker holding it died twice before judging it (signal 9 (SIGKILL)); "
        "it is not tried a third time"
    )
    assert [r for n, r in enumerate(lengths(results)) if n != 7] == [
        expected(f"t{n}") for n in range(9) if n != 7
    ]


def test_a_task_over_its_deadline_is_given_up_and_its_worker_replaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(HANG_ENV, "stall")
    tasks: list[object] = ["a", "stall-1", "bb", "ccc", "stall-2", "dddd"]
    results, done = run(tasks, Limits(jobs=1, source_seconds=0.5), batch_size=1)
    assert done
    assert lengths(results) == [
        1,
        "stall-1: gave up after 0.5 s, the limit for judging one source",
        2,
        3,
        "stall-2: gave up after 0.5 s, the limit for judging one source",
        4,
    ]
    a, bb, ccc, dddd = (r[1] for r in results if isinstance(r, tuple))
    assert a != bb == ccc != dddd  # a new worker after each deadline


def test_past_the_runs_deadline_nothing_more_is_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HANG_ENV, "stall")
    tasks: list[object] = ["a", "bb", "stall", "ccc", "dddd"]
    results, done = run(tasks, Limits(jobs=1, total_seconds=3.0), batch_size=1)
    assert done
    over = "not judged: the run took longer than 3 s, its limit"
    assert lengths(results) == [1, 2, f"stall: {over}", f"ccc: {over}", f"dddd: {over}"]


def address_space() -> int:
    """This process's address space in bytes (a forked worker starts with it)."""
    status = Path("/proc/self/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmSize:")))


def test_a_task_over_the_memory_cap_is_lost_and_its_worker_goes_on() -> None:
    cap = (max(address_space() * 1024, 200 * MB) // MB + 400) * MB  # room for 400 MB more
    tasks: list[object] = ["a", "big-1", "ccc"]
    results, done = run(tasks, Limits(jobs=1, memory=cap), batch_size=None)
    assert done
    assert lengths(results) == [
        1,
        f"big-1: too large to judge: it ran out of memory (this process may use {cap // MB:,} MB)",
        3,
    ]
    assert isinstance(results[0], tuple) and isinstance(results[2], tuple)
    assert results[0][1] == results[2][1]  # the same worker, alive after its MemoryError


def test_a_bug_in_the_work_is_that_tasks_internal_error() -> None:
    results, done = run(["a", "bug-b", "cc"], Limits(jobs=1))
    assert done
    assert lengths(results) == [1, "bug-b: internal error: ValueError: no bug-b", 2]


def test_a_stopped_run_kills_its_busy_workers_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HANG_ENV, "stall")
    results: list[object] = []
    with WorkerPool(PoolSettings(1)) as pool:
        tasks = ["a", "stall", "b"]
        stop = lambda: bool(results)  # noqa: E731
        done = run_batch(pool, WORK, tasks, results.extend, stop=stop, batch_size=1)
        assert not done and not pool.busy and pool.workers == []
    assert lengths(results) == [1]


def test_the_manual_quotes_the_runners_own_words() -> None:
    """docs/batch.md shows what a source gets with the server's defaults: the runner's
    words, each computed here by the runner itself."""
    import subprocess
    import sys

    from conftest import ROOT

    from gcadj.app.batch import died_words, timeout_words, total_words
    from gcadj.web.limits import ServeSettings

    settings = ServeSettings()
    capped = subprocess.run(
        [
            sys.executable,
            "-c",
            "import resource; from gcadj.app.pool import limit_memory, out_of_memory_words; "
            f"limit_memory({settings.worker_memory}); print(out_of_memory_words())",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    manual = (ROOT / "docs" / "batch.md").read_text(encoding="utf-8")
    for words in (
        timeout_words(settings.source_timeout),
        capped,
        died_words(-signal.SIGKILL),
        total_words(settings.job_timeout),
    ):
        assert f"`NAME: {words}`" in manual
