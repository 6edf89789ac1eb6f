"""Check one source, as `gcadj check` and the Python API do: read it, parse it, judge it.

Every step that can fail on the user's input gives a `Verdict` instead of an exception, so
whoever checks many sources gets one verdict per source whatever went wrong. Defence in
depth: should gcadj itself fail on a source (an unexpected exception, a bug), that source
gets an "error" verdict saying "<source>: internal error: <type>: <message>"
(`internal_error_verdict`; the CLI exits 5 for it) and the other sources go on.

`FAULT_ENV` is the test hook for that defence: while the environment variable names a
piece of text, judging any source whose name contains it raises `InjectedFault`, as a bug
would, so tests and users can see what a bug costs without there being one.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final, TypeVar

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
from gcadj.sources.formats import iter_games, parse_game_text
from gcadj.sources.read import game_ref, read_source
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile, Status
from gcadj.words import plural

log = logging.getLogger(__name__)

T = TypeVar("T")

FAULT_ENV: Final = "GCADJ_INJECT_FAULT"


def guarded(source: str, work: Callable[[], Verdict], *, fen: str | None = None) -> Verdict:
    """`work()`'s verdict for `source`; any unexpected exception becomes that source's
    internal-error verdict instead of reaching the caller (see `guarded_call`)."""
    return guarded_call(source, work, lambda verdict: verdict, fen=fen)


def guarded_call(
    source: str,
    work: Callable[[], T],
    fallback: Callable[[Verdict], T],
    *,
    fen: str | None = None,
) -> T:
    """`work()`, or `fallback` of `source`'s internal-error verdict when `work` raises an
    unexpected exception (a source of several games gives a list of verdicts).

    A `FenError` is let through when the caller gave a start position (`fen`): a bad
    argument is the caller's mistake, as `replay` documents. KeyboardInterrupt and
    SystemExit always go through (they are not exceptions of the judging).
    """
    try:
        fault = os.environ.get(FAULT_ENV)
        if fault and fault in source:
            raise InjectedFault(f"injected by {FAULT_ENV}={fault!r}")
        return work()
    except FenError as err:
        if fen is not None:
            raise
        return fallback(_internal(source, err))
    except Exception as err:
        return fallback(_internal(source, err))


def _internal(source: str, err: Exception) -> Verdict:
    log.debug("internal error judging %s", source, exc_info=True)
    return internal_error_verdict(source, err)


def is_blank(text: str) -> bool:
    """No game at all: no characters, or only white space (a byte-order mark included)."""
    rest = text.lstrip("\ufeff")
    return not rest or rest.isspace()


def check_text(
    text: str,
    source: str = "<string>",
    *,
    fen: str | None = None,
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
    all_findings: bool = False,
) -> Verdict:
    """Parse and replay a Game Courier log given as text; never raises for bad input.

    Text with no characters but white space is no game: an "error" verdict, "<source>:
    empty" (a log with tags and no plies is a game, of 0 plies). A log that becomes
    unreadable at a ply is judged up to that ply (`replay_readable`).
    """

    def work() -> Verdict:
        if is_blank(text):
            return failed_verdict(source, Status.ERROR, f"{source}: empty")
        try:
            log = parse_game_text(text, source=source, pocket_file=pocket_file)
            if fen is None:
                check_fen_tag(text, log)
        except LogSyntaxError as err:
            return _unreadable(err, source, fen=fen, all_findings=all_findings)
        return replay(log, fen=fen, all_findings=all_findings)

    return guarded(source, work, fen=fen)


_FEN_TAG = re.compile(r'^[ \t\u00a0]*\[[ \t\u00a0]*FEN[ \t\u00a0]+"', re.MULTILINE | re.IGNORECASE)


def check_fen_tag(text: str, log: GameLog) -> None:
    """Raise `LogSyntaxError` at the tag's own line and column when the log's ``[FEN]`` tag
    is no position; nothing when it is one, or when it is not a line of `text` (a page's
    tags are made by the scraper; `replay` then names the tag without a line)."""
    value = log.tag("FEN")
    if value is None:
        return
    try:
        start_position(value, log.pocket_file)
    except FenError as err:
        text = normalise_text(text)
        match = _FEN_TAG.search(text)
        if match is None:
            return
        line = text.count("\n", 0, match.start()) + 1
        start = text.rfind("\n", 0, match.start()) + 1
        line_text = text[start : text.find("\n", match.end())]
        value_at = match.end() - start  # 0-based index of the value in the line
        offset = line_text.find(err.fen, value_at) if err.fen else -1
        column = value_at + 1 + (offset - value_at + err.column - 1 if offset >= 0 else 0)
        raise LogSyntaxError(
            log.source,
            line,
            column,
            "a start position (gcadj FEN or Game Courier code) in the [FEN] tag",
            line_text,
            hint=str(err).splitlines()[0],  # "bad FEN (or Game Courier code) at column N: ..."
        ) from None


def _unreadable(
    err: LogSyntaxError, source: str, *, fen: str | None, all_findings: bool
) -> Verdict:
    """The verdict of a text that stopped being readable: an "error" when it holds no game
    at all (a copied page without its moves), else the plies before the error judged."""
    if getattr(err, "status", "syntax-error") == "error":
        return failed_verdict(source, Status.ERROR, str(err))
    verdict = replay_readable(err, fen=fen, all_findings=all_findings)
    return verdict if verdict.source == source else dataclasses.replace(verdict, source=source)


def check_source(
    spec: str,
    *,
    fen: str | None = None,
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
    all_findings: bool = False,
) -> Verdict:
    """Read a source as the user named it ('-', a file, ...) and check it; never raises
    for bad input: an unreadable source gives an "error" verdict naming it."""
    name = "<stdin>" if spec == "-" else spec

    def work() -> Verdict:
        try:
            text = read_source(spec)
        except SourceError as err:
            return failed_verdict(spec, Status.ERROR, str(err))
        return check_text(text, name, fen=fen, pocket_file=pocket_file, all_findings=all_findings)

    return guarded(name, work, fen=fen)


def check_games(
    text: str,
    source: str = "<string>",
    *,
    fen: str | None = None,
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
    all_findings: bool = False,
    only: int | None = None,
) -> list[Verdict]:
    """One verdict per game of a text, in order: a PGN database gives one per game, named
    ``source#N`` (see `gcadj.sources.formats.iter_games`); any other text gives one."""
    return list(
        iter_check_games(
            text, source, fen=fen, pocket_file=pocket_file, all_findings=all_findings, only=only
        )
    )


