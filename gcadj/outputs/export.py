"""Converters: one checked game (a `Verdict` with its log) written as PGN-like text, a clean
Game Courier move list, FENs, JSON or an SVG diagram.

Every converter starts from the verdict, not from the raw log, because only the replay
knows which piece each ply moved (SAN needs it), where the game became illegal, and the
positions. The legal prefix is written in each format's own notation; an illegal game
carries its first illegal ply and everything after it as typed, so that reading the
export back (`gcadj check` reads PGN-like and Game Courier text) gives the same verdict.
"""

from __future__ import annotations

import functools
import io
import itertools
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, Any

from gcadj.adjudication.fix import FixedGame
from gcadj.adjudication.json_text import escape_line_breaks, json_text
from gcadj.adjudication.verdict import Verdict
from gcadj.engine.fen import parse_fen
from gcadj.engine.position import Position
from gcadj.engine.squares import WHITE
from gcadj.errors import ExportError
from gcadj.notation.gccode import as_gcadj_fen
from gcadj.notation.language import is_pocket_file
from gcadj.notation.pgn import NOTE_MARK, escape_tag_value
from gcadj.notation.records import (
    CaptureSub,
    ClearSub,
    GameLog,
    MoveRecord,
    MoveSub,
    PlaceSub,
    RemoveSpaceSub,
    SubMove,
)
from gcadj.notation.san import WrittenMove, iter_line, submoves_text, write_line
from gcadj.outputs.pgn_writer import (
    finding_note,
    is_standard_start,
    unreadable_note,
    user_comment_lines,
)
from gcadj.outputs.pgn_writer import write_pgn as _write_pgn
from gcadj.outputs.svg import marked_cells, render_svg
from gcadj.vocabulary import PocketFile, Termination
from gcadj.words import plural

__all__ = [
    "FORMATS",
    "ExportError",
    "export_game",
    "export_games",
    "export_writer",
    "text_writer",
    "write_fens",
    "write_fixed_gc",
    "write_gc",
    "write_json",
    "write_json_to",
    "write_svg",
]

FORMATS = ("pgn", "gc", "fen", "json", "svg")
PLY_FORMATS = ("fen", "svg")

Writer = Callable[[IO[str]], None]
"""Writes a finished export to a text stream."""


def export_game(
    verdict: Verdict,
    fmt: str,
    *,
    ply: int | None = None,
    size: int = 48,
    to_pocket_file: PocketFile | None = None,
) -> str:
    """The game in format `fmt` (one of `FORMATS`); `ply` selects a position (fen, svg);
    `to_pocket_file` writes a Game Courier list for the preset with that pocket file."""
    out = io.StringIO()
    export_writer(verdict, fmt, ply=ply, size=size, to_pocket_file=to_pocket_file)(out)
    return out.getvalue()


def export_writer(
    verdict: Verdict,
    fmt: str,
    *,
    ply: int | None = None,
    size: int = 48,
    to_pocket_file: PocketFile | None = None,
) -> Writer:
    """What writes the game in format `fmt` to a stream, once every check has passed.

    Raises `ExportError` now, before anything is written (so a file named for the export
    is never started for nothing). JSON is written ply by ply as it is made: a log of a
    million plies costs memory for one ply's text at a time, not for the whole document.
    """
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    if ply is not None and fmt not in PLY_FORMATS:
        raise ExportError(f"--ply applies to {' and '.join(PLY_FORMATS)} only, not {fmt}")
    if to_pocket_file is not None:
        if fmt != "gc":
            raise ExportError(f"--to-pocket-file applies to gc only, not {fmt}")
        if not is_pocket_file(to_pocket_file):
            raise ExportError(
                f"--to-pocket-file must be one letter from i to z, not {to_pocket_file!r}"
            )
    _log(verdict)
    if fmt == "json":
        return lambda out: write_json_to(verdict, out)
    if fmt == "pgn":
        text = _write_pgn(verdict)
    elif fmt == "gc":
        text = write_gc(verdict, pocket_file=to_pocket_file)
    elif fmt == "fen":
        text = write_fens(verdict, ply)
    else:
        text = write_svg(verdict, ply, size=size)
    return text_writer(text)


def text_writer(text: str) -> Writer:
    """A `Writer` of text already made (the formats that are not streamed)."""

    def write(out: IO[str]) -> None:
        out.write(text)

    return write


