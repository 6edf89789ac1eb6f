"""A game viewer: an HTML page to step through checked games in a browser.

People who study or adjudicate a game want to walk through it, not read a list of FENs.
By default the page has everything inline (CSS, a small script, the SVG parts of the
diagram), loads nothing and works from ``file://``. The diagram is `gcadj.outputs.svg`'s:
the page holds its fixed parts once (the kit: `board_kit`'s board, one drawing per piece,
turn marks, and the legend of the letters) and, per position, the FEN (the script places
the pieces from it) and the `marks` (last move, check or mate, the illegal move), so a
long game stays small and the pictures match ``export --to svg`` exactly.

An audit writes thousands of pages into one folder: there each page links the style and
a script carrying the kit (`viewer_assets`, two files written once beside the pages), and
holds only its own game, about a sixth of a self-contained page.

The page is made from one walk over each judged game (`gcadj.adjudication.plies`): it
shows what the judge found, and never judges or replays a game of its own.

Steps are positions: step 0 is the start, step N the position after N legal plies, and
for an illegal game one more step, the first illegal ply, shown in the position it was
played in with the move marked in red and the finding (category, reason, suggestions).
``#ply=N`` in the address opens step N and follows the stepping, so a position can be
shared. Without an address the page opens at the last step: the end of the game, or
where it went wrong. Text the reader could not read is listed after the plies, as typed.

A page of several games (`write_games_viewer`) has a game list (a menu and links) above
the board; the address is then ``#game=G&ply=N`` (games counted from 1), and each game's
header, facts and moves are swapped in when it is chosen.

Everything taken from the log (tags, moves as typed, comments, reasons quoting them) is
HTML-escaped; the game data travels as JSON in a non-executed script element with ``<``
escaped, so no log text can close it. So does each game itself, as Game Courier text
(``export --to gc``'s) in the ``gcadj-games`` element (`gcadj.about.GAMES_BLOCK_ID`):
``gcadj check viewer.html`` reads it back and gives the game's verdict
(`gcadj.sources.own`).
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from gcadj.about import GAMES_BLOCK_ID, GENERATOR_META
from gcadj.adjudication.plies import JudgedGame, JudgedPly
from gcadj.adjudication.verdict import Finding, Verdict
from gcadj.engine.pieces import PIECE
from gcadj.engine.squares import BLACK, COLOR_NAMES, WHITE
from gcadj.errors import ExportError
from gcadj.notation.records import GameLog, UnreadText
from gcadj.outputs.html_text import breakable
from gcadj.outputs.legend import piece_legend
from gcadj.outputs.svg import FONT, BoardKit, board_kit, marked_cells, marks
from gcadj.outputs.writers.gc import write_gc
from gcadj.urls import is_url
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PRESETS, PocketFile, Side, Status

__all__ = [
    "VIEWER_FILE",
    "ViewerAssets",
    "viewer_assets",
    "viewer_filename",
    "write_games_viewer",
    "write_viewer",
]


VIEWER_FILE: Final = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,39}-[0-9a-f]{12}\.html")
"""Every name `viewer_filename` gives, and nothing else: what a server may serve as a
viewer (no path, no hidden file, no option-like leading ``-``)."""


def viewer_filename(source: str) -> str:
    """The file name of a source's viewer in an audit's viewer folder: readable (the end of
    the source's name, in letters, digits, ``._-``) and unique (a digest of the whole
    name), so the audit's workers and the report agree on it without sharing anything.

    Whatever the name (``-final.txt``, ``.hidden``, a name in any script), the result
    matches `VIEWER_FILE`: it starts with a letter, a digit or ``_``.

    >>> viewer_filename("games/-final.txt")
    'final-a75ab2be800d.html'
    """
    tail = re.split(r"[/\\?=&]", source.rstrip("/"))[-1]
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", tail.rsplit(".", 1)[0] if "." in tail else tail)
    stem = stem[:40].lstrip(".-") or "game"
    digest = hashlib.sha1(source.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{stem}-{digest}.html"


@dataclass(frozen=True)
class _Step:
    """One position: its FEN (the script draws the pieces and the turn from it), its marks
    (`gcadj.outputs.svg.marks`) and its label."""

    fen: str
    marks: str
    label: str

    def to_json(self) -> dict[str, object]:
        return {"f": self.fen, "m": self.marks, "l": self.label}


@dataclass(frozen=True)
class _GameView:
    """One game's part of a page: its steps, and the HTML of its header, facts and moves."""

    title: str
    pocket_file: PocketFile
    steps: list[_Step]
    head: str
    facts: str
    items: list[str]
    label: str  # its entry in the game list
    gc: str  # the game as Game Courier text (`write_gc`): what `gcadj check` reads back


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _dots(white: bool) -> str:
    return "." if white else "..."


