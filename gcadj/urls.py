"""What counts as a URL, in one place (no imports: start-up stays fast, no requests).

gcadj fetches http and https only. Anything else shaped like a URL (``ftp://x``,
``file:///etc/passwd``) is refused with a message saying so, never opened as a file.
It sits at the bottom of the house because every layer that names sources or shows them
(`gcadj.sources`, the viewer, the reports) asks the same question.
"""

from __future__ import annotations

import re
from typing import Final

SCHEMES: Final = frozenset({"http", "https"})
_SCHEME: Final = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")


def url_scheme(spec: str) -> str | None:
    """The lower-case scheme of anything written ``scheme://…``, else None."""
    match = _SCHEME.match(spec)
    return match.group(1).lower() if match else None


def is_url(spec: str) -> bool:
    """True for an http(s) URL: what gcadj fetches rather than opens as a file."""
    return url_scheme(spec) in SCHEMES


__all__ = ["SCHEMES", "is_url", "url_scheme"]
