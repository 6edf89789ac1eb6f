"""The checks `gcadj serve` runs: their bookkeeping (ids, the queue, the store), and the
worker pools they borrow from the app's batch runner.

A check (a `Job`) is what one request asked for: its uploads and addresses, and the
client that asked (`gcadj.web.clients`). It gets its result's id (`ResultStore.create`,
unguessable) as it is submitted: the result's address exists from the start and shows
its progress until the check ends. A client has at most `ServeSettings.client_checks`
checks running or waiting, and the server `pool_size + queue` (twice that for a client
with none); past either, a new check is turned away with "busy". A thread of the server
fetches the addresses (the polite `Fetcher`, public addresses only when the server is
exposed), then waits for one of `ServeSettings.pool_size` worker pools (`gcadj.app.pool`,
one worker each, started once and reused), lent fairly (`gcadj.web.schedule.FairPools`):
a check judges in time slices, giving its pool up between two sources when another
client's check waits, and its games are adjudicated within the server's budget of
adjudication seconds (`gcadj.web.schedule.AdjudicationBudget`). With its pool, it runs
the app's batch runner (`gcadj.web.check_work`): the server starts no process of its own.
The runner's limits hold for every check:

- a source that takes longer than `source_timeout` gets an "error" verdict saying so; its
  worker is killed and replaced, and the check goes on with the next source;
- a check that judges longer than `job_timeout` (the time it holds a worker; waiting for
  one does not count) gets such a verdict for every source not yet judged;
- a worker that dies (a crash, its memory cap) costs only the source it was judging.

So every source gets a verdict, and no input holds a pool longer than its deadline. Each
game's JSON line and viewer data go to the store as they come (`ResultStore.add_games`),
and the JSON API's lines to its answer too. A check's scratch folder, in the server's
private temporary folder (mode 0700), holds its saved zips and its JSON lines
(`gcadj.app.jsonl.JsonlWriter`: whole lines, in order), from which the report and CSV of
several games are made at its end (`gcadj.app.products`) and kept; the folder is then
deleted. A finished check leaves the server's memory: its result is in the store.

**Every result reaches a final state** (`Job.ending`): done when its check ended;
deleted when its owner deleted it or its API client hung up before the last line (nobody
waits for it); interrupted when the server stops, or when the check failed and its
failure could not be kept. When the store cannot take that state (a full disk), the
result is remembered and tried again every `RETRY_SECONDS` until it can; its page says
it did not finish meanwhile. The sweeper, every `SWEEP_SECONDS`, also deletes expired
results and ends any result left running that no check of this server holds
(`ResultStore.end_stranded`).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import shutil
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from gcadj.app.batch import Limits
from gcadj.app.jsonl import JsonlWriter
from gcadj.app.pipeline import JudgeOptions
from gcadj.app.pool import WorkerPool
from gcadj.app.worker_judging import WorkerResult, failed_result
from gcadj.errors import CannotWrite, ServerBusy, StoreError
from gcadj.outputs.audit_report import GameFacts
from gcadj.vocabulary import JobState
from gcadj.web.check_work import (
    CheckResources,
    SourceTask,
    check_job,
    file_stem,
    judge_check,
    plan_check,
)
from gcadj.web.handoff import Handoff, Signal
from gcadj.web.limits import ServeSettings
from gcadj.web.schedule import AdjudicationBudget, FairPools, Slice
from gcadj.web.store import DONE, INTERRUPTED, ResultStore, StoredGame
from gcadj.web.uploads import Upload, ZipLimits, is_zip

log = logging.getLogger(__name__)

SWEEP_SECONDS: Final = 60.0  # how often expired and stranded results are ended
RETRY_SECONDS: Final = 2.0  # how often a result the store could not end is tried again
STRANDED_SECONDS: Final = 60.0  # a running result no check holds, this old, is stranded
DELETED: Final = "deleted"  # a `Job.ending`: its result is deleted (besides DONE, INTERRUPTED)
EDITOR_MAX: Final = 1_000_000  # the largest text kept for the editor (one pasted game is KBs)
NAMES_SHOWN: Final = 3
SMALL_CHECK: Final = 3  # sources (none a zip) of a check served before large ones


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


def adjudication_seconds(line: str) -> float:
    """The seconds a game's stages took, its adjudication and its analysis, from its JSON
    line (0: none): what the server's budget of adjudication time is charged."""
    if '"adjudication"' not in line and '"analysis"' not in line:
        return 0.0
    record = json.loads(line)
    total = 0.0
    for key in ("adjudication", "analysis"):
        found = record.get(key)
        seconds = found.get("seconds") if isinstance(found, dict) else None
        total += float(seconds) if isinstance(seconds, (int, float)) else 0.0
    return total


