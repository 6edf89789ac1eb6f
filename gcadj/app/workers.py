"""The audit's worker processes: judging in parallel, and surviving a worker that dies.

Each worker is a process with two pipes of its own (tasks in, results out), so the death
of one (a SIGKILL, the OOM killer) touches nothing the others use, and with a small
shared slot in which it writes, before judging each source, which one it is on. The
parent (`WorkerPool`) hands a worker one unit of work at a time and waits for results
and deaths together (`wait`).

When a worker dies, `blame` says what it costs:

- the source it was judging (its slot says which) gets an "error" verdict, "the worker
  judging it died: signal 9 (SIGKILL)", and is not tried again;
- the other sources it held are judged again by the pool, which starts a new worker;
- when no source was being judged (the worker died taking in its work, or between two
  sources), each source it held is tried again on its own, and one whose worker dies a
  second time gets the error ("… died twice …") and is not tried a third time.

So a dead worker costs at most the source it was judging, and every source still gets
exactly one verdict. Workers ignore Ctrl-C (the parent stops them), close their copy of
the audit's JSONL (only the parent writes it, and its lock must go with the parent), and
exit by themselves when the parent dies.

`KILL_ENV` and `HANG_ENV` are test hooks in the spirit of `gcadj.app.pipeline.FAULT_ENV`:
a worker judging a source whose name contains the variable's text kills itself with
SIGKILL, or says on stderr that it stalls ("gcadj: GCADJ_INJECT_WORKER_HANG: worker PID
stalls on NAME") and stalls (for `HANG_SECONDS`, or until it is killed from outside), so
that tests and users can see what a dead worker costs.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_for
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

if TYPE_CHECKING:
    from multiprocessing.context import ForkContext, SpawnContext
    from multiprocessing.process import BaseProcess

KILL_ENV: Final = "GCADJ_INJECT_WORKER_KILL"
HANG_ENV: Final = "GCADJ_INJECT_WORKER_HANG"
HANG_SECONDS: Final = 120.0
IDLE: Final = -1

T = TypeVar("T")  # a task
R = TypeVar("R")  # the result of one task


# ---------------------------------------------------------------------------------------
# What a death costs


@dataclass
class Blame:
    """What one worker's death costs its unit of work: the tasks (by index in the unit)
    that get an error verdict now, and those to try again, each list a unit of its own."""

    failed: list[int] = field(default_factory=list)
    twice: list[int] = field(default_factory=list)  # failed after a second death
    again: list[list[int]] = field(default_factory=list)


def blame(tasks: Sequence[int], judging: int | None, strikes: dict[int, int]) -> Blame:
    """The policy of the module docstring, for a unit holding `tasks` (their keys, which
    `strikes` counts deaths for) whose worker died while judging `judging` (an index into
    `tasks`), or None when it was judging none of them."""
    if judging is not None:
        rest = [task for index, task in enumerate(tasks) if index != judging]
        return Blame(failed=[tasks[judging]], again=[rest] if rest else [])
    result = Blame()
    for task in tasks:
        strikes[task] = strikes.get(task, 0) + 1
        if strikes[task] >= 2:
            result.twice.append(task)
        else:
            result.again.append([task])
    return result


def death_words(exitcode: int | None) -> str:
    """How a process ended, in words: "signal 9 (SIGKILL)", "exit status 1"."""
    if exitcode is None:
        return "an unknown cause"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            return f"signal {-exitcode}"
        return f"signal {-exitcode} ({name})"
    return f"exit status {exitcode}"


# ---------------------------------------------------------------------------------------
# The worker process


def _worker_init(parent: int, jsonl_fd: int) -> None:
    """See the module docstring: no Ctrl-C, no JSONL descriptor, no life after the parent."""
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if jsonl_fd >= 0:
        with contextlib.suppress(OSError):
            os.close(jsonl_fd)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="gcadj-orphan-watch", daemon=True).start()


def _worker_main(
    tasks: Connection,
    results: Connection,
    slot: Any,  # a shared array of two ints: the unit and the task being judged
    work: Callable[[Any], Any],
    name_of: Callable[[Any], str],
    parent: int,
    jsonl_fd: int,
) -> None:
    """A worker's life: take a unit, judge its tasks one by one (saying which in `slot`),
    send the results back, until told to stop (None) or the parent is gone."""
    _worker_init(parent, jsonl_fd)
    kill_on, hang_on = os.environ.get(KILL_ENV), os.environ.get(HANG_ENV)
    while True:
        try:
            message = tasks.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        unit, batch = message
        start = time.perf_counter()
        done = []
        for index, task in enumerate(batch):
            slot[0], slot[1] = unit, index
            name = name_of(task)
            if kill_on and kill_on in name:
                os.kill(os.getpid(), signal.SIGKILL)
            if hang_on and hang_on in name:  # says so, so that a test knows whom to kill
                os.write(2, f"gcadj: {HANG_ENV}: worker {os.getpid()} stalls on {name}\n".encode())
                time.sleep(HANG_SECONDS)
            done.append(work(task))
        slot[1] = IDLE
        results.send((unit, done, time.perf_counter() - start))


# ---------------------------------------------------------------------------------------
# The pool, as the parent sees it


@dataclass
class Unit(Generic[T]):
    """Work sent to one worker: tasks, and the keys the caller knows them by."""

    number: int
    keys: list[int]
    tasks: list[T]


@dataclass
class Finished(Generic[T, R]):
    unit: Unit[T]
    results: list[R]
    seconds: float


@dataclass
class Died(Generic[T]):
    """A worker died holding `units` (in the order given; none if it held nothing). If it
    was judging a task, `judging` is (the unit's number, the task's index in it): every
    unit after that one was never started."""

    units: list[Unit[T]]
    judging: tuple[int, int] | None
    exitcode: int | None


@dataclass
class _Worker(Generic[T]):
    process: BaseProcess
    tasks: Connection  # the parent's end: send
    results: Connection  # the parent's end: receive
    slot: Any
    units: list[Unit[T]] = field(default_factory=list)  # given, not yet answered


PREFETCH_BYTES: Final = 16 * 1024
"""A worker busy with one unit is given a second one only when it is this small: it then
waits in the pipe (64 KiB on Linux) without the parent ever blocking on the send, so a
worker finishing a unit has the next one at hand, and a big one (a page's text) goes
only to a worker that is reading."""


class WorkerPool(Generic[T, R]):
    """`jobs` worker processes running `work(task)` for each task of the units they are
    given; a dead worker is replaced when there is work for it (see the module docstring).

    `work` and `name_of` must be module-level functions (they travel to spawned workers);
    `name_of(task)` is the name the test hooks look for.
    """

    def __init__(
        self,
        jobs: int,
        work: Callable[[T], R],
        name_of: Callable[[T], str],
        *,
        jsonl_fd: int = -1,
    ) -> None:
        self.jobs = jobs
        self.work = work
        self.name_of = name_of
        self.jsonl_fd = jsonl_fd
        self.workers: list[_Worker[T]] = []
        self.numbers = 0

    # -- starting ----------------------------------------------------------------------

    @staticmethod
    def _context() -> ForkContext | SpawnContext:
        """fork where it exists and the parent has no other thread (a fork copies only the
        calling thread, so a lock another thread holds would stay held in the child);
        else spawn. The first workers start before any progress thread does."""
        import multiprocessing
        import threading

        if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
            return multiprocessing.get_context("fork")
        return multiprocessing.get_context("spawn")

    def _start_one(self) -> _Worker[T]:
        context = self._context()
        task_out, task_in = context.Pipe(duplex=False)  # (receiving end, sending end)
        result_out, result_in = context.Pipe(duplex=False)
        slot = context.RawArray("q", [IDLE, IDLE])
        fork = context.get_start_method() == "fork"
        process = context.Process(
            target=_worker_main,
            args=(
                task_out,
                result_in,
                slot,
                self.work,
                self.name_of,
                os.getpid(),
                self.jsonl_fd if fork else -1,
            ),
            name="gcadj-audit-worker",
            daemon=True,
        )
        process.start()
        task_out.close()  # the worker's ends: only it holds them now
        result_in.close()
        worker: _Worker[T] = _Worker(process, task_in, result_out, slot)
        self.workers.append(worker)
        return worker

    def start(self) -> None:
        """Start every worker now (before the caller starts any thread of its own)."""
        while len(self.workers) < self.jobs:
            self._start_one()

    # -- giving work and taking results ------------------------------------------------------

    def _taker(self, size: int) -> _Worker[T] | None:
        """Who takes a unit of `size` pickled bytes: a worker with nothing to do (started
        if one is missing), else a small unit's second place; None when all are busy."""
        for worker in list(self.workers):
            if not worker.units:
                if worker.process.is_alive():
                    return worker
                self._bury(worker)  # died idle (killed from outside): it held nothing
        if len(self.workers) < self.jobs:
            return self._start_one()
        if size <= PREFETCH_BYTES:
            return next((worker for worker in self.workers if len(worker.units) == 1), None)
        return None

    def give(self, keys: list[int], tasks: list[T]) -> bool:
        """Send a unit of `tasks` (known by `keys`) to a worker; False when none can take it."""
        from multiprocessing.reduction import ForkingPickler

        data = bytes(ForkingPickler.dumps((self.numbers + 1, tasks)))
        worker = self._taker(len(data))
        if worker is None:
            return False
        self.numbers += 1
        worker.units.append(Unit(self.numbers, keys, tasks))
        with contextlib.suppress(OSError):  # it died already: `wait` reports it, with the unit
            worker.tasks.send_bytes(data)
        return True

    @property
    def busy(self) -> bool:
        return any(worker.units for worker in self.workers)

    def wait(self, timeout: float | None) -> list[Finished[T, R] | Died[T]]:
        """What happened since the last call: units finished, workers dead (each once)."""
        by_handle: dict[object, _Worker[T]] = {}
        handles: list[Connection | int] = []
        for worker in self.workers:
            for mine in (worker.results, worker.process.sentinel):
                by_handle[mine] = worker
                handles.append(mine)
        events: list[Finished[T, R] | Died[T]] = []
        handled: set[int] = set()
        for ready in wait_for(handles, timeout):
            worker = by_handle[ready]
            if id(worker) in handled:
                continue
            handled.add(id(worker))
            events.extend(self._receive(worker))
            if not worker.process.is_alive():
                events.append(self._bury(worker))
        return events

    def _receive(self, worker: _Worker[T]) -> list[Finished[T, R]]:
        """Every result the worker sent (also just before it died), in order."""
        finished: list[Finished[T, R]] = []
        while True:
            try:
                if not worker.results.poll():
                    return finished
                number, results, seconds = worker.results.recv()
            except (EOFError, OSError):
                return finished
            if worker.units and worker.units[0].number == number:
                finished.append(Finished(worker.units.pop(0), results, seconds))

    def _bury(self, worker: _Worker[T]) -> Died[T]:
        worker.process.join(timeout=5)
        numbers = {unit.number for unit in worker.units}
        judging = None
        if worker.slot[0] in numbers and worker.slot[1] != IDLE:
            judging = (int(worker.slot[0]), int(worker.slot[1]))
        self.workers.remove(worker)
        for handle in (worker.tasks, worker.results):
            handle.close()
        return Died(worker.units, judging, worker.process.exitcode)

    # -- stopping ----------------------------------------------------------------------

    def close(self, *, now: bool = False) -> None:
        """Stop every worker: ask them to finish (`now`: terminate them), then wait."""
        for worker in self.workers:
            if now:
                worker.process.terminate()
            else:
                with contextlib.suppress(OSError):
                    worker.tasks.send(None)
        for worker in self.workers:
            worker.process.join(timeout=5)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            for handle in (worker.tasks, worker.results):
                handle.close()
        self.workers.clear()


__all__ = [
    "HANG_ENV",
    "KILL_ENV",
    "Blame",
    "Died",
    "Finished",
    "WorkerPool",
    "blame",
    "death_words",
]
