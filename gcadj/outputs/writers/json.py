"""``--to json``: the whole game as one JSON document, written ply by ply as it is made.

``source``, ``tags``, ``pocket_file``, ``start_fen``, ``plies`` (each: ``ply``,
``move_number``, ``side``, ``status`` = ``legal`` | ``illegal`` | ``unjudged``, ``gc``
canonical text (of a ply not legal: as typed, `JudgedPly.typed_gc`), ``san``, ``uci``,
``fen`` after it, ``typed``, ``line``, ``column``, ``comment``, ``finding``), ``unread``
(null, or the text the reader could not read, as typed: ``line``, ``column``, ``text``,
``error``) and ``verdict`` (the object of ``gcadj check --json``). gcadj reads the
document back as a game (`gcadj.sources.own`). A log of a million plies costs memory for
one ply's text at a time, never for the whole document. The layout is
``json.dumps(indent=2, ensure_ascii=False)``'s, with no raw line separator inside a
string (`json_text`).
"""

from __future__ import annotations

import functools
import io
import json
from collections.abc import Callable, Sequence
from typing import IO, Any

from gcadj.judging.json_text import escape_line_breaks, json_text
from gcadj.judging.plies import JudgedGame, JudgedPly
from gcadj.judging.verdict import Verdict
from gcadj.outputs.registry import ExportGame, ExportOptions, Writer, WriteTo

__all__ = ["WRITER", "write_json", "write_json_to"]


def write_json(verdict: Verdict) -> str:
    """`write_json_to` as one text."""
    out = io.StringIO()
    write_json_to(verdict, out)
    return out.getvalue()


def write_json_to(verdict: Verdict, out: IO[str]) -> None:
    """The document (see the module docstring), one ply at a time."""
    game = JudgedGame(verdict)
    log = game.log
    tags: dict[str, str] = {}
    for key, value in log.tags:
        tags.setdefault(key, value)
    out.write("{\n")
    head: tuple[tuple[str, Any], ...] = (
        ("source", verdict.source),
        ("tags", tags),
        ("pocket_file", log.pocket_file),
        ("start_fen", game.start_fen),
    )
    for key, value in head:
        out.write(f"  {json_text(key)}: {_pretty(value, 1)},\n")
    empty = True
    flat = _flat_encoder(2)
    for ply in game.plies():
        entry = _ply_json(ply)
        out.write('  "plies": [\n    ' if empty else ",\n    ")
        if entry["finding"] is None:  # every ply but the illegal one: plain values only
            out.write(escape_line_breaks(f"{{\n      {flat(entry)[1:-1]}\n    }}"))
        else:
            out.write(_pretty(entry, 2))
        empty = False
    out.write('  "plies": [],\n' if empty else "\n  ],\n")
    unread = game.unread
    unread_json = None
    if unread is not None:
        unread_json = {
            "line": unread.line,
            "column": unread.column,
            "text": unread.text,
            "error": unread.error,
        }
    out.write(f'  "unread": {_pretty(unread_json, 1)},\n')
    out.write(f'  "verdict": {_pretty(verdict.to_json(), 1)}\n}}\n')


def _ply_json(ply: JudgedPly) -> dict[str, Any]:
    """A ply's JSON object, made when it is written."""
    comments = ply.comments
    move = ply.move
    return {
        "ply": ply.ply,
        "move_number": ply.move_number,
        "side": ply.side,
        "status": ply.status,
        "gc": ply.gc if move is not None else ply.typed_gc,
        "san": ply.san,
        "uci": None if move is None else move.uci(),
        "fen": ply.fen_after,
        "typed": ply.text,
        "line": ply.line,
        "column": ply.column,
        "comment": "\n".join(comments) if comments else None,
        "finding": None if ply.finding is None else ply.finding.to_json(),
    }


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode  # one encoder, not one per value


def _pretty(value: Any, level: int) -> str:
    """`value` as ``json.dumps(indent=2, ensure_ascii=False)`` writes it when nested
    `level` deep, with no raw line separator (`escape_line_breaks`)."""
    return escape_line_breaks(_layout(value, level))


@functools.lru_cache(maxsize=8)
def _flat_encoder(level: int) -> Callable[[Any], str]:
    """Encodes a dict of plain values as `indent=2` lays it out `level` deep, in one call
    of the C encoder (its item separator carries the line break and the indent)."""
    pad = "  " * (level + 1)
    return json.JSONEncoder(ensure_ascii=False, separators=(",\n" + pad, ": ")).encode


def _layout(value: Any, level: int) -> str:
    if isinstance(value, dict) and value:
        pad = "  " * (level + 1)
        if not any(isinstance(v, (dict, list)) and v for v in value.values()):
            return f"{{\n{pad}{_flat_encoder(level)(value)[1:-1]}\n{'  ' * level}}}"
        items = ",\n".join(
            f"{pad}{_ENCODE(str(k))}: {_layout(v, level + 1)}" for k, v in value.items()
        )
        return f"{{\n{items}\n{'  ' * level}}}"
    if isinstance(value, list) and value:
        pad = "  " * (level + 1)
        items = ",\n".join(f"{pad}{_layout(v, level + 1)}" for v in value)
        return f"[\n{items}\n{'  ' * level}]"
    return _ENCODE(value)


def _prepare(games: Sequence[ExportGame], options: ExportOptions) -> WriteTo:
    verdict = games[0].verdict
    return lambda out: write_json_to(verdict, out)


WRITER = Writer(
    name="json",
    title="JSON",
    help="every ply with its notations, FEN and finding, plus the verdict",
    many=False,
    accepts=frozenset(),
    prepare=_prepare,
    order=40,
)
