"""The written pages' templates (`gcadj/outputs/templates/`, Jinja2 with autoescape on)
and the static files they inline (`gcadj/outputs/static/`: the audit report's and the game
viewer's style sheets and scripts); and the one environment factory the served pages'
templates use too (`gcadj.web.templating`).

Two environments read these templates: the report's (`environment`), and the viewer's
(`viewer_environment`), which escapes text as Python's `html.escape` does (``&quot;``,
``&#x27;``) where markupsafe writes ``&#34;``, ``&#39;``: the same characters for a
browser, but the viewer's pages, its message boxes (`gcadj.outputs.html_text`) and the
agreement tests that look for a note or a reason in them keep the bytes they always had.

Why inline: a report is one self-contained file, mailed or archived without a folder
beside it. The files stay apart from the code so that they can be read and edited as
CSS and JavaScript; each is read once.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Final

import jinja2
from markupsafe import Markup

from gcadj.about import GENERATOR_META, __version__

HERE: Final = Path(__file__).parent
TEMPLATES: Final = HERE / "templates"
STATIC: Final = HERE / "static"
BOXES: Final = "viewer_boxes.html"
"""The viewer's template of the boxes of an adjudication and an analysis."""


@cache
def read_asset(folder: Path, name: str) -> Markup:
    """A static file's text, to inline in a page (it is the package's own, never escaped)."""
    return Markup((folder / name).read_text(encoding="utf-8"))


def break_parts(name: str) -> list[str]:
    """A file name or address cut after each ``/``, ``_`` or ``-`` (the places where the
    templates' ``breakable`` macro lets a narrow column break it, as
    `gcadj.outputs.html_text.breakable` does).

    >>> break_parts("logs/Capablanca_001.txt")
    ['logs/', 'Capablanca_', '001.txt']
    """
    return re.split(r"(?<=[/_-])", name)


def html_escaped(value: object) -> object:
    """What a ``{{ value }}`` writes in the viewer's templates: `value` escaped as
    `html.escape` does, quotes included (safe in an attribute too); markup (a macro's
    output, `Markup`) as it is.

    Only text with a quote is escaped here: for ``&``, ``<`` and ``>`` the autoescape
    that follows writes what `html.escape` writes, and leaving it the rest (thousands of
    numbers and words a page) spares a copy of each.

    >>> html_escaped("Bob's <b>")
    Markup('Bob&#x27;s &lt;b&gt;')
    >>> html_escaped("a < b"), html_escaped(3)
    ('a < b', 3)
    """
    if isinstance(value, str) and not hasattr(value, "__html__"):
        text = str(value)  # a str enum as its value
        if '"' in text or "'" in text:
            return Markup(html.escape(text))
    return value


def text_only(value: object) -> Markup:
    """The ``text`` filter: `value` escaped for an element's text, quotes left as they are
    (a term's words, as `gcadj.outputs.plain_words.term` writes them).

    >>> text_only('"a" < b')
    Markup('"a" &lt; b')
    """
    return Markup(html.escape(str(value), quote=False))


def make_environment(
    templates: Path, static: Path, *, finalize: Callable[[Any], Any] | None = None
) -> jinja2.Environment:
    """An environment for the templates in `templates`: autoescape on, an undefined name
    is an error (not ""), ``asset(name)`` inlines a file of `static`, and the generator's
    ``<meta>`` and the version are known to every template. `finalize`, if given, is
    applied to every ``{{ value }}`` before it is escaped (`html_escaped`)."""
    env = jinja2.Environment(
        finalize=finalize,
        loader=jinja2.FileSystemLoader(templates),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(
        asset=lambda name: read_asset(static, name),
        generator_meta=Markup(GENERATOR_META),
        version=__version__,
    )
    env.filters["break_parts"] = break_parts
    env.filters["text"] = text_only
    return env


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The written pages' environment (`make_environment` on this package's folders)."""
    return make_environment(TEMPLATES, STATIC)


def template(name: str) -> jinja2.Template:
    """The written pages' template `name`."""
    return environment().get_template(name)


@lru_cache(maxsize=1)
def viewer_environment() -> jinja2.Environment:
    """The viewer's environment: `make_environment` on this package's folders, text escaped
    as `html.escape` escapes it (`html_escaped`, see the module docstring)."""
    return make_environment(TEMPLATES, STATIC, finalize=html_escaped)


@cache
def viewer_macros(name: str = "viewer_parts.html") -> Any:
    """The macros of the viewer's template `name`, compiled once per process: its parts
    (``viewer_parts.html``: `gcadj.outputs.viewer`, `gcadj.outputs.html_text` render a
    page's pieces with them) or the boxes of an adjudication and an analysis
    (``viewer_boxes.html``, compiled only when a game has one)."""
    return viewer_environment().get_template(name).module


__all__ = [
    "BOXES",
    "Markup",
    "break_parts",
    "environment",
    "html_escaped",
    "make_environment",
    "read_asset",
    "template",
    "text_only",
    "viewer_environment",
    "viewer_macros",
]
