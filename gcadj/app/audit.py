"""Audit an archive: judge many sources in parallel, one JSON line per game, resumable.

`run_audit(plan)` is the whole job (``gcadj audit`` only turns its options into an
`AuditPlan` and prints the `AuditRun` it gets back):

- The parent process owns everything with state: it walks the sources lazily (files,
  folders, URLs, an audit's JSONL, log indexes: `gcadj.sources.walk`), fetches pages
  itself through one polite fetcher (so the per-host delay holds however many workers
  there are), hands bounded batches to worker processes (`gcadj.app.workers`), and is
  the only writer of the JSONL file.
- **Source order.** Results are written in the order of the sources, whatever order the
  workers finish in (a reorder buffer holds the batches that finished early), so two
  audits of the same sources give the same JSONL and CSV byte for byte, with one job or
  eight. Each batch's lines go out with one `os.write` of complete lines as soon as every
  batch before it is written, and are fsync'd about once a second, so a crash or Ctrl-C
  loses nothing already written and never leaves half a line; the rare torn line a
  SIGKILL mid-write could leave is dropped by ``--resume``, which then judges every
  source not yet in the file, each exactly once. Written in order, a killed audit's file
  is a prefix of the sources, and the resumed one appends the rest: still in order.
- **A dead worker** (SIGKILL, the OOM killer) costs at most the source it was judging,
  which gets an "error" verdict; the pool starts a new worker and the audit goes on (see
  `gcadj.app.workers`).
- A file of several games (a PGN database) is one source and gives one line per game.
- At the end, from the JSONL file (so a resumed run counts everything): the `Summary`,
  the CSV and the HTML report, and the exit code (`gcadj.app.exit_codes`). Without
  `AuditPlan.out` the JSONL is a scratch file, deleted at the end.

Memory stays flat: sources are streamed, at most ``4 * jobs`` batches (each about a tenth
of a second of work, at most 256 sources) are in flight or waiting for an earlier one,
and the products are computed from the JSONL file rather than from results kept in
memory. What grows is the set of source names already seen (needed to judge each source
once) with its place in the order the sources were given, a few dozen bytes per game,
and, with a report, the facts it shows of each game (`GameFacts`: a link, the players of
an illegal game), only for the games that have some.

With `AuditPlan.viewers`, whoever judges a game (a worker, or the parent with one job)
also writes its HTML viewer there at once, while the replay is at hand, for the games
`AuditPlan.viewer_games` names (`ViewerChoice`: the failing ones by default, all, or
none): the report links each such game to it, and nothing has to be read or judged
twice. The pages link one shared style and script, which the parent writes into the
folder once (`gcadj.outputs.viewer.viewer_assets`), so each holds only its own game.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Final, NamedTuple, Protocol

from gcadj.adjudication.verdict import Verdict, failed_verdict, internal_error_verdict
from gcadj.app.audit_files import check_products, is_locked, lock_exclusively, source_key
from gcadj.app.exit_codes import EXIT_UNREADABLE, exit_code_of, worst
from gcadj.app.fetching import FetchSettings, fetch_settings, shared_fetcher
from gcadj.app.pipeline import JudgeOptions, judge_source, source_name
from gcadj.app.workers import Died, Finished, WorkerPool, blame, death_words
from gcadj.errors import AuditError, AuditInterrupted
from gcadj.outputs.audit_report import (
    FactsLookup,
    GameFacts,
    Summary,
    summarize,
    write_csv,
    write_report,
)
from gcadj.sources.urls import is_url
from gcadj.sources.walk import DEFAULT_GAME, SOURCE_SUFFIXES, SourceWalker
from gcadj.vocabulary import Status, VerdictKind

if TYPE_CHECKING:
    from gcadj.sources.fetch import Fetcher

log = logging.getLogger(__name__)

FSYNC_SECONDS: Final = 1.0


# ---------------------------------------------------------------------------------------
# One source


class Judged(NamedTuple):
    """One game's result, as a worker sends it to the parent: its JSON line (exactly what
    ``gcadj check --json`` prints, with the newline), its outcome (for the exit code), the
    line ``gcadj check -q`` prints for it when it is not legal, and what the report shows
    of it besides the verdict (None when nothing, or no report is written)."""

    source: str
    line: str
    status: Status
    outcome: VerdictKind
    failing: str | None
    facts: GameFacts | None


def judged(verdict: Verdict, *, facts: bool = False) -> Judged:
    """What the parent needs of a verdict (`Judged`); `facts`: the report's too."""
    from gcadj.outputs.report import verdict_line as failing_line

    return Judged(
        verdict.source,
        verdict.json_line() + "\n",
        verdict.status,
        verdict.outcome,
        None if verdict.status == Status.LEGAL else failing_line(verdict),
        game_facts(verdict) if facts else None,
    )


