"""`gcadj adjudicate`: each game judged as `check` judges it, then adjudicated: a proposed
result, how strong it is (proven, recorded, claimable, evidence, undetermined), the mating
line when there is one, the material.

Data on stdout (the blocks, or ``--json`` lines); on stderr the notes and, for a search that
runs for more than a few seconds, a progress line now and then. Ctrl-C during a search
prints what that search had proved and exits 130. Several sources, or a folder, are judged
by worker processes (``--jobs``), as ``gcadj audit`` judges them; the command is a check
whose games carry their adjudication (`gcadj.app.adjudicate`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from gcadj.app.exit_codes import JUDGING_CODES, exit_codes_help
from gcadj.app.fetching import FetchSettings
from gcadj.cli import output
from gcadj.cli.common_options import (
    DEFAULT_BUDGET,
    DEFAULT_EVIDENCE_MARGIN,
    DEFAULT_MATE_DEPTH,
    DEFAULT_MAX_BYTES,
    DEFAULT_TABLE_MB,
    EXIT_CANNOT_WRITE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    GIVEN_NONE,
    INTERNAL_ERROR_HINT,
    BudgetOption,
    EvidenceMarginOption,
    FenOption,
    JobsOption,
    MateDepthOption,
    MaxBytesOption,
    NodesOption,
    PocketFileOption,
    TableOption,
    VerboseOption,
    adjudicate_options_of,
    check_options,
    fetch_options,
    limits_of,
    report_problems,
)
from gcadj.cli.streams import say
from gcadj.vocabulary import Status, VerdictKind

if TYPE_CHECKING:
    from collections.abc import Callable

    from gcadj.analysis.search import Progress
    from gcadj.app.adjudicate import AdjudicateRun, Shown

ADJUDICATE_EPILOG = (
    "Sources as for check (files, folders, PGN databases, FILE#N, URLs, '-'); --fen FEN with "
    "no source adjudicates that position. Several sources, or a folder, are judged in "
    "parallel by --jobs worker processes, in order. Classes, strongest first: proven (the "
    "board has ended, or a forced mate was proved and its proof checked), recorded (the "
    "record ended the game: its result stands), claimable (a threefold repetition: a draw may be "
    "claimed), evidence (a material lead of at least --evidence-margin class units), "
    "undetermined. "
    + exit_codes_help(
        (*JUDGING_CODES, EXIT_INTERRUPTED),
        said={EXIT_INTERRUPTED: "Ctrl-C stopped a search, after its partial answer"},
    )
)

# Progress lines for a long search: the first after this many seconds, then every so often.
FIRST_PROGRESS_SECONDS = 3.0
PROGRESS_EVERY_SECONDS = 10.0


class SearchProgress:
    """Prints a line on stderr now and then while one search runs long (not with -q)."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.source = ""
        self.next_line = FIRST_PROGRESS_SECONDS

    def __call__(self, source: str, where: Progress) -> None:
        if source != self.source:
            self.source = source
            self.next_line = FIRST_PROGRESS_SECONDS
        if self.quiet or where.seconds < self.next_line:
            return
        self.next_line = where.seconds + PROGRESS_EVERY_SECONDS
        against = " against the side to move" if where.mated else ""
        output.note(
            "adjudicate",
            f"{source}: searching for a mate in {where.searching}{against}: "
            f"{where.nodes:,} nodes, {where.seconds:.0f} s",
        )


QuietLinesOption = Annotated[
    bool,
    typer.Option("--quiet", "-q", help="One line per game: its source, class, result and reason."),
]


@fetch_options
def adjudicate(
    sources: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="SOURCES...",
            help="Game logs: files, folders, saved pages, http(s) URLs, an audit's .jsonl, "
            "or '-' for stdin (read when none is named, no --fen is given and stdin is not "
            "a terminal).",
        ),
    ] = None,
    json_lines: Annotated[
        bool,
        typer.Option(
            "--json", help="One JSON object per game per line: check's, with its adjudication."
        ),
    ] = False,
    mate_depth: MateDepthOption = DEFAULT_MATE_DEPTH,
    budget: BudgetOption = DEFAULT_BUDGET,
    nodes: NodesOption = None,
    evidence_margin: EvidenceMarginOption = DEFAULT_EVIDENCE_MARGIN,
    table_mb: TableOption = DEFAULT_TABLE_MB,
    fen: FenOption = None,
    pocket_file: PocketFileOption = None,
    jobs: JobsOption = None,
    quiet: QuietLinesOption = False,
    verbose: VerboseOption = False,
    fetch: FetchSettings = GIVEN_NONE,
    max_bytes: MaxBytesOption = DEFAULT_MAX_BYTES,
) -> None:
    """Adjudicate each game: a forced mate with its proof, a claimable draw, or the material."""
    import functools

    from gcadj.app.adjudicate import AdjudicatePlan, run_adjudicate
    from gcadj.app.pipeline import JudgeOptions
    from gcadj.outputs.adjudication_text import game_text

    letter = check_options("adjudicate", pocket_file, fen)
    plan = AdjudicatePlan(
        sources=tuple(sources or ()),
        judge=JudgeOptions(
            fen=fen,
            pocket_file=letter,
            max_bytes=max_bytes,
            adjudicate=adjudicate_options_of(mate_depth, budget, nodes, evidence_margin, table_mb),
        ),
        fetch=fetch,
        limits=limits_of(jobs, 0.0, 0),
        text=functools.partial(game_text, json_lines=json_lines, quiet=quiet, verbose=verbose),
    )
    run = run_adjudicate(plan, progress=SearchProgress(quiet))
    code = run_showing("adjudicate", run, functools.partial(show, json_lines=json_lines))
    if run.interrupted:
        output.note("adjudicate", "interrupted: the last answer is what its search had proved")
    raise typer.Exit(max(code, report_problems("adjudicate", run.problems), EXIT_OK))


def run_showing(command: str, run: AdjudicateRun, shown: Callable[[Shown], None]) -> int:
    """Run `command`'s job (gcadj adjudicate's, or analyse's), each game `shown` as it
    comes, and give its exit code. It never raises for a source (a bug on one is that
    game's answer); Ctrl-C (between searches, or in the workers) and the batch runner's
    scratch file on a full disk (not a bug) end the command with their codes, in words."""
    from gcadj.errors import AuditInterrupted, CannotWrite

    try:
        return run.run(shown)
    except (KeyboardInterrupt, AuditInterrupted):
        output.note(command, "interrupted")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    except CannotWrite as err:
        output.note(command, str(err))
        raise typer.Exit(EXIT_CANNOT_WRITE) from None


def show(game: Shown, *, json_lines: bool = False, command: str = "adjudicate") -> None:
    """One game's text on stdout (without --json, an unreadable source's on stderr, a
    diagnostic, as check says it), and the hint after gcadj's own failure on it (a note
    of `command`)."""
    if json_lines:
        output.data(game.text + "\n")
    else:
        say(game.text, err=game.status == Status.ERROR)
    if game.outcome == VerdictKind.INTERNAL_ERROR:
        output.note(command, f"{game.source}: {INTERNAL_ERROR_HINT}")