def iter_check_games(
    text: str,
    source: str = "<string>",
    *,
    fen: str | None = None,
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
    all_findings: bool = False,
    only: int | None = None,
) -> Iterator[Verdict]:
    """`check_games` one game at a time: a database of any size in constant memory."""
    if is_blank(text):
        yield failed_verdict(source, Status.ERROR, f"{source}: empty")
        return
    for name, game in iter_games(text, source, pocket_file, only=only):
        if isinstance(game, LogSyntaxError):
            yield _unreadable(game, name, fen=fen, all_findings=all_findings)
            continue
        if fen is None and name == source:  # a PGN database's reader checks its own tags
            try:
                check_fen_tag(text, game)
            except LogSyntaxError as err:
                yield failed_verdict(name, Status.SYNTAX_ERROR, str(err))
                continue
        yield replay(game, fen=fen, all_findings=all_findings)


def check_source_games(
    spec: str,
    *,
    fen: str | None = None,
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
    all_findings: bool = False,
    text: str | None = None,
) -> list[Verdict]:
    """`check_source` for a source of any number of games: a verdict per game, in order.

    ``all.pgn#3`` (as the games of a database are named in verdicts) reads only that game.
    `text` is the source's text when the caller already has it (a page fetched earlier).
    Never raises for bad input; an unreadable source gives one "error" verdict.
    """
    return list(
        iter_check_source_games(
            spec, fen=fen, pocket_file=pocket_file, all_findings=all_findings, text=text
        )
    )


