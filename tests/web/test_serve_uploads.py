"""Uploads and zips as sources (`gcadj.web.uploads`), read in memory under the limits."""

from __future__ import annotations

import io
import zipfile

import pytest
from serving import zip_of

from gcadj.web.forms import FormError, parse_form
from gcadj.web.uploads import (
    Planned,
    Refused,
    Upload,
    UploadReader,
    ZipLimits,
    is_game_member,
    unique_names,
)

LIMITS = ZipLimits(max_total=1_000_000, max_files=50, max_ratio=100, ratio_floor=100_000)


def test_repeated_names_are_made_distinct_in_order() -> None:
    assert unique_names(["a", "b", "a", "a (2)", "a"]) == ["a", "b", "a (3)", "a (2)", "a (4)"]
    assert len(set(unique_names(["x"] * 5))) == 5


@pytest.mark.parametrize(
    ("name", "game"),
    [
        ("a.txt", True),
        ("club/2024/Game_01.PGN", True),
        ("page.htm", True),
        ("notes.md", False),
        ("folder/", False),
        (".hidden.txt", False),
        ("x/.git/a.txt", False),
        ("__MACOSX/._a.txt", False),
        ("../up.txt", True),  # a game file by its name; refused by the plan (below)
    ],
)
def test_game_members_are_chosen_as_a_folder_walk_chooses_files(name: str, game: bool) -> None:
    assert is_game_member(name) is game


def test_a_zip_is_planned_in_order_and_each_member_read_in_memory() -> None:
    archive = zip_of({"b/2.txt": b"two", "a/1.txt": b"one", "readme.md": b"x", "../u.txt": b"u"})
    reader = UploadReader([Upload("first.txt", b"P e2-e4"), Upload("z.zip", archive)], LIMITS)
    planned = reader.plan()
    assert [p.name for p in planned] == [
        "first.txt",
        "z.zip/b/2.txt",
        "z.zip/a/1.txt",
        "z.zip/../u.txt",
    ]
    assert reader.skipped == 1
    assert [reader.read(p) for p in planned[:3]] == [b"P e2-e4", b"two", b"one"]
    with pytest.raises(Refused, match="climbs out of the archive"):
        reader.read(planned[3])


def test_a_zip_that_lies_about_its_sizes_is_stopped_at_the_declared_ones() -> None:
    data = bytearray(zip_of({"a.txt": b"P e2-e4\n" * 1000}))
    # shrink the declared size in the central directory (the local header is not read for it)
    central = data.rindex(b"PK\x01\x02")
    data[central + 24 : central + 28] = (10).to_bytes(4, "little")
    reader = UploadReader([Upload("l.zip", bytes(data))], LIMITS)
    (item,) = reader.plan()
    with pytest.raises(Refused):
        reader.read(item)


def test_not_a_zip_and_an_empty_zip_are_refused_with_their_reason() -> None:
    empty = io.BytesIO()
    zipfile.ZipFile(empty, "w").close()
    reader = UploadReader(
        [Upload("bad.zip", b"PK\x03\x04junk"), Upload("e.zip", empty.getvalue())], LIMITS
    )
    bad, none = reader.plan()
    assert isinstance(bad, Planned) and "not a readable zip archive" in (bad.refusal or "")
    assert "no game file in this zip" in (none.refusal or "")


def test_a_multipart_form_is_parsed_in_memory_with_its_file_names() -> None:
    body = (
        b'--B\r\nContent-Disposition: form-data; name="text"\r\n\r\nP e2-e4\r\n'
        b'--B\r\nContent-Disposition: form-data; name="file"; filename="../a b.txt"\r\n'
        b"Content-Type: text/plain\r\n\r\n\x00\x01bytes\r\n--B--\r\n"
    )
    text, upload = parse_form(body, "multipart/form-data; boundary=B")
    assert (text.name, text.filename, text.data) == ("text", None, b"P e2-e4")
    assert (upload.name, upload.filename, upload.data) == ("file", "../a b.txt", b"\x00\x01bytes")
    with pytest.raises(FormError, match="without a boundary"):
        parse_form(body, "multipart/form-data")
    with pytest.raises(FormError, match="expected a form"):
        parse_form(body, "application/json")
