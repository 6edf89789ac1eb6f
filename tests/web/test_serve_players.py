"""`gcadj serve` as players use it, in headless Chromium against a real server, at a
phone's 390 pixels and a desktop's 1,280: a result's address (reloaded, opened in a fresh
browser, after a restart, with ``#ply=N``), every slip when asked, errors laid out for
reading, a player's words, edit and retry, the upload's name, the flipped board, stepping
past the illegal ply on the board Game Courier showed, and no text under 12 px.

Every expected value comes from the library (`judge_source`, `parse_log`, the exports)
or from a computation written here independently (the literal board), never typed in.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import requests
from conftest import FIXTURES, ROOT, start_browser
from serving import Server, running_server, wait_for, zip_of

from gcadj.app.pipeline import JudgeOptions, judge_source
from gcadj.errors import LogSyntaxError
from gcadj.notation.parse import parse_log
from gcadj.outputs.plain_words import CATEGORY_SENTENCES, move_words
from gcadj.outputs.svg_diagram import board_kit
from gcadj.outputs.writers.fen import write_fens
from gcadj.web.result_pages import not_a_game

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

EX1 = FIXTURES / "examples" / "ex1_pocket_mutation_drops.txt"
DOCS = ROOT / "docs"
REGEN = os.environ.get("GCADJ_REGEN") == "1"
EX5 = FIXTURES / "examples" / "ex5_syntax_variants.txt"
WIDTHS = (390, 1280)
# Three slips (plies 3, 5 and 9), each a piece moved where it cannot go.
SLIPS = "P e2-e4\np e7-e5\nN g1-g3\np d7-d6\nB f1-a5\nn b8-c6\nP d2-d3\nn g8-f6\nQ d1-d8\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("serve-players")
    with running_server(tmp, "--jobs", "2") as s:
        yield s


def at_width(browser: WebDriver, width: int) -> WebDriver:
    """The browser as a phone (390 CSS pixels, mobile) or a desktop (1,280)."""
    height = 844 if width < 500 else 900
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    return browser


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def page(browser: WebDriver, request: pytest.FixtureRequest) -> Iterator[WebDriver]:
    try:
        yield at_width(browser, request.param)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def paste(browser: WebDriver, server: Server, text: str, *, every: bool = False) -> None:
    """Paste a text into the home page's form, as a person would, and press Check; wait
    for the result's page."""
    from selenium.webdriver.common.by import By

    browser.get(server.url)
    box = browser.find_element(By.NAME, "text")
    browser.execute_script("arguments[0].value = arguments[1];", box, text)
    if every:
        browser.find_element(By.NAME, "all").click()
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(lambda: "/r/" in browser.current_url and shown(browser, ".made"))


