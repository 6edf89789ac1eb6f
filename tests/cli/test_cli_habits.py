"""The command line as a tournament director uses it (issue 13), through the real CLI on real
files: folders as sources, PGN databases written and read back game by game, stdout for
verdicts and stderr for diagnostics, -q/-v, the audit's exit codes and summary, help and
error wording, -o naming a folder, --pocket-file, and `fen --to-gc startpos`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import FIXTURES, invoke_gcadj
from httpserver import FixtureServer, page

from gcadj.about import GENERATOR_META
from gcadj.engine.fen import STARTING_FEN

LOGS = FIXTURES / "logs"
EXAMPLES = FIXTURES / "examples"
PAGES = FIXTURES / "pages"
LEGAL = LOGS / "legal" / "checkmate.txt"
ILLEGAL = LOGS / "illegal" / "castling.txt"


def invoke(*args: str) -> tuple[int, str, str]:
    """`invoke_gcadj` as (exit code, stdout, stderr), the shape these tests compare."""
    done = invoke_gcadj(*args)
    return done.returncode, done.stdout, done.stderr


def json_lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


def all_fixture_logs() -> list[Path]:
    return sorted([*(LOGS / "legal").glob("*.txt"), *(LOGS / "illegal").glob("*.txt")])


# ---------------------------------------------------------------------------------------
# 1. Folders as sources


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """A folder as a director keeps one: games, notes, gcadj's own outputs, hidden files."""
    root = tmp_path / "archive"
    (root / "sub").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "a.txt").write_bytes(LEGAL.read_bytes())
    (root / "sub" / "b.log").write_bytes(ILLEGAL.read_bytes())
    (root / "sub" / "page.HTM").write_bytes((PAGES / "pmc_pre.html").read_bytes())
    (root / "z.txt").write_bytes((EXAMPLES / "ex4_resignation.txt").read_bytes())
    (root / "notes.md").write_text("not a game\n")
    (root / ".hidden.txt").write_bytes(LEGAL.read_bytes())
    (root / ".git" / "d.txt").write_bytes(LEGAL.read_bytes())
    (root / "report.html").write_text(
        f"<!DOCTYPE html><html><head>{GENERATOR_META}<title>r</title></head><body>x</body>"
    )
    (root / "results.jsonl").write_text('{"source": "elsewhere.txt"}\n')
    (root / "results.csv").write_text("source,status\n")
    return root


def expected_walk(root: Path) -> list[str]:
    # sorted by name within each folder, files and sub-folders together (as find | sort)
    names = ["a.txt", "sub/b.log", "sub/page.HTM", "z.txt"]
    return [str(root / name) for name in names]


def test_check_walks_a_folder_in_sorted_order_skipping_hidden_files_and_own_outputs(
    archive: Path,
) -> None:
    code, stdout, stderr = invoke("check", "--json", str(archive))
    assert code == 1, stderr  # b.log is illegal
    assert [row["source"] for row in json_lines(stdout)] == expected_walk(archive)


def test_check_export_and_audit_see_the_same_games(archive: Path, tmp_path: Path) -> None:
    out = tmp_path / "audit.jsonl"
    code, _, stderr = invoke("audit", str(archive), "--jobs", "1", "--out", str(out), "-q")
    assert code == 1, stderr
    assert [row["source"] for row in json_lines(out.read_text())] == expected_walk(archive)
    code, stdout, stderr = invoke("export", str(archive), "--to", "pgn")
    assert code == 0, stderr
    assert stdout.count('[Variant "Pocket Mutation Chess"]') == 4
    assert stdout.index("K e1-g1") < stdout.index('[Status "Bob Example has resigned."]')


def test_a_folder_with_no_game_is_exit_4_for_every_command(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "readme.md").write_text("nothing here\n")
    for command in (["check"], ["audit", "-q"], ["export", "--to", "pgn"]):
        code, stdout, stderr = invoke(*command, str(empty))
        assert code == 4, (command, stderr)
        assert f"{empty}: no game file" in stderr and "in this folder" in stderr
        assert stdout == ""


# ---------------------------------------------------------------------------------------
# 2. The PGN database


def comparable(row: dict[str, object]) -> dict[str, object]:
    """What a round trip keeps: everything but the source, line and column, and warnings
    about how a ply was typed (the export writes the move itself)."""
    first = row["first_illegal"]
    kept = {k: v for k, v in row.items() if k not in ("source", "first_illegal", "illegal")}
    kept.pop("warnings")
    if isinstance(first, dict):
        kept["first_illegal"] = {k: v for k, v in first.items() if k not in ("line", "column")}
    return kept


