"""`gcadj perft`: count the legal move tree, to check the engine against others."""

from __future__ import annotations

from typing import Annotated

import typer

from gcadj.app.exit_codes import EXIT_CANNOT_WRITE, EXIT_OK, EXIT_READER_GONE, exit_codes_help
from gcadj.cli.common_options import (
    EXIT_USAGE,
    number_parser,
)
from gcadj.cli.streams import say

PERFT_EPILOG = exit_codes_help(
    (EXIT_OK, EXIT_USAGE, EXIT_CANNOT_WRITE, EXIT_READER_GONE),
    said={EXIT_OK: "counted"},
    more={EXIT_USAGE: "or a bad FEN"},
    several=False,
)


def perft(
    fen: Annotated[
        str,
        typer.Argument(
            metavar="FEN", help="A gcadj FEN, 'startpos', or '-' to read it from stdin."
        ),
    ],
    depth: Annotated[
        int,
        typer.Argument(metavar="DEPTH", parser=number_parser("DEPTH", 0), help="Depth in plies."),
    ],
    divide: Annotated[
        bool, typer.Option("--divide", help="Print each root move with its count first.")
    ] = False,
) -> None:
    """Count the leaf nodes of the legal move tree (the last line is the total)."""
    from gcadj.engine.position import Position
    from gcadj.errors import FenError

    try:
        position = Position(fen)
    except FenError as err:
        say(f"gcadj perft: {err}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    if divide and depth > 0:
        # Each root move's line as soon as it is counted, in the order of its UCI name: a
        # reader sees the first lines at once (and one that stops early stops gcadj).
        total = 0
        for move in sorted(position.legal_moves(), key=lambda move: move.uci()):
            position.push(move)
            count = position.perft(depth - 1)
            position.pop()
            typer.echo(f"{move.uci()}: {count}")
            total += count
        typer.echo(str(total))
    else:
        typer.echo(str(position.perft(depth)))
