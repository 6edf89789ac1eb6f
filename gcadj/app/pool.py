"""The batch runner's worker processes: they judge, and say at every moment what they hold.

Each worker is a process with two pipes of its own (units of work in, results out), so the
death of one (a SIGKILL, the OOM killer, its memory cap) touches nothing the others use.
A unit is a list of tasks and the module-level function (`work`) that does each one; it
travels with the unit, so one pool can serve runs of different kinds (``gcadj serve``
lists a zip's members, then judges them, with the same workers).

What a worker is doing is one number in shared memory (`Stage`), written by the worker
with one aligned store before each step and read by the parent whenever it needs to know:
waiting for work (it holds nothing), taking a unit in (unpickling it), judging task *i* of
unit *u* (with the monotonic time it started, for the per-source deadline), or sending the
results of unit *u*. So when a worker dies, the parent knows exactly which task it was
judging, and which units were only queued in its pipe (`gcadj.app.batch` decides what
that costs).

Each worker:

- caps its address space at `PoolSettings.memory` bytes (`limit_memory`): an input that
  would exhaust the machine raises MemoryError in that worker, which reports the task as
  `Lost` ("ran out of memory"), and goes on;
- turns an exception of `work` (a bug) into a `Lost` result of that task, never a
  traceback;
- ignores Ctrl-C (the parent stops it), closes the descriptors it must not hold (the
  audit's locked JSONL: the lock must go with the parent), and exits by itself when its
  parent is gone.

Workers start by ``fork`` while the parent has no other thread (cheap, and the first
workers of an audit start before its progress thread), else by a ``forkserver`` that has
imported `PoolSettings.preload` (a forked copy of a threaded parent could inherit a lock
held by another thread; the server always starts its workers this way), else ``spawn``.
A forkserver listens on a Unix socket in multiprocessing's temporary folder (under
TMPDIR); where that path would be too long for a socket (a deep TMPDIR), workers start by
``spawn`` instead, which needs no socket, rather than the server failing to start.

`KILL_ENV` and `HANG_ENV` are test hooks in the spirit of `gcadj.app.pipeline.FAULT_ENV`:
a worker judging a task whose name contains the variable's text kills itself with SIGKILL,
or says on stderr that it stalls ("gcadj: GCADJ_INJECT_WORKER_HANG: worker PID stalls on
NAME") and stalls (for `HANG_SECONDS`, or until it is killed), so that tests and users can
see what a death or a deadline costs. The parent reads them when it starts a worker.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_for
from typing import TYPE_CHECKING, Any, Final, NamedTuple

if TYPE_CHECKING:
    from multiprocessing.context import ForkContext, ForkServerContext, SpawnContext
    from multiprocessing.process import BaseProcess

KILL_ENV: Final = "GCADJ_INJECT_WORKER_KILL"
HANG_ENV: Final = "GCADJ_INJECT_WORKER_HANG"
HOOK_ENVS: Final = ("GCADJ_INJECT_FAULT", KILL_ENV, HANG_ENV)  # passed on to every worker
HANG_SECONDS: Final = 120.0
SOCKET_PATH_MAX: Final = 104  # the bytes of a Unix socket's path: 108 on Linux, 104 on BSDs
FORKSERVER_SOCKET: Final = "/listener-XXXXXXXX"  # its name in the temporary folder


# ---------------------------------------------------------------------------------------
# What a worker is doing


IDLE: Final = -1  # waiting for a unit: it holds nothing in hand
TAKING: Final = -2  # reading the unit it took from its pipe (the first it has not answered)
STEPS: Final = 1024  # the stages of one unit: sending its results, then judging each task
MAX_UNIT: Final = STEPS - 2  # the most tasks in a unit


@dataclass(frozen=True)
class Stage:
    """A worker's stage: `unit` and `index` (the task being judged; None while the unit's
    results are being sent), or neither (`IDLE`, `TAKING`: `value` says).

    A worker says its stage in one integer of the memory it shares with the parent
    (`value`, read without a lock), so the stage is packed there, and only here: `IDLE`
    and `TAKING` are negative, ``unit * STEPS`` sends unit's results, and
    ``unit * STEPS + 1 + index`` judges its task `index`. `judging` and `sending` pack,
    `of` unpacks.

    >>> Stage.of(Stage.judging_task(3, 5).value)
    Stage(value=3078, unit=3, index=5)
    """

    value: int
    unit: int | None = None
    index: int | None = None

    @classmethod
    def of(cls, value: int) -> Stage:
        if value < 0:
            return cls(value)
        unit, step = divmod(value, STEPS)
        return cls(value, unit, None if step == 0 else step - 1)

    @classmethod
    def judging_task(cls, unit: int, index: int) -> Stage:
        return cls(unit * STEPS + 1 + index, unit, index)

    @classmethod
    def sending_results(cls, unit: int) -> Stage:
        return cls(unit * STEPS, unit)

    @property
    def judging(self) -> bool:
        return self.index is not None

    @property
    def sending(self) -> bool:
        return self.unit is not None and self.index is None


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


@dataclass(frozen=True)
class Lost:
    """What a worker sends for a task it could not finish, instead of its result: the
    words that say why, and whether it was a bug of gcadj's (`internal`)."""

    words: str
    internal: bool = False


