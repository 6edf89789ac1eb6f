"""Finding the move list on a page by content: the element whose lines the real parser reads
as the most plies, the smallest one when several nest.

Every element is a candidate, so judging each one by rendering and parsing its own text
costs the sum of all subtree sizes: depth × page, quadratic for a page nested thousands
deep. Instead the page is rendered once in each of the three ways a list can be drawn
(lines as shown; source newlines kept; table cells one per line), recording where each
element's text starts and ends in those lines. The log language is line-shaped (a ply, a
tag or a comment per line; tags only before the first ply), so each line is classified
once by the real parser (`parse_log`, memoised by text), and an element's verdict is read
from prefix sums over its range of lines in constant time, plus at most one partial line
at either end (a table cell's text within its row's line). Scraping is linear in the
page whatever its shape.
"""

from __future__ import annotations

import logging
import re
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import accumulate
from typing import TYPE_CHECKING, Final, TypeAlias

from gcadj.errors import LogSyntaxError
from gcadj.notation.parse import parse_log
from gcadj.notation.tags import starts_like_tag, tag_pair
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile

if TYPE_CHECKING:
    from bs4 import BeautifulSoup, Tag
    from bs4.element import PageElement

from gcadj.sources.pages.html_tree import PagePositions, line_column, page_size, text_offset
from gcadj.sources.pages.text import (
    BLOCK,
    ENTER,
    EXIT,
    PREFORMATTED,
    TEXT,
    LineBuilder,
    Pieces,
    collapse_spaces,
    events,
    normal_line,
    source_lines,
)

log = logging.getLogger(__name__)

MAX_TRIM: Final = 3  # non-move lines trimmed off either end of a candidate

# ---------------------------------------------------------------------------------------
# One line

# A cheap superset test of "this line could be part of a log" (the parser decides); a tag
# line is one that starts like the parser's tag pairs (`gcadj.notation.tags`).
_PLY_START = re.compile(r"(?:\d+\.(?:\.\.)?\s*)?(?:[A-Za-z@;-])")
_PLY_CHARS = re.compile(r"[A-Za-z0-9 ;@*.\-]*")
_NUMBER_ONLY = re.compile(r"\d+\.(?:\.\.)?")
_INTEGER_ONLY = re.compile(r"\d+")
_POCKET_SQUARE = re.compile(r"(?<![A-Za-z])([i-z])[18](?![0-9])")


_DIGIT_OR_SEMI = re.compile(r"[0-9;]")


def could_be_log_line(line: str) -> bool:
    if line.startswith("//") or starts_like_tag(line):
        return True
    body = line.split("//", 1)[0]
    return (
        _PLY_START.match(body) is not None
        and _PLY_CHARS.fullmatch(body) is not None
        and _DIGIT_OR_SEMI.search(body) is not None
    )


# What one line is to the parser.
BLANK, NOT_MOVE, TAG, NOTE, PLY, BAD = range(6)


def _pocket_letters(line: str) -> list[str]:
    """The ninth-file letters the line's squares use (i1, p8, ...), outside its comment."""
    return [m.group(1) for m in _POCKET_SQUARE.finditer(line.split("//", 1)[0])]


def pocket_letter_in(lines: list[str]) -> str | None:
    """The ninth-file letter the moves use (i1, p8, ...), if any; the commonest wins."""
    counts = Counter(letter for line in lines for letter in _pocket_letters(line))
    return counts.most_common(1)[0][0] if counts else None


_kinds: dict[tuple[str, str], int] = {}


def line_kind(line: str, letter: str) -> int:
    """What the real parser makes of one line with pocket file `letter` (memoised)."""
    if not line:
        return BLANK
    if not could_be_log_line(line):
        return NOT_MOVE
    key = (line, letter if _pocket_letters(line) else "")
    kind = _kinds.get(key)
    if kind is None:
        try:
            game = parse_log(line, source="<page>", pocket_file=PocketFile(letter))
        except (LogSyntaxError, ValueError):
            kind = BAD
        else:
            kind = PLY if game.records else TAG if tag_pair(line) else NOTE
        if len(_kinds) > 1 << 16:
            _kinds.clear()
        _kinds[key] = kind
    return kind


# ---------------------------------------------------------------------------------------
# The page rendered once per mode


Counts: TypeAlias = "array[int]"  # prefix sums and per-line integers, 4 bytes each (`int_code`)


