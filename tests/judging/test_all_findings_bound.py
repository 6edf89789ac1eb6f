"""``--all`` lists the first `MAX_FINDINGS` illegal plies and counts the rest: a log of a
million illegal plies gives a verdict of bounded size. Every ply is still judged, so the
count is the same as an unbounded replay's, and the listed findings are its first ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import invoke_gcadj

from gcadj.app.check import check_text
from gcadj.judging import verdict as verdict_module

# The Knights' shuffle: the fivefold repetition ends the game at ply 17, and every ply
# after it is illegal ("after-game-end"), the replay going on from the literal board.
SHUFFLE = ("N g1-f3", "n g8-f6", "N f3-g1", "n f6-g8")


def shuffle(plies: int, tail: str = "") -> str:
    return "".join(SHUFFLE[i % 4] + "\n" for i in range(plies)) + tail


@pytest.mark.parametrize("tail", ["", "Nf3\n"])  # the second ends in a syntax error
def test_all_lists_the_first_findings_and_counts_the_rest(
    tail: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = shuffle(400, tail)
    monkeypatch.setattr(verdict_module, "MAX_FINDINGS", 10**9)
    unbounded = check_text(text, all_findings=True)
    total = len(unbounded.illegal)
    limit = 50
    assert total > limit  # the log has more than the limit: the bound is exercised
    monkeypatch.setattr(verdict_module, "MAX_FINDINGS", limit)
    bounded = check_text(text, all_findings=True)
    assert bounded.illegal == unbounded.illegal[:limit]
    assert bounded.first_illegal == unbounded.first_illegal
    assert (bounded.status, bounded.plies, bounded.legal_plies, bounded.final_fen) == (
        unbounded.status,
        unbounded.plies,
        unbounded.legal_plies,
        unbounded.final_fen,
    )
    more = total - limit
    expected = f"{more:,} more illegal plies after the first {limit:,} not listed"
    assert bounded.warnings[:-1] == unbounded.warnings
    assert bounded.warnings[-1].startswith(expected)


def test_at_the_limit_nothing_is_said(monkeypatch: pytest.MonkeyPatch) -> None:
    text = shuffle(60)
    total = len(check_text(text, all_findings=True).illegal)
    monkeypatch.setattr(verdict_module, "MAX_FINDINGS", total)
    bounded = check_text(text, all_findings=True)
    assert len(bounded.illegal) == total
    assert not any("not listed" in warning for warning in bounded.warnings)


def test_the_command_prints_a_bounded_line(tmp_path: Path) -> None:
    log = tmp_path / "long.txt"
    limit = verdict_module.MAX_FINDINGS
    log.write_text(shuffle(limit + 300))
    run = invoke_gcadj("check", "--all", "--json", str(log))
    assert run.returncode == 1, run.stderr
    (line,) = run.stdout.splitlines()
    verdict = json.loads(line)
    assert len(verdict["illegal"]) == limit
    assert verdict["warnings"][-1].endswith(
        f"more illegal plies after the first {limit:,} not listed (--all lists at most {limit:,})"
    )
