"""The Lark side of the parser: the grammar loaded into an LALR parser, and trees to records.

Kept apart from :mod:`gcadj.notation.parse` so that Lark is imported only when a log needs it: the
line path there reads the usual plies (``P e2-e4``) and tag lines without it, which keeps
``gcadj check`` on one game fast to start. Everything the grammar decides (every error,
every unusual ply) still goes through here: the grammar stays the one definition of the
language.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import logging
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import lark
from lark import Lark, Token, Transformer, UnexpectedInput, v_args
from lark.tree import Meta

from gcadj.about import user_cache_dir
from gcadj.errors import LogSyntaxError
from gcadj.notation.language import (
    LogBuilder,
    comment_text,
    grammar_text,
    unescape_tag_value,
)
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
from gcadj.notation.syntax_errors import syntax_error
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile

log = logging.getLogger(__name__)


# The nodes the transformer builds on its way to records (only this module makes them)


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


def _lark_cache_file(grammar: str) -> str | None:
    """A writable file for Lark's parse-table cache, named by grammar and versions; None if none.

    Lark also checks a hash stored inside the file, so a stale or foreign file
    is rebuilt, and it logs (never raises) when it cannot read or write one.
    """
    key = f"{grammar}\0{lark.__version__}\0{sys.version_info[:2]}".encode()
    name = f"lark-{hashlib.sha256(key).hexdigest()[:24]}.pickle"
    try:
        folder = user_cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK):
            return None
    except (OSError, RuntimeError):  # RuntimeError: Path.home() without a home
        return None
    return str(folder / name)


def build_lark(pocket_file: PocketFile = DEFAULT_POCKET_FILE, use_cache: bool = True) -> Lark:
    """A new LALR parser for the grammar (cached tables when possible, never failing for it)."""
    grammar = grammar_text(pocket_file)
    options: dict[str, Any] = {
        "parser": "lalr",
        "lexer": "contextual",
        "propagate_positions": True,
        "start": ["start", "submoves"],
    }
    cache_file = _lark_cache_file(grammar) if use_cache else None
    if cache_file is not None:
        try:
            return Lark(grammar, cache=cache_file, **options)
        except Exception:  # a broken cache must never stop the parser
            log.debug("Lark cache %s unusable; building without it", cache_file, exc_info=True)
    return Lark(grammar, **options)


@functools.cache
def _lark(pocket_file: PocketFile) -> Lark:
    """The process's parser for one pocket file, built on first use."""
    return build_lark(pocket_file)


def _strings(children: Iterable[Any]) -> tuple[str, ...]:
    return tuple(str(child) for child in children)


@v_args(meta=True)
class RecordBuilder(Transformer[Token, Any]):
    """The separate pass from Lark's tree to records; ``meta`` gives exact positions.

    ``text`` is the parsed text, used to copy each ply's source span verbatim.
    """

    def __init__(
        self, text: str, source: str = "<string>", pocket_file: PocketFile = DEFAULT_POCKET_FILE
    ) -> None:
        super().__init__()
        self._text = text
        self._source = source
        self._pocket_file = pocket_file

    def move(self, meta: Meta, children: list[Token]) -> MoveSub:
        label = str(children[0]) if len(children) == 3 else None
        return MoveSub(label=label, origin=str(children[-2]), target=str(children[-1]))

    def place(self, meta: Meta, children: list[Token]) -> PlaceSub:
        label, operator, target = _strings(children)
        return PlaceSub(label=label, target=target, operator=operator)

    def clear_at(self, meta: Meta, children: list[Token]) -> ClearSub:
        return ClearSub(square=str(children[0]), form="@")

    def clear_origin(self, meta: Meta, children: list[Token]) -> ClearSub:
        return ClearSub(square=str(children[0]), form="-")

    def capture(self, meta: Meta, children: list[Token]) -> CaptureSub:
        return CaptureSub(squares=_strings(children))

    def remove_space(self, meta: Meta, children: list[Token]) -> RemoveSpaceSub:
        return RemoveSpaceSub(target=str(children[0]))

    def submoves(self, meta: Meta, children: list[Any]) -> _Body:
        subs = tuple(child for child in children if not isinstance(child, Token))
        text = self._text[meta.start_pos : meta.end_pos]
        return _Body(submoves=subs, text=text, line=meta.line, column=meta.column)

    def ply(self, meta: Meta, children: list[Any]) -> _Ply:
        number = None
        comment = None
        body: _Body | None = None
        for child in children:
            if isinstance(child, _Body):
                body = child
            elif child.type == "MOVE_NUMBER":
                number = str(child)
            else:
                comment = comment_text(child)
        assert body is not None  # the grammar requires sub-moves
        return _Ply(number=number, body=body, comment=comment)

    def tag(self, meta: Meta, children: list[Token]) -> tuple[str, str]:
        name, value = children
        return str(name), unescape_tag_value(str(value))

    def note(self, meta: Meta, children: list[Token]) -> _Note:
        return _Note(comment_text(children[0]))

    def start(self, meta: Meta, children: list[Any]) -> GameLog:
        builder = LogBuilder(self._source, self._pocket_file)
        for child in children:
            if isinstance(child, _Ply):
                body = child.body
                record = MoveRecord(
                    ply=len(builder.records),
                    submoves=body.submoves,
                    text=body.text,
                    comment=child.comment,
                    line=body.line,
                    column=body.column,
                    number=child.number,
                )
                builder.records.append(record)
            elif isinstance(child, _Note):
                builder.add_note(child.comment)
            else:
                builder.tags.append(child)
        return builder.build()


