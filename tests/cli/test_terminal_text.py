"""Terminal-safe text (issue 20, item 2): what a log, a page or a file name holds never drives
the terminal. `gcadj.terminal.visible` is the one rule; every human line goes through
`say`; JSON escapes what a terminal would obey; and data printed on a real terminal (a
pseudo-terminal here) is shown the same way, while the same data into a pipe or a file
keeps its bytes. The property over random control characters and every command is in
tests/crosslayer/test_terminal_safety.py.
"""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import tty
from pathlib import Path

import pytest
from conftest import FIXTURES, GCADJ, ROOT
from httpserver import FixtureServer, page, play_path

from gcadj.engine.position import Position
from gcadj.errors import FenError
from gcadj.judging.json_text import json_text
from gcadj.notation.parse import LogSyntaxError, parse_log
from gcadj.terminal import visible

# What must never reach a terminal raw: C0 but newline and tab, DEL, C1, bidi controls.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
EVIL = "\x1b]0;pwned\x07\x1b]52;c;Y2xpcA==\x07\x1b[2J\x9b31m\u202eevil\u2066\x7f\x00"


def test_visible_shows_every_terminal_control_and_nothing_else() -> None:
    for code in range(0x3000):
        char = chr(code)
        shown = visible(char)
        if RAW.fullmatch(char):
            assert shown != char and not RAW.search(shown), hex(code)
        else:
            assert shown == char, hex(code)  # newline, tab, letters, accents, CJK: untouched


def test_visible_words_the_controls_recognisably() -> None:
    assert visible("a\x1b]0;t\x07b") == "a␛]0;t␇b"
    assert visible("\r\x00\x7f") == "␍␀␡"
    assert visible("x\x9by\u202ez\u2069") == "x\\x9by\\u202ez\\u2069"
    assert visible("line one\n\tline two") == "line one\n\tline two"  # layout kept


def test_visible_is_idempotent_and_keeps_c0_in_one_column() -> None:
    text = f"P e2-e4 {EVIL} // note"
    once = visible(text)
    assert visible(once) == once
    c0_only = "ab\x1bc\x07d\x01e"
    assert len(visible(c0_only)) == len(c0_only)  # a caret under the line still lines up


def test_a_syntax_error_excerpt_shown_safe_keeps_its_caret_in_place() -> None:
    with pytest.raises(LogSyntaxError) as caught:
        parse_log("P e2-e4\np \x1b[31m\x07x9\n", "g.txt")
    lines = visible(str(caught.value)).splitlines()
    excerpt, caret = lines[1], lines[2]
    assert not RAW.search("\n".join(lines))
    column = caught.value.column
    assert len(caret) - 4 == column and excerpt[4 + column - 1] == "␛"  # caret under ESC


def test_the_caret_stays_under_its_column_after_c1_and_bidi_controls_too() -> None:
    with pytest.raises(LogSyntaxError) as caught:
        parse_log('[White "a\x9b\u202e\x1b\tb" x]\nP e2-e4\n', "g.txt")
    _, excerpt, caret = visible(str(caught.value)).splitlines()[:3]
    at = len(caret) - 1  # the caret's index, a tab counted as one, as in the excerpt
    assert caret[:-1].strip(" \t") == "" and caret.count("\t") == 1
    assert excerpt[at:].startswith("x]"), (excerpt, caret)


def test_a_fen_error_caret_points_at_the_control_as_printed() -> None:
    with pytest.raises(FenError) as caught:
        Position("rnbqkbnr/\x9bpppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1")
    _, fen, caret = visible(str(caught.value)).splitlines()[:3]
    assert fen[len(caret) - 1 :].startswith("\\x9bpppp"), (fen, caret)


def test_json_escapes_what_a_terminal_would_obey_and_keeps_the_value() -> None:
    value = {"tag": EVIL, "note": "é\u2028x\x85"}
    text = json_text(value)
    assert not RAW.search(text) and "\u2028" not in text
    assert json.loads(text) == value


# -- on a real terminal ----------------------------------------------------------------


def on_terminal(*args: str, cwd: Path = ROOT) -> tuple[int, str]:
    """Run gcadj with stdout and stderr on a pseudo-terminal in raw mode (no newline
    translation); its exit code and everything the terminal received."""
    main, terminal = pty.openpty()
    tty.setraw(terminal)
    process = subprocess.Popen(
        [*GCADJ, *args], stdout=terminal, stderr=terminal,
        stdin=subprocess.DEVNULL, cwd=cwd,
    )  # fmt: skip
    os.close(terminal)
    received = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # EIO: the last writer closed the terminal
            break
        if not chunk:
            break
        received += chunk
    os.close(main)
    return process.wait(timeout=120), received.decode("utf-8")


@pytest.fixture
def evil_log(tmp_path: Path) -> Path:
    path = tmp_path / f"g{EVIL.replace(chr(0), '')}.txt"
    path.write_text(
        f'[White "Alice{EVIL}"]\n[Event "{EVIL}"]\n'
        f"P f2-f3 // {EVIL}\np e7-e5\nP g2-g4 // {EVIL}\nq d8-h4\n",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("to", ["gc", "pgn", "html", "json"])
def test_an_export_printed_on_a_terminal_is_shown_safe(evil_log: Path, to: str) -> None:
    code, received = on_terminal("export", str(evil_log), "--to", to)
    assert code == 0 and "f3" in received
    assert not RAW.search(received), sorted(set(RAW.findall(received)))
    assert "␛]0;pwned␇" in received or "\\u001b]0;pwned\\u0007" in received  # shown, not lost


@pytest.mark.parametrize("to", ["gc", "pgn", "html"])
def test_the_same_export_into_a_pipe_keeps_its_bytes(evil_log: Path, to: str) -> None:
    """A data format keeps its own escaping: the tag a log holds is the tag it writes."""
    done = subprocess.run(
        [*GCADJ, "export", str(evil_log), "--to", to],
        capture_output=True, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == b""
    assert "\x1b]0;pwned\x07" in done.stdout.decode("utf-8")


def test_check_on_a_terminal_shows_the_log_safe(evil_log: Path) -> None:
    code, received = on_terminal("check", "-v", str(evil_log))
    assert code == 0 and "legal, 4 plies" in received
    assert not RAW.search(received)


def test_a_fetched_page_printed_on_a_terminal_is_shown_safe() -> None:
    html = (FIXTURES / "pages" / "pmc_pre.html").read_text(encoding="utf-8")
    html = html.replace(">alice</a>", f">alice&#27;]0;pwned&#7;{EVIL}</a>", 1)
    html = html.replace("has resigned.", f"has resigned.{EVIL}", 1)
    html = html.replace("to a Nightrider", f"to a Nightrider {EVIL}", 1)
    url = play_path("evil")
    with FixtureServer({url: page(html)}) as server:
        options = ("--no-cache", "--delay", "0")
        code, received = on_terminal("fetch", server.url(url), *options)
        piped = subprocess.run(
            [*GCADJ, "fetch", server.url(url), *options],
            capture_output=True, cwd=ROOT, timeout=120,
        )  # fmt: skip
    assert "\x1b]0;pwned\x07" in piped.stdout.decode("utf-8")  # the log keeps the page's text
    assert code == 0 and "␛]0;pwned␇" in received, received
    assert not RAW.search(received), sorted(set(RAW.findall(received)))
