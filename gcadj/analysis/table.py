"""The prover's transposition table: what was proved about a position, within a memory bound.

An entry is one int packed from three fields, so that a dict of ints holds it (mypyc and
CPython store nothing smaller):

* bits 0-7, ``refuted``: the largest d for which "the attacker mates within d" was proved
  false (0: nothing known);
* bits 8-15, ``mate``: the smallest d for which it was proved true (`UNKNOWN_MATE`: none);
* bits 16-28, a move's code (`move_code`; 0: none): at a node of the attacker, its move
  that mates within ``mate``; at a node of the defender, the defence that refuted.

A position is keyed by its repetition key (`Position.key`: board, pockets, side to move, a
legal en passant, White's ply-1 ban) xored with a constant per attacking colour, so that
one table serves the searches for either side's mate.

The table holds at most a number of entries worked out from a size in megabytes
(`entries_for`), in two generations: new entries go into the young one; when it is full the
old one is dropped and the young one becomes old. A probe that finds an entry in the old
generation copies it into the young one, so what the search keeps using survives. Memory
stays under the bound whatever the search does, and nothing is thrown away all at once.
"""

from __future__ import annotations

from typing import Final

from gcadj.engine.move import BOARD_MOVES, DROP_MOVES, POCKET_MOVES, Move
from gcadj.engine.pieces import KINDS
from gcadj.engine.squares import POCKET

UNKNOWN_MATE: Final = 255
"""The ``mate`` field of an entry that knows no mate (depths are at most 254)."""

ENTRY_BYTES: Final = 160
"""The memory one entry may take, all counted: CPython's dict slot and index (about 40
bytes at the dict's fullest), the two int objects (32 bytes each for 64-bit values), and
the slack of a dict that has just doubled. Measured at about 110 bytes at a million
entries; 160 covers a resize, when the old and new slot arrays are both alive."""

MIN_ENTRIES: Final = 1 << 12
"""The smallest table: a search with less room than this would only thrash."""

_KINDS: Final = len(KINDS)
_POCKETING_BASE: Final = 1 + 64 * 64
_DROP_BASE: Final = _POCKETING_BASE + 64 * _KINDS


def move_code(move: Move) -> int:
    """A small positive int per move (1 to about 6,500), which `MOVE_OF_CODE` maps back."""
    f, t, kind = move
    if f == POCKET:
        assert kind is not None
        return _DROP_BASE + kind.index * 64 + t
    if t == POCKET:
        assert kind is not None
        return _POCKETING_BASE + f * _KINDS + kind.index
    return 1 + f * 64 + t


def _moves_by_code() -> tuple[Move | None, ...]:
    moves: list[Move | None] = [None] * (_DROP_BASE + 64 * _KINDS)
    for f in range(64):
        for t in range(64):
            moves[1 + f * 64 + t] = BOARD_MOVES[f][t]
        for kind in KINDS:
            moves[_POCKETING_BASE + f * _KINDS + kind.index] = POCKET_MOVES[f][kind.index]
    for kind in KINDS:
        for t in range(64):
            moves[_DROP_BASE + kind.index * 64 + t] = DROP_MOVES[kind.index][t]
    return tuple(moves)


MOVE_OF_CODE: Final = _moves_by_code()
"""The engine's own `Move` instance of each code (None at 0)."""


def entries_for(megabytes: float) -> int:
    """How many entries a table of that many megabytes holds."""
    return max(MIN_ENTRIES, int(megabytes * 1_000_000) // ENTRY_BYTES)


def pack(refuted: int, mate: int, code: int) -> int:
    """An entry from its three fields."""
    return refuted | (mate << 8) | (code << 16)


def refuted_of(entry: int) -> int:
    return entry & 255


def mate_of(entry: int) -> int:
    return (entry >> 8) & 255


def code_of(entry: int) -> int:
    return entry >> 16


EMPTY: Final = pack(0, UNKNOWN_MATE, 0)
"""The entry of a position nothing is known about."""


class Table:
    """Proven bounds per (position, attacker), at most `limit` entries (see the module
    docstring). `get` answers `EMPTY` for a position it does not hold."""

    __slots__ = ("generation", "limit", "old", "young")

    def __init__(self, limit: int) -> None:
        self.limit = max(MIN_ENTRIES, limit)
        self.young: dict[int, int] = {}
        self.old: dict[int, int] = {}
        self.generation = 0  # how many times the young generation was retired

    def get(self, key: int) -> int:
        entry = self.young.get(key)
        if entry is not None:
            return entry
        if not self.old:
            return EMPTY
        entry = self.old.get(key)
        if entry is None:
            return EMPTY
        self.put(key, entry)
        return entry

    def find(self, key: int) -> int:
        """The entry of `key`, or -1 when the table holds none (entries are never
        negative): for entries of another packing than the bounds'."""
        entry = self.young.get(key)
        if entry is not None:
            return entry
        if not self.old:
            return -1
        entry = self.old.get(key)
        if entry is None:
            return -1
        self.put(key, entry)
        return entry

    def put(self, key: int, entry: int) -> None:
        young = self.young
        if len(young) * 2 >= self.limit and key not in young:
            self.old = young
            self.young = young = {}
            self.generation += 1
        young[key] = entry

    def __len__(self) -> int:
        return len(self.young) + len(self.old)


__all__ = [
    "EMPTY",
    "ENTRY_BYTES",
    "MIN_ENTRIES",
    "MOVE_OF_CODE",
    "UNKNOWN_MATE",
    "Table",
    "code_of",
    "entries_for",
    "mate_of",
    "move_code",
    "pack",
    "refuted_of",
]
