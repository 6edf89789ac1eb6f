"""The results of `gcadj serve`, kept in a SQLite database so that each has an address.

A check's result lives at ``/r/<id>`` (`secrets.token_urlsafe`: unguessable) until it
expires (``--keep DAYS`` after it was made), its owner deletes it, or the store makes
room for newer ones; a restart keeps it. What is kept is what its pages are made from,
never the server's state: per check its name, options, the text as given (one pasted or
uploaded text, for the editor), its report and CSV (several games); per game its JSON
line (``gcadj check --json``'s) and its viewer's data (`gcadj.web.check_work.stored_view`),
zlib-compressed. The pages are made from these whenever they are asked for
(`gcadj.web.result_pages`), a fresh result and a week-old one alike.

- **Where**: ``results.sqlite3`` in the data folder (``--data DIR``; default
  `gcadj.about.user_data_dir`), made with mode 0700. One server per folder: the server
  holds an advisory lock (``flock``) on the database file itself for as long as it runs,
  so a second server is refused at start-up, and no file can be deleted to fool it; the
  lock goes with the process, however it ends.
- **Concurrency**: every call opens its own connection (the server's threads and the
  checks' threads never share one), in WAL mode, so readers never wait for a check
  writing its games and writers wait their turn (`BUSY_SECONDS`).
- **Bounded**: the sizes of what is kept are counted per result; past ``--max-store``
  the oldest finished results are deleted first (the one being written is always kept
  whole), and freed pages go back to the file system (incremental vacuum). Every result
  reaches a final state (done, interrupted, or deleted): `interrupt` ends one whose check
  stopped, and `end_stranded` one left running that no check of this server holds, so
  that none stays "running" (never expired, never evicted) for the life of the server.
- **Damage**: a folder that cannot be made or written, a file that is not a database,
  a database shorter than its own header says (torn: its end was cut), or one that fails
  SQLite's quick check is a `StoreError` at start-up, with the folder and what to do; a
  kept text that cannot be read back later is a `StoreError` too (the page says the
  store failed), never a traceback. A check that was running when the server stopped is
  marked "interrupted" when it starts again.

Owners: a result's owner holds a token (in a cookie of the browser that made it); only
a hash of it is kept, and only the owner's request may delete the result.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import sqlite3
import time
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from gcadj.errors import StoreError

log = logging.getLogger(__name__)

FILE_NAME: Final = "results.sqlite3"
APPLICATION_ID: Final = 0x67636164  # "gcad": a database this module made
SCHEMA_VERSION: Final = 1
BUSY_SECONDS: Final = 30.0
DAY: Final = 86400.0
ID_PATTERN: Final = re.compile(r"[A-Za-z0-9_-]{24}")  # secrets.token_urlsafe(18)
MAX_GAMES: Final = 2**31 - 1  # no result holds more games (the zips' files are capped far lower)

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS results (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    owner TEXT NOT NULL,
    name TEXT NOT NULL,
    stem TEXT NOT NULL,
    state TEXT NOT NULL,
    options TEXT NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    skipped INTEGER NOT NULL DEFAULT 0,
    text BLOB,
    report BLOB,
    csv BLOB,
    size INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS results_created ON results (created);
CREATE TABLE IF NOT EXISTS games (
    result TEXT NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    source TEXT NOT NULL,
    line TEXT NOT NULL,
    view BLOB,
    PRIMARY KEY (result, n)
);
"""

RUNNING: Final = "running"
DONE: Final = "done"
INTERRUPTED: Final = "interrupted"


def pack(text: str) -> bytes:
    return zlib.compress(text.encode("utf-8"), 6)


def unpack(data: bytes) -> str:
    """A text `pack` kept; `StoreError` when it cannot be read back (a damaged store)."""
    try:
        return zlib.decompress(data).decode("utf-8")
    except (zlib.error, UnicodeDecodeError) as err:
        raise StoreError(
            f"the store of results is damaged: a kept text is unreadable ({err})"
        ) from None


def is_result_id(text: str) -> bool:
    """Could this be a result's id (`ResultStore.create`'s shape)? An address that cannot
    is no result, and never reaches the database."""
    return ID_PATTERN.fullmatch(text) is not None


