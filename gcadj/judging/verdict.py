"""Replay a parsed log through the rules engine and give its `Verdict`.

`replay` is the one place where an illegal ply becomes a `Finding`; `failed_verdict` is
the verdict of a source that could not be read or parsed, so a caller auditing many games
gets one `Verdict` per game whatever went wrong (`gcadj.app.check` reads and parses).
The verdict carries the same facts as `gcadj check --json` (`Verdict.to_json`), plus the
legal moves for the converters.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final, overload

from gcadj.engine.compiled import mypyc_attr, rebuild_args
from gcadj.engine.fen import STARTING_FEN, format_fen
from gcadj.engine.move import Move
from gcadj.engine.pieces import Piece
from gcadj.engine.position import Outcome, Position
from gcadj.engine.squares import BLACK, WHITE
from gcadj.errors import FenError, LogSyntaxError
from gcadj.judging.adjudication import Adjudication
from gcadj.judging.judge import IllegalPly, PlyResolver
from gcadj.notation.gccode import as_gcadj_fen
from gcadj.notation.records import GameLog, MoveRecord, MoveSub
from gcadj.vocabulary import (
    DEFAULT_POCKET_FILE,
    Category,
    PocketFile,
    Result,
    Side,
    Status,
    Termination,
    VerdictKind,
)

if TYPE_CHECKING:  # a verdict is analysed only when asked: `gcadj check` need not load it
    from gcadj.judging.game_analysis import GameAnalysis

SIDE_NAMES = (Side.WHITE, Side.BLACK)
# Not Final: mypyc would compile the number into the replay, and tests lower it at run time.
MAX_FINDINGS = 1000
"""With ``--all``, the illegal plies listed in a verdict; the others are only counted (a
warning says how many), so a log of a million illegal plies gives a verdict of a
thousand findings, not a 300 MB JSON line, and costs no suggestions past them."""


@dataclass(frozen=True)
class Suggestion:
    """A legal ply close to what was typed: what the player probably meant.

    `text` is the ply in Game Courier notation as a player would type it, `san` the same
    move in gcadj's SAN, `why` a few words on what differs from the typed ply.
    """

    text: str
    san: str
    why: str

    def to_json(self) -> dict[str, str]:
        return {"text": self.text, "san": self.san, "why": self.why}

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), rebuild_args(self))  # pickling (see gcadj.engine.compiled)


@dataclass(frozen=True)
class Finding:
    """An illegal ply: where it is, what was typed, why it is illegal, and what the player
    probably meant (`suggestions`, best first, empty when no legal ply is close).

    Examples:
        >>> from gcadj import check_text
        >>> finding = check_text('''P e2-e4
        ... p d7-d5
        ... P e4-e5
        ... p f7-f5
        ... P e5-f6; e6-
        ... ''').first_illegal
        >>> finding.ply, finding.move_number, finding.side, finding.text
        (5, 3, <Side.WHITE: 'white'>, 'P e5-f6; e6-')
        >>> finding.category
        <Category.EN_PASSANT_INCOMPLETE: 'en-passant-incomplete'>
        >>> finding.reason
        'en passant e5-f6 must remove the captured Pawn on f5, which was not removed'
        >>> finding.suggestions
        (Suggestion(text='P e5-f6; f5-', san='exf6', why='the en passant victim stands on f5'),)
    """

    ply: int  # 1-based index of the ply in the log
    move_number: int
    side: Side
    text: str
    line: int
    column: int
    category: Category
    reason: str
    fen_before: str = field(default="", compare=False)  # the position it was played in
    suggestions: tuple[Suggestion, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "move_number": self.move_number,
            "side": self.side,
            "text": self.text,
            "line": self.line,
            "column": self.column,
            "category": self.category,
            "reason": self.reason,
            "suggestions": [s.to_json() for s in self.suggestions],
        }

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), rebuild_args(self))  # pickling (see gcadj.engine.compiled)


# A Python class in the compiled build too: mypyc's own classes are no descriptors.
@mypyc_attr(native_class=False)
class MadeOnRead:
    """A dataclass field holding a text or None, which may be given as a function that makes
    the text: the function is called when the field is first read, and its text kept.

    `Verdict.final_fen` is one (`Position.fen_later`): formatting the last position's FEN
    costs as much as judging a few plies, and ``gcadj check`` without ``-v``, or a caller
    that reads only the status, never asks for it. Reading, comparing, printing and
    pickling a verdict all see the text.
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self._key = f"_{name}_value"

    @overload
    def __get__(self, instance: None, owner: type) -> None: ...
    @overload
    def __get__(self, instance: object, owner: type) -> str | None: ...
    def __get__(self, instance: object | None, owner: type) -> str | None:
        if instance is None:
            return None  # the field's default
        value: str | Callable[[], str] | None = instance.__dict__[self._key]
        if callable(value):
            value = value()
            instance.__dict__[self._key] = value
        return value

    def __set__(self, instance: object, value: str | Callable[[], str] | None) -> None:
        instance.__dict__[self._key] = value


