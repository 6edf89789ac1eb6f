"""Habits users bring from other command-line tools (issue 20, item 4), through the real app:
games from standard input when no source is named, '-' for a FEN, letters in either case,
contradicting flags and negative numbers refused in words, suggestions only when close,
`-q` as the README says, GC -> PGN -> GC keeping the log's own tags, help that speaks of
what the command does, internal errors in order, the public API, and shell completion.
"""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, GCADJ, ROOT, invoke_gcadj

import gcadj
from gcadj.app.check import FAULT_ENV
from gcadj.cli.main import app
from gcadj.outputs.registry import writers

LEGAL = FIXTURES / "logs" / "legal" / "checkmate.txt"
ILLEGAL = FIXTURES / "logs" / "illegal" / "castling.txt"
RESIGNED = FIXTURES / "examples" / "ex4_resignation.txt"
SCRIPT = Path(sys.executable).with_name("gcadj")  # the console script of this venv


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """`invoke_gcadj` as (exit code, stdout, stderr), the shape these tests compare."""
    done = invoke_gcadj(*args, stdin=stdin)
    return done.returncode, done.stdout, done.stderr


def one_line(text: str) -> str:
    return " ".join(text.split())


# -- standard input -------------------------------------------------------------------


def test_check_reads_stdin_when_no_source_is_named() -> None:
    piped = invoke("check", stdin=LEGAL.read_text())
    named = invoke("check", "-", stdin=LEGAL.read_text())
    assert piped == named
    assert piped[0] == 0 and piped[1].startswith("<stdin>: legal, 4 plies")


def test_export_reads_stdin_when_no_source_is_named() -> None:
    piped = invoke("export", "--to", "gc", stdin=RESIGNED.read_text())
    assert piped == invoke("export", str(RESIGNED), "--to", "gc")
    assert piped[0] == 0 and "[Status " in piped[1]


def test_the_console_script_reads_a_pipe_too() -> None:
    done = subprocess.run(
        [*GCADJ, "check", "--json"],
        input=ILLEGAL.read_bytes(),
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 1 and b'"source": "<stdin>", "status": "illegal"' in done.stdout


def test_no_source_and_stdin_a_terminal_is_a_usage_error_not_a_wait() -> None:
    main, terminal = pty.openpty()
    try:
        done = subprocess.run(
            [*GCADJ, "check"],
            stdin=terminal,
            capture_output=True,
            cwd=ROOT,
            timeout=120,
        )
    finally:
        os.close(terminal)
        os.close(main)
    assert done.returncode == 2 and done.stdout == b""
    assert b"gcadj check: name at least one source, or pipe a game" in done.stderr


def test_audit_does_not_take_stdin() -> None:
    code, _, stderr = invoke("audit", stdin=LEGAL.read_text())
    assert code == 2 and "name at least one source or --index URL" in stderr


# -- '-' for a FEN or a text -----------------------------------------------------------


def test_dash_reads_a_fen_or_a_code_from_stdin() -> None:
    code_of_start = invoke("fen", "--to-gc", "startpos")[1]
    assert invoke("fen", "--to-gc", "-", stdin="startpos\n") == (0, code_of_start, "")
    fen = invoke("fen", "--from-gc", code_of_start.strip())[1]
    assert invoke("fen", "--from-gc", "-", stdin=f"\n  {code_of_start}") == (0, fen, "")
    assert invoke("perft", "-", "2", stdin="startpos\n") == invoke("perft", "startpos", "2")
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1"
    with_fen = invoke("check", "--fen", "-", str(LEGAL), stdin=start + "\n")
    assert with_fen == invoke("check", "--fen", start, str(LEGAL))


def test_stdin_asked_for_twice_is_refused_in_words() -> None:
    for args in (["check", "--fen", "-"], ["check", "--fen", "-", "-"]):
        code, stdout, stderr = invoke(*args, stdin=LEGAL.read_text())
        assert (code, stdout) == (2, "")
        assert "standard input can be read once: --fen and SOURCES... both ask for it" in stderr


def test_dash_on_an_empty_stdin_says_so() -> None:
    code, _, stderr = invoke("fen", "--to-gc", "-", stdin="\n \n")
    assert code == 2 and "gcadj fen: --to-gc -: standard input holds no line" in stderr


# -- letters in either case ----------------------------------------------------------


def test_letters_in_options_are_read_in_either_case() -> None:
    assert invoke("check", str(LEGAL), "--pocket-file", "P") == invoke(
        "check", str(LEGAL), "--pocket-file", "p"
    )
    assert invoke("export", str(RESIGNED), "--to", "PGN") == invoke(
        "export", str(RESIGNED), "--to", "pgn"
    )
    upper = invoke("export", str(RESIGNED), "--to", "Gc", "--to-pocket-file", "P")
    assert upper == invoke("export", str(RESIGNED), "--to", "gc", "--to-pocket-file", "p")
    assert '[PocketFile "p"]' in upper[1]
    code = invoke("fen", "--to-gc", "startpos")[1].strip()
    assert invoke("fen", "--from-gc", code, "--turn", "B") == invoke(
        "fen", "--from-gc", code, "--turn", "b"
    )


# -- contradictions and negative numbers, in words -----------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["check", "-q", "-v", str(LEGAL)], "gcadj check: -q/--quiet and -v/--verbose"),
        (["export", "-v", "-q", str(LEGAL), "--to", "gc"], "gcadj export: -q/--quiet and -v"),
        (["audit", "--quiet", "--verbose", str(LEGAL)], "gcadj audit: -q/--quiet and -v"),
        (["fetch", "http://127.0.0.1:9/x", "--cache", "d", "--no-cache"], "--cache and --no-cache"),
        (["audit", str(LEGAL), "--no-cache", "--cache", "d"], "gcadj audit: --cache and"),
    ],
)
def test_contradicting_flags_are_refused_in_words(args: list[str], words: str) -> None:
    code, stdout, stderr = invoke(*args)
    assert (code, stdout) == (2, "")
    assert words in stderr and "contradict each other; give one of them" in stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["perft", "startpos", "-1"], "DEPTH needs a whole number ≥ 0, not '-1'"),
        (["perft", "startpos", "-1", "--divide"], "DEPTH needs a whole number ≥ 0, not '-1'"),
        (["perft", "startpos", "-0.5"], "DEPTH needs a whole number ≥ 0, not '-0.5'"),
        (["export", str(LEGAL), "--to", "fen", "--ply", "-1"], "--ply needs a whole number ≥ 0"),
        (["audit", str(LEGAL), "--jobs", "-2"], "--jobs needs a whole number ≥ 1, not '-2'"),
        (["fetch", "http://127.0.0.1:9/", "--delay", "-1"], "--delay needs a number ≥ 0"),
    ],
)
def test_negative_numbers_are_refused_in_words(args: list[str], words: str) -> None:
    code, stdout, stderr = invoke(*args)
    assert (code, stdout) == (2, "")
    assert words in stderr and "No such option" not in stderr


