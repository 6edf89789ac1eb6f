"""Text that is safe to show on a terminal: what came from a log, a page or a file name,
with the characters that would drive the terminal made visible.

gcadj reads logs that strangers wrote. A log's bytes reach its messages (a syntax error
quotes the line, a note quotes a tag, a source is named by its file name), and a terminal
obeys some of them: ``ESC ] 0 ; text BEL`` sets the window title, OSC 52 writes to the
clipboard, CSI sequences move the cursor and repaint what the user sees, and the bidi
overrides reorder the text shown (so a line can read other than it is). `visible` is the
one rule for every human-readable line gcadj prints (the CLI's `say`, and anything a
terminal shows); data formats (JSON, CSV, PGN, Game Courier text, HTML) keep their own
escaping.

At the very bottom of the house (it imports nothing of gcadj), so any layer that words
a line for a person can use it without reaching up: `gcadj.errors` pads the caret under
a quoted line by the width each character takes once made visible.
"""

from __future__ import annotations

import re
from typing import Final

# The C0 controls (but newline and tab: they are layout) and DEL become their Unicode
# control pictures (ESC is shown as "␛"): one column each, as the character was one
# character, so the caret under a quoted line still points at the right place.
_C0: Final = {code: chr(0x2400 + code) for code in range(0x20) if chr(code) not in "\n\t"}
_DEL: Final = {0x7F: "\u2421"}
# The C1 controls (U+0080-U+009F: U+009B is a CSI on some terminals) and the bidi
# embeddings, overrides and isolates have no picture: shown as escapes, "\x9b", "\u202e".
_C1: Final = {code: f"\\x{code:02x}" for code in range(0x80, 0xA0)}
_BIDI: Final = {code: f"\\u{code:04x}" for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}
_TABLE: Final = str.maketrans({**_C0, **_DEL, **_C1, **_BIDI})
_UNSAFE: Final = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """`text` with every character that could drive a terminal made visible: C0 controls
    as their pictures (``\\x1b`` is shown ``␛``, ``\\r`` ``␍``), DEL as ``␡``, C1 controls
    and the bidi overrides and isolates (U+202A-U+202E, U+2066-U+2069) as ``\\x9b`` and
    ``\\u202e``. Newlines and tabs, which lay the text out, are kept; so is everything else.
    """
    if _UNSAFE.search(text) is None:
        return text  # the common case: one scan, no copy
    return text.translate(_TABLE)


__all__ = ["visible"]
