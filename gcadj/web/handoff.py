"""How the server's threads tell its event loop that something happened: awaited, never
polled.

`gcadj serve` follows one rule (``docs/development.md``, "The web layer's concurrency"):
the async handlers await; blocking work (a check's run, the sweeper, the store) runs in
threads or worker processes and signals the loop when it has something for it. A check's
thread (`gcadj.web.jobs.JobRunner`) ends its check with `Signal.set` and hands the JSON
API its lines with `Handoff.put`; a handler that waits for either is woken by
``loop.call_soon_threadsafe`` the moment it happens, and an idle wait costs nothing (no
timer, no step of 50 ms). Each counts the times it woke a waiter (`wakeups`): the tests
read it to show that a wait is one wake-up, not a loop of polls.

Both may be waited on from threads too (`Signal.wait_blocking`): the runner's own threads
wait for a check to end that way.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


def _resolve(future: asyncio.Future[None]) -> None:
    """Wake the coroutine awaiting `future` (on its loop), unless it stopped waiting."""
    if not future.done():
        future.set_result(None)


def _wake(loop: asyncio.AbstractEventLoop, future: asyncio.Future[None]) -> None:
    """Wake `future`'s awaiter from any thread; a loop already closed has nobody to wake."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(_resolve, future)


class Signal:
    """Something that happens once (a check has ended), set from any thread and awaited
    on the event loop (`wait`) or waited for in a thread (`wait_blocking`). Thread-safe.

    >>> async def main() -> bool:
    ...     signal = Signal()
    ...     threading.Timer(0.01, signal.set).start()
    ...     return await signal.wait()
    >>> asyncio.run(main())
    True
    """

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []
        self.wakeups = 0  # times an awaiting coroutine was woken (by `set`)

    def set(self) -> None:
        """It happened: every waiter, in any thread or on any loop, wakes now."""
        with self._lock:
            self._event.set()
            waiters, self._waiters = self._waiters, []
        for loop, future in waiters:
            _wake(loop, future)

    def is_set(self) -> bool:
        return self._event.is_set()

    def wait_blocking(self, timeout: float | None = None) -> bool:
        """Wait in a thread (never on the event loop); whether it happened in time."""
        return self._event.wait(timeout)

    async def wait(self, timeout: float | None = None) -> bool:
        """Await it on the running loop, `timeout` seconds at most (None: until it
        happens); whether it happened. The coroutine sleeps until `set` wakes it."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if self._event.is_set():
                return True
            self._waiters.append((loop, future))
        try:
            await asyncio.wait({future}, timeout=timeout)
        finally:
            with self._lock:
                if (loop, future) in self._waiters:
                    self._waiters.remove((loop, future))
            future.cancel()
        if self._event.is_set():
            self.wakeups += 1
            return True
        return False


class Handoff(Generic[T]):
    """Items handed, in order, from threads (`put`) to one coroutine on the event loop
    (`get`), which sleeps while there is none. Thread-safe; unbounded (a check's lines
    are bounded by its games).

    >>> async def main() -> list[int]:
    ...     handoff: Handoff[int] = Handoff()
    ...     thread = threading.Thread(target=lambda: [handoff.put(i) for i in range(3)])
    ...     thread.start()
    ...     return [await handoff.get() for _ in range(3)]
    >>> asyncio.run(main())
    [0, 1, 2]
    """

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._lock = threading.Lock()
        self._waiter: tuple[asyncio.AbstractEventLoop, asyncio.Future[None]] | None = None
        self.wakeups = 0  # times the getter was woken by a `put`

    def put(self, item: T) -> None:
        """Hand `item` over (from any thread); the waiting getter wakes now."""
        with self._lock:
            self._items.append(item)
            waiter, self._waiter = self._waiter, None
        if waiter is not None:
            _wake(*waiter)

    async def get(self) -> T:
        """The next item, awaited on the running loop (one getter at a time)."""
        loop = asyncio.get_running_loop()
        while True:
            future: asyncio.Future[None] = loop.create_future()
            with self._lock:
                if self._items:
                    return self._items.popleft()
                self._waiter = (loop, future)
            try:
                await future
            finally:
                with self._lock:
                    if self._waiter == (loop, future):
                        self._waiter = None
            self.wakeups += 1


__all__ = ["Handoff", "Signal"]