def write_viewer(verdict: Verdict, *, size: int = 48, assets: ViewerAssets | None = None) -> str:
    """The viewer page of a game (see the module docstring).

    Works for legal and illegal games and for partial verdicts (a ``syntax-error`` whose
    log holds the readable plies before the unreadable one); raises `ExportError` when
    the verdict has no game at all.
    """
    return write_games_viewer([verdict], size=size, assets=assets)


def write_games_viewer(
    verdicts: Sequence[Verdict], *, size: int = 48, assets: ViewerAssets | None = None
) -> str:
    """One viewer page holding every game of `verdicts`, in order, with a game list when
    there are several (see the module docstring); `ExportError` for a verdict without a
    game, or for none. The page is self-contained, or, with `assets` (`viewer_assets`),
    links the shared style and script, which must be written beside it."""
    if not verdicts:
        raise ExportError("no game to show")
    for verdict in verdicts:
        if verdict.log is None:
            raise ExportError(f"{verdict.source}: no game to show ({verdict.status})")
    return _page([_game_view(verdict, size) for verdict in verdicts], size, assets)


def _game_view(verdict: Verdict, size: int) -> _GameView:
    """One walk over the judged game: a step per position, an item per ply."""
    game = JudgedGame(verdict)
    log = game.log
    pocket_file = log.pocket_file
    start = game.position_after(0)
    steps = [_Step(start.fen(), marks(start, size=size), "Start")]
    items = [_start_item(game)]
    for ply in game.plies():
        if ply.move is not None:
            items.append(_move_item(ply))  # its SAN and text, from the position before it
            label = f"Ply {ply.ply}: {ply.move_number}{_dots(ply.white)} {ply.san}"
            with ply.after() as after:
                picture = marks(after, last_move=ply.move, pocket_file=pocket_file, size=size)
                steps.append(_Step(after.fen(), picture, label))
        elif ply.finding is not None:
            steps.append(_illegal_step(ply, verdict, pocket_file, size))
            items.append(_illegal_item(ply, ply.finding))
        else:
            items.append(_unjudged_item(ply))
    unread = game.unread
    if unread is not None:
        items.append(_unread_item(len(log.records) + 1, unread))
    elif verdict.status == Status.SYNTAX_ERROR and verdict.error:
        items.append(_unreadable_item(len(log.records) + 1, verdict.error))
    white, black = log.tag("White"), log.tag("Black")
    title = f"{white or '?'} – {black or '?'}" if white or black else verdict.source
    return _GameView(
        title=title,
        pocket_file=pocket_file,
        steps=steps,
        head=_head_html(verdict, title, white, black),
        facts=_facts_html(verdict, log),
        items=items,
        label=f"{title} ({verdict.status})" if white or black else f"{title}: {verdict.status}",
        gc=write_gc(verdict),
    )


