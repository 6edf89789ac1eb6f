"""Fetch one Game Courier page and turn it into a text log, as ``gcadj fetch`` does."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from gcadj.app.exit_codes import EXIT_INTERNAL, EXIT_OK, EXIT_SYNTAX, EXIT_UNREADABLE
from gcadj.app.fetching import FetchSettings, fetch_settings, shared_fetcher
from gcadj.app.pipeline import judge_source, source_name
from gcadj.errors import FetchError, PageError
from gcadj.judging.verdict import internal_error_verdict

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FetchedLog:
    """A page's game as log text (tag pairs, then the moves) and what judging it warns of;
    or, when there is none, why (`error`), with the exit code either way. `internal`: the
    error is gcadj's own (a bug), not the page's."""

    text: str | None
    warnings: tuple[str, ...] = ()
    error: str | None = None
    exit_code: int = EXIT_OK
    internal: bool = field(default=False)


def fetch_log(url: str, settings: FetchSettings | None = None) -> FetchedLog:
    """The game on the viewing page at `url`, through the shared polite fetcher (with the
    command's `settings`); never raises for a page that cannot be fetched (exit code 4),
    holds no move list (3), or on which gcadj fails (5).

    The log is judged once, through the one way in, so that the page's own doubts (a
    board diagram that differs from the replay, a scraper warning) reach the user before
    it is saved.
    """
    from gcadj.sources.pages.scrape import scrape_page

    name = source_name(url)  # shown: without the URL's credentials
    with fetch_settings(settings or FetchSettings()):
        try:
            page = shared_fetcher().get(url)
            text = scrape_page(page.text(), source=name, url=url).log_text
        except FetchError as err:
            return FetchedLog(None, error=str(err), exit_code=EXIT_UNREADABLE)
        except PageError as err:  # no move list
            return FetchedLog(None, error=str(err), exit_code=EXIT_SYNTAX)
        except Exception as err:  # a bug on this page: exit 5 naming it, never a traceback
            log.debug("internal error fetching %s", name, exc_info=True)
            message = internal_error_verdict(name, err).error
            return FetchedLog(None, error=message, exit_code=EXIT_INTERNAL, internal=True)
    (verdict, *_) = judge_source(name, text=text)
    return FetchedLog(text, verdict.warnings)


__all__ = ["FetchedLog", "fetch_log"]
