"""Converting a game between the two presets: pockets on i1/i8 and on p1/p8."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, invoke_gcadj

from gcadj.app.check import check_source, check_text
from gcadj.errors import ExportError
from gcadj.judging.verdict import Verdict
from gcadj.outputs.game_export import export_game

EXAMPLES = sorted((FIXTURES / "examples").glob("ex*.txt"))
LOGS = sorted((FIXTURES / "logs").glob("*/*.txt"))


def facts(verdict: Verdict, pocket_file: str = "i") -> dict[str, Any]:
    """What the verdict says about the game, not where in the text (line, column, source);
    pocket squares named as on the i preset."""
    document = verdict.to_json()
    for finding in [document["first_illegal"], *document["illegal"]]:
        if finding:
            finding.pop("line")
            finding.pop("column")
            for key in ("reason", "text"):
                finding[key] = re.sub(rf"(?<![A-Za-z]){pocket_file}([18])", r"i\1", finding[key])
            for suggestion in finding["suggestions"]:  # typed as on the game's own preset
                for key in ("text", "why"):
                    suggestion[key] = re.sub(
                        rf"(?<![A-Za-z]){pocket_file}([18])", r"i\1", suggestion[key]
                    )
    document.pop("source")
    document.pop("warnings")  # they name lines, and how a ply was typed (a clean list drops it)
    return document


def same_verdict(a: Verdict, b: Verdict, pocket_file: str = "i") -> None:
    assert facts(a, pocket_file) == facts(b)


@pytest.mark.parametrize("path", EXAMPLES + LOGS, ids=lambda p: p.name)
def test_a_game_converted_to_the_p_preset_and_back_keeps_its_verdict(path: Path) -> None:
    verdict = check_source(str(path))
    as_p = export_game(verdict, "gc", to_pocket_file="p")
    assert '[PocketFile "p"]' in as_p.splitlines()
    plies = [line.split("//")[0] for line in as_p.splitlines() if not line.startswith("[")]
    assert not any("i1" in ply or "i8" in ply for ply in plies)
    on_p = check_text(as_p, "as_p.txt")
    assert on_p.log is not None and on_p.log.pocket_file == "p"
    same_verdict(on_p, verdict, "p")
    back = export_game(on_p, "gc", to_pocket_file="i")
    assert not any(line.startswith("[PocketFile") for line in back.splitlines())
    same_verdict(check_text(back, "back.txt"), verdict)


def test_every_pocket_square_is_rewritten_in_illegal_plies_too() -> None:
    text = "P e2-e4\np e7-e5\nR h1-i1; I-i1\np d7-d6\nI i1-c4; I-i8\n"
    verdict = check_text(text)
    assert verdict.status == "illegal"
    as_p = export_game(verdict, "gc", to_pocket_file="p")
    assert "2. R h1-p1; I-p1" in as_p
    assert "3. I p1-c4; I-p8" in as_p
    same_verdict(check_text(as_p), verdict, "p")


def test_to_pocket_file_is_for_game_courier_text_only(tmp_path: Path) -> None:
    with pytest.raises(ExportError):
        export_game(check_text("P e2-e4\n"), "pgn", to_pocket_file="p")
    with pytest.raises(ExportError):
        export_game(check_text("P e2-e4\n"), "gc", to_pocket_file="7")
    path = tmp_path / "g.txt"
    path.write_text("P e2-e4\np e7-e5\nN g1-f3\nn b8-c6\nR h1-i1\n")
    result = invoke_gcadj("export", str(path), "--to", "gc", "--to-pocket-file", "p")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == '[PocketFile "p"]'
    assert "3. R h1-p1" in result.stdout
    bad = invoke_gcadj("export", str(path), "--to", "pgn", "--to-pocket-file", "p")
    assert bad.returncode == 2