def shown(browser: WebDriver, selector: str) -> str:
    """The text of the first element `selector` finds, "" when none (yet)."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By

    try:
        found = browser.find_elements(By.CSS_SELECTOR, selector)
        return found[0].text if found else ""
    except WebDriverException:
        return ""


def fen_shown(browser: WebDriver) -> str:
    return shown(browser, "#fen")


# -- 1. every result has an address ----------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS, ids=lambda w: f"{w}px")
def test_a_result_opens_again_reloaded_in_a_fresh_browser_and_after_a_restart(
    browser: WebDriver, tmp_path: Path, width: int
) -> None:
    from selenium.webdriver.common.by import By

    text = EX5.read_text("utf-8")
    (verdict,) = judge_source("pasted text", text=text)
    finding = verdict.first_illegal
    assert finding is not None
    positions = write_fens(verdict).splitlines()
    flags = ("--data", str(tmp_path / "data"), "--jobs", "1")

    def same_verdict(driver: WebDriver) -> None:
        where = move_words(finding.move_number, finding.side)
        assert shown(driver, ".verdict").startswith(f"M{where[1:]}, {finding.text}, is illegal")
        assert fen_shown(driver) == finding.fen_before

    at_width(browser, width)
    with running_server(tmp_path / "first", *flags) as server:
        port = server.port  # any free one; the second server listens on the same
        paste(browser, server, text)
        address = browser.current_url
        assert re.fullmatch(rf"http://127\.0\.0\.1:{port}/r/[\w-]{{24}}#ply={finding.ply}", address)
        same_verdict(browser)
        assert browser.find_elements(By.CSS_SELECTOR, "form[action$='/delete'] button")
        browser.refresh()  # reloaded: the same page, at the same ply
        same_verdict(browser)
        fresh = at_width(start_browser(tmp_path / "fresh-profile"), width)
        try:
            fresh.get(address)  # another browser: same verdict, no delete button
            same_verdict(fresh)
            assert not fresh.find_elements(By.CSS_SELECTOR, "form[action$='/delete'] button")
            fresh.get("about:blank")
            fresh.get(address.split("#")[0] + "#ply=3")  # a bookmark of a position
            assert fen_shown(fresh) == positions[3]
        finally:
            fresh.quit()
    with running_server(tmp_path / "second", *flags, "--port", str(port)):  # the same data
        fresh = at_width(start_browser(tmp_path / "after-restart"), width)
        try:
            fresh.get(address)
            same_verdict(fresh)
        finally:
            fresh.quit()
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_owner_deletes_a_result_and_its_address_then_says_so(
    server: Server, page: WebDriver
) -> None:
    from selenium.webdriver.common.by import By

    paste(page, server, EX1.read_text("utf-8"))
    address = page.current_url.split("#")[0]
    page.find_element(By.CSS_SELECTOR, "form[action$='/delete'] button").click()
    wait_for(lambda: "The result is deleted" in shown(page, "body"))
    page.get(address)
    assert "Not found" in shown(page, "h1") and "kept 30 days" in shown(page, "body")


# -- 2. every illegal ply, when asked ---------------------------------------------------------


def test_three_slips_are_shown_when_every_illegal_move_is_asked_for(
    server: Server, page: WebDriver
) -> None:
    from selenium.webdriver.common.by import By

    (every,) = judge_source("x", JudgeOptions(all_findings=True), text=SLIPS)
    assert [f.ply for f in every.illegal] == [3, 5, 9]
    paste(page, server, SLIPS, every=True)
    items = page.find_elements(By.CSS_SELECTOR, "#moves li.illegal")
    assert len(items) == 3
    for item, finding in zip(items, every.illegal, strict=True):
        text = item.get_attribute("textContent") or ""
        assert finding.text in text and finding.reason[1:] in text  # its first letter capital
        assert CATEGORY_SENTENCES[finding.category] in text
        fixes = [s.get_attribute("data-fix") for s in item.find_elements(By.CSS_SELECTOR, "li")]
        assert fixes == [s.text for s in finding.suggestions]
    assert "3 illegal moves in all" in shown(page, ".verdict")
    paste(page, server, SLIPS)  # not asked: the first only
    assert len(page.find_elements(By.CSS_SELECTOR, "#moves li.illegal")) == 1


# -- 3. errors laid out for reading ------------------------------------------------------------


def test_a_syntax_error_shows_its_line_with_the_caret_under_the_column(
    server: Server, page: WebDriver
) -> None:
    from selenium.webdriver.common.by import By

    text = "P e2-e4\np e7 e5\n"
    with pytest.raises(LogSyntaxError) as caught:
        parse_log(text, "pasted text")
    error = caught.value
    paste(page, server, text)
    excerpt = page.find_element(By.CSS_SELECTOR, "pre.excerpt")
    assert excerpt.text == f"{error.line_text}\n{' ' * (error.column - 1)}^"
    # the caret stands under the character the error is at, as the browser draws them
    xs = page.execute_script(
        """var node = arguments[0].firstChild, text = node.data, out = [];
        var caret = text.lastIndexOf('^'), at = arguments[1];
        [at, caret].forEach(function (i) {
          var range = document.createRange();
          range.setStart(node, i); range.setEnd(node, i + 1);
          out.push(range.getBoundingClientRect().left);
        });
        return out;""",
        excerpt,
        error.column - 1,
    )
    assert abs(xs[0] - xs[1]) < 1
    hint = page.find_element(By.CSS_SELECTOR, "p.hint")
    assert hint.text == f"Hint: {error.hint}"
    assert hint.location["y"] > excerpt.location["y"]  # the hint below the excerpt


def test_text_that_is_no_game_says_what_gcadj_expected_with_an_example(
    server: Server, page: WebDriver
) -> None:
    from selenium.webdriver.common.by import By

    paste(page, server, "Hello, this is my letter to you.\nBest regards\n")
    body = shown(page, "body")
    assert "This is not a game gcadj can read." in body
    example = re.search(r"<pre>(.*?)</pre>", not_a_game(), re.S)
    assert example is not None
    shown_example = [p.text for p in page.find_elements(By.TAG_NAME, "pre")]
    assert example[1] in shown_example
    (verdict,) = judge_source("x", text=example[1] + "\n")
    assert verdict.status == "legal"  # the example is a game gcadj reads
    assert page.find_element(By.ID, "editor-text").get_attribute("value") == (
        "Hello, this is my letter to you.\nBest regards\n"
    )


# -- 4. a player's words --------------------------------------------------------------------------


def test_the_pages_speak_of_moves_sentences_and_unfinished_games(
    server: Server, page: WebDriver
) -> None:
    from selenium.webdriver.common.by import By

    (verdict,) = judge_source("x", text=EX5.read_text("utf-8"))
    finding = verdict.first_illegal
    assert finding is not None
    paste(page, server, EX5.read_text("utf-8"))
    banner = page.find_element(By.CSS_SELECTOR, ".verdict")
    assert banner.text.startswith(f"Move {finding.move_number}, White")
    precise = banner.find_elements(By.CSS_SELECTOR, ".term")
    assert precise[0].get_attribute("title") == f"ply {finding.ply}"  # on hover
    assert precise[1].text == CATEGORY_SENTENCES[finding.category]
    assert precise[1].get_attribute("title") == finding.category
    where = f"position before move {finding.move_number}, White ({finding.text})"
    assert where in shown(page, "#adjudication")  # the adjudication says it so too
    words = " ".join(shown(page, s) for s in (".verdict", "#adjudication", "#ply-label", "#moves"))
    assert not re.search(r"\bply\b|\[|" + re.escape(finding.category), words, re.I)
    paste(page, server, EX1.read_text("utf-8"))  # legal, unfinished
    result = page.find_element(By.CSS_SELECTOR, ".facts .term")
    assert result.text == "Game not finished" and result.get_attribute("title").startswith("*")
    assert "Game not finished" in shown(page, ".verdict")


# -- 5. edit and retry ----------------------------------------------------------------------------


def test_a_correction_is_one_click_away_and_the_judge_accepts_it(
    server: Server, page: WebDriver
) -> None:
    from selenium.webdriver.common.by import By

    (first,) = judge_source("x", text=SLIPS)
    finding = first.first_illegal
    assert finding is not None and finding.ply == 3
    paste(page, server, SLIPS)
    before = page.current_url
    editor = page.find_element(By.ID, "editor-text")
    assert editor.get_attribute("value") == SLIPS  # the text as given, back in an editor
    button = page.find_element(By.CSS_SELECTOR, "#moves li.illegal li.suggestion .use-fix")
    page.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    button.click()
    corrected = editor.get_attribute("value") or ""
    best = finding.suggestions[0].text
    assert corrected == SLIPS.replace(finding.text, best, 1)
    (again,) = judge_source("x", text=corrected)  # what the judge says of the correction
    assert again.first_illegal is not None and again.first_illegal.ply == 5
    submit = page.find_element(By.CSS_SELECTOR, "#editor button[type=submit]")
    page.execute_script("arguments[0].scrollIntoView({block: 'center'});", submit)
    submit.click()
    wait_for(
        lambda: page.current_url.split("#")[0] != before.split("#")[0] and shown(page, ".made")
    )
    nxt = again.first_illegal
    assert shown(page, ".verdict").startswith(f"Move {nxt.move_number}, White, {nxt.text}")
    assert page.find_element(By.ID, "editor-text").get_attribute("value") == corrected


# -- 6. the names a person gave --------------------------------------------------------------------


def test_an_upload_is_titled_and_downloaded_under_its_own_name(
    server: Server, page: WebDriver, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    members = {f"g{i}.txt": path.read_bytes() for i, path in enumerate((EX1, EX5, EX1))}
    archive = tmp_path / "club games 2024.zip"
    archive.write_bytes(zip_of(members))
    page.get(server.url)
    page.find_element(By.NAME, "file").send_keys(str(archive))
    page.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(lambda: page.find_elements(By.ID, "games"), timeout=120)
    assert shown(page, "h1") == "club games 2024.zip"
    assert page.title.startswith("club games 2024.zip")
    link = page.find_element(By.PARTIAL_LINK_TEXT, "JSON lines").get_attribute("href") or ""
    answer = requests.get(link, timeout=30, cookies={})
    assert answer.headers["content-disposition"] == (
        "attachment; filename=\"club_games_2024.jsonl\"; filename*=UTF-8''club_games_2024.jsonl"
    )
    expected = [
        judge_source(f"club games 2024.zip/{name}", text=data.decode("utf-8"))[0].to_json()
        for name, data in members.items()
    ]
    kept = [json.loads(line) for line in answer.text.splitlines()]
    # ex1 ends with Black's Chancellor hanging (evidence after the exchanges); ex5 is level
    classes = [record.pop("adjudication")["class"] for record in kept]
    assert classes == ["evidence", "undetermined", "evidence"]
    assert kept == expected  # the verdicts, each with its adjudication (a page's check)


# -- 7. the viewer players expect -----------------------------------------------------------------


def drawn_pieces(browser: WebDriver) -> list[tuple[float, float]]:
    """Where the script drew each piece (its translate), in drawing order."""
    moves = browser.execute_script(
        "return Array.from(document.querySelectorAll('#pieces > g'))"
        ".map(function (g) { return g.getAttribute('transform'); });"
    )
    out = []
    for move in moves:
        x, y = re.findall(r"-?[\d.]+", move)
        out.append((float(x), float(y)))
    return out


def occupied(fen: str) -> list[int]:
    """The cells of a FEN's pieces, in the order the script draws them (a1..h8, pockets)."""
    placement = fen.split(" ")[0]
    board, _, pockets = placement.partition("[")
    cells: list[int] = []
    for rank, row in enumerate(board.split("/")):
        square = (7 - rank) * 8
        for char in row:
            if char.isdigit():
                square += int(char)
            else:
                cells.append(square)
                square += 1
    cells.sort()
    for char in pockets.rstrip("]"):
        cells.append(64 if char.isupper() else 65)
    return cells