def _illegal_step(ply: JudgedPly, verdict: Verdict, pocket_file: PocketFile, size: int) -> _Step:
    """The first illegal ply, shown in the position it was played in, the move in red."""
    position = ply.position
    last = verdict.moves[-1] if verdict.moves else None
    try:
        picture = marks(
            position,
            last_move=last,
            illegal=marked_cells(ply.record),
            pocket_file=pocket_file,
            size=size,
        )
    except (ValueError, KeyError, IndexError):  # a square the diagram cannot place
        picture = marks(position, pocket_file=pocket_file, size=size)
    return _Step(
        position.fen(),
        picture,
        f"Ply {ply.ply}: {ply.move_number}{_dots(ply.white)} {ply.text} is illegal; "
        "the position it was played in",
    )


# -- the move list ---------------------------------------------------------------------


def _comment_html(comments: list[str]) -> str:
    if not comments:
        return ""
    return f'<div class="comment">{"<br>".join(_e(line) for line in comments)}</div>'


def _start_item(game: JudgedGame) -> str:
    return (
        '<li data-ply="0"><a href="#ply=0"><span class="num">Start</span></a>'
        f"{_comment_html(game.leading_comments)}</li>"
    )


def _move_item(ply: JudgedPly) -> str:
    typed, canonical = ply.text, ply.gc or ply.text
    title = f' title="Game Courier, canonical: {_e(canonical)}"' if canonical != typed else ""
    return (
        f'<li data-ply="{ply.ply}" class="{"w" if ply.white else "b"}"><a href="#ply={ply.ply}">'
        f'<span class="num">{ply.move_number}{_dots(ply.white)}</span> '
        f'<span class="san">{_e(ply.san)}</span> '
        f'<code class="gc"{title}>{_e(typed)}</code></a>{_comment_html(ply.comments)}</li>'
    )


def _finding_html(finding: Finding) -> str:
    parts = [
        f'<div class="finding"><span class="category">{_e(finding.category)}</span> '
        f'{_e(finding.reason)} <span class="where">(line {finding.line}, column '
        f"{finding.column})</span>"
    ]
    if finding.suggestions:
        parts.append('<div class="suggestions">Did you mean:<ul>')
        for s in finding.suggestions:
            parts.append(
                f"<li><code>{_e(s.text)}</code> ({_e(s.san)})"
                f"{' — ' + _e(s.why) if s.why else ''}</li>"
            )
        parts.append("</ul></div>")
    parts.append("</div>")
    return "".join(parts)


def _illegal_item(ply: JudgedPly, finding: Finding) -> str:
    return (
        f'<li data-ply="{ply.ply}" class="illegal"><a href="#ply={ply.ply}">'
        f'<span class="num">{ply.move_number}{_dots(ply.white)}</span> '
        f'<code class="gc">{_e(ply.text)}</code> '
        f'<span class="flag">illegal</span></a>{_finding_html(finding)}'
        f"{_comment_html(ply.comments)}</li>"
    )


def _unjudged_item(ply: JudgedPly) -> str:
    return (
        f'<li class="unjudged" title="not judged: the replay stops at the first illegal ply">'
        f'<span class="num">{ply.move_number}{_dots(ply.white)}</span> '
        f'<code class="gc">{_e(ply.text)}</code>{_comment_html(ply.comments)}</li>'
    )


def _unreadable_item(ply: int, error: str) -> str:
    return (
        f'<li class="illegal unreadable"><span class="num">Ply {ply}</span> '
        f'<span class="flag">unreadable</span><div class="finding">{_e(error)}</div></li>'
    )


def _unread_item(ply: int, unread: UnreadText) -> str:
    """The text from the unreadable ply on, as typed, with the syntax error."""
    return (
        f'<li class="illegal unreadable"><span class="num">Ply {ply}</span> '
        f'<span class="flag">unreadable</span><div class="finding">{_e(unread.error)}</div>'
        f'<pre class="unread" title="not read: as typed, from line {unread.line}">'
        f"{_e(unread.text.rstrip(chr(10)))}</pre></li>"
    )


# -- the page --------------------------------------------------------------------------


