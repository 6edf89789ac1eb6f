"""Bytes to text, one rule for every source: files, standard input and pages.

A source's bytes come from anywhere (an old page in Windows-1252, a log saved by Notepad
in UTF-16, a server announcing ``charset=undefined``), and one odd source must never cost
more than its own verdict. So `decode_text` tries, in order, and takes the first that
decodes the whole text:

1. a byte-order mark (UTF-8, UTF-16 LE/BE): a BOM cannot be there by accident, so it
   wins over any declaration, as in the HTML standard's encoding sniffing;
2. the charset the HTTP ``Content-Type`` header declares (pages only);
3. the charset a ``<meta charset>`` or ``<meta http-equiv>`` declares, when the text
   starts with ``<`` (pages, fetched or saved);
4. UTF-16 without a BOM, when every other byte is NUL (LE or BE by where the NULs are;
   a few non-ASCII characters among them are allowed);
5. UTF-8;
6. Windows-1252, with the five bytes it leaves undefined read as Latin-1, which decodes
   any byte string: the chain cannot fail, so decoding never raises.

A declared charset is skipped when Python has no codec for it (``LookupError``), when the
codec is no text encoding a page could use (``undefined``, ``punycode``, ``idna``,
``unicode_escape``, UTF-7), or when the bytes do not decode with it; ``ISO-8859-1`` and
``US-ASCII`` are read as Windows-1252, as browsers do, so “quotes” and € survive.
"""

from __future__ import annotations

import codecs
import re
from typing import Final

# Codecs Python has that no page or log is written in: some raise UnicodeError on any
# input (undefined, punycode on most bytes), others "decode" bytes into nonsense.
_REFUSED: Final = frozenset(
    {"undefined", "punycode", "idna", "unicode-escape", "raw-unicode-escape", "utf-7"}
)
# Labels browsers read as Windows-1252 (the WHATWG Encoding standard's "windows-1252").
_AS_CP1252: Final = frozenset({"latin-1", "iso8859-1", "ascii", "cp1252"})
_WIDE: Final = ("utf-16", "utf-32")

_META_SCAN: Final = 4096  # bytes of a page searched for a <meta> charset
_META_CHARSET: Final = re.compile(rb"""charset\s*=\s*["']?\s*([A-Za-z0-9._:()+-]{1,40})""", re.I)
_HEADER_CHARSET: Final = re.compile(r"""charset\s*=\s*["']?\s*([^\s;"',]{1,40})""", re.I)


def _latin1_for_undefined(err: UnicodeError) -> tuple[str, int]:
    """The ``errors=`` handler that reads cp1252's five undefined bytes as Latin-1."""
    if not isinstance(err, UnicodeDecodeError):
        raise err
    return err.object[err.start : err.end].decode("latin-1"), err.end


codecs.register_error("gcadj-latin1", _latin1_for_undefined)


def decode_text(data: bytes, content_type: str = "") -> str:
    """The text of a source's bytes by the rule above; never raises, never returns a BOM.

    `content_type` is an HTTP ``Content-Type`` header value (empty for files and stdin).
    """
    for codec in _candidates(data, content_type):
        try:
            text = data.decode(codec, errors="gcadj-latin1" if codec == "cp1252" else "strict")
        except (UnicodeError, LookupError, ValueError):
            continue
        return text[1:] if text.startswith("\ufeff") else text
    return data.decode("cp1252", errors="gcadj-latin1")


def _candidates(data: bytes, content_type: str) -> list[str]:
    """The codecs to try, in order, each once (the last resort is in `decode_text`)."""
    order: list[str | None] = [_bom_codec(data)]
    order.append(_usable(header_charset(content_type), data))
    if data.lstrip(b" \t\r\n\f").startswith(b"<"):
        order.append(_usable(meta_charset(data), data))
    order.append(_nul_pattern_codec(data))
    order.append("utf-8")
    seen: list[str] = []
    for codec in order:
        if codec is not None and codec not in seen:
            seen.append(codec)
    return seen


def _bom_codec(data: bytes) -> str | None:
    if data.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"  # reads the BOM, and drops it
    return None


def _nul_pattern_codec(data: bytes) -> str | None:
    """UTF-16 LE or BE for text without a BOM written in UTF-16, else None.

    Such text is mostly ASCII, so the high byte of nearly every character is NUL: at
    least three quarters of the bytes on one side (odd offsets for LE, even for BE) are
    NUL, and none on the other. UTF-8 or Windows-1252 text has no NUL bytes in a game log.
    """
    if len(data) < 2 or len(data) % 2:
        return None
    even, odd = data[0::2], data[1::2]
    if even.count(0) == 0 and odd.count(0) * 4 >= len(odd) * 3:
        return "utf-16-le"
    if odd.count(0) == 0 and even.count(0) * 4 >= len(even) * 3:
        return "utf-16-be"
    return None


def _usable(label: str | None, data: bytes) -> str | None:
    """The Python codec for a declared charset label, or None to skip it."""
    if not label:
        return None
    try:
        name = codecs.lookup(label).name
    except (LookupError, ValueError, TypeError):
        return None
    if name in _REFUSED:
        return None
    if name in _AS_CP1252:
        return "cp1252"
    if name.startswith(_WIDE) and _bom_codec(data) is None and _nul_pattern_codec(data) is None:
        return None  # a page cannot declare UTF-16 in ASCII it is not written in
    return name


def header_charset(content_type: str) -> str | None:
    """The ``charset=`` of an HTTP Content-Type value, if any."""
    match = _HEADER_CHARSET.search(content_type)
    return match.group(1) if match else None


def meta_charset(data: bytes) -> str | None:
    """The charset a page's ``<meta>`` declares in its first bytes, if any.

    Both ``<meta charset="x">`` and ``<meta http-equiv=... content="...; charset=x">``
    contain ``charset=``; only the start of the page is searched, as browsers do.
    """
    match = _META_CHARSET.search(data, 0, _META_SCAN)
    return match.group(1).decode("ascii") if match else None
