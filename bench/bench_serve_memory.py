"""Memory of ``gcadj serve`` under concurrent large uploads (issue 29, item 3).

Starts the server (the gcadj program beside this interpreter, `program.GCADJ`), then sends
`--clients` uploads of `--mb` MB each at once to ``/api/check`` and reads every answer.
Each upload is a zip holding one incompressible file that is not a game, so the workers
answer at once ("no game file in this zip") and what is measured is the server's own
holding of request bodies, not judging. Prints the main process's resident memory before,
its peak (VmHWM) and after, and how many uploads were judged (200) or shed (503).

``--baseline DIR`` runs the same against another checkout of gcadj (a source tree, e.g.
``git archive ffba04c | tar -x -C DIR``, the last commit before bodies were streamed and
spilled), in the same run, for a like-for-like comparison.

Run: ``python bench/bench_serve_memory.py [--clients 30] [--mb 19.8] [--baseline DIR]
[--max-buffer MB]`` (``--max-buffer 1000`` takes every upload: spilling alone).
"""

from __future__ import annotations

import argparse
import io
import random
import threading
import time
import zipfile
from pathlib import Path

import requests
from program import build_of_program, served


def upload(size: int) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("noise.bin", random.Random(29).randbytes(size))
    return out.getvalue()


def status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise LookupError(field)


def run(tree: Path | None, clients: int, body: bytes, flags: list[str]) -> str:
    with served(tree, ["--max-upload", "25", *flags]) as (process, url):
        time.sleep(1.0)
        before = status_kib(process.pid, "VmRSS")
        codes: list[int] = []

        def post() -> None:
            try:
                reply = requests.post(
                    url + "api/check", files=[("file", ("a.zip", body))], timeout=600
                )
                codes.append(reply.status_code)
            except requests.RequestException:
                codes.append(0)

        started = time.perf_counter()
        threads = [threading.Thread(target=post) for _ in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(600)
        wall = time.perf_counter() - started
        time.sleep(2.0)
        peak = status_kib(process.pid, "VmHWM")
        after = status_kib(process.pid, "VmRSS")
    judged, shed = codes.count(200), codes.count(503)
    other = len(codes) - judged - shed
    return (
        f"RSS before {before / 1024:.0f} MiB, peak {peak / 1024:.0f} MiB, after "
        f"{after / 1024:.0f} MiB; {judged} judged, {shed} shed (503), {other} other; "
        f"{wall:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--mb", type=float, default=19.8)
    parser.add_argument("--baseline", type=Path, default=None)
    parser.add_argument(
        "--max-buffer", default=None, help="this build's --max-buffer (MB), e.g. 1000: none shed"
    )
    args = parser.parse_args()
    flags = [] if args.max_buffer is None else ["--max-buffer", str(args.max_buffer)]
    body = upload(int(args.mb * 1000 * 1000) - 200)
    print(f"{args.clients} uploads of {len(body) / 1e6:.1f} MB at once; {build_of_program()}")
    if args.baseline is not None:
        print(f"baseline {args.baseline}: {run(args.baseline, args.clients, body, [])}")
    print(f"this build {' '.join(flags)}: {run(None, args.clients, body, flags)}")


if __name__ == "__main__":
    main()
