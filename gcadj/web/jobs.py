"""The checks `gcadj serve` runs: their bookkeeping (ids, folders, the queue, expiry),
and the worker pools they borrow from the app's batch runner.

A check (a `Job`) is what one request asked for: its uploads and addresses. A thread of
the server fetches the addresses (the polite `Fetcher`, public addresses only when the
server is exposed), then waits for one of `ServeSettings.pool_size` worker pools
(`gcadj.app.pool`, one worker each, started once and reused), so at most that many
checks judge at once and the others queue (past `ServeSettings.queue` waiting, a new
check is turned away with "busy"). With its pool, it runs the app's batch runner
(`gcadj.web.judging`): the server starts no process of its own. The runner's limits
hold for every check:

- a source that takes longer than `source_timeout` gets an "error" verdict saying so; its
  worker is killed and replaced, and the check goes on with the next source;
- a check that takes longer than `job_timeout` gets such a verdict for every source not
  yet judged;
- a worker that dies (a crash, its memory cap) costs only the source it was judging.

So every source gets a verdict, and no input holds a pool longer than its deadline. The
JSON API's checks keep their lines in memory until the response has sent them; a page's
check writes its JSON lines (`gcadj.app.jsonl.JsonlWriter`: whole lines, in order),
viewers, CSV and report (`gcadj.app.products`) into its own folder in the server's
private temporary folder (mode 0700), deleted `keep_minutes` after the check ended, when
the user deletes it, and when the server stops. Check ids are random and unguessable.
"""

from __future__ import annotations

import json
import logging
import queue
import secrets
import shutil
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from gcadj.app.batch import Limits
from gcadj.app.jsonl import JsonlWriter
from gcadj.app.judging import Judged, failed_result
from gcadj.app.pipeline import JudgeOptions
from gcadj.app.pool import WorkerPool
from gcadj.errors import CannotWrite
from gcadj.errors import ServerBusy as Busy
from gcadj.outputs.audit_report import GameFacts
from gcadj.web.judging import CheckRun, check_job, judge_check, plan_check
from gcadj.web.limits import ServeSettings
from gcadj.web.uploads import Upload, ZipLimits

log = logging.getLogger(__name__)

POLL_SECONDS: Final = 0.2
SWEEP_SECONDS: Final = 30.0


@dataclass
class Job:
    """One check: what it found so far, and where its products are."""

    id: str
    api: bool
    folder: Path | None
    created: float = field(default_factory=time.monotonic)
    state: str = "queued"  # then "running", then "done"
    names: list[str] | None = None  # every source, once the zips are listed
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
    _out: JsonlWriter | None = None

    @property
    def jsonl(self) -> Path | None:
        return None if self.folder is None else self.folder / "results.jsonl"

    @property
    def viewers(self) -> Path | None:
        return None if self.folder is None else self.folder / "v"

    @property
    def report(self) -> Path | None:
        return None if self.folder is None else self.folder / "report.html"

    def record(self, unit: list[list[Judged]]) -> None:
        """The games of some sources, in order (the batch runner's sink): counted, and
        sent (API) or written to the folder (pages)."""
        for results in unit:
            self.done += 1
            for result in results:
                self._record(result)

    def _record(self, result: Judged, *, keep: bool = True) -> None:
        """One game: counted, shown (the API's answer, the first game), and with `keep`
        written to a page's check's folder."""
        self.games += 1
        self.counts[result.status] += 1
        line = result.line.rstrip("\n")
        if self.first is None:
            self.first = (line, result.viewer)
        if self.api:
            self.lines.put(line)
            return
        if not keep:
            return
        if self._out is None and self.jsonl is not None:
            self._out = JsonlWriter(self.jsonl, option="folder")
        if self._out is not None:
            self._out.write(result.line)
        if result.facts is not None:
            self.facts[result.source] = result.facts

    def fail(self, message: str) -> None:
        """The check itself failed (a bug, the server's disk): one more "error" verdict,
        named "<server>", counted and shown, never written to the check's folder, which
        may be what failed."""
        (result,) = failed_result("<server>", message)
        self._record(result, keep=False)

    def close_output(self) -> None:
        if self._out is not None:
            out, self._out = self._out, None
            out.close()


