"""The checks `gcadj serve` runs: a bounded pool of worker processes, deadlines, and each
check's private folder.

A check (a `Job`) is what one request asked for: its uploads and addresses. A thread of
the server fetches the addresses (the polite `Fetcher`, public addresses only when the
server is exposed), then waits for one of `ServeSettings.pool_size` slots, so at most that
many checks judge at once and the others queue (past `ServeSettings.queue` waiting, a new
check is turned away with "busy"). With its slot it starts a worker process
(`gcadj.web.worker`) and reads its messages:

- a source that takes longer than `source_timeout` gets an "error" verdict saying so; the
  worker is killed and a new one goes on with the next source;
- a check that takes longer than `job_timeout` gets such a verdict for every source not
  yet judged;
- a worker that dies (a crash, its memory cap) costs the source it was judging.

So every source gets a verdict, and no input holds a slot longer than its deadline. The
JSON API's checks keep their lines in memory until the response has sent them; a page's
check writes its JSON lines, viewers, CSV and report into its own folder in the server's
private temporary folder (mode 0700), deleted `keep_minutes` after the check ended, when
the user deletes it, and when the server stops. Check ids are random and unguessable.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import queue
import secrets
import shutil
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import IO, Any, Final

from gcadj.adjudication.verdict import failed_verdict
from gcadj.app.pipeline import JudgeOptions
from gcadj.errors import ServerBusy as Busy
from gcadj.outputs.audit_report import GameFacts
from gcadj.vocabulary import Status
from gcadj.web.limits import ServeSettings
from gcadj.web.uploads import Upload, ZipLimits

log = logging.getLogger(__name__)

POLL_SECONDS: Final = 0.2
SWEEP_SECONDS: Final = 30.0
START_SECONDS: Final = 30.0


@dataclass
class Job:
    """One check: what it found so far, and where its products are."""

    id: str
    api: bool
    folder: Path | None
    created: float = field(default_factory=time.monotonic)
    state: str = "queued"  # then "running", then "done"
    names: list[str] | None = None  # every source, once the worker has read the uploads
    done: int = 0  # sources judged
    games: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    skipped: int = 0  # files of zips that are not game files
    first: tuple[str, str | None] | None = None  # the first game's JSON line and viewer
    facts: dict[str, GameFacts] = field(default_factory=dict)  # what the report shows
    lines: queue.Queue[str | None] = field(default_factory=queue.Queue)  # API: to send
    ended: float | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    finished: threading.Event = field(default_factory=threading.Event)
    _out: IO[str] | None = None

    @property
    def jsonl(self) -> Path | None:
        return None if self.folder is None else self.folder / "results.jsonl"

    @property
    def viewers(self) -> Path | None:
        return None if self.folder is None else self.folder / "v"

    @property
    def report(self) -> Path | None:
        return None if self.folder is None else self.folder / "report.html"

    def record(
        self, source: str, line: str, status: str, viewer: str | None, facts: GameFacts | None
    ) -> None:
        """One judged game: counted, and sent (API) or written to the folder (pages)."""
        self.games += 1
        self.counts[status] += 1
        if self.first is None:
            self.first = (line, viewer)
        if self.api:
            self.lines.put(line)
            return
        if self._out is None and self.jsonl is not None:
            self._out = self.jsonl.open("a", encoding="utf-8")
        if self._out is not None:
            self._out.write(line + "\n")
        if facts is not None:
            self.facts[source] = facts

    def close_output(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None


class JobRunner:
    """The pool: submits checks, runs them under the limits, forgets them in time."""

    def __init__(self, settings: ServeSettings) -> None:
        from gcadj.sources.fetch import Fetcher, FetchOptions

        self.settings = settings
        self.root = Path(tempfile.mkdtemp(prefix="gcadj-serve-"))  # mode 0700
        self.limits = ZipLimits(
            settings.zip_max_total,
            settings.zip_max_files,
            settings.zip_max_ratio,
            settings.zip_ratio_floor,
        )
        self.fetcher = Fetcher(
            FetchOptions(
                connect_timeout=min(10.0, settings.fetch_timeout),
                read_timeout=min(20.0, settings.fetch_timeout),
                total_timeout=settings.fetch_timeout,
                retries=1,
                max_bytes=settings.fetch_bytes,
                cache_dir=None,
                public_only=settings.guards_urls,
            )
        )
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(["gcadj.web.worker"])
        self._slots = threading.Semaphore(settings.pool_size)
        self._lock = threading.Lock()
        self._jobs: dict[str, Job] = {}
        self._waiting = 0
        self._host_locks: dict[str, threading.Lock] = {}
        self._stopping = threading.Event()
        self._sweeper = threading.Thread(target=self._sweep_loop, name="gcadj-sweep", daemon=True)
        self._sweeper.start()

    # -- submitting and finding checks ---------------------------------------------------

    def submit(
        self, uploads: Sequence[Upload], urls: Sequence[str], options: JudgeOptions, *, api: bool
    ) -> Job:
        """Start a check in the background; raises `Busy` when too many wait already."""
        with self._lock:
            active = sum(1 for job in self._jobs.values() if job.state != "done")
            if active >= self.settings.pool_size + self.settings.queue:
                raise Busy(
                    f"{active} checks are running or waiting, the most this server takes; "
                    "try again in a minute"
                )
            job_id = secrets.token_urlsafe(18)
            folder = None
            if not api:
                folder = self.root / job_id
                (folder / "v").mkdir(parents=True)
            job = Job(job_id, api, folder)
            self._jobs[job_id] = job
        thread = threading.Thread(
            target=self._run,
            args=(job, list(uploads), list(urls), options),
            name=f"gcadj-check-{job_id[:6]}",
            daemon=True,
        )
        thread.start()
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    @property
    def waiting(self) -> int:
        return self._waiting

    def forget(self, job: Job) -> None:
        """Stop a check if it runs, and delete everything it wrote."""
        job.cancel.set()
        with self._lock:
            self._jobs.pop(job.id, None)
        job.finished.wait(10)
        job.close_output()
        if job.folder is not None:
            shutil.rmtree(job.folder, ignore_errors=True)

    def sweep(self) -> None:
        """Forget the checks that ended more than `keep_minutes` ago."""
        now = time.monotonic()
        keep = self.settings.keep_minutes * 60
        with self._lock:
            old = [j for j in self._jobs.values() if j.ended is not None and now - j.ended > keep]
        for job in old:
            self.forget(job)

    def _sweep_loop(self) -> None:
        while not self._stopping.wait(SWEEP_SECONDS):
            try:
                self.sweep()
            except Exception:  # the sweeper must outlive any one failure
                log.exception("sweeping old checks")

    def shutdown(self) -> None:
        """Stop every check and delete the private folder (the server is stopping)."""
        self._stopping.set()
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            job.cancel.set()
        for job in jobs:
            job.finished.wait(5)
            job.close_output()
        self.fetcher.close()
        shutil.rmtree(self.root, ignore_errors=True)

    # -- running one check ---------------------------------------------------------------

    def _run(self, job: Job, uploads: list[Upload], urls: list[str], options: JudgeOptions) -> None:
        try:
            uploads += [self._fetch(url) for url in urls if not job.cancel.is_set()]
            with self._lock:
                self._waiting += 1
            try:
                while not self._slots.acquire(timeout=POLL_SECONDS):
                    if job.cancel.is_set():
                        return
            finally:
                with self._lock:
                    self._waiting -= 1
            try:
                job.state = "running"
                self._judge(job, uploads, options)
            finally:
                self._slots.release()
            job.close_output()
            if not job.api and not job.cancel.is_set():
                self._write_products(job)
        except Exception as err:  # never the server: the check ends with what it has
            log.exception("check %s failed", job.id)
            job.record(
                "<server>",
                failed_verdict(
                    "<server>",
                    Status.ERROR,
                    f"<server>: internal error: {type(err).__name__}: {err}",
                ).json_line(),
                "error",
                None,
                None,
            )
        finally:
            job.close_output()
            job.state = "done"
            job.ended = time.monotonic()
            if job.api:
                job.lines.put(None)
            job.finished.set()

    def _fetch(self, url: str) -> Upload:
        """A game page's address as an upload of its text, or of why it was not fetched."""
        from urllib.parse import urlsplit

        from gcadj.sources.fetch import FetchError
        from gcadj.sources.urls import redact_url

        try:
            host = (urlsplit(url).hostname or "").lower()
        except ValueError:
            host = ""
        with self._lock:
            lock = self._host_locks.setdefault(host, threading.Lock())
        name = redact_url(url)  # the source's name: without the address's credentials
        try:
            with lock:  # one request at a time per host, the fetcher's delay between them
                page = self.fetcher.get(url)
            return Upload(name, page.text().encode("utf-8"))
        except FetchError as err:
            return Upload(name, b"", error=str(err))

    def _judge(self, job: Job, uploads: list[Upload], options: JudgeOptions) -> None:
        from gcadj.web.worker import WorkerTask, worker_main

        settings = self.settings
        job_deadline = time.monotonic() + settings.job_timeout
        start = 0
        viewers = None if job.viewers is None else str(job.viewers)
        task = WorkerTask(uploads, self.limits, options, viewers, settings.worker_memory)
        while not job.cancel.is_set():
            receiver, sender = self._context.Pipe(duplex=False)
            process = self._context.Process(
                target=worker_main, args=(sender, task, start), daemon=True
            )
            process.start()
            sender.close()
            current, why = self._follow(job, receiver, start, job_deadline)
            if why != "end":
                process.kill()
            process.join(10)
            receiver.close()
            if why in ("end", "cancelled"):
                return
            names = job.names or [upload.name for upload in uploads]
            if why == "check":
                for index in range(current, len(names)):
                    self._fail(
                        job,
                        names[index],
                        f"not judged: the check took longer than {settings.job_timeout:g} s, "
                        "this server's limit",
                    )
                return
            if current >= len(names):
                return
            if why == "source":
                message = (
                    f"gave up after {settings.source_timeout:g} s, this server's limit for one "
                    "source"
                )
            else:
                code = process.exitcode
                how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
                message = (
                    f"the worker judging it stopped ({how}): too large or too slow for this server"
                )
            self._fail(job, names[current], message)
            if job.names is None:  # it died before reading the uploads: they all fail
                for name in names[1:]:
                    self._fail(job, name, message)
                return
            start = current + 1
            job.done = start
            if start >= len(names):
                return

    def _follow(
        self, job: Job, receiver: Connection, start: int, job_deadline: float
    ) -> tuple[int, str]:
        """Read a worker's messages until it ends or a deadline passes: the source it was
        on, and why it stopped ("end", "source", "check", "died", "cancelled")."""
        timeout = self.settings.source_timeout
        current = start
        # Until the worker has read the uploads (a process to start, zips to list: bounded
        # work, whatever the input), it has at least START_SECONDS.
        source_deadline = time.monotonic() + max(timeout, START_SECONDS)
        while True:
            if job.cancel.is_set():
                return current, "cancelled"
            now = time.monotonic()
            if now >= job_deadline:
                return current, "check"
            if now >= source_deadline:
                return current, "source"
            wait = min(POLL_SECONDS, job_deadline - now, source_deadline - now)
            try:
                if not receiver.poll(wait):
                    continue
                message: tuple[Any, ...] = receiver.recv()
            except (EOFError, OSError):
                return current, "died"
            kind = message[0]
            if kind == "plan":
                if job.names is None:
                    job.names = list(message[1])
                    job.skipped = int(message[2])
                source_deadline = time.monotonic() + timeout
            elif kind == "game":
                _, _, source, line, status, viewer, facts = message
                job.record(source, line, status, viewer, facts)
            elif kind == "source":
                current = int(message[1]) + 1
                job.done = current
                source_deadline = time.monotonic() + timeout
            elif kind == "end":
                return current, "end"

    def _fail(self, job: Job, name: str, message: str) -> None:
        verdict = failed_verdict(name, Status.ERROR, f"{name}: {message}")
        job.record(name, verdict.json_line(), "error", None, None)

    def _write_products(self, job: Job) -> None:
        """The report (linking each game's viewer) and the CSV, from the JSON lines."""
        from gcadj.outputs.audit_report import write_csv, write_report

        assert job.jsonl is not None and job.report is not None and job.folder is not None
        if not job.jsonl.exists():
            job.jsonl.write_text("", encoding="utf-8")
        order = {name: i for i, name in enumerate(job.names or [])}
        write_report(job.jsonl, job.report, order=order, viewers=job.viewers, facts=job.facts.get)
        write_csv(job.jsonl, job.folder / "results.csv")


def first_record(job: Job) -> dict[str, Any]:
    """The JSON of a check's first game (its verdict), {} if it has none."""
    if job.first is None:
        return {}
    record = json.loads(job.first[0])
    return record if isinstance(record, dict) else {}


__all__ = ["Busy", "Job", "JobRunner", "first_record"]
