"""A worker's result of a game when its job adjudicates: one adjudication per game, in the
JSON line (``gcadj adjudicate --json``'s) and in the viewer data, from the same answer."""

from __future__ import annotations

import json
import pickle
from typing import Any

import gcadj
from gcadj.analysis.options import AdjudicateOptions
from gcadj.app.check import check_text
from gcadj.app.judging import JudgeJob, game_result
from gcadj.judging.adjudication import Adjudication

MATE_IN_2 = '[FEN "1k6/8/2K5/8/8/8/8/7R[] b - - 0 1"]\nk b8-a8\n'
QUICK = AdjudicateOptions(mate_depth=3, budget=None, node_limit=100_000)


def without_seconds(record: dict[str, Any]) -> dict[str, Any]:
    """A line's JSON without the search's wall-clock time, the one value that varies."""
    found = dict(record)
    found["adjudication"] = {k: v for k, v in found["adjudication"].items() if k != "seconds"}
    return found


def test_an_adjudicating_job_gives_the_line_gcadj_adjudicate_prints() -> None:
    verdict = check_text(MATE_IN_2, "m.txt")
    result = game_result(verdict, JudgeJob(adjudicate=QUICK))
    (expected,) = gcadj.adjudicate(
        "m.txt", text=MATE_IN_2, mate_depth=3, budget=None, node_limit=100_000
    )
    assert without_seconds(json.loads(result.line)) == without_seconds(expected.to_json())
    assert result.line.endswith("\n") and "\n" not in result.line[:-1]
    plain = game_result(verdict, JudgeJob())  # no adjudication asked: check's line exactly
    assert plain.line == verdict.json_line() + "\n"


def test_the_viewer_data_is_made_from_the_same_adjudication() -> None:
    seen: list[Adjudication | None] = []

    def views(verdict: object, adjudication: Adjudication | None) -> bytes:
        seen.append(adjudication)
        return b"data"

    verdict = check_text(MATE_IN_2, "m.txt")
    result = game_result(verdict, JudgeJob(views=views, adjudicate=QUICK))
    (adjudication,) = seen
    assert adjudication is not None and result.view == b"data"
    assert json.loads(result.line)["adjudication"] == adjudication.to_json()


def test_a_failing_view_costs_the_page_never_the_verdict() -> None:
    def views(verdict: object, adjudication: object) -> bytes:
        raise RuntimeError("a bug in a page")

    verdict = check_text("P e2-e4\n", "x")
    result = game_result(verdict, JudgeJob(views=views))
    assert result.view is None and result.line == verdict.json_line() + "\n"


def test_an_adjudicating_job_travels_to_the_workers() -> None:
    job = JudgeJob(adjudicate=QUICK, facts=True)
    assert pickle.loads(pickle.dumps(job)) == job


def test_a_sources_adjudications_share_the_time_it_has() -> None:
    """With no time left for a source's adjudications, each game's search still answers,
    cut by its budget; with time, it goes to its depth."""
    from gcadj.app.judging import judge_text

    pgn = "".join(f'[Event "{i}"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n' for i in range(3))
    none_left = judge_text("g.pgn", pgn, JudgeJob(adjudicate=QUICK, adjudication_seconds=0.0))
    cut = [json.loads(r.line)["adjudication"] for r in none_left]
    assert [a["cut"] for a in cut] == ["budget"] * 3
    assert all("cut by the budget (0 s)" in a["reason"] for a in cut)
    plenty = judge_text("g.pgn", pgn, JudgeJob(adjudicate=QUICK, adjudication_seconds=600.0))
    assert [json.loads(r.line)["adjudication"]["cut"] for r in plenty] == [None] * 3


def test_a_servers_check_shares_its_deadlines_between_its_sources() -> None:
    from gcadj.app.pipeline import JudgeOptions
    from gcadj.web.judging import CHECK_SHARE, SOURCE_SHARE, check_job

    one = check_job(JudgeOptions(), budget=1.0, source_seconds=60, check_seconds=900)
    assert one.adjudicate is not None and one.adjudicate.budget == 1.0
    assert one.adjudication_seconds == min(SOURCE_SHARE * 60, CHECK_SHARE * 900)
    many = check_job(JudgeOptions(), budget=1.0, sources=300, source_seconds=60, check_seconds=900)
    assert many.adjudication_seconds == CHECK_SHARE * 900 / 300
    assert many.adjudication_seconds * 300 <= 900 / 4  # the judging keeps most of the time
    unbounded = check_job(JudgeOptions(), budget=1.0)  # no deadlines: no bound
    assert unbounded.adjudication_seconds is None
    assert check_job(JudgeOptions()).adjudicate is None  # no budget: no adjudication
