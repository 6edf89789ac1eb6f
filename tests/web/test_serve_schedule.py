"""The fair policy of `gcadj serve` (`gcadj.web.schedule`) on its own: who gets the next
free pool, when a check should give its pool up, the adjudication budget (an injected
clock), and a check's slices. The pools are only handed around here (their workers are
`gcadj.app.pool`'s, tested there); the policy against real clients and a real server is
in ``test_serve_fair.py``."""

from __future__ import annotations

import threading
import time

from gcadj.web.schedule import BUCKET_SECONDS, USAGE_HALF_LIFE, AdjudicationBudget, FairPools, Slice


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_free_pool_goes_to_the_client_holding_fewest_then_using_least() -> None:
    clock = Clock()
    held = object()
    pools = FairPools([held], clock)  # type: ignore[list-item]
    assert pools.acquire("A", lambda: False) is held
    order: list[str] = []

    def wait(client: str) -> None:
        pool = pools.acquire(client, lambda: False)
        order.append(client)
        pools.release(client, pool, 5.0)  # type: ignore[arg-type]

    waiting = []
    for client in ("A", "B"):  # A's second check arrives first
        thread = threading.Thread(target=wait, args=(client,))
        thread.start()
        waiting.append(thread)
        while pools.waiting < len(waiting):
            time.sleep(0.01)
    assert pools.should_yield("A") and not pools.should_yield("B")
    pools.release("A", held, 30.0)  # type: ignore[arg-type]
    for thread in waiting:
        thread.join(10)
    assert order == ["B", "A"]  # B held none, A one: B first, although A came first


def test_among_clients_holding_as_many_the_one_that_used_least_comes_first() -> None:
    clock = Clock()
    pools = FairPools([object()], clock)  # type: ignore[list-item]
    for client, seconds in (("heavy", 100.0), ("light", 1.0)):
        pool = pools.acquire(client, lambda: False)
        pools.release(client, pool, seconds)  # type: ignore[arg-type]
    first = pools.acquire("blocker", lambda: False)
    order: list[str] = []

    def wait(client: str) -> None:
        pool = pools.acquire(client, lambda: False)
        order.append(client)
        pools.release(client, pool, 0.0)  # type: ignore[arg-type]

    threads = []
    for client in ("heavy", "light", "new"):
        thread = threading.Thread(target=wait, args=(client,))
        thread.start()
        threads.append(thread)
        while pools.waiting < len(threads):
            time.sleep(0.01)
    pools.release("blocker", first, 0.0)  # type: ignore[arg-type]
    for thread in threads:
        thread.join(10)
    assert order == ["new", "light", "heavy"]
    clock.now += 20 * USAGE_HALF_LIFE  # long ago: forgotten
    pool = pools.acquire("heavy", lambda: False)
    pools.release("heavy", pool, 0.0)  # type: ignore[arg-type]
    assert pools.waiting == 0


def test_a_waiting_check_that_is_cancelled_gets_no_pool() -> None:
    pools = FairPools([object()])  # type: ignore[list-item]
    held = pools.acquire("A", lambda: False)
    cancelled = threading.Event()
    got: list[object] = []
    thread = threading.Thread(target=lambda: got.append(pools.acquire("B", cancelled.is_set)))
    thread.start()
    while pools.waiting < 1:
        time.sleep(0.01)
    cancelled.set()
    pools.wake()  # whoever cancels wakes the waiting checks (`JobRunner` does)
    thread.join(10)
    assert got == [None] and pools.waiting == 0
    pools.release("A", held, 0.0)  # type: ignore[arg-type]


def test_a_check_keeps_its_pool_while_one_is_free_or_only_its_own_client_waits() -> None:
    pools = FairPools([object(), object()])  # type: ignore[list-item]
    pools.acquire("A", lambda: False)
    assert not pools.should_yield("A")  # nobody waits
    pools.acquire("A", lambda: False)
    given_up = threading.Event()
    own = threading.Thread(target=pools.acquire, args=("A", given_up.is_set))
    own.start()
    while pools.waiting < 1:
        time.sleep(0.01)
    assert not pools.should_yield("A")  # its own client's check: first come, first served
    given_up.set()
    pools.wake()
    own.join(10)
    assert pools.waiting == 0


def test_the_budget_refills_at_its_rate_up_to_a_minute_and_may_be_spent_ahead() -> None:
    clock = Clock()
    budget = AdjudicationBudget(0.5, clock)
    assert budget.available() == 0.5 * BUCKET_SECONDS  # full at start
    budget.spend(0.5 * BUCKET_SECONDS + 10)
    assert budget.available() == -10 and not budget.grants(first=False)
    assert budget.grants(first=True)  # a check's first source: a single game, in full
    clock.now += 30  # 15 s back
    assert budget.available() == 5 and budget.grants(first=False)
    clock.now += 3600
    assert budget.available() == 0.5 * BUCKET_SECONDS  # never more than a minute's worth
    budget.spend(3 * 0.5 * BUCKET_SECONDS)
    assert not budget.grants(first=True)  # past a whole bucket ahead, not even the first
    assert AdjudicationBudget(0.0, clock).grants(first=False)  # 0: no bound


def test_a_slice_hands_tasks_until_it_ends_and_says_where_the_next_begins() -> None:
    ends = iter([False, False, True])
    piece = Slice(list("abcdef"), 1, lambda: next(ends), lambda task, i: f"{task}{i}")
    assert list(piece) == ["b1", "c2", "d3"] and piece.next == 4
    rest = Slice(list("abcdef"), 4, lambda: True)
    assert list(rest) == ["e"] and rest.next == 5  # at least one, whatever ends() says
    assert list(Slice(list("ab"), 2, lambda: False)) == []


def test_a_small_check_comes_before_a_large_one_of_a_client_holding_as_many() -> None:
    pools = FairPools([object()])  # type: ignore[list-item]
    first = pools.acquire("blocker", lambda: False)
    order: list[str] = []

    def wait(client: str, small: bool) -> None:
        pool = pools.acquire(client, lambda: False, small=small)
        order.append(client)
        pools.release(client, pool, 0.0)  # type: ignore[arg-type]

    threads = []
    for client, small in (("archive", False), ("paste", True)):  # the archive came first
        thread = threading.Thread(target=wait, args=(client, small))
        thread.start()
        threads.append(thread)
        while pools.waiting < len(threads):
            time.sleep(0.01)
    pools.release("blocker", first, 0.0)  # type: ignore[arg-type]
    for thread in threads:
        thread.join(10)
    assert order == ["paste", "archive"]
