"""Hatchling build hook: compile gcadj's hot modules with mypyc when this machine can.

`pip install .` (and `python -m build`) builds a wheel through this hook. When a C
compiler and the Python headers are present it compiles `COMPILED_MODULES` with mypyc
(the code is clean under ``mypy --strict``, which is what mypyc needs) and puts the
extension modules in the wheel next to the Python sources, which the import system then
ignores. Otherwise the wheel is pure Python, which behaves the same, more slowly, and the
build says so in one line. Either way `gcadj --version` says which build is running.

* ``GCADJ_PURE=1`` forces the pure-Python build;
* ``GCADJ_PURE=0`` demands the compiled one: the build fails, naming why, if it cannot
  compile (CI uses it so that a broken compile cannot pass as a pure build);
* an editable install (``pip install -e``) is always pure, so edits take effect.

The compilation runs in a temporary copy of the package, in a child process: nothing is
written into the source tree (a stray extension module there would shadow the edited
sources of an editable install), and setuptools, which runs the C compiler, never reads
this project's pyproject.toml.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# The versions the compiled build was tested with (CI compares its verdicts with the pure
# build's). mypy ships mypyc; setuptools drives the C compiler.
BUILD_REQUIREMENTS = ["mypy==2.4.1", "setuptools>=70"]

# The modules worth compiling (measured with bench/bench_check.py, bench/bench_long.py,
# bench/bench_adjudicate.py and bench/bench_analyse.py): the rules engine, the log reader,
# the judge, the mate prover and the count of the exchanges. Everything else (Lark, I/O,
# the CLI, the outputs, the syntax errors' wording) runs as Python, where compiling would
# buy little and cost build time (the C compiler takes most of the install's time).
COMPILED_MODULES = [
    "gcadj/engine/squares.py",
    "gcadj/engine/pieces.py",
    "gcadj/engine/move.py",
    "gcadj/engine/fen.py",
    "gcadj/engine/position.py",
    "gcadj/notation/records.py",
    "gcadj/notation/language.py",
    "gcadj/notation/parse.py",
    "gcadj/judging/judge.py",
    "gcadj/judging/verdict.py",
    "gcadj/analysis/table.py",
    "gcadj/analysis/search.py",
    "gcadj/analysis/exchanges.py",
]

# Written into the wheel beside about.py: why a build is pure, for `gcadj --version`.
BUILD_NOTE = "gcadj/build-note.txt"

_COMPILE_SCRIPT = """
import os
import sys
from concurrent.futures import ThreadPoolExecutor

from mypyc.build import mypycify
from setuptools import Distribution
from setuptools.command.build_ext import build_ext

jobs, modules = int(sys.argv[1]), sys.argv[2:]


class ParallelBuildExt(build_ext):
    # One C file per module (multi_file), compiled `jobs` at a time: the shared library's
    # sources would otherwise go through the compiler one after the other.
    def build_extension(self, ext):
        compile_one = self.compiler.compile

        def compile_all(sources, *args, **kwargs):
            with ThreadPoolExecutor(jobs) as pool:
                parts = pool.map(lambda source: compile_one([source], *args, **kwargs), sources)
                return [obj for part in parts for obj in part]

        self.compiler.compile = compile_all
        try:
            super().build_extension(ext)
        finally:
            self.compiler.compile = compile_one


extensions = mypycify(
    ["--ignore-missing-imports", *modules], opt_level="3", multi_file=True, group_name="gcadj._core"
)
for extension in extensions:  # the group's header sits in build/gcadj/, beside its name
    extension.include_dirs.append(os.path.join("build", "gcadj"))
dist = Distribution({"name": "gcadj", "ext_modules": extensions})
dist.cmdclass["build_ext"] = ParallelBuildExt
build = dist.get_command_obj("build_ext")
build.build_lib = "out"
build.build_temp = "tmp"
dist.run_command("build_ext")
"""


class CompileFailed(Exception):
    """The compiled build could not be made; the message says why in a few words."""


def pure_reason() -> str | None:
    """Why this build must be pure Python, or None when compiling can be tried."""
    if os.environ.get("GCADJ_PURE") == "1":
        return "GCADJ_PURE=1"
    if sys.implementation.name != "cpython":
        return f"mypyc needs CPython, not {sys.implementation.name}"
    if sys.platform != "win32":  # MSVC is found by setuptools itself; elsewhere look first
        # The compiler setuptools will run: $CC if set, else the one Python was built with.
        compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
        if shutil.which(compiler) is None:
            return f"no C compiler ({compiler} not found)"
    include = sysconfig.get_paths().get("include", "")
    if not (Path(include) / "Python.h").is_file():
        return f"no Python headers (Python.h not in {include})"
    return None


def compile_core(root: Path, workdir: Path) -> dict[str, str]:
    """Compile `COMPILED_MODULES` in a copy of the package under `workdir`.

    Returns {path of a built extension module: its path inside the wheel}. Raises
    `CompileFailed` with the compiler's last words when anything goes wrong.
    """
    shutil.copytree(
        root / "gcadj", workdir / "gcadj", ignore=shutil.ignore_patterns("__pycache__", "*.so")
    )
    jobs = max(1, min(4, os.cpu_count() or 1))
    try:
        done = subprocess.run(
            [sys.executable, "-c", _COMPILE_SCRIPT, str(jobs), *COMPILED_MODULES],
            cwd=workdir,
            capture_output=True,
            text=True,
        )
    except OSError as err:
        raise CompileFailed(f"could not run mypyc: {err}") from None
    if done.returncode != 0:
        lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        last = lines[-1].strip() if lines else f"exit code {done.returncode}"
        raise CompileFailed(f"mypyc failed: {last}")
    out = workdir / "out"
    suffixes = (".so", ".pyd")
    built = {
        str(path): path.relative_to(out).as_posix()
        for path in out.rglob("*")
        if path.name.endswith(suffixes)
    }
    expected = len(COMPILED_MODULES) + 1  # one module each, and the shared library
    if len(built) != expected:
        raise CompileFailed(f"mypyc built {len(built)} extension modules, expected {expected}")
    return built


class CompiledCoreHook(BuildHookInterface):  # type: ignore[type-arg]
    """Adds the compiled core to a wheel, or notes why the wheel is pure Python."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        # Called before the build (also for an editable one, which then does not use
        # them): mypy only when a compile will be tried.
        return [] if pure_reason() is not None else list(BUILD_REQUIREMENTS)

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        self._workdir = Path(tempfile.mkdtemp(prefix="gcadj-build-"))
        reason = pure_reason()
        if reason is None:
            started = time.perf_counter()
            try:
                built = compile_core(Path(self.root), self._workdir / "compile")
            except CompileFailed as err:
                reason = str(err)
            else:
                seconds = time.perf_counter() - started
                build_data["pure_python"] = False
                build_data["infer_tag"] = True
                build_data["force_include"].update(built)
                _say(
                    f"gcadj: compiled core built with mypyc ({len(COMPILED_MODULES)} modules, "
                    f"{seconds:.0f} s)"
                )
                return
        if os.environ.get("GCADJ_PURE") == "0":
            raise RuntimeError(f"GCADJ_PURE=0 asks for the compiled core, but: {reason}")
        note = self._workdir / "build-note.txt"
        note.write_text(f"pure Python: {reason}\n", encoding="utf-8")
        build_data["force_include"][str(note)] = BUILD_NOTE
        _say(f"gcadj: installing pure Python ({reason}); same results, slower")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        workdir = getattr(self, "_workdir", None)
        if workdir is not None:
            shutil.rmtree(workdir, ignore_errors=True)


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
