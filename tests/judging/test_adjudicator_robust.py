"""The adjudicator never crashes: any text the parser accepts gets a verdict.

Logs generated from the grammar itself hold every sub-move form in any order: pieces
placed on pocket squares, Kings removed, both pockets filled with the wrong colour, plies
after a mate. Whatever they do to the board, `check_text` must answer with a verdict
(with and without `--all`), never with an exception.
"""

from __future__ import annotations

from conftest import budget
from grammar_text import logs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gcadj.app.check import check_text
from gcadj.judging.judge import CATEGORIES
from gcadj.notation.parse import parse_log

LOGS = logs("i")
PLY = st.sampled_from(
    ["P e2-e4", "p e7-e5", "K e1-i1", "e8-", "Q-i8", "q*i1", "@-e1", "capture e8 d8",
     "-d4", "R a1-i1; I-i1", "I i1-c4", "N g1-f3; n b8-c6", "P d2-d4; e7-", "i8-a1", ";"]
)  # fmt: skip


@settings(max_examples=budget(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LOGS, st.booleans())
def test_any_parseable_log_gets_a_verdict(text: str, all_findings: bool) -> None:
    verdict = check_text(text, all_findings=all_findings)
    if not text.lstrip("\ufeff").strip():  # only white space: no game at all (issue 10)
        assert (verdict.status, verdict.error) == ("error", "<string>: empty")
        return
    tags = {name.casefold() for name, _ in parse_log(text).tags}
    if not tags & {"fen", "pocketfile", "variant"}:  # tags that change how a log is read
        assert verdict.status in ("legal", "illegal"), verdict.error
        assert verdict.plies == len(parse_log(text).records)
    for finding in verdict.illegal:
        assert finding.category in CATEGORIES


@settings(max_examples=budget(200), deadline=None)
@given(st.lists(PLY, min_size=1, max_size=30), st.booleans())
def test_hostile_plies_get_consistent_verdicts(plies: list[str], all_findings: bool) -> None:
    verdict = check_text("\n".join(plies) + "\n", all_findings=all_findings)
    assert verdict.status in ("legal", "illegal")
    found = [f.ply for f in verdict.illegal]
    assert found == sorted(set(found)) and all(1 <= ply <= len(plies) for ply in found)
    assert verdict.first_illegal == (verdict.illegal[0] if verdict.illegal else None)
    if verdict.first_illegal is not None:
        assert verdict.legal_plies == verdict.first_illegal.ply - 1
    if not all_findings:
        assert len(verdict.illegal) <= 1
