"""Audit an archive: judge many sources in parallel, one JSON line per game, resumable.

`run_audit(plan)` is the whole job (``gcadj audit`` only turns its options into an
`AuditPlan` and prints the `AuditRun` it gets back). It is a client of the batch runner
(`gcadj.app.batch`), as ``gcadj serve`` is:

- The parent process owns everything with state: it walks the sources lazily (files,
  folders, URLs, an audit's JSONL, log indexes: `gcadj.sources.walk`), fetches pages
  itself through one polite fetcher (so the per-host delay holds however many workers
  there are), gives the runner one task per source, and is the only writer of the JSONL
  file (`gcadj.app.jsonl.JsonlWriter`).
- The runner's guarantees hold (see `gcadj.app.batch`): the JSONL is in the order of the
  sources, whatever order the workers finish in, so two audits of the same sources give
  the same JSONL and CSV byte for byte with one job or eight; a source over
  ``--source-timeout`` or a worker's ``--memory`` gets an "error" verdict saying so; a
  worker that dies costs at most the source it was judging.
- Each unit's lines go out with one write of complete lines as soon as every unit before
  it is written, fsync'd about once a second: a crash or Ctrl-C loses nothing already
  written, a full disk leaves whole lines only (and exits with one line saying so), and
  the rare torn line a SIGKILL mid-write could leave is cut off by ``--resume``, which
  then judges every source not yet in the file, each exactly once. Written in order, a
  killed audit's file is a prefix of the sources, and the resumed one appends the rest.
- A file of several games (a PGN database) is one source and gives one line per game.
- At the end, from the JSONL file (so a resumed run counts everything): the `Summary`,
  the CSV and the HTML report (`gcadj.app.products`), and the exit code
  (`gcadj.app.exit_codes`). Without `AuditPlan.out` the JSONL is a scratch file, deleted
  at the end.

Memory stays flat: sources are streamed, the runner holds a bounded number of units, and
the products are computed from the JSONL file rather than from results kept in memory.
What grows is the set of source names already seen (needed to judge each source once)
with its place in the order the sources were given, a few dozen bytes per game, and,
with a report, the facts it shows of each game (`GameFacts`: a link, the players of an
illegal game), only for the games that have some.

With `AuditPlan.viewers`, the worker that judges a game also writes its viewer page there
at once, while the replay is at hand, for the games `AuditPlan.viewer_games` names: the
report links each such game to it, and nothing has to be read or judged twice.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from gcadj.app.audit_files import check_products, source_key
from gcadj.app.batch import Done, Limits, Work, run_batch
from gcadj.app.exit_codes import EXIT_UNREADABLE, exit_code_of, worst
from gcadj.app.fetching import FetchSettings, fetch_settings, shared_fetcher
from gcadj.app.jsonl import JsonlWriter, read_done
from gcadj.app.pipeline import JudgeOptions, source_name
from gcadj.app.pool import WorkerPool
from gcadj.app.products import (
    DEFAULT_VIEWERS,
    Products,
    ViewerChoice,
    ViewerPages,
    write_products,
    write_viewer_assets,
)
from gcadj.app.worker_judging import (
    GameText,
    Task,
    WorkerResult,
    WorkerSettings,
    failed_result,
    has_text,
    judge_task,
    lost_result,
    task_name,
)
from gcadj.errors import AuditError, AuditInterrupted
from gcadj.outputs.audit_report import FactsLookup, GameFacts, Summary, summarize
from gcadj.sources.walk import DEFAULT_GAME, SourceWalker
from gcadj.urls import is_url

if TYPE_CHECKING:
    from gcadj.sources.fetch import Fetcher


class AuditProgress(Protocol):
    """What the CLI shows while an audit runs (the library itself never prints): each
    game's result, in the order of the sources, as it is written.

    With `wants_total` false the sources are not counted before the run (one walk less).
    """

    wants_total: bool

    def start(self, total: int | None) -> None: ...

    def advance(self, result: WorkerResult) -> None: ...


@dataclass(frozen=True)
class AuditPlan:
    """Everything an audit needs to know, apart from a fetcher and the progress.

    Without `out`, the JSONL is a scratch file, deleted at the end (a caller that wants
    the lines shows them as they come: `AuditProgress.advance`). `limits` are the batch
    runner's (workers, deadline per source, memory per worker). `failing_listed` is how
    many failing games the summary keeps (None: all). The stages each game goes through
    are the judge's options' (``--adjudicate``: `JudgeOptions.adjudicate`); `texts` makes,
    in the workers, the text a command prints of each game (`WorkerResult.text`; ``gcadj
    adjudicate`` of a folder).
    """

    sources: tuple[str, ...]
    out: Path | None = None
    index_urls: tuple[str, ...] = ()
    game: str = DEFAULT_GAME
    judge: JudgeOptions = field(default_factory=JudgeOptions)
    fetch: FetchSettings = field(default_factory=FetchSettings)
    limits: Limits = field(default_factory=Limits)
    resume: bool = False
    force: bool = False  # replace --output, and a --csv or --report that gcadj did not write
    batch_size: int | None = None  # None: sized to about BATCH_SECONDS of work each
    viewers: Path | None = None  # a folder for the HTML viewers of the games...
    viewer_games: ViewerChoice = DEFAULT_VIEWERS  # ...that this names
    csv: Path | None = None
    report: Path | None = None
    failing_listed: int | None = 10
    texts: GameText | None = None

    def check_products(self, out: Path) -> None:
        """`AuditError` if --output, --csv or --report would replace what they must not."""
        if self.resume and self.out is None:
            raise AuditError("--resume needs --output")
        products = [("--csv", self.csv, "csv"), ("--report", self.report, "html")]
        check_products(
            self.sources,
            out,
            [(option, path, kind) for option, path, kind in products if path is not None],
            force=self.force,
        )

    def job(self) -> WorkerSettings:
        """How each source is judged, in the workers."""
        pages = None
        if self.viewers is not None and self.viewer_games is not ViewerChoice.NONE:
            pages = ViewerPages(self.viewers, self.viewer_games)
        return WorkerSettings(self.judge, pages, self.report is not None, texts=self.texts)


@dataclass
class AuditRun:
    """What happened: how many games were judged now, how many skipped as done, the
    sources that could not be expanded (`problems`: an index that could not be fetched or
    lists no game of the variant, a folder with no game file; see `SourceWalker`),
    `order` (each source's place in the order the sources were given, done ones
    included), and, once the run is over, the `summary` of the whole JSONL and the
    `exit_code` the command exits with."""

    judged: int = 0
    skipped: int = 0
    problems: list[str] = field(default_factory=list)
    order: dict[str, int] = field(default_factory=dict)
    summary: Summary = field(default_factory=Summary)
    exit_code: int = 0

    @property
    def nothing_found(self) -> bool:
        """No game at all, neither judged now nor in the file already."""
        return self.summary.total == 0


def run_audit(
    plan: AuditPlan,
    *,
    fetcher: Fetcher | None = None,
    progress: AuditProgress | None = None,
) -> AuditRun:
    """The whole audit of `plan` (see the module docstring); returns what happened.

    Raises `AuditError` before judging anything when an output cannot be used,
    `CannotWrite` when an output cannot be written (a full disk: the JSONL keeps whole
    lines), and `AuditInterrupted` on Ctrl-C (after closing the file: everything written
    stays valid).
    """
    with contextlib.ExitStack() as stack:
        if plan.out is None:
            import tempfile

            scratch = stack.enter_context(tempfile.TemporaryDirectory(prefix="gcadj-audit-"))
            out = Path(scratch) / "audit.jsonl"
        else:
            out = plan.out
        plan.check_products(out)
        writer = stack.enter_context(JsonlWriter(out, resume=plan.resume, force=plan.force))
        stack.enter_context(fetch_settings(plan.fetch))
        run = AuditRun()
        facts: dict[str, GameFacts] = {}
        try:
            earlier = _judge_all(plan, out, _Recorder(writer, run, progress, facts), fetcher)
        except KeyboardInterrupt:
            raise AuditInterrupted(run.judged, plan.out) from None
        run.summary = summarize(out, failing=plan.failing_listed)
        products = Products(plan.csv, plan.report, plan.viewers)
        lookup = _facts_lookup(facts, earlier)
        write_products(out, products, summary=run.summary, order=run.order, facts=lookup)
    run.exit_code = _exit_code(run)
    return run


def _exit_code(run: AuditRun) -> int:
    """The worst verdict in the file; 4 also when some source could not be expanded or
    no game was found at all."""
    codes = [exit_code_of(outcome) for outcome in run.summary.by_outcome]
    if run.problems or run.nothing_found:
        codes.append(EXIT_UNREADABLE)
    return worst(codes)


def _facts_lookup(facts: dict[str, GameFacts], earlier: frozenset[str]) -> FactsLookup:
    """The facts the report shows of each source: those its judging gave this run, else,
    for a game judged by an earlier run (``--resume``), `facts_of_earlier`."""

    def lookup(source: str) -> GameFacts | None:
        found = facts.get(source)
        if found is None and earlier and source_key(source) in earlier:
            found = facts_of_earlier(source)
        if is_url(source):  # a page is its own link
            return GameFacts(source, *(found[1:] if found else (None, None)))
        return found

    return lookup


def facts_of_earlier(source: str) -> GameFacts | None:
    """The facts of a game judged by an earlier run, read cheaply: the tag pairs at the
    head of a text log (16 KB), as the parser reads them. Nothing is scraped or fetched:
    a saved page or a game of a database shows no players (a URL is its own link)."""
    from gcadj.notation.tags import tag_pair
    from gcadj.sources.decode import decode_text

    if is_url(source) or not os.path.isfile(source):
        return None
    try:
        with open(source, "rb") as handle:
            head = decode_text(handle.read(16384))
    except OSError:
        return None
    if head.lstrip("\ufeff \t\r\n").startswith("<"):
        return None
    tags: dict[str, str] = {}
    for line in head.splitlines():
        pair = tag_pair(line)
        if pair is not None:
            tags.setdefault(pair[0].casefold(), pair[1])
    site = tags.get("site")
    facts = GameFacts(site if site and is_url(site) else None, tags.get("white"), tags.get("black"))
    return facts if any(facts) else None


class _Recorder:
    """The runner's sink: each unit's games, in the order of the sources, written with one
    write (fewer system calls, and each releases the GIL the parent needs to read the
    workers' results), then counted, their facts kept, and shown.

    A game already in `done` is dropped: a file of several games is judged whole, and on
    --resume some of its games may be in the file already (or a list named one twice)."""

    def __init__(
        self,
        writer: JsonlWriter,
        run: AuditRun,
        progress: AuditProgress | None,
        facts: dict[str, GameFacts],
    ) -> None:
        self.writer = writer
        self.run = run
        self.progress = progress
        self.facts = facts
        self.done: set[str] = set()  # by `source_key`, however a source was spelled

    def __call__(self, unit: list[list[WorkerResult]]) -> None:
        fresh = []
        for results in unit:
            for result in results:
                key = source_key(result.source)
                if key not in self.done:
                    self.done.add(key)
                    fresh.append(result)
        if not fresh:
            return
        self.writer.write("".join(result.line for result in fresh))
        self.run.judged += len(fresh)
        for result in fresh:
            if result.facts is not None:
                self.facts[result.source] = result.facts
            if self.progress is not None:
                self.progress.advance(result)


def _judge_all(
    plan: AuditPlan, out: Path, recorder: _Recorder, fetcher: Fetcher | None
) -> frozenset[str]:
    """Judge every source not yet in `out`, writing results in order; returns the keys of
    the sources an earlier run judged."""
    job = plan.job()
    if job.pages is not None:
        write_viewer_assets(job.pages.folder)
    run, progress = recorder.run, recorder.progress
    recorder.done = read_done(out) if plan.resume else set()
    earlier = frozenset(recorder.done)
    if fetcher is None and (plan.index_urls or any(is_url(spec) for spec in plan.sources)):
        fetcher = shared_fetcher()  # requests is imported only then
    walker = SourceWalker(plan.sources, plan.index_urls, plan.game, fetcher)
    run.problems = walker.problems
    wants_total = progress is not None and progress.wants_total
    total = sum(1 for _ in _unique(walker, set(earlier))) if wants_total else None
    run.skipped = len(earlier)
    tasks = _tasks(_unique(walker, set(earlier), run.order), fetcher, job)
    lost = functools.partial(lost_result, job=job)
    work = Work(functools.partial(judge_task, job=job), task_name, lost, has_text)
    settings = plan.limits.pool(
        close_fds=(recorder.writer.fd,), preload=("gcadj.app.worker_judging",)
    )
    with WorkerPool(settings) as pool:
        pool.start()  # before any progress thread exists (see `gcadj.app.pool`)
        if progress is not None:
            progress.start(total)
        run_batch(pool, work, tasks, recorder, plan.limits, batch_size=plan.batch_size)
    return earlier


def _unique(
    specs: Iterable[str], seen: set[str], order: dict[str, int] | None = None
) -> Iterator[str]:
    """Each source once, however it is spelled (`seen` holds `source_key`s); `order` numbers
    every distinct source met, seen or not."""
    for spec in specs:
        key = source_key(spec)
        name = source_name(spec)  # as its verdicts name it: a URL without credentials
        if order is not None and name not in order:
            order[name] = len(order)
        if key not in seen:
            seen.add(key)
            yield spec


def _tasks(
    specs: Iterable[str], fetcher: Fetcher | None, job: WorkerSettings
) -> Iterator[Task | Done[list[WorkerResult]]]:
    """A task per source; a URL is fetched here (politely, in one place), and a fetch
    failure is already its result."""
    for spec in specs:
        if not is_url(spec):
            yield (spec, None)
            continue
        from gcadj.errors import FetchError  # only once a URL is met

        try:
            text = (fetcher or shared_fetcher()).get(spec).text()
        except FetchError as err:
            yield Done(failed_result(source_name(spec), str(err), job))
            continue
        except Exception as err:  # a bug on one page costs that page, never the audit
            from gcadj.app.pool import Lost

            message = str(err).strip() or "(no message)"
            yield Done(lost_result(spec, Lost(f"{type(err).__name__}: {message}", True), job))
            continue
        yield (spec, text)


__all__ = [
    "AuditError",
    "AuditInterrupted",
    "AuditPlan",
    "AuditProgress",
    "AuditRun",
    "facts_of_earlier",
    "run_audit",
]
