"""The documented shape of a verdict (README, `check --json`), checked field by field.

Property tests that throw hostile input at gcadj assert this shape on every answer: a
verdict that is well formed, whose facts agree with each other, and that never reports
gcadj's own failure (an internal error) for input, however bad.
"""

from __future__ import annotations

from typing import Any

from gcadj.judging.judge import CATEGORIES
from gcadj.vocabulary import Termination

KEYS = {
    "source",
    "status",
    "plies",
    "legal_plies",
    "result",
    "termination",
    "final_fen",
    "first_illegal",
    "illegal",
    "warnings",
    "error",
}
FINDING_KEYS = {
    "ply", "move_number", "side", "text", "line", "column", "category", "reason", "suggestions"
}  # fmt: skip
STATUSES = {"legal", "illegal", "syntax-error", "error"}
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
TERMINATIONS = {t.value for t in Termination} | {
    "resignation",
    "agreement",
    "time-forfeit",
    "ongoing",
}


def assert_verdict_shape(record: dict[str, Any]) -> None:
    """`record` is a verdict as `Verdict.to_json` gives it (or a parsed JSON line)."""
    assert set(record) == KEYS, sorted(record)
    status = record["status"]
    assert status in STATUSES, status
    assert isinstance(record["source"], str)
    plies, legal = record["plies"], record["legal_plies"]
    assert isinstance(plies, int) and isinstance(legal, int)
    assert 0 <= legal <= plies or (status == "syntax-error" and legal >= 0), (legal, plies)
    assert record["result"] in RESULTS
    assert record["termination"] is None or record["termination"] in TERMINATIONS
    assert isinstance(record["warnings"], list)
    assert all(isinstance(w, str) for w in record["warnings"])
    first, illegal, error = record["first_illegal"], record["illegal"], record["error"]
    for finding in illegal:
        assert set(finding) == FINDING_KEYS, sorted(finding)
        assert finding["category"] in CATEGORIES, finding
        assert 1 <= finding["ply"] <= plies, (finding, plies)
        assert finding["side"] in ("white", "black")
        assert isinstance(finding["reason"], str) and finding["reason"]
        assert isinstance(finding["suggestions"], list) and len(finding["suggestions"]) <= 3
        for suggestion in finding["suggestions"]:
            assert set(suggestion) == {"text", "san", "why"}, suggestion
    if status == "legal":
        assert first is None and illegal == [] and error is None
        assert legal == plies and record["final_fen"]
        assert record["termination"] is not None
    elif status == "illegal":
        assert first is not None and illegal and illegal[0] == first, record
        assert legal == first["ply"] - 1
        assert record["result"] == "*"
        assert error is None
    else:
        assert isinstance(error, str) and error, record
        assert ": internal error: " not in error, error  # input never costs gcadj itself
