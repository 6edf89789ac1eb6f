"""An audit whose --out cannot take any more: one line saying so, exit 6, whole lines only,
and ``--resume`` finishes the job (issue 29, item 9).

Two real file systems that refuse a write: a file size limit (``RLIMIT_FSIZE`` on the audit
process, with SIGXFSZ ignored, so a write past it fails with EFBIG, "File too large"),
which any Linux process may set; and a full disk, a 64 KB tmpfs mounted in a private mount
namespace (``unshare``), where the system allows one (ENOSPC, "No space left on device").
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from conftest import GCADJ, ROOT
from test_audit import make_corpus  # the same small logs

LIMIT = 40_000  # bytes: about 80 lines of the examples' verdicts


def whole_lines(path: Path) -> list[str]:
    """The sources of a JSONL, asserting that every line is whole JSON."""
    data = path.read_bytes()
    assert data == b"" or data.endswith(b"\n"), "a torn last line"
    return [json.loads(line)["source"] for line in data.splitlines()]


def limited_size() -> None:
    """In the audit process, before it starts: files of at most LIMIT bytes."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of being killed
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def test_a_file_size_limit_stops_the_audit_with_one_line_and_whole_lines(tmp_path: Path) -> None:
    names = make_corpus(tmp_path / "corpus", 300)
    out = tmp_path / "results.jsonl"
    command = [*GCADJ, "audit", str(tmp_path / "corpus"), "--out", str(out), "-q", "-j", "2"]
    stopped = subprocess.run(
        command, capture_output=True, text=True, cwd=ROOT, preexec_fn=limited_size, timeout=300
    )
    assert stopped.returncode == 6
    assert stopped.stderr.splitlines() == [f"gcadj audit: cannot write {out}: File too large"]
    assert stopped.stdout.count("\n") >= 1  # the illegal games judged before it stopped
    written = whole_lines(out)
    assert 0 < len(written) < len(names) and out.stat().st_size <= LIMIT
    assert written == names[: len(written)]  # in order: a prefix of the sources
    resumed = subprocess.run(
        [*command, "--resume"], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert resumed.returncode == 1, resumed.stderr  # ex5 of the examples is illegal
    assert whole_lines(out) == names  # every source, each exactly once, in order


def can_mount_tmpfs(folder: Path) -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", f"mount -t tmpfs -o size=64k none {folder}"],
        capture_output=True,
        timeout=30,
    )
    return probe.returncode == 0


def test_a_full_disk_stops_the_audit_with_one_line_and_resume_finishes(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    if not can_mount_tmpfs(disk):
        pytest.skip("no private mount namespace here to mount a small tmpfs in")
    names = make_corpus(tmp_path / "corpus", 300)
    out = disk / "results.jsonl"
    audit = " ".join([*GCADJ, "audit", str(tmp_path / "corpus"), "--out", str(out), "-q"])
    script = f"""
        mount -t tmpfs -o size=64k none {disk} || exit 99
        {audit} >/dev/null 2>{tmp_path}/full.err; echo $? >{tmp_path}/full.rc
        cp {out} {tmp_path}/full.jsonl
        mount -o remount,size=16m {disk}
        {audit} --resume >/dev/null 2>{tmp_path}/resumed.err; echo $? >{tmp_path}/resumed.rc
        cp {out} {tmp_path}/resumed.jsonl
    """
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script], cwd=ROOT, timeout=600, env={**os.environ}
    )
    assert done.returncode == 0
    assert (tmp_path / "full.rc").read_text().strip() == "6"
    message = f"gcadj audit: cannot write {out}: No space left on device"
    assert (tmp_path / "full.err").read_text().splitlines() == [message]
    written = whole_lines(tmp_path / "full.jsonl")
    assert 0 < len(written) < len(names) and written == names[: len(written)]
    assert (tmp_path / "resumed.rc").read_text().strip() == "1", (
        tmp_path / "resumed.err"
    ).read_text()
    assert whole_lines(tmp_path / "resumed.jsonl") == names


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_out_must_be_a_regular_file_and_a_device_is_never_read(device: str) -> None:
    """A device cannot be locked, resumed or read back for the summary; /dev/zero would
    give a resume an endless line to read."""
    for flag in ("--force", "--resume"):
        done = subprocess.run(
            [*GCADJ, "audit", str(ROOT / "fixtures" / "examples"), "--out", device, flag, "-q"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr == (
            f"gcadj audit: {device} is not a regular file; name a file to write the results to\n"
        )
