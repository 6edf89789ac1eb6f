"""Partial verdicts: a log that cannot be read past some ply is judged up to that ply."""

from __future__ import annotations

import json
import random
from pathlib import Path

from conftest import invoke_gcadj
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_games import random_game

from gcadj.app.check import check_text
from gcadj.engine.position import Position
from gcadj.outputs.game_export import export_game
from gcadj.outputs.report import render_verdict

HEAD = '[White "Ann"]\n[Black "Bob"]\n'
GAME = HEAD + "P e2-e4\np e7-e5\nN g1-f3\nNc6\nP d2-d4\n"
# Plies Game Courier text cannot express, whatever the position.
TYPOS = ["Nc6", "P e2-e9", "1. e4 e5", "O-O", "P e2e4", "N g1-f3 x", '[White "late"]']


def after(plies: list[str]) -> str:
    position = Position()
    verdict = check_text("\n".join(plies) + "\n")
    for move in verdict.moves:
        position.push(move)
    return position.fen()


def test_the_plies_before_an_unreadable_one_are_judged() -> None:
    verdict = check_text(GAME, "g.txt")
    assert verdict.status == "syntax-error"
    assert verdict.partial
    assert (verdict.plies, verdict.legal_plies, verdict.result) == (3, 3, "*")
    assert verdict.termination is None and verdict.first_illegal is None
    assert verdict.final_fen == after(["P e2-e4", "p e7-e5", "N g1-f3"])
    assert verdict.error is not None and verdict.error.startswith("g.txt:6:4: syntax error: ")
    assert set(verdict.to_json()) == {
        "source", "status", "plies", "legal_plies", "result", "termination", "final_fen",
        "first_illegal", "illegal", "warnings", "error",
    }  # fmt: skip


def test_an_illegal_ply_before_the_unreadable_one_makes_the_game_illegal() -> None:
    text = HEAD + "P e2-e4\np e7-e5\nK e1-e3\nNc6\n"
    for all_findings in (False, True):
        verdict = check_text(text, "g.txt", all_findings=all_findings)
        assert verdict.status == "illegal"
        assert verdict.first_illegal is not None and verdict.first_illegal.ply == 3
        assert verdict.error is None
        assert any(
            w.startswith("ply 4 could not be read, so the replay stopped there: g.txt:6:4:")
            for w in verdict.warnings
        ), verdict.warnings


def test_all_goes_on_after_an_illegal_ply_and_stops_at_the_unreadable_one() -> None:
    text = HEAD + "K e1-e3\np e7-e5\nK e1-e2\nN g1-f3 x\n"
    verdict = check_text(text, "g.txt", all_findings=True)
    assert [f.ply for f in verdict.illegal] == [1, 3]
    assert "ply 4 could not be read" in verdict.warnings[-1]


def test_errors_in_the_header_or_the_first_ply_void_the_game_as_before() -> None:
    for text in ('[White "x" oops]\nP e2-e4\n', HEAD + "Nf3\nP e2-e4\n", "e4 e5 Nf3\n"):
        verdict = check_text(text)
        assert verdict.status == "syntax-error"
        assert not verdict.partial
        assert (verdict.plies, verdict.legal_plies, verdict.final_fen) == (0, 0, None)


def test_the_human_report_says_how_far_the_game_is_legal_and_shows_the_board() -> None:
    out = render_verdict(check_text(GAME, "g.txt"))
    lines = out.splitlines()
    assert lines[0].startswith("g.txt:6:4: syntax error: ")
    assert "  Position before ply 4:" in lines
    assert "    Black to move" in lines
    assert lines[-1] == (
        "g.txt: legal for 3 plies; ply 4 unreadable: 6:4: syntax error: "
        "expected '-' and a square after the square c6"
    )


