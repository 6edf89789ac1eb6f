"""One pass over a judged game: what every writer reads, ply by ply.

python-chess's exporters are visitors of one walk over a game; gcadj's writers (PGN, Game
Courier text, FEN, JSON, SVG, the viewer) are the same. The judged record is the `Verdict`:
the log as typed, the legal moves the judge found, the findings, the start. `JudgedGame`
reads it in order and `JudgedGame.plies` yields one `JudgedPly` per ply of the log:

* ``status`` ``legal`` (a ply of the legal prefix: its `Move`, its SAN and the canonical
  Game Courier text of that move), ``illegal`` (a ply with a `Finding`, with the
  suggestions: the first illegal ply, and with ``--all`` each later one the replay found
  on the board Game Courier showed) or ``unjudged`` (every other ply after the first
  illegal one: the game's moves stop there, so no move is said of them);
* its place: 0-based ``index``, ``move_number``, side; the record as typed (``text``,
  ``line``, ``column``, ``comments``);
* the position before it (``position``) and after it (``fen_after``, ``after()``).

Positions come from replaying the verdict's moves with `Position.push_trusted`: the judge's
word on legality is final, so nothing is checked or judged again, no file is read again.
A ply's SAN, Game Courier text and FEN are made only when a writer asks for them. Past
the first illegal ply, `JudgedGame.shown_boards` gives the board Game Courier showed
after each ply, its sub-moves applied as typed (`literal_successor`): nothing is judged.

Lifetime (as for the board python-chess hands a visitor): ``JudgedPly.position`` is the one
live position of the walk, valid only while that ply is visited, that is until the iterator
is advanced. ``san``, ``gc``, ``fen_after`` and ``after()`` read it too, and raise
`StaleVisit` once the walk has moved on. Keep the values (``ply.san``), not the plies.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal, NamedTuple

from gcadj.engine.move import Move
from gcadj.engine.position import Position
from gcadj.engine.squares import WHITE
from gcadj.errors import NoGame, StaleVisit
from gcadj.judging.judge import PlyResolver
from gcadj.judging.verdict import Finding, Verdict, literal_successor
from gcadj.notation.pgn import NOTE_MARK
from gcadj.notation.records import GameLog, MoveRecord, UnreadText
from gcadj.notation.san import gc_text, move_san, submoves_text
from gcadj.vocabulary import PocketFile, Side

__all__ = [
    "JudgedGame",
    "JudgedPly",
    "NoGame",
    "PlyStatus",
    "ShownBoard",
    "StaleVisit",
    "judged_plies",
    "player_comment_lines",
]

PlyStatus = Literal["legal", "illegal", "unjudged"]


def player_comment_lines(comment: str | None) -> list[str]:
    """A comment's lines without gcadj's own notes (``gcadj: ...``, left by an earlier
    export): what the player wrote. Writers add their notes afresh."""
    if comment is None:
        return []
    return [line for line in comment.split("\n") if not line.startswith(NOTE_MARK)]


class ShownBoard(NamedTuple):
    """The board Game Courier showed after ply `ply` (1-based) of a game gone wrong: a
    `Position` of its own, or None when that board is no position (`problem` says why:
    a King taken, a piece in the other side's pocket); `refused` says why the site would
    have refused the ply (its board is then the one before it)."""

    ply: int
    position: Position | None
    refused: str | None = None
    problem: str | None = None


class _Walk:
    """The state of one pass: the live position and which visit is current."""

    __slots__ = ("inside_after", "position", "visit")

    def __init__(self, position: Position) -> None:
        self.position = position
        self.visit = 0
        self.inside_after = False  # the live position is the one after the ply


class JudgedPly:
    """One ply of a judged game, as the walk visits it (see the module docstring)."""

    __slots__ = (
        "_fen_after",
        "_gc",
        "_san",
        "_visit",
        "_walk",
        "finding",
        "index",
        "move",
        "move_number",
        "pocket_file",
        "record",
        "status",
        "white",
    )

    def __init__(
        self,
        walk: _Walk,
        index: int,
        move_number: int,
        white: bool,
        record: MoveRecord,
        status: PlyStatus,
        move: Move | None,
        finding: Finding | None,
        pocket_file: PocketFile,
    ) -> None:
        self._walk = walk
        self._visit = walk.visit
        self.index = index
        self.move_number = move_number
        self.white = white
        self.record = record
        self.status: PlyStatus = status
        self.move = move
        self.finding = finding
        self.pocket_file = pocket_file  # of the canonical Game Courier text
        self._san: str | None = None
        self._gc: str | None = None
        self._fen_after: str | None = None

    def __repr__(self) -> str:
        return (
            f"JudgedPly(index={self.index}, move_number={self.move_number}, "
            f"side={self.side.value!r}, text={self.text!r}, status={self.status!r})"
        )

    # -- the record as typed

    @property
    def ply(self) -> int:
        """The 1-based number of the ply in the log (as findings count)."""
        return self.index + 1

    @property
    def side(self) -> Side:
        return Side.WHITE if self.white else Side.BLACK

    @property
    def text(self) -> str:
        """The ply as typed (without its move number and comment)."""
        return self.record.text

    @property
    def line(self) -> int:
        return self.record.line

    @property
    def column(self) -> int:
        return self.record.column

    @property
    def comments(self) -> list[str]:
        """The player's comment lines on this ply (`player_comment_lines`)."""
        return player_comment_lines(self.record.comment)

    @property
    def typed_gc(self) -> str:
        """The ply as Game Courier text, as typed: its text, or for a ply typed as PGN
        writes moves (``O-O``, ``Kf7``: `MoveRecord.san`) the sub-moves the reader made of
        it (``K e1-g1; R h1-f1``; ``;`` for a null move, a ply of no sub-move). What a
        Game Courier writer gives for a ply it keeps as typed, so that it reads back."""
        record = self.record
        return (submoves_text(record.submoves) or ";") if record.san else record.text

    # -- the position and what needs it

    @property
    def position(self) -> Position:
        """The live position before this ply; for an illegal or unjudged ply, the position
        the legal game stopped in. Valid only during the visit; do not change it."""
        if self._walk.visit != self._visit:
            raise StaleVisit(f"ply {self.ply} was visited; the walk has moved on")
        if self._walk.inside_after:
            raise StaleVisit(
                f"inside ply {self.ply}'s after() the position is the one after it: ask for "
                "what needs the position before it (san, gc) first"
            )
        return self._walk.position

    @property
    def san(self) -> str | None:
        """The SAN of a legal ply (with ``+``/``#``), else None."""
        if self.move is not None and self._san is None:
            self._san = move_san(self.position, self.move)
        return self._san

    @property
    def gc(self) -> str | None:
        """The canonical Game Courier text of a legal ply (every piece labelled, pockets on
        `pocket_file`), else None."""
        if self.move is not None and self._gc is None:
            self._gc = gc_text(self.position, self.move, self.pocket_file)
        return self._gc

    @property
    def fen_after(self) -> str | None:
        """gcadj's FEN after a legal ply, else None."""
        if self.move is not None and self._fen_after is None:
            if self._walk.inside_after and self._walk.visit == self._visit:
                self._fen_after = self._walk.position.fen()  # asked inside `after()`
            else:  # `after()` without its context manager: this is every writer's hot path
                position = self.position
                position.push_trusted(self.move)
                try:
                    self._fen_after = position.fen()
                finally:
                    position.pop()
        return self._fen_after

    @contextmanager
    def after(self) -> Iterator[Position]:
        """The live position after a legal ply, for the length of a ``with`` block."""
        if self.move is None:
            raise ValueError(f"ply {self.ply} is {self.status}: there is no position after it")
        with self.position.trial(self.move) as after:
            self._walk.inside_after = True
            try:
                yield after
            finally:
                self._walk.inside_after = False


class JudgedGame:
    """A verdict's game, read in order (see the module docstring).

    `pocket_file` is the file of the pockets in the canonical Game Courier text of the
    legal plies (default: the log's own; another one converts to that preset).
    """

    def __init__(self, verdict: Verdict, *, pocket_file: PocketFile | None = None) -> None:
        if verdict.log is None:
            raise NoGame(f"{verdict.source}: no game ({verdict.status})")
        self.verdict = verdict
        self.log: GameLog = verdict.log
        self.pocket_file = pocket_file or verdict.log.pocket_file

    @property
    def start_fen(self) -> str:
        """gcadj's FEN of the start, as the position writes it."""
        return Position.starting_at(self.verdict.start_fen).fen()

    @property
    def leading_comments(self) -> list[str]:
        """The player's comment lines before the first ply."""
        return player_comment_lines(self.log.leading_comment)

    @property
    def unread(self) -> UnreadText | None:
        """The text from the first unreadable ply on, as typed, if the reader stopped."""
        return self.log.unread

    def plies(self) -> Iterator[JudgedPly]:
        """Every ply of the log, in order, each visited in its position."""
        verdict = self.verdict
        walk = _Walk(Position.starting_at(verdict.start_fen))
        position = walk.position
        moves = verdict.moves
        legal = len(moves)
        findings = self.findings
        number, white = position.fullmove_number, position.turn == WHITE
        for index, record in enumerate(self.log.records):
            if index < legal:
                move: Move | None = moves[index]
                status: PlyStatus = "legal"
                finding = None
            else:
                move = None
                finding = findings.get(index + 1)
                status = "unjudged" if finding is None else "illegal"
            yield JudgedPly(
                walk, index, number, white, record, status, move, finding, self.pocket_file
            )
            walk.visit += 1
            if move is not None:
                position.push_trusted(move)  # the judge found it legal
            number += 0 if white else 1
            white = not white

    @property
    def findings(self) -> dict[int, Finding]:
        """The findings by the 1-based ply they are about: the first illegal ply's, and
        with ``--all`` every later one's."""
        first = self.verdict.first_illegal
        found = {finding.ply: finding for finding in self.verdict.illegal}
        if first is not None:
            found[first.ply] = first
        return found

    def shown_boards(self) -> Iterator[ShownBoard]:
        """From the first ply that is not legal on, the board Game Courier showed after
        each ply: the site carries out sub-moves as typed, so a game went on after an
        illegal ply on a board the rules never reached (`literal_successor`, which
        ``--all`` judges on too). Ends at the last ply, or after the first board that is
        no position. Nothing when every ply read is legal."""
        verdict = self.verdict
        legal = len(verdict.moves)
        records = self.log.records
        if legal >= len(records):
            return
        resolver = PlyResolver(self.log.pocket_file)
        board = self.position_after(legal)
        for record in records[legal:]:
            after, refused = literal_successor(resolver, board, record)
            why = None if refused is None else refused.reason
            if isinstance(after, str):
                yield ShownBoard(record.ply + 1, None, why, after)
                return
            yield ShownBoard(record.ply + 1, after, why)
            board = after

    def positions(self) -> Iterator[Position]:
        """The live position at the start and after each legal ply (valid until the next
        one is asked for): the cheap walk for writers that need no notation."""
        position = Position.starting_at(self.verdict.start_fen)
        yield position
        for move in self.verdict.moves:
            position.push_trusted(move)
            yield position

    def position_after(self, legal_plies: int) -> Position:
        """A position of its own after the first `legal_plies` legal plies (0: the start)."""
        if not 0 <= legal_plies <= len(self.verdict.moves):
            raise IndexError(f"the game has {len(self.verdict.moves)} legal plies")
        position = Position.starting_at(self.verdict.start_fen)
        for move in self.verdict.moves[:legal_plies]:
            position.push_trusted(move)
        return position


def judged_plies(verdict: Verdict, *, pocket_file: PocketFile | None = None) -> Iterator[JudgedPly]:
    """`JudgedGame(verdict, pocket_file=...).plies()`: the one pass every writer makes."""
    return JudgedGame(verdict, pocket_file=pocket_file).plies()
