"""The batch runner: many sources judged by a pool of worker processes (`gcadj.app.pool`)
under limits, their results delivered in the order of the sources.

``gcadj audit`` and ``gcadj serve`` are its clients: each gives `run_batch` its tasks
(lazily: an archive is never listed whole in memory), what a worker does with one
(`Work`), and a `sink` that takes the results in order (the audit's JSONL, a check's
folder or its HTTP answer). The runner owns everything else, the same way for both:

- **Order.** Tasks are grouped in units of about `BATCH_SECONDS` of work (at most
  `MAX_BATCH`), numbered as they are made, and the sink gets the results of each unit
  strictly in that order, as soon as it and every unit before it are complete, whatever
  order the workers finish in; so one job or eight give the same results. At most
  ``4 * jobs`` units are in flight or waiting for an earlier one: memory stays flat.
- **A deadline per source** (`Limits.source_seconds`): a task judged for longer gets a
  result saying so ("gave up after 60 s, the limit for judging one source"); its worker
  is killed and replaced, and the other tasks it held are given again.
- **A deadline for the whole run** (`Limits.total_seconds`, from `started`): every task
  not yet judged when it passes gets "not judged: the run took longer than 900 s, its
  limit".
- **A memory cap per worker** (`Limits.memory`): a task that exhausts it gets "too large
  to judge: it ran out of memory", and the worker goes on.
- **A dead worker** (SIGKILL, the OOM killer, a crash) costs at most the task it was
  judging, which gets "the worker judging it died: signal 9 (SIGKILL)". The units only
  queued in its pipe are given again as they were: nothing is held against them. If it
  died holding a unit it was not judging (taking it in, or sending its results back),
  each task of that unit is given again on its own, and a task whose worker dies that way
  twice gets "the worker holding it died twice before judging it" instead of a third
  try; so every task gets exactly one result and a run always ends.

A task the runner could not finish gets the result the client's `Work.lost` makes of the
name of the task and the `Lost` words above: one wording for both commands.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from gcadj.app.pool import (
    TAKING,
    Died,
    Finished,
    Lost,
    PoolSettings,
    Stage,
    TaskKey,
    WorkerPool,
    death_words,
)
from gcadj.errors import RunStopped

T = TypeVar("T")  # a task
R = TypeVar("R")  # the result of one task

BATCH_SECONDS: Final = 0.1
MAX_BATCH: Final = 256
POLL_SECONDS: Final = 0.2  # how often deadlines and a cancel are looked at, when there are any


@dataclass(frozen=True)
class Limits:
    """The limits a batch runs under: options of ``gcadj audit`` and ``gcadj serve``
    alike. `jobs` worker processes; `source_seconds` to judge one source, `memory` bytes
    of address space per worker, `total_seconds` for the whole run (0: no limit)."""

    jobs: int = 1
    source_seconds: float = 0.0
    memory: int = 0
    total_seconds: float = 0.0

    def pool(
        self,
        *,
        close_fds: tuple[int, ...] = (),
        preload: tuple[str, ...] = (),
        method: str | None = None,
    ) -> PoolSettings:
        """The settings of a pool of `jobs` workers under these limits (`PoolSettings`)."""
        return PoolSettings(self.jobs, self.memory, close_fds, preload, method)


@dataclass(frozen=True)
class Work(Generic[T, R]):
    """What a run does: `run(task)` in a worker (picklable: a module-level function or a
    partial of one), `name_of(task)` (picklable too: the name a result of the runner's own
    gives the task, and the test hooks look for), `lost(name, why)` in the parent (the
    result of a task the runner could not finish), and `alone(task)`: whether the task
    goes in a unit of its own (one that carries a page's text: it is big, and the fetch
    was the slow part)."""

    run: Callable[[T], R]
    name_of: Callable[[T], str]
    lost: Callable[[str, Lost], R]
    alone: Callable[[T], bool] | None = None


@dataclass(frozen=True)
class Done(Generic[R]):
    """A task's result known before any worker sees it (a page that could not be fetched):
    it takes its place in the order like any other."""

    result: R


def default_jobs() -> int:
    """One worker per core this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def died_words(exitcode: int | None) -> str:
    return f"the worker judging it died: {death_words(exitcode)}"


def twice_words(exitcode: int | None) -> str:
    return (
        f"the worker holding it died twice before judging it ({death_words(exitcode)}); "
        "it is not tried a third time"
    )


def timeout_words(seconds: float) -> str:
    return f"gave up after {seconds:g} s, the limit for judging one source"


def total_words(seconds: float) -> str:
    return f"not judged: the run took longer than {seconds:g} s, its limit"


