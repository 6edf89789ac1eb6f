"""Several games in one viewer page (`gcadj export --to html` of a folder or a database):
every game is in the page, with a game list, and the address names the game and the ply.
Driven in headless Chromium; what the page shows is compared with `export --to fen`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import FIXTURES, invoke_gcadj
from viewer_pages import page_data

from gcadj.app.check import check_text
from gcadj.outputs.game_export import export_game
from gcadj.outputs.registry import writers
from gcadj.outputs.viewer import write_games_viewer
from gcadj.outputs.writers.fen import write_fens

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

EXAMPLES = FIXTURES / "examples"
EX1 = EXAMPLES / "ex1_pocket_mutation_drops.txt"
EX5 = EXAMPLES / "ex5_syntax_variants.txt"
P_PAGE = FIXTURES / "pages" / "pmc_pocket_p_code.html"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    games = tmp_path / "games"
    games.mkdir()
    (games / "a.txt").write_text(EX1.read_text(encoding="utf-8"), encoding="utf-8")
    (games / "b.txt").write_text(EX5.read_text(encoding="utf-8"), encoding="utf-8")
    return games


def test_a_folder_of_two_games_makes_one_page_holding_both(folder: Path, tmp_path: Path) -> None:
    target = tmp_path / "both.html"
    done = invoke_gcadj("export", str(folder), "--to", "html", "-v", "-o", str(target))
    assert done.returncode == 0, done.stderr
    assert f"wrote 2 games to {target}" in done.stderr
    page = target.read_text(encoding="utf-8")
    games = page_data(page)["games"]
    assert isinstance(games, list) and len(games) == 2
    for game, path in zip(games, ("a.txt", "b.txt"), strict=True):
        fens = write_fens(check_text((folder / path).read_text(encoding="utf-8"))).splitlines()
        assert [step["f"] for step in game["steps"]][: len(fens)] == fens
        assert str(folder / path) in page  # each game's source is in its facts
    assert page.count('<template class="game-parts"') == 2
    assert page.count("<option value=") == 2 and 'href="#game=2&amp;ply=' in page


def test_a_two_game_database_makes_one_page_holding_both(tmp_path: Path) -> None:
    database = tmp_path / "db.pgn"
    verdicts = [check_text(p.read_text(encoding="utf-8"), p.name) for p in (EX1, EX5)]
    database.write_text("\n".join(export_game(v, "pgn") for v in verdicts), encoding="utf-8")
    done = invoke_gcadj("export", str(database), "--to", "html", "-v")
    assert done.returncode == 0, done.stderr
    assert "wrote 2 games to standard output" in done.stderr
    games = page_data(done.stdout)["games"]
    assert isinstance(games, list) and len(games) == 2
    assert f"{database}#1" in done.stdout and f"{database}#2" in done.stdout


def test_every_multi_game_export_writes_every_game(folder: Path) -> None:
    """What `-v` says was written is what the output holds, for each format that takes
    several games; the others refuse several games (exit 2) and write nothing."""
    counted = {
        "pgn": lambda out: out.count('[Variant "Pocket Mutation Chess"]'),
        "html": lambda out: len(page_data(out)["games"]),  # type: ignore[arg-type]
    }
    assert set(counted) == {name for name, writer in writers().items() if writer.many}
    for fmt in writers():
        done = invoke_gcadj("export", str(folder), str(EX1), "--to", fmt, "-v")
        if fmt in counted:
            assert done.returncode == 0, (fmt, done.stderr)
            assert "wrote 3 games" in done.stderr and counted[fmt](done.stdout) == 3
        else:
            assert done.returncode == 2 and done.stdout == "", fmt
            assert "writes one game" in done.stderr and "wrote" not in done.stderr


def test_games_of_both_presets_share_a_page(tmp_path: Path) -> None:
    verdicts = [
        check_text(EX1.read_text(encoding="utf-8"), "i.txt"),
        check_text("P e2-e4\np e7-e5\nR h1-p1; I-p1\n", "p.txt", pocket_file="p"),
    ]
    page = write_games_viewer(verdicts)
    data = page_data(page)
    assert [game["bg"] for game in data["games"]] == ["i", "p"]  # type: ignore[index, union-attr]
    backgrounds = page_data(page, "gcadj-kit")["backgrounds"]
    assert isinstance(backgrounds, dict) and set(backgrounds) == {"i", "p"}
    assert backgrounds["i"] != backgrounds["p"]  # the ninth file is lettered for each


# -- in a browser -----------------------------------------------------------------------


def shown_fen(browser: WebDriver) -> str:
    from selenium.webdriver.common.by import By

    return str(browser.find_element(By.ID, "fen").text)


@pytest.fixture
def two_games(tmp_path: Path) -> tuple[Path, list[list[str]]]:
    verdicts = [check_text(p.read_text(encoding="utf-8"), p.name) for p in (EX1, EX5)]
    page = tmp_path / "two.html"
    page.write_text(write_games_viewer(verdicts), encoding="utf-8")
    return page, [write_fens(v).splitlines() for v in verdicts]


def test_browser_opens_the_game_and_ply_the_address_names(
    browser: WebDriver, two_games: tuple[Path, list[list[str]]]
) -> None:
    from selenium.webdriver.common.by import By

    page, fens = two_games
    browser.get("about:blank")
    browser.get(page.resolve().as_uri())
    assert shown_fen(browser) == fens[0][-1]  # no address: the first game, at its end
    assert browser.current_url.endswith(f"#game=1&ply={len(fens[0]) - 1}")
    browser.get("about:blank")
    browser.get(page.resolve().as_uri() + "#game=2&ply=3")
    assert shown_fen(browser) == fens[1][3]
    heading = browser.find_element(By.CSS_SELECTOR, "#game-head h1").text
    assert heading == "ex5_syntax_variants.txt"
    items = browser.find_elements(By.CSS_SELECTOR, "#moves li")
    assert any("I*d5" in item.text for item in items)  # game 2's moves, not game 1's
    current = browser.find_elements(By.CSS_SELECTOR, "#moves li.current")
    assert [li.get_attribute("data-ply") for li in current] == ["3"]


def test_browser_switches_games_with_the_menu_and_the_links(
    browser: WebDriver, two_games: tuple[Path, list[list[str]]]
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    page, fens = two_games
    browser.get("about:blank")
    browser.get(page.resolve().as_uri())
    Select(browser.find_element(By.ID, "game-select")).select_by_value("2")
    assert browser.current_url.endswith("#game=2&ply=7")  # ex5's illegal ply, its last step
    finding = check_text(EX5.read_text(encoding="utf-8")).first_illegal
    assert finding is not None and shown_fen(browser) == finding.fen_before
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
    assert shown_fen(browser) == fens[1][0]
    browser.find_element(By.CSS_SELECTOR, '#moves li[data-ply="2"] a').click()
    assert shown_fen(browser) == fens[1][2] and browser.current_url.endswith("#game=2&ply=2")
    browser.find_element(By.CSS_SELECTOR, '#game-links a[href^="#game=1"]').click()
    assert shown_fen(browser) == fens[0][-1]
    assert Select(browser.find_element(By.ID, "game-select")).first_selected_option.text.startswith(
        "1."
    )
    assert not any("I*d5" in li.text for li in browser.find_elements(By.CSS_SELECTOR, "#moves li"))


def test_browser_numbers_the_game_list_once(
    browser: WebDriver, two_games: tuple[Path, list[list[str]]]
) -> None:
    """The list reads "1. Alice – Bob": the list's own number, not "1. 1. Alice – Bob"."""
    from selenium.webdriver.common.by import By

    page, _ = two_games
    browser.get("about:blank")
    browser.get(page.resolve().as_uri())
    items = browser.find_elements(By.CSS_SELECTOR, "#game-links li")
    assert len(items) == 2
    for number, item in enumerate(items, 1):
        marker = browser.execute_script("return getComputedStyle(arguments[0]).listStyleType", item)
        assert marker == "decimal" and item.get_attribute("value") in (None, str(number))
        assert not re.match(r"\s*\d+\.", item.text)  # the marker is the only number
