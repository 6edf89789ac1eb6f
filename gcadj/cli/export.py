"""`gcadj export`: a game converted to another format."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from gcadj.cli.options import (
    EXIT_USAGE,
    STATUS_EXIT,
    FenOption,
    PocketFileOption,
    check_options,
    fail,
    write_output,
)

if TYPE_CHECKING:
    from gcadj.adjudication.verdict import Verdict


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
    "--fix (with --to gc) replaces each illegal ply by its one strong suggestion (same "
    "origin and destination; only a label, the en passant removal or a letter's case "
    "differ) with a '// gcadj: was ...' note, and stops at the first illegal ply that has "
    "none (said on stderr). "
    "Exit codes: 0 written; 2 usage (bad option, --ply out of range, FILE exists without "
    "--force, -o naming the source without --force); 3 the source could not be parsed; "
    "4 the source could not be read."
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
    fix: Annotated[
        bool,
        typer.Option(
            "--fix",
            help="gc only: replace each illegal ply by its one strong suggestion, "
            "until a ply has none.",
        ),
    ] = False,
    fen: FenOption = None,
    pocket_file: PocketFileOption = "i",
) -> None:
    """Convert a game: PGN-like text, Game Courier text, FEN, JSON or an SVG diagram."""
    from gcadj.app.check import check_source
    from gcadj.outputs.export import ExportError, export_game

    check_options("export", pocket_file, fen)
    if fix and to is not ExportFormat.gc:
        raise fail("export", f"--fix applies to --to gc only, not {to.value}", EXIT_USAGE)
    if output is not None and not force and _same_file(source, output):
        message = f"-o {output} is the source itself; use --force to overwrite it"
        raise fail("export", message, EXIT_USAGE)
    verdict = check_source(source, fen=fen, pocket_file=pocket_file)
    if verdict.status in ("syntax-error", "error"):
        typer.echo(verdict.error or f"{source}: {verdict.status}", err=True)
        raise typer.Exit(STATUS_EXIT[verdict.status])
    if fix:
        text = _fixed_text(verdict, fen)
    else:
        try:
            text = export_game(verdict, to.value, ply=ply)
        except ExportError as err:
            raise fail("export", str(err), EXIT_USAGE) from None
    if not fix and verdict.first_illegal is not None:
        bad = verdict.first_illegal
        typer.echo(
            f"gcadj export: note: {verdict.source}: ply {bad.ply} ({bad.text!r}) is illegal "
            f"[{bad.category}]; the export shows the game up to it",
            err=True,
        )
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_output("export", output, text, force)


def _same_file(source: str, output: str) -> bool:
    """Does `-o` name the source file itself (through any path or link)?"""
    import os

    try:
        return source != "-" and os.path.samefile(source, output)
    except OSError:  # either does not exist (a URL, a new file): not the same file
        return False


def _fixed_text(verdict: Verdict, fen: str | None) -> str:
    """The corrected Game Courier list; what was replaced, and where fixing stopped, on
    stderr."""
    from gcadj.adjudication.fix import fix_log
    from gcadj.outputs.export import write_fixed_gc

    assert verdict.log is not None  # a parsed game
    fixed = fix_log(verdict.log, fen=fen)
    for f in fixed.fixes:
        typer.echo(
            f"gcadj export: {verdict.source}: ply {f.ply}: {f.typed!r} -> {f.text!r} ({f.why})",
            err=True,
        )
    stop = fixed.verdict.first_illegal
    if stop is not None:
        if stop.category == "after-game-end":
            why = "the game had already ended"
        elif stop.suggestions:
            why = "no single strong suggestion"
        else:
            why = "no close legal ply"
        typer.echo(
            f"gcadj export: {verdict.source}: stopped at ply {stop.ply} ({stop.text!r}, "
            f"[{stop.category}]): {why}; it and the plies after it are kept as typed",
            err=True,
        )
    return write_fixed_gc(fixed)