def int_code(page_size: int) -> str:
    """The array type code that holds every count of a page: "i" (4 bytes, up to 2**31)
    for any page under 1 GiB (a rendering holds at most the page's characters and a space
    per table cell, so no count of lines, columns or characters reaches twice the page)."""
    return "i" if page_size < 2**30 else "q"


@dataclass
class _Render:
    """One rendering of the whole page, with per-line facts and their prefix sums.

    Per-line facts are arrays of machine integers (`Counts`) and a `bytearray`, not lists:
    a list of Python ints costs 36 bytes an entry, and a 5 MiB page renders into a
    million lines, each with a dozen facts in each of three renderings.
    """

    lines: LineBuilder
    cells: bool  # table cells one per line, with lone "3." cells merged into the next
    code: str  # the arrays' type code (`int_code`)
    texts: list[str] = field(default_factory=list)  # each line as parsed ("" = not a unit)
    prefixed: Counts = field(default_factory=lambda: array("q"))  # cells: its "3." line, or -1
    lead: Counts = field(default_factory=lambda: array("q"))  # leading spaces of each raw line
    body_end: Counts = field(default_factory=lambda: array("q"))  # length without trailing spaces
    next_unit: Counts = field(default_factory=lambda: array("q"))
    prev_unit: Counts = field(default_factory=lambda: array("q"))
    could: bytearray = field(default_factory=bytearray)  # each line could be a log line
    not_move: Counts = field(default_factory=lambda: array("q"))  # prefix counts
    maybe_ply: Counts = field(default_factory=lambda: array("q"))
    length: Counts = field(default_factory=lambda: array("q"))
    letters: dict[str, Counts] = field(default_factory=dict)
    by_letter: dict[str, tuple[Counts, Counts, Counts, Counts]] = field(default_factory=dict)

    def finish(self) -> None:
        raw = self.lines.lines
        texts = [normal_line(line) for line in raw]  # the raw line itself when already normal
        n = len(texts)
        code = self.code
        prefixed = _filled(-1, n, code)
        if self.cells:
            pending = -1
            for i, text in enumerate(texts):
                if not text:
                    continue
                if _NUMBER_ONLY.fullmatch(text):
                    pending, texts[i] = i, ""
                elif _INTEGER_ONLY.fullmatch(text):
                    texts[i] = ""
                else:
                    if pending >= 0:
                        prefixed[i], texts[i] = pending, f"{normal_line(raw[pending])} {text}"
                    pending = -1
        self.texts, self.prefixed = texts, prefixed
        self.lead = array(code, (len(line) - len(line.lstrip()) for line in raw))
        self.body_end = array(code, (len(line.rstrip()) for line in raw))
        self.next_unit = _filled(n, n + 1, code)
        for i in range(n - 1, -1, -1):
            self.next_unit[i] = i if texts[i] else self.next_unit[i + 1]
        self.prev_unit = _filled(-1, n + 1, code)
        for i in range(n):
            self.prev_unit[i + 1] = i if texts[i] else self.prev_unit[i]
        self.could = bytearray(bool(t) and could_be_log_line(t) for t in texts)
        self.not_move = _prefix(
            (1 if t and not could else 0 for t, could in zip(texts, self.could, strict=True)),
            code,
        )
        self.maybe_ply = _prefix(
            (
                1 if could and not t.startswith(("[", "//")) else 0
                for t, could in zip(texts, self.could, strict=True)
            ),
            code,
        )
        self.length = _prefix((len(t) for t in texts), code)
        seen: dict[str, Counts] = {}
        for i, text in enumerate(texts):
            for letter in _pocket_letters(text) if text else ():
                counts = seen.get(letter)
                if counts is None:
                    counts = seen[letter] = _filled(0, n, code)
                counts[i] += 1
        self.letters = {letter: _prefix(counts, code) for letter, counts in sorted(seen.items())}

    def kinds(self, letter: str) -> tuple[Counts, Counts, Counts, Counts]:
        """Prefix counts of bad lines, plies and tags, and each line's next ply (lazily)."""
        found = self.by_letter.get(letter)
        if found is None:
            code = self.code
            kinds = bytearray(line_kind(text, letter) for text in self.texts)
            bad = _prefix((1 if k in (BAD, NOT_MOVE) else 0 for k in kinds), code)
            plies = _prefix((1 if k == PLY else 0 for k in kinds), code)
            tags = _prefix((1 if k == TAG else 0 for k in kinds), code)
            next_ply = _filled(len(kinds), len(kinds) + 1, code)
            for i in range(len(kinds) - 1, -1, -1):
                next_ply[i] = i if kinds[i] == PLY else next_ply[i + 1]
            found = self.by_letter[letter] = (bad, plies, tags, next_ply)
        return found


