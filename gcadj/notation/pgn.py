"""The PGN dialect gcadj writes and reads back: its variant name and its two comment markers.

``{gc: <Game Courier text>}`` stands for a ply in Game Courier's notation (the first
illegal ply and every ply after it, which SAN cannot express); ``{gcadj: ...}`` is gcadj's
own note on a finding, dropped by the reader and written afresh by the writer. The writer
(`gcadj.outputs.writers.pgn`) and the reader (`gcadj.sources.pgn_reader`) both take these
facts from here, so they cannot drift apart.

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


def escape_tag_value(value: str) -> str:
    """A tag value with PGN's escapes (``\\"`` and ``\\\\``), ready to go between quotes."""
    return value.replace("\\", "\\\\").replace('"', '\\"')
