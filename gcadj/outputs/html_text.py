"""Text in gcadj's HTML pages: error messages laid out, file names that break where they
should.

The markup is the viewer's templates' (``viewer_parts.html``: ``message``, ``breakable``),
rendered by its environment (`gcadj.outputs.templating.viewer_environment`); these are the
pieces other modules need as strings: the served pages put an error's layout in their own
templates (`gcadj.web.result_pages`).
"""

from __future__ import annotations

import re

from markupsafe import Markup

from gcadj.errors import message_parts
from gcadj.outputs.templating import viewer_macros


def breakable(name: str) -> Markup:
    """A file name or address as HTML that a narrow column breaks after ``/``, ``_`` or
    ``-`` only, not mid-word ("Capablan|ca_001.txt"): escaped, with ``<wbr>`` there. The
    page's style must not break words anywhere else (``overflow-wrap: break-word`` breaks a
    part only when it alone is wider than the column)."""
    return Markup(viewer_macros().breakable(name))


_WHERE = re.compile(r"^(\d+):(\d+): ")


def message_html(text: str, source: str | None = None) -> Markup:
    """An error message laid out for reading (`gcadj.errors.message_parts`): the message,
    then the excerpt of the line with its caret under the column in a ``<pre>`` (so the
    caret points where it should), then the hint. A leading ``SOURCE:`` is left out when
    the page names the source, and ``LINE:COLUMN:`` is said in words."""
    parts = message_parts(text)
    message = parts.message
    if source and message.startswith(f"{source}:"):
        message = message[len(source) + 1 :].lstrip()
    message = _WHERE.sub(r"line \1, column \2: ", message)
    return Markup(viewer_macros().message(message, parts.excerpt, parts.hint))


__all__ = ["breakable", "message_html"]
