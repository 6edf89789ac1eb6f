"""The pages of a result, made from what the store keeps (`gcadj.web.store`): the same
page for a check just made and for one opened a week later from a bookmark, in another
browser, after a restart. Nothing here judges: the verdicts' JSON, the viewers' data and
the report were made by the workers, once.

- One game: its viewer (`gcadj.outputs.viewer.viewer_page` from its `GameView`), with
  the server's bar (downloads, the result's address and how long it is kept, delete for
  its owner) and, when the check was one text (pasted or uploaded), the **editor**: the
  text as given, in a form that checks it again, and beside each suggestion a "Use this
  correction" button that puts it in place of the illegal ply's text (`EDITOR_SCRIPT`).
- A game with nothing to show (unreadable, not a game, not fetched): its verdict, the
  error laid out for reading (`gcadj.outputs.html_text.message_html`: the excerpt and its
  caret in a ``<pre>``, the hint below), for text that is no game a sentence saying what
  gcadj expected with an example, and the editor.
- Several games: the report the check made, with the bar (its JSON lines and CSV named
  after what was checked).

Every text from a user is escaped; the inline script and styles are the ones the
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
from gcadj.web.pages import BAR_STYLE, add_bar, e, page, preset_options
from gcadj.web.store import StoredGame, StoredResult

__all__ = [
    "EDITOR_SCRIPT",
    "EDITOR_STYLE",
    "NOT_A_GAME",
    "game_page",
    "report_page",
    "result_bar",
]

NOT_A_GAME: Final = (
    "<p>gcadj reads a Game Courier log: one move per line, each naming the piece, the "
    "square it leaves and the square it goes to, as Game Courier records them. For "
    "example:</p>\n<pre>P e2-e4\np e7-e5\nN g1-f3\nn b8-c6\nR h1-i1; I-i1</pre>\n"
    "<p>It also reads a PGN game (<code>1. e4 e5 2. Nf3</code>), and the text of a Game "
    "Courier game page, copied from the browser or saved.</p>"
)
"""What gcadj expected, for text that is no game at all."""

EDITOR_STYLE: Final = """
#editor{margin:1.2em 0;padding:.6em .8em;border:1px solid #ccc;border-radius:6px;
  font-family:system-ui,sans-serif}
#editor h2{font-size:1.1em;margin:0 0 .4em}
#editor textarea{width:100%;min-height:12em;font:inherit;font-family:ui-monospace,monospace;
  font-size:.9em;padding:.4em;border:1px solid #aaa;border-radius:4px}
#editor .options{display:flex;flex-wrap:wrap;gap:.4em 1.4em;align-items:center;margin:.5em 0}
#editor button[type=submit]{font:inherit;padding:.45em 1.2em;border-radius:4px;
  border:1px solid #1b4f9c;background:#1b4f9c;color:#fff;cursor:pointer}
