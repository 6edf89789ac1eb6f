"""``gcadj adjudicate`` as a job, and the Python API: a check whose judge options carry the
adjudication stage (`JudgeOptions.adjudicate`, run by `gcadj.app.stages`), so that every
judged game carries its adjudication and every output reads it there.

How the games are judged is the check's and the audit's, nothing of its own:

- **one source** (a file, standard input, a URL, ``FILE#N``, or ``--fen`` alone): judged in
  this process through the one way in (`gcadj.app.pipeline.iter_judge_source`), each game
  shown as soon as it is adjudicated; a long search reports its progress; Ctrl-C during a
  search ends it with what it had proved, and the run there (exit 130);
- **several sources, or a folder**: the batch runner, as ``gcadj audit`` runs it
  (`gcadj.app.audit.run_audit`, with no output file): worker processes, the games shown in
  the order of the sources, the text of each made in its worker.

Exit codes are the one policy's (`gcadj.app.exit_codes`): the worst outcome of the games
(`Verdict.outcome`: gcadj's own failure in adjudicating a game is an internal error, 5, as
in judging it), 4 for a source that could not be expanded, 130 after Ctrl-C. A search cut
by its budget is an answer, not an error.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from gcadj.analysis.options import (
    DEFAULT_BUDGET,
    DEFAULT_EVIDENCE_MARGIN,
    DEFAULT_MATE_DEPTH,
    DEFAULT_TABLE_MB,
    AdjudicateOptions,
)
from gcadj.app.batch import Limits
from gcadj.app.exit_codes import EXIT_INTERRUPTED, EXIT_OK, exit_code_of, worst
from gcadj.app.fetching import FetchSettings
from gcadj.app.pipeline import JudgeOptions, judge_source
from gcadj.app.stages import SourceProgress, guarded_adjudication
from gcadj.judging.verdict import Verdict
from gcadj.vocabulary import PocketFile, Status, VerdictKind

if TYPE_CHECKING:
    from gcadj.analysis.search import ProgressCallback
    from gcadj.app.worker_judging import GameText, WorkerResult

FEN_SOURCE: Final = "<fen>"
"""How the position of ``--fen`` with no source is named, as standard input is "<stdin>"."""
FEN_GAME: Final = "// the position given by --fen\n"
"""The game of ``--fen`` with no source: no ply, started from that position."""


def json_text(verdict: Verdict) -> str:
    """A judged game as ``--json`` prints it: its JSON line."""
    return verdict.json_line()


@dataclass(frozen=True)
class AdjudicatePlan:
    """What ``gcadj adjudicate`` was asked: the sources as named (none, with `judge.fen`
    set: that position alone), how to judge them (its `adjudicate` is how each game is
    adjudicated; None: the defaults), how to fetch, the batch runner's limits for several
    sources, and the text each game is shown as (`text`, a picklable function: for several
    sources it runs in the workers)."""

    sources: tuple[str, ...]
    judge: JudgeOptions = field(default_factory=JudgeOptions)
    fetch: FetchSettings = field(default_factory=FetchSettings)
    limits: Limits = field(default_factory=Limits)
    text: GameText = json_text

    @property
    def options(self) -> JudgeOptions:
        """The judge options, with the adjudication stage set."""
        if self.judge.adjudicate is not None:
            return self.judge
        return dataclasses.replace(self.judge, adjudicate=AdjudicateOptions())

    @property
    def batch(self) -> bool:
        """Are the sources judged by the batch runner? Several, or a folder."""
        return len(self.sources) > 1 or any(os.path.isdir(spec) for spec in self.sources)


@dataclass(frozen=True)
class Shown:
    """One game as the command shows it: its source, its text (`AdjudicatePlan.text`), its
    status (an unreadable source is said on stderr) and its outcome (for the exit code)."""

    source: str
    text: str
    status: Status
    outcome: VerdictKind


class AdjudicateRun:
    """One run of a plan: `run(show)` shows every game, in order, as it is adjudicated,
    and gives the exit code; then `problems` (what could not be expanded into sources),
    and `interrupted` when Ctrl-C cut a search (its game, the last shown, says what the
    search had proved)."""

    def __init__(self, plan: AdjudicatePlan, progress: SourceProgress | None = None) -> None:
        self.plan = plan
        self.progress = progress
        self.problems: list[str] = []
        self.interrupted = False

    def run(self, show: Callable[[Shown], None]) -> int:
        """Show each game (see the class docstring); the exit code. `AuditInterrupted` on
        Ctrl-C while several sources are judged."""
        if self.plan.batch:
            return self._run_batch(show)
        return self._run_here(show)

    def _run_here(self, show: Callable[[Shown], None]) -> int:
        from gcadj.app.check import CheckPlan, run_check

        plan, options = self.plan, self.plan.options
        codes = [EXIT_OK]
        if plan.sources or options.fen is None:
            check = run_check(CheckPlan(plan.sources, options, plan.fetch), self.progress)
            verdicts = iter(check)
        else:  # --fen alone: that position, no source to read or fetch
            check = None
            verdicts = iter(
                judge_source(FEN_SOURCE, options, text=FEN_GAME, progress=self.progress)
            )
        for verdict in verdicts:
            codes.append(exit_code_of(verdict.outcome))
            show(Shown(verdict.source, plan.text(verdict), verdict.status, verdict.outcome))
            if verdict.adjudication is not None and verdict.adjudication.interrupted:
                self.interrupted = True
                return EXIT_INTERRUPTED
        if check is not None:
            self.problems = check.problems
            codes.append(check.exit_code)
        return worst(codes)

    def _run_batch(self, show: Callable[[Shown], None]) -> int:
        from gcadj.app.audit import AuditPlan, run_audit

        plan = self.plan
        audit = AuditPlan(
            sources=plan.sources,
            judge=plan.options,
            fetch=plan.fetch,
            limits=plan.limits,
            texts=plan.text,
        )
        done = run_audit(audit, progress=_Showing(show))
        self.problems = done.problems
        return done.exit_code


class _Showing:
    """The audit's progress, as ``gcadj adjudicate`` shows a folder: each game's text, in
    the order of the sources, as it is written."""

    wants_total = False

    def __init__(self, show: Callable[[Shown], None]) -> None:
        self.show = show

    def start(self, total: int | None) -> None:
        pass

    def advance(self, result: WorkerResult) -> None:
        text = result.line.rstrip("\n") if result.text is None else result.text
        self.show(Shown(result.source, text, result.status, result.outcome))


def run_adjudicate(plan: AdjudicatePlan, progress: SourceProgress | None = None) -> AdjudicateRun:
    """The ``gcadj adjudicate`` job (see `AdjudicateRun`); `progress` hears of long searches
    (one source: the batch runner's workers say nothing while they search)."""
    return AdjudicateRun(plan, progress)


def adjudicate(
    source: str,
    *,
    text: str | None = None,
    fen: str | None = None,
    pocket_file: PocketFile | None = None,
    mate_depth: int = DEFAULT_MATE_DEPTH,
    budget: float | None = DEFAULT_BUDGET,
    node_limit: int | None = None,
    evidence_margin: int = DEFAULT_EVIDENCE_MARGIN,
    progress: ProgressCallback | None = None,
    table_mb: float = DEFAULT_TABLE_MB,
) -> list[Verdict]:
    """Judge every game of a source, as `gcadj.judge_source` does, and adjudicate each: the
    judged games, each carrying its `Verdict.adjudication`.

    `source` names the source (a file, '-', a URL, ``all.pgn#3``); with `text`, that is
    its text and `source` only its name. `fen` starts every game there; `pocket_file` as for
    `gcadj.check_text` (None: the file the log's plies use). The search looks
    for mates of up to `mate_depth` moves of the winner, for at most `budget` seconds
    (None: no limit; 0: no search) and `node_limit` nodes a game (None: no limit), its
    table within `table_mb` megabytes; `evidence_margin` is the lead in class units that
    counts as evidence. An option out of its range raises `gcadj.errors.OptionError` (a
    ValueError); otherwise it never raises for bad input; a bug of gcadj's on a game makes
    that game's adjudication an internal error (`gcadj.app.stages.guarded_adjudication`).

    Examples:
        >>> import gcadj
        >>> game = gcadj.adjudicate("m1.txt", text="P e2-e4\\np f7-f6\\nP d2-d4\\np g7-g5\\n")[0]
        >>> game.adjudication.kind.value, game.adjudication.result.value
        ('proven', '1-0')
        >>> game.adjudication.mate.line, game.adjudication.mate.san
        (('Q d1-h5',), ('Qh5#',))
        >>> game.adjudication.reason
        'White, to move, mates in 1'
        >>> game.to_json()["adjudication"]["class"]  # gcadj adjudicate --json's line
        'proven'
    """
    options = AdjudicateOptions(mate_depth, budget, node_limit, evidence_margin, table_mb)
    judge = JudgeOptions(fen=fen, pocket_file=pocket_file, adjudicate=options)
    heard = None if progress is None else (lambda source, where: progress(where))
    return judge_source(source, judge, text=text, progress=heard)


__all__ = [
    "FEN_GAME",
    "FEN_SOURCE",
    "AdjudicateOptions",
    "AdjudicatePlan",
    "AdjudicateRun",
    "Shown",
    "adjudicate",
    "guarded_adjudication",
    "json_text",
    "run_adjudicate",
]
