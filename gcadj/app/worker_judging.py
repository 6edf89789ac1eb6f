"""What a worker of the batch runner does with one source, for ``gcadj audit``,
``gcadj adjudicate`` and ``gcadj serve`` alike: judge it (`gcadj.app.pipeline.judge_source`,
its stages included: each verdict carries its adjudication when the judge options ask for
one), write the viewer page of each game that wants one
(`gcadj.app.products.write_game_page`), and send back, per game, a `WorkerResult`: what the
parent needs of the verdict, small enough to travel.

**The JSON line of a game is the verdict's own** (`Verdict.json_line`): what ``gcadj check
--json`` prints, with its ``"adjudication"`` when the job's judge options adjudicate (what
``gcadj adjudicate --json`` prints). The audit's JSONL, the server's answers and the
products read from them all follow, and so do the viewer data a client keeps and the text
a command prints of the game, made in the worker from the same judged game. The job is
small and picklable (it travels with every unit of work).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from gcadj.app.pipeline import JudgeOptions, judge_source, source_name
from gcadj.app.products import ViewerPages, write_game_page
from gcadj.app.stages import with_stages
from gcadj.outputs.audit_report import GameFacts
from gcadj.urls import is_url
from gcadj.vocabulary import Status, VerdictKind

if TYPE_CHECKING:
    from gcadj.app.pool import Lost
    from gcadj.judging.verdict import Verdict

log = logging.getLogger(__name__)


ViewData = Callable[["Verdict"], "bytes | None"]
"""What a client keeps of a game's viewer instead of a page file (``gcadj serve``'s
stored data, `gcadj.web.check_work.stored_view`): made in the worker from the judged game
(its adjudication included), sent back with the game's result (`WorkerResult.view`). A
picklable function: it travels too."""

GameText = Callable[["Verdict"], str]
"""What a command prints of a game (``gcadj adjudicate``'s block, its ``-q`` line or its
JSON line: `gcadj.outputs.adjudication_text.game_text`), made in the worker from the judged
game and sent back with its result (`WorkerResult.text`). A picklable function."""


@dataclass(frozen=True)
class WorkerSettings:
    """How a worker judges each source of a batch (small and picklable: it travels to the
    workers): the judge's options (the stages they ask for included: `JudgeOptions.adjudicate`,
    and the time a source's stages share, `JudgeOptions.stage_seconds`), the viewer pages
    to write (None: none), whether the report's facts of each game are wanted, the viewer
    data to send back per game (`views`; None: none), and the text a command prints of
    each game (`texts`; None: none)."""

    options: JudgeOptions = field(default_factory=JudgeOptions)
    pages: ViewerPages | None = None
    facts: bool = False
    views: ViewData | None = None
    texts: GameText | None = None


class WorkerResult(NamedTuple):
    """One game's result, as a worker sends it to the parent: its JSON line (`game_line`,
    with the newline), its status and outcome (for the counts and the exit code), the
    line ``gcadj check -q`` prints for it when it is not legal, what the report shows of
    it besides the verdict (None when nothing, or not wanted), the file name of its
    viewer page (None: none), its viewer's data (`WorkerSettings.views`; None: none), and the
    text a command prints of it (`WorkerSettings.texts`; None: none)."""

    source: str
    line: str
    status: Status
    outcome: VerdictKind
    failing: str | None
    facts: GameFacts | None
    viewer: str | None = None
    view: bytes | None = None
    text: str | None = None


def game_result(verdict: Verdict, job: WorkerSettings, viewer: str | None = None) -> WorkerResult:
    """What the parent needs of a judged game (`WorkerResult`)."""
    from gcadj.outputs.report import verdict_line

    return WorkerResult(
        verdict.source,
        verdict.json_line() + "\n",
        verdict.status,
        verdict.outcome,
        None if verdict.status == Status.LEGAL else verdict_line(verdict),
        game_facts(verdict) if job.facts else None,
        viewer,
        game_view(verdict, job),
        game_text(verdict, job),
    )


def game_text(verdict: Verdict, job: WorkerSettings) -> str | None:
    """The text `job.texts` makes of a judged game (None: none asked). A bug there is
    logged and the game's JSON line stands in for it: the verdict is never lost."""
    if job.texts is None:
        return None
    try:
        return job.texts(verdict)
    except Exception:
        log.warning("no text for %s", verdict.source, exc_info=True)
        return verdict.json_line()


def game_view(verdict: Verdict, job: WorkerSettings) -> bytes | None:
    """The viewer data `job.views` makes of a verdict; None when it makes none, or fails
    (a bug: logged; a page must never cost the verdict)."""
    if job.views is None:
        return None
    try:
        return job.views(verdict)
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


def judge_text(spec: str, text: str | None, job: WorkerSettings) -> list[WorkerResult]:
    """Every game of one source, judged (its text read from `spec` when `text` is None),
    its stages run, each with its viewer page when `job.pages` wants one; never raises for
    a bad source (`judge_source` turns it into a verdict)."""
    results = []
    for verdict in judge_source(spec, job.options, text=text):
        viewer = None if job.pages is None else write_game_page(verdict, job.pages)
        results.append(game_result(verdict, job, viewer))
    return results


def failed_result(name: str, message: str, job: WorkerSettings | None = None) -> list[WorkerResult]:
    """The result of a source with no game: an "error" verdict saying `message` (with
    what its stages make of it: an adjudication has no position to adjudicate)."""
    from gcadj.judging.verdict import failed_verdict

    job = job or WorkerSettings()
    verdict = failed_verdict(name, Status.ERROR, message)
    return [game_result(with_stages(verdict, job.options), job)]


def lost_result(name: str, lost: Lost, job: WorkerSettings | None = None) -> list[WorkerResult]:
    """The result of a source the batch runner could not finish (`gcadj.app.batch`): an
    "error" verdict, "NAME: the worker judging it died: signal 9 (SIGKILL)", or an
    internal error when the work itself failed (a bug); its stages run as for any game."""
    import dataclasses

    from gcadj.judging.verdict import INTERNAL_ERROR, failed_verdict

    name = source_name(name)
    if not lost.internal:
        return failed_result(name, f"{name}: {lost.words}", job)
    job = job or WorkerSettings()
    verdict = failed_verdict(name, Status.ERROR, f"{name}{INTERNAL_ERROR}{lost.words}")
    internal = dataclasses.replace(verdict, internal=True)
    return [game_result(with_stages(internal, job.options), job)]


# An audit's task: (source, text), text None when the worker reads the source itself.
Task = tuple[str, "str | None"]


def judge_task(task: Task, job: WorkerSettings) -> list[WorkerResult]:
    """The work of an audit's task (see `judge_text`)."""
    return judge_text(task[0], task[1], job)


def task_name(task: Task) -> str:
    return task[0]


def has_text(task: Task) -> bool:
    """A task carrying its text (a fetched page): big, so it travels alone."""
    return task[1] is not None


__all__ = [
    "GameText",
    "Task",
    "ViewData",
    "WorkerResult",
    "WorkerSettings",
    "failed_result",
    "game_facts",
    "game_result",
    "game_text",
    "game_view",
    "has_text",
    "judge_task",
    "judge_text",
    "lost_result",
    "task_name",
]
