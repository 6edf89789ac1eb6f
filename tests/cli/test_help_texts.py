"""Help texts are made from the facts they state, so they cannot drift from them: every
command's "Exit codes" paragraph from `gcadj.app.exit_codes` (the codes a command really
exits with are checked against it below), the file kinds a folder walk reads from
`gcadj.sources.walk`, the presets from `gcadj.vocabulary`, the formats from the registry
(tests/outputs/test_registry.py). The manual's table of exit codes lists the same codes.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
import typer
from conftest import FIXTURES, ROOT, invoke_gcadj

from gcadj.app.exit_codes import (
    EXIT_CANNOT_WRITE,
    EXIT_INTERRUPTED,
    EXIT_READER_GONE,
    EXIT_USAGE,
    JUDGING_CODES,
    MEANINGS,
)
from gcadj.cli.main import app
from gcadj.sources.walk import SOURCE_SUFFIXES
from gcadj.vocabulary import PRESETS

COMMANDS = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
LEGAL = FIXTURES / "examples" / "ex1_pocket_mutation_drops.txt"


def help_of(command: str) -> str:
    done = invoke_gcadj(command, "--help")
    assert done.returncode == 0, done.stderr
    return " ".join(done.stdout.split())


def exit_codes_in(command: str) -> dict[int, str]:
    """The codes a command's help names in its "Exit codes" paragraph, with their words."""
    paragraph = help_of(command).split("Exit codes: ", 1)[1].split(". When several", 1)[0]
    paragraph = paragraph.rstrip(".")
    found = {}
    for part in re.split(r"; (?=\d+ )", paragraph):
        code, words = part.split(" ", 1)
        found[int(code)] = words
    return found


def test_there_are_commands() -> None:
    assert {"check", "export", "audit", "fetch", "fen", "serve", "perft", "adjudicate"} <= set(
        COMMANDS
    )


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_says_its_exit_codes(command: str) -> None:
    codes = exit_codes_in(command)
    assert 0 in codes and EXIT_USAGE in codes
    assert codes[EXIT_USAGE].startswith(MEANINGS[EXIT_USAGE][:-1])  # one wording of usage
    for code in codes:
        assert code in MEANINGS  # nothing but the table's codes
    if command != "serve":  # every command that writes an output says what 6 and 141 are
        assert codes[EXIT_CANNOT_WRITE].startswith(MEANINGS[EXIT_CANNOT_WRITE][:-1])
        assert codes[EXIT_READER_GONE] == MEANINGS[EXIT_READER_GONE]


@pytest.mark.parametrize("command", ["check", "adjudicate", "audit"])
def test_the_judging_commands_give_the_whole_policy(command: str) -> None:
    codes = exit_codes_in(command)
    assert set(JUDGING_CODES) <= set(codes)
    if command == "check":
        assert codes == {code: MEANINGS[code] for code in JUDGING_CODES}
    else:  # both can be stopped with Ctrl-C, and say so
        assert EXIT_INTERRUPTED in codes


def test_the_codes_are_what_the_commands_exit_with(tmp_path: Path) -> None:
    """A few codes of the table, met for real: the help says what happens."""
    assert invoke_gcadj("check", str(LEGAL)).returncode == 0
    illegal = tmp_path / "illegal.txt"
    illegal.write_text("P e2-e5\n", encoding="utf-8")
    assert invoke_gcadj("check", str(illegal)).returncode == 1
    assert invoke_gcadj("check", "--pocket-file", "q1", str(LEGAL)).returncode == 2
    unparsable = tmp_path / "bad.txt"
    unparsable.write_text("P e2-e9\n", encoding="utf-8")
    assert invoke_gcadj("check", str(unparsable)).returncode == 3
    assert invoke_gcadj("check", str(tmp_path / "missing.txt")).returncode == 4
    assert invoke_gcadj("perft", "not a fen", "1").returncode == EXIT_USAGE
    assert invoke_gcadj("fen", "--to-gc", "startpos").returncode == 0


def test_the_manual_lists_the_codes_of_check() -> None:
    page = (ROOT / "docs" / "check.md").read_text(encoding="utf-8")
    table = page.split("## Exit codes", 1)[1].split("\n\n", 2)[1]
    listed = {int(row.split("|")[1]) for row in table.splitlines() if re.match(r"\| \d", row)}
    assert listed == set(JUDGING_CODES)


@pytest.mark.parametrize("command", ["check", "audit"])
def test_the_walked_file_kinds_come_from_the_walk(command: str) -> None:
    assert " ".join(SOURCE_SUFFIXES) in help_of(command)


def test_the_presets_come_from_the_vocabulary() -> None:
    text = help_of("check")
    for preset in PRESETS:
        assert f"{preset.pocket_file} on {preset.name} ({preset.pockets()})" in text


def test_serve_defaults_are_the_settings_defaults() -> None:
    """`gcadj serve` given no option makes the settings a server made in Python has by
    default (`ServeSettings()`): both read `gcadj.web.defaults`, and its help shows them."""
    from gcadj.cli.serve import serve_run_of
    from gcadj.web.limits import ServeSettings

    command = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    context = command.make_context("serve", [])
    default = ServeSettings()
    made = serve_run_of(**context.params).settings
    # --jobs left out is one worker per core, worked out for the command at once
    assert dataclasses.replace(made, workers=default.workers) == default
    shown = help_of("serve")
    assert f"[default: {default.max_body / 1e6}]" in shown  # --max-upload, in MB
    assert f"[default: {default.keep_days}]" in shown


FETCHING = ("adjudicate", "analyse", "analyze", "audit", "check", "export", "fetch")


def fetch_block(command: str) -> str:
    """The lines of `command --help` from ``--cache`` to the end of ``--max-size``'s."""
    done = invoke_gcadj(command, "--help", env={"COLUMNS": "100"})
    lines = done.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("--cache"))
    end = next(i for i, line in enumerate(lines) if line.lstrip().startswith("--max-size"))
    while end + 1 < len(lines) and lines[end + 1].startswith(" " * 20):  # its wrapped help
        end += 1
    return "\n".join(lines[start : end + 1])


def test_the_fetch_options_are_declared_once_and_shown_alike_by_every_command() -> None:
    """`FETCH_OPTIONS` declares them; each command that reads URLs shows them in one block,
    in that order, with the same words (its --help as before they were shared)."""
    from gcadj.cli.common_options import FETCH_OPTIONS

    blocks = {command: fetch_block(command) for command in FETCHING}
    words = {command: " ".join(block.split()) for command, block in blocks.items()}
    assert len(set(words.values())) == 1, words  # each aligned to its own longest option
    shown = re.findall(r"^\s+(--[\w-]+)", blocks["check"], re.M)
    assert shown == ["--cache", "--no-cache", "--delay", "--timeout", "--retries", "--max-size"]
    assert len(shown) == len(FETCH_OPTIONS)
    for command in sorted(set(COMMANDS) - set(FETCHING)):
        assert "--max-size" not in help_of(command), command
