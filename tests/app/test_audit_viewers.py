"""The audit's viewer pages: which games get one (`--viewers failing|all|none`), the shared
style and script they link, the report's links to them, and the pages in Chromium.

Every expectation is computed from the audit's own JSONL and the games' own verdicts.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import FIXTURES, invoke_gcadj
from viewer_pages import page_data

from gcadj.about import GENERATOR_META
from gcadj.app.audit import AuditPlan, run_audit
from gcadj.app.batch import Limits
from gcadj.app.check import check_text
from gcadj.app.exit_codes import exit_code_of, worst
from gcadj.app.products import DEFAULT_VIEWERS, ViewerChoice
from gcadj.errors import AuditError
from gcadj.outputs.viewer import viewer_assets, viewer_filename, write_viewer

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

GAMES = {
    "legal.txt": (FIXTURES / "examples" / "ex1_pocket_mutation_drops.txt").read_text("utf-8"),
    "illegal.txt": "P e2-e4\np e7-e5\nK e1-e3\n",
    "partial.txt": "P e2-e4\np e7-e5\nthis is not a move (((\n",
    "p_preset.txt": '[PocketFile "p"]\nP e2-e4\np e7-e5\nR h1-p1; I-p1\nk e8-e6\n',
    "j_file.txt": '[PocketFile "j"]\nP e2-e4\np e7-e5\nR h1-j1; I-j1\nk e8-e6\n',
    "legal_p.txt": '[PocketFile "p"]\nP e2-e4\np e7-e5\nR h1-p1; I-p1\n',
    "unreadable.txt": "(((\n",
}


def archive(root: Path) -> Path:
    folder = root / "games"
    folder.mkdir()
    for name, text in GAMES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def audit(root: Path, choice: ViewerChoice) -> tuple[list[dict[str, object]], Path, str]:
    """The JSONL records, the viewer folder and the report of an audit of the archive."""
    out, report, viewers = root / "a.jsonl", root / "a.html", root / "a-viewers"
    plan = AuditPlan(
        sources=(str(archive(root)),),
        out=out,
        limits=Limits(jobs=2),
        report=report,
        viewers=viewers,
        viewer_games=choice,
    )
    run_audit(plan)
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return records, viewers, report.read_text(encoding="utf-8")


def with_a_game(record: dict[str, object]) -> bool:
    """Has the game a log to show (legal plies, or a readable start)? Unreadable ones not."""
    return record["status"] != "error" and (
        record["status"] != "syntax-error" or int(str(record["legal_plies"])) > 0
    )


@pytest.mark.parametrize("choice", list(ViewerChoice))
def test_each_choice_writes_exactly_the_pages_it_names_and_the_report_links_them(
    tmp_path: Path, choice: ViewerChoice
) -> None:
    records, viewers, report = audit(tmp_path, choice)
    assert len(records) == len(GAMES)
    wanted = {
        viewer_filename(str(r["source"]))
        for r in records
        if with_a_game(r) and (choice is ViewerChoice.ALL or r["status"] != "legal")
    }
    if choice is ViewerChoice.NONE:
        wanted = set()
    pages = {p.name for p in viewers.glob("*.html")} if viewers.exists() else set()
    assert pages == wanted
    assert (choice is ViewerChoice.FAILING) == (
        wanted
        == {viewer_filename(str(r["source"])) for r in records if r["status"] != "legal"}
        - {viewer_filename(str(r["source"])) for r in records if not with_a_game(r)}
    )
    linked = set(re.findall(r'href="a-viewers/([^"#]+)', report))
    assert linked == wanted
    assets = set(viewer_assets().files) if wanted else set()
    present = {p.name for p in viewers.glob("gcadj-viewer-*")} if viewers.exists() else set()
    assert present == assets


def test_the_default_is_the_failing_games() -> None:
    assert DEFAULT_VIEWERS is ViewerChoice.FAILING
    assert AuditPlan(sources=()).viewer_games is DEFAULT_VIEWERS


def test_a_linked_page_holds_its_game_only_and_links_the_shared_files(tmp_path: Path) -> None:
    _, viewers, _ = audit(tmp_path, ViewerChoice.ALL)
    assets = viewer_assets()
    for name, text in assets.files.items():
        assert (viewers / name).read_text(encoding="utf-8") == text
    for source, text in GAMES.items():
        page_path = viewers / viewer_filename(str(tmp_path / "games" / source))
        if not page_path.exists():
            continue
        page = page_path.read_text(encoding="utf-8")
        assert GENERATOR_META in page
        assert f'<script src="{assets.script_name}"></script>' in page
        assert f'<link rel="stylesheet" href="{assets.style_name}">' in page
        assert "<style>" not in page and 'id="gcadj-kit"' not in page
        # the same game's self-contained page carries the style, the script and the kit
        alone = write_viewer(check_text(text, str(tmp_path / "games" / source)))
        own_board = "backgrounds" in page_data(page)  # a board the shared script lacks
        assert len(page) * (1 if own_board else 3) < len(alone)
        assert page_data(page)["games"] == page_data(alone)["games"]


def test_a_board_the_shared_kit_lacks_travels_with_the_page(tmp_path: Path) -> None:
    _, viewers, _ = audit(tmp_path, ViewerChoice.ALL)
    script = viewer_assets().files[viewer_assets().script_name]
    j_page = (viewers / viewer_filename(str(tmp_path / "games" / "j_file.txt"))).read_text()
    p_page = (viewers / viewer_filename(str(tmp_path / "games" / "p_preset.txt"))).read_text()
    assert set(page_data(j_page)["backgrounds"]) == {"j"}  # type: ignore[call-overload]
    assert "backgrounds" not in page_data(p_page)  # the p board is in the shared script
    assert '"p":' in script and '"j":' not in script


def test_a_foreign_file_with_an_asset_name_is_not_replaced(tmp_path: Path) -> None:
    viewers = tmp_path / "a-viewers"
    viewers.mkdir()
    foreign = viewers / viewer_assets().script_name
    foreign.write_text("not gcadj's", encoding="utf-8")
    with pytest.raises(AuditError, match="not written over"):
        audit(tmp_path, ViewerChoice.ALL)
    assert foreign.read_text(encoding="utf-8") == "not gcadj's"


def test_the_options_in_words(tmp_path: Path) -> None:
    folder = archive(tmp_path)

    def run(*args: str) -> tuple[int, str]:
        done = invoke_gcadj("audit", str(folder), "--jobs", "1", "-q", *args)
        return done.returncode, done.stdout + done.stderr

    code, said = run("--viewers", "some")
    assert code == 2 and "'failing', 'all', 'none'" in said
    code, said = run("--viewers", "all")
    assert code == 2 and "--viewers needs --report or --viewer-dir" in said
    code, said = run("--viewer-dir", str(tmp_path / "v"), "--viewers", "none")
    assert code == 2 and "contradict" in said
    code, _ = run("--viewer-dir", str(tmp_path / "v"), "--viewers", "ALL")  # either case
    verdicts = {name: check_text(text, name) for name, text in GAMES.items()}
    assert code == worst(exit_code_of(v.status) for v in verdicts.values())
    pages = {p.name for p in (tmp_path / "v").glob("*.html")}
    assert pages == {
        viewer_filename(str(folder / name))
        for name, verdict in verdicts.items()
        if with_a_game(verdict.to_json())
    }


# -- in a browser -----------------------------------------------------------------------


@pytest.mark.parametrize("source", ["illegal.txt", "p_preset.txt", "j_file.txt"])
def test_a_linked_page_draws_its_game_from_file_urls(
    browser: WebDriver, tmp_path: Path, source: str
) -> None:
    from selenium.webdriver.common.by import By

    _, viewers, _ = audit(tmp_path, ViewerChoice.FAILING)
    page = viewers / viewer_filename(str(tmp_path / "games" / source))
    steps = page_data(page.read_text(encoding="utf-8"))["games"][0]["steps"]
    browser.get(page.as_uri() + "#ply=2")
    assert browser.find_element(By.ID, "fen").text == steps[2]["f"]
    placement = steps[2]["f"].split(" ")[0]
    pieces = sum(c.isalpha() for c in placement)
    drawn = browser.execute_script("return document.querySelectorAll('#pieces > g').length")
    assert drawn == pieces
    letter = browser.execute_script("return document.getElementById('background').textContent")
    pocket_file = "p" if source == "p_preset.txt" else "j" if source == "j_file.txt" else "i"
    assert pocket_file in letter  # the ninth file's letter is drawn under the board
    rows = browser.execute_script("return document.querySelectorAll('#legend tr').length")
    assert rows == 20  # a header and the 19 letters, from the shared script