# -- unknown options -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "offered"),
    [
        (["check", "--bogus"], None),
        (["check", "--x"], None),
        (["check", "--verbos"], "--verbose"),
        (["check", "--pocket_file", "p"], "--pocket-file"),
        (["export", "--out", "f", "--to", "gc"], "--output"),
        (["audit", "--resum"], "--resume"),
    ],
)
def test_an_unknown_option_gets_a_suggestion_only_when_one_is_close(
    args: list[str], offered: str | None
) -> None:
    code, _, stderr = invoke(*args)
    assert code == 2 and f"No such option: {args[1]}" in stderr
    if offered is None:
        assert "Possible options" not in stderr and "Did you mean" not in stderr
    else:
        assert f"(Possible options: {offered})" in stderr


@pytest.mark.parametrize(
    ("args", "owner"),
    [
        (["check", "--to", "pgn", "g.txt"], "export"),
        (["check", "--ply", "3", "g.txt"], "export"),
        (["export", "--resume", "g.txt"], "audit"),
    ],
)
def test_an_option_of_another_command_is_said_to_be_its(args: list[str], owner: str) -> None:
    code, _, stderr = invoke(*args)
    option = args[1]
    assert code == 2
    assert f"No such option: {option}; {option} is an option of gcadj {owner}" in stderr


def test_every_output_file_is_o_or_output_and_audit_keeps_out(tmp_path: Path) -> None:
    """One name per option: every command that writes a file it is given names it
    -o/--output; audit's former --out still works."""
    for command in app.registered_commands:
        name = command.name or (command.callback.__name__ if command.callback else "")
        code, out, _ = invoke(name, "--help")
        assert code == 0
        if "-o," in out:
            assert "-o, --output" in out, name
    logs = FIXTURES / "logs" / "legal"
    for spelling in ("--output", "-o", "--out"):
        jsonl = tmp_path / f"audit{spelling}.jsonl"
        code, _, stderr = invoke("audit", "-q", str(logs), spelling, str(jsonl))
        assert code == 0, stderr
        assert len(jsonl.read_text(encoding="utf-8").splitlines()) == len(list(logs.glob("*")))


def test_game_zero_of_a_database_says_games_count_from_one(tmp_path: Path) -> None:
    database = FIXTURES / "pgn" / "no_tags.pgn"
    code, _, stderr = invoke("check", f"{database}#0")
    assert code == 4
    assert f"{database}#0: games are counted from 1 ({database}#1 is the first)" in stderr


# -- -q means what the README says ---------------------------------------------------


