"""Uploads and zips as sources (`gcadj.web.uploads`), read in memory under the limits."""

from __future__ import annotations

import io
import os
import random
import stat
import struct
import warnings
import zipfile
from pathlib import Path

import pytest
from serving import zip_of

from gcadj.errors import UploadRefused
from gcadj.web.forms import BodyReader, FormError, Memory, Spool, header_parameters, parse_form
from gcadj.web.receive import BufferBudget, Receipt
from gcadj.web.uploads import (
    Planned,
    Upload,
    UploadReader,
    ZipLimits,
    is_game_member,
    unique_names,
)

LIMITS = ZipLimits(max_total=1_000_000, max_files=50, max_ratio=100, ratio_floor=100_000)
ROOMY = ZipLimits(max_total=200_000_000, max_files=10_000, max_ratio=100, ratio_floor=1_000_000)


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
    with pytest.raises(UploadRefused, match="climbs out of the archive"):
        reader.read(planned[3])


def test_a_zip_that_lies_about_its_sizes_is_stopped_at_the_declared_ones() -> None:
    data = bytearray(zip_of({"a.txt": b"P e2-e4\n" * 1000}))
    # shrink the declared size in the central directory (the local header is not read for it)
    central = data.rindex(b"PK\x01\x02")
    data[central + 24 : central + 28] = (10).to_bytes(4, "little")
    reader = UploadReader([Upload("l.zip", bytes(data))], LIMITS)
    (item,) = reader.plan()
    with pytest.raises(UploadRefused):
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


def central_entries_pointing_at_one(data: bytes, copies: int) -> bytes:
    """A zip of one member whose central directory lists it `copies` times under other
    names (the issue's 11 KB zip whose 190 entries share one 1 MB member)."""
    central = data.rindex(b"PK\x01\x02")
    end = data.rindex(b"PK\x05\x06")
    entry = data[central:end]
    name_length = struct.unpack("<H", entry[28:30])[0]
    name = entry[46 : 46 + name_length]
    entries = b"".join(
        entry.replace(name, f"{i:0{name_length - 4}d}.txt".encode(), 1) for i in range(copies)
    )
    record = bytearray(data[end:])
    struct.pack_into("<HHII", record, 8, copies, copies, len(entries), central)
    return data[:central] + entries + bytes(record)


def test_members_that_share_their_data_are_refused() -> None:
    one = zip_of({"game.txt": b"P e2-e4\n" * 125_000})  # 1 MB in a few KB
    amplified = central_entries_pointing_at_one(one, 190)
    assert len(amplified) < 20_000
    infos = zipfile.ZipFile(io.BytesIO(amplified)).infolist()
    assert len(infos) == 190 and len({i.header_offset for i in infos}) == 1  # as built
    (refused,) = UploadReader([Upload("amp.zip", amplified)], ROOMY).plan()
    assert "share their data in the zip" in (refused.refusal or "")


def test_a_name_twice_in_a_zip_is_refused() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate: that is the point
        archive.writestr("a.txt", b"P e2-e4\n")
        archive.writestr("a.txt", b"P d2-d4\n")
    (refused,) = UploadReader([Upload("dup.zip", out.getvalue())], ROOMY).plan()
    assert "'a.txt' is in the zip twice" in (refused.refusal or "")


def test_the_ratio_is_checked_on_the_whole_archive() -> None:
    """Each member under the floor (not checked alone), together far over the ratio."""
    text = b"P e2-e4\np e7-e5\n" * 60_000  # 0.96 MB each
    archive = zip_of({f"g{i}.txt": text for i in range(20)})
    total = 20 * len(text)
    assert len(text) < ROOMY.ratio_floor
    assert total / len(archive) > ROOMY.max_ratio  # as built
    (refused,) = UploadReader([Upload("m.zip", archive)], ROOMY).plan()
    assert f"the zip expands {total / len(archive):.0f} times" in (refused.refusal or "")
    noise = random.Random(29)
    honest = zip_of({f"g{i}.txt": noise.randbytes(100_000) for i in range(20)})  # 2 MB, as is
    assert all(p.refusal is None for p in UploadReader([Upload("h.zip", honest)], ROOMY).plan())


