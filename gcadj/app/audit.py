"""Audit an archive: judge many sources in parallel, one JSON line per source, resumable.

The parent process owns everything with state: it walks the sources lazily (files,
folders, URLs, an audit's JSONL, log indexes: `gcadj.sources.walk`), fetches pages itself
through one polite `Fetcher` (so the per-host delay holds however many workers there
are), hands bounded batches to a process pool, and is the only writer of the JSONL file.
Each result is written as one `os.write` of a complete line as soon as it is known, and
fsync'd about once a second,
so a crash or Ctrl-C loses nothing already judged and never leaves half a line; the rare
torn line a SIGKILL mid-write could leave is dropped by ``--resume``, which then judges
every source not yet in the file, each exactly once.

A file of several games (a PGN database) is one source and gives one line per game.

Memory stays flat: sources are streamed, at most ``4 * jobs`` batches (each about a tenth
of a second of work, at most 256 sources) are in flight, and
the summary, CSV and HTML report are computed from the JSONL file at the end rather than
from results kept in memory. The one thing that grows is the set of source names already
seen (needed to judge each source once) with its place in the order the sources were
given (for the report, since lines are written in the order they finish), a few dozen
bytes per game.

With `AuditPlan.viewers`, whoever judges a game (a worker, or the parent with one job)
also writes its HTML viewer there at once, while the replay is at hand: the report links
every game to it, and nothing has to be read or judged twice.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol

from gcadj.adjudication.verdict import Verdict, failed_verdict, internal_error_verdict
from gcadj.app.audit_files import check_products, is_locked, lock_exclusively, source_key
from gcadj.app.check import CheckOptions, judge_games
from gcadj.errors import AuditError
from gcadj.sources.urls import is_url
from gcadj.sources.walk import DEFAULT_GAME, SOURCE_SUFFIXES, SourceWalker
from gcadj.vocabulary import Status, VerdictKind

if TYPE_CHECKING:
    from gcadj.sources.fetch import Fetcher

log = logging.getLogger(__name__)

FSYNC_SECONDS: Final = 1.0


# ---------------------------------------------------------------------------------------
# One source


def verdict_line(verdict: Verdict) -> str:
    """The JSON line of a verdict: exactly what ``gcadj check --json`` prints, plus newline."""
    return verdict.json_line() + "\n"


# A task is (source, text): text None means the worker reads the source itself.
Task = tuple[str, "str | None"]
# A result is one game's (source, JSON line, status); a file of several games gives several.
Result = tuple[str, str, VerdictKind]


def judge_batch(
    batch: list[Task], options: CheckOptions, viewers: Path | None = None
) -> list[Result]:
    """Judge a batch in a worker; never raises for a bad source (it becomes a verdict).
    With `viewers`, each game's viewer page is written into that folder."""
    results = []
    for spec, text in batch:
        try:
            verdicts = judge_games(spec, options, text)  # guarded: a bug costs one source
        except Exception as err:  # defence in depth: never the audit
            log.exception("internal error judging %s", spec)
            verdicts = [internal_error_verdict(spec, err)]
        if viewers is not None:
            for verdict in verdicts:
                _write_viewer(verdict, viewers)
        results += [(v.source, verdict_line(v), v.outcome) for v in verdicts]
    return results


def _write_viewer(verdict: Verdict, folder: Path) -> None:
    """The game's viewer page in `folder` (see `viewer_filename`); a failure costs only
    the page, and a file gcadj did not write is never replaced."""
    from gcadj.about import is_gcadj_html
    from gcadj.outputs.files import write_text_file
    from gcadj.outputs.viewer import viewer_filename, write_viewer

    if verdict.log is None:
        return
    target = folder / viewer_filename(verdict.source)
    try:
        if target.exists():
            with target.open("r", encoding="utf-8", errors="replace") as handle:
                if not is_gcadj_html(handle.read(4096)):
                    log.warning("%s: not written over (gcadj did not write it)", target)
                    return
        write_text_file(target, write_viewer(verdict), overwrite=True)
    except Exception:  # a page must never cost the verdict
        log.warning("no viewer for %s", verdict.source, exc_info=True)


def _worker_init(parent: int, jsonl_fd: int = -1) -> None:
    """Workers leave Ctrl-C to the parent, which stops cleanly and keeps what is written,
    and exit by themselves if the parent dies (a SIGKILL gives it no chance to stop them).
    A forked worker closes its copy of the JSONL's descriptor: only the parent writes it,
    and the audit's lock on it must go with the parent, not wait for the workers."""
    import contextlib
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if jsonl_fd >= 0:
        with contextlib.suppress(OSError):
            os.close(jsonl_fd)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="gcadj-orphan-watch", daemon=True).start()


