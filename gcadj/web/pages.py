"""`gcadj serve`'s own pages (the form, progress, messages), rendered from the templates
of `gcadj/web/templates/` (`gcadj.web.templating`), and the Content-Security-Policy that
every answer carries.

Everything that came from a user (names, messages quoting a log, addresses) is escaped
by the templates (autoescape). The pages use no script: progress refreshes with a meta tag. The
viewer and the report have inline scripts and styles; the policy allows exactly those, by
their SHA-256 (`csp_for`), so an injected script would not run even if escaping failed.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable
from typing import Final

from gcadj.sources.walk import SOURCE_SUFFIXES
from gcadj.web.limits import ServeSettings, size_text
from gcadj.web.templating import render

ACCEPTED_FILES: Final = ",".join(
    (*SOURCE_SUFFIXES, ".zip", "text/plain", "text/html", "application/zip")
)
"""What the form's file chooser offers: the files a folder walk reads, and zips of them."""


def home(settings: ServeSettings, *, message: str | None = None) -> str:
    """The form: paste, an address, files; what is accepted and the limits."""
    guard = (
        "Only public addresses are fetched (this server refuses loopback, private, "
        "link-local and cloud metadata addresses)."
        if settings.guards_urls
        else "Addresses are fetched as given, loopback and private ones too (this server "
        "was started with --any-urls)."
    )
    return render(
        "home.html",
        title="check a game",
        refresh=None,
        message=message,
        guard=guard,
        accepted_files=ACCEPTED_FILES,
        settings=settings,
        max_body=size_text(settings.max_body),
        zip_max_total=size_text(settings.zip_max_total),
        keep=days_text(settings.keep_days),
    )


def days_text(days: float) -> str:
    """A keeping time as people say it: "30 days", "1 day", "12 hours"."""
    if days >= 1:
        return f"{days:g} day" + ("" if days == 1 else "s")
    hours = days * 24
    return f"{hours:.3g} hour" + ("" if hours == 1 else "s")


def message_page(title: str, message: str, *, kind: str = "error", back: bool = True) -> str:
    """A page that says one thing: an error, a refusal, a limit reached."""
    return render("message.html", title=title, refresh=None, message=message, kind=kind, back=back)


INTERRUPTED_LINKS: Final = 50  # the games of an interrupted check linked from its page


def interrupted_page(result_id: str, games: int) -> str:
    """The page of a result whose check did not finish (the server stopped, or could not
    keep the end of it): it says so, and links the games judged before."""
    judged = f"{games:,} game" + ("" if games == 1 else "s") if games else "no game"
    return render(
        "interrupted.html",
        title="Interrupted",
        refresh=None,
        judged=judged,
        games=games,
        result_id=result_id,
        linked=range(1, min(games, INTERRUPTED_LINKS) + 1),
        more=max(0, games - INTERRUPTED_LINKS),
    )


def progress_page(
    done: int, total: int | None, games: int, *, waiting: int = 0, refresh: float = 1.0
) -> str:
    """While a check runs: how far it got; the page reloads itself until the report."""
    if total is None:
        state = (
            f"Waiting for a free worker ({waiting} ahead)."
            if waiting
            else "Reading the files and fetching the pages…"
        )
    else:
        state = f"Judged {done:,} of {total:,} sources ({games:,} games so far)."
    return render(
        "progress.html",
        title="checking",
        refresh=f"{refresh:g}",
        state=state,
        total=total,
        done=done,
    )


def add_bar(document: str, bar: str) -> str:
    """`document` (a viewer or report) with `bar` at the top of its body."""
    match = re.search(r"<body[^>]*>", document)
    if match is None:
        return bar + document
    return document[: match.end()] + bar + document[match.end() :]


_BLOCK = re.compile(r"<(script|style)(\s[^>]*)?>(.*?)</\1>", re.S | re.I)


def inline_hashes(document: str) -> tuple[set[str], set[str]]:
    """The CSP hashes of the inline scripts and styles of a page gcadj made (a JSON data
    script, never executed, needs none)."""
    scripts: set[str] = set()
    styles: set[str] = set()
    for kind, attrs, content in _BLOCK.findall(document):
        if "application/json" in (attrs or ""):
            continue
        digest = base64.b64encode(hashlib.sha256(content.encode("utf-8")).digest()).decode()
        (scripts if kind.lower() == "script" else styles).add(f"'sha256-{digest}'")
    return scripts, styles


def csp_for(documents: Iterable[str]) -> str:
    """The Content-Security-Policy allowing exactly the inline code of these pages (made
    from known games when the server starts): nothing loads from elsewhere, forms post
    only here, no page can be framed."""
    scripts: set[str] = set()
    styles: set[str] = set()
    for document in documents:
        more_scripts, more_styles = inline_hashes(document)
        scripts |= more_scripts
        styles |= more_styles
    script_src = " ".join(sorted(scripts)) or "'none'"
    return (
        "default-src 'none'; "
        f"script-src {script_src}; "
        f"style-src {' '.join(sorted(styles))}; "
        "img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    )


__all__ = [
    "add_bar",
    "csp_for",
    "days_text",
    "home",
    "inline_hashes",
    "interrupted_page",
    "message_page",
    "progress_page",
]
