"""Read Game Courier move logs into records (:mod:`gcadj.notation.records`).

The language is defined once, in ``grammars/gamecourier.lark``; :mod:`gcadj.notation.grammar`
loads it into a Lark LALR parser (contextual lexer) and turns its trees into
records with a separate :class:`lark.Transformer` pass. This module reads logs
line by line, asks the grammar whenever it must, and turns Lark's parse errors
into :class:`LogSyntaxError` with words, a caret and, for the foreign notations
people type (SAN, ``x``, ``=Q``, ``O-O``, ``+``, results), a hint. Lark itself is
imported only when a log needs it, so checking one ordinary game starts fast.
The parser knows nothing of chess rules: ``P e2-e5`` parses.

Why there are two paths
-----------------------
Lark with tree building reads roughly 10-15k plies/s; python-chess reads PGN at
roughly 28k plies/s. Checking an archive must do better without a second
definition of the language, so :func:`parse_log` first tries a line-by-line
path that only puts Lark in front of text it has never seen:

* A log is line-shaped (one tag, ply or comment per line), so the document
  level is a loop over lines. Header tag lines go through a regular
  expression built from the grammar's own terminals.
* A ply line is cut into number prefix, body and ``//`` comment. The body's
  sub-moves are looked up in a process-wide memo (most ply texts, such as
  ``P e2-e4``, recur across games). On a miss, the one dominant form
  ``[L] o-d`` is read by a regular expression and anything else by Lark
  itself (start rule ``submoves``); the result is memoised.
* At the first line this path cannot read (any error, a tag after a ply,
  ...) it gives up and the whole text is parsed by Lark from the top, which
  is the reference: it produces every error message, and returns the log in
  the rare case the fast path declined text that is in fact valid.

Each shortcut (line split, comment cut, number prefix, tag and move regular
expressions) is an assumption about the grammar; ``tests/test_parse_props.py``
checks with hypothesis, on text generated from the grammar itself
(``hypothesis.extra.lark.from_lark``) and on mutations of it, that both paths
give exactly the same :class:`~gcadj.notation.records.GameLog` or the same error.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.resources
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from lark import UnexpectedInput

from gcadj.notation.records import (
    CaptureSub,
    ClearSub,
    GameLog,
    MoveRecord,
    MoveSub,
    PlaceSub,
    RemoveSpaceSub,
    SubMove,
)

__all__ = ["LogSyntaxError", "decode_log_bytes", "grammar_path", "parse_log", "read_log"]

log = logging.getLogger(__name__)

GRAMMAR_NAME: Final = "gamecourier.lark"
DEFAULT_POCKET_FILE: Final = "i"
BOARD_FILES: Final = "abcdefgh"

# The grammar's ignored WS terminal, as characters (a test checks they agree).
WS_CHARS: Final = " \t\u00a0"
_WS: Final = "[ \t\u00a0]"

# A bounded memo: enough for every distinct ply text of a large archive.
MEMO_LIMIT: Final = 1 << 16


# --------------------------------------------------------------------------
# Errors


class LogSyntaxError(ValueError):
    """A log that is not Game Courier syntax, with where and why.

    ``line`` and ``column`` are 1-based; ``expected`` says in words what the
    grammar wanted there; ``hint`` names a foreign notation or a bad square
    when one is recognised; ``line_text`` is the offending source line.
    """

    def __init__(
        self,
        source: str,
        line: int,
        column: int,
        expected: str,
        line_text: str,
        hint: str | None = None,
    ) -> None:
        self.source = source
        self.line = line
        self.column = column
        self.expected = expected
        self.hint = hint
        self.line_text = line_text
        super().__init__(self._render())

    def _render(self) -> str:
        head = f"{self.source}:{self.line}:{self.column}: syntax error: expected {self.expected}"
        shown, caret = _excerpt(self.line_text, self.column - 1)
        text = f"{head}\n    {shown}\n    {caret}^"
        return f"{text}\nhint: {self.hint}" if self.hint else text

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by constructor arguments (errors cross process pools in audits)."""
        args = (self.source, self.line, self.column, self.expected, self.line_text, self.hint)
        return (type(self), args)