def _ready() -> bool:
    return True


def _judge_timed(
    batch: list[Task], options: CheckOptions, viewers: Path | None
) -> tuple[list[Result], float]:
    """`judge_batch` in a worker, with the seconds it took (to size the next batches)."""
    start = time.perf_counter()
    results = judge_batch(batch, options, viewers)
    return results, time.perf_counter() - start


BATCH_SECONDS: Final = 0.1
MAX_BATCH: Final = 256


class _BatchSize:
    """How many sources to send a worker at once: about BATCH_SECONDS of work.

    Small batches cost the parent a round trip each (which competes with the workers for
    the cores); big ones delay results and unbalance the end. Games cost from well under
    a millisecond (a short text log) to a tenth of a second (a large page), so the size
    follows a moving average of what the batches so far cost per source.
    """

    def __init__(self, fixed: int | None) -> None:
        self.fixed = fixed
        self.size = fixed or 4
        self.per_source: float | None = None

    def learn(self, sources: int, seconds: float) -> None:
        if self.fixed is not None or sources == 0:
            return
        cost = max(seconds / sources, 1e-5)
        self.per_source = cost if self.per_source is None else 0.7 * self.per_source + 0.3 * cost
        self.size = max(1, min(MAX_BATCH, int(BATCH_SECONDS / self.per_source)))


# ---------------------------------------------------------------------------------------
# The JSONL file


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
        for number, raw in enumerate(handle, 1):
            if not raw.endswith(b"\n"):
                log.warning("%s: dropping a torn last line (%d bytes)", path, len(raw))
                break
            try:
                record = json.loads(raw)
                source = record["source"]
            except (ValueError, TypeError, KeyError):
                raise AuditError(
                    f"{path}:{number}: not a gcadj audit line; refusing to resume into it"
                ) from None
            if not isinstance(source, str):
                raise AuditError(f'{path}:{number}: "source" is not a string')
            done.add(source_key(source))
            good_end += len(raw)
    if good_end != path.stat().st_size:
        with path.open("r+b") as torn:
            torn.truncate(good_end)
    return done


class JsonlWriter:
    """Holds an audit's JSONL: opens and locks it (see `gcadj.app.audit_files`), appends
    complete lines, each call's with one `os.write`, and fsyncs about once a second.

    Without `resume` or `force` the file is created exclusively; with `force` (and not
    `resume`) an existing file is emptied, but only once the lock is held, so an audit
    never truncates a file another audit is writing. Raises `AuditError`.
    """

    def __init__(self, path: Path, *, resume: bool = False, force: bool = False) -> None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
        if not resume and not force:
            flags |= os.O_EXCL
        self.path = path
        try:
            self.fd = os.open(path, flags, 0o644)
        except FileExistsError:
            if is_locked(path):
                raise _held(path) from None
            raise AuditError(
                f"{path} exists; use --resume to finish it or --force to replace it"
            ) from None
        except OSError as err:
            raise AuditError(f"cannot write {path}: {err.strerror or err}") from None
        if not lock_exclusively(self.fd):
            os.close(self.fd)
            self.fd = -1
            raise _held(path)
        if force and not resume:
            os.ftruncate(self.fd, 0)
        self.last_sync = time.monotonic()
        self.written = 0

    def __enter__(self) -> JsonlWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def write(self, lines: str) -> None:
        """Append `lines`: one or more complete lines, each ending in a newline."""
        data = lines.encode("utf-8")
        view = memoryview(data)
        while view:  # a regular file takes it all at once; loop for the pathological case
            count = os.write(self.fd, view)
            view = view[count:]
        self.written += lines.count("\n")
        now = time.monotonic()
        if now - self.last_sync >= FSYNC_SECONDS:
            os.fsync(self.fd)
            self.last_sync = now

    def close(self) -> None:
        """Sync and close the file, which releases the lock."""
        if self.fd >= 0:
            try:
                os.fsync(self.fd)
            finally:
                os.close(self.fd)
                self.fd = -1


def _held(path: Path) -> AuditError:
    return AuditError(
        f"another audit holds {path} (it is locked while that audit runs); wait for it "
        "to finish, or choose another --out"
    )


