"""What a user sent, as sources to judge: uploads and the members of zips, read in memory.

Nothing is ever extracted to disk: a zip's members are read one at a time from the
uploaded bytes, so a member named ``../x`` or ``/etc/passwd`` is only a name shown in the
results, never a path. Before any member is read, the zip is refused whole (one "error"
verdict naming it and the limit) when it holds more files than `ZipLimits.max_files`,
declares more uncompressed bytes than `ZipLimits.max_total`, or has a large member that
expands more than `ZipLimits.max_ratio` times (a zip bomb). Reading then counts the bytes
really produced, so a zip that lies about its sizes is stopped at the declared ones.

A zip's game files are chosen as a folder walk chooses them (`gcadj.sources.walk`): the
endings gcadj reads, hidden files and ``__MACOSX`` skipped. A member whose name is
absolute or climbs with ``..`` is refused with its own "error" verdict (`unsafe_member`).
Every other upload is one source, whatever its name: the user chose it.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from gcadj.errors import UploadRefused as Refused
from gcadj.sources.walk import SOURCE_SUFFIXES
from gcadj.web.limits import size_text

ZIP_MAGIC: Final = b"PK\x03\x04"
EMPTY_ZIP_MAGIC: Final = b"PK\x05\x06"
CHUNK: Final = 64 * 1024


@dataclass(frozen=True)
class Upload:
    """One thing sent: a file's upload name and bytes, a pasted text, a raw body, a
    fetched page; `error` says why a source has no bytes (a page that was not fetched)."""

    name: str
    data: bytes
    error: str | None = None


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
    return upload.name.lower().endswith(".zip") or upload.data.startswith(
        (ZIP_MAGIC, EMPTY_ZIP_MAGIC)
    )


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


class UploadReader:
    """The sources of a list of uploads (`plan`), and each one's bytes (`read`); the zips
    are opened once and kept open while the sources are read in order."""

    def __init__(self, uploads: Sequence[Upload], limits: ZipLimits) -> None:
        self.uploads = list(uploads)
        self.limits = limits
        self.skipped = 0  # members of zips that are not game files
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
            except Refused as err:
                planned.append(Planned(upload.name, index, refusal=str(err)))
                continue
            if not members:
                suffixes = " ".join(sorted(SOURCE_SUFFIXES))
                message = f"{upload.name}: no game file in this zip (files ending {suffixes})"
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
        upload, limits = self.uploads[index], self.limits
        try:
            archive = zipfile.ZipFile(io.BytesIO(upload.data))
            infos = archive.infolist()
        except (zipfile.BadZipFile, zlib.error, ValueError, EOFError, OSError) as err:
            raise Refused(f"{upload.name}: not a readable zip archive ({err})") from None
        files = [info for info in infos if not info.is_dir()]
        if len(files) > limits.max_files:
            raise Refused(
                f"{upload.name}: refused: {len(files)} files in the zip, more than the limit "
                f"of {limits.max_files}"
            )
        total = sum(info.file_size for info in files)
        if total > limits.max_total:
            raise Refused(
                f"{upload.name}: refused: the zip expands to {size_text(total)}, more than the "
                f"limit of {size_text(limits.max_total)}"
            )
        for info in files:
            ratio = info.file_size / max(1, info.compress_size)
            if info.file_size > limits.ratio_floor and ratio > limits.max_ratio:
                raise Refused(
                    f"{upload.name}: refused: {info.filename} expands {ratio:.0f} times "
                    f"({size_text(info.compress_size)} to {size_text(info.file_size)}), more "
                    f"than the limit of {limits.max_ratio} times: a zip bomb?"
                )
        self._zips[index] = archive
        self._read[index] = 0
        games = [info.filename for info in files if is_game_member(info.filename)]
        self.skipped += len(files) - len(games)
        return games

    def read(self, item: Planned) -> bytes:
        """The bytes of one planned source; raises `Refused` (its refusal, an unreadable
        or encrypted member, or one producing more than the sizes it declared)."""
        if item.refusal is not None:
            raise Refused(item.refusal)
        upload = self.uploads[item.upload]
        if item.member is None:
            return upload.data
        archive = self._zips[item.upload]
        info = archive.getinfo(item.member)
        if info.flag_bits & 0x1:
            raise Refused(f"{item.name}: encrypted; gcadj reads only unencrypted zips")
        out = bytearray()
        try:
            with archive.open(info) as member:
                while chunk := member.read(CHUNK):
                    out += chunk
                    self._read[item.upload] += len(chunk)
                    if len(out) > info.file_size or self._read[item.upload] > self.limits.max_total:
                        raise Refused(
                            f"{item.name}: refused: the member produces more bytes than its zip "
                            "declares"
                        )
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError) as err:
            raise Refused(f"{item.name}: cannot be read from the zip ({err})") from None
        except RuntimeError as err:  # zipfile's "password required" and the like
            raise Refused(f"{item.name}: cannot be read from the zip ({err})") from None
        return bytes(out)

    def close(self) -> None:
        for archive in self._zips.values():
            archive.close()
        self._zips.clear()


__all__ = [
    "Planned",
    "Refused",
    "Upload",
    "UploadReader",
    "ZipLimits",
    "is_game_member",
    "is_zip",
    "unique_names",
    "unsafe_member",
]
