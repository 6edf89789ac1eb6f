"""`gcadj audit`: a whole archive judged in parallel, with progress and a summary on stderr."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gcadj.cli.options import (
    EXIT_OK,
    EXIT_UNREADABLE,
    EXIT_USAGE,
    INTERNAL_ERROR_HINT,
    STATUS_EXIT,
    CacheOption,
    DelayOption,
    FenOption,
    MaxSizeOption,
    NoCacheOption,
    PocketFileOption,
    RetriesOption,
    TimeoutOption,
    VerboseOption,
    check_options,
    install_fetcher,
    number_parser,
    refuse_folder,
    report_problems,
)
from gcadj.cli.streams import say
from gcadj.words import plural


class _AuditProgress:
    """Progress on stderr: a rich bar on a terminal; without one (CI logs) a plain line
    every 10 seconds; nothing with --quiet. JSON lines go to stdout when there is no --out."""

    def __init__(self, quiet: bool, echo_lines: bool) -> None:
        import sys
        import time

        self.echo_lines = echo_lines
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

    def advance(self, line: str, status: str) -> None:
        if self.echo_lines:
            typer.echo(line, nl=False)
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
            say(
                f"audit: {self.count}/{self.total} judged, {rate:.1f}/s, ETA {left:.0f} s",
                err=True,
            )

    def stop(self) -> None:
        if self.bar is not None:
            from rich.progress import Progress

            if isinstance(self.bar, Progress):
                self.bar.stop()


def _print_summary(summary: object, where: str) -> None:
    """The tables of counts, then the failing games (see `_print_failing`), on stderr."""
    from rich.console import Console
    from rich.table import Table

    from gcadj.outputs.audit_report import Summary

    assert isinstance(summary, Summary)
    console = Console(stderr=True, highlight=False)
    for title, counts in (
        ("status", summary.by_status),
        ("termination", summary.by_termination),
        ("first illegal move", summary.by_category),
    ):
        table = Table(title=f"games by {title}")
        table.add_column(title)
        table.add_column("games", justify="right")
        for key, count in counts.most_common():
            table.add_row(key, str(count))
        if not counts:
            table.add_row("none", "0")
        console.print(table)
    console.print(f"{plural(summary.total, 'game')} in all")
    if summary.failing:
        shown = len(summary.failing)
        some = "" if shown == summary.failing_total else f"the first {shown} of "
        console.print(f"failing games ({some}{summary.failing_total}):")
    _print_failing(summary, where)


def _print_failing(summary: object, where: str | None) -> None:
    """One line per failing game of the summary (source: reason); when the summary keeps
    only the first ones, where the others are (`where`)."""
    from gcadj.outputs.audit_report import Summary

    assert isinstance(summary, Summary)
    for source, reason in summary.failing:
        say(f"{source}: {reason}", err=True)
    rest = summary.failing_total - len(summary.failing)
    if rest and where:
        others = plural(rest, "other failing game")
        say(f"gcadj audit: {others} {'is' if rest == 1 else 'are'} in {where}", err=True)


AUDIT_EPILOG = (
    "Sources: files, folders (searched recursively for .txt .log .pgn .html .htm, hidden "
    "files and gcadj's own reports skipped), http(s) URLs of viewing pages, an earlier "
    "audit's .jsonl (its sources), and --index log indexes; a PGN file of several games "
    "gives one verdict per game (FILE#N). Every verdict is appended to --out as one JSON "
    "line (the schema of check --json) as soon as it is known; --resume finishes an "
    "interrupted audit. The summary on stderr names the first 10 failing games (-v: all). "
    "Exit codes as check: 0 all legal; 1 some illegal; 3 some unparsable; 4 some "
    "unreadable or empty, no game found, a folder with no game, an index that could not be "
    "fetched or lists no game of --game; 5 gcadj failed on some source (an internal error: "
    "a bug, please report it); 2 usage (also: another audit holds --out, or --csv/--report "
    "would replace a file gcadj did not write); 130 interrupted."
)


def viewer_folder(report: str | None, viewers: str | None) -> Path | None:
    """Where the game viewers go: --viewers DIR, else beside the report (a.html: a-viewers/)."""
    if viewers is not None:
        return Path(viewers)
    if report is None:
        return None
    path = Path(report)
    return path.with_name(f"{path.stem}-viewers")


def audit(
    sources: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="SOURCES...",
            help="Files, folders, URLs and audits' .jsonl files to judge.",
        ),
    ] = None,
    index: Annotated[
        list[str] | None,
        typer.Option("--index", metavar="URL", help="A logs.php index; its games are judged."),
    ] = None,
    game: Annotated[
        str, typer.Option("--game", help="Which game's logs to take from an index.")
    ] = "Pocket Mutation Chess",
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            parser=number_parser("--jobs", 1),
            metavar="N",
            help="Worker processes (default: one per core).",
        ),
    ] = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out", "-o", metavar="FILE.jsonl", help="Results, one JSON line per source."
        ),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Skip sources already in --out; judge the rest.")
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Replace an existing --out, and a --csv or --report file gcadj did not write "
            "(never a source of the audit, nor --out by --csv or --report).",
        ),
    ] = False,
    csv_file: Annotated[
        str | None, typer.Option("--csv", metavar="FILE", help="One CSV row per game.")
    ] = None,
    report: Annotated[
        str | None,
        typer.Option("--report", metavar="FILE.html", help="A self-contained HTML report."),
    ] = None,
    viewers: Annotated[
        str | None,
        typer.Option(
            "--viewers",
            metavar="DIR",
            help="Write one HTML game viewer per game into DIR (default with --report: "
            "the folder REPORT-viewers beside it); the report links each game to its viewer.",
        ),
    ] = None,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet",
            "-q",
            help="No progress and no tables: only the failing games, one line each, on stderr.",
        ),
    ] = False,
    verbose: VerboseOption = False,
    all_findings: Annotated[
        bool, typer.Option("--all", help="Report every illegal ply, not just the first.")
    ] = False,
    fen: FenOption = None,
    pocket_file: PocketFileOption = "i",
    cache: CacheOption = None,
    no_cache: NoCacheOption = False,
    delay: DelayOption = 1.0,
    timeout: TimeoutOption = 30.0,
    retries: RetriesOption = 3,
    max_kb: MaxSizeOption = 5120,
) -> None:
    """Judge a whole archive in parallel: resumable JSONL, summary, CSV and HTML report."""
    import os
    import tempfile

    from gcadj.app.audit import AuditPlan, run_audit
    from gcadj.app.check import CheckOptions
    from gcadj.errors import AuditError
    from gcadj.outputs.audit_report import summarize, write_csv, write_report
    from gcadj.sources.urls import is_url

    specs = tuple(sources or ())
    if not specs and not index:
        say("gcadj audit: name at least one source or --index URL", err=True)
        raise typer.Exit(EXIT_USAGE)
    if "-" in specs:
        say("gcadj audit: standard input is not an audit source; use check", err=True)
        raise typer.Exit(EXIT_USAGE)
    if resume and out is None:
        say("gcadj audit: --resume needs --out", err=True)
        raise typer.Exit(EXIT_USAGE)
    letter = check_options("audit", pocket_file, fen)
    for option, path in (("--out", out), ("--csv", csv_file), ("--report", report)):
        refuse_folder("audit", option, path)
    fetcher = None
    if index or any(is_url(spec) for spec in specs):  # requests is imported only then
        from gcadj.sources.fetch import default_fetcher

        install_fetcher(cache, no_cache, delay, timeout, retries, max_kb)
        fetcher = default_fetcher()
    scratch = None
    if out is None:
        scratch = tempfile.TemporaryDirectory(prefix="gcadj-audit-")
        out_path = Path(scratch.name) / "audit.jsonl"
    else:
        out_path = Path(out)
    plan = AuditPlan(
        sources=specs,
        out=out_path,
        index_urls=tuple(index or ()),
        game=game,
        check=CheckOptions(fen=fen, pocket_file=letter, all_findings=all_findings),
        jobs=jobs or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1),
        resume=resume,
        force=force,
        viewers=viewer_folder(report, viewers),
        csv=Path(csv_file) if csv_file else None,
        report=Path(report) if report else None,
    )
    progress = _AuditProgress(quiet, echo_lines=out is None)
    try:
        output = plan.open_output()  # locked until the CSV and the report are written
    except AuditError as err:
        say(f"gcadj audit: {err}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    with output:
        try:
            try:
                run = run_audit(plan, fetcher=fetcher, progress=progress, output=output)
            finally:
                progress.stop()
        except AuditError as err:
            say(f"gcadj audit: {err}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
        except KeyboardInterrupt:
            if out is None:  # the scratch file goes with its folder: nothing to resume from
                where = "each was printed on stdout; rerun with --out FILE to be able to resume"
            else:
                where = f"every one is in {out_path}; finish with --resume"
            say(
                f"gcadj audit: interrupted after {plural(progress.count, 'verdict')} this "
                f"run; {where}",
                err=True,
            )
            raise typer.Exit(130) from None
        summary = summarize(out_path, failing=None if quiet or verbose else 10)
        try:
            if plan.csv is not None:
                write_csv(out_path, plan.csv)
            if plan.report is not None:
                write_report(out_path, plan.report, summary, order=run.order, viewers=plan.viewers)
        except OSError as err:
            say(f"gcadj audit: cannot write {err.filename}: {err.strerror or err}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
    if scratch is not None:
        scratch.cleanup()
    places = [p for p in (out, csv_file) if p] or ["the JSON lines on standard output"]
    if quiet:
        _print_failing(summary, None)
    else:
        _print_summary(summary, " and ".join(places))
        if run.skipped:
            done = plural(run.skipped, "game")
            was = "was" if run.skipped == 1 else "were"
            say(f"gcadj audit: {done} {was} already judged", err=True)
    worst = max((STATUS_EXIT[outcome] for outcome in summary.by_outcome), default=EXIT_OK)
    if summary.by_outcome["internal-error"]:
        say(
            f"gcadj audit: {plural(summary.by_outcome['internal-error'], 'source')} hit an "
            f"internal error (see their error in {out or 'the JSON lines'}): "
            f"{INTERNAL_ERROR_HINT}",
            err=True,
        )
    worst = max(worst, report_problems("audit", run.problems))
    if summary.total == 0:
        say("gcadj audit: no game found in the sources named", err=True)
        worst = EXIT_UNREADABLE
    raise typer.Exit(worst)
