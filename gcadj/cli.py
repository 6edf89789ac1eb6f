"""The `gcadj` command line: thin typer commands that wire the library and render results.

Every command imports what it needs inside its body, so `gcadj --help` and `gcadj check`
on one small game do not pay for requests, beautifulsoup4 or the SVG code. Data goes to
stdout; diagnostics, warnings and progress bars go to stderr. This module is the one
place that turns results into exit codes (see `EXIT_*` and the README).
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from gcadj import __version__

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_USAGE = 2
EXIT_SYNTAX = 3
EXIT_UNREADABLE = 4

app = typer.Typer(
    name="gcadj",
    help="Adjudicate Game Courier games of Pocket Mutation Chess.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gcadj {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Adjudicate Game Courier games of Pocket Mutation Chess."""


@app.command()
def perft(
    fen: Annotated[str, typer.Argument(help="A gcadj FEN, or 'startpos'.")],
    depth: Annotated[int, typer.Argument(min=0, help="Depth in plies.")],
    divide: Annotated[
        bool, typer.Option("--divide", help="Print each root move with its count first.")
    ] = False,
) -> None:
    """Count the leaf nodes of the legal move tree (the last line is the total)."""
    from gcadj.fen import FenError
    from gcadj.position import Position

    try:
        position = Position(fen)
    except FenError as err:
        typer.echo(f"gcadj perft: {err}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    if divide and depth > 0:
        total = 0
        for move, count in sorted(position.divide(depth), key=lambda mc: mc[0].uci()):
            typer.echo(f"{move.uci()}: {count}")
            total += count
        typer.echo(str(total))
    else:
        typer.echo(str(position.perft(depth)))


STATUS_EXIT = {
    "legal": EXIT_OK,
    "illegal": EXIT_ILLEGAL,
    "syntax-error": EXIT_SYNTAX,
    "error": EXIT_UNREADABLE,
}

CHECK_EPILOG = (
    "Exit codes: 0 every source legal; 1 some illegal move found; 3 some source could not be "
    "parsed; 4 some source could not be read; 2 usage. When several apply, the highest wins."
)


@app.command(epilog=CHECK_EPILOG)
def check(
    sources: Annotated[
        list[str], typer.Argument(help="Game logs: files, or '-' for standard input.")
    ],
    json_lines: Annotated[
        bool, typer.Option("--json", help="One JSON object per source per line.")
    ] = False,
    all_findings: Annotated[
        bool,
        typer.Option("--all", help="Go on after an illegal ply and report every one."),
    ] = False,
    fen: Annotated[
        str | None,
        typer.Option(
            "--fen", help="Start position (default: the log's FEN tag, else the standard array)."
        ),
    ] = None,
    pocket_file: Annotated[
        str,
        typer.Option("--pocket-file", help="Letter of the pocket file: i (i1/i8) or p (p1/p8)."),
    ] = "i",
) -> None:
    """Replay each game: report its first illegal move, or how it ended."""
    from gcadj.report import render_verdict
    from gcadj.verdict import check_source

    worst = EXIT_OK
    for spec in sources:
        verdict = check_source(spec, fen=fen, pocket_file=pocket_file, all_findings=all_findings)
        if json_lines:
            import json

            typer.echo(json.dumps(verdict.to_json(), ensure_ascii=False))
        else:
            typer.echo(render_verdict(verdict))
        worst = max(worst, STATUS_EXIT[verdict.status])
    raise typer.Exit(worst)


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
    "--force); 3 the source could not be parsed; 4 the source could not be read."
)


def _fail(command: str, message: str, code: int) -> typer.Exit:
    typer.echo(f"gcadj {command}: {message}", err=True)
    return typer.Exit(code)


def _check_pocket_file(command: str, pocket_file: str) -> None:
    if len(pocket_file) != 1 or not "i" <= pocket_file <= "z":
        raise _fail(
            command,
            f"--pocket-file must be one letter from i to z, not {pocket_file!r}",
            EXIT_USAGE,
        )


