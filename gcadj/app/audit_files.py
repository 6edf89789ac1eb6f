"""The user's files are safe from an audit: which files it reads, and which it may replace.

An audit reads games and writes three products: the JSONL (``--output``), a CSV and an HTML
report. The rules, all checked before the first game is judged:

- A folder is walked as `gcadj.sources.walk.is_walked` says (game files, hidden entries
  and HTML pages that gcadj wrote skipped); the checks below ask the same rule.
- ``--csv`` and ``--report`` never replace a source of the audit (a file named, or one the
  walk reads) nor the ``--output`` file, nor each other, even with ``--force``: files are
  compared by what they are (same inode, else the same resolved path), not by spelling.
- Without ``--force`` they replace only a CSV or report that gcadj wrote, recognised by
  content: the exact header row of gcadj's CSV, the generator tag of its HTML.
- ``--output`` is never a source either. It is created exclusively (unless ``--resume`` or
  ``--force``) and locked (`fcntl.flock`, not blocking) as long as the audit holds it, so
  a second audit on the same file stops at once and says why, instead of interleaving.
- ``--resume`` knows a source by `source_key`: its resolved path (or its URL), so
  ``games/a.txt`` and ``/home/me/games/a.txt`` are the same game.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from gcadj.about import is_gcadj_html
from gcadj.errors import AuditError
from gcadj.outputs.audit_report import is_audit_csv
from gcadj.sources.walk import is_walked
from gcadj.urls import is_url, redact_url

HEAD_BYTES: Final = 4096  # enough for the CSV header row and an HTML <head>


def source_key(spec: str) -> str:
    """What identifies a source across spellings: a URL as its verdicts name it (without
    credentials, `redact_url`), a path resolved."""
    return redact_url(spec) if is_url(spec) else os.path.realpath(spec)


def _head(path: Path) -> str | None:
    try:
        with path.open("rb") as handle:
            return handle.read(HEAD_BYTES).decode("utf-8", "replace")
    except OSError:
        return None


def same_file(a: Path, b: Path) -> bool:
    """The same file, whatever the spelling: one inode, else one resolved path."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def is_source(target: Path, specs: Iterable[str]) -> bool:
    """Is `target` a source of an audit of `specs` (a named file, or one a walk reads)?"""
    real = Path(os.path.realpath(target))
    for spec in specs:
        if is_url(spec):
            continue
        if os.path.isdir(spec):
            try:
                inside = real.relative_to(os.path.realpath(spec))
            except ValueError:
                continue
            parts = inside.parts
            visible = bool(parts) and not any(part.startswith(".") for part in parts)
            if visible and is_walked(parts[-1], str(real) if real.exists() else None):
                return True
        elif same_file(target, Path(spec)):
            return True
    return False


def written_by_gcadj(path: Path, kind: str) -> bool:
    """Did gcadj write this file? `kind` is "csv" (its header row) or "html" (its tag)."""
    head = _head(path)
    if head is None:
        return False
    return is_audit_csv(head) if kind == "csv" else is_gcadj_html(head)


def check_products(
    sources: Iterable[str],
    out: Path,
    products: Iterable[tuple[str, Path, str]],
    *,
    force: bool,
) -> None:
    """Refuse (`AuditError`) any product (option, path, kind) an audit must not write.

    `out` is the JSONL; each product is ("--csv", path, "csv") or ("--report", path, "html").
    """
    specs = tuple(sources)
    if is_source(out, specs):
        raise AuditError(f"--output {out} is a source of this audit; gcadj never replaces a game")
    seen: list[tuple[str, Path]] = []
    for option, path, kind in products:
        if same_file(path, out):
            raise AuditError(
                f"{option} {path} is the --output file: writing it would destroy the audit"
            )
        if is_source(path, specs):
            raise AuditError(
                f"{option} {path} is a source of this audit; gcadj never replaces a game"
            )
        for other, earlier in seen:
            if same_file(path, earlier):
                raise AuditError(f"{option} and {other} name the same file, {path}")
        seen.append((option, path))
        if path.exists() and not force and not written_by_gcadj(path, kind):
            what = "CSV" if kind == "csv" else "report"
            raise AuditError(
                f"{option} {path} exists and is not a {what} gcadj wrote; use --force to replace it"
            )


def lock_exclusively(fd: int) -> bool:
    """Take the audit lock on an open file without waiting; False when another holds it.

    The lock (`fcntl.flock`) goes with the open file and is released when it is closed,
    also when the process dies. Where flock does not exist, nothing is locked.
    """
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock to take
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def is_locked(path: Path) -> bool:
    """Does another audit hold `path` now?"""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        return not lock_exclusively(fd)
    finally:
        os.close(fd)  # releases the lock if we took it


__all__ = [
    "AuditError",
    "check_products",
    "is_locked",
    "is_source",
    "lock_exclusively",
    "same_file",
    "source_key",
    "written_by_gcadj",
]