def test_the_board_flips_and_stays_flipped_when_reloaded(server: Server, page: WebDriver) -> None:
    from selenium.webdriver.common.by import By

    paste(page, server, EX1.read_text("utf-8"))
    fen = fen_shown(page)
    cells = occupied(fen)
    straight, turned = board_kit(), board_kit(flipped=True)

    def near(drawn: list[tuple[float, float]], centres: list[tuple[float, float]]) -> bool:
        return len(drawn) == len(centres) and all(
            abs(a - c) < 0.02 and abs(b - d) < 0.02
            for (a, b), (c, d) in zip(drawn, centres, strict=True)
        )

    assert near(drawn_pieces(page), [straight.centres[c] for c in cells])
    page.find_element(By.ID, "flip").click()
    assert near(drawn_pieces(page), [turned.centres[c] for c in cells])
    assert page.current_url.endswith("&flip=1")
    assert page.find_element(By.ID, "flip").get_attribute("aria-pressed") == "true"
    page.refresh()
    assert near(drawn_pieces(page), [turned.centres[c] for c in cells])
    labels = {
        t.text: t.location["y"] for t in page.find_elements(By.CSS_SELECTOR, "#background text")
    }
    assert labels["1"] < labels["8"]  # White's side at the top
    page.find_element(By.ID, "flip").click()
    assert near(drawn_pieces(page), [straight.centres[c] for c in cells])