# A Python class in the compiled build too: mypyc's own classes know no field descriptors.
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Verdict:
    """What gcadj concludes about one game (the schema of `gcadj check --json`).

    Examples:
        >>> from gcadj import check_text
        >>> verdict = check_text('''P f2-f3
        ... p e7-e5
        ... P g2-g4
        ... q d8-h4
        ... ''', "fools-mate.txt")
        >>> verdict.status, verdict.plies
        (<Status.LEGAL: 'legal'>, 4)
        >>> verdict.result, verdict.termination
        (<Result.BLACK_WINS: '0-1'>, <Termination.CHECKMATE: 'checkmate'>)
        >>> verdict.final_fen
        'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR[] w - - 4 3'
        >>> print(verdict.json_line())  # what gcadj check --json prints  # doctest: +ELLIPSIS
        {"source": "fools-mate.txt", "status": "legal", "plies": 4, "legal_plies": 4, ...}
        >>> list(verdict.to_json())[:5]
        ['source', 'status', 'plies', 'legal_plies', 'result']
    """

    source: str
    status: Status
    plies: int
    legal_plies: int
    result: Result
    termination: Termination | None
    final_fen: MadeOnRead = MadeOnRead()  # str | None when read
    first_illegal: Finding | None = None
    illegal: tuple[Finding, ...] = ()
    warnings: tuple[str, ...] = ()
    error: str | None = None
    start_fen: str = field(default=STARTING_FEN, compare=False)
    moves: tuple[Move, ...] = field(default=(), compare=False)  # the legal prefix
    log: GameLog | None = field(default=None, compare=False, repr=False)
    # gcadj itself failed on the source (`internal_error_verdict`): not in the JSON, whose
    # readers recognise it by its error text (`outcome_of`)
    internal: bool = field(default=False, compare=False, repr=False)
    # the analysis of the whole game, when it was asked for (`gcadj.analysis.analyser`):
    # its JSON is an "analysis" key, absent otherwise, so a plain check's JSON is unchanged
    analysis: GameAnalysis | None = field(default=None, compare=False, repr=False)
    # What the stages after the judging made of the game (`gcadj.app.stages`), when its
    # options asked: its adjudication. Not part of the verdict's equality.
    adjudication: Adjudication | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``gcadj check --json``, and ``"adjudication"`` when the game
        carries one (what ``gcadj adjudicate --json`` prints: one object, one place)."""
        found: dict[str, Any] = {
            "source": self.source,
            "status": self.status,
            "plies": self.plies,
            "legal_plies": self.legal_plies,
            "result": self.result,
            "termination": self.termination,
            "final_fen": self.final_fen,
            "first_illegal": None if self.first_illegal is None else self.first_illegal.to_json(),
            "illegal": [f.to_json() for f in self.illegal],
            "warnings": list(self.warnings),
            "error": self.error,
        }
        if self.adjudication is not None:
            found["adjudication"] = self.adjudication.to_json()
        if self.analysis is not None:
            found["analysis"] = self.analysis.to_json()
        return found

    @property
    def partial(self) -> bool:
        """A game judged up to an unreadable ply: status "syntax-error" with a final position.

        `legal_plies` (= `plies`) plies were read and are legal; ply `legal_plies + 1` could
        not be read (`error` says where and why); `final_fen` is the position before it.
        """
        return self.status is Status.SYNTAX_ERROR and self.final_fen is not None

    def json_line(self) -> str:
        """`to_json` as one line of JSON (no newline at the end) that no line splitter
        breaks: what ``gcadj check --json`` prints and the audit appends."""
        from gcadj.judging.json_text import json_text  # json: not for a plain `check`

        return json_text(self.to_json())

    @property
    def outcome(self) -> VerdictKind:
        """`status`, or "internal-error" when gcadj itself failed on the game: judging it
        (`internal`) or in a stage after (its `adjudication` is then `internal`, or its
        `analysis` has an `error`)."""
        failed = (
            self.internal
            or (self.adjudication is not None and self.adjudication.internal)
            or (self.analysis is not None and self.analysis.error is not None)
        )
        return VerdictKind.INTERNAL_ERROR if failed else VerdictKind(self.status)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), rebuild_args(self))  # pickling (see gcadj.engine.compiled)


INTERNAL_ERROR: Final = ": internal error: "
"""What the error text of a verdict says when gcadj itself failed on the source."""

OUTCOMES: Final = tuple(kind.value for kind in VerdictKind)


def outcome_of(source: object, status: object, error: object) -> VerdictKind:
    """What a verdict's JSON (source, status and error, as an audit's JSONL holds them)
    means for the exit code: the one place that reads the outcome back from text.

    The statuses, plus "internal-error": an "error" verdict whose text is
    "<source>: internal error: ..." (see `internal_error_verdict`) is an unexpected
    exception inside gcadj (a bug to report), not a source that could not be read, so
    ``gcadj`` exits with its own code for it (5). Any other value is taken as "error".
    A `Verdict` in hand knows it by its type (`Verdict.internal`), not by this text.
    """
    if status in (Status.LEGAL, Status.ILLEGAL, Status.SYNTAX_ERROR):
        return VerdictKind(status)
    if isinstance(error, str) and error.startswith(f"{source}{INTERNAL_ERROR}"):
        return VerdictKind.INTERNAL_ERROR
    return VerdictKind.ERROR


def internal_error_verdict(source: str, err: BaseException) -> Verdict:
    """The verdict of a source on which gcadj raised an unexpected exception: status
    "error", error "<source>: internal error: <type>: <message>"."""
    message = str(err).strip() or "(no message)"
    verdict = failed_verdict(
        source, Status.ERROR, f"{source}{INTERNAL_ERROR}{type(err).__name__}: {message}"
    )
    return dataclasses.replace(verdict, internal=True)


def failed_verdict(source: str, status: Status, message: str) -> Verdict:
    """The verdict for a source that could not be read ("error") or parsed ("syntax-error")."""
    return Verdict(
        source=source,
        status=status,
        plies=0,
        legal_plies=0,
        result=Result.UNDECIDED,
        termination=None,
        final_fen=None,
        error=message,
    )


def replay(
    log: GameLog,
    *,
    fen: str | None = None,
    all_findings: bool = False,
    unreadable: LogSyntaxError | None = None,
) -> Verdict:
    """Judge every ply of `log`; stop at the first illegal one unless `all_findings`.

    Examples:
        >>> from gcadj import parse_log
        >>> log = parse_log('''P e2-e4
        ... p e7-e5
        ... N g1-g3
        ... p d7-d5
        ... B f1-a5
        ... ''', "two-slips.txt")
        >>> verdict = replay(log)
        >>> verdict.status, verdict.first_illegal.ply, len(verdict.illegal)
        (<Status.ILLEGAL: 'illegal'>, 3, 1)
        >>> every = replay(log, all_findings=True)  # on from the board Game Courier showed
        >>> [(finding.ply, finding.category.value) for finding in every.illegal]
        [(3, 'illegal-piece-move'), (5, 'illegal-piece-move')]
        >>> replay(parse_log("Q i1-b7"), fen="k7/8/1K6/8/8/8/8/8[Q] w - - 0 1").termination
        <Termination.CHECKMATE: 'checkmate'>

    The start is `fen`, else the log's FEN tag, else the standard array (either may be
    Game Courier's own position code). A bad `fen` argument raises `FenError`: it is the
    caller's mistake. A bad FEN tag is a fault in the log's text, so the verdict is a
    "syntax-error" naming the tag, as for any other text that is not a game. With
    `all_findings` the replay goes on from the board Game Courier showed after an illegal
    ply, until the literal board no longer defines a position.

    `unreadable` is the syntax error that ended the text after `log`'s plies (see
    `replay_readable`); by default, the one a partial log carries (`GameLog.unread`). The
    game is judged as far as it could be read. If one of those plies is illegal, the
    verdict is "illegal" as usual and the unreadable ply a warning; otherwise it is a
    "syntax-error" whose `final_fen` is the position before the unreadable ply
    (`Verdict.partial`).
    """
    start = fen if fen is not None else log.tag("FEN") or STARTING_FEN
    try:
        game = Replay(start, log.pocket_file, all_findings=all_findings)
    except FenError as err:
        if fen is not None:
            raise
        return failed_verdict(log.source, Status.SYNTAX_ERROR, f"{log.source}: [FEN] tag: {err}")
    for record in log.records:
        if not game.play(record):
            break
    stop = str(unreadable) if unreadable is not None else log.unread and log.unread.error
    return game.verdict(log, stop or None)


def replay_readable(
    error: LogSyntaxError, *, fen: str | None = None, all_findings: bool = False
) -> Verdict:
    """The verdict of a text that stops being readable at a ply: its plies before the error
    judged (`replay` with `unreadable`), or a plain "syntax-error" when the error is in the
    header or the first ply (no ply could be read)."""
    if error.partial is None:
        return failed_verdict(error.source, Status.SYNTAX_ERROR, str(error))
    return replay(error.partial, fen=fen, all_findings=all_findings, unreadable=error)


def start_position(fen: str, pocket_file: PocketFile = DEFAULT_POCKET_FILE) -> str:
    """gcadj's FEN for a start given as a FEN or a Game Courier code; raises `FenError`
    when it is neither or is no position (no King, side not to move in check, ...)."""
    return _starting(fen, pocket_file)[0]


def _starting(fen: str, pocket_file: PocketFile) -> tuple[str, Position]:
    """`start_position`, and the position itself (the one copy a replay makes)."""
    gcadj_fen = _as_gcadj_fen(fen, pocket_file)
    return gcadj_fen, Position.starting_at(gcadj_fen)


@lru_cache(maxsize=64)
def _as_gcadj_fen(fen: str, pocket_file: PocketFile) -> str:
    """`as_gcadj_fen`, remembered: an archive's games start from a few positions."""
    return as_gcadj_fen(fen, pocket_file)


