"""The one way in (`gcadj.app.pipeline.judge_source`): one pass over each source.

The counts are taken with a profiler hook on the real functions while real sources are
judged (nothing is replaced): a source's text is normalised once and its format detected
once, whatever the source holds; standard input is named in one place.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from conftest import FIXTURES

import gcadj
from gcadj.app.pipeline import STDIN_NAME, JudgeOptions, judge_source, source_name
from gcadj.notation.parse import normalise_text
from gcadj.sources.decode import decode_text
from gcadj.sources.formats import detect_format

SOURCES = [
    FIXTURES / "examples" / "ex1_pocket_mutation_drops.txt",  # a Game Courier log
    FIXTURES / "parse" / "bom_crlf_tabs.txt",  # BOM and CRLF: normalising does work here
    FIXTURES / "pages" / "pmc_board_mismatch.html",  # a page, scraped
    FIXTURES / "pages" / "pmc_pocket_p_code.html",  # a page of the p preset
    FIXTURES / "pages" / "copied_with_moves_black_side.text",  # a page copied as text
    FIXTURES / "pages" / "copied_no_moves.text",  # ... without its moves
    FIXTURES / "logs" / "illegal" / "castling.txt",
]


@contextmanager
def calls_of(
    *functions: Callable[..., Any], texts: set[str] | None = None
) -> Iterator[Counter[str]]:
    """How often each function runs inside the block (by its qualified name), by a
    profiler hook: nothing is replaced. With `texts`, only calls on one of them (the
    function's argument ``text``) count: other texts (a page's candidate move lists, which
    the scraper has the parser judge) are not the source's."""
    if not all(hasattr(function, "__code__") for function in functions):
        pytest.skip(
            "compiled (mypyc) functions run no Python frames to count; the pure-Python run "
            "of this test (CI runs both) checks the pipeline, which is the same code"
        )
    codes = {function.__code__: function.__qualname__ for function in functions}
    counts: Counter[str] = Counter()

    def hook(frame: FrameType, event: str, arg: object) -> None:
        if event != "call" or frame.f_code not in codes:
            return
        if texts is None or frame.f_locals.get("text") in texts:
            counts[codes[frame.f_code]] += 1

    previous = sys.getprofile()
    sys.setprofile(hook)
    try:
        yield counts
    finally:
        sys.setprofile(previous)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_a_source_is_normalised_and_detected_once(path: Path) -> None:
    raw = decode_text(path.read_bytes())
    texts = {raw, normalise_text(raw)}
    with calls_of(normalise_text, detect_format, texts=texts) as counts:
        verdicts = judge_source(str(path))
    assert verdicts and all(v.source == str(path) for v in verdicts)
    assert counts == {"normalise_text": 1, "detect_format": 1}, counts


def test_text_in_hand_is_not_read_again_and_keeps_its_name(tmp_path: Path) -> None:
    missing = tmp_path / "not-there.txt"
    (verdict,) = judge_source(str(missing), text="P e2-e4\n")
    assert verdict.source == str(missing) and verdict.status == "legal"
    (unread,) = judge_source(str(missing))
    assert unread.status == "error" and "no such file" in str(unread.error)


def test_standard_input_is_named_in_one_place() -> None:
    assert source_name("-") == STDIN_NAME == "<stdin>" and source_name("a.txt") == "a.txt"
    (verdict,) = judge_source("-", text="P e2-e4\nK e1-e3\n")
    assert verdict.source == "<stdin>" and verdict.first_illegal is not None
    spelled = []
    package = Path(gcadj.__file__).parent  # the sources of the gcadj under test
    for module in package.rglob("*.py"):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value == "<stdin>":
                spelled.append(module.relative_to(package.parent).as_posix())
    assert spelled == ["gcadj/sources/games.py"]


def test_one_game_of_a_database_by_its_name_and_a_missing_one(tmp_path: Path) -> None:
    games = [
        '[Variant "Pocket Mutation Chess"]\n\n1. e4 e5 *\n',
        '[Variant "Pocket Mutation Chess"]\n\n1. d4 d5 2. Nf3 Nf6 *\n',
    ]
    database = tmp_path / "all.pgn"
    database.write_text("\n".join(games))
    every = judge_source(str(database))
    assert [v.source for v in every] == [f"{database}#1", f"{database}#2"]
    (second,) = judge_source(f"{database}#2")
    assert second == every[1] and second.plies == 4
    (third,) = judge_source(f"{database}#3")
    assert third.status == "error" and "holds 2 games" in str(third.error)


def test_a_bad_start_position_argument_is_the_callers_mistake() -> None:
    from gcadj.engine.fen import FenError

    with pytest.raises(FenError):
        judge_source("-", JudgeOptions(fen="not a position"), text="P e2-e4\n")
    (tag,) = judge_source("bad.txt", text='[FEN "not a position"]\nP e2-e4\n')
    assert tag.status == "syntax-error" and tag.error is not None
    assert tag.error.startswith("bad.txt:1:")  # at the tag's own line
    assert not tag.internal


def test_a_pgn_game_is_judged_once_as_it_is_read() -> None:
    """Each ply of a PGN database goes through its game's replay once, and a SAN move the
    reader found legal is played as that move, never judged again: the judge sees only the
    plies typed otherwise (castling, a promotion, a {gc: ...} ply)."""
    from gcadj.judging.judge import PlyResolver
    from gcadj.judging.verdict import Replay

    path = Path(__file__).resolve().parents[2] / "bench" / "data" / "pgn" / "WorldChamp1886.pgn"
    with calls_of(Replay.__init__, Replay.play, Replay.play_move, PlyResolver.play) as counts:
        verdicts = judge_source(str(path))
    logs = [v.log for v in verdicts if v.log is not None]
    assert len(logs) == len(verdicts) == 20
    typed = [r for log in logs for r in log.records if r.text.startswith(("O-O", "0-0"))]
    typed += [r for log in logs for r in log.records if "=" in r.text]
    assert typed, "the database has castling to judge"
    assert counts["Replay.__init__"] == len(verdicts)
    assert counts["Replay.play"] + counts["Replay.play_move"] == sum(len(g.records) for g in logs)
    assert counts["Replay.play"] == counts["PlyResolver.play"] == len(typed)
