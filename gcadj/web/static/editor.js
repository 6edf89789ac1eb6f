(function () {
  var box = document.getElementById('editor-text'), note = document.getElementById('editor-note');
  if (!box) { return; }
  function offsetOf(text, line, column) {
    var at = 0;
    for (var l = 1; l < line; l++) {
      at = text.indexOf('\n', at);
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
