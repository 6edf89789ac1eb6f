"""What a user sent, as sources to judge: uploads and the members of zips, read in memory.

Nothing is ever extracted to disk: a zip's members are read one at a time from the
uploaded bytes (or the private file a large upload spilled to), so a member named ``../x``
or ``/etc/passwd`` is only a name shown in the results, never a path. Before any member is
read, a zip is refused whole (one "error" verdict naming it and the limit) when:

- two members have the same name, or two members' data overlap (many entries of the
  central directory pointing at one compressed member: a zip bomb that passes every
  per-member limit);
- it expands more than `ZipLimits.max_ratio` times as a whole (once it declares more than
  `ZipLimits.ratio_floor` bytes), or has a member over that floor that does;
- with the zips before it in the same request, it would hold more files than
  `ZipLimits.max_files` or more uncompressed bytes than `ZipLimits.max_total`: the
  budget is a request's, so ten zips cost what one would.

Reading then counts the bytes really produced, so a zip that lies about its sizes is
stopped at the declared ones.

A zip's game files are chosen as a folder walk chooses them (`gcadj.sources.walk`): the
endings gcadj reads, hidden files and ``__MACOSX`` skipped. A member whose name is
absolute or climbs with ``..`` is refused with its own "error" verdict (`unsafe_member`).
Every other upload is one source, whatever its name: the user chose it.
"""

from __future__ import annotations

import io
import itertools
import posixpath
import struct
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final

from gcadj.errors import UploadRefused
from gcadj.sources.walk import SOURCE_SUFFIXES, SOURCE_SUFFIXES_TEXT
from gcadj.web.limits import size_text

ZIP_MAGIC: Final = b"PK\x03\x04"
EMPTY_ZIP_MAGIC: Final = b"PK\x05\x06"
CHUNK: Final = 64 * 1024
LOCAL_HEADER: Final = 30  # bytes of a member's local header before its name and extra field


@dataclass(frozen=True)
class Upload:
    """One thing sent: a file's upload name and bytes, a pasted text, a raw body, a
    fetched page; `error` says why a source has no bytes (a page that was not fetched).
    A large upload's bytes are in the private file `path` instead of `data`."""

    name: str
    data: bytes
    error: str | None = None
    path: str | None = None

    def content(self) -> bytes:
        return self.data if self.path is None else Path(self.path).read_bytes()

    def open(self) -> BinaryIO:
        return io.BytesIO(self.data) if self.path is None else open(self.path, "rb")

    def head(self, size: int) -> bytes:
        with self.open() as handle:
            return handle.read(size)


@dataclass(frozen=True)
class ZipLimits:
    """The caps on a zip (see the module docstring); `gcadj.web.limits.ServeSettings`."""

    max_total: int
    max_files: int
    max_ratio: int
    ratio_floor: int


@dataclass(frozen=True)
class Planned:
    """One source to judge: a whole upload (`member` None) or a member of a zip upload; a
    source refused before reading carries the message its "error" verdict says."""

    name: str
    upload: int
    member: str | None = None
    refusal: str | None = None


def is_zip(upload: Upload) -> bool:
    """A zip archive: by its ending, or by its first bytes (an archive renamed)."""
    return upload.name.lower().endswith(".zip") or upload.head(4) in (ZIP_MAGIC, EMPTY_ZIP_MAGIC)


def unique_names(names: Sequence[str]) -> list[str]:
    """The names, each repeat made distinct (``game.txt``, ``game.txt (2)``): a source's
    name is its key in the results."""
    seen: dict[str, int] = {}
    out = []
    taken = set(names)
    for name in names:
        count = seen.get(name, 0) + 1
        seen[name] = count
        candidate = name
        while count > 1 and (candidate == name or candidate in taken):
            candidate = f"{name} ({count})"
            count += 1
        taken.add(candidate)
        out.append(candidate)
    return out


def is_game_member(name: str) -> bool:
    """Is this member of a zip a game file? Its ending; not hidden, not macOS's metadata."""
    parts = [part for part in name.replace("\\", "/").split("/") if part]
    if not parts or name.endswith("/"):
        return False
    if any(part.startswith(".") and part not in (".", "..") for part in parts):
        return False
    if "__MACOSX" in parts:
        return False
    return posixpath.splitext(parts[-1])[1].lower() in SOURCE_SUFFIXES


