"""Round trips: a game exported as PGN-like text or a clean Game Courier list, read back by
gcadj, gives the same verdict, the same findings and the same final FEN, and exporting it
again gives the same text.

"Same findings" means the same ply, move number, side, text, category and reason; the
line and column point into whichever file was read, so they are not compared.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gcadj.app.check import check_text
from gcadj.engine.fen import STARTING_FEN
from gcadj.engine.move import Move
from gcadj.engine.pieces import KIND
from gcadj.engine.position import Position
from gcadj.engine.squares import POCKET, SQUARE_NAMES
from gcadj.judging.verdict import Verdict
from gcadj.notation.san import gc_text
from gcadj.outputs.game_export import ExportError, export_game

LOGS = sorted(
    [*(FIXTURES / "examples").glob("*.txt"), *(FIXTURES / "logs").glob("**/*.txt")],
    key=str,
)


def summary(verdict: Verdict) -> tuple[Any, ...]:
    findings = tuple(
        (f.ply, f.move_number, f.side, f.text, f.category, f.reason) for f in verdict.illegal
    )
    return (
        verdict.status,
        verdict.plies,
        verdict.legal_plies,
        verdict.result,
        verdict.termination,
        verdict.final_fen,
        verdict.moves,
        findings,
        verdict.error,
    )


def assert_round_trip(text: str, name: str, *, pocket_file: str = "i") -> Verdict:
    """Check `text`, export it as pgn and gc, read each back: same verdict, same export;
    and the pgn converted to gc reads back as the same game."""
    for all_findings in (False, True):
        original = check_text(text, name, pocket_file=pocket_file, all_findings=all_findings)
        if original.log is None and not text.strip():
            # a blank text (the generator's game of no ply, no tag, no comment) holds no
            # game: its verdict says so, and no export pretends to write one
            assert (original.status, original.error) == ("error", f"{name}: empty")
            with pytest.raises(ExportError, match="no game"):
                export_game(original, "pgn")
            return original
        assert original.log is not None, original.error
        for fmt in ("pgn", "gc"):
            exported = export_game(original, fmt)
            again = check_text(exported, f"{name}.{fmt}", all_findings=all_findings)
            assert summary(again) == summary(original), (fmt, exported)
            assert export_game(again, fmt) == exported, fmt
        # A PGN converted to a Game Courier list (the README's `export game.pgn --to gc`)
        # must read back as the same game too: no PGN-only tag may leak into the list.
        from_pgn = check_text(
            export_game(original, "pgn"), f"{name}.pgn", all_findings=all_findings
        )
        chained = export_game(from_pgn, "gc")
        again = check_text(chained, f"{name}.pgn.gc", all_findings=all_findings)
        assert summary(again) == summary(original), chained
    return original


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_logs_round_trip(path: Path) -> None:
    assert_round_trip(path.read_text(encoding="utf-8"), str(path.relative_to(FIXTURES)))


def test_the_fixtures_cover_legal_and_illegal_games() -> None:
    statuses = {check_text(p.read_text(encoding="utf-8"), p.name).status for p in LOGS}
    assert statuses == {"legal", "illegal"}


def test_pocket_file_p_round_trips() -> None:
    text = "P e2-e4\np e7-e5\nR h1-p1; I-p1\np d7-d6\nI p1-c4\nq d8-p8; m-p8 // mutation\n"
    verdict = assert_round_trip(text, "p.txt", pocket_file="p")
    assert verdict.status == "legal"
    assert '[PocketFile "p"]' in export_game(verdict, "gc")


# -- random games ----------------------------------------------------------------------

LABELS = "".join(KIND) + "".join(KIND).lower()
CELLS = [*SQUARE_NAMES, "i1", "i8"]
COMMENT = st.text(
    alphabet=st.sampled_from("abc xyz{};:\"'()@-/\\01 gcadj"), min_size=0, max_size=30
).map(str.strip)


def _pick(choose: Callable[[list[Any]], Any], position: Position) -> Move | None:
    """A random legal move, biased to pocket moves, en passant and pawn moves: `choose`
    picks a kind of move among those available, then a move of that kind."""
    moves = sorted(position.legal_moves(), key=Move.uci)
    if not moves:
        return None
    board = position.board
    buckets = {
        "pocket": [m for m in moves if POCKET in (m.from_square, m.to_square)],
        "en passant": [
            m
            for m in moves
            if m.from_square < 64
            and m.to_square < 64
            and (p := board[m.from_square]) is not None
            and p.pawn
            and board[m.to_square] is None
            and (m.from_square & 7) != (m.to_square & 7)
        ],
        "pawn": [
            m
            for m in moves
            if m.from_square < 64 and (p := board[m.from_square]) is not None and p.pawn
        ],
        "any": moves,
    }
    names = [name for name, bucket in buckets.items() if bucket]
    move: Move = choose(buckets[choose(names)])
    return move


def _junk_ply(draw: st.DrawFn) -> str:
    """A syntactically valid Game Courier ply that is most likely illegal."""
    label = draw(st.sampled_from(LABELS))
    a, b = draw(st.sampled_from(CELLS)), draw(st.sampled_from(CELLS))
    return draw(
        st.sampled_from(
            [
                f"{label} {a}-{b}",
                f"{a}-{b}",
                f"{label}*{b}",
                f"{label}-{b}",
                f"@-{a}",
                f"{a}-",
                f"capture {a} {b}",
                f"{label} {a}-{b}; {label}-{b}",
                f"{label} {a}-{b};  {b}-",
                ";",
            ]
        )
    )


@st.composite
def game_logs(draw: st.DrawFn) -> str:
    """A Game Courier log: an optional set-up start, random legal plies with comments, and
    sometimes a tail of junk plies (the first illegal ply and what follows it)."""

    def choose(options: list[Any]) -> Any:
        return draw(st.sampled_from(options))

    position = Position()
    lines: list[str] = []
    if draw(st.booleans()):  # a set-up start: a random position reached from the array
        for _ in range(draw(st.integers(1, 12))):
            move = _pick(choose, position)
            if move is None:
                break
            position.push(move)
        if position.legal_moves():
            lines.append(f'[FEN "{position.fen()}"]')
            position = Position(position.fen())
        else:
            position = Position(STARTING_FEN)
    if draw(st.booleans()):
        lines.append(f"// {draw(COMMENT)}")
    for _ in range(draw(st.integers(0, 50))):
        move = _pick(choose, position)
        if move is None:
            break
        ply = gc_text(position, move)
        if draw(st.integers(0, 4)) == 0:
            ply += f" // {draw(COMMENT)}"
        lines.append(ply)
        position.push(move)
    if draw(st.integers(0, 2)) == 0:
        for _ in range(draw(st.integers(1, 4))):
            lines.append(_junk_ply(draw))
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_logs())
def test_random_games_round_trip(text: str) -> None:
    # The generator's simplest log is a bare newline: no game at all, whose "error" verdict
    # has nothing to export (which examples come first depends on the build under test).
    assume(text.strip())
    assert_round_trip(text, "random.txt")


def test_a_blank_text_is_no_game_to_round_trip() -> None:
    """The case the generator meets when it draws no ply, no tag and no comment."""
    assert assert_round_trip("\n", "blank.txt").status == "error"


def test_random_corpus_covers_every_move_form() -> None:
    """The same generator, seeded, over many games: every kind of ply the notation has
    occurs, and every game round-trips (this proves the property test is not vacuous)."""
    rng = random.Random(20031105)
    seen: set[str] = set()
    for _ in range(150):
        position = Position()
        lines = []
        for _ in range(rng.randrange(10, 80)):
            move = _pick(rng.choice, position)
            if move is None:
                break
            text = gc_text(position, move)
            seen |= _forms(position, move, text)
            lines.append(text)
            position.push(move)
        if rng.random() < 0.3:
            lines.append("I*d5")
        verdict = check_text("\n".join(lines) + "\n", "corpus.txt")
        pgn = export_game(verdict, "pgn")
        assert summary(check_text(pgn, "corpus.pgn")) == summary(verdict)
    assert seen >= {"drop", "pocketing", "mutation", "promotion", "en passant", "check"}


def _forms(position: Position, move: Move, text: str) -> set[str]:
    forms = set()
    if move.from_square == POCKET:
        forms.add("drop")
    elif move.to_square == POCKET:
        forms.add("pocketing")
        if ";" in text:
            rank_8 = 7 if position.turn == 0 else 0
            forms.add("promotion" if move.from_square >> 3 == rank_8 else "mutation")
    elif text.endswith("-") and ";" in text:
        forms.add("en passant")
    position.push(move)
    if position.is_check():
        forms.add("check")
    position.pop()
    return forms
