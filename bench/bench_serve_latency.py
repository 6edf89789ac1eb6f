"""How soon ``gcadj serve`` answers a tiny check (issue 37: jobs awaited, not polled).

Starts the server (the gcadj program beside this interpreter, `program.GCADJ`; one
worker, no adjudication wanted), then sends `--checks` one-line games one after another:
to ``/api/check`` (the JSON lines, read to their end) and to ``/check`` (the form: the
time to its 303, which comes once the check has ended). Prints the median and the 90th
percentile of each, from the client. A server that polls its checks adds up to a polling
step to each answer; one that awaits them adds nothing.

``--baseline DIR`` runs the same against another checkout of gcadj (a source tree, e.g.
``git archive c8bfbee | tar -x -C DIR``, the last commit that polled), in the same run,
and prints the ratios: the numbers of one machine at one load, compared with each other.

Run: ``python bench/bench_serve_latency.py [--checks 100] [--baseline DIR]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import requests
from program import build_of_program, served

GAME = b"P f2-f3\np e7-e5\nP g2-g4\nq d8-h4\n"  # a mate: nothing left to adjudicate


def timed(checks: int, send: object) -> list[float]:
    assert callable(send)
    times = []
    for _ in range(checks):
        started = time.perf_counter()
        send()
        times.append(time.perf_counter() - started)
    return times


def run(tree: Path | None, checks: int) -> tuple[list[float], list[float]]:
    """The times of `checks` API checks and `checks` form checks, in seconds."""
    with served(tree, ["--jobs", "1", "--client-checks", "0"]) as (_, url):
        session = requests.Session()

        def api() -> None:
            reply = session.post(url + "api/check?name=g.txt", data=GAME, timeout=60)
            assert reply.status_code == 200 and reply.text.count("\n") == 1, reply.text

        def form() -> None:
            reply = session.post(
                url + "check", data={"text": GAME.decode()}, allow_redirects=False, timeout=60
            )
            assert reply.status_code == 303, reply.text

        timed(5, api)  # the worker warmed up
        return timed(checks, api), timed(checks, form)


def said(times: list[float]) -> str:
    ordered = sorted(times)
    ninety = ordered[int(0.9 * (len(ordered) - 1))]
    return f"median {statistics.median(times) * 1000:.1f} ms, p90 {ninety * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checks", type=int, default=100)
    parser.add_argument("--baseline", type=Path, default=None)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"{args.checks} tiny checks each way, one after another; {build_of_program()}")
    print(f"load average at the start: {load:.1f} on {os.cpu_count()} cores")
    ours = run(None, args.checks)
    print(f"this build: API {said(ours[0])}; form {said(ours[1])}")
    if args.baseline is not None:
        base = run(args.baseline, args.checks)
        print(f"baseline:   API {said(base[0])}; form {said(base[1])}")
        for name, mine, theirs in (("API", ours[0], base[0]), ("form", ours[1], base[1])):
            ratio = statistics.median(theirs) / statistics.median(mine)
            print(f"{name}: the baseline's median is {ratio:.2f} times this build's")


if __name__ == "__main__":
    main()
