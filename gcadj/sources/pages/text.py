"""HTML to text lines, the way a reader sees them: the one rendering every page reader uses."""

from __future__ import annotations

import logging
import re
from array import array
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Final
from urllib.parse import parse_qs, urlsplit

from gcadj.sources.pages.html_tree import parse_html

if TYPE_CHECKING:
    from bs4 import BeautifulSoup, Tag
    from bs4.element import PageElement

log = logging.getLogger(__name__)

# Elements whose text is never part of the game (display controls, scripts, ...).
SKIP: Final = frozenset(
    {
        "script", "style", "head", "title", "noscript", "template", "select", "option",
        "button", "iframe", "object", "embed", "svg", "math", "canvas", "map", "area",
    }
)  # fmt: skip
BLOCK: Final = frozenset(
    {
        "address", "article", "aside", "blockquote", "body", "caption", "center", "dd",
        "details", "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure",
        "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "html",
        "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody",
        "textarea", "tfoot", "thead", "tr", "ul", "legend", "menu", "listing", "xmp",
    }
)  # fmt: skip
PREFORMATTED: Final = frozenset({"pre", "textarea", "listing", "xmp", "plaintext"})


def tag_value(value: str) -> str:
    """A value fit for a tag pair: one line, PGN escapes for backslash and quote."""
    flat = " ".join(value.split())
    return flat.replace("\\", "\\\\").replace('"', '\\"')


def query_value(url: str, key: str) -> str | None:
    """The first value of `key` in the URL's query string (``+`` read as a space), or None."""
    values = parse_qs(urlsplit(url).query).get(key)
    return values[0] if values else None


def soup_of(html: str) -> BeautifulSoup:
    """Parse HTML in linear time, keeping where every text stands (`pages.html_tree`)."""
    return parse_html(html)


# ---------------------------------------------------------------------------------------
# Walking the tree without recursion

ENTER: Final = 0
EXIT: Final = 1
TEXT: Final = 2
MARK: Final = 3


def events(
    root: Tag, markers: Mapping[int, str] | None = None
) -> Iterator[tuple[int, PageElement]]:
    """(ENTER, tag), (TEXT, string), (EXIT, tag) below `root` in document order, and
    (MARK, tag) for a tag whose id is in `markers` (not entered). An explicit stack, not
    recursion: a page may nest elements 20,000 deep. Elements in SKIP and comments,
    doctypes and CDATA are left out."""
    from bs4.element import NavigableString, PreformattedString, Tag

    stack: list[tuple[Tag, Iterator[PageElement]]] = [(root, iter(root.children))]
    while stack:
        tag, children = stack[-1]
        for child in children:
            if isinstance(child, NavigableString):
                if not isinstance(child, PreformattedString):
                    yield TEXT, child
                continue
            if not isinstance(child, Tag) or child.name in SKIP:
                continue
            if markers is not None and id(child) in markers:
                yield MARK, child
                continue
            yield ENTER, child
            stack.append((child, iter(child.children)))
            break
        else:
            stack.pop()
            if stack:
                yield EXIT, tag


_COLLAPSE: Final = re.compile(r"[ \t\r\n\f]+")


def collapse_spaces(value: str) -> str:
    """Text as a browser flows it outside ``pre``: each run of spaces and line breaks one space."""
    return _COLLAPSE.sub(" ", value)


def source_lines(value: str) -> list[str]:
    """Text as a ``pre`` shows it: its lines, whatever ends them (``\\r\\n``, ``\\r``, ``\\n``)."""
    return value.replace("\r\n", "\n").replace("\r", "\n").split("\n")


class Pieces:
    """The text pieces of one rendering, in order, as parallel arrays: for each piece its
    line index and column in the rendering, its text node, where the piece starts in the
    node's text, and the piece as rendered.

    Arrays, not a tuple per piece: a 5 MiB ``<pre>`` is 650,000 pieces in each of three
    renderings, and a tuple of five with its boxed integers costs about 150 bytes where
    these cost about 40 (the node and the text are references to shared objects).
    """

    __slots__ = ("column", "line", "node", "start", "value")

    def __init__(self, code: str = "q") -> None:
        self.line = array(code)  # `code`: "i" (4 bytes) holds any count of a page under 2 GiB
        self.column = array(code)
        self.node: list[PageElement] = []
        self.start = array(code)
        self.value: list[str] = []

    def __len__(self) -> int:
        return len(self.line)

    def add(self, line: int, column: int, node: PageElement, start: int, value: str) -> None:
        self.line.append(line)
        self.column.append(column)
        self.node.append(node)
        self.start.append(start)
        self.value.append(value)