def game_facts(verdict: Verdict) -> GameFacts | None:
    """What the report shows of a judged game: its Site tag when it is an http(s) address
    (a URL source is its own link: see `facts_of_earlier`), and the players of an illegal
    game. Read from the judged game, never from the source again."""
    game = verdict.log
    if game is None:
        return None
    site = game.tag("Site")
    link = site if site and is_url(site) and not is_url(verdict.source) else None
    white = black = None
    if verdict.status == Status.ILLEGAL:
        white, black = game.tag("White"), game.tag("Black")
    if link is None and white is None and black is None:
        return None
    return GameFacts(link, white, black)


class ViewerChoice(str, Enum):
    """Which games of an audit get a viewer page: the point of a report is the failing
    games, and a page per legal game of a large archive costs time and files that few
    will open (``all`` makes them too; ``none`` leaves the report without links)."""

    FAILING = "failing"
    ALL = "all"
    NONE = "none"

    def wants(self, verdict: Verdict) -> bool:
        """Does this game get a page? (One without a game to show never does.)"""
        if verdict.log is None or self is ViewerChoice.NONE:
            return False
        return self is ViewerChoice.ALL or verdict.status != Status.LEGAL


DEFAULT_VIEWERS: Final = ViewerChoice.FAILING

# A task is (source, text): text None means the worker reads the source itself.
Task = tuple[str, "str | None"]


@dataclass(frozen=True)
class WorkerJob:
    """How a worker judges each task (small and picklable: it travels to the workers)."""

    options: JudgeOptions = field(default_factory=JudgeOptions)
    viewers: Path | None = None
    viewer_games: ViewerChoice = DEFAULT_VIEWERS
    facts: bool = False


def judge_task(task: Task, job: WorkerJob) -> list[Judged]:
    """Judge one source (in a worker, or in the parent with one job); never raises for a
    bad source (`judge_source` turns it into a verdict). With `job.viewers`, the viewer
    page of each game `job.viewer_games` wants is written into that folder."""
    spec, text = task
    results = []
    for verdict in judge_source(spec, job.options, text=text):
        if job.viewers is not None and job.viewer_games.wants(verdict):
            _write_viewer(verdict, job.viewers)
        results.append(judged(verdict, facts=job.facts))
    return results


def task_name(task: Task) -> str:
    return task[0]


def _write_viewer(verdict: Verdict, folder: Path) -> None:
    """The game's viewer page in `folder` (see `viewer_filename`), linking the shared
    files `write_viewer_assets` put there; a failure costs only the page, and a file gcadj
    did not write is never replaced."""
    from gcadj.about import is_gcadj_html
    from gcadj.outputs.files import write_text_file
    from gcadj.outputs.viewer import viewer_assets, viewer_filename, write_viewer

    target = folder / viewer_filename(verdict.source)
    try:
        if target.exists():
            with target.open("r", encoding="utf-8", errors="replace") as handle:
                if not is_gcadj_html(handle.read(4096)):
                    log.warning("%s: not written over (gcadj did not write it)", target)
                    return
        write_text_file(target, write_viewer(verdict, assets=viewer_assets()), overwrite=True)
    except Exception:  # a page must never cost the verdict
        log.warning("no viewer for %s", verdict.source, exc_info=True)


def write_viewer_assets(folder: Path) -> None:
    """The style and script every viewer page in `folder` links (`ViewerAssets`), written
    once, before any page; a file of that name is left alone (its name is a digest of its
    text, so it already holds it, unless gcadj did not write it: then it is not
    replaced, and `AuditError` says so)."""
    from gcadj.outputs.files import write_text_file
    from gcadj.outputs.viewer import viewer_assets

    for name, text in viewer_assets().files.items():
        target = folder / name
        try:
            if target.exists():
                if target.read_text(encoding="utf-8", errors="replace") != text:
                    raise AuditError(f"{target}: not written over (gcadj did not write it)")
                continue
            write_text_file(target, text, overwrite=False)
        except OSError as err:
            raise AuditError(
                f"cannot write {err.filename or target}: {err.strerror or err}"
            ) from None


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
    """What the CLI shows while an audit runs (the library itself never prints): each
    game's result, in the order of the sources, as it is written.

    With `wants_total` false the sources are not counted before the run (one walk less).
    """

    wants_total: bool

    def start(self, total: int | None) -> None: ...

    def advance(self, result: Judged) -> None: ...