class BatchSize:
    """How many tasks to send a worker at once: about BATCH_SECONDS of work.

    Small units cost the parent a round trip each (which competes with the workers for
    the cores); big ones delay results and unbalance the end. Games cost from well under
    a millisecond (a short text log) to a tenth of a second (a large page), so the size
    follows a moving average of what the units so far cost per task.
    """

    def __init__(self, fixed: int | None, first: int = 4) -> None:
        self.fixed = fixed
        self.size = min(fixed or first, MAX_BATCH)
        self.per_task: float | None = None

    def learn(self, tasks: int, seconds: float) -> None:
        if self.fixed is not None or tasks == 0:
            return
        cost = max(seconds / tasks, 1e-5)
        self.per_task = cost if self.per_task is None else 0.7 * self.per_task + 0.3 * cost
        self.size = max(1, min(MAX_BATCH, int(BATCH_SECONDS / self.per_task)))


_PENDING: Final[Any] = object()


class InOrder(Generic[R]):
    """The reorder buffer: units are numbered as they are made, in the order of the tasks,
    and handed to the sink strictly in that order, each as soon as it and every unit
    before it are complete."""

    def __init__(self, sink: Callable[[list[R]], None]) -> None:
        self.sink = sink
        self.units: dict[int, list[R]] = {}
        self.made = 0
        self.next = 0

    def open(self, size: int) -> list[TaskKey]:
        """A new unit of `size` tasks: their keys."""
        seq = self.made
        self.made += 1
        self.units[seq] = [_PENDING] * size
        return [TaskKey(seq, index) for index in range(size)]

    def put(self, key: TaskKey, result: R) -> None:
        self.units[key.unit][key.place] = result

    def flush(self) -> None:
        while self.next in self.units and _PENDING not in self.units[self.next]:
            complete = self.units.pop(self.next)
            self.next += 1
            self.sink(complete)