def _verdict_html(verdict: Verdict) -> str:
    finding = verdict.first_illegal
    legal = len(verdict.moves)
    if verdict.status == Status.LEGAL:
        how = verdict.termination or "ongoing"
        return (
            f'<p class="verdict legal">Legal, {verdict.plies} plies. Result '
            f"<b>{_e(verdict.result)}</b> ({_e(how)}).</p>"
        )
    if verdict.status == Status.ILLEGAL and finding is not None:
        return (
            f'<p class="verdict illegal">Illegal at ply {finding.ply} '
            f"({finding.move_number}{_dots(finding.side == Side.WHITE)} "
            f"<code>{_e(finding.text)}</code>) [{_e(finding.category)}]: {_e(finding.reason)}. "
            f"{legal} legal plies before it, {verdict.plies} in the log. Result "
            f"<b>{_e(verdict.result)}</b>.</p>"
        )
    return (
        f'<p class="verdict illegal">Legal for {legal} plies; ply {legal + 1} unreadable: '
        f"{_e(verdict.error)}. Result <b>{_e(verdict.result)}</b>.</p>"
    )


def _head_html(verdict: Verdict, title: str, white: str | None, black: str | None) -> str:
    players = ""
    if white or black:
        players = (
            f'<p class="players">{COLOR_NAMES[WHITE]}: {_e(white or "?")} · '
            f"{COLOR_NAMES[BLACK]}: {_e(black or '?')}</p>"
        )
    return f"<h1>{_e(title)}</h1>{players}{_verdict_html(verdict)}"


def _facts_html(verdict: Verdict, log: GameLog) -> str:
    rows = [("Source", breakable(verdict.source))]
    for name in ("Event", "Site", "Date", "Status"):
        value = log.tag(name)
        if value:
            text = _e(value)
            if name == "Site" and is_url(value):
                text = f'<a href="{text}" rel="noopener noreferrer">{text}</a>'
            rows.append((name, text))
    rows.append(("Result", _e(verdict.result)))
    termination = verdict.termination or ("rules infraction" if verdict.first_illegal else None)
    rows.append(("Termination", _e(termination or "none")))
    if log.pocket_file != DEFAULT_POCKET_FILE:
        rows.append(("Pockets", f"{_e(log.pocket_file)}1 and {_e(log.pocket_file)}8"))
    body = "".join(f"<tr><th>{name}</th><td>{value}</td></tr>" for name, value in rows)
    return f'<table class="facts">{body}</table>'


@functools.cache
def _legend_html() -> str:
    """The legend of the 19 letters: the same on every page, so made once per process (an
    audit writes thousands of viewers)."""
    rows = "".join(
        f'<tr><td class="letter">{_e(r.letter)}</td><td>{_e(r.name)}</td><td>{_e(r.moves)}</td>'
        f"<td>{_e(r.value_class)}</td></tr>"
        for r in piece_legend()
    )
    return (
        "<table><tr><th>Letter</th><th>Piece</th><th>Moves</th><th>Class</th></tr>"
        f"{rows}</table><p>White's pieces are light discs with upper-case letters, Black's "
        "dark ones; the King is ringed. A piece pocketed from ranks 1–7 may mutate into "
        "another of its class; one pocketed from rank 8 must promote to the next class.</p>"
    )


def _board_svg(kit: BoardKit, step: _Step) -> str:
    """The diagram's frame and the shown step's marks; the script adds the background,
    the pieces and the turn mark from the kit (`_kit`), each drawn once in it."""
    return (
        f'<svg id="board" xmlns="http://www.w3.org/2000/svg" width="{kit.width}" '
        f'height="{kit.height}" viewBox="0 0 {kit.width} {kit.height}" font-family="{FONT}" '
        'role="img" aria-label="board">'
        f'<rect width="{kit.width}" height="{kit.height}" fill="#ffffff"/>'
        f'<g id="background"></g><g id="marks">{step.marks}</g><g id="pieces"></g>'
        '<g id="turn"></g></svg>'
    )


