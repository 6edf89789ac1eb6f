"""Facts about gcadj itself, for every layer: its version and its per-user cache folder.

The bottom of the house: it imports nothing of gcadj, so the parser (Lark's tables) and the
fetcher (pages, the User-Agent) can both use it without reaching up to the package root.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__version__ = "0.1.0"


def user_cache_dir() -> Path:
    """gcadj's per-user cache folder: ``$XDG_CACHE_HOME/gcadj`` (else ``~/.cache/gcadj``),
    ``~/Library/Caches/gcadj`` on macOS, ``%LOCALAPPDATA%/gcadj`` on Windows.

    Holds Lark's parse tables and fetched pages; nothing in it is ever the only copy.
    """
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "gcadj"


# Every HTML page gcadj writes (audit report, game viewer) carries this tag in its <head>, so
# that gcadj recognises its own outputs: a folder walk skips them, and `--report` may replace
# a report it wrote but never a page the user saved.
GENERATOR_META = '<meta name="generator" content="gcadj">'


def is_gcadj_html(head: str) -> bool:
    """Is this the start (a few KiB) of an HTML page that gcadj wrote?"""
    return GENERATOR_META in head
