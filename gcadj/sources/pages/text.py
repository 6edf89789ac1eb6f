"""HTML to text lines, the way a reader sees them: the one rendering every page reader uses."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final
from urllib.parse import parse_qs, urlsplit

if TYPE_CHECKING:
    from bs4 import BeautifulSoup, Tag

log = logging.getLogger(__name__)

_SPACE: Final = " \t\u00a0\r\n\f\v"

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
    """Parse HTML with the standard library's parser (no lxml needed)."""
    from bs4 import BeautifulSoup

    return BeautifulSoup(html, "html.parser")


# ---------------------------------------------------------------------------------------
# Rendering elements to text lines


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
    from bs4.element import NavigableString, PreformattedString, Tag

    out: list[str] = []
    buf: list[str] = []

    def end_line() -> None:
        if buf:
            out.append("".join(buf))
            buf.clear()

    def text(value: str, pre: bool) -> None:
        if pre or keep_newlines:
            first, *rest = value.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            buf.append(first)
            for part in rest:
                end_line()
                buf.append(part)
        else:
            buf.append(re.sub(r"[ \t\r\n\f]+", " ", value))

    def walk(node: Tag, pre: bool) -> None:
        for child in node.children:
            if isinstance(child, NavigableString):
                if not isinstance(child, PreformattedString):  # comments, doctype, CDATA
                    text(str(child), pre)
                continue
            if not isinstance(child, Tag):
                continue
            if markers is not None and id(child) in markers:
                end_line()
                out.append(markers[id(child)])
                continue
            name = child.name
            if name in SKIP:
                continue
            if name == "br":
                end_line()
                continue
            cell = name in ("td", "th")
            block = name in BLOCK or (cell and cells_as_lines)
            if block:
                end_line()
            elif cell:
                buf.append(" ")
            walk(child, pre or name in PREFORMATTED)
            if block:
                end_line()
            elif cell:
                buf.append(" ")

    walk(element, element.name in PREFORMATTED)
    end_line()
    lines = [" ".join(line.replace("\u00a0", " ").split()) for line in out]
    lines = [line for line in lines if line]
    return _merge_number_cells(lines) if cells_as_lines else lines


_NUMBER_ONLY = re.compile(r"\d+\.(?:\.\.)?")
_INTEGER_ONLY = re.compile(r"\d+")


def _merge_number_cells(lines: list[str]) -> list[str]:
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
