"""Text made from the grammar itself (``grammars/gamecourier.lark``), for the property tests
that hold a restatement of its syntax to it: the parser's line path, the hints, PGN
detection, the page scraper."""

from __future__ import annotations

import functools

from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from gcadj.notation.grammar import build_lark


@functools.cache
def grammar_lark(pocket_file: str) -> Lark:
    """A parser with its grammar attached (a cache-loaded one may lack it, from_lark needs it)."""
    return build_lark(pocket_file, use_cache=False)


def logs(pocket_file: str = "i") -> st.SearchStrategy[str]:
    """Whole logs the grammar reads: tags, plies, comment lines, blank lines."""
    return from_lark(grammar_lark(pocket_file), start="start")


def ply_bodies(pocket_file: str = "i") -> st.SearchStrategy[str]:
    """The sub-moves of one ply, as the grammar writes them (no number, no comment)."""
    return from_lark(grammar_lark(pocket_file), start="submoves")
