"""``gcadj adjudicate`` as a job, and the Python API: every game judged through the one way
in (the check's own run, `gcadj.app.check.CheckRun`), then adjudicated
(`gcadj.analysis.adjudicate`).

The seam for other jobs (an audit's workers, the server) is one call per judged game:
`adjudicate_verdict(verdict, options)`, with `AdjudicateOptions` (small, frozen, picklable)
and `Adjudication.to_json()`; `AdjudicatedGame.to_json()` is the line ``gcadj adjudicate
--json`` prints: the check's JSON object of the game plus its ``adjudication``.

Exit codes (`gcadj.app.exit_codes`): as ``gcadj check`` exits for the same sources (0 when
every game was legal, 1 some illegal move, 3, 4 as the check says), 5 when gcadj failed on
a game (judging or adjudicating it: a bug), 130 when Ctrl-C stopped a search (the game's
answer says what was proved so far). A search cut by its budget is an answer, not an error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from gcadj.analysis.adjudicate import adjudicate_verdict
from gcadj.analysis.options import (
    DEFAULT_BUDGET,
    DEFAULT_EVIDENCE_MARGIN,
    DEFAULT_MATE_DEPTH,
    DEFAULT_TABLE_MB,
    INTERNAL_REASON,
    AdjudicateOptions,
)
from gcadj.analysis.search import Progress, ProgressCallback
from gcadj.app.check import CheckPlan, run_check
from gcadj.app.exit_codes import EXIT_INTERNAL, EXIT_INTERRUPTED, exit_code_of
from gcadj.app.fetching import FetchSettings
from gcadj.app.pipeline import JudgeOptions, judge_source
from gcadj.judging.adjudication import Adjudication
from gcadj.judging.verdict import Verdict
from gcadj.vocabulary import AdjudicationClass, PocketFile, Result

FEN_SOURCE: Final = "<fen>"
"""How the position of ``--fen`` with no source is named, as standard input is "<stdin>"."""
FEN_GAME: Final = "// the position given by --fen\n"
"""The game of ``--fen`` with no source: no ply, started from that position."""

SourceProgress = Callable[[str, Progress], None]


@dataclass(frozen=True)
class AdjudicatedGame:
    """A judged game and its adjudication.

    Examples:
        >>> import gcadj
        >>> game = gcadj.adjudicate("fixtures/adjudicate/mate-in-1.txt")[0]
        >>> game.verdict.status.value, game.adjudication.kind.value
        ('legal', 'proven')
        >>> record = game.to_json()
        >>> record["final_fen"] == record["adjudication"]["position"]
        True
        >>> record["adjudication"]["mate"]["line"]
        ['Q d1-h5']
    """

    verdict: Verdict
    adjudication: Adjudication

    def to_json(self) -> dict[str, Any]:
        """The check's JSON object of the game (`Verdict.to_json`) with ``adjudication``."""
        return {**self.verdict.to_json(), "adjudication": self.adjudication.to_json()}

    def json_line(self) -> str:
        """`to_json` as one line (`gcadj.judging.json_text`), no newline at the end."""
        from gcadj.judging.json_text import json_text

        return json_text(self.to_json())


def guarded_adjudication(
    verdict: Verdict, options: AdjudicateOptions, progress: ProgressCallback | None = None
) -> Adjudication:
    """`adjudicate_verdict`, with gcadj's own failure on the game (a bug) made its answer:
    class undetermined, the error in the reason, `internal` set (exit 5), as the pipeline
    does for a verdict."""
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


@dataclass(frozen=True)
class AdjudicatePlan:
    """What ``gcadj adjudicate`` was asked: the sources as named (none, with `judge.fen`
    set: that position alone), how to judge, how to fetch, how to adjudicate."""

    sources: tuple[str, ...]
    judge: JudgeOptions = field(default_factory=JudgeOptions)
    fetch: FetchSettings = field(default_factory=FetchSettings)
    options: AdjudicateOptions = field(default_factory=AdjudicateOptions)