def _excerpt(line_text: str, col0: int, span: int = 60) -> tuple[str, str]:
    """The line (cut around long lines) and the padding that puts a caret under ``col0``.

    Tabs are copied into the padding so the caret lines up whatever the tab width.
    """
    start = max(0, col0 - span)
    shown = line_text[start : col0 + span]
    if start:
        shown = "..." + shown
    pad = "".join("\t" if ch == "\t" else " " for ch in line_text[start:col0])
    return shown, ("   " if start else "") + pad


# --------------------------------------------------------------------------
# The grammar and the Lark parser


def grammar_path() -> Path:
    """Where ``gamecourier.lark`` is: inside the installed package, else in the checkout.

    The wheel ships ``grammars/`` as ``gcadj/grammars/``; an editable install or
    a plain checkout has it next to the package.
    """
    packaged = importlib.resources.files("gcadj") / "grammars" / GRAMMAR_NAME
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "grammars" / GRAMMAR_NAME


def is_pocket_file(letter: str) -> bool:
    """Can `letter` name the ninth file? One lower-case letter beyond the board's a-h."""
    return len(letter) == 1 and "i" <= letter <= "z"


def check_pocket_file(pocket_file: str) -> None:
    """Refuse a pocket file that is not one lower-case letter beyond the board's a-h."""
    if not is_pocket_file(pocket_file):
        raise ValueError(f"pocket_file must be one letter from i to z, not {pocket_file!r}")


@functools.cache
def grammar_text(pocket_file: str = DEFAULT_POCKET_FILE) -> str:
    """The grammar for one pocket file: the file's text, POCKET_SQUARE overridden if not ``i``."""
    check_pocket_file(pocket_file)
    text = grammar_path().read_text(encoding="utf-8")
    if pocket_file != DEFAULT_POCKET_FILE:
        text += f'\n%override POCKET_SQUARE: "{pocket_file}1" | "{pocket_file}8"\n'
    return text


# --------------------------------------------------------------------------
# Trees to records


@dataclass(frozen=True, slots=True)
class _Body:
    """The sub-moves of a ply with the exact source span they came from."""

    submoves: tuple[SubMove, ...]
    text: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class _Ply:
    number: str | None
    body: _Body
    comment: str | None


@dataclass(frozen=True, slots=True)
class _Note:
    comment: str


def comment_text(token_text: str) -> str:
    """A comment's text: what follows ``//``, stripped."""
    return token_text[2:].strip()


_ESCAPE = re.compile(r"\\(.)")


def unescape_tag_value(quoted: str) -> str:
    """A tag value without quotes; PGN's ``\\"`` and ``\\\\`` undone, any other ``\\`` kept."""
    return _ESCAPE.sub(lambda m: m[1] if m[1] in '"\\' else m[0], quoted[1:-1])


class LogBuilder:
    """Collects tags, plies and comment-only lines in order; shared by both paths."""

    def __init__(self, source: str, pocket_file: str) -> None:
        self.source = source
        self.pocket_file = pocket_file
        self.tags: list[tuple[str, str]] = []
        self.records: list[MoveRecord] = []
        self.leading: list[str] = []

    def add_note(self, comment: str) -> None:
        """A comment line: appended to the previous ply's comment, or leading if none yet."""
        if not self.records:
            self.leading.append(comment)
            return
        last = self.records[-1]
        joined = comment if last.comment is None else f"{last.comment}\n{comment}"
        self.records[-1] = dataclasses.replace(last, comment=joined)

    def build(self) -> GameLog:
        return GameLog(
            tags=tuple(self.tags),
            records=tuple(self.records),
            source=self.source,
            pocket_file=self.pocket_file,
            leading_comment="\n".join(self.leading) if self.leading else None,
        )


# --------------------------------------------------------------------------
# The reference path: the whole text through Lark