def _json_for_script(data: object) -> str:
    """JSON that is safe inside a <script> element: no '<' can end it early."""
    return (
        json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        .replace("<", "\\u003c")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def _kit(
    size: int, pocket_files: Iterable[PocketFile], symbols: Iterable[str]
) -> dict[str, object]:
    """What the script draws every position with, the same for every game: the board of
    each pocket file, the drawing of each piece symbol, the cells' centres, the turn marks
    and the legend of the letters."""
    kits = {pocket_file: board_kit(pocket_file, size) for pocket_file in pocket_files}
    kit = next(iter(kits.values()))
    return {
        "backgrounds": {name: k.background for name, k in sorted(kits.items())},
        "pieces": {symbol: kit.pieces[symbol] for symbol in sorted(symbols)},
        "centres": [[round(x, 2), round(y, 2)] for x, y in kit.centres],
        "turn": list(kit.turn),
        "legend": _legend_html(),
    }


SHARED_POCKET_FILES: Final = tuple(preset.pocket_file for preset in PRESETS)  # their boards


@dataclass(frozen=True)
class ViewerAssets:
    """The viewer's style and script (with the kit) as two files that many pages link.

    An audit may write a viewer for each of thousands of games: linked pages hold only
    their game (a few KB, not 30), and the files are written once. Their names carry a
    digest of their text, so a page always gets the script it was made for, even when a
    later gcadj writes new pages into the same folder.
    """

    style_name: str
    script_name: str
    files: dict[str, str]  # file name -> text


@functools.cache
def viewer_assets(size: int = 48) -> ViewerAssets:
    """The shared files of linked viewer pages of this square size (see `ViewerAssets`)."""
    kit = _kit(size, SHARED_POCKET_FILES, PIECE)
    script = f"window.GCADJ_KIT = {_json_for_script(kit)};\n{VIEWER_SCRIPT}"
    names = [
        f"gcadj-viewer-{hashlib.sha1(text.encode()).hexdigest()[:10]}.{ext}"
        for text, ext in ((VIEWER_STYLE, "css"), (script, "js"))
    ]
    return ViewerAssets(names[0], names[1], {names[0]: VIEWER_STYLE, names[1]: script})


def _game_list(games: list[_GameView]) -> str:
    """The game list of a page of several games: a menu, and a link to each game's end."""
    if len(games) == 1:
        return ""
    options = "".join(
        f'<option value="{n}">{n}. {_e(game.label)}</option>' for n, game in enumerate(games, 1)
    )
    links = "".join(
        f'<li><a href="#game={n}&amp;ply={len(game.steps) - 1}">{n}. {_e(game.label)}</a></li>'
        for n, game in enumerate(games, 1)
    )
    return (
        f'<nav id="games" aria-label="games"><label for="game-select">Game '
        f"({len(games)} in this page)</label> "
        f'<select id="game-select">{options}</select>'
        f'<ol id="game-links">{links}</ol></nav>\n'
    )


def _game_templates(games: list[_GameView]) -> str:
    """Each game's header, facts and moves, inert until the script swaps them in."""
    if len(games) == 1:
        return ""
    return "".join(
        f'<template class="game-parts" data-game="{n}">'
        f'<div data-part="head">{game.head}</div><div data-part="facts">{game.facts}</div>'
        f'<div data-part="moves">{"".join(game.items)}</div></template>\n'
        for n, game in enumerate(games, 1)
    )


def _page(games: list[_GameView], size: int, assets: ViewerAssets | None) -> str:
    """The page: self-contained (style, kit and script inline), or, with `assets`, linking
    the shared files and holding only its games."""
    first = games[0]
    kit = board_kit(first.pocket_file, size)
    title = first.title if len(games) == 1 else f"{len(games)} games"
    data: dict[str, object] = {
        "games": [
            {
                "steps": [step.to_json() for step in game.steps],
                "initial": len(game.steps) - 1,
                "bg": game.pocket_file,
            }
            for game in games
        ]
    }
    if assets is None:
        used = set("".join(step.fen.split(" ", 1)[0] for g in games for step in g.steps))
        inline_kit = _kit(size, {g.pocket_file for g in games}, used & PIECE.keys())
        style = f"<style>{VIEWER_STYLE}</style>"
        code = (
            f'<script type="application/json" id="gcadj-kit">{_json_for_script(inline_kit)}'
            f"</script>\n<script>{VIEWER_SCRIPT}</script>"
        )
    else:
        others = {g.pocket_file for g in games} - set(SHARED_POCKET_FILES)
        if others:  # a board the shared kit lacks travels with the page
            data["backgrounds"] = {name: board_kit(name, size).background for name in others}
        style = f'<link rel="stylesheet" href="{_e(assets.style_name)}">'
        code = f'<script src="{_e(assets.script_name)}"></script>'
    step = first.steps[-1]
    address = "#ply=N" if len(games) == 1 else "#game=G&amp;ply=N"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
        f"{GENERATOR_META}\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)} — gcadj viewer</title>\n{style}</head>\n"
        f'<body>\n{_game_list(games)}<header id="game-head">{first.head}</header>\n<main>\n'
        f'<section id="view"><div id="board-box">{_board_svg(kit, step)}</div>\n'
        '<div id="controls"><button id="first" title="Start (Home)">|◀</button>'
        '<button id="prev" title="Back (←)">◀</button>'
        '<button id="next" title="Forward (→)">▶</button>'
        '<button id="last" title="End (End)">▶|</button>'
        f'<span id="ply-label">{_e(step.label)}</span></div>\n'
        f'<div id="fen-box"><span>FEN</span> <code id="fen">{_e(step.fen)}</code> '
        '<button id="copy" title="Copy the FEN">Copy</button>'
        '<span id="copied" aria-live="polite"></span></div>\n'
        f'<div id="facts-box">{first.facts}</div></section>\n'
        f'<section id="list"><h2>Moves</h2><ol id="moves">{"".join(first.items)}</ol></section>\n'
        '</main>\n<details id="legend" open><summary>Piece letters</summary></details>\n'
        f'<p class="made">Made by gcadj. Keys: ← → Home End. '
        f"Add <code>{address}</code> to the address to open a position.</p>\n"
        f"{_game_templates(games)}"
        f'<script type="application/json" id="game-data">{_json_for_script(data)}</script>\n'
        f'<script type="application/json" id="{GAMES_BLOCK_ID}">'
        f"{_json_for_script({'games': [{'gc': game.gc} for game in games]})}</script>\n"
        f"{code}\n</body></html>\n"
    )


