"""HTML to a Beautiful Soup tree in time linear in the page, with where every text stands.

Python's `html.parser` (behind bs4's "html.parser" builder) takes quadratic time on some
inputs a hostile or broken page can hold: each ``<`` of ``<x<x<x…`` or ``</</…`` makes it
search to the end of the page again (80 KB of ``<x`` took 14 s here), and it reports
where tags stand but not where text does. So pages are tokenized here instead, by one
forward pass in which every search starts where the last one ended (``str.find`` and
anchored matches of expressions that cannot backtrack), and the tokens are handed to
Beautiful Soup's own tree building, so the tree is the one bs4 builds from html.parser's
tokens. What is tokenized, roughly as the HTML standard says:

* comments ``<!-- … -->`` (unterminated: to the end), ``<!…>`` and ``<?…>`` (kept as
  declarations and processing instructions), ``<![CDATA[…]]>``;
* start tags with attributes (quoted, unquoted or bare values; character references
  decoded) and ``/>``; end tags; a tag left open at the end of the page is dropped;
* the text of ``script``, ``style``, ``xmp``, ``iframe``, ``noembed``, ``noframes`` raw up
  to its end tag, that of ``textarea`` and ``title`` with references decoded, and
  everything after ``plaintext``;
* any other ``<`` is text. A numeric reference too long for any character is U+FFFD.

Every tag keeps bs4's ``sourceline`` / ``sourcepos``; every text's offset in the page is
kept too (`text_offset`), so a move can be located in the file the user gave.
"""

from __future__ import annotations

import bisect
import html as html_lib
import re
import sys
from array import array
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final, overload

if TYPE_CHECKING:
    from bs4 import BeautifulSoup
    from bs4.element import PageElement

RAW_TEXT: Final = frozenset({"script", "style", "xmp", "iframe", "noembed", "noframes"})
ESCAPABLE_RAW_TEXT: Final = frozenset({"textarea", "title"})

_NAME: Final = re.compile(r"[A-Za-z][^\t\n\f\r />]*")
_SPACE: Final = re.compile(r"[\t\n\f\r ]*")
_ATTR_NAME: Final = re.compile(r"[^\t\n\f\r />][^\t\n\f\r /=>]*")
_UNQUOTED: Final = re.compile(r"[^\t\n\f\r >]*")
_LONG_REFERENCE: Final = re.compile(r"&#(?:[xX][0-9a-fA-F]{7,}|[0-9]{8,});?")
_end_tags: dict[str, re.Pattern[str]] = {}
OFFSET: Final = "gcadj_offset"  # where a text node starts in the page (see `text_offset`)


def unescape(text: str) -> str:
    """Character references decoded; one too long for any character (``&#99999999…``,
    which would make `int` refuse or take quadratic time) becomes U+FFFD."""
    if "&" not in text:
        return text
    return html_lib.unescape(_LONG_REFERENCE.sub("\ufffd", text))


def _after_space(page: str, at: int) -> int:
    match = _SPACE.match(page, at)
    return at if match is None else match.end()


def _end_tag(name: str) -> re.Pattern[str]:
    pattern = _end_tags.get(name)
    if pattern is None:
        pattern = _end_tags[name] = re.compile(
            rf"</{re.escape(name)}(?=[\t\n\f\r />]|\Z)", re.IGNORECASE
        )
    return pattern


