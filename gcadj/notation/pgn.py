"""PGN text, as gcadj reads and writes it: the tokens of its movetext, how PGN is told from
a Game Courier log, and the dialect gcadj writes (its variant name and two comment markers).

**Tokens.** `tokens` cuts PGN text into what a PGN reader (python-chess, pgn-extract)
sees: tag lines, ``%`` escape lines, ``{...}`` and ``;`` comments, ``(`` and ``)`` of
variations, move numbers (``12.``, ``12...``), NAGs (``$1``), ``!?``-style annotations,
result tokens (``1-0``, ``0-1``, ``1/2-1/2``, ``*``), moves, and any other character.
Nothing is judged here, and nothing raises: a ``{`` that is never closed is a token of its
own (`OPEN_BRACE`) that ends at the next tag section, so that one broken comment cannot
swallow the games after it. A *tag section* starts at a line beginning like a tag pair
(``[Name "``, `gcadj.notation.tags.starts_like_tag`); inside a comment, only such a line
that follows a blank line starts one.

**PGN or Game Courier.** Both may start with tag pairs; the moves tell them apart
(`movetext_kind`): a line that is a Game Courier ply (``P e2-e4``, ``1. R h1-i1; I-i1``,
``e2-e4``) or a ``//`` comment makes the text a Game Courier log, where SAN stays a syntax
error (docs/rules.md §6.1); SAN moves (``e4``, ``Nf3``, ``O-O``, ``e8=Q``, ``I@c4``)
numbered or two on a line, or a result token, and no Game Courier ply, make it PGN.

**The dialect.** ``{gc: <Game Courier text>}`` stands for a ply in Game Courier's notation
(the first illegal ply and every ply after it, which SAN cannot express); ``{gcadj: ...}``
is gcadj's own note on a finding, dropped by the reader and written afresh by the writer.
The writer (`gcadj.outputs.writers.pgn`) and the reader (`gcadj.sources.pgn_reader`) both
take these facts from here, so they cannot drift apart.

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

import re
from collections.abc import Iterator
from typing import Final, NamedTuple

from gcadj.notation.lexicon import (
    ALL_SPACE,
    CASTLING,
    CASTLING_MOVE,
    LINE_SPACE_CLASS,
    MOVE_NUMBER,
    PROMOTION,
    RESULT_TOKEN,
    SourceFormat,
)
from gcadj.notation.san import long_algebraic, looks_like_san
from gcadj.notation.tags import TAG_NAME, TAG_START, starts_like_tag, tag_pairs
from gcadj.vocabulary import Result

__all__ = [
    "GC_MARK",
    "NOTE_MARK",
    "NULL_MOVES",
    "ROSTER_UNKNOWN",
    "VARIANT",
    "Token",
    "escape_tag_value",
    "header_end",
    "is_san_move",
    "is_unknown_roster_tag",
    "is_variant_name",
    "looks_like_pgn",
    "movetext_kind",
    "tokens",
    "without_forum_wrappers",
]

VARIANT: Final = "Pocket Mutation Chess"
GC_MARK: Final = "gc:"
NOTE_MARK: Final = "gcadj:"
NULL_MOVES: Final = frozenset({"--", "Z0"})
"""A null move (a pass), as ChessBase and pgn-extract write it: no move of this variant, so
an illegal ply."""


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


def is_variant_name(value: str) -> bool:
    """Does a ``[Variant]`` value name Pocket Mutation Chess (case, spaces, ``-`` aside)?"""
    squeezed = re.sub(r"[\s_-]+", "", value).casefold()
    return squeezed in ("pocketmutationchess", "pocketmutation", "pmc")


# -- tokens ----------------------------------------------------------------------------

TAG: Final = "tag"  # a line that starts with '[': the whole line (a tag pair or not)
ESCAPE: Final = "escape"  # a line that starts with '%' in its first column
BRACE: Final = "brace"  # a {...} comment
OPEN_BRACE: Final = "open_brace"  # a '{' never closed: up to the next tag section or the end
SEMI: Final = "semi"  # a ';' comment, to the end of its line
OPEN_VAR: Final = "open_var"  # '(' begins a variation
CLOSE_VAR: Final = "close_var"  # ')'
NUMBER: Final = "number"  # a move number: "12.", "12...", "12", or dots alone
NAG: Final = "nag"  # "$1"
ANNOTATION: Final = "annotation"  # "!", "?!", "e.p." (after en passant) standing alone
RESULT: Final = "result"  # "1-0", "0-1", "1/2-1/2", "*"
MOVE: Final = "move"  # anything else without a delimiter: a move, or not
OTHER: Final = "other"  # one character no token starts with: '}', ']', a lone '$'
_CASTLING: Final = "castling"  # castling with anything glued to it: a MOVE token


class Token(NamedTuple):
    """One token of PGN text: its kind (a module constant) and where it stands."""

    kind: str
    start: int
    end: int


_DELIMITER: Final = r"\s{};()\[\]"
_SPACE: Final = re.compile(r"\s+")
_NEXT: Final = re.compile(
    rf"""
      (?P<{SEMI}>;[^\n]*)
    | (?P<{RESULT}>(?:{RESULT_TOKEN})(?![^{_DELIMITER}]))
    | (?P<{_CASTLING}>{CASTLING_MOVE}[^{_DELIMITER}$]*)
    | (?P<{NUMBER}>[0-9]+\.*|\.+)
    | (?P<{NAG}>\$[0-9]+)
    | (?P<{ANNOTATION}>(?:[!?]+|e\.p\.)(?![^{_DELIMITER}$]))
    | (?P<{OPEN_VAR}>\()
    | (?P<{CLOSE_VAR}>\))
    | (?P<{MOVE}>[^{_DELIMITER}$]+)
    """,
    re.VERBOSE,
)
_WS: Final = f"{LINE_SPACE_CLASS}*"
_BOUNDARY: Final = re.compile(rf'\n(?:{_WS}\n)+(?={_WS}\[{_WS}{TAG_NAME}{_WS}")')
"""A blank line (or several) followed by a line beginning like a tag pair: where the next
tag section starts, and where an unclosed comment ends."""


class _Closes:
    """Where the next '}' is, remembered, so that many '{' without a '}' after them cost
    one search, not one search each to the end of the text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.searched_from = -1
        self.found = -1

    def after(self, offset: int) -> int:
        if self.searched_from >= 0 and self.searched_from <= offset <= self.found:
            return self.found
        if self.searched_from >= 0 and self.found < 0 and offset >= self.searched_from:
            return -1
        self.searched_from, self.found = offset, self.text.find("}", offset)
        return self.found


