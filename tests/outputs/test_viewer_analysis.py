"""A game's analysis in its viewer: the marks on the move list, each finding's line stepped
on the board as a side line (branching from the position it starts from), the box under
the verdict and its SVG graph of the balance after the exchanges.

Every position the page shows along a line is compared with the one the judge gives for
the same moves typed as a log (`check_text`), never with a FEN written here; the browser
is a real headless Chromium.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from conftest import FIXTURES

from gcadj.analysis.options import AnalyseOptions
from gcadj.app.check import check_text
from gcadj.app.pipeline import JudgeOptions, judge_source
from gcadj.judging.game_analysis import GameAnalysis, MateFact, PlyAnalysis, PositionFacts
from gcadj.judging.verdict import Verdict
from gcadj.outputs.viewer import game_view, write_viewer
from gcadj.outputs.viewer_analysis import GRAPH_LIMIT, balance_graph
from gcadj.vocabulary import Side

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

GAMES = FIXTURES / "analyse"
ANALYSED = JudgeOptions(analyse=AnalyseOptions())


def judged(path: Path) -> Verdict:
    (verdict,) = judge_source(str(path), ANALYSED)
    return verdict


def test_a_plain_game_has_no_analysis_on_its_page() -> None:
    (plain,) = judge_source(str(GAMES / "allows-mate-in-1.txt"))
    view = game_view(plain)
    assert 'id="analysis"' not in view.head
    assert not any("mistake" in item or "analysis-line" in item for item in view.items)


def test_the_move_list_marks_the_finding_and_lists_its_line() -> None:
    verdict = judged(GAMES / "missed-mate-in-1.txt")
    assert verdict.analysis is not None
    (mistake,) = verdict.analysis.mistakes
    view = game_view(verdict)
    item = view.items[mistake.ply]
    assert 'class="w mistake missed-mate"' in item
    assert '<span class="mark" title="missed-mate: ' in item and ">??</span>" in item
    steps = re.findall(r'<li data-ply="(\d+)"><a href="#ply=\d+">([^<]+)</a>', item)
    assert [san for _, san in steps] == ["30. Ra8#"]
    (line_step,) = [view.steps[int(step)] for step, _ in steps]
    assert line_step.parent == mistake.ply - 1  # from the position before the ply
    start = verdict.start_fen
    assert line_step.fen == check_text(f'[FEN "{start}"]\nR a1-a8\n').final_fen
    assert line_step.label.startswith("Missed mate (move 30, White), not played: 30. Ra8#")
    others = [i for n, i in enumerate(view.items) if n != mistake.ply]
    assert not any("mistake" in i for i in others)


def test_a_line_after_the_ply_branches_from_the_step_after_it() -> None:
    verdict = judged(GAMES / "loses-a-piece.txt")
    assert verdict.analysis is not None
    (mistake,) = verdict.analysis.mistakes
    view = game_view(verdict)
    assert '<span class="mark"' in view.items[4] and ">?</span>" in view.items[4]
    (step,) = [s for s in view.steps if s.label.startswith("Loses material")]
    assert step.parent == mistake.ply
    log = (GAMES / "loses-a-piece.txt").read_text(encoding="utf-8").splitlines()
    played = "\n".join(line for line in log if not line.startswith("["))
    moves = played.split("\n")[: mistake.ply]
    assert step.fen == check_text("\n".join([*moves, *mistake.line])).final_fen


def facts(balance: int | None, mate: MateFact | None = None) -> PositionFacts:
    return PositionFacts(balance, mate=mate)


def test_the_graph_draws_each_known_balance_and_leaves_gaps() -> None:
    plies = [
        PlyAnalysis(n, 1 + n // 2, Side.WHITE, "x", "x", after)
        for n, after in enumerate(
            [facts(2), facts(None), facts(-20), facts(0, MateFact(Side.BLACK, 1))], 1
        )
    ]
    graph = balance_graph(GameAnalysis(2, 2, facts(0), tuple(plies)), width=104, height=40)
    runs = re.findall(r'<polyline points="([^"]+)"', graph)
    points = [[tuple(map(float, p.split(","))) for p in run.split()] for run in runs]
    # x: 4 + 96 * ply / 4; y: 20 - 16 * value / 8 (a value cut at GRAPH_LIMIT)
    assert points == [[(4.0, 20.0), (28.0, 16.0)], [(76.0, 36.0), (100.0, 36.0)]]
    assert GRAPH_LIMIT == 8
    assert 'class="dot"' not in graph


def test_browser_the_line_steps_and_the_graph_opens_the_ply(
    browser: WebDriver, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    verdict = judged(GAMES / "allows-mate-in-1.txt")
    assert verdict.analysis is not None
    (mistake,) = verdict.analysis.mistakes
    page = tmp_path / "game.html"
    page.write_text(write_viewer(verdict), encoding="utf-8")
    browser.get("about:blank")
    browser.get(page.resolve().as_uri() + "#ply=0")
    dot = browser.find_element(By.CSS_SELECTOR, "svg.balance-graph a")
    dot.click()
    label = browser.find_element(By.ID, "ply-label")
    assert label.text == "Move 2, White: g4"
    assert browser.current_url.endswith(f"#ply={mistake.ply}")
    item = browser.find_element(By.CSS_SELECTOR, f'#moves li[data-ply="{mistake.ply}"]')
    assert "current" in str(item.get_attribute("class"))
    assert item.find_element(By.CLASS_NAME, "mark").get_attribute("title") == (
        f"allows-mate: {mistake.reason}"
    )
    item.find_element(By.CSS_SELECTOR, ".analysis-line a").click()
    assert label.text == "Allows mate (move 2, White), not played: 2... Qh4#"
    fen = browser.find_element(By.ID, "fen").text
    assert fen == check_text("P f2-f3\np e7-e5\nP g2-g4\nq d8-h4\n").final_fen
    browser.find_element(By.ID, "prev").click()
    assert browser.find_element(By.ID, "fen").text == mistake.position  # after the ply
    summary = browser.find_element(By.ID, "analysis").text
    assert summary.startswith("Analysis: 0 missed-mate, 1 allows-mate, 0 loses-material")
