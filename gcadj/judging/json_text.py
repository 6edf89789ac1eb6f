r"""JSON text in which one line is one line, for every reader of lines, and which a terminal
shows rather than obeys.

`json.dumps(..., ensure_ascii=False)` escapes the ASCII control characters but writes
U+0085 (NEXT LINE), U+2028 (LINE SEPARATOR) and U+2029 (PARAGRAPH SEPARATOR) raw, and
Python's `str.splitlines`, many editors and some JSONL tools break a line there. A verdict
quoting a log that holds one would then become two or three "lines" of broken JSON. It
also writes DEL and the other C1 controls raw (U+009B is a CSI on some terminals) and the bidi
embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), which reorder what a
terminal shows: `check --json` printed on a terminal must not obey a log. Every JSON gcadj
writes (`check --json`, the audit's JSONL, `export --to json`) goes through `json_text`,
which escapes them as well (``\u009b``): the text stays UTF-8 and readable, and is still
exactly the same JSON value.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

# What JSON does not escape itself (it escapes every character below U+0020, so \n, \r,
# \v, \f, ESC and \x1c-\x1e are already safe): DEL, the C1 controls (NEXT LINE among them),
# the two Unicode line separators, and the bidi controls.
_RAW: Final = [
    *map(chr, range(0x7F, 0xA0)),
    "\u2028",
    "\u2029",
    *map(chr, range(0x202A, 0x202F)),
    *map(chr, range(0x2066, 0x206A)),
]
_TABLE: Final = str.maketrans({char: f"\\u{ord(char):04x}" for char in _RAW})
_UNSAFE: Final = re.compile(f"[{''.join(_RAW)}]")


def json_text(value: Any, *, indent: int | None = None) -> str:
    """`value` as JSON (UTF-8 text, not ASCII-escaped) with no raw line boundary or
    terminal control inside a string, so that the text has a line break only where the
    JSON layout puts one, and a terminal shows every string as it is."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return escape_line_breaks(text)


def escape_line_breaks(json_fragment: str) -> str:
    """Escape the line boundaries and terminal controls `json.dumps` leaves raw in a piece
    of JSON text (see the module's docstring).

    Safe on any JSON text: these characters can only stand inside strings (JSON's own
    white space is space, tab, CR and LF), where the escape means the same character.
    """
    if _UNSAFE.search(json_fragment) is None:
        return json_fragment  # the common case: one scan, no copy
    return json_fragment.translate(_TABLE)


__all__ = ["escape_line_breaks", "json_text"]