VIEWER_STYLE = """
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{font-family:system-ui,sans-serif;margin:.8em clamp(.5em,3vw,1.5em);color:#1b1b1b;
  max-width:1250px}
h1{font-size:1.4em;margin:.2em 0;overflow-wrap:break-word}h2{font-size:1.1em;margin:0 0 .4em}
.players{margin:.2em 0;color:#444}
.verdict{margin:.4em 0 .8em;padding:.4em .6em;border-radius:4px}
.verdict.legal{background:#e8f4ea}.verdict.illegal{background:#fbe9e9}
main{display:flex;gap:1.5em;align-items:flex-start;flex-wrap:wrap}
main>section{min-width:0}
#view{flex:0 1 500px;min-width:min(300px,100%)}
#board{width:100%;height:auto;max-width:485px;display:block}
#controls{display:flex;flex-wrap:wrap;gap:.3em;align-items:center;margin:.4em 0}
#controls button{font-size:1.1em;min-width:2.4em;padding:.15em .4em;cursor:pointer}
#ply-label{margin-left:.5em;font-size:.95em}
#fen-box{font-size:.85em;margin:.3em 0 .8em;overflow-wrap:anywhere}
#fen{background:#f4f4f4;padding:.1em .3em}
#copied{color:#176b2c;margin-left:.4em}
.facts{border-collapse:collapse;font-size:.9em}
.facts th,.facts td{text-align:left;padding:.1em .6em .1em 0;vertical-align:top}
.facts td{overflow-wrap:break-word;word-break:normal}
#list{flex:1 1 340px;min-width:min(280px,100%)}
#moves{list-style:none;margin:0;padding:0;max-height:560px;overflow-y:auto;
  border:1px solid #ddd;border-radius:4px}
#moves li{padding:.2em .5em;border-bottom:1px solid #eee}
#moves li a{color:inherit;text-decoration:none;display:block}
#moves li.current{background:#fff3b0}
#moves li a:hover{background:#f3f3f3}
.num{display:inline-block;min-width:3.2em;color:#666}
.san{font-weight:bold;display:inline-block;min-width:4.5em}
.gc{color:#555;font-size:.9em}
.comment{font-style:italic;color:#355;font-size:.9em;margin-left:3.2em;overflow-wrap:anywhere}
#moves li.illegal{background:#fbe9e9;color:#8b0000}
#moves li.illegal.current{background:#f5b8b8}
.flag{background:#b00020;color:#fff;border-radius:3px;padding:0 .3em;font-size:.8em}
.finding{margin:.2em 0 .2em 3.2em;font-size:.9em;color:#1b1b1b;overflow-wrap:anywhere}
.category{font-weight:bold;color:#b00020}
.where{color:#666}
.suggestions ul{margin:.1em 0;padding-left:1.2em}
li.unjudged{color:#888}
#legend{margin-top:1.2em;font-size:.9em}
#legend table{border-collapse:collapse;margin:.4em 0;max-width:100%}
#legend th,#legend td{border:1px solid #ddd;padding:.1em .5em;text-align:left;
  overflow-wrap:break-word}
@media (max-width:480px){#legend th,#legend td{padding:.1em .25em;font-size:.92em}
  #moves{max-height:60vh}}
#legend td.letter{font-weight:bold;text-align:center}
.made{color:#777;font-size:.8em}
"""

