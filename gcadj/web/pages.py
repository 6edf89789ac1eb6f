"""The HTML of `gcadj serve`'s own pages (the form, progress, messages), the style of the
bar it adds to results (`gcadj.web.result_pages`), and the Content-Security-Policy that
every answer carries.

Everything that came from a user (names, messages quoting a log, addresses) is escaped
with `html.escape`. The pages use no script: progress refreshes with a meta tag. The
viewer and the report have inline scripts and styles; the policy allows exactly those, by
their SHA-256 (`csp_for`), so an injected script would not run even if escaping failed.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from collections.abc import Iterable
from typing import Final

from gcadj.about import GENERATOR_META, __version__
from gcadj.sources.walk import SOURCE_SUFFIXES
from gcadj.vocabulary import PRESETS
from gcadj.web.limits import ServeSettings, size_text

STYLE: Final = """
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
code,pre,kbd,samp{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace}
body{font-family:system-ui,sans-serif;margin:0 auto;padding:1em clamp(.6em,3vw,1.5em);
  color:#1b1b1b;max-width:60em;line-height:1.4}
h1{font-size:1.5em;margin:.2em 0 .3em}h2{font-size:1.15em;margin:1.2em 0 .4em}
p{margin:.5em 0}
form{display:grid;gap:1em}
fieldset{border:1px solid #ccc;border-radius:6px;padding:.6em .8em;margin:0;min-width:0}
legend{font-weight:bold;padding:0 .3em}
textarea,input[type=url],input[type=text]{width:100%;font:inherit;padding:.4em;
  border:1px solid #aaa;border-radius:4px}
textarea{min-height:9em;font-family:ui-monospace,monospace;font-size:.9em}
input[type=file]{max-width:100%}
button,.button{font:inherit;padding:.45em 1.2em;border-radius:4px;border:1px solid #1b4f9c;
  background:#1b4f9c;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
.options{display:flex;flex-wrap:wrap;gap:.4em 1.4em;align-items:center}
.hint{color:#555;font-size:.9em}
.box{padding:.6em .8em;border-radius:6px;margin:.8em 0;overflow-wrap:anywhere}
.error{background:#fbe9e9;border:1px solid #e3a4a4}
.ok{background:#e8f4ea;border:1px solid #9fcda9}
.wait{background:#eef3fb;border:1px solid #a9bfe3}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;padding:.6em;
  border-radius:4px;font-size:.9em}
progress{width:100%;height:1.2em}
code{background:#f2f2f2;padding:0 .2em;overflow-wrap:anywhere}
ul.limits{padding-left:1.2em;margin:.3em 0}
.made{color:#777;font-size:.8em;margin-top:2em}
nav.serve-bar{display:flex;flex-wrap:wrap;gap:.3em 1em;align-items:center;font-size:.95em}
"""

BAR_STYLE: Final = """
nav.serve-bar{display:flex;flex-wrap:wrap;gap:.3em 1em;align-items:center;font-size:.9em;
  padding:.35em .2em;margin:0 0 .4em;border-bottom:1px solid #ddd;font-family:system-ui,sans-serif}
nav.serve-bar a{color:#1b4f9c}
nav.serve-bar .downloads{display:flex;flex-wrap:wrap;gap:.2em .8em}
nav.serve-bar form{display:inline;margin:0}
nav.serve-bar button{font:inherit;font-size:.95em;cursor:pointer}
"""


def e(value: object) -> str:
    """`value` as HTML text (quotes too, so it is safe in an attribute)."""
    return html.escape("" if value is None else str(value), quote=True)


def page(title: str, body: str, *, refresh: float | None = None) -> str:
    """A whole page of the server's own, with its style; `refresh` reloads it (progress)."""
    meta = f'<meta http-equiv="refresh" content="{refresh:g}">\n' if refresh else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
        f"{GENERATOR_META}\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"{meta}<title>{e(title)} — gcadj</title>\n<style>{STYLE}</style></head>\n"
        f"<body>\n{body}\n"
        f'<p class="made">gcadj {e(__version__)} · judged on this server; nothing is sent '
        "elsewhere.</p>\n</body></html>\n"
    )


ACCEPTED_FILES: Final = ",".join(
    (*SOURCE_SUFFIXES, ".zip", "text/plain", "text/html", "application/zip")
)
"""What the form's file chooser offers: the files a folder walk reads, and zips of them."""


def preset_options(selected: str = "") -> str:
    """The pocket-file choices of a form, one per preset (`gcadj.vocabulary.PRESETS`), after
    "from the log"; `selected` is the value chosen before ("" for "from the log")."""
    choices = [("", "from the log")] + [
        (str(p.pocket_file), f"{p.pocket_file} ({p.name})") for p in PRESETS
    ]
    return "\n".join(
        f'<option value="{e(value)}"{" selected" if value and value == selected else ""}>'
        f"{e(label)}</option>"
        for value, label in choices
    )


def home(settings: ServeSettings, *, message: str | None = None) -> str:
    """The form: paste, an address, files; what is accepted and the limits."""
    notice = f'<div class="box error" role="alert">{e(message)}</div>' if message else ""
    guard = (
        "Only public addresses are fetched (this server refuses loopback, private, "
        "link-local and cloud metadata addresses)."
        if settings.guards_urls
        else "Addresses are fetched as given, loopback and private ones too (this server "
        "was started with --any-urls)."
    )
    body = f"""<h1>gcadj: is this game legal?</h1>
<p>Paste a Game Courier log, give a game page's address, or upload files: logs, saved
pages, PGN databases, or a <code>.zip</code> of a whole archive. Every result gets its own
address: one game opens its viewer, several give a report with a link to each game.</p>
{notice}
<form method="post" action="/check" enctype="multipart/form-data">
<fieldset><legend>Paste a log or a copied page</legend>
<textarea name="text" aria-label="Log or page text" spellcheck="false"
 placeholder="P e2-e4&#10;p e7-e5&#10;N g1-f3&#10;..."></textarea></fieldset>
<fieldset><legend>Or a game page's address</legend>
<input type="url" name="url" aria-label="Game page address"
 placeholder="https://www.chessvariants.com/play/pbm/play.php?game=...&amp;log=...">
<p class="hint">{e(guard)}</p></fieldset>
<fieldset><legend>Or files</legend>
<input type="file" name="file" multiple aria-label="Files to check"
 accept="{ACCEPTED_FILES}">
</fieldset>
<div class="options">
<label>Pockets on file <select name="pocket_file">
{preset_options()}</select></label>
<label><input type="checkbox" name="all" value="1"> every illegal move, not only the first</label>
<label><input type="checkbox" name="analyse" value="1"> analyse every move: a mate missed or
 allowed, material lost</label>
</div>
<div><button type="submit">Check</button></div>
</form>
<h2>Limits</h2>
<ul class="limits">
<li>{e(size_text(settings.max_body))} per check (paste, files and zips together).</li>
<li>Zips: at most {settings.zip_max_files:,} files and {e(size_text(settings.zip_max_total))}
 uncompressed; a large member may expand at most {settings.zip_max_ratio} times. Zips are read
 in memory, never unpacked.</li>
<li>{settings.source_timeout:g} s to judge one file or game page, {settings.job_timeout:g} s for
 a whole check; {settings.pool_size} checks run at once, others wait their turn.</li>
<li>Every result has its own address, to bookmark or share: it is kept
 {e(days_text(settings.keep_days))} (the browser that made it may delete it sooner).</li>
</ul>
<p class="hint">The same checks from a terminal: <code>curl --data-binary @game.txt
{e(settings.url)}api/check</code> answers JSON lines, as <code>gcadj check --json</code>.</p>"""
    return page("check a game", body)


def days_text(days: float) -> str:
    """A keeping time as people say it: "30 days", "1 day", "12 hours"."""
    if days >= 1:
        return f"{days:g} day" + ("" if days == 1 else "s")
    hours = days * 24
    return f"{hours:.3g} hour" + ("" if hours == 1 else "s")


def message_page(title: str, message: str, *, kind: str = "error", back: bool = True) -> str:
    """A page that says one thing: an error, a refusal, a limit reached."""
    link = '<p><a class="button" href="/">Check another game</a></p>' if back else ""
    body = (
        f'<h1>{e(title)}</h1>\n<div class="box {e(kind)}" role="alert">{e(message)}</div>\n{link}'
    )
    return page(title, body)


INTERRUPTED_LINKS: Final = 50  # the games of an interrupted check linked from its page


def interrupted_page(result_id: str, games: int) -> str:
    """The page of a result whose check did not finish (the server stopped, or could not
    keep the end of it): it says so, and links the games judged before."""
    judged = f"{games:,} game" + ("" if games == 1 else "s")
    message = (
        f"This check did not finish: the server stopped, or could not keep its result, "
        f"after judging {judged if games else 'no game'}. Check it again."
    )
    links = "".join(
        f'<li><a href="/r/{e(result_id)}/g/{n}">Game {n}</a></li>'
        for n in range(1, min(games, INTERRUPTED_LINKS) + 1)
    )
    more = f"<p>and {games - INTERRUPTED_LINKS:,} more.</p>" if games > INTERRUPTED_LINKS else ""
    listed = f"<h2>Judged before it stopped</h2>\n<ul>{links}</ul>{more}" if games else ""
    body = (
        f'<h1>Interrupted</h1>\n<div class="box error" role="alert">{e(message)}</div>\n'
        f'{listed}<p><a class="button" href="/">Check another game</a></p>'
    )
    return page("Interrupted", body)


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
        bar = "<progress></progress>"
    else:
        state = f"Judged {done:,} of {total:,} sources ({games:,} games so far)."
        bar = f'<progress max="{max(total, 1)}" value="{done}"></progress>'
    body = (
        "<h1>Checking…</h1>\n"
        f'<div class="box wait" role="status"><p id="progress">{e(state)}</p>{bar}</div>\n'
        "<p class=hint>This page shows the report by itself when the check is done.</p>"
    )
    return page("checking", body, refresh=refresh)


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
    "BAR_STYLE",
    "STYLE",
    "add_bar",
    "csp_for",
    "days_text",
    "e",
    "home",
    "inline_hashes",
    "interrupted_page",
    "message_page",
    "page",
    "progress_page",
]
