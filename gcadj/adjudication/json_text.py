"""JSON text in which one line is one line, for every reader of lines.

`json.dumps(..., ensure_ascii=False)` escapes the ASCII control characters but writes
U+0085 (NEXT LINE), U+2028 (LINE SEPARATOR) and U+2029 (PARAGRAPH SEPARATOR) raw, and
Python's `str.splitlines`, many editors and some JSONL tools break a line there. A verdict
quoting a log that holds one would then become two or three "lines" of broken JSON. Every
JSON gcadj writes (`check --json`, the audit's JSONL, `export --to json`) goes through
`json_text`, which escapes them as well: the text stays UTF-8 and readable, and is still
exactly the same JSON value.
"""

from __future__ import annotations

import json
from typing import Any

# Line boundaries of `str.splitlines` that JSON does not escape itself (it escapes every
# character below U+0020, so \n, \r, \v, \f and \x1c-\x1e are already safe).
_UNESCAPED_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_TABLE = str.maketrans(_UNESCAPED_BREAKS)


def json_text(value: Any, *, indent: int | None = None) -> str:
    """`value` as JSON (UTF-8 text, not ASCII-escaped) with no raw line boundary inside
    a string, so that the text has a line break only where the JSON layout puts one."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return escape_line_breaks(text)


def escape_line_breaks(json_fragment: str) -> str:
    """Escape the line boundaries `json.dumps` leaves raw in a piece of JSON text.

    Safe on any JSON text: these characters can only stand inside strings (JSON's own
    white space is space, tab, CR and LF), where the escape means the same character.
    """
    if "\x85" in json_fragment or "\u2028" in json_fragment or "\u2029" in json_fragment:
        return json_fragment.translate(_TABLE)
    return json_fragment  # the common case, found by three fast scans


__all__ = ["escape_line_breaks", "json_text"]
