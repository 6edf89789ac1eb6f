"""`gcadj check`: one verdict per source, as text blocks or JSON lines."""

from __future__ import annotations

from typing import Annotated

import typer

from gcadj.app.exit_codes import exit_codes_help
from gcadj.app.fetching import FetchSettings
from gcadj.cli.common_options import (
    ANALYSIS_OPTIONS,
    DEFAULT_MAX_BYTES,
    GIVEN_NONE,
    NO_STAGES,
    FenOption,
    MaxBytesOption,
    PocketFileOption,
    QuietOption,
    Stages,
    VerboseOption,
    check_options,
    fetch_options,
    report_problems,
    stage_options,
)
from gcadj.sources.walk import AUDIT_SUFFIX, SOURCE_SUFFIXES_TEXT

CHECK_EPILOG = (
    f"A folder is searched recursively for {SOURCE_SUFFIXES_TEXT} files (hidden ones and "
    f"gcadj's own reports skipped); an audit's {AUDIT_SUFFIX} stands for the sources it "
    "lists; a PGN file of several games gives one verdict per game, named FILE#N. Verdicts "
    "go to stdout, a source that cannot be read to stderr. --analyse analyses each game as "
    "gcadj analyse does: a line per finding after its verdict, an analysis in its JSON. "
    + exit_codes_help()
)


@fetch_options
@stage_options("check", ANALYSIS_OPTIONS)
def check(
    ctx: typer.Context,
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
    pocket_file: PocketFileOption = None,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
    fetch: FetchSettings = GIVEN_NONE,
    max_bytes: MaxBytesOption = DEFAULT_MAX_BYTES,
    stages: Stages = NO_STAGES,
) -> None:
    """Replay each game: report its first illegal move, or how it ended."""
    from gcadj.app.check import CheckPlan, run_check
    from gcadj.app.pipeline import JudgeOptions
    from gcadj.cli import output

    letter = check_options("check", pocket_file, fen)
    plan = CheckPlan(
        sources=tuple(sources or ()),
        judge=JudgeOptions(
            fen=fen,
            pocket_file=letter,
            all_findings=all_findings,
            max_bytes=max_bytes,
            **stages(),
        ),
        fetch=fetch,
    )
    style = output.VerdictStyle(json=json_lines, quiet=quiet, verbose=verbose)
    run = run_check(plan)
    for verdict in run:  # never raises: a bad source, or a bug on one, is that source's verdict
        output.verdict("check", verdict, style)
    report_problems("check", run.problems)
    raise typer.Exit(run.exit_code)