VIEWER_SCRIPT = """
(function () {
  var K = window.GCADJ_KIT || JSON.parse(document.getElementById('gcadj-kit').textContent);
  var D = JSON.parse(document.getElementById('game-data').textContent);
  var games = D.games, many = games.length > 1;
  var g = 0, steps = games[0].steps, last = steps.length - 1, cur = -1;
  var $ = function (id) { return document.getElementById(id); };
  var items = document.querySelectorAll('#moves [data-ply]');
  var parts = document.querySelectorAll('template.game-parts');
  function part(n, name) {
    return parts[n].content.querySelector('[data-part="' + name + '"]').innerHTML;
  }
  function choose(n) {
    g = Math.max(0, Math.min(games.length - 1, n | 0));
    steps = games[g].steps;
    last = steps.length - 1;
    cur = -1;
    $('background').innerHTML = (D.backgrounds || K.backgrounds)[games[g].bg] ||
      K.backgrounds[games[g].bg];
    if (!many) { return; }
    $('game-head').innerHTML = part(g, 'head');
    $('facts-box').innerHTML = part(g, 'facts');
    $('moves').innerHTML = part(g, 'moves');
    items = document.querySelectorAll('#moves [data-ply]');
    $('game-select').value = String(g + 1);
  }
  function cells(fen) {
    // a FEN's placement and pocket as 66 cells: a1..h8, White's pocket, Black's
    var out = [], field = fen.split(' ')[0], open = field.indexOf('[');
    var rows = (open < 0 ? field : field.slice(0, open)).split('/');
    for (var r = 0; r < rows.length; r++) {
      var sq = (7 - r) * 8;
      for (var i = 0; i < rows[r].length; i++) {
        var c = rows[r].charAt(i);
        if (c >= '1' && c <= '9') { sq += +c; } else { out[sq++] = c; }
      }
    }
    var held = open < 0 ? '' : field.slice(open + 1, field.indexOf(']', open));
    for (var j = 0; j < held.length; j++) {
      var h = held.charAt(j);
      out[h === h.toUpperCase() ? 64 : 65] = h;
    }
    return out;
  }
  function draw(s) {
    var out = [], placed = cells(s.f);
    for (var i = 0; i < 66; i++) {
      var c = placed[i];
      if (c && K.pieces[c]) {
        var p = K.centres[i];
        out.push('<g transform="translate(' + p[0] + ' ' + p[1] + ')">' + K.pieces[c] + '</g>');
      }
    }
    $('marks').innerHTML = s.m;
    $('pieces').innerHTML = out.join('');
    $('turn').innerHTML = K.turn[s.f.split(' ')[1] === 'b' ? 1 : 0];
  }
  function reveal(item) {
    // scroll the move list, never the page: the page opens at its top (title, verdict)
    var box = $('moves'), b = box.getBoundingClientRect(), r = item.getBoundingClientRect();
    if (r.top < b.top) { box.scrollTop -= b.top - r.top; }
    else if (r.bottom > b.bottom) { box.scrollTop += r.bottom - b.bottom; }
  }
  function show(n) {
    n = Math.max(0, Math.min(last, n | 0));
    cur = n;
    var s = steps[n];
    draw(s);
    $('fen').textContent = s.f;
    $('ply-label').textContent = s.l;
    $('copied').textContent = '';
    for (var i = 0; i < items.length; i++) {
      var on = +items[i].getAttribute('data-ply') === n;
      items[i].classList.toggle('current', on);
      if (on) { reveal(items[i]); }
    }
    $('first').disabled = $('prev').disabled = n === 0;
    $('next').disabled = $('last').disabled = n === last;
    var h = (many ? '#game=' + (g + 1) + '&ply=' : '#ply=') + n;
    if (location.hash !== h) {
      try { history.replaceState(null, '', h); } catch (e) { location.hash = h; }
    }
  }
  function fromHash() {
    var game = /(?:#|&)game=(\\d+)/.exec(location.hash);
    var ply = /(?:#|&)ply=(\\d+)/.exec(location.hash);
    return {
      game: game ? parseInt(game[1], 10) - 1 : null,
      ply: ply ? parseInt(ply[1], 10) : null
    };
  }
  function follow() {
    var h = fromHash();
    if (h.game !== null && h.game !== g) {
      choose(h.game);
      show(h.ply === null ? games[g].initial : h.ply);
    } else if (h.ply !== null && h.ply !== cur) {
      show(h.ply);
    }
  }
  window.addEventListener('hashchange', follow);
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (e.target && e.target.tagName === 'SELECT') { return; }
    var to = {ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: last}[e.key];
    if (to === undefined) { return; }
    e.preventDefault();
    show(to);
  });
  if (many) {
    $('game-select').onchange = function () {
      choose(parseInt(this.value, 10) - 1);
      show(games[g].initial);
    };
  }
  $('first').onclick = function () { show(0); };
  $('prev').onclick = function () { show(cur - 1); };
  $('next').onclick = function () { show(cur + 1); };
  $('last').onclick = function () { show(last); };
  function copied(ok) { $('copied').textContent = ok ? 'copied' : 'select and copy'; }
  function fallback() {
    var range = document.createRange();
    range.selectNodeContents($('fen'));
    var sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    copied(ok);
  }
  $('copy').onclick = function () {
    var text = $('fen').textContent;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { copied(true); }, fallback);
    } else { fallback(); }
  };
  $('legend').insertAdjacentHTML('beforeend', K.legend);
  var start = fromHash();
  choose(start.game === null ? 0 : start.game);
  show(start.ply === null ? games[g].initial : start.ply);
})();
"""