def normalise_text(text: str) -> str:
    """What the grammar reads: no BOM, ``\\n`` line ends only, and a final ``\\n``."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text if text.endswith("\n") else text + "\n"


def parse_with_lark(text: str, source: str, pocket_file: str) -> GameLog:
    """Parse normalised text with Lark from the top: the reference for every result and error."""
    from gcadj.notation.grammar import parse_whole  # Lark loads only when a log needs it

    return parse_whole(text, source, pocket_file)


# --------------------------------------------------------------------------
# The fast path: line by line, memoised, Lark only for unseen ply texts


class _Decline(Exception):
    """The fast path met something it leaves to the reference path."""


@functools.cache
def _square_pattern(pocket_file: str) -> str:
    return rf"[a-h][1-8]|{pocket_file}[18]"


_TAG_LINE = re.compile(
    rf'{_WS}*\[{_WS}*([A-Za-z][A-Za-z0-9_]*){_WS}*("(?:[^"\\\r\n]|\\[^\r\n])*"){_WS}*\]{_WS}*'
)
_NUMBER = re.compile(rf"{_WS}*([0-9]+\.(?:\.\.)?)")


def tag_pair(line: str) -> tuple[str, str] | None:
    """(name, value) of a tag line like ``[White "Alice"]``, value unescaped; else None.

    The one reading of a tag line, used by the parser and by anything that only needs a
    log's header (the audit report's player names).
    """
    match = _TAG_LINE.fullmatch(line)
    return None if match is None else (match[1], unescape_tag_value(match[2]))


# body text -> (sub-moves, offset of the first token in the body, stripped text)
_MemoEntry = tuple[tuple[SubMove, ...], int, str]
_memos: dict[str, dict[str, _MemoEntry]] = {}


def clear_memo() -> None:
    """Forget memoised ply texts (benchmarks use it to time a cold start)."""
    _memos.clear()


@functools.cache
def _submove_regexes(pocket_file: str) -> tuple[re.Pattern[str], ...]:
    """One expression per sub-move form of the grammar, as its lexer reads them.

    In the grammar's order: move, place, clear_at, clear_origin, capture, remove_space.
    """
    sq = _square_pattern(pocket_file)
    ws = f"{_WS}*"
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


def _read_submove(part: str, pocket_file: str) -> SubMove | None:
    """One sub-move read by the expressions above; None when it is none of them."""
    move, place, clear_at, clear_origin, capture, remove_space = _submove_regexes(pocket_file)
    if m := move.fullmatch(part):
        return MoveSub(m[1], m[2], m[3])
    if m := place.fullmatch(part):
        return PlaceSub(m[1], m[3], m[2])
    if m := clear_at.fullmatch(part):
        return ClearSub(m[1], "@")
    if m := clear_origin.fullmatch(part):
        return ClearSub(m[1], "-")
    if m := capture.fullmatch(part):
        return CaptureSub(tuple(re.findall(_square_pattern(pocket_file), m[1])))
    if m := remove_space.fullmatch(part):
        return RemoveSpaceSub(m[1])
    return None


def _read_submoves(body: str, pocket_file: str) -> tuple[SubMove, ...] | None:
    """The sub-moves of a body joined by ';', without Lark; None to let the grammar decide."""
    submoves = []
    for part in body.split(";"):
        if not part.strip(WS_CHARS):
            continue  # the grammar allows empty sub-moves around ';'
        sub = _read_submove(part, pocket_file)
        if sub is None:
            return None
        submoves.append(sub)
    return tuple(submoves)


def _read_body(body: str, pocket_file: str) -> _MemoEntry:
    """The sub-moves of one ply body (no number, no comment); raises _Decline if not valid.

    The usual forms are read by expressions mirroring the grammar's sub-move rules (its
    lexer skips spaces between tokens, so they allow spaces there); anything else goes to
    Lark, which is imported only then. tests/test_parse_props.py checks on text generated
    from the grammar that both give the same records.
    """
    submoves = _read_submoves(body, pocket_file) if body.strip(WS_CHARS) else None
    if submoves is None:
        from gcadj.notation.grammar import parse_submoves  # Lark loads only for an unusual ply

        submoves = parse_submoves(body, pocket_file)
        if submoves is None:
            raise _Decline
    stripped = body.lstrip(WS_CHARS)
    return submoves, len(body) - len(stripped), stripped.rstrip(WS_CHARS)


def parse_by_lines(text: str, source: str, pocket_file: str) -> GameLog:
    """Parse normalised text line by line; raises _Decline where the reference must decide."""
    memo = _memos.setdefault(pocket_file, {})
    builder = LogBuilder(source, pocket_file)
    records = builder.records
    for line_no, line in enumerate(text.split("\n"), 1):
        stripped = line.strip(WS_CHARS)
        if not stripped:
            continue
        if stripped[0] == "[":
            tag = tag_pair(line)
            if records or tag is None:
                raise _Decline
            builder.tags.append(tag)
            continue
        if stripped.startswith("//"):
            builder.add_note(comment_text(stripped))
            continue
        number = None
        start = 0
        if stripped[0].isdigit():
            prefix = _NUMBER.match(line)
            if prefix is None:
                raise _Decline
            number, start = prefix[1], prefix.end()
        cut = line.find("//", start)
        body = line[start:cut] if cut >= 0 else line[start:]
        entry = memo.get(body)
        if entry is None:
            entry = _read_body(body, pocket_file)
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            memo[body] = entry
        submoves, offset, ply_text = entry
        records.append(
            MoveRecord(
                ply=len(records),
                submoves=submoves,
                text=ply_text,
                comment=comment_text(line[cut:]) if cut >= 0 else None,
                line=line_no,
                column=start + offset + 1,
                number=number,
            )
        )
    return builder.build()


# --------------------------------------------------------------------------
# Public entry points


def parse_log(text: str, source: str = "<string>", pocket_file: str = "i") -> GameLog:
    """Parse a Game Courier log; raises :class:`LogSyntaxError` and nothing else for bad text.

    ``source`` names the text in errors and in the result. ``pocket_file`` is
    the letter of the ninth file (``i`` on the 2009 preset, ``p`` on the newer
    one): only its squares 1 and 8, the pockets, exist. Line ends may be LF,
    CRLF or CR; a leading BOM is ignored.
    """
    check_pocket_file(pocket_file)
    text = normalise_text(text)
    try:
        return parse_by_lines(text, source, pocket_file)
    except _Decline:
        return parse_with_lark(text, source, pocket_file)


def decode_log_bytes(data: bytes) -> str:
    """Log bytes as text: UTF-8 with or without BOM (UTF-16 if it has a BOM), else Latin-1.

    Latin-1 decodes any byte string, so this never fails; a wrong guess shows
    up as odd characters in comments or tag values, not as an exception.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_log(path: str | Path, pocket_file: str = "i") -> GameLog:
    """Read and parse a log file (``OSError`` if it cannot be read, else as :func:`parse_log`)."""
    data = Path(path).read_bytes()
    return parse_log(decode_log_bytes(data), source=str(path), pocket_file=pocket_file)


