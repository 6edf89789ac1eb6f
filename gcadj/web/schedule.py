"""Fair scheduling of `gcadj serve`'s checks: who gets the next free worker, when a check
gives its worker up, and how many seconds the server spends adjudicating.

The server has `ServeSettings.pool_size` worker pools (one worker each, from
`gcadj.app.pool`). Without a policy the first to ask holds them: one client's forty
archives would keep every worker for many minutes while a player's one game waited
behind them. So (``docs/security.md`` says it for users):

- **A client's share of the workers** (`FairPools`). When a pool is free it goes to the
  waiting check whose client holds the fewest pools now, then to a small check (a few
  sources, no zip: a pasted game) before a large one, then to the client that has used
  the workers least lately (worker-seconds, halved every `USAGE_HALF_LIFE` seconds), then
  to the check that has waited longest: a new client's game comes first.
- **Time slices.** A check judges its sources on its pool for at least
  `ServeSettings.slice_seconds`, then, between two sources, gives the pool up when a
  check of another client that holds fewer pools is waiting and none is free
  (`FairPools.should_yield`), and waits for its turn again; it goes on with its next
  source. A source is never interrupted: a check yields between sources, so the wait is
  at most what the sources in hand take (their games' adjudications are capped).
  One client alone uses every worker.
- **The adjudication budget** (`AdjudicationBudget`): the seconds the server spends
  adjudicating, for all checks together, are a bucket refilled at
  `ServeSettings.adjudicate_share` seconds a second per worker, holding at most
  `BUCKET_SECONDS` of refill. A source is adjudicated in full when the bucket holds time
  as it is handed to a worker (a check's first source always is: a single game is
  adjudicated in full); past that, its games are adjudicated without a mate search (the
  board, the record, a repetition and the material still give their class). The seconds each game's
  adjudication took are taken from the bucket. So adjudicating archives cannot take more
  than that share of the machine for long, and the checks waiting behind them move on.

The share of the queue (checks running or waiting per client) is counted where checks are
submitted (`gcadj.web.jobs.JobRunner.submit`).
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Generic, TypeVar

if TYPE_CHECKING:
    from gcadj.app.pool import WorkerPool

USAGE_HALF_LIFE: Final = 60.0  # seconds: how long a client's use of the workers is remembered
BUCKET_SECONDS: Final = 60.0  # the adjudication budget holds this many seconds of refill

T = TypeVar("T")


@dataclass
class Usage:
    """A client's recent use of the workers: worker-seconds, decayed by half every
    `USAGE_HALF_LIFE` seconds, as of `at` (monotonic seconds)."""

    seconds: float = 0.0
    at: float = 0.0

    def now(self, when: float) -> float:
        return float(self.seconds * 0.5 ** (max(0.0, when - self.at) / USAGE_HALF_LIFE))

    def add(self, seconds: float, when: float) -> None:
        self.seconds = self.now(when) + seconds
        self.at = when


@dataclass(frozen=True)
class Waiter:
    """A check waiting for a pool: its client, its place in the order of arrival, and
    whether it is small (a few sources, no zip)."""

    client: str
    seq: int
    small: bool = False


class FairPools:
    """The server's worker pools, lent one at a time to checks (see the module docstring).
    Thread-safe: the checks' threads call it."""

    def __init__(self, pools: Sequence[WorkerPool], clock: Callable[[], float] = time.monotonic):
        self.pools = list(pools)
        self.clock = clock
        self._free = list(pools)
        self._cond = threading.Condition()
        self._waiting: list[Waiter] = []
        self._holding: Counter[str] = Counter()
        self._usage: dict[str, Usage] = {}
        self._seq = itertools.count()

    @property
    def waiting(self) -> int:
        """Checks waiting for a pool now."""
        with self._cond:
            return len(self._waiting)

    def acquire(
        self, client: str, cancelled: Callable[[], bool], *, small: bool = False
    ) -> WorkerPool | None:
        """A pool for a check of `client` (`small`: a few sources), once it is its turn
        (None when `cancelled()` says so meanwhile: whoever cancels calls `wake`). The
        thread sleeps until a pool is released or `wake` is called: no polling."""
        waiter = Waiter(client, next(self._seq), small)
        with self._cond:
            self._waiting.append(waiter)
            try:
                while not cancelled():
                    if self._free and self._first() == waiter:
                        self._holding[client] += 1
                        return self._free.pop()
                    self._cond.wait()
                return None
            finally:
                self._waiting.remove(waiter)
                self._cond.notify_all()

    def wake(self) -> None:
        """Make every waiting check look again whether it was cancelled."""
        with self._cond:
            self._cond.notify_all()

    def release(self, client: str, pool: WorkerPool, seconds: float) -> None:
        """`client`'s check gives `pool` back, having held it `seconds`."""
        with self._cond:
            self._free.append(pool)
            self._holding[client] -= 1
            if self._holding[client] <= 0:
                del self._holding[client]
            self._usage.setdefault(client, Usage()).add(seconds, self.clock())
            self._forget_idle()
            self._cond.notify_all()

    def should_yield(self, client: str) -> bool:
        """Should a check of `client` give its pool up now? When no pool is free and a
        check of another client that holds fewer pools is waiting."""
        with self._cond:
            if self._free:
                return False
            held = self._holding[client]
            return any(w.client != client and self._holding[w.client] < held for w in self._waiting)

    def _first(self) -> Waiter:
        """The waiting check served next (see the module docstring)."""
        now = self.clock()

        def order(waiter: Waiter) -> tuple[int, bool, float, int]:
            usage = self._usage.get(waiter.client)
            return (
                self._holding[waiter.client],
                not waiter.small,
                0.0 if usage is None else usage.now(now),
                waiter.seq,
            )

        return min(self._waiting, key=order)

    def _forget_idle(self) -> None:
        """Drop what is remembered of clients whose use has decayed to nothing."""
        now = self.clock()
        for client in [c for c, u in self._usage.items() if u.now(now) < 0.01]:
            if client not in self._holding:
                del self._usage[client]

    def close(self) -> None:
        """Stop every worker of every pool (the server is stopping)."""
        for pool in self.pools:
            pool.close(now=True)


