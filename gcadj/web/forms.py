"""A request's body as form fields and files, parsed while it streams in.

`BodyReader` is fed the body a chunk at a time, as it arrives: a multipart form is parsed
on the way (python-multipart's push parser), any other body kept whole. Each part, and a
whole body, goes to a `Spool`: in memory up to its ``spill_at`` bytes, past that in a
private file (mode 0600) of the server's own private folder, never in the system's
temporary folder. So an upload costs memory only while it is small, whatever its size.

The names in a part's ``Content-Disposition`` are read as browsers (and requests, and
curl since 7.81) send them, by RFC 7578 and the WHATWG form encoding: UTF-8 bytes in a
quoted string, ``"``, CR and LF percent-escaped as ``%22``, ``%0D``, ``%0A``, a backslash
as itself; an RFC 5987 ``filename*=UTF-8''…`` wins over ``filename`` when both are there.
A name is kept exactly as sent; it is escaped where it is shown.

Malformed bodies raise `FormError` with what is wrong.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import parse_qsl, unquote

from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header

from gcadj.errors import FormError

MAX_PARTS: Final = 2000
WHATWG_ESCAPES: Final = {"%22": '"', "%0D": "\r", "%0A": "\n", "%0d": "\r", "%0a": "\n"}
_ESCAPED = re.compile("|".join(WHATWG_ESCAPES))
_PARAMETER = re.compile(rb'\s*([^\s=;]+)\s*=\s*("[^"]*"|[^;]*)\s*(?:;|$)')


@dataclass(frozen=True)
class Stored:
    """Bytes received: in memory (`data`) or, when large, in a private file (`path`)."""

    data: bytes = b""
    path: str | None = None

    def content(self) -> bytes:
        if self.path is None:
            return self.data
        return Path(self.path).read_bytes()


class Spool:
    """Bytes as they arrive: in memory up to `spill_at`, then in a new file in `folder`
    (None: always in memory). `files` collects the files made, for their owner to delete."""

    def __init__(self, folder: Path | None, spill_at: int, files: list[str]) -> None:
        self.folder = folder
        self.spill_at = spill_at
        self.files = files
        self.memory = bytearray()
        self.fd: int | None = None
        self.path: str | None = None

    def write(self, chunk: bytes) -> None:
        if self.fd is None:
            self.memory += chunk
            if self.folder is not None and len(self.memory) > self.spill_at:
                self.fd, self.path = tempfile.mkstemp(dir=self.folder, prefix="upload-")
                self.files.append(self.path)
                self._write(bytes(self.memory))
                self.memory = bytearray()
        else:
            self._write(chunk)

    def _write(self, data: bytes) -> None:
        assert self.fd is not None
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]

    def finish(self) -> Stored:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
            return Stored(path=self.path)
        return Stored(bytes(self.memory))


@dataclass(frozen=True)
class Part:
    """One field of a form: its name, the file name it was uploaded as (None for a plain
    field) and its bytes."""

    name: str
    filename: str | None
    stored: Stored

    @property
    def data(self) -> bytes:
        return self.stored.content()

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", "replace")


def media_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def header_parameters(value: bytes) -> dict[str, str]:
    """The parameters of a ``Content-Disposition`` header (bytes, as sent), names lowered,
    values decoded (see the module docstring); ``filename*`` is returned as ``filename``."""
    _, _, rest = value.partition(b";")
    plain: dict[str, str] = {}
    extended: dict[str, str] = {}
    for match in _PARAMETER.finditer(rest):
        key = match[1].decode("latin-1").lower()
        raw = match[2].strip()
        if key.endswith("*"):
            decoded = extended_value(raw.decode("latin-1"))
            if decoded is not None:
                extended[key[:-1]] = decoded
            continue
        if raw.startswith(b'"') and raw.endswith(b'"') and len(raw) >= 2:
            raw = raw[1:-1]  # as browsers quote: no backslash escapes ("C:\\x" is a name)
        text = raw.decode("utf-8", "replace")
        plain[key] = _ESCAPED.sub(lambda m: WHATWG_ESCAPES[m[0]], text)
    return {**plain, **extended}


def extended_value(value: str) -> str | None:
    """An RFC 5987 value (``UTF-8''%D0%BF…``) decoded; None if its charset is unknown."""
    charset, quote, rest = value.partition("'")
    _language, quote2, encoded = rest.partition("'")
    if not quote or not quote2:
        return None
    charset = charset.strip().lower()
    if charset not in ("utf-8", "iso-8859-1"):
        return None
    return unquote(encoded, encoding=charset, errors="replace")


class BodyReader:
    """A body parsed as it arrives (`feed`), then its parts (`finish`): a multipart form's
    fields and files, or the whole body as one part named ``""`` (any other body)."""

    def __init__(self, content_type: str, spool: Callable[[], Spool]) -> None:
        self.spool = spool
        self.parts: list[Part] = []
        self.whole: Spool | None = None
        self.parser: MultipartParser | None = None
        if media_type(content_type) == "multipart/form-data":
            self.parser = self._multipart(content_type)
        else:
            self.whole = spool()

    def _multipart(self, content_type: str) -> MultipartParser:
        _, params = parse_options_header(content_type)
        boundary = params.get(b"boundary")
        if not boundary:
            raise FormError("a multipart body without a boundary")
        field_name = bytearray()
        field_value = bytearray()
        headers: dict[str, bytes] = {}
        current: list[Spool] = []

        def on_part_begin() -> None:
            headers.clear()
            current[:] = [self.spool()]

        def on_header_field(chunk: bytes, start: int, end: int) -> None:
            field_name.extend(chunk[start:end])

        def on_header_value(chunk: bytes, start: int, end: int) -> None:
            field_value.extend(chunk[start:end])

        def on_header_end() -> None:
            headers[field_name.decode("latin-1").lower()] = bytes(field_value)
            field_name.clear()
            field_value.clear()

        def on_part_data(chunk: bytes, start: int, end: int) -> None:
            current[0].write(chunk[start:end])

        def on_part_end() -> None:
            if len(self.parts) >= MAX_PARTS:
                raise FormError(f"more than {MAX_PARTS} fields and files; send a zip instead")
            options = header_parameters(headers.get("content-disposition", b""))
            stored = current[0].finish()
            self.parts.append(Part(options.get("name", ""), options.get("filename"), stored))

        callbacks = {
            "on_part_begin": on_part_begin,
            "on_header_field": on_header_field,
            "on_header_value": on_header_value,
            "on_header_end": on_header_end,
            "on_part_data": on_part_data,
            "on_part_end": on_part_end,
        }
        return MultipartParser(boundary, callbacks)  # type: ignore[arg-type]

    def feed(self, chunk: bytes) -> None:
        if self.parser is None:
            assert self.whole is not None
            self.whole.write(chunk)
            return
        try:
            self.parser.write(chunk)
        except MultipartParseError as err:
            raise FormError(f"a malformed multipart body ({err})") from None

    def finish(self) -> list[Part]:
        if self.parser is None:
            assert self.whole is not None
            return [Part("", None, self.whole.finish())]
        try:
            self.parser.finalize()
        except MultipartParseError as err:
            raise FormError(f"a malformed multipart body ({err})") from None
        return self.parts


def urlencoded_parts(body: bytes) -> list[Part]:
    """The fields of an ``application/x-www-form-urlencoded`` body."""
    try:
        pairs = parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)
    except ValueError as err:
        raise FormError(f"a malformed form ({err})") from None
    return [Part(name, None, Stored(value.encode("utf-8"))) for name, value in pairs]


def parse_form(body: bytes, content_type: str) -> list[Part]:
    """The fields of a ``multipart/form-data`` or ``application/x-www-form-urlencoded``
    body held whole in memory (the server streams instead: `BodyReader`)."""
    kind = media_type(content_type)
    if kind == "application/x-www-form-urlencoded":
        return urlencoded_parts(body)
    if kind != "multipart/form-data":
        raise FormError(f"expected a form (multipart/form-data), not {kind or 'no content type'}")
    reader = BodyReader(content_type, lambda: Spool(None, 0, []))
    reader.feed(body)
    return reader.finish()


__all__ = [
    "BodyReader",
    "FormError",
    "Part",
    "Spool",
    "Stored",
    "extended_value",
    "header_parameters",
    "media_type",
    "parse_form",
    "urlencoded_parts",
]
