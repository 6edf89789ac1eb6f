"""`gcadj export`: a game converted to another format."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from gcadj.cli.options import (
    EXIT_INTERNAL,
    EXIT_USAGE,
    INTERNAL_ERROR_HINT,
    STATUS_EXIT,
    FenOption,
    PocketFileOption,
    check_options,
    fail,
    write_output,
)


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
    "--force); 3 the source could not be parsed; 4 the source could not be read (or is "
    "empty); 5 gcadj failed on the source (an internal error: a bug, please report it)."
)


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
    import sys

    from gcadj.adjudication.verdict import internal_error_verdict
    from gcadj.app.check import check_source
    from gcadj.outputs.export import ExportError, export_writer

    check_options("export", pocket_file, fen)
    verdict = check_source(source, fen=fen, pocket_file=pocket_file)  # never raises
    if verdict.status in ("syntax-error", "error"):
        typer.echo(verdict.error or f"{source}: {verdict.status}", err=True)
        if verdict.outcome == "internal-error":
            typer.echo(f"gcadj export: {INTERNAL_ERROR_HINT}", err=True)
        raise typer.Exit(STATUS_EXIT[verdict.outcome])
    try:
        writer = export_writer(verdict, to.value, ply=ply)
        if verdict.first_illegal is not None:
            bad = verdict.first_illegal
            typer.echo(
                f"gcadj export: note: {verdict.source}: ply {bad.ply} ({bad.text!r}) is illegal "
                f"[{bad.category}]; the export shows the game up to it",
                err=True,
            )
        if output is None:
            writer(sys.stdout)
            sys.stdout.flush()
        else:
            write_output("export", output, writer, force)
    except ExportError as err:
        raise fail("export", str(err), EXIT_USAGE) from None
    except typer.Exit:  # click's Exit is a RuntimeError: not a bug
        raise
    except Exception as err:  # a bug while converting: exit 5, never a traceback
        message = internal_error_verdict(verdict.source, err).error
        raise fail("export", f"{message}; {INTERNAL_ERROR_HINT}", EXIT_INTERNAL) from None