def unsafe_member(name: str) -> str | None:
    """Why a member's name could point outside an archive extracted to a folder (an
    absolute path, a drive, a ``..`` step), or None. gcadj never extracts, so such a name
    could do no harm here; it is refused all the same, as a sign of a hostile archive."""
    path = name.replace("\\", "/")
    if path.startswith("/") or (len(path) > 1 and path[1] == ":"):
        return "an absolute path in a zip; members are read only by relative names"
    if ".." in path.split("/"):
        return "a name with '..' climbs out of the archive; members must stay inside it"
    return None


def archive_size(upload: Upload) -> int:
    if upload.path is None:
        return len(upload.data)
    return Path(upload.path).stat().st_size


def duplicate_member(infos: Sequence[zipfile.ZipInfo]) -> str | None:
    """The first name that two members of a zip share, or None."""
    seen: set[str] = set()
    for info in infos:
        if info.filename in seen:
            return info.filename
        seen.add(info.filename)
    return None


def member_extent(info: zipfile.ZipInfo, handle: BinaryIO) -> tuple[int, int]:
    """Where a member lies in its zip: from its local header to the end of its data (the
    name and extra-field lengths read from the local header itself, as a reader uses them;
    a header that cannot be read counts as empty, the least the member can take)."""
    start = info.header_offset
    handle.seek(start)
    header = handle.read(LOCAL_HEADER)
    names = 0
    if len(header) == LOCAL_HEADER and header.startswith(ZIP_MAGIC):
        name_length, extra_length = struct.unpack("<HH", header[26:30])
        names = name_length + extra_length
    return start, start + LOCAL_HEADER + names + info.compress_size


def overlapping_members(
    infos: Sequence[zipfile.ZipInfo], handle: BinaryIO
) -> tuple[str, str] | None:
    """Two members of a zip whose bytes overlap (entries of the central directory that
    point into one member), or None: in an honest zip, each member has bytes of its own."""
    extents = sorted((member_extent(info, handle), info.filename) for info in infos)
    for ((_, end), name), ((start, _), other) in itertools.pairwise(extents):
        if start < end:
            return name, other
    return None


