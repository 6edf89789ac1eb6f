"""`LogSyntaxError`, and the words, caret and hints that turn a Lark parse error into one.

Kept apart from the readers so that both (`parse`, `grammar`) raise the same error with the
same wording; Lark's own error type is only named for type checking, so importing this
module does not load Lark.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile

if TYPE_CHECKING:
    from lark import UnexpectedInput


from gcadj.errors import LogSyntaxError
from gcadj.notation.hints import bad_square_hint, foreign_notation_hint
from gcadj.notation.language import NUMBER_PREFIX, square_pattern
from gcadj.notation.lexicon import LINE_SPACE, MOVE_NUMBER

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
        (rf"^\s*({MOVE_NUMBER})$", "the move number '{}'"),
        (r"([a-z][0-9])$", "the square {}"),
        (r"\[\s*([A-Za-z][A-Za-z0-9_]*)$", "the tag name '{}'"),
        (r"(?:^|[^A-Za-z])([A-Za-z])$", "the label '{}'"),
        (r'(")$', "the tag value"),
        (r"([-*@;\[\]])$", "'{}'"),
    )
)


def _previous_token(before: str) -> str | None:
    """Words for the token just before the error, read back from the line's text."""
    before = before.rstrip(LINE_SPACE)
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


_SQUARE_LIKE = re.compile(r"[A-Za-z][0-9]+")


def _is_separator(char: str) -> bool:
    """What ends a word of a ply: white space (as ``\\s``) or ';'."""
    return char == ";" or char.isspace()


def _word_at(text: str, col0: int) -> str:
    """The word containing ``col0``, or the last one before it.

    Read outwards from ``col0``, so a megabyte line costs the length of one word.
    """
    if col0 < len(text) and not _is_separator(text[col0]):
        end = col0
    else:
        end = min(col0, len(text))
        while end > 0 and _is_separator(text[end - 1]):
            end -= 1
        if end == 0:
            return ""
        end -= 1
    start = end
    while start > 0 and not _is_separator(text[start - 1]):
        start -= 1
    while end < len(text) and not _is_separator(text[end]):
        end += 1
    return text[start:end]


def _bad_square_at(line: str, col0: int, pocket_file: PocketFile) -> tuple[int, str] | None:
    """A square-like word (letter and digits) spanning ``col0`` that is not a square.

    Such words cannot overlap (only digits follow the letter), so the one spanning
    ``col0`` starts at ``col0`` or at the letter before the digits that lead up to it.
    """
    start = col0
    if col0 < len(line) and line[col0] in "0123456789":
        while start > 0 and line[start - 1] in "0123456789":
            start -= 1
        start -= 1  # the letter before the digits
    if start < 0:
        return None
    found = _SQUARE_LIKE.match(line, start)
    if found is None or not found.start() <= col0 < found.end():
        return None
    if re.fullmatch(square_pattern(pocket_file), found.group()):
        return None
    return found.start(), found.group()


def _split_ply_line(line: str) -> tuple[int, str]:
    """Where the ply text starts (after a number prefix) and the text without its comment."""
    prefix = NUMBER_PREFIX.match(line)
    start = prefix.end() if prefix else 0
    cut = line.find("//", start)
    return start, line[start:cut] if cut >= 0 else line[start:]


def syntax_error(
    error: UnexpectedInput, text: str, source: str, pocket_file: PocketFile = DEFAULT_POCKET_FILE
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
    if line.strip(LINE_SPACE).startswith("["):
        if col0 == len(line) - len(line.lstrip(LINE_SPACE)):
            hint = "tags go in the header, before the first ply"
        else:
            hint = 'a tag is written [Name "value"], one per line'
    else:
        start, ply_text = _split_ply_line(line)
        comment_at = start + len(ply_text)
        word = _word_at(ply_text, min(col0, comment_at) - start)
        hint = foreign_notation_hint(ply_text, word, pocket_file)
        square = _bad_square_at(line, col0, pocket_file) if hint is None else None
        if square is not None:  # point at the whole word, not where the lexer stopped in it
            col0, word = square
            hint = bad_square_hint(word, pocket_file)
            expected = describe_expected({"SQUARE"}, line[:col0])
    return LogSyntaxError(source, line_no, col0 + 1, expected, line, hint)