class SourceMap:
    """Offsets in the page to 1-based (line, column), lines ended by ``\\n``."""

    def __init__(self, text: str) -> None:
        starts = array("q", [0])  # not a list: 8 bytes a line, not 36
        at = text.find("\n")
        while at >= 0:
            starts.append(at + 1)
            at = text.find("\n", at + 1)
        self._starts = starts
        self.size = len(text)

    def line_column(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1


class PagePositions(Sequence[tuple[int, int]]):
    """Places in a page, (line, column) pairs, 1-based, kept in two arrays.

    A move list of 650,000 lines has a place per line; as a tuple of pairs that is about
    100 bytes a line, here 8. It compares equal to any sequence of the same pairs.
    """

    __slots__ = ("_columns", "_lines")

    def __init__(self, pairs: Iterable[tuple[int, int]] = ()) -> None:
        self._lines = array("q")
        self._columns = array("q")
        for line, column in pairs:
            self.append(line, column)

    def append(self, line: int, column: int) -> None:
        self._lines.append(line)
        self._columns.append(column)

    def __len__(self) -> int:
        return len(self._lines)

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[tuple[int, int], ...]: ...
    def __getitem__(self, index: int | slice) -> tuple[int, int] | tuple[tuple[int, int], ...]:
        if isinstance(index, slice):
            return tuple(zip(self._lines[index], self._columns[index], strict=True))
        return self._lines[index], self._columns[index]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"PagePositions({list(self)!r})"


def _builder_class() -> type[Any]:
    """The tree builder, defined once bs4 is imported (it loads only for pages)."""
    from bs4.builder._htmlparser import HTMLParserTreeBuilder

    class LinearTreeBuilder(HTMLParserTreeBuilder):
        """bs4's html.parser builder, with `_Tokenizer` in place of html.parser."""

        def __init__(self) -> None:
            super().__init__()
            self.source_map: SourceMap | None = None

        def feed(self, markup: Any, _parser_class: Any = None) -> None:
            assert isinstance(markup, str) and self.soup is not None
            self.source_map = SourceMap(markup)
            _Tokenizer(markup, self.soup, self.source_map).run()

    return LinearTreeBuilder


_BUILDER: list[type[Any]] = []


def parse_html(markup: str) -> BeautifulSoup:
    """The page as a Beautiful Soup tree, built in linear time (see the module docstring)."""
    from bs4 import BeautifulSoup

    if not _BUILDER:
        _BUILDER.append(_builder_class())
    return BeautifulSoup(markup, builder=_BUILDER[0]())


def text_position(soup: BeautifulSoup, node: PageElement) -> tuple[int, int] | None:
    """Where a text or a tag of `soup` starts in its page, as (line, column), 1-based."""
    source_map = getattr(soup.builder, "source_map", None)
    offset = text_offset(soup, node)
    if offset is not None and isinstance(source_map, SourceMap):
        return source_map.line_column(offset)
    line, column = getattr(node, "sourceline", None), getattr(node, "sourcepos", None)
    if isinstance(line, int) and isinstance(column, int):
        return line, column + 1
    return None


def text_offset(soup: BeautifulSoup, node: PageElement) -> int | None:
    """The offset in the page where a text node of `soup` starts (None if unknown)."""
    value = getattr(node, OFFSET, None)
    return value if isinstance(value, int) else None


def page_size(soup: BeautifulSoup) -> int | None:
    """How many characters the page `soup` was parsed from holds (None if unknown)."""
    source_map = getattr(soup.builder, "source_map", None)
    return source_map.size if isinstance(source_map, SourceMap) else None


def line_column(soup: BeautifulSoup, offset: int) -> tuple[int, int]:
    """An offset in the page `soup` was parsed from, as 1-based (line, column)."""
    source_map = getattr(soup.builder, "source_map", None)
    return source_map.line_column(offset) if isinstance(source_map, SourceMap) else (1, 1)


class _Tokenizer:
    """One forward pass over the page, feeding bs4's tree building."""

    def __init__(self, page: str, soup: BeautifulSoup, source_map: SourceMap) -> None:
        self.page = page
        self.soup = soup
        self.source_map = source_map
        self.closed_empty: dict[str, int] = {}  # void tags closed at once, by name

    def run(self) -> None:
        page, n = self.page, len(self.page)
        text_start = scan = 0
        while scan < n:
            lt = page.find("<", scan)
            if lt < 0:
                break
            nxt = page[lt + 1 : lt + 2]
            if not (nxt.isascii() and (nxt.isalpha() or (nxt != "" and nxt in "!/?"))):
                scan = lt + 1  # a '<' that starts nothing is text
                continue
            self.text(text_start, lt, decode=True)
            scan = text_start = self.markup(lt)
        self.text(text_start, n, decode=True)
        self.soup.endData()

    # -- the tokens --------------------------------------------------------------------

    def text(self, start: int, end: int, *, decode: bool) -> None:
        if end <= start:
            return
        raw = self.page[start:end]
        soup = self.soup
        soup.endData()
        soup.handle_data(unescape(raw) if decode else raw)
        soup.endData()
        current = soup.currentTag
        if current is not None and current.contents:
            # on the node itself, not in a dict by id(): its attribute dict has room
            # for one more, so this costs nothing (a dict entry cost 60 bytes a text)
            setattr(current.contents[-1], OFFSET, start)

    def special(self, data: str, kind: str) -> None:
        from bs4.element import CData, Comment, Declaration, Doctype, ProcessingInstruction

        classes: dict[str, Any] = {
            "comment": Comment,
            "cdata": CData,
            "doctype": Doctype,
            "declaration": Declaration,
            "pi": ProcessingInstruction,
        }
        soup = self.soup
        soup.endData()
        soup.handle_data(data)
        soup.endData(classes[kind])

    def markup(self, lt: int) -> int:
        """Read the markup starting at `lt` (a '<'); return where text resumes."""
        page, n = self.page, len(self.page)
        nxt = page[lt + 1]
        if nxt == "!":
            if page.startswith("<!--", lt):
                for closed in (">", "->"):  # "<!-->" and "<!--->" are empty comments
                    if page.startswith(closed, lt + 4):
                        self.special("", "comment")
                        return lt + 4 + len(closed)
                end = page.find("-->", lt + 4)
                stop = n if end < 0 else end
                self.special(page[lt + 4 : stop], "comment")
                return n if end < 0 else end + 3
            head = page[lt + 2 : lt + 9].upper()
            if head == "[CDATA[":
                end = page.find("]]>", lt + 9)
                self.special(page[lt + 9 : n if end < 0 else end], "cdata")
                return n if end < 0 else end + 3
            gt = page.find(">", lt + 2)
            data = page[lt + 2 : n if gt < 0 else gt]
            if head == "DOCTYPE":
                self.special(data[len("DOCTYPE") :].strip(), "doctype")
            else:
                self.special(data, "declaration")
            return n if gt < 0 else gt + 1
        if nxt == "?":
            gt = page.find(">", lt + 2)
            self.special(page[lt + 2 : n if gt < 0 else gt], "pi")
            return n if gt < 0 else gt + 1
        if nxt == "/":
            return self.end_tag(lt)
        return self.start_tag(lt)

    def end_tag(self, lt: int) -> int:
        page, n = self.page, len(self.page)
        name = _NAME.match(page, lt + 2)
        if name is None:
            if page.startswith("</>", lt):
                return lt + 3
            gt = page.find(">", lt + 2)  # "</3 …>": a comment, as browsers read it
            self.special(page[lt + 2 : n if gt < 0 else gt], "comment")
            return n if gt < 0 else gt + 1
        gt = page.find(">", name.end())
        if gt < 0:
            return n  # an end tag cut off by the end of the page is dropped
        self.close(name.group().lower())
        return gt + 1

    def close(self, name: str, *, check_closed: bool = True) -> None:
        if check_closed and self.closed_empty.get(name):
            self.closed_empty[name] -= 1  # "<br></br>": the end tag of a void tag is ignored
        else:
            self.soup.handle_endtag(name)

    def start_tag(self, lt: int) -> int:
        page, n = self.page, len(self.page)
        match = _NAME.match(page, lt + 1)
        assert match is not None  # run() saw a letter after the '<'
        name = sys.intern(match.group().lower())  # one string per tag name, not per tag
        attrs: list[tuple[str, str]] = []
        at = match.end()
        self_closing = False
        while True:
            at = _after_space(page, at)
            if at >= n:
                return n  # a tag cut off by the end of the page is dropped
            char = page[at]
            if char == ">":
                at += 1
                break
            if char == "/":
                at += 1
                if page.startswith(">", at):
                    self_closing = True
                    at += 1
                    break
                continue
            key = _ATTR_NAME.match(page, at)
            assert key is not None  # char is no space, '/' or '>'
            at = _after_space(page, key.end())
            value = ""
            if page.startswith("=", at):
                at = _after_space(page, at + 1)
                quote = page[at : at + 1]
                if quote in ('"', "'"):
                    end = page.find(quote, at + 1)
                    if end < 0:
                        return n
                    value, at = page[at + 1 : end], end + 1
                else:
                    bare = _UNQUOTED.match(page, at)
                    assert bare is not None  # it matches the empty string
                    value, at = bare.group(), bare.end()
            else:
                at = key.end()
            attrs.append((key.group().lower(), unescape(value)))
        self.open(lt, name, attrs, self_closing)
        if self_closing:
            return at
        if name in RAW_TEXT or name in ESCAPABLE_RAW_TEXT:
            closing = _end_tag(name).search(page, at)
            stop = n if closing is None else closing.start()
            self.text(at, stop, decode=name in ESCAPABLE_RAW_TEXT)
            return stop
        if name == "plaintext":
            self.text(at, n, decode=False)
            return n
        return at

    def open(self, lt: int, name: str, attrs: list[tuple[str, str]], self_closing: bool) -> None:
        soup = self.soup
        attr_dict = soup.builder.attribute_dict_class()
        for key, value in attrs:
            attr_dict[key] = value
        line, column = self.source_map.line_column(lt)
        tag = soup.handle_starttag(
            name, None, None, attr_dict, sourceline=line, sourcepos=column - 1
        )
        if self_closing:
            self.close(name, check_closed=False)
        elif tag is not None and tag.is_empty_element:
            self.close(name, check_closed=False)
            self.closed_empty[name] = self.closed_empty.get(name, 0) + 1
