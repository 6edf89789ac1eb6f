"""The game viewer's style and script (`gcadj.outputs.viewer` writes them into a page, or
into the two files an audit's pages share).

The script draws a position from the page's data and the kit (`gcadj.outputs.svg_diagram`'s
board, pieces and turn marks, for both sides of the board): it has no drawing code of
its own. It steps through the steps of a game (``#ply=N``; ``#game=G&ply=N`` on a page
of several games; ``&flip=1`` with the board seen from Black's side), keeps the address
in step with what it shows, and keys: ← → Home End, F to flip. A step may branch from an
earlier one (its ``p``: an adjudication's line, a defence of its proof): ◀ and ← go to the
step it follows, ▶ and → to the first step that follows it (along the game first), ▶| and
End to the end of the line it is on. Keys typed into a form
field (the server's editor) are the field's, never the board's.

Every text is 12 px or more on a 390-pixel phone: the smallest, the facts and the
notes, are 0.8 em of the page's 16 px.
"""

from __future__ import annotations

from typing import Final

__all__ = ["VIEWER_SCRIPT", "VIEWER_STYLE"]

VIEWER_STYLE: Final = """
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
code,pre,kbd,samp{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace}
body{font-family:system-ui,sans-serif;margin:.8em clamp(.5em,2vw,1.5em);color:#1b1b1b;
  max-width:1250px}
h1{font-size:1.4em;margin:.2em 0;overflow-wrap:break-word}h2{font-size:1.1em;margin:0 0 .4em}
.players{margin:.2em 0;color:#444}
.verdict{margin:.4em 0 .8em;padding:.4em .6em;border-radius:4px}
.verdict.legal{background:#e8f4ea}.verdict.illegal{background:#fbe9e9}
.verdict p{margin:.2em 0}
.term{text-decoration:underline dotted #888;text-underline-offset:.15em;cursor:help}
.adjudication{margin:-.4em 0 .8em;padding:.4em .6em;border-radius:4px;background:#eef3fb;
  border-left:4px solid #1b4f9c}
.adjudication p{margin:.2em 0}
.adjudication .line ol{display:inline;padding:0;margin:0;list-style:none}
.adjudication .line li{display:inline-block;margin:0 .3em}
.adjudication .line li.current{background:#fff3b0}
.adjudication .line a{color:#1b4f9c}
.adjudication table{border-collapse:collapse;margin:.3em 0;font-size:.9em}
.adjudication th,.adjudication td{border:1px solid #cbd6ea;padding:0 .35em;text-align:center}
.adjudication summary{cursor:pointer}
.adjudication .tree{list-style:none;margin:.1em 0;padding-left:1.1em}
.adjudication .tree a{color:#1b4f9c}
.adjudication .tree a.current{background:#fff3b0}
.adjudication .note,.adjudication .more{font-size:.9em}
.repeat{color:#1b4f9c;font-size:.8em;margin-left:.4em}
#moves li.repeated{border-left:3px solid #1b4f9c}
main{display:flex;gap:1.5em;align-items:flex-start;flex-wrap:wrap}
main>section{min-width:0}
#view{flex:0 1 500px;min-width:min(300px,100%)}
#board{width:100%;height:auto;max-width:494px;display:block}
#controls{display:flex;flex-wrap:wrap;gap:.3em;align-items:center;margin:.4em 0}
#controls button{font-size:1.1em;min-width:2.4em;padding:.15em .4em;cursor:pointer}
#controls #flip{font-size:1em}
#flip[aria-pressed=true]{background:#dfe8f6}
#ply-label{margin:.2em 0 .4em;font-size:.95em;min-height:1.4em}
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
.num{display:inline-block;min-width:3.2em;color:#595959}
.san{font-weight:bold;display:inline-block;min-width:4.5em}
.gc{color:#555;font-size:.9em}
.comment{font-style:italic;color:#355;font-size:.9em;margin-left:3.2em;overflow-wrap:anywhere}
#moves li.illegal{background:#fbe9e9;color:#8b0000}
#moves li.illegal.current{background:#f5b8b8}
#moves li.shown{color:#555}
#moves li.shown.current{background:#e6e6e6}
.flag{background:#b00020;color:#fff;border-radius:3px;padding:0 .3em;font-size:.8em}
.flag.shown{background:#666}
.finding{margin:.2em 0 .2em 3.2em;font-size:.9em;color:#1b1b1b;overflow-wrap:anywhere}
.finding p{margin:.15em 0}
.finding pre,.verdict pre{white-space:pre;overflow-x:auto;background:#fff;border:1px solid #e3c4c4;
  padding:.3em .5em;margin:.3em 0;font-size:1em;line-height:1.25}
.category{font-weight:bold;color:#b00020}
.where{color:#595959}
.hint{color:#444}
.suggestions ul{margin:.1em 0;padding-left:1.2em}
.suggestions li{border:0!important;padding:.1em 0!important}
li.unjudged{color:#767676}
#legend{margin-top:1.2em;font-size:.9em}
#legend table{border-collapse:collapse;margin:.4em 0;max-width:100%}
#legend th,#legend td{border:1px solid #ddd;padding:.1em .5em;text-align:left;
  overflow-wrap:break-word}
@media (max-width:480px){#legend th,#legend td{padding:.1em .25em}
  #moves{max-height:60vh}.finding,.comment{margin-left:.6em}}
#legend td.letter{font-weight:bold;text-align:center}
#games ol{margin:.3em 0;padding-left:1.6em}
.made{color:#595959;font-size:.8em}
.analysis{margin:-.4em 0 .8em;padding:.4em .6em;border-radius:4px;background:#fdf4e7;
  border-left:4px solid #b35c00}
.analysis p{margin:.2em 0}
.analysis .findings{margin:.2em 0;padding-left:1.4em;font-size:.9em}
.analysis .findings li.current{background:#fff3b0}
.balance-graph{display:block;max-width:100%;height:auto;margin:.3em 0}
.mark{color:#b00020;font-weight:bold;margin-right:.3em}
#moves li.mistake{border-left:3px solid #b00020}
#moves li.loses-material:not(.missed-mate):not(.allows-mate){border-left-color:#b35c00}
.analysis-line{margin:.1em 0 .1em 3.2em;font-size:.9em}
.analysis-line ol{display:inline;padding:0;margin:0;list-style:none}
#moves .analysis-line li{display:inline-block;margin:0 .3em;padding:0;border:0}
#moves .analysis-line a{display:inline;color:#1b4f9c}
"""

