"""Suggestions for illegal plies (issue 12): one real mistyped log per kind of slip, the
JSON and human output, the legality of every suggestion, and `export --fix`."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import invoke_gcadj
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_games import corrupt, random_game

from gcadj.app.check import check_text
from gcadj.judging.fix import fix_log
from gcadj.judging.plies import judged_plies
from gcadj.judging.verdict import Finding, Suggestion
from gcadj.notation.parse import parse_log
from gcadj.outputs.report import render_verdict
from gcadj.outputs.writers.gc import write_fixed_gc

LOGS = Path(__file__).resolve().parents[2] / "fixtures" / "logs" / "illegal"

EN_PASSANT = "P e2-e4\np a7-a6\nP e4-e5\np d7-d5\n"  # White may take d5 en passant
KNIGHT_IN_POCKET = "P e2-e4\np e7-e5\nN g1-f3\nn b8-c6\nN f3-i1\np a7-a6\n"  # White holds N
PROMOTE = '[FEN "k7/6P1/8/8/8/8/8/K7[] w - - 0 1"]\nP g7-g8\nk a8-b8\n'  # P on g8, i1 empty


def finding(text: str, *, all_findings: bool = False) -> Finding:
    verdict = check_text(text, "slip.txt", all_findings=all_findings)
    assert verdict.first_illegal is not None, text
    return verdict.first_illegal


def first(text: str) -> Suggestion:
    suggestions = finding(text).suggestions
    assert suggestions, text
    return suggestions[0]


# -- one log per kind of slip ------------------------------------------------------------


@pytest.mark.parametrize(
    ("log", "typed", "meant", "why"),
    [
        # the preset's help text: the victim cleared on the origin file
        (EN_PASSANT, "P e5-d6; e6-", "P e5-d6; d5-", "the en passant victim stands on d5"),
        (EN_PASSANT, "P e5-d6", "P e5-d6; d5-", "en passant also removes the Pawn on d5"),
        (EN_PASSANT, "P e5-d6; capture e6", "P e5-d6; d5-", "victim stands on d5"),
        ("", "p e2-e4", "P e2-e4", "the piece on e2 is a White Pawn (P)"),
        ("P e2-e4\np e7-e5\n", "B g1-f3", "N g1-f3", "the piece on g1 is a White Knight (N)"),
        (KNIGHT_IN_POCKET, "N*c4", "N i1-c4", "a drop takes the Knight out of the pocket i1"),
        (KNIGHT_IN_POCKET, "N-c4", "N i1-c4", "a drop takes the Knight out of the pocket i1"),
        (KNIGHT_IN_POCKET, "B i1-c4", "N i1-c4", "the pocket i1 holds a White Knight (N)"),
        ("P e2-e4\np e7-e5\n", "N g2-f3", "N g1-f3", "the Knight moves from g1, not g2"),
        ("P e2-e4\np e7-e5\n", "N g1-f4", "N g1-f3", "to f3, not f4"),
        ("P e2-e4\np e7-e5\n", "N f3-g1", "N g1-f3", "from g1 to f3, not the other way"),
        (KNIGHT_IN_POCKET, "N i8-c4", "N i1-c4", "the Knight to drop is in White's pocket i1"),
        ("P e2-e4\np e7-e5\nN g1-f3\n", "n b8-i1", "n b8-i8", "Black's pocket is i8"),
        ("P e2-e4\np e7-e5\nN g1-f3\n", "q d8-i8; M-i8", "q d8-i8; m-i8", "lower case (m)"),
        (PROMOTE, "P g8-i1", "P g8-i1; B-i1", "must promote"),
    ],
)
def test_the_first_suggestion_restores_the_move_behind_each_kind_of_slip(
    log: str, typed: str, meant: str, why: str
) -> None:
    suggestion = first(log + typed + "\n")
    assert suggestion.text == meant
    assert why in suggestion.why
    fixed = check_text(log + suggestion.text + "\n")
    assert fixed.status == "legal", fixed.first_illegal
    assert [p.san for p in judged_plies(fixed)][-1] == suggestion.san


def test_a_forgotten_promotion_lists_every_choice_and_picks_none() -> None:
    suggestions = finding(PROMOTE + "P g8-i1\n").suggestions
    assert [s.text for s in suggestions] == ["P g8-i1; B-i1", "P g8-i1; N-i1"]
    assert [s.san for s in suggestions] == ["Pg8@=B", "Pg8@=N"]
    assert fix_log(parse_log(PROMOTE + "P g8-i1\n")).fixes == ()  # two choices: no fix


def test_an_en_passant_suggestion_says_so_in_the_human_report() -> None:
    report = render_verdict(check_text(EN_PASSANT + "P e5-d6; e6-\n", "ep.txt"))
    assert "  did you mean: P e5-d6; d5- (exd6 e.p.): the en passant victim stands on d5" in (
        report.splitlines()
    )


def test_several_suggestions_are_listed_best_first_in_the_report() -> None:
    report = render_verdict(check_text(PROMOTE + "P g8-i1\n", "p.txt")).splitlines()
    at = next(i for i, line in enumerate(report) if "did you mean:" in line)
    assert report[at].startswith("  did you mean: P g8-i1; B-i1 (Pg8@=B)")
    assert report[at + 1].startswith("            or: P g8-i1; N-i1 (Pg8@=N)")


# -- when nothing is close -------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "castling.txt",  # no legal equivalent; a one-step King move is another plan
        "after-game-end.txt",  # no move may follow
        "king-in-check.txt",  # the move is what the player meant, and it is illegal
        "pocket-king.txt",
        "bad-mutation-later-turn.txt",
        "wrong-side.txt",
    ],
)
def test_no_suggestion_when_no_legal_ply_is_close(name: str) -> None:
    assert finding((LOGS / name).read_text()).suggestions == ()


def test_a_castling_written_rook_first_gets_no_suggestion_either() -> None:
    log = "P e2-e4\np e7-e5\nN g1-f3\nn b8-c6\nB f1-c4\nb f8-c5\nR h1-f1; K e1-g1\n"
    assert finding(log).suggestions == ()


def test_a_queen_label_on_the_kings_square_is_no_castling_attempt() -> None:
    # 'Q e1-c1' names a Queen: the Queen on d1 was meant, not the King on e1
    log = "P b2-b3\np e7-e5\nB c1-b2\np a7-a6\nQ e1-c1\n"
    assert first(log).text == "Q d1-c1"


def test_a_blocked_move_with_its_own_label_suggests_no_other_piece() -> None:
    # 'R a1-a3' is blocked by the pawn on a2: 'P a2-a3' would change both piece and origin
    assert finding((LOGS / "illegal-piece-move.txt").read_text()).suggestions == ()


# -- JSON ------------------------------------------------------------------------------

FINDING_KEYS = {
    "ply",
    "move_number",
    "side",
    "text",
    "line",
    "column",
    "category",
    "reason",
    "suggestions",
}


def test_every_finding_in_json_has_suggestions_with_exactly_text_san_and_why() -> None:
    text = (LOGS.parent.parent / "examples" / "ex5_syntax_variants.txt").read_text()
    document = check_text(text, "ex5", all_findings=True).to_json()
    findings = [document["first_illegal"], *document["illegal"]]
    assert len(findings) > 2
    for entry in findings:
        assert set(entry) == FINDING_KEYS
        for suggestion in entry["suggestions"]:
            assert set(suggestion) == {"text", "san", "why"}
    assert document["first_illegal"]["suggestions"] == [
        {
            "text": "I i1-d5",
            "san": "I@d5",
            "why": "a drop takes the Nightrider out of the pocket i1",
        }
    ]


def test_suggestions_under_all_come_from_the_position_of_each_finding() -> None:
    log = "P e2-e4\np e7-e5\nB g1-f3\nn b8-c6\nN g1-f4\n"
    verdict = check_text(log, all_findings=True)
    assert [f.suggestions[0].text for f in verdict.illegal] == ["N g1-f3", "N g1-f3"]


# -- every suggestion is a legal ply -----------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 40))
def test_every_suggestion_is_a_legal_ply_with_its_san(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    texts, _ = random_game(rng, plies + 1)
    if not texts:
        return
    *before, last = texts
    bad = finding_or_none("\n".join([*before, corrupt(last, rng)]) + "\n", len(texts))
    if bad is None:
        return  # the corruption wrote another legal move
    assert len(bad.suggestions) <= 3
    assert len({s.text for s in bad.suggestions}) == len(bad.suggestions)
    for suggestion in bad.suggestions:
        verdict = check_text("\n".join([*before, suggestion.text]) + "\n")
        assert verdict.status == "legal", (before, suggestion, verdict.first_illegal)
        assert [p.san for p in judged_plies(verdict)][-1] == suggestion.san


def finding_or_none(text: str, ply: int) -> Finding | None:
    verdict = check_text(text)
    if verdict.first_illegal is None or verdict.first_illegal.ply != ply:
        return None
    return verdict.first_illegal


# -- export --fix ----------------------------------------------------------------------

SLIPPED = (
    '[White "alice"]\n'
    "P e2-e4\np a7-a6\nP e4-e5 // push\np d7-d5\n"
    "P e5-d6; e6- // en passant\n"  # fixable: the victim is on d5
    "p c7-d6\n"
    "B g1-f3\n"  # fixable: the piece on g1 is a Knight
    "n b8-c6\n"
    "N f3-g4\n"  # not fixable: a square off, which one is a guess
    "p e7-e5\n"
)


def test_fix_replaces_strong_slips_and_stops_at_the_first_guess() -> None:
    fixed = fix_log(parse_log(SLIPPED, source="s.txt"))
    assert [(f.ply, f.typed, f.text) for f in fixed.fixes] == [
        (5, "P e5-d6; e6-", "P e5-d6; d5-"),
        (7, "B g1-f3", "N g1-f3"),
    ]
    stop = fixed.verdict.first_illegal
    assert stop is not None and (stop.ply, stop.text) == (9, "N f3-g4")


def test_a_fixed_log_checks_as_legal_up_to_where_fixing_stopped() -> None:
    fixed = fix_log(parse_log(SLIPPED, source="s.txt"))
    text = write_fixed_gc(fixed)
    lines = text.splitlines()
    assert "3. P e5-d6; d5- // en passant" in lines
    assert "// gcadj: was 'P e5-d6; e6-'" in lines
    assert "4. N g1-f3 // gcadj: was 'B g1-f3'" in lines
    again = check_text(text, "fixed.txt")
    assert again.first_illegal is not None
    assert (again.first_illegal.ply, again.first_illegal.text) == (9, "N f3-g4")
    assert again.legal_plies == 8
    # the plies after the stop are kept as typed
    assert lines[-1] == "5... p e7-e5"


def test_a_log_whose_every_slip_is_strong_becomes_legal() -> None:
    log = EN_PASSANT + "P e5-d6\np c7-d6\nb g1-f3\n"
    fixed = fix_log(parse_log(log))
    assert len(fixed.fixes) == 2
    assert check_text(write_fixed_gc(fixed)).status == "legal"


def test_export_fix_writes_the_fixed_log_and_says_where_it_stopped(tmp_path: Path) -> None:
    source = tmp_path / "game.txt"
    source.write_text(SLIPPED)
    out = tmp_path / "fixed.txt"
    run = invoke_gcadj("export", str(source), "--to", "gc", "--fix", "-o", str(out))
    assert run.returncode == 0, run.stderr
    assert "ply 5: 'P e5-d6; e6-' -> 'P e5-d6; d5-'" in run.stderr
    assert "stopped at ply 9 ('N f3-g4'" in run.stderr
    assert check_text(out.read_text()).first_illegal.ply == 9  # type: ignore[union-attr]
    assert source.read_text() == SLIPPED


def test_export_fix_never_overwrites_its_source_without_force(tmp_path: Path) -> None:
    source = tmp_path / "game.txt"
    source.write_text(SLIPPED)
    run = invoke_gcadj("export", str(source), "--to", "gc", "--fix", "-o", str(source))
    assert run.returncode == 2
    assert "is the source itself" in run.stderr
    assert source.read_text() == SLIPPED
    forced = invoke_gcadj(
        "export", str(source), "--to", "gc", "--fix", "-o", str(source), "--force"
    )
    assert forced.returncode == 0, forced.stderr
    assert "gcadj: was 'B g1-f3'" in source.read_text()


def test_fix_is_for_game_courier_text_only(tmp_path: Path) -> None:
    source = tmp_path / "game.txt"
    source.write_text(SLIPPED)
    run = invoke_gcadj("export", str(source), "--to", "pgn", "--fix")
    assert run.returncode == 2 and "--fix applies to --to gc only" in run.stderr


def test_check_json_carries_the_suggestions(tmp_path: Path) -> None:
    source = tmp_path / "game.txt"
    source.write_text(EN_PASSANT + "P e5-d6; e6-\n")
    run = invoke_gcadj("check", "--json", str(source))
    document = json.loads(run.stdout)
    assert document["first_illegal"]["suggestions"][0] == {
        "text": "P e5-d6; d5-",
        "san": "exd6",
        "why": "the en passant victim stands on d5",
    }


def test_export_fix_keeps_an_unreadable_ply_and_the_rest_with_a_note(tmp_path: Path) -> None:
    """Issue 19.2: --fix of a log cut at ply 7 (``I @c4``) writes every ply, the fixed ones
    corrected, then gcadj's note and the unread text as typed; it reads back cut at ply 7."""
    source = tmp_path / "cut.txt"
    typed = "I @c4 // the drop, typed with a stray space\np a7-a6\n"
    source.write_text("P e2-e4\np e7-e5\nB g1-f3\np d7-d6\nB f1-c4\nn g8-f6\n" + typed)
    out = tmp_path / "fixed.txt"
    run = invoke_gcadj("export", str(source), "--to", "gc", "--fix", "-o", str(out))
    assert run.returncode == 0, run.stderr
    assert "ply 3: 'B g1-f3' -> 'N g1-f3'" in run.stderr
    assert "ply 7 could not be read" in run.stderr
    text = out.read_text()
    lines = text.splitlines()
    assert "2. N g1-f3 // gcadj: was 'B g1-f3'" in lines
    assert lines[-3].startswith("// gcadj: the log stops being readable at ply 7")
    assert text.endswith(typed)  # the unread text, exactly as typed
    back = check_text(text, "fixed.txt")
    assert (back.status, back.legal_plies, back.partial) == ("syntax-error", 6, True)