class Replay:
    """One game judged ply by ply, in the order its reader reads the plies.

    `replay` gives it the records of a parsed log. The PGN reader
    (`gcadj.sources.pgn_reader`) gives it each ply as it reads it, since SAN is read on a
    board: `board` is the one the next ply is read in. So a game from PGN is judged once,
    while it is read, and `verdict` is its verdict.

    A ply is `play`ed (judged as typed) or, when the reader has already found the legal
    move it names, `play_move`d (played, not judged again). After the first illegal ply
    (without `all_findings`) the verdict is settled and `play` says so; a reader that reads
    on is then given the board Game Courier would show (the legal move of each ply, or its
    literal board), so the plies after it are read and counted, not judged. `board` is
    None once that board is no position.

    `start` is a gcadj FEN or a Game Courier code; one that is no position raises
    `FenError`.
    """

    def __init__(self, start: str, pocket_file: PocketFile, *, all_findings: bool = False) -> None:
        self.start_fen, self.position = _starting(start, pocket_file)
        self.pocket_file = pocket_file
        self.all_findings = all_findings
        self.resolver = PlyResolver(pocket_file)
        self.findings: list[Finding] = []
        self.unlisted = 0  # illegal plies found past MAX_FINDINGS: counted, not kept
        self.warnings: list[str] = []
        self.moves: list[Move] = []
        self.final_fen: str | None = None
        self.threefold_warned = False
        self.judging = True  # False once the verdict is settled
        self._board: Position | None = self.position
        # Where judging stopped (the position and its illegal ply): the board after it is
        # made only if a reader asks for it (`board`), which `replay` never does.
        self._stopped_at: tuple[Position, MoveRecord] | None = None

    @property
    def board(self) -> Position | None:
        """The board the next ply is read in: the game's position while it is judged, then
        the board Game Courier would show; None when that is no position."""
        if self._stopped_at is not None:
            position, record = self._stopped_at
            self._stopped_at = None
            successor = self._literal_successor(position, record)
            self._board = successor if isinstance(successor, Position) else None
        return self._board

    def play(self, record: MoveRecord) -> bool:
        """Judge a ply as typed and play it; False when the verdict is settled (no further
        ply changes it), True while the replay judges on."""
        if not self.judging:
            self._follow(record, None)
            return False
        return self._judge_record(record, None)

    def play_move(self, record: MoveRecord, move: Move) -> bool:
        """`play` for a ply whose move the reader found legal on `board` (SAN it resolved):
        played without judging it again (the game may still have ended before it)."""
        if not self.judging:
            self._follow(record, move)
            return False
        return self._judge_record(record, move)

    def _follow(self, record: MoveRecord, move: Move | None) -> None:
        """A ply after the verdict is settled: the board moves on, nothing is judged."""
        board = self.board
        if board is None:
            return
        if move is not None:
            board.push_trusted(move)  # legal on this board: the reader resolved it there
            return
        if isinstance(self.resolver.play(board, record), IllegalPly):
            successor = self._literal_successor(board, record)
            self._board = successor if isinstance(successor, Position) else None

    def verdict(self, log: GameLog, unreadable: str | None = None) -> Verdict:
        """The verdict of `log`, whose plies were played: `unreadable` is the syntax error
        that stopped its reader after them, if one did (see `replay`)."""
        if unreadable is not None:
            return self._unreadable(log, unreadable)
        if self.findings:
            return self._verdict(log, Status.ILLEGAL, Result.UNDECIDED, None)
        outcome = self.position.outcome()
        result, termination = self._result(log, outcome)
        return self._verdict(log, Status.LEGAL, result, termination)

    def _unreadable(self, log: GameLog, error: str) -> Verdict:
        """The verdict when the text could not be read past the log's last ply (`error`:
        the syntax error that stopped the reader)."""
        ply = len(log.records) + 1
        if self.findings:
            first_line = error.split("\n", 1)[0]
            self.warnings.append(
                f"ply {ply} could not be read, so the replay stopped there: {first_line}"
            )
            return self._verdict(log, Status.ILLEGAL, Result.UNDECIDED, None)
        verdict = self._verdict(log, Status.SYNTAX_ERROR, Result.UNDECIDED, None)
        return dataclasses.replace(verdict, error=error)

    def _judge_record(self, record: MoveRecord, known: Move | None) -> bool:
        """Judge one ply and play it (`known`: its legal move, already found); False when
        the replay must stop."""
        position = self.position
        verdict: Move | IllegalPly
        ended = (  # `_automatic_end`'s test first: a call a ply saved
            self._automatic_end(position)
            if position.halfmove_clock >= 100
            or position.repetition_count() >= 5
            or position.is_dead_position()
            else None
        )
        if ended is not None:
            verdict = ended
        elif known is not None:
            position.push_trusted(known)
            verdict = known
        else:
            verdict = self.resolver.play(position, record)
            if isinstance(verdict, IllegalPly):
                over = position.outcome()  # only now: a legal move proves the game went on
                if over is not None:
                    verdict = _after_end(over)
        if isinstance(verdict, Move):  # already played
            if not self.findings:
                self.moves.append(verdict)
            if len(record.submoves) > 1 or (
                not self.threefold_warned and position.repetition_count() >= 3
            ):  # `_note_oddities`'s own tests first: most plies have nothing to note
                self._note_oddities(record, position)
            return True
        self._add_finding(record, verdict)
        if not self.all_findings:
            self.judging = False
            self._board, self._stopped_at = None, (position, record)
            return False
        return self._continue_from_literal(record)

    @staticmethod
    def _automatic_end(position: Position) -> IllegalPly | None:
        """Draws that end the game with no move needed: fifty moves, fivefold, dead position."""
        if (
            position.halfmove_clock >= 100
            or position.repetition_count() >= 5
            or position.is_dead_position()
        ):
            outcome = position.outcome()
            if outcome is not None:
                return _after_end(outcome)
        return None

    def _add_finding(self, record: MoveRecord, illegal: IllegalPly) -> None:
        position = self.position
        if len(self.findings) >= MAX_FINDINGS:
            self.unlisted += 1
            return
        if not self.findings:
            self.final_fen = position.fen()
        suggestions: tuple[Suggestion, ...] = ()
        if (
            illegal.category is not Category.AFTER_GAME_END
        ):  # no move may follow: nothing to suggest
            # imported here: a legal game (and gcadj's start-up) never needs it, nor SAN
            from gcadj.judging.suggest import suggest

            suggestions = tuple(
                Suggestion(c.text, c.san, c.why)
                for c in suggest(position, record, self.pocket_file)
            )
        self.findings.append(
            Finding(
                ply=record.ply + 1,
                move_number=position.fullmove_number,
                side=SIDE_NAMES[position.turn],
                text=record.text,
                line=record.line,
                column=record.column,
                category=illegal.category,
                reason=illegal.reason,
                fen_before=position.fen(),
                suggestions=suggestions,
            )
        )

    def _note_oddities(self, record: MoveRecord, position: Position) -> None:
        submoves = record.submoves
        if len(submoves) > 1:  # a legal ply of one sub-move moved a piece: nothing odd
            self._note_submove_oddities(record, position)
        if not self.threefold_warned and position.repetition_count() >= 3:
            self.threefold_warned = True
            self.warnings.append(
                f"after ply {record.ply + 1} the position occurred a third time: "
                "a draw by threefold repetition could have been claimed"
            )

    def _note_submove_oddities(self, record: MoveRecord, position: Position) -> None:
        submoves = record.submoves
        for sub in submoves:
            if isinstance(sub, MoveSub) and sub.origin == sub.target:
                self.warnings.append(
                    f"ply {record.ply + 1} ({record.text!r}, line {record.line}): "
                    f"'{sub.origin}-{sub.target}' moves nothing; the piece stays where it stands"
                )
                break
        moving = sum(isinstance(s, MoveSub) and s.origin != s.target for s in submoves)
        if len(submoves) > 1 and moving > 1:
            last = position.move_stack[-1].uci()
            self.warnings.append(
                f"ply {record.ply + 1} ({record.text!r}, line {record.line}) is legal as {last}, "
                "but reaches it through more than one move"
            )

    def _literal_successor(self, position: Position, record: MoveRecord) -> Position | str:
        """The board Game Courier shows after an illegal ply (`literal_successor`)."""
        return literal_successor(self.resolver, position, record)[0]

    def _continue_from_literal(self, record: MoveRecord) -> bool:
        """Go on from the board Game Courier showed after an illegal ply, if it is a position."""
        successor = self._literal_successor(self.position, record)
        if isinstance(successor, Position):
            self.position = self._board = successor
            return True
        self.warnings.append(
            f"stopped after ply {record.ply + 1}: the board it leaves is not a position "
            f"({successor})"
        )
        self.judging = False
        self._board = None
        return False

    def _result(self, log: GameLog, outcome: Outcome | None) -> tuple[Result, Termination]:
        """The result: the board's ending if it shows one, else the record's (the Status
        line, then PGN's Result tag or result token, with its Termination tag); each
        place where the record contradicts the board, or itself, is a warning."""
        status = log.tag("Status")
        from_status = _status_result(status, log.tag("White"), log.tag("Black"))
        recorded = self._recorded_result(log)
        self._check_claims(log, outcome)
        if outcome is not None:
            board = outcome.result()
            ending = f"{outcome.termination.value} ({board})"
            if from_status is not None and from_status[0] != board:
                self.warnings.append(
                    f"the status line {status!r} disagrees with the board, which shows {ending}"
                )
            if recorded is not None and recorded[0] != board:
                self.warnings.append(
                    f"the recorded result {recorded[0]} disagrees with the board, "
                    f"which shows {ending}"
                )
            return board, outcome.termination
        if from_status is not None:
            if recorded is not None and recorded[0] != from_status[0]:
                self.warnings.append(
                    f"the recorded result {recorded[0]} disagrees with the status line "
                    f"{status!r} ({from_status[0]})"
                )
            return from_status
        if status:
            self.warnings.append(
                f"status line {status!r} was not understood or names neither player; "
                "no result taken from it"
            )
        return recorded or (Result.UNDECIDED, Termination.ONGOING)

    def _recorded_result(self, log: GameLog) -> tuple[Result, Termination] | None:
        """(result, termination) from a PGN record: the Result tag, else the result token,
        with how the Termination tag says it ended; None when neither gives a result. A
        Result tag that is no result, or disagrees with the result token, is a warning."""
        tag = log.tag("Result")
        tagged = None if tag is None else Result.read(tag)
        if tag is not None and tagged is None:
            self.warnings.append(
                f"the Result tag {tag!r} is not a result (1-0, 0-1, 1/2-1/2 or *); it is not taken"
            )
        token = log.result_token
        if tagged is not None and token is not None and tagged.value != token:
            self.warnings.append(
                f"the Result tag says {tagged} but the moves end with the result {token}; "
                "the tag is taken"
            )
        result = tagged or Result.read(token or "*") or Result.UNDECIDED
        if result is Result.UNDECIDED:
            return None
        return result, _recorded_termination(log.tag("Termination"), result)

    def _check_claims(self, log: GameLog, outcome: Outcome | None) -> None:
        """Warn where the record claims an ending on the board that the board does not
        show: a Termination tag saying checkmate (or stalemate, ...), a last move marked
        '#'."""
        shown = None if outcome is None else outcome.termination
        claimed = _board_claim(log.tag("Termination"))
        if claimed is not None and claimed is not shown:
            board = "the game has not ended" if shown is None else f"the board shows {shown}"
            self.warnings.append(f"the Termination tag says {claimed}, but {board}")
        records = log.records
        if records and records[-1].text.endswith("#") and shown is not Termination.CHECKMATE:
            last = records[-1]
            self.warnings.append(
                f"ply {last.ply + 1} ({last.text!r}, line {last.line}) is marked as mate, "
                "but the position after it is not checkmate"
            )

    def _verdict(
        self, log: GameLog, status: Status, result: Result, termination: Termination | None
    ) -> Verdict:
        findings = tuple(self.findings)
        if self.unlisted:
            self.warnings.append(
                f"{self.unlisted:,} more illegal {'ply' if self.unlisted == 1 else 'plies'} "
                f"after the first {MAX_FINDINGS:,} not listed (--all lists at most "
                f"{MAX_FINDINGS:,})"
            )
        return Verdict(
            source=log.source,
            status=status,
            plies=len(log.records),
            legal_plies=len(self.moves),
            result=result,
            termination=termination,
            final_fen=self.final_fen or self.position.fen_later(),
            first_illegal=findings[0] if findings else None,
            illegal=findings if self.all_findings else findings[:1],
            warnings=(*log.warnings, *self.warnings),
            start_fen=self.start_fen,
            moves=tuple(self.moves),
            log=log,
        )


