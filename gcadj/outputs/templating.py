"""The written pages' templates (`gcadj/outputs/templates/`, Jinja2 with autoescape on)
and the static files they inline (`gcadj/outputs/static/`: the audit report's style sheet
and script); and the one environment factory the served pages' templates use too
(`gcadj.web.templating`).

Why inline: a report is one self-contained file, mailed or archived without a folder
beside it. The files stay apart from the code so that they can be read and edited as
CSS and JavaScript; each is read once.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

import jinja2
from markupsafe import Markup

from gcadj.about import GENERATOR_META, __version__

HERE: Final = Path(__file__).parent
TEMPLATES: Final = HERE / "templates"
STATIC: Final = HERE / "static"


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


def make_environment(templates: Path, static: Path) -> jinja2.Environment:
    """An environment for the templates in `templates`: autoescape on, an undefined name
    is an error (not ""), ``asset(name)`` inlines a file of `static`, and the generator's
    ``<meta>`` and the version are known to every template."""
    env = jinja2.Environment(
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
    return env


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The written pages' environment (`make_environment` on this package's folders)."""
    return make_environment(TEMPLATES, STATIC)


def template(name: str) -> jinja2.Template:
    """The written pages' template `name`."""
    return environment().get_template(name)


__all__ = ["Markup", "break_parts", "environment", "make_environment", "read_asset", "template"]
