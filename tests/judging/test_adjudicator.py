"""The adjudicator on hand-made logs: one per finding category, the endings, the samples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, invoke_gcadj

from gcadj.app.check import check_source, check_text
from gcadj.errors import FenError
from gcadj.judging.judge import CATEGORIES
from gcadj.judging.verdict import replay
from gcadj.notation.parse import parse_log

LOGS = FIXTURES / "logs"
EXPECTED: dict[str, dict[str, object]] = {
    k: v for k, v in json.loads((LOGS / "expected.json").read_text()).items() if k != "_about"
}
ILLEGAL = sorted(k for k in EXPECTED if k.startswith("illegal/"))
LEGAL = sorted(k for k in EXPECTED if k.startswith("legal/"))
EXAMPLES = FIXTURES / "examples"
JSON_KEYS = {
    "source", "status", "plies", "legal_plies", "result", "termination", "final_fen",
    "first_illegal", "illegal", "warnings", "error",
}  # fmt: skip


def test_every_category_has_a_fixture() -> None:
    covered = {EXPECTED[name]["category"] for name in ILLEGAL}
    assert covered == set(CATEGORIES)


def test_every_log_in_the_folder_has_an_expectation() -> None:
    on_disk = {p.relative_to(LOGS).as_posix() for p in LOGS.rglob("*.txt")}
    assert on_disk == set(EXPECTED)


@pytest.mark.parametrize("name", ILLEGAL)
def test_illegal_log_is_found_at_the_right_ply_with_a_precise_reason(name: str) -> None:
    expected = EXPECTED[name]
    verdict = check_source(str(LOGS / name))
    assert verdict.status == "illegal"
    assert verdict.result == "*" and verdict.termination is None
    finding = verdict.first_illegal
    assert finding is not None
    assert (finding.ply, finding.category) == (expected["ply"], expected["category"])
    assert verdict.legal_plies == finding.ply - 1
    for words in expected["reason"]:  # type: ignore[attr-defined]
        assert words in finding.reason, (words, finding.reason)
    record = parse_log((LOGS / name).read_text()).records[finding.ply - 1]
    assert (finding.line, finding.column, finding.text) == (record.line, record.column, record.text)


@pytest.mark.parametrize("name", LEGAL)
def test_legal_log_ends_as_the_board_or_record_says(name: str) -> None:
    expected = EXPECTED[name]
    verdict = check_source(str(LOGS / name))
    assert verdict.status == "legal", verdict.first_illegal
    assert (verdict.result, verdict.termination) == (expected["result"], expected["termination"])
    assert verdict.legal_plies == verdict.plies
    if "warning" in expected:
        assert any(str(expected["warning"]) in w for w in verdict.warnings), verdict.warnings
    else:
        assert verdict.warnings == ()


@pytest.mark.parametrize(
    ("sample", "result", "termination"),
    [
        ("ex1_pocket_mutation_drops.txt", "*", "ongoing"),
        ("ex2_en_passant_numbered.txt", "*", "ongoing"),
        ("ex3_promotion_via_pocket.txt", "*", "ongoing"),
        ("ex4_resignation.txt", "1-0", "resignation"),
    ],
)
def test_legal_samples(sample: str, result: str, termination: str) -> None:
    verdict = check_source(str(EXAMPLES / sample))
    assert verdict.status == "legal"
    assert (verdict.result, verdict.termination) == (result, termination)


def test_sample_ex1_final_position() -> None:
    verdict = check_source(str(EXAMPLES / "ex1_pocket_mutation_drops.txt"))
    # The Nightrider dropped on c4 and the Chancellor on d4 are on the board, pockets empty.
    assert verdict.final_fen == "r3kbnr/ppp2ppp/2np4/4p3/2ImP1b1/3PBN2/PPP2PPP/RN1QKB2[] w - - 12 7"


def test_sample_ex5_first_illegal_ply_is_the_asterisk_drop() -> None:
    verdict = check_source(str(EXAMPLES / "ex5_syntax_variants.txt"))
    assert verdict.first_illegal is not None
    assert verdict.first_illegal.ply == 7
    assert verdict.first_illegal.text == "I*d5"
    assert verdict.first_illegal.category == "drop-not-in-pocket"


def test_ex5_with_all_reports_every_illegal_ply_from_the_literal_board() -> None:
    verdict = check_source(str(EXAMPLES / "ex5_syntax_variants.txt"), all_findings=True)
    plies = [(f.ply, f.category) for f in verdict.illegal]
    # 7: I*d5 leaves the pocket full; 8: Black's '@-d5' only removes White's new Nightrider;
    # 9: 'capture e5' removes a pawn White's move d2-d4 does not capture; 11: c6 cleared,
    # though d4-d5 captures nothing there.
    assert plies[0] == (7, "drop-not-in-pocket")
    assert {p for p, _ in plies} >= {7, 8, 9}
    assert verdict.first_illegal == verdict.illegal[0]
    assert verdict.final_fen == verdict.illegal[0].fen_before


def test_preset_help_text_en_passant_example_names_d5() -> None:
    log = "P c2-c4\np a7-a6\nP c4-c5\np d7-d5\nP c5-d6; c6-\n"
    verdict = check_text(log)
    assert verdict.first_illegal is not None
    assert verdict.first_illegal.category == "en-passant-incomplete"
    assert "d5" in verdict.first_illegal.reason


@pytest.mark.parametrize("removal", ["d5-", "@-d5", "capture d5"])
def test_every_en_passant_form_is_the_same_legal_move(removal: str) -> None:
    log = f"P c2-c4\np a7-a6\nP c4-c5\np d7-d5\nP c5-d6; {removal}\n"
    verdict = check_text(log)
    assert verdict.status == "legal"
    assert verdict.final_fen == "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PP1PPPPP/RNBQKBNR[] b - - 0 3"


@pytest.mark.parametrize("mutation", ["R h1-i1; I-i1", "R h1-i1; I*i1", "h1-i1; I-i1"])
def test_pocketing_with_mutation_forms(mutation: str) -> None:
    verdict = check_text(f"P e2-e4\np e7-e5\n{mutation}\n")
    assert verdict.status == "legal"
    assert verdict.final_fen is not None and "[I]" in verdict.final_fen


def test_start_position_from_fen_tag_and_option() -> None:
    tagged = check_text('[FEN "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1"]\nQ i1-b7\n')
    option = check_text("Q i1-b7\n", fen="k7/8/1K6/8/8/8/8/8[Q] w - - 0 1")
    assert tagged.termination == option.termination == "checkmate"
    with pytest.raises(FenError, match="column"):  # a bad argument is the caller's mistake
        check_text("P e2-e4\n", fen="not a fen")
    tag = check_text('[FEN "not a fen"]\nP e2-e4\n', "bad.txt")  # a bad tag is the log's
    assert tag.status == "syntax-error" and tag.error is not None
    # the tag's own line and column (issue 10): the value starts at column 7 of line 1
    assert tag.error.startswith("bad.txt:1:7: syntax error: expected a start position")
    assert "[FEN] tag" in tag.error and "column" in tag.error


def test_syntax_error_is_a_verdict_naming_line_and_column() -> None:
    verdict = check_text("P e2-e4\nNf6\n", "game.txt")
    assert verdict.status == "syntax-error"
    assert verdict.error is not None and "game.txt:2:" in verdict.error
    assert verdict.to_json()["first_illegal"] is None


def test_json_has_exactly_the_documented_keys() -> None:
    for name in ("illegal/castling.txt", "legal/checkmate.txt"):
        assert set(check_source(str(LOGS / name)).to_json()) == JSON_KEYS


def test_replay_api_takes_a_parsed_log() -> None:
    log = parse_log((LOGS / "legal/checkmate.txt").read_text(), source="mate")
    verdict = replay(log)
    assert (verdict.source, verdict.result, len(verdict.moves)) == ("mate", "0-1", 4)


def test_cli_exit_code_is_the_highest_that_applies(tmp_path: Path) -> None:
    legal = str(LOGS / "legal/checkmate.txt")
    illegal = str(LOGS / "illegal/castling.txt")
    bad = tmp_path / "bad.txt"
    bad.write_text("e4 e5\n")  # SAN in a log (numbered and alone, it would be PGN)
    assert invoke_gcadj("check", legal).returncode == 0
    assert invoke_gcadj("check", legal, illegal).returncode == 1
    assert invoke_gcadj("check", illegal, str(bad), legal).returncode == 3
    missing = invoke_gcadj("check", str(bad), str(tmp_path / "missing.txt"), legal, "--json")
    assert missing.returncode == 4
    lines = [json.loads(line) for line in missing.stdout.splitlines()]
    assert [d["status"] for d in lines] == ["syntax-error", "error", "legal"]
    assert invoke_gcadj("check", "--bogus").returncode == 2
    # no source: the (empty) piped stdin is the source (tests/cli/test_unix_habits.py)
    assert invoke_gcadj("check").returncode == 4


def test_cli_human_report_names_place_reason_and_board() -> None:
    out = invoke_gcadj("check", str(LOGS / "illegal/en-passant-incomplete.txt")).stdout
    first = out.splitlines()[0]
    assert first.startswith(
        str(LOGS / "illegal/en-passant-incomplete.txt") + ":5:1: 3. P c5-d6; c6-"
    )
    assert "[en-passant-incomplete]" in first
    assert "d5" in out.splitlines()[1]
    assert "8 r n b q k b n r | ." in out  # the diagram, with Black's pocket on rank 8
    assert "White's pocket (i1)" in out


def test_cli_reads_standard_input() -> None:
    done = invoke_gcadj("check", "-", "--json", stdin="P f2-f3\np e7-e5\nP g2-g4\nq d8-h4\n")
    data = json.loads(done.stdout)
    assert (data["source"], data["termination"], data["result"]) == ("<stdin>", "checkmate", "0-1")


@pytest.mark.parametrize(
    "options",
    [["--pocket-file", "xx"], ["--fen", "garbage"], ["--fen", "8/8/8/8/8/8/8/8[] w - - 0 1"]],
)
@pytest.mark.parametrize("command", ["check", "audit"])
def test_bad_options_are_usage_errors_before_any_source(command: str, options: list[str]) -> None:
    done = invoke_gcadj(command, *options, str(EXAMPLES / "ex1_pocket_mutation_drops.txt"))
    assert done.returncode == 2
    assert done.stderr.startswith(f"gcadj {command}: {options[0]}")
    assert done.stdout == ""


def test_cr_only_line_ends_keep_the_pocket_file_tag() -> None:
    lines = ['[PocketFile "p"]', "P e2-e4", "p e7-e5", "Q d1-h5", "p a7-a6", "Q h5-p1"]
    verdict = check_text("\r".join(lines) + "\r", "old-mac.txt")
    assert verdict.status == "legal", verdict.error
    assert verdict.final_fen is not None and "[Q]" in verdict.final_fen