# ---------------------------------------------------------------------------------------
# The run


class Progress(Protocol):
    """What the CLI shows while an audit runs (the library itself never prints).

    With `wants_total` false the sources are not counted before the run (one walk less).
    """

    wants_total: bool

    def start(self, total: int | None) -> None: ...

    def advance(self, line: str, status: str) -> None: ...


@dataclass(frozen=True)
class AuditPlan:
    """Everything an audit run needs to know, apart from the fetcher and the progress."""

    sources: tuple[str, ...]
    out: Path
    index_urls: tuple[str, ...] = ()
    game: str = DEFAULT_GAME
    check: CheckOptions = field(default_factory=CheckOptions)
    jobs: int = 1
    resume: bool = False
    force: bool = False  # replace --out, and a --csv or --report that gcadj did not write
    batch_size: int | None = None  # None: sized to about BATCH_SECONDS of work each
    viewers: Path | None = None  # a folder for one HTML viewer per game
    csv: Path | None = None  # written by the caller at the end; checked here at the start
    report: Path | None = None

    def check_products(self) -> None:
        """`AuditError` if --out, --csv or --report would replace what they must not."""
        products = [("--csv", self.csv, "csv"), ("--report", self.report, "html")]
        check_products(
            self.sources,
            self.out,
            [(option, path, kind) for option, path, kind in products if path is not None],
            force=self.force,
        )

    def open_output(self) -> JsonlWriter:
        """Check the products and take the JSONL (`JsonlWriter`); raises `AuditError`."""
        self.check_products()
        return JsonlWriter(self.out, resume=self.resume, force=self.force)


@dataclass
class AuditRun:
    """What happened: how many games were judged now, how many skipped as done, the
    sources that could not be expanded (`problems`: an index that could not be fetched or
    lists no game of the variant, a folder with no game file; see `SourceWalker`), and
    `order`: each source's place in the order the sources were given (done ones
    included), which the report follows."""

    judged: int = 0
    skipped: int = 0
    problems: list[str] = field(default_factory=list)
    order: dict[str, int] = field(default_factory=dict)

    @property
    def index_errors(self) -> list[str]:
        """The former name of `problems`, when only an index could have one."""
        return self.problems


def run_audit(
    plan: AuditPlan,
    *,
    fetcher: Fetcher | None = None,
    progress: Progress | None = None,
    output: JsonlWriter | None = None,
) -> AuditRun:
    """Judge every source of `plan` not yet in `plan.out`; see the module docstring.

    `output` is the JSONL already taken with `plan.open_output()` (a caller that writes the
    CSV and report from it keeps it, and its lock, until they are written); without it the
    file is taken and released here. Raises `AuditError` before judging anything if the
    output cannot be used, and lets KeyboardInterrupt through after closing the file
    (everything written stays valid).
    """
    writer = output or plan.open_output()
    try:
        if plan.viewers is not None:
            try:
                plan.viewers.mkdir(exist_ok=True)
            except OSError as err:
                raise AuditError(
                    f"cannot write {err.filename or plan.viewers}: {err.strerror or err}"
                ) from None
        done = read_done(plan.out) if plan.resume else set()
        walker = SourceWalker(plan.sources, plan.index_urls, plan.game, fetcher)
        run = AuditRun(problems=walker.problems)
        wants_total = progress is not None and progress.wants_total
        total = sum(1 for _ in _unique(walker, set(done))) if wants_total else None
        run.skipped = len(done)
        if plan.jobs <= 1:
            _run_here(plan, walker, done, writer, run, fetcher, progress, total)
        else:
            _run_pool(plan, walker, done, writer, run, fetcher, progress, total)
    finally:
        if output is None:
            writer.close()
    return run


def _unique(
    specs: Iterable[str], seen: set[str], order: dict[str, int] | None = None
) -> Iterator[str]:
    """Each source once, however it is spelled (`seen` holds `source_key`s); `order` numbers
    every distinct source met, seen or not."""
    for spec in specs:
        key = source_key(spec)
        if order is not None and spec not in order:
            order[spec] = len(order)
        if key not in seen:
            seen.add(key)
            yield spec


class _FetchFailed:
    """Marks a source whose result the parent already has (a page that failed to fetch)."""

    __slots__ = ("result",)

    def __init__(self, result: Result) -> None:
        self.result = result


