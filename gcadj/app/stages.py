"""The stages after the judging: what is made of a judged game besides its verdict, when
the judge options ask for it, in the one place every caller goes through.

The one way in (`gcadj.app.pipeline.iter_judge_source`) gives each verdict to
`with_stages`, which runs every stage its `JudgeOptions` set on it and returns the verdict
carrying what they made, so that every writer reads it from the judged game and nothing
makes it twice:

- **adjudication** (`JudgeOptions.adjudicate`): `gcadj.analysis.adjudicator`'s answer,
  carried as `Verdict.adjudication` (its JSON the ``"adjudication"`` key of the verdict's
  line). ``gcadj adjudicate`` is a check with this option; ``audit --adjudicate``,
  ``export --adjudicate`` and ``gcadj serve`` set it too.

- **analysis** (`JudgeOptions.analyse`): `gcadj.analysis.analyser`'s analysis of the whole
  game (a mate missed, a mate allowed, material lost, at each legal ply), carried as
  `Verdict.analysis` (the ``"analysis"`` key). ``gcadj analyse`` is a check with this
  option; ``check --analyse``, ``audit --analyse``, ``export --analyse`` and a ``gcadj
  serve`` check with ``analyse=1`` set it too. A game with no legal ply has nothing to
  analyse (no analysis).

A stage is one option, one field of the verdict and one call in `with_stages`. Each stage
is guarded: gcadj's own failure in it (a bug) is that game's answer, marked internal
(`Verdict.outcome` is then an internal error, exit 5), never an exception, and the
source's other games go on.

The stages of one source's games share its time (`JudgeOptions.stage_seconds`, wall
clock): `StageClock` gives each game's search what is left, at most its own budget, so
adjudicating or analysing never costs a source its deadline (a game with no time left is
adjudicated without a mate search; its analysis's searches are cut, and say so). Without
a deadline the analysis is bounded by nodes alone, the same on every machine.

Nothing here is loaded until a stage is asked for: a plain ``gcadj check`` never imports
the prover.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gcadj.analysis.options import AdjudicateOptions, AnalyseOptions
    from gcadj.analysis.search import Progress, ProgressCallback
    from gcadj.judging.adjudication import Adjudication
    from gcadj.judging.game_analysis import GameAnalysis
    from gcadj.judging.verdict import Verdict
    from gcadj.sources.judge_options import JudgeOptions

SourceProgress = Callable[[str, "Progress"], None]
"""Hears of a long search: the game's source, and where the search is."""


class StageClock:
    """The time the stages of one source's games have left (`JudgeOptions.stage_seconds`;
    None: no bound). Each game's search gets what is left, at most its own budget."""

    def __init__(self, seconds: float | None) -> None:
        self.left = seconds

    def budget(self, wanted: float | None) -> float | None:
        """A search's budget of `wanted` seconds (None: none), cut to the time left."""
        if self.left is None:
            return wanted
        return max(0.0, self.left if wanted is None else min(wanted, self.left))

    def spend(self, seconds: float) -> None:
        if self.left is not None:
            self.left -= seconds


def guarded_adjudication(
    verdict: Verdict, options: AdjudicateOptions, progress: ProgressCallback | None = None
) -> Adjudication:
    """`adjudicate_verdict`, with gcadj's own failure on the game (a bug) made its answer:
    class undetermined, the error in the reason, `internal` set (exit 5), as the pipeline
    does for a verdict."""
    from gcadj.analysis.adjudicator import adjudicate_verdict
    from gcadj.analysis.options import INTERNAL_REASON
    from gcadj.judging.adjudication import Adjudication
    from gcadj.vocabulary import AdjudicationClass, Result

    try:
        return adjudicate_verdict(verdict, options, progress=progress)
    except Exception as err:  # KeyboardInterrupt is the search's (a cut), not a bug
        message = str(err).strip() or "(no message)"
        return Adjudication(
            AdjudicationClass.UNDETERMINED,
            Result.UNDECIDED,
            f"{INTERNAL_REASON}{type(err).__name__}: {message}",
            internal=True,
        )


def guarded_analysis(
    verdict: Verdict, options: AnalyseOptions, deadline: float | None = None
) -> GameAnalysis:
    """`analyse_verdict` within `deadline` (a `time.monotonic()` instant), with gcadj's own
    failure on the game (a bug) made its answer: an analysis with no plies whose `error`
    names it (the game's outcome is then an internal error, exit 5). Ctrl-C is not a bug:
    `KeyboardInterrupt` goes to the command."""
    from gcadj.analysis.analyser import analyse_verdict
    from gcadj.analysis.options import INTERNAL_REASON
    from gcadj.judging.game_analysis import GameAnalysis, PositionFacts

    try:
        return analyse_verdict(verdict, options, deadline=deadline)
    except Exception as err:
        message = str(err).strip() or "(no message)"
        return GameAnalysis(
            options.mate_depth,
            options.threshold,
            PositionFacts(None),
            (),
            error=f"{INTERNAL_REASON}{type(err).__name__}: {message}",
        )


def analysable(verdict: Verdict) -> bool:
    """Has the judged game a legal ply to analyse?"""
    return verdict.log is not None and bool(verdict.moves)


def with_stages(
    verdict: Verdict,
    options: JudgeOptions,
    clock: StageClock | None = None,
    progress: SourceProgress | None = None,
) -> Verdict:
    """`verdict` carrying what the stages `options` ask for made of it (the verdict itself
    when they ask for none), within what `clock` leaves of its source's time; `progress`
    hears of a long search."""
    if options.adjudicate is None and options.analyse is None:
        return verdict
    clock = clock or StageClock(options.stage_seconds)
    if options.adjudicate is not None:
        verdict = _adjudicated(verdict, options.adjudicate, clock, progress)
    if options.analyse is not None and analysable(verdict):
        started = time.monotonic()
        left = clock.budget(None)
        deadline = None if left is None else started + left
        analysis = guarded_analysis(verdict, options.analyse, deadline)
        clock.spend(time.monotonic() - started)
        verdict = dataclasses.replace(verdict, analysis=analysis)
    return verdict


def _adjudicated(
    verdict: Verdict,
    wanted: AdjudicateOptions,
    clock: StageClock,
    progress: SourceProgress | None,
) -> Verdict:
    budget = clock.budget(wanted.budget)
    if budget != wanted.budget:
        wanted = dataclasses.replace(wanted, budget=budget)
    heard = None
    if progress is not None:
        source = verdict.source
        heard = lambda where: progress(source, where)  # noqa: E731
    started = time.monotonic()
    adjudication = guarded_adjudication(verdict, wanted, heard)
    clock.spend(time.monotonic() - started)
    return dataclasses.replace(verdict, adjudication=adjudication)


__all__ = [
    "SourceProgress",
    "StageClock",
    "analysable",
    "guarded_adjudication",
    "guarded_analysis",
    "with_stages",
]
