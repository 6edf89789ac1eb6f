"""Every source is read up to a cap, and what is not a file is read with a deadline or
refused in words: no MemoryError, no hang. Real files, a real sparse file, /dev/zero,
real FIFOs with and without a writer, and whole `gcadj` processes under a timeout (the
timeout guards against a hang; nothing here measures time)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import FIXTURES, GCADJ, ROOT, invoke_gcadj, run_gcadj

from gcadj.cli.common_options import parse_bytes
from gcadj.sources.read import (
    DEFAULT_MAX_BYTES,
    PIPE_TIMEOUT,
    PIPE_TIMEOUT_ENV,
    SourceError,
    pipe_timeout_default,
    read_source,
    size_words,
)
from gcadj.sources.walk import expand_sources

GAME = (FIXTURES / "examples" / "ex4_resignation.txt").read_text(encoding="utf-8")
HANG_GUARD = 120  # seconds: far past any deadline here; reaching it means a hang


def test_a_file_over_the_cap_is_an_error_and_the_other_sources_go_on(tmp_path: Path) -> None:
    small, large = tmp_path / "small.txt", tmp_path / "large.txt"
    small.write_text(GAME)
    large.write_text(GAME + "// padding\n" * 200)
    run = invoke_gcadj("check", "--json", "--max-bytes", "1K", str(large), str(small))
    assert run.returncode == 4
    verdicts = [json.loads(line) for line in run.stdout.splitlines()]
    by_source = {v["source"]: v for v in verdicts}
    assert by_source[str(small)]["status"] == "legal"
    bad = by_source[str(large)]
    assert bad["status"] == "error"
    size = large.stat().st_size
    assert bad["error"] == f"{large}: larger than 1 KiB ({size:,} bytes); raise --max-bytes"


def test_the_cap_is_the_size_exactly(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_bytes(GAME.encode())
    size = path.stat().st_size
    assert "resign" in read_source(str(path), size)  # exactly the cap: read
    with pytest.raises(SourceError, match=rf"larger than {size - 1} bytes"):
        read_source(str(path), size - 1)


def test_a_6_gb_sparse_file_in_an_audit_folder_gets_its_error(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a.txt").write_text(GAME)
    with (folder / "huge.txt").open("wb") as handle:
        handle.truncate(6 << 30)  # sparse: 6 GB long, no disk used
    out = tmp_path / "r.jsonl"
    run = invoke_gcadj("audit", str(folder), "--out", str(out), "--jobs", "2", "-q")
    assert run.returncode == 4, run.stderr
    assert "MemoryError" not in run.stdout + run.stderr
    rows = {row["source"]: row for row in map(json.loads, out.read_text().splitlines())}
    assert rows[str(folder / "a.txt")]["status"] == "legal"
    huge = rows[str(folder / "huge.txt")]
    assert huge["status"] == "error"
    assert huge["error"].endswith(f"larger than 64 MiB ({6 << 30:,} bytes); raise --max-bytes")


@pytest.mark.parametrize("command", ["check", "export", "audit"])
def test_a_device_is_refused_in_words(command: str, tmp_path: Path) -> None:
    # A process (run_gcadj), under its hang guard: reading /dev/zero to the end never ends.
    extra = ["--to", "pgn"] if command == "export" else []
    extra += ["--out", str(tmp_path / "r.jsonl")] if command == "audit" else []
    run = run_gcadj(command, "/dev/zero", *extra)
    assert run.returncode == 4
    said = run.stdout + run.stderr
    if command == "audit":
        said = (tmp_path / "r.jsonl").read_text()
        assert "MemoryError" not in run.stdout + run.stderr
    assert "/dev/zero: is a character device, not a file" in said
    assert "gcadj check - < /dev/zero" in said  # how to read it anyway
    assert "MemoryError" not in said and "internal error" not in said


def test_endless_standard_input_stops_at_the_cap() -> None:
    with open("/dev/zero", "rb") as zero:
        run = subprocess.run(
            [*GCADJ, "check", "--json", "--max-bytes", "2M", "-"],
            stdin=zero,
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=HANG_GUARD,
            check=False,
        )
    assert run.returncode == 4
    (verdict,) = [json.loads(line) for line in run.stdout.splitlines()]
    assert verdict["status"] == "error"
    assert verdict["error"] == "<stdin>: larger than 2 MiB; raise --max-bytes"


def test_standard_input_under_the_cap_is_read() -> None:
    run = invoke_gcadj("check", "-", stdin=GAME.encode())
    assert run.returncode == 0 and "legal" in run.stdout


def _fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.txt"
    os.mkfifo(path)
    return path


def _write_later(path: Path, data: bytes) -> threading.Thread:
    def write() -> None:
        with open(path, "wb") as handle:  # blocks until the reader has opened it
            handle.write(data)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def test_a_fifo_with_a_writer_is_read(tmp_path: Path) -> None:
    # The FIFO tests run gcadj as a process (run_gcadj), under its hang guard: a FIFO read
    # wrong blocks forever, which in process would stop the suite instead of failing.
    fifo = _fifo(tmp_path)
    writer = _write_later(fifo, GAME.encode())
    run = run_gcadj("check", "--json", str(fifo))
    writer.join(HANG_GUARD)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["status"] == "legal"


def test_a_fifo_over_the_cap_is_an_error(tmp_path: Path) -> None:
    fifo = _fifo(tmp_path)

    def write() -> None:
        try:
            with open(fifo, "wb") as handle:
                handle.write(b"// x\n" * 100_000)  # 500 KB
        except BrokenPipeError:
            pass  # the reader stopped at the cap and closed its end

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    run = run_gcadj("check", "--json", "--max-bytes", "64K", str(fifo))
    writer.join(HANG_GUARD)
    assert run.returncode == 4
    assert json.loads(run.stdout)["error"] == f"{fifo}: larger than 64 KiB; raise --max-bytes"


def test_a_fifo_nobody_writes_to_is_given_up(tmp_path: Path) -> None:
    # In a child process with a hang guard: a FIFO opened the ordinary way would block
    # this test forever. The deadline is shortened through the library's own argument.
    fifo = _fifo(tmp_path)
    code = (
        "import sys\n"
        "from gcadj.sources.read import SourceError, read_source\n"
        "try:\n"
        f"    read_source({str(fifo)!r}, pipe_timeout=0.5)\n"
        "except SourceError as err:\n"
        "    print(err)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=HANG_GUARD,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == (
        f"{fifo}: a FIFO that sent nothing for 0.5 s (is anything writing to it?); gave up"
    )


def test_the_command_gives_up_a_fifo_nobody_writes_to(tmp_path: Path) -> None:
    # The real command, with its deadline shortened through the environment (the real one
    # is 30 s, as the manual says: below): it must end, with an error verdict, and judge
    # the other source.
    fifo = _fifo(tmp_path)
    game = tmp_path / "game.txt"
    game.write_text(GAME)
    run = run_gcadj("check", "--json", str(fifo), str(game), env={PIPE_TIMEOUT_ENV: "0.5"})
    assert run.returncode == 4
    first, second = (json.loads(line) for line in run.stdout.splitlines())
    assert first["status"] == "error" and "a FIFO that sent nothing for 0.5 s" in first["error"]
    assert second["status"] == "legal"


@pytest.mark.parametrize("setting", ["", "0", "-3", "inf", "nan", "soon"])
def test_the_fifo_deadline_is_30_s_unless_the_environment_says_a_positive_number(
    setting: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PIPE_TIMEOUT_ENV, "2.5")
    assert pipe_timeout_default() == 2.5
    monkeypatch.setenv(PIPE_TIMEOUT_ENV, setting)
    assert pipe_timeout_default() == PIPE_TIMEOUT == 30
    said = f"nothing arrives for {PIPE_TIMEOUT:g} s"
    assert said in " ".join((ROOT / "docs" / "check.md").read_text("utf-8").split())


def test_a_fifo_named_like_an_audit_is_a_problem_not_a_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "results.jsonl"
    os.mkfifo(fifo)
    sources, problems = expand_sources([str(fifo)])
    assert sources == []
    assert problems == [f"{fifo}: not a regular file, so not an audit's results"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1", 1),
        ("4096", 4096),
        ("1K", 1024),
        ("64M", 64 << 20),
        ("64MiB", 64 << 20),
        ("2g", 2 << 30),
        ("500 KB", 500 << 10),
    ],
)
def test_max_bytes_takes_a_size_with_a_suffix(text: str, value: int) -> None:
    assert parse_bytes(text) == value


@pytest.mark.parametrize("text", ["0", "-1", "12X", "M", "1.5M", ""])
def test_a_bad_max_bytes_is_a_usage_error(text: str) -> None:
    run = invoke_gcadj("check", "--max-bytes", text, "x.txt")
    assert run.returncode == 2
    needs = "a size in bytes ≥ 1, with K, M or G for KiB, MiB or GiB (64M)"
    assert f"--max-bytes needs {needs}, not {text!r}" in run.stderr


def test_sizes_are_said_in_the_largest_whole_unit() -> None:
    assert size_words(DEFAULT_MAX_BYTES) == "64 MiB"
    assert size_words(1536) == "1.5 KiB"
    assert size_words(1) == "1 byte"
    assert size_words(1000) == "1000 bytes"
