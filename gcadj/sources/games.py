"""Every game of a source, read and judged: the one call the rest of gcadj makes into the
sources layer (`source_games`).

A source is named as the user named it: a file, '-' for standard input, an http(s) URL,
or one game of a database (``all.pgn#3``). Its games come out one at a time, each as its
`Verdict` (named ``source`` or, in a database, ``source#N``), after these steps, each once
per source:

1. the source is read (`gcadj.sources.read.read_source`), unless the caller hands its
   text over; one that cannot be read is one "error" verdict;
2. its text is normalised (`normalise_text`) and its format detected (`detect_format`);
3. its games are read and judged: a Game Courier log, a viewing page or a copied page is
   read (`read_log_game`), then replayed (`replay`; an unreadable ply ends it with a
   partial verdict); a PGN database is read and judged one game at a time in one pass
   (`gcadj.sources.pgn_reader`: SAN is read on the board, so reading is judging);
4. what a page said is checked against the verdict (`with_page_checks`: scraper
   warnings, the board diagram).

Nothing here guards against gcadj's own bugs: the caller does (`gcadj.app.pipeline`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Final

from gcadj.errors import LogSyntaxError, OwnFileError, SourceError
from gcadj.judging.verdict import Verdict, failed_verdict, replay, replay_readable
from gcadj.notation.lexicon import SourceFormat
from gcadj.notation.parse import normalise_text
from gcadj.notation.pgn import without_forum_wrappers
from gcadj.sources.formats import detect_format, fen_tag_error, game_name, read_log_game
from gcadj.sources.judge_options import JudgeOptions
from gcadj.sources.own import json_game, page_games
from gcadj.sources.read import game_ref, read_source
from gcadj.urls import redact_url
from gcadj.vocabulary import Status
from gcadj.words import plural

if TYPE_CHECKING:
    from gcadj.sources.fetch import Fetcher

STDIN: Final = "-"
STDIN_NAME: Final = "<stdin>"


def source_name(spec: str) -> str:
    """How verdicts name a source: as the user named it, standard input as "<stdin>", a
    URL without its credentials (`redact_url`: ``http://alice:***@host/…?token=***``)."""
    return STDIN_NAME if spec == STDIN else redact_url(spec)


def is_blank(text: str) -> bool:
    """No game at all: no characters, or only white space (a byte-order mark included)."""
    rest = text.lstrip("\ufeff")
    return not rest or rest.isspace()


class SourceGames:
    """The games of one source, as verdicts, read and judged one at a time (iterate once):
    a PGN database of any size costs the memory of one game.

    `name` is how the verdicts name the source (`source_name`). `text` is the source's
    text when the caller already has it (a page fetched earlier, an upload, pasted text):
    it is then not read again, and the spec only names it (``name#N`` still picks game N
    of it). `fetcher` gives the fetcher a URL is read with, asked only when one is. A bad
    `options.fen` raises `FenError` (the caller's mistake); bad input never raises.
    """

    def __init__(
        self,
        spec: str,
        options: JudgeOptions | None = None,
        *,
        text: str | None = None,
        fetcher: Callable[[], Fetcher] | None = None,
    ) -> None:
        self.spec = spec
        self.options = options or JudgeOptions()
        self.text = text
        self.fetcher = fetcher
        self.name = source_name(spec)

    def __iter__(self) -> Iterator[Verdict]:
        ref = game_ref(self.spec) if self.spec != STDIN else None
        whole, only = ref if ref is not None else (self.spec, None)
        base = source_name(whole)
        text = self.text
        if text is None:
            try:
                text = read_source(whole, self.options.max_bytes, name=base, fetcher=self.fetcher)
            except SourceError as err:
                yield failed_verdict(self.name, Status.ERROR, str(err))
                return
        if only == 0:
            words = f"games are counted from 1 ({base}#1 is the first)"
            yield failed_verdict(self.name, Status.ERROR, f"{self.name}: {words}")
            return
        verdicts = (with_page_checks(v) for v in _text_verdicts(text, base, self.options, only))
        if only is None:
            yield from verdicts
            return
        first = next(verdicts, None)
        if first is None:
            count = _count_games(text)
            yield failed_verdict(
                self.name, Status.ERROR, f"{self.name}: {base} holds {plural(count, 'game')}"
            )
            return
        yield dataclasses.replace(first, source=self.name)


def source_games(
    spec: str,
    options: JudgeOptions | None = None,
    *,
    text: str | None = None,
    fetcher: Callable[[], Fetcher] | None = None,
) -> SourceGames:
    """Every game of a source, read and judged, in order (see `SourceGames`)."""
    return SourceGames(spec, options, text=text, fetcher=fetcher)


def _text_verdicts(
    text: str, name: str, options: JudgeOptions, only: int | None
) -> Iterator[Verdict]:
    """Steps 2 and 3 of the module docstring, for the whole text of a source."""
    if is_blank(text):
        yield failed_verdict(name, Status.ERROR, f"{name}: empty")
        return
    text = without_forum_wrappers(normalise_text(text))
    kind = detect_format(text)
    if kind is SourceFormat.PGN:
        from gcadj.sources.pgn_reader import pgn_verdicts  # only for PGN

        yield from pgn_verdicts(text, name, options, only=only)
        return
    if kind is SourceFormat.OWN_PAGE:
        yield from _page_verdicts(text, name, options, only)
        return
    if only is None or only == 1:
        yield _verdict(text, kind, name, options)


def _verdict(text: str, kind: SourceFormat, name: str, options: JudgeOptions) -> Verdict:
    """The verdict of normalised text holding one game: a log in any of its forms
    (`read_log_game`), or gcadj's JSON export of a game (`json_game`)."""
    try:
        if kind is SourceFormat.OWN_JSON:
            game = json_game(text, name)
        else:
            game = read_log_game(text, kind, name, options.pocket_file)
    except LogSyntaxError as err:
        return _unreadable(err, name, options)
    if options.fen is None and (bad := fen_tag_error(text, game)):
        return failed_verdict(name, Status.SYNTAX_ERROR, str(bad))
    return replay(game, fen=options.fen, all_findings=options.all_findings)


def _page_verdicts(
    html: str, name: str, options: JudgeOptions, only: int | None
) -> Iterator[Verdict]:
    """The games a page gcadj wrote carries (`page_games`), each judged as a log; an
    "error" verdict for a page of gcadj's that carries none."""
    try:
        texts = page_games(html, name)
    except OwnFileError as err:
        yield _unreadable(err, name, options)
        return
    several = len(texts) > 1
    for number, gc in enumerate(texts, 1):
        if only is None or only == number:
            title = game_name(name, number) if several else name
            yield _verdict(normalise_text(gc), SourceFormat.GAME_COURIER, title, options)


def _count_games(text: str) -> int:
    """How many games a source's text holds, none judged (``all.pgn#9`` of a file of 3)."""
    text = without_forum_wrappers(normalise_text(text))
    kind = None if is_blank(text) else detect_format(text)
    if kind is SourceFormat.PGN:
        from gcadj.sources.pgn_reader import count_games

        return count_games(text)
    if kind is SourceFormat.OWN_PAGE:
        try:
            return len(page_games(text, ""))
        except OwnFileError:
            return 1
    return 1


def _unreadable(err: LogSyntaxError, name: str, options: JudgeOptions) -> Verdict:
    """The verdict of a text that stopped being readable: an "error" when it holds no game
    at all (a copied page without its moves), else the plies before the error judged."""
    if getattr(err, "status", Status.SYNTAX_ERROR) == Status.ERROR:
        return failed_verdict(name, Status.ERROR, str(err))
    verdict = replay_readable(err, fen=options.fen, all_findings=options.all_findings)
    return verdict if verdict.source == name else dataclasses.replace(verdict, source=name)


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
    "STDIN_NAME",
    "JudgeOptions",
    "SourceGames",
    "is_blank",
    "source_games",
    "source_name",
    "with_page_checks",
]
