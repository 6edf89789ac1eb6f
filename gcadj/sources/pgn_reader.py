"""PGN-like text read back into a `GameLog`, so a converted game is checked again by the same
`replay`: the SAN is replayed through the engine, and each ply is recorded as the Game
Courier sub-moves of that move, with line and column in the PGN text.

Illegal games round-trip through the two comment markers described in `gcadj.notation.pgn`.

A PGN file may hold many games (a database, as ``gcadj export --to pgn`` of several sources
writes it). `game_spans` finds where each game is without judging any, so that one bad game
costs only itself: a game ends at its result token (``1-0``, ``0-1``, ``1/2-1/2``, ``*``)
outside a comment, or where a tag line follows its movetext. Each game is then read in place,
so the lines and columns of its moves and errors are those of the whole file.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import re

from gcadj.adjudication.judge import PlyJudge
from gcadj.engine.fen import STARTING_FEN
from gcadj.engine.move import Move
from gcadj.engine.position import Position
from gcadj.errors import FenError, LogSyntaxError, SanError
from gcadj.notation.gccode import as_gcadj_fen
from gcadj.notation.language import LogBuilder, check_pocket_file, unescape_tag_value
from gcadj.notation.parse import normalise_text, parse_log
from gcadj.notation.pgn import GC_MARK, NOTE_MARK, is_unknown_roster_tag
from gcadj.notation.records import GameLog, MoveRecord
from gcadj.notation.san import SAN_EXAMPLES, looks_like_san, parse_san
from gcadj.notation.san import gc_submoves as _gc_submoves
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile

__all__ = ["game_spans", "read_pgn", "read_pgn_games"]


_TAG = re.compile(
    r'[ \t]*\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+("(?:[^"\\\n]|\\[^\n])*")[ \t]*\][ \t]*'
)
_TOKEN = re.compile(
    r"""
      (?P<ws>[ \t\n\u00a0]+)
    | (?P<brace>\{[^}]*\})
    | (?P<semi>;[^\n]*)
    | (?P<result>(?:1-0|0-1|1/2-1/2|\*)(?=[ \t\n\u00a0{;]|$))
    | (?P<number>[0-9]+[ \t]*\.*)
    | (?P<nag>\$[0-9]+)
    | (?P<san>[^ \t\n\u00a0{};()\[\]$]+)
    """,
    re.VERBOSE,
)


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in re.finditer("\n", text)]


def game_spans(text: str) -> list[tuple[int, int]]:
    """Where each game of normalised PGN-like text is: ``(start, end)`` offsets, in order.

    A game ends after its result token, or before a tag line that follows its movetext.
    Text between games that holds neither a tag nor a move (blank lines, a stray comment)
    is no game. Nothing is judged here: a bad game is still one span, read (and reported)
    on its own.
    """
    spans: list[tuple[int, int]] = []
    start: int | None = None  # where the current game began
    last_end = 0  # the end of its last token
    moves = False  # has its movetext begun (a token that is not a tag line)?
    counts = False  # does it hold a tag or a move (else it is no game)?
    offset, size = 0, len(text)

    def close(end: int) -> None:
        nonlocal start, moves, counts
        if start is not None and counts:
            spans.append((start, end))
        start, moves, counts = None, False, False

    while offset < size:
        char = text[offset]
        if char == "[":  # a tag line (the reader says so if it is not one)
            if moves:
                close(last_end)
            if start is None:
                start = offset
            end = text.find("\n", offset)
            offset = last_end = size if end < 0 else end
            counts = True
            continue
        match = _TOKEN.match(text, offset)
        end = offset + 1 if match is None else match.end()
        kind = None if match is None else match.lastgroup
        if kind != "ws":
            if start is None:
                start = offset
            moves = True
            last_end = end
            if kind in ("san", "number", "result", None):
                counts = True
            if kind == "result":
                close(end)
        offset = end
    close(last_end)
    return spans


class _Reader:
    """One pass over one game of PGN-like text: tags, then movetext tokens, replaying SAN.

    `span` is the game's place in `text` (default: all of it); positions are in `text`.
    """

    def __init__(
        self,
        text: str,
        source: str,
        pocket_file: PocketFile,
        span: tuple[int, int] | None = None,
        line_starts: list[int] | None = None,
    ) -> None:
        self.text = text
        self.source = source
        self.pocket_file = pocket_file
        self.span = span or (0, len(text))
        self.line_starts = line_starts if line_starts is not None else _line_starts(text)
        self.log = LogBuilder(source, pocket_file)  # tags, records, leading comment
        self.position: Position | None = None
        self.lost_at: int | None = None  # line of the gc ply after which SAN has no board
        self.number: str | None = None  # a move number waiting for its ply
        self.tag_offsets: dict[str, int] = {}

    # -- positions and errors

    def where(self, offset: int) -> tuple[int, int, str]:
        """1-based line and column of an offset, and the text of that line."""
        index = bisect.bisect_right(self.line_starts, offset) - 1
        start = self.line_starts[index]
        end = self.text.find("\n", start)
        return index + 1, offset - start + 1, self.text[start : end if end >= 0 else None]

    def error(self, offset: int, expected: str, hint: str | None = None) -> LogSyntaxError:
        line, column, line_text = self.where(offset)
        return LogSyntaxError(self.source, line, column, expected, line_text, hint)

    # -- the header

    def read(self) -> GameLog:
        offset = self.read_tags()
        self.start()
        self.read_movetext(offset)
        return self.log.build()

    def read_tags(self) -> int:
        """Read the tag lines; the offset where the movetext starts."""
        first, stop = self.span
        index = bisect.bisect_right(self.line_starts, first) - 1
        for line_start in self.line_starts[index:]:
            start = max(line_start, first)
            if start >= stop:
                break
            end = self.text.find("\n", start, stop)
            line = self.text[start : end if end >= 0 else stop]
            stripped = line.strip(" \t\u00a0")
            if not stripped:
                continue
            if not stripped.startswith("["):
                return start
            match = _TAG.fullmatch(line)
            if match is None:
                raise self.error(
                    start + line.index("["),
                    'a tag like [White "Alice"]',
                    'tag values are in double quotes; write \\" for a quote inside',
                )
            name, value = match[1], unescape_tag_value(match[2])
            if not is_unknown_roster_tag(name, value):  # [Event "?"] says nothing
                self.log.tags.append((name, value))
            self.tag_offsets.setdefault(name.casefold(), start + match.start(2) + 1)
        return stop

    def tag(self, name: str) -> str | None:
        wanted = name.casefold()
        return next((v for k, v in self.log.tags if k.casefold() == wanted), None)

    def start(self) -> None:
        """The start position (FEN tag, a Game Courier code accepted) and the pocket file."""
        pocket_file = self.tag("PocketFile")
        if pocket_file is not None:
            try:
                letter = check_pocket_file(pocket_file)
            except ValueError as err:
                raise self.error(
                    self.tag_offsets["pocketfile"], "a pocket file letter from i to z", str(err)
                ) from None
            self.pocket_file = self.log.pocket_file = letter  # the game's, and its log's
        fen = self.tag("FEN")
        try:
            self.position = Position(as_gcadj_fen(fen) if fen else STARTING_FEN)
        except FenError as err:
            raise self.error(
                self.tag_offsets["fen"],
                "a start position (gcadj FEN or Game Courier code)",
                err.message,
            ) from None
        self.judge = PlyJudge(self.pocket_file)

    # -- the movetext

    def read_movetext(self, offset: int) -> None:
        text = self.text
        stop = self.span[1]
        while offset < stop:
            match = _TOKEN.match(text, offset, stop)
            if match is None:
                raise self.unexpected(offset)
            kind = match.lastgroup
            value = match.group()
            if kind == "brace":
                self.brace(value, offset)
            elif kind == "semi":
                self.comment(value[1:].strip())
            elif kind == "result":
                rest = text[match.end() : stop]
                if rest.strip(" \t\n\u00a0"):  # read_pgn of text holding more than one game
                    skip = len(rest) - len(rest.lstrip(" \t\n\u00a0"))
                    raise self.error(
                        match.end() + skip,
                        "the end of the game after the result",
                        "read_pgn reads one game; read_pgn_games (and gcadj check) read each",
                    )
                return
            elif kind == "number":
                self.number = value.replace(" ", "").replace("\t", "")
            elif kind == "san":
                self.san(value, offset)
            offset = match.end()

    def unexpected(self, offset: int) -> LogSyntaxError:
        ch = self.text[offset]
        if ch == "{":
            return self.error(offset, "a comment closed by '}'", "this '{' is never closed")
        if ch in "()":
            return self.error(offset, "a move", "variations in '(...)' are not supported")
        if ch == "[":
            return self.error(offset, "a move", "tags go before the moves, one per line")
        return self.error(offset, f"a move like {SAN_EXAMPLES}", f"unexpected {ch!r}")

    def comment(self, text: str) -> None:
        if not self.log.records:
            self.log.leading.append(text)
            return
        self.log.records[-1] = _with_comment(self.log.records[-1], text)

    def brace(self, value: str, offset: int) -> None:
        inner = value[1:-1]
        stripped = inner.strip()
        if stripped.startswith(NOTE_MARK):
            return
        if not stripped.startswith(GC_MARK):
            self.comment(stripped.replace("\n", " "))
            return
        body_start = inner.index(GC_MARK) + len(GC_MARK)
        body = inner[body_start:]
        lead = len(body) - len(body.lstrip(" \t\n\u00a0"))
        self.gc(body.strip().replace("\n", " "), offset + 1 + body_start + lead)

    def gc(self, ply_text: str, offset: int) -> None:
        """A ``{gc: ...}`` ply: parsed as Game Courier text, judged to follow the board."""
        line, column, _ = self.where(offset)
        try:
            parsed = parse_log(ply_text, self.source, self.pocket_file)
        except LogSyntaxError as err:
            raise self.error(offset + err.column - 1, err.expected, err.hint) from None
        if len(parsed.records) != 1 or parsed.tags:
            raise self.error(offset, "one Game Courier ply inside {gc: ...}")
        record = dataclasses.replace(
            parsed.records[0],
            ply=len(self.log.records),
            comment=None,
            line=line,
            column=column + parsed.records[0].column - 1,
            number=self.number,
        )
        self.log.records.append(record)
        self.number = None
        if self.position is not None:
            verdict = self.judge.resolve(self.position, record)
            if isinstance(verdict, Move):
                self.position._push(verdict)
            else:
                self.position = None
                self.lost_at = line

    def san(self, token: str, offset: int) -> None:
        position = self.position
        if position is None:
            raise self.error(
                offset,
                "a ply written as {gc: <Game Courier text>}",
                f"after the illegal ply on line {self.lost_at} there is no position to read "
                "SAN in; gcadj writes the plies after it in Game Courier notation",
            )
        try:
            move = parse_san(position, token)
        except SanError as err:
            if not looks_like_san(token):
                hint = err.reason
                if "-" in token:
                    hint += "; Game Courier notation goes inside {gc: ...}"
                raise self.error(offset, f"a move like {SAN_EXAMPLES}", hint) from None
            side = "White" if position.turn == 0 else "Black"
            raise self.error(offset, f"a legal move for {side}", err.reason) from None
        line, column, _ = self.where(offset)
        self.log.records.append(
            MoveRecord(
                ply=len(self.log.records),
                submoves=_gc_submoves(position, move, self.pocket_file),
                text=token,
                comment=None,
                line=line,
                column=column,
                number=self.number,
            )
        )
        self.number = None
        position._push(move)


def _with_comment(record: MoveRecord, text: str) -> MoveRecord:
    joined = text if record.comment is None else f"{record.comment}\n{text}"
    return dataclasses.replace(record, comment=joined)


def read_pgn(
    text: str, source: str = "<string>", pocket_file: PocketFile = DEFAULT_POCKET_FILE
) -> GameLog:
    """Read PGN-like text holding one game into a `GameLog`; raises `LogSyntaxError` with
    line and column (also for text holding several games: see `read_pgn_games`).

    A ``[PocketFile "p"]`` tag overrides `pocket_file`. Every SAN move must be legal (the
    reader replays it to know which piece moved); plies in ``{gc: ...}`` are taken as
    typed and judged later by `replay`, like any Game Courier log.
    """
    return _Reader(normalise_text(text), source, pocket_file).read()


@functools.lru_cache(maxsize=4)
def _layout(text: str) -> tuple[list[tuple[int, int]], list[int]]:
    """The games and line starts of a text; kept for the few texts last read, because an
    audit's list may name the games of one database one by one (``all.pgn#1``, ``#2``...)."""
    return game_spans(text) or [(0, len(text))], _line_starts(text)


def read_pgn_games(
    text: str,
    source: str = "<string>",
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
    *,
    only: int | None = None,
) -> list[tuple[str, GameLog | LogSyntaxError]]:
    """Every game of PGN-like text, in order: its name and its log, or the error that stops
    it. A text of one game is named `source`; the games of a database ``source#1``,
    ``source#2``, ... Line and column are in the whole text either way. With `only` (from
    1), just that game is read (an empty list if there is no such game).
    """
    text = normalise_text(text)
    spans, line_starts = _layout(text)
    games: list[tuple[str, GameLog | LogSyntaxError]] = []
    for number, span in enumerate(spans, 1):
        if only is not None and number != only:
            continue
        name = source if len(spans) == 1 else game_name(source, number)
        try:
            games.append((name, _Reader(text, name, pocket_file, span, line_starts).read()))
        except LogSyntaxError as err:
            games.append((name, err))
    return games


def game_name(source: str, number: int) -> str:
    """How one game of a file of several is named: ``all.pgn#3`` (numbered from 1)."""
    return f"{source}#{number}"