# --------------------------------------------------------------------------
# Error messages

_LINE_START: Final = frozenset({"LABEL", "SQUARE", "AT", "MINUS", "CAPTURE", "SEMI"})
_AFTER_SUBMOVE: Final = frozenset({"SEMI", "COMMENT", "_NL", "$END"})

_NAMES: Final = {
    "LABEL": "a piece label like P",
    "SQUARE": "a square like e4",
    "MINUS": "'-'",
    "STAR": "'*'",
    "AT": "'@'",
    "CAPTURE": "'capture'",
    "SEMI": "';'",
    "COMMENT": "a '//' comment",
    "_NL": "the end of the line",
    "$END": "the end of the line",
    "MOVE_NUMBER": "a move number like 3.",
    "LSQB": 'a tag like [White "..."]',
    "RSQB": "']'",
    "TAG_NAME": "a tag name like White",
    "STRING": 'a quoted value like "Alice"',
}


def _expected_names(error: UnexpectedInput) -> set[str]:
    names = getattr(error, "allowed", None) or getattr(error, "expected", None) or set()
    return {str(name) for name in names} - {"WS"}


# The token before an error, read back from the text: (pattern with the token as group 1, words).
_PREVIOUS_TOKEN: Final = tuple(
    (re.compile(pattern), words)
    for pattern, words in (
        (r"(?:^|[\s;])(capture)$", "'{}'"),
        (r"^\s*([0-9]+\.(?:\.\.)?)$", "the move number '{}'"),
        (r"([a-z][0-9])$", "the square {}"),
        (r"\[\s*([A-Za-z][A-Za-z0-9_]*)$", "the tag name '{}'"),
        (r"(?:^|[^A-Za-z])([A-Za-z])$", "the label '{}'"),
        (r'(")$', "the tag value"),
        (r"([-*@;\[\]])$", "'{}'"),
    )
)


