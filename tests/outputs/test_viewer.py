"""The HTML game viewer (`gcadj export --to html`): its page, then driven in headless Chromium.

The browser tests compare what the page shows with what the library computes
independently (`export --to fen`), never with numbers written here.
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import FIXTURES, ROOT, invoke_gcadj
from viewer_pages import page_data

from gcadj.about import GENERATOR_META
from gcadj.app.check import check_text
from gcadj.engine.pieces import KINDS
from gcadj.errors import ExportError
from gcadj.judging.verdict import Suggestion, Verdict
from gcadj.outputs.plain_words import CATEGORY_SENTENCES
from gcadj.outputs.viewer import write_viewer
from gcadj.outputs.writers.fen import write_fens

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

EXAMPLES = FIXTURES / "examples"
EX1 = EXAMPLES / "ex1_pocket_mutation_drops.txt"
EX5 = EXAMPLES / "ex5_syntax_variants.txt"
SCREENSHOT = ROOT / "docs" / "viewer.png"


def verdict_of(path: Path) -> Verdict:
    return check_text(path.read_text(encoding="utf-8"), path.name)


def fens(verdict: Verdict) -> list[str]:
    return write_fens(verdict).splitlines()


# -- the page itself ------------------------------------------------------------------------


def test_the_page_is_self_contained_and_marked_as_gcadj_output() -> None:
    page = write_viewer(verdict_of(EX1))
    assert page.startswith("<!DOCTYPE html>") and GENERATOR_META in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)  # loads nothing
    assert "<link" not in page and "@import" not in page and "url(" not in page
    # the kit, the game data and the games as Game Courier text (JSON), the viewer's code
    assert page.count("<script") == 4


def test_every_position_and_every_piece_letter_is_in_the_page() -> None:
    verdict = verdict_of(EX1)
    page = write_viewer(verdict)
    for fen in fens(verdict):
        assert f'"f":"{fen}"' in page
    legend = str(page_data(page, "gcadj-kit")["legend"])
    for kind in KINDS:
        assert f'<td class="letter">{kind.letter}</td><td>{kind.name}</td>' in legend
    assert legend.count('<td class="letter">') == len(KINDS) == 19


def test_untrusted_text_is_escaped() -> None:
    log = (
        '[White "<script>alert(1)</script>"]\n[Site "javascript:alert(2)"]\n'
        "P e2-e4 // </script><img src=x onerror=alert(3)>\n"
        "p e7-e5\nK e1-e3 // <b>bold</b>\n"
    )
    page = write_viewer(check_text(log, "<i>source</i>"))
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<img" not in page and "&lt;img src=x onerror=alert(3)&gt;" in page
    assert "<b>bold" not in page and "<i>source" not in page
    assert "javascript:" in page and 'href="javascript:' not in page  # shown, never linked
    data = page[page.index('id="game-data"') :]
    assert "</script>" not in data[: data.index("</script>")]  # nothing closes the data early


def test_an_illegal_game_shows_its_finding_and_suggestions() -> None:
    verdict = verdict_of(EX5)
    finding = verdict.first_illegal
    assert finding is not None
    page = write_viewer(verdict)
    # a step of its own after 6 legal plies, and the board Game Courier showed after it
    assert f'<li data-ply="7" data-after="8" class="illegal" data-typed="{finding.text}"' in page
    sentence = CATEGORY_SENTENCES[finding.category]
    assert f'<b class="term" title="{finding.category}">{sentence}</b>' in page
    assert finding.suggestions and "Did you mean" in page  # the judge's own suggestions
    bare = dataclasses.replace(finding, suggestions=())
    page = write_viewer(dataclasses.replace(verdict, first_illegal=bare))
    assert "Did you mean" not in page  # no suggestions: no empty box
    suggested = dataclasses.replace(
        finding, suggestions=(Suggestion("I i1-d5", "I@d5", "a drop names the pocket"),)
    )
    page = write_viewer(dataclasses.replace(verdict, first_illegal=suggested))
    assert (
        'Did you mean:<ul><li class="suggestion" data-fix="I i1-d5"><code>I i1-d5</code> '
        "(I@d5) — a drop names the pocket" in page
    )
    # every later ply is a step on the board Game Courier showed, not judged
    assert page.count('class="shown"') + page.count('class="unjudged"') == (
        verdict.plies - finding.ply
    )


def partial_verdict() -> Verdict:
    """A verdict as issue 11 gives for a log cut by an unreadable ply 5: the four plies
    before it are the log, judged legal; status syntax-error, error with file:line:col."""
    full = verdict_of(EX1)
    assert full.log is not None
    log = dataclasses.replace(full.log, records=full.log.records[:4])
    return dataclasses.replace(
        full,
        status="syntax-error",
        plies=4,
        legal_plies=4,
        result="*",
        termination=None,
        final_fen=fens(full)[4],
        moves=full.moves[:4],
        log=log,
        error="ex1:9:1: syntax error: unexpected 'Q?? d1'",
    )


def test_a_partial_verdict_shows_the_readable_plies_and_the_error() -> None:
    verdict = partial_verdict()
    page = write_viewer(verdict)
    assert page.count('<li data-ply="') == 5  # start and four plies
    assert "Every move is legal up to move 2, Black; move 3, White could not be read" in page
    assert '<li class="illegal unreadable"><span class="num">Move 3, White</span>' in page
    assert '<p class="message">ex1:9:1: syntax error: unexpected &#x27;Q?? d1&#x27;</p>' in page
    assert f'"f":"{verdict.final_fen}"' in page


def test_a_verdict_without_a_game_is_refused() -> None:
    verdict = check_text("P e2-e4 (((\n", "bad")
    assert verdict.log is None
    with pytest.raises(ExportError, match="no game to show"):
        write_viewer(verdict)


def test_the_cli_writes_the_viewer(tmp_path: Path) -> None:

    target = tmp_path / "game.html"
    result = invoke_gcadj("export", str(EX5), "--to", "html", "-o", str(target))
    assert result.returncode == 0, result.stderr
    assert "is illegal" in result.stderr and GENERATOR_META in target.read_text()
    again = invoke_gcadj("export", str(EX5), "--to", "html", "-o", str(target))
    assert again.returncode == 2  # never over an existing file without --force
    ply = invoke_gcadj("export", str(EX5), "--to", "html", "--ply", "3")
    assert ply.returncode == 2 and "#ply=N" in ply.stderr


# -- in a browser -----------------------------------------------------------------------


def open_viewer(browser: WebDriver, page: Path, ply: int | None = None) -> None:
    url = page.resolve().as_uri() + ("" if ply is None else f"#ply={ply}")
    browser.get("about:blank")  # a new document every time
    browser.get(url)


def shown_fen(browser: WebDriver) -> str:
    from selenium.webdriver.common.by import By

    return str(browser.find_element(By.ID, "fen").text)


def press(browser: WebDriver, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys(key).perform()


@pytest.fixture
def ex1_page(tmp_path: Path) -> tuple[Path, list[str]]:
    verdict = verdict_of(EX1)
    page = tmp_path / "ex1.html"
    page.write_text(write_viewer(verdict), encoding="utf-8")
    return page, fens(verdict)


def test_browser_opens_at_ply_n_and_steps_with_the_keys(
    browser: WebDriver, ex1_page: tuple[Path, list[str]]
) -> None:
    from selenium.webdriver.common.keys import Keys

    page, expected = ex1_page
    open_viewer(browser, page, 5)
    assert shown_fen(browser) == expected[5]
    press(browser, Keys.ARROW_RIGHT)
    assert shown_fen(browser) == expected[6]
    assert browser.current_url.endswith("#ply=6")
    press(browser, Keys.ARROW_LEFT)
    press(browser, Keys.ARROW_LEFT)
    assert shown_fen(browser) == expected[4]
    press(browser, Keys.END)
    assert shown_fen(browser) == expected[-1]
    press(browser, Keys.ARROW_RIGHT)  # past the end: stays
    assert shown_fen(browser) == expected[-1]
    press(browser, Keys.HOME)
    assert shown_fen(browser) == expected[0]
    assert browser.current_url.endswith("#ply=0")


def test_browser_click_on_a_move_and_on_the_buttons(
    browser: WebDriver, ex1_page: tuple[Path, list[str]]
) -> None:
    from selenium.webdriver.common.by import By

    page, expected = ex1_page
    open_viewer(browser, page)
    assert shown_fen(browser) == expected[-1]  # no address: the end of the game
    browser.find_element(By.CSS_SELECTOR, '#moves li[data-ply="3"] a').click()
    assert shown_fen(browser) == expected[3]
    current = browser.find_elements(By.CSS_SELECTOR, "#moves li.current")
    assert [li.get_attribute("data-ply") for li in current] == ["3"]
    browser.find_element(By.ID, "next").click()
    assert shown_fen(browser) == expected[4]
    browser.find_element(By.ID, "first").click()
    assert shown_fen(browser) == expected[0]
    assert browser.find_element(By.ID, "prev").get_attribute("disabled") is not None


def test_browser_draws_the_position_it_shows(
    browser: WebDriver, ex1_page: tuple[Path, list[str]]
) -> None:
    from selenium.webdriver.common.by import By

    page, expected = ex1_page
    for ply in (0, 4, len(expected) - 1):
        open_viewer(browser, page, ply)
        letters = browser.find_elements(By.CSS_SELECTOR, "#pieces text")
        placement = expected[ply].split(" ")[0]
        assert sorted(t.text for t in letters) == sorted(
            c.upper() for c in placement if c.isalpha()
        )
        last = browser.find_elements(By.CSS_SELECTOR, '#marks rect[fill="#f2e14c"]')
        assert len(last) == (0 if ply == 0 else 2)


def test_browser_shows_the_illegal_ply_in_red(browser: WebDriver, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    verdict = verdict_of(EX5)
    finding = verdict.first_illegal
    assert finding is not None
    page = tmp_path / "ex5.html"
    page.write_text(write_viewer(verdict), encoding="utf-8")
    open_viewer(browser, page, finding.ply)
    assert shown_fen(browser) == finding.fen_before
    item = browser.find_element(By.CSS_SELECTOR, "#moves li.current")
    assert "illegal" in (item.get_attribute("class") or "")
    assert CATEGORY_SENTENCES[finding.category] in item.text  # a player's words
    term = item.find_element(By.CSS_SELECTOR, ".term")
    assert term.get_attribute("title") == finding.category  # the precise term on hover
    red = browser.find_elements(By.CSS_SELECTOR, '#marks [stroke="#d01c1c"]')
    assert red  # the drop's square outlined
    colour = item.value_of_css_property("background-color")
    r, g, b = (int(v) for v in re.findall(r"\d+", colour)[:3])
    assert r - g > 40 and abs(g - b) < 10  # a red tint, not the yellow of other plies
    if os.environ.get("GCADJ_REGEN") == "1":  # the picture of the README and the manual
        browser.set_window_size(1280, 900)
        browser.save_screenshot(str(SCREENSHOT))


def test_browser_partial_verdict(browser: WebDriver, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    verdict = partial_verdict()
    page = tmp_path / "partial.html"
    page.write_text(write_viewer(verdict), encoding="utf-8")
    open_viewer(browser, page, 99)  # beyond the end: the last readable position
    assert shown_fen(browser) == verdict.final_fen
    text = browser.find_element(By.ID, "moves").text
    assert "unreadable" in text and "syntax error" in text


def test_the_readme_and_the_manual_show_a_screenshot_of_the_viewer() -> None:
    assert SCREENSHOT.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "](docs/viewer.png)" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](viewer.png)" in (ROOT / "docs" / "convert.md").read_text(encoding="utf-8")


# -- an unfinished game's adjudication ------------------------------------------------------

MATE_IN_2 = '[FEN "1k6/8/2K5/8/8/8/8/7R[] b - - 0 1"]\nk b8-a8\n'


def test_an_unfinished_games_adjudication_and_its_mating_line_are_steps_after_the_game() -> None:
    import gcadj
    from gcadj.outputs.viewer import game_view

    (game,) = gcadj.adjudicate("m.txt", text=MATE_IN_2)
    mate = game.adjudication.mate
    assert mate is not None and mate.moves == 2
    view = game_view(game)
    played = game.plies
    assert view.initial == played  # the page opens at the game's end, not the line's
    line_steps = view.steps[played + 1 : played + 1 + len(mate.line)]
    assert len(line_steps) == len(mate.line)
    for n, step in enumerate(line_steps, 1):  # each position: the game with the line's moves
        longer = MATE_IN_2 + "".join(f"{move}\n" for move in mate.line[:n])
        assert step.fen == check_text(longer).final_fen
        assert step.label.startswith("Mating line, not played:") and mate.san[n - 1] in step.label
        assert step.parent == played + n - 1  # each follows the one before it, from the end
    assert check_text(MATE_IN_2 + "\n".join(mate.line) + "\n").termination == "checkmate"
    head = view.head
    assert '<div class="adjudication proven"' in head and "White wins" in head
    assert game.adjudication.reason in head
    for step, san in zip(range(played + 1, played + 1 + len(mate.san)), mate.san, strict=True):
        assert f'<li data-ply="{step}"><a href="#ply={step}">' in head and san in head
    assert "Material: White 3, Black 0" in head


def test_a_finished_game_shows_its_adjudication_too() -> None:
    import gcadj
    from gcadj.outputs.viewer import game_view

    (game,) = gcadj.adjudicate("f.txt", text="P f2-f3\np e7-e5\nP g2-g4\nq d8-h4\n")
    assert game.termination == "checkmate" and game.adjudication is not None
    view = game_view(game)
    assert '<div class="adjudication proven"' in view.head and "Black wins" in view.head
    assert "Black won by checkmate" in view.head
    assert len(view.steps) == game.plies + 1  # no line: the board has ended
