"""The small facts of game text that several readers share, each written here once: white
space, how chess programs mark a move (check, mate, ``!?``), chess's castling and promotion
as PGN writes them, the result tokens, and the names of the formats a source may be in.

Each reader used to keep its own copy (the white space set stood in six modules, castling
and promotion in two, the result tokens in three) and copies drift: a tab accepted by one
reader and not the next is a bug nobody sees until a log has one. The grammar
(``grammars/gamecourier.lark``) stays the one definition of the Game Courier log itself;
`LINE_SPACE` is its ``WS`` terminal as characters, and tests/notation/test_parse_grammar.py
checks the two agree.

It imports nothing of gcadj but the vocabulary, so every reader (notation, sources) can
use it.
"""

from __future__ import annotations

import re
from typing import Final

from gcadj.vocabulary import RESULT_SPELLINGS, Word

__all__ = [
    "ALL_SPACE",
    "BYTE_ORDER_MARK",
    "CASTLING",
    "CASTLING_MOVE",
    "LINE_SPACE",
    "LINE_SPACE_CLASS",
    "LOOSE_MARKS",
    "MARKS",
    "MOVE_NUMBER",
    "PROMOTION",
    "RESULT_TOKEN",
    "SourceFormat",
    "promotion_suffix",
]

# -- move numbers ------------------------------------------------------------------------

MOVE_NUMBER: Final = r"[0-9]+\.(?:\.\.)?"
"""A move number before a ply, as logs and PGN write it: ``12.`` (White's) or ``12...``
(Black's), as a pattern for the readers' expressions."""

# -- white space -------------------------------------------------------------------------

LINE_SPACE: Final = " \t\u00a0"
"""The white space that may stand between the words of a line of Game Courier text (and
of a tag pair, and of PGN): space, tab and the no-break space pasted from web pages. The
grammar's ignored ``WS`` terminal, as characters."""

LINE_SPACE_CLASS: Final = "[ \t\u00a0]"
"""`LINE_SPACE` as a regular-expression character class."""

ALL_SPACE: Final = " \t\u00a0\r\n\f\v"
"""Every white space character a text lays its lines out with: `LINE_SPACE`, the line
breaks, form feed and vertical tab."""

BYTE_ORDER_MARK: Final = "\ufeff"
"""What some editors put before a file's first character; never part of a game."""

# -- chess's notation, as PGN and other programs write it ----------------------------------

MARKS: Final = r"(?:\+\+?|\#)?(?:[!?]{1,2})?"
"""What PGN lets follow a move: a check or mate mark (``+``, ``++``, ``#``), then an
annotation of one or two of ``!`` and ``?``."""

LOOSE_MARKS: Final = r"[+#!?]*"
"""Any run of those marks, in any order: what the hints recognise a move by, as people
type them (``Nf3+!!?``), where a reader would refuse."""

CASTLING_MOVE: Final = r"[O0]-[O0](?:-[O0])?"
"""Chess's castling: ``O-O`` or ``O-O-O``, with the letter O or the digit 0."""

CASTLING: Final = re.compile(rf"({CASTLING_MOVE}){MARKS}")
"""Castling as a PGN move (group 1: the move without its marks)."""


def promotion_suffix(letter: str) -> str:
    """How chess programs write the piece a Pawn promotes to after its move: ``=Q``, ``Q``,
    ``(Q)`` or ``=(Q)``, around `letter`, the caller's pattern (and group) for the letter."""
    return rf"=?\(?{letter}\)?"


PROMOTION: Final = re.compile(rf"([a-h](?:x[a-h])?[18]){promotion_suffix('([A-Z])')}{MARKS}")
"""Chess's promotion in SAN (group 1: the Pawn's arrival, ``e8`` or ``dxe8``; group 2: the
new piece's letter)."""

RESULT_TOKEN: Final = "|".join(
    re.escape(word) for word in sorted(RESULT_SPELLINGS, key=len, reverse=True)
)
"""Every spelling of a result gcadj reads (`gcadj.vocabulary.RESULT_SPELLINGS`), as one
alternation, the longest first."""

# -- the formats a source may be in --------------------------------------------------------


class SourceFormat(Word):
    """What a source's text is, as `gcadj.sources.formats.detect_format` tells from the text
    alone (never the file's name)."""

    GAME_COURIER = "gamecourier"  # a Game Courier move list (a copied viewing page too)
    HTML = "html"  # a saved or fetched Game Courier viewing page
    PGN = "pgn"  # PGN: tag pairs, then SAN movetext
    OWN_PAGE = "gcadj-page"  # an HTML page gcadj wrote: a viewer, a report
    OWN_JSON = "gcadj-json"  # gcadj's JSON about a game: its export, or verdicts
