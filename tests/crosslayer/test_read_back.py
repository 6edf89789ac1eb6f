"""What gcadj writes, it reads back to the same verdict.

For every output gcadj can read (Game Courier text in both presets, with and without
``--to-pocket-file``; PGN, one game and a database; ``--fix`` output), of every kind of game
(legal, illegal, unreadable from a ply on, both presets, set-up starts, drops, pocketing,
en passant, comments and tags), the verdict read back has the same status, plies, legal
plies, first illegal ply and category, result, termination and final FEN. Lines, columns,
the source's name and warnings about how a ply was typed may differ: they describe the
text, not the game. Nothing typed is dropped either: every ply as typed, and the unread
text, are in the output.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, budget
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_games import random_log

from gcadj.adjudication.fix import fix_log
from gcadj.adjudication.verdict import Verdict
from gcadj.app.pipeline import JudgeOptions, judge_source
from gcadj.outputs.export import ExportError, export_game, export_games
from gcadj.outputs.writers.gc import write_fixed_gc


def key(verdict: Verdict) -> tuple[Any, ...]:
    """The verdict as issue 19 defines "the same verdict"."""
    first = verdict.first_illegal
    return (
        verdict.status,
        verdict.plies,
        verdict.legal_plies,
        None if first is None else (first.ply, first.category),
        verdict.result,
        verdict.termination,
        verdict.final_fen,
    )


def read(text: str, name: str) -> list[Verdict]:
    return judge_source(name, text=text)


def read_one(text: str, name: str) -> Verdict:
    (verdict,) = read(text, name)
    return verdict


OTHER_GAME = FIXTURES / "examples" / "ex1_pocket_mutation_drops.txt"


def outputs(verdict: Verdict) -> dict[str, str]:
    """Every text gcadj writes for a game that it can read again."""
    pocket_file = verdict.log.pocket_file if verdict.log is not None else "i"
    other = "p" if pocket_file == "i" else "i"
    return {
        "gc": export_game(verdict, "gc"),
        f"gc --to-pocket-file {pocket_file}": export_game(
            verdict, "gc", to_pocket_file=pocket_file
        ),
        f"gc --to-pocket-file {other}": export_game(verdict, "gc", to_pocket_file=other),
        "pgn": export_game(verdict, "pgn"),
    }


def assert_reads_back(verdict: Verdict) -> None:
    """Each output of `verdict` reads back to its verdict; in a database too, next to
    another game; its ``--fix`` output reads back to the fixed game's verdict; and no ply
    typed is missing from the Game Courier text."""
    assert verdict.log is not None, verdict.error
    expected = key(verdict)
    for name, text in outputs(verdict).items():
        again = read_one(text, f"back.{name}")
        assert key(again) == expected, (name, text, again.error)
    other = read_one(OTHER_GAME.read_text(encoding="utf-8"), "other.txt")
    database = export_games([verdict, other, verdict], "pgn")
    assert [key(v) for v in read(database, "db.pgn")] == [expected, key(other), expected]
    fixed = fix_log(verdict.log, fen=verdict.start_fen)
    assert key(read_one(write_fixed_gc(fixed), "fixed.txt")) == key(fixed.verdict)
    gc = export_game(verdict, "gc")
    for record in verdict.log.records[verdict.legal_plies :]:
        assert record.text in gc  # kept as typed
    if verdict.log.unread is not None:
        assert verdict.log.unread.text.rstrip("\n") in gc


# -- every fixture ----------------------------------------------------------------------

SOURCES = sorted(
    [
        *(FIXTURES / "examples").glob("*.txt"),
        *(FIXTURES / "logs").glob("*/*.txt"),
        *(FIXTURES / "parse").glob("*.txt"),
        *(FIXTURES / "pages").glob("*.html"),
        *(FIXTURES / "pages").glob("*.text"),
    ],
    key=str,
)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_fixture_reads_back(path: Path) -> None:
    verdicts = judge_source(str(path))
    for verdict in verdicts:
        if verdict.log is None:  # no game: nothing to write, and no writer pretends
            with pytest.raises(ExportError, match="no game"):
                export_game(verdict, "gc")
            continue
        assert_reads_back(verdict)


def test_the_fixtures_hold_every_kind_of_verdict() -> None:
    """The fixture test is not vacuous: legal, illegal and unreadable games, both presets."""
    verdicts = [v for path in SOURCES for v in judge_source(str(path))]
    kinds = {v.status for v in verdicts if v.log is not None}
    assert kinds == {"legal", "illegal", "syntax-error"}  # syntax-error: a partial game
    assert {v.log.pocket_file for v in verdicts if v.log is not None} == {"i", "p"}
    assert any(v.status in ("syntax-error", "error") for v in verdicts)


# -- random games of every kind ---------------------------------------------------------


@settings(max_examples=budget(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_random_games_of_every_kind_read_back(seed: int) -> None:
    text, pocket_file = random_log(random.Random(seed))
    (verdict,) = judge_source("random.txt", JudgeOptions(pocket_file=pocket_file), text=text)
    if verdict.log is None:  # unreadable from the first ply: no game, nothing to write
        assert verdict.status == "syntax-error" and verdict.plies == 0
        return
    assert_reads_back(verdict)


def test_the_random_games_cover_every_kind() -> None:
    """The same generator over many seeds: every kind of game and verdict occurs, so the
    property above is not vacuous."""
    seen: set[str] = set()
    for seed in range(400):
        text, pocket_file = random_log(random.Random(seed))
        (verdict,) = judge_source("g.txt", JudgeOptions(pocket_file=pocket_file), text=text)
        seen |= {verdict.status, f"preset {pocket_file}"}
        log = verdict.log
        if log is None:
            continue
        seen |= {"partial"} if verdict.partial else set()
        if log.unread is not None and verdict.first_illegal is not None:
            seen.add("illegal, then unreadable")
        if log.tag("FEN"):
            seen.add("set-up start")
        if any(r.comment for r in log.records):
            seen.add("comments")
        for move in verdict.moves:
            seen |= {"drop"} if move.from_square >= 64 else set()
            seen |= {"pocketing"} if move.to_square >= 64 else set()
        if any(";" in r.text and r.text.endswith("-") for r in log.records[: len(verdict.moves)]):
            seen.add("en passant")
    assert seen >= {
        "legal",
        "illegal",
        "partial",
        "illegal, then unreadable",
        "preset i",
        "preset p",
        "set-up start",
        "comments",
        "drop",
        "pocketing",
        "en passant",
    }, seen