def literal_successor(
    resolver: PlyResolver, position: Position, record: MoveRecord
) -> tuple[Position | str, IllegalPly | None]:
    """The board Game Courier shows after a ply it carries out as written (docs/rules.md
    §5.1), whatever the rules say, as the next position: the literal board (unchanged if
    the site would have refused the ply: then the refusal too), the other side to move, no
    en passant, the ply counted; or, instead of the position, why that board is none.

    The one definition of "the board Game Courier showed": the replay goes on from it
    with ``--all``, and the viewer steps through it past the first illegal ply. Nothing
    is judged: a ply's sub-moves are applied as typed.
    """
    diff = resolver.apply_literally(position, record)
    refused = diff if isinstance(diff, IllegalPly) else None
    if isinstance(diff, IllegalPly):  # the site would have refused it: the board is unchanged
        board = [*position.board, *position.pockets]
    else:
        board = resolver.literal_board(position, diff)
    problem = _pocket_problem(board[64], WHITE) or _pocket_problem(board[65], BLACK)
    if problem is not None:
        return problem, refused
    fen = format_fen(
        board[:64],
        board[64:],
        position.turn ^ 1,
        None,
        position.halfmove_clock + 1,
        position.fullmove_number + (1 if position.turn == BLACK else 0),
    )
    try:
        return Position(fen), refused
    except FenError as err:
        return err.message, refused


