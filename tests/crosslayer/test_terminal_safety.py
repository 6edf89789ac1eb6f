"""No control character from the input reaches a terminal, in any command (issue 20, item 2).

A property: random text salted with terminal controls (C0 but newline and tab, DEL, C1,
the bidi embeddings, overrides and isolates) goes into every place a log, a page or a
file name can carry it (tag values, comments, a ply that cannot be read, an illegal ply's
comment, the file's name, a FEN or a position code, a page's player names and status)
and through every command, run in process on the real app (`invoke_gcadj`). Nothing of it may
come out raw, on stderr (always words for a person) or on stdout, except as the data of a
format that keeps its own escaping (PGN, Game Courier text, HTML): that is data, written
as the log holds it, and tests/cli/test_terminal_text.py shows that on a real terminal
even those are shown safe.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import typer
from conftest import FIXTURES, budget, invoke_gcadj
from httpserver import FixtureServer, page, play_path
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gcadj.cli.main import app
from gcadj.outputs.registry import writers

RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
CONTROLS = [
    *(chr(c) for c in range(0x20) if chr(c) not in "\n\t\r"),  # \r ends a line of a log
    "\x7f",
    *(chr(c) for c in range(0x80, 0xA0)),
    *(chr(c) for c in range(0x202A, 0x202F)),
    *(chr(c) for c in range(0x2066, 0x206A)),
]
# Terminal sequences an attacker would write, and loose controls between plain letters.
SEQUENCES = ["\x1b]0;pwned\x07", "\x1b]52;c;aGk=\x07", "\x1b[2J", "\x9b31m", "\u202e"]
DIRTY = st.lists(
    st.one_of(
        st.sampled_from(CONTROLS),
        st.sampled_from(SEQUENCES),
        st.text(alphabet="abc xyz-.", min_size=1, max_size=4),
    ),
    min_size=1,
    max_size=8,
).map("".join)

# Every control and every sequence in one string: one run of the commands sees them all, so
# the random examples need only mix them in other orders and places.
EVERY_CONTROL = "x".join([*CONTROLS, *SEQUENCES])

# Formats whose stdout is data with its own escaping (see the module's docstring); every
# other format, a new one too, must show nothing raw.
DATA_ON_STDOUT = {"pgn", "gc", "html"}


def write_games(folder: Path, dirty: str) -> Path:
    """A folder of games carrying `dirty` everywhere a log can; the legal game's path."""
    in_name = dirty.replace("/", "").replace("\x00", "")
    legal = folder / f"legal {in_name}.txt"
    legal.write_text(
        f'[White "A{dirty}"]\n[Black "{dirty}"]\n[Event "{dirty}"]\n'
        f"P f2-f3 // {dirty}\np e7-e5 // {dirty}\nP g2-g4\nq d8-h4\n",
        encoding="utf-8",
    )
    (folder / f"syntax {in_name}.txt").write_text(
        f'[White "{dirty}"]\nP f2-f3 // {dirty}\np e7{dirty}e5\n', encoding="utf-8"
    )
    (folder / "illegal.txt").write_text(
        f"P f2-f3\np e7-e5 // {dirty}\nK e1-e3 // {dirty}\n", encoding="utf-8"
    )
    return legal


def invocations(folder: Path, legal: Path, dirty: str, url: str) -> Iterator[list[str]]:
    where = str(folder)
    yield ["check", where]
    yield ["check", "-v", "--all", where]
    yield ["check", "-q", where]
    yield ["check", "--json", where]
    yield ["check", str(folder / f"missing {dirty.replace('/', '')}.txt")]
    yield ["check", "--fen", f"8/8{dirty}", str(legal)]
    yield ["adjudicate", "--mate-depth", "1", where]
    yield ["adjudicate", "-v", "--mate-depth", "1", str(folder / "illegal.txt")]
    yield ["adjudicate", "-q", "--mate-depth", "1", where]
    yield ["adjudicate", "--fen", f"8/8{dirty}"]
    yield ["analyse", "--mate-depth", "1", where]
    yield ["analyze", "-q", "-v", "--mate-depth", "1", where]
    yield ["check", "--analyse", "--analyse-depth", "1", "-q", where]
    for to in writers():  # every format the registry has
        yield ["export", str(legal), "--to", to, "-v"]
    yield ["export", where, "--to", "pgn"]
    yield ["export", str(folder / "illegal.txt"), "--to", "gc", "--fix"]
    yield ["audit", where, "--jobs", "1"]
    yield ["audit", where, "--jobs", "1", "-q"]
    yield ["perft", f"startpos{dirty}", "1"]
    yield ["fen", "--from-gc", f"rnbqkbnr1/{dirty}"]
    yield ["fen", "--to-gc", f"rnbqkbnr/{dirty}"]
    yield ["fetch", url, "--no-cache", "--delay", "0", "--retries", "0"]


def page_with(dirty: str) -> str:
    html = (FIXTURES / "pages" / "pmc_pre.html").read_text(encoding="utf-8")
    html = html.replace(">alice</a>", f">alice{dirty}</a>", 1)
    html = html.replace("has resigned.", f"has resigned.{dirty}", 1)
    return html.replace("to a Nightrider", f"to a Nightrider {dirty}", 1)


@settings(
    max_examples=budget(4),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(DIRTY)
@example(EVERY_CONTROL)
def test_no_control_character_from_the_input_comes_out_raw(dirty: str) -> None:
    route = play_path("dirty")
    with tempfile.TemporaryDirectory() as scratch, FixtureServer() as server:
        server.routes[route] = page(page_with(dirty))
        folder = Path(scratch)
        legal = write_games(folder, dirty)
        for args in invocations(folder, legal, dirty, server.url(route)):
            result = invoke_gcadj(*args)  # an exception escaping a command fails the test
            assert not RAW.search(result.stderr), (args, result.stderr)
            data = args[0] == "fetch" or (args[0] == "export" and args[3] in DATA_ON_STDOUT)
            if not data:
                assert not RAW.search(result.stdout), (args, result.stdout)


# `serve` reads no game from its command line and prints only its own address: the games
# come over HTTP and go back as HTML (escaped, under a CSP) and JSON (tests/web).
NOT_HERE = {"serve"}


def test_the_formats_kept_as_data_are_formats() -> None:
    assert set(writers()) > DATA_ON_STDOUT


def test_the_property_reaches_every_command() -> None:
    """The commands above are all of gcadj's commands (a new one must be added here)."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        names = {args[0] for args in invocations(folder, folder, "x", "http://h/")}
    commands = set(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    assert commands == names | NOT_HERE
