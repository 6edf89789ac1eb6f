"""Every source gets a verdict, and the user's files are safe (issue 10), with real processes.

- A bug on one source (made by the library's own hook, GCADJ_INJECT_FAULT) costs that
  source an "internal error" verdict and exit code 5, never 1, in check, export and audit;
  the other sources are judged as always.
- Empty sources are errors, not legal games of 0 plies.
- One verdict is one line for every line splitter (str.splitlines), in check --json, the
  audit JSONL and export --to json; CSV cells hold no control character.
- An audit never replaces a source, its own JSONL, or a file gcadj did not write; a second
  audit on the same --out stops at once; --resume knows a path however it is spelled.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, GCADJ, ROOT, run_gcadj
from verdict_shape import assert_verdict_shape

from gcadj.about import GENERATOR_META
from gcadj.app.audit_files import is_locked
from gcadj.app.check import FAULT_ENV, check_source, check_text
from gcadj.judging.verdict import outcome_of
from gcadj.outputs.audit_report import CSV_HEADER

EX1 = FIXTURES / "examples" / "ex1_pocket_mutation_drops.txt"
EX5 = FIXTURES / "examples" / "ex5_syntax_variants.txt"  # illegal at ply 7

# Every character at which str.splitlines breaks a line.
LINE_BREAKS = "".join(chr(c) for c in range(0x110000) if len(f"a{chr(c)}b".splitlines()) > 1)


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


# -- defence in depth: exit 5 ----------------------------------------------------------


def games(tmp_path: Path) -> tuple[Path, Path, Path]:
    legal, boom, illegal = tmp_path / "legal.txt", tmp_path / "boom.txt", tmp_path / "bad.txt"
    legal.write_bytes(EX1.read_bytes())
    boom.write_bytes(EX1.read_bytes())
    illegal.write_bytes(EX5.read_bytes())
    return legal, boom, illegal


def test_the_library_turns_a_bug_into_that_sources_internal_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    legal, boom, _ = games(tmp_path)
    monkeypatch.setenv(FAULT_ENV, "boom")
    verdict = check_source(str(boom))
    assert (verdict.status, verdict.outcome) == ("error", "internal-error")
    assert verdict.error == (
        f"{boom}: internal error: InjectedFault: injected by {FAULT_ENV}='boom'"
    )
    assert check_source(str(legal)).status == "legal"
    assert check_text("P e2-e4\n", "boom in a string").outcome == "internal-error"
    monkeypatch.delenv(FAULT_ENV)
    assert check_source(str(boom)).status == "legal"  # the same file, without the fault


def test_an_unreadable_source_whose_name_looks_like_an_internal_error_is_still_unreadable(
    tmp_path: Path,
) -> None:
    name = str(tmp_path / "x: internal error: y.txt")
    verdict = check_source(name)
    assert verdict.status == "error" and verdict.outcome == "error", verdict.error
    assert outcome_of(name, "error", verdict.error) == "error"
    assert outcome_of("a", "error", "a: internal error: KeyError: 'k'") == "internal-error"


def test_check_gives_the_faulty_source_exit_5_and_judges_the_others(tmp_path: Path) -> None:
    legal, boom, illegal = games(tmp_path)
    done = run_gcadj(
        "check", "--json", str(legal), str(boom), str(illegal), env={FAULT_ENV: "boom"}
    )
    assert done.returncode == 5, done.stderr  # 5 wins over 1: never "illegal" for a bug
    verdicts = json_lines(done.stdout)
    assert [v["source"] for v in verdicts] == [str(legal), str(boom), str(illegal)]
    assert [v["status"] for v in verdicts] == ["legal", "error", "illegal"]
    assert verdicts[1]["error"].startswith(f"{boom}: internal error: InjectedFault: ")
    assert "bug in gcadj" in done.stderr
    text = run_gcadj("check", str(boom), env={FAULT_ENV: "boom"})
    # an unreadable or failed source is a diagnostic: stderr (issue 13)
    assert text.returncode == 5 and f"{boom}: internal error: InjectedFault" in text.stderr
    assert run_gcadj("check", str(legal), str(illegal), env={FAULT_ENV: "boom"}).returncode == 1


def test_export_exits_5_for_a_bug_and_writes_nothing(tmp_path: Path) -> None:
    _, boom, _ = games(tmp_path)
    target = tmp_path / "out.json"
    done = run_gcadj(
        "export", str(boom), "--to", "json", "-o", str(target), env={FAULT_ENV: "boom"}
    )
    assert done.returncode == 5
    assert f"{boom}: internal error: InjectedFault" in done.stderr
    assert not target.exists() and done.stdout == ""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_audit_gives_the_faulty_source_its_verdict_and_exit_5(tmp_path: Path, jobs: str) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    games(folder)
    out = tmp_path / "audit.jsonl"
    done = run_gcadj(
        "audit", str(folder), "--out", str(out), "--jobs", jobs, env={FAULT_ENV: "boom"}
    )
    assert done.returncode == 5, done.stderr
    verdicts = {Path(v["source"]).name: v for v in json_lines(out.read_text("utf-8"))}
    assert {name: v["status"] for name, v in verdicts.items()} == {
        "bad.txt": "illegal",
        "boom.txt": "error",
        "legal.txt": "legal",
    }
    assert ": internal error: InjectedFault: " in verdicts["boom.txt"]["error"]
    assert "1 source hit an internal error" in done.stderr


def test_every_exit_code_list_names_5() -> None:
    def page(name: str) -> str:  # the manual's lines wrap anywhere
        return " ".join((ROOT / "docs" / name).read_text("utf-8").split())

    assert "| 5 | gcadj failed" in page("check.md")  # check's table of exit codes
    assert page("convert.md").count("5 gcadj failed") >= 1  # export
    assert page("audit.md").count("5 gcadj failed") >= 2  # fetch, audit
    for command in ("check", "export", "audit"):
        help_text = run_gcadj(command, "--help").stdout
        assert "5 gcadj failed" in " ".join(help_text.split()), command


# -- empty is not a game ---------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [b"", b"   ", b"\n\n\t \r\n", b"\xef\xbb\xbf", b"\xef\xbb\xbf \n", b"\xe2\x80\xa8\n"],
    ids=["nothing", "spaces", "blank-lines", "bom", "bom-and-space", "line-separator"],
)
def test_an_empty_source_is_an_error_with_exit_4(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(content)
    done = run_gcadj("check", "--json", str(path))
    assert done.returncode == 4
    [verdict] = json_lines(done.stdout)
    assert (verdict["status"], verdict["error"]) == ("error", f"{path}: empty")
    piped = run_gcadj("check", "-", stdin=content)
    assert (piped.returncode, piped.stderr.strip()) == (4, "<stdin>: empty")
    exported = run_gcadj("export", str(path), "--to", "pgn")
    assert (exported.returncode, exported.stderr.strip()) == (4, f"{path}: empty")


def test_a_log_with_tags_and_no_plies_is_still_a_legal_game_of_0_plies(tmp_path: Path) -> None:
    path = tmp_path / "tags.txt"
    path.write_text('[White "Alice"]\n[Black "Bob"]\n\n', "utf-8")
    done = run_gcadj("check", "--json", str(path))
    assert done.returncode == 0
    [verdict] = json_lines(done.stdout)
    assert (verdict["status"], verdict["plies"]) == ("legal", 0)


def test_an_audit_counts_an_empty_file_as_an_error(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "empty.txt").write_bytes(b" \n")
    (folder / "game.txt").write_bytes(EX1.read_bytes())
    out = tmp_path / "audit.jsonl"
    done = run_gcadj("audit", str(folder), "--out", str(out), "--jobs", "1", "--quiet")
    assert done.returncode == 4
    statuses = {Path(v["source"]).name: v["status"] for v in json_lines(out.read_text())}
    assert statuses == {"empty.txt": "error", "game.txt": "legal"}


# -- one verdict, one line -------------------------------------------------------------


def log_with_every_line_break() -> str:
    """A legal game whose tag and comments hold every line break but LF and CR: the
    parser keeps them in values (they are no line end of a Game Courier log)."""
    inner = LINE_BREAKS.replace("\n", "").replace("\r", "")
    return f'[White "a{inner}b"]\nP e2-e4 // x{inner}y\np e7-e5\n'


def test_line_breaks_are_every_character_splitlines_knows() -> None:
    assert set(LINE_BREAKS) == set("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def test_check_json_is_one_line_per_verdict_for_str_splitlines(tmp_path: Path) -> None:
    path = tmp_path / "breaks.txt"
    path.write_text(log_with_every_line_break(), "utf-8", newline="")
    bad = tmp_path / "bad.txt"  # a syntax error: its message quotes the line as typed
    bad.write_text(f"P e2-e4\nP e7{LINE_BREAKS[5:]}-e5 ?\n", "utf-8", newline="")
    done = run_gcadj("check", "--json", str(path), str(bad))
    lines = done.stdout.splitlines()
    assert len(lines) == 2, lines
    verdicts = [json.loads(line) for line in lines]
    for verdict in verdicts:
        assert_verdict_shape(verdict)
    assert verdicts[0]["status"] == "legal", verdicts[0]
    assert verdicts[1]["status"] == "syntax-error", verdicts[1]


def test_the_audit_jsonl_and_the_json_export_are_one_line_per_line(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    text = log_with_every_line_break()
    (folder / "breaks.txt").write_text(text, "utf-8", newline="")
    out = tmp_path / "audit.jsonl"
    assert run_gcadj("audit", str(folder), "--out", str(out), "--quiet").returncode == 0
    data = out.read_text("utf-8")
    assert len(data.splitlines()) == 1 == data.count("\n")
    exported = run_gcadj("export", str(folder / "breaks.txt"), "--to", "json").stdout
    assert exported.splitlines() == exported.split("\n")[:-1]  # no hidden line inside
    document = json.loads(exported)
    inner = LINE_BREAKS.replace("\n", "").replace("\r", "")
    assert document["tags"]["White"] == f"a{inner}b"  # the same characters, escaped
    assert document["plies"][0]["comment"] == f"x{inner}y"


def test_csv_cells_hold_no_control_characters(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    # a syntax error holding NUL, BEL and NEL (U+0085, in UTF-8: a lone 0x85 byte would be
    # read as Windows-1252's ellipsis)
    (folder / "nul.txt").write_bytes(b"P e2-e4\nP e7-e5 \x00\x07\xc2\x85\n")
    out, table = tmp_path / "audit.jsonl", tmp_path / "audit.csv"
    done = run_gcadj("audit", str(folder), "--out", str(out), "--csv", str(table), "--quiet")
    assert done.returncode == 3
    with table.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert len(rows) == 2
    error = rows[1][-1]
    controls = [c for c in "".join(rows[1]) if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F]
    assert controls == [] and not {"\u2028", "\u2029"} & set(error)
    assert "␀␇<U+0085>" in error and "␊" in error  # visible stand-ins, line breaks too
    assert len(table.read_text("utf-8").splitlines()) == 2  # one physical line per game


# -- the user's files are safe ---------------------------------------------------------


def audit_folder(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "games"
    folder.mkdir()
    for path in sorted((FIXTURES / "examples").glob("*.txt")):
        (folder / path.name).write_bytes(path.read_bytes())
    return folder, tmp_path / "audit.jsonl"


def test_csv_and_report_never_replace_a_source_or_the_audit(tmp_path: Path) -> None:
    folder, out = audit_folder(tmp_path)
    game = folder / "ex1_pocket_mutation_drops.txt"
    precious = game.read_bytes()
    relative = os.path.relpath(game, tmp_path)
    cases = [
        ("--report", str(out), "is the --output file"),
        ("--csv", str(out), "is the --output file"),
        ("--csv", relative, "is a source of this audit"),  # the same file, spelled relatively
        ("--report", str(folder / "new.html"), "is a source of this audit"),  # would be walked
    ]
    for option, target, message in cases:
        for force in ([], ["--force"]):
            done = run_gcadj("audit", str(folder), "--out", str(out), option, target, *force,
                         cwd=tmp_path)  # fmt: skip
            assert done.returncode == 2, (option, target, done.stderr)
            assert message in done.stderr, done.stderr
    assert game.read_bytes() == precious
    assert not out.exists()  # refused before the audit began
    done = run_gcadj("audit", str(game), "--out", str(tmp_path / "x.jsonl"), "--csv", str(game))
    assert done.returncode == 2 and game.read_bytes() == precious
    done = run_gcadj("audit", str(game), "--out", str(game), "--force")
    assert done.returncode == 2 and "is a source" in done.stderr and game.read_bytes() == precious
    same = tmp_path / "same.out"
    done = run_gcadj(
        "audit", str(folder), "--out", str(out), "--csv", str(same), "--report", str(same)
    )
    assert done.returncode == 2 and "name the same file" in done.stderr


def test_without_force_only_gcadjs_own_csv_and_report_are_replaced(tmp_path: Path) -> None:
    folder, out = audit_folder(tmp_path)
    table, report = tmp_path / "r.csv", tmp_path / "r.html"
    table.write_text("my,own,table\n", "utf-8")
    report.write_text("<html><head></head><body>my page</body></html>", "utf-8")
    args = ["audit", str(folder), "--out", str(out), "--quiet"]
    done = run_gcadj(*args, "--csv", str(table))
    assert done.returncode == 2 and "is not a CSV gcadj wrote; use --force" in done.stderr
    done = run_gcadj(*args, "--report", str(report))
    assert done.returncode == 2 and "is not a report gcadj wrote; use --force" in done.stderr
    assert table.read_text("utf-8") == "my,own,table\n"
    assert "my page" in report.read_text("utf-8")
    # --force replaces them; then gcadj recognises its own files and replaces them freely
    done = run_gcadj(*args, "--csv", str(table), "--report", str(report), "--force")
    assert done.returncode == 1, done.stderr
    assert table.read_text("utf-8").splitlines()[0] == CSV_HEADER
    head = report.read_text("utf-8")[:1000]
    assert GENERATOR_META in head.split("</head>")[0]
    out.unlink()
    done = run_gcadj(*args, "--csv", str(table), "--report", str(report))
    assert done.returncode == 1, done.stderr
    # the report in the folder is not walked as a game on the next run
    inside = folder / "report.html"
    inside.write_bytes(report.read_bytes())
    out.unlink()
    done = run_gcadj(*args, "--report", str(inside))
    assert done.returncode == 1, done.stderr
    assert len(out.read_text().splitlines()) == 5  # the five games, not the report


def big_corpus(folder: Path, count: int) -> None:
    folder.mkdir()
    text = EX1.read_bytes()
    for number in range(count):
        (folder / f"g{number:05d}.txt").write_bytes(text)


def feed_when_read(fifo: Path, data: bytes, process: subprocess.Popen[bytes]) -> None:
    """Write `data` into `fifo` once `process` opens it for reading (or has ended)."""
    deadline = time.monotonic() + 300
    while process.poll() is None and time.monotonic() < deadline:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # fails while no one reads it
        except OSError:
            time.sleep(0.01)
            continue
        try:
            os.set_blocking(fd, True)
            os.write(fd, data)
        finally:
            os.close(fd)
        return


def test_a_second_audit_on_the_same_out_exits_2_while_the_first_runs(tmp_path: Path) -> None:
    folder, out = tmp_path / "games", tmp_path / "audit.jsonl"
    big_corpus(folder, 3000)
    # The first audit's last source is a named pipe that holds it, lock and all, until the
    # test writes the game into it: however fast the judging, it is still running.
    fifo = tmp_path / "last.txt"
    os.mkfifo(fifo)
    first = subprocess.Popen(
        [*GCADJ, "audit", str(folder), str(fifo), "--out", str(out), "--jobs", "1", "--quiet"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 60
        while not (out.exists() and out.stat().st_size) and time.monotonic() < deadline:
            assert first.poll() is None, "the first audit ended too soon"
            time.sleep(0.01)
        for extra in ([], ["--resume"], ["--force"]):
            second = run_gcadj("audit", str(folder), "--out", str(out), "--quiet", *extra)
            assert second.returncode == 2, (extra, second.stderr)
            assert "another audit holds" in second.stderr, second.stderr
        assert first.poll() is None, "the lock must be tested while the first audit runs"
    finally:
        feed_when_read(fifo, EX1.read_bytes(), first)
        assert first.wait(timeout=300) == 0
    lines = out.read_text().splitlines()
    sources = [json.loads(line)["source"] for line in lines]
    assert len(sources) == len(set(sources)) == 3001  # nothing interleaved
    assert sources[-1] == str(fifo)
    assert run_gcadj("audit", str(folder), "--out", str(out), "--resume", "--quiet").returncode == 0


def test_resume_knows_a_source_however_its_path_is_spelled(tmp_path: Path) -> None:
    folder, out = audit_folder(tmp_path)
    relative = run_gcadj("audit", "games", "--out", str(out), "--quiet", cwd=tmp_path)
    assert relative.returncode == 1
    before = out.read_bytes()
    done = run_gcadj("audit", str(folder), "./games/", "--out", str(out), "--resume", cwd=tmp_path)
    assert done.returncode == 1
    assert out.read_bytes() == before  # nothing judged again
    assert "5 games were already judged" in done.stderr


# -- a bad [FEN] tag points at itself --------------------------------------------------


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_a_bad_fen_tag_is_a_syntax_error_at_its_own_line_and_column(
    tmp_path: Path, newline: str
) -> None:
    code = "rnbqkbnr1/pppppppp-/8-/8Q/8-/8-/PPPPPPPP-/RNBQKBNR1"  # a Queen on i5, no cell
    tag_line = f'  [FEN "{code}"]'
    lines = ["// a game", '[White "Alice"]', tag_line, "P e2-e4"]
    path = tmp_path / "fen.txt"
    path.write_bytes(newline.join(lines).encode("utf-8") + newline.encode())
    done = run_gcadj("check", str(path))
    assert done.returncode == 3
    column = tag_line.index("8Q") + 2  # 1-based column of the Queen that cannot stand there
    assert done.stdout.startswith(f"{path}:3:{column}: syntax error: expected a start position")
    assert "i5 does not exist" in done.stdout
    plain = tmp_path / "fen2.txt"
    plain.write_text('[FEN "8/8 w"]\nP e2-e4\n', "utf-8")
    assert run_gcadj("check", str(plain)).stdout.startswith(f"{plain}:1:7: syntax error")


def test_the_lock_goes_with_a_killed_audit_not_with_its_workers(tmp_path: Path) -> None:
    folder, out = tmp_path / "games", tmp_path / "audit.jsonl"
    big_corpus(folder, 3000)
    audit = subprocess.Popen(
        [*GCADJ, "audit", str(folder), "--out", str(out), "--jobs", "2", "--quiet"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
        start_new_session=True,  # its own process group, workers included
    )
    try:
        deadline = time.monotonic() + 60
        while not (out.exists() and out.stat().st_size) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert is_locked(out)
        os.kill(audit.pid, signal.SIGKILL)
        audit.wait(timeout=60)  # a hang guard, with a margin for a loaded machine
        assert not is_locked(out)  # at once, though the workers may still be ending
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(audit.pid, signal.SIGKILL)
    done = run_gcadj("audit", str(folder), "--out", str(out), "--resume", "--quiet")
    assert done.returncode == 0, done.stderr
    sources = [json.loads(line)["source"] for line in out.read_text().splitlines()]
    assert len(sources) == len(set(sources)) == 3000