def _write_new_file(path: str, text: str, force: bool) -> None:
    """Write `text` to `path`; an existing file is replaced only with `force`, atomically."""
    import os
    import tempfile
    from pathlib import Path

    target = Path(path)
    try:
        if not force:
            with target.open("x", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
            return
        if target.exists():
            mode = target.stat().st_mode & 0o7777
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
            os.chmod(temp, mode)  # keep the replaced file's mode (mkstemp makes it 0600)
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    except FileExistsError:
        raise _fail("export", f"{path} exists; use --force to overwrite it", EXIT_USAGE) from None
    except OSError as err:
        raise _fail("export", f"cannot write {path}: {err.strerror or err}", EXIT_USAGE) from None


@app.command(epilog=EXPORT_EPILOG)
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
    fen: Annotated[
        str | None,
        typer.Option(
            "--fen",
            help="Start position, gcadj FEN or Game Courier code "
            "(default: the log's FEN tag, else the standard array).",
        ),
    ] = None,
    pocket_file: Annotated[
        str,
        typer.Option("--pocket-file", help="Letter of the pocket file: i (i1/i8) or p (p1/p8)."),
    ] = "i",
) -> None:
    """Convert a game: PGN-like text, Game Courier text, FEN, JSON or an SVG diagram."""
    from gcadj.export import ExportError, export_game
    from gcadj.verdict import check_source

    _check_pocket_file("export", pocket_file)
    verdict = check_source(source, fen=fen, pocket_file=pocket_file)
    if verdict.status in ("syntax-error", "error"):
        typer.echo(verdict.error or f"{source}: {verdict.status}", err=True)
        raise typer.Exit(STATUS_EXIT[verdict.status])
    try:
        text = export_game(verdict, to.value, ply=ply)
    except ExportError as err:
        raise _fail("export", str(err), EXIT_USAGE) from None
    if verdict.first_illegal is not None:
        bad = verdict.first_illegal
        typer.echo(
            f"gcadj export: note: {verdict.source}: ply {bad.ply} ({bad.text!r}) is illegal "
            f"[{bad.category}]; the export shows the game up to it",
            err=True,
        )
    if output is None:
        typer.echo(text, nl=False)
    else:
        _write_new_file(output, text, force)


class Turn(str, Enum):
    w = "w"
    b = "b"


FEN_EPILOG = (
    "A Game Courier code holds only the board (ninth file included: i8 ends the first rank, "
    "i1 the last, '-' for the cells i2-i7 that do not exist). --from-gc assumes what the "
    "code cannot say: the side to move from --turn (default w), no en passant, halfmove "
    "clock 0, move 1; a code followed by FEN fields ('CODE b - - 0 12') keeps them. "
    "Exit codes: 0 converted; 2 usage or a bad code/FEN (the message names the column)."
)


@app.command(name="fen", epilog=FEN_EPILOG)
def fen_command(
    from_gc: Annotated[
        str | None,
        typer.Option(
            "--from-gc", metavar="CODE", help="Print gcadj's FEN for a Game Courier code."
        ),
    ] = None,
    to_gc: Annotated[
        str | None,
        typer.Option("--to-gc", metavar="FEN", help="Print the Game Courier code of a gcadj FEN."),
    ] = None,
    turn: Annotated[
        Turn | None, typer.Option("--turn", help="--from-gc: the side to move (default w).")
    ] = None,
) -> None:
    """Convert between gcadj's FEN and Game Courier's position code."""
    from gcadj.fen import FenError
    from gcadj.gccode import fen_to_gc_code, gc_code_to_fen

    if (from_gc is None) == (to_gc is None):
        raise _fail("fen", "give exactly one of --from-gc CODE and --to-gc FEN", EXIT_USAGE)
    try:
        if from_gc is not None:
            result = gc_code_to_fen(from_gc, turn=(turn or Turn.w).value)
        else:
            if turn is not None:
                raise _fail("fen", "--turn applies to --from-gc only", EXIT_USAGE)
            assert to_gc is not None
            result = fen_to_gc_code(to_gc)
    except FenError as err:
        raise _fail("fen", str(err), EXIT_USAGE) from None
    typer.echo(result)


def main() -> None:
    """Console-script entry point."""
    app()
