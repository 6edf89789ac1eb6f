"""The analysis of whole games as a stage of the one pipeline (`JudgeOptions.analyse`), and
what the commands make of it: ``gcadj analyse`` (and ``analyze``), ``check --analyse``,
``export --analyse --to pgn`` read back, ``audit --analyse`` (its CSV); the API
``gcadj.analyse``. Every finding shown is the one the judged game carries: the text, the
JSON and the PGN are each compared with `Verdict.analysis`, computed once here by the
library (`analyse_verdict`), not with numbers written into the test.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, ROOT, invoke_gcadj

import gcadj
from gcadj.analysis import analyser
from gcadj.analysis.analyser import analyse_verdict
from gcadj.analysis.options import AnalyseOptions
from gcadj.app.pipeline import JudgeOptions, judge_source
from gcadj.app.stages import StageClock, with_stages
from gcadj.judging.game_analysis import GameAnalysis
from gcadj.judging.verdict import Verdict
from gcadj.notation.san import numbered_moves
from gcadj.outputs.analysis import MATE_NAG, MATERIAL_NAG, eval_command, nag_of
from gcadj.outputs.game_export import export_game
from gcadj.vocabulary import MistakeKind, Side, VerdictKind

GAMES = FIXTURES / "analyse"
FIXTURE_GAMES = sorted(GAMES.glob("*.txt"))
QUICK = AnalyseOptions(mate_depth=1, node_limit=20_000)


def gcadj_run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return invoke_gcadj(*args, stdin=stdin, env={"COLUMNS": "200"})


def analysed(path: Path, options: AnalyseOptions | None = None) -> Verdict:
    """The game of `path`, judged and analysed by the library, apart from the stage."""
    (verdict,) = judge_source(str(path))
    return dataclasses.replace(verdict, analysis=analyse_verdict(verdict, options))


def findings(analysis: GameAnalysis) -> list[tuple[int, str, str]]:
    return [(m.ply, m.side.value, m.kind.value) for m in analysis.mistakes]


def without_seconds(record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "analysis": {**record["analysis"], "seconds": None}}


# -- the stage ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", FIXTURE_GAMES, ids=lambda p: p.name)
def test_the_stage_gives_what_the_library_gives(path: Path) -> None:
    (staged,) = judge_source(str(path), JudgeOptions(analyse=AnalyseOptions()))
    assert staged.analysis is not None
    alone = analysed(path)
    assert staged.analysis.to_json() | {"seconds": 0} == alone.analysis.to_json() | {  # type: ignore[union-attr]
        "seconds": 0
    }
    plain = judge_source(str(path))[0]
    assert plain.analysis is None and "analysis" not in plain.to_json()


def test_a_game_without_a_legal_ply_is_not_analysed() -> None:
    (first_illegal,) = judge_source("g.txt", JudgeOptions(analyse=QUICK), text="K e1-e3\n")
    assert first_illegal.status == "illegal" and first_illegal.analysis is None
    (unreadable,) = judge_source("nothing.txt", JudgeOptions(analyse=QUICK), text="")
    assert unreadable.analysis is None


def test_an_illegal_game_is_analysed_up_to_its_first_illegal_ply() -> None:
    log = "P f2-f3\np e7-e5\nP g2-g4\nK e1-e3\n"
    (verdict,) = judge_source("g.txt", JudgeOptions(analyse=QUICK), text=log)
    assert verdict.status == "illegal" and verdict.analysis is not None
    assert len(verdict.analysis.plies) == verdict.legal_plies == 3
    assert findings(verdict.analysis) == [(3, "white", "allows-mate")]


def test_a_partial_game_is_analysed_up_to_its_unreadable_ply() -> None:
    log = "P f2-f3\np e7-e5\nP g2-g4\nq d8 h4\n"
    (verdict,) = judge_source("g.txt", JudgeOptions(analyse=QUICK), text=log)
    assert verdict.partial and verdict.analysis is not None
    assert [ply.san for ply in verdict.analysis.plies] == ["f3", "e5", "g4"]
    assert findings(verdict.analysis) == [(3, "white", "allows-mate")]


def test_a_bug_in_the_analysis_is_that_games_internal_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("injected")

    monkeypatch.setattr(analyser, "search_mate", broken)
    pgn = "".join(f'[Event "{i}"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n' for i in range(2))
    verdicts = judge_source("g.pgn", JudgeOptions(analyse=QUICK), text=pgn)
    assert len(verdicts) == 2  # the next game is judged and analysed all the same
    for verdict in verdicts:
        assert verdict.analysis is not None
        assert verdict.analysis.error == "internal error: ValueError: injected"
        assert verdict.analysis.plies == ()
        assert verdict.outcome is VerdictKind.INTERNAL_ERROR  # exit 5
        assert verdict.to_json()["analysis"]["error"] == verdict.analysis.error


def test_no_time_left_cuts_every_search_and_claims_nothing() -> None:
    """A source with no time left for its stages (a deadline): the analysis still gives
    every ply, each mate search cut by the budget, and no mate finding."""
    (verdict,) = judge_source(str(GAMES / "allows-mate-in-1.txt"))
    options = JudgeOptions(analyse=AnalyseOptions())
    staged = with_stages(verdict, options, StageClock(0.0))
    assert staged.analysis is not None
    assert len(staged.analysis.plies) == verdict.legal_plies
    assert all(ply.after.mate_cut in ("budget", None) for ply in staged.analysis.plies)
    assert staged.analysis.start.mate_cut == "budget"
    assert not any(m.kind is not MistakeKind.LOSES_MATERIAL for m in staged.analysis.mistakes)
    timed = with_stages(verdict, options, StageClock(600.0))
    assert timed.analysis is not None
    assert findings(timed.analysis) == [(3, "white", "allows-mate")]


def test_both_stages_on_one_game() -> None:
    from gcadj.analysis.options import AdjudicateOptions

    options = JudgeOptions(
        adjudicate=AdjudicateOptions(mate_depth=1, budget=None, node_limit=10_000),
        analyse=QUICK,
    )
    (verdict,) = judge_source(str(GAMES / "loses-a-piece.txt"), options)
    assert verdict.adjudication is not None and verdict.analysis is not None
    record = verdict.to_json()
    assert record["adjudication"] == verdict.adjudication.to_json()
    assert record["analysis"] == verdict.analysis.to_json()


# -- the API -----------------------------------------------------------------------------


def test_the_api_judges_and_analyses_every_game_of_a_source() -> None:
    pgn = (GAMES / "allows-mate-in-1.txt").read_text(encoding="utf-8")
    games = gcadj.analyse("fools.txt", text=pgn, mate_depth=1)
    assert [findings(g.analysis) for g in games if g.analysis] == [[(3, "white", "allows-mate")]]
    path = GAMES / "missed-mate-in-1.txt"
    (game,) = gcadj.analyse(str(path))
    assert game.analysis is not None and game.analysis.mate_depth == 2
    assert findings(game.analysis) == findings(analysed(path).analysis)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threshold"):
        gcadj.analyse(str(path), threshold=0)


# -- gcadj analyse: text, -q, --json ------------------------------------------------------


@pytest.mark.parametrize("path", FIXTURE_GAMES, ids=lambda p: p.name)
def test_gcadj_analyse_prints_one_line_per_finding_and_the_counts(path: Path) -> None:
    verdict = analysed(path)
    analysis = verdict.analysis
    assert analysis is not None
    done = gcadj_run("analyse", str(path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == gcadj_run("check", str(path)).stdout.splitlines()[0]
    shown = [line for line in lines if line.startswith("  ply ")]
    assert len(shown) == len(analysis.mistakes) == 1
    for line, mistake in zip(shown, analysis.mistakes, strict=True):
        ply = analysis.plies[mistake.ply - 1]
        assert line.startswith(
            f"  ply {mistake.ply} (move {ply.move_number}, {ply.side.value.capitalize()}) "
            f"{ply.move} [{mistake.kind.value}]: "
        )
        assert numbered_moves(mistake.san, mistake.position) in line
        assert f"(GC: {numbered_moves(mistake.line, mistake.position)})" in line
    counts = ", ".join(f"{n} {kind.value}" for kind, n in analysis.counts().items())
    assert lines[-1].startswith(f"  analysis: {counts} (mates within 2 moves, threshold 2")
    quiet = gcadj_run("analyze", "-q", str(path))  # the alias
    assert quiet.returncode == 0
    assert quiet.stdout.splitlines() == [f"{path}: {line[2:]}" for line in shown]


def test_gcadj_analyse_json_is_the_judged_games_json() -> None:
    path = GAMES / "allows-mate-in-1.txt"
    done = gcadj_run("analyse", "--json", "--mate-depth", "1", str(path))
    assert done.returncode == 0, done.stderr
    (record,) = [json.loads(line) for line in done.stdout.splitlines()]
    expected = analysed(path, AnalyseOptions(mate_depth=1)).to_json()
    assert without_seconds(record) == without_seconds(json.loads(json.dumps(expected)))
    assert record["analysis"]["counts"] == {"missed-mate": 0, "allows-mate": 1, "loses-material": 0}


def test_gcadj_analyse_reads_stdin_both_presets_and_a_folder_through_the_batch_runner(
    tmp_path: Path,
) -> None:
    fools = (GAMES / "allows-mate-in-1.txt").read_text(encoding="utf-8")
    piped = gcadj_run("analyse", "-q", "--mate-depth", "1", "-", stdin=fools)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.startswith("<stdin>: ply 3 (move 2, White) P g2-g4 [allows-mate]: ")
    newer = '[PocketFile "p"]\n' + fools  # the newer preset: pockets on p1 and p8
    (game,) = gcadj.analyse("p.txt", text=newer, mate_depth=1)
    assert game.log is not None and game.log.pocket_file == "p"
    assert game.analysis is not None
    assert findings(game.analysis) == [(3, "white", "allows-mate")]
    assert game.analysis.mistakes[0].line == ("q d8-h4",)
    assert game.analysis.mistakes[0].position.split()[1] == "b"  # from after the ply
    folder = tmp_path / "games"
    folder.mkdir()
    for path in FIXTURE_GAMES:
        (folder / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "bad.txt").write_text("P e2-e4\np e7-e5\nK e1-e3\n", encoding="utf-8")
    batch = gcadj_run("analyse", "-q", "-j", "2", str(folder))
    assert batch.returncode == 1, batch.stderr  # an illegal game: the check's exit code
    lines = batch.stdout.splitlines()  # in the order of the sources, one line each here
    assert [Path(line.split(":")[0]).name for line in lines] == sorted(
        path.name for path in folder.iterdir()
    )
    assert any(line.startswith(f"{folder / 'bad.txt'}:3:1: illegal at ply 3") for line in lines)


def test_check_analyse_and_the_options_it_needs() -> None:
    path = GAMES / "loses-a-piece.txt"
    plain = gcadj_run("check", str(path))
    done = gcadj_run("check", "--analyse", "--threshold", "6", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(plain.stdout.rstrip("\n"))
    assert "[loses-material]" not in done.stdout  # 5 class units: under a threshold of 6
    assert "threshold 6 class units" in done.stdout
    as_json = gcadj_run("check", "--analyze", "--json", "--analyse-depth", "1", str(path))
    record = json.loads(as_json.stdout)
    assert record["analysis"]["mate_depth"] == 1
    assert record["analysis"]["counts"]["loses-material"] == 1
    refused = gcadj_run("check", "--threshold", "3", str(path))
    assert refused.returncode == 2
    assert refused.stderr.strip() == "gcadj check: --threshold needs --analyse"
    bad = gcadj_run("analyse", "--threshold", "0", str(path))
    assert bad.returncode == 2 and "--threshold" in bad.stderr


# -- PGN export, read back ----------------------------------------------------------------

READ_BACK_GAMES = [
    *FIXTURE_GAMES,
    FIXTURES / "examples" / "ex3_promotion_via_pocket.txt",
    FIXTURES / "examples" / "ex5_syntax_variants.txt",  # illegal at ply 7
]


def verdict_key(verdict: Verdict) -> tuple[Any, ...]:
    record = verdict.to_json()
    record.pop("source")
    record.pop("analysis", None)
    for finding in [record["first_illegal"], *record["illegal"]]:
        if finding:  # where in the text: the text differs
            finding.pop("line", None)
            finding.pop("column", None)
    return tuple(sorted((key, json.dumps(value, sort_keys=True)) for key, value in record.items()))


@pytest.mark.parametrize("path", READ_BACK_GAMES, ids=lambda p: p.name)
def test_the_analysed_pgn_export_reads_back_to_the_same_game(path: Path) -> None:
    verdict = analysed(path, QUICK)
    analysis = verdict.analysis
    assert analysis is not None
    pgn = export_game(verdict, "pgn")
    plain_pgn = export_game(dataclasses.replace(verdict, analysis=None), "pgn")
    (back,) = judge_source("back.pgn", text=pgn)
    (plain_back,) = judge_source("back.pgn", text=plain_pgn)
    assert verdict_key(back) == verdict_key(plain_back)
    assert back.warnings == plain_back.warnings  # no "variation skipped"
    assert back.log is not None and plain_back.log is not None
    assert [r.comment for r in back.log.records] == [r.comment for r in plain_back.log.records]
    again = analyse_verdict(back, QUICK)
    assert findings(again) == findings(analysis)
    # one evaluation per ply whose facts have one, in order, lichess's signs
    evals = re.findall(r"\{(\[%eval [^\]]+\])\}", pgn.replace("\n", " "))
    wanted = [eval_command(ply.after) for ply in analysis.plies]
    assert evals == [command for command in wanted if command is not None]
    nags = [int(n) for n in re.findall(r"(?<![^ \n])\$(\d+)", pgn)]
    assert nags == [nag for ply in analysis.plies if (nag := nag_of(ply.mistakes))]


def test_the_pgn_marks_each_finding_as_lichess_does() -> None:
    allows = export_game(analysed(GAMES / "allows-mate-in-1.txt"), "pgn")
    assert f"2. g4 ${MATE_NAG} {{lets the Queen in}} {{[%eval #-1]}}" in allows.replace("\n", " ")
    missed = export_game(analysed(GAMES / "missed-mate-in-1.txt"), "pgn").replace("\n", " ")
    assert f"30. Kf1 ${MATE_NAG} " in missed
    assert "({gcadj: line} 30. Ra8#)" in missed
    lost = export_game(analysed(GAMES / "loses-a-piece.txt"), "pgn").replace("\n", " ")
    assert f"2... Qg5 ${MATERIAL_NAG} {{the Queen hangs}} {{[%eval 5.0]}}" in lost
    assert "{gcadj: analysis: loses-material: Black loses 5 class units" in lost


def test_export_analyse_to_pgn_on_the_command_line() -> None:
    path = GAMES / "allows-mate-in-1.txt"
    done = gcadj_run("export", "--analyse", "--to", "pgn", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout == export_game(analysed(path), "pgn")


def test_a_lichess_comment_command_is_data_not_a_note() -> None:
    pgn = '[Event "x"]\n\n1. e4 {[%eval 0.3] [%clk 0:10:00]} 1... e5 {[%eval 0.2] fine} *\n'
    (verdict,) = judge_source("l.pgn", text=pgn)
    assert verdict.log is not None
    assert [r.comment for r in verdict.log.records] == [None, "fine"]


def test_eval_commands_follow_lichess_signs() -> None:
    from gcadj.judging.game_analysis import MateFact, PositionFacts

    assert eval_command(PositionFacts(3, mate=MateFact(Side.BLACK, 2))) == "[%eval #-2]"
    assert eval_command(PositionFacts(-3, mate=MateFact(Side.WHITE, 1))) == "[%eval #1]"
    assert eval_command(PositionFacts(-3)) == "[%eval -3.0]"
    assert eval_command(PositionFacts(None)) is None


# -- audit --analyse ---------------------------------------------------------------------


def test_audit_analyse_writes_the_counts_in_its_csv(tmp_path: Path) -> None:
    out, table = tmp_path / "a.jsonl", tmp_path / "a.csv"
    sources = [str(path) for path in FIXTURE_GAMES]
    done = gcadj_run("audit", "--analyse", "-q", "-o", str(out), "--csv", str(table), *sources)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(table.read_text(encoding="utf-8"))))
    for row, path in zip(rows, FIXTURE_GAMES, strict=True):
        counts = analysed(path).analysis.counts()  # type: ignore[union-attr]
        assert row["source"] == str(path)
        assert row["missed_mates"] == str(counts[MistakeKind.MISSED_MATE])
        assert row["mates_allowed"] == str(counts[MistakeKind.ALLOWS_MATE])
        assert row["material_lost"] == str(counts[MistakeKind.LOSES_MATERIAL])
    from gcadj.outputs.audit_report import is_audit_csv

    assert is_audit_csv(table.read_text(encoding="utf-8"))


def test_audit_analyse_and_adjudicate_together(tmp_path: Path) -> None:
    """Both stages on one audit: each JSON line carries both, the CSV both sets of columns
    in order, and the report both columns."""
    out, table, report = tmp_path / "a.jsonl", tmp_path / "a.csv", tmp_path / "a.html"
    source = str(GAMES / "allows-mate-in-1.txt")
    done = gcadj_run(
        "audit", "--analyse", "--analyse-depth", "1", "--adjudicate", "--mate-depth", "1",
        "--budget", "60", "-q", "-o", str(out), "--csv", str(table), "--report", str(report),
        source,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (record,) = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert record["adjudication"]["class"] == "proven"  # the board shows the mate
    assert record["analysis"]["mate_depth"] == 1
    header = table.read_text(encoding="utf-8").splitlines()[0].split(",")
    assert header[-8:-3] == ["adjudication", "adjudicated_result", "mate_in", "mate_winner",
                             "adjudication_reason"]  # fmt: skip
    assert header[-3:] == ["missed_mates", "mates_allowed", "material_lost"]
    page = report.read_text(encoding="utf-8")
    assert ">Adjudication</th>" in page and ">Analysis</th>" in page
    assert 'data-m="has-mistakes allows-mate"' in page


def test_ctrl_c_during_the_analysis_ends_the_run_with_130() -> None:
    import signal
    import time

    game = FIXTURES / "examples" / "ex1_pocket_mutation_drops.txt"
    command = [sys.executable, "-m", "gcadj", "analyse", "--mate-depth", "5", str(game)]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT
    )
    time.sleep(3)  # searching by then: a search to 5 moves takes seconds a position
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130
    assert err == "gcadj analyse: interrupted\n"
    assert "Traceback" not in out + err


def test_an_empty_comment_stays_and_a_comment_of_commands_only_goes() -> None:
    pgn = '[Event "x"]\n\n1. e4 {} 1... e5 {[%eval 0.2]} 2. Nf3 {[%clk 0:01:00] ok} *\n'
    (verdict,) = judge_source("l.pgn", text=pgn)
    assert verdict.log is not None
    assert [r.comment for r in verdict.log.records] == ["", None, "ok"]
