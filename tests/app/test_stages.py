"""Adjudication as a stage of the one pipeline: a judged game carries its adjudication, made
once where the game is judged (`gcadj.app.stages`), for every caller that sets the option
(``gcadj adjudicate``, ``audit --adjudicate``, ``export --adjudicate``, the server).

The JSON line of ``gcadj adjudicate --json`` is the verdict's own; a plain check's is byte
for byte as before; a bug in the stage is that game's answer (an internal error, exit 5);
the stage keeps within the time its source has."""

from __future__ import annotations

import json
import pickle
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, invoke_gcadj

import gcadj
from gcadj.analysis import adjudicator as adjudicate_module
from gcadj.analysis.adjudicator import adjudicate_verdict
from gcadj.analysis.options import AdjudicateOptions
from gcadj.app.pipeline import JudgeOptions, judge_source
from gcadj.vocabulary import AdjudicationClass, VerdictKind

MATE_IN_ONE = FIXTURES / "adjudicate" / "mate-in-1.txt"
MATE_IN_2 = '[FEN "1k6/8/2K5/8/8/8/8/7R[] b - - 0 1"]\nk b8-a8\n'
QUICK = AdjudicateOptions(mate_depth=3, budget=None, node_limit=100_000)


def without_seconds(record: dict[str, Any]) -> dict[str, Any]:
    found = dict(record)
    found["adjudication"] = {k: v for k, v in found["adjudication"].items() if k != "seconds"}
    return found


def test_a_judged_game_carries_the_adjudication_its_options_ask_for() -> None:
    (plain,) = judge_source("m.txt", text=MATE_IN_2)
    (judged,) = judge_source("m.txt", JudgeOptions(adjudicate=QUICK), text=MATE_IN_2)
    assert plain.adjudication is None
    assert judged.adjudication is not None
    assert judged == plain  # the same verdict: the adjudication takes no part in equality
    alone = adjudicate_verdict(plain, QUICK)
    assert judged.adjudication.to_json() | {"seconds": 0} == alone.to_json() | {"seconds": 0}
    assert judged.adjudication.mate is not None and judged.adjudication.mate.moves == 2


def test_a_checks_json_is_byte_for_byte_as_before_and_the_adjudication_is_one_more_key() -> None:
    (plain,) = judge_source("m.txt", text=MATE_IN_2)
    (judged,) = judge_source("m.txt", JudgeOptions(adjudicate=QUICK), text=MATE_IN_2)
    assert "adjudication" not in plain.to_json()
    assert list(judged.to_json()) == [*plain.to_json(), "adjudication"]
    line = json.loads(judged.json_line())
    assert {k: v for k, v in line.items() if k != "adjudication"} == json.loads(plain.json_line())
    assert line["adjudication"] == judged.adjudication.to_json()  # type: ignore[union-attr]


def test_gcadj_adjudicate_prints_the_verdicts_own_line() -> None:
    done = invoke_gcadj("adjudicate", "--json", str(MATE_IN_ONE))
    assert done.returncode == 0, done.stderr
    options = JudgeOptions(adjudicate=AdjudicateOptions())
    (verdict,) = judge_source(str(MATE_IN_ONE), options)
    assert without_seconds(json.loads(done.stdout)) == without_seconds(verdict.to_json())


def test_the_api_gives_the_judged_games_themselves() -> None:
    (game,) = gcadj.adjudicate("m.txt", text=MATE_IN_2, budget=None, node_limit=100_000)
    assert isinstance(game, gcadj.Verdict)
    assert game.adjudication is not None and game.adjudication.kind is AdjudicationClass.PROVEN
    assert game.to_json()["adjudication"] == game.adjudication.to_json()


def test_a_bug_in_the_stage_is_that_games_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("injected")

    monkeypatch.setattr(adjudicate_module, "search_mate", broken)
    pgn = "".join(f'[Event "{i}"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n' for i in range(2))
    verdicts = judge_source("g.pgn", JudgeOptions(adjudicate=QUICK), text=pgn)
    assert len(verdicts) == 2  # the next game is judged and adjudicated all the same
    for verdict in verdicts:
        assert verdict.adjudication is not None and verdict.adjudication.internal
        assert verdict.adjudication.reason == "internal error: ValueError: injected"
        assert verdict.outcome is VerdictKind.INTERNAL_ERROR  # gcadj's own failure: exit 5


def test_a_sources_stages_share_the_time_it_has() -> None:
    """With no time left for a source's stages, each game is adjudicated without a mate
    search; with time, each search goes to its depth."""
    pgn = "".join(f'[Event "{i}"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n' for i in range(3))
    none_left = judge_source("g.pgn", JudgeOptions(adjudicate=QUICK, stage_seconds=0.0), text=pgn)
    found = [v.adjudication for v in none_left]
    assert all(a is not None and a.no_mate_within is None for a in found)
    assert all(a is not None and "no mate was searched" in a.reason for a in found)
    plenty = judge_source("g.pgn", JudgeOptions(adjudicate=QUICK, stage_seconds=600.0), text=pgn)
    assert [v.adjudication.no_mate_within for v in plenty if v.adjudication] == [3, 3, 3]


def test_options_and_judged_games_travel_to_worker_processes() -> None:
    options = JudgeOptions(adjudicate=QUICK, stage_seconds=2.5)
    assert pickle.loads(pickle.dumps(options)) == options
    (judged,) = judge_source("m.txt", options, text=MATE_IN_2)
    back = pickle.loads(pickle.dumps(judged))
    assert back.adjudication == judged.adjudication
    assert back.json_line() == judged.json_line()


def test_a_folder_is_adjudicated_by_the_batch_runner_in_the_order_of_its_games(
    tmp_path: Path,
) -> None:
    """``gcadj adjudicate FOLDER`` runs in worker processes, as ``gcadj audit`` does: the
    same lines, in the same order, with one job or two; a game on which a worker dies gets
    the runner's words, and the exit code is the one policy's."""
    import shutil

    folder = tmp_path / "games"
    shutil.copytree(FIXTURES / "adjudicate", folder)
    (folder / "README.md").unlink()
    (folder / "illegal.txt").write_text("P e2-e4\np e7-e5\nK e1-e3\n", encoding="utf-8")

    def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return invoke_gcadj("adjudicate", "--json", "--mate-depth", "1", *args, env=env)

    one, two = run("-j", "1", str(folder)), run("-j", "2", str(folder))
    assert one.returncode == two.returncode == 1, one.stderr  # an illegal move: exit 1
    lines = [without_seconds(json.loads(line)) for line in one.stdout.splitlines()]
    assert lines == [without_seconds(json.loads(line)) for line in two.stdout.splitlines()]
    assert [Path(r["source"]).name for r in lines] == sorted(p.name for p in folder.iterdir())
    killed = run(str(folder), env={"GCADJ_INJECT_WORKER_KILL": "repetition"})
    assert killed.returncode == 4, killed.stderr
    dead = [json.loads(line) for line in killed.stdout.splitlines() if "repetition" in line]
    assert "the worker judging it died" in dead[0]["error"]
    assert dead[0]["adjudication"]["class"] == "undetermined"
