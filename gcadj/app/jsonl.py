"""The batch runner's JSONL file: whole lines only, in order, locked, resumable.

`JsonlWriter` holds the file of an audit (``--output``) or of a server's check: it opens and
locks it (`gcadj.app.audit_files`), appends complete lines, each call's with one
`os.write`, and fsyncs about once a second (`FSYNC_SECONDS`), so a crash or Ctrl-C loses
nothing already written. **It never leaves a torn last line of its own:** a write that
fails halfway (a full disk, a file size limit) is cut back to the last whole line before
`CannotWrite` says so, in one line ("cannot write results.jsonl: No space left on
device"). Only a SIGKILL in the middle of a write could leave half a line; `read_done`,
which a resumed audit calls first, cuts such a tail off the file.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import stat
import time
from pathlib import Path
from typing import Final

from gcadj.app.audit_files import is_locked, lock_exclusively, source_key
from gcadj.errors import AuditError, CannotWrite

log = logging.getLogger(__name__)

FSYNC_SECONDS: Final = 1.0


def read_done(path: Path) -> set[str]:
    """The sources already judged in an audit file, by `source_key` (resolved path or
    URL, so a resume may spell a path differently); a torn last line is cut off the file.

    Only the last line may be incomplete (a SIGKILL during its write); any other line
    that is not a JSON object with a "source" means the file is not ours: `AuditError`.
    """
    done: set[str] = set()
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        return done
    except OSError as err:
        raise AuditError(f"cannot read {path}: {err.strerror or err}") from None
    good_end = 0
    with handle:
        refuse_special(path, os.fstat(handle.fileno()))
        for number, raw in enumerate(handle, 1):
            if not raw.endswith(b"\n"):
                log.warning("%s: dropping a torn last line (%d bytes)", path, len(raw))
                break
            done.add(_source_of(path, number, raw))
            good_end += len(raw)
    if good_end != path.stat().st_size:
        try:
            with path.open("r+b") as torn:
                torn.truncate(good_end)
        except OSError as err:
            raise CannotWrite(str(path), err) from None
    return done


def _source_of(path: Path, number: int, raw: bytes) -> str:
    try:
        source = json.loads(raw)["source"]
    except (ValueError, TypeError, KeyError):
        raise AuditError(
            f"{path}:{number}: not a gcadj audit line; refusing to resume into it"
        ) from None
    if not isinstance(source, str):
        raise AuditError(f'{path}:{number}: "source" is not a string')
    return source_key(source)


def refuse_special(path: Path, status: os.stat_result) -> None:
    """`AuditError` unless `path` is a regular file: the JSONL is locked, resumed and read
    again for the summary, which a device (/dev/full, a terminal) or a pipe cannot be."""
    if not stat.S_ISREG(status.st_mode):
        raise AuditError(f"{path} is not a regular file; name a file to write the results to")


class JsonlWriter:
    """Holds a JSONL file (see the module docstring).

    Without `resume` or `force` the file is created exclusively; with `force` (and not
    `resume`) an existing file is emptied, but only once the lock is held, so an audit
    never truncates a file another audit is writing. `option` is how the messages name
    the file's option (``--output``). Raises `AuditError` (the file cannot be used) and
    `CannotWrite` (it cannot be written).
    """

    def __init__(
        self, path: Path, *, resume: bool = False, force: bool = False, option: str = "--output"
    ) -> None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
        if not resume and not force:
            flags |= os.O_EXCL
        self.path = path
        try:
            self.fd = os.open(path, flags, 0o644)
        except FileExistsError:
            with contextlib.suppress(OSError):
                refuse_special(path, os.stat(path))
            if is_locked(path):
                raise _held(path, option) from None
            raise AuditError(
                f"{path} exists; use --resume to finish it or --force to replace it"
            ) from None
        except OSError as err:
            raise CannotWrite(str(path), err) from None
        try:
            refuse_special(path, os.fstat(self.fd))
            if not lock_exclusively(self.fd):
                raise _held(path, option)
            if force and not resume:
                os.ftruncate(self.fd, 0)
            self.size = os.lseek(self.fd, 0, os.SEEK_END)
        except BaseException:
            os.close(self.fd)
            self.fd = -1
            raise
        self.last_sync = time.monotonic()
        self.written = 0

    def __enter__(self) -> JsonlWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def write(self, lines: str) -> None:
        """Append `lines`: one or more complete lines, each ending in a newline; all of
        them, or none (`CannotWrite`, the file cut back to where it was)."""
        data = lines.encode("utf-8")
        view = memoryview(data)
        try:
            while view:  # a regular file takes it all at once, unless it is full
                count = os.write(self.fd, view)
                view = view[count:]
            now = time.monotonic()
            if now - self.last_sync >= FSYNC_SECONDS:
                os.fsync(self.fd)
                self.last_sync = now
        except OSError as err:
            self._cut_back()
            raise CannotWrite(str(self.path), err) from None
        self.size += len(data)
        self.written += lines.count("\n")

    def _cut_back(self) -> None:
        """Whole lines only: the file back to its size before the write that failed."""
        try:
            os.ftruncate(self.fd, self.size)
        except OSError:
            log.warning("%s: could not cut a partial line off", self.path)

    def close(self) -> None:
        """Sync and close the file, which releases the lock; `CannotWrite` if the sync
        fails (the disk filled up while the data waited to be written)."""
        if self.fd < 0:
            return
        try:
            os.fsync(self.fd)
        except OSError as err:
            raise CannotWrite(str(self.path), err) from None
        finally:
            os.close(self.fd)
            self.fd = -1


def _held(path: Path, option: str) -> AuditError:
    return AuditError(
        f"another audit holds {path} (it is locked while that audit runs); wait for it "
        f"to finish, or choose another {option}"
    )


__all__ = ["FSYNC_SECONDS", "JsonlWriter", "read_done", "refuse_special"]
