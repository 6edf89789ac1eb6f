"""The two streams gcadj writes to, as a Unix filter needs them.

* `say` prints a line for a person: every human-readable line goes through it, so what a
  log, a page or a file name put into the line is made visible (`gcadj.terminal.visible`)
  before a terminal can obey it. Data (JSON lines, exports, fetched logs) is written as
  it is; its formats carry their own escaping.
* `guard_standard_streams` (called once, by the console script) makes a reader that
  stops early (``gcadj check DIR | head -1``) end gcadj as it ends a Unix filter: quietly,
  exit 141 (128 + SIGPIPE), whatever command or line was writing, never 1 (which would
  mean "illegal move found") or 5 (an internal error). A stream that cannot be written
  for another reason (a full disk: ``> /dev/full``, an I/O error) ends gcadj with one
  line, "gcadj: cannot write standard output: No space left on device", and exit 6
  (`gcadj.app.exit_codes.EXIT_CANNOT_WRITE`): the user's environment, not a bug. It also
  makes whatever is shown on a terminal safe, data included: a PGN export printed on a
  terminal is for eyes.
"""

from __future__ import annotations

import io
import os
import sys
from typing import Final, TextIO

import typer

from gcadj.app.exit_codes import EXIT_CANNOT_WRITE, EXIT_READER_GONE
from gcadj.errors import CannotWrite
from gcadj.terminal import visible


def say(message: str = "", *, err: bool = False, nl: bool = True) -> None:
    """Print a line for a person (stdout, or stderr with `err`), input made visible."""
    typer.echo(visible(message), err=err, nl=nl)


class ReaderGone(SystemExit):
    """The reader of stdout (or stderr) went away: gcadj stops, exit 141.

    A `SystemExit`, not an `Exception`, so no `except Exception` on the way (a command's
    own defence against bugs, a source's `guarded` judging) mistakes it for a failure;
    `finally` blocks still run (a worker pool is shut down, a temporary folder removed).
    """

    def __init__(self) -> None:
        super().__init__(EXIT_READER_GONE)


class StreamFailed(SystemExit):
    """A standard stream could not be written (not a reader gone: a full disk, an I/O
    error): gcadj stops, exit 6, and `message` says why in one line.

    A `SystemExit`, as `ReaderGone` is, for the same reasons; the console script prints
    `message` on stderr (if stderr is the stream that failed, it goes nowhere)."""

    def __init__(self, fd: int, err: OSError) -> None:
        super().__init__(EXIT_CANNOT_WRITE)
        name = STREAM_NAMES.get(fd, f"file descriptor {fd}")
        self.message = f"gcadj: {CannotWrite(name, err)}"


STREAM_NAMES: Final = {1: "standard output", 2: "standard error"}


class _GuardedFile(io.FileIO):
    """The file under a standard stream: a write to a pipe whose reader has gone raises
    `ReaderGone`, any other failure `StreamFailed`, after pointing the descriptor at
    /dev/null, so the writes still to come (a `finally`'s last line, the final flush) go
    nowhere, quietly."""

    def write(self, data: object) -> int:
        try:
            return super().write(data)  # type: ignore[arg-type]
        except BrokenPipeError:
            silence(self.fileno())
            raise ReaderGone() from None
        except OSError as err:
            silence(self.fileno())
            raise StreamFailed(self.fileno(), err) from None


class _VisibleText(io.TextIOWrapper):
    """A text stream that shows control characters (`visible`): stdout on a terminal."""

    def write(self, text: str) -> int:
        return super().write(visible(text))


def silence(fd: int) -> None:
    """Point `fd` at /dev/null: nothing more written there can fail or be seen."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def _guarded(stream: TextIO, *, show_controls: bool) -> TextIO:
    """A stream writing where `stream` does, with the same encoding and buffering, through
    `_GuardedFile` (and shown safe for a terminal with `show_controls`)."""
    stream.flush()
    raw = _GuardedFile(stream.fileno(), "w", closefd=False)
    kind = _VisibleText if show_controls else io.TextIOWrapper
    return kind(
        io.BufferedWriter(raw),
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=bool(stream.line_buffering),
        write_through=getattr(stream, "write_through", False),
    )


def guard_standard_streams() -> None:
    """Replace sys.stdout and sys.stderr by guarded ones (see the module's docstring).

    A stream that is not a real file (a test's capture) is left as it is.
    """
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        try:
            terminal = os.isatty(stream.fileno())
        except (AttributeError, OSError, ValueError):  # no file descriptor under it
            continue
        setattr(sys, name, _guarded(stream, show_controls=terminal and name == "stdout"))


def flush_standard_streams() -> None:
    """Flush both streams now, inside the console script, rather than at interpreter exit
    where a reader that has gone (or a full disk) would be reported as "Exception ignored"
    and exit 120."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:  # a stream not guarded (there is none in the console script)
            silence(stream.fileno())
            raise ReaderGone() from None
        except OSError as err:
            silence(stream.fileno())
            raise StreamFailed(stream.fileno(), err) from None


__all__ = [
    "EXIT_READER_GONE",
    "ReaderGone",
    "StreamFailed",
    "flush_standard_streams",
    "guard_standard_streams",
    "say",
    "silence",
]
