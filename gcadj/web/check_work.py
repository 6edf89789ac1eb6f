"""How `gcadj serve` judges a check's uploads with the batch runner (`gcadj.app.batch`).

The server starts no process of its own: a check is two runs of the app's runner on a
pool of worker processes that the server borrows for it (`gcadj.web.jobs`), and this
module holds what those workers do (its functions travel to them by name):

1. **Listing** (`list_zips`): the check's zip uploads (each in the private file it
   spilled to, or saved in the check's folder) are opened by a worker, under the same
   deadline and memory cap as a source, and listed together
   (`gcadj.web.uploads.UploadReader.plan`: refused whole when they break the request's
   `ZipLimits`). The server process never parses a stranger's archive.
2. **Judging** (`judge_upload`): one task per source (an upload, or a member of a zip,
   which the worker reads from the saved file), judged by the one pipeline with its text
   in hand and named as the user named it, so the verdicts are those of ``gcadj check``;
   each game's viewer data and downloads come back with its verdict (`stored_view`), for
   the store to keep (`gcadj.web.store`) and the result pages to show.

Deadlines, the memory cap and deaths are the runner's: a source over its deadline, or
whose worker dies, gets an "error" verdict worded as ``gcadj audit`` words it.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from gcadj.analysis.options import AdjudicateOptions
from gcadj.app.batch import Limits, Work, run_batch
from gcadj.app.pipeline import JudgeOptions
from gcadj.app.worker_judging import (
    WorkerResult,
    WorkerSettings,
    failed_result,
    judge_text,
    lost_result,
)
from gcadj.errors import UploadRefused
from gcadj.sources.decode import decode_text
from gcadj.web.defaults import ADJUDICATE_DEPTH
from gcadj.web.store import pack, unpack
from gcadj.web.uploads import (
    Planned,
    Upload,
    UploadReader,
    ZipLimits,
    is_zip,
    unique_names,
)

if TYPE_CHECKING:
    from gcadj.app.pool import Lost, WorkerPool
    from gcadj.judging.verdict import Verdict
    from gcadj.outputs.viewer import GameView

log = logging.getLogger(__name__)


# ---------------------------------------------------------------------------------------
# The viewers' data and downloads


def downloads(verdict: Verdict, fen: str | None) -> list[tuple[str, str, str]]:
    """The game as PGN and as a Game Courier log, and (for an illegal game with typing
    slips) the fixed log: (label, file name, text). A format the game cannot give is
    left out."""
    from gcadj.outputs.game_export import export_game

    stem = file_stem(verdict.source)
    out: list[tuple[str, str, str]] = []
    for label, fmt, name in (
        ("PGN", "pgn", f"{stem}.pgn"),
        ("Game Courier log", "gc", f"{stem}.txt"),
    ):
        try:
            out.append((f"Download {label}", name, export_game(verdict, fmt)))
        except Exception:  # a format this game cannot give: no link
            log.debug("no %s for %s", fmt, verdict.source, exc_info=True)
    if verdict.first_illegal is not None and verdict.log is not None:
        try:
            from gcadj.judging.fix import fix_log
            from gcadj.outputs.writers.gc import write_fixed_gc

            fixed = fix_log(verdict.log, fen=fen)
            if fixed.fixes:
                out.append(("Download fixed log", f"{stem}-fixed.txt", write_fixed_gc(fixed)))
        except Exception:
            log.debug("no fixed log for %s", verdict.source, exc_info=True)
    return out


def file_stem(source: str) -> str:
    """A file name for what is downloaded of a source: its name's last part without its
    ending, in letters, digits and ``-_.`` ("club/Alice vs Bob.txt": "Alice_vs_Bob")."""
    tail = source.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    stem = tail.rsplit(".", 1)[0] if "." in tail else tail
    clean = "".join(c if c.isalnum() or c in "-_." else "_" for c in stem).strip("._")
    return clean[:60] or "game"


def stored_view(verdict: Verdict, *, fen: str | None) -> bytes | None:
    """What the server keeps of a game's viewer (`WorkerSettings.views`, in a worker): its data
    (`gcadj.outputs.viewer.GameView`, with the adjudication the judged game carries) and
    its downloads, as compressed JSON (`read_view` reads it back); None for a verdict with
    no game to show."""
    from gcadj.outputs.viewer import game_view

    if verdict.log is None:
        return None
    view = game_view(verdict)
    data = {"view": view.to_json(), "downloads": downloads(verdict, fen)}
    return pack(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def read_view(data: bytes) -> tuple[GameView, list[tuple[str, str, str]]]:
    """A game's viewer data and downloads (label, file name, text), as `stored_view` kept
    them."""
    from gcadj.outputs.viewer import GameView

    found = json.loads(unpack(data))
    downloads = [(str(a), str(b), str(c)) for a, b, c in found["downloads"]]
    return GameView.from_json(found["view"]), downloads


SOURCE_SHARE: Final = 0.25
"""The most of a source's deadline that its games' adjudications may take together."""
CHECK_SHARE: Final = 0.1
"""The most of a check's deadline that its adjudications may take, shared by its sources."""