def _after_end(outcome: Outcome) -> IllegalPly:
    how = outcome.termination.value.replace("-", " ")
    if outcome.winner is None:
        ended = f"the game had already ended in a draw by {how}"
    else:
        ended = f"the game had already ended by {how} ({Side.of(outcome.winner).capitalized} won)"
    return IllegalPly(Category.AFTER_GAME_END, f"{ended}; no move may follow")


def _pocket_problem(piece: Piece | None, owner: int) -> str | None:
    if piece is None:
        return None
    if piece.kind.is_king:
        return f"a King in {Side.of(owner).capitalized}'s pocket"
    if piece.color != owner:
        whose = Side.of(piece.color).capitalized
        return f"{whose}'s {piece.kind.name} in {Side.of(owner).capitalized}'s pocket"
    return None


_DECIDED: Final = (Result.WHITE_WINS, Result.BLACK_WINS)
# The Termination tag's words (PGN's, lichess's, gcadj's own) for endings that leave the
# board as it is, with the results they go with; any other wording is kept as "recorded":
# the record gives the result, not how the game ended.
_TERMINATION_WORDS: Final = (
    (re.compile(r"resign", re.I), Termination.RESIGNATION, _DECIDED),
    (re.compile(r"time|forfeit|flag", re.I), Termination.TIME_FORFEIT, tuple(Result)),
    (re.compile(r"agree", re.I), Termination.AGREEMENT, (Result.DRAW,)),
    (re.compile(r"abandon", re.I), Termination.ABANDONED, tuple(Result)),
    (re.compile(r"adjudicat", re.I), Termination.ADJUDICATION, tuple(Result)),
)
# Words for endings on the board, which the board must then show.
_BOARD_WORDS: Final = (
    (re.compile(r"stalemate", re.I), Termination.STALEMATE),
    (re.compile(r"checkmate|\bmate\b|\bmated\b", re.I), Termination.CHECKMATE),
    (re.compile(r"fifty|\b50\b", re.I), Termination.FIFTY_MOVES),
    (re.compile(r"fivefold", re.I), Termination.FIVEFOLD_REPETITION),
    (re.compile(r"dead|insufficient", re.I), Termination.DEAD_POSITION),
)


