"""How gcadj words a count: "1 ply", "2 plies", "1 game in all". One rule, every layer.

At the bottom of the house beside `gcadj.about`, so the notation's messages ("rank 3 has
only 1 cell") and the reports can all say it right without reaching up.
"""

from __future__ import annotations

_PLURALS = {"ply": "plies", "this": "these", "was": "were", "is": "are"}


def plural(count: int, word: str, many: str | None = None) -> str:
    """``"1 ply"``, ``"0 plies"``, ``"3 games"``: the count and the word in the right number.

    `many` is the plural when it is neither in the short list of irregular words nor the
    word plus "s".
    """
    if count == 1:
        return f"{count} {word}"
    return f"{count} {many or _PLURALS.get(word, word + 's')}"
