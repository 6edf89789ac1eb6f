"""A request's body as form fields and files, parsed in memory (never spooled to disk).

The body has already been read under the server's size limit, so holding it is bounded;
parsing it here rather than with Starlette's form parser keeps every uploaded byte in
memory (Starlette spools files over 1 MB to the system's temporary folder, which the
server promises not to write to). Malformed bodies raise `FormError` with what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final
from urllib.parse import parse_qsl

from gcadj.errors import FormError

MAX_PARTS: Final = 2000


@dataclass(frozen=True)
class Part:
    """One field of a form: its name, the file name it was uploaded as (None for a plain
    field) and its bytes."""

    name: str
    filename: str | None
    data: bytes

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", "replace")


def media_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def parse_form(body: bytes, content_type: str) -> list[Part]:
    """The fields of a ``multipart/form-data`` or ``application/x-www-form-urlencoded`` body."""
    kind = media_type(content_type)
    if kind == "application/x-www-form-urlencoded":
        try:
            pairs = parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)
        except ValueError as err:
            raise FormError(f"a malformed form ({err})") from None
        return [Part(name, None, value.encode("utf-8")) for name, value in pairs]
    if kind == "multipart/form-data":
        return parse_multipart(body, content_type)
    raise FormError(f"expected a form (multipart/form-data), not {kind or 'no content type'}")


def parse_multipart(body: bytes, content_type: str) -> list[Part]:
    """The parts of a multipart body, each held in memory (see the module docstring)."""
    from python_multipart.exceptions import MultipartParseError
    from python_multipart.multipart import MultipartParser, parse_options_header

    _, params = parse_options_header(content_type)
    boundary = params.get(b"boundary")
    if not boundary:
        raise FormError("a multipart body without a boundary")
    parts: list[Part] = []
    headers: dict[str, str] = {}
    field_name = bytearray()
    field_value = bytearray()
    data = bytearray()

    def on_part_begin() -> None:
        headers.clear()
        data.clear()

    def on_header_field(chunk: bytes, start: int, end: int) -> None:
        field_name.extend(chunk[start:end])

    def on_header_value(chunk: bytes, start: int, end: int) -> None:
        field_value.extend(chunk[start:end])

    def on_header_end() -> None:
        headers[field_name.decode("latin-1").lower()] = field_value.decode("utf-8", "replace")
        field_name.clear()
        field_value.clear()

    def on_part_data(chunk: bytes, start: int, end: int) -> None:
        data.extend(chunk[start:end])

    def on_part_end() -> None:
        if len(parts) >= MAX_PARTS:
            raise FormError(f"more than {MAX_PARTS} fields and files; send a zip instead")
        disposition = headers.get("content-disposition", "")
        _, options = parse_options_header(disposition)
        name = options.get(b"name", b"").decode("utf-8", "replace")
        filename = options.get(b"filename")
        parts.append(
            Part(
                name, None if filename is None else filename.decode("utf-8", "replace"), bytes(data)
            )
        )

    parser = MultipartParser(
        boundary,
        {
            "on_part_begin": on_part_begin,
            "on_header_field": on_header_field,
            "on_header_value": on_header_value,
            "on_header_end": on_header_end,
            "on_part_data": on_part_data,
            "on_part_end": on_part_end,
        },
    )
    try:
        parser.write(body)
        parser.finalize()
    except MultipartParseError as err:
        raise FormError(f"a malformed multipart body ({err})") from None
    return parts


__all__ = ["FormError", "Part", "media_type", "parse_form", "parse_multipart"]