def out_of_memory_words() -> str:
    """Why a task that exhausted this process's memory has no result, with the cap on its
    address space when it has one (a worker's: `PoolSettings.memory`)."""
    try:
        import resource

        soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
        capped = soft not in (resource.RLIM_INFINITY, -1)
    except (ImportError, OSError, ValueError):
        capped = False
    limit = f" (this process may use {soft // 1_000_000:,} MB)" if capped else ""
    return f"too large to judge: it ran out of memory{limit}"


# ---------------------------------------------------------------------------------------
# The worker process


def limit_memory(limit: int) -> None:
    """Cap this process's address space at `limit` bytes (0: no cap), so that a blow-up
    is a MemoryError here rather than the machine's problem."""
    if limit <= 0:
        return
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


@dataclass(frozen=True)
class _Start:
    """What a worker is started with (picklable: a forkserver or spawn sends it)."""

    memory: int
    close_fds: tuple[int, ...]
    hooks: dict[str, str]


def _worker_init(start: _Start) -> None:
    """See the module docstring: no Ctrl-C, no descriptor of the parent's, a memory cap,
    the test hooks as the parent sees them, and no life after the parent."""
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for fd in start.close_fds:
        with contextlib.suppress(OSError):
            os.close(fd)
    for name in HOOK_ENVS:
        os.environ.pop(name, None)
    os.environ.update(start.hooks)
    limit_memory(start.memory)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="gcadj-orphan-watch", daemon=True).start()


def _run_task(work: Callable[[Any], Any], task: Any) -> Any:
    try:
        return work(task)
    except MemoryError:
        return Lost(out_of_memory_words())
    except Exception as err:  # a bug in `work`: that task's loss, never the worker's
        message = str(err).strip() or "(no message)"
        return Lost(f"{type(err).__name__}: {message}", internal=True)


def _hooks(name: str, hooks: dict[str, str]) -> None:
    kill_on, hang_on = hooks.get(KILL_ENV), hooks.get(HANG_ENV)
    if kill_on and kill_on in name:
        os.kill(os.getpid(), signal.SIGKILL)
    if hang_on and hang_on in name:  # says so, so that a test knows whom to kill
        os.write(2, f"gcadj: {HANG_ENV}: worker {os.getpid()} stalls on {name}\n".encode())
        time.sleep(HANG_SECONDS)


def _worker_main(tasks: Connection, results: Connection, slot: Any, start: _Start) -> None:
    """A worker process's entry point (see `_work_units`). A failure outside any task
    (taking a unit in, sending results back: memory exhausted there) ends the worker
    quietly, exit status 1: the parent reads its stage and settles what it held."""
    _worker_init(start)
    try:
        _work_units(tasks, results, slot, start)
    except Exception:
        os._exit(1)


def _work_units(tasks: Connection, results: Connection, slot: Any, start: _Start) -> None:
    """A worker's life: take a unit, do its tasks one by one (saying which in `slot`:
    [stage, start time in ns]), send the results back, until told to stop (None) or the
    parent is gone."""
    from multiprocessing.reduction import ForkingPickler

    while True:
        slot[0] = IDLE
        try:
            data = tasks.recv_bytes()
        except (EOFError, OSError):
            return
        slot[0] = TAKING
        message = ForkingPickler.loads(data)
        if message is None:
            return
        number, work, name_of, batch = message
        began = time.perf_counter()
        done = []
        for index, task in enumerate(batch):
            slot[1] = time.monotonic_ns()
            slot[0] = Stage.judging_task(number, index).value
            if start.hooks:
                _hooks(name_of(task), start.hooks)
            done.append(_run_task(work, task))
        slot[0] = Stage.sending_results(number).value
        results.send((number, done, time.perf_counter() - began))


# ---------------------------------------------------------------------------------------
# The pool, as the parent sees it


class TaskKey(NamedTuple):
    """How the caller knows a task it gave: the unit it made it part of (its own count,
    in the order of the tasks) and its place there."""

    unit: int
    place: int


