"""`gcadj export`: games converted to another format.

A thin command: its options become one `ExportJob`, `gcadj.app.export.run_export` does the
work and gives the exit code. The formats (``--to``'s choices and the help's list of them)
come from the writers' registry (`gcadj.outputs.registry`), read only when ``export`` runs
or shows its help, so other commands do not pay for it.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from gcadj.app.exit_codes import EXIT_ILLEGAL, EXIT_OK, JUDGING_CODES, exit_codes_help
from gcadj.app.fetching import FetchSettings
from gcadj.cli.common_options import (
    ADJUDICATION_OPTIONS,
    ANALYSIS_OPTIONS,
    DEFAULT_MAX_BYTES,
    EXIT_USAGE,
    GIVEN_NONE,
    NO_STAGES,
    FenOption,
    MaxBytesOption,
    PocketFileOption,
    QuietOption,
    Stages,
    VerboseOption,
    check_options,
    fail,
    fetch_options,
    number_option,
    stage_options,
)
from gcadj.cli.streams import say
from gcadj.sources.walk import AUDIT_SUFFIX
from gcadj.vocabulary import PocketFile, not_a_pocket_file, presets_in_words


def format_name(value: str) -> str:
    """``--to``'s check: one of the registry's formats, in either case (exit 2 naming them
    otherwise)."""
    from gcadj.outputs.registry import writers

    names = list(writers())
    if value.lower() not in names:
        choices = ", ".join(repr(name) for name in names)
        raise typer.BadParameter(f"{value!r} is not one of {choices}.")
    return value.lower()


def format_names(incomplete: str) -> list[str]:
    """Shell completion for ``--to``."""
    from gcadj.outputs.registry import writers

    return [name for name in writers() if name.startswith(incomplete)]


EXPORT_EPILOG_TAIL = (
    "An illegal game is converted too: its legal plies in the format's notation, then its "
    "first illegal ply and every ply after it as typed, with gcadj's note (in the file and "
    "on stderr); a game that stops being readable keeps the unreadable ply and everything "
    "after it as typed, after a note. --adjudicate adjudicates each game as gcadj adjudicate "
    "does: the html viewer shows the adjudication and its lines, the json document's verdict "
    "carries it. --analyse analyses each game as gcadj analyse does: pgn marks each finding "
    "with a NAG ($4 a mate missed or allowed, $2 material lost), an evaluation comment "
    "([%eval #-1], [%eval 2.0] in class units) after every ply, the finding in a {gcadj: "
    "...} note and a line from before the ply as a variation; the html viewer marks the "
    "moves, steps each line and draws the balance; the json document carries it. "
    "--fix (with --to gc) replaces each illegal ply by its "
    "one strong suggestion (same origin and destination; only a label, the en passant "
    "removal or a letter's case differ) with a '// gcadj: was ...' note, and stops at the "
    "first illegal ply that has none (said on stderr). Sources: files, folders, URLs, an "
    f"audit's {AUDIT_SUFFIX}. Several games are written with the games that could be read, "
    "and the exit code says some could not. "
    + exit_codes_help(
        set(JUDGING_CODES) - {EXIT_ILLEGAL},
        said={EXIT_OK: "written"},
        more={
            EXIT_USAGE: "--ply out of range, several games for a one-game format, FILE "
            "exists without --force, FILE is a folder, -o naming a source without --force"
        },
    )
)


def export_short_help() -> str:
    """The line of ``gcadj --help``: every format, from the registry."""
    from gcadj.outputs.registry import formats_in_words

    return f"Convert games to {formats_in_words()}."


def export_epilog() -> str:
    """The help's closing paragraph: every format with its line, from the registry."""
    from gcadj.outputs.registry import writers

    formats = "; ".join(
        f"{w.name} ({w.help}{f'; several games: {w.several}' if w.many else ''})"
        for w in writers().values()
    )
    return f"Formats: {formats}. {EXPORT_EPILOG_TAIL}"


@fetch_options
@stage_options("export", ADJUDICATION_OPTIONS, ANALYSIS_OPTIONS)
def export(
    ctx: typer.Context,
    to: Annotated[
        str,
        typer.Option(
            "--to",
            metavar="FORMAT",
            callback=format_name,
            autocompletion=format_names,
            help="Output format (either case): one of those listed below.",
        ),
    ],
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
        number_option(
            "--ply",
            metavar="N",
            minimum=0,
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
    pocket_file: PocketFileOption = None,
    to_pocket_file: Annotated[
        str | None,
        typer.Option(
            "--to-pocket-file",
            metavar="LETTER",
            help="gc: write the log for the preset whose pockets are on this file "
            f"({presets_in_words()}).",
        ),
    ] = None,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
    fetch: FetchSettings = GIVEN_NONE,
    max_bytes: MaxBytesOption = DEFAULT_MAX_BYTES,
    stages: Stages = NO_STAGES,
) -> None:
    """Convert games to another format (the formats are listed below)."""
    from gcadj.app.export import ExportJob, run_export
    from gcadj.app.fetching import fetch_settings
    from gcadj.app.pipeline import JudgeOptions
    from gcadj.outputs.registry import ExportOptions

    letter = check_options("export", pocket_file, fen)
    job = ExportJob(
        sources=tuple(sources or ()),  # the command line gives one at least (gcadj.cli.habits)
        to=to,
        output=output,
        force=force,
        judge=JudgeOptions(fen=fen, pocket_file=letter, max_bytes=max_bytes, **stages()),
        options=ExportOptions(ply=ply, to_pocket_file=_target_file(to_pocket_file), fix=fix),
        quiet=quiet,
        verbose=verbose,
    )
    with fetch_settings(fetch):  # applied when a URL source is first read
        code = run_export(job, out=sys.stdout, say=lambda line: say(line, err=True))
    raise typer.Exit(code)


def _target_file(to_pocket_file: str | None) -> PocketFile | None:
    """``--to-pocket-file`` as a `PocketFile`; a usage error (exit 2) for a bad one."""
    target = None if to_pocket_file is None else PocketFile.read(to_pocket_file)
    if to_pocket_file is not None and target is None:
        message = not_a_pocket_file("--to-pocket-file", to_pocket_file)
        raise fail("export", message, EXIT_USAGE)
    return target