class AdjudicationBudget:
    """The seconds the server may spend adjudicating (see the module docstring): `rate`
    seconds a second (0: no bound), at most `BUCKET_SECONDS` of it banked. Thread-safe."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.capacity = rate * BUCKET_SECONDS
        self.clock = clock
        self.level = self.capacity
        self.at = clock()
        self._lock = threading.Lock()

    def available(self) -> float:
        """The seconds in the bucket now (negative: spent ahead; inf: no bound)."""
        if self.rate <= 0:
            return math.inf
        with self._lock:
            now = self.clock()
            self.level = min(self.capacity, self.level + (now - self.at) * self.rate)
            self.at = now
            return self.level

    def grants(self, first: bool) -> bool:
        """May a slice adjudicate? While the bucket holds time; a check's first slice
        also when it is spent, down to one bucket's worth ahead."""
        level = self.available()
        return level > 0 or (first and level > -self.capacity)

    def spend(self, seconds: float) -> None:
        if self.rate > 0 and seconds > 0:
            self.available()
            with self._lock:
                self.level -= seconds


class Slice(Generic[T]):
    """A check's tasks from `start`, handed to the batch runner one at a time (it reads
    its tasks lazily) until `ends()` says the slice is over; at least one is handed, each
    as `prepare(task, index)` makes it (the budget's grant, as it is when the task is
    handed). `next` is then the first task not handed: every task handed gets its result
    in the same run."""

    def __init__(
        self,
        tasks: Sequence[T],
        start: int,
        ends: Callable[[], bool],
        prepare: Callable[[T, int], T] | None = None,
    ) -> None:
        self.tasks = tasks
        self.start = start
        self.next = start
        self.ends = ends
        self.prepare = prepare

    def __iter__(self) -> Iterator[T]:
        while self.next < len(self.tasks):
            if self.next > self.start and self.ends():
                return
            index = self.next
            self.next += 1
            task = self.tasks[index]
            yield task if self.prepare is None else self.prepare(task, index)


__all__ = [
    "BUCKET_SECONDS",
    "USAGE_HALF_LIFE",
    "AdjudicationBudget",
    "FairPools",
    "Slice",
    "Usage",
    "Waiter",
]
