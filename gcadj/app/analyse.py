"""``gcadj analyse`` as a job, and the Python API: a check whose judge options carry the
analysis stage (`JudgeOptions.analyse`, run by `gcadj.app.stages`), so that every judged
game carries its analysis (`Verdict.analysis`) and every output reads it there.

How the games are judged and shown is ``gcadj adjudicate``'s (`gcadj.app.adjudicate`):
one source in this process, each game shown as soon as it is analysed; several sources,
or a folder, through the batch runner, in the order of the sources. Exit codes are the one
policy's (`gcadj.app.exit_codes`): gcadj's own failure analysing a game is an internal
error (5), as in judging it; Ctrl-C ends the run (130).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from gcadj.analysis.options import (
    DEFAULT_ANALYSE_DEPTH,
    DEFAULT_ANALYSE_NODES,
    DEFAULT_MATERIAL_THRESHOLD,
    AnalyseOptions,
)
from gcadj.app.adjudicate import AdjudicatePlan, AdjudicateRun
from gcadj.app.pipeline import JudgeOptions, judge_source
from gcadj.judging.verdict import Verdict
from gcadj.vocabulary import PocketFile


@dataclass(frozen=True)
class AnalysePlan(AdjudicatePlan):
    """What ``gcadj analyse`` was asked: an `AdjudicatePlan` (sources, judge options,
    fetch settings, limits, the text of each game) whose judge options ask for the
    analysis (the defaults, `AnalyseOptions()`, when they do not say how) and for no
    adjudication unless they say so."""

    @property
    def options(self) -> JudgeOptions:
        """The judge options, with the analysis stage set."""
        if self.judge.analyse is not None:
            return self.judge
        return dataclasses.replace(self.judge, analyse=AnalyseOptions())


def run_analyse(plan: AnalysePlan) -> AdjudicateRun:
    """The ``gcadj analyse`` job: `run(show)` shows every game as it is analysed and gives
    the exit code (see `gcadj.app.adjudicate.AdjudicateRun`)."""
    return AdjudicateRun(plan)


def analyse(
    source: str,
    *,
    text: str | None = None,
    fen: str | None = None,
    pocket_file: PocketFile | None = None,
    mate_depth: int = DEFAULT_ANALYSE_DEPTH,
    threshold: int = DEFAULT_MATERIAL_THRESHOLD,
    node_limit: int | None = DEFAULT_ANALYSE_NODES,
) -> list[Verdict]:
    """Judge every game of a source, as `gcadj.judge_source` does, and analyse each one's
    legal plies: the judged games, each carrying its `Verdict.analysis` (None for a game
    with no legal ply).

    `source` names the source (a file, '-', a URL, ``all.pgn#3``); with `text`, that is
    its text and `source` only its name. `fen` and `pocket_file` as for `gcadj.check_text`.
    At each ply the analysis looks for forced mates of up to `mate_depth` moves of the
    winner (each search within `node_limit` positions; None: no limit) and weighs the
    balance after the exchanges, a fall of `threshold` class units against the mover
    being material lost (docs/rules.md §8). An option out of its range raises
    `gcadj.errors.OptionError` (a ValueError); otherwise it never raises for bad input; a
    bug of gcadj's on a game makes its analysis an internal error
    (`gcadj.app.stages.guarded_analysis`).

    Examples:
        >>> import gcadj
        >>> log = "P f2-f3\\np e7-e5\\nP g2-g4\\nq d8-h4\\n"  # the fool's mate
        >>> (game,) = gcadj.analyse("fools-mate.txt", text=log)
        >>> [(m.ply, m.side.value, m.kind.value, m.line, m.san) for m in game.analysis.mistakes]
        [(3, 'white', 'allows-mate', ('q d8-h4',), ('Qh4#',))]
        >>> game.to_json()["analysis"]["counts"]  # gcadj analyse --json's line
        {'missed-mate': 0, 'allows-mate': 1, 'loses-material': 0}
    """
    options = AnalyseOptions(mate_depth=mate_depth, threshold=threshold, node_limit=node_limit)
    judge = JudgeOptions(fen=fen, pocket_file=pocket_file, analyse=options)
    return judge_source(source, judge, text=text)


__all__ = ["AnalysePlan", "analyse", "run_analyse"]
