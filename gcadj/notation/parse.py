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
* A line this path cannot read (any error, a tag after a ply, ...) is given
  to Lark alone, as it stands in the log (after a ply or not: nothing else in
  a line-shaped log changes how Lark reads it). Lark is the reference: it
  produces every error message, and returns the line's tag or ply in the rare
  case the fast path declined text that is in fact valid. So an error on the
  last line of a 10 MB log costs one line's parse, not the whole text's, and
  the plies read before it are kept (``LogSyntaxError.partial``) for judging.

Each shortcut (line split, comment cut, number prefix, tag and move regular
expressions) is an assumption about the grammar; ``tests/test_parse_props.py``
checks with hypothesis, on text generated from the grammar itself
(``hypothesis.extra.lark.from_lark``) and on mutations of it, that both paths
give exactly the same :class:`~gcadj.notation.records.GameLog` or the same error.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterator
from typing import Final

from gcadj.errors import LogSyntaxError, ParserDeclined
from gcadj.notation.language import (
    NUMBER_PREFIX,
    LogBuilder,
    comment_text,
    square_pattern,
    submove_patterns,
)
from gcadj.notation.lexicon import LINE_SPACE
from gcadj.notation.records import (
    CaptureSub,
    ClearSub,
    GameLog,
    MoveRecord,
    MoveSub,
    PlaceSub,
    RemoveSpaceSub,
    SubMove,
    UnreadText,
)
from gcadj.notation.tags import tag_pair
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile

__all__ = ["LogSyntaxError", "parse_log"]


# A bounded memo: enough for every distinct ply text of a large archive. (Not Final: mypyc
# would compile the number in, and a test lowers it at run time.)
MEMO_LIMIT = 1 << 16


# --------------------------------------------------------------------------
# The reference path: the whole text through Lark


