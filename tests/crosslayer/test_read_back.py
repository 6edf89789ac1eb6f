"""What gcadj writes, it reads back to the same verdict.

For every output gcadj can read (Game Courier text in both presets, with and without
``--to-pocket-file``; PGN, one game and a database; the JSON export; the HTML viewer;
``--fix`` output), of every kind of game (legal, illegal, unreadable from a ply on, both
presets, set-up starts, drops, pocketing, en passant, comments and tags; games read from
PGN in tests/crosslayer/test_read_back_pgn.py), the verdict read back has the same status,
plies, legal plies, first illegal ply and category, result, termination and final FEN.
Lines, columns, the source's name and warnings about how a ply was typed may differ: they
describe the text, not the game. Nothing typed is dropped either: every ply as typed, and
the unread text, are in the output.
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, budget, invoke_gcadj
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_games import random_log

from gcadj.app.pipeline import JudgeOptions, judge_source
from gcadj.judging.fix import fix_log
from gcadj.judging.verdict import Verdict
from gcadj.outputs.game_export import ExportError, export_game, export_games
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
        "json": export_game(verdict, "json"),
        "html": export_game(verdict, "html"),
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


# -- games read from PGN (issue 28) -----------------------------------------------------

ROSTER = '[Event "t"]\n[Result "*"]\n\n'
PGN_GAMES = {
    "castling": ROSTER + "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 *\n",
    "long castling by Black": ROSTER
    + "1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. e3 O-O-O 6. a3 a6 *\n",
    "promotion on arrival": '[FEN "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"]\n\n1. a8=Q Kd7 2. Qb7+ *\n',
    "Black's promotion with capture": '[FEN "4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1"]\n\n'
    "1... bxa1=N 2. Kd2 Nb3+ *\n",
    "a move into check": ROSTER + "1. e4 f6 2. Qh5+ Kf7 3. Qxe8 *\n",
    "a pinned piece": ROSTER + "1. e4 e5 2. d4 Bb4+ 3. Nc3 Nf6 4. Nd5 Nxe4 *\n",
    "after the game ended": ROSTER + "1. f4 e5 2. g4 Qh4# 3. a3 *\n",
    "a null move": ROSTER + "1. e4 -- 2. d4 Z0 3. c4 *\n",
    "long algebraic": ROSTER + "1. e2e4 e7-e5 2. Ng1f3 Nb8-c6 3. e4-e6 a6 *\n",
    "every SAN form": ROSTER
    + "1. e4 d5 2. exd5 Nf6 3. Nc3 e5 4. dxe6 Bxe6 5. Nf3 Nbd7 6. Rh1@=I Rh8@ "
    "7. I@a3 R@h8 8. Bb5++ c6 *\n",
    "unreadable after an illegal ply": ROSTER + "1. e4 e5 2. O-O Nf6 3. Qx9 *\n",
    "unreadable": ROSTER + "1. e4 e5 2. Nf3 Qx9 *\n",
    "a {gc} ply": '[Variant "Pocket Mutation Chess"]\n\n1. e4 {gc: p e7-e4} 2. d4 *\n',
}


@pytest.mark.parametrize("name", list(PGN_GAMES))
def test_a_game_from_pgn_reads_back_from_every_output(name: str) -> None:
    (verdict,) = read(PGN_GAMES[name], f"{name}.pgn")
    assert verdict.log is not None
    assert_reads_back(verdict)


def test_the_games_from_pgn_are_of_every_kind() -> None:
    """Not vacuous: the PGN games above are legal, illegal in the categories PGN brings
    (castling, promotion on arrival, a move into check, a null move) and unreadable."""
    verdicts = [read_one(text, "g.pgn") for text in PGN_GAMES.values()]
    statuses = {v.status for v in verdicts}
    categories = {v.first_illegal.category for v in verdicts if v.first_illegal is not None}
    assert statuses == {"legal", "illegal", "syntax-error"}
    assert {"castling", "promotion-on-arrival", "king-in-check", "after-game-end"} <= categories
    assert any(v.warnings and "could not be read" in v.warnings[-1] for v in verdicts)


MASTER_GAMES = sorted(
    (Path(__file__).resolve().parents[2] / "bench" / "data" / "pgn").glob("*.pgn")
)


def test_every_master_game_reads_back_through_pgn_gc_and_json() -> None:
    """Every game of bench/data/pgn (standard chess, so castling and promotions are
    illegal plies with the game going on after them): the database written as PGN reads
    back game for game, and each game's Game Courier text and JSON to its verdict."""
    verdicts = [v for path in MASTER_GAMES for v in judge_source(str(path))]
    assert len(verdicts) > 900
    expected = [key(v) for v in verdicts]
    assert [key(v) for v in read(export_games(verdicts, "pgn"), "db.pgn")] == expected
    for verdict in verdicts:
        assert verdict.log is not None, verdict.error
        for fmt in ("gc", "json"):
            again = read_one(export_game(verdict, fmt), f"back.{fmt}")
            assert key(again) == key(verdict), (verdict.source, fmt, again.error)


