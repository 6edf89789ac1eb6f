"""Shared test helpers: fixture paths resolved from this file, never the working directory,
and the hypothesis profiles that make property tests deterministic in CI.

Profiles: with ``CI=true`` (set by ``.ci/run``) every property test runs derandomized (the
same examples on every run, no example database, no deadline), so a red CI is a real
finding and never a roll of the dice. ``bench/fuzz_long.py`` selects the ``fuzz`` profile
and multiplies every property's budget by ``GCADJ_FUZZ_SCALE`` (see `budget`): random
seeds and many more examples, for developers hunting bugs rather than for CI. Otherwise
the ``dev`` profile: random examples, never a deadline.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

    from gcadj.notation.records import GameLog
    from gcadj.vocabulary import PocketFile

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

settings.register_profile("ci", derandomize=True, deadline=None, database=None)
settings.register_profile("fuzz", derandomize=False, deadline=None, database=None)
# Outside CI the examples are random, but no example is timed either: a deadline fails a
# test on a loaded machine for no fault of the code (no unit test times anything).
settings.register_profile("dev", deadline=None)
if os.environ.get("CI", "").lower() == "true":
    settings.load_profile("ci")
elif os.environ.get("GCADJ_HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["GCADJ_HYPOTHESIS_PROFILE"])
else:
    settings.load_profile("dev")

FUZZ_SCALE = max(1, int(os.environ.get("GCADJ_FUZZ_SCALE", "1") or "1"))


GCADJ = (sys.executable, "-m", "gcadj")
"""The `gcadj` command as a process, with this interpreter (the venv's: the gcadj under test)."""
HANG_GUARD = 600.0
"""Seconds a `gcadj` process may run here: far past any honest run, so reaching it is a hang
(a test's failure, never a measure of speed)."""


def run_gcadj(
    *args: str,
    stdin: str | bytes | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = HANG_GUARD,
    stdout: int | None = subprocess.PIPE,
    preexec: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess[str]:
    """`gcadj ARGS` run as a process, from the repository's root (or `cwd`), to its end:
    its exit code, and its stdout and stderr as UTF-8 text (stdout None when `stdout`
    sends it elsewhere). `stdin` is its input (none: an empty one); `env`, variables
    added to this process's environment; `preexec`, run in the child before it starts
    (limits). Whatever it was given, it must not print a traceback (a bug is one line and
    exit 5). For the tests about the process itself: exit codes as the shell sees them,
    pipes, signals, streams, descriptors, the environment at start, limits, the last line
    of defence (exit 5); each costs a new interpreter (about 0.25 s of CPU to import
    gcadj), so a test about what a command computes and prints uses `invoke_gcadj`."""
    raw = subprocess.run(
        [*GCADJ, *args],
        input=stdin.encode("utf-8") if isinstance(stdin, str) else (stdin or b""),
        stdout=stdout,
        stderr=subprocess.PIPE,
        cwd=cwd or ROOT,
        env={**os.environ, **env} if env is not None else None,
        timeout=timeout,
        preexec_fn=preexec,
        check=False,
    )
    out = raw.stdout.decode("utf-8") if raw.stdout is not None else None
    err = raw.stderr.decode("utf-8")
    assert "Traceback (most recent call last)" not in err, err
    return subprocess.CompletedProcess(raw.args, raw.returncode, out, err)


def invoke_gcadj(
    *args: str,
    stdin: str | bytes | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """`gcadj ARGS` run in this process (typer's `CliRunner` on the real app), from the
    repository's root (or `cwd`; the directory is restored after): its exit code, and its
    stdout and stderr as text, the shape `run_gcadj` returns, so a test moves from one to
    the other by its name. `stdin` is its input (none: an empty one); `env`, variables set
    for the call only. An exception that escapes a command is raised here, failing the
    test with its traceback (a process would say one line and exit 5; a test of that line
    uses `run_gcadj`).

    For a test of what a command computes and prints: no interpreter to start, the same
    click app as the console script (whose name its usage lines say: ``gcadj``, where a
    ``python -m gcadj`` process says ``python -m gcadj``). Not for what only a process
    shows (signals, pipes closed early, descriptors, the streams' guard, limits, the
    environment read at start): those use `run_gcadj`."""
    from typer.testing import CliRunner

    from gcadj.cli.main import app

    before = Path.cwd()  # contextlib.chdir is 3.11's; gcadj supports 3.10
    _forget_shared_fetcher()
    try:
        os.chdir(cwd or ROOT)
        result = CliRunner().invoke(
            app,
            list(args),
            input=stdin,
            env=dict(env) if env is not None else None,
            catch_exceptions=False,
        )
    finally:
        os.chdir(before)
        _forget_shared_fetcher()
    assert "Traceback (most recent call last)" not in result.stderr, result.stderr
    return subprocess.CompletedProcess(
        [*GCADJ, *args], result.exit_code, result.stdout, result.stderr
    )


def _forget_shared_fetcher() -> None:
    """Close and drop the process's shared fetcher (`gcadj.sources.fetch.default_fetcher`):
    the one global a command leaves behind, made with the cache folder and the fetch
    options of the first URL read. A process starts without one; so does each
    `invoke_gcadj`, or a test's XDG_CACHE_HOME or --delay would reach the next test."""
    from gcadj.sources import fetch

    left = fetch._default
    fetch.set_default_fetcher(None)
    if left is not None:
        left.close()


def budget(examples: int) -> int:
    """A property's number of examples: fixed in CI and by default, scaled by fuzz_long."""
    return examples * FUZZ_SCALE


def read_log(path: Path, pocket_file: PocketFile | str = "i") -> GameLog:
    """A log file's bytes decoded as gcadj decodes a source, and parsed: what the parser
    makes of a fixture file (the pipeline's other steps left out)."""
    from gcadj.notation.parse import parse_log
    from gcadj.sources.decode import decode_text
    from gcadj.vocabulary import PocketFile

    text = decode_text(path.read_bytes())
    return parse_log(text, source=str(path), pocket_file=PocketFile(pocket_file))


LONG_FIRST = (ROOT / "tests" / "web",)
"""Folders whose tests each take seconds (a real server, a browser): run first, so that
with the suite spread over the cores (`-n auto`) the short tests fill the end and no core
waits idle on one long test started last (the folders run in name order otherwise)."""


WORKERS_PER_CORE = 2
"""Workers `-n auto` starts per core. A third of the suite's time is spent waiting, not
computing: on a served page, a browser, a child process, a deadline a test sets. With two
workers per core one computes while the other waits, and the cores stay busy."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: `WORKERS_PER_CORE` workers for each core this process may use."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return WORKERS_PER_CORE * (cores or 1)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests first (`LONG_FIRST`); the order is otherwise the collection's."""
    items.sort(key=lambda item: not any(item.path.is_relative_to(f) for f in LONG_FIRST))


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


# -- a real browser: headless Chromium driven by selenium ---------------------------------

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def _browser_binaries() -> tuple[str, str] | None:
    """(browser, chromedriver) found on this machine, or None."""
    import shutil

    driver = shutil.which("chromedriver")
    browser = next((path for name in CHROMIUM_NAMES if (path := shutil.which(name))), None)
    return (browser, driver) if browser and driver else None


def start_browser(profile: Path) -> WebDriver:
    """A new headless Chromium with its own profile folder (cookies, storage, cache): a
    browser that has seen nothing; skips the test when none is installed."""
    found = _browser_binaries()
    if found is None:
        pytest.skip(
            "no browser installed: the browser tests need chromium and chromedriver "
            "(Debian: apt-get install chromium chromium-driver; .ci/run installs them as root)"
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = found[0]
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(found[1]))


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    """One headless Chromium for the session; the tests skip only when none is installed."""
    driver = start_browser(tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield driver
    finally:
        driver.quit()