@dataclass(frozen=True)
class AuditPlan:
    """Everything an audit needs to know, apart from a fetcher and the progress.

    Without `out`, the JSONL is a scratch file, deleted at the end (a caller that wants
    the lines shows them as they come: `Progress.advance`). `failing_listed` is how many
    failing games the summary keeps (None: all).
    """

    sources: tuple[str, ...]
    out: Path | None = None
    index_urls: tuple[str, ...] = ()
    game: str = DEFAULT_GAME
    judge: JudgeOptions = field(default_factory=JudgeOptions)
    fetch: FetchSettings = field(default_factory=FetchSettings)
    jobs: int = 1
    resume: bool = False
    force: bool = False  # replace --out, and a --csv or --report that gcadj did not write
    batch_size: int | None = None  # None: sized to about BATCH_SECONDS of work each
    viewers: Path | None = None  # a folder for the HTML viewers of the games...
    viewer_games: ViewerChoice = DEFAULT_VIEWERS  # ...that this names
    csv: Path | None = None
    report: Path | None = None
    failing_listed: int | None = 10

    def check_products(self, out: Path) -> None:
        """`AuditError` if --out, --csv or --report would replace what they must not."""
        if self.resume and self.out is None:
            raise AuditError("--resume needs --out")
        products = [("--csv", self.csv, "csv"), ("--report", self.report, "html")]
        check_products(
            self.sources,
            out,
            [(option, path, kind) for option, path, kind in products if path is not None],
            force=self.force,
        )


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
    def index_errors(self) -> list[str]:
        """The former name of `problems`, when only an index could have one."""
        return self.problems

    @property
    def nothing_found(self) -> bool:
        """No game at all, neither judged now nor in the file already."""
        return self.summary.total == 0


def run_audit(
    plan: AuditPlan,
    *,
    fetcher: Fetcher | None = None,
    progress: Progress | None = None,
) -> AuditRun:
    """The whole audit of `plan` (see the module docstring); returns what happened.

    Raises `AuditError` before judging anything when an output cannot be used (and when
    the CSV or the report cannot be written at the end), and `AuditInterrupted` on Ctrl-C
    (after closing the file: everything written stays valid).
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
            earlier = _judge_all(plan, out, writer, run, facts, fetcher, progress)
        except KeyboardInterrupt:
            raise AuditInterrupted(run.judged, plan.out) from None
        run.summary = summarize(out, failing=plan.failing_listed)
        _write_products(plan, out, run, _facts_lookup(facts, earlier))
    run.exit_code = _exit_code(run)
    return run


def default_jobs() -> int:
    """One worker per core this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def viewer_folder(report: Path | None, viewers: Path | None) -> Path | None:
    """Where the game viewers go: `viewers`, else beside the report (a.html: a-viewers/)."""
    if viewers is not None:
        return viewers
    if report is None:
        return None
    return report.with_name(f"{report.stem}-viewers")


def _exit_code(run: AuditRun) -> int:
    """The worst verdict in the file; 4 also when some source could not be expanded or
    no game was found at all."""
    codes = [exit_code_of(outcome) for outcome in run.summary.by_outcome]
    if run.problems or run.nothing_found:
        codes.append(EXIT_UNREADABLE)
    return worst(codes)


def _write_products(plan: AuditPlan, out: Path, run: AuditRun, facts: FactsLookup | None) -> None:
    """The CSV and the report, from the JSONL; `AuditError` when one cannot be written."""
    try:
        if plan.csv is not None:
            write_csv(out, plan.csv)
        if plan.report is not None:
            write_report(
                out, plan.report, run.summary, order=run.order, viewers=plan.viewers, facts=facts
            )
    except OSError as err:
        raise AuditError(f"cannot write {err.filename}: {err.strerror or err}") from None


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


