"""Check one source, as `gcadj check` and the Python API do: read it, parse it, judge it.

Every step that can fail on the user's input gives a `Verdict` instead of an exception, so
whoever checks many sources gets one verdict per source whatever went wrong.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from gcadj.adjudication.verdict import Verdict, failed_verdict, replay, replay_readable
from gcadj.notation.parse import LogSyntaxError
from gcadj.sources.formats import parse_game_text, parse_games
from gcadj.sources.read import SourceError, game_ref, read_source
from gcadj.words import plural


def check_text(
    text: str,
    source: str = "<string>",
    *,
    fen: str | None = None,
    pocket_file: str = "i",
    all_findings: bool = False,
) -> Verdict:
    """Parse and replay a Game Courier log given as text; a log that becomes unreadable at
    a ply is judged up to that ply (`replay_readable`)."""
    try:
        log = parse_game_text(text, source=source, pocket_file=pocket_file)
    except LogSyntaxError as err:
        return _unreadable(err, source, fen=fen, all_findings=all_findings)
    return replay(log, fen=fen, all_findings=all_findings)


def _unreadable(
    err: LogSyntaxError, source: str, *, fen: str | None, all_findings: bool
) -> Verdict:
    """The verdict of a text that stopped being readable: an "error" when it holds no game
    at all (a copied page without its moves), else the plies before the error judged."""
    if getattr(err, "status", "syntax-error") == "error":
        return failed_verdict(source, "error", str(err))
    verdict = replay_readable(err, fen=fen, all_findings=all_findings)
    return verdict if verdict.source == source else dataclasses.replace(verdict, source=source)


def check_source(
    spec: str,
    *,
    fen: str | None = None,
    pocket_file: str = "i",
    all_findings: bool = False,
) -> Verdict:
    """Read a source as the user named it ('-', a file, ...) and check it; never raises
    for bad input: an unreadable source gives an "error" verdict naming it."""
    try:
        text = read_source(spec)
    except SourceError as err:
        return failed_verdict(spec, "error", str(err))
    name = "<stdin>" if spec == "-" else spec
    return check_text(text, name, fen=fen, pocket_file=pocket_file, all_findings=all_findings)


def check_games(
    text: str,
    source: str = "<string>",
    *,
    fen: str | None = None,
    pocket_file: str = "i",
    all_findings: bool = False,
    only: int | None = None,
) -> list[Verdict]:
    """One verdict per game of a text, in order: a PGN database gives one per game, named
    ``source#N`` (see `gcadj.sources.formats.parse_games`); any other text gives one."""
    verdicts = []
    for name, game in parse_games(text, source, pocket_file, only=only):
        if isinstance(game, LogSyntaxError):
            verdicts.append(_unreadable(game, name, fen=fen, all_findings=all_findings))
        else:
            verdicts.append(replay(game, fen=fen, all_findings=all_findings))
    return verdicts


def check_source_games(
    spec: str,
    *,
    fen: str | None = None,
    pocket_file: str = "i",
    all_findings: bool = False,
    text: str | None = None,
) -> list[Verdict]:
    """`check_source` for a source of any number of games: a verdict per game, in order.

    ``all.pgn#3`` (as the games of a database are named in verdicts) reads only that game.
    `text` is the source's text when the caller already has it (a page fetched earlier).
    Never raises for bad input; an unreadable source gives one "error" verdict.
    """
    ref = game_ref(spec)
    whole, only = ref if ref is not None else (spec, None)
    if text is None:
        try:
            text = read_source(whole)
        except SourceError as err:
            return [failed_verdict(spec, "error", str(err))]
    name = "<stdin>" if whole == "-" else whole
    verdicts = check_games(
        text, name, fen=fen, pocket_file=pocket_file, all_findings=all_findings, only=only
    )
    if only is None:
        return verdicts
    if not verdicts:
        count = len(parse_games(text, name, pocket_file))
        return [failed_verdict(spec, "error", f"{spec}: {name} holds {plural(count, 'game')}")]
    return [dataclasses.replace(verdicts[0], source=spec)]


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
    pocket_file: str = "i"
    all_findings: bool = False


def judge_source(spec: str, options: CheckOptions = CheckOptions()) -> Verdict:
    """`check_source` plus the page checks: what ``gcadj check`` and the audit report."""
    return with_page_checks(
        check_source(
            spec,
            fen=options.fen,
            pocket_file=options.pocket_file,
            all_findings=options.all_findings,
        )
    )


def judge_games(
    spec: str, options: CheckOptions = CheckOptions(), text: str | None = None
) -> list[Verdict]:
    """`check_source_games` plus the page checks: every game of a source, as ``gcadj check``
    and the audit report them (`text`: the source's text if already fetched)."""
    verdicts = check_source_games(
        spec,
        fen=options.fen,
        pocket_file=options.pocket_file,
        all_findings=options.all_findings,
        text=text,
    )
    return [with_page_checks(verdict) for verdict in verdicts]


def judge_text(text: str, source: str, options: CheckOptions = CheckOptions()) -> Verdict:
    """As `judge_source` for text already in hand (a page the parent process fetched)."""
    return with_page_checks(
        check_text(
            text,
            source,
            fen=options.fen,
            pocket_file=options.pocket_file,
            all_findings=options.all_findings,
        )
    )