def _prefix(values: Iterable[int], code: str) -> Counts:
    """Prefix sums: the sum over [a, b) is p[b] - p[a]."""
    return array(code, accumulate(values, initial=0))


def _filled(value: int, count: int, code: str) -> Counts:
    return array(code, [value]) * count


# ---------------------------------------------------------------------------------------
# Candidates


@dataclass(frozen=True, slots=True)
class _Unit:
    """A line of a candidate outside the whole-line range: a partial line, or a line
    cut from its merged "3." cell. `line` and `column` say where it starts."""

    text: str
    line: int
    column: int


@dataclass(frozen=True)
class _Lines:
    """A candidate's lines in one rendering: `front` units, whole lines [a, b), `back`."""

    front: tuple[_Unit, ...]
    a: int
    b: int
    back: tuple[_Unit, ...]


def _lines_of(render: _Render, span: tuple[int, int, int, int]) -> _Lines:
    l0, c0, l1, c1 = span
    raw = render.lines.lines
    count = len(raw)
    front: list[_Unit] = []
    back: list[_Unit] = []
    if l0 >= count:
        return _Lines((), count, count, ())
    if l0 == l1:
        if c0 <= render.lead[l0] and c1 >= render.body_end[l0]:
            a, b = l0, l0 + 1
        else:
            a = b = l0 + 1
            front.append(_Unit(normal_line(raw[l0][c0:c1]), l0, c0))
    else:
        if c0 <= render.lead[l0]:
            a = l0
        else:
            a = l0 + 1
            front.append(_Unit(normal_line(raw[l0][c0:]), l0, c0))
        if l1 >= count or c1 == 0:
            b = min(l1, count)
        elif c1 >= render.body_end[l1]:
            b = l1 + 1
        else:
            b = l1
            back.append(_Unit(normal_line(raw[l1][:c1]), l1, 0))
    first = render.next_unit[a] if a < b else b
    if first < b and render.prefixed[first] >= 0 and render.prefixed[first] < a:
        # the first line's "3." cell lies outside: the line counts without it
        text = normal_line(raw[first])
        front.append(_Unit(text, first, render.lead[first]))
        a = first + 1
    return _Lines(tuple(u for u in front if u.text), a, b, tuple(u for u in back if u.text))


@dataclass(frozen=True)
class _ParsedCandidate:
    """A candidate's lines after trimming, and what they parse into."""

    units: _Lines
    plies: int
    letter: str
    length: int


def _ends(render: _Render, lines: _Lines, from_front: bool) -> list[_Unit | int]:
    """The first (or last) MAX_TRIM + 1 units of a candidate: `_Unit`s or line indexes."""
    out: list[_Unit | int] = []
    if from_front:
        out.extend(lines.front)
        i = render.next_unit[lines.a]
        while i < lines.b and len(out) <= MAX_TRIM:
            out.append(i)
            i = render.next_unit[i + 1]
        out.extend(lines.back)
    else:
        out.extend(reversed(lines.back))
        i = render.prev_unit[lines.b]
        while i >= lines.a and len(out) <= MAX_TRIM:
            out.append(i)
            i = render.prev_unit[i]
        out.extend(reversed(lines.front))
    return out[: MAX_TRIM + 1]


def _trim(render: _Render, lines: _Lines) -> _Lines | None:
    """Drop up to MAX_TRIM non-move lines at each end; None if nothing is left."""

    def not_move(unit: _Unit | int) -> bool:
        if isinstance(unit, _Unit):
            return not could_be_log_line(unit.text)
        return not render.could[unit]

    front, a, b, back = list(lines.front), lines.a, lines.b, list(lines.back)
    for trimmed, unit in enumerate(_ends(render, lines, True)):
        if trimmed >= MAX_TRIM or not not_move(unit):
            break
        if isinstance(unit, _Unit):
            (front if unit in front else back).remove(unit)
        else:
            a = unit + 1
    current = _Lines(tuple(front), a, max(a, b), tuple(back))
    for trimmed, unit in enumerate(_ends(render, current, False)):
        if trimmed >= MAX_TRIM or not not_move(unit):
            break
        if isinstance(unit, _Unit):
            (back if unit in back else front).remove(unit)
        else:
            b = unit
    kept = _Lines(tuple(front), a, max(a, b), tuple(back))
    if not kept.front and not kept.back and render.next_unit[kept.a] >= kept.b:
        return None
    return kept