def form_options(options: JudgeOptions) -> dict[str, str]:
    """A check's options as the form's fields (pocket_file, all, fen, analyse), to show
    them again."""
    out = {"pocket_file": options.pocket_file or "", "all": "1" if options.all_findings else ""}
    if options.analyse is not None:
        out["analyse"] = "1"
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
    client: str = ""  # who asked (`gcadj.web.clients`)
    budget: AdjudicationBudget | None = None  # the server's, charged for each adjudication
    ending: str = DONE  # the final state its result gets: DONE, DELETED or INTERRUPTED
    held: float = 0.0  # seconds it has held a worker so far (its deadline counts these)
    small: bool = False  # a few sources, no zip: served before large ones (`FairPools`)
    created: float = field(default_factory=time.monotonic)
    state: JobState = JobState.QUEUED  # then RUNNING, then DONE
    names: list[str] | None = None  # every source, once the zips are listed
    done: int = 0  # sources judged
    games: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    skipped: int = 0  # files of zips that are not game files
    facts: dict[str, GameFacts] = field(default_factory=dict)  # what the report shows
    numbers: dict[str, int] = field(default_factory=dict)  # a game's number, by source
    lines: Handoff[str | None] = field(default_factory=Handoff)  # API: to send; None: the end
    report: str | None = None  # of several games, once judged
    csv: str | None = None
    ended: float | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    finished: Signal = field(default_factory=Signal)  # awaited by the handlers
    _out: JsonlWriter | None = None

    @property
    def jsonl(self) -> Path:
        return self.folder / "results.jsonl"

    def record(self, unit: list[list[WorkerResult]]) -> None:
        """The games of some sources, in order (the batch runner's sink): counted, sent
        (API), written for the report, and kept in the store in one transaction."""
        kept: list[StoredGame] = []
        for results in unit:
            self.done += 1
            for result in results:
                kept.append(self._record(result))
        self.store.add_games(self.id, kept)

    def _record(self, result: WorkerResult) -> StoredGame:
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
        if self.budget is not None:
            self.budget.spend(adjudication_seconds(line))
        return StoredGame(self.games, result.source, line, result.view)

    def fail(self, message: str) -> bool:
        """The check itself failed (a bug, the server's disk): one more "error" verdict,
        named "<server>", counted, sent and kept if the store can (whether it could);
        never written to the check's folder, which may be what failed."""
        (result,) = failed_result("<server>", message)
        self.games += 1
        self.counts[result.status] += 1
        line = result.line.rstrip("\n")
        if self.api:
            self.lines.put(line)
        try:
            self.store.add_games(self.id, [StoredGame(self.games, result.source, line)])
        except StoreError as err:
            log.error("check %s: its failure could not be kept: %s", self.id, err)
            return False
        return True

    def close_output(self, *, quiet: bool = False) -> None:
        """Close the check's JSON lines; `quiet`: a failure (the server's disk) is logged,
        not raised (the check is ending anyway)."""
        if self._out is not None:
            out, self._out = self._out, None
            try:
                out.close()
            except CannotWrite as err:
                if not quiet:
                    raise
                log.error("check %s: %s", self.id, err)