class _Run(Generic[T, R]):
    """One run of `run_batch` (see the module docstring)."""

    def __init__(
        self,
        pool: WorkerPool,
        work: Work[T, R],
        sink: Callable[[list[R]], None],
        limits: Limits,
        until: float | None,
        stop: Callable[[], bool] | None,
        sizer: BatchSize,
    ) -> None:
        self.pool = pool
        self.work = work
        self.limits = limits
        self.until = until
        self.stop = stop
        self.ordered: InOrder[R] = InOrder(sink)
        self.sizer = sizer
        self.waiting: deque[tuple[list[TaskKey], list[T]]] = deque()  # to give, retries first
        self.held: dict[TaskKey, T] = {}  # every task given or waiting, by key, until it is done
        self.strikes: dict[TaskKey, int] = {}
        self.expired = False

    # -- feeding -------------------------------------------------------------------------

    def feed(self, items: Iterable[T | Done[R]]) -> None:
        limit = 4 * max(1, self.pool.settings.jobs)
        batch: list[T] = []
        for item in items:
            if isinstance(item, Done):
                if batch:
                    self.make(batch)
                (key,) = self.ordered.open(1)
                self.ordered.put(key, item.result)
            else:
                batch.append(item)
                alone = self.work.alone is not None and self.work.alone(item)
                if len(batch) < self.sizer.size and not alone:
                    continue  # nothing new to give yet
                self.make(batch)
            self.pump(block=False)
            self.drain(until=limit - 1)
        if batch:
            self.make(batch)
        self.drain(until=0)

    def make(self, batch: list[T]) -> None:
        keys = self.ordered.open(len(batch))
        if self.expired:
            for key, task in zip(keys, batch, strict=True):
                self.lose_task(key, task, total_words(self.limits.total_seconds))
        else:
            self.held.update(zip(keys, batch, strict=True))
            self.waiting.append((keys, list(batch)))
        batch.clear()

    # -- waiting -------------------------------------------------------------------------

    def pump(self, block: bool) -> None:
        """Give what can be given, then take in what happened (waiting for it if `block`),
        and settle the deadlines."""
        self.ordered.flush()  # what is complete goes out now (a page that was not fetched)
        self.check_limits()
        while self.waiting and self.pool.give(
            self.waiting[0][0], self.work.run, self.work.name_of, self.waiting[0][1]
        ):
            self.waiting.popleft()
        if not self.pool.busy:
            return
        for event in self.pool.wait(self.timeout() if block else 0):
            if isinstance(event, Finished):
                self.finished(event)
            else:
                self.bury(event)
        self.check_limits()
        self.ordered.flush()

    def drain(self, until: int) -> None:
        """Wait until at most `until` units are not yet delivered."""
        while True:
            self.ordered.flush()
            if len(self.ordered.units) <= until:
                return
            if not self.waiting and not self.pool.busy:  # nothing can complete them: a bug
                raise RuntimeError(f"{len(self.ordered.units)} units lost their results")
            self.pump(block=True)

    def timeout(self) -> float | None:
        """How long `pump` may wait for the pool: until the next deadline or look."""
        now = time.monotonic()
        waits = []
        if self.limits.source_seconds > 0 or self.stop is not None:
            waits.append(POLL_SECONDS)  # a task's start is no event: look again soon
        if self.until is not None:
            waits.append(self.until - now)
        return max(0.0, min(waits)) if waits else None

    def check_limits(self) -> None:
        if self.stop is not None and self.stop():
            self.pool.stop_busy()
            raise RunStopped
        now = time.monotonic()
        if self.until is not None and now >= self.until and not self.expired:
            self.expire()
        elif self.limits.source_seconds > 0:
            self.pool.kill_overdue(self.limits.source_seconds, now)

    # -- settling ------------------------------------------------------------------------

    def finished(self, event: Finished) -> None:
        self.sizer.learn(len(event.unit.keys), event.seconds)
        for key, result in zip(event.unit.keys, event.results, strict=True):
            task = self.held.pop(key)
            if isinstance(result, Lost):
                result = self.work.lost(self.work.name_of(task), result)
            self.ordered.put(key, result)

    def lose_task(self, key: TaskKey, task: T, words: str) -> None:
        self.ordered.put(key, self.work.lost(self.work.name_of(task), Lost(words)))

    def lose(self, key: TaskKey, words: str) -> None:
        self.lose_task(key, self.held.pop(key), words)

    def expire(self) -> None:
        """The run's deadline passed: every task not judged yet is lost."""
        self.expired = True
        self.pool.stop_busy()
        self.waiting.clear()
        words = total_words(self.limits.total_seconds)
        for key in list(self.held):
            self.lose(key, words)

    def bury(self, event: Died) -> None:
        """What a dead worker costs (see the module docstring)."""
        if event.killed_for is not None:
            self.bury_overdue(event, Stage.of(event.killed_for))
            return
        stage = event.stage
        in_hand = stage.unit if stage.sending else None
        if stage.value == TAKING and event.units:
            in_hand = event.units[0].number  # the first unit it had not answered
        again: list[list[TaskKey]] = []
        for unit in event.units:
            if stage.index is not None and unit.number == stage.unit:
                key = unit.keys[stage.index]
                self.lose(key, died_words(event.exitcode))
                again += [rest] if (rest := [k for k in unit.keys if k != key]) else []
            elif unit.number == in_hand:
                again += self.strike(unit.keys, event.exitcode)
            else:  # only queued: nothing is held against it
                again.append(unit.keys)
        self.again(again)

    def bury_overdue(self, event: Died, overdue: Stage) -> None:
        """A worker killed for a deadline: the task it was killed for gets the deadline's
        verdict (it was over its time, even if it ended as the kill landed); every other
        task the worker held is given again."""
        again: list[list[TaskKey]] = []
        for unit in event.units:
            if overdue.index is not None and unit.number == overdue.unit:
                key = unit.keys[overdue.index]
                self.lose(key, timeout_words(self.limits.source_seconds))
                again += [rest] if (rest := [k for k in unit.keys if k != key]) else []
            else:
                again.append(unit.keys)
        self.again(again)

    def again(self, units: list[list[TaskKey]]) -> None:
        """Give these units again before anything else, in this order."""
        for keys in reversed(units):
            self.waiting.appendleft((keys, [self.held[key] for key in keys]))

    def strike(self, keys: list[TaskKey], exitcode: int | None) -> list[list[TaskKey]]:
        """The tasks of a unit whose worker died holding it without judging any: each is
        tried again on its own, and lost at its second such death."""
        again = []
        for key in keys:
            self.strikes[key] = self.strikes.get(key, 0) + 1
            if self.strikes[key] >= 2:
                self.lose(key, twice_words(exitcode))
            else:
                again.append([key])
        return again


def run_batch(
    pool: WorkerPool,
    work: Work[T, R],
    items: Iterable[T | Done[R]],
    sink: Callable[[list[R]], None],
    limits: Limits | None = None,
    *,
    started: float | None = None,
    stop: Callable[[], bool] | None = None,
    batch_size: int | None = None,
    first_size: int = 4,
) -> bool:
    """Run every task of `items` on `pool` and give `sink` their results in order, a unit
    at a time (see the module docstring); True when every task has its result, False
    when `stop()` said to stop (its busy workers are then killed).

    `started` is when the run began, for `Limits.total_seconds` (default: now);
    `batch_size` fixes the size of the units (tests); `first_size` is the size of the
    first units, before their cost is known (the server's 1: a task may take a second,
    and it reads its tasks a few at a time). Ctrl-C (KeyboardInterrupt) goes to the
    caller, which closes the pool.
    """
    limits = limits or Limits()
    until = None
    if limits.total_seconds > 0:
        until = (time.monotonic() if started is None else started) + limits.total_seconds
    run = _Run(pool, work, sink, limits, until, stop, BatchSize(batch_size, first_size))
    try:
        run.feed(items)
    except RunStopped:
        return False
    return True


__all__ = [
    "BATCH_SECONDS",
    "MAX_BATCH",
    "BatchSize",
    "Done",
    "InOrder",
    "Limits",
    "Lost",
    "Work",
    "default_jobs",
    "died_words",
    "run_batch",
    "timeout_words",
    "total_words",
    "twice_words",
]