def normalise_text(text: str) -> str:
    """What the grammar reads: no BOM, ``\\n`` line ends only, and a final ``\\n``."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text if text.endswith("\n") else text + "\n"


def parse_with_lark(text: str, source: str, pocket_file: PocketFile) -> GameLog:
    """Parse normalised text with Lark from the top: the reference for every result and error."""
    from gcadj.notation.grammar import parse_whole  # Lark loads only when a log needs it

    return parse_whole(text, source, pocket_file)


# --------------------------------------------------------------------------
# The fast path: line by line, memoised, Lark only for unseen ply texts


# body text -> (sub-moves, offset of the first token in the body, stripped text)
_MemoEntry = tuple[tuple[SubMove, ...], int, str]
_memos: dict[str, dict[str, _MemoEntry]] = {}

# whole ply line (no comment) -> (sub-moves, text, column, move number): the same line
# recurs across games (``P e2-e4``), and a line read before needs no cutting up again
_PlyLine = tuple[tuple[SubMove, ...], str, int, str | None]
_line_memos: dict[str, dict[str, _PlyLine]] = {}


def clear_memo() -> None:
    """Forget memoised ply texts (benchmarks use it to time a cold start)."""
    _memos.clear()
    _line_memos.clear()


@functools.lru_cache(maxsize=4096)
def _read_submove(part: str, pocket_file: PocketFile) -> SubMove | None:
    """One sub-move read by the expressions above; None when it is none of them.

    Cached: a part such as ``P e2-e4`` recurs, and a ply of a million sub-moves then
    holds a million references to a few records rather than a million records.
    """
    move, place, clear_at, clear_origin, capture, remove_space = submove_patterns(pocket_file)
    if m := move.fullmatch(part):
        return MoveSub(m[1], m[2], m[3])
    if m := place.fullmatch(part):
        return PlaceSub(m[1], m[3], m[2])
    if m := clear_at.fullmatch(part):
        return ClearSub(m[1], "@")
    if m := clear_origin.fullmatch(part):
        return ClearSub(m[1], "-")
    if m := capture.fullmatch(part):
        return CaptureSub(tuple(re.findall(square_pattern(pocket_file), m[1])))
    if m := remove_space.fullmatch(part):
        return RemoveSpaceSub(m[1])
    return None


def _read_submoves(body: str, pocket_file: PocketFile) -> tuple[SubMove, ...]:
    """The sub-moves of a body joined by ';'; raises ParserDeclined at the first part that
    is not one.

    A ';' cannot stand inside a sub-move, and the grammar puts at most one sub-move between
    two ';', so each part is read alone: by the expressions above, else by Lark (imported
    only then) on that part only, never on a whole long line.
    """
    submoves = []
    offset = 0
    for part in body.split(";"):
        if part.strip(LINE_SPACE):
            sub = _read_submove(part, pocket_file)
            if sub is None:
                from gcadj.notation.grammar import parse_submoves  # Lark for an unusual part

                read = parse_submoves(part, pocket_file)
                if read is None or len(read) != 1:
                    raise ParserDeclined(offset)
                sub = read[0]
            submoves.append(sub)
        offset += len(part) + 1
    return tuple(submoves)


def _read_body(body: str, pocket_file: PocketFile) -> _MemoEntry:
    """The sub-moves of one ply body (no number, no comment); raises ParserDeclined if not valid.

    The usual forms are read by expressions mirroring the grammar's sub-move rules (its
    lexer skips spaces between tokens, so they allow spaces there); anything else goes to
    Lark, which is imported only then. tests/notation/test_parse_props.py checks on text generated
    from the grammar that both give the same records.
    """
    if not body.strip(LINE_SPACE):
        raise ParserDeclined  # a ply needs a sub-move or a ';': the grammar says what is wrong
    submoves = _read_submoves(body, pocket_file)
    stripped = body.lstrip(LINE_SPACE)
    return submoves, len(body) - len(stripped), stripped.rstrip(LINE_SPACE)


# Lines are read from pieces of text of about this many characters, each ending at a line end.
_BLOCK: Final = 1 << 16


def _blocks(text: str) -> Iterator[str]:
    """The text in pieces of about `_BLOCK` characters that end at a line end, so that its
    lines come from one `str.split` per piece (fast) without a list of every line of a
    10 MB log. Joined with "\\n" they are the text."""
    start = 0
    while True:
        end = text.find("\n", start + _BLOCK)
        if end < 0:
            yield text[start:]
            return
        yield text[start:end]
        start = end + 1


def parse_by_lines(
    text: str, source: str, pocket_file: PocketFile, *, lark_lines: bool = False
) -> GameLog:
    """Parse normalised text line by line.

    A line the expressions cannot read raises ParserDeclined, or with ``lark_lines`` is read by
    Lark alone (`grammar.parse_line`), which is the reference for that line: it returns
    its tag or ply, or raises the `LogSyntaxError` the whole text would give there, with
    the plies read before it as ``partial``.
    """
    memo = _memos.setdefault(pocket_file, {})
    line_memo = _line_memos.setdefault(pocket_file, {})
    builder = LogBuilder(source, pocket_file)
    records = builder.records
    line_no = 0
    end = 0  # where the next line starts
    for block in _blocks(text):
        for line in block.split("\n"):
            line_no += 1
            start, end = end, end + len(line) + 1
            seen = line_memo.get(line)
            if seen is not None:  # a ply line read before: the commonest case
                submoves, ply_text, column, number = seen
                records.append(
                    MoveRecord(len(records), submoves, ply_text, None, line_no, column, number)
                )
                continue
            stripped = line.strip(LINE_SPACE)
            if not stripped:
                continue
            try:
                if stripped[0] == "[":
                    tag = tag_pair(line)
                    if records or tag is None:
                        raise ParserDeclined
                    builder.tags.append(tag)
                    continue
                if stripped.startswith("//"):
                    builder.add_note(comment_text(stripped))
                    continue
                record = _read_ply(line, line_no, len(records), memo, pocket_file)
                records.append(record)
                if record.comment is None:
                    if len(line_memo) >= MEMO_LIMIT:
                        line_memo.clear()
                    line_memo[line] = (record.submoves, record.text, record.column, record.number)
            except ParserDeclined as decline:
                if not lark_lines:
                    raise
                try:
                    _read_with_lark(builder, line, line_no, decline.valid_to)
                except LogSyntaxError as error:
                    if error.partial is not None:  # keep the unread rest, as typed, for writers
                        unread = UnreadText(line_no, 1, text[start:], str(error))
                        error.partial = dataclasses.replace(error.partial, unread=unread)
                    raise
    return builder.build()


def _read_ply(
    line: str, line_no: int, index: int, memo: dict[str, _MemoEntry], pocket_file: PocketFile
) -> MoveRecord:
    """One ply line read by the expressions and the memo; raises ParserDeclined if they cannot."""
    number = None
    start = 0
    if line.lstrip(LINE_SPACE)[0].isdigit():
        prefix = NUMBER_PREFIX.match(line)
        if prefix is None:
            raise ParserDeclined
        number, start = prefix[1], prefix.end()
    cut = line.find("//", start)
    body = line[start:cut] if cut >= 0 else line[start:]
    entry = memo.get(body)
    if entry is None:
        try:
            entry = _read_body(body, pocket_file)
        except ParserDeclined as decline:
            raise ParserDeclined(start + decline.valid_to if decline.valid_to else 0) from None
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[body] = entry
    submoves, offset, ply_text = entry
    return MoveRecord(
        ply=index,
        submoves=submoves,
        text=ply_text,
        comment=comment_text(line[cut:]) if cut >= 0 else None,
        line=line_no,
        column=start + offset + 1,
        number=number,
    )


def _read_with_lark(builder: LogBuilder, line: str, line_no: int, valid_to: int) -> None:
    """Add what Lark reads on one line to `builder`; a syntax error carries the plies before.

    The sub-moves before ``valid_to`` are known to be valid: Lark is shown blanks in their
    place, up to the last ';', which leaves it in the same state at the same column
    (a ply may begin with ';'), so a 10 MB line costs Lark one sub-move, not 10 MB.
    """
    from gcadj.notation.grammar import parse_line  # Lark loads only when a line needs it

    records = builder.records
    shown = line
    if valid_to > 0:
        number = NUMBER_PREFIX.match(line)
        start = number.end() if number and line.lstrip(LINE_SPACE)[0].isdigit() else 0
        shown = f"{line[:start]}{' ' * (valid_to - 1 - start)};{line[valid_to:]}"
    try:
        read = parse_line(
            line,
            line_no,
            builder.source,
            builder.pocket_file,
            after_ply=bool(records),
            lark_text=shown,
        )
    except LogSyntaxError as error:
        if records:
            error.partial = builder.build()
        raise
    builder.tags.extend(read.tags)
    if read.leading_comment is not None:
        builder.add_note(read.leading_comment)
    records.extend(dataclasses.replace(r, ply=len(records) + i) for i, r in enumerate(read.records))


# --------------------------------------------------------------------------
# Public entry points


def parse_log(
    text: str,
    source: str = "<string>",
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
    *,
    normalised: bool = False,
) -> GameLog:
    """Parse a Game Courier log; raises :class:`LogSyntaxError` and nothing else for bad text.

    ``source`` names the text in errors and in the result. ``pocket_file`` is
    the letter of the ninth file (``i`` on the 2009 preset, ``p`` on the newer
    one): only its squares 1 and 8, the pockets, exist. Line ends may be LF,
    CRLF or CR; a leading BOM is ignored. `normalised` says the caller already made the
    text what the grammar reads (`normalise_text`: the pipeline does it once per source).

    Examples:
        >>> log = parse_log('''[White "Alice"]
        ... 1. P e2-e4
        ... 1... p e7-e5 // the reply
        ... 2. P e4-e9
        ... ''', "game.txt")
        Traceback (most recent call last):
        ...
        gcadj.errors.LogSyntaxError: game.txt:4:9: syntax error: expected a square like e4 after '-'
            2. P e4-e9
                    ^
        hint: e9 is not a square: ranks run from 1 to 8
        >>> log = parse_log('''[White "Alice"]
        ... 1. P e2-e4
        ... 1... p e7-e5 // the reply
        ... ''', "game.txt")
        >>> log.tag("white"), len(log.records)
        ('Alice', 2)
        >>> log.records[1].text, log.records[1].comment, log.records[1].line
        ('p e7-e5', 'the reply', 3)
        >>> pocketing, mutation = parse_log("R h1-p1; I-p1", pocket_file="p").records[0].submoves
        >>> pocketing
        MoveSub(label='R', origin='h1', target='p1')
        >>> mutation
        PlaceSub(label='I', target='p1', operator='-')
    """
    pocket_file = PocketFile(pocket_file)  # a letter that is none raises ValueError
    if not normalised:
        text = normalise_text(text)
    return parse_by_lines(text, source, pocket_file, lark_lines=True)