def literal_placement(fen: str, plies: list[str]) -> list[str]:
    """The placement after each ply, applying 'L o-d' as Game Courier does: whatever stands
    on o goes to d, whatever stood on d is gone. Written here, apart from gcadj."""
    board: dict[str, str] = {}
    for rank, row in enumerate(fen.split(" ")[0].split("[")[0].split("/")):
        file = 0
        for char in row:
            if char.isdigit():
                file += int(char)
            else:
                board[f"{'abcdefgh'[file]}{8 - rank}"] = char
                file += 1
    out = []
    for ply in plies:
        origin, target = ply.split()[1].split("-")
        board[target] = board.pop(origin)
        rows = []
        for rank in range(8, 0, -1):
            row, empty = "", 0
            for file in "abcdefgh":
                piece = board.get(f"{file}{rank}")
                if piece is None:
                    empty += 1
                    continue
                row += (str(empty) if empty else "") + piece
                empty = 0
            rows.append(row + (str(empty) if empty else ""))
        out.append("/".join(rows))
    return out


def test_stepping_goes_past_the_illegal_ply_on_the_board_game_courier_showed(
    server: Server, page: WebDriver
) -> None:
    from selenium.webdriver.common.by import By

    plies = SLIPS.splitlines()
    (verdict,) = judge_source("x", text=SLIPS)
    finding = verdict.first_illegal
    assert finding is not None
    paste(page, server, SLIPS)
    assert fen_shown(page) == finding.fen_before  # opens at the illegal ply, in red
    expected = literal_placement(finding.fen_before, plies[finding.ply - 1 :])
    seen = []
    for _ in expected:
        page.find_element(By.ID, "next").click()
        seen.append(fen_shown(page).split("[")[0])
        assert "as Game Courier showed it" in shown(page, "#ply-label")
    assert seen == expected
    assert page.find_element(By.ID, "next").get_attribute("disabled") is not None  # the end
    current = page.find_element(By.CSS_SELECTOR, "#moves li.current")
    assert plies[-1] in current.text and "shown" in (current.get_attribute("class") or "")


