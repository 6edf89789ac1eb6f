"""Facts about gcadj itself, for every layer: its version, which build is running, and its
per-user cache and data folders.

The bottom of the house: it imports nothing of gcadj, so the parser (Lark's tables) and the
fetcher (pages, the User-Agent) can both use it without reaching up to the package root.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

__version__ = "0.1.0"

PACKAGE = Path(__file__).resolve().parent

# What the build hook (hatch_build.py) writes into a pure-Python wheel: why it is pure.
BUILD_NOTE = "build-note.txt"


def compiled_modules(package: Path = PACKAGE) -> list[str]:
    """The gcadj modules that run compiled (mypyc) in this installation, by dotted name.

    A module is compiled when an extension module stands beside its source: the import
    system prefers it. Empty for a pure-Python install and for the source tree.
    """
    found = []
    for path in package.rglob("*"):
        suffix = next((s for s in EXTENSION_SUFFIXES if path.name.endswith(s)), None)
        if suffix is not None and path.with_name(path.name[: -len(suffix)] + ".py").is_file():
            parts = path.relative_to(package).with_name(path.name[: -len(suffix)]).parts
            found.append(".".join(("gcadj", *parts)))
    return sorted(found)


def build_flavour() -> str:
    """Which build of gcadj is running, in a few words (for ``gcadj --version``):
    the compiled core and how many modules it holds, or pure Python and why."""
    compiled = compiled_modules()
    if compiled:
        return f"compiled core (mypyc, {len(compiled)} modules)"
    note = PACKAGE / BUILD_NOTE
    try:
        return note.read_text(encoding="utf-8").strip() or "pure Python"
    except OSError:
        return "pure Python"


def user_cache_dir() -> Path:
    """gcadj's per-user cache folder: ``$XDG_CACHE_HOME/gcadj`` (else ``~/.cache/gcadj``),
    ``~/Library/Caches/gcadj`` on macOS, ``%LOCALAPPDATA%/gcadj`` on Windows.

    Holds Lark's parse tables and fetched pages; nothing in it is ever the only copy.
    """
    return _user_folder("LOCALAPPDATA", ("Library", "Caches"), "XDG_CACHE_HOME", (".cache",))


def user_data_dir() -> Path:
    """gcadj's per-user data folder: ``$XDG_DATA_HOME/gcadj`` (else
    ``~/.local/share/gcadj``), ``~/Library/Application Support/gcadj`` on macOS,
    ``%APPDATA%/gcadj`` on Windows.

    Holds what a user would miss if it went, unlike the cache: ``gcadj serve``'s results.
    """
    return _user_folder(
        "APPDATA", ("Library", "Application Support"), "XDG_DATA_HOME", (".local", "share")
    )


def _user_folder(
    windows: str, mac: tuple[str, ...], xdg: str, xdg_default: tuple[str, ...]
) -> Path:
    """gcadj's folder in a per-user base folder, by the platform's convention: the
    Windows variable `windows`, the home's `mac` folder on macOS, else the XDG variable
    `xdg` or the home's `xdg_default` folder."""
    if sys.platform == "win32" and os.environ.get(windows):
        base = Path(os.environ[windows])
    elif sys.platform == "darwin":
        base = Path.home().joinpath(*mac)
    else:
        given = os.environ.get(xdg)
        base = Path(given) if given else Path.home().joinpath(*xdg_default)
    return base / "gcadj"


# Every HTML page gcadj writes (audit report, game viewer) carries this tag in its <head>, so
# that gcadj recognises its own outputs: a folder walk skips them, and `--report` may replace
# a report it wrote but never a page the user saved.
GENERATOR_META = '<meta name="generator" content="gcadj">'


def is_gcadj_html(head: str) -> bool:
    """Is this the start (a few KiB) of an HTML page that gcadj wrote?"""
    return GENERATOR_META in head


# The element of a game viewer that carries its games as Game Courier text (a JSON list in
# ``<script type="application/json" id="...">``), which ``gcadj check viewer.html`` reads.
GAMES_BLOCK_ID = "gcadj-games"