def test_the_zips_of_one_request_share_one_budget() -> None:
    limits = ZipLimits(max_total=1_000_000, max_files=5, max_ratio=1000, ratio_floor=10_000_000)
    three = zip_of({f"g{i}.txt": b"P e2-e4\n" for i in range(3)})
    first, *rest = UploadReader([Upload("a.zip", three), Upload("b.zip", three)], limits).plan()
    assert first.refusal is None and rest[-1].name == "b.zip"
    assert "6 files in the zips of this check, more than the limit of 5" in (rest[-1].refusal or "")
    big = zip_of({"g.txt": b"P e2-e4\n" * 70_000})  # 560 KB
    planned = UploadReader([Upload("a.zip", big), Upload("b.zip", big)], limits).plan()
    assert planned[0].refusal is None
    assert "the zips of this check expand to 1.1 MB, more than the limit of 1 MB" in (
        planned[1].refusal or ""
    )


def test_a_zip_spilled_to_a_file_is_read_from_it(tmp_path: Path) -> None:
    archive = zip_of({"a/1.txt": b"one", "b/2.txt": b"two"})
    path = tmp_path / "upload"
    path.write_bytes(archive)
    reader = UploadReader([Upload("z.zip", b"", path=str(path))], LIMITS)
    planned = reader.plan()
    assert [reader.read(p) for p in planned] == [b"one", b"two"]
    reader.close()


@pytest.mark.parametrize(
    ("header", "name", "filename"),
    [
        ('form-data; name="file"; filename="партия.txt"', "file", "партия.txt"),
        ('form-data; name="file"; filename="a%22b%0D%0Ac.txt"', "file", 'a"b\r\nc.txt'),
        ('form-data; name="file"; filename="C:\\x\\y.txt"', "file", "C:\\x\\y.txt"),
        ("form-data; name=file; filename=plain.txt", "file", "plain.txt"),
        (
            'form-data; name="f"; filename="fallback.txt"; filename*=UTF-8\'\'caf%C3%A9.txt',
            "f",
            "café.txt",
        ),
        ("form-data; name=\"f\"; filename*=iso-8859-1''caf%E9.txt", "f", "café.txt"),
        ('form-data; name="f"; filename="x.txt"; filename*=koi8-r\'\'%D0.txt', "f", "x.txt"),
        ('form-data; name="text"', "text", None),
    ],
)
def test_part_names_are_read_as_browsers_send_them(
    header: str, name: str, filename: str | None
) -> None:
    options = header_parameters(header.encode("utf-8"))
    assert options.get("name") == name and options.get("filename") == filename


def test_a_large_part_spills_to_a_file_and_a_small_one_stays_in_memory(tmp_path: Path) -> None:
    files: list[str] = []
    big = b"P e2-e4\n" * 1000
    body = (
        b'--B\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\n\r\n'
        + big
        + b'\r\n--B\r\nContent-Disposition: form-data; name="text"\r\n\r\nP d2-d4\r\n--B--\r\n'
    )
    memory = Memory(1000)  # the request's: shared by its parts
    reader = BodyReader("multipart/form-data; boundary=B", lambda: Spool(tmp_path, memory, files))
    for start in range(0, len(body), 7):  # as a slow client sends it
        reader.feed(body[start : start + 7])
    spilled, small = reader.finish()
    assert spilled.stored.path is not None and Path(spilled.stored.path).read_bytes() == big
    assert files == [spilled.stored.path] and stat.S_IMODE(os.stat(files[0]).st_mode) == 0o600
    assert (small.stored.path, small.data) == (None, b"P d2-d4")


def test_the_budget_sheds_the_latest_uploads_first_and_each_client_keeps_to_its_share() -> None:
    """Three uploads begun in turn, the budget 1,000 bytes: when the first needs room, the
    latest still being received gives up what it holds (and is refused); a body already
    whole is never shed; a client past its share is refused, whatever room is left."""
    budget = BufferBudget(1000, client_limit=600)
    first, second, third = (Receipt(budget, client) for client in ("a", "b", "c"))
    assert first.hold(300) and second.hold(300) and third.hold(300)
    second.received()  # its body is whole: its check holds it until it ends
    assert first.hold(200)  # 1,100 would not fit: the third, the latest, is shed
    assert third.shed_for and third.held == 0 and not third.hold(1)
    assert not second.shed_for and budget.held == 800
    assert not first.hold(101)  # a's share (600) reached, though the budget has room
    assert not first.shed_for and budget.held == 800
    late = Receipt(budget, "d")
    assert late.hold(200) and not late.hold(1)  # full; nothing later than d to shed
    assert budget.latest_after(first) is late
    late.close()
    first.close()
    second.close()
    assert budget.held == 0 and not budget.clients and not budget.receiving
