"""The checks `gcadj serve` runs: their bookkeeping (ids, the queue, the store), and the
worker pools they borrow from the app's batch runner.

A check (a `Job`) is what one request asked for: its uploads and addresses. It gets its
result's id (`ResultStore.create`, unguessable) as it is submitted: the result's address
exists from the start and shows its progress until the check ends. A thread of the
server fetches the addresses (the polite `Fetcher`, public addresses only when the server
is exposed), then waits for one of `ServeSettings.pool_size` worker pools
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

So every source gets a verdict, and no input holds a pool longer than its deadline. Each
game's JSON line and viewer data go to the store as they come (`ResultStore.add_games`),
and the JSON API's lines to its answer too. A check's scratch folder, in the server's
private temporary folder (mode 0700), holds its saved zips and its JSON lines
(`gcadj.app.jsonl.JsonlWriter`: whole lines, in order), from which the report and CSV of
several games are made at its end (`gcadj.app.products`) and kept; the folder is then
deleted. A finished check leaves the server's memory: its result is in the store.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import queue
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
from gcadj.errors import CannotWrite, StoreError
from gcadj.errors import ServerBusy as Busy
from gcadj.outputs.audit_report import GameFacts
from gcadj.web.judging import CheckRun, check_job, file_stem, judge_check, plan_check
from gcadj.web.limits import ServeSettings
from gcadj.web.store import ResultStore, StoredGame
from gcadj.web.uploads import Upload, ZipLimits, is_zip

log = logging.getLogger(__name__)

POLL_SECONDS: Final = 0.2
SWEEP_SECONDS: Final = 600.0  # how often expired results are deleted
EDITOR_MAX: Final = 1_000_000  # the largest text kept for the editor (one pasted game is KBs)
NAMES_SHOWN: Final = 3


def check_name(names: Sequence[str]) -> str:
    """What a check is called on its pages and downloads: its one source's name (a file's
    upload name, "pasted text", an address), or the first few and how many more."""
    if not names:
        return "nothing"
    if len(names) <= NAMES_SHOWN:
        return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1]
    rest = len(names) - NAMES_SHOWN + 1
    return f"{', '.join(names[: NAMES_SHOWN - 1])} and {rest} more"


def editor_text(uploads: Sequence[Upload], urls: Sequence[str]) -> str | None:
    """The text to offer back in the editor: a check of one text (pasted, or one file that
    is not a zip), as it was given, decoded as the judge decodes it; None otherwise."""
    from gcadj.sources.decode import decode_text

    if urls or len(uploads) != 1:
        return None
    upload = uploads[0]
    if upload.error is not None or upload.path is not None or len(upload.data) > EDITOR_MAX:
        return None
    if is_zip(upload):
        return None
    return decode_text(upload.data)


def form_options(options: JudgeOptions) -> dict[str, str]:
    """A check's options as the form's fields (pocket_file, all, fen), to show them again."""
    out = {"pocket_file": options.pocket_file or "", "all": "1" if options.all_findings else ""}
    if options.fen:
        out["fen"] = options.fen
    return out


@dataclass
class Job:
    """One check: what it found so far (in memory while it runs; its games go to the
    store as they come), and its scratch folder."""

    id: str
    api: bool
    name: str
    folder: Path
    store: ResultStore
    adjudicate: bool = True  # each game adjudicated (`ServeSettings.adjudicate_budget`)
    created: float = field(default_factory=time.monotonic)
    state: str = "queued"  # then "running", then "done"
    names: list[str] | None = None  # every source, once the zips are listed
    done: int = 0  # sources judged
    games: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    skipped: int = 0  # files of zips that are not game files
    facts: dict[str, GameFacts] = field(default_factory=dict)  # what the report shows
    numbers: dict[str, int] = field(default_factory=dict)  # a game's number, by source
    lines: queue.Queue[str | None] = field(default_factory=queue.Queue)  # API: to send
    report: str | None = None  # of several games, once judged
    csv: str | None = None
    ended: float | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    finished: threading.Event = field(default_factory=threading.Event)
    _out: JsonlWriter | None = None

    @property
    def jsonl(self) -> Path:
        return self.folder / "results.jsonl"

    def record(self, unit: list[list[Judged]]) -> None:
        """The games of some sources, in order (the batch runner's sink): counted, sent
        (API), written for the report, and kept in the store in one transaction."""
        kept: list[StoredGame] = []
        for results in unit:
            self.done += 1
            for result in results:
                kept.append(self._record(result))
        self.store.add_games(self.id, kept)

    def _record(self, result: Judged) -> StoredGame:
        """One game: counted, sent (the API's answer), written to the check's JSON lines;
        what the store keeps of it."""
        self.games += 1
        self.counts[result.status] += 1
        line = result.line.rstrip("\n")
        if self.api:
            self.lines.put(line)
        if self._out is None:
            self._out = JsonlWriter(self.jsonl, option="folder")
        self._out.write(result.line)
        if result.facts is not None:
            self.facts[result.source] = result.facts
        if result.view is not None:
            self.numbers[result.source] = self.games
        return StoredGame(self.games, result.source, line, result.view)

    def fail(self, message: str) -> None:
        """The check itself failed (a bug, the server's disk): one more "error" verdict,
        named "<server>", counted, sent and kept if the store can; never written to the
        check's folder, which may be what failed."""
        (result,) = failed_result("<server>", message)
        self.games += 1
        self.counts[result.status] += 1
        line = result.line.rstrip("\n")
        if self.api:
            self.lines.put(line)
        try:
            self.store.add_games(self.id, [StoredGame(self.games, result.source, line)])
        except StoreError:
            log.exception("check %s: its failure could not be kept", self.id)

    def close_output(self) -> None:
        if self._out is not None:
            out, self._out = self._out, None
            out.close()


class JobRunner:
    """The checks: submits them, runs them on the pools under the limits, keeps their
    results in `store` and deletes expired ones in time."""

    def __init__(self, settings: ServeSettings, store: ResultStore) -> None:
        from gcadj.sources.fetch import Fetcher, FetchOptions

        self.settings = settings
        self.store = store
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
        self,
        uploads: Sequence[Upload],
        urls: Sequence[str],
        options: JudgeOptions,
        *,
        api: bool,
        adjudicate: bool = True,
    ) -> tuple[Job, str]:
        """Start a check in the background (its games adjudicated unless told not to): the
        job and its owner's token. Raises `Busy` when too many wait already, `StoreError`
        when its result cannot be kept."""
        with self._lock:
            active = len(self._jobs)
            if active >= self.settings.pool_size + self.settings.queue:
                raise Busy(
                    f"{active} checks are running or waiting, the most this server takes; "
                    "try again in a minute"
                )
        from gcadj.sources.urls import redact_url

        names = [u.name for u in uploads] + [redact_url(url) for url in urls]
        name = check_name(names)
        stem = file_stem(names[0]) if len(names) == 1 else "gcadj-check"
        text = editor_text(uploads, urls)
        job_id, token = self.store.create(name, stem, form_options(options), text)
        folder = self.root / job_id
        folder.mkdir()
        job = Job(job_id, api, name, folder, self.store, adjudicate=adjudicate)
        with self._lock:
            self._jobs[job_id] = job
        thread = threading.Thread(
            target=self._run,
            args=(job, list(uploads), list(urls), options),
            name=f"gcadj-check-{job_id[:6]}",
            daemon=True,
        )
        thread.start()
        return job, token

    def get(self, job_id: str) -> Job | None:
        """A check that is still running (a finished one is in the store)."""
        with self._lock:
            return self._jobs.get(job_id)

    @property
    def waiting(self) -> int:
        return self._waiting

    def delete(self, result_id: str) -> bool:
        """Stop the check if it runs, and delete its result; False if there was none."""
        job = self.get(result_id)
        if job is not None:
            job.cancel.set()
            job.finished.wait(10)
        return self.store.delete(result_id)

    def _sweep_loop(self) -> None:
        while not self._stopping.wait(SWEEP_SECONDS):
            try:
                self.store.sweep()
            except Exception:  # the sweeper must outlive any one failure
                log.exception("deleting expired results")

    def shutdown(self) -> None:
        """Stop every check (marked interrupted when the server starts again) and delete
        the private folder (the server is stopping)."""
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
            if judged:
                self._keep_products(job)
        except Exception as err:  # never the server: the check ends with what it has
            if isinstance(err, (CannotWrite, StoreError)):  # the server's disk, not a bug
                message = f"<server>: {err}"
            else:
                log.exception("check %s failed", job.id)
                message = f"<server>: internal error: {type(err).__name__}: {err}"
            job.fail(message)
        finally:
            job.close_output()
            self._end(job)

    def _end(self, job: Job) -> None:
        """The check has ended: its result is finished in the store (unless it was deleted
        or failed to be), its folder deleted, and it leaves the server's memory."""
        if not job.cancel.is_set():
            try:
                self.store.finish(job.id, skipped=job.skipped, report=job.report, csv=job.csv)
            except StoreError:
                log.exception("check %s: its result could not be finished", job.id)
        shutil.rmtree(job.folder, ignore_errors=True)
        job.state = "done"
        job.ended = time.monotonic()
        with self._lock:
            self._jobs.pop(job.id, None)
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
        cancelled."""
        run = CheckRun(
            pool,
            self.run_limits,
            time.monotonic(),
            job.folder,
            self.limits,
            check_job(options),
            job.cancel.is_set,
        )
        planned = plan_check(run, uploads)
        if planned is None:
            return False
        tasks, job.skipped = planned
        job.names = [task.name for task in tasks]
        settings = self.settings
        judging = check_job(
            options,
            budget=settings.adjudicate_budget if job.adjudicate else None,
            sources=len(tasks),
            source_seconds=settings.source_timeout,
            check_seconds=settings.job_timeout,
        )
        return judge_check(dataclasses.replace(run, job=judging), tasks, job.record)

    def _keep_products(self, job: Job) -> None:
        """The report (linking each game's viewer by its address) and the CSV of a check
        of several games, made from its JSON lines and kept with its result."""
        from gcadj.app.products import Products, write_products

        if job.games < 2:  # one game: its viewer is its page
            return
        order = {name: i for i, name in enumerate(job.names or [])}
        report, csv = job.folder / "report.html", job.folder / "results.csv"
        products = Products(csv, report)
        numbers = job.numbers
        write_products(
            job.jsonl,
            products,
            order=order,
            facts=job.facts.get,
            links=lambda source: game_path(job.id, numbers[source]) if source in numbers else None,
            name=job.name,
        )
        job.report = report.read_text(encoding="utf-8")
        job.csv = csv.read_text(encoding="utf-8")


def game_path(result_id: str, n: int) -> str:
    """The address of game `n` of a result (its viewer), as a report links it."""
    return f"/r/{result_id}/g/{n}"


def first_record(store: ResultStore, result_id: str) -> dict[str, Any]:
    """The JSON of a result's first game (its verdict), {} if it has none."""
    game = store.game(result_id, 1)
    if game is None:
        return {}
    found = json.loads(game.line)
    return found if isinstance(found, dict) else {}


__all__ = [
    "EDITOR_MAX",
    "Busy",
    "Job",
    "JobRunner",
    "check_name",
    "editor_text",
    "first_record",
    "form_options",
    "game_path",
]