def _judge(render: _Render, lines: _Lines, label_letter: str | None) -> _ParsedCandidate | None:
    """The candidate's plies if all its lines (trimmed) parse as a log with a ply."""
    ply_shaped = render.maybe_ply[max(lines.a, lines.b)] - render.maybe_ply[lines.a]
    if not lines.front and not lines.back and not ply_shaped:
        return None  # not one line shaped like a ply: most elements of a page
    kept = _trim(render, lines)
    if kept is None:
        return None
    a, b = kept.a, kept.b
    extra = [*kept.front, *kept.back]
    if render.not_move[b] - render.not_move[a] or any(not could_be_log_line(u.text) for u in extra):
        return None
    counts = {letter: prefix[b] - prefix[a] for letter, prefix in render.letters.items()}
    for unit in extra:
        for letter in _pocket_letters(unit.text):
            counts[letter] = counts.get(letter, 0) + 1
    used = max(sorted(counts), key=lambda k: counts[k]) if any(counts.values()) else None
    letters = [label_letter or used or DEFAULT_POCKET_FILE]
    if used is not None and used not in letters:
        letters.append(used)
    length = render.length[b] - render.length[a] + sum(len(u.text) for u in extra)
    for letter in letters:
        plies = _plies(render, kept, letter)
        if plies:
            return _ParsedCandidate(kept, plies, letter, length)
    return None


def _plies(render: _Render, kept: _Lines, letter: str) -> int:
    """How many plies the lines hold with this pocket file; 0 if any line is not valid."""
    bad, plies, tags, next_ply = render.kinds(letter)
    a, b = kept.a, kept.b
    if bad[b] - bad[a]:
        return 0
    front = [line_kind(u.text, letter) for u in kept.front]
    back = [line_kind(u.text, letter) for u in kept.back]
    if any(k in (BAD, NOT_MOVE) for k in front + back):
        return 0
    count = plies[b] - plies[a] + front.count(PLY) + back.count(PLY)
    # Tags come before the first ply: none may follow it.
    if PLY in front:
        late_tag = TAG in front[front.index(PLY) :] or tags[b] > tags[a] or TAG in back
    elif next_ply[a] < b:
        late_tag = tags[b] > tags[next_ply[a]] or TAG in back
    else:
        late_tag = PLY in back and TAG in back[back.index(PLY) :]
    return 0 if late_tag else count


# ---------------------------------------------------------------------------------------
# The search


@dataclass(frozen=True)
class MoveList:
    """The move list found: its element, its lines, and where each line stands in the page."""

    element: Tag
    lines: tuple[str, ...]
    plies: int
    pocket_file: PocketFile
    positions: PagePositions  # (line, column) in the page, 1-based
    rival: Tag | None = None  # another list as good, not nested with this one


@dataclass(frozen=True)
class NearestMiss:
    """The candidate that came closest when no move list was found: where it breaks."""

    element: Tag
    plies: int
    line: int
    column: int
    text: str


# Elements that hold a list by themselves; a candidate spanning two of them is a merge.
LIST_CONTAINERS: Final = frozenset({"pre", "textarea", "ol", "ul", "table", "dl", "listing"})
_CELLS: Final = ("td", "th")
_ROWS_OR_CELLS: Final = ("td", "th", "tr")