def _judge_all(
    plan: AuditPlan,
    out: Path,
    writer: JsonlWriter,
    run: AuditRun,
    facts: dict[str, GameFacts],
    fetcher: Fetcher | None,
    progress: Progress | None,
) -> frozenset[str]:
    """Judge every source not yet in `out`, writing results in order; returns the keys of
    the sources an earlier run judged."""
    viewers = plan.viewers if plan.viewer_games is not ViewerChoice.NONE else None
    if viewers is not None:
        try:
            viewers.mkdir(exist_ok=True)
        except OSError as err:
            raise AuditError(
                f"cannot write {err.filename or viewers}: {err.strerror or err}"
            ) from None
        write_viewer_assets(viewers)
    done = read_done(out) if plan.resume else set()
    earlier = frozenset(done)
    if fetcher is None and (plan.index_urls or any(is_url(spec) for spec in plan.sources)):
        fetcher = shared_fetcher()  # requests is imported only then
    walker = SourceWalker(plan.sources, plan.index_urls, plan.game, fetcher)
    run.problems = walker.problems
    wants_total = progress is not None and progress.wants_total
    total = sum(1 for _ in _unique(walker, set(done))) if wants_total else None
    run.skipped = len(done)
    ordered = _InOrder(writer, run, progress, done, facts if plan.report is not None else None)
    job = WorkerJob(plan.judge, viewers, plan.viewer_games, facts=plan.report is not None)
    tasks = _tasks(_unique(walker, set(done), run.order), fetcher)
    if plan.jobs <= 1:
        if progress is not None:
            progress.start(total)
        for item in tasks:
            seq = ordered.open(1)
            ordered.put(_key(seq, 0), item if isinstance(item, list) else judge_task(item, job))
            ordered.flush()
    else:
        _run_pool(plan, tasks, ordered, job, writer.fd, progress, total)
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


def _tasks(specs: Iterable[str], fetcher: Fetcher | None) -> Iterator[Task | list[Judged]]:
    """A task per source; a URL is fetched here (politely, in one place), and a fetch
    failure is already its result (a list of one `Judged`)."""
    for spec in specs:
        if not is_url(spec):
            yield (spec, None)
            continue
        from gcadj.errors import FetchError  # only once a URL is met

        try:
            text = (fetcher or shared_fetcher()).get(spec).text()
        except FetchError as err:
            yield [judged(failed_verdict(source_name(spec), Status.ERROR, str(err)))]
            continue
        except Exception as err:  # a bug on one page costs that page, never the audit
            log.debug("internal error fetching %s", source_name(spec), exc_info=True)
            yield [judged(internal_error_verdict(source_name(spec), err))]
            continue
        yield (spec, text)


def _key(seq: int, index: int) -> int:
    """One task's key: its batch and its place in it (a batch holds at most MAX_BATCH)."""
    return seq * (MAX_BATCH + 1) + index


class _InOrder:
    """The reorder buffer: batches are numbered as they are made, in the order of the
    sources, and written strictly in that order, each as soon as it and every batch
    before it are complete. `open` batches (made, not yet written) are bounded by the
    caller."""

    def __init__(
        self,
        writer: JsonlWriter,
        run: AuditRun,
        progress: Progress | None,
        done: set[str],
        facts: dict[str, GameFacts] | None,
    ) -> None:
        self.writer = writer
        self.run = run
        self.progress = progress
        self.done = done
        self.facts = facts
        self.batches: dict[int, list[list[Judged] | None]] = {}
        self.made = 0
        self.next = 0

    def open(self, size: int) -> int:
        seq = self.made
        self.made += 1
        self.batches[seq] = [None] * size
        return seq

    def put(self, key: int, results: list[Judged]) -> None:
        seq, index = divmod(key, MAX_BATCH + 1)
        self.batches[seq][index] = results

    def flush(self) -> None:
        while self.next in self.batches and all(r is not None for r in self.batches[self.next]):
            complete = self.batches.pop(self.next)
            self.next += 1
            self._record([result for results in complete if results for result in results])

    def _record(self, results: list[Judged]) -> None:
        """Write the results of one batch with one write, then report them.

        A game already in `done` is dropped: a file of several games is judged whole, and
        on --resume some of its games may be in the file already (or a list named one
        twice). One write per batch, not per line: besides fewer system calls, each write
        releases the GIL, which the parent needs for its reading of the workers' results.
        """
        fresh = []
        for result in results:
            key = source_key(result.source)  # `done` holds keys, however it was spelled
            if key not in self.done:
                self.done.add(key)
                fresh.append(result)
        if not fresh:
            return
        self.writer.write("".join(result.line for result in fresh))
        self.run.judged += len(fresh)
        for result in fresh:
            if self.facts is not None and result.facts is not None:
                self.facts[result.source] = result.facts
            if self.progress is not None:
                self.progress.advance(result)


def _died(task: Task, exitcode: int | None, *, twice: bool = False) -> list[Judged]:
    """The result of a source whose worker died judging it."""
    spec = source_name(task[0])  # a URL without its credentials
    how = death_words(exitcode)
    message = (
        f"{spec}: the worker judging it died twice ({how}); it is not tried a third time"
        if twice
        else f"{spec}: the worker judging it died: {how}"
    )
    return [judged(failed_verdict(spec, Status.ERROR, message))]


