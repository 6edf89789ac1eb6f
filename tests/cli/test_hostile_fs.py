"""gcadj on a hostile file system (issue 29, item 9): a full disk, an output that cannot be
written, a symbolic link in a loop, a folder that cannot be read.

Real processes on real file systems: ``/dev/full`` is a standard output whose every write
fails with "No space left on device"; a file-size limit (RLIMIT_FSIZE, the signal it
raises ignored) makes writing an output file fail as a full disk does; links in a loop
are real links; an unreadable folder is chmod 000. Tests run as root here, and root reads
through chmod 000, so a child run as root first drops the two capabilities that let it
(CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, from its bounding set: what it execs has neither);
the test checks that the folder really is unreadable to the child before relying on it.

The expected messages are built from the system's own wording (`os.strerror`), and the
expected verdicts from runs of gcadj on the good files alone.
"""

from __future__ import annotations

import ctypes
import errno
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import FIXTURES, run_gcadj
from httpserver import FixtureServer, page, play_path

from gcadj.app.exit_codes import EXIT_CANNOT_WRITE, EXIT_UNREADABLE
from gcadj.sources.walk import walk_folder

PAGE = FIXTURES / "pages" / "pmc_pre.html"  # a Game Courier viewing page
ILLEGAL = FIXTURES / "logs" / "illegal" / "castling.txt"
LEGAL = FIXTURES / "logs" / "legal" / "checkmate.txt"
FULL = Path("/dev/full")
ENOSPC = os.strerror(errno.ENOSPC)
ELOOP = os.strerror(errno.ELOOP)
EACCES = os.strerror(errno.EACCES)
EFBIG = os.strerror(errno.EFBIG)
PR_CAPBSET_DROP = 24
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 1, 2


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A legal and an illegal game: more output than a pipe buffer holds is not needed,
    since /dev/full refuses the first byte."""
    root = tmp_path_factory.mktemp("games")
    (root / "a-illegal.txt").write_bytes(ILLEGAL.read_bytes())
    (root / "b-legal.txt").write_bytes(LEGAL.read_bytes())
    return root


def full_stdout_cases(games: Path, url: str) -> Iterator[tuple[str, ...]]:
    yield ("check", str(games))
    yield ("check", "--json", str(games))
    yield ("check", "-q", str(games))
    yield ("export", "--to", "pgn", str(games))
    yield ("export", "--to", "json", str(LEGAL))
    yield ("perft", "startpos", "2")
    yield ("perft", "startpos", "2", "--divide")
    yield ("fen", "--to-gc", "startpos")
    yield ("fetch", "--no-cache", "--delay", "0", url)


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")
def test_a_full_standard_output_is_one_line_and_exit_6(games: Path) -> None:
    expected = f"gcadj: cannot write standard output: {ENOSPC}\n"
    with FixtureServer({play_path("pre"): page(PAGE.read_bytes())}) as site:
        url = site.url(play_path("pre"))
        for args in full_stdout_cases(games, url):
            with FULL.open("w") as full:
                done = run_gcadj(*args, stdout=full.fileno())
            assert done.returncode == EXIT_CANNOT_WRITE, (args, done.stderr)
            assert done.stderr.endswith(expected), args  # after any notes of the command's
            assert done.stderr.count("cannot write") == 1, args
            assert "Traceback" not in done.stderr and "bug" not in done.stderr, args


def file_size_limit(size: int) -> Callable[[], None]:
    """A child whose files may not grow past `size` bytes: a write past it fails (EFBIG),
    as one on a full disk does (ENOSPC), through the same code."""

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return limit


def test_an_output_file_that_cannot_be_written_is_one_line_exit_6_and_nothing_left(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    whole = run_gcadj("export", "--to", "pgn", str(LEGAL))
    assert whole.returncode == 0 and len(whole.stdout) > 100  # more than the limit below
    with FixtureServer({play_path("pre"): page(PAGE.read_bytes())}) as site:
        url = site.url(play_path("pre"))
        for args, target in (
            (("export", "--to", "pgn", str(LEGAL), "-o"), out / "game.pgn"),
            (("fetch", "--no-cache", "--delay", "0", url, "-o"), out / "g.txt"),
        ):
            done = run_gcadj(*args, str(target), preexec=file_size_limit(100))
            command = args[0]
            expected = f"gcadj {command}: cannot write {target}: {EFBIG}\n"
            assert (done.returncode, done.stderr) == (EXIT_CANNOT_WRITE, expected), args
            assert list(out.iterdir()) == []  # neither the file nor a temporary one


def loops(folder: Path) -> list[str]:
    """Links in loops beside the games: a → b → a, and a game-named link to itself."""
    (folder / "a").symlink_to("b")
    (folder / "b").symlink_to("a")
    (folder / "self.txt").symlink_to("self.txt")
    return [str(folder / name) for name in ("a", "b", "self.txt")]


def test_the_walk_reports_what_it_cannot_look_at_and_goes_on(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "g.txt").write_bytes(LEGAL.read_bytes())
    (tmp_path / "z.txt").write_bytes(LEGAL.read_bytes())
    looped = loops(tmp_path)
    problems: list[str] = []
    found = list(walk_folder(str(tmp_path), problems.append))
    assert found == [str(tmp_path / "sub" / "g.txt"), str(tmp_path / "z.txt")]
    assert problems == [f"{path}: cannot read: {ELOOP}" for path in looped]


@pytest.mark.parametrize("command", [("check", "--json"), ("audit", "--jobs", "1")])
def test_a_symlink_loop_costs_only_itself(command: tuple[str, ...], tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_bytes(ILLEGAL.read_bytes())
    alone = run_gcadj(*command, str(good))
    looped = loops(tmp_path)
    done = run_gcadj(*command, str(tmp_path))
    assert done.stdout == alone.stdout and alone.stdout.count("\n") == 1
    assert done.returncode == EXIT_UNREADABLE
    said = [f"gcadj {command[0]}: {path}: cannot read: {ELOOP}" for path in looped]
    assert [line for line in done.stderr.splitlines() if "cannot read" in line] == said
    assert "Traceback" not in done.stderr and "bug" not in done.stderr


def without_read_override() -> None:
    """In a child run as root: give up reading through permissions (see the module
    docstring). Run as anyone else, permissions already hold."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


