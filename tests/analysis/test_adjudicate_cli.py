"""``gcadj adjudicate`` on the command line: files, folders, standard input, --fen, --json,
-v and -q, exit codes, and a file name full of terminal controls (run in process,
`invoke_gcadj`); Ctrl-C in the middle of a search, through the command and through the
API (real processes, sent a real SIGINT).

Whatever build is installed runs here (CI runs these tests against both).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, GCADJ, ROOT, invoke_gcadj

import gcadj
from gcadj.analysis.proof_check import check_proof
from gcadj.engine.position import Position

GAMES = FIXTURES / "adjudicate"
MATE_IN_ONE = GAMES / "mate-in-1.txt"
# A middlegame with both Queens in the pockets: a search to 6 moves takes minutes.
LONG_SEARCH = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[Qq] w - - 4 4"


def records(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines()]


def without_seconds(record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "adjudication": {**record["adjudication"], "seconds": None}}


def test_a_log_one_move_before_mate() -> None:
    done = invoke_gcadj("adjudicate", str(MATE_IN_ONE))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"{MATE_IN_ONE}: legal, 4 plies, result * (ongoing)"
    assert lines[1] == f"{MATE_IN_ONE}: proven 1-0: White, to move, mates in 1"
    assert lines[2:4] == ["  mating line: 3. Q d1-h5", "          SAN: 3. Qh5#"]
    assert lines[4].split() == ["material", *"12345678", "total", "pocket"]
    assert lines[5].split() == ["White", "8", "4", "2", "0", "1", "0", "0", "0", "27", "-"]
    assert done.stderr == ""


def test_json_is_the_checks_object_with_an_adjudication_the_checker_accepts() -> None:
    done = invoke_gcadj("adjudicate", "--json", str(MATE_IN_ONE))
    assert done.returncode == 0, done.stderr
    (record,) = records(done.stdout)
    check = invoke_gcadj("check", "--json", str(MATE_IN_ONE))
    assert {key: value for key, value in record.items() if key != "adjudication"} == json.loads(
        check.stdout
    )
    found = record["adjudication"]
    assert (found["class"], found["result"]) == ("proven", "1-0")
    mate = found["mate"]
    assert (mate["winner"], mate["moves"], mate["line"]) == ("white", 1, ["Q d1-h5"])
    checked = check_proof(
        Position(found["position"]), mate["tree"], winner="white", moves=mate["moves"]
    )
    assert checked.accepted, checked.reason
    api = gcadj.adjudicate(str(MATE_IN_ONE.relative_to(ROOT)))[0]
    assert without_seconds(json.loads(api.json_line())) == without_seconds(
        {**record, "source": api.source}
    )


def test_the_stop_hooks_game_from_standard_input() -> None:
    game = "P e2-e4\np f7-f6\nP d2-d4\np g7-g5\n"
    for args in (["--json"], ["--json", "-"]):
        done = invoke_gcadj("adjudicate", *args, stdin=game)
        assert done.returncode == 0, done.stderr
        (record,) = records(done.stdout)
        assert record["source"] == "<stdin>"
        found = record["adjudication"]
        assert (found["class"], found["result"], found["mate"]["moves"]) == ("proven", "1-0", 1)
        assert found["mate"]["line"] == ["Q d1-h5"]


def test_verbose_prints_the_whole_proof_tree() -> None:
    done = invoke_gcadj("adjudicate", "-v", "--fen", "2K5/R7/8/8/8/8/8/3k4[Wg] w - - 0 20")
    assert done.returncode == 0, done.stderr
    proof = done.stdout.split("  proof (white mates in 2; each defence: its answer):\n")[1]
    assert proof.splitlines() == [
        "    R a7-a1",
        "      k d1-e2: W i1-e1 #",
        "      k d1-c2: W i1-c1 #",
        "      k d1-d2: W i1-d1 #",
    ]
    assert "    FEN 2K5/R7/8/8/8/8/8/3k4[Wg] w - - 0 20" in done.stdout  # check -v's block


def test_fen_with_no_source_adjudicates_that_position_and_reads_no_stdin() -> None:
    done = invoke_gcadj(
        "adjudicate", "--json", "--fen", "k7/8/2K5/8/8/8/8/7R[] w - - 0 1", stdin="P e2-e4\n"
    )
    assert done.returncode == 0, done.stderr
    (record,) = records(done.stdout)
    assert record["source"] == "<fen>" and record["plies"] == 0
    mate = record["adjudication"]["mate"]
    assert (mate["line"], mate["san"]) == (
        ["K c6-b6", "k a8-b8", "R h1-h8"],
        ["Kb6", "Kb8", "Rh8#"],
    )
    from_stdin = invoke_gcadj(
        "adjudicate", "--json", "--fen", "-", stdin="k7/8/2K5/8/8/8/8/7R[] w - - 0 1\n"
    )
    assert records(from_stdin.stdout)[0]["adjudication"]["mate"] == mate


def test_a_folder_quietly_one_line_per_game_in_order() -> None:
    done = invoke_gcadj("adjudicate", "-q", "--mate-depth", "1", str(GAMES))
    assert done.returncode == 1, done.stderr  # one game is illegal
    lines = done.stdout.splitlines()
    assert [line.split(": ")[1] for line in lines] == [
        "recorded 0-1",  # bare-king-wins-on-time
        "proven 1-0",  # illegal-before-mate
        "recorded 0-1",  # lost-on-time-holding-mate
        "proven 1-0",  # mate-in-1
        "evidence 1-0",  # queen-hangs
        "claimable 1/2-1/2",  # repetition
        "undetermined *",  # threat
    ]
    assert lines[0].startswith(f"{GAMES / 'bare-king-wins-on-time.txt'}: ")
    # -q drops nothing the block says in words: the FIDE 6.9 note is on its line
    (verdict,) = gcadj.adjudicate(str(GAMES / "bare-king-wins-on-time.txt"), mate_depth=1)
    (note,) = verdict.adjudication.notes  # type: ignore[union-attr]
    assert lines[0].endswith(f"; note: {note}")


def test_exit_codes_are_the_checks(tmp_path: Path) -> None:
    illegal = tmp_path / "illegal.txt"
    illegal.write_text("P e2-e4\np f7-f6\nP d2-d4\np g7-g5\nQ d1-h6\n", encoding="utf-8")
    done = invoke_gcadj("adjudicate", "--json", str(illegal))
    assert done.returncode == 1
    assert records(done.stdout)[0]["adjudication"]["class"] == "proven"
    missing = invoke_gcadj("adjudicate", str(tmp_path / "missing.txt"))
    assert missing.returncode == 4 and "undetermined *: no position to adjudicate" in missing.stderr
    bad = invoke_gcadj("adjudicate", "--mate-depth", "0", str(MATE_IN_ONE))
    assert bad.returncode == 2 and "--mate-depth needs a whole number ≥ 1, not '0'" in bad.stderr
    unsearched = invoke_gcadj(
        "adjudicate", "-q", "--budget", "0", str(MATE_IN_ONE)
    )  # 0 s: no search, as serve
    assert unsearched.returncode == 0, unsearched.stderr
    assert "undetermined *: no mate was searched (a budget of 0 s)" in unsearched.stdout
    negative = invoke_gcadj("adjudicate", "--budget", "-1", str(MATE_IN_ONE))
    assert negative.returncode == 2 and "--budget needs a number ≥ 0" in negative.stderr


def test_a_node_limit_gives_the_same_answer_every_time() -> None:
    args = ("--json", "--nodes", "500", "--fen", "1K2F3/8/1p4g1/8/k7/8/8/8[N] w - - 0 20")
    first, second = invoke_gcadj("adjudicate", *args), invoke_gcadj("adjudicate", *args)
    assert first.returncode == second.returncode == 0
    one, two = records(first.stdout)[0], records(second.stdout)[0]
    assert without_seconds(one) == without_seconds(two)
    assert one["adjudication"]["cut"] == "nodes" and one["adjudication"]["nodes"] == 500


def wait_for(stream: Any, text: str) -> str:
    """Lines of `stream` up to one holding `text` (a hang guard: for two minutes at most)."""
    deadline = time.monotonic() + 120
    seen = ""
    while time.monotonic() < deadline:
        line = stream.readline()
        if not line:
            break
        seen += line
        if text in line:
            return seen
    raise AssertionError(f"never saw {text!r}: {seen!r}")


def interrupted(
    command: list[str], *, once: str, on_stdout: bool = False, pause: float = 0.0
) -> tuple[int, str, str]:
    """Run `command`; once its stderr (or stdout) shows `once`, wait `pause` seconds and
    press Ctrl-C (SIGINT); its exit code, stdout and stderr."""
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert process.stdout is not None and process.stderr is not None
    try:
        seen = wait_for(process.stdout if on_stdout else process.stderr, once)
        time.sleep(pause)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    return process.returncode, (seen + out) if on_stdout else out, err if on_stdout else seen + err


def test_ctrl_c_in_a_search_prints_what_was_proved_and_exits_130() -> None:
    command = ["adjudicate", "--mate-depth", "6", "--budget", "900", "--fen", LONG_SEARCH]
    code, out, err = interrupted([*GCADJ, *command], once="searching for a mate in")
    assert code == 130, err
    assert "<fen>: undetermined *: " in out and "was cut by Ctrl-C" in out
    assert "interrupted: the last answer is what its search had proved" in err
    assert "Traceback" not in err


def test_ctrl_c_reaches_a_search_through_the_api_in_either_build() -> None:
    """No progress callback: the prover itself lets Python notice Ctrl-C
    (gcadj.analysis.pause), also when it is compiled."""
    program = (
        "import gcadj\n"
        "options = gcadj.AdjudicateOptions(mate_depth=6, budget=900)\n"
        # every module of the search imported (a mate in 1 adjudicated) before 'searching':
        # a Ctrl-C sent while importing would test the interpreter, not the prover
        "gcadj.adjudicate_position('k7/8/1K6/8/8/8/8/7R[] w - - 0 1', options)\n"
        "print('searching', flush=True)\n"
        f"found = gcadj.adjudicate_position({LONG_SEARCH!r}, options)\n"
        "print(found.cut, found.reason, flush=True)\n"
    )
    code, out, err = interrupted(
        [sys.executable, "-c", program], once="searching", on_stdout=True, pause=1
    )
    assert code == 0, err
    assert "\ninterrupted " in out and "was cut by Ctrl-C" in out


@pytest.mark.parametrize("flag", ["", "-v", "-q"])
def test_a_file_name_with_terminal_controls_is_shown_safe(tmp_path: Path, flag: str) -> None:
    evil = tmp_path / "evil\x1b]0;pwned\x07\x1b[2J\u202e.txt"
    evil.write_text(MATE_IN_ONE.read_text(encoding="utf-8"), encoding="utf-8")
    done = invoke_gcadj("adjudicate", *([flag] if flag else []), str(evil))
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout and "\u202e" not in done.stdout
    assert "proven 1-0" in done.stdout and "␛]0;pwned␇" in done.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--mate-depth", "31"), "--mate-depth needs a whole number from 1 to 30, not 31"),
        (("--mate-depth", "100000000"), "--mate-depth needs a whole number from 1 to 30"),
        (("--mate-depth", "0"), "--mate-depth needs a whole number ≥ 1, not '0'"),
        (("--nodes", "-5"), "--nodes needs a whole number ≥ 1, not '-5'"),
        (("--table-mb", "0"), "--table-mb needs a number ≥ 1, not '0'"),
        (("--evidence-margin", "0"), "--evidence-margin needs a whole number ≥ 1, not '0'"),
    ],
)
def test_options_out_of_range_are_usage_errors(args: tuple[str, ...], words: str) -> None:
    done = invoke_gcadj("adjudicate", *args, "--fen", "k7/8/2K5/8/8/8/8/7R[] w - - 0 1")
    assert done.returncode == 2 and done.stdout == ""
    assert words in done.stderr


def test_a_huge_fen_is_a_short_message() -> None:
    """A megabyte of FEN on standard input (``--fen -``): the message quotes a little."""
    done = invoke_gcadj(
        "adjudicate", "--fen", "-", stdin="k7/8/8/8/8/8/8/7K[] w - - 0 " + "9" * 1_000_000 + "x"
    )
    assert done.returncode != 0 and len(done.stdout) + len(done.stderr) < 2_000
