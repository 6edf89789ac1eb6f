"""Where games come from: a file, standard input ('-'), and (see scrape/fetch) pages.

A source is named by what the user typed; reading it gives the log text. Read failures
raise `SourceError` with a message that names the source, so one unreadable source
becomes one "error" verdict and the others go on.

Every source is read up to a cap (`DEFAULT_MAX_BYTES`, 64 MiB, or ``--max-bytes``), as a
page from the web is (``--max-size``): never more than the cap and one byte is held, so
``/dev/zero`` on standard input, a 6 GB sparse file or an endless pipe costs the cap,
not all the memory there is. What is not a regular file is handled by its kind:

* a **FIFO** (``mkfifo``, or ``<(command)`` in a shell) is read without blocking, up to the
  cap, and given up when nothing arrives for `PIPE_TIMEOUT` seconds (no writer ever
  came, or it stalled): opening one the usual way would wait forever for a writer; the
  environment variable `PIPE_TIMEOUT_ENV` sets another number of seconds (the tests'
  shorter deadline, so that giving up is tested without waiting 30 s);
* a **device** or a **socket** is refused in words (``/dev/zero`` never ends, a terminal
  waits for typing): give its content on standard input instead;
* **standard input** is read as it comes, with the cap and no deadline (as ``cat`` reads
  it: a terminal or a slow producer is the user's choice).
"""

from __future__ import annotations

import os
import re
import select
import stat
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, BinaryIO, Final

from gcadj.errors import SourceError
from gcadj.sources.decode import decode_text
from gcadj.urls import is_url, url_scheme

if TYPE_CHECKING:
    from gcadj.sources.fetch import Fetcher

DEFAULT_MAX_BYTES: Final = 64 * 1024 * 1024
PIPE_TIMEOUT: Final = 30.0  # seconds a FIFO may stay silent before it is given up
PIPE_TIMEOUT_ENV: Final = "GCADJ_PIPE_TIMEOUT"  # another number of seconds, if positive
CHUNK: Final = 1024 * 1024


def size_words(count: int) -> str:
    """A byte count as a reader says it: "64 MiB", "1.5 KiB", "100 bytes"."""
    for unit, power in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if count >= 1 << power:
            value = count / (1 << power)
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{count} {'byte' if count == 1 else 'bytes'}"


def too_large(spec: str, max_bytes: int, size: int | None = None) -> SourceError:
    """The error of a source over the cap, saying how to read it anyway."""
    known = f" ({size:,} bytes)" if size is not None else ""
    return SourceError(f"{spec}: larger than {size_words(max_bytes)}{known}; raise --max-bytes")


def pipe_timeout_default() -> float:
    """How long a FIFO may stay silent: `PIPE_TIMEOUT`, or the positive number of seconds
    `PIPE_TIMEOUT_ENV` says (anything else in it is ignored).

    >>> pipe_timeout_default()
    30.0
    """
    try:
        seconds = float(os.environ.get(PIPE_TIMEOUT_ENV, ""))
    except ValueError:
        return PIPE_TIMEOUT
    return seconds if 0 < seconds < float("inf") else PIPE_TIMEOUT


def read_source(
    spec: str,
    max_bytes: int = DEFAULT_MAX_BYTES,
    *,
    pipe_timeout: float | None = None,
    name: str | None = None,
    fetcher: Callable[[], Fetcher] | None = None,
) -> str:
    """The text of a source: '-' is standard input, a URL is fetched, anything else a file.

    Past `max_bytes` bytes the source is refused (`SourceError`, "larger than …"): a URL
    has its own cap, the fetcher's. `pipe_timeout` is how long a FIFO may stay silent
    (None: `pipe_timeout_default`).
    `name` is how messages name standard input (the caller's name for it; default '-').
    `fetcher` gives the fetcher a URL is read with (`read_url`).
    """
    if spec == "-":
        return decode_text(read_stream(sys.stdin.buffer, name or spec, max_bytes))
    if is_url(spec):
        return read_url(spec, fetcher)
    scheme = url_scheme(spec)
    if scheme is not None:  # ftp://, file://: refused here, neither fetched nor opened
        raise SourceError(f"{spec}: only http and https URLs are fetched, not {scheme!r}")
    return decode_text(read_file_bytes(spec, max_bytes, pipe_timeout=pipe_timeout))


