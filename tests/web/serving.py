"""A real `gcadj serve` for the web tests: the CLI started as a process on a free port.

Nothing is a test client: the tests talk HTTP to uvicorn over 127.0.0.1, with `requests`,
raw sockets and headless Chromium. The server's temporary folder (TMPDIR) and its
per-user data folder (XDG_DATA_HOME: where its results are kept unless ``--data`` says
otherwise) are the test's own, so a test can look at what the server wrote there, and
that it removed it; nothing is written to the home folder of whoever runs the tests.
What the server prints after its first line (its log) is read as it comes into
`Server.log`, so a test can read it and the server never blocks on a full pipe.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from conftest import ROOT


@dataclass
class Server:
    url: str
    process: subprocess.Popen[str]
    tmp: Path
    log: list[str] = field(default_factory=list)  # the lines it printed after the first

    @property
    def port(self) -> int:
        return int(self.url.rstrip("/").rsplit(":", 1)[1])

    def log_text(self) -> str:
        return "".join(list(self.log))


@contextmanager
def running_server(tmp: Path, *flags: str, env: dict[str, str] | None = None) -> Iterator[Server]:
    """`gcadj serve --port 0 FLAGS`, until the block ends (then stopped with SIGINT, as
    Ctrl-C); `env`: more environment variables for it (the test hooks)."""
    tmp.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp / "data-home"),
        **(env or {}),
        "TMPDIR": str(tmp),
        "PYTHONUNBUFFERED": "1",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "gcadj", "serve", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert process.stdout is not None
    line = process.stdout.readline()  # "gcadj serve: http://127.0.0.1:PORT/ (Ctrl-C to stop); ..."
    if "http://" not in line:
        process.kill()
        raise AssertionError(f"gcadj serve did not start: {line}{process.stdout.read()}")
    server = Server(line.split()[2], process, tmp, [line])
    output = process.stdout

    def drain() -> None:  # ends when the server does
        for printed in output:
            server.log.append(printed)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        yield server
    finally:
        process.send_signal(2)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        reader.join(10)


def zip_of(members: dict[str, bytes], *, level: int = 9) -> bytes:
    """A zip archive of these members, compressed (deflate)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as archive:
        for name, data in members.items():
            archive.writestr(
                zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED
            )
    return out.getvalue()


def wait_for(condition, timeout: float = 30.0, every: float = 0.1):  # type: ignore[no-untyped-def]
    """The first true value of `condition()` within `timeout` seconds (else AssertionError)."""
    end = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError("timed out waiting")
        time.sleep(every)
