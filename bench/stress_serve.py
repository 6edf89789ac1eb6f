"""Stress runs of ``gcadj serve`` (issue 39): does a legitimate player still get a verdict
while other clients do their worst?

Starts the server (the gcadj program beside this interpreter, `program.GCADJ`) on a free
port of 127.0.0.1, then runs one load from the "attacker" addresses (127.0.0.2, and more
with ``--attackers N``) for ``--seconds``, while a legitimate client on 127.0.0.200
pastes a single unfinished game every ``--every`` seconds: once to the JSON API
(``/api/check?adjudicate=1``, its verdict with its adjudication) and once through the
page (``POST /check``, then its result's address until it is no longer progress). Loads:

- ``archives``: ``--clients`` (40) concurrent clients each sending, again and again, a zip
  of ``--games`` (50) unfinished games to ``/api/check?adjudicate=1`` (every game
  adjudicated), reading every line;
- ``trickle``: ``--clients`` (10) bodies each declaring 20 MB, sent at 11 KB/s, begun
  again when cut off;
- ``slow-bodies``: ``--clients`` (260) bodies of 100 KB sent at 1 byte/s, begun again;
- ``idle``: ``--clients`` (1,050) idle connections, opened again when closed;
- ``uploads``: three waves of ``--clients`` (30) URL-encoded forms of 19.8 MB at once,
  then three waves of multipart forms of ten 1.98 MB parts (memory).

Prints what the attackers were answered (by status; "reset": the connection closed or
reset), each legitimate paste's time to its verdict, the server process's peak resident
memory (VmHWM) and its memory at the end, the tree's (the server and its workers), and
the tracebacks in its log. Run: ``python bench/stress_serve.py --scenario archives``
(``--scenario all`` runs the five in turn, each on a fresh server).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import io
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from program import GCADJ, build_of_program

ROOT = Path(__file__).resolve().parent.parent
UNFINISHED = (ROOT / "fixtures" / "examples" / "ex1_pocket_mutation_drops.txt").read_bytes()
LEGIT = "127.0.0.200"


@dataclass
class Server:
    url: str
    port: int
    process: subprocess.Popen[str]
    log: list[str] = field(default_factory=list)


@contextlib.contextmanager
def serving(flags: list[str]) -> Iterator[Server]:
    with tempfile.TemporaryDirectory(prefix="stress-serve-") as tmp:
        env = {**os.environ, "TMPDIR": tmp, "XDG_DATA_HOME": tmp, "PYTHONUNBUFFERED": "1"}
        process = subprocess.Popen(
            [GCADJ, "serve", "--port", "0", *flags],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        assert process.stdout is not None
        first = process.stdout.readline()
        url = first.split()[2]
        server = Server(url, int(url.rstrip("/").rsplit(":", 1)[1]), process, [first])
        output = process.stdout
        reader = threading.Thread(target=lambda: server.log.extend(output), daemon=True)
        reader.start()
        try:
            yield server
        finally:
            process.send_signal(2)
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            reader.join(10)


def kib(pid: int, name: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(name + ":"):
            return int(line.split()[1])
    return 0


def tree_rss(pid: int) -> int:
    """KiB resident in the process and all its descendants."""
    total = kib(pid, "VmRSS")
    children = Path(f"/proc/{pid}/task/{pid}/children")
    with contextlib.suppress(OSError):
        for child in children.read_text().split():
            total += tree_rss(int(child))
    return total


def request(
    server: Server,
    method: str,
    path: str,
    body: bytes = b"",
    headers: dict[str, str] | None = None,
    source: str = LEGIT,
    timeout: float = 600,
) -> tuple[int, bytes, dict[str, str]]:
    """One request from `source`: (status, body, headers); status 0 if the connection was
    closed or reset."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=timeout, source_address=(source, 0)
    )
    try:
        connection.request(method, path, body=body or None, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        return response.status, data, {k.lower(): v for k, v in response.getheaders()}
    except (OSError, http.client.HTTPException):
        return 0, b"", {}
    finally:
        connection.close()


def multipart(files: list[tuple[str, str, bytes]]) -> tuple[bytes, dict[str, str]]:
    parts = []
    for field_name, name, data in files:
        disposition = f'form-data; name="{field_name}"; filename="{name}"'
        parts.append(f"--BnD\r\nContent-Disposition: {disposition}\r\n\r\n".encode() + data)
    body = b"\r\n".join(parts) + b"\r\n--BnD--\r\n"
    return body, {"content-type": "multipart/form-data; boundary=BnD"}


# -- the legitimate client ----------------------------------------------------------------


@dataclass
class Paste:
    api: list[float] = field(default_factory=list)  # seconds to the verdict
    page: list[float] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def paste_api(server: Server, out: Paste, n: int) -> None:
    began = time.perf_counter()
    status, body, _ = request(
        server, "POST", f"/api/check?adjudicate=1&name=paste{n}.txt", UNFINISHED
    )
    if status == 200 and b'"adjudication"' in body:
        out.api.append(time.perf_counter() - began)
    else:
        out.failed.append(f"api {status} {body[:120]!r}")


def paste_page(server: Server, out: Paste, n: int) -> None:
    began = time.perf_counter()
    body, headers = multipart([("file", f"paste{n}.txt", UNFINISHED)])
    origin = {"origin": server.url.rstrip("/")}
    status, answer, got = request(server, "POST", "/check", body, {**headers, **origin})
    if status != 303:
        out.failed.append(f"page {status} {answer[:120]!r}")
        return
    where = got["location"]
    while time.perf_counter() - began < 120:
        status, answer, _ = request(server, "GET", where)
        if status == 200 and b"Checking" not in answer[:2000]:
            out.page.append(time.perf_counter() - began)
            return
        time.sleep(0.2)
    out.failed.append("page: no result in 120 s")


def legitimate(server: Server, stop: threading.Event, every: float, out: Paste) -> None:
    n = 0
    while not stop.wait(every if n else every / 2):
        n += 1
        paste_api(server, out, n)
        paste_page(server, out, n)


# -- the loads ------------------------------------------------------------------------------


def attackers(count: int) -> list[str]:
    return [f"127.0.0.{2 + i}" for i in range(count)]


def archives_load(server: Server, args: argparse.Namespace, stop: threading.Event) -> Counter[str]:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for i in range(args.games):
            archive.writestr(f"club/g{i:03d}.txt", UNFINISHED)
    body, headers = multipart([("file", "archive.zip", buffer.getvalue())])
    statuses: Counter[str] = Counter()
    addresses = attackers(args.attackers)

    def client(n: int) -> None:
        while not stop.is_set():
            status, _, _ = request(
                server,
                "POST",
                "/api/check?adjudicate=1",
                body,
                headers,
                source=addresses[n % len(addresses)],
            )
            statuses[str(status or "reset")] += 1
            if status != 200:
                stop.wait(1.0)  # a client told "busy" tries again a second later

    run_clients(args.clients, client, stop, args.seconds)
    return statuses


def trickled(
    server: Server,
    source: str,
    declared: int,
    rate: float,
    stop: threading.Event,
    statuses: Counter[str],
) -> None:
    """Bodies declaring `declared` bytes sent at `rate` bytes a second, again when cut."""
    chunk = max(1, int(rate / 10))
    while not stop.is_set():
        try:
            with socket.create_connection(
                ("127.0.0.1", server.port), timeout=30, source_address=(source, 0)
            ) as sock:
                sock.sendall(
                    f"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                    f"Content-Type: text/plain\r\nContent-Length: {declared}\r\n\r\n".encode()
                )
                sent = 0
                sock.setblocking(False)
                while not stop.is_set() and sent < declared:
                    with contextlib.suppress(BlockingIOError):
                        answer = sock.recv(64)
                        statuses["503" if answer.startswith(b"HTTP/1.1 503") else "cut"] += 1
                        break
                    sock.send(b"\n" * chunk)
                    sent += chunk
                    time.sleep(chunk / rate)
        except OSError:
            statuses["reset"] += 1
            stop.wait(0.5)


def trickle_load(server: Server, args: argparse.Namespace, stop: threading.Event) -> Counter[str]:
    statuses: Counter[str] = Counter()
    addresses = attackers(args.attackers)

    def client(n: int) -> None:
        trickled(server, addresses[n % len(addresses)], 20_000_000, 11_000, stop, statuses)

    run_clients(args.clients, client, stop, args.seconds)
    return statuses


def slow_bodies_load(
    server: Server, args: argparse.Namespace, stop: threading.Event
) -> Counter[str]:
    statuses: Counter[str] = Counter()
    addresses = attackers(args.attackers)

    def client(n: int) -> None:
        trickled(server, addresses[n % len(addresses)], 100_000, 1.0, stop, statuses)

    run_clients(args.clients, client, stop, args.seconds)
    return statuses


def idle_load(server: Server, args: argparse.Namespace, stop: threading.Event) -> Counter[str]:
    statuses: Counter[str] = Counter()
    addresses = attackers(args.attackers)

    def client(n: int) -> None:
        while not stop.is_set():
            try:
                with socket.create_connection(
                    ("127.0.0.1", server.port),
                    timeout=5,
                    source_address=(addresses[n % len(addresses)], 0),
                ) as sock:
                    sock.settimeout(1.0)
                    while not stop.is_set():
                        with contextlib.suppress(TimeoutError):
                            if sock.recv(64) == b"":
                                statuses["closed"] += 1
                                break
            except OSError:
                statuses["reset"] += 1
                stop.wait(0.2)

    run_clients(args.clients, client, stop, args.seconds)
    return statuses


def run_clients(
    count: int, client: Callable[[int], None], stop: threading.Event, seconds: float
) -> None:
    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(count)]
    for thread in threads:
        thread.start()
    stop.wait(seconds)
    stop.set()
    for thread in threads:
        thread.join(60)