def read_file_bytes(
    spec: str, max_bytes: int = DEFAULT_MAX_BYTES, *, pipe_timeout: float | None = None
) -> bytes:
    """The bytes of the file `spec` names, at most `max_bytes` (see the module docstring)."""
    try:
        kind = os.stat(spec).st_mode
    except FileNotFoundError:
        raise SourceError(f"{spec}: no such file") from None
    except OSError as err:
        raise SourceError(f"{spec}: cannot read: {err.strerror or err}") from None
    if stat.S_ISDIR(kind):
        raise SourceError(f"{spec}: is a directory, not a game log")
    if stat.S_ISFIFO(kind):
        seconds = pipe_timeout if pipe_timeout is not None else pipe_timeout_default()
        return _read_fifo(spec, max_bytes, seconds)
    if not stat.S_ISREG(kind):
        what = _KINDS.get(stat.S_IFMT(kind), "not a regular file")
        raise SourceError(
            f"{spec}: is {what}, not a file; to read what it gives, pipe it to standard "
            f"input (gcadj check - < {spec})"
        )
    try:
        with open(spec, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > max_bytes:  # said at once, nothing read (a 6 GB sparse file)
                raise too_large(spec, max_bytes, size)
            return read_stream(handle, spec, max_bytes, size)  # it may have grown since
    except OSError as err:
        raise SourceError(f"{spec}: cannot read: {err.strerror or err}") from None


_KINDS: Final = {
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def read_stream(stream: BinaryIO, spec: str, max_bytes: int, expected: int | None = None) -> bytes:
    """Everything `stream` holds, or `SourceError` once it has given more than `max_bytes`
    (at most `max_bytes` + 1 bytes are read). `expected` is the size a file says it has:
    read in one call when right (asking for the cap at once would allocate the cap)."""
    chunks: list[bytes] = []
    held = 0
    want = CHUNK if expected is None else expected + 1
    try:
        while chunk := stream.read(min(want, max_bytes + 1 - held)):
            chunks.append(chunk)
            held += len(chunk)
            if held > max_bytes:
                raise too_large(spec, max_bytes)
            want = CHUNK
    except OSError as err:
        raise SourceError(f"{spec}: cannot read: {err.strerror or err}") from None
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _read_fifo(spec: str, max_bytes: int, timeout: float) -> bytes:
    """A FIFO's bytes: opened without waiting for a writer, read as data arrives, given
    up after `timeout` seconds without any (on Linux a FIFO no writer has opened polls
    as silent; one whose writer has closed polls as hung up, and reads as the end)."""
    try:
        fd = os.open(spec, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as err:
        raise SourceError(f"{spec}: cannot read: {err.strerror or err}") from None
    chunks: list[bytes] = []
    held = 0
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        last_data = time.monotonic()
        while True:
            silent = time.monotonic() - last_data
            events = poller.poll(max(0.0, timeout - silent) * 1000) if silent < timeout else []
            if not events:
                raise SourceError(
                    f"{spec}: a FIFO that sent nothing for {timeout:g} s (is anything "
                    "writing to it?); gave up"
                )
            try:
                chunk = os.read(fd, min(CHUNK, max_bytes + 1 - held))
            except BlockingIOError:
                continue
            if not chunk:
                if any(flags & select.POLLHUP for _, flags in events):
                    return b"".join(chunks)  # the writer closed it: the end
                time.sleep(0.05)  # readable yet empty, without a hang-up: look again
                continue
            chunks.append(chunk)
            held += len(chunk)
            last_data = time.monotonic()
            if held > max_bytes:
                raise too_large(spec, max_bytes)
    except OSError as err:
        raise SourceError(f"{spec}: cannot read: {err.strerror or err}") from None
    finally:
        os.close(fd)


_GAME_REF = re.compile(r"(.+)#([0-9]+)")


def game_ref(spec: str) -> tuple[str, int] | None:
    """``all.pgn#3`` names the third game of all.pgn (as check and audit name the games of
    a file of several): the file's spec and the number, or None for a whole source. A file
    whose own name ends like that is itself, not a game of another. Games count from 1:
    ``all.pgn#0`` gives the number 0, which names no game (the caller says so)."""
    match = _GAME_REF.fullmatch(spec)
    if match is None or (not is_url(spec) and os.path.exists(spec)):
        return None
    return match[1], int(match[2])


def read_url(url: str, fetcher: Callable[[], Fetcher] | None = None) -> str:
    """The page at an http(s) URL as text, through the polite, cached fetcher `fetcher`
    gives (asked only now; default: the process's shared one).

    requests is imported here, not at start-up. Any other scheme is refused by
    `read_source` (and by the fetcher, at every redirect too) with a message naming it.
    """
    from gcadj.errors import FetchError
    from gcadj.sources.fetch import default_fetcher

    try:
        return (fetcher or default_fetcher)().get(url).text()
    except FetchError as err:
        raise SourceError(str(err)) from None