def test_export_quiet_drops_every_note(tmp_path: Path) -> None:
    partial = tmp_path / "partial.txt"
    partial.write_text("P e2-e4\np e7-e5\nP e4 e5 e6\n")
    loud = invoke("export", str(partial), "--to", "gc")
    quiet = invoke("export", str(partial), "--to", "gc", "-q")
    assert loud[0] == quiet[0] == 3 and loud[1] == quiet[1]  # 3: as check exits for it
    assert "ply 3 could not be read" in loud[2]
    assert quiet[2] == ""
    illegal = invoke("export", str(ILLEGAL), "--to", "gc", "-q")
    assert illegal[0] == 0 and illegal[2] == ""


# -- GC -> PGN -> GC ---------------------------------------------------------------


def tag_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("[")]


TAGGED = (
    '[White "Ann"]\n[Black "Ben"]\n[PocketFile "p"]\n[Opening "none"]\n'
    '[FEN "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1"]\nK b6-c6\n'
)


@pytest.mark.parametrize(
    "text",
    [*(path.read_text() for path in sorted((FIXTURES / "examples").glob("*.txt"))), TAGGED],
)
def test_gc_to_pgn_to_gc_gives_back_the_logs_own_tags(text: str, tmp_path: Path) -> None:
    log = tmp_path / "game.txt"
    log.write_text(text)
    pgn = invoke("export", str(log), "--to", "pgn")[1]
    assert '[Event "?"]' in pgn  # the roster, as PGN wants it
    back = invoke("export", "--to", "gc", stdin=pgn)
    original = invoke("export", str(log), "--to", "gc")
    assert back[0] == original[0] == 0
    # the same tags (PGN puts FEN and PocketFile where its order says)
    assert sorted(tag_lines(back[1])) == sorted(tag_lines(original[1]))
    assert '"?"' not in back[1]


def test_a_pgn_roster_tag_that_says_something_is_kept() -> None:
    pgn = (
        '[Event "Club"]\n[Site "?"]\n[Date "2009.??.??"]\n[Round "?"]\n[White "?"]\n'
        '[Black "Bob"]\n[Result "*"]\n[Variant "Pocket Mutation Chess"]\n\n1. e4 *\n'
    )
    code, gc, _ = invoke("export", "--to", "gc", stdin=pgn)
    assert code == 0
    assert tag_lines(gc) == ['[Event "Club"]', '[Date "2009.??.??"]', '[Black "Bob"]']


# -- help, internal errors, the API, completion --------------------------------------


def test_fen_help_speaks_only_of_what_fen_does() -> None:
    text = one_line(invoke("fen", "--help")[1])
    assert "PocketFile" not in text and " tag" not in text and "log" not in text
    assert "how messages name the pocket cells" in text


def test_internal_error_lines_come_error_first_then_the_hint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(FAULT_ENV, "checkmate")
    for args in (["check", str(LEGAL)], ["check", "-q", str(LEGAL)]):
        code, _, stderr = invoke(*args)
        lines = stderr.splitlines()
        assert code == 5 and len(lines) == 2, stderr
        assert "internal error: InjectedFault" in lines[0]
        assert "this is a bug in gcadj" in lines[1]
    code, _, stderr = invoke("export", str(LEGAL), "--to", "gc")
    lines = stderr.splitlines()
    assert code == 5 and "internal error" in lines[0] and "this is a bug" in lines[-1]


def test_dir_and_all_show_the_public_api() -> None:
    assert dir(gcadj) == sorted(gcadj.__all__)
    assert "check_text" in dir(gcadj)
    assert not {"Any", "TYPE_CHECKING", "annotations"} & set(dir(gcadj))
    for name in gcadj.__all__:
        assert getattr(gcadj, name) is not None


def test_completion_is_offered_and_works() -> None:
    assert SCRIPT.exists()
    help_text = invoke("--help")[1]
    assert "--install-completion" in help_text and "--show-completion" in help_text
    shown = subprocess.run(
        [str(SCRIPT), "--show-completion", "bash"], capture_output=True, text=True, timeout=120
    )
    assert shown.returncode == 0 and "_GCADJ_COMPLETE=complete_bash" in shown.stdout

    def complete(words: str, stdin: int | None = None) -> list[str]:
        env = {
            **os.environ,
            "COMP_WORDS": words,
            "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1)),
            "_GCADJ_COMPLETE": "complete_bash",
        }
        done = subprocess.run(
            [str(SCRIPT)], env=env, stdin=stdin, capture_output=True, text=True, timeout=60
        )
        return done.stdout.split()

    assert complete("gcadj ch") == ["check"]
    assert complete("gcadj check --js") == ["--json"]
    assert complete("gcadj export --to ") == list(writers())  # every format, in its order
    read_end, write_end = os.pipe()  # a stdin that never ends: completion must not read it
    try:
        assert "--json" in complete("gcadj check --fen - --j", stdin=read_end)
    finally:
        os.close(read_end)
        os.close(write_end)