def is_game_number(n: int) -> bool:
    """Could a result hold a game numbered `n` (1, 2, ...)?"""
    return 1 <= n <= MAX_GAMES


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class StoredGame:
    """One game of a result: its number (1, 2, ... as judged), source, JSON line and its
    viewer's data (`gcadj.web.check_work.stored_view`'s bytes; None: no game to show)."""

    n: int
    source: str
    line: str
    view: bytes | None = None

    @property
    def size(self) -> int:
        return len(self.line) + len(self.source) + len(self.view or b"")

    def record(self) -> dict[str, Any]:
        """The verdict's JSON (`gcadj check --json`'s object)."""
        found = json.loads(self.line)
        return found if isinstance(found, dict) else {}


@dataclass(frozen=True)
class StoredResult:
    """A check as kept: its id, when it was made (seconds since the epoch), its name (what
    the user checked, as they named it) and its downloads' `stem`, state (running, done,
    interrupted), options (the form's fields: pocket_file, all, fen), games, files of its
    zips skipped, and the text as given (one pasted or uploaded text; None when there was
    none or several)."""

    id: str
    created: float
    name: str
    stem: str
    state: str
    options: dict[str, str]
    games: int
    skipped: int
    text: str | None
    owner: str

    def owned_by(self, token: str | None) -> bool:
        """Was the result made by the holder of this token?"""
        return token is not None and hmac.compare_digest(token_hash(token), self.owner)


