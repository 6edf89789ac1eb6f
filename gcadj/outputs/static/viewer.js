
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
    var game = /(?:#|&)game=(\d+)/.exec(location.hash);
    var ply = /(?:#|&)ply=(\d+)/.exec(location.hash);
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
