"""`gcadj fetch`: a Game Courier page written as a text log."""

from __future__ import annotations

from typing import Annotated

import typer

from gcadj.cli.options import (
    EXIT_INTERNAL,
    EXIT_SYNTAX,
    EXIT_UNREADABLE,
    EXIT_USAGE,
    INTERNAL_ERROR_HINT,
    CacheOption,
    DelayOption,
    MaxSizeOption,
    NoCacheOption,
    RetriesOption,
    TimeoutOption,
    install_fetcher,
    refuse_folder,
    write_output,
)
from gcadj.cli.streams import say

FETCH_EPILOG = (
    "Exit codes: 0 the log was written; 2 usage (FILE exists without --force); 3 the page "
    "holds no move list; 4 the page could not be fetched; 5 gcadj failed on the page (an "
    "internal error: a bug, please report it)."
)


def fetch(
    url: Annotated[
        str,
        typer.Argument(metavar="URL", help="A viewing page: …/play/pbm/play.php?game=…&log=…"),
    ],
    output: Annotated[
        str | None,
        typer.Option(
            "-o", "--output", metavar="FILE", help="Write to FILE, a file (default: stdout)."
        ),
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

    from gcadj.adjudication.verdict import internal_error_verdict
    from gcadj.app.fetch_log import fetch_log
    from gcadj.errors import FetchError, PageError

    refuse_folder("fetch", "-o", output)
    if output is not None and Path(output).exists() and not force:
        say(f"gcadj fetch: {output} exists; use --force to overwrite it", err=True)
        raise typer.Exit(EXIT_USAGE)
    install_fetcher(cache, no_cache, delay, timeout, retries, max_kb)
    try:
        fetched = fetch_log(url)
    except FetchError as err:
        say(f"gcadj fetch: {err}", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None
    except PageError as err:  # no move list
        say(f"gcadj fetch: {err}", err=True)
        raise typer.Exit(EXIT_SYNTAX) from None
    except Exception as err:  # a bug on this page: exit 5 naming it, never a traceback
        message = internal_error_verdict(url, err).error
        say(f"gcadj fetch: {message}; {INTERNAL_ERROR_HINT}", err=True)
        raise typer.Exit(EXIT_INTERNAL) from None
    for warning in fetched.warnings:
        say(f"gcadj fetch: warning: {warning}", err=True)
    text = fetched.text
    if output is None:
        typer.echo(text, nl=False)
        return
    write_output("fetch", output, text, force)
