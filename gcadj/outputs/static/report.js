(function () {
  var table = document.getElementById('games'), body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  function words(r) {  // what a row says, and the precise terms it shows on hover
    var titles = Array.prototype.map.call(r.querySelectorAll('[title]'), function (t) {
      return t.getAttribute('title');
    });
    return (r.textContent + ' ' + titles.join(' ')).toLowerCase();
  }
  var text = rows.map(words);
  var box = document.getElementById('filter'), shown = document.getElementById('shown');
  var chips = document.querySelectorAll('.chip'), want = {s: '', c: '', a: '', m: ''};
  function has(r, kind) {  // a row's data-KIND holds tokens separated by spaces
    var tokens = ' ' + (r.getAttribute('data-' + kind) || '') + ' ';
    return !want[kind] || tokens.indexOf(' ' + want[kind] + ' ') >= 0;
  }
  function apply() {
    var q = box.value.trim().toLowerCase(), n = 0;
    rows.forEach(function (r, i) {
      var ok = (!q || text[i].indexOf(q) >= 0) && has(r, 's') && has(r, 'c') && has(r, 'a')
        && has(r, 'm');
      r.hidden = !ok;
      if (ok) { n++; }
    });
    shown.textContent = n;
    shown.setAttribute('data-query', q);  // the words the count is for, once applied
  }
  var timer = null;
  box.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(apply, 120);
  });
  Array.prototype.forEach.call(chips, function (chip) {
    chip.addEventListener('click', function () {
      var kind = chip.getAttribute('data-kind'), value = chip.getAttribute('data-value');
      want[kind] = want[kind] === value ? '' : value;
      Array.prototype.forEach.call(chips, function (c) {
        var k = c.getAttribute('data-kind');
        c.classList.toggle('on', want[k] === c.getAttribute('data-value'));
      });
      apply();
    });
  });
  table.tHead.querySelectorAll('th').forEach(function (th, col) {
    th.addEventListener('click', function () {
      var up = th.getAttribute('aria-sort') !== 'ascending';
      table.tHead.querySelectorAll('th').forEach(function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
      var num = th.getAttribute('data-type') === 'num';
      var keys = rows.map(function (r, i) {
        var v = r.cells[col].getAttribute('data-v');
        if (v === null) { v = r.cells[col].textContent.trim(); }
        return {r: r, i: i, v: num ? (v === '' ? null : parseFloat(v)) : v};
      });
      function blank(v) { return v === null || v === '' || (num && isNaN(v)); }
      keys.sort(function (a, b) {
        var xe = blank(a.v), ye = blank(b.v);
        if (xe || ye) { return xe === ye ? a.i - b.i : (xe ? 1 : -1); }
        var c = num ? a.v - b.v : a.v.localeCompare(b.v, undefined, {numeric: true});
        if (c === 0) { return a.i - b.i; }
        return up ? c : -c;
      });
      var frag = document.createDocumentFragment();
      rows = keys.map(function (k) { frag.appendChild(k.r); return k.r; });
      text = rows.map(words);
      body.appendChild(frag);
    });
  });
  apply();
})();