VIEWER_SCRIPT: Final = """
(function () {
  var K = window.GCADJ_KIT || JSON.parse(document.getElementById('gcadj-kit').textContent);
  var D = JSON.parse(document.getElementById('game-data').textContent);
  var games = D.games, many = games.length > 1;
  var g = 0, steps = games[0].steps, last = steps.length - 1, cur = -1, flip = false;
  var after = [];  // the step ▶ goes to from each step: the first that says it follows it
  var $ = function (id) { return document.getElementById(id); };
  var ITEMS = '#moves [data-ply], #adjudication [data-ply], #analysis [data-ply]';
  var items = document.querySelectorAll(ITEMS);
  var parts = document.querySelectorAll('template.game-parts');
  function part(n, name) {
    return parts[n].content.querySelector('[data-part="' + name + '"]').innerHTML;
  }
  function board() {
    var bg = games[g].bg, own = flip ? K.flipped : K.backgrounds;
    $('background').innerHTML = ((flip ? D.flipped : D.backgrounds) || own)[bg] || own[bg];
  }
  function before(n) {  // the step a step follows: the one before it, or its branch point
    return steps[n].p === undefined ? n - 1 : steps[n].p;
  }
  function end(n) {  // the last step of the line `n` is on
    while (after[n] !== undefined) { n = after[n]; }
    return n;
  }
  function choose(n) {
    g = Math.max(0, Math.min(games.length - 1, n | 0));
    steps = games[g].steps;
    last = steps.length - 1;
    cur = -1;
    after = [];
    for (var i = 1; i <= last; i++) {
      var b = before(i);
      if (after[b] === undefined) { after[b] = i; }
    }
    board();
    if (!many) { return; }
    $('game-head').innerHTML = part(g, 'head');
    $('facts-box').innerHTML = part(g, 'facts');
    $('moves').innerHTML = part(g, 'moves');
    items = document.querySelectorAll(ITEMS);
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
    var out = [], placed = cells(s.f), centres = flip ? K.fcentres : K.centres;
    for (var i = 0; i < 66; i++) {
      var c = placed[i];
      if (c && K.pieces[c]) {
        var p = centres[i];
        out.push('<g transform="translate(' + p[0] + ' ' + p[1] + ')">' + K.pieces[c] + '</g>');
      }
    }
    $('marks').innerHTML = flip ? s.r : s.m;
    $('pieces').innerHTML = out.join('');
    $('turn').innerHTML = K.turn[s.f.split(' ')[1] === 'b' ? 1 : 0];
  }
  function reveal(item) {
    // scroll the move list, never the page: the page opens at its top (title, verdict)
    var box = $('moves');
    if (!box.contains(item)) { return; }
    var b = box.getBoundingClientRect(), r = item.getBoundingClientRect();
    if (r.top < b.top) { box.scrollTop -= b.top - r.top; }
    else if (r.bottom > b.bottom) { box.scrollTop += r.bottom - b.bottom; }
  }
  function address(n) {
    return (many ? '#game=' + (g + 1) + '&ply=' : '#ply=') + n + (flip ? '&flip=1' : '');
  }
  function show(n) {
    n = Math.max(0, Math.min(last, n | 0));
    cur = n;
    var s = steps[n];
    draw(s);
    $('fen').textContent = s.f;
    $('ply-label').textContent = s.l;
    $('copied').textContent = '';
    var shown = null;
    for (var i = 0; i < items.length; i++) {
      var it = items[i];
      var on = +it.getAttribute('data-ply') === n || +it.getAttribute('data-after') === n;
      it.classList.toggle('current', on);
      if (on && !shown) { shown = it; }
    }
    if (shown) { reveal(shown); }
    $('first').disabled = $('prev').disabled = n === 0;
    $('next').disabled = $('last').disabled = after[n] === undefined;
    var h = address(n);
    if (location.hash !== h) {
      try { history.replaceState(null, '', h); } catch (e) { location.hash = h; }
    }
  }
  function turn(on) {
    flip = !!on;
    $('flip').setAttribute('aria-pressed', flip ? 'true' : 'false');
    board();
    if (cur >= 0) { show(cur); }
  }
  function fromHash() {
    var game = /(?:#|&)game=(\\d+)/.exec(location.hash);
    var ply = /(?:#|&)ply=(\\d+)/.exec(location.hash);
    return {
      game: game ? parseInt(game[1], 10) - 1 : null,
      ply: ply ? parseInt(ply[1], 10) : null,
      flip: /(?:#|&)flip=1/.test(location.hash)
    };
  }
  function follow() {
    var h = fromHash();
    if (h.flip !== flip) { turn(h.flip); }
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
    var t = e.target || {};
    if (/^(SELECT|TEXTAREA|INPUT)$/.test(t.tagName || '') || t.isContentEditable) { return; }
    if (e.key === 'f' || e.key === 'F') { e.preventDefault(); turn(!flip); return; }
    var to = {ArrowLeft: cur > 0 ? before(cur) : 0, ArrowRight: after[cur], Home: 0,
      End: end(cur)}[e.key];
    if (!(e.key in {ArrowLeft: 1, ArrowRight: 1, Home: 1, End: 1})) { return; }
    e.preventDefault();
    if (to !== undefined) { show(to); }
  });
  if (many) {
    $('game-select').onchange = function () {
      choose(parseInt(this.value, 10) - 1);
      show(games[g].initial);
    };
  }
  $('first').onclick = function () { show(0); };
  $('prev').onclick = function () { if (cur > 0) { show(before(cur)); } };
  $('next').onclick = function () { if (after[cur] !== undefined) { show(after[cur]); } };
  $('last').onclick = function () { show(end(cur)); };
  $('flip').onclick = function () { turn(!flip); };
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
  flip = start.flip;
  $('flip').setAttribute('aria-pressed', flip ? 'true' : 'false');
  choose(start.game === null ? 0 : start.game);
  show(start.ply === null ? games[g].initial : start.ply);
})();
"""
