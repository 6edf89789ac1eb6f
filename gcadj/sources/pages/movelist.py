"""Finding the move list on a page by content: the element whose lines the real parser reads
as the most plies, the smallest one when several nest."""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from gcadj.notation.parse import LogSyntaxError, parse_log

if TYPE_CHECKING:
    from bs4 import Tag

from gcadj.sources.pages.text import BLOCK, SKIP, render_lines

log = logging.getLogger(__name__)

MAX_TRIM: Final = 3  # non-move lines trimmed off either end of a candidate

# ---------------------------------------------------------------------------------------
# The move list

# A cheap superset test of "this line could be part of a log" (the parser decides).
_TAG_LINE = re.compile(r'\[\s*[A-Za-z]\w*\s*".*"\s*\]')
_PLY_START = re.compile(r"(?:\d+\.(?:\.\.)?\s*)?(?:[A-Za-z@;-])")
_PLY_CHARS = re.compile(r"[A-Za-z0-9 ;@*.\-]*")


def _could_be_log_line(line: str) -> bool:
    if line.startswith("//") or _TAG_LINE.fullmatch(line):
        return True
    body = line.split("//", 1)[0]
    return (
        _PLY_START.match(body) is not None
        and _PLY_CHARS.fullmatch(body) is not None
        and any(ch.isdigit() or ch == ";" for ch in body)
    )


def _trim(lines: list[str]) -> list[str] | None:
    """Drop up to MAX_TRIM non-move lines at each end; None if lines in between are not moves."""
    start, end = 0, len(lines)
    while start < end and start < MAX_TRIM and not _could_be_log_line(lines[start]):
        start += 1
    while end > start and len(lines) - end < MAX_TRIM and not _could_be_log_line(lines[end - 1]):
        end -= 1
    kept = lines[start:end]
    if not kept or not all(_could_be_log_line(line) for line in kept):
        return None
    return kept


_POCKET_SQUARE = re.compile(r"(?<![A-Za-z])([i-z])[18](?![0-9])")


def _pocket_letter_in(lines: list[str]) -> str | None:
    """The ninth-file letter the moves use (i1, p8, ...), if any; the commonest wins."""
    counts: Counter[str] = Counter()
    for line in lines:
        body = line.split("//", 1)[0]
        counts.update(m.group(1) for m in _POCKET_SQUARE.finditer(body))
    return counts.most_common(1)[0][0] if counts else None


@dataclass(frozen=True)
class _MoveList:
    element: Tag
    lines: tuple[str, ...]
    plies: int
    pocket_file: str


def _candidates(root: Tag) -> Iterator[tuple[Tag, int]]:
    """Every element outside SKIP that stands alone, with its depth, in document order."""
    from bs4.element import Tag

    block_texts: dict[int, str] = {}  # one scrape's blocks, by id: each computed once
    stack: list[tuple[Tag, int]] = [(root, 0)]
    while stack:
        element, depth = stack.pop()
        if depth == 0 or _stands_alone(element, block_texts):
            yield element, depth
        children = [c for c in element.children if isinstance(c, Tag) and c.name not in SKIP]
        stack.extend((child, depth + 1) for child in reversed(children))


def _stands_alone(element: Tag, block_texts: dict[int, str]) -> bool:
    """True unless the element is words inside running text (``<code>`` in a sentence).

    A move list is lines of its own; an inline element counts only when it holds all the
    text of the block around it. This keeps the rules' examples (``P c5-d6; c6-``) out.
    `block_texts` caches each block's normalised text by id() for one walk of the tree
    (the tree is alive and unchanged meanwhile, so no id is reused): recomputing it for
    every inline element made a block of n spans cost n² (4,000 spans took 21 s).
    """
    if element.name in BLOCK or element.name in ("td", "th"):
        return True
    block = element.parent
    while block is not None and block.name not in BLOCK and block.name not in ("td", "th"):
        block = block.parent
    if block is None:
        return True
    text = block_texts.get(id(block))
    if text is None:
        text = block_texts[id(block)] = " ".join(block.get_text().split())
    return text == " ".join(element.get_text().split())


# Elements that hold a list by themselves; a candidate spanning two of them is a merge.
LIST_CONTAINERS: Final = frozenset({"pre", "textarea", "ol", "ul", "table", "dl", "listing"})


def find_move_list(root: Tag, label_letter: str | None) -> _MoveList | None:
    """The element whose lines parse into the most plies (smallest on ties); None if none.

    An element that merely wraps two separate lists (a rules example in a ``pre`` next
    to the game's ``pre``) would parse into more plies than either; it is not taken.
    """
    found: list[tuple[tuple[int, int, int, int], _MoveList]] = []
    for index, (element, depth) in enumerate(_candidates(root)):
        if not any(ch.isdigit() for ch in element.get_text()):
            continue
        has_cells = element.name in ("td", "th", "tr") or element.find("td") is not None
        modes = [(False, False), (True, False)] + ([(False, True)] if has_cells else [])
        best: tuple[tuple[int, int, int, int], _MoveList] | None = None
        for keep_newlines, cells in modes:
            lines = render_lines(element, keep_newlines=keep_newlines, cells_as_lines=cells)
            kept = _trim(lines)
            parsed = None if kept is None else _parse_candidate(kept, label_letter)
            if kept is None or parsed is None:
                continue
            plies, letter = parsed
            key = (-plies, sum(len(line) for line in kept), -depth, index)
            if best is None or key < best[0]:
                best = (key, _MoveList(element, tuple(kept), plies, letter))
        if best is not None:
            found.append(best)
    containers = [m.element for _, m in found if m.element.name in LIST_CONTAINERS]
    whole = [(key, m) for key, m in found if _lists_inside(m.element, containers) < 2]
    return min(whole, key=lambda item: item[0])[1] if whole else None


def _lists_inside(element: Tag, containers: list[Tag]) -> int:
    """How many separate move-list containers `element` wraps (outermost ones only)."""
    inside = [c for c in containers if c is not element and _within(c, element)]
    return sum(1 for c in inside if not any(o is not c and _within(c, o) for o in inside))


def _within(element: Tag, ancestor: Tag) -> bool:
    """Identity, not equality: bs4 tags with the same markup compare equal."""
    return any(parent is ancestor for parent in element.parents)


def _parse_candidate(lines: list[str], label_letter: str | None) -> tuple[int, str] | None:
    """(plies, pocket file) if the lines parse as a log with at least one ply."""
    letters = [label_letter or _pocket_letter_in(lines) or "i"]
    used = _pocket_letter_in(lines)
    if used is not None and used not in letters:
        letters.append(used)
    text = "\n".join(lines)
    for letter in letters:
        try:
            game = parse_log(text, source="<page>", pocket_file=letter)
        except (LogSyntaxError, ValueError):
            continue
        if game.records:
            return len(game.records), letter
    return None
