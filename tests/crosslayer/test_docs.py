"""The project's own rules page: complete, in step with the engine, and nothing pointing outside."""

from __future__ import annotations

import re

from conftest import ROOT

from gcadj.engine.pieces import KINDS

RULES = ROOT / "docs" / "rules.md"
# Spelled in parts so that this file does not name them itself.
OUTSIDE = ("RULES" + ".md", "GAMECOURIER" + ".md", "STYLE" + ".md", "../" + "shared")


def test_the_piece_table_names_every_piece_with_its_letter_and_class() -> None:
    rows = re.findall(r"^\| ([A-Z]) \| (\w+) \| [^|]+ \| ([0-9—]) \|$", RULES.read_text(), re.M)
    table = {letter: (name, cls) for letter, name, cls in rows}
    expected = {
        kind.letter: (kind.name, "—" if kind.is_king else str(kind.value_class)) for kind in KINDS
    }
    assert table == expected


def test_nothing_in_the_project_points_at_files_outside_it() -> None:
    folders = ["gcadj", "tests", "bench", "docs", "fixtures", "grammars", ".ci"]
    files = [ROOT / "README.md", ROOT / "pyproject.toml"]
    files += [p for folder in folders for p in (ROOT / folder).rglob("*") if p.is_file()]
    offenders = []
    for path in files:
        if path.suffix in {".png", ".pickle", ".pyc"}:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        offenders += [f"{path.relative_to(ROOT)}: {name}" for name in OUTSIDE if name in text]
    assert offenders == []


def test_the_readme_links_the_rules_page() -> None:
    assert "(docs/rules.md)" in (ROOT / "README.md").read_text()
