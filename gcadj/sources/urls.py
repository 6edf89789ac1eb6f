"""What counts as a URL, for the sources layer: `gcadj.urls` (the bottom of the house, so
the outputs can ask too), under the name the sources have always used."""

from __future__ import annotations

from gcadj.urls import (
    SCHEMES,
    is_secret_key,
    is_url,
    redact_text,
    redact_url,
    url_scheme,
)

__all__ = [
    "SCHEMES",
    "is_secret_key",
    "is_url",
    "redact_text",
    "redact_url",
    "url_scheme",
]