def uploads_load(server: Server, args: argparse.Namespace, stop: threading.Event) -> Counter[str]:
    """Waves of large forms: URL-encoded (one 19.8 MB field), then multipart (ten parts
    of 1.98 MB, each under the size a part spills at on its own)."""
    statuses: Counter[str] = Counter()
    text = (UNFINISHED.decode() + "\n" * 20_000_000)[: 19_800_000 // 3]
    encoded = ("text=" + quote(text, safe="")).encode()[:19_800_000]
    urlencoded = {"content-type": "application/x-www-form-urlencoded"}
    part = UNFINISHED + b"\n" * (1_980_000 - len(UNFINISHED))
    parts, headers = multipart([("file", f"g{i}.txt", part) for i in range(10)])
    addresses = attackers(args.attackers)
    for label, body, kind in (("urlencoded", encoded, urlencoded), ("multipart", parts, headers)):
        for wave in range(3):
            answers: list[int] = []

            def post(
                n: int,
                body: bytes = body,
                kind: dict[str, str] = kind,
                answers: list[int] = answers,
            ) -> None:
                origin = {"origin": server.url.rstrip("/")}
                status, _, _ = request(
                    server,
                    "POST",
                    "/check",
                    body,
                    {**kind, **origin},
                    source=addresses[n % len(addresses)],
                )
                answers.append(status)

            threads = [threading.Thread(target=post, args=(n,)) for n in range(args.clients)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(600)
            time.sleep(3)
            rss = kib(server.process.pid, "VmRSS") / 1024
            print(
                f"  {label} wave {wave + 1}: {Counter(answers)}; server RSS after "
                f"{rss:.0f} MiB, tree {tree_rss(server.process.pid) / 1024:.0f} MiB"
            )
            for status in answers:
                statuses[f"{label} {status or 'reset'}"] += 1
    stop.set()
    return statuses


LOADS = {
    "archives": (archives_load, 40),
    "trickle": (trickle_load, 10),
    "slow-bodies": (slow_bodies_load, 260),
    "idle": (idle_load, 1050),
    "uploads": (uploads_load, 30),
}


def run(scenario: str, args: argparse.Namespace) -> None:
    load, clients = LOADS[scenario]
    args.clients = args.clients_given or clients
    flags = ["--max-upload", "25"] if scenario == "uploads" else []
    with serving(flags + args.flags) as server:
        time.sleep(1.0)
        before = kib(server.process.pid, "VmRSS")
        stop = threading.Event()
        pastes = Paste()
        legit = threading.Thread(target=legitimate, args=(server, stop, args.every, pastes))
        if scenario != "uploads":
            legit.start()
        began = time.perf_counter()
        statuses = load(server, args, stop)
        wall = time.perf_counter() - began
        if legit.is_alive():
            legit.join(180)
        peak = kib(server.process.pid, "VmHWM")
        after = kib(server.process.pid, "VmRSS")
        tree = tree_rss(server.process.pid)
    log = "".join(server.log)
    print(
        f"{scenario}: {args.clients} clients from {args.attackers} address(es) for "
        f"{wall:.0f} s; attackers answered {dict(statuses)}"
    )
    for label, times in (("API", pastes.api), ("page", pastes.page)):
        if times:
            print(
                f"  legitimate paste by the {label}: {len(times)} verdicts, median "
                f"{statistics.median(times):.2f} s, max {max(times):.2f} s, "
                f"over 10 s: {sum(t > 10 for t in times)}"
            )
    if pastes.failed:
        print(f"  legitimate pastes that failed: {pastes.failed}")
    print(
        f"  server RSS before {before / 1024:.0f} MiB, peak {peak / 1024:.0f} MiB, at the end "
        f"{after / 1024:.0f} MiB (tree {tree / 1024:.0f} MiB); tracebacks in its log: "
        f"{log.count('Traceback')}; 500s: {log.count('internal error')}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=[*LOADS, "all"], default="archives")
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--clients", dest="clients_given", type=int, default=0)
    parser.add_argument("--attackers", type=int, default=1, help="addresses the load comes from")
    parser.add_argument("--games", type=int, default=50, help="games in each archive")
    parser.add_argument("--every", type=float, default=10.0, help="seconds between pastes")
    parser.add_argument("flags", nargs="*", help="more options for gcadj serve (after --)")
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"{build_of_program()}; load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    for scenario in LOADS if args.scenario == "all" else [args.scenario]:
        run(scenario, args)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