class _Page:
    """The page rendered once in the three modes, with every element's span in each.

    Per-element facts are arrays indexed by the element's pre-order number, and the
    spans are one array per mode and end: a page of 300,000 elements would otherwise
    hold 300,000 lists of tuples of boxed integers.
    """

    def __init__(self, root: Tag, soup: BeautifulSoup) -> None:
        from bs4.element import Tag as TagClass

        self.soup = soup
        size = page_size(soup)
        code = int_code(size if size is not None else 2**31)
        # Cell by cell only if the page has cells: a <pre> page has two renderings, not three.
        with_cells = root.name in _ROWS_OR_CELLS or root.find(_ROWS_OR_CELLS) is not None
        self.pieces = [Pieces(code) for _ in range(3 if with_cells else 2)]
        modes = [
            LineBuilder(pieces=self.pieces[0]),
            LineBuilder(keep_newlines=True, pieces=self.pieces[1]),
        ]
        self.renders = [_Render(modes[0], False, code), _Render(modes[1], False, code)]
        if with_cells:
            modes.append(LineBuilder(cells_as_lines=True, pieces=self.pieces[2]))
            self.renders.append(_Render(modes[2], True, code))
        self.tags: list[Tag] = [root]
        self.depth = array(code, [0])
        self.parent = array(code, [-1])
        self.last = array(code, [0])  # the last pre-order index in each element's subtree
        self.block = array(code, [-1])  # the nearest block (or cell) above, by index
        self.has_cells = bytearray([root.name in _ROWS_OR_CELLS])
        # where each element's text starts and ends in each rendering: (line, column)
        self.start_line = [array(code, [0]) for _ in modes]
        self.start_column = [array(code, [0]) for _ in modes]
        self.end_line = [array(code, [0]) for _ in modes]
        self.end_column = [array(code, [0]) for _ in modes]
        self.visible_start = array(code, [0])  # non-space characters before the element
        self.visible_end = array(code, [0])
        visible = 0
        open_: list[int] = [0]
        pre = 1 if root.name in PREFORMATTED else 0
        for event, node in events(root):
            if event == TEXT:
                value = str(node)
                # split or collapsed once, shared by the renderings: a <pre>'s lines are
                # the same strings in all three
                parts = source_lines(value)
                flowed = collapse_spaces(value) if not pre else ""
                for mode in modes:
                    if mode.keeps_lines(pre > 0):
                        mode.put_lines(parts, node)
                    else:
                        mode.put(flowed, node)
                visible += _visible(value)
                continue
            if not isinstance(node, TagClass):
                continue
            name = node.name
            if event == ENTER:
                index = len(self.tags)
                parent = open_[-1]
                self.tags.append(node)
                self.depth.append(len(open_))
                self.parent.append(parent)
                self.last.append(index)
                above = self.tags[parent].name
                self.block.append(
                    parent if above in BLOCK or above in _CELLS else self.block[parent]
                )
                self.has_cells.append(name in _ROWS_OR_CELLS)
                for number, mode in enumerate(modes):
                    mode.enter(name)
                    line, column = mode.where
                    self.start_line[number].append(line)
                    self.start_column[number].append(column)
                    self.end_line[number].append(0)
                    self.end_column[number].append(0)
                self.visible_start.append(visible)
                self.visible_end.append(visible)
                open_.append(index)
                pre += name in PREFORMATTED
            elif event == EXIT:
                index = open_.pop()
                self._close(index, modes)
                self.visible_end[index] = visible
                self.last[index] = len(self.tags) - 1
                if self.has_cells[index]:
                    self.has_cells[open_[-1]] = True
                for mode in modes:
                    mode.exit(name)
                pre -= name in PREFORMATTED
        self._close(0, modes)
        self.visible_end[0] = visible
        self.last[0] = len(self.tags) - 1
        for mode in modes:
            mode.end_line()
        for render in self.renders:
            render.finish()

    def _close(self, index: int, modes: list[LineBuilder]) -> None:
        for number, mode in enumerate(modes):
            self.end_line[number][index], self.end_column[number][index] = mode.where

    def span(self, index: int, mode: int) -> tuple[int, int, int, int]:
        """Where the element's text starts and ends in a rendering: (line, column) twice."""
        return (
            self.start_line[mode][index],
            self.start_column[mode][index],
            self.end_line[mode][index],
            self.end_column[mode][index],
        )

    def stands_alone(self, index: int) -> bool:
        """True unless the element is words inside running text (``<code>`` in a sentence).

        A move list is lines of its own; an inline element counts only when it holds all
        the visible text of the block around it. This keeps the rules' examples out.
        """
        name = self.tags[index].name
        if index == 0 or name in BLOCK or name in _CELLS:
            return True
        block = self.block[index]
        if block < 0:
            return True
        inner = self.visible_end[index] - self.visible_start[index]
        return inner == self.visible_end[block] - self.visible_start[block]

    def nested(self, one: int, other: int) -> bool:
        """Is one element inside the other (either way)? Pre-order ranges, O(1)."""
        return other < one <= self.last[other] or one < other <= self.last[one]

    def locate(self, mode: int, line: int, column: int) -> tuple[int, int]:
        """The page position of the first visible character at or after (line, column)
        of a rendering: found in the text node it was rendered from.

        The cost is that of the pieces of one line, never of the whole text node: a
        5 MiB ``<pre>`` is one node, and its 650,000 lines are each located."""
        pieces = self.pieces[mode]
        first = bisect_left(pieces.line, line)
        end = bisect_left(pieces.line, line + 1, first)
        # the last piece starting at or before the column, then on along the line
        at = max(first, bisect_right(pieces.column, column, first, end) - 1)
        for index in range(at, end):
            value, at_column = pieces.value[index], pieces.column[index]
            # Visible characters of the piece before `column`, then the next visible one,
            # counted in the node's own text (the rendering may have collapsed spaces).
            before = _visible(value[: max(0, column - at_column)])
            node = pieces.node[index]
            offset = text_offset(self.soup, node)
            text = node if isinstance(node, str) else str(node)  # a NavigableString: no copy
            found = _after_visible(text, pieces.start[index], before)
            if found is not None and offset is not None:
                return line_column(self.soup, offset + found)
        return 1, 1


