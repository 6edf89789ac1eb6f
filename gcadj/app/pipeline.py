"""The one way in: a source, as the user named it, becomes its judged games.

Every caller that judges games goes through `judge_source`: ``gcadj check``, ``export``,
``audit`` (in its workers), ``fetch``, the viewer, ``gcadj serve`` and the public API
(`gcadj.check_text`, `gcadj.check_source`). So they all give the same verdict, warnings
included, for the same source.

One pass, in this order, each step once per source:

1. the source is read (`gcadj.sources.read.read_source`: a file, '-' for standard input,
   an http(s) URL), unless the caller hands its text over;
2. its text is normalised (`normalise_text`) and its format detected (`detect_format`);
3. its games are read (`gcadj.sources.formats.read_games`: a PGN database gives one per
   game, ``source#N``; a page is scraped; a copied page's text is recognised);
4. each game is replayed (`replay`; an unreadable ply ends it with a partial verdict) and
   what its page said is checked (`with_page_checks`: scraper warnings, the board diagram).

A judged game is a `Verdict`: its summary (the schema of ``gcadj check --json``) and the
game itself (its log, the legal moves, the start position), which writers read and never
judge again.

Every step that can fail on the user's input gives a `Verdict` instead of an exception.
Defence in depth: should gcadj itself fail on a source (an unexpected exception, a bug),
that source gets an "error" verdict saying "<source>: internal error: <type>: <message>"
(`internal_error_verdict`, whose `Verdict.internal` makes the CLI exit 5), and the caller's
other sources go on. That guard is here, once, around the whole pass.

`FAULT_ENV` is the test hook for that defence: while the environment variable names a
piece of text, judging any source whose name contains it raises `InjectedFault`, as a bug
would, so tests and users can see what a bug costs without there being one.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from gcadj.adjudication.verdict import (
    Verdict,
    failed_verdict,
    internal_error_verdict,
    replay,
    replay_readable,
    start_position,
)
from gcadj.errors import FenError, InjectedFault, LogSyntaxError, SourceError
from gcadj.notation.parse import normalise_text
from gcadj.notation.records import GameLog
from gcadj.notation.tags import tag_pair, tag_value_column
from gcadj.sources.formats import detect_format, read_games
from gcadj.sources.read import DEFAULT_MAX_BYTES, game_ref, read_source
from gcadj.sources.urls import is_url, redact_url
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile, Status
from gcadj.words import plural

FAULT_ENV: Final = "GCADJ_INJECT_FAULT"
STDIN: Final = "-"
STDIN_NAME: Final = "<stdin>"


@dataclass(frozen=True)
class JudgeOptions:
    """How each game is judged: the start position (a gcadj FEN or a Game Courier code;
    None: the log's FEN tag, else the standard array), the pocket file's letter (a
    ``PocketFile`` tag in a log overrides it), every illegal ply or only the first.
    Small and picklable: it travels to the audit's workers.

    Examples:
        >>> options = JudgeOptions(pocket_file="p")  # the newer preset: pockets p1 and p8
        >>> (verdict,) = judge_source("game.txt", options, text='''P e2-e4
        ... p e7-e5
        ... R h1-p1; I-p1
        ... ''')
        >>> verdict.status, verdict.final_fen
        (<Status.LEGAL: 'legal'>, 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBN1[I] b - - 3 2')
        >>> endgame = JudgeOptions(fen="k7/8/1K6/8/8/8/8/8[Q] w - - 0 1")
        >>> judge_source("mate.txt", endgame, text="Q i1-b7")[0].termination
        <Termination.CHECKMATE: 'checkmate'>
    """

    fen: str | None = None
    pocket_file: PocketFile = DEFAULT_POCKET_FILE
    all_findings: bool = False
    max_bytes: int = DEFAULT_MAX_BYTES  # the most a file or stdin may hold (--max-bytes)


def source_name(spec: str) -> str:
    """How verdicts name a source: as the user named it, standard input as "<stdin>", a
    URL without its credentials (`redact_url`: ``http://alice:***@host/…?token=***``)."""
    return STDIN_NAME if spec == STDIN else redact_url(spec)


def judge_source(
    spec: str,
    options: JudgeOptions | None = None,
    *,
    text: str | None = None,
) -> list[Verdict]:
    """Every game of a source, judged, in order; never raises for bad input.

    `spec` names the source: a file, '-' for standard input, an http(s) URL, or one game of
    a database (``all.pgn#3``). `text` is its text when the caller already has it (a page
    fetched earlier, an upload, pasted text): it is then not read again, and `spec` is only
    the name the verdicts carry (``name#N`` still picks game N of it). An unreadable
    source gives one "error" verdict; a bug of gcadj's on a source gives that source an
    internal-error verdict. A bad `options.fen` raises `FenError`: it is the caller's
    mistake (the CLI refuses it before reading anything).

    Examples:
        A PGN database gives one verdict per game, named by its number:

        >>> pgn = '''[Event "First"]
        ...
        ... 1. e4 e5 2. Nf3 1-0
        ...
        ... [Event "Second"]
        ...
        ... 1. d4 Nf6 2. O-O *
        ... '''
        >>> for verdict in judge_source("club.pgn", text=pgn):
        ...     print(verdict.source, verdict.status.value, verdict.result.value)
        club.pgn#1 legal 1-0
        club.pgn#2 illegal *
        >>> judge_source("club.pgn#2", text=pgn)[0].first_illegal.category
        <Category.CASTLING: 'castling'>

        A file, as ``gcadj check`` names it:

        >>> (verdict,) = judge_source("fixtures/examples/ex4_resignation.txt")
        >>> verdict.result, verdict.termination
        (<Result.WHITE_WINS: '1-0'>, <Termination.RESIGNATION: 'resignation'>)
    """
    return list(iter_judge_source(spec, options, text=text))


def iter_judge_source(
    spec: str,
    options: JudgeOptions | None = None,
    *,
    text: str | None = None,
) -> Iterator[Verdict]:
    """`judge_source` one game at a time, so that a PGN database of any size is judged in
    constant memory (``gcadj check`` reads it so). The guard is here: a bug of gcadj's on
    one game ends the source there with an internal-error verdict, and the games before
    it keep theirs."""
    options = options or JudgeOptions()
    name = source_name(spec)

    def games() -> Iterator[Verdict]:
        fault = os.environ.get(FAULT_ENV)
        if fault and fault in name:
            raise InjectedFault(f"injected by {FAULT_ENV}={fault!r}")
        yield from _judge(spec, name, options, text)

    stream = games()
    while True:
        try:
            verdict = next(stream, None)
        except FenError as err:
            if options.fen is not None:
                raise
            verdict = _internal(name, err)
        except MemoryError:  # not a bug: the source is too large for this process
            from gcadj.app.pool import out_of_memory_words

            verdict = failed_verdict(name, Status.ERROR, f"{name}: {out_of_memory_words()}")
        except Exception as err:  # KeyboardInterrupt and SystemExit are not the judging's
            verdict = _internal(name, err)
        if verdict is None:
            return
        yield verdict
        if verdict.internal:
            return  # the games after a bug are not read (the generator is spent)


def _internal(name: str, err: Exception) -> Verdict:
    import logging  # only here: `gcadj check` starts without it

    logging.getLogger(__name__).debug("internal error judging %s", name, exc_info=True)
    return internal_error_verdict(name, err)


def _judge(spec: str, name: str, options: JudgeOptions, text: str | None) -> Iterator[Verdict]:
    ref = game_ref(spec) if spec != STDIN else None
    whole, only = ref if ref is not None else (spec, None)
    if text is None:
        try:
            text = _read(whole, options.max_bytes)
        except SourceError as err:
            yield failed_verdict(name, Status.ERROR, str(err))
            return
    base = source_name(whole)
    verdicts = _judge_text(text, base, options, only)
    if only is None:
        yield from verdicts
        return
    first = next(verdicts, None)
    if first is None:
        count = sum(1 for _ in read_games(*_prepared(text), base, options.pocket_file))
        yield failed_verdict(name, Status.ERROR, f"{name}: {base} holds {plural(count, 'game')}")
        return
    yield dataclasses.replace(first, source=name)


def _read(spec: str, max_bytes: int) -> str:
    """The text of a source (`read_source`, at most `max_bytes` of a file or standard
    input); a URL through the command's fetch settings."""
    if is_url(spec):
        from gcadj.app.fetching import shared_fetcher

        shared_fetcher()  # installs the fetcher of the command's options, if any
    return read_source(spec, max_bytes, name=source_name(spec))


def _prepared(text: str) -> tuple[str, str]:
    """The text as the grammar reads it, and its format."""
    text = normalise_text(text)
    return text, detect_format(text)


def is_blank(text: str) -> bool:
    """No game at all: no characters, or only white space (a byte-order mark included)."""
    rest = text.lstrip("\ufeff")
    return not rest or rest.isspace()


def _judge_text(text: str, name: str, options: JudgeOptions, only: int | None) -> Iterator[Verdict]:
    """Steps 2 to 4 of the module docstring, for the whole text of a source."""
    if is_blank(text):
        yield failed_verdict(name, Status.ERROR, f"{name}: empty")
        return
    text, kind = _prepared(text)
    for game_name, game in read_games(text, kind, name, options.pocket_file, only=only):
        if isinstance(game, LogSyntaxError):
            verdict = _unreadable(game, game_name, options)
        elif options.fen is None and game_name == name and (bad := fen_tag_error(text, game)):
            # a game named as its source is the text's only one (a database's reader
            # checks the tags of its games itself)
            verdict = failed_verdict(game_name, Status.SYNTAX_ERROR, str(bad))
        else:
            verdict = replay(game, fen=options.fen, all_findings=options.all_findings)
        yield with_page_checks(verdict)


def _unreadable(err: LogSyntaxError, name: str, options: JudgeOptions) -> Verdict:
    """The verdict of a text that stopped being readable: an "error" when it holds no game
    at all (a copied page without its moves), else the plies before the error judged."""
    if getattr(err, "status", Status.SYNTAX_ERROR) == Status.ERROR:
        return failed_verdict(name, Status.ERROR, str(err))
    verdict = replay_readable(err, fen=options.fen, all_findings=options.all_findings)
    return verdict if verdict.source == name else dataclasses.replace(verdict, source=name)


def _fen_tag_line(text: str) -> tuple[int, str] | None:
    """The 1-based number and the text of the header line that is the ``[FEN]`` tag."""
    for number, line in enumerate(text.split("\n"), 1):
        pair = tag_pair(line)
        if pair is not None and pair[0].casefold() == "fen":
            return number, line
        if line.strip() and not line.lstrip(" \t\u00a0\ufeff").startswith(("[", "//")):
            return None  # the header ended: tags come first
    return None


def fen_tag_error(text: str, game: GameLog) -> LogSyntaxError | None:
    """The syntax error at the tag's own line and column when the log's ``[FEN]`` tag is no
    position; None when it is one, or when it is not a line of `text` (normalised: a
    page's tags are made by the scraper; `replay` then names the tag without a line)."""
    value = game.tag("FEN")
    if value is None:
        return None
    try:
        start_position(value, game.pocket_file)
    except FenError as err:
        found = _fen_tag_line(text)
        if found is None:
            return None
        line, line_text = found
        value_at = tag_value_column(line_text)  # 0-based index of the value in the line
        offset = line_text.find(err.fen, value_at) if err.fen else -1
        column = value_at + 1 + (offset - value_at + err.column - 1 if offset >= 0 else 0)
        return LogSyntaxError(
            game.source,
            line,
            column,
            "a start position (gcadj FEN or Game Courier code) in the [FEN] tag",
            line_text,
            hint=str(err).splitlines()[0],  # "bad FEN (or Game Courier code) at column N: ..."
        )
    return None


def with_page_checks(verdict: Verdict) -> Verdict:
    """Add what a scraped page says to a verdict: scraper warnings, and diagram mismatches.

    A log written from a page carries ``ScrapeWarning`` tags and, when the page's board
    could be read, a ``PageBoard`` tag. For a legal game the board Game Courier drew must
    be the replayed final position; a difference means the move list was misread (or the
    page shows another moment), so it is reported. An illegal game is not compared: the
    site drew the board its illegal moves left, which the replay does not reach.
    """
    game = verdict.log
    if game is None:
        return verdict
    extra = [f"page: {value}" for key, value in game.tags if key.casefold() == "scrapewarning"]
    board = game.tag("PageBoard")
    if board and verdict.status == Status.LEGAL and verdict.final_fen:
        from gcadj.sources.pages.board import board_mismatch  # bs4 loads only for pages

        mismatch = board_mismatch(board, verdict.final_fen)
        if mismatch:
            extra.append(mismatch)
    if not extra:
        return verdict
    return dataclasses.replace(verdict, warnings=(*verdict.warnings, *extra))


__all__ = [
    "FAULT_ENV",
    "STDIN_NAME",
    "JudgeOptions",
    "fen_tag_error",
    "is_blank",
    "iter_judge_source",
    "judge_source",
    "source_name",
    "with_page_checks",
]
