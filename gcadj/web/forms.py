"""A request's body as form fields and files, parsed while it streams in.

`BodyReader` is fed the body a chunk at a time, as it arrives: a multipart form is parsed
on the way (python-multipart's push parser), a URL-encoded form too (`UrlencodedParser`:
each value decoded as it comes), any other body kept whole. Each part, and a whole body,
goes to a `Spool`: in memory while the request's parts together hold less than its
`Memory` (``ServeSettings.spill_bytes``), past that in a private file (mode 0600) of the
server's own private folder, never in the system's temporary folder. So a request costs
at most that much memory, whatever its size and however many parts it has: ten parts
just under the limit spill like one large file.

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
from urllib.parse import unquote, unquote_to_bytes

from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header

from gcadj.errors import FormError

MAX_PARTS: Final = 2000
MAX_NAME: Final = 1000  # bytes of a URL-encoded field's name
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


class Memory:
    """The bytes one request may keep in memory, shared by all its parts (`Spool`)."""

    def __init__(self, limit: int) -> None:
        self.left = limit


class Spool:
    """Bytes as they arrive: in memory while the request's `memory` lasts, then in a new
    file in `folder` (None: always in memory). `files` collects the files made, for their
    owner to delete."""

    def __init__(self, folder: Path | None, memory: Memory, files: list[str]) -> None:
        self.folder = folder
        self.allowance = memory
        self.files = files
        self.memory = bytearray()
        self.fd: int | None = None
        self.path: str | None = None

    def write(self, chunk: bytes) -> None:
        if self.fd is not None:
            self._write(chunk)
        elif self.folder is None or len(chunk) <= self.allowance.left:
            self.memory += chunk
            self.allowance.left -= len(chunk)
        else:  # the request's memory is spent: this part goes to a file, whole
            self.fd, self.path = tempfile.mkstemp(dir=self.folder, prefix="upload-")
            self.files.append(self.path)
            self._write(bytes(self.memory))
            self._write(chunk)
            self.allowance.left += len(self.memory)
            self.memory = bytearray()

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

    def abort(self) -> None:
        """Drop what was written (the body will not be read whole): its file, if it has
        one, is closed here and deleted by its owner."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        self.memory = bytearray()


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


class UrlencodedParser:
    """An ``application/x-www-form-urlencoded`` body parsed as it arrives (`write`), as
    `urllib.parse.parse_qsl` reads it whole (``&`` between fields, ``=`` after a name,
    ``+`` and ``%XX`` decoded, empty fields skipped): each value is decoded into a `Spool`
    of its own as its bytes come, so a large field costs what a file does."""

    def __init__(self, spool: Callable[[], Spool], parts: list[Part]) -> None:
        self.spool = spool
        self.parts = parts
        self.name = bytearray()
        self.value: Spool | None = None  # None: reading a name
        self.pending = b""  # an escape cut by the end of a chunk ("%", "%4")

    def write(self, chunk: bytes) -> None:
        data, self.pending = self.pending + chunk, b""
        at = 0
        while at < len(data):
            if self.value is None:
                ends = [i for i in (data.find(b"=", at), data.find(b"&", at)) if i >= 0]
                end = min(ends) if ends else len(data)
                self.name += data[at:end]
                if len(self.name) > MAX_NAME:
                    raise FormError(f"a form field's name longer than {MAX_NAME} bytes")
                if end < len(data) and data[end : end + 1] == b"=":
                    self.value = self.spool()
                elif end < len(data):
                    self._end()
                at = end + 1
                continue
            end = data.find(b"&", at)
            segment = data[at:] if end < 0 else data[at:end]
            if end < 0 and b"%" in segment[-2:]:  # keep an escape cut short for the next
                cut = segment.rindex(b"%", max(0, len(segment) - 2))
                segment, self.pending = segment[:cut], segment[cut:]
            self.value.write(unquote_to_bytes(segment.replace(b"+", b" ")))
            if end < 0:
                return
            self._end()
            at = end + 1

    def _end(self) -> None:
        """The field read so far is whole (an empty one, ``&&``, is none)."""
        value, self.value = self.value, None
        if not self.name and value is None:
            return
        if len(self.parts) >= MAX_PARTS:
            raise FormError(f"more than {MAX_PARTS} fields and files; send a zip instead")
        name = unquote_to_bytes(bytes(self.name).replace(b"+", b" ")).decode("utf-8", "replace")
        self.name.clear()
        stored = Stored() if value is None else value.finish()
        self.parts.append(Part(name, None, stored))

    def finish(self) -> None:
        if self.pending and self.value is not None:
            self.value.write(self.pending)  # a "%" with too little after it is itself
        self.pending = b""
        self._end()


class BodyReader:
    """A body parsed as it arrives (`feed`), then its parts (`finish`): a multipart form's
    fields and files, a URL-encoded form's fields, or the whole body as one part named
    ``""`` (any other body, or any body at all when `whole`: the API's raw log)."""

    def __init__(
        self, content_type: str, spool: Callable[[], Spool], *, whole: bool = False
    ) -> None:
        self.spools: list[Spool] = []

        def made() -> Spool:
            self.spools.append(spool())
            return self.spools[-1]

        self.spool = made
        self.parts: list[Part] = []
        self.whole: Spool | None = None
        self.parser: MultipartParser | None = None
        self.fields: UrlencodedParser | None = None
        kind = media_type(content_type)
        if kind == "multipart/form-data":
            self.parser = self._multipart(content_type)
        elif kind == "application/x-www-form-urlencoded" and not whole:
            self.fields = UrlencodedParser(self.spool, self.parts)
        else:
            self.whole = self.spool()

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
        if self.fields is not None:
            self.fields.write(chunk)
            return
        if self.parser is None:
            assert self.whole is not None
            self.whole.write(chunk)
            return
        try:
            self.parser.write(chunk)
        except MultipartParseError as err:
            raise FormError(f"a malformed multipart body ({err})") from None

    def abort(self) -> None:
        """The body will not be read whole: every file still open is closed."""
        for spool in self.spools:
            spool.abort()

    def finish(self) -> list[Part]:
        if self.fields is not None:
            self.fields.finish()
            return self.parts
        if self.parser is None:
            assert self.whole is not None
            return [Part("", None, self.whole.finish())]
        try:
            self.parser.finalize()
        except MultipartParseError as err:
            raise FormError(f"a malformed multipart body ({err})") from None
        return self.parts


def parse_form(body: bytes, content_type: str) -> list[Part]:
    """The fields of a ``multipart/form-data`` or ``application/x-www-form-urlencoded``
    body held whole in memory (the server streams instead: `BodyReader`)."""
    kind = media_type(content_type)
    if kind not in ("multipart/form-data", "application/x-www-form-urlencoded"):
        raise FormError(f"expected a form (multipart/form-data), not {kind or 'no content type'}")
    memory = Memory(len(body))
    reader = BodyReader(content_type, lambda: Spool(None, memory, []))
    reader.feed(body)
    return reader.finish()


__all__ = [
    "BodyReader",
    "FormError",
    "Memory",
    "Part",
    "Spool",
    "Stored",
    "UrlencodedParser",
    "extended_value",
    "header_parameters",
    "media_type",
    "parse_form",
]
