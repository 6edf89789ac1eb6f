"""Bytes to text, one rule for every source: files, standard input and pages."""

from __future__ import annotations


def decode_log_bytes(data: bytes) -> str:
    """Log bytes as text: UTF-8 with or without BOM (UTF-16 if it has a BOM), else Latin-1.

    Latin-1 decodes any byte string, so this never fails; a wrong guess shows
    up as odd characters in comments or tag values, not as an exception.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")