def test_cli_check_exits_3_and_json_keeps_the_prefix(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    path.write_text(GAME)
    result = invoke_gcadj("check", "--json", str(path))
    assert result.returncode == 3
    record = json.loads(result.stdout)
    assert (record["status"], record["legal_plies"]) == ("syntax-error", 3)
    assert record["final_fen"] == after(["P e2-e4", "p e7-e5", "N g1-f3"])


def test_exports_keep_the_unreadable_ply_and_the_rest_as_typed_and_read_back(
    tmp_path: Path,
) -> None:
    verdict = check_text(GAME, "g.txt")
    for fmt in ("gc", "pgn"):
        text = export_game(verdict, fmt)
        flat = " ".join(text.split())  # PGN wraps its notes
        assert "the log stops being readable at ply 4; it and everything after it" in flat
        assert "Nc6" in text and "P d2-d4" in text  # nothing typed is dropped
        back = check_text(text, f"back.{fmt}")
        assert back.status == "syntax-error" and back.partial, back.error
        assert back.legal_plies == 3 and back.final_fen == verdict.final_fen
    gc_lines = export_game(verdict, "gc").splitlines()
    assert gc_lines[-2:] == ["Nc6", "P d2-d4"]  # after gcadj's note, exactly as typed
    assert gc_lines[-3].startswith("// gcadj: the log stops being readable at ply 4")
    fens = export_game(verdict, "fen").splitlines()
    assert len(fens) == 4 and fens[-1] == verdict.final_fen
    document = json.loads(export_game(verdict, "json"))
    assert [p["status"] for p in document["plies"]] == ["legal"] * 3
    assert document["verdict"]["status"] == "syntax-error"
    assert document["unread"]["text"] == "Nc6\nP d2-d4\n" and document["unread"]["line"] == 6
    path = tmp_path / "g.txt"
    path.write_text(GAME)
    result = invoke_gcadj("export", str(path), "--to", "gc")
    assert (
        result.returncode == 3
    )  # written all the same; some game could not be parsed, as check says
    assert "1. P e2-e4" in result.stdout and result.stdout.endswith("Nc6\nP d2-d4\n")
    assert "ply 4 could not be read" in result.stderr


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 2**32),
    st.integers(1, 40),
    st.sampled_from(TYPOS),
    st.integers(0, 2),
)
def test_a_random_legal_game_with_one_unreadable_ply_keeps_every_ply_before_it(
    seed: int, plies: int, typo: str, header: int
) -> None:
    rng = random.Random(seed)
    texts, _ = random_game(rng, plies)
    if not texts:
        return
    at = rng.randrange(len(texts))
    if at == 0 and typo.startswith("["):
        return  # a tag before the first ply is a header line, not an unreadable ply
    if len(texts) == 1 and typo == "1. e4 e5":
        return  # numbered SAN and no Game Courier ply: PGN (docs/rules.md §6.1), not a typo
    lines = [f'[Tag{i} "v"]' for i in range(header)] + [*texts[:at], typo, *texts[at + 1 :]]
    verdict = check_text("\n".join(lines) + "\n")
    assert verdict.status == "syntax-error"
    assert verdict.error is not None
    assert verdict.error.startswith(f"<string>:{header + at + 1}:")
    if at == 0:
        assert not verdict.partial and verdict.legal_plies == 0
        return
    assert verdict.partial
    assert verdict.plies == verdict.legal_plies == at
    assert verdict.final_fen == after(texts[:at])
    assert verdict.result == "*"


def test_the_audit_csv_and_report_show_the_legal_prefix(tmp_path: Path) -> None:
    from gcadj.outputs.audit_report import write_csv, write_report

    jsonl = tmp_path / "a.jsonl"
    jsonl.write_text(json.dumps(check_text(GAME, "g.txt").to_json()) + "\n")
    write_csv(jsonl, tmp_path / "a.csv")
    row = (tmp_path / "a.csv").read_text().splitlines()[1]
    assert row.startswith("g.txt,syntax-error,3,3,*,")
    write_report(jsonl, tmp_path / "a.html")
    assert "legal for 3 plies; ply 4 unreadable" in (tmp_path / "a.html").read_text()
