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
    check_options,
)

CHECK_EPILOG = EXIT_CODES_HELP


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
    from gcadj.app.check import CheckOptions, judge_source
    from gcadj.outputs.report import render_verdict

    check_options("check", pocket_file, fen)
    options = CheckOptions(fen=fen, pocket_file=pocket_file, all_findings=all_findings)
    worst = EXIT_OK
    for spec in sources:
        # never raises: a bad source, or a bug on one, is that source's verdict
        verdict = judge_source(spec, options)  # with scraper warnings, page diagram vs replay
        if json_lines:
            typer.echo(verdict.json_line())
        else:
            typer.echo(render_verdict(verdict))
        if verdict.outcome == "internal-error":
            typer.echo(f"gcadj check: {verdict.source}: {INTERNAL_ERROR_HINT}", err=True)
        worst = max(worst, STATUS_EXIT[verdict.outcome])
    raise typer.Exit(worst)
