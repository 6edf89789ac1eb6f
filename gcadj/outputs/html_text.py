"""Text in gcadj's HTML pages: escaped, and file names that break only where they should."""

from __future__ import annotations

import html
import re


def escape(value: object) -> str:
    """`value` as HTML text, quotes included (safe in an attribute too)."""
    return html.escape("" if value is None else str(value), quote=True)


def breakable(name: str) -> str:
    """A file name or address as HTML that a narrow column breaks after ``/``, ``_`` or
    ``-`` only, not mid-word ("Capablan|ca_001.txt"): escaped, with ``<wbr>`` there. The
    page's style must not break words anywhere else (``overflow-wrap: break-word`` breaks a
    part only when it alone is wider than the column)."""
    return re.sub(r"([/_-])", r"\1<wbr>", escape(name))


__all__ = ["breakable", "escape"]