def export_games(
    verdicts: Sequence[Verdict],
    fmt: str,
    *,
    ply: int | None = None,
    to_pocket_file: PocketFile | None = None,
) -> str:
    """Several games in one text: only PGN holds more than one (a database: each game with
    its tags and its notes, a blank line between games); one game as `export_game`."""
    if len(verdicts) == 1:
        return export_game(verdicts[0], fmt, ply=ply, to_pocket_file=to_pocket_file)
    if not verdicts:
        raise ExportError("no game to convert")
    if fmt != "pgn":
        raise ExportError(
            f"--to {fmt} writes one game, not {len(verdicts)}; "
            "--to pgn writes several games as one PGN database"
        )
    if ply is not None:
        raise ExportError(f"--ply applies to {' and '.join(PLY_FORMATS)} only, not {fmt}")
    if to_pocket_file is not None:
        raise ExportError(f"--to-pocket-file applies to gc only, not {fmt}")
    return "\n".join(export_game(verdict, fmt) for verdict in verdicts)


def _log(verdict: Verdict) -> GameLog:
    if verdict.log is None:
        raise ExportError(f"{verdict.source}: no game to convert ({verdict.status})")
    return verdict.log


def after_prefix(verdict: Verdict, legal: int) -> Iterator[tuple[MoveRecord, int, bool]]:
    """The plies from the first illegal one on (after `legal` legal plies), with the move
    number and side of each."""
    log = _log(verdict)
    setup = parse_fen(verdict.final_fen or verdict.start_fen)  # where the prefix ended
    number, white = setup.fullmove_number, setup.turn == WHITE
    for record in itertools.islice(log.records, legal, None):
        yield record, number, white
        number += 0 if white else 1
        white = not white


# -- Game Courier ----------------------------------------------------------------------


# Tags gcadj's PGN writer adds about the export itself, not facts of the game: a Game
# Courier list must not carry them (a Variant tag would make gcadj read it as PGN again).
_PGN_ONLY_TAGS = frozenset({"variant", "setup", "result", "termination"})


# Endings the record gives (not the board, nor a Status line the list keeps anyway).
_RECORDED_ENDINGS = frozenset(
    {
        Termination.RECORDED,
        Termination.RESIGNATION,
        Termination.TIME_FORFEIT,
        Termination.AGREEMENT,
        Termination.ABANDONED,
        Termination.ADJUDICATION,
    }
)


def _recorded_result_tags(verdict: Verdict) -> list[tuple[str, str]]:
    """A result the verdict took from a PGN's Result tag or result token, as Result (and
    Termination) tags, so the list reads back with it; nothing when the board or the
    Status line gives the result."""
    log = _log(verdict)
    ending = verdict.termination
    if ending is None or ending not in _RECORDED_ENDINGS or log.tag("Status"):
        return []
    tags = [("Result", verdict.result.value)]
    if ending is not Termination.RECORDED:
        tags.append(("Termination", ending.value))
    return tags


def _gc_tags(verdict: Verdict, pocket_file: PocketFile) -> list[tuple[str, str]]:
    """The log's tags, with a FEN tag that gives the start the verdict used, and a
    PocketFile tag when the pocket squares are not i1/i8 (gcadj reads it back)."""
    log = _log(verdict)
    tags = [(k, v) for k, v in log.tags if k.casefold() not in _PGN_ONLY_TAGS]
    tags += _recorded_result_tags(verdict)
    if pocket_file != log.pocket_file:  # another preset: its own tag, or none for i1/i8
        tags = [(k, v) for k, v in tags if k.casefold() != "pocketfile"]
    if pocket_file != "i" and not any(k.casefold() == "pocketfile" for k, _ in tags):
        tags.append(("PocketFile", pocket_file))
    start = Position(verdict.start_fen).fen()
    index = next((i for i, (k, _) in enumerate(tags) if k.casefold() == "fen"), None)
    if index is not None:
        try:
            same = Position(as_gcadj_fen(tags[index][1])).fen() == start
        except ValueError:
            same = False
        if same:
            return tags
        del tags[index]
    if not is_standard_start(verdict.start_fen):
        tags.insert(len(tags) if index is None else index, ("FEN", verdict.start_fen))
    return tags


def _gc_ply(number: int, white: bool, text: str, comments: list[str]) -> list[str]:
    head = f"{number}{'.' if white else '...'} {text}"
    if not comments:
        return [head]
    first, *rest = comments
    return [f"{head} // {first}".rstrip(), *(f"// {line}".rstrip() for line in rest)]