@dataclass
class Unit:
    """Work sent to one worker: tasks, and the keys the caller knows them by."""

    number: int
    keys: list[TaskKey]
    tasks: list[Any]


@dataclass
class Finished:
    """A unit done: one result (or `Lost`) per task, and the seconds it took."""

    unit: Unit
    results: list[Any]
    seconds: float


@dataclass
class Died:
    """A worker died holding `units` (in the order given; none if it held nothing) at
    `stage`. `killed_for` is the stage at which the pool killed it for a deadline (see
    `WorkerPool.kill_overdue`), None when it died by itself or was stopped."""

    units: list[Unit]
    stage: Stage
    exitcode: int | None
    killed_for: int | None = None


@dataclass
class _Worker:
    process: BaseProcess
    tasks: Connection  # the parent's end: send
    results: Connection  # the parent's end: receive
    slot: Any  # [stage, ns when the task being judged began]
    units: list[Unit] = field(default_factory=list)  # given, not yet answered
    killed_for: int | None = None

    def stage(self) -> Stage:
        return Stage.of(int(self.slot[0]))


PREFETCH_BYTES: Final = 16 * 1024
"""A worker busy with one unit is given a second one only when it is this small: it then
waits in the pipe (64 KiB on Linux) without the parent ever blocking on the send, so a
worker finishing a unit has the next one at hand, and a big one (a page's text) goes
only to a worker that is reading."""


@dataclass(frozen=True)
class PoolSettings:
    """How many workers, and what each starts with: an address-space cap in bytes (0:
    none), the parent's descriptors it closes (fork only), the modules a forkserver
    imports before forking workers (those of the `work` functions to come), and how they
    start (`method`: "forkserver" for a parent that must never be copied, such as a
    server with its sockets and threads; None: as `WorkerPool._context` chooses)."""

    jobs: int = 1
    memory: int = 0
    close_fds: tuple[int, ...] = ()
    preload: tuple[str, ...] = ()
    method: str | None = None  # "forkserver" always (a server), None: see `_context`


def _socket_fits() -> bool:
    """Whether a forkserver's socket, in multiprocessing's temporary folder, has a path a
    Unix socket can be bound to (see the module docstring)."""
    import multiprocessing.util

    folder = multiprocessing.util.get_temp_dir()
    return len(os.fsencode(folder)) + len(FORKSERVER_SOCKET) < SOCKET_PATH_MAX