def _starts_line(text: str, offset: int) -> bool:
    """Is `offset` the first character of its line that is not a space?"""
    line_start = text.rfind("\n", 0, offset) + 1
    return not text[line_start:offset].strip(ALL_SPACE)


def tokens(text: str, start: int = 0, stop: int | None = None) -> Iterator[Token]:
    """The tokens of normalised PGN text from `start` to `stop` (white space is skipped).

    Reading a game again from its first token gives the same tokens as reading the whole
    text: a game's end is always a token boundary, and what a token is depends only on the
    text around it.
    """
    stop = len(text) if stop is None else stop
    closes = _Closes(text)
    offset = start
    while offset < stop:
        space = _SPACE.match(text, offset, stop)
        if space is not None:
            offset = space.end()
            continue
        token = _token(text, offset, stop, closes)
        yield token
        offset = token.end


def _token(text: str, offset: int, stop: int, closes: _Closes) -> Token:
    """The token that starts at `offset` (not white space)."""
    char = text[offset]
    if char == "{":
        return _brace(text, offset, stop, closes)
    if char == "[" and _starts_line(text, offset):
        end = text.find("\n", offset, stop)
        return Token(TAG, offset, stop if end < 0 else end)
    if char == "%" and (offset == 0 or text[offset - 1] == "\n"):
        end = text.find("\n", offset, stop)
        return Token(ESCAPE, offset, stop if end < 0 else end)
    match = _NEXT.match(text, offset, stop)
    if match is None:
        return Token(OTHER, offset, offset + 1)
    kind = str(match.lastgroup)
    return Token(MOVE if kind == _CASTLING else kind, offset, match.end())


