"""What a worker of the batch runner does with one source, for ``gcadj audit`` and
``gcadj serve`` alike: judge it (`gcadj.app.pipeline.judge_source`), write the viewer page
of each game that wants one (`gcadj.app.products.write_game_page`), and send back, per
game, a `Judged`: what the parent needs of the verdict, small enough to travel.

**The JSON line of a game comes from `game_line` only**, given the verdict and the
`JudgeJob`: what ``gcadj check --json`` prints, or, when the job carries
`AdjudicateOptions` (``audit --adjudicate``, ``gcadj serve``), what ``gcadj adjudicate
--json`` prints: the same object with its ``"adjudication"``, made here, in the worker,
and nowhere else (`game_adjudication`: once per game, and the viewer data a client keeps
is made from the same answer). The audit's JSONL, the server's answers and the products
read from them all follow. The job is small and picklable (it travels with every unit of
work).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from gcadj.analysis.options import AdjudicateOptions
from gcadj.app.pipeline import JudgeOptions, judge_source, source_name
from gcadj.app.products import ViewerPages, write_game_page
from gcadj.outputs.audit_report import GameFacts
from gcadj.sources.urls import is_url
from gcadj.vocabulary import Status, VerdictKind

if TYPE_CHECKING:
    from gcadj.app.pool import Lost
    from gcadj.judging.adjudication import Adjudication
    from gcadj.judging.verdict import Verdict

log = logging.getLogger(__name__)


ViewData = Callable[["Verdict", "Adjudication | None"], "bytes | None"]
"""What a client keeps of a game's viewer instead of a page file (``gcadj serve``'s
stored data, `gcadj.web.judging.stored_view`): made in the worker from the verdict and
its adjudication, sent back with the game's result (`Judged.view`). A picklable
function: it travels too."""


@dataclass(frozen=True)
class JudgeJob:
    """How a worker judges each source of a batch (small and picklable: it travels to the
    workers): the judge's options, the viewer pages to write (None: none), whether the
    report's facts of each game are wanted, how to adjudicate each game (`adjudicate`;
    None: not, and its line is exactly ``gcadj check --json``'s), the viewer data to send
    back per game (`views`; None: none), and the most a source's adjudications may
    take together (`adjudication_seconds`, wall clock; None: no bound): each game's
    search gets what is left, at most its own budget (`SourceClock`), so adjudicating
    never costs a source its deadline."""

    options: JudgeOptions = field(default_factory=JudgeOptions)
    pages: ViewerPages | None = None
    facts: bool = False
    adjudicate: AdjudicateOptions | None = None
    views: ViewData | None = None
    adjudication_seconds: float | None = None


class Judged(NamedTuple):
    """One game's result, as a worker sends it to the parent: its JSON line (`game_line`,
    with the newline), its status and outcome (for the counts and the exit code), the
    line ``gcadj check -q`` prints for it when it is not legal, what the report shows of
    it besides the verdict (None when nothing, or not wanted), the file name of its
    viewer page (None: none), and its viewer's data (`JudgeJob.views`; None: none)."""

    source: str
    line: str
    status: Status
    outcome: VerdictKind
    failing: str | None
    facts: GameFacts | None
    viewer: str | None = None
    view: bytes | None = None


def game_line(
    verdict: Verdict, job: JudgeJob, adjudication: Adjudication | None = None
) -> tuple[str, bool]:
    """The JSON line of a judged game (no newline): the one place that makes it (see the
    module docstring); and whether gcadj itself failed on the game's adjudication (a bug:
    the game's outcome is then an internal error, as ``gcadj adjudicate`` exits 5).
    `adjudication`: the game's, when the caller made it (`game_adjudication`); else it is
    made here if `job` asks for one."""
    if adjudication is None:
        adjudication = game_adjudication(verdict, job)
    if adjudication is None:
        return verdict.json_line(), False
    from gcadj.app.adjudicate import AdjudicatedGame

    return AdjudicatedGame(verdict, adjudication).json_line(), adjudication.internal


class SourceClock:
    """The time the adjudications of one source have left (`JudgeJob.adjudication_seconds`):
    each game's search gets what is left, at most its own budget; a search with no time
    left still answers, with what it proved before it looked at the clock."""

    def __init__(self, job: JudgeJob) -> None:
        self.left = job.adjudication_seconds

    def options(self, job: JudgeJob) -> AdjudicateOptions | None:
        """`job.adjudicate`, its budget cut to the time left."""
        wanted = job.adjudicate
        if wanted is None or self.left is None:
            return wanted
        budget = self.left if wanted.budget is None else min(wanted.budget, self.left)
        return dataclasses.replace(wanted, budget=max(0.0, budget))

    def spend(self, seconds: float) -> None:
        if self.left is not None:
            self.left -= seconds


