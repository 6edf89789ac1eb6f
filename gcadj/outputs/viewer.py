"""A game viewer: one self-contained HTML page to step through a checked game in a browser.

People who study or adjudicate a game want to walk through it, not read a list of FENs.
The page has everything inline (CSS, a small script, the SVG parts of the diagram), loads
nothing and works from ``file://``. The diagram is `gcadj.outputs.svg`'s: the page holds
its fixed parts once (`board_kit`: board, one drawing per piece, turn marks) and, per
position, the placement, the FEN and the `marks` (last move, check or mate, the illegal
move), so a long game stays small and the pictures match ``export --to svg`` exactly.

Steps are positions: step 0 is the start, step N the position after N legal plies, and
for an illegal game one more step, the first illegal ply, shown in the position it was
played in with the move marked in red and the finding (category, reason, suggestions).
``#ply=N`` in the address opens step N and follows the stepping, so a position can be
shared. Without an address the page opens at the last step: the end of the game, or
where it went wrong.

Everything taken from the log (tags, moves as typed, comments, reasons quoting them) is
HTML-escaped; the game data travels as JSON in a non-executed script element with ``<``
escaped, so no log text can close it.
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import re
from dataclasses import dataclass

from gcadj.about import GENERATOR_META
from gcadj.adjudication.verdict import Finding, Verdict
from gcadj.engine.position import Position
from gcadj.engine.squares import BLACK, COLOR_NAMES, WHITE
from gcadj.errors import ExportError
from gcadj.notation.records import GameLog
from gcadj.notation.san import write_line
from gcadj.outputs.export import after_prefix
from gcadj.outputs.html_text import breakable
from gcadj.outputs.legend import piece_legend
from gcadj.outputs.pgn_writer import user_comment_lines
from gcadj.outputs.svg import FONT, BoardKit, board_kit, marked_cells, marks
from gcadj.sources.urls import is_url

__all__ = ["viewer_filename", "write_viewer"]


def viewer_filename(source: str) -> str:
    """The file name of a source's viewer in an audit's viewer folder: readable (the end of
    the source's name) and unique (a digest of the whole name), so the audit's workers and
    the report agree on it without sharing anything."""
    tail = re.split(r"[/\\?=&]", source.rstrip("/"))[-1]
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", tail.rsplit(".", 1)[0] if "." in tail else tail)
    digest = hashlib.sha1(source.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{stem[:40] or 'game'}-{digest}.html"


@dataclass(frozen=True)
class _Step:
    board: str  # 66 symbols: a1..h8, White's pocket, Black's pocket ('.' empty)
    fen: str
    marks: str
    turn: int
    label: str

    def to_json(self) -> dict[str, object]:
        return {"b": self.board, "f": self.fen, "m": self.marks, "t": self.turn, "l": self.label}


def _placement(position: Position) -> str:
    cells = [*position.board, position.pockets[WHITE], position.pockets[BLACK]]
    return "".join("." if piece is None else piece.symbol for piece in cells)


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _dots(white: bool) -> str:
    return "." if white else "..."


def write_viewer(verdict: Verdict, *, size: int = 48) -> str:
    """The viewer page of a game (see the module docstring).

    Works for legal and illegal games and for partial verdicts (a ``syntax-error`` whose
    log holds the readable plies before the unreadable one); raises `ExportError` when
    the verdict has no game at all.
    """
    log = verdict.log
    if log is None:
        raise ExportError(f"{verdict.source}: no game to show ({verdict.status})")
    kit = board_kit(log.pocket_file, size)
    written = write_line(verdict.start_fen, verdict.moves, log.pocket_file)
    position = Position(verdict.start_fen)
    steps = [
        _Step(
            _placement(position), position.fen(), marks(position, size=size), position.turn, "Start"
        )
    ]
    items = [_start_item(log)]
    for i, (wm, record) in enumerate(zip(written, log.records, strict=False), 1):
        position.push(wm.move)
        name = f"{wm.move_number}{_dots(wm.white)} {wm.san}"
        steps.append(
            _Step(
                _placement(position),
                wm.fen_after,
                marks(position, last_move=wm.move, pocket_file=log.pocket_file, size=size),
                position.turn,
                f"Ply {i}: {name}",
            )
        )
        items.append(
            _move_item(
                i,
                wm.move_number,
                wm.white,
                wm.san,
                record.text,
                wm.gc,
                user_comment_lines(record.comment),
            )
        )
    rest = after_prefix(verdict, len(written))
    finding = verdict.first_illegal
    for j, (record, number, white) in enumerate(rest):
        comments = user_comment_lines(record.comment)
        if j == 0 and finding is not None:
            ply = len(written) + 1
            try:
                illegal = marked_cells(record)
                picture = marks(
                    position,
                    last_move=written[-1].move if written else None,
                    illegal=illegal,
                    pocket_file=log.pocket_file,
                    size=size,
                )
            except (ValueError, KeyError, IndexError):  # a square the diagram cannot place
                picture = marks(position, pocket_file=log.pocket_file, size=size)
            steps.append(
                _Step(
                    _placement(position),
                    position.fen(),
                    picture,
                    position.turn,
                    f"Ply {ply}: {number}{_dots(white)} {record.text} is illegal; "
                    "the position it was played in",
                )
            )
            items.append(_illegal_item(ply, number, white, record.text, comments, finding))
        else:
            items.append(_unjudged_item(number, white, record.text, comments))
    if verdict.status == "syntax-error" and verdict.error:
        items.append(_unreadable_item(len(written) + 1, verdict.error))
    return _page(verdict, log, kit, steps, items)


# -- the move list ---------------------------------------------------------------------


def _comment_html(comments: list[str]) -> str:
    if not comments:
        return ""
    return f'<div class="comment">{"<br>".join(_e(line) for line in comments)}</div>'


def _start_item(log: GameLog) -> str:
    return (
        '<li data-ply="0"><a href="#ply=0"><span class="num">Start</span></a>'
        f"{_comment_html(user_comment_lines(log.leading_comment))}</li>"
    )


def _move_item(
    ply: int, number: int, white: bool, san: str, typed: str, canonical: str, comments: list[str]
) -> str:
    title = f' title="Game Courier, canonical: {_e(canonical)}"' if canonical != typed else ""
    return (
        f'<li data-ply="{ply}" class="{"w" if white else "b"}"><a href="#ply={ply}">'
        f'<span class="num">{number}{_dots(white)}</span> <span class="san">{_e(san)}</span> '
        f'<code class="gc"{title}>{_e(typed)}</code></a>{_comment_html(comments)}</li>'
    )


def _finding_html(finding: Finding) -> str:
    parts = [
        f'<div class="finding"><span class="category">{_e(finding.category)}</span> '
        f'{_e(finding.reason)} <span class="where">(line {finding.line}, column '
        f"{finding.column})</span>"
    ]
    suggestions = getattr(finding, "suggestions", ())
    if suggestions:
        parts.append('<div class="suggestions">Did you mean:<ul>')
        for s in suggestions:
            parts.append(
                f"<li><code>{_e(s.text)}</code> ({_e(s.san)})"
                f"{' — ' + _e(s.why) if s.why else ''}</li>"
            )
        parts.append("</ul></div>")
    parts.append("</div>")
    return "".join(parts)


def _illegal_item(
    ply: int, number: int, white: bool, typed: str, comments: list[str], finding: Finding
) -> str:
    return (
        f'<li data-ply="{ply}" class="illegal"><a href="#ply={ply}">'
        f'<span class="num">{number}{_dots(white)}</span> <code class="gc">{_e(typed)}</code> '
        f'<span class="flag">illegal</span></a>{_finding_html(finding)}'
        f"{_comment_html(comments)}</li>"
    )


def _unjudged_item(number: int, white: bool, typed: str, comments: list[str]) -> str:
    return (
        f'<li class="unjudged" title="not judged: the replay stops at the first illegal ply">'
        f'<span class="num">{number}{_dots(white)}</span> <code class="gc">{_e(typed)}</code>'
        f"{_comment_html(comments)}</li>"
    )


def _unreadable_item(ply: int, error: str) -> str:
    return (
        f'<li class="illegal unreadable"><span class="num">Ply {ply}</span> '
        f'<span class="flag">unreadable</span><div class="finding">{_e(error)}</div></li>'
    )


# -- the page --------------------------------------------------------------------------


def _verdict_html(verdict: Verdict, legal: int) -> str:
    finding = verdict.first_illegal
    if verdict.status == "legal":
        how = verdict.termination or "ongoing"
        return (
            f'<p class="verdict legal">Legal, {verdict.plies} plies. Result '
            f"<b>{_e(verdict.result)}</b> ({_e(how)}).</p>"
        )
    if verdict.status == "illegal" and finding is not None:
        return (
            f'<p class="verdict illegal">Illegal at ply {finding.ply} '
            f"({finding.move_number}{_dots(finding.side == 'white')} "
            f"<code>{_e(finding.text)}</code>) [{_e(finding.category)}]: {_e(finding.reason)}. "
            f"{legal} legal plies before it, {verdict.plies} in the log. Result "
            f"<b>{_e(verdict.result)}</b>.</p>"
        )
    return (
        f'<p class="verdict illegal">Legal for {legal} plies; ply {legal + 1} unreadable: '
        f"{_e(verdict.error)}. Result <b>{_e(verdict.result)}</b>.</p>"
    )


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
    if log.pocket_file != "i":
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
        '<details id="legend" open><summary>Piece letters</summary><table>'
        "<tr><th>Letter</th><th>Piece</th><th>Moves</th><th>Class</th></tr>"
        f"{rows}</table><p>White's pieces are light discs with upper-case letters, Black's "
        "dark ones; the King is ringed. A piece pocketed from ranks 1–7 may mutate into "
        "another of its class; one pocketed from rank 8 must promote to the next class.</p>"
        "</details>"
    )


def _board_svg(kit: BoardKit, step: _Step) -> str:
    """The diagram's fixed parts and the shown step's marks; the script adds the pieces
    (the page holds each piece's drawing once, not once per square)."""
    return (
        f'<svg id="board" xmlns="http://www.w3.org/2000/svg" width="{kit.width}" '
        f'height="{kit.height}" viewBox="0 0 {kit.width} {kit.height}" font-family="{FONT}" '
        'role="img" aria-label="board">'
        f'<rect width="{kit.width}" height="{kit.height}" fill="#ffffff"/>{kit.background}'
        f'<g id="marks">{step.marks}</g><g id="pieces"></g>'
        f'<g id="turn">{kit.turn[step.turn]}</g></svg>'
    )


def _json_for_script(data: object) -> str:
    """JSON that is safe inside a <script> element: no '<' can end it early."""
    return (
        json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        .replace("<", "\\u003c")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def _page(
    verdict: Verdict, log: GameLog, kit: BoardKit, steps: list[_Step], items: list[str]
) -> str:
    white, black = log.tag("White"), log.tag("Black")
    title = f"{white or '?'} – {black or '?'}" if white or black else verdict.source
    initial = len(steps) - 1
    used = {symbol for step in steps for symbol in step.board if symbol != "."}
    data = {
        "steps": [step.to_json() for step in steps],
        "pieces": {symbol: kit.pieces[symbol] for symbol in sorted(used)},
        "centres": [[round(x, 2), round(y, 2)] for x, y in kit.centres],
        "turn": list(kit.turn),
        "initial": initial,
    }
    first = steps[initial]
    players = ""
    if white or black:
        players = (
            f'<p class="players">{COLOR_NAMES[WHITE]}: {_e(white or "?")} · '
            f"{COLOR_NAMES[BLACK]}: {_e(black or '?')}</p>"
        )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
        f"{GENERATOR_META}\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)} — gcadj viewer</title>\n<style>{VIEWER_STYLE}</style></head>\n"
        f"<body>\n<header><h1>{_e(title)}</h1>{players}"
        f"{_verdict_html(verdict, len(steps) - 1 - (1 if verdict.first_illegal else 0))}"
        "</header>\n<main>\n"
        f'<section id="view"><div id="board-box">{_board_svg(kit, first)}</div>\n'
        '<div id="controls"><button id="first" title="Start (Home)">|◀</button>'
        '<button id="prev" title="Back (←)">◀</button>'
        '<button id="next" title="Forward (→)">▶</button>'
        '<button id="last" title="End (End)">▶|</button>'
        f'<span id="ply-label">{_e(first.label)}</span></div>\n'
        f'<div id="fen-box"><span>FEN</span> <code id="fen">{_e(first.fen)}</code> '
        '<button id="copy" title="Copy the FEN">Copy</button>'
        '<span id="copied" aria-live="polite"></span></div>\n'
        f"{_facts_html(verdict, log)}</section>\n"
        f'<section id="list"><h2>Moves</h2><ol id="moves">{"".join(items)}</ol></section>\n'
        f"</main>\n{_legend_html()}\n"
        f'<p class="made">Made by gcadj. Keys: ← → Home End. '
        "Add <code>#ply=N</code> to the address to open a position.</p>\n"
        f'<script type="application/json" id="game-data">{_json_for_script(data)}</script>\n'
        f"<script>{VIEWER_SCRIPT}</script>\n</body></html>\n"
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
  var D = JSON.parse(document.getElementById('game-data').textContent);
  var steps = D.steps, last = steps.length - 1, cur = -1;
  var $ = function (id) { return document.getElementById(id); };
  var items = document.querySelectorAll('#moves [data-ply]');
  function draw(s) {
    var out = [];
    for (var i = 0; i < s.b.length; i++) {
      var c = s.b.charAt(i);
      if (c !== '.') {
        var p = D.centres[i];
        out.push('<g transform="translate(' + p[0] + ' ' + p[1] + ')">' + D.pieces[c] + '</g>');
      }
    }
    $('marks').innerHTML = s.m;
    $('pieces').innerHTML = out.join('');
    $('turn').innerHTML = D.turn[s.t];
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
    var h = '#ply=' + n;
    if (location.hash !== h) {
      try { history.replaceState(null, '', h); } catch (e) { location.hash = h; }
    }
  }
  function fromHash() {
    var m = /ply=(\\d+)/.exec(location.hash);
    return m ? parseInt(m[1], 10) : null;
  }
  window.addEventListener('hashchange', function () {
    var n = fromHash();
    if (n !== null && n !== cur) { show(n); }
  });
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var to = {ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: last}[e.key];
    if (to === undefined) { return; }
    e.preventDefault();
    show(to);
  });
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
  var start = fromHash();
  show(start === null ? D.initial : start);
})();
"""
