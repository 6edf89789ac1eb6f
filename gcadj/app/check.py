"""Check one source, as `gcadj check` and the Python API do: read it, parse it, judge it.

Every step that can fail on the user's input gives a `Verdict` instead of an exception, so
whoever checks many sources gets one verdict per source whatever went wrong.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from gcadj.adjudication.verdict import Verdict, failed_verdict, replay, replay_readable
from gcadj.notation.parse import LogSyntaxError
from gcadj.sources.formats import parse_game_text
from gcadj.sources.read import SourceError, read_source


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
        if getattr(err, "status", "syntax-error") == "error":  # no game in it (copied page)
            return failed_verdict(source, "error", str(err))
        return replay_readable(err, fen=fen, all_findings=all_findings)
    return replay(log, fen=fen, all_findings=all_findings)


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
