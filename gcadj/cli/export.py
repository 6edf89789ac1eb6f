"""`gcadj export`: a game converted to another format."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from gcadj.cli.options import (
    EXIT_OK,
    EXIT_UNREADABLE,
    EXIT_USAGE,
    STATUS_EXIT,
    FenOption,
    PocketFileOption,
    QuietOption,
    VerboseOption,
    check_options,
    fail,
    number_parser,
    refuse_folder,
    report_problems,
    write_output,
)
from gcadj.words import plural


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
    "Several sources (files, folders, URLs, an audit's .jsonl) make one PGN database with "
    "--to pgn; the other formats take one game. "
    "Exit codes: 0 written; 2 usage (bad option, --ply out of range, several games for a "
    "one-game format, FILE exists without --force, FILE is a folder); 3 a game could not be "
    "parsed; 4 a source could not be read. A database is written with the games that could "
    "be read, and the exit code says some could not."
)


def export(
    sources: Annotated[
        list[str],
        typer.Argument(
            metavar="SOURCES...",
            help="Games: files, folders, URLs, an audit's .jsonl, or '-' for standard input.",
        ),
    ],
    to: Annotated[ExportFormat, typer.Option("--to", help="Output format.")],
    output: Annotated[
        str | None,
        typer.Option(
            "-o", "--output", metavar="FILE", help="Write to FILE (a file, not a folder)."
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Let -o overwrite an existing FILE.")
    ] = False,
    ply: Annotated[
        int | None,
        typer.Option(
            "--ply",
            parser=number_parser("--ply", 0),
            metavar="N",
            help="fen/svg: only the position after N plies (0 = the start; "
            "default for svg: the last legal position).",
        ),
    ] = None,
    fen: FenOption = None,
    pocket_file: PocketFileOption = "i",
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Convert games: PGN-like text (one or many games), Game Courier text, FEN, JSON, SVG."""
    from gcadj.app.check import check_source_games
    from gcadj.outputs.export import ExportError, export_games
    from gcadj.sources.walk import SourceWalker

    check_options("export", pocket_file, fen)
    refuse_folder("export", "-o", output)
    if len(sources) > 1 and to is not ExportFormat.pgn:
        message = f"--to {to.value} writes one game; --to pgn writes several as one PGN database"
        raise fail("export", message, EXIT_USAGE)
    walker = SourceWalker(tuple(sources))
    worst = EXIT_OK
    games = []
    notes = []  # printed once the export is known to be possible
    for spec in walker:
        for verdict in check_source_games(spec, fen=fen, pocket_file=pocket_file):
            if verdict.status in ("syntax-error", "error"):
                typer.echo(verdict.error or f"{verdict.source}: {verdict.status}", err=True)
                worst = max(worst, STATUS_EXIT[verdict.status])
                continue
            games.append(verdict)
            bad = verdict.first_illegal
            if bad is not None and not quiet:
                notes.append(
                    f"gcadj export: note: {verdict.source}: ply {bad.ply} ({bad.text!r}) is "
                    f"illegal [{bad.category}]; the export shows the game up to it"
                )
            elif verbose:
                notes.append(
                    f"gcadj export: {verdict.source}: {verdict.status}, "
                    f"{plural(verdict.plies, 'ply')}"
                )
    worst = max(worst, report_problems("export", walker.problems))
    if not games:
        raise typer.Exit(worst or EXIT_UNREADABLE)
    try:
        text = export_games(games, to.value, ply=ply)
    except ExportError as err:
        raise fail("export", str(err), EXIT_USAGE) from None
    for note in notes:
        typer.echo(note, err=True)
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_output("export", output, text, force)
    if verbose:
        where = output or "standard output"
        typer.echo(f"gcadj export: wrote {plural(len(games), 'game')} to {where}", err=True)
    raise typer.Exit(worst)