def _recorded_termination(termination: str | None, result: Result) -> Termination:
    """How a recorded `result` ended, in gcadj's words, from a Termination tag."""
    for pattern, word, results in _TERMINATION_WORDS:
        if termination and pattern.search(termination) and result in results:
            return word
    return Termination.RECORDED


def _board_claim(termination: str | None) -> Termination | None:
    """The ending on the board a Termination tag claims (checkmate, ...), if any."""
    if not termination or any(p.search(termination) for p, _, _ in _TERMINATION_WORDS):
        return None
    return next((word for pattern, word in _BOARD_WORDS if pattern.search(termination)), None)


_RESIGNED = re.compile(r"^\s*(?P<name>.+?)\s+(?:has\s+)?resign(?:ed|s)\b", re.IGNORECASE)
_DRAW = re.compile(r"\bdraw(?:n)?\b|\bagreed\b", re.IGNORECASE)
_LOST_ON_TIME = re.compile(
    r"^\s*(?P<name>.+?)\s+(?:has\s+)?(?:lost|forfeited)\s+(?:on\s+time|by\s+time\s+forfeit)\b",
    re.IGNORECASE,
)
_DRAWN_ON_TIME = re.compile(r"\bdraw(?:n)?\b[^.]*\b(?:time|forfeit)", re.IGNORECASE)


