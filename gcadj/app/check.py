"""Check sources, as ``gcadj check`` and the Python API do: every game through the one
way in (`gcadj.app.pipeline.judge_source`).

`check_text` and `check_source` are the public API's thin wrappers: the first game's
`Verdict` of a text or a source, exactly as ``gcadj check --json`` prints it (warnings of
a page included). A PGN database's first game is named ``source#1``; call `judge_source`
for every game. `run_check` is the whole ``gcadj check`` job: every source the user named
(folders walked, an audit's JSONL read), one verdict per game, and the exit code.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from gcadj.app.exit_codes import EXIT_OK, EXIT_UNREADABLE, exit_code_of
from gcadj.app.fetching import FetchSettings, fetch_settings
from gcadj.app.pipeline import FAULT_ENV, JudgeOptions, iter_judge_source, judge_source
from gcadj.app.stages import SourceProgress
from gcadj.errors import InjectedFault
from gcadj.judging.verdict import Verdict
from gcadj.vocabulary import PocketFile


def check_text(
    text: str,
    source: str = "<string>",
    *,
    fen: str | None = None,
    pocket_file: PocketFile | None = None,
    all_findings: bool = False,
) -> Verdict:
    """Judge a game given as text (any format gcadj reads); never raises for bad input.

    Text with no characters but white space is no game: an "error" verdict,
    ``<source>: empty`` (a log with tags and no plies is a game, of 0 plies). A log that
    becomes unreadable at a ply is judged up to that ply. A bad `fen` raises `FenError`.
    Without `pocket_file` (and a PocketFile tag), the pockets are on the file the plies
    use. Text that holds several games (a PGN database: tags after moves start another
    game) gives its first, named ``<source>#1``, as `judge_source` names it.

    Examples:
        >>> verdict = check_text('''P e2-e4
        ... p e7-e5
        ... N g1-g3
        ... ''', "slip.txt")
        >>> verdict.status, verdict.plies, verdict.legal_plies
        (<Status.ILLEGAL: 'illegal'>, 3, 2)
        >>> verdict.first_illegal.reason
        'a Knight cannot move from g1 to g3'
        >>> [suggestion.text for suggestion in verdict.first_illegal.suggestions]
        ['N g1-f3', 'N g1-h3']
        >>> check_text("   ", "empty.txt").error
        'empty.txt: empty'

        A log that stops being readable is judged up to there (a partial verdict):

        >>> partial = check_text('''P e2-e4
        ... p e7-e5
        ... P e4 e5
        ... ''', "cut.txt")
        >>> partial.status, partial.legal_plies, partial.partial
        (<Status.SYNTAX_ERROR: 'syntax-error'>, 2, True)
        >>> partial.error.splitlines()[0]
        "cut.txt:3:6: syntax error: expected '-' and a square after the square e4"
    """
    options = JudgeOptions(fen=fen, pocket_file=pocket_file, all_findings=all_findings)
    return judge_source(source, options, text=text)[0]


def check_source(
    spec: str,
    *,
    fen: str | None = None,
    pocket_file: PocketFile | None = None,
    all_findings: bool = False,
) -> Verdict:
    """Read a source as the user named it ('-', a file, a URL, ``all.pgn#3``) and judge its
    first game; never raises for bad input: an unreadable source gives an "error" verdict
    naming it.

    Examples:
        >>> verdict = check_source("fixtures/examples/ex5_syntax_variants.txt")
        >>> verdict.status, verdict.first_illegal.ply, verdict.first_illegal.category
        (<Status.ILLEGAL: 'illegal'>, 7, <Category.DROP_NOT_IN_POCKET: 'drop-not-in-pocket'>)
        >>> best = verdict.first_illegal.suggestions[0]
        >>> best.text, best.san, best.why
        ('I i1-d5', 'I@d5', 'a drop takes the Nightrider out of the pocket i1')
        >>> check_source("no-such-game.txt").error
        'no-such-game.txt: no such file'
    """
    options = JudgeOptions(fen=fen, pocket_file=pocket_file, all_findings=all_findings)
    return judge_source(spec, options)[0]


@dataclass(frozen=True)
class CheckPlan:
    """What ``gcadj check`` was asked: the sources as named, how to judge, how to fetch."""

    sources: tuple[str, ...]
    judge: JudgeOptions = field(default_factory=JudgeOptions)
    fetch: FetchSettings = field(default_factory=FetchSettings)


class CheckRun:
    """The verdicts of a check, in the order of the sources, as they are judged (iterate
    once); then `problems` (what could not be expanded into sources: a folder without a
    game, a JSONL that is not an audit's) and `exit_code` (the worst of all, see
    `gcadj.app.exit_codes`)."""

    def __init__(self, plan: CheckPlan, progress: SourceProgress | None = None) -> None:
        from gcadj.sources.walk import SourceWalker

        self.plan = plan
        self.progress = progress
        self.walker = SourceWalker(plan.sources)
        self.exit_code = EXIT_OK

    @property
    def problems(self) -> list[str]:
        return self.walker.problems

    def __iter__(self) -> Iterator[Verdict]:
        with fetch_settings(self.plan.fetch):
            for spec in self.walker:
                verdicts = iter_judge_source(spec, self.plan.judge, progress=self.progress)
                for verdict in verdicts:  # one at a time
                    self.exit_code = max(self.exit_code, exit_code_of(verdict.outcome))
                    yield verdict
        if self.problems:
            self.exit_code = max(self.exit_code, EXIT_UNREADABLE)


def run_check(plan: CheckPlan, progress: SourceProgress | None = None) -> CheckRun:
    """The ``gcadj check`` job (see `CheckRun`), and ``gcadj adjudicate``'s of one source
    (`plan.judge` then asks for the adjudication stage; `progress` hears of long searches)."""
    return CheckRun(plan, progress)


__all__ = [
    "FAULT_ENV",
    "CheckPlan",
    "CheckRun",
    "InjectedFault",
    "check_source",
    "check_text",
    "run_check",
]
