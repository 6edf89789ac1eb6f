"""Tag pairs (``[White "Alice"]``): the one reading shared by the readers of PGN and of the
headers of Game Courier logs.

A tag pair is what ``grammars/gamecourier.lark`` calls ``tag``: ``[``, a name (a letter,
then letters, digits and ``_``), a value in double quotes with PGN's escapes ``\\"`` and
``\\\\``, ``]``; spaces, tabs and no-break spaces may stand between them and around the
line. PGN's own tag pairs (its "tag section") are the same text, so one expression reads
both, and gcadj never reads a header two ways.

Besides reading a whole tag line (`tag_pair`), a reader of several games must know where
a new tag section *begins* even when the line is broken (``[Event "no closing quote``): a
line that starts like a tag pair, ``[Name "``, does (`starts_like_tag`). A line that starts
with ``[`` but not like that is no tag at all (a stray ``[``).
"""

from __future__ import annotations

import re
from typing import Final

from gcadj.notation.language import unescape_tag_value
from gcadj.notation.lexicon import LINE_SPACE_CLASS

__all__ = [
    "TAG_NAME",
    "TAG_START",
    "starts_like_tag",
    "tag_pair",
    "tag_pairs",
    "tag_value_column",
    "unescape_tag_value",
]

_WS: Final = LINE_SPACE_CLASS
TAG_NAME: Final = "[A-Za-z][A-Za-z0-9_]*"
"""The grammar's TAG_NAME terminal."""

_VALUE: Final = r'"(?:[^"\\\r\n]|\\[^\r\n])*"'  # the grammar's STRING terminal

_TAG_PAIR: Final = re.compile(rf"{_WS}*\[{_WS}*({TAG_NAME}){_WS}*({_VALUE}){_WS}*\]{_WS}*")

TAG_START: Final = re.compile(rf'{_WS}*\[{_WS}*({TAG_NAME}){_WS}*"')
"""A line that begins like a tag pair: ``[``, a name (group 1), an opening quote (``match``
it at the start of a line)."""


def tag_pair(line: str) -> tuple[str, str] | None:
    """(name, value) of a whole tag line like ``[White "Alice"]``, value unescaped; else None."""
    match = _TAG_PAIR.fullmatch(line)
    return None if match is None else (match[1], unescape_tag_value(match[2]))


def tag_pairs(line: str) -> list[tuple[str, str, int]] | None:
    """Every tag pair of a line that holds one or more of them, side by side
    (``[Event "x"] [Site "y"]``, as some PGN writers put them): (name, value unescaped,
    0-based index of the value's text in the line) of each; None when the line is not
    made of whole tag pairs. A Game Courier log has one tag a line (its grammar); PGN
    readers take several."""
    pairs = []
    offset = 0
    while offset < len(line):
        match = _TAG_PAIR.match(line, offset)
        if match is None or match.end() == offset:
            return None
        pairs.append((match[1], unescape_tag_value(match[2]), match.start(2) + 1))
        offset = match.end()
    return pairs or None


def tag_value_column(line: str) -> int:
    """The 0-based index in a tag line where its value's text starts (after the quote);
    0 if the line is no tag pair. Errors about a value point there."""
    match = _TAG_PAIR.fullmatch(line)
    return 0 if match is None else match.start(2) + 1


def starts_like_tag(line: str) -> bool:
    """Does this line begin a tag pair (``[Name "``), even a broken one?"""
    return TAG_START.match(line) is not None
