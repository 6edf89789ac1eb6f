"""PGN read and judged: any database, one game at a time, each game on its own.

Each SAN move is read on the board of its game and recorded as the Game Courier sub-moves
of that move, with its line and column in the PGN text, so the game is judged by the same
`Replay` as a Game Courier log, and only once: the reader plays each ply as it reads it
(`_GameReader`), and the replay's verdict is the game's. SAN is this variant's
(`gcadj.notation.san`: fairy letters, drops ``I@c4``, pocketing ``Rh1@=I``, en passant as
a pawn capture). A standard chess game is judged as a Pocket Mutation Chess game: its
castling (``O-O``) is recorded as the King's and Rook's moves a Game Courier player would
type (``K e1-g1; R h1-f1``), its promotion (``e8=Q``) as the pawn's move and the new piece
(``P e7-e8; Q-e8``), and the judge finds them illegal (`castling`,
`promotion-on-arrival`). After an illegal ply the SAN is read on the board Game Courier
would show (as ``--all`` goes on from it), so the plies after it are counted and can be
judged.

**Games.** `game_spans` finds each game without judging any: a game begins at its tag
section (or its first move), and ends after its result token (``1-0``, ``0-1``,
``1/2-1/2``, ``*``, outside comments and variations) or before the next tag section: a
line that begins like a tag pair (``[Name "``) after the game's moves, or after a blank
line. A ``{`` never closed ends before the next tag section that follows a blank line; a
``(`` never closed, a stray ``[`` line and a broken tag line end at the next tag section. That game
then gets a syntax error at its own line and column, and the next game is read on its
own, so a game's verdict never depends on the others. Text between games that holds a
move or a stray character is a game of its own (with its syntax error): nothing is lost.
Games are read one by one from a generator (`pgn_verdicts`), in constant memory.

Illegal games of gcadj's own PGN round-trip through the two comment markers described in
`gcadj.notation.pgn`.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections import OrderedDict
from collections.abc import Iterator
from typing import Final

from gcadj.engine.fen import STARTING_FEN
from gcadj.engine.move import BOARD_MOVES, Move
from gcadj.engine.pieces import KIND
from gcadj.engine.position import Position
from gcadj.engine.squares import WHITE, parse_square
from gcadj.errors import FenError, LogSyntaxError, SanError
from gcadj.judging.verdict import Replay, Verdict, failed_verdict
from gcadj.notation.language import LogBuilder
from gcadj.notation.lexicon import CASTLING, LINE_SPACE, PROMOTION
from gcadj.notation.parse import parse_log
from gcadj.notation.pgn import (
    ANNOTATION,
    BRACE,
    CLOSE_VAR,
    ESCAPE,
    GC_MARK,
    MOVE,
    NAG,
    NOTE_MARK,
    NULL_MOVES,
    NUMBER,
    OPEN_BRACE,
    OPEN_VAR,
    RESULT,
    SEMI,
    TAG,
    Token,
    is_san_move,
    is_unknown_roster_tag,
    is_variant_name,
    tokens,
)
from gcadj.notation.records import GameLog, MoveRecord, MoveSub, PlaceSub, SubMove, UnreadText
from gcadj.notation.san import (
    SAN_EXAMPLES,
    LongMove,
    gc_submoves,
    long_algebraic,
    looks_like_san,
    parse_san,
)
from gcadj.notation.tags import starts_like_tag, tag_pairs
from gcadj.sources.formats import game_name
from gcadj.sources.judge_options import JudgeOptions
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile, Result, Status, is_preset_file

__all__ = [
    "count_games",
    "game_spans",
    "gc_plies_pocket_file",
    "pgn_verdicts",
]

Span = tuple[int, int]


# -- where the games are ---------------------------------------------------------------


def game_spans(text: str, start: int = 0) -> Iterator[Span]:
    """Where each game of normalised PGN text is, from `start`: ``(start, end)`` offsets.

    Nothing is judged here (module docstring): a bad game is still one span, read and
    reported on its own. Text between games holding neither a tag nor a move (blank lines,
    a comment, a ``%`` line) is no game; text after a game's result token that starts no
    game (a stray ``[`` line, characters that are no move) belongs to that game, whose
    reader then reports it. One blank line inside a tag section does not end it (ChessBase
    writes one; python-chess reads past one too); two do, and so does one after a broken
    tag line, so that the broken game costs only itself. Started at the first offset of a
    game it found, it finds that game and those after it again.
    """
    begin: int | None = None  # where the current game began
    last_end = 0  # the end of its last token
    moves = False  # has its movetext begun?
    counts = False  # does it hold a tag, a move or a stray character (else it is no game)?
    broken = False  # does its tag section hold a line that is not whole tag pairs?
    depth = 0  # how deep in variations
    ended = False  # has it read its result token (and nothing but comments since)?
    for token in tokens(text, start):
        kind = token.kind
        if kind == ESCAPE:
            continue
        value = text[token.start : token.end]
        tag_like = kind == TAG and starts_like_tag(value)
        if ended:
            if kind in (BRACE, SEMI):
                continue  # a comment between games
            ended = False
            if (
                tag_like
                or kind == RESULT
                or (kind == NUMBER and value[0].isdigit())
                or (kind == MOVE and is_san_move(value))
            ):
                assert begin is not None
                yield begin, last_end  # the next game begins here
                begin, moves, counts, broken, depth = None, False, False, False, 0
        if kind == TAG:
            if begin is not None and tag_like and (moves or _ends_tags(text, token.start, broken)):
                if counts:
                    yield begin, last_end
                begin, moves, counts, broken, depth = None, False, False, False, 0
            if begin is None:
                begin = token.start
            broken = broken or (not moves and tag_pairs(value) is None)
            last_end, counts = token.end, True
            continue
        if begin is None:
            begin = token.start
        moves, last_end = True, token.end
        if kind in (BRACE, SEMI):
            continue
        counts = True
        if kind == OPEN_VAR:
            depth += 1
        elif kind == CLOSE_VAR and depth > 0:
            depth -= 1
        elif kind == RESULT and depth == 0:
            ended = True
    if begin is not None and counts:
        yield begin, last_end


def _ends_tags(text: str, offset: int, broken: bool) -> bool:
    """Does a tag line at `offset`, in a tag section with no moves yet, begin a new game?
    After two blank lines, or after one when the section holds a broken tag line."""
    blank = 0
    end = text.rfind("\n", 0, offset)
    while end >= 0 and blank < 2:
        start = text.rfind("\n", 0, end) + 1
        if text[start:end].strip():
            break
        blank += 1
        end = start - 1
    return blank >= 2 or (blank == 1 and broken)


class _SpanIndex:
    """The games of the last few texts read one game at a time (``all.pgn#3``): their
    spans, found as far as asked, so an audit naming every game of a database one by one
    does not split it again from the start for each."""

    SIZE: Final = 4

    def __init__(self) -> None:
        self.texts: OrderedDict[str, tuple[list[Span], Iterator[Span]]] = OrderedDict()

    def span(self, text: str, number: int) -> tuple[Span | None, bool]:
        """Game `number`'s span (from 1; None if there is none), and whether the text holds
        more than one game."""
        entry = self.texts.get(text)
        if entry is None:
            entry = ([], game_spans(text))
            self.texts[text] = entry
            if len(self.texts) > self.SIZE:
                self.texts.popitem(last=False)
        else:
            self.texts.move_to_end(text)
        found, rest = entry
        while len(found) <= max(number, 1):  # one more than asked: are there several?
            following = next(rest, None)
            if following is None:
                break
            found.append(following)
        return (found[number - 1] if number <= len(found) else None), len(found) > 1


_index = _SpanIndex()


# -- reading the games -----------------------------------------------------------------


def count_games(text: str) -> int:
    """How many games normalised PGN text holds (none judged): a text without one is read
    as one game, which says why it is none."""
    return max(1, sum(1 for _ in game_spans(text)))


def pgn_verdicts(
    text: str, source: str, options: JudgeOptions, *, only: int | None = None
) -> Iterator[Verdict]:
    """Every game of normalised PGN text, in order, read and judged in one pass each (see
    `_GameReader`): its verdict, a syntax error included.

    A text of one game is named `source`; the games of a database ``source#1``,
    ``source#2``, ... Line and column are in the whole text either way. With `only`
    (from 1), just that game is read (nothing if there is no such game). A generator:
    one game is read at a time, whatever the size of the database.
    """
    if only is not None:
        wanted, several = _index.span(text, only)
        if wanted is not None:
            name = game_name(source, only) if several else source
            line = text.count("\n", 0, wanted[0]) + 1
            yield _GameReader(text, name, options, wanted, line).read()
        return
    spans = game_spans(text)
    current = next(spans, None)
    if current is None:  # no game at all: the whole text is read as one (and says why)
        yield _GameReader(text, source, options, (0, len(text)), 1).read()
        return
    upcoming = next(spans, None)
    several = upcoming is not None
    line, counted_to, number = 1, 0, 0
    while current is not None:
        number += 1
        name = game_name(source, number) if several else source
        line += text.count("\n", counted_to, current[0])
        counted_to = current[0]
        yield _GameReader(text, name, options, current, line).read()
        current, upcoming = upcoming, (next(spans, None) if upcoming is not None else None)


# -- one game --------------------------------------------------------------------------


class _GameReader:
    """One pass over one game: its tags, then its movetext, read and judged together.

    SAN is read on a board, so the reader plays each ply as it reads it, through the
    game's `Replay`: a SAN move it resolves to a legal move is played as that move
    (`Replay.play_move`, not judged again), any other ply (castling, a promotion, a
    ``{gc: ...}`` ply) is judged as typed (`Replay.play`). The replay's verdict is the
    game's. After the first illegal ply the SAN is read on the board Game Courier would
    show (`Replay.board`), so the plies after it are counted (and judged with ``--all``).

    `span` is the game's place in `text`, `first_line` the line number where it begins;
    lines and columns are those of the whole text.
    """

    def __init__(
        self, text: str, source: str, options: JudgeOptions, span: Span, first_line: int
    ) -> None:
        self.text = text
        self.source = source
        self.options = options
        self.span = span
        begin = text.rfind("\n", 0, span[0]) + 1
        self.first_line = first_line
        self.line_starts = [begin] + [m.end() for m in re.finditer("\n", text[begin : span[1]])]
        for i in range(1, len(self.line_starts)):
            self.line_starts[i] += begin
        # tags, records, leading comment; the pocket file is the option's, or a tag's
        self.log = LogBuilder(source, options.pocket_file or DEFAULT_POCKET_FILE)
        self.replay: Replay | None = None  # made once the tags are read (`start`)
        self.lost_at: int | None = None  # line of the illegal ply after which there is no board
        self.number: str | None = None  # a move number waiting for its ply
        self.tag_offsets: dict[str, int] = {}
        self.result: str | None = None
        self.warnings: list[str] = []
        self.depth = 0  # how deep in variations
        self.variation: int | None = None  # where the outermost open variation began
        self.variations = 0
        self.first_variation_line = 0
        self.token_at = span[0]  # where the movetext token being read begins
        self.number_at = span[0]  # where the move number waiting for its ply begins

    # -- positions and errors

    def where(self, offset: int) -> tuple[int, int, str]:
        """1-based line and column of an offset, and the text of that line."""
        index = bisect.bisect_right(self.line_starts, offset) - 1
        start = self.line_starts[index]
        end = self.text.find("\n", start)
        return (
            self.first_line + index,
            offset - start + 1,
            self.text[start : end if end >= 0 else None],
        )

    def error(self, offset: int, expected: str, hint: str | None = None) -> LogSyntaxError:
        line, column, line_text = self.where(offset)
        return LogSyntaxError(self.source, line, column, expected, line_text, hint)

    # -- the game

    def read(self) -> Verdict:
        """The game's verdict; a text that stops being readable is judged up to there."""
        try:
            self.read_tokens()
        except LogSyntaxError as err:
            if self.replay is None or not self.log.records:  # no ply read: no game
                return failed_verdict(self.source, Status.SYNTAX_ERROR, str(err))
            partial = dataclasses.replace(self.built(), unread=self.unread(err))
            return self.replay.verdict(partial, str(err))
        assert self.replay is not None  # `read_tokens` starts the game
        return self.replay.verdict(self.built())

    def unread(self, err: LogSyntaxError) -> UnreadText:
        """The game's text from the ply that could not be read (its move number included)
        to its end, as typed: writers give it back after their note."""
        start = self.number_at if self.number is not None else self.token_at
        line, column, _ = self.where(start)
        return UnreadText(line, column, self.text[start : self.span[1]], str(err))

    def built(self) -> GameLog:
        return dataclasses.replace(
            self.log.build(), result_token=self.result, warnings=tuple(self.warnings)
        )

    def read_tokens(self) -> None:
        started = False
        for token in tokens(self.text, *self.span):
            if not started:
                if token.kind == TAG:
                    self.tag_line(token)
                    continue
                if token.kind == ESCAPE:
                    continue
                self.start()
                started = True
            self.movetext(token)
        if not started:
            self.start()
        if self.variation is not None:
            raise self.error(
                self.variation,
                "')' closing the variation that begins here",
                "this '(' is never closed; the game ends at the next tag section",
            )
        if self.variations:
            some = "a variation" if self.variations == 1 else f"{self.variations} variations"
            self.warnings.append(
                f"{some} skipped (the first on line {self.first_variation_line}): "
                "gcadj judges the main line only"
            )

    def tag_line(self, token: Token) -> None:
        """A line of tag pairs: one, or several side by side as some programs write them."""
        line = self.text[token.start : token.end]
        pairs = tag_pairs(line)
        at = token.start + (len(line) - len(line.lstrip(LINE_SPACE + "\n\r")))
        if pairs is None:
            hint = (
                'tag values are in double quotes; write \\" for a quote inside'
                if starts_like_tag(line)
                else "a line that starts with '[' is no tag pair"
            )
            raise self.error(at, 'a tag like [White "Alice"]', hint)
        for name, value, column in pairs:
            if not is_unknown_roster_tag(name, value):  # [Event "?"] says nothing
                self.log.tags.append((name, value))
            self.tag_offsets.setdefault(name.casefold(), token.start + column)

    def tag(self, name: str) -> str | None:
        wanted = name.casefold()
        return next((v for k, v in self.log.tags if k.casefold() == wanted), None)

    def start(self) -> None:
        """The pocket file, the start (the caller's, else the FEN tag, a Game Courier code
        accepted, SetUp honoured), the game's `Replay`, and what the Variant tag says."""
        pocket_file = self.tag("PocketFile")
        if pocket_file is None and self.options.pocket_file is None:
            found = gc_plies_pocket_file(self.text[self.span[0] : self.span[1]])
            if found is not None:  # the file its {gc: ...} plies use, as a log's plies say
                self.log.pocket_file = found
        if pocket_file is not None:
            try:
                self.log.pocket_file = PocketFile(pocket_file)
            except ValueError as err:
                raise self.error(
                    self.tag_offsets["pocketfile"], "a pocket file letter from i to z", str(err)
                ) from None
        given = self.options.fen
        fen = self.tag("FEN")
        if given is None and fen is None and (self.tag("SetUp") or "").strip() == "1":
            raise self.error(
                self.tag_offsets["setup"],
                "a [FEN] tag with the start position",
                'SetUp "1" says the game starts from the position in its FEN tag',
            )
        start = given if given is not None else fen or STARTING_FEN
        try:
            self.replay = Replay(
                start, self.log.pocket_file, all_findings=self.options.all_findings
            )
        except FenError as err:
            if given is not None:
                raise  # the caller's start: their mistake, not the game's
            raise self.error(
                self.tag_offsets["fen"],
                "a start position (gcadj FEN or Game Courier code)",
                err.message,
            ) from None
        variant = self.tag("Variant")
        if variant is not None and not is_variant_name(variant):
            self.warnings.append(
                f"the Variant tag names {variant!r}: gcadj judges the game as Pocket Mutation Chess"
            )

    # -- the movetext

    def movetext(self, token: Token) -> None:
        kind = token.kind
        value = self.text[token.start : token.end]
        self.token_at = token.start
        if self.result is not None:  # the game is over: comments may follow, nothing else
            if kind in (BRACE, SEMI, ESCAPE):
                return
            raise self.error(
                token.start,
                "the next game's tags after the result",
                f"the game ended with its result {self.result}; what follows it is neither "
                "a comment nor another game",
            )
        if kind == OPEN_BRACE:
            raise self.error(
                token.start,
                "a comment closed by '}'",
                "this '{' is never closed; the game ends at the next tag section",
            )
        if kind == OPEN_VAR:
            if self.depth == 0:
                self.variation = token.start
                self.variations += 0 if _OWN_VARIATION.match(self.text, token.end) else 1
                if self.variations == 1:
                    self.first_variation_line = self.where(token.start)[0]
            self.depth += 1
            return
        if kind == CLOSE_VAR:
            if self.depth == 0:
                raise self.error(
                    token.start, "a move", "this ')' closes no variation: none was opened"
                )
            self.depth -= 1
            if self.depth == 0:
                self.variation = None
            return
        if kind == TAG:
            raise self.error(
                token.start,
                "a move",
                "a line that starts with '[' is no move; tags go before the moves, one per line",
            )
        if self.depth > 0 or kind in (ESCAPE, NAG, ANNOTATION):
            return  # a variation's moves and comments, and annotations, are passed over
        if kind == BRACE:
            self.brace(value, token.start)
        elif kind == SEMI:
            self.log.add_note(value[1:].strip())
        elif kind == RESULT:
            result = Result.read(value)
            assert result is not None  # a RESULT token is one of its spellings
            self.result = result.value
        elif kind == NUMBER:
            if value[0].isdigit():
                self.number, self.number_at = value, token.start
        elif kind == MOVE:
            self.san(value, token.start)
        else:
            raise self.unexpected(token.start)

    def unexpected(self, offset: int) -> LogSyntaxError:
        char = self.text[offset]
        if char == "}":
            return self.error(offset, f"a move like {SAN_EXAMPLES}", "this '}' closes no comment")
        return self.error(offset, f"a move like {SAN_EXAMPLES}", f"unexpected {char!r}")

    def brace(self, value: str, offset: int) -> None:
        inner = value[1:-1]
        stripped = inner.strip()
        if stripped.startswith(NOTE_MARK):
            return
        if not stripped.startswith(GC_MARK):
            said = _COMMANDS.sub("", stripped).strip()  # [%eval 2.0], [%clk 0:10]: data
            if said or said == stripped:  # an empty comment {} stays one
                self.log.add_note(said.replace("\n", " "))
            return
        body_start = inner.index(GC_MARK) + len(GC_MARK)
        body = inner[body_start:]
        lead = len(body) - len(body.lstrip(LINE_SPACE + "\n"))
        self.gc(body.strip().replace("\n", " "), offset + 1 + body_start + lead)

    def gc(self, ply_text: str, offset: int) -> None:
        """A ``{gc: ...}`` ply: parsed as Game Courier text, judged to follow the board."""
        line, column, _ = self.where(offset)
        try:
            parsed = parse_log(ply_text, self.source, self.log.pocket_file)
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
        self.play_record(record)

    def san(self, token: str, offset: int) -> None:
        """A move as PGN writes it, read on the board and played (`read_move`)."""
        replay = self.replay
        assert replay is not None  # the movetext comes after `start`
        board = replay.board
        if board is None:
            raise self.error(
                offset,
                "a ply written as {gc: <Game Courier text>}",
                f"after the illegal ply on line {self.lost_at} Game Courier's board is no "
                "position to read SAN in",
            )
        try:
            submoves, move = self.read_move(board, token)
        except SanError as err:
            if err.named is None:
                raise self.syntax_error(board, token, offset, err) from None
            submoves, move = gc_submoves(board, err.named, self.log.pocket_file), None
        record = self.record(token, offset, submoves, san=True)
        if move is None:
            self.play_record(record)  # judged as typed: castling, a promotion, a move in check
            return
        self.log.records.append(record)
        self.number = None
        replay.play_move(record, move)  # legal on the board: not judged again

    def read_move(self, board: Position, token: str) -> tuple[tuple[SubMove, ...], Move | None]:
        """The Game Courier sub-moves a PGN move stands for on `board`, and its move when it
        is legal there; None for a move to judge as typed (castling, a promotion on arrival,
        a null move, long algebraic that is no legal move). `SanError` when the text names
        no move (with `SanError.named`, a move to judge: ``Kf7`` into check)."""
        if token in NULL_MOVES:
            return (), None  # a pass: the judge says why there is none
        castling = CASTLING.fullmatch(token)
        if castling is not None:
            return _castling(board, castling[1]), None
        promotion = PROMOTION.fullmatch(token)
        if promotion is not None:
            return self.promotion(board, promotion[1], promotion[2], token), None
        long = None if looks_like_san(token) else long_algebraic(token)
        if long is not None:
            return self.long_move(board, long)
        move = parse_san(board, token)
        return gc_submoves(board, move, self.log.pocket_file), move

    def syntax_error(
        self, board: Position, token: str, offset: int, err: SanError
    ) -> LogSyntaxError:
        """The syntax error of a PGN move that names no move on the board."""
        if not looks_like_san(token) and PROMOTION.fullmatch(token) is None:
            hint = err.reason
            if "-" in token:
                hint += "; Game Courier notation goes inside {gc: ...}"
            return self.error(offset, f"a move like {SAN_EXAMPLES}", hint)
        side = "White" if board.turn == WHITE else "Black"
        return self.error(offset, f"a legal move for {side}", err.reason)

    def promotion(
        self, position: Position, arrival: str, letter: str, token: str
    ) -> tuple[SubMove, ...]:
        """Chess's promotion: the pawn's move, then the new piece put on its square."""
        try:
            move = parse_san(position, arrival)
        except SanError as err:
            if err.named is None:
                raise
            move = err.named  # the one pawn that could arrive there: judged with the rest
        if KIND.get(letter) is None:
            raise SanError(token, position.fen(), f"{letter!r} is not a piece letter")
        piece = letter if position.turn == WHITE else letter.lower()
        target = arrival[-2:]
        return (*gc_submoves(position, move, self.log.pocket_file), PlaceSub(piece, target, "-"))

    def long_move(
        self, position: Position, long: LongMove
    ) -> tuple[tuple[SubMove, ...], Move | None]:
        """Long algebraic (``e2e4``, ``Ng1-f3``, ``e7e8q``): the move from its origin to its
        target, as a Game Courier player types it, judged unless it is legal as written."""
        white = position.turn == WHITE
        origin, target = parse_square(long.origin), parse_square(long.target)
        piece = position.board[origin]
        written = long.piece
        if (
            long.promotion is None
            and piece is not None
            and piece.color == position.turn
            and (written is None or piece.kind.letter == written)
        ):
            move = BOARD_MOVES[origin][target]
            if position.is_legal(move):
                return gc_submoves(position, move, self.log.pocket_file), move
        label = None if written is None else written if white else written.lower()
        submoves: tuple[SubMove, ...] = (MoveSub(label, long.origin, long.target),)
        if long.promotion is not None:
            letter = long.promotion if white else long.promotion.lower()
            submoves += (PlaceSub(letter, long.target, "-"),)
        return submoves, None

    def record(
        self, text: str, offset: int, submoves: tuple[SubMove, ...], *, san: bool = False
    ) -> MoveRecord:
        line, column, _ = self.where(offset)
        return MoveRecord(
            ply=len(self.log.records),
            submoves=submoves,
            text=text,
            comment=None,
            line=line,
            column=column,
            number=self.number,
            san=san,
        )

    def play_record(self, record: MoveRecord) -> None:
        """Keep a ply typed as Game Courier sub-moves and judge it (`Replay.play`)."""
        assert self.replay is not None  # the movetext comes after `start`
        self.log.records.append(record)
        self.number = None
        self.replay.play(record)
        if self.lost_at is None and self.replay.board is None:
            self.lost_at = record.line


# In a game's text, in order: a {gc: ...} ply's body, another comment (passed over), or a
# SAN move into or out of a pocket (``Rh1@``, ``I@c4``: the pockets in use, on no file said).
_POCKET_USES: Final = re.compile(
    r"\{[^\S\n]*" + re.escape(GC_MARK) + r"(?P<gc>[^}]*)\}"
    r"|\{[^}]*\}|;[^\n]*"
    r"|(?<![^\s.])(?P<san>[A-Z]?(?:[a-h][1-8])?@)"
)
_POCKET_SQUARE: Final = re.compile(r"(?<![A-Za-z0-9])([i-z])[18](?![0-9])")


_OWN_VARIATION: Final = re.compile(r"\s*\{\s*" + re.escape(NOTE_MARK))
"""After a '(': a variation gcadj wrote itself (``export --analyse``'s line of a finding,
led by its note), passed over without a warning, as gcadj's notes are dropped."""
_COMMANDS: Final = re.compile(r"\[%[^\]]*\]")
"""A comment's commands (``[%eval 2.0]``, ``[%clk 0:10]``): an engine's or a clock's data
that tools write inside comments (gcadj's export --analyse too), not the player's words."""


def gc_plies_pocket_file(text: str) -> PocketFile | None:
    """The pocket file a game's ``{gc: ...}`` plies use, when the first pocket square they
    name is on a preset's file other than the default's (``{gc: R h1-p1}``: the newer
    preset) and no SAN move used the pockets before it; None otherwise. A log's plies say
    it the same way (`gcadj.sources.pocket_files`: the first pocket square decides, and
    only a preset's file is found so)."""
    for found in _POCKET_USES.finditer(text):
        if found["san"] is not None:
            return None  # the pockets were used before any file was named: the default's
        body = found["gc"]
        if body is None:
            continue
        for square in _POCKET_SQUARE.finditer(body):
            letter = square[1]
            if letter == DEFAULT_POCKET_FILE or not is_preset_file(letter):
                return None
            return PocketFile(letter)
    return None


def _castling(position: Position, written: str) -> tuple[SubMove, ...]:
    """Chess's castling as a Game Courier player types it: the King two files, the Rook
    beside it (``K e1-g1; R h1-f1``); the judge finds it illegal (there is no castling)."""
    rank = "1" if position.turn == WHITE else "8"
    king, rook = ("K", "R") if position.turn == WHITE else ("k", "r")
    long = written.count("-") == 2
    king_to, rook_from, rook_to = ("c", "a", "d") if long else ("g", "h", "f")
    return (
        MoveSub(king, f"e{rank}", f"{king_to}{rank}"),
        MoveSub(rook, f"{rook_from}{rank}", f"{rook_to}{rank}"),
    )