def write_gc(
    verdict: Verdict, notes: Mapping[int, str] | None = None, pocket_file: PocketFile | None = None
) -> str:
    """A clean Game Courier move list: tags, one numbered ply per line, every piece labelled.

    Legal plies are rewritten in canonical form (``P c5-d6; d5-``, ``R h1-i1; I-i1``); the
    first illegal ply and the ones after it are kept as typed, the first with gcadj's note.
    `notes` adds a comment to legal plies (by 0-based index), after the player's own.
    A game judged up to an unreadable ply ends with a note saying so (`unreadable_note`).

    `pocket_file` converts the game to the preset whose pockets are on that file (``p``:
    p1/p8, ``i``: i1/i8): every pocket square is rewritten, the plies kept as typed too,
    and a ``PocketFile`` tag is written only for a file other than ``i``.
    """
    log = _log(verdict)
    notes = notes or {}
    source_file = log.pocket_file
    target = pocket_file or source_file
    written = write_line(verdict.start_fen, verdict.moves, target)
    lines = [f'[{k} "{escape_tag_value(v)}"]' for k, v in _gc_tags(verdict, target)]
    lines += [f"// {line}".rstrip() for line in user_comment_lines(log.leading_comment)]
    for i, (wm, record) in enumerate(zip(written, log.records, strict=False)):
        comments = user_comment_lines(record.comment)
        if i in notes:
            comments = [*comments, notes[i]]
        lines += _gc_ply(wm.move_number, wm.white, wm.gc, comments)
    for i, (record, number, white) in enumerate(after_prefix(verdict, len(written))):
        comments = user_comment_lines(record.comment)
        if i == 0 and verdict.first_illegal is not None:
            note = finding_note(verdict.first_illegal)
            comments = [*comments, note]
        text = _with_pocket_file(record, source_file, target)
        lines += _gc_ply(number, white, text, comments)
    stop = unreadable_note(verdict)
    if stop is not None:
        lines.append(f"// {stop}")
    return "\n".join(lines) + "\n"


def write_fixed_gc(fixed: FixedGame) -> str:
    """The Game Courier list of a corrected game (`gcadj.adjudication.fix`): each replaced
    ply in its corrected form with ``// gcadj: was '<typed>'``; where fixing stopped, the
    illegal ply and the rest as typed, as `write_gc` writes any illegal game."""
    notes = {fix.ply - 1: f"{NOTE_MARK} was '{fix.typed}'" for fix in fixed.fixes}
    return write_gc(fixed.verdict, notes)


def _with_pocket_file(record: MoveRecord, source: str, target: str) -> str:
    """A ply as typed, its pocket squares moved from file `source` to file `target`."""
    if source == target:
        return record.text
    pockets = {f"{source}1": f"{target}1", f"{source}8": f"{target}8"}
    moved = tuple(_move_squares(sub, pockets) for sub in record.submoves)
    return record.text if moved == record.submoves else submoves_text(moved)


def _move_squares(sub: SubMove, names: dict[str, str]) -> SubMove:
    def name(square: str) -> str:
        return names.get(square, square)

    if isinstance(sub, MoveSub):
        return MoveSub(sub.label, name(sub.origin), name(sub.target))
    if isinstance(sub, PlaceSub):
        return PlaceSub(sub.label, name(sub.target), sub.operator)
    if isinstance(sub, ClearSub):
        return ClearSub(name(sub.square), sub.form)
    if isinstance(sub, CaptureSub):
        return CaptureSub(tuple(name(square) for square in sub.squares))
    assert isinstance(sub, RemoveSpaceSub)
    return RemoveSpaceSub(name(sub.target))


# -- FEN -------------------------------------------------------------------------------


def _fens(verdict: Verdict, written: list[WrittenMove]) -> list[str]:
    return [Position(verdict.start_fen).fen(), *(wm.fen_after for wm in written)]


def _check_ply(verdict: Verdict, ply: int, available: int) -> None:
    if 0 <= ply <= available:
        return
    detail = f"the game has {plural(available, 'legal ply', 'legal plies')}"
    if verdict.first_illegal is not None:
        detail += f" (ply {verdict.first_illegal.ply} is illegal)"
    raise ExportError(f"ply {ply} is out of range: {detail}; ply 0 is the start")


def write_fens(verdict: Verdict, ply: int | None = None) -> str:
    """The FEN of the start (ply 0) and after each legal ply, one per line; or only `ply`."""
    log = _log(verdict)
    fens = _fens(verdict, write_line(verdict.start_fen, verdict.moves, log.pocket_file))
    if ply is None:
        return "\n".join(fens) + "\n"
    _check_ply(verdict, ply, len(fens) - 1)
    return fens[ply] + "\n"