def _visible(text: str) -> int:
    """How many characters of `text` are not white space (as `str.split` sees it)."""
    return len(_SPACE_RUN.sub("", text))


_SPACE_RUN: Final = re.compile(r"\s+")


def _after_visible(text: str, start: int, count: int) -> int | None:
    """The index in `text` of the first visible character after `count` visible ones
    from `start`; None if there is none."""
    for index in range(start, len(text)):
        if not text[index].isspace():
            if count == 0:
                return index
            count -= 1
    return None


def find_move_list(
    root: Tag, label_letter: str | None, soup: BeautifulSoup | None = None
) -> MoveList | NearestMiss | None:
    """The element whose lines parse into the most plies (smallest on ties); when there is
    none, the candidate that came nearest (`NearestMiss`), or None if nothing looked like
    a move.

    An element that merely wraps two separate lists (a rules example in a ``pre`` next
    to the game's ``pre``) would parse into more plies than either; it is not taken.
    """
    page = _Page(root, soup if soup is not None else _soup_of(root))
    found = _Found()
    nearest: tuple[int, int, int, _Lines] | None = None  # (plies, index, mode, lines)
    for index in range(len(page.tags)):
        if not page.stands_alone(index):
            continue
        modes = (0, 1, 2) if page.has_cells[index] else (0, 1)
        best: tuple[tuple[int, int], int] | None = None  # ((-plies, length), mode)
        for mode in modes:
            render = page.renders[mode]
            lines = _lines_of(render, page.span(index, mode))
            judged = _judge(render, lines, label_letter)
            if judged is None:
                nearest = _nearer(page, nearest, lines, index, mode)
                continue
            key = (-judged.plies, judged.length)
            if best is None or key < best[0]:
                best = (key, mode)
        if best is not None:
            found.add(index, best[1], -best[0][0], best[0][1])
    if not len(found):
        return _miss(page, nearest)
    whole = found.not_wrapping_two(page)
    if not whole:
        return _miss(page, nearest)
    _, at = min((found.key(page, at), at) for at in whole)
    index, mode = found.index[at], found.mode[at]
    rival_keys = [
        (found.key(page, other), found.index[other])
        for other in whole
        if found.plies[other] == found.plies[at]
        and found.length[other] == found.length[at]
        and found.index[other] != index
        and not page.nested(found.index[other], index)
    ]
    rival = page.tags[min(rival_keys)[1]] if rival_keys else None
    render = page.renders[mode]
    judged = _judge(render, _lines_of(render, page.span(index, mode)), label_letter)
    assert judged is not None  # judged the same way a moment ago
    return _move_list(page, index, mode, judged, rival)