#editor-note{color:#176b2c;min-height:1.3em;margin:.3em 0}
.use-fix{font:inherit;font-size:.95em;margin-left:.5em;padding:.05em .5em;cursor:pointer;
  border:1px solid #1b4f9c;border-radius:3px;background:#fff;color:#1b4f9c}
.kept{color:#555}
"""

EDITOR_SCRIPT: Final = """
(function () {
  var box = document.getElementById('editor-text'), note = document.getElementById('editor-note');
  if (!box) { return; }
  function offsetOf(text, line, column) {
    var at = 0;
    for (var l = 1; l < line; l++) {
      at = text.indexOf('\\n', at);
      if (at < 0) { return -1; }
      at += 1;
    }
    return at + column - 1;
  }
  function locate(text, item) {
    // where the illegal ply was typed; if the text was edited since, its only occurrence
    var typed = item.getAttribute('data-typed');
    var at = offsetOf(text, +item.getAttribute('data-line'), +item.getAttribute('data-column'));
    if (at >= 0 && text.substr(at, typed.length) === typed) { return at; }
    var first = text.indexOf(typed);
    return first >= 0 && text.indexOf(typed, first + 1) < 0 ? first : -1;
  }
  function use(item, fix) {
    var text = box.value, typed = item.getAttribute('data-typed'), at = locate(text, item);
    if (at < 0) {
      note.textContent = 'Could not find "' + typed + '" in the text: change it by hand.';
      return;
    }
    box.value = text.slice(0, at) + fix + text.slice(at + typed.length);
    item.setAttribute('data-typed', fix);  // another suggestion replaces this one
    note.textContent = 'Replaced "' + typed + '" by "' + fix + '". Press Check again.';
    document.getElementById('editor').scrollIntoView();
    box.focus();
    box.setSelectionRange(at, at + fix.length);
  }
  var fixes = document.querySelectorAll('#moves li.illegal[data-typed] li.suggestion[data-fix]');
  Array.prototype.forEach.call(fixes, function (s) {
    var item = s.closest('li.illegal'), button = document.createElement('button');
    button.type = 'button';
    button.className = 'use-fix';
    button.textContent = 'Use this correction';
    button.onclick = function (event) {
      event.preventDefault();
      event.stopPropagation();
      use(item, s.getAttribute('data-fix'));
    };
    s.appendChild(button);
  });
})();
"""

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
) -> str:
    """The server's bar above a result: its links (label, href), downloads (label, file
    name, text) carried in the page as data: links, how long the result is kept, and, for
    its owner, the button that deletes it."""
    parts = [f'<a href="{e(href)}">{e(label)}</a>' for label, href in links]
    if downloads:
        files = "".join(
            f'<a download="{e(name)}" href="data:text/plain;charset=utf-8,'
            f'{quote(text, safe="")}">{e(label)}</a>'
            for label, name, text in downloads
        )
        parts.append(f'<span class="downloads">{files}</span>')
    parts.append(
        f'<span class="kept" title="Anyone with this address can open it until then">'
        f"Kept until {e(kept_until(result, keep_days))}</span>"
    )
    if owner:
        parts.append(
            f'<form method="post" action="/r/{e(result.id)}/delete"><button type="submit">'
            "Delete this result</button></form>"
        )
    return (
        f'<style>{BAR_STYLE}</style><nav class="serve-bar" aria-label="gcadj serve">'
        f"{' '.join(parts)}</nav>"
    )


def editor(result: StoredResult) -> str:
    """The text as given, in a form that checks it again with the same options; "" when
    the check was not one text."""
    if result.text is None:
        return ""
    options = result.options
    pocket = options.get("pocket_file", "")
    choices = preset_options(pocket)
    every = " checked" if options.get("all") else ""
    fen = options.get("fen")
    hidden = f'<input type="hidden" name="fen" value="{e(fen)}">' if fen else ""
    return (
        f"<style>{EDITOR_STYLE}</style>"
        '<section id="editor"><h2>Edit and check again</h2>'
        '<form method="post" action="/check" enctype="multipart/form-data">'
        # a newline first: the HTML parser drops one at the start of a textarea
        f'<textarea id="editor-text" name="text" aria-label="The text checked" '
        f'spellcheck="false">\n{e(result.text)}</textarea>'
        '<p id="editor-note" aria-live="polite"></p>'
        f'<div class="options"><label>Pockets on file <select name="pocket_file">{choices}'
        f'</select></label><label><input type="checkbox" name="all" value="1"{every}> '
        f"every illegal move, not only the first</label>{hidden}</div>"
        '<button type="submit">Check again</button></form></section>'
        f"<script>{EDITOR_SCRIPT}</script>"
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
    no_game = status == Status.SYNTAX_ERROR and not record.get("final_fen")
    body = (
        f"{bar}<h1>{e(game.source)}</h1>\n"
        f'<div class="box error" role="alert"><p><b>'
        f"{e(STATUS_WORDS.get(status, status))}.</b></p>{message_html(error, game.source)}</div>\n"
        + (NOT_A_GAME if no_game else "")
        + bottom
    )
    return page(f"{game.source}: {status}", body)


def report_page(result: StoredResult, report: str, *, keep_days: float, owner: bool) -> str:
    """A report of several games, with the bar: its verdicts as JSON lines and CSV, named
    after what was checked, and how many files of its zips were skipped."""
    stem = quote(result.stem)
    links = [
        ("Check other games", "/"),
        ("Verdicts as JSON lines", f"/r/{result.id}/{stem}.jsonl"),
        ("as CSV", f"/r/{result.id}/{stem}.csv"),
    ]
    bar = result_bar(result, keep_days=keep_days, owner=owner, links=links)
    if result.skipped:
        note = f"{result.skipped} files of the zip were not game files and were skipped."
        bar = bar.replace("</nav>", f"<span>{e(note)}</span></nav>", 1)
    return add_bar(report, bar)