def test_a_viewer_of_a_database_reads_back_game_for_game() -> None:
    verdicts = judge_source(str(MASTER_GAMES[-1]))  # WorldChamp1886.pgn: 20 games
    viewer = export_games(verdicts, "html")
    again = read(viewer, "db.html")
    assert [v.source for v in again] == [f"db.html#{n}" for n in range(1, len(verdicts) + 1)]
    assert [key(v) for v in again] == [key(v) for v in verdicts]


def random_chess_pgn(rng: random.Random) -> str:
    """A random game of standard chess as python-chess writes it, biased toward castling
    and promotion, sometimes ended by a move that leaves its King in check (illegal in
    chess and here)."""
    import chess
    import chess.pgn

    board = chess.Board()
    game = chess.pgn.Game()
    node: chess.pgn.GameNode = game
    for _ in range(rng.randrange(0, 120)):
        moves = list(board.legal_moves)
        if not moves:
            break
        special = [m for m in moves if board.is_castling(m) or m.promotion]
        move = rng.choice(special if special and rng.random() < 0.7 else moves)
        node = node.add_variation(move)
        board.push(move)
    movetext = str(game.mainline_moves()) if game.variations else ""
    illegal = [m for m in board.pseudo_legal_moves if not board.is_legal(m)]
    if illegal and rng.random() < 0.5:
        san = board.san(rng.choice(illegal))
        number = f"{board.fullmove_number}{'.' if board.turn else '...'}"
        movetext = f"{movetext} {number} {san}".strip()
    return f'[Event "random"]\n[Result "*"]\n\n{movetext} *\n'


@settings(max_examples=budget(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_random_chess_games_read_back(seed: int) -> None:
    (verdict,) = read(random_chess_pgn(random.Random(seed)), "random.pgn")
    if verdict.log is None:  # unreadable from the first move: no game to write
        assert verdict.status == "syntax-error" and verdict.plies == 0
        return
    assert_reads_back(verdict)


def test_the_random_chess_games_cover_what_pgn_brings() -> None:
    seen: set[str] = set()
    for seed in range(150):
        verdict = read_one(random_chess_pgn(random.Random(seed)), "g.pgn")
        seen.add(verdict.status)
        if verdict.first_illegal is not None:
            seen.add(verdict.first_illegal.category)
        if verdict.log is not None and verdict.plies > verdict.legal_plies + 1:
            seen.add("plies after the illegal one")
    assert {"illegal", "castling", "promotion-on-arrival", "plies after the illegal one"} <= seen


# -- what a user types: the stop hook's commands ----------------------------------------


def triple(done: subprocess.CompletedProcess[str]) -> tuple[Any, ...]:
    import json

    assert done.returncode in (0, 1, 3), done.stderr
    verdicts = [json.loads(line) for line in done.stdout.splitlines()]
    return tuple((v["status"], v["legal_plies"], v["final_fen"]) for v in verdicts)


def test_the_commands_read_back_a_castling_game_and_every_example(tmp_path: Path) -> None:
    castle = tmp_path / "castle.pgn"
    castle.write_text(PGN_GAMES["castling"], encoding="utf-8")
    cases = [(castle, fmt, []) for fmt in ("pgn", "gc")]
    for example in sorted((FIXTURES / "examples").glob("*.txt")):
        cases += [(example, "pgn", []), (example, "gc", ["--to-pocket-file", "p"])]
    for source, fmt, extra in cases:
        out = tmp_path / f"rt.{fmt}"
        args = ["export", "-q", str(source), "--to", fmt, *extra, "-o", str(out), "--force"]
        exported = invoke_gcadj(*args)
        assert exported.returncode in (0, 1, 3), exported.stderr
        original = triple(invoke_gcadj("check", "--json", str(source)))
        assert triple(invoke_gcadj("check", "--json", str(out))) == original, source