def _brace(text: str, offset: int, stop: int, closes: _Closes) -> Token:
    """A ``{...}`` comment, or an unclosed ``{`` that ends before the next tag section."""
    close = closes.after(offset + 1)
    limit = stop if close < 0 or close >= stop else close
    boundary = _BOUNDARY.search(text, offset, limit)
    if boundary is not None:
        return Token(OPEN_BRACE, offset, boundary.start())
    if close < 0 or close >= stop:
        return Token(OPEN_BRACE, offset, stop)
    return Token(BRACE, offset, close + 1)


# -- PGN or Game Courier ---------------------------------------------------------------

_SQ: Final = "[a-z][1-8]"
_SUBMOVE: Final = rf"""(?:
      (?:[A-Za-z]{_WS})?{_SQ}{_WS}-{_WS}{_SQ}     # L o-d, o-d
    | [A-Za-z]{_WS}[-*]{_WS}{_SQ}                 # L-d, L*d
    | @{_WS}-{_WS}{_SQ}                           # @-d
    | {_SQ}{_WS}-                                 # o-
    | capture(?:{_WS}{_SQ})+                      # capture o ... (spaces optional)
    | -{_WS}{_SQ}                                 # -d
)"""
_GC_LINE: Final = re.compile(
    rf"""{_WS}(?:
        //.*                                                  # a comment line
      | (?:{MOVE_NUMBER}{_WS})?                               # a ply: its number,
        {_SUBMOVE}(?:{_WS};{_WS}{_SUBMOVE}?)*{_WS};?{_WS}      # its sub-moves,
        (?://.*)?                                             # its comment
    )""",
    re.VERBOSE,
)
_SAMPLE: Final = 1 << 16  # how much movetext `movetext_kind` reads at most


def is_san_move(word: str) -> bool:
    """Is `word` a move written as PGN writes moves: SAN (this variant's, or chess's
    castling and ``=Q``), or long algebraic that is no Game Courier text (``e2e4``,
    ``Bb5xc6``; ``e2-e4`` is a Game Courier ply too, so it is no sign of PGN)?"""
    if looks_like_san(word) or CASTLING.fullmatch(word) or PROMOTION.fullmatch(word):
        return True
    return long_algebraic(word) is not None and "-" not in word


def movetext_kind(text: str, start: int = 0, *, moves_only: bool = False) -> SourceFormat | None:
    """`SourceFormat.PGN` or `SourceFormat.GAME_COURIER`, by the moves that follow `start`
    (the end of a header), or None when they say neither (no moves, or only text that is
    no move at all).

    A line that is a whole Game Courier ply (or a ``//`` comment line) decides for Game
    Courier, wherever it stands; numbered SAN moves (``1. e4``), and unless `moves_only`
    two SAN moves on a line or a result token, with no such line, decide for PGN.
    Comments in braces are passed over, and only the first game's moves, at most 64 KB of
    them, are read: this runs for every source.
    """
    sample = text[start : start + _SAMPLE]
    in_brace = False
    pgn = False
    for line in sample.split("\n"):
        whole = not in_brace  # the line does not start inside a comment in braces
        bare, in_brace = _outside_braces(line, in_brace)
        stripped = bare.strip()
        if not stripped or line.startswith("%"):
            continue
        if stripped.startswith("[") and starts_like_tag(bare):
            if pgn:
                break  # the next game's tags
            continue
        if whole and _GC_LINE.fullmatch(line.rstrip("\r")):
            return SourceFormat.GAME_COURIER
        words = bare.split(";", 1)[0].split()
        pgn = pgn or _pgn_line(words, moves_only)
    return SourceFormat.PGN if pgn else None