def _previous_token(before: str) -> str | None:
    """Words for the token just before the error, read back from the line's text."""
    before = before.rstrip(WS_CHARS)
    for pattern, words in _PREVIOUS_TOKEN:
        found = pattern.search(before)
        if found:
            return words.format(found[1])
    return None


def describe_expected(names: set[str], before: str) -> str:
    """What the grammar wanted, in words, from the terminals it would have accepted."""
    after = _previous_token(before)
    suffix = f" after {after}" if after else ""
    if "MOVE_NUMBER" in names:  # the start of a line
        if "LSQB" in names:
            return "a ply like 'P e2-e4', a tag like [White \"...\"] or a '//' comment"
        return "a ply like 'P e2-e4' or a '//' comment"
    if names >= _LINE_START:
        return f"a sub-move like 'P e2-e4'{suffix}"
    if names == {"SQUARE", "MINUS", "STAR"}:
        return f"a square like e2, or '-' or '*' and a square{suffix}"
    if names == {"MINUS"}:
        return f"'-' and a square{suffix}"
    if names <= {"SQUARE"} | _AFTER_SUBMOVE and "SQUARE" in names and len(names) > 1:
        return f"a square like e4, ';', a '//' comment or the end of the line{suffix}"
    if "SEMI" in names and names <= _AFTER_SUBMOVE:
        return f"';' and another sub-move, a '//' comment or the end of the line{suffix}"
    words = [_NAMES.get(name, name) for name in sorted(names)]
    if not words:
        return f"nothing more{suffix}"
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    return f"{listed}{suffix}"


_RESULTS: Final = frozenset({"1-0", "0-1", "1/2-1/2", "½-½", "*", "0.5-0.5"})
_CASTLING = re.compile(r"[O0o]-[O0o](?:-[O0o])?[+#!?]*")
_SAN = re.compile(r"[KQRBNP]?[a-h]?[1-8]?[x:]?[a-h][1-8](?:=?[QRBN])?[+#!?]*")
_X_CAPTURE = re.compile(r"(?:([A-Za-z])\s*)?([a-z][0-9])\s*[x:]\s*([a-z][0-9])")
_UCI = re.compile(r"([a-z][0-9])([a-z][0-9])[qrbn]?")
_MOVE_NUMBER_INSIDE = re.compile(r"(?:^|\s)[0-9]+\.(?:\.\.)?(?=\s|[A-Za-z]|$)")
_SQUARE_LIKE = re.compile(r"[A-Za-z][0-9]+")
_SPACED_MOVE = re.compile(r"([A-Za-z])\s+([a-z][0-9])\s+([a-z][0-9])")


def _words(text: str) -> list[str]:
    return re.findall(r"[^\s;]+", text)


def _word_at(text: str, col0: int) -> str:
    """The word containing ``col0``, or the last one before it."""
    previous = ""
    for found in re.finditer(r"[^\s;]+", text):
        if found.start() <= col0 < found.end():
            return found.group()
        if found.end() <= col0:
            previous = found.group()
    return previous


