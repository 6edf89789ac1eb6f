"""The one pass over a judged game (`gcadj.judging.plies`): what each ply carries, the
lifetime of its live position, and that walking a game never judges it again."""

from __future__ import annotations

import random

import pytest
from conftest import FIXTURES
from random_games import random_game

from gcadj.app.check import check_text
from gcadj.engine.move import Move
from gcadj.engine.position import Position
from gcadj.judging.judge import PlyResolver
from gcadj.judging.plies import JudgedGame, JudgedPly, NoGame, StaleVisit, judged_plies
from gcadj.judging.verdict import failed_verdict
from gcadj.notation.san import gc_text, move_san

EX5 = FIXTURES / "examples" / "ex5_syntax_variants.txt"


def test_a_legal_line_is_numbered_and_written_in_every_notation() -> None:
    verdict = check_text("P e2-e4\np e7-e5 // open\nN g1-f3\n")
    seen = [
        (p.index, p.move_number, p.side, p.status, p.san, p.gc, p.comments, p.fen_after)
        for p in judged_plies(verdict)
    ]
    after = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[] b - - 3 2"
    assert seen[0][:6] == (0, 1, "white", "legal", "e4", "P e2-e4")
    assert seen[1][:7] == (1, 1, "black", "legal", "e5", "p e7-e5", ["open"])
    assert seen[2][:6] == (2, 2, "white", "legal", "Nf3", "N g1-f3")
    assert seen[2][7] == after == verdict.final_fen


def test_an_illegal_game_gives_its_finding_and_leaves_the_rest_unjudged() -> None:
    verdict = check_text(EX5.read_text(encoding="utf-8"), EX5.name)
    finding = verdict.first_illegal
    assert finding is not None
    statuses = []
    for ply in judged_plies(verdict):
        statuses.append(ply.status)
        assert ply.text == verdict.log.records[ply.index].text  # type: ignore[union-attr]
        if ply.status == "illegal":
            assert ply.finding == finding and ply.ply == finding.ply
            assert (ply.move_number, ply.side) == (finding.move_number, finding.side)
            assert ply.position.fen() == finding.fen_before  # the position it was played in
        if ply.status != "legal":
            assert (ply.move, ply.san, ply.gc, ply.fen_after) == (None, None, None, None)
            with pytest.raises(ValueError, match="no position after it"), ply.after():
                pass
    assert statuses == ["legal"] * 6 + ["illegal"] + ["unjudged"] * 4


def test_the_live_position_is_valid_only_during_the_visit() -> None:
    verdict = check_text("P e2-e4\np e7-e5\nN g1-f3\n")
    walk = judged_plies(verdict)
    first = next(walk)
    assert first.san == "e4"  # made now, kept
    second = next(walk)
    assert first.san == "e4"
    with pytest.raises(StaleVisit, match="ply 1 was visited"):
        _ = first.position
    with pytest.raises(StaleVisit, match="ply 1"):
        _ = first.gc  # never made during its visit: it cannot be made now
    with second.after() as after:
        assert after.fen() == second.fen_after
        with pytest.raises(StaleVisit, match="inside ply 2's after"):
            _ = second.gc
    assert second.gc == "p e7-e5"  # after the block, the position before it again


def test_a_verdict_without_a_game_has_nothing_to_walk() -> None:
    with pytest.raises(NoGame, match="no game"):
        JudgedGame(failed_verdict("x.txt", "error", "x.txt: no such file"))


def test_positions_and_position_after_follow_the_legal_moves() -> None:
    verdict = check_text(EX5.read_text(encoding="utf-8"), EX5.name)
    game = JudgedGame(verdict)
    fens = [position.fen() for position in game.positions()]
    assert len(fens) == verdict.legal_plies + 1 and fens[-1] == verdict.final_fen
    assert [game.position_after(n).fen() for n in range(len(fens))] == fens
    with pytest.raises(IndexError):
        game.position_after(len(fens))


def test_the_walk_judges_nothing_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every SAN, Game Courier text and FEN of random games (drops, pocketing, en passant),
    made with no legality check of a played move and no call of the judge: the judge's
    verdict is final. Compared with what the checked engine gives for the same moves."""
    rng = random.Random(18)
    games = [random_game(rng, 60)[0] for _ in range(12)]
    verdicts = [check_text("\n".join(texts) + "\n") for texts in games]
    expected = []
    for verdict in verdicts:
        position = Position(verdict.start_fen)
        line = []
        for move in verdict.moves:
            line.append((move_san(position, move), gc_text(position, move)))
            position.push(move)  # the checked push: these moves are legal
            line[-1] += (position.fen(),)
        expected.append(line)

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("a writer's walk judged or checked a move again")

    for name in ("push", "is_legal", "play_if_legal"):
        monkeypatch.setattr(Position, name, forbidden)
    for name in ("play", "resolve"):
        monkeypatch.setattr(PlyResolver, name, forbidden)
    for verdict, line in zip(verdicts, expected, strict=True):
        walked = [(p.san, p.gc, p.fen_after) for p in judged_plies(verdict)]
        assert walked == line and len(line) > 10


def test_a_ply_prints_what_it_is() -> None:
    ply = next(judged_plies(check_text("P e2-e4\n")))
    assert isinstance(ply, JudgedPly) and isinstance(ply.move, Move)
    assert repr(ply) == (
        "JudgedPly(index=0, move_number=1, side='white', text='P e2-e4', status='legal')"
    )
