"""The `gcadj` command line: thin typer commands that wire the library and render results.

Every command imports what it needs inside its body, so `gcadj --help` and `gcadj check`
on one small game do not pay for requests, beautifulsoup4 or the SVG code. Data goes to
stdout; diagnostics, warnings and progress bars go to stderr. This module is the one
place that turns results into exit codes (see `EXIT_*` and the README).
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from gcadj import __version__

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_USAGE = 2
EXIT_SYNTAX = 3
EXIT_UNREADABLE = 4

app = typer.Typer(
    name="gcadj",
    help="Adjudicate Game Courier games of Pocket Mutation Chess.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gcadj {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Adjudicate Game Courier games of Pocket Mutation Chess."""


@app.command()
def perft(
    fen: Annotated[str, typer.Argument(help="A gcadj FEN, or 'startpos'.")],
    depth: Annotated[int, typer.Argument(min=0, help="Depth in plies.")],
    divide: Annotated[
        bool, typer.Option("--divide", help="Print each root move with its count first.")
    ] = False,
) -> None:
    """Count the leaf nodes of the legal move tree (the last line is the total)."""
    from gcadj.engine.fen import FenError
    from gcadj.engine.position import Position

    try:
        position = Position(fen)
    except FenError as err:
        typer.echo(f"gcadj perft: {err}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    if divide and depth > 0:
        total = 0
        for move, count in sorted(position.divide(depth), key=lambda mc: mc[0].uci()):
            typer.echo(f"{move.uci()}: {count}")
            total += count
        typer.echo(str(total))
    else:
        typer.echo(str(position.perft(depth)))


# Options shared by every command that reads games (check, export, audit): one wording.
FenOption = Annotated[
    str | None,
    typer.Option(
        "--fen",
        help="Start position of every game, a gcadj FEN or a Game Courier code "
        "(default: the log's FEN tag, else the standard array).",
    ),
]
PocketFileOption = Annotated[
    str,
    typer.Option(
        "--pocket-file",
        help="Letter of the pocket file: i (i1/i8) or p (p1/p8); a PocketFile tag overrides it.",
    ),
]

STATUS_EXIT = {
    "legal": EXIT_OK,
    "illegal": EXIT_ILLEGAL,
    "syntax-error": EXIT_SYNTAX,
    "error": EXIT_UNREADABLE,
}

CHECK_EPILOG = (
    "Exit codes: 0 every source legal; 1 some illegal move found; 3 some source could not be "
    "parsed; 4 some source could not be read; 2 usage. When several apply, the highest wins."
)


@app.command(epilog=CHECK_EPILOG)
def check(
    sources: Annotated[
        list[str],
        typer.Argument(help="Game logs: files, saved pages, http(s) URLs, or '-' for stdin."),
    ],
    json_lines: Annotated[
        bool, typer.Option("--json", help="One JSON object per source per line.")
    ] = False,
    all_findings: Annotated[
        bool,
        typer.Option("--all", help="Go on after an illegal ply and report every one."),
    ] = False,
    fen: FenOption = None,
    pocket_file: PocketFileOption = "i",
) -> None:
    """Replay each game: report its first illegal move, or how it ended."""
    from gcadj.adjudication.verdict import check_source, with_page_checks
    from gcadj.outputs.report import render_verdict

    _check_options("check", pocket_file, fen)
    worst = EXIT_OK
    for spec in sources:
        verdict = check_source(spec, fen=fen, pocket_file=pocket_file, all_findings=all_findings)
        verdict = with_page_checks(verdict)  # scraper warnings, page diagram vs replay
        if json_lines:
            import json

            typer.echo(json.dumps(verdict.to_json(), ensure_ascii=False))
        else:
            typer.echo(render_verdict(verdict))
        worst = max(worst, STATUS_EXIT[verdict.status])
    raise typer.Exit(worst)


# -- fetch and audit ---------------------------------------------------------------------

CacheOption = Annotated[
    str | None,
    typer.Option(
        "--cache",
        metavar="DIR",
        help="Page cache folder (default: $XDG_CACHE_HOME/gcadj/pages or ~/.cache/gcadj/pages).",
    ),
]
NoCacheOption = Annotated[
    bool, typer.Option("--no-cache", help="Neither read nor write the page cache.")
]
DelayOption = Annotated[
    float,
    typer.Option("--delay", min=0, metavar="SECONDS", help="Pause between requests to one host."),
]
TimeoutOption = Annotated[
    float,
    typer.Option(
        "--timeout", min=0.001, metavar="SECONDS", help="Connect and read timeout per request."
    ),
]
RetriesOption = Annotated[
    int,
    typer.Option("--retries", min=0, help="Retries after a connection error, timeout, 429 or 5xx."),
]
MaxSizeOption = Annotated[
    int, typer.Option("--max-size", min=1, metavar="KB", help="Largest page accepted, in KiB.")
]


def _install_fetcher(
    cache: str | None, no_cache: bool, delay: float, timeout: float, retries: int, max_kb: int
) -> None:
    """Make the shared fetcher (used for every URL source) follow the command's options."""
    from pathlib import Path

    from gcadj.sources.fetch import Fetcher, FetchOptions, default_cache_dir, set_default_fetcher

    options = FetchOptions(
        connect_timeout=timeout,
        read_timeout=timeout,
        total_timeout=max(4 * timeout, timeout + 10),
        retries=retries,
        backoff=min(1.0, timeout),
        delay=delay,
        max_bytes=max_kb * 1024,
        cache_dir=None if no_cache else Path(cache) if cache else default_cache_dir(),
    )
    set_default_fetcher(Fetcher(options))


FETCH_EPILOG = (
    "Exit codes: 0 the log was written; 2 usage (FILE exists without --force); 3 the page "
    "holds no move list; 4 the page could not be fetched."
)


@app.command(epilog=FETCH_EPILOG)
def fetch(
    url: Annotated[str, typer.Argument(help="A viewing page: …/play/pbm/play.php?game=…&log=…")],
    output: Annotated[
        str | None,
        typer.Option("-o", "--output", metavar="FILE", help="Write here (default: stdout)."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing FILE.")] = False,
    cache: CacheOption = None,
    no_cache: NoCacheOption = False,
    delay: DelayOption = 1.0,
    timeout: TimeoutOption = 30.0,
    retries: RetriesOption = 3,
    max_kb: MaxSizeOption = 5120,
) -> None:
    """Download a Game Courier page and write its game as a text log with tag pairs."""
    from pathlib import Path

    from gcadj.app.audit import CheckOptions, judge_text
    from gcadj.sources.fetch import FetchError, default_fetcher
    from gcadj.sources.scrape import scrape_page

    if output is not None and Path(output).exists() and not force:
        typer.echo(f"gcadj fetch: {output} exists; use --force to overwrite it", err=True)
        raise typer.Exit(EXIT_USAGE)
    _install_fetcher(cache, no_cache, delay, timeout, retries, max_kb)
    try:
        page = default_fetcher().get(url)
    except FetchError as err:
        typer.echo(f"gcadj fetch: {err}", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None
    try:
        text = scrape_page(page.text(), source=url).log_text
    except ValueError as err:  # PageError: no move list
        typer.echo(f"gcadj fetch: {err}", err=True)
        raise typer.Exit(EXIT_SYNTAX) from None
    for warning in judge_text(text, url, CheckOptions()).warnings:
        typer.echo(f"gcadj fetch: warning: {warning}", err=True)
    if output is None:
        typer.echo(text, nl=False)
        return
    _write_output("fetch", output, text, force)


def _write_output(command: str, path: str, text: str, force: bool) -> None:
    """Write an output file the user named: atomically, replacing a file only with --force."""
    from pathlib import Path

    from gcadj.outputs.files import write_text_file

    try:
        write_text_file(Path(path), text, overwrite=force)
    except FileExistsError:
        raise _fail(command, f"{path} exists; use --force to overwrite it", EXIT_USAGE) from None
    except OSError as err:
        raise _fail(command, f"cannot write {path}: {err.strerror or err}", EXIT_USAGE) from None


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
            typer.echo(
                f"audit: {self.count}/{self.total} judged, {rate:.1f}/s, ETA {left:.0f} s",
                err=True,
            )

    def stop(self) -> None:
        if self.bar is not None:
            from rich.progress import Progress

            if isinstance(self.bar, Progress):
                self.bar.stop()


def _print_summary(summary: object) -> None:
    from rich.console import Console
    from rich.table import Table

    from gcadj.outputs.audit_report import Summary

    assert isinstance(summary, Summary)
    console = Console(stderr=True)
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
    console.print(f"{summary.total} games in all")


AUDIT_EPILOG = (
    "Sources: files, directories (searched recursively for .txt .log .pgn .html .htm), "
    "http(s) URLs of viewing pages, and --index log indexes. Every verdict is appended to "
    "--out as one JSON line (the schema of check --json) as soon as it is known; --resume "
    "finishes an interrupted audit. Exit codes as check: 0 all legal; 1 some illegal; "
    "3 some unparsable; 4 some unreadable (or an index could not be fetched); 2 usage; "
    "130 interrupted."
)


@app.command(epilog=AUDIT_EPILOG)
def audit(
    sources: Annotated[
        list[str] | None, typer.Argument(help="Files, directories and URLs to judge.")
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
        typer.Option("--jobs", "-j", min=1, help="Worker processes (default: one per core)."),
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
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --out.")] = False,
    csv_file: Annotated[
        str | None, typer.Option("--csv", metavar="FILE", help="One CSV row per game.")
    ] = None,
    report: Annotated[
        str | None,
        typer.Option("--report", metavar="FILE.html", help="A self-contained HTML report."),
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress and no summary on stderr.")
    ] = False,
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
    """Judge a whole archive in parallel; resumable JSONL, summary, CSV and HTML report."""
    import os
    import tempfile
    from pathlib import Path

    from gcadj.app.audit import AuditError, AuditPlan, CheckOptions, run_audit
    from gcadj.outputs.audit_report import summarize, write_csv, write_report
    from gcadj.sources.urls import is_url

    specs = tuple(sources or ())
    if not specs and not index:
        typer.echo("gcadj audit: name at least one source or --index URL", err=True)
        raise typer.Exit(EXIT_USAGE)
    if "-" in specs:
        typer.echo("gcadj audit: standard input is not an audit source; use check", err=True)
        raise typer.Exit(EXIT_USAGE)
    if resume and out is None:
        typer.echo("gcadj audit: --resume needs --out", err=True)
        raise typer.Exit(EXIT_USAGE)
    _check_options("audit", pocket_file, fen)
    fetcher = None
    if index or any(is_url(spec) for spec in specs):  # requests is imported only then
        from gcadj.sources.fetch import default_fetcher

        _install_fetcher(cache, no_cache, delay, timeout, retries, max_kb)
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
        check=CheckOptions(fen=fen, pocket_file=pocket_file, all_findings=all_findings),
        jobs=jobs or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1),
        resume=resume,
        force=force,
    )
    progress = _AuditProgress(quiet, echo_lines=out is None)
    try:
        try:
            run = run_audit(plan, fetcher=fetcher, progress=progress)
        finally:
            progress.stop()
    except AuditError as err:
        typer.echo(f"gcadj audit: {err}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    except KeyboardInterrupt:
        if out is None:  # the scratch file goes with its folder: nothing to resume from
            where = "each was printed on stdout; rerun with --out FILE to be able to resume"
        else:
            where = f"every one is in {out_path}; finish with --resume"
        typer.echo(
            f"gcadj audit: interrupted after {progress.count} verdicts this run; {where}",
            err=True,
        )
        raise typer.Exit(130) from None
    summary = summarize(out_path)
    try:
        if csv_file:
            write_csv(out_path, Path(csv_file))
        if report:
            write_report(out_path, Path(report), summary)
    except OSError as err:
        typer.echo(f"gcadj audit: cannot write {err.filename}: {err.strerror or err}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    if scratch is not None:
        scratch.cleanup()
    if not quiet:
        _print_summary(summary)
        if run.skipped:
            typer.echo(f"gcadj audit: {run.skipped} sources were already judged", err=True)
    for problem in run.index_errors:
        typer.echo(f"gcadj audit: {problem}", err=True)
    statuses = summary.by_status
    worst = max((STATUS_EXIT.get(s, EXIT_UNREADABLE) for s in statuses), default=EXIT_OK)
    if run.index_errors:
        worst = max(worst, EXIT_UNREADABLE)
    raise typer.Exit(worst)


class ExportFormat(str, Enum):
    pgn = "pgn"
    gc = "gc"
    fen = "fen"
    json = "json"
    svg = "svg"


EXPORT_EPILOG = (
    "Formats: pgn (PGN-like text, SAN with I@c4 drops and Rh1@=I pocketing), gc (a clean "
    "Game Courier move list), fen (the start and the position after each ply), json (every "
    "ply with its notations, FEN and finding, plus the verdict), svg (a diagram). An illegal "
    "game is converted too, up to and including its first illegal ply (noted on stderr). "
    "Exit codes: 0 written; 2 usage (bad option, --ply out of range, FILE exists without "
    "--force); 3 the source could not be parsed; 4 the source could not be read."
)


def _fail(command: str, message: str, code: int) -> typer.Exit:
    typer.echo(f"gcadj {command}: {message}", err=True)
    return typer.Exit(code)


def _check_options(command: str, pocket_file: str, fen: str | None = None) -> None:
    """Usage errors (exit 2) for a bad --pocket-file or --fen, before any source is read."""
    from gcadj.adjudication.verdict import start_position
    from gcadj.engine.fen import FenError
    from gcadj.notation.parse import is_pocket_file

    if not is_pocket_file(pocket_file):
        message = f"--pocket-file must be one letter from i to z, not {pocket_file!r}"
        raise _fail(command, message, EXIT_USAGE)
    if fen is not None:
        try:
            start_position(fen, pocket_file)
        except FenError as err:
            raise _fail(command, f"--fen: {err}", EXIT_USAGE) from None


@app.command(epilog=EXPORT_EPILOG)
def export(
    source: Annotated[str, typer.Argument(help="A game: a file, or '-' for standard input.")],
    to: Annotated[ExportFormat, typer.Option("--to", help="Output format.")],
    output: Annotated[
        str | None,
        typer.Option("-o", "--output", metavar="FILE", help="Write to FILE, not standard output."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Let -o overwrite an existing FILE.")
    ] = False,
    ply: Annotated[
        int | None,
        typer.Option(
            "--ply",
            min=0,
            help="fen/svg: only the position after N plies (0 = the start; "
            "default for svg: the last legal position).",
        ),
    ] = None,
    fen: FenOption = None,
    pocket_file: PocketFileOption = "i",
) -> None:
    """Convert a game: PGN-like text, Game Courier text, FEN, JSON or an SVG diagram."""
    from gcadj.adjudication.verdict import check_source
    from gcadj.outputs.export import ExportError, export_game

    _check_options("export", pocket_file, fen)
    verdict = check_source(source, fen=fen, pocket_file=pocket_file)
    if verdict.status in ("syntax-error", "error"):
        typer.echo(verdict.error or f"{source}: {verdict.status}", err=True)
        raise typer.Exit(STATUS_EXIT[verdict.status])
    try:
        text = export_game(verdict, to.value, ply=ply)
    except ExportError as err:
        raise _fail("export", str(err), EXIT_USAGE) from None
    if verdict.first_illegal is not None:
        bad = verdict.first_illegal
        typer.echo(
            f"gcadj export: note: {verdict.source}: ply {bad.ply} ({bad.text!r}) is illegal "
            f"[{bad.category}]; the export shows the game up to it",
            err=True,
        )
    if output is None:
        typer.echo(text, nl=False)
    else:
        _write_output("export", output, text, force)


class Turn(str, Enum):
    w = "w"
    b = "b"


FEN_EPILOG = (
    "A Game Courier code holds only the board (ninth file included: i8 ends the first rank, "
    "i1 the last, '-' for the cells i2-i7 that do not exist). --from-gc assumes what the "
    "code cannot say: the side to move from --turn (default w), no en passant, halfmove "
    "clock 0, move 1; a code followed by FEN fields ('CODE b - - 0 12') keeps them. "
    "Exit codes: 0 converted; 2 usage or a bad code/FEN (the message names the column)."
)


@app.command(name="fen", epilog=FEN_EPILOG)
def fen_command(
    from_gc: Annotated[
        str | None,
        typer.Option(
            "--from-gc", metavar="CODE", help="Print gcadj's FEN for a Game Courier code."
        ),
    ] = None,
    to_gc: Annotated[
        str | None,
        typer.Option("--to-gc", metavar="FEN", help="Print the Game Courier code of a gcadj FEN."),
    ] = None,
    turn: Annotated[
        Turn | None, typer.Option("--turn", help="--from-gc: the side to move (default w).")
    ] = None,
) -> None:
    """Convert between gcadj's FEN and Game Courier's position code."""
    from gcadj.engine.fen import FenError
    from gcadj.notation.gccode import fen_to_gc_code, gc_code_to_fen

    if (from_gc is None) == (to_gc is None):
        raise _fail("fen", "give exactly one of --from-gc CODE and --to-gc FEN", EXIT_USAGE)
    try:
        if from_gc is not None:
            result = gc_code_to_fen(from_gc, turn=(turn or Turn.w).value)
        else:
            if turn is not None:
                raise _fail("fen", "--turn applies to --from-gc only", EXIT_USAGE)
            assert to_gc is not None
            result = fen_to_gc_code(to_gc)
    except FenError as err:
        raise _fail("fen", str(err), EXIT_USAGE) from None
    typer.echo(result)


def main() -> None:
    """Console-script entry point."""
    app()
