"""The grammar file: where it is found, that it is conflict-free, how its parser is cached."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lark import Lark
from lark.lexer import Lexer, LexerState

from gcadj import about
from gcadj.notation import grammar
from gcadj.notation.grammar import build_lark
from gcadj.notation.language import grammar_path, grammar_text
from gcadj.notation.lexicon import LINE_SPACE
from gcadj.notation.parse import parse_log

ROOT = Path(__file__).resolve().parents[2]


def test_grammar_found_in_the_checkout_or_the_package() -> None:
    path = grammar_path()
    assert path.is_file()
    assert path.name == "gamecourier.lark"
    assert path.read_text(encoding="utf-8") == (ROOT / "grammars" / "gamecourier.lark").read_text()


def test_grammar_text_overrides_only_the_pocket_squares() -> None:
    base = grammar_text("i")
    assert "%override" not in base
    assert grammar_text("p") == base + '\n%override POCKET_SQUARE: "p1" | "p8"\n'


class _NoLexer(Lexer):
    """Stands in for a lexer so strict mode checks the LALR tables only."""

    def __init__(self, conf: Any) -> None:
        pass

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Any]:
        return iter(())


@pytest.mark.parametrize("pocket_file", ["i", "p"])
def test_grammar_has_no_lalr_conflicts(pocket_file: str) -> None:
    # strict=True turns shift/reduce conflicts into errors; the full strict
    # check also wants the optional 'interegular' package (next test).
    Lark(grammar_text(pocket_file), parser="lalr", lexer=_NoLexer, strict=True)


def test_grammar_is_strict_with_interegular() -> None:
    # interegular is in the test extra, so this runs in CI (it used to be skipped there):
    # with it, strict=True also refuses terminals whose patterns can collide.
    import interegular  # noqa: F401

    Lark(grammar_text("i"), parser="lalr", lexer="contextual", strict=True)


def test_ws_chars_match_the_grammar_terminal() -> None:
    pattern = build_lark(use_cache=False).get_terminal("WS").pattern.to_regexp()
    matching = {chr(c) for c in range(0x3000) if re.fullmatch(pattern, chr(c))}
    assert matching == set(LINE_SPACE)


def test_lark_cache_is_written_and_reused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(about.sys, "platform", "linux")
    build_lark("i")
    (cached,) = (tmp_path / "gcadj").glob("lark-*.pickle")
    assert cached.stat().st_size > 0
    again = build_lark("i")
    assert again.parse("P e2-e4\n", start="start").data == "start"


def test_corrupt_cache_is_ignored(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(about.sys, "platform", "linux")
    build_lark("p")
    (cached,) = (tmp_path / "gcadj").glob("lark-*.pickle")
    cached.write_bytes(b"\x00garbage\n\x80\x04not a pickle")
    assert build_lark("p").parse("R h1-p1\n", start="start").data == "start"


def test_unwritable_cache_location_is_ignored(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    monkeypatch.setattr(about.sys, "platform", "linux")
    assert grammar._lark_cache_file(grammar_text("i")) is None
    assert build_lark("i").parse("P e2-e4\n", start="start").data == "start"


def test_cache_file_that_is_a_folder_is_ignored(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(about.sys, "platform", "linux")
    path = grammar._lark_cache_file(grammar_text("i"))
    assert path is not None
    Path(path).mkdir()
    assert build_lark("i").parse("P e2-e4\n", start="start").data == "start"


def test_parser_is_built_once_per_pocket_file() -> None:
    parse_log("P e2-e4")
    parse_log("P e2-e4", pocket_file="p")
    assert grammar._lark("i") is grammar._lark("i")
    assert grammar._lark("i") is not grammar._lark("p")
