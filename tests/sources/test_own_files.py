"""gcadj's own files as sources (issue 28 item 2): the viewer and the JSON export give their
game's verdict; a file gcadj wrote that holds no game says so, and its page furniture is
never judged as moves."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import FIXTURES, invoke_gcadj

from gcadj.app.check import check_source, check_text
from gcadj.app.pipeline import judge_source
from gcadj.judging.verdict import Verdict
from gcadj.outputs.game_export import export_game, export_games
from gcadj.sources.own import NO_GAME_PAGE, NO_GAME_VERDICTS

LOGS = FIXTURES / "logs"
ILLEGAL_AT_4 = LOGS / "illegal" / "king-in-check.txt"
LEGAL = LOGS / "legal" / "checkmate.txt"


def facts(verdict: Verdict) -> dict[str, object]:
    """The verdict without the source's name."""
    document = verdict.to_json()
    document.pop("source")
    return document


def test_the_viewer_of_a_game_gives_that_games_verdict(tmp_path: Path) -> None:
    for path in (ILLEGAL_AT_4, LEGAL):
        original = check_source(str(path))
        viewer = tmp_path / f"{path.stem}.html"
        viewer.write_text(export_game(original, "html"), encoding="utf-8")
        (again,) = judge_source(str(viewer))
        assert again.source == str(viewer)
        same = ("status", "plies", "legal_plies", "result", "termination", "final_fen")
        assert {k: facts(again)[k] for k in same} == {k: facts(original)[k] for k in same}
    illegal = check_source(str(tmp_path / f"{ILLEGAL_AT_4.stem}.html")).first_illegal
    assert illegal is not None and (illegal.ply, illegal.category) == (4, "king-in-check")


def test_the_json_export_reads_back_to_the_very_same_verdict() -> None:
    """Each ply keeps the line and column it had in its source: the findings point where
    they did, and the suggestions are the same. Only a warning about how a legal ply was
    typed goes with its typing (a legal ply is read back in its canonical form)."""
    typed_oddly = {"same-square-submove.txt", "two-step-warning.txt"}
    for path in sorted(LOGS.glob("*/*.txt")):
        original = check_source(str(path))
        again = check_text(export_game(original, "json"), "g.json")
        if path.name in typed_oddly:
            assert original.warnings and not again.warnings
            assert {**facts(again), "warnings": []} == {**facts(original), "warnings": []}
            continue
        assert facts(again) == facts(original), path.name


def test_a_viewer_of_several_games_gives_one_verdict_each_and_picks_one_by_number() -> None:
    games = [check_source(str(path)) for path in (ILLEGAL_AT_4, LEGAL)]
    page = export_games(games, "html")
    verdicts = judge_source("two.html", text=page)
    assert [v.source for v in verdicts] == ["two.html#1", "two.html#2"]
    assert [v.status for v in verdicts] == ["illegal", "legal"]
    (second,) = judge_source("two.html#2", text=page)
    assert second.source == "two.html#2" and second.status == "legal"
    (third,) = judge_source("two.html#3", text=page)
    assert third.status == "error" and third.error == "two.html#3: two.html holds 2 games"


def test_a_viewer_without_its_games_is_no_game_and_no_furniture_is_judged() -> None:
    """A viewer of an older gcadj (no games block) holds plies in its move list and a
    rules legend: none of it is read as a game."""
    page = export_game(check_source(str(ILLEGAL_AT_4)), "html")
    older = re.sub(r'<script type="application/json" id="gcadj-games">.*?</script>', "", page)
    assert older != page and "Q d1-h5" in older  # the move list is still on the page
    verdict = check_text(older, "old.html")
    assert (verdict.status, verdict.plies, verdict.log) == ("error", 0, None)
    assert verdict.error == f"old.html:1:1: {NO_GAME_PAGE}"


def test_an_audit_report_and_check_json_hold_no_game(tmp_path: Path) -> None:
    report, out = tmp_path / "report.html", tmp_path / "audit.jsonl"
    done = invoke_gcadj("audit", "-q", str(LOGS / "legal"), "-o", str(out), "--report", str(report))
    assert done.returncode == 0, done.stderr
    verdict = check_source(str(report))
    assert verdict.status == "error" and NO_GAME_PAGE in str(verdict.error)
    lines = invoke_gcadj("check", "--json", str(ILLEGAL_AT_4), str(LEGAL)).stdout
    for text in (lines, lines.splitlines()[0] + "\n"):  # several verdicts, and one
        verdict = check_text(text, "verdicts.json")
        assert verdict.status == "error" and NO_GAME_VERDICTS in str(verdict.error)


def test_a_broken_or_edited_json_export_is_a_syntax_error_where_it_breaks() -> None:
    export = export_game(check_source(str(ILLEGAL_AT_4)), "json")
    cut = check_text(export[: export.index('"plies"') + 20], "cut.json")
    assert cut.status == "syntax-error" and cut.error is not None
    assert re.match(r"cut\.json:\d+:\d+: syntax error: expected gcadj's JSON export", cut.error)
    document = json.loads(export)
    ply = document["plies"][2]
    ply["typed"] = ply["gc"] = "P e2-e9"  # hand-edited: ply 3 is no Game Courier text
    edited = check_text(json.dumps(document), "edited.json")
    line, column = document["plies"][2]["line"], document["plies"][2]["column"]
    assert edited.status == "syntax-error" and edited.legal_plies == 2  # the plies before it
    assert edited.error is not None
    assert edited.error.startswith(f"edited.json:{line}:{column}: syntax error")
    del document["pocket_file"]
    missing = check_text(json.dumps(document), "missing.json")
    assert missing.status == "syntax-error" and "it has no 'pocket_file'" in str(missing.error)


def test_check_viewer_html_exits_as_for_its_game(tmp_path: Path) -> None:
    viewer = tmp_path / "v.html"
    viewer.write_text(export_game(check_source(str(ILLEGAL_AT_4)), "html"), encoding="utf-8")
    done = invoke_gcadj("check", str(viewer))
    assert done.returncode == 1  # an illegal move found
    assert f"{viewer}: illegal, first at ply 4" in done.stdout