def check_job(
    options: JudgeOptions,
    *,
    budget: float | None = None,
    sources: int = 1,
    source_seconds: float = 0.0,
    check_seconds: float = 0.0,
) -> WorkerSettings:
    """How a check's sources are judged: with the report's facts, each game's viewer data
    (`stored_view`) sent back to be kept, and, with a `budget` (seconds a game; None: no
    adjudication), each game adjudicated: a mate searched up to `ADJUDICATE_DEPTH` moves
    within that budget (0: no mate searched, as ``--budget 0`` says), and a
    source's stages within `SOURCE_SHARE` of its deadline and its part of `CHECK_SHARE` of
    the check's (`check_seconds` over its `sources`; a deadline of 0 is none), so
    adjudicating never costs a verdict its time: one game gets its budget (a quarter of
    60 s is far more), 300 sources share a tenth of 900 s (0.3 s each), 10,000 get 9 ms
    each (a search out of time still answers with what it proved before it first looked
    at the clock, every 1,024 positions; a source with no time left at all is adjudicated
    without a search). A check that asks for the analysis (`JudgeOptions.analyse`) has it
    within the same share: each game's searches get what is left of it, and a position
    with no time left claims nothing (its search cut by the budget).
    """
    if budget is not None or options.analyse is not None:
        shares = [SOURCE_SHARE * source_seconds] if source_seconds > 0 else []
        if check_seconds > 0:
            shares.append(CHECK_SHARE * check_seconds / max(1, sources))
        adjudicate = None
        if budget is not None:
            adjudicate = AdjudicateOptions(mate_depth=ADJUDICATE_DEPTH, budget=budget)
        options = dataclasses.replace(
            options, adjudicate=adjudicate, stage_seconds=min(shares) if shares else None
        )
    return WorkerSettings(
        options,
        facts=True,
        views=functools.partial(stored_view, fen=options.fen),
    )


# ---------------------------------------------------------------------------------------
# The tasks, and what a worker does with them


@dataclass(frozen=True)
class Zips:
    """A check's zip uploads, in order, as (name, path) where its workers read them; they
    are listed together, under one request's `limits` (`UploadReader` counts the files and
    bytes of all of them)."""

    files: tuple[tuple[str, str], ...]
    limits: ZipLimits

    @property
    def name(self) -> str:
        return ", ".join(name for name, _ in self.files)


@dataclass(frozen=True)
class Listing:
    """What listing a check's zips gives: their sources (`Planned`, each a member or a
    zip refused whole, by its place in `Zips.files`) and how many of their files are not
    game files; or why they could not be listed (`lost`: the runner's words)."""

    planned: list[Planned]
    skipped: int = 0
    lost: str | None = None


def list_zips(task: Zips) -> Listing:
    """The work of listing a check's zips (in a worker)."""
    reader, planned = _open_zips(task)
    return Listing(planned, reader.skipped)


def listing_lost(name: str, lost: Lost) -> Listing:
    """Zips the runner could not list (their deadline, their worker's death)."""
    return Listing([], lost=lost.words)


def task_name(task: Zips | SourceTask) -> str:
    return task.name


@dataclass(frozen=True)
class SourceTask:
    """One source of a check: an upload's bytes (`data`) or the file they spilled to
    (`path`), or member `member` of zip `upload` of `zips`; a source refused before
    reading carries why (`refusal`)."""

    name: str
    data: bytes | None = None
    path: str | None = None
    zips: Zips | None = None
    upload: int = 0
    member: str | None = None
    refusal: str | None = None
    adjudicate: bool = True  # False: the server's budget is spent, no mate is searched


def judge_upload(task: SourceTask, job: WorkerSettings) -> list[WorkerResult]:
    """The work of a `SourceTask` (in a worker): its games, judged (see `judge_text`)."""
    if not task.adjudicate:
        no_time = dataclasses.replace(job.options, stage_seconds=0.0)  # no mate searched
        job = dataclasses.replace(job, options=no_time)
    if task.refusal is not None:
        return failed_result(task.name, task.refusal, job)
    data = task.data
    if task.path is not None:  # an upload spilled to a file
        data = Path(task.path).read_bytes()
    elif task.zips is not None and task.member is not None:
        reader, _ = _open_zips(task.zips)
        try:
            data = reader.read(Planned(task.name, task.upload, member=task.member))
        except UploadRefused as err:
            return failed_result(task.name, str(err), job)
    return judge_text(task.name, decode_text(data or b""), job)


_OPEN: dict[Zips, tuple[UploadReader, list[Planned]]] = {}  # in a worker: its last zips