FONT_SIZES = """
var small = [], seen = 0;
function visible(el) { return el.getClientRects().length > 0; }
document.querySelectorAll('body *').forEach(function (el) {
  if (el.closest('svg') || !visible(el) || /^(SCRIPT|STYLE|TEMPLATE)$/.test(el.tagName)) {
    return;
  }
  var own = Array.from(el.childNodes).some(function (n) {
    return n.nodeType === 3 && n.data.trim();
  });
  if (!own && ['TEXTAREA', 'SELECT', 'INPUT', 'BUTTON'].indexOf(el.tagName) < 0) { return; }
  seen++;
  var size = parseFloat(getComputedStyle(el).fontSize);
  if (size < 12) { small.push(el.tagName + ' ' + el.className + ': ' + size); }
});
document.querySelectorAll('svg').forEach(function (svg) {
  if (!visible(svg)) { return; }
  var box = svg.viewBox.baseVal, scale = svg.getBoundingClientRect().width / (box.width || 1);
  svg.querySelectorAll('text').forEach(function (t) {
    if (!t.textContent.trim() || !visible(t)) { return; }
    seen++;
    var size = parseFloat(getComputedStyle(t).fontSize) * scale;
    if (size < 12) { small.push('svg text ' + t.textContent + ': ' + size.toFixed(1)); }
  });
});
return [seen, small];
"""


def test_no_text_of_a_result_is_under_12_pixels(server: Server, page: WebDriver) -> None:
    from selenium.webdriver.common.by import By

    paste(page, server, SLIPS, every=True)  # findings, suggestions, boards shown, the editor
    for side in ("White's", "Black's"):  # the board seen from either side
        seen, small = page.execute_script(FONT_SIZES)
        assert seen > 100 and small == [], (side, small)
        page.find_element(By.ID, "flip").click()
    paste(page, server, "Hello\n")  # a verdict page
    seen, small = page.execute_script(FONT_SIZES)
    assert seen > 10 and small == []


# -- the adjudication of an unfinished game ----------------------------------------------------

MATE_IN_2 = '[White "Alice"]\n[Black "Bob"]\n[FEN "1k6/8/2K5/8/8/8/8/7R[] b - - 0 1"]\nk b8-a8\n'


def test_an_unfinished_game_with_a_mate_to_come_shows_mate_in_n_and_steps_its_line(
    server: Server, page: WebDriver
) -> None:
    from selenium.webdriver.common.by import By

    import gcadj

    (game,) = gcadj.adjudicate("pasted text", text=MATE_IN_2)
    mate = game.adjudication.mate
    assert mate is not None and game.adjudication.kind == "proven"
    paste(page, server, MATE_IN_2)
    panel = shown(page, "#adjudication")
    assert panel.startswith(f"Adjudication: Proven, White wins. {game.adjudication.reason}.")
    assert f"mates in {mate.moves}" in panel
    fen = game.final_fen or ""
    number, white = int(fen.split()[-1]), fen.split()[1] == "w"
    expected = []
    for san in mate.san:  # numbered as players number moves
        expected.append(f"{number}{'.' if white else '...'} {san}")
        number, white = number + (0 if white else 1), not white
    items = page.find_elements(By.CSS_SELECTOR, "#adjudication .line li")
    assert [item.text for item in items] == expected
    assert fen_shown(page) == fen  # the page opens at the game's end
    for n in range(1, len(mate.line) + 1):  # the board steps on through the line
        page.find_element(By.ID, "next").click()
        longer = MATE_IN_2 + "".join(f"{move}\n" for move in mate.line[:n])
        assert fen_shown(page) == judge_source("x", text=longer)[0].final_fen
        assert shown(page, "#ply-label") == f"Mating line, not played: {expected[n - 1]}"
        assert "current" in (items[n - 1].get_attribute("class") or "")
    assert judge_source("x", text=longer)[0].termination == "checkmate"
    items[0].find_element(By.TAG_NAME, "a").click()  # a move of the line opens its board
    first = judge_source("x", text=MATE_IN_2 + mate.line[0] + "\n")[0].final_fen
    assert fen_shown(page) == first
    if REGEN and page.execute_script("return innerWidth") > 1000:  # the manual's picture
        page.find_element(By.ID, "last").click()
        page.execute_script(  # the proof's defences, opened as a player opens them
            "document.querySelectorAll('#adjudication details').forEach(d => d.open = true)"
        )
        page.save_screenshot(str(DOCS / "serve-adjudication.png"))
