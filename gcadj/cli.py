"""The `gcadj` command line: thin typer commands that wire the library and render results.

Every command imports what it needs inside its body, so `gcadj --help` and `gcadj check`
on one small game do not pay for requests, beautifulsoup4 or the SVG code. Data goes to
stdout; diagnostics, warnings and progress bars go to stderr. This module is the one
place that turns results into exit codes (see `EXIT_*` and the README).
"""

from __future__ import annotations

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


def main() -> None:
    """Console-script entry point."""
    app()
