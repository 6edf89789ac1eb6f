"""The count of the exchanges finds what the naive capture-only minimax finds.

The reference is tests/naive_exchanges.py: plain negamax, no alpha-beta, its moves a
filter of `legal_moves()`, its material summed square by square. On random small
positions (pieces of every kind, pockets full and empty, either side to move) and on the
positions of random games the count gives the same value; its principal line is legal
and ends where the value says (the totals there, a mate). Built positions check each
rule of docs/rules.md §8.1; the corpus tests check that neither bound (`MAX_PLIES`,
`NODE_LIMIT`) is ever what a count answers on the master games of bench/data/pgn and on
long random games, and the last tests that a bound hit is reported.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import ROOT, budget
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive_exchanges import MATE, NaiveExchanges, totals
from random_games import random_game
from random_positions import random_position

import gcadj
from gcadj.analysis import exchanges
from gcadj.analysis.exchanges import MAX_PLIES, ExchangeCount, count_exchanges
from gcadj.engine.position import Position
from gcadj.judging.plies import JudgedGame

NAIVE_NODES = 2_000
PGN_DIR = ROOT / "bench" / "data" / "pgn"


def assert_line_gives_the_count(position: Position, found: ExchangeCount) -> None:
    """The line is legal from `position`, and where it ends the count holds: each side's
    totals, the mate, the value for the side to move."""
    walk = position.copy()
    for move in found.line:
        assert walk.is_legal(move), (position.fen(), move.uci())
        walk.push(move)
    white, black = totals(walk)
    assert (found.white, found.black) == (white, black)
    mated = walk.is_check() and not walk.legal_moves()
    assert found.mated == (walk.turn if mated else None)
    if mated:
        sign = 1 if walk.turn != position.turn else -1
        assert found.score == sign * (MATE - len(found.line))
        assert found.mate_moves == (len(found.line) + 1) // 2
    else:
        lead = white - black
        assert found.score == (lead if position.turn == 0 else -lead)


def assert_count_agrees(position: Position) -> bool:
    """Compared with the naive minimax, unless that one passes its node limit (False)."""
    fen = position.fen()
    found = count_exchanges(position)
    assert found.cut is None, fen
    assert position.fen() == fen  # the position counted is not changed
    assert_line_gives_the_count(position, found)
    try:
        expected = NaiveExchanges(MAX_PLIES, node_limit=NAIVE_NODES).value(position.copy())
    except TimeoutError:
        return False
    assert found.score == expected, fen
    return True


@settings(max_examples=budget(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 8))
def test_random_boards_count_as_the_naive_minimax_counts(seed: int, pieces: int) -> None:
    position = random_position(random.Random(seed), pieces)
    if position is not None:
        assert_count_agrees(position)


@settings(max_examples=budget(6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_the_positions_of_random_games_count_as_the_naive_minimax_counts(seed: int) -> None:
    rng = random.Random(seed)
    texts, _ = random_game(rng, rng.randrange(10, 40))
    verdict = gcadj.check_text("\n".join(texts) + "\n")
    compared = 0
    for index, position in enumerate(JudgedGame(verdict).positions()):
        if index % 3 == 0:
            compared += assert_count_agrees(position)
    assert compared or not verdict.moves


@pytest.mark.parametrize(
    ("fen", "line", "balance"),
    [
        # a Queen left hanging: the Knight takes it, nothing takes back
        ("rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R[] w - - 2 3", ["f3g5"], 5),
        # a defended Pawn: the Queen does not take it (it would be taken back)
        ("4k3/8/2p5/3p4/8/8/8/3QK3[] w - - 0 30", [], 3),
        # a Rook defended by a Pawn is worth taking with a Knight (3 for 2)
        ("4k3/8/2p5/3r4/8/4N3/8/4K3[] w - - 0 30", ["e3d5", "c6d5"], -1),
        # the Pawn takes the Queen rather than the Rook, which takes it back
        ("4k3/8/8/2q1r3/3P4/8/8/7K[] w - - 0 30", ["d4c5", "e5c5"], -3),
        # a Pawn on its rank 8 promotes by pocketing (a class up)
        ("P7/8/8/8/8/8/8/k3K3[] w - - 0 40", ["a8@B"], 2),
        # en passant takes a Pawn
        ("4k3/8/8/3pP3/8/8/8/4K3[] w - d6 0 20", ["e5d6"], 1),
    ],
)
def test_built_positions(fen: str, line: list[str], balance: int) -> None:
    position = Position(fen)
    found = count_exchanges(position)
    assert [move.uci() for move in found.line] == line
    assert found.balance == balance
    assert_count_agrees(position)


def test_a_side_in_check_escapes_and_may_not_stand_pat() -> None:
    """Black is in check from the Rook: it must answer, and the King's capture of the
    Rook is the answer the count takes (the Rook is not defended)."""
    position = Position("4k3/4R3/8/8/8/8/8/4K3[] b - - 0 30")
    found = count_exchanges(position)
    assert [move.uci() for move in found.line] == ["e8e7"]
    assert found.balance == 0 and found.mated is None
    assert_count_agrees(position)


def test_a_mate_at_the_end_of_the_exchanges_counts_as_a_mate() -> None:
    """The Queen takes on h7 with check, defended by the Bishop: mate, worth more than any
    material."""
    position = Position("7k/6pp/8/8/8/3B4/8/4K2Q[] w - - 0 30")
    found = count_exchanges(position)
    assert [move.uci() for move in found.line] == ["h1h7"]
    assert found.mated == 1 and found.score == MATE - 1 and found.mate_moves == 1
    assert_count_agrees(position)


def test_the_fifty_move_rule_ends_a_line() -> None:
    """At the hundredth ply without capture or promotion, the game is drawn: no exchange is
    searched, the material stands."""
    position = Position("rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R[] w - - 100 60")
    found = count_exchanges(position)
    assert found.line == () and found.balance == 0


def test_a_bound_reached_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    position = Position("4k3/8/2p5/3r4/8/4N3/8/4K3[] w - - 0 30")
    assert count_exchanges(position).cut is None
    assert count_exchanges(position, node_limit=1).cut == "nodes"
    monkeypatch.setattr(exchanges, "MAX_PLIES", 1)
    assert count_exchanges(position).cut == "plies"


def counts_of(verdicts: list[gcadj.Verdict]) -> tuple[int, int]:
    """Positions counted, and the largest number of nodes one count visited; every count
    must be one no bound cut."""
    positions = most = 0
    for verdict in verdicts:
        for position in JudgedGame(verdict).positions():
            found = count_exchanges(position)
            assert found.cut is None, position.fen()
            positions += 1
            most = max(most, found.nodes)
    return positions, most


def test_no_bound_is_ever_reached_on_the_master_games() -> None:
    verdicts = [
        verdict
        for path in sorted(Path(PGN_DIR).glob("*.pgn"))
        for verdict in gcadj.judge_source(str(path))
        if verdict.log is not None
    ]
    positions, most = counts_of(verdicts)
    assert positions > 15_000 and most < exchanges.NODE_LIMIT // 10


def test_no_bound_is_ever_reached_on_long_random_games() -> None:
    """Random games of 150 plies biased to pocketing, drops and en passant: chaotic
    positions full of captures, the hardest the counts meet."""
    verdicts = []
    for seed in range(8):
        texts, _ = random_game(random.Random(seed), 150)
        verdicts.append(gcadj.check_text("\n".join(texts) + "\n"))
    positions, most = counts_of(verdicts)
    assert positions > 1_000 and most < exchanges.NODE_LIMIT