def _outside_braces(line: str, in_brace: bool) -> tuple[str, bool]:
    """The parts of a line outside ``{...}`` comments (which may span lines): blanks in
    their place, and whether a comment is still open at the end of the line."""
    parts: list[str] = []
    offset = 0
    while offset < len(line):
        if in_brace:
            close = line.find("}", offset)
            if close < 0:
                return " ".join(parts), True
            offset, in_brace = close + 1, False
            continue
        opening = line.find("{", offset)
        if opening < 0:
            parts.append(line[offset:])
            break
        parts.append(line[offset:opening])
        offset, in_brace = opening + 1, True
    return " ".join(parts), in_brace


_NUMBERED: Final = re.compile(r"[0-9]+\.+(.*)")


def _pgn_line(words: list[str], moves_only: bool) -> bool:
    """Does a line of movetext hold what only PGN has: a numbered SAN move (``1. e4``,
    ``12...Nf6``), or (unless `moves_only`) a result token or two SAN moves? One SAN move
    alone on a line is what a player types into a Game Courier log by mistake: not
    evidence of PGN; nor, without tags, is ``P e2 e4`` (two squares that are SAN)."""
    sans = 0
    numbered = False  # the word before was a move number
    for word in words:
        if Result.read(word) is not None:
            if not moves_only:
                return True
            numbered = False
            continue
        if not word.strip("."):
            continue  # "1. ... e5"
        number = _NUMBERED.fullmatch(word)
        if number is not None:
            if number[1] and is_san_move(number[1]):
                return True
            numbered = not number[1]
            continue
        if is_san_move(word):
            if numbered:
                return True
            sans += 1
        numbered = False
    return sans >= 2 and not moves_only


# One line of a header: blank, a ``%`` line, or one that starts like a tag pair (its name
# in group 1), with its newline.
_HEADER_LINE: Final = re.compile(rf"(?:[^\S\n]*|%[^\n]*|{TAG_START.pattern}[^\n]*)(?:\n|\Z)")


def header_end(text: str) -> tuple[int, bool, bool]:
    """Where the header of tag lines at the start of `text` ends (an offset), whether it
    holds a line that starts like a tag pair, and whether its Variant tag names Pocket
    Mutation Chess. Blank lines and ``%`` lines may stand among the tags."""
    offset = 1 if text.startswith("\ufeff") else 0
    tags = variant = False
    size = len(text)
    while offset < size:
        line = _HEADER_LINE.match(text, offset)
        if line is None:
            break
        name = line[1]
        if name is not None:
            tags = True
            if "variant" in line[0].casefold():  # only a Variant tag is read whole here
                pairs = tag_pairs(line[0].rstrip("\r\n")) or ()
                variant = variant or any(
                    key.casefold() == "variant" and is_variant_name(value)
                    for key, value, _ in pairs
                )
        offset = line.end()
    return min(offset, size), tags, variant


def looks_like_pgn(text: str) -> bool:
    """Is this text PGN rather than a Game Courier log (module docstring)?

    Its moves decide (`movetext_kind`), after its tag section if it has one; when they say
    nothing, a ``[Variant "Pocket Mutation Chess"]`` tag (gcadj's own PGN) does. Without
    tags (PGN pasted from a forum, ``1. e4 e5 2. Nf3``) it takes numbered SAN moves: a
    result token or SAN without a move number is what a player types into a Game Courier
    log by mistake.
    """
    end, tags, variant = header_end(text)
    kind = movetext_kind(text, end, moves_only=not tags)
    return kind is SourceFormat.PGN or (kind is None and variant)


_FORUM_WRAPPER: Final = re.compile(r"\[/?pgn\]", re.IGNORECASE)


def without_forum_wrappers(text: str) -> str:
    """PGN as forums wrap it (``[pgn]...[/pgn]``) with the wrappers blanked out (spaces of
    the same length, so lines and columns stay where they were); other text as it is."""
    lowered = text.casefold()
    if "[pgn]" not in lowered or "[/pgn]" not in lowered:
        return text
    return _FORUM_WRAPPER.sub(lambda match: " " * len(match[0]), text)