class LineBuilder:
    """Text pieces into lines, the way a reader sees them (one rendering mode).

    ``keep_newlines`` keeps source newlines everywhere (a ``div`` styled as
    preformatted); ``cells_as_lines`` puts each table cell on its own line. `where`
    is the (line index, column) the next piece goes to: an element's text is what lies
    between `where` at its start and at its end. When `pieces` is given, each piece
    is recorded there.
    """

    def __init__(
        self,
        *,
        keep_newlines: bool = False,
        cells_as_lines: bool = False,
        pieces: Pieces | None = None,
    ) -> None:
        self.keep_newlines = keep_newlines
        self.cells_as_lines = cells_as_lines
        self.lines: list[str] = []
        self.buf: list[str] = []
        self.column = 0
        self.pieces = pieces

    @property
    def where(self) -> tuple[int, int]:
        return len(self.lines), self.column

    def end_line(self) -> None:
        if self.buf:
            # one piece: "".join returns that very string, so a line of a <pre> is stored
            # once however many renderings hold it
            self.lines.append(self.buf[0] if len(self.buf) == 1 else "".join(self.buf))
            self.buf.clear()
            self.column = 0

    def put(self, value: str, node: PageElement | None = None, index: int = 0) -> None:
        if self.pieces is not None and node is not None:
            self.pieces.add(len(self.lines), self.column, node, index, value)
        self.buf.append(value)
        self.column += len(value)

    def put_lines(self, parts: list[str], node: PageElement | None = None) -> None:
        """A text's `source_lines`, each after the first starting a new line."""
        index = 0
        for number, part in enumerate(parts):
            if number:
                self.end_line()
            self.put(part, node, index)
            index += len(part) + 1

    def keeps_lines(self, pre: bool) -> bool:
        """Does this rendering keep a text's source newlines (inside ``pre``, or always)?"""
        return pre or self.keep_newlines

    def text(self, value: str, pre: bool, node: PageElement | None = None) -> None:
        if self.keeps_lines(pre):
            self.put_lines(source_lines(value), node)
        else:
            self.put(collapse_spaces(value), node)

    def enter(self, name: str) -> None:
        """At the start of an element: blocks (and cells, cell by cell) end the line."""
        if name == "br" or name in BLOCK or (self.cells_as_lines and name in ("td", "th")):
            self.end_line()
        elif name in ("td", "th"):
            self.put(" ")

    def exit(self, name: str) -> None:
        if name in BLOCK or (self.cells_as_lines and name in ("td", "th")):
            self.end_line()
        elif name in ("td", "th"):
            self.put(" ")

    def mark(self, line: str) -> None:
        self.end_line()
        self.lines.append(line)


def normal_line(line: str) -> str:
    """A rendered line as compared and parsed: stripped, runs of spaces made one space.

    A line already so is returned itself, not a copy: the renderings of a page hold
    a million lines, most of them already normal."""
    normal = " ".join(line.replace("\u00a0", " ").split())
    return line if normal == line else normal


def render_lines(
    element: Tag,
    *,
    keep_newlines: bool = False,
    cells_as_lines: bool = False,
    markers: Mapping[int, str] | None = None,
) -> list[str]:
    """The element's text as a reader sees it, one string per line, stripped, blanks dropped.

    ``keep_newlines`` keeps source newlines everywhere (a ``div`` styled as preformatted);
    ``cells_as_lines`` puts each table cell on its own line (a table holding a number and
    two plies per row). ``markers`` replaces the elements with those ids by a line of its
    own (used to find what stands between the heading and the board).
    """
    from bs4.element import Tag

    lines = LineBuilder(keep_newlines=keep_newlines, cells_as_lines=cells_as_lines)
    pre = 1 if element.name in PREFORMATTED else 0
    for event, node in events(element, markers):
        if event == TEXT:
            lines.text(str(node), pre > 0)
        elif event == MARK and markers is not None:
            lines.mark(markers[id(node)])
        elif isinstance(node, Tag):
            if event == ENTER:
                lines.enter(node.name)
                pre += node.name in PREFORMATTED
            else:
                lines.exit(node.name)
                pre -= node.name in PREFORMATTED
    lines.end_line()
    out = [normal_line(line) for line in lines.lines]
    out = [line for line in out if line]
    return merge_number_cells(out) if cells_as_lines else out


_NUMBER_ONLY = re.compile(r"\d+\.(?:\.\.)?")
_INTEGER_ONLY = re.compile(r"\d+")


def merge_number_cells(lines: list[str]) -> list[str]:
    """Cell-by-cell lines: a lone "3." joins the next cell, a lone "3" (a row number) goes."""
    merged: list[str] = []
    prefix = ""
    for line in lines:
        if _NUMBER_ONLY.fullmatch(line):
            prefix = f"{line} "
        elif _INTEGER_ONLY.fullmatch(line):
            continue
        else:
            merged.append(prefix + line)
            prefix = ""
    return merged


# ---------------------------------------------------------------------------------------
# Tables and cells, in time linear in the page however deep tables nest

SMALL: Final = 64  # nodes: a board square or an index cell holds a few


def table_rows(root: Tag) -> dict[int, list[Tag]]:
    """Each table's own rows (the ``tr`` whose nearest table is it), by the table's id().

    One walk of the tree: asking every table for ``find_all("tr")`` and every row for its
    table made tables nested 3,000 deep cost 3,000 × the page.
    """
    from bs4.element import Tag

    rows: dict[int, list[Tag]] = {}
    stack: list[tuple[Tag, Tag | None]] = [(root, None)]  # (tag, its nearest table above)
    while stack:
        tag, table = stack.pop()  # in document order: children are pushed reversed
        if tag.name == "tr" and table is not None:
            rows.setdefault(id(table), []).append(tag)
        inner = tag if tag.name == "table" else table
        stack.extend((child, inner) for child in reversed(tag.contents) if isinstance(child, Tag))
    return rows


def small_text(tag: Tag) -> str | None:
    """The tag's text, spaces normalised, if it holds at most SMALL nodes, else None.

    A board square or an index cell holds a few nodes; one that holds a whole nested
    table is neither, and reading it for every cell would cost depth × page.
    """
    from bs4.element import NavigableString, PreformattedString

    parts: list[str] = []
    for count, node in enumerate(tag.descendants):
        if count >= SMALL:
            return None
        if isinstance(node, NavigableString) and not isinstance(node, PreformattedString):
            parts.append(str(node))
    return " ".join("".join(parts).split())


def small_images(tag: Tag) -> list[Tag] | None:
    """The ``img`` elements in a tag of at most SMALL nodes, else None."""
    from bs4.element import Tag as TagClass

    images: list[Tag] = []
    for count, node in enumerate(tag.descendants):
        if count >= SMALL:
            return None
        if isinstance(node, TagClass) and node.name == "img":
            images.append(node)
    return images