class JobRunner:
    """The checks: submits them, runs them on the pools under the limits, forgets them in
    time."""

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
        self.run_limits = Limits(
            jobs=1,
            source_seconds=settings.source_timeout,
            memory=settings.worker_memory,
            total_seconds=settings.job_timeout,
        )
        self._pools: queue.Queue[WorkerPool] = queue.Queue()
        pools = self.run_limits.pool(preload=("gcadj.web.judging",), method="forkserver")
        for _ in range(settings.pool_size):  # a worker each, ready for the first check
            pool = WorkerPool(pools)
            pool.start()
            self._pools.put(pool)
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
        while True:
            try:
                self._pools.get_nowait().close(now=True)
            except queue.Empty:
                break
        shutil.rmtree(self.root, ignore_errors=True)

    # -- running one check ---------------------------------------------------------------

    def _run(self, job: Job, uploads: list[Upload], urls: list[str], options: JudgeOptions) -> None:
        try:
            uploads += [self._fetch(url) for url in urls if not job.cancel.is_set()]
            pool = self._borrow(job)
            if pool is None:
                return
            try:
                job.state = "running"
                judged = self._judge(job, pool, uploads, options)
            finally:
                self._pools.put(pool)
            job.close_output()
            if judged and not job.api:
                self._write_products(job)
        except Exception as err:  # never the server: the check ends with what it has
            if isinstance(err, CannotWrite):  # the server's disk, not a bug
                message = f"<server>: {err}"
            else:
                log.exception("check %s failed", job.id)
                message = f"<server>: internal error: {type(err).__name__}: {err}"
            job.fail(message)
        finally:
            job.close_output()
            job.state = "done"
            job.ended = time.monotonic()
            job.lines.put(None)
            job.finished.set()

    def _borrow(self, job: Job) -> WorkerPool | None:
        """A free pool for the check, once one is (None if it is cancelled meanwhile)."""
        with self._lock:
            self._waiting += 1
        try:
            while not job.cancel.is_set():
                try:
                    return self._pools.get(timeout=POLL_SECONDS)
                except queue.Empty:
                    continue
            return None
        finally:
            with self._lock:
                self._waiting -= 1

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

    def _judge(
        self, job: Job, pool: WorkerPool, uploads: list[Upload], options: JudgeOptions
    ) -> bool:
        """List the check's sources and judge them (`gcadj.web.judging`); False when it was
        cancelled. An API check's zips are saved in a scratch folder, deleted at once."""
        folder = job.folder or self.root / f"api-{job.id}"
        folder.mkdir(exist_ok=True)
        try:
            run = CheckRun(
                pool,
                self.run_limits,
                time.monotonic(),
                folder,
                self.limits,
                check_job(options, job.viewers),
                job.cancel.is_set,
            )
            planned = plan_check(run, uploads)
            if planned is None:
                return False
            tasks, job.skipped = planned
            job.names = [task.name for task in tasks]
            return judge_check(run, tasks, job.record)
        finally:
            if job.folder is None:
                shutil.rmtree(folder, ignore_errors=True)

    def _write_products(self, job: Job) -> None:
        """The report (linking each game's viewer) and the CSV, from the JSON lines."""
        from gcadj.app.products import Products, write_products

        assert job.jsonl is not None and job.folder is not None
        if not job.jsonl.exists():
            job.jsonl.write_text("", encoding="utf-8")
        order = {name: i for i, name in enumerate(job.names or [])}
        products = Products(job.folder / "results.csv", job.report, job.viewers)
        write_products(job.jsonl, products, order=order, facts=job.facts.get)


def first_record(job: Job) -> dict[str, Any]:
    """The JSON of a check's first game (its verdict), {} if it has none."""
    if job.first is None:
        return {}
    record = json.loads(job.first[0])
    return record if isinstance(record, dict) else {}


__all__ = ["Busy", "Job", "JobRunner", "first_record"]