def _run_pool(
    plan: AuditPlan,
    tasks: Iterator[Task | list[Judged]],
    ordered: _InOrder,
    job: WorkerJob,
    jsonl_fd: int,
    progress: Progress | None,
    total: int | None,
) -> None:
    pool: WorkerPool[Task, list[Judged]] = WorkerPool(
        plan.jobs, functools.partial(judge_task, job=job), task_name, jsonl_fd=jsonl_fd
    )
    pool.start()  # before any progress thread exists (see `WorkerPool._context`)
    limit = 4 * plan.jobs
    sizer = _BatchSize(plan.batch_size)
    waiting: deque[tuple[list[int], list[Task]]] = deque()  # units to give, retries first
    held: dict[int, Task] = {}  # every task given or waiting, by key, until it is done
    strikes: dict[int, int] = {}

    def make_batch(batch: list[Task]) -> None:
        seq = ordered.open(len(batch))
        keys = [_key(seq, index) for index in range(len(batch))]
        held.update(zip(keys, batch, strict=True))
        waiting.append((keys, list(batch)))
        batch.clear()

    def pump(block: bool) -> None:
        ordered.flush()  # what is complete goes out now (a page that could not be fetched)
        while waiting and pool.give(*waiting[0]):
            waiting.popleft()
        if not pool.busy:
            return
        for event in pool.wait(None if block else 0):
            if isinstance(event, Finished):
                sizer.learn(len(event.unit.keys), event.seconds)
                for key, results in zip(event.unit.keys, event.results, strict=True):
                    ordered.put(key, results)
                    held.pop(key, None)
            else:
                _bury(event, held, strikes, ordered, waiting)
        ordered.flush()

    def drain(until: int) -> None:
        """Wait until at most `until` batches are not yet written."""
        while True:
            ordered.flush()
            if len(ordered.batches) <= until:
                return
            if not waiting and not pool.busy:  # nothing can complete them: a bug, not a hang
                raise RuntimeError(f"audit: {len(ordered.batches)} batches lost their results")
            pump(block=True)

    try:
        if progress is not None:
            progress.start(total)
        batch: list[Task] = []
        for item in tasks:
            if isinstance(item, list):  # a page that could not be fetched: its result
                if batch:
                    make_batch(batch)
                ordered.put(_key(ordered.open(1), 0), item)
            else:
                batch.append(item)
                if len(batch) >= sizer.size or item[1] is not None:
                    make_batch(batch)  # a fetched page goes at once: fetching is the slow part
            pump(block=False)
            drain(until=limit - 1)
        if batch:
            make_batch(batch)
        drain(until=0)
    except BaseException:
        pool.close(now=True)
        raise
    pool.close()


def _bury(
    event: Died[Task],
    held: dict[int, Task],
    strikes: dict[int, int],
    ordered: _InOrder,
    waiting: deque[tuple[list[int], list[Task]]],
) -> None:
    """What a dead worker costs (`gcadj.app.workers.blame`): an error for the source it
    was judging; the other sources it held are given again, first."""
    log.info("an audit worker died: %s", death_words(event.exitcode))
    again: list[list[int]] = []
    for unit in event.units:
        if event.judging is None:
            verdict = blame(unit.keys, None, strikes)
        elif unit.number == event.judging[0]:
            verdict = blame(unit.keys, event.judging[1], strikes)
        else:  # a unit it had not started yet: none of its sources is to blame
            again.append(unit.keys)
            continue
        for key in verdict.failed:
            ordered.put(key, _died(held.pop(key), event.exitcode))
        for key in verdict.twice:
            ordered.put(key, _died(held.pop(key), event.exitcode, twice=True))
        again += verdict.again
    for keys in reversed(again):
        waiting.appendleft((keys, [held[key] for key in keys]))


__all__ = [
    "DEFAULT_GAME",
    "DEFAULT_VIEWERS",
    "SOURCE_SUFFIXES",
    "AuditError",
    "AuditInterrupted",
    "AuditPlan",
    "AuditRun",
    "JsonlWriter",
    "Judged",
    "Progress",
    "SourceWalker",
    "ViewerChoice",
    "WorkerJob",
    "default_jobs",
    "facts_of_earlier",
    "game_facts",
    "judge_task",
    "read_done",
    "run_audit",
    "viewer_folder",
    "write_viewer_assets",
]
