"""The real master games of bench/data/pgn (standard chess, 959 games) read as Pocket
Mutation Chess: one verdict per game, each legal or illegal exactly where python-chess (the
oracle, GPL, test-only) says the game first castles or promotes.

Every standard move is also a Pocket Mutation Chess move except castling and promotion on
arrival; a game that never does either is legal, with its recorded result. The plies after
the first illegal one are read on Game Courier's board too, so ``--all`` finds every
castling and promotion of the game, and only those (or a move after a Pocket Mutation
Chess end: its fifty-move rule counts plies since a capture or promotion only).
"""

from __future__ import annotations

import functools
from pathlib import Path

import chess
import chess.pgn
import pytest
from conftest import ROOT

from gcadj.app.pipeline import JudgeOptions, judge_source

CORPUS = sorted((ROOT / "bench" / "data" / "pgn").glob("*.pgn"))
ALLOWED_AFTER = {"castling", "promotion-on-arrival", "after-game-end"}


@functools.cache
def oracle(path: Path) -> list[tuple[int, list[int], dict[int, str], str]]:
    """Per game: its plies, the 1-based plies that castle or promote, their kinds, its
    Result tag."""
    games = []
    with path.open(encoding="utf-8", errors="replace") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            board = game.board()
            special: dict[int, str] = {}
            plies = 0
            for move in game.mainline_moves():
                plies += 1
                if board.is_castling(move):
                    special[plies] = "castling"
                elif move.promotion is not None:
                    special[plies] = "promotion-on-arrival"
                board.push(move)
            games.append((plies, sorted(special), special, game.headers.get("Result", "*")))
    return games


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_every_master_game_is_judged_where_it_stops_being_pocket_mutation_chess(
    path: Path,
) -> None:
    expected = oracle(path)
    text = path.read_text(encoding="utf-8", errors="replace")
    verdicts = judge_source(path.name, text=text)
    assert len(verdicts) == len(expected)
    assert [v.source for v in verdicts] == [f"{path.name}#{n}" for n in range(1, len(expected) + 1)]
    for verdict, (plies, special, kinds, result) in zip(verdicts, expected, strict=True):
        assert verdict.plies == plies, verdict.source
        if not special:
            assert verdict.status == "legal", (verdict.source, verdict.error)
            assert verdict.result == result, verdict.source
            assert verdict.warnings == () or all("third time" in w for w in verdict.warnings)
            continue
        assert verdict.status == "illegal", (verdict.source, verdict.error)
        finding = verdict.first_illegal
        assert finding is not None
        assert (finding.ply, finding.category) == (special[0], kinds[special[0]]), verdict.source


@pytest.mark.parametrize("path", CORPUS[1:], ids=lambda p: p.name)  # all but Capablanca: time
def test_going_on_after_the_first_castling_finds_every_one(path: Path) -> None:
    """``--all``: the SAN after an illegal ply is read on the board Game Courier shows, the
    same board the replay goes on from, so every later ply reads and is judged."""
    expected = oracle(path)
    text = path.read_text(encoding="utf-8", errors="replace")
    verdicts = judge_source(path.name, JudgeOptions(all_findings=True), text=text)
    assert len(verdicts) == len(expected)
    for verdict, (plies, special, kinds, _) in zip(verdicts, expected, strict=True):
        assert verdict.error is None and verdict.plies == plies, verdict.source
        found = {f.ply: f.category for f in verdict.illegal}
        assert set(found.values()) <= ALLOWED_AFTER, verdict.source
        ended = min((p for p, c in found.items() if c == "after-game-end"), default=plies + 1)
        assert found == {p: kinds[p] for p in special if p < ended} | (
            {ended: "after-game-end"} if ended <= plies else {}
        ), verdict.source


def test_the_corpus_holds_959_games() -> None:
    assert sum(len(oracle(path)) for path in CORPUS) == 959
