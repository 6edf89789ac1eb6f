"""`gcadj audit`: a whole archive judged in parallel, with progress and a summary.

The command turns its options into an `AuditPlan`, runs it (`gcadj.app.audit.run_audit`)
and prints what it gets back. What goes where:

- stdout carries the audit's data: the JSON lines when there is no ``--output`` and no
  ``-q``; otherwise the failing games, one line each, exactly as ``check -q`` prints them
  (an unreadable source's line on stderr, as there);
- stderr carries the rest: progress, the tables, notes, and the failing games' lines
  when stdout carries JSON.

``-q`` prints only the failing games, as they are judged, in the order of the sources;
without it the summary at the end lists the first 10 (``-v``: all).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NamedTuple

import typer

from gcadj.app.exit_codes import EXIT_UNREADABLE, JUDGING_CODES, exit_codes_help
from gcadj.app.fetching import FetchSettings
from gcadj.cli import output
from gcadj.cli.common_options import (
    ADJUDICATION_OPTIONS,
    ANALYSIS_OPTIONS,
    DEFAULT_MAX_BYTES,
    EXIT_CANNOT_WRITE,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    GIVEN_NONE,
    INTERNAL_ERROR_HINT,
    NO_STAGES,
    FenOption,
    JobsOption,
    MaxBytesOption,
    PocketFileOption,
    Stages,
    VerboseOption,
    check_options,
    fetch_options,
    limits_of,
    memory_option,
    refuse_folder,
    report_problems,
    source_timeout_option,
    stage_options,
)
from gcadj.cli.streams import say
from gcadj.sources.walk import AUDIT_SUFFIX, SOURCE_SUFFIXES_TEXT
from gcadj.vocabulary import VerdictKind
from gcadj.words import plural

if TYPE_CHECKING:
    from gcadj.app.audit import AuditPlan, AuditRun
    from gcadj.app.products import ViewerChoice
    from gcadj.app.worker_judging import WorkerResult
    from gcadj.outputs.audit_report import Summary


class _StderrProgress:
    """Progress on stderr: a rich bar on a terminal; without one (CI logs) a plain line
    every 10 seconds; nothing with --quiet. Each game as it is written: its JSON line on
    stdout (`json_lines`: no --output), or with --quiet its line if it is not legal."""

    def __init__(self, quiet: bool, json_lines: bool) -> None:
        import sys
        import time

        self.json_lines = json_lines
        self.quiet = quiet
        self.wants_total = not quiet  # for the bar's ETA and the plain lines
        self.bar = None if quiet or not sys.stderr.isatty() else self._make_bar()  # rich: lazy
        self.task: object = None
        self.count = 0
        self.total = 0
        self.clock = time.monotonic
        self.started = self.last_note = self.clock()

    @staticmethod
    def _make_bar() -> object:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        return Progress(
            TextColumn("audit"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
        )

    def start(self, total: int | None) -> None:
        self.total = total or 0
        self.started = self.last_note = self.clock()
        if self.bar is not None:
            from rich.progress import Progress

            assert isinstance(self.bar, Progress)
            self.bar.start()
            self.task = self.bar.add_task("audit", total=total, rate="")

    def advance(self, result: WorkerResult) -> None:
        if self.json_lines:
            output.data(result.line)
        elif self.quiet and result.failing is not None:
            output.failing(result.status, result.failing)
        self.count += 1
        now = self.clock()
        rate = self.count / max(now - self.started, 1e-9)
        if self.bar is not None:
            from rich.progress import Progress, TaskID

            if isinstance(self.bar, Progress) and isinstance(self.task, int):
                self.bar.update(TaskID(self.task), advance=1, rate=f"{rate:.1f}/s")
        elif not self.quiet and now - self.last_note >= 10:
            self.last_note = now
            left = (self.total - self.count) / rate if rate else 0
            line = f"audit: {self.count}/{self.total} judged, {rate:.1f}/s, ETA {left:.0f} s"
            say(line, err=True)

    def stop(self) -> None:
        if self.bar is not None:
            from rich.progress import Progress

            if isinstance(self.bar, Progress):
                self.bar.stop()


def _print_tables(summary: Summary) -> None:
    """The tables of counts on stderr: games by status, termination, first illegal move."""
    from rich.console import Console
    from rich.table import Table

    console = Console(stderr=True, highlight=False)
    for title, counts in (
        ("status", summary.by_status),
        ("termination", summary.by_termination),
        ("first illegal move", summary.by_category),
        ("adjudication", summary.by_adjudication),
        ("analysis finding", summary.games_by_mistake),
    ):
        if not counts:
            continue
        table = Table(title=f"games by {title}")
        table.add_column(title)
        table.add_column("games", justify="right")
        for key, count in counts.most_common():
            table.add_row(key, str(count))
        console.print(table)
    if summary.adjudicated:
        sides = ", ".join(
            f"{n} by {winner.capitalize()}" for winner, n in sorted(summary.mates_by_winner.items())
        )
        proved = f"{plural(summary.forced_mates, 'forced mate')} proved"
        console.print(f"{proved} ({sides})" if sides else proved)
    console.print(f"{plural(summary.total, 'game')} in all")


def _print_failing(summary: Summary, where: str, stdout: bool) -> None:
    """The failing games the summary kept, as ``check -q`` prints them, and where the
    others are."""
    if summary.failing:
        shown = len(summary.failing)
        some = "" if shown == summary.failing_total else f"the first {shown} of "
        output.note("audit", f"failing games ({some}{summary.failing_total}):")
    for game in summary.failing:
        output.failing(game.status, game.line, stdout=stdout)
    rest = summary.failing_total - len(summary.failing)
    if rest:
        others = plural(rest, "other failing game")
        output.note("audit", f"{others} {'is' if rest == 1 else 'are'} in {where}")


def _print_end(plan: AuditPlan, run: AuditRun, quiet: bool, json_lines: bool) -> None:
    """What the audit found, once it is over: why nothing was judged, first, if so."""
    report_problems("audit", run.problems)
    summary = run.summary
    if run.nothing_found:
        output.note("audit", "no game found in the sources named")
        return
    if not quiet:
        _print_tables(summary)
        places = [str(p) for p in (plan.out, plan.csv) if p]
        where = " and ".join(places or ["the JSON lines on standard output"])
        _print_failing(summary, where, stdout=not json_lines)
        if run.skipped:
            was = "was" if run.skipped == 1 else "were"
            output.note("audit", f"{plural(run.skipped, 'game')} {was} already judged")
    internal = summary.by_outcome[VerdictKind.INTERNAL_ERROR]
    if internal:
        output.note(
            "audit",
            f"{plural(internal, 'source')} hit an internal error (see their error in "
            f"{plan.out or 'the JSON lines'}): {INTERNAL_ERROR_HINT}",
        )


AUDIT_EPILOG = (
    f"Sources: files, folders (searched recursively for {SOURCE_SUFFIXES_TEXT}, hidden "
    "files and gcadj's own reports skipped), http(s) URLs of viewing pages, an earlier "
    f"audit's {AUDIT_SUFFIX} (its sources), and --index log indexes; a PGN file of several games "
    "gives one verdict per game (FILE#N). Every verdict is appended to --output as one JSON "
    "line (the schema of check --json), in the order of the sources whatever --jobs is; "
    "without --output the lines go to stdout. --resume finishes an interrupted audit. The "
    "summary at the end names the first 10 failing games (-v: all) as check -q prints "
    "them; -q prints only those lines, as they come, exactly as check -q does. A source "
    "over --source-timeout or --memory, or whose worker dies, gets an error verdict; the "
    "others keep theirs. --analyse analyses each game as gcadj analyse does, within its "
    "source's --source-timeout: its JSON line gains its analysis, the CSV the columns "
    "missed_mates, mates_allowed, material_lost, the report their columns and a filter. "
    + exit_codes_help(
        (*JUDGING_CODES, EXIT_INTERRUPTED),
        more={
            EXIT_USAGE: "another audit holds --output, or --csv/--report would replace a "
            "file gcadj did not write",
            EXIT_UNREADABLE: "no game found, an index that could not be fetched or lists no "
            "game of --game",
            EXIT_CANNOT_WRITE: "--output keeps whole lines: finish with --resume",
        },
    )
)


def viewer_choice(value: str) -> str:
    """``--viewers``' check: one of `ViewerChoice`'s names, in either case (exit 2 naming
    them otherwise)."""
    from gcadj.app.products import ViewerChoice

    names = [choice.value for choice in ViewerChoice]
    if value.lower() not in names:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(map(repr, names))}.")
    return value.lower()


def viewer_choices(incomplete: str) -> list[str]:
    """Shell completion for ``--viewers``."""
    from gcadj.app.products import ViewerChoice

    return [choice.value for choice in ViewerChoice if choice.value.startswith(incomplete)]


SourcesArgument = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="SOURCES...", help="Files, folders, URLs and audits' .jsonl files to judge."
    ),
]
IndexOption = Annotated[
    list[str] | None,
    typer.Option("--index", metavar="URL", help="A logs.php index; its games are judged."),
]
GameOption = Annotated[str, typer.Option("--game", help="Which game's logs to take from an index.")]
SourceTimeoutOption = Annotated[float, source_timeout_option("none")]
MemoryOption = Annotated[int, memory_option("no limit")]
OutOption = Annotated[
    str | None,
    typer.Option(
        "--output",
        "-o",
        "--out",  # its former name, kept: every command's output file is -o/--output
        metavar="FILE.jsonl",
        help="Results, one JSON line per source.",
    ),
]
ResumeOption = Annotated[
    bool, typer.Option("--resume", help="Skip sources already in --output; judge the rest.")
]
ForceOption = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Replace an existing --output, and a --csv or --report file gcadj did not write "
        "(never a source of the audit, nor --output by --csv or --report).",
    ),
]
CsvOption = Annotated[
    str | None, typer.Option("--csv", metavar="FILE", help="One CSV row per game.")
]
ReportOption = Annotated[
    str | None,
    typer.Option("--report", metavar="FILE.html", help="A self-contained HTML report."),
]
ViewersOption = Annotated[
    str | None,
    typer.Option(
        "--viewers",
        parser=viewer_choice,
        metavar="failing|all|none",
        autocompletion=viewer_choices,
        help="Which games get an HTML viewer page, which the report links: the failing "
        "ones (default), all, or none.",
    ),
]
ViewerDirOption = Annotated[
    str | None,
    typer.Option(
        "--viewer-dir",
        metavar="DIR",
        help="Where the viewers go (default with --report: the folder REPORT-viewers "
        "beside it). The pages share one style and one script file there.",
    ),
]
AuditQuietOption = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        help="No progress, tables or JSON: only the failing games, as check -q prints them.",
    ),
]
AllOption = Annotated[
    bool, typer.Option("--all", help="Report every illegal ply, not just the first.")
]


class _Files(NamedTuple):
    """What an audit writes, as the options name it, checked together."""

    out: Path | None
    csv: Path | None
    report: Path | None
    viewers: Path | None
    viewer_games: ViewerChoice


def _files(
    out: str | None,
    csv_file: str | None,
    report: str | None,
    viewers: str | None,
    viewer_dir: str | None,
) -> _Files:
    """The output options, checked: never a folder, and viewers need a place."""
    from gcadj.app.products import DEFAULT_VIEWERS, ViewerChoice, viewer_folder

    for option, path in (("--output", out), ("--csv", csv_file), ("--report", report)):
        refuse_folder("audit", option, path)
    report_path = Path(report) if report else None
    games = ViewerChoice(viewers or DEFAULT_VIEWERS)
    if viewers is not None and report is None and viewer_dir is None:
        raise _usage("--viewers needs --report or --viewer-dir (where would they go?)")
    if viewer_dir is not None and games is ViewerChoice.NONE:
        raise _usage("--viewer-dir and --viewers none contradict each other")
    return _Files(
        Path(out) if out else None,
        Path(csv_file) if csv_file else None,
        report_path,
        viewer_folder(report_path, Path(viewer_dir) if viewer_dir else None),
        games,
    )


@fetch_options
@stage_options("audit", ADJUDICATION_OPTIONS, ANALYSIS_OPTIONS)
def audit(
    ctx: typer.Context,
    sources: SourcesArgument = None,
    index: IndexOption = None,
    game: GameOption = "Pocket Mutation Chess",
    jobs: JobsOption = None,
    source_timeout: SourceTimeoutOption = 0.0,
    memory: MemoryOption = 0,
    out: OutOption = None,
    resume: ResumeOption = False,
    force: ForceOption = False,
    csv_file: CsvOption = None,
    report: ReportOption = None,
    viewers: ViewersOption = None,
    viewer_dir: ViewerDirOption = None,
    quiet: AuditQuietOption = False,
    verbose: VerboseOption = False,
    all_findings: AllOption = False,
    fen: FenOption = None,
    pocket_file: PocketFileOption = None,
    fetch: FetchSettings = GIVEN_NONE,
    max_bytes: MaxBytesOption = DEFAULT_MAX_BYTES,
    stages: Stages = NO_STAGES,
) -> None:
    """Judge a whole archive in parallel: resumable JSONL, summary, CSV and HTML report."""
    from gcadj.app.audit import AuditPlan
    from gcadj.app.pipeline import JudgeOptions

    specs = tuple(sources or ())
    if not specs and not index:
        raise _usage("name at least one source or --index URL")
    if "-" in specs:
        raise _usage("standard input is not an audit source; use check")
    letter = check_options("audit", pocket_file, fen)
    files = _files(out, csv_file, report, viewers, viewer_dir)
    plan = AuditPlan(
        sources=specs,
        out=files.out,
        index_urls=tuple(index or ()),
        game=game,
        judge=JudgeOptions(
            fen=fen,
            pocket_file=letter,
            all_findings=all_findings,
            max_bytes=max_bytes,
            **stages(),
        ),
        fetch=fetch,
        limits=limits_of(jobs, source_timeout, memory),
        resume=resume,
        force=force,
        viewers=files.viewers,
        viewer_games=files.viewer_games,
        csv=files.csv,
        report=files.report,
        failing_listed=None if verbose else 10,
    )
    _run(plan, quiet)


def _run(plan: AuditPlan, quiet: bool) -> None:
    """Run the audit, show it, and exit with its code (see the epilog)."""
    from gcadj.app.audit import AuditError, AuditInterrupted, run_audit
    from gcadj.errors import CannotWrite

    json_lines = plan.out is None and not quiet
    progress = _StderrProgress(quiet, json_lines)
    try:
        try:
            run = run_audit(plan, progress=progress)
        finally:
            progress.stop()
    except AuditError as err:
        raise _usage(str(err)) from None
    except CannotWrite as err:
        output.note("audit", str(err))
        raise typer.Exit(EXIT_CANNOT_WRITE) from None
    except AuditInterrupted as err:
        output.note("audit", _interrupted(err.judged, plan.out, json_lines))
        raise typer.Exit(EXIT_INTERRUPTED) from None
    _print_end(plan, run, quiet, json_lines)
    raise typer.Exit(run.exit_code)


def _usage(message: str) -> typer.Exit:
    output.note("audit", message)
    return typer.Exit(EXIT_USAGE)


def _interrupted(judged: int, out: Path | None, json_lines: bool) -> str:
    said = f"interrupted after {plural(judged, 'verdict')} this run"
    if out is not None:
        return f"{said}; every one is in {out}; finish with --resume"
    shown = "each was printed" if json_lines else "the failing ones were printed"
    return f"{said}; {shown} on stdout; rerun with --output FILE to be able to resume"
