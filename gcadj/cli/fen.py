"""`gcadj fen`: gcadj's FEN to and from Game Courier's position code."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from gcadj.app.exit_codes import EXIT_CANNOT_WRITE, EXIT_OK, EXIT_READER_GONE, exit_codes_help
from gcadj.cli.common_options import (
    EXIT_USAGE,
    check_options,
    fail,
)
from gcadj.vocabulary import DEFAULT_POCKET_FILE, POCKET_LETTERS, presets_in_words

# fen reads no log, so its --pocket-file says only what it does here (not the shared
# wording, which speaks of a log's PocketFile tag).
FenPocketFileOption = Annotated[
    str,
    typer.Option(
        "--pocket-file",
        metavar="LETTER",
        help=f"The file of the pockets, {POCKET_LETTERS} ({presets_in_words()}): how "
        "messages name the pocket cells.",
    ),
]


class Turn(str, Enum):
    w = "w"
    b = "b"


FEN_EPILOG = (
    "A Game Courier code holds only the board (ninth file included: i8 ends the first rank, "
    "i1 the last, '-' for the cells i2-i7 that do not exist). The ninth file is the pocket "
    "file whatever its letter, so a position has the same code on both presets; "
    "--pocket-file p names the cells p1-p8 in messages. --to-gc takes a gcadj FEN or "
    "'startpos'. --from-gc assumes what the "
    "code cannot say: the side to move from --turn (default w), no en passant, halfmove "
    "clock 0, move 1; a code followed by FEN fields ('CODE b - - 0 12') keeps them. "
    + exit_codes_help(
        (EXIT_OK, EXIT_USAGE, EXIT_CANNOT_WRITE, EXIT_READER_GONE),
        said={EXIT_OK: "converted"},
        more={EXIT_USAGE: "or a bad code or FEN: the message names its column"},
        several=False,
    )
)


def fen_command(
    from_gc: Annotated[
        str | None,
        typer.Option(
            "--from-gc",
            metavar="CODE",
            help="Print gcadj's FEN for a Game Courier code ('-': read it from stdin).",
        ),
    ] = None,
    to_gc: Annotated[
        str | None,
        typer.Option(
            "--to-gc",
            metavar="FEN",
            help="Print the Game Courier code of a gcadj FEN (or 'startpos'; '-': read it "
            "from stdin).",
        ),
    ] = None,
    turn: Annotated[
        Turn | None,
        typer.Option(
            "--turn", case_sensitive=False, help="--from-gc: the side to move (default w)."
        ),
    ] = None,
    pocket_file: FenPocketFileOption = DEFAULT_POCKET_FILE,
) -> None:
    """Convert between gcadj's FEN and Game Courier's position code."""
    from gcadj.errors import FenError
    from gcadj.notation.gccode import fen_to_gc_code, gc_code_to_fen

    if (from_gc is None) == (to_gc is None):
        raise fail("fen", "give exactly one of --from-gc CODE and --to-gc FEN", EXIT_USAGE)
    letter = check_options("fen", pocket_file) or DEFAULT_POCKET_FILE
    try:
        if from_gc is not None:
            result = gc_code_to_fen(from_gc, turn=(turn or Turn.w).value, pocket_file=letter)
        else:
            if turn is not None:
                raise fail("fen", "--turn applies to --from-gc only", EXIT_USAGE)
            assert to_gc is not None
            result = fen_to_gc_code(to_gc)
    except FenError as err:
        raise fail("fen", str(err), EXIT_USAGE) from None
    typer.echo(result)
