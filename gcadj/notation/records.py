"""What a Game Courier log says, as plain immutable values.

These records are the parser's output and the rules engine's input, so they
hold only what was typed: no board, no legality. Squares are lower-case strings
exactly as typed ("e4", "i1"); labels keep their case (upper case White, lower
case Black). Every record is a frozen, slotted dataclass whose ``repr`` can be
pasted back into Python, so a failing test prints something you can re-run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeAlias

from gcadj.engine.compiled import rebuild_args
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile

__all__ = [
    "CaptureSub",
    "ClearSub",
    "GameLog",
    "MoveRecord",
    "MoveSub",
    "PlaceSub",
    "RemoveSpaceSub",
    "SubMove",
    "UnreadText",
    "submove_squares",
]


@dataclass(frozen=True, slots=True)
class MoveSub:
    """``L o-d`` or ``o-d``: move the piece on ``origin`` to ``target``; no label: None."""

    label: str | None
    origin: str
    target: str

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), rebuild_args(self))  # pickling (see gcadj.engine.compiled)


@dataclass(frozen=True, slots=True)
class PlaceSub:
    """``L-d`` (operator ``-``) or ``L*d`` (operator ``*``): put a new ``label`` on ``target``."""

    label: str
    target: str
    operator: str

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), rebuild_args(self))  # pickling (see gcadj.engine.compiled)


@dataclass(frozen=True, slots=True)
class ClearSub:
    """``@-d`` (form ``@``) or ``o-`` (form ``-``): empty ``square``."""

    square: str
    form: str

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), rebuild_args(self))  # pickling (see gcadj.engine.compiled)


@dataclass(frozen=True, slots=True)
class CaptureSub:
    """``capture o [o2 ...]``: the command that empties each of ``squares``."""

    squares: tuple[str, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), rebuild_args(self))  # pickling (see gcadj.engine.compiled)


@dataclass(frozen=True, slots=True)
class RemoveSpaceSub:
    """``-d``: remove the space ``target`` from the board (never legal in PMC, but valid syntax)."""

    target: str

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), rebuild_args(self))  # pickling (see gcadj.engine.compiled)


SubMove: TypeAlias = MoveSub | PlaceSub | ClearSub | CaptureSub | RemoveSpaceSub


def submove_squares(sub: SubMove) -> tuple[str, ...]:
    """The squares a sub-move names, in the order they are typed."""
    if isinstance(sub, MoveSub):
        return (sub.origin, sub.target)
    if isinstance(sub, PlaceSub):
        return (sub.target,)
    if isinstance(sub, ClearSub):
        return (sub.square,)
    if isinstance(sub, CaptureSub):
        return sub.squares
    return (sub.target,)


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One ply of the log, with where it was typed.

    ``ply`` is the 0-based index of the ply in the log (Game Courier counts from
    0, White first), so the side to move is ``ply % 2`` and never the printed
    ``number``. ``submoves`` is empty only when the line held nothing but ``;``
    (kept as a ply, so the plies after it keep their sides). ``text`` is the ply
    as typed, without number prefix and comment; ``line`` and ``column`` are
    1-based and point at the start of ``text``. ``comment`` is the text after
    ``//``, stripped; comment-only lines below the ply are appended to it, one
    per line, joined by newlines.

    ``san`` is True for a ply typed as PGN writes moves (SAN, long algebraic, a null
    move): ``text`` is then not Game Courier text, and ``submoves`` are the Game Courier
    sub-moves the reader made of it on its board (``O-O`` is ``K e1-g1; R h1-f1``).
    """

    ply: int
    submoves: tuple[SubMove, ...]
    text: str
    comment: str | None
    line: int
    column: int
    number: str | None
    san: bool = False

    @property
    def white(self) -> bool:
        """True for White's plies (even indices)."""
        return self.ply % 2 == 0

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), rebuild_args(self))  # pickling (see gcadj.engine.compiled)


@dataclass(frozen=True, slots=True)
class UnreadText:
    """The text of a game from its first unreadable ply on, exactly as typed.

    A reader that stops at a ply it cannot read keeps the plies before it (a partial log)
    and this: where the unread text starts (1-based ``line`` and ``column`` in the text
    that was read; column 1 for a whole line), the ``text`` itself up to the end of the
    game (``\n`` line ends), and the syntax ``error`` that stopped the reader (its whole
    message, ``file:line:column: syntax error: ...``). Writers give the text back after
    their note, so no ply the player typed is dropped from an export.
    """

    line: int
    column: int
    text: str
    error: str

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), rebuild_args(self))  # pickling (see gcadj.engine.compiled)


@dataclass(frozen=True, slots=True)
class GameLog:
    """A parsed log: header tags in source order (values unescaped) and one record per ply.

    ``leading_comment`` holds comment-only lines that come before the first ply
    (joined by newlines), None if there are none. ``unread`` is set on the partial log
    a syntax error carries (`LogSyntaxError.partial`): the text from the unreadable ply
    on; None when the whole text was read. A PGN game also keeps its result token
    (``result_token``: ``1-0``, ``0-1``, ``1/2-1/2``, ``*``, None if its movetext has none)
    and what its reader noticed without judging (``warnings``: a variation skipped, a
    Variant tag naming another game), which the verdict carries.
    """

    tags: tuple[tuple[str, str], ...]
    records: tuple[MoveRecord, ...]
    source: str = "<string>"
    pocket_file: PocketFile = DEFAULT_POCKET_FILE
    leading_comment: str | None = None
    result_token: str | None = None
    warnings: tuple[str, ...] = ()
    unread: UnreadText | None = None
    # Tag values by case-folded name, the first of each name kept: a replay asks its log
    # for eight tags or so, and a game is read once.
    _index: dict[str, str] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        index: dict[str, str] = {}
        for key, value in self.tags:
            index.setdefault(key.casefold(), value)
        object.__setattr__(self, "_index", index)

    def tag(self, name: str) -> str | None:
        """The value of the first tag called ``name`` (case-insensitive), None if absent."""
        return self._index.get(name.casefold())

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), rebuild_args(self))  # pickling (see gcadj.engine.compiled)
