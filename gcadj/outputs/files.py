"""Writing the files a user names: complete or not at all, and never over a file unless asked.

Every output file gcadj writes (`fetch -o`, `export -o`, `audit --csv/--report`) goes
through `atomic_text_file`: the text is written under a temporary name beside the target
and moved into place only once complete, so an interrupted run never leaves half a file.
Without `overwrite`, the move is a hard link, which fails if the target exists (even if
it appeared meanwhile): nothing the user had is lost. A new file gets the permissions the
user's umask gives any new file (the temporary file's own 0600 would hide a shared report);
a replaced file keeps its own. A file that cannot be written (a full disk, no permission)
is `gcadj.errors.CannotWrite`, naming the target, never the temporary file.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from gcadj.errors import CannotWrite


def _mode_for(target: Path) -> int:
    """The existing file's permissions, else those a new file gets under the umask."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextmanager
def atomic_text_file(
    target: Path, *, overwrite: bool = True, newline: str | None = "\n"
) -> Iterator[IO[str]]:
    """A UTF-8 text handle whose content becomes `target` when the block ends cleanly.

    Raises FileExistsError when `target` exists and `overwrite` is false, and
    `CannotWrite` (naming `target`, not the temporary file) when it cannot be written:
    the folder refuses, or the disk fills while the block writes.
    """
    if not overwrite and target.exists():
        raise FileExistsError(errno.EEXIST, "File exists", str(target))
    mode = _mode_for(target)
    try:
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as err:
        raise CannotWrite(str(target), err) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as handle:
            yield handle
        os.chmod(temp, mode)
        if overwrite:
            os.replace(temp, target)
        else:
            _link_new(temp, target)
    except (FileExistsError, CannotWrite):
        raise
    except OSError as err:
        raise CannotWrite(str(target), err) from None
    finally:
        Path(temp).unlink(missing_ok=True)


def _link_new(temp: str, target: Path) -> None:
    """Give the finished temporary file the name `target`, which must not exist yet."""
    try:
        os.link(temp, target)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: check, then rename
        if target.exists():
            raise FileExistsError(errno.EEXIST, "File exists", str(target)) from None
        os.replace(temp, target)


def write_text_file(target: Path, text: str, *, overwrite: bool) -> None:
    """Write `text` to `target` atomically (see `atomic_text_file`)."""
    with atomic_text_file(target, overwrite=overwrite) as handle:
        handle.write(text)
