"""``--to gc``: a clean Game Courier move list, read back by gcadj and by Game Courier.

The log's tags, one numbered ply per line (``1.`` / ``1...``), every piece labelled. Legal
plies are rewritten in canonical form (``P c5-d6; d5-``, ``R h1-i1; I-i1``); the first
illegal ply and every ply after it are kept as typed, the first with gcadj's note (a ply
typed as PGN writes moves, in a game read from PGN, is written as the sub-moves it stands
for, ``K e1-g1; R h1-f1``, with a note of what was typed: ``gcadj: typed 'O-O' in PGN``). Text the
reader could not read (from an unreadable ply on) follows as typed after gcadj's note, so
reading the list back gives the same verdict. ``--fix`` games carry a
``// gcadj: was '<typed>'`` note on each replaced ply.

``--to-pocket-file`` converts the game to the preset whose pockets are on that file (``p``:
p1/p8, ``i``: i1/i8): every pocket square is rewritten, in the plies kept as typed and in
the unread text too (outside its comments), and a ``PocketFile`` tag is written for a file
other than ``i``, and for ``i`` when the unread text names another file's pocket squares
(a reader would otherwise take the pocket file from them).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import IO

from gcadj.engine.fen import STARTING_FEN
from gcadj.engine.position import Position
from gcadj.judging.fix import FixedGame
from gcadj.judging.plies import JudgedGame, JudgedPly
from gcadj.judging.verdict import Verdict
from gcadj.notation.gccode import as_gcadj_fen
from gcadj.notation.pgn import NOTE_MARK, escape_tag_value
from gcadj.notation.records import (
    CaptureSub,
    ClearSub,
    MoveSub,
    PlaceSub,
    RemoveSpaceSub,
    SubMove,
)
from gcadj.notation.san import submoves_text
from gcadj.outputs.notes import finding_note, names_other_pockets, unread_note
from gcadj.outputs.registry import ExportGame, ExportOptions, Writer, WriteTo
from gcadj.vocabulary import DEFAULT_POCKET_FILE, RECORDED_ENDINGS, PocketFile, Termination

__all__ = ["WRITER", "write_fixed_gc", "write_gc"]

# Tags gcadj's PGN writer adds about the export itself, not facts of the game: a Game
# Courier list must not carry them (a Variant tag would make gcadj read it as PGN again).
_PGN_ONLY_TAGS = frozenset({"variant", "setup", "result", "termination"})


def _recorded_result_tags(verdict: Verdict) -> list[tuple[str, str]]:
    """A result the verdict took from a PGN's Result tag or result token, as Result (and
    Termination) tags, so the list reads back with it; nothing when the board or the
    Status line gives the result."""
    ending = verdict.termination
    log = verdict.log
    if ending is None or ending not in RECORDED_ENDINGS or log is None or log.tag("Status"):
        return []
    tags = [("Result", verdict.result.value)]
    if ending is not Termination.RECORDED:
        tags.append(("Termination", ending.value))
    return tags


def _tags(game: JudgedGame) -> list[tuple[str, str]]:
    """The log's tags, with a FEN tag that gives the start the verdict used, and a
    PocketFile tag when the pocket squares are not i1/i8 (gcadj reads it back)."""
    log, pocket_file = game.log, game.pocket_file
    tags = [(k, v) for k, v in log.tags if k.casefold() not in _PGN_ONLY_TAGS]
    tags += _recorded_result_tags(game.verdict)
    if pocket_file != log.pocket_file:  # another preset: its own tag, or none for i1/i8
        tags = [(k, v) for k, v in tags if k.casefold() != "pocketfile"]
    if (
        pocket_file != DEFAULT_POCKET_FILE or names_other_pockets(game.log.pocket_file, game.unread)
    ) and not any(k.casefold() == "pocketfile" for k, _ in tags):
        tags.append(("PocketFile", pocket_file))
    start = game.start_fen
    index = next((i for i, (k, _) in enumerate(tags) if k.casefold() == "fen"), None)
    if index is not None:
        try:
            same = Position(as_gcadj_fen(tags[index][1])).fen() == start
        except ValueError:
            same = False
        if same:
            return tags
        del tags[index]
    if start != STARTING_FEN:
        tags.insert(len(tags) if index is None else index, ("FEN", game.verdict.start_fen))
    return tags


def _ply_lines(number: int, white: bool, text: str, comments: list[str]) -> list[str]:
    head = f"{number}{'.' if white else '...'} {text}"
    if not comments:
        return [head]
    first, *rest = comments
    return [f"{head} // {first}".rstrip(), *(f"// {line}".rstrip() for line in rest)]


def write_gc_to(
    out: IO[str],
    verdict: Verdict,
    notes: Mapping[int, str] | None = None,
    pocket_file: PocketFile | None = None,
) -> None:
    """The Game Courier list of a game (see the module docstring), line by line.

    `notes` adds gcadj's comment to legal plies (by 0-based index), after the player's own.
    """
    notes = notes or {}
    game = JudgedGame(verdict, pocket_file=pocket_file)
    source, target = game.log.pocket_file, game.pocket_file
    for key, value in _tags(game):
        out.write(f'[{key} "{escape_tag_value(value)}"]\n')
    for line in game.leading_comments:
        out.write(f"// {line}".rstrip() + "\n")
    for ply in game.plies():
        comments = ply.comments
        if ply.gc is not None:
            text = ply.gc
            if ply.index in notes:
                comments = [*comments, notes[ply.index]]
        else:
            text = _typed_text(ply, source, target)
            if ply.record.san:  # typed as PGN writes moves: its sub-moves, and what was typed
                comments = [*comments, f"{NOTE_MARK} typed '{ply.text}' in PGN"]
            if ply.finding is not None:
                comments = [*comments, finding_note(ply.finding)]
        for line in _ply_lines(ply.move_number, ply.white, text, comments):
            out.write(line + "\n")
    unread = game.unread
    if unread is not None:
        out.write(f"// {unread_note(len(game.log.records) + 1, unread)}\n")
        for line in unread.text.rstrip("\n").split("\n"):
            out.write(_swap_pocket_squares(line, source, target) + "\n")


def write_gc(
    verdict: Verdict, notes: Mapping[int, str] | None = None, pocket_file: PocketFile | None = None
) -> str:
    """`write_gc_to` as one text."""
    import io

    out = io.StringIO()
    write_gc_to(out, verdict, notes, pocket_file)
    return out.getvalue()


def fix_notes(fixed: FixedGame) -> dict[int, str]:
    """``gcadj: was '<typed>'`` on each ply `fix_log` replaced (by 0-based index)."""
    return {fix.ply - 1: f"{NOTE_MARK} was '{fix.typed}'" for fix in fixed.fixes}


def write_fixed_gc(fixed: FixedGame) -> str:
    """The Game Courier list of a corrected game (`gcadj.judging.fix`): each replaced
    ply in its corrected form with ``// gcadj: was '<typed>'``; where fixing stopped, the
    illegal ply and the rest as typed, as `write_gc` writes any illegal game."""
    return write_gc(fixed.verdict, fix_notes(fixed))


def _typed_text(ply: JudgedPly, source: str, target: str) -> str:
    """A ply as typed in Game Courier text (`JudgedPly.typed_gc`), its pocket squares moved
    from file `source` to file `target`."""
    record = ply.record
    if source == target:
        return ply.typed_gc
    pockets = {f"{source}1": f"{target}1", f"{source}8": f"{target}8"}
    moved = tuple(_move_squares(sub, pockets) for sub in record.submoves)
    if moved == record.submoves:
        return ply.typed_gc
    return submoves_text(moved) or ";"


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


def _swap_pocket_squares(line: str, source: str, target: str) -> str:
    """A line of unread text for the other preset: outside its ``//`` comment, the pocket
    squares of file `source` and of file `target` trade names (``i1`` <-> ``p1``), so a
    square that did not exist on the old board still does not exist on the new one and the
    text stays exactly as readable, or as unreadable, as it was."""
    if source == target:
        return line
    cut = line.find("//")
    body, comment = (line, "") if cut < 0 else (line[:cut], line[cut:])
    swap = {source: target, target: source}
    square = re.compile(rf"(?<![a-z0-9])([{source}{target}])([18])(?![0-9])")
    return square.sub(lambda m: swap[m[1]] + m[2], body) + comment


def _prepare(games: Sequence[ExportGame], options: ExportOptions) -> WriteTo:
    game = games[0]

    def write(out: IO[str]) -> None:
        write_gc_to(out, game.verdict, game.notes, options.to_pocket_file)

    return write


WRITER = Writer(
    name="gc",
    title="Game Courier text",
    help="a clean Game Courier move list: canonical plies, every piece labelled",
    many=False,
    accepts=frozenset({"to_pocket_file", "fix"}),
    prepare=_prepare,
    order=20,
)