def _foreign_notation_hint(ply_text: str, word: str) -> str | None:
    """Recognise notations from other programs by their shape; None if nothing fits."""
    words = _words(ply_text)
    if word in _RESULTS or any(w in _RESULTS for w in words):
        return (
            "results are not moves in Game Courier; a finished game shows a status line, "
            'which gcadj reads from a tag like [Status "Black has resigned."]'
        )
    if _CASTLING.fullmatch(word):
        return (
            "Game Courier has no 'O-O'; a two-piece move is written as two sub-moves, "
            "e.g. 'K e1-g1; R h1-f1'"
        )
    spaced = _SPACED_MOVE.fullmatch(ply_text.strip(WS_CHARS))
    if spaced:
        label, origin, target = spaced.groups()
        return f"join the two squares with '-': '{label} {origin}-{target}'"
    sans = [w for w in words if _SAN.fullmatch(w)]
    if len(sans) >= 2 or _MOVE_NUMBER_INSIDE.search(ply_text):
        return (
            "this looks like PGN movetext; Game Courier takes one ply per line, "
            "optionally numbered: '1. P e2-e4', then '1... p e7-e5'"
        )
    if "=" in word:
        return (
            "Game Courier has no '=Q' promotion suffix; put the new piece with a second "
            "sub-move, e.g. 'P e7-e8; Q-e8'"
        )
    if "+" in word or "#" in word:
        return "check and mate marks ('+', '#') are not Game Courier syntax; leave them out"
    capture = _X_CAPTURE.search(ply_text)
    if capture:
        label, origin, target = capture.groups()
        fixed = f"{label} {origin}-{target}" if label else f"{origin}-{target}"
        return (
            f"Game Courier has no 'x': moving onto an occupied square captures, so write '{fixed}'"
        )
    uci = _UCI.fullmatch(word)
    if uci:
        return (
            f"put '-' between the squares and the piece's label first, e.g. 'P {uci[1]}-{uci[2]}'"
        )
    if _SAN.fullmatch(word):
        return (
            "this looks like SAN; Game Courier names the piece, its square and its target, "
            "e.g. 'N g1-f3' rather than 'Nf3'"
        )
    return None


def _bad_square_hint(square: str, pocket_file: str) -> str:
    """Why a square-like word is not a square of the Pocket Mutation Chess board."""
    file = square[0]
    pockets = f"{pocket_file}1 and {pocket_file}8"
    if file == pocket_file:
        return f"{square} is not a square: only {pockets} (the pockets) exist on the ninth file"
    if file.isupper() and file.lower() in BOARD_FILES + pocket_file:
        return f"squares are written in lower case: {square.lower()}"
    if file in BOARD_FILES:
        return f"{square} is not a square: ranks run from 1 to 8"
    return (
        f"{square} is not a square: files run from a to h, "
        f"plus {pocket_file} for the pockets {pockets}"
    )


def _bad_square_at(line: str, col0: int, pocket_file: str) -> tuple[int, str] | None:
    """A square-like word (letter and digits) spanning ``col0`` that is not a square."""
    square = re.compile(_square_pattern(pocket_file))
    for found in _SQUARE_LIKE.finditer(line):
        if found.start() <= col0 < found.end() and not square.fullmatch(found.group()):
            return found.start(), found.group()
    return None


def _split_ply_line(line: str) -> tuple[int, str]:
    """Where the ply text starts (after a number prefix) and the text without its comment."""
    prefix = _NUMBER.match(line)
    start = prefix.end() if prefix else 0
    cut = line.find("//", start)
    return start, line[start:cut] if cut >= 0 else line[start:]


def syntax_error(
    error: UnexpectedInput, text: str, source: str, pocket_file: str = DEFAULT_POCKET_FILE
) -> LogSyntaxError:
    """Turn a Lark error on ``text`` into a :class:`LogSyntaxError` with words, caret and hint."""
    lines = text.split("\n")
    line_no = error.line if isinstance(error.line, int) and error.line > 0 else len(lines)
    line_no = min(line_no, len(lines))
    line = lines[line_no - 1]
    col0 = error.column - 1 if isinstance(error.column, int) and error.column > 0 else len(line)
    col0 = min(col0, len(line))
    expected = describe_expected(_expected_names(error), line[:col0])
    hint = None
    if line.strip(WS_CHARS).startswith("["):
        if col0 == len(line) - len(line.lstrip(WS_CHARS)):
            hint = "tags go in the header, before the first ply"
        else:
            hint = 'a tag is written [Name "value"], one per line'
    else:
        start, ply_text = _split_ply_line(line)
        comment_at = start + len(ply_text)
        word = _word_at(ply_text, min(col0, comment_at) - start)
        hint = _foreign_notation_hint(ply_text, word)
        square = _bad_square_at(line, col0, pocket_file) if hint is None else None
        if square is not None:  # point at the whole word, not where the lexer stopped in it
            col0, word = square
            hint = _bad_square_hint(word, pocket_file)
            expected = describe_expected({"SQUARE"}, line[:col0])
    return LogSyntaxError(source, line_no, col0 + 1, expected, line, hint)