def _status_result(
    status: str | None, white: str | None, black: str | None
) -> tuple[Result, Termination] | None:
    """(result, termination) from a Game Courier status line, or None if it names no one.

    Only what the record states is taken: "<Name> has resigned." or "<Name> has lost on
    time." with <Name> one of the players, a draw by time forfeit, or another draw. An
    unmatched name is not guessed at (the caller warns).
    """
    if not status:
        return None
    for pattern, how in (
        (_RESIGNED, Termination.RESIGNATION),
        (_LOST_ON_TIME, Termination.TIME_FORFEIT),
    ):
        found = pattern.match(status)
        if found:
            name = found.group("name").strip().casefold()
            if white and name == white.strip().casefold():
                return Result.BLACK_WINS, how
            if black and name == black.strip().casefold():
                return Result.WHITE_WINS, how
            return None
    if _DRAWN_ON_TIME.search(status):
        return Result.DRAW, Termination.TIME_FORFEIT
    if _DRAW.search(status):
        return Result.DRAW, Termination.AGREEMENT
    return None


__all__ = [
    "INTERNAL_ERROR",
    "OUTCOMES",
    "Finding",
    "Replay",
    "Suggestion",
    "Verdict",
    "failed_verdict",
    "internal_error_verdict",
    "literal_successor",
    "outcome_of",
    "replay",
    "replay_readable",
    "start_position",
]
