"""Which kind of text a source holds, and the reader that turns it into a `GameLog`.

gcadj reads Game Courier move lists (its main input), and also its own exports and
saved pages, so that a converted game can be read back and checked again. Detection
looks at the text only, never at a file name, so standard input works the same way.
Each format's reader is imported only when that format is seen (start-up stays fast).
"""

from __future__ import annotations

from gcadj.parse import parse_log
from gcadj.records import GameLog

GAME_COURIER = "gamecourier"


def detect_format(text: str) -> str:
    """The name of the format of `text` (one of the module constants)."""
    return GAME_COURIER


def parse_game_text(text: str, source: str = "<string>", pocket_file: str = "i") -> GameLog:
    """Read a game in any supported format; raises `LogSyntaxError` for text that is none."""
    return parse_log(text, source=source, pocket_file=pocket_file)
