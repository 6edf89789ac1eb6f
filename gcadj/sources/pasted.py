"""A log pasted as people paste it: a line or two of talk before the moves ("Some forum
post:", "Hi Bob, here is our game"), and after them ("Thanks, Alice"), as a forum post or
an e-mail holds them.

Such lines are no plies and no part of the game, so they are skipped, and a note names
each one, as the reader of a copied Game Courier page does for the text around its moves
(`gcadj.sources.pages.copied`). Only the lines **before the first line and after the last
line that could be part of a log** are skipped, and only lines that hold nothing like a
square (a letter followed by a digit: ``e4``, ``p1``): a line inside the moves, or one
that looks like a ply with a typo (``P e4 e5``), stays a syntax error, never skipped
silently. Skipped lines are blanked, not removed, so every line and column said about the
game is the pasted text's own.
"""

from __future__ import annotations

import re
from typing import Final

from gcadj.sources.pages.movelist import could_be_log_line

_SQUARE_LIKE: Final = re.compile(r"[A-Za-z][0-9]")
_WORDS: Final = re.compile(r"[^\W\d_][^\W\d_]{2,}")  # a word of three letters or more
_PROSE: Final = re.compile(r"[^\W\d_]")  # talk starts with a letter...
_RULE: Final = re.compile(r"[-=_~]{2,}")  # ...or is a rule, as a signature's "--"
SHOWN: Final = 60  # characters of a skipped line its note shows


def is_talk(line: str) -> bool:
    """Is this line talk around a log? Not blank, nothing a log could hold, nothing like a
    square, and prose (it starts with a letter and holds a word of three letters or more:
    "Thanks, Alice"), or a rule (``--``). A result (``1-0``), castling (``O-O``), a line
    starting with ``#`` are slips gcadj has a hint for: never talk."""
    stripped = line.strip()
    if not stripped or could_be_log_line(stripped) or _SQUARE_LIKE.search(stripped):
        return False
    if _RULE.fullmatch(stripped):
        return True
    return _PROSE.match(stripped) is not None and _WORDS.search(stripped) is not None


def without_talk(text: str) -> tuple[str, str] | None:
    """`text` with the talk before and after its log blanked (see the module docstring),
    and the note naming each line skipped; None when there is none to skip."""
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip() and not is_talk(line)), None)
    if first is None:
        return None  # no line of a log at all: nothing is skipped, the error stands
    last = max(i for i, line in enumerate(lines) if line.strip() and not is_talk(line))
    skipped = [i for i in range(len(lines)) if (i < first or i > last) and is_talk(lines[i])]
    if not skipped:
        return None
    for i in skipped:
        lines[i] = ""
    return "\n".join(lines), note(text.split("\n"), skipped)


def note(lines: list[str], skipped: list[int]) -> str:
    """``skipped 2 lines that are no moves: line 1 ('Some forum post:'), line 6 (...)``."""
    shown = []
    for i in skipped:
        line = lines[i].strip()
        if len(line) > SHOWN:
            line = line[: SHOWN - 1] + "…"
        shown.append(f"line {i + 1} ({line!r})")
    count = "1 line" if len(skipped) == 1 else f"{len(skipped)} lines"
    return f"skipped {count} before or after the moves, which are no moves: {', '.join(shown)}"


__all__ = ["is_talk", "note", "without_talk"]