class JobRunner:
    """The checks: submits them, runs them on the pools under the limits and the fair
    policy (`gcadj.web.schedule`), keeps their results in `store`, brings each to its
    final state, and deletes expired ones in time."""

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
        made = self.run_limits.pool(preload=("gcadj.web.check_work",), method="forkserver")
        pools = [WorkerPool(made) for _ in range(settings.pool_size)]
        for pool in pools:  # a worker each, ready for the first check
            pool.start()
        self.pools = FairPools(pools)
        self.budget = AdjudicationBudget(settings.adjudicate_share * settings.pool_size)
        self._lock = threading.Lock()
        self._jobs: dict[str, Job] = {}
        self._admitted: Counter[str] = Counter()  # checks running, waiting or being made
        self._unsettled: dict[str, str] = {}  # results the store could not end yet
        self._said: set[str] = set()  # of those, the ones the log has told of
        self._host_locks: dict[str, threading.Lock] = {}
        self._stopping = threading.Event()
        self._wake = threading.Event()
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
        client: str = "",
    ) -> tuple[Job, str]:
        """Start a check of `client`'s in the background (its games adjudicated unless told
        not to): the job and its owner's token. Raises `ServerBusy` when too many wait already
        (the client's share, or the server's), `StoreError` when its result cannot be
        kept."""
        self._admit(client)
        try:
            job, token = self._make(uploads, urls, options, api, adjudicate, client)
        except BaseException:
            self._leave(client)
            raise
        thread = threading.Thread(
            target=self._run,
            args=(job, list(uploads), list(urls), options),
            name=f"gcadj-check-{job.id[:6]}",
            daemon=True,
        )
        thread.start()
        return job, token

    def _admit(self, client: str) -> None:
        """Count a new check of `client`'s in, or raise `ServerBusy` (see `submit`). A client
        with no check running or waiting is taken even when the queue is full, up to
        twice its length: clients that fill the queue between them cannot keep a new
        one out."""
        settings = self.settings
        room = settings.pool_size + settings.queue
        with self._lock:
            active = sum(self._admitted.values())
            mine = self._admitted[client]
            if active >= room and (mine or active >= 2 * room):
                raise ServerBusy(
                    f"{active} checks are running or waiting, the most this server takes; "
                    "try again in a minute"
                )
            if settings.client_checks and mine >= settings.client_checks:
                raise ServerBusy(
                    f"you have {mine} checks running or waiting, the most this server takes "
                    "from one client at once; try again when one has ended"
                )
            self._admitted[client] += 1

    def _leave(self, client: str) -> None:
        with self._lock:
            self._admitted[client] -= 1
            if self._admitted[client] <= 0:
                del self._admitted[client]

    def _make(
        self,
        uploads: Sequence[Upload],
        urls: Sequence[str],
        options: JudgeOptions,
        api: bool,
        adjudicate: bool,
        client: str,
    ) -> tuple[Job, str]:
        """A new check's result in the store, its folder, and the check, registered."""
        from gcadj.urls import redact_url

        names = [u.name for u in uploads] + [redact_url(url) for url in urls]
        name = check_name(names)
        stem = file_stem(names[0]) if len(names) == 1 else "gcadj-check"
        text = editor_text(uploads, urls)
        job_id, token = self.store.create(name, stem, form_options(options), text)
        folder = self.root / job_id
        folder.mkdir()
        job = Job(job_id, api, name, folder, self.store, adjudicate, client, self.budget)
        job.small = len(names) <= SMALL_CHECK and not any(is_zip(u) for u in uploads)
        with self._lock:
            self._jobs[job_id] = job
        return job, token

    def get(self, job_id: str) -> Job | None:
        """A check that is still running (a finished one is in the store)."""
        with self._lock:
            return self._jobs.get(job_id)

    @property
    def waiting(self) -> int:
        return self.pools.waiting

    def abandon(self, job: Job) -> None:
        """The API client of `job` went away before its last line: the check stops and its
        result is deleted (nobody waits for it), even if it has just ended. Returns at
        once (the event loop calls it); the check's thread, or the sweeper, does the rest."""
        with self._lock:
            job.ending = DELETED
            live = job.id in self._jobs
        self._cancel(job)
        if not live:
            self._settle_later(job.id, DELETED)

    def _cancel(self, job: Job) -> None:
        """Tell `job`'s thread to stop: it looks between two sources, and at once if it is
        waiting for a pool (`FairPools.wake`)."""
        job.cancel.set()
        self.pools.wake()

    def delete(self, result_id: str) -> bool:
        """Stop the check if it runs, and delete its result; False if there was none."""
        job = self.get(result_id)
        if job is not None:
            with self._lock:
                job.ending = DELETED
            self._cancel(job)
            job.finished.wait_blocking(10)
        return self.store.delete(result_id)

    def shutdown(self) -> None:
        """Stop every check, its result marked interrupted, and delete the private folder
        (the server is stopping)."""
        self._stopping.set()
        self._wake.set()
        with self._lock:
            jobs = list(self._jobs.values())
            for job in jobs:
                if job.ending == DONE:
                    job.ending = INTERRUPTED
        for job in jobs:
            self._cancel(job)
        for job in jobs:
            job.finished.wait_blocking(5)
            job.close_output(quiet=True)
        self._retry_unsettled()
        self.fetcher.close()
        self.pools.close()
        shutil.rmtree(self.root, ignore_errors=True)

    # -- ending results ------------------------------------------------------------------

    def _settle(self, result_id: str, ending: str) -> None:
        """Bring a result to its final state; if the store cannot now (a full disk), it is
        remembered and tried again every `RETRY_SECONDS` (said once in the log)."""
        try:
            if ending == DELETED:
                self.store.delete(result_id)
            elif ending == INTERRUPTED:
                self.store.interrupt(result_id)
            else:
                raise AssertionError(ending)
        except StoreError as err:
            with self._lock:
                said = result_id in self._said
                self._said.add(result_id)
                self._unsettled[result_id] = ending
            if not said:  # the sweeper now tries again every RETRY_SECONDS
                log.error("result %s could not be %s yet (tried again): %s", result_id, ending, err)
                self._wake.set()
            return
        with self._lock:
            if result_id in self._said:
                self._said.discard(result_id)
                log.info("result %s is %s now", result_id, ending)

    def _settle_later(self, result_id: str, ending: str) -> None:
        """End a result from the sweeper's thread, soon (the caller may not wait)."""
        with self._lock:
            self._unsettled[result_id] = ending
        self._wake.set()

    def _retry_unsettled(self) -> None:
        with self._lock:
            pending, self._unsettled = self._unsettled, {}
        for result_id, ending in pending.items():
            self._settle(result_id, ending)

    def _sweep_loop(self) -> None:
        """Every `SWEEP_SECONDS` (every `RETRY_SECONDS` while a result waits to be ended):
        end what could not be ended, end stranded results, delete expired ones."""
        every = min(SWEEP_SECONDS, max(1.0, self.store.keep_seconds / 2))
        due = time.monotonic() + every
        while not self._stopping.is_set():
            with self._lock:
                waiting = bool(self._unsettled)
            self._wake.wait(RETRY_SECONDS if waiting else max(0.0, due - time.monotonic()))
            self._wake.clear()
            if self._stopping.is_set():
                return
            try:
                self._retry_unsettled()
                if time.monotonic() >= due:
                    due = time.monotonic() + every
                    self._sweep()
            except Exception:  # the sweeper must outlive any one failure
                log.exception("ending and deleting results")

    def _sweep(self) -> None:
        with self._lock:
            live = set(self._jobs) | set(self._unsettled)
        try:
            stranded = self.store.end_stranded(live, time.time() - STRANDED_SECONDS)
            if stranded:
                log.info("%d results left running by no check were marked interrupted", stranded)
            self.store.sweep()
        except StoreError as err:
            log.error("expired results could not be deleted yet: %s", err)

    # -- running one check ---------------------------------------------------------------

    def _run(self, job: Job, uploads: list[Upload], urls: list[str], options: JudgeOptions) -> None:
        try:
            uploads += [self._fetch(url) for url in urls if not job.cancel.is_set()]
            if self._judge(job, uploads, options):
                job.close_output()
                self._keep_products(job)
        except Exception as err:  # never the server: the check ends with what it has
            if isinstance(err, (CannotWrite, StoreError)):  # the server's disk, not a bug
                log.error("check %s failed: %s", job.id, err)
                message = f"<server>: {err}"
            else:
                log.exception("check %s failed", job.id)
                message = f"<server>: internal error: {type(err).__name__}: {err}"
            if not job.fail(message):
                with self._lock:
                    if job.ending == DONE:  # its result says nothing of the failure: it
                        job.ending = INTERRUPTED  # did not finish
        finally:
            job.close_output(quiet=True)
            self._end(job)

    def _end(self, job: Job) -> None:
        """The check has ended: its result takes its final state (`Job.ending`; finished
        with its report when done), its folder is deleted, and it leaves the server's
        memory."""
        shutil.rmtree(job.folder, ignore_errors=True)
        with self._lock:
            chosen = ending = job.ending
        if ending == DONE:
            try:
                self.store.finish(job.id, skipped=job.skipped, report=job.report, csv=job.csv)
            except StoreError as err:
                log.error("check %s: its result could not be finished: %s", job.id, err)
                ending = INTERRUPTED  # its games are kept; it says it did not finish
        if ending != DONE:
            self._settle(job.id, ending)
        with self._lock:
            self._jobs.pop(job.id, None)
            job.state = JobState.DONE
            job.ended = time.monotonic()
            abandoned = job.ending == DELETED and chosen != DELETED  # meanwhile (`abandon`)
        if abandoned:
            self._settle(job.id, DELETED)
        self._leave(job.client)
        job.finished.set()
        job.lines.put(None)

    def _judge(self, job: Job, uploads: list[Upload], options: JudgeOptions) -> bool:
        """List the check's sources and judge them (`gcadj.web.check_work`), a slice at a
        time, each on a pool lent by `FairPools`; False when it was cancelled."""
        tasks: list[SourceTask] | None = None
        index = 0
        while tasks is None or index < len(tasks):
            pool = self.pools.acquire(job.client, job.cancel.is_set, small=job.small)
            if pool is None:
                return False
            job.state = JobState.RUNNING
            began = time.monotonic()
            try:
                if tasks is None:
                    planned = plan_check(self._check_resources(job, pool, began, options), uploads)
                    if planned is None:
                        return False
                    tasks, job.skipped = planned
                    job.names = [task.name for task in tasks]
                run = self._check_resources(job, pool, began, options, tasks=tasks)
                feed = Slice(tasks, index, self._slice_over(job, began), self._granted(job))
                done = judge_check(run, feed, job.record)
                index = feed.next
                if not done:
                    return False
            except BaseException:
                pool.stop_busy()  # its workers may hold units of this check: not the next's
                raise
            finally:
                held = time.monotonic() - began
                job.held += held
                self.pools.release(job.client, pool, held)
        return True

    def _slice_over(self, job: Job, began: float) -> Callable[[], bool]:
        """Whether the slice that began at `began` is over: another client's check waits
        for the pool (`gcadj.web.schedule`)."""
        seconds = self.settings.slice_seconds

        def over() -> bool:
            return time.monotonic() - began >= seconds and self.pools.should_yield(job.client)

        return over

    def _granted(self, job: Job) -> Callable[[SourceTask, int], SourceTask]:
        """A source as it is handed to a worker: adjudicated in full while the budget
        grants it (the check's first always), else with no mate searched."""

        def prepare(task: SourceTask, index: int) -> SourceTask:
            if not job.adjudicate or self.budget.grants(first=index == 0):
                return task
            return dataclasses.replace(task, adjudicate=False)

        return prepare

    def _check_resources(
        self,
        job: Job,
        pool: WorkerPool,
        began: float,
        options: JudgeOptions,
        *,
        tasks: Sequence[SourceTask] = (),
    ) -> CheckResources:
        """A slice's run: the pool lent to it, the check's deadline counting only the time
        it held workers, and how its games are adjudicated."""
        settings = self.settings
        judging = check_job(
            options,
            budget=settings.adjudicate_budget if job.adjudicate else None,
            sources=max(1, len(tasks)),
            source_seconds=settings.source_timeout,
            check_seconds=settings.job_timeout,
        )
        return CheckResources(
            pool,
            self.run_limits,
            began - job.held,
            job.folder,
            self.limits,
            judging,
            job.cancel.is_set,
        )

    def _fetch(self, url: str) -> Upload:
        """A game page's address as an upload of its text, or of why it was not fetched."""
        from urllib.parse import urlsplit

        from gcadj.sources.fetch import FetchError
        from gcadj.urls import redact_url

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
    "Job",
    "JobRunner",
    "check_name",
    "editor_text",
    "first_record",
    "form_options",
    "game_path",
]