class _Found:
    """The elements whose lines make a move list: for each, its best rendering's plies
    and length (in arrays: every one of 300,000 ``<pre>`` blocks may be one)."""

    def __init__(self) -> None:
        self.index = array("q")
        self.mode = bytearray()
        self.plies = array("q")
        self.length = array("q")

    def __len__(self) -> int:
        return len(self.index)

    def add(self, index: int, mode: int, plies: int, length: int) -> None:
        self.index.append(index)
        self.mode.append(mode)
        self.plies.append(plies)
        self.length.append(length)

    def key(self, page: _Page, at: int) -> tuple[int, int, int, int]:
        """Most plies, then shortest, then deepest, then first in the page."""
        index = self.index[at]
        return (-self.plies[at], self.length[at], -page.depth[index], index)

    def not_wrapping_two(self, page: _Page) -> list[int]:
        """The entries that do not wrap two separate list containers (outermost ones)."""
        container = bytearray(len(page.tags))
        for index in self.index:
            if page.tags[index].name in LIST_CONTAINERS:
                container[index] = 1
        wraps = _lists_inside(page, container)
        return [at for at in range(len(self)) if wraps[self.index[at]] < 2]


def _soup_of(root: Tag) -> BeautifulSoup:
    from bs4 import BeautifulSoup

    top: PageElement = root
    while top.parent is not None:
        top = top.parent
    assert isinstance(top, BeautifulSoup)
    return top


def _lists_inside(page: _Page, container: bytearray) -> Counts:
    """For each element, how many separate list containers it wraps (outermost ones)."""
    wraps = _filled(0, len(page.tags), "q")
    for index in range(len(page.tags) - 1, 0, -1):
        parent = page.parent[index]
        wraps[parent] += 1 if container[index] else wraps[index]
    return wraps


def _units(render: _Render, kept: _Lines) -> Iterator[_Unit]:
    """A candidate's kept lines as units, each with where it starts in its rendering
    (one at a time: a list of them would be the largest thing a long list makes)."""
    yield from kept.front
    i = render.next_unit[kept.a]
    while i < kept.b:
        start = render.prefixed[i] if render.prefixed[i] >= 0 else i
        yield _Unit(render.texts[i], start, render.lead[start])
        i = render.next_unit[i + 1]
    yield from kept.back


def _move_list(
    page: _Page, index: int, mode: int, judged: _ParsedCandidate, rival: Tag | None
) -> MoveList:
    lines: list[str] = []
    positions = PagePositions()
    for unit in _units(page.renders[mode], judged.units):
        lines.append(unit.text)
        positions.append(*page.locate(mode, unit.line, unit.column))
    return MoveList(
        element=page.tags[index],
        lines=tuple(lines),
        plies=judged.plies,
        pocket_file=PocketFile(judged.letter),
        positions=positions,
        rival=rival,
    )


def _nearer(
    page: _Page,
    nearest: tuple[int, int, int, _Lines] | None,
    lines: _Lines,
    index: int,
    mode: int,
) -> tuple[int, int, int, _Lines] | None:
    """Keep the failed candidate with the most ply lines (the innermost of equals)."""
    render = page.renders[mode]
    ply_shaped = render.maybe_ply[max(lines.a, lines.b)] - render.maybe_ply[lines.a]
    if not lines.front and not lines.back and not ply_shaped:
        return nearest
    _, plies, _, _ = render.kinds(DEFAULT_POCKET_FILE)
    count = plies[lines.b] - plies[lines.a] if lines.a < lines.b else 0
    count += sum(
        1 for u in (*lines.front, *lines.back) if line_kind(u.text, DEFAULT_POCKET_FILE) == PLY
    )
    if count and (
        nearest is None
        or count > nearest[0]
        or (count == nearest[0] and page.nested(index, nearest[1]) and index > nearest[1])
    ):
        return (count, index, mode, lines)
    return nearest


def _miss(page: _Page, nearest: tuple[int, int, int, _Lines] | None) -> NearestMiss | None:
    if nearest is None:
        return None
    plies, index, mode, lines = nearest
    render = page.renders[mode]
    first: _Unit | None = None
    for unit in _units(render, _trim(render, lines) or lines):
        first = first or unit
        if line_kind(unit.text, DEFAULT_POCKET_FILE) in (BAD, NOT_MOVE):
            first = unit  # where the list breaks
            break
    assert first is not None  # a candidate has a line shaped like a ply
    line, column = page.locate(mode, first.line, first.column)
    return NearestMiss(page.tags[index], plies, line, column, first.text)
