"""The served pages' templates (`gcadj/web/templates/`, Jinja2 with autoescape on) and the
static files they inline (`gcadj/web/static/`: the style sheets and the editor's script).

Why inline: every page the server answers is one document that loads nothing from
elsewhere, and the Content-Security-Policy allows exactly its inline code by hash
(`gcadj.web.pages.csp_for`). The files stay apart from the code so that they can be read
and edited as CSS and JavaScript; `asset` reads each once.
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path
from typing import Final

import jinja2
from markupsafe import Markup

from gcadj.about import GENERATOR_META, __version__
from gcadj.vocabulary import PRESETS

HERE: Final = Path(__file__).parent
TEMPLATES: Final = HERE / "templates"
STATIC: Final = HERE / "static"


@cache
def asset(name: str) -> Markup:
    """A static file's text, to inline in a page (it is the package's own, never escaped)."""
    return Markup((STATIC / name).read_text(encoding="utf-8"))


def preset_choices() -> list[tuple[str, str]]:
    """The pocket files a form offers after "from the log", one per preset
    (`gcadj.vocabulary.PRESETS`): its value and its label."""
    return [(str(p.pocket_file), f"{p.pocket_file} ({p.name})") for p in PRESETS]


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The one environment: autoescape on, and an undefined name is an error, not ""."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(
        asset=asset,
        generator_meta=Markup(GENERATOR_META),
        version=__version__,
        presets=preset_choices(),
    )
    return env


def render(name: str, **context: object) -> str:
    """Template `name` rendered with `context` (values are escaped unless `Markup`)."""
    return environment().get_template(name).render(**context)


__all__ = ["Markup", "asset", "environment", "preset_choices", "render"]