def _tasks(specs: Iterable[str], fetcher: Fetcher | None) -> Iterator[Task | _FetchFailed]:
    """A task per source; a URL is fetched here (politely, in one place) and a fetch
    failure is already a result."""
    for spec in specs:
        if not is_url(spec):
            yield (spec, None)
            continue
        from gcadj.errors import FetchError
        from gcadj.sources.fetch import default_fetcher  # only once a URL is met

        try:
            text = (fetcher or default_fetcher()).get(spec).text()
        except FetchError as err:
            verdict = failed_verdict(spec, Status.ERROR, str(err))
            yield _FetchFailed((spec, verdict_line(verdict), verdict.outcome))
            continue
        except Exception as err:  # a bug on one page costs that page, never the audit
            log.debug("internal error fetching %s", spec, exc_info=True)
            verdict = internal_error_verdict(spec, err)
            yield _FetchFailed((spec, verdict_line(verdict), verdict.outcome))
            continue
        yield (spec, text)


def _record(
    results: list[Result],
    writer: JsonlWriter,
    run: AuditRun,
    progress: Progress | None,
    done: set[str],
) -> None:
    """Write results that became known together (a batch) with one write, then report them.

    A game already in `done` is dropped: a file of several games is judged whole, and on
    --resume some of its games may be in the file already (or a list named one twice).
    One write per batch, not per line: besides fewer system calls, each write releases
    the GIL, and with the pool's threads waiting for it a per-line write cost the parent
    far more than the write itself.
    """
    fresh = []
    for result in results:
        key = source_key(result[0])  # `done` holds keys, however the source was spelled
        if key not in done:
            done.add(key)
            fresh.append(result)
    if not fresh:
        return
    writer.write("".join(line for _, line, _ in fresh))
    run.judged += len(fresh)
    if progress is not None:
        for _, line, status in fresh:
            progress.advance(line, status)


def _run_here(
    plan: AuditPlan,
    walker: SourceWalker,
    done: set[str],
    writer: JsonlWriter,
    run: AuditRun,
    fetcher: Fetcher | None,
    progress: Progress | None,
    total: int | None,
) -> None:
    if progress is not None:
        progress.start(total)
    for item in _tasks(_unique(walker, set(done), run.order), fetcher):
        if isinstance(item, _FetchFailed):
            _record([item.result], writer, run, progress, done)
            continue
        _record(judge_batch([item], plan.check, plan.viewers), writer, run, progress, done)


def _run_pool(
    plan: AuditPlan,
    walker: SourceWalker,
    done: set[str],
    writer: JsonlWriter,
    run: AuditRun,
    fetcher: Fetcher | None,
    progress: Progress | None,
    total: int | None,
) -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor  # not at start-up: ~20 ms

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    limit = 4 * plan.jobs
    pending: set[Future[tuple[list[Result], float]]] = set()
    sizer = _BatchSize(plan.batch_size)

    def drain(block: bool) -> None:
        finished, _ = wait(pending, timeout=None if block else 0, return_when=FIRST_COMPLETED)
        for future in finished:
            pending.discard(future)
            results, seconds = future.result()
            sizer.learn(len(results), seconds)
            _record(results, writer, run, progress, done)

    pool = ProcessPoolExecutor(
        plan.jobs,
        mp_context=context,
        initializer=_worker_init,
        initargs=(os.getpid(), writer.fd if context.get_start_method() == "fork" else -1),
    )
    try:
        # Start the workers before any progress thread exists (fork copies only this thread).
        pool.submit(_ready).result()
        if progress is not None:
            progress.start(total)
        batch: list[Task] = []

        def submit() -> None:
            pending.add(pool.submit(_judge_timed, list(batch), plan.check, plan.viewers))
            batch.clear()
            while len(pending) >= limit:
                drain(block=True)

        for item in _tasks(_unique(walker, set(done), run.order), fetcher):
            if isinstance(item, _FetchFailed):
                _record([item.result], writer, run, progress, done)
                drain(block=False)
                continue
            batch.append(item)
            if len(batch) >= sizer.size or item[1] is not None:
                submit()  # a fetched page goes at once: fetching is the slow part
                drain(block=False)
        if batch:
            submit()
        while pending:
            drain(block=True)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


__all__ = [
    "DEFAULT_GAME",
    "SOURCE_SUFFIXES",
    "AuditError",
    "AuditPlan",
    "AuditRun",
    "JsonlWriter",
    "SourceWalker",
    "judge_batch",
    "read_done",
    "run_audit",
    "verdict_line",
]