def _open_zips(zips: Zips) -> tuple[UploadReader, list[Planned]]:
    """The reader of a check's zips and their listing, made once per worker: their
    members are read one task after another (a worker keeps the last check's zips open
    until it reads another's)."""
    found = _OPEN.get(zips)
    if found is None:
        for reader, _ in _OPEN.values():
            reader.close()
        _OPEN.clear()
        uploads = [Upload(name, b"", path=path) for name, path in zips.files]
        reader = UploadReader(uploads, zips.limits)
        found = _OPEN[zips] = (reader, reader.plan())
    return found


# ---------------------------------------------------------------------------------------
# A check, in the server's thread


@dataclass(frozen=True)
class CheckResources:
    """What one check's runs are given besides its uploads (the resources of its
    runs, not a run: `gcadj.app.check.CheckRun` is one): the pool lent to it, its limits
    (measured from `started`), its private folder (zips are saved there), the zip limits,
    the judging job, and `stop` (the check was cancelled)."""

    pool: WorkerPool
    limits: Limits
    started: float
    folder: Path
    zips: ZipLimits
    job: WorkerSettings
    stop: Callable[[], bool]


def plan_check(
    run: CheckResources, uploads: Sequence[Upload]
) -> tuple[list[SourceTask], int] | None:
    """Every source of a check, in order (its zips listed by a worker), and how many
    files of its zips are not game files; None when the check was cancelled."""
    places = [i for i, upload in enumerate(uploads) if upload.error is None and is_zip(upload)]
    zips = Zips(
        tuple((uploads[i].name, _on_disk(run.folder, i, uploads[i])) for i in places), run.zips
    )
    listed: list[Listing] = []
    if places:
        work = Work(list_zips, task_name, listing_lost)
        done = run_batch(
            run.pool, work, [zips], listed.extend, run.limits, started=run.started, stop=run.stop
        )
        if not done:
            return None
    listing = listed[0] if listed else Listing([])
    members: dict[int, list[SourceTask]] = {}
    for planned in listing.planned:
        members.setdefault(places[planned.upload], []).append(_member_task(planned, zips))
    sources: list[SourceTask] = []
    for index, upload in enumerate(uploads):
        if upload.error is not None:
            sources.append(SourceTask(upload.name, refusal=upload.error))
        elif index not in places:
            data = upload.data if upload.path is None else None
            sources.append(SourceTask(upload.name, data, upload.path))
        elif listing.lost is not None:
            sources.append(SourceTask(upload.name, refusal=f"{upload.name}: {listing.lost}"))
        else:
            sources += members.get(index, [])
    names = unique_names([task.name for task in sources])
    renamed = [_renamed(task, name) for task, name in zip(sources, names, strict=True)]
    return renamed, listing.skipped


def _on_disk(folder: Path, index: int, upload: Upload) -> str:
    """Where zip upload `index` of a check is for its workers to read: the private file
    it spilled to, else a copy saved in the check's folder."""
    if upload.path is not None:
        return upload.path
    saved = folder / f"upload-{index}.zip"
    saved.write_bytes(upload.data)
    return str(saved)


def _member_task(planned: Planned, zips: Zips) -> SourceTask:
    if planned.refusal is not None or planned.member is None:
        return SourceTask(planned.name, refusal=planned.refusal)
    return SourceTask(planned.name, zips=zips, upload=planned.upload, member=planned.member)


def _renamed(task: SourceTask, name: str) -> SourceTask:
    return task if name == task.name else dataclasses.replace(task, name=name)


def judge_check(
    run: CheckResources,
    tasks: Iterable[SourceTask],
    sink: Callable[[list[list[WorkerResult]]], None],
) -> bool:
    """Judge the sources of a check (read one at a time: a slice of them, see
    `gcadj.web.schedule.Slice`), giving `sink` the results in order; False when the check
    was cancelled. The first units hold one source each, until the runner knows what one
    costs, so that a check holds few sources in hand and can give its worker up soon."""
    lost = functools.partial(lost_result, job=run.job)
    work = Work(functools.partial(judge_upload, job=run.job), task_name, lost, _has_data)
    return run_batch(
        run.pool, work, tasks, sink, run.limits, started=run.started, stop=run.stop, first_size=1
    )


def _has_data(task: SourceTask) -> bool:
    """A whole upload (its bytes, or the file they spilled to): big, so it goes alone."""
    return task.data is not None or (task.path is not None and task.member is None)


__all__ = [
    "CHECK_SHARE",
    "SOURCE_SHARE",
    "CheckResources",
    "Listing",
    "SourceTask",
    "Zips",
    "check_job",
    "downloads",
    "file_stem",
    "judge_check",
    "judge_upload",
    "list_zips",
    "plan_check",
    "read_view",
    "stored_view",
]
