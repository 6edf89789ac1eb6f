"""Output files: written whole or not at all, never over a file unless asked, usual modes."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from gcadj.outputs.files import atomic_text_file, write_text_file


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_file_gets_the_mode_the_umask_gives(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_text_file(tmp_path / "report.html", "<p>hi</p>", overwrite=False)
    finally:
        os.umask(old)
    assert (tmp_path / "report.html").read_text() == "<p>hi</p>"
    assert _mode(tmp_path / "report.html") == 0o644  # not mkstemp's 0600
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no temporary left


def test_replacing_keeps_the_files_own_mode(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    target.write_text("old")
    target.chmod(0o640)
    write_text_file(target, "new", overwrite=True)
    assert target.read_text() == "new"
    assert _mode(target) == 0o640


def test_without_overwrite_an_existing_file_is_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "game.txt"
    target.write_text("the user's own notes")
    with pytest.raises(FileExistsError):
        write_text_file(target, "gcadj output", overwrite=False)
    assert target.read_text() == "the user's own notes"
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"]


def test_an_interrupted_write_leaves_nothing_behind(tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    target.write_text("previous report")
    with pytest.raises(RuntimeError), atomic_text_file(target) as handle:
        handle.write("half a report")
        raise RuntimeError("interrupted")
    assert target.read_text() == "previous report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


def test_an_unwritable_folder_is_reported_by_the_target_name(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "out.pgn"
    with pytest.raises(OSError) as caught:
        write_text_file(missing, "x", overwrite=True)
    assert str(missing) in str(caught.value)
