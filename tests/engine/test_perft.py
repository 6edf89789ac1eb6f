"""Perft counts from fixtures/perft/pmc.epd, and the `gcadj perft` command.

Every count up to NODE_CAP leaf nodes is checked by default; set GCADJ_PERFT_FULL=1 to
check them all (a few minutes). How each expected number was validated is written in
the fixture's header.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import invoke_gcadj

from gcadj.engine.move import Move
from gcadj.engine.pieces import KINDS
from gcadj.engine.position import Position
from gcadj.engine.squares import POCKET

PERFT_FILE = Path(__file__).resolve().parents[2] / "fixtures" / "perft" / "pmc.epd"
NODE_CAP = 300_000
FULL = os.environ.get("GCADJ_PERFT_FULL") == "1"


def read_perft_file(path: Path) -> list[tuple[str, str, dict[int, int]]]:
    """Entries ``<FEN> ;D1 n ;D2 n ... ;id "name"`` -> (name, FEN, {depth: count})."""
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fen, *fields = (part.strip() for part in line.split(";"))
        name = f"line{number}"
        counts: dict[int, int] = {}
        for field in fields:
            key, value = field.split(None, 1)
            if key == "id":
                name = value.strip('"')
            else:
                assert key[0] == "D", f"{path.name}:{number}: unknown field {key!r}"
                counts[int(key[1:])] = int(value)
        entries.append((name, fen, counts))
    return entries


ENTRIES = read_perft_file(PERFT_FILE)


def _cases() -> list[Any]:
    cases = []
    for name, fen, counts in ENTRIES:
        for depth, expected in sorted(counts.items()):
            marks = []
            if expected > NODE_CAP and not FULL:
                marks.append(pytest.mark.skip(reason=f"{expected} nodes; GCADJ_PERFT_FULL=1"))
            cases.append(pytest.param(fen, depth, expected, id=f"{name}-D{depth}", marks=marks))
    return cases


def test_fixture_is_well_formed() -> None:
    names = [name for name, _, _ in ENTRIES]
    assert len(names) == len(set(names)) >= 20
    for name, fen, counts in ENTRIES:
        written = Position(fen).fen().split(" ")
        if written != fen.split(" "):  # only an illegal en passant square may be dropped
            assert written[3] == "-" and written[:3] == fen.split(" ")[:3], name
        assert sorted(counts) == list(range(1, len(counts) + 1)), name
        assert len(counts) >= 3, name


@pytest.mark.parametrize(("fen", "depth", "expected"), _cases())
def test_perft(fen: str, depth: int, expected: int) -> None:
    pos = Position(fen)
    assert pos.perft(depth) == expected
    assert pos.fen() == Position(fen).fen()  # perft leaves the position as it found it


CANDIDATES = (
    [Move(f, t) for f in range(64) for t in range(64) if f != t]
    + [Move(f, POCKET, kind) for f in range(64) for kind in KINDS]
    + [Move(POCKET, t, kind) for t in range(64) for kind in KINDS]
)


def naive_perft(pos: Position, depth: int) -> int:
    """Perft without the move generator: every candidate move filtered by `is_legal`."""
    moves = [move for move in CANDIDATES if pos.is_legal(move)]
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        pos.push(move)
        total += naive_perft(pos, depth - 1)
        pos.pop()
    return total


@pytest.mark.parametrize(
    ("fen", "counts"), [pytest.param(fen, counts, id=name) for name, fen, counts in ENTRIES]
)
def test_naive_perft_agrees_to_depth_2(fen: str, counts: dict[int, int]) -> None:
    pos = Position(fen)
    assert naive_perft(pos, 1) == counts[1]
    assert naive_perft(pos, 2) == counts[2]


@pytest.mark.parametrize("name", ["startpos", "ep-black-pockets", "nightrider-pin-riders"])
def test_divide_sums_to_perft(name: str) -> None:
    fen, counts = next((fen, counts) for n, fen, counts in ENTRIES if n == name)
    divided = dict(Position(fen).divide(2))
    assert set(divided) == set(Position(fen).legal_moves())
    assert sum(divided.values()) == counts[2]


# ---------------------------------------------------------------------------------------
# The command line


def test_cli_perft_startpos() -> None:
    result = invoke_gcadj("perft", "startpos", "3")
    assert result.returncode == 0
    assert result.stdout == "44392\n"
    assert invoke_gcadj("perft", "startpos", "0").stdout == "1\n"


def test_cli_perft_fen_argument() -> None:
    _, fen, counts = next(entry for entry in ENTRIES if entry[0] == "nightrider-pin")
    result = invoke_gcadj("perft", fen, "2")
    assert result.returncode == 0
    assert result.stdout == f"{counts[2]}\n"


def test_cli_perft_divide_format() -> None:
    fen = next(fen for name, fen, _ in ENTRIES if name == "rank8-pawns-white")
    result = invoke_gcadj("perft", fen, "2", "--divide")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    per_move: dict[Move, int] = {}
    for line in lines[:-1]:
        uci, text = line.split(": ")
        per_move[Move.from_uci(uci)] = int(text)
    assert len(per_move) == len(lines) - 1  # one line per root move
    assert set(per_move) == set(Position(fen).legal_moves())
    assert {"a8@B", "a8@N", "h8@Z"} <= {m.uci() for m in per_move}  # pocketings listed too
    for move, count in per_move.items():
        child = Position(fen)
        child.push(move)
        assert child.perft(1) == count
    assert lines[-1] == str(sum(per_move.values())) == "710"


def test_cli_perft_bad_fen_exits_2_naming_the_column() -> None:
    bad = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNY[] w - - 0 1"
    result = invoke_gcadj("perft", bad, "1")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "column 43" in result.stderr
    assert "'Y' is not a piece letter" in result.stderr


def test_cli_perft_as_a_real_process() -> None:
    """Through the console-script entry point, in a child process: real exit codes."""
    entry = "from gcadj.cli.main import main; main()"
    ok = subprocess.run(
        [sys.executable, "-c", entry, "perft", "startpos", "2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (ok.returncode, ok.stdout) == (0, "920\n")
    bad = subprocess.run(
        [sys.executable, "-c", entry, "perft", "8/8/8/8/8/8/8/8[] w - - 0 1", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert "column 1" in bad.stderr and "no King" in bad.stderr
