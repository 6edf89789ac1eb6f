"""Audit an archive: judge many sources in parallel, one JSON line per source, resumable.

The parent process owns everything with state: it walks the sources lazily (files,
directories, URLs, log indexes), fetches pages itself through one polite `Fetcher` (so
the per-host delay holds however many workers there are), hands bounded batches to a
process pool, and is the only writer of the JSONL file. Each result is written as one
`os.write` of a complete line as soon as it is known, and fsync'd about once a second,
so a crash or Ctrl-C loses nothing already judged and never leaves half a line; the rare
torn line a SIGKILL mid-write could leave is dropped by ``--resume``, which then judges
every source not yet in the file, each exactly once.

Memory stays flat: sources are streamed, at most ``4 * jobs`` batches (each about a tenth
of a second of work, at most 256 sources) are in flight, and
the summary, CSV and HTML report are computed from the JSONL file at the end rather than
from results kept in memory. The one thing that grows is the set of source names already
seen (needed to judge each source once), a few dozen bytes per game.
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
from gcadj.app.audit_files import (
    SOURCE_SUFFIXES,
    AuditError,
    check_products,
    is_locked,
    is_walked,
    lock_exclusively,
    source_key,
)
from gcadj.app.check import CheckOptions, judge_source, judge_text
from gcadj.sources.urls import is_url

if TYPE_CHECKING:
    from gcadj.sources.fetch import Fetcher

log = logging.getLogger(__name__)

DEFAULT_GAME: Final = "Pocket Mutation Chess"
FSYNC_SECONDS: Final = 1.0


# ---------------------------------------------------------------------------------------
# One source


def verdict_line(verdict: Verdict) -> str:
    """The JSON line of a verdict: exactly what ``gcadj check --json`` prints, plus newline."""
    return verdict.json_line() + "\n"


# A task is (source, text): text None means the worker reads the source itself.
Task = tuple[str, "str | None"]
Result = tuple[str, str]  # (JSON line, status)


def judge_batch(batch: list[Task], options: CheckOptions) -> list[Result]:
    """Judge a batch in a worker; never raises for a source, bad or not: a bug on one
    costs that source an internal-error verdict (`gcadj.app.check.guarded`), not the audit."""
    results = []
    for spec, text in batch:
        verdict = judge_source(spec, options) if text is None else judge_text(text, spec, options)
        results.append((verdict_line(verdict), verdict.outcome))
    return results


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


def _judge_timed(batch: list[Task], options: CheckOptions) -> tuple[list[Result], float]:
    """`judge_batch` in a worker, with the seconds it took (to size the next batches)."""
    start = time.perf_counter()
    results = judge_batch(batch, options)
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
# Sources


@dataclass
class SourceWalker:
    """Every source an audit names, lazily and in a stable order.

    Directories are walked recursively in sorted order for files ending in
    `SOURCE_SUFFIXES` (hidden entries and gcadj's own reports skipped, see
    `gcadj.app.audit_files.is_walked`); an index is fetched once per walker and its viewing
    pages of `game` listed. A spec that is neither a URL nor a directory is yielded as
    it is, so a missing file is judged (as an "error") rather than silently dropped.
    """

    specs: tuple[str, ...]
    index_urls: tuple[str, ...] = ()
    game: str = DEFAULT_GAME
    fetcher: Fetcher | None = None
    index_errors: list[str] = field(default_factory=list)
    _indexes: dict[str, list[str]] = field(default_factory=dict)

    def __iter__(self) -> Iterator[str]:
        for spec in self.specs:
            if not is_url(spec) and os.path.isdir(spec):
                yield from _walk(spec)
            else:
                yield spec
        for url in self.index_urls:
            yield from self._index(url)

    def _index(self, url: str) -> list[str]:
        if url not in self._indexes:
            self._indexes[url] = self._read_index(url)
        return self._indexes[url]

    def _read_index(self, url: str) -> list[str]:
        from gcadj.sources.fetch import FetchError, default_fetcher
        from gcadj.sources.pages.index import index_entries

        fetcher = self.fetcher or default_fetcher()
        try:
            page = fetcher.get(url, fresh=True)  # an index changes; its games mostly do not
            entries = index_entries(page.text(), page.final_url, self.game)
        except FetchError as err:
            self.index_errors.append(f"index {err}")
            log.error("index %s", err)
            return []
        except Exception as err:  # a bug on the index costs its games, never the audit
            log.debug("internal error reading index %s", url, exc_info=True)
            self.index_errors.append(f"index {internal_error_verdict(url, err).error}")
            return []
        if not entries:
            log.warning("%s lists no game of %r", url, self.game)
        return [entry.url for entry in entries]


def _walk(folder: str) -> Iterator[str]:
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = os.path.join(root, name)
            if is_walked(name, Path(path)):  # gcadj's own reports are no games
                yield path


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
    """What happened: how many were judged now, skipped as done, and index failures."""

    judged: int = 0
    skipped: int = 0
    index_errors: list[str] = field(default_factory=list)


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
        done = read_done(plan.out) if plan.resume else set()
        walker = SourceWalker(plan.sources, plan.index_urls, plan.game, fetcher)
        run = AuditRun(index_errors=walker.index_errors)
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


def _unique(specs: Iterable[str], seen: set[str]) -> Iterator[str]:
    """Each source once, however it is spelled (`seen` holds `source_key`s)."""
    for spec in specs:
        key = source_key(spec)
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
        from gcadj.sources.fetch import FetchError, default_fetcher  # only once a URL is met

        try:
            text = (fetcher or default_fetcher()).get(spec).text()
        except FetchError as err:
            verdict = failed_verdict(spec, "error", str(err))
            yield _FetchFailed((verdict_line(verdict), verdict.outcome))
            continue
        except Exception as err:  # a bug on one page costs that page, never the audit
            log.debug("internal error fetching %s", spec, exc_info=True)
            verdict = internal_error_verdict(spec, err)
            yield _FetchFailed((verdict_line(verdict), verdict.outcome))
            continue
        yield (spec, text)


def _record(
    results: list[Result], writer: JsonlWriter, run: AuditRun, progress: Progress | None
) -> None:
    """Write results that became known together (a batch) with one write, then report them.

    One write per batch, not per line: besides fewer system calls, each write releases
    the GIL, and with the pool's threads waiting for it a per-line write cost the parent
    far more than the write itself.
    """
    writer.write("".join(line for line, _ in results))
    run.judged += len(results)
    if progress is not None:
        for line, status in results:
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
    for item in _tasks(_unique(walker, done), fetcher):
        if isinstance(item, _FetchFailed):
            _record([item.result], writer, run, progress)
            continue
        _record(judge_batch([item], plan.check), writer, run, progress)


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
            _record(results, writer, run, progress)

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
            pending.add(pool.submit(_judge_timed, list(batch), plan.check))
            batch.clear()
            while len(pending) >= limit:
                drain(block=True)

        for item in _tasks(_unique(walker, done), fetcher):
            if isinstance(item, _FetchFailed):
                _record([item.result], writer, run, progress)
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
