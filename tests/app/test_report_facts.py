"""What the audit report shows besides the verdicts (players, the link to a game's page)
comes from the judged games, which the workers return with their results, also for a
game of a PGN database; a game judged by an earlier run (``--resume``) shows what the
head of its log file says, and nothing is scraped or fetched again."""

from __future__ import annotations

from pathlib import Path

from gcadj.app.audit import AuditPlan, run_audit
from gcadj.app.batch import Limits
from gcadj.app.check import check_text
from gcadj.outputs.game_export import export_game

ILLEGAL = "P e2-e4\np e7-e5\nK e1-e3\n"


def tagged(white: str, black: str, site: str) -> str:
    return f'[White "{white}"]\n[Black "{black}"]\n[Site "{site}"]\n'


def make_archive(folder: Path) -> None:
    folder.mkdir()
    (folder / "a.txt").write_text(tagged("Alice", "Bob", "https://example.org/a") + ILLEGAL)
    (folder / "b.txt").write_text(tagged("Carol", "Dave", "javascript:alert(1)") + "P e2-e4\n")
    games = [
        export_game(check_text(tagged(w, b, s) + text, "g"), "pgn")
        for w, b, s, text in (
            ("Erin", "Frank", "https://example.org/1", "P d2-d4\n"),
            ("<b>Grace</b>", "Heidi", "https://example.org/2", ILLEGAL),
        )
    ]
    (folder / "c.pgn").write_text("\n".join(games))


def test_the_report_shows_the_facts_of_the_judged_games(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    make_archive(folder)
    out, report = tmp_path / "r.jsonl", tmp_path / "r.html"
    run = run_audit(
        AuditPlan(sources=(str(folder),), out=out, report=report, limits=Limits(jobs=2))
    )
    assert run.judged == 4 and run.exit_code == 1
    html = report.read_text(encoding="utf-8")
    assert "Alice – Bob" in html  # an illegal log: its players
    assert 'href="https://example.org/a"' in html  # its Site: the page's link
    assert "Carol" not in html  # a legal game's players are not shown
    assert "javascript:" not in html  # a Site that is no http(s) address is no link
    # a game of a database has its own facts (the report used to read c.pgn#2 as a file)
    assert "&lt;b&gt;Grace&lt;/b&gt; – Heidi" in html
    assert 'href="https://example.org/1"' in html and 'href="https://example.org/2"' in html
    assert "Erin" not in html


def test_a_resumed_audit_reads_the_facts_of_earlier_games_from_their_logs(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "games"
    make_archive(folder)
    out, report = tmp_path / "r.jsonl", tmp_path / "r.html"
    run_audit(AuditPlan(sources=(str(folder / "a.txt"), str(folder / "c.pgn")), out=out))
    run = run_audit(
        AuditPlan(
            sources=(str(folder),), out=out, report=report, resume=True, limits=Limits(jobs=1)
        )
    )
    assert (run.judged, run.skipped) == (1, 3)  # b.txt now; a.txt and c.pgn's two before
    html = report.read_text(encoding="utf-8")
    assert "Alice – Bob" in html  # read again from the head of a.txt
    assert 'href="https://example.org/a"' in html
    # a database's games judged earlier: their file's head is not theirs, nothing shown
    assert "Grace" not in html and 'href="https://example.org/2"' not in html
