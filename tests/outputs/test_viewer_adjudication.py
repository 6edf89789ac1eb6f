"""A game's adjudication in its viewer, whatever ended the game: the box under the verdict
(the record-ended games and FIDE's 6.9 note included), the mating line branching from the
position adjudicated (for an illegal game, the one before its first illegal move, never
after the boards Game Courier showed), the proof's defences as a tree opened a defence at
a time, and the plies of a claimable repetition marked.

Every position the page shows is compared with one the judge gives for the same moves
typed as a log (`check_text`), never with a FEN written here; the browser is a real
headless Chromium.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import FIXTURES

from gcadj.analysis.options import AdjudicateOptions
from gcadj.analysis.proof_steps import drawn_tree
from gcadj.analysis.search import search_mate
from gcadj.app.check import check_text
from gcadj.app.pipeline import JudgeOptions, judge_source
from gcadj.engine.position import Position
from gcadj.judging.verdict import Verdict
from gcadj.outputs.viewer import game_view, write_viewer

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

GAMES = FIXTURES / "adjudicate"
QUICK = JudgeOptions(adjudicate=AdjudicateOptions(mate_depth=2, budget=None, node_limit=200_000))
# White checks, Black has three King moves, each mated at once: a tree of 7 moves.
MATE_IN_2 = '[FEN "1k6/8/2K5/8/8/8/6Q1/8[] w - - 0 20"]\n'


def judged(name: str) -> Verdict:
    (verdict,) = judge_source(str(GAMES / name), QUICK)
    return verdict


def written(verdict: Verdict, folder: Path) -> Path:
    page = folder / "game.html"
    page.write_text(write_viewer(verdict), encoding="utf-8")
    return page


def open_page(browser: WebDriver, page: Path, ply: int | None = None) -> None:
    browser.get("about:blank")
    browser.get(page.resolve().as_uri() + ("" if ply is None else f"#ply={ply}"))


def shown_fen(browser: WebDriver) -> str:
    from selenium.webdriver.common.by import By

    return str(browser.find_element(By.ID, "fen").text)


def disabled(browser: WebDriver, button: str) -> bool:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.ID, button).get_attribute("disabled") is not None


@pytest.mark.parametrize("name", sorted(p.name for p in GAMES.glob("*.txt")))
def test_every_games_page_shows_its_adjudication(name: str) -> None:
    verdict = judged(name)
    adjudication = verdict.adjudication
    assert adjudication is not None
    head = game_view(verdict).head
    assert 'id="adjudication"' in head, name
    for note in adjudication.notes:  # FIDE's 6.9, for a bare King's win on time
        assert html.escape(note) in head
    if adjudication.mate is not None:
        assert "Mating line" in head


def test_a_game_lost_on_time_holding_a_mate_shows_the_record_and_the_mate() -> None:
    verdict = judged("lost-on-time-holding-mate.txt")
    head = game_view(verdict).head
    assert "As recorded" in head and "Black wins" in head
    assert "on the board, White, to move, mates in 1" in head
    assert "Mating line" in head and "Qh5#" in head


def test_browser_an_illegal_games_line_branches_from_the_position_before_it(
    browser: WebDriver, tmp_path: Path
) -> None:
    """The page opens on the illegal move; ▶ from the last board Game Courier showed goes
    nowhere (no jump back in time); the mating line, labelled as played from the position
    before the first illegal move, starts there, and ◀ from it goes back there."""
    from selenium.webdriver.common.by import By

    verdict = judged("illegal-before-mate.txt")
    first, adjudication = verdict.first_illegal, verdict.adjudication
    assert first is not None and adjudication is not None and adjudication.mate is not None
    page = written(verdict, tmp_path)
    open_page(browser, page)
    browser.find_element(By.ID, "last").click()
    end = shown_fen(browser)
    assert disabled(browser, "next") and disabled(browser, "last")
    browser.find_element(By.ID, "next").click()
    assert shown_fen(browser) == end  # the game's boards end here
    box = browser.find_element(By.ID, "adjudication")
    assert "Mating line, from the position before move 3, White" in box.text
    assert "before move 3, White (Q d1-h6), the first illegal move" in box.text
    box.find_element(By.CSS_SELECTOR, ".line a").click()
    typed = verdict.log.records[: first.ply - 1]  # type: ignore[union-attr]
    before = "".join(f"{record.text}\n" for record in typed)
    line = "".join(f"{move}\n" for move in adjudication.mate.line)
    assert shown_fen(browser) == check_text(before + line).final_fen
    label = browser.find_element(By.ID, "ply-label").text
    assert label.startswith("Mating line, from the position before move 3, White, not played")
    browser.find_element(By.ID, "prev").click()
    assert shown_fen(browser) == first.fen_before  # the position before the illegal move
    assert browser.current_url.endswith(f"#ply={first.ply - 1}")


def test_browser_opens_the_proofs_defences_one_at_a_time(
    browser: WebDriver, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    (verdict,) = judge_source("m2.txt", QUICK, text=MATE_IN_2)
    mate = verdict.adjudication.mate  # type: ignore[union-attr]
    assert mate is not None and mate.moves == 2
    attack = mate.tree["move"]
    defences = mate.tree["replies"]
    assert len(defences) >= 3
    page = written(verdict, tmp_path)
    open_page(browser, page)
    proof = browser.find_element(By.CSS_SELECTOR, "#adjudication details.proof")
    proof.find_element(By.TAG_NAME, "summary").click()
    items = proof.find_elements(By.CSS_SELECTOR, "li.defence")
    assert len(items) == len(defences)  # every defence, none left out
    for item, (defence, answer) in zip(items, defences.items(), strict=True):
        links = item.find_elements(By.TAG_NAME, "a")
        links[0].click()  # the defence: the board after the winner's move and it
        assert shown_fen(browser) == check_text(MATE_IN_2 + f"{attack}\n{defence}\n").final_fen
        browser.find_element(By.ID, "next").click()  # on along this defence: the answer
        mated = check_text(MATE_IN_2 + f"{attack}\n{defence}\n{answer['move']}\n")
        assert shown_fen(browser) == mated.final_fen and mated.termination == "checkmate"
        assert disabled(browser, "next")
        browser.find_element(By.ID, "prev").click()
        browser.find_element(By.ID, "prev").click()  # back to the winner's first move
        assert shown_fen(browser) == check_text(MATE_IN_2 + f"{attack}\n").final_fen


def test_a_proof_is_drawn_by_whole_levels_within_its_limit() -> None:
    position = Position.starting_at("1k6/8/2K5/8/8/8/6Q1/8[] w - - 0 20")
    proof = search_mate(position, 2).proof
    assert proof is not None and proof.tree.size() == 7
    whole, moves = drawn_tree(position, proof.tree, "i")
    assert moves == 7 and len(whole[0].answers) == 3
    assert all(len(defence.answers) == 1 for defence in whole[0].answers)
    cut, moves = drawn_tree(position, proof.tree, "i", limit=5)  # the answers do not fit
    assert moves == 4 and all(defence.answers == () for defence in cut[0].answers)


def test_browser_marks_the_plies_of_a_repetition(browser: WebDriver, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    verdict = judged("repetition.txt")
    plies = verdict.adjudication.repeated_plies  # type: ignore[union-attr]
    assert len(plies) == 3
    page = written(verdict, tmp_path)
    open_page(browser, page)
    marked = browser.find_elements(By.CSS_SELECTOR, "#moves li.repeated")
    assert [int(li.get_attribute("data-ply") or -1) for li in marked] == list(plies)
    for n, li in enumerate(marked, 1):
        assert f"↻ this position, {('1st', '2nd', '3rd')[n - 1]} of 3 times" in li.text
        li.find_element(By.TAG_NAME, "a").click()
        assert shown_fen(browser).split()[:3] == verdict.final_fen.split()[:3]  # type: ignore[union-attr]
    box = browser.find_element(By.ID, "adjudication").text
    assert "The position stood 3 times" in box


# -- the viewers gcadj writes: export --to html --adjudicate, and the audit's -----------------


def gcadj_run(*args: str) -> str:
    """What `gcadj ARGS` prints, which must end with exit 0 or 1 (an illegal game)."""
    from conftest import invoke_gcadj

    done = invoke_gcadj(*args)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


SEARCH = ("--mate-depth", "2", "--nodes", "200000", "--budget", "600")


def steps_of(page: str) -> list[dict[str, object]]:
    from viewer_pages import page_data

    games = page_data(page)["games"]
    assert isinstance(games, list)
    steps: list[dict[str, object]] = games[0]["steps"]
    return steps


@pytest.mark.parametrize("name", ["illegal-before-mate.txt", "lost-on-time-holding-mate.txt"])
def test_export_to_html_carries_the_adjudication_when_asked(name: str) -> None:
    game = str(GAMES / name)
    plain = gcadj_run("export", "--to", "html", game)
    assert 'id="adjudication"' not in plain  # not asked: the viewer of the game alone
    page = gcadj_run("export", "--to", "html", "--adjudicate", *SEARCH, game)
    expected = game_view(judged(name))
    assert expected.head in page  # the same box as the served page and the audit's
    assert [(s["f"], s.get("p")) for s in steps_of(page)] == [
        (step.fen, step.parent) for step in expected.steps
    ]  # the same steps, the lines branching from the same one
    document = gcadj_run("export", "--to", "json", "--adjudicate", *SEARCH, game)
    import json

    adjudication = json.loads(document)["verdict"]["adjudication"]
    assert adjudication["class"] == judged(name).adjudication.kind.value  # type: ignore[union-attr]


def test_the_audits_viewers_carry_the_adjudication(tmp_path: Path) -> None:
    import shutil

    from gcadj.outputs.viewer import viewer_filename

    folder = tmp_path / "games"
    shutil.copytree(GAMES, folder)
    viewers = tmp_path / "viewers"
    gcadj_run(
        "audit", str(folder), "--adjudicate", *SEARCH, "-q",
        "-o", str(tmp_path / "a.jsonl"), "--viewer-dir", str(viewers), "--viewers", "all",
    )  # fmt: skip
    for source in sorted(folder.glob("*.txt")):
        page = (viewers / viewer_filename(str(source))).read_text(encoding="utf-8")
        (verdict,) = judge_source(str(source), QUICK)
        assert game_view(verdict).head in page, source.name
