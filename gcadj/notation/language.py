"""What every reader of Game Courier text shares: the grammar file, the pocket-file setting,
the lexical facts the fast path copies from the grammar, and the builder that collects tags,
plies and comments into a `GameLog`.

It sits below both readers (`parse`, the line-by-line path, and `grammar`, the Lark path)
so that neither has to import the other to agree with it.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path
from typing import Final

from gcadj.notation.lexicon import LINE_SPACE_CLASS, MOVE_NUMBER
from gcadj.notation.records import GameLog, MoveRecord
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile

GRAMMAR_NAME: Final = "gamecourier.lark"
BOARD_FILES: Final = "abcdefgh"

# A move number prefix such as "3." or "3...", with the white space before it.
NUMBER_PREFIX: Final = re.compile(rf"{LINE_SPACE_CLASS}*({MOVE_NUMBER})")


@functools.cache
def square_pattern(pocket_file: PocketFile) -> str:
    """A regular expression for one square of the board with `pocket_file` as its ninth file."""
    return rf"[a-h][1-8]|{pocket_file}[18]"


@functools.cache
def submove_patterns(pocket_file: PocketFile) -> tuple[re.Pattern[str], ...]:
    """One expression per sub-move form of the grammar, as its lexer reads them.

    In the grammar's order: move, place, clear_at, clear_origin, capture, remove_space.
    Used by the line path of the parser, and by the hints to check that the text they
    suggest is Game Courier text.
    """
    sq = square_pattern(pocket_file)
    ws = f"{LINE_SPACE_CLASS}*"
    return tuple(
        re.compile(ws + pattern + ws)
        for pattern in (
            rf"(?:([A-Za-z]){ws})?({sq}){ws}-{ws}({sq})",
            rf"([A-Za-z]){ws}([-*]){ws}({sq})",
            rf"@{ws}-{ws}({sq})",
            rf"({sq}){ws}-",
            rf"capture((?:{ws}(?:{sq}))+)",
            rf"-{ws}({sq})",
        )
    )


def grammar_path() -> Path:
    """Where ``gamecourier.lark`` is: inside the installed package, else in the checkout.

    The wheel ships ``grammars/`` as ``gcadj/grammars/``; an editable install or
    a plain checkout has it next to the package.
    """
    import importlib.resources  # only for Lark: at start-up it would cost more than a ply

    packaged = importlib.resources.files("gcadj") / "grammars" / GRAMMAR_NAME
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "grammars" / GRAMMAR_NAME


@functools.cache
def grammar_text(pocket_file: PocketFile = DEFAULT_POCKET_FILE) -> str:
    """The grammar for one pocket file: the file's text, POCKET_SQUARE overridden if not ``i``."""
    PocketFile(pocket_file)  # a letter that is none raises ValueError, saying so
    text = grammar_path().read_text(encoding="utf-8")
    if pocket_file != DEFAULT_POCKET_FILE:
        text += f'\n%override POCKET_SQUARE: "{pocket_file}1" | "{pocket_file}8"\n'
    return text


def comment_text(token_text: str) -> str:
    """A comment's text: what follows ``//``, stripped."""
    return token_text[2:].strip()


_ESCAPE = re.compile(r"\\(.)")


def unescape_tag_value(quoted: str) -> str:
    """A tag value without quotes; PGN's ``\\"`` and ``\\\\`` undone, any other ``\\`` kept."""
    if "\\" not in quoted:
        return quoted[1:-1]
    return _ESCAPE.sub(lambda m: m[1] if m[1] in '"\\' else m[0], quoted[1:-1])


class LogBuilder:
    """Collects tags, plies and comment-only lines in order; shared by both paths.

    The readers append plies to `records` themselves. Comment lines after a ply are
    gathered in a list and joined into that ply's comment once, when the next comment
    line follows another ply or the log is built: joining at every line rebuilt the whole
    comment each time, quadratic in a run of comment lines (524,288 lines took 107 s).
    """

    def __init__(self, source: str, pocket_file: PocketFile) -> None:
        self.source = source
        self.pocket_file = pocket_file
        self.tags: list[tuple[str, str]] = []
        self.records: list[MoveRecord] = []
        self.leading: list[str] = []
        self._notes: list[str] = []  # the comment lines of the ply `_noted`, not yet joined
        self._noted = -1

    def add_note(self, comment: str) -> None:
        """A comment line: appended to the previous ply's comment, or leading if none yet."""
        if not self.records:
            self.leading.append(comment)
            return
        last = len(self.records) - 1
        if self._noted != last:
            self._join_notes()
            self._noted = last
            own = self.records[last].comment
            self._notes = [] if own is None else [own]
        self._notes.append(comment)

    def _join_notes(self) -> None:
        """Give the ply `_noted` its comment lines, joined by newlines."""
        if self._noted >= 0 and self._notes:
            record = self.records[self._noted]
            self.records[self._noted] = dataclasses.replace(record, comment="\n".join(self._notes))
        self._notes, self._noted = [], -1

    def build(self) -> GameLog:
        self._join_notes()
        return GameLog(
            tags=tuple(self.tags),
            records=tuple(self.records),
            source=self.source,
            pocket_file=self.pocket_file,
            leading_comment="\n".join(self.leading) if self.leading else None,
        )