def parse_whole(text: str, source: str, pocket_file: PocketFile) -> GameLog:
    """Parse normalised text from the top; Lark's errors become `LogSyntaxError`s."""
    try:
        tree = _lark(pocket_file).parse(text, start="start")
    except UnexpectedInput as error:
        raise syntax_error(error, text, source, pocket_file) from None
    result: GameLog = RecordBuilder(text, source, pocket_file).transform(tree)
    return result


def parse_submoves(body: str, pocket_file: PocketFile) -> tuple[SubMove, ...] | None:
    """The sub-moves of one ply body, or None when the grammar rejects it."""
    try:
        tree = _lark(pocket_file).parse(body, start="submoves")
    except UnexpectedInput:
        return None
    body_record: _Body = RecordBuilder(body).transform(tree)
    return body_record.submoves


# A ply that stands before the line, so that Lark reads the line where it stands in a log
# (after a ply: no tag allowed, and the errors' words say so), whatever came before it.
_PLY_BEFORE = "a1-a2\n"


def parse_line(
    line: str,
    line_no: int,
    source: str,
    pocket_file: PocketFile,
    *,
    after_ply: bool,
    lark_text: str | None = None,
) -> GameLog:
    """One line of a log read by Lark, as the whole text's parse reads it at that place.

    A log is line-shaped (every token ends before the newline), so what Lark does at a
    line depends only on the line and on whether a ply came before it. The result holds the
    line's tag or ply (line number ``line_no``, ply index 0); an error is raised as
    `LogSyntaxError` pointing at ``line_no``, with the words the whole text would give.

    ``lark_text``, when given, is what Lark reads instead of ``line`` to find an error: the
    same line with valid sub-moves blanked (same length, same parser state at the error).
    The error's words and hint are still taken from ``line``; a ``lark_text`` that parses
    means the line is valid, and the line itself is then read.
    """
    prefix = _PLY_BEFORE if after_ply else ""
    text = f"{prefix}{line}\n"
    at = 2 if after_ply else 1
    try:
        if lark_text is not None and lark_text != line:
            _lark(pocket_file).parse(f"{prefix}{lark_text}\n", start="start")
        tree = _lark(pocket_file).parse(text, start="start")
    except UnexpectedInput as error:
        found = syntax_error(error, text, source, pocket_file)
        at_line = line_no + max(0, found.line - at)
        raise LogSyntaxError(
            source, at_line, found.column, found.expected, found.line_text, found.hint
        ) from None
    mini: GameLog = RecordBuilder(text, source, pocket_file).transform(tree)
    records = mini.records[1:] if after_ply else mini.records
    return GameLog(
        tags=mini.tags,
        records=tuple(dataclasses.replace(r, line=line_no) for r in records),
        source=source,
        pocket_file=pocket_file,
        leading_comment=mini.leading_comment,
    )
