"""`gcadj check`: one verdict per source, as text blocks or JSON lines."""

from __future__ import annotations

from typing import Annotated

import typer

from gcadj.cli.options import (
    EXIT_CODES_HELP,
    EXIT_OK,
    INTERNAL_ERROR_HINT,
    STATUS_EXIT,
    FenOption,
    PocketFileOption,
    QuietOption,
    VerboseOption,
    check_options,
    report_problems,
)
from gcadj.cli.streams import say

CHECK_EPILOG = (
    "A folder is searched recursively for .txt .log .pgn .html .htm files (hidden ones and "
    "gcadj's own reports skipped); an audit's .jsonl stands for the sources it lists; a PGN "
    "file of several games gives one verdict per game, named FILE#N. Verdicts go to stdout, "
    "a source that cannot be read to stderr. " + EXIT_CODES_HELP
)


def check(
    sources: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="SOURCES...",
            help="Game logs: files, folders, saved pages, http(s) URLs, an audit's .jsonl, "
            "or '-' for stdin (read when none is named and stdin is not a terminal).",
        ),
    ] = None,
    json_lines: Annotated[
        bool, typer.Option("--json", help="One JSON object per game per line.")
    ] = False,
    all_findings: Annotated[
        bool,
        typer.Option("--all", help="Go on after an illegal ply and report every one."),
    ] = False,
    fen: FenOption = None,
    pocket_file: PocketFileOption = "i",
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Replay each game: report its first illegal move, or how it ended."""
    from gcadj.app.check import CheckOptions, iter_judge_games
    from gcadj.outputs.report import render_verdict, verdict_line
    from gcadj.sources.walk import SourceWalker

    letter = check_options("check", pocket_file, fen)
    options = CheckOptions(fen=fen, pocket_file=letter, all_findings=all_findings)
    walker = SourceWalker(tuple(sources or ()))
    worst = EXIT_OK
    for spec in walker:
        # never raises: a bad source, or a bug on one, is that source's verdict
        for verdict in iter_judge_games(spec, options):  # with the page checks, one at a time
            worst = max(worst, STATUS_EXIT[verdict.outcome])
            if quiet and verdict.status == "legal":
                continue
            if json_lines:
                typer.echo(verdict.json_line())
            elif quiet:
                say(verdict_line(verdict), err=verdict.status == "error")
            else:
                text = render_verdict(verdict, verbose=verbose)
                say(text, err=verdict.status == "error")  # unreadable: a diagnostic
            if verdict.outcome == "internal-error":  # after the error it explains
                say(f"gcadj check: {verdict.source}: {INTERNAL_ERROR_HINT}", err=True)
    worst = max(worst, report_problems("check", walker.problems))
    raise typer.Exit(worst)