class WorkerPool:
    """`settings.jobs` worker processes; a dead worker is replaced when there is work for
    it. Use it as a context manager, or `close` it."""

    def __init__(self, settings: PoolSettings) -> None:
        self.settings = settings
        self.workers: list[_Worker] = []
        self.numbers = 0
        self._pickle: tuple[list[Any], bytes] | None = None  # the unit waiting for a worker

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, kind: object, *rest: object) -> None:
        self.close(now=kind is not None)

    # -- starting ----------------------------------------------------------------------

    def _context(self) -> ForkContext | ForkServerContext | SpawnContext:
        """fork where it exists and the parent has no other thread, else a forkserver,
        else spawn (see the module docstring)."""
        import multiprocessing
        import threading

        methods = multiprocessing.get_all_start_methods()
        wanted = self.settings.method
        if wanted is None and "fork" in methods and threading.active_count() == 1:
            return multiprocessing.get_context("fork")
        if "forkserver" in methods and wanted in (None, "forkserver") and _socket_fits():
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload([__name__, *self.settings.preload])
            return context
        return multiprocessing.get_context("spawn")

    def _start_one(self) -> _Worker:
        context = self._context()
        task_out, task_in = context.Pipe(duplex=False)  # (receiving end, sending end)
        result_out, result_in = context.Pipe(duplex=False)
        slot = context.RawArray("q", [IDLE, 0])
        fork = context.get_start_method() == "fork"
        hooks = {name: os.environ[name] for name in HOOK_ENVS if os.environ.get(name)}
        start = _Start(self.settings.memory, self.settings.close_fds if fork else (), hooks)
        process = context.Process(
            target=_worker_main,
            args=(task_out, result_in, slot, start),
            name="gcadj-worker",
            daemon=True,
        )
        process.start()
        task_out.close()  # the worker's ends: only it holds them now
        result_in.close()
        worker: _Worker = _Worker(process, task_in, result_out, slot)
        self.workers.append(worker)
        return worker

    def start(self) -> None:
        """Start every worker now (before the caller starts any thread of its own)."""
        while len(self.workers) < self.settings.jobs:
            self._start_one()

    # -- giving work and taking results --------------------------------------------------

    def _idle(self) -> _Worker | None:
        """A worker with nothing to do (started if one is missing), or None."""
        for worker in list(self.workers):
            if not worker.units:
                if worker.process.is_alive():
                    return worker
                self._bury(worker)  # died idle (killed from outside): it held nothing
        if len(self.workers) < self.settings.jobs:
            return self._start_one()
        return None

    def give(
        self,
        keys: list[TaskKey],
        work: Callable[[Any], Any],
        name_of: Callable[[Any], str],
        tasks: list[Any],
    ) -> bool:
        """Send a unit of `tasks` (known by `keys`) to a worker, which runs `work` on each
        (`name_of(task)` is the name the test hooks look for); False when none can take
        it: every worker is busy, or holds a second unit already, or the unit is too big
        to wait in a pipe (`PREFETCH_BYTES`). `work` and `name_of` must be picklable
        (module-level functions, or partials of them)."""
        if len(tasks) > MAX_UNIT:
            raise ValueError(f"a unit holds at most {MAX_UNIT} tasks")
        worker = self._idle()
        if worker is None:
            worker = next((busy for busy in self.workers if len(busy.units) == 1), None)
            if worker is None:
                return False
        data = self._pickled(work, name_of, tasks)
        if worker.units and len(data) > PREFETCH_BYTES:
            return False
        self.numbers += 1
        self._pickle = None
        worker.units.append(Unit(self.numbers, keys, tasks))
        with contextlib.suppress(OSError):  # it died already: `wait` reports it, with the unit
            worker.tasks.send_bytes(data)
        return True

    def _pickled(
        self, work: Callable[[Any], Any], name_of: Callable[[Any], str], tasks: list[Any]
    ) -> bytes:
        """The unit's message, pickled once however often it waits for a worker."""
        from multiprocessing.reduction import ForkingPickler

        if self._pickle is None or self._pickle[0] is not tasks:
            data = bytes(ForkingPickler.dumps((self.numbers + 1, work, name_of, tasks)))
            self._pickle = (tasks, data)
        return self._pickle[1]

    @property
    def busy(self) -> bool:
        return any(worker.units for worker in self.workers)

    def wait(self, timeout: float | None) -> list[Finished | Died]:
        """What happened since the last call: units finished, workers dead (each once),
        waiting at most `timeout` seconds (None: until something happens)."""
        by_handle: dict[object, _Worker] = {}
        handles: list[Connection | int] = []
        for worker in self.workers:
            by_handle[worker.results] = by_handle[worker.process.sentinel] = worker
            handles += [worker.results, worker.process.sentinel]
        events: list[Finished | Died] = []
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

    def _receive(self, worker: _Worker) -> list[Finished]:
        """Every result the worker sent (also just before it died), in order."""
        finished: list[Finished] = []
        while True:
            try:
                if not worker.results.poll():
                    return finished
                number, results, seconds = worker.results.recv()
            except (EOFError, OSError):
                return finished
            if worker.units and worker.units[0].number == number:
                finished.append(Finished(worker.units.pop(0), results, seconds))

    def _bury(self, worker: _Worker) -> Died:
        worker.process.join(timeout=5)
        stage = worker.stage()
        self.workers.remove(worker)
        for handle in (worker.tasks, worker.results):
            handle.close()
        return Died(worker.units, stage, worker.process.exitcode, worker.killed_for)

    # -- deadlines -----------------------------------------------------------------------

    def kill_overdue(self, seconds: float, now: float) -> None:
        """SIGKILL each worker judging one task for longer than `seconds`; its death is
        reported by `wait`, with the stage it was killed for."""
        for worker in self.workers:
            stage = worker.stage()
            if worker.killed_for is not None or not stage.judging:
                continue
            if now - int(worker.slot[1]) / 1e9 >= seconds:
                worker.killed_for = stage.value
                worker.process.kill()

    def stop_busy(self) -> list[Unit]:
        """Kill every worker holding work and forget them: their units, which the caller
        settles (a deadline for the whole run passed, or the run was cancelled)."""
        units: list[Unit] = []
        for worker in [w for w in self.workers if w.units]:
            units += worker.units
            worker.process.kill()
            worker.process.join(timeout=5)
            self.workers.remove(worker)
            for handle in (worker.tasks, worker.results):
                handle.close()
        return units

    # -- stopping ------------------------------------------------------------------------

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
    "Died",
    "Finished",
    "Lost",
    "PoolSettings",
    "Stage",
    "TaskKey",
    "Unit",
    "WorkerPool",
    "death_words",
    "limit_memory",
    "out_of_memory_words",
]