class AdjudicateRun:
    """The adjudicated games of a plan, in order, as they are made (iterate once); then
    `problems` and `exit_code` (see the module docstring). After Ctrl-C stopped a search,
    that game is the last one given (its answer is partial) and `interrupted` is set."""

    def __init__(self, plan: AdjudicatePlan, progress: SourceProgress | None = None) -> None:
        self.plan = plan
        self.progress = progress
        self.check = run_check(CheckPlan(plan.sources, plan.judge, plan.fetch))
        self.exit_code = 0
        self.interrupted = False

    @property
    def problems(self) -> list[str]:
        return self.check.problems

    def verdicts(self) -> Iterator[Verdict]:
        if self.plan.sources or self.plan.judge.fen is None:
            yield from self.check
            self.exit_code = max(self.exit_code, self.check.exit_code)
            return
        for verdict in judge_source(FEN_SOURCE, self.plan.judge, text=FEN_GAME):  # no fetch
            self.exit_code = max(self.exit_code, exit_code_of(verdict.outcome))
            yield verdict

    def __iter__(self) -> Iterator[AdjudicatedGame]:
        for verdict in self.verdicts():
            progress = self._progress_of(verdict.source)
            adjudication = guarded_adjudication(verdict, self.plan.options, progress)
            if adjudication.internal:
                self.exit_code = max(self.exit_code, EXIT_INTERNAL)
            yield AdjudicatedGame(verdict, adjudication)
            if adjudication.interrupted:
                self.interrupted = True
                self.exit_code = EXIT_INTERRUPTED
                return

    def _progress_of(self, source: str) -> ProgressCallback | None:
        progress = self.progress
        if progress is None:
            return None
        return lambda where: progress(source, where)


def run_adjudicate(plan: AdjudicatePlan, progress: SourceProgress | None = None) -> AdjudicateRun:
    """The ``gcadj adjudicate`` job (see `AdjudicateRun`); `progress` hears of long searches."""
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
) -> list[AdjudicatedGame]:
    """Judge every game of a source, as `gcadj.judge_source` does, and adjudicate each.

    `source` names the source (a file, '-', a URL, ``all.pgn#3``); with `text`, that is
    its text and `source` only its name. `fen` starts every game there; `pocket_file` as for
    `gcadj.check_text` (None: the file the log's plies use). The search looks
    for mates of up to `mate_depth` moves of the winner, for at most `budget` seconds and
    `node_limit` nodes a game (None: no limit), its table within `table_mb` megabytes;
    `evidence_margin` is the lead in class units that counts as evidence. An option out of
    its range raises `gcadj.errors.OptionError` (a ValueError); otherwise it never raises
    for bad input; a bug of gcadj's on a game makes that game's adjudication an internal
    error (`guarded_adjudication`).

    Examples:
        >>> import gcadj
        >>> game = gcadj.adjudicate("m1.txt", text="P e2-e4\\np f7-f6\\nP d2-d4\\np g7-g5\\n")[0]
        >>> game.adjudication.kind.value, game.adjudication.result.value
        ('proven', '1-0')
        >>> game.adjudication.mate.line, game.adjudication.mate.san
        (('Q d1-h5',), ('Qh5#',))
        >>> game.adjudication.reason
        'White, to move, mates in 1'
    """
    options = AdjudicateOptions(mate_depth, budget, node_limit, evidence_margin, table_mb)
    judge = JudgeOptions(fen=fen, pocket_file=pocket_file)
    return [
        AdjudicatedGame(verdict, guarded_adjudication(verdict, options, progress))
        for verdict in judge_source(source, judge, text=text)
    ]


__all__ = [
    "FEN_GAME",
    "FEN_SOURCE",
    "AdjudicateOptions",
    "AdjudicatePlan",
    "AdjudicateRun",
    "AdjudicatedGame",
    "Adjudication",
    "adjudicate",
    "adjudicate_verdict",
    "guarded_adjudication",
    "run_adjudicate",
]