def iter_check_source_games(
    spec: str,
    *,
    fen: str | None = None,
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
    all_findings: bool = False,
    text: str | None = None,
) -> Iterator[Verdict]:
    """`check_source_games` one game at a time."""
    ref = game_ref(spec)
    whole, only = ref if ref is not None else (spec, None)
    if text is None:
        try:
            text = read_source(whole)
        except SourceError as err:
            yield failed_verdict(spec, Status.ERROR, str(err))
            return
    name = "<stdin>" if whole == "-" else whole
    verdicts = iter_check_games(
        text, name, fen=fen, pocket_file=pocket_file, all_findings=all_findings, only=only
    )
    if only is None:
        yield from verdicts
        return
    first = next(verdicts, None)
    if first is None:
        count = sum(1 for _ in iter_games(text, name, pocket_file))
        yield failed_verdict(spec, Status.ERROR, f"{spec}: {name} holds {plural(count, 'game')}")
        return
    yield dataclasses.replace(first, source=spec)


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
    if board and verdict.status == "legal" and verdict.final_fen:
        from gcadj.sources.pages.board import board_mismatch  # bs4 loads only for pages

        mismatch = board_mismatch(board, verdict.final_fen)
        if mismatch:
            extra.append(mismatch)
    if not extra:
        return verdict
    return dataclasses.replace(verdict, warnings=(*verdict.warnings, *extra))


@dataclass(frozen=True)
class CheckOptions:
    """How each game is judged (the options of ``gcadj check``); travels to the workers."""

    fen: str | None = None
    pocket_file: PocketFile = DEFAULT_POCKET_FILE
    all_findings: bool = False


def judge_source(spec: str, options: CheckOptions = CheckOptions()) -> Verdict:
    """`check_source` plus the page checks: what ``gcadj check`` and the audit report.
    Never raises, whatever the source holds (see `guarded`)."""
    name = "<stdin>" if spec == "-" else spec
    return guarded(
        name,
        lambda: with_page_checks(
            check_source(
                spec,
                fen=options.fen,
                pocket_file=options.pocket_file,
                all_findings=options.all_findings,
            )
        ),
        fen=options.fen,
    )


def judge_games(
    spec: str, options: CheckOptions = CheckOptions(), text: str | None = None
) -> list[Verdict]:
    """`check_source_games` plus the page checks: every game of a source, as ``gcadj check``
    and the audit report them (`text`: the source's text if already fetched)."""
    return list(iter_judge_games(spec, options, text))


def iter_judge_games(
    spec: str, options: CheckOptions = CheckOptions(), text: str | None = None
) -> Iterator[Verdict]:
    """`judge_games` one game at a time, so that ``gcadj check`` of a database of any size
    runs in constant memory. A bug of gcadj's on one game ends the source there with an
    internal-error verdict; the games before it keep theirs."""
    name = "<stdin>" if spec == "-" else spec
    games = iter_check_source_games(
        spec,
        fen=options.fen,
        pocket_file=options.pocket_file,
        all_findings=options.all_findings,
        text=text,
    )

    def following() -> Verdict | None:
        verdict = next(games, None)
        return None if verdict is None else with_page_checks(verdict)

    while True:
        verdict = guarded_call(name, following, lambda failed: failed, fen=options.fen)
        if verdict is None:
            return
        yield verdict
        if verdict.outcome == "internal-error":
            return  # the games after a bug are not read (the generator is spent)


def judge_text(text: str, source: str, options: CheckOptions = CheckOptions()) -> Verdict:
    """As `judge_source` for text already in hand (a page the parent process fetched)."""
    return guarded(
        source,
        lambda: with_page_checks(
            check_text(
                text,
                source,
                fen=options.fen,
                pocket_file=options.pocket_file,
                all_findings=options.all_findings,
            )
        ),
        fen=options.fen,
    )
