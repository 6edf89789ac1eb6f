"""`gcadj fetch`: a Game Courier page written as a text log."""

from __future__ import annotations

from typing import Annotated

import typer

from gcadj.app.exit_codes import (
    EXIT_ILLEGAL,
    EXIT_OK,
    EXIT_SYNTAX,
    EXIT_UNREADABLE,
    JUDGING_CODES,
    exit_codes_help,
)
from gcadj.app.fetching import FetchSettings
from gcadj.cli.common_options import (
    EXIT_USAGE,
    GIVEN_NONE,
    INTERNAL_ERROR_HINT,
    fetch_options,
    refuse_folder,
    write_output,
)

FETCH_EPILOG = exit_codes_help(
    set(JUDGING_CODES) - {EXIT_ILLEGAL},
    said={
        EXIT_OK: "the log was written",
        EXIT_SYNTAX: "the page holds no move list",
        EXIT_UNREADABLE: "the page could not be fetched",
    },
    more={EXIT_USAGE: "FILE exists without --force"},
    several=False,
)


@fetch_options
def fetch(
    url: Annotated[
        str,
        typer.Argument(metavar="URL", help="A viewing page: …/play/pbm/play.php?game=…&log=…"),
    ],
    output_file: Annotated[
        str | None,
        typer.Option(
            "-o", "--output", metavar="FILE", help="Write to FILE, a file (default: stdout)."
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing FILE.")] = False,
    fetch: FetchSettings = GIVEN_NONE,
) -> None:
    """Download a Game Courier page and write its game as a text log with tag pairs."""
    from pathlib import Path

    from gcadj.app.fetch_log import fetch_log
    from gcadj.cli import output

    refuse_folder("fetch", "-o", output_file)
    if output_file is not None and Path(output_file).exists() and not force:
        output.note("fetch", f"{output_file} exists; use --force to overwrite it")
        raise typer.Exit(EXIT_USAGE)
    fetched = fetch_log(url, fetch)
    if fetched.text is None:
        hint = f"; {INTERNAL_ERROR_HINT}" if fetched.internal else ""
        output.note("fetch", f"{fetched.error}{hint}")
        raise typer.Exit(fetched.exit_code)
    for warning in fetched.warnings:
        output.note("fetch", f"warning: {warning}")
    if output_file is None:
        output.data(fetched.text)
        return
    write_output("fetch", output_file, fetched.text, force)