# -- JSON ------------------------------------------------------------------------------


def write_json(verdict: Verdict) -> str:
    """The whole game: tags, every ply in every notation with its FEN or finding, the verdict.

    A ply's ``status`` is ``legal``, ``illegal`` (the first illegal ply, with ``finding``)
    or ``unjudged`` (after it: the replay stops at the first illegal ply).
    """
    out = io.StringIO()
    write_json_to(verdict, out)
    return out.getvalue()


def write_json_to(verdict: Verdict, out: IO[str]) -> None:
    """`write_json`, streamed: the document is written one ply at a time, as
    ``json.dumps(document, indent=2, ensure_ascii=False)`` would lay it out, with no raw
    line separator inside a string (`json_text`)."""
    log = _log(verdict)
    tags: dict[str, str] = {}
    for key, value in log.tags:
        tags.setdefault(key, value)
    out.write("{\n")
    head: tuple[tuple[str, Any], ...] = (
        ("source", verdict.source),
        ("tags", tags),
        ("pocket_file", log.pocket_file),
        ("start_fen", Position(verdict.start_fen).fen()),
    )
    for key, value in head:
        out.write(f"  {json_text(key)}: {_pretty(value, 1)},\n")
    empty = True
    flat = _flat_encoder(2)
    for entry in _ply_entries(verdict, log):
        out.write('  "plies": [\n    ' if empty else ",\n    ")
        if entry["finding"] is None:  # every ply but the illegal one: plain values only
            out.write(escape_line_breaks(f"{{\n      {flat(entry)[1:-1]}\n    }}"))
        else:
            out.write(_pretty(entry, 2))
        empty = False
    out.write('  "plies": [],\n' if empty else "\n  ],\n")
    out.write(f'  "verdict": {_pretty(verdict.to_json(), 1)}\n}}\n')


def _ply_entries(verdict: Verdict, log: GameLog) -> Iterator[dict[str, Any]]:
    """Each ply's JSON object, made when it is written."""
    written = iter_line(verdict.start_fen, verdict.moves, log.pocket_file)
    for i, (wm, record) in enumerate(zip(written, log.records, strict=False)):
        yield _ply_json(i, record, wm.move_number, wm.white, "legal") | {
            "gc": wm.gc,
            "san": wm.san,
            "uci": wm.move.uci(),
            "fen": wm.fen_after,
        }
    legal = len(verdict.moves)
    for i, (record, number, white) in enumerate(after_prefix(verdict, legal)):
        yield _unjudged_json(verdict, legal + i, record, number, white, i == 0)


def _unjudged_json(
    verdict: Verdict, index: int, record: MoveRecord, number: int, white: bool, first: bool
) -> dict[str, Any]:
    illegal = first and verdict.first_illegal is not None
    entry = _ply_json(index, record, number, white, "illegal" if illegal else "unjudged")
    if illegal and verdict.first_illegal is not None:
        entry["finding"] = verdict.first_illegal.to_json()
    return entry


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


def _ply_json(
    index: int, record: MoveRecord, number: int, white: bool, status: str
) -> dict[str, Any]:
    comments = user_comment_lines(record.comment)
    return {
        "ply": index + 1,
        "move_number": number,
        "side": "white" if white else "black",
        "status": status,
        "gc": record.text,
        "san": None,
        "uci": None,
        "fen": None,
        "typed": record.text,
        "line": record.line,
        "column": record.column,
        "comment": "\n".join(comments) if comments else None,
        "finding": None,
    }


# -- SVG -------------------------------------------------------------------------------


def write_svg(verdict: Verdict, ply: int | None = None, *, size: int = 48) -> str:
    """A diagram after `ply` plies (default: the end of the legal prefix, which for an
    illegal game is the position the first illegal move was played in, with it marked)."""
    log = _log(verdict)
    written = write_line(verdict.start_fen, verdict.moves, log.pocket_file)
    fens = _fens(verdict, written)
    n = len(written) if ply is None else ply
    _check_ply(verdict, n, len(written))
    illegal = None
    if verdict.first_illegal is not None and n == len(written) and n < len(log.records):
        illegal = marked_cells(log.records[n])
    return render_svg(
        Position(fens[n]),
        last_move=written[n - 1].move if n else None,
        illegal=illegal,
        pocket_file=log.pocket_file,
        size=size,
    )