def test_all_fixture_logs_make_one_pgn_database_that_checks_the_same(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for path in all_fixture_logs():
        (logs / f"{path.parent.name}-{path.name}").write_bytes(path.read_bytes())
    database = tmp_path / "all.pgn"
    done = invoke_gcadj("export", str(logs), "--to", "pgn", "-o", str(database))
    assert done.returncode == 0, done.stderr
    originals = json_lines(invoke_gcadj("check", "--json", str(logs)).stdout)
    assert len(originals) == len(all_fixture_logs()) > 30
    text = database.read_text()
    assert text.count('[Variant "Pocket Mutation Chess"]') == len(originals)
    assert text.count("{gcadj: illegal ply") == sum(r["status"] == "illegal" for r in originals)

    done = invoke_gcadj("check", "--json", str(database))
    again = json_lines(done.stdout)
    assert [row["source"] for row in again] == [
        f"{database}#{n}" for n in range(1, len(originals) + 1)
    ]
    assert [comparable(row) for row in again] == [comparable(row) for row in originals]
    lines = text.splitlines()
    for row in again:  # line and column point into the database file, at the ply as typed
        first = row["first_illegal"]
        if isinstance(first, dict):
            line, column = int(first["line"]), int(first["column"])
            assert lines[line - 1][column - 1 :].startswith(str(first["text"])), first

    out = tmp_path / "audit.jsonl"
    code, _, stderr = invoke("audit", str(database), "-j", "2", "--out", str(out), "-q")
    assert code == 1, stderr
    audited = json_lines(out.read_text())
    assert sorted(map(json.dumps, audited)) == sorted(map(json.dumps, again))


def test_one_game_of_a_database_is_named_and_read_alone(tmp_path: Path) -> None:
    database = tmp_path / "db.pgn"
    sources = [str(EXAMPLES / name) for name in ("ex4_resignation.txt", "ex5_syntax_variants.txt")]
    code, _, stderr = invoke("export", *sources, "--to", "pgn", "-o", str(database))
    assert code == 0, stderr
    code, stdout, _ = invoke("check", "--json", f"{database}#2")
    assert code == 1
    (row,) = json_lines(stdout)
    assert row["source"] == f"{database}#2" and row["status"] == "illegal"
    code, stdout, stderr = invoke("check", f"{database}#3")
    assert code == 4 and f"{database}#3: {database} holds 2 games" in stderr and stdout == ""
    code, stdout, _ = invoke("export", f"{database}#1", "--to", "gc")
    assert code == 0 and '[Status "Bob Example has resigned."]' in stdout


def test_a_bad_game_in_a_database_costs_only_itself(tmp_path: Path) -> None:
    head = '[Variant "Pocket Mutation Chess"]\n'
    database = tmp_path / "three.pgn"
    database.write_text(
        f'{head}[White "a"]\n\n1. e4 e5 *\n\n'
        f'{head}[White "b"]\n\n1. e4 Ke5 2. Qx9 *\n\n'
        f'{head}[White "c"]\n\n1. d4 {{a comment with 1-0 in it}} d5 1/2-1/2\n'
    )
    code, stdout, _ = invoke("check", "--json", str(database))
    assert code == 3
    rows = json_lines(stdout)
    assert [row["status"] for row in rows] == ["legal", "syntax-error", "legal"]
    # line 9 of the file, column 7: where Ke5 stands (no King reaches it)
    assert str(rows[1]["error"]).startswith(f"{database}#2:9:7: syntax error")
    # the "1-0" in the comment neither ends the game nor is its result: the token is
    assert rows[2]["plies"] == 2 and rows[2]["result"] == "1/2-1/2"


def test_export_of_an_audits_jsonl_gathers_its_games(archive: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert invoke("audit", str(archive), "-j", "1", "--out", str(out), "-q")[0] == 1
    code, from_jsonl, stderr = invoke("export", str(out), "--to", "pgn")
    assert code == 0, stderr
    assert from_jsonl == invoke("export", str(archive), "--to", "pgn")[1]
    code, stdout, _ = invoke("check", "--json", str(out))
    assert [row["source"] for row in json_lines(stdout)] == expected_walk(archive)


def test_a_jsonl_that_is_not_an_audits_is_a_problem_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"source": "a.txt"}\n[1, 2]\n')
    code, _, stderr = invoke("check", str(bad))
    assert code == 4 and f"{bad}:2: not an audit's result line" in stderr


def test_resume_of_a_database_audit_judges_each_game_once(tmp_path: Path) -> None:
    database = tmp_path / "db.pgn"
    assert invoke("export", str(EXAMPLES), "--to", "pgn", "-o", str(database))[0] == 0
    out = tmp_path / "r.jsonl"
    assert invoke("audit", str(database), "-j", "1", "--out", str(out), "-q")[0] == 1
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:2]) + lines[2][:30])  # killed while writing game 3
    code, _, stderr = invoke("audit", str(database), "-j", "1", "--out", str(out), "--resume")
    assert code == 1, stderr
    sources = [row["source"] for row in json_lines(out.read_text())]
    assert sorted(sources) == sorted(f"{database}#{n}" for n in range(1, 6))


