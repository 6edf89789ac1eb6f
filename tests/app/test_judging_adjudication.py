"""A worker's result of a game when its job's judge options adjudicate: the judged game
carries its adjudication, and its JSON line (``gcadj adjudicate --json``'s) and its viewer
data both read that one answer."""

from __future__ import annotations

import json
import pickle
from typing import Any

import gcadj
from gcadj.analysis.options import AdjudicateOptions
from gcadj.app.pipeline import JudgeOptions, judge_source
from gcadj.app.worker_judging import WorkerSettings, game_result, judge_text
from gcadj.judging.adjudication import Adjudication
from gcadj.judging.verdict import Verdict

MATE_IN_2 = '[FEN "1k6/8/2K5/8/8/8/8/7R[] b - - 0 1"]\nk b8-a8\n'
QUICK = AdjudicateOptions(mate_depth=3, budget=None, node_limit=100_000)
ADJUDICATING = WorkerSettings(JudgeOptions(adjudicate=QUICK))


def without_seconds(record: dict[str, Any]) -> dict[str, Any]:
    """A line's JSON without the search's wall-clock time, the one value that varies."""
    found = dict(record)
    found["adjudication"] = {k: v for k, v in found["adjudication"].items() if k != "seconds"}
    return found


def test_an_adjudicating_job_gives_the_line_gcadj_adjudicate_prints() -> None:
    (result,) = judge_text("m.txt", MATE_IN_2, ADJUDICATING)
    (expected,) = gcadj.adjudicate(
        "m.txt", text=MATE_IN_2, mate_depth=3, budget=None, node_limit=100_000
    )
    assert without_seconds(json.loads(result.line)) == without_seconds(expected.to_json())
    assert result.line.endswith("\n") and "\n" not in result.line[:-1]
    (plain,) = judge_text("m.txt", MATE_IN_2, WorkerSettings())  # none asked: check's line exactly
    assert plain.line == gcadj.check_text(MATE_IN_2, "m.txt").json_line() + "\n"


def test_the_viewer_data_is_made_from_the_same_adjudication() -> None:
    seen: list[Adjudication | None] = []

    def views(verdict: Verdict) -> bytes:
        seen.append(verdict.adjudication)
        return b"data"

    job = WorkerSettings(JudgeOptions(adjudicate=QUICK), views=views)
    (result,) = judge_text("m.txt", MATE_IN_2, job)
    (adjudication,) = seen
    assert adjudication is not None and result.view == b"data"
    assert json.loads(result.line)["adjudication"] == adjudication.to_json()


def test_a_failing_view_costs_the_page_never_the_verdict() -> None:
    def views(verdict: object) -> bytes:
        raise RuntimeError("a bug in a page")

    verdict = gcadj.check_text("P e2-e4\n", "x")
    result = game_result(verdict, WorkerSettings(views=views))
    assert result.view is None and result.line == verdict.json_line() + "\n"


def test_an_adjudicating_job_travels_to_the_workers() -> None:
    job = WorkerSettings(JudgeOptions(adjudicate=QUICK, stage_seconds=3.0), facts=True)
    assert pickle.loads(pickle.dumps(job)) == job


def test_a_lost_source_is_adjudicated_as_any_game_with_no_position() -> None:
    from gcadj.app.pool import Lost
    from gcadj.app.worker_judging import lost_result

    (result,) = lost_result("x.txt", Lost("the worker judging it died: signal 9"), ADJUDICATING)
    record = json.loads(result.line)
    assert record["adjudication"]["class"] == "undetermined"
    assert record["adjudication"]["reason"].startswith("no position to adjudicate: x.txt: ")


def test_a_servers_check_shares_its_deadlines_between_its_sources() -> None:
    from gcadj.web.check_work import CHECK_SHARE, SOURCE_SHARE, check_job

    one = check_job(JudgeOptions(), budget=1.0, source_seconds=60, check_seconds=900).options
    assert one.adjudicate is not None and one.adjudicate.budget == 1.0
    assert one.stage_seconds == min(SOURCE_SHARE * 60, CHECK_SHARE * 900)
    many = check_job(JudgeOptions(), budget=1.0, sources=300, source_seconds=60, check_seconds=900)
    assert many.options.stage_seconds == CHECK_SHARE * 900 / 300
    assert many.options.stage_seconds * 300 <= 900 / 4  # the judging keeps most of the time
    unbounded = check_job(JudgeOptions(), budget=1.0)  # no deadlines: no bound
    assert unbounded.options.stage_seconds is None
    assert check_job(JudgeOptions()).options.adjudicate is None  # no budget: not adjudicated
    none = check_job(JudgeOptions(), budget=0.0).options.adjudicate  # 0 s: no mate searched
    assert none is not None and none.budget == 0.0
    (game,) = judge_source("m.txt", check_job(JudgeOptions(), budget=0.0).options, text=MATE_IN_2)
    assert game.adjudication is not None and game.adjudication.no_mate_within is None
