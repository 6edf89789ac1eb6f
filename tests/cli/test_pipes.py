"""gcadj as a Unix filter whose reader stops early (issue 20, item 1): `gcadj check DIR | head
-1` and the like end quietly with exit 141 (128 + SIGPIPE), never 1 ("illegal move found")
or 5 ("internal error"), and print nothing on stderr, whichever command was writing.

Real processes on real pipes (the console script's `main`, as a shell runs it), made
deterministic two ways, each run several times:
* the reader is gone before gcadj writes a byte (the read end is closed at once), so the
  first write, or the last flush at exit, finds no reader;
* the reader reads one line and closes, on a pipe shrunk to one page (F_SETPIPE_SZ) while
  gcadj has more than a page still to write, so some write must come after the close.
"""

from __future__ import annotations

import fcntl
import os
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import FIXTURES, GCADJ, ROOT
from httpserver import FixtureServer, page, play_path
from random_games import random_game

from gcadj.cli.streams import EXIT_READER_GONE

ILLEGAL = FIXTURES / "logs" / "illegal" / "castling.txt"
LEGAL = FIXTURES / "logs" / "legal" / "checkmate.txt"
RUNS = 3  # every case, several times: the answer must not depend on timing
ONE_PAGE = 4096


def command(*args: str) -> list[str]:
    return [*GCADJ, *args]


def reader_gone_at_once(*args: str, stdin: bytes = b"") -> tuple[int, str]:
    """Run gcadj with a stdout pipe whose reader has already gone; (exit code, stderr)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            command(*args), stdout=write_end, stderr=subprocess.PIPE, input=stdin,
            cwd=ROOT, timeout=120,
        )  # fmt: skip
    finally:
        os.close(write_end)
    return done.returncode, done.stderr.decode("utf-8", "replace")


def reads_one_line_then_closes(*args: str) -> tuple[int, str, bytes]:
    """Run gcadj into a one-page pipe, read its first line byte by byte, close the pipe;
    (exit code, stderr, the line read)."""
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, ONE_PAGE)
    assert fcntl.fcntl(write_end, fcntl.F_GETPIPE_SZ) == ONE_PAGE
    process = subprocess.Popen(
        command(*args), stdout=write_end, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
        cwd=ROOT,
    )  # fmt: skip
    os.close(write_end)
    line = b""
    while not line.endswith(b"\n"):
        byte = os.read(read_end, 1)
        if not byte:
            break
        line += byte
    os.close(read_end)
    _, stderr = process.communicate(timeout=120)
    return process.returncode, stderr.decode("utf-8", "replace"), line


def full_output_size(*args: str) -> int:
    done = subprocess.run(command(*args), capture_output=True, cwd=ROOT, timeout=120)
    return len(done.stdout)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twenty games, legal and illegal: several pages of verdicts."""
    root = tmp_path_factory.mktemp("games")
    for n in range(10):
        (root / f"{n:02}-illegal.txt").write_bytes(ILLEGAL.read_bytes())
        (root / f"{n:02}-legal.txt").write_bytes(LEGAL.read_bytes())
    return root


@pytest.fixture(scope="module")
def long_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    plies, _ = random_game(random.Random(20), 120)
    path = tmp_path_factory.mktemp("long") / "long.txt"
    path.write_text("\n".join(plies) + "\n")
    return path


def reader_gone_cases(folder: Path, long_game: Path) -> Iterator[tuple[str, ...]]:
    yield ("check", str(folder))
    yield ("check", "-q", str(folder))
    yield ("check", "--json", str(folder))
    yield ("check", str(LEGAL))  # one short line, written at the final flush
    yield ("export", str(long_game), "--to", "json")
    yield ("export", str(LEGAL), "--to", "gc")
    yield ("export", "-q", str(folder), "--to", "pgn")
    yield ("export", str(LEGAL), "--to", "svg")
    yield ("perft", "startpos", "3", "--divide")
    yield ("perft", "startpos", "1")
    yield ("fen", "--to-gc", "startpos")
    yield ("audit", str(folder), "--jobs", "1")
    yield ("--help",)
    yield ("check", "--help")
    yield ("--version",)


def test_every_command_exits_141_quietly_when_the_reader_is_gone_before_it_writes(
    folder: Path, long_game: Path
) -> None:
    for args in reader_gone_cases(folder, long_game):
        for _ in range(RUNS):
            assert reader_gone_at_once(*args) == (EXIT_READER_GONE, ""), args


def test_games_from_stdin_too() -> None:
    for _ in range(RUNS):
        assert reader_gone_at_once("check", stdin=LEGAL.read_bytes()) == (EXIT_READER_GONE, "")


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("check", "{folder}"), id="check"),
        pytest.param(("check", "-v", "{folder}"), id="check -v"),
        pytest.param(("check", "--json", "{folder}"), id="check --json"),
        pytest.param(("export", "{long}", "--to", "json"), id="export --to json"),
        pytest.param(("export", "-q", "{folder}", "--to", "pgn"), id="export --to pgn"),
        pytest.param(("audit", "{folder}", "--jobs", "1"), id="audit"),
    ],
)
def test_a_reader_that_takes_one_line_and_closes_gives_141_every_time(
    args: tuple[str, ...], folder: Path, long_game: Path
) -> None:
    args = tuple(arg.format(folder=folder, long=long_game) for arg in args)
    full = full_output_size(*args)
    first = None
    for _ in range(RUNS):
        code, stderr, line = reads_one_line_then_closes(*args)
        first = first or line
        assert (code, stderr) == (EXIT_READER_GONE, ""), args
        assert line == first and line.endswith(b"\n")
    assert full > ONE_PAGE + len(first or b"")  # so some write came after the close


def test_fetch_exits_141_quietly_too() -> None:
    html = (FIXTURES / "pages" / "pmc_pre.html").read_bytes()
    with FixtureServer({play_path("pre"): page(html)}) as server:
        url = server.url(play_path("pre"))
        for _ in range(RUNS):
            assert reader_gone_at_once("fetch", url, "--no-cache", "--delay", "0") == (
                EXIT_READER_GONE,
                "",
            )


def test_stderr_closed_early_too(folder: Path) -> None:
    """`gcadj audit DIR 2>&1 | head -1`: the summary on stderr finds no reader either."""
    for _ in range(RUNS):
        read_end, write_end = os.pipe()
        os.close(read_end)
        done = subprocess.run(
            command("audit", str(folder), "--jobs", "1", "-o", os.devnull, "--force"),
            stdout=write_end, stderr=write_end, cwd=ROOT, timeout=120,
        )  # fmt: skip
        os.close(write_end)
        assert done.returncode == EXIT_READER_GONE


def test_output_that_fits_before_the_reader_leaves_keeps_the_verdicts_exit_code() -> None:
    """The other side of the truth: when every byte was written, the exit code is the
    verdict's (here 1: an illegal move), as `seq 3 | head -1` exits 0."""
    done = subprocess.run(
        command("check", str(ILLEGAL)), capture_output=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 1 and done.stderr == b""
