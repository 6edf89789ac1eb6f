"""What counts as a URL, in one place (no imports: start-up stays fast, no requests).

gcadj fetches http and https only. Anything else shaped like a URL (``ftp://x``,
``file:///etc/passwd``) is refused with a message saying so, never opened as a file.
It sits at the bottom of the house because every layer that names sources or shows them
(`gcadj.sources`, the viewer, the reports) asks the same question.

**Credentials never leave the command line.** A URL may carry a password
(``http://alice:pw@host/game``) or a secret in its query (``?token=…``, ``key``,
``password``, ``secret``, ``auth``, ``sig`` and their kin, `is_secret_key`). The request
uses them; everything shown is `redact_url`'s copy, ``http://alice:***@host/game?token=***``:
the source's name in every verdict (`gcadj.app.pipeline.source_name`: JSONL, CSV,
report, viewer, stderr), the Site tag, every fetch message and log line (`redact_text`),
and the page cache's key.
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


HIDDEN: Final = "***"
SECRET_WORDS: Final = frozenset(
    {
        "token", "key", "apikey", "password", "passwd", "pwd", "pass", "secret", "auth",
        "authorization", "sig", "signature", "credential", "credentials", "session",
        "sessionid", "sid",
    }
)  # fmt: skip
_KEY_WORDS: Final = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_PERCENT: Final = re.compile(r"%([0-9A-Fa-f]{2})")
# user:password@ right after a scheme's "//" (the user may be empty: "//:pw@host"); the
# password runs to the last "@" before the path, as urllib.parse reads it ("p@ss@host")
_USERINFO: Final = re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://)([^/?#@\s:'\"]*):([^/?#\s'\"]+)@")
# key=value after "?", "&" or ";" (a query, a fragment, or a message quoting a path)
_PAIR: Final = re.compile(r"([?&;#])([^=&;#?\s'\"]+)=([^&;#\s'\"]*)")


def is_secret_key(key: str) -> bool:
    """Does a query key name a credential? ``token``, ``api_key``, ``apiKey``,
    ``X-Amz-Signature``, ``password``: any of its words is one of `SECRET_WORDS`."""
    decoded = _PERCENT.sub(lambda m: chr(int(m[1], 16)), key.replace("+", " "))
    return any(word.lower() in SECRET_WORDS for word in _KEY_WORDS.findall(decoded))


def redact_text(text: str) -> str:
    """`text` with every URL password and every secret query value replaced by ``***``:
    for messages that may quote a URL or a path with its query (a fetch error)."""
    if "@" in text:
        text = _USERINFO.sub(lambda m: f"{m[1]}{m[2]}:{HIDDEN}@", text)
    if "=" in text:
        text = _PAIR.sub(
            lambda m: f"{m[1]}{m[2]}={HIDDEN}" if m[3] and is_secret_key(m[2]) else m[0], text
        )
    return text


def redact_url(spec: str) -> str:
    """A source as it may be shown: a URL with its password and secret query values
    replaced by ``***`` (the user name kept: ``http://alice:***@host/``); anything that
    is not written ``scheme://…`` (a file name) exactly as it is."""
    return redact_text(spec) if url_scheme(spec) is not None else spec


__all__ = [
    "SCHEMES",
    "is_secret_key",
    "is_url",
    "redact_text",
    "redact_url",
    "url_scheme",
]
