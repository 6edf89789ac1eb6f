"""`gcadj check`: one verdict per source, as text blocks or JSON lines."""

from __future__ import annotations

from typing import Annotated

import typer

from gcadj.cli.options import (
    EXIT_OK,
    STATUS_EXIT,
    FenOption,
    PocketFileOption,
    check_options,
)

CHECK_EPILOG = (
    "Exit codes: 0 every source legal; 1 some illegal move found; 3 some source could not be "
    "parsed; 4 some source could not be read; 2 usage. When several apply, the highest wins."
)


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
    from gcadj.app.check import check_source, with_page_checks
    from gcadj.outputs.report import render_verdict

    check_options("check", pocket_file, fen)
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