def game_adjudication(
    verdict: Verdict, job: JudgeJob, clock: SourceClock | None = None
) -> Adjudication | None:
    """The game's adjudication when `job.adjudicate` asks for one, within what `clock`
    leaves of its source's time (gcadj's own failure on it is its answer, as for ``gcadj
    adjudicate``: `guarded_adjudication`)."""
    options = job.adjudicate if clock is None else clock.options(job)
    if options is None:
        return None
    from gcadj.app.adjudicate import guarded_adjudication

    started = time.monotonic()
    found = guarded_adjudication(verdict, options)
    if clock is not None:
        clock.spend(time.monotonic() - started)
    return found


def game_result(
    verdict: Verdict, job: JudgeJob, viewer: str | None = None, clock: SourceClock | None = None
) -> Judged:
    """What the parent needs of a verdict (`Judged`); `clock`: its source's time for
    adjudicating (`SourceClock`)."""
    from gcadj.outputs.report import verdict_line

    adjudication = game_adjudication(verdict, job, clock)
    line, failed = game_line(verdict, job, adjudication)
    return Judged(
        verdict.source,
        line + "\n",
        verdict.status,
        VerdictKind.INTERNAL_ERROR if failed else verdict.outcome,
        None if verdict.status == Status.LEGAL else verdict_line(verdict),
        game_facts(verdict) if job.facts else None,
        viewer,
        game_view(verdict, job, adjudication),
    )


def game_view(
    verdict: Verdict, job: JudgeJob, adjudication: Adjudication | None = None
) -> bytes | None:
    """The viewer data `job.views` makes of a verdict; None when it makes none, or fails
    (a bug: logged; a page must never cost the verdict)."""
    if job.views is None:
        return None
    try:
        return job.views(verdict, adjudication)
    except Exception:
        log.warning("no viewer data for %s", verdict.source, exc_info=True)
        return None


def game_facts(verdict: Verdict) -> GameFacts | None:
    """What the report shows of a judged game: its Site tag when it is an http(s) address
    (a URL source is its own link), and the players of an illegal game. Read from the
    judged game, never from the source again."""
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


def judge_text(spec: str, text: str | None, job: JudgeJob) -> list[Judged]:
    """Every game of one source, judged (its text read from `spec` when `text` is None),
    each with its viewer page when `job.pages` wants one; never raises for a bad source
    (`judge_source` turns it into a verdict)."""
    results = []
    clock = SourceClock(job)
    for verdict in judge_source(spec, job.options, text=text):
        viewer = None if job.pages is None else write_game_page(verdict, job.pages)
        results.append(game_result(verdict, job, viewer, clock))
    return results


def failed_result(name: str, message: str, job: JudgeJob | None = None) -> list[Judged]:
    """The result of a source with no game: an "error" verdict saying `message`."""
    from gcadj.judging.verdict import failed_verdict

    return [game_result(failed_verdict(name, Status.ERROR, message), job or JudgeJob())]


def lost_result(name: str, lost: Lost) -> list[Judged]:
    """The result of a source the batch runner could not finish (`gcadj.app.batch`): an
    "error" verdict, "NAME: the worker judging it died: signal 9 (SIGKILL)", or an
    internal error when the work itself failed (a bug)."""
    import dataclasses

    from gcadj.judging.verdict import INTERNAL_ERROR, failed_verdict

    name = source_name(name)
    if not lost.internal:
        return failed_result(name, f"{name}: {lost.words}")
    verdict = failed_verdict(name, Status.ERROR, f"{name}{INTERNAL_ERROR}{lost.words}")
    return [game_result(dataclasses.replace(verdict, internal=True), JudgeJob())]


# An audit's task: (source, text), text None when the worker reads the source itself.
Task = tuple[str, "str | None"]


def judge_task(task: Task, job: JudgeJob) -> list[Judged]:
    """The work of an audit's task (see `judge_text`)."""
    return judge_text(task[0], task[1], job)


def task_name(task: Task) -> str:
    return task[0]


def has_text(task: Task) -> bool:
    """A task carrying its text (a fetched page): big, so it travels alone."""
    return task[1] is not None


__all__ = [
    "JudgeJob",
    "Judged",
    "SourceClock",
    "Task",
    "ViewData",
    "failed_result",
    "game_adjudication",
    "game_facts",
    "game_line",
    "game_result",
    "game_view",
    "has_text",
    "judge_task",
    "judge_text",
    "lost_result",
    "task_name",
]
