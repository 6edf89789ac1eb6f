"""`gcadj export`: a game converted to another format."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from gcadj.cli.options import (
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_UNREADABLE,
    EXIT_USAGE,
    INTERNAL_ERROR_HINT,
    STATUS_EXIT,
    CacheOption,
    DelayOption,
    FenOption,
    MaxSizeOption,
    NoCacheOption,
    PocketFileOption,
    QuietOption,
    RetriesOption,
    TimeoutOption,
    VerboseOption,
    check_options,
    fail,
    fetch_settings_of,
    number_parser,
    refuse_folder,
    report_problems,
    write_output,
)
from gcadj.cli.streams import say
from gcadj.vocabulary import PocketFile
from gcadj.words import plural

if TYPE_CHECKING:
    from gcadj.adjudication.verdict import Verdict


class ExportFormat(str, Enum):
    pgn = "pgn"
    gc = "gc"
    fen = "fen"
    json = "json"
    svg = "svg"
    html = "html"


EXPORT_EPILOG = (
    "Formats: pgn (PGN-like text, SAN with I@c4 drops and Rh1@=I pocketing), gc (a clean "
    "Game Courier move list), fen (the start and the position after each ply), json (every "
    "ply with its notations, FEN and finding, plus the verdict), svg (a diagram), html (a "
    "self-contained game viewer page; open it in a browser, #ply=N opens ply N). An illegal "
    "game is converted too, up to and including its first illegal ply (noted on stderr); the "
    "viewer also shows the readable plies before an unreadable one. "
    "--fix (with --to gc) replaces each illegal ply by its one strong suggestion (same "
    "origin and destination; only a label, the en passant removal or a letter's case "
    "differ) with a '// gcadj: was ...' note, and stops at the first illegal ply that has "
    "none (said on stderr). "
    "Several sources (files, folders, URLs, an audit's .jsonl) make one PGN database with "
    "--to pgn; the other formats take one game. "
    "Exit codes: 0 written; 2 usage (bad option, --ply out of range, several games for a "
    "one-game format, FILE exists without --force, FILE is a folder, -o naming a source "
    "without --force); 3 a game could not be parsed; 4 a source could not be read (or is "
    "empty); 5 gcadj failed on a source (an internal error: a bug, please report it). A "
    "database is written with the games that could be read, and the exit code says some "
    "could not."
)


def export(
    to: Annotated[ExportFormat, typer.Option("--to", case_sensitive=False, help="Output format.")],
    sources: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="SOURCES...",
            help="Games: files, folders, URLs, an audit's .jsonl, or '-' for standard input "
            "(read when none is named and it is not a terminal).",
        ),
    ] = None,
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
    to_pocket_file: Annotated[
        str | None,
        typer.Option(
            "--to-pocket-file",
            metavar="LETTER",
            help="gc: write the log for the preset whose pockets are on this file "
            "(p: p1/p8, i: i1/i8).",
        ),
    ] = None,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
    cache: CacheOption = None,
    no_cache: NoCacheOption = False,
    delay: DelayOption = None,
    timeout: TimeoutOption = None,
    retries: RetriesOption = None,
    max_kb: MaxSizeOption = None,
) -> None:
    """Convert games: PGN-like text (one or many games), Game Courier text, FEN, JSON, SVG
    or an HTML viewer."""
    import sys

    from gcadj.adjudication.verdict import internal_error_verdict
    from gcadj.app.fetching import fetch_settings
    from gcadj.app.pipeline import JudgeOptions, judge_source
    from gcadj.errors import ExportError
    from gcadj.outputs.export import export_games, export_writer, text_writer
    from gcadj.sources.walk import SourceWalker

    sources = sources or []  # the command line gives at least one (see gcadj.cli.habits)
    letter = check_options("export", pocket_file, fen)
    refuse_folder("export", "-o", output)
    target = None if to_pocket_file is None else PocketFile.read(to_pocket_file)
    if to_pocket_file is not None and target is None:
        message = f"--to-pocket-file must be one letter from i to z, not {to_pocket_file!r}"
        raise fail("export", message, EXIT_USAGE)
    if fix and to is not ExportFormat.gc:
        raise fail("export", f"--fix applies to --to gc only, not {to.value}", EXIT_USAGE)
    if len(sources) > 1 and to is not ExportFormat.pgn:
        message = f"--to {to.value} writes one game; --to pgn writes several as one PGN database"
        raise fail("export", message, EXIT_USAGE)
    if output is not None and not force and any(_same_file(s, output) for s in sources):
        message = f"-o {output} is the source itself; use --force to overwrite it"
        raise fail("export", message, EXIT_USAGE)
    walker = SourceWalker(tuple(sources))
    worst = EXIT_OK
    games: list[Verdict] = []
    notes = []  # printed once the export is known to be possible
    judge = JudgeOptions(fen=fen, pocket_file=letter)
    fetching = fetch_settings(fetch_settings_of(cache, no_cache, delay, timeout, retries, max_kb))
    for spec in _within(fetching, walker):
        # never raises: a bad source, or a bug on one, is that source's verdict
        for verdict in judge_source(spec, judge):
            # a game read up to an unreadable ply is exported up to it (its legal prefix)
            if verdict.partial:
                if not quiet:  # -q drops notes (the export itself says where it stops)
                    notes.append(
                        f"gcadj export: note: {verdict.source}: ply {verdict.legal_plies + 1} "
                        f"could not be read; the export holds the {verdict.legal_plies} legal "
                        "plies before it"
                    )
            elif verdict.status in ("syntax-error", "error"):
                say(verdict.error or f"{verdict.source}: {verdict.status}", err=True)
                if verdict.outcome == "internal-error":
                    say(f"gcadj export: {INTERNAL_ERROR_HINT}", err=True)
                worst = max(worst, STATUS_EXIT[verdict.outcome])
                continue
            games.append(verdict)
            bad = verdict.first_illegal
            if bad is not None and not quiet and not fix:
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
    if fix and len(games) > 1:
        raise fail("export", "--fix takes one game", EXIT_USAGE)
    try:
        if fix:
            text = _fixed_text(games[0], fen)
            writer = text_writer(text)
        elif to is ExportFormat.html:
            from gcadj.outputs.viewer import write_viewer

            if ply is not None:
                raise ExportError("--ply applies to fen and svg only; open the viewer at #ply=N")
            writer = text_writer(write_viewer(games[0]))
        elif len(games) == 1:  # streamed: a long game is never held whole as JSON text
            writer = export_writer(games[0], to.value, ply=ply, to_pocket_file=target)
        else:
            writer = text_writer(export_games(games, to.value, ply=ply, to_pocket_file=target))
        for note in notes:
            say(note, err=True)
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
        problem = internal_error_verdict(games[0].source, err).error
        raise fail("export", f"{problem}; {INTERNAL_ERROR_HINT}", EXIT_INTERNAL) from None
    if verbose:
        where = output or "standard output"
        say(f"gcadj export: wrote {plural(len(games), 'game')} to {where}", err=True)
    raise typer.Exit(worst)


def _within(context: AbstractContextManager[None], items: Iterable[str]) -> Iterator[str]:
    """`items`, read inside `context` (the command's fetch settings apply to each URL)."""
    with context:
        yield from items


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
        say(
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
        say(
            f"gcadj export: {verdict.source}: stopped at ply {stop.ply} ({stop.text!r}, "
            f"[{stop.category}]): {why}; it and the plies after it are kept as typed",
            err=True,
        )
    return write_fixed_gc(fixed)