class UploadReader:
    """The sources of a list of uploads (`plan`), and each one's bytes (`read`); the zips
    are opened once and kept open while the sources are read in order."""

    def __init__(self, uploads: Sequence[Upload], limits: ZipLimits) -> None:
        self.uploads = list(uploads)
        self.limits = limits
        self.skipped = 0  # members of zips that are not game files
        self.spent_files = 0  # files of the zips planned so far: the request's budget
        self.spent_bytes = 0  # and their uncompressed bytes
        self._zips: dict[int, zipfile.ZipFile] = {}
        self._read: dict[int, int] = {}  # bytes produced so far, per zip

    def plan(self) -> list[Planned]:
        """Every source, in order, each zip expanded to its game files (or refused whole)."""
        planned: list[Planned] = []
        for index, upload in enumerate(self.uploads):
            if upload.error is not None:
                planned.append(Planned(upload.name, index, refusal=upload.error))
                continue
            if not is_zip(upload):
                planned.append(Planned(upload.name, index))
                continue
            try:
                members = self._members(index)
            except UploadRefused as err:
                planned.append(Planned(upload.name, index, refusal=str(err)))
                continue
            if not members:
                message = (
                    f"{upload.name}: no game file in this zip (files ending {SOURCE_SUFFIXES_TEXT})"
                )
                planned.append(Planned(upload.name, index, refusal=message))
            for member in members:
                name = f"{upload.name}/{member}"
                unsafe = unsafe_member(member)
                refusal = None if unsafe is None else f"{name}: refused: {unsafe}"
                planned.append(Planned(name, index, member=member, refusal=refusal))
        names = unique_names([p.name for p in planned])
        return [
            Planned(name, p.upload, p.member, p.refusal)
            for name, p in zip(names, planned, strict=True)
        ]

    def _members(self, index: int) -> list[str]:
        upload = self.uploads[index]
        try:
            archive = zipfile.ZipFile(upload.open())
            infos = archive.infolist()
        except (zipfile.BadZipFile, zlib.error, ValueError, EOFError, OSError) as err:
            raise UploadRefused(f"{upload.name}: not a readable zip archive ({err})") from None
        try:
            self._check(upload, infos)
        except UploadRefused:
            archive.close()
            raise
        self._zips[index] = archive
        self._read[index] = 0
        files = [info for info in infos if not info.is_dir()]
        games = [info.filename for info in files if is_game_member(info.filename)]
        self.skipped += len(files) - len(games)
        return games

    def _check(self, upload: Upload, infos: list[zipfile.ZipInfo]) -> None:
        """Refuse a zip (see the module docstring) before anything is read from it; count
        what it costs against the request's budget when it passes."""
        limits, name = self.limits, upload.name
        repeated = duplicate_member(infos)
        if repeated is not None:
            raise UploadRefused(f"{name}: refused: {repeated!r} is in the zip twice")
        with upload.open() as handle:
            shared = overlapping_members(infos, handle)
        if shared is not None:
            raise UploadRefused(
                f"{name}: refused: {shared[0]!r} and {shared[1]!r} share their data in the "
                "zip, as only a zip bomb's members do"
            )
        files = [info for info in infos if not info.is_dir()]
        total = sum(info.file_size for info in files)
        before = "in the zip" if not self.spent_files else "in the zips of this check"
        if self.spent_files + len(files) > limits.max_files:
            raise UploadRefused(
                f"{name}: refused: {self.spent_files + len(files)} files {before}, more than "
                f"the limit of {limits.max_files}"
            )
        if self.spent_bytes + total > limits.max_total:
            what = "the zip expands" if not self.spent_bytes else "the zips of this check expand"
            raise UploadRefused(
                f"{name}: refused: {what} to {size_text(self.spent_bytes + total)}, more than "
                f"the limit of {size_text(limits.max_total)}"
            )
        size = archive_size(upload)
        for label, packed, unpacked in [
            *((info.filename, info.compress_size, info.file_size) for info in files),
            ("the zip", size, total),
        ]:
            ratio = unpacked / max(1, packed)
            if unpacked > limits.ratio_floor and ratio > limits.max_ratio:
                raise UploadRefused(
                    f"{name}: refused: {label} expands {ratio:.0f} times ({size_text(packed)} "
                    f"to {size_text(unpacked)}), more than the limit of {limits.max_ratio} "
                    "times: a zip bomb?"
                )
        self.spent_files += len(files)
        self.spent_bytes += total

    def read(self, item: Planned) -> bytes:
        """The bytes of one planned source; raises `UploadRefused` (its refusal, an unreadable
        or encrypted member, or one producing more than the sizes it declared)."""
        if item.refusal is not None:
            raise UploadRefused(item.refusal)
        upload = self.uploads[item.upload]
        if item.member is None:
            return upload.content()
        archive = self._zips[item.upload]
        info = archive.getinfo(item.member)
        if info.flag_bits & 0x1:
            raise UploadRefused(f"{item.name}: encrypted; gcadj reads only unencrypted zips")
        out = bytearray()
        try:
            with archive.open(info) as member:
                while chunk := member.read(CHUNK):
                    out += chunk
                    self._read[item.upload] += len(chunk)
                    if len(out) > info.file_size or self._read[item.upload] > self.limits.max_total:
                        raise UploadRefused(
                            f"{item.name}: refused: the member produces more bytes than its zip "
                            "declares"
                        )
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError) as err:
            raise UploadRefused(f"{item.name}: cannot be read from the zip ({err})") from None
        except RuntimeError as err:  # zipfile's "password required" and the like
            raise UploadRefused(f"{item.name}: cannot be read from the zip ({err})") from None
        return bytes(out)

    def close(self) -> None:
        for archive in self._zips.values():
            archive.close()
        self._zips.clear()


__all__ = [
    "Planned",
    "Upload",
    "UploadReader",
    "ZipLimits",
    "archive_size",
    "duplicate_member",
    "is_game_member",
    "is_zip",
    "member_extent",
    "overlapping_members",
    "unique_names",
    "unsafe_member",
]