class ResultStore:
    """The results, in `folder` (see the module docstring). `keep_days`: how long a result
    is kept; `max_bytes`: the most the kept results may hold."""

    def __init__(self, folder: Path, *, keep_days: float, max_bytes: int) -> None:
        self.folder = folder
        self.path = folder / FILE_NAME
        self.keep_seconds = keep_days * DAY
        self.max_bytes = max_bytes
        self._lock_fd: int | None = None  # the database file, flock'ed while we run

    # -- opening ------------------------------------------------------------------------

    @classmethod
    def open(cls, folder: Path, *, keep_days: float, max_bytes: int) -> ResultStore:
        """The store in `folder`, made if need be and checked; `StoreError` says why it
        cannot be used. Results of a server that stopped while checking are marked
        interrupted; expired ones are deleted."""
        store = cls(folder, keep_days=keep_days, max_bytes=max_bytes)
        where = f"the data folder {folder}"
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(f"cannot make {where}: {err.strerror or err}") from None
        store._take_lock(where)
        try:
            store._prepare(where)
        except BaseException:
            store.close()
            raise
        return store

    def _take_lock(self, where: str) -> None:
        """One server per data folder: an exclusive advisory lock on the database file
        itself (``flock``, which SQLite's own POSIX locks do not touch), held by this
        process until `close` or its end."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as err:
            raise StoreError(f"cannot write in {where}: {err.strerror or err}") from None
        try:
            import fcntl
        except ImportError:  # no flock (Windows): SQLite's own locking still holds
            self._lock_fd = fd
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise StoreError(
                f"another gcadj serve is using {where}; stop it, or give --data another folder"
            ) from None
        self._lock_fd = fd

    def _prepare(self, where: str) -> None:
        fix = (
            f"move {self.path.name} aside (the server then starts with no results) or give "
            "--data another folder"
        )
        try:
            with self._connect(words=False) as db:
                app = db.execute("PRAGMA application_id").fetchone()[0]
                tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                if tables and app != APPLICATION_ID:
                    raise StoreError(f"{self.path} is not gcadj's store of results; {fix}")
                version = db.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION:
                    raise StoreError(
                        f"{self.path} was made by a newer gcadj (version {version} of the "
                        f"store); use that gcadj, or {fix}"
                    )
                if not tables:
                    db.execute("PRAGMA auto_vacuum = INCREMENTAL")  # before any table
                    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                db.execute("PRAGMA journal_mode = WAL")
                db.executescript(SCHEMA)
                self._check_whole(db, fix)
                checked = db.execute("PRAGMA quick_check").fetchone()[0]
                if checked != "ok":
                    raise StoreError(f"{self.path} is damaged ({checked}); {fix}")
                db.execute("BEGIN IMMEDIATE")
                db.execute("UPDATE results SET state = ? WHERE state = ?", (INTERRUPTED, RUNNING))
                db.execute("COMMIT")
        except sqlite3.DatabaseError as err:
            if isinstance(err, sqlite3.OperationalError) and _cannot_write(err):
                raise StoreError(f"cannot write in {where}: {err}") from None
            raise StoreError(f"{self.path} is damaged or not a database ({err}); {fix}") from None
        except OSError as err:
            raise StoreError(f"cannot write in {where}: {err.strerror or err}") from None
        self.sweep()

    def _check_whole(self, db: sqlite3.Connection, fix: str) -> None:
        """Refuse a torn database: once its write-ahead log is in the file, the file must
        hold every page its header counts (SQLite reads a page past the end as zeros,
        which its quick check does not see)."""
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        size = db.execute("PRAGMA page_size").fetchone()[0]
        actual = self.path.stat().st_size
        if actual < pages * size:
            raise StoreError(
                f"{self.path} is damaged (torn: {actual:,} bytes of the {pages * size:,} it "
                f"should hold); {fix}"
            )

    def close(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    @contextmanager
    def _connect(self, *, words: bool = True) -> Iterator[sqlite3.Connection]:
        """A connection of its own (see the module docstring), closed after use. With
        `words`, a failure of SQLite's (a full disk, a damaged file) is a `StoreError`."""
        try:
            db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as err:
            if not words:
                raise
            raise StoreError(f"cannot open the store of results {self.path}: {err}") from None
        try:
            db.execute("PRAGMA foreign_keys = ON")
            db.execute("PRAGMA synchronous = NORMAL")
            yield db
        except sqlite3.Error as err:
            if not words:
                raise
            raise StoreError(f"the store of results {self.path} failed: {err}") from None
        finally:
            db.close()

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: BEGIN IMMEDIATE (writers take turns), COMMIT or ROLLBACK."""
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    # -- writing ------------------------------------------------------------------------

    def create(
        self, name: str, stem: str, options: dict[str, str], text: str | None
    ) -> tuple[str, str]:
        """A new result, running, called `name` (its downloads `stem`.jsonl, ...): its id
        and its owner's token (given once, never kept)."""
        result_id = secrets.token_urlsafe(18)
        token = secrets.token_urlsafe(24)
        blob = None if text is None else pack(text)
        with self._writing() as db:
            db.execute(
                "INSERT INTO results (id, created, owner, name, stem, state, options, text, "
                "size) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    result_id,
                    time.time(),
                    token_hash(token),
                    name,
                    stem,
                    RUNNING,
                    json.dumps(options),
                    blob,
                    len(blob or b""),
                ),
            )
        return result_id, token

    def add_games(self, result_id: str, games: Sequence[StoredGame]) -> None:
        """Some games of a running result, in one transaction; room is made if need be."""
        if not games:
            return
        with self._writing() as db:
            db.executemany(
                "INSERT INTO games (result, n, source, line, view) VALUES (?, ?, ?, ?, ?)",
                [(result_id, g.n, g.source, g.line, g.view) for g in games],
            )
            db.execute(
                "UPDATE results SET games = games + ?, size = size + ? WHERE id = ?",
                (len(games), sum(g.size for g in games), result_id),
            )
            freed = self._make_room(db, result_id)
        if freed:
            self._vacuum()

    def finish(
        self,
        result_id: str,
        *,
        skipped: int = 0,
        report: str | None = None,
        csv: str | None = None,
    ) -> None:
        """A result whose check has ended, with its report and CSV (several games)."""
        report_blob = None if report is None else pack(report)
        csv_blob = None if csv is None else pack(csv)
        extra = len(report_blob or b"") + len(csv_blob or b"")
        with self._writing() as db:
            db.execute(
                "UPDATE results SET state = ?, skipped = ?, report = ?, csv = ?, "
                "size = size + ? WHERE id = ?",
                (DONE, skipped, report_blob, csv_blob, extra, result_id),
            )
            freed = self._make_room(db, result_id)
        if freed:
            self._vacuum()

    def _make_room(self, db: sqlite3.Connection, keep: str) -> int:
        """Delete the oldest finished results (never `keep`) while the store holds more
        than `max_bytes`; how many were deleted."""
        total = db.execute("SELECT coalesce(sum(size), 0) FROM results").fetchone()[0]
        freed = 0
        while total > self.max_bytes:
            oldest = db.execute(
                "SELECT id, size FROM results WHERE id != ? AND state != ? "
                "ORDER BY created LIMIT 1",
                (keep, RUNNING),
            ).fetchone()
            if oldest is None:
                break
            db.execute("DELETE FROM results WHERE id = ?", (oldest[0],))
            total -= oldest[1]
            freed += 1
        if freed:
            log.info("the store was full: %d oldest results deleted to make room", freed)
        return freed

    def interrupt(self, result_id: str) -> bool:
        """A running result whose check stopped before its end (the server stopped, or
        could not keep it): marked interrupted, a final state; False if it was not
        running."""
        with self._writing() as db:
            ended = db.execute(
                "UPDATE results SET state = ? WHERE id = ? AND state = ?",
                (INTERRUPTED, result_id, RUNNING),
            ).rowcount
        return bool(ended)

    def end_stranded(self, live: set[str], before: float) -> int:
        """Mark interrupted every result still running that no check holds (`live`: the
        ids of this server's checks) and that was made before `before` (seconds since the
        epoch: a check is registered just after its result is made); how many."""
        with self._connect() as db:
            running = [
                row[0]
                for row in db.execute(
                    "SELECT id FROM results WHERE state = ? AND created < ?", (RUNNING, before)
                )
            ]
        stranded = [rid for rid in running if rid not in live]
        return sum(self.interrupt(rid) for rid in stranded)

    def delete(self, result_id: str) -> bool:
        """Forget a result and its games; False if there was none."""
        with self._writing() as db:
            gone = db.execute("DELETE FROM results WHERE id = ?", (result_id,)).rowcount
        if gone:
            self._vacuum()
        return bool(gone)

    def sweep(self) -> int:
        """Delete the results older than `keep_seconds` (a running check is never
        deleted); how many."""
        cutoff = time.time() - self.keep_seconds
        with self._writing() as db:
            gone = db.execute(
                "DELETE FROM results WHERE created < ? AND state != ?", (cutoff, RUNNING)
            ).rowcount
        if gone:
            self._vacuum()
        return int(gone)

    def _vacuum(self) -> None:
        """Give the pages freed by deleted results back to the file system."""
        with self._connect() as db:
            db.execute("PRAGMA incremental_vacuum")

    # -- reading ------------------------------------------------------------------------

    def get(self, result_id: str) -> StoredResult | None:
        """A result that has not expired, or None."""
        with self._connect() as db:
            row = db.execute(
                "SELECT id, created, name, stem, state, options, games, skipped, text, owner "
                "FROM results WHERE id = ? AND created >= ?",
                (result_id, time.time() - self.keep_seconds),
            ).fetchone()
        if row is None:
            return None
        options = json.loads(row[5])
        return StoredResult(
            id=row[0],
            created=row[1],
            name=row[2],
            stem=row[3],
            state=row[4],
            options={str(k): str(v) for k, v in options.items()},
            games=row[6],
            skipped=row[7],
            text=None if row[8] is None else unpack(row[8]),
            owner=row[9],
        )

    def game(self, result_id: str, n: int) -> StoredGame | None:
        """Game `n` of a result, or None (no such game: a number out of range too)."""
        if not is_game_number(n):
            return None
        with self._connect() as db:
            row = db.execute(
                "SELECT n, source, line, view FROM games WHERE result = ? AND n = ?",
                (result_id, n),
            ).fetchone()
        return None if row is None else StoredGame(*row)

    def lines(self, result_id: str) -> Iterator[str]:
        """A result's JSON lines, in the order judged (read a few hundred at a time)."""
        after = 0
        while True:
            with self._connect() as db:
                rows = db.execute(
                    "SELECT n, line FROM games WHERE result = ? AND n > ? ORDER BY n LIMIT 500",
                    (result_id, after),
                ).fetchall()
            if not rows:
                return
            for n, line in rows:
                after = n
                yield line

    def products(self, result_id: str) -> tuple[str | None, str | None]:
        """A result's report and CSV (None: it has none)."""
        with self._connect() as db:
            row = db.execute(
                "SELECT report, csv FROM results WHERE id = ?", (result_id,)
            ).fetchone()
        if row is None:
            return None, None
        return tuple(None if blob is None else unpack(blob) for blob in row)  # type: ignore[return-value]

    def stored_bytes(self) -> int:
        """What the kept results hold, as counted against `max_bytes`."""
        with self._connect() as db:
            return int(db.execute("SELECT coalesce(sum(size), 0) FROM results").fetchone()[0])


def _cannot_write(err: sqlite3.OperationalError) -> bool:
    words = str(err).lower()
    return any(w in words for w in ("readonly", "read-only", "unable to open", "disk i/o", "full"))


__all__ = [
    "DONE",
    "INTERRUPTED",
    "RUNNING",
    "ResultStore",
    "StoreError",
    "StoredGame",
    "StoredResult",
    "is_game_number",
    "is_result_id",
    "pack",
    "unpack",
]