@pytest.fixture
def unreadable(tmp_path: Path) -> Iterator[Path]:
    """A folder holding a game and a sub-folder that cannot be read (chmod 000) by a
    child started with `without_read_override`; skipped only if that cannot be made."""
    (tmp_path / "a.txt").write_bytes(ILLEGAL.read_bytes())
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "hidden-game.txt").write_bytes(LEGAL.read_bytes())
    locked.chmod(0)
    try:
        probe = subprocess.run(
            [sys.executable, "-c", f"import os; os.listdir({str(locked)!r})"],
            preexec_fn=without_read_override,
            capture_output=True,
            text=True,
            check=False,
        )
        if probe.returncode == 0:
            pytest.skip("a chmod 000 folder stays readable to the child here")
        yield tmp_path
    finally:
        locked.chmod(0o755)


@pytest.mark.parametrize("command", [("check", "--json"), ("audit", "--jobs", "1")])
def test_an_unreadable_sub_folder_is_reported_and_the_rest_judged(
    command: tuple[str, ...], unreadable: Path
) -> None:
    alone = run_gcadj(*command, str(unreadable / "a.txt"))
    done = run_gcadj(*command, str(unreadable), preexec=without_read_override)
    assert done.stdout == alone.stdout and alone.stdout.count("\n") == 1
    assert done.returncode == EXIT_UNREADABLE
    said = f"gcadj {command[0]}: {unreadable / 'locked'}: cannot read this folder: {EACCES}"
    assert [line for line in done.stderr.splitlines() if "cannot read" in line] == [said]
    assert "Traceback" not in done.stderr
