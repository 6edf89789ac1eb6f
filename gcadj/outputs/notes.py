"""gcadj's own notes in what it writes: where a game went wrong, said the same way in every
format (a ``//`` comment in Game Courier text, a ``{}`` comment in PGN, a line on stderr).

Each note starts with ``gcadj:`` (`gcadj.notation.pgn.NOTE_MARK`): readers drop such
comments, and writers write them afresh, so a note never piles up over round trips.
"""

from __future__ import annotations

import re
from typing import Final

from gcadj.judging.verdict import Finding
from gcadj.notation.pgn import NOTE_MARK
from gcadj.notation.records import UnreadText
from gcadj.vocabulary import PocketFile, Side

__all__ = ["finding_note", "names_other_pockets", "unread_note"]


def _no_braces(text: str) -> str:
    """A note goes inside a PGN ``{}`` comment: no brace may end it early."""
    return text.replace("{", "(").replace("}", ")")


def finding_note(finding: Finding) -> str:
    """gcadj's note on an illegal ply."""
    dots = "." if finding.side == Side.WHITE else "..."
    return _no_braces(
        f"{NOTE_MARK} illegal ply {finding.ply} ({finding.move_number}{dots} {finding.text}) "
        f"[{finding.category}]: {finding.reason}"
    )


def unread_note(ply: int, unread: UnreadText) -> str:
    """gcadj's note before the text it could not read, from ply `ply` (1-based) on."""
    where = unread.error.split("\n", 1)[0]
    return _no_braces(
        f"{NOTE_MARK} the log stops being readable at ply {ply}; it and everything after "
        f"it follow as typed ({where})"
    )


# A square of some file past h on a pocket rank: a pocket square of some preset.
_POCKET_LIKE: Final = re.compile(r"(?<![a-z0-9])([i-z])[18](?![0-9])")


def names_other_pockets(own: PocketFile, unread: UnreadText | None) -> bool:
    """Does the text the reader could not read name pocket squares of another file than
    `own`, the game's? Without a PocketFile tag a reader of the written game (a Game
    Courier list, a PGN game's ``{gc: ...}`` plies) would take that file from it
    (`gcadj.sources.pocket_files`) and read further than the original did; so the
    writers write the tag then."""
    if unread is None:
        return False
    return any(found[1] != own for found in _POCKET_LIKE.finditer(unread.text))
