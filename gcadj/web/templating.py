"""The served pages' templates (`gcadj/web/templates/`, Jinja2 with autoescape on) and the
static files they inline (`gcadj/web/static/`: the style sheets and the editor's script).

Why inline: every page the server answers is one document that loads nothing from
elsewhere, and the Content-Security-Policy allows exactly its inline code by hash
(`gcadj.web.pages.csp_for`). The files stay apart from the code so that they can be read
and edited as CSS and JavaScript; `asset` reads each once. The environment is made by the
one factory of gcadj's templates (`gcadj.outputs.templating.make_environment`, which the
written report's templates use too), with the served pages' folders and globals.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Final

import jinja2
from markupsafe import Markup

from gcadj.outputs.templating import make_environment, read_asset
from gcadj.vocabulary import PRESETS

HERE: Final = Path(__file__).parent
TEMPLATES: Final = HERE / "templates"
STATIC: Final = HERE / "static"


def asset(name: str) -> Markup:
    """A static file's text, to inline in a page (it is the package's own, never escaped)."""
    return read_asset(STATIC, name)


def preset_choices() -> list[tuple[str, str]]:
    """The pocket files a form offers after "from the log", one per preset
    (`gcadj.vocabulary.PRESETS`): its value and its label."""
    return [(str(p.pocket_file), f"{p.pocket_file} ({p.name})") for p in PRESETS]


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The served pages' environment: autoescape on, and an undefined name is an error,
    not "" (`make_environment`), with the pocket files a form offers."""
    env = make_environment(TEMPLATES, STATIC)
    env.globals.update(presets=preset_choices())
    return env


def render(name: str, **context: object) -> str:
    """Template `name` rendered with `context` (values are escaped unless `Markup`)."""
    return environment().get_template(name).render(**context)


__all__ = ["Markup", "asset", "environment", "preset_choices", "render"]
