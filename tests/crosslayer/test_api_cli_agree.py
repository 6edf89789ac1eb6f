"""The public API and the command line give the same verdicts: one pipeline, two doors.

For every file under fixtures/ (the logs, the pages, the copied pages, the PGN and Game
Courier exports, even the READMEs, which are judged as the text they are), the JSON of
`gcadj.judge_source` equals what ``gcadj check --json`` prints (the console script's app,
run in process), line for line and byte for byte, warnings included; `gcadj.check_source`
is the first of them; and text handed to `gcadj.check_text` as "<stdin>" is judged as
``gcadj check -`` judges it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, invoke_gcadj

import gcadj
from gcadj.sources.decode import decode_text

EVERY_FIXTURE = sorted(path for path in FIXTURES.rglob("*") if path.is_file())
PAGES = sorted((FIXTURES / "pages").glob("*"))


def cli_json_lines(*args: str, stdin: bytes | None = None) -> list[str]:
    done = invoke_gcadj("check", "--json", *args, stdin=stdin)
    assert done.returncode in (0, 1, 3, 4), done.stderr  # never 5: no bug on a fixture
    return done.stdout.splitlines()


def test_the_fixtures_cover_logs_pages_and_copied_pages() -> None:
    suffixes = {path.suffix for path in EVERY_FIXTURE}
    assert {".txt", ".html", ".text", ".pgn"} <= suffixes
    assert any("board_mismatch" in path.name for path in EVERY_FIXTURE)


def test_the_api_and_check_json_agree_on_every_fixture() -> None:
    specs = [str(path.relative_to(ROOT)) for path in EVERY_FIXTURE]
    from_cli = cli_json_lines(*specs)
    from_api = []
    for spec in specs:
        verdicts = gcadj.judge_source(spec)
        assert gcadj.check_source(spec) == verdicts[0]
        assert gcadj.check_source(spec).to_json() == verdicts[0].to_json()
        from_api += [verdict.json_line() for verdict in verdicts]
    assert len(from_api) >= len(specs)
    assert from_api == from_cli
    warned = [line for line in from_cli if '"warnings": []' not in line]
    assert any("board diagram differs" in line for line in warned)  # the page checks


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_text_given_to_the_api_is_judged_as_standard_input(path: Path) -> None:
    data = path.read_bytes()
    from_cli = cli_json_lines("-", stdin=data)
    text = decode_text(data)  # as gcadj decodes the bytes of any file or of stdin
    from_api = [verdict.json_line() for verdict in gcadj.judge_source("-", text=text)]
    assert from_api == from_cli
    assert gcadj.check_text(text, "<stdin>").json_line() == from_cli[0]