def test_only_pgn_takes_several_games(tmp_path: Path) -> None:
    code, stdout, stderr = invoke("export", str(LEGAL), str(ILLEGAL), "--to", "gc")
    assert code == 2 and "--to pgn writes several" in stderr and stdout == ""
    code, stdout, stderr = invoke("export", str(EXAMPLES), "--to", "json")
    assert code == 2 and "--to json writes one game, not 5" in stderr and stdout == ""


def test_a_database_is_written_with_the_games_that_can_be_read(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("e4 e5\n")  # SAN in a log (numbered and alone, it would be PGN)
    missing = tmp_path / "missing.txt"
    code, stdout, stderr = invoke("export", str(LEGAL), str(bad), str(missing), "--to", "pgn")
    assert code == 4  # the worst: a source could not be read
    assert stdout.count("[Variant ") == 1
    assert f"{bad}:1:" in stderr and f"{missing}: no such file" in stderr


# ---------------------------------------------------------------------------------------
# 3. Streams and verbosity


def test_check_verdicts_on_stdout_and_unreadable_sources_on_stderr(tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    done = invoke_gcadj("check", str(missing), str(LEGAL))
    assert done.returncode == 4
    assert done.stdout == f"{LEGAL}: legal, 4 plies, result 0-1 (checkmate)\n"
    assert done.stderr == f"{missing}: no such file\n"


def test_quiet_prints_only_the_failing_games_one_line_each(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("e4 e5\n")  # SAN in a log (numbered and alone, it would be PGN)
    missing = tmp_path / "missing.txt"
    done = invoke_gcadj("check", "-q", str(LEGAL), str(ILLEGAL), str(bad), str(missing))
    assert done.returncode == 4
    out = done.stdout.splitlines()
    assert len(out) == 2
    assert out[0].startswith(f"{ILLEGAL}:") and "illegal at ply" in out[0]
    assert "[castling]" in out[0]
    assert out[1].startswith(f"{bad}:1:") and "syntax error" in out[1]
    assert done.stderr == f"{missing}: no such file\n"
    quiet_json = json_lines(invoke_gcadj("check", "-q", "--json", str(LEGAL), str(ILLEGAL)).stdout)
    assert [row["status"] for row in quiet_json] == ["illegal"]


def test_verbose_adds_the_tags_and_the_final_position() -> None:
    plain = invoke_gcadj("check", str(EXAMPLES / "ex4_resignation.txt")).stdout
    verbose = invoke_gcadj("check", "-v", str(EXAMPLES / "ex4_resignation.txt")).stdout
    assert "Final position:" not in plain and "tags:" not in plain
    assert "tags: " in verbose and "Status 'Bob Example has resigned.'" in verbose
    assert "Final position:" in verbose and "    FEN rnb1k1nr/" in verbose
    assert "White's pocket (i1)" in verbose


def test_export_quiet_and_verbose(tmp_path: Path) -> None:
    _, _, stderr = invoke("export", str(ILLEGAL), "--to", "gc")
    assert "note:" in stderr and "[castling]" in stderr
    code, stdout, stderr = invoke("export", str(ILLEGAL), "--to", "gc", "-q")
    assert code == 0 and stderr == "" and stdout
    target = tmp_path / "db.pgn"
    _, _, stderr = invoke("export", str(EXAMPLES), "--to", "pgn", "-v", "-o", str(target))
    assert f"wrote 5 games to {target}" in stderr


# ---------------------------------------------------------------------------------------
# 4. The audit's exit codes and summary


def test_audit_summary_names_ten_failing_games_and_where_the_rest_are(tmp_path: Path) -> None:
    folder = tmp_path / "bad"
    folder.mkdir()
    for n in range(12):
        (folder / f"g{n:02d}.txt").write_bytes(ILLEGAL.read_bytes())
    (folder / "ok.txt").write_bytes(LEGAL.read_bytes())
    out, table = tmp_path / "r.jsonl", tmp_path / "r.csv"
    args = ("audit", str(folder), "-j", "1", "--out", str(out), "--force")
    code, stdout, stderr = invoke(*args, "--csv", str(table))
    assert code == 1
    assert "13 games in all" in stderr and "failing games (the first 10 of 12):" in stderr
    # as check -q prints them, on its stream: file:line:col, the move number, in order
    line = r"g(\d\d)\.txt:\d+:\d+: illegal at ply \d+ \(\d+\.+ .+\) \[castling\]"
    named = re.findall(line, stdout)
    assert named == [f"{n:02d}" for n in range(10)]
    assert f"2 other failing games are in {out} and {table}" in stderr
    code, stdout, stderr = invoke(*args, "-v")
    assert len(re.findall(r"\.txt:\d+:\d+: illegal at ply", stdout)) == 12
    assert "other failing" not in stderr
    code, stdout, stderr = invoke(*args, "-q")
    assert code == 1 and stderr == "" and "games by" not in stdout
    assert stdout == invoke("check", str(folder), "-q")[1]  # the same lines as check -q
    assert len(stdout.splitlines()) == 12


def test_audit_of_an_index_with_no_game_of_the_variant_is_exit_4(tmp_path: Path) -> None:
    index = "/play/pbm/logs.php?status=finished"
    with FixtureServer({index: page((PAGES / "logs_index.html").read_bytes())}) as server:
        code, _, stderr = invoke(
            "audit",
            "--index",
            server.url(index),
            "--game",
            "No Such Chess",
            "-q",
            "--no-cache",
            "--delay",
            "0",
        )
    assert code == 4
    assert "lists no game of 'No Such Chess'" in stderr
    assert "no game found" in stderr


def test_audit_singular_wording(tmp_path: Path) -> None:
    code, _, stderr = invoke("audit", str(LEGAL), "-j", "1")
    assert code == 0 and "1 game in all" in stderr and "1 games" not in stderr


# ---------------------------------------------------------------------------------------
# 5. Help and wording


def test_help_lists_the_commands_in_order_with_whole_descriptions() -> None:
    done = invoke_gcadj("--help")
    commands = re.findall(r"^  (\w+)\s{2,}(.+)$", done.stdout.split("Commands:")[1], re.M)
    assert [name for name, _ in commands] == [
        "check",
        "adjudicate",
        "analyse",
        "export",
        "audit",
        "fetch",
        "fen",
        "serve",
        "perft",
    ]
    assert all(not line.endswith("...") for _, line in commands)
    assert "..." not in done.stdout.split("Commands:")[1]


@pytest.mark.parametrize(
    ("command", "usage"),
    [
        ("check", "Usage: gcadj check [OPTIONS] [SOURCES...]"),
        ("export", "Usage: gcadj export [OPTIONS] [SOURCES...]"),
        ("audit", "Usage: gcadj audit [OPTIONS] [SOURCES...]"),
        ("fetch", "Usage: gcadj fetch [OPTIONS] URL"),
        ("perft", "Usage: gcadj perft [OPTIONS] FEN DEPTH"),
    ],
)
def test_usage_lines_name_the_arguments_plainly(command: str, usage: str) -> None:
    code, stdout, _ = invoke(command, "--help")
    assert code == 0 and stdout.splitlines()[0] == usage
    assert "{" not in stdout.splitlines()[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["export", str(LEGAL), "--to", "fen", "--ply", "abc"], "--ply needs a whole number ≥ 0"),
        (["export", str(LEGAL), "--to", "fen", "--ply", "-1"], "--ply needs a whole number ≥ 0"),
        (["audit", str(LEGAL), "--jobs", "0"], "--jobs needs a whole number ≥ 1"),
        (["audit", str(LEGAL), "--retries", "two"], "--retries needs a whole number ≥ 0"),
        (["audit", str(LEGAL), "--max-size", "0"], "--max-size needs a whole number ≥ 1"),
        (["audit", str(LEGAL), "--timeout", "0"], "--timeout needs a number > 0"),
        (["fetch", "http://x/", "--delay", "soon"], "--delay needs a number ≥ 0"),
        (["perft", "startpos", "deep"], "DEPTH needs a whole number ≥ 0"),
    ],
)
def test_number_options_are_refused_in_words(args: list[str], message: str) -> None:
    done = invoke_gcadj(*args)
    assert done.returncode == 2
    assert message in done.stderr and "not a valid" not in done.stderr
    assert done.stdout == ""


def test_singular_and_plural(tmp_path: Path) -> None:
    one = tmp_path / "one.txt"
    one.write_text("P e2-e4\n")
    assert invoke("check", str(one))[1] == f"{one}: legal, 1 ply, result * (ongoing)\n"
    early = tmp_path / "early.txt"
    early.write_text("P e2-e4\np e7-e5\nK e1-e3\n")
    stdout = invoke("check", str(early))[1]
    assert "(2 legal plies before it, 3 in the log)" in stdout
    early.write_text("P e2-e4\nk e8-e6\n")
    assert "(1 legal ply before it, 2 in the log)" in invoke("check", str(early))[1]
    code, _, stderr = invoke("export", str(one), "--to", "fen", "--ply", "2")
    assert code == 2 and "the game has 1 legal ply" in stderr


# ---------------------------------------------------------------------------------------
# 6. Small ones


def test_o_naming_a_folder_says_it_is_a_folder(tmp_path: Path) -> None:
    for args in (
        ["export", str(LEGAL), "--to", "gc", "-o", str(tmp_path)],
        ["fetch", "http://127.0.0.1:9/x", "-o", str(tmp_path)],
        ["audit", str(LEGAL), "--out", str(tmp_path)],
        ["audit", str(LEGAL), "--csv", str(tmp_path)],
        ["audit", str(LEGAL), "--report", str(tmp_path)],
    ):
        code, _, stderr = invoke(*args)
        assert code == 2, args
        assert f"{tmp_path}: that is a folder" in stderr and "--force" not in stderr


@pytest.mark.parametrize("letter", ["h", "H", "ip", "7", ""])
@pytest.mark.parametrize("command", ["check", "export", "audit", "fen"])
def test_pocket_file_takes_one_letter_from_i_to_z(command: str, letter: str) -> None:
    args = {
        "check": ["check", str(LEGAL)],
        "export": ["export", str(LEGAL), "--to", "gc"],
        "audit": ["audit", str(LEGAL)],
        "fen": ["fen", "--to-gc", "startpos"],
    }[command]
    code, stdout, stderr = invoke(*args, "--pocket-file", letter)
    assert code == 2 and stdout == ""
    assert stderr.startswith(f"gcadj {command}: --pocket-file must be one letter from i to z")
    assert "i on the 2009 preset (i1/i8), p on the newer preset (p1/p8)" in stderr


def test_pocket_file_help_and_behaviour_agree() -> None:
    help_text = " ".join(invoke("check", "--help")[1].split())
    assert (
        "one letter from i to z: i on the 2009 preset (i1/i8), p on the newer preset" in help_text
    )
    for letter in ("i", "p", "x", "I", "P"):  # either case: P is p
        assert invoke("check", str(LEGAL), "--pocket-file", letter)[0] == 0


def test_fen_to_gc_takes_startpos_and_a_pocket_file() -> None:
    standard = "rnbqkbnr1/pppppppp-/8-/8-/8-/8-/PPPPPPPP-/RNBQKBNR1"
    for extra in ([], ["--pocket-file", "p"], ["--pocket-file", "i"]):
        code, stdout, stderr = invoke("fen", "--to-gc", "startpos", *extra)
        assert (code, stdout) == (0, standard + "\n"), stderr
    code, stdout, _ = invoke("fen", "--from-gc", standard, "--pocket-file", "p")
    assert code == 0 and stdout == STARTING_FEN + "\n"
    code, _, stderr = invoke("fen", "--from-gc", standard.replace("-/8-", "-/8Q", 1))
    assert code == 2 and "i6 does not exist" in stderr
    code, _, stderr = invoke(
        "fen", "--from-gc", standard.replace("-/8-", "-/8Q", 1), "--pocket-file", "p"
    )
    assert code == 2 and "p6 does not exist" in stderr
