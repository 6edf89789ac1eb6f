"""Fetch one Game Courier page and turn it into a text log, as `gcadj fetch` does."""

from __future__ import annotations

from dataclasses import dataclass

from gcadj.app.check import CheckOptions, judge_text
from gcadj.sources.fetch import default_fetcher
from gcadj.sources.pages.scrape import scrape_page
from gcadj.sources.urls import redact_url


@dataclass(frozen=True)
class FetchedLog:
    """A page's game as log text (tag pairs, then the moves), and what judging it warns of."""

    text: str
    warnings: tuple[str, ...]


def fetch_log(url: str) -> FetchedLog:
    """The game on the viewing page at `url`, through the shared polite fetcher.

    Raises `FetchError` when the page cannot be downloaded and `PageError` when it holds
    no move list; the log is judged once so that the page's own doubts (a board diagram
    that differs from the replay, a scraper warning) reach the user before it is saved.
    """
    page = default_fetcher().get(url)
    name = redact_url(url)  # shown: without the URL's credentials
    text = scrape_page(page.text(), source=name, url=url).log_text
    return FetchedLog(text, judge_text(text, name, CheckOptions()).warnings)
