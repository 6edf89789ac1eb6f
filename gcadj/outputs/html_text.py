"""Text in gcadj's HTML pages: escaped, and file names that break only where they should."""

from __future__ import annotations

import html
import re

from gcadj.errors import message_parts


def escape(value: object) -> str:
    """`value` as HTML text, quotes included (safe in an attribute too)."""
    return html.escape("" if value is None else str(value), quote=True)


def breakable(name: str) -> str:
    """A file name or address as HTML that a narrow column breaks after ``/``, ``_`` or
    ``-`` only, not mid-word ("Capablan|ca_001.txt"): escaped, with ``<wbr>`` there. The
    page's style must not break words anywhere else (``overflow-wrap: break-word`` breaks a
    part only when it alone is wider than the column)."""
    return re.sub(r"([/_-])", r"\1<wbr>", escape(name))


_WHERE = re.compile(r"^(\d+):(\d+): ")


def message_html(text: str, source: str | None = None) -> str:
    """An error message laid out for reading (`gcadj.errors.message_parts`): the message,
    then the excerpt of the line with its caret under the column in a ``<pre>`` (so the
    caret points where it should), then the hint. A leading ``SOURCE:`` is left out when
    the page names the source, and ``LINE:COLUMN:`` is said in words."""
    parts = message_parts(text)
    message = parts.message
    if source and message.startswith(f"{source}:"):
        message = message[len(source) + 1 :].lstrip()
    message = _WHERE.sub(r"line \1, column \2: ", message)
    out = [f'<p class="message">{escape(message)}</p>']
    if parts.excerpt is not None:
        out.append(f'<pre class="excerpt">{escape(parts.excerpt)}</pre>')
    if parts.hint is not None:
        out.append(f'<p class="hint">Hint: {escape(parts.hint)}</p>')
    return "".join(out)


__all__ = ["breakable", "escape", "message_html"]
