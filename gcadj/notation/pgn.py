"""The PGN dialect gcadj writes and reads back: its variant name and its two comment markers.

``{gc: <Game Courier text>}`` stands for a ply in Game Courier's notation (the first
illegal ply and every ply after it, which SAN cannot express); ``{gcadj: ...}`` is gcadj's
own note on a finding, dropped by the reader and written afresh by the writer. The writer
(`gcadj.outputs.pgn_writer`) and the reader (`gcadj.sources.pgn_reader`) both take these
facts from here, so they cannot drift apart.

The writer fills the Seven Tag Roster as PGN wants, with ``?`` (``????.??.??`` for the
date) for what the log does not say (`ROSTER_UNKNOWN`); the reader drops a roster tag
that holds only that placeholder, so Game Courier text → PGN → Game Courier text gives
back the log's own tags and no ``[Event "?"]``.

A user comment that starts like one of these markers, or that holds a ``}``, is written as
a PGN rest-of-line comment ``; ...`` instead, which is never a marker. A comment of several
lines becomes one comment per line. The reader turns a line break inside ``{...}`` into a
space, which undoes the wrapping exactly (the writer only breaks at single spaces).
"""

from __future__ import annotations

from typing import Final

VARIANT: Final = "Pocket Mutation Chess"
GC_MARK: Final = "gc:"
NOTE_MARK: Final = "gcadj:"


# The six roster tags gcadj writes from the log (Result comes from the verdict), each with
# PGN's "unknown".
ROSTER_UNKNOWN: Final = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
}
_UNKNOWN_BY_KEY: Final = {name.casefold(): value for name, value in ROSTER_UNKNOWN.items()}


def is_unknown_roster_tag(name: str, value: str) -> bool:
    """Is this a roster tag that says only "unknown" (``[Event "?"]``), as a PGN writer
    must put it when the game does not say? It is no fact of the game."""
    return _UNKNOWN_BY_KEY.get(name.casefold()) == value.strip()


def escape_tag_value(value: str) -> str:
    """A tag value with PGN's escapes (``\\"`` and ``\\\\``), ready to go between quotes."""
    return value.replace("\\", "\\\\").replace('"', '\\"')
