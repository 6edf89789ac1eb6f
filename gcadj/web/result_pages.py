"""The pages of a result, made from what the store keeps (`gcadj.web.store`): the same
page for a check just made and for one opened a week later from a bookmark, in another
browser, after a restart. Nothing here judges: the verdicts' JSON, the viewers' data and
the report were made by the workers, once.

- One game: its viewer (`gcadj.outputs.viewer.viewer_page` from its `GameView`), with
  the server's bar (downloads, the result's address and how long it is kept, delete for
  its owner) and, when the check was one text (pasted or uploaded), the **editor**: the
  text as given, in a form that checks it again, and beside each suggestion a "Use this
  correction" button that puts it in place of the illegal ply's text
  (`gcadj/web/static/editor.js`).
- A game with nothing to show (unreadable, not a game, not fetched): its verdict, the
  error laid out for reading (`gcadj.outputs.html_text.message_html`: the excerpt and its
  caret in a ``<pre>``, the hint below), for text that is no game a sentence saying what
  gcadj expected with an example, and the editor.
- Several games: the report the check made, with the bar (its JSON lines and CSV named
  after what was checked).

The pages are rendered from `gcadj/web/templates/` (`gcadj.web.templating`), which
escape every text from a user; the inline script and styles are the ones the
Content-Security-Policy allows (`gcadj.web.app.sample_pages` renders a page of each kind).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Final
from urllib.parse import quote

from gcadj.outputs.html_text import message_html
from gcadj.outputs.viewer import viewer_page
from gcadj.vocabulary import Status
from gcadj.web.check_work import read_view
from gcadj.web.pages import add_bar
from gcadj.web.store import StoredGame, StoredResult
from gcadj.web.templating import Markup, render

__all__ = [
    "NOT_A_GAME_EXAMPLE",
    "game_page",
    "not_a_game",
    "report_page",
    "result_bar",
]

NOT_A_GAME_EXAMPLE: Final = "P e2-e4\np e7-e5\nN g1-f3\nn b8-c6\nR h1-i1; I-i1"
"""The log shown to a text that is no game at all, as an example of what gcadj reads."""


def not_a_game() -> str:
    """What gcadj expected, for text that is no game at all, with its example."""
    return render("not_a_game.html", example=NOT_A_GAME_EXAMPLE)


STATUS_WORDS: Final = {
    "syntax-error": "This is not a game gcadj can read",
    "error": "This could not be read",
}


def kept_until(result: StoredResult, keep_days: float) -> str:
    """Until when a result is kept, as a date people read."""
    until = time.gmtime(result.created + keep_days * 86400)
    return time.strftime("%d %b %Y", until).lstrip("0")


def result_bar(
    result: StoredResult,
    *,
    keep_days: float,
    owner: bool,
    links: Sequence[tuple[str, str]] = (),
    downloads: Sequence[tuple[str, str, str]] = (),
    note: str | None = None,
) -> str:
    """The server's bar above a result: its links (label, href), downloads (label, file
    name, text) carried in the page as data: links, how long the result is kept, a note,
    and, for its owner, the button that deletes it."""
    return render(
        "bar.html",
        links=links,
        downloads=[
            (label, name, "data:text/plain;charset=utf-8," + quote(text, safe=""))
            for label, name, text in downloads
        ],
        kept_until=kept_until(result, keep_days),
        owner=owner,
        result_id=result.id,
        note=note,
    )


def editor(result: StoredResult) -> str:
    """The text as given, in a form that checks it again with the same options; "" when
    the check was not one text."""
    if result.text is None:
        return ""
    options = result.options
    return render(
        "editor.html",
        text=result.text,
        pocket=options.get("pocket_file", ""),
        every=bool(options.get("all")),
        analyse=bool(options.get("analyse")),
        fen=options.get("fen"),
    )


def game_page(
    result: StoredResult,
    game: StoredGame,
    *,
    keep_days: float,
    owner: bool,
    report: bool = False,
) -> str:
    """The page of one game of a result: its viewer, or its verdict when it has no game to
    show; with the editor when the check was one text. `report`: the game is one of a
    report's (the bar links back to it; the check's editor is not this game's)."""
    links = [("Check another game", "/")]
    if report:
        links.insert(0, ("All games of this check", f"/r/{result.id}"))
    if game.view is None:
        bar = result_bar(result, keep_days=keep_days, owner=owner and not report, links=links)
        return verdict_page(game, bar, "" if report else editor(result))
    view, downloads = read_view(game.view)
    bar = result_bar(
        result, keep_days=keep_days, owner=owner and not report, links=links, downloads=downloads
    )
    return viewer_page([view], top=bar, bottom="" if report else editor(result))


def verdict_page(game: StoredGame, bar: str, bottom: str) -> str:
    """The verdict of a source with no game to show, its error laid out for reading; a
    text that is no game at all gets what gcadj expected, with an example."""
    record = game.record()
    status = str(record.get("status"))
    error = str(record.get("error") or status)
    return render(
        "verdict.html",
        title=f"{game.source}: {status}",
        refresh=None,
        bar=Markup(bar),
        source=game.source,
        headline=STATUS_WORDS.get(status, status),
        message=Markup(message_html(error, game.source)),
        no_game=status == Status.SYNTAX_ERROR and not record.get("final_fen"),
        example=NOT_A_GAME_EXAMPLE,
        bottom=Markup(bottom),
    )


def report_page(result: StoredResult, report: str, *, keep_days: float, owner: bool) -> str:
    """A report of several games, with the bar: its verdicts as JSON lines and CSV, named
    after what was checked, and how many files of its zips were skipped."""
    stem = quote(result.stem)
    links = [
        ("Check other games", "/"),
        ("Verdicts as JSON lines", f"/r/{result.id}/{stem}.jsonl"),
        ("as CSV", f"/r/{result.id}/{stem}.csv"),
    ]
    note = None
    if result.skipped:
        note = f"{result.skipped} files of the zip were not game files and were skipped."
    bar = result_bar(result, keep_days=keep_days, owner=owner, links=links, note=note)
    return add_bar(report, bar)
