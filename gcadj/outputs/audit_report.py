"""Summaries, CSV and a self-contained HTML report, all read back from an audit's JSONL.

Nothing is kept in memory per game but the report's row order (a key and a file offset
per line): each product streams the file, so a report of a huge archive costs file
size, not RAM. The report stays small (about 1 KB a game): no diagram in it, each game
the audit wrote a viewer page for (`gcadj.outputs.viewer`; by default the failing ones)
links to it, and the page has them. The files are written to a temporary name and
renamed, so a half-written report never replaces a good one.

Everything shown in the report that came from a page or a log (sources, move texts,
reasons quoting them, warnings, error messages, players) is HTML-escaped: a player called
``<script>`` is text, not code. What a row shows besides the verdict (the players, the
link to the game's page: `GameFacts`) comes from whoever judged the game: the report
reads no source again, and links only the http(s) addresses it is given.
"""

from __future__ import annotations

import csv
import html
import json
import logging
import os
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Final, NamedTuple
from urllib.parse import quote

from gcadj.about import GENERATOR_META
from gcadj.analysis.options import INTERNAL_REASON
from gcadj.judging.verdict import outcome_of
from gcadj.outputs.files import atomic_text_file
from gcadj.outputs.html_text import breakable
from gcadj.outputs.plain_words import category_sentence, move_words, term
from gcadj.outputs.report import failing_line
from gcadj.vocabulary import MistakeKind, Result, Side, Status, VerdictKind
from gcadj.words import plural

log = logging.getLogger(__name__)

CSV_COLUMNS: Final = (
    "source",
    "status",
    "plies",
    "legal_plies",
    "result",
    "termination",
    "first_illegal_ply",
    "move_number",
    "side",
    "move",
    "category",
    "reason",
    "warnings",
    "error",
)
ADJUDICATION_COLUMNS: Final = (
    "adjudication",
    "adjudicated_result",
    "mate_in",
    "mate_winner",
    "adjudication_reason",
)
"""The CSV's last columns when the audit adjudicated its games (``audit --adjudicate``):
the class, the proposed result, the length of the forced mate (moves of the winner) and
who mates (``white``, ``black``), and the adjudication's reason (the JSON's words; the
first illegal ply's own reason is the ``reason`` column)."""
ANALYSIS_COLUMNS: Final = ("missed_mates", "mates_allowed", "material_lost")
"""The CSV's last columns when the audit analysed its games (``audit --analyse``): how many
findings of each kind (missed-mate, allows-mate, loses-material) the game's analysis has
(empty: a game not analysed, having no legal ply)."""
ANALYSIS_KEYS: Final = dict(zip(ANALYSIS_COLUMNS, MistakeKind, strict=True))
"""Each analysis column's kind of finding."""
MISTAKES_TOKEN: Final = "has-mistakes"
"""The report's filter token of an analysed game with at least one finding."""
MISTAKE_WORDS: Final = {MISTAKES_TOKEN: "has mistakes"}
MATE_TOKENS: Final = {"white": "mate-white", "black": "mate-black"}
"""The report's filter token of a game with a proved forced mate, by the side that mates
(whatever the class: a game lost on time while holding a mate is recorded, and its mate
is still the winner's)."""
MATE_WORDS: Final = {"mate-white": "White mates", "mate-black": "Black mates"}


def iter_records(path: Path) -> Iterator[dict[str, Any]]:
    """The verdicts of an audit file, one dict per line (a torn last line is skipped)."""
    with path.open("rb") as handle:
        for raw in handle:
            if not raw.endswith(b"\n"):
                break
            record = json.loads(raw)
            if isinstance(record, dict):
                yield record


class Failing(NamedTuple):
    """A game that is not legal, as ``gcadj check -q`` prints it (`failing_line`)."""

    status: str
    line: str


@dataclass
class Summary:
    """Counts over an audit file: by status, by termination, by first illegal category; and
    the first failing games (not legal), `failing_total` in all."""

    total: int = 0
    by_status: Counter[str] = field(default_factory=Counter)
    by_termination: Counter[str] = field(default_factory=Counter)
    by_category: Counter[str] = field(default_factory=Counter)
    failing: list[Failing] = field(default_factory=list)
    failing_total: int = 0
    # by `outcome_of`: the statuses, with the internal errors apart from the other errors
    by_outcome: Counter[str] = field(default_factory=Counter)
    # the adjudicated games (``audit --adjudicate``) by class, and those with a forced mate
    # by the side that mates
    by_adjudication: Counter[str] = field(default_factory=Counter)
    mates_by_winner: Counter[str] = field(default_factory=Counter)
    # the analysed games (``audit --analyse``), and how many have a finding of each kind
    # (`MISTAKES_TOKEN`: any finding)
    analysed: int = 0
    games_by_mistake: Counter[str] = field(default_factory=Counter)

    @property
    def forced_mates(self) -> int:
        """How many adjudicated games hold a proved forced mate, either side's."""
        return sum(self.mates_by_winner.values())

    @property
    def adjudicated(self) -> bool:
        """Were some of the games adjudicated? (The CSV and the report then say how.)"""
        return bool(self.by_adjudication)


def summarize(path: Path, *, failing: int | None = 10) -> Summary:
    """Counts over an audit file, and the first `failing` failing games (None: all)."""
    summary = Summary()
    for record in iter_records(path):
        summary.total += 1
        summary.by_status[str(record.get("status"))] += 1
        if record.get("status") != Status.LEGAL:
            summary.failing_total += 1
            if failing is None or len(summary.failing) < failing:
                summary.failing.append(Failing(str(record.get("status")), failing_line(record)))
        outcome = outcome_of(record.get("source"), record.get("status"), record.get("error"))
        adjudication = adjudication_of(record)
        if adjudication:
            summary.by_adjudication[str(adjudication.get("class"))] += 1
            mate = adjudication.get("mate")
            if isinstance(mate, dict):
                summary.mates_by_winner[str(mate.get("winner"))] += 1
            if str(adjudication.get("reason", "")).startswith(INTERNAL_REASON):
                outcome = VerdictKind.INTERNAL_ERROR  # gcadj failed adjudicating it: a bug
        analysis = analysis_of(record)
        if analysis:
            summary.analysed += 1
            for token in analysis_tokens(analysis):
                summary.games_by_mistake[token] += 1
            if analysis.get("error"):
                outcome = VerdictKind.INTERNAL_ERROR  # gcadj failed analysing it: a bug
        summary.by_outcome[outcome] += 1
        if record.get("termination"):
            summary.by_termination[str(record["termination"])] += 1
        first = record.get("first_illegal")
        if isinstance(first, dict) and first.get("category"):
            summary.by_category[str(first["category"])] += 1
    return summary


def adjudication_of(record: dict[str, Any]) -> dict[str, Any]:
    """A JSON line's ``adjudication`` (``audit --adjudicate``), or {} when it has none."""
    adjudication = record.get("adjudication")
    return adjudication if isinstance(adjudication, dict) else {}


def analysis_of(record: dict[str, Any]) -> dict[str, Any]:
    """A JSON line's ``analysis`` (``audit --analyse``), or {} when it has none."""
    analysis = record.get("analysis")
    return analysis if isinstance(analysis, dict) else {}


def analysis_counts(analysis: dict[str, Any]) -> dict[str, int]:
    """The findings of an analysis by kind (every kind listed), from its ``counts``."""
    counts = analysis.get("counts")
    counts = counts if isinstance(counts, dict) else {}
    return {
        kind.value: int(counts[kind.value]) if isinstance(counts.get(kind.value), int) else 0
        for kind in MistakeKind
    }


def analysis_tokens(analysis: dict[str, Any]) -> list[str]:
    """The report's filter tokens of an analysed game (`data-m`): `MISTAKES_TOKEN` when it
    has a finding, and each kind it has."""
    kinds = [kind for kind, count in analysis_counts(analysis).items() if count]
    return [MISTAKES_TOKEN, *kinds] if kinds else []


def analysis_cells(record: dict[str, Any]) -> list[object]:
    """The counts of the game's findings, as the CSV's `ANALYSIS_COLUMNS` hold them (empty
    cells: the game was not analysed)."""
    analysis = analysis_of(record)
    if not analysis:
        return [None] * len(ANALYSIS_COLUMNS)
    counts = analysis_counts(analysis)
    return [counts[kind.value] for kind in ANALYSIS_KEYS.values()]


def adjudication_cells(record: dict[str, Any]) -> list[object]:
    """The adjudication's class, proposed result, mate length and winner (None: no mate)
    and reason, as the CSV's `ADJUDICATION_COLUMNS` hold them."""
    adjudication = adjudication_of(record)
    mate = adjudication.get("mate")
    moves = mate.get("moves") if isinstance(mate, dict) else None
    winner = mate.get("winner") if isinstance(mate, dict) else None
    return [
        adjudication.get("class"),
        adjudication.get("result"),
        moves,
        winner,
        adjudication.get("reason"),
    ]


def _visible(char: str) -> str:
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures: NUL is ␀, LF is ␊, TAB is ␉
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"<U+{code:04X}>"  # C1 controls, LINE SEPARATOR, PARAGRAPH SEPARATOR


# Every control character (C0, DEL, C1) and the two Unicode line separators.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def csv_cell(value: object) -> str:
    """A CSV cell's text: no control character, each replaced by a visible stand-in.

    C0 controls and DEL become their Unicode Control Pictures (a line break of a
    multi-line error message is ``␊``, a tab ``␉``, NUL ``␀``, DEL ``␡``); C1 controls and
    U+2028/U+2029 become ``<U+0085>``-style names. So one game is one physical line of the
    file for every CSV reader and line tool, and nothing invisible hides in a cell.
    """
    text = "" if value is None else str(value)
    return _CONTROL.sub(lambda m: _visible(m.group()), text)


def csv_row(
    record: dict[str, Any], *, adjudicated: bool = False, analysed: bool = False
) -> list[str]:
    """One game's CSV cells (`CSV_COLUMNS`, then `ADJUDICATION_COLUMNS` when `adjudicated`,
    then `ANALYSIS_COLUMNS` when `analysed`)."""
    first = record.get("first_illegal") or {}
    values: list[object] = [
        record.get("source"),
        record.get("status"),
        record.get("plies"),
        record.get("legal_plies"),
        record.get("result"),
        record.get("termination"),
        first.get("ply"),
        first.get("move_number"),
        first.get("side"),
        first.get("text"),
        first.get("category"),
        first.get("reason"),
        " | ".join(record.get("warnings") or []),
        record.get("error"),
    ]
    if adjudicated:
        values += adjudication_cells(record)
    if analysed:
        values += analysis_cells(record)
    return [csv_cell(value) for value in values]


CSV_HEADER: Final = ",".join(CSV_COLUMNS)  # the first line of every CSV gcadj writes
ADJUDICATED_CSV_HEADER: Final = ",".join(CSV_COLUMNS + ADJUDICATION_COLUMNS)


def csv_columns(*, adjudicated: bool = False, analysed: bool = False) -> tuple[str, ...]:
    """The columns of an audit's CSV: `CSV_COLUMNS`, then the adjudication's and the
    analysis's when the audit made them."""
    return (
        CSV_COLUMNS
        + (ADJUDICATION_COLUMNS if adjudicated else ())
        + (ANALYSIS_COLUMNS if analysed else ())
    )


CSV_HEADERS: Final = frozenset(
    ",".join(csv_columns(adjudicated=adjudicated, analysed=analysed))
    for adjudicated in (False, True)
    for analysed in (False, True)
)
"""The first line of every CSV gcadj writes, whichever stages the audit ran."""


def is_audit_csv(head: str) -> bool:
    """Is this the start of a CSV gcadj wrote? Its first line is exactly one of
    `CSV_HEADERS` (`CSV_HEADER`, and its columns of an audit that adjudicated or analysed)."""
    return head.split("\n", 1)[0].rstrip("\r") in CSV_HEADERS


def write_csv(
    jsonl: Path, target: Path, *, adjudicated: bool = False, analysed: bool = False
) -> int:
    """One row per game, values as in the JSON (control characters made visible by
    `csv_cell`), with the csv module's quoting and nothing more.

    Cells are not defused against spreadsheet formulas: a move such as ``@-d5`` or
    ``-d4`` (or any text starting with ``=``, ``+``, ``-``, ``@``) is written as typed,
    because it is the data. A spreadsheet that evaluates such cells on import may read
    them as formulas; import the file with text columns. When the audit `adjudicated` its
    games, five columns follow (`ADJUDICATION_COLUMNS`; empty for a game without one); when
    it `analysed` them, three more (`ANALYSIS_COLUMNS`: the counts of its findings).
    """
    rows = 0
    with atomic_text_file(target, newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(csv_columns(adjudicated=adjudicated, analysed=analysed))
        for record in iter_records(jsonl):
            writer.writerow(csv_row(record, adjudicated=adjudicated, analysed=analysed))
            rows += 1
    return rows


# ---------------------------------------------------------------------------------------
# HTML


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


class GameFacts(NamedTuple):
    """What the report shows of a game besides its verdict, taken from the judged game by
    whoever judged it (the report reads no source): where the game can be seen (an http(s)
    address: the source's URL, or its log's Site tag), and the players (shown for an
    illegal game)."""

    link: str | None = None
    white: str | None = None
    black: str | None = None


FactsLookup = Callable[[str], "GameFacts | None"]
"""The facts of a game, by its source (None: none known)."""

LinkLookup = Callable[[str], "str | None"]
"""The address of a game's viewer, by its source (None: it has none)."""


# -- the games' order ---------------------------------------------------------------


def _order_key(source: str, order: Mapping[str, int] | None, position: int) -> tuple[int, ...]:
    """Where a game's row goes: its source's place among the sources given (a game of a
    multi-game file, ``all.pgn#3``, after its file's place, by number); a source the
    order does not know (an older run, or no order) after them all, in file order."""
    if order:
        if source in order:
            return (0, order[source], 0, position)
        base, hash_mark, number = source.rpartition("#")
        if hash_mark and number.isdigit() and base in order:
            return (0, order[base], int(number), position)
    return (1, 0, 0, position)


@dataclass
class _Rows:
    """Where each line of an audit file is, in the order of its source, and the folder
    every source shares (shown once above the table rather than in every row)."""

    offsets: list[int]
    common: str


def _plan_rows(jsonl: Path, order: Mapping[str, int] | None) -> _Rows:
    """One pass over the file: (key, offset) per line, a few dozen bytes a game."""
    keys: list[tuple[tuple[int, ...], int]] = []
    common: str | None = None
    with jsonl.open("rb") as handle:
        offset = 0
        for position, raw in enumerate(handle):
            if not raw.endswith(b"\n"):
                break
            record = json.loads(raw)
            if isinstance(record, dict):
                source = str(record.get("source"))
                keys.append((_order_key(source, order, position), offset))
                folder = source[: source.rfind("/") + 1]
                if common is None:
                    common = folder
                elif not folder.startswith(common):
                    # by characters on purpose: URLs too; cut back to a "/" below
                    common = os.path.commonprefix([common, folder])  # noqa: RUF071
                    common = common[: common.rfind("/") + 1]
            offset += len(raw)
    keys.sort()
    return _Rows([where for _, where in keys], common or "")


def _records_at(jsonl: Path, offsets: list[int]) -> Iterator[dict[str, Any]]:
    with jsonl.open("rb") as handle:
        for where in offsets:
            handle.seek(where)
            yield json.loads(handle.readline())


# -- the page --------------------------------------------------------------------------

STYLE: Final = """
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
code,pre,kbd,samp{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace}
body{font-family:system-ui,sans-serif;margin:.6em clamp(.5em,2vw,1.5em);color:#1b1b1b;
  max-width:1400px}
h1{font-size:1.3em;margin:.1em 0}h2{font-size:1.05em;margin:.5em 0 .2em}
p{margin:.25em 0}
table{border-collapse:collapse}
th,td{border:1px solid #ddd;padding:.15em .4em;text-align:left;vertical-align:top}
th{background:#f0f0f0}
code{background:#f4f4f4;padding:0 .2em}
.intro{display:flex;flex-wrap:wrap;gap:0 1.2em;align-items:baseline}
details.summary-box>summary{cursor:pointer;margin:.2em 0}
.summary{display:flex;gap:1.5em;flex-wrap:wrap;align-items:flex-start;margin:.3em 0}
.summary table{font-size:.9em}
.summary td.n{text-align:right}
.chart{max-width:100%;height:auto}
.legal{color:#176b2c}.illegal{color:#b00020;font-weight:bold}
.syntax-error,.error{color:#8a5300;font-weight:bold}
#tools{display:flex;gap:.3em .6em;flex-wrap:wrap;align-items:center;margin:.3em 0}
#filter{font-size:1em;padding:.15em .4em;width:22em;max-width:100%}
#tools-chips{line-height:1.65}
.chip{border:1px solid #bbb;background:#fafafa;border-radius:1em;padding:0 .6em;
  cursor:pointer;font-size:.8em}
.chip.on{background:#1b4f9c;color:#fff;border-color:#1b4f9c}
#shown{font-weight:bold}
.hint{font-size:.85em;color:#444;overflow-wrap:break-word}
#scroller{max-height:calc(100vh - 2em);overflow:auto;border:1px solid #ccc}
#games{width:100%;table-layout:fixed;font-size:.84em;border:0;line-height:1.25}
#games thead th{position:sticky;top:0;z-index:1;cursor:pointer;user-select:none;
  box-shadow:0 1px 0 #bbb;font-size:.92em;line-height:1.15}
#games th[aria-sort=ascending]::after{content:" \25B2"}
#games th[aria-sort=descending]::after{content:" \25BC"}
#games td{overflow-wrap:break-word;padding:.1em .35em}
#games tbody tr:nth-child(even){background:#fafafa}
#games tr[hidden]{display:none}
.c-n{width:2.9em}.c-src{width:13%}.c-st{width:6.2em}.c-pl{width:3.3em}.c-lp{width:3.7em}
.c-res{width:5.6em}.c-term{width:7.2em}.c-ply{width:9em}.c-cat{width:12.5em}.c-adj{width:16em}
.c-ana{width:17em}.finding{font-size:.92em}.finding b{color:#9c1b1b}
.why,.adj-note{font-size:.92em;color:#333}.adj-note{color:#5a4300}
.note+.note::before{content:" · ";color:#888}
.view{white-space:nowrap}
.made{color:#777;font-size:.8em}
@media (max-width:760px){
  #scroller{max-height:none;overflow:visible;border:0}
  #games,#games tbody{display:block;width:100%}
  #games colgroup,#games thead{display:none}
  #games tr{display:block;border:1px solid #ccc;border-radius:6px;margin:0 0 .5em;
    padding:.3em .4em}
  #games td{display:inline-block;border:0;padding:.05em .5em .05em 0;vertical-align:baseline}
  #games td:nth-child(2),#games td:last-child{display:block}
  #games td:empty{display:none}
  #games td[data-label]::before{content:attr(data-label) ": ";color:#666;font-weight:normal}
  #games td:nth-child(2){font-weight:bold;font-size:1.05em}
  #games td:first-child{float:left;color:#666;padding-right:.4em}
  #games td:first-child::before{content:"#"}
}
"""

SCRIPT: Final = r"""
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
"""

GAME_COLUMNS: Final = (
    ("#", "num", "c-n"),
    ("Source", "text", "c-src"),
    ("Status", "text", "c-st"),
    ("Plies", "num", "c-pl"),
    ("Legal plies", "num", "c-lp"),
    ("Result", "text", "c-res"),
    ("Termination", "text", "c-term"),
    ("First illegal move", "num", "c-ply"),
    ("Category", "text", "c-cat"),
    ("Notes", "text", "c-notes"),
)
ADJUDICATION_COLUMN: Final = ("Adjudication", "text", "c-adj")  # after Category, if any
ANALYSIS_COLUMN: Final = ("Analysis", "num", "c-ana")  # after them, if any: its findings
FINDINGS_SHOWN: Final = 6  # findings listed in a row's Analysis cell (the viewer has all)
NOTE_LIMIT: Final = 400  # characters of one note (an error, a warning) in a row


def _counts_table(title: str, counts: Counter[str]) -> str:
    rows = "".join(
        f'<tr><td>{_e(key)}</td><td class="n">{count}</td></tr>'
        for key, count in counts.most_common()
    )
    return (
        f"<table><tr><th>{_e(title)}</th><th>games</th></tr>"
        f"{rows or '<tr><td colspan=2>none</td></tr>'}</table>"
    )


def bar_chart(title: str, counts: Counter[str], width: int = 420) -> str:
    """A horizontal bar chart as inline SVG: one labelled bar per key, longest first."""
    items = counts.most_common()
    if not items:
        return ""
    line, label_w, count_w = 19, 190, 50
    top = max(n for _, n in items)
    height = line * len(items) + 26
    bars = [
        f'<text x="0" y="16" font-size="15" font-weight="bold">{_e(title)}</text>',
    ]
    for i, (key, n) in enumerate(items):
        y = 24 + i * line
        w = max(1.0, (width - label_w - count_w) * n / top)
        bars.append(
            f'<text x="{label_w - 6}" y="{y + 14}" font-size="14" text-anchor="end">'
            f"{_e(key)}</text>"
            f'<rect x="{label_w}" y="{y + 3}" width="{w:.1f}" height="{line - 5}" fill="#4a78b8">'
            f"<title>{_e(key)}: {n}</title></rect>"
            f'<text x="{label_w + w + 4:.1f}" y="{y + 14}" font-size="14">{n}</text>'
        )
    return (
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" '
        f'role="img" aria-label="{_e(title)}">{"".join(bars)}</svg>'
    )


def _chips(kind: str, counts: Counter[str], labels: Mapping[str, str] | None = None) -> str:
    """One-click filters: a button per key (shown as its label, if `labels` has one); a
    category's is its term, short enough for a row of chips, with its sentence on hover,
    as the rows show it."""
    return "".join(
        f'<button type="button" class="chip" data-kind="{kind}" data-value="{_e(key)}"'
        + (f' title="{_e(category_sentence(key))}"' if kind == "c" else "")
        + f">{_e((labels or {}).get(key, key))} ({n})</button>"
        for key, n in counts.most_common()
    )


def _adjudication_chips(summary: Summary) -> str:
    """The report's filters by adjudication class, and by the side that holds a forced
    mate ("White mates", "Black mates", whatever the class)."""
    counts = Counter(summary.by_adjudication)
    for winner, n in summary.mates_by_winner.items():
        counts[MATE_TOKENS.get(winner, f"mate-{winner}")] = n
    return f" Adjudication: {_chips('a', counts, MATE_WORDS)}"


def _adjudication_cell(record: dict[str, Any]) -> tuple[str, str]:
    """The report's Adjudication cell of a game, and its filter tokens (`data-a`): the
    class, and the mating side's token (`MATE_TOKENS`) when a mate was proved. The cell
    says, visibly, the class and result, who mates in how many, which position was
    adjudicated when it is not the game's last (in a player's words, the JSON's on hover),
    the reason about the board, and the notes."""
    adjudication = adjudication_of(record)
    if not adjudication:
        return "<td></td>", ""
    kind, result = str(adjudication.get("class")), str(adjudication.get("result"))
    mate = adjudication.get("mate")
    words = f"<b>{_e(kind)} {_e(result)}</b>"
    tokens = kind
    if isinstance(mate, dict):
        winner = str(mate.get("winner"))
        words += f" · {_e(winner.capitalize())} mates in {_e(mate.get('moves'))}"
        tokens += f" {MATE_TOKENS.get(winner, f'mate-{winner}')}"
    reason = str(adjudication.get("reason", ""))
    board = adjudication.get("board_reason")
    why = _e(_clip(reason))
    if isinstance(board, str) and board and reason.endswith(board):
        where = reason[: len(reason) - len(board)].rstrip(": ")
        why = f"{term(_cap(_position_words(record)), where)}: {_e(_clip(board))}"
    notes = "".join(
        f'<div class="adj-note">note: {_e(_clip(str(note)))}</div>'
        for note in adjudication.get("notes") or []
    )
    cell = (
        f'<td data-label="Adjudication" data-v="{_e(kind)} {_e(result)}">{words}'
        f'<div class="why">{why}.</div>{notes}</td>'
    )
    return cell, tokens


def _analysis_chips(summary: Summary) -> str:
    """The report's filters by the analysis's findings: the games with any ("has
    mistakes"), and those with a finding of each kind."""
    return f" Analysis: {_chips('m', summary.games_by_mistake, MISTAKE_WORDS)}"


def _analysis_cell(record: dict[str, Any], viewer: str | None) -> tuple[str, str]:
    """The report's Analysis cell of a game, and its filter tokens (`data-m`,
    `analysis_tokens`): the number of findings (what the column sorts by), then the first
    `FINDINGS_SHOWN`, each its ply (a link to it in the game's viewer), the move, the
    kind's term and its line in SAN."""
    analysis = analysis_of(record)
    if not analysis:
        return "<td></td>", ""
    if analysis.get("error"):
        error = _e(_clip(str(analysis["error"])))
        return f'<td data-label="Analysis" data-v="">{error}</td>', ""
    findings = [
        (ply, mistake)
        for ply in analysis.get("plies") or []
        if isinstance(ply, dict)
        for mistake in ply.get("mistakes") or []
        if isinstance(mistake, dict)
    ]
    lines = []
    for ply, mistake in findings[:FINDINGS_SHOWN]:
        at = f"ply {_e(ply.get('ply'))}"
        if viewer is not None:
            at = f'<a href="{_e(viewer)}#ply={_e(ply.get("ply"))}">{at}</a>'
        san = " ".join(str(move) for move in mistake.get("san") or [])
        lines.append(
            f'<div class="finding">{at} <code>{_e(ply.get("move"))}</code> '
            f"<b>{_e(mistake.get('kind'))}</b> {_e(san)}</div>"
        )
    if len(findings) > FINDINGS_SHOWN:
        lines.append(f'<div class="finding">and {len(findings) - FINDINGS_SHOWN} more</div>')
    head = "no mistake" if not findings else plural(len(findings), "finding")
    cell = f'<td data-label="Analysis" data-v="{len(findings)}">{head}{"".join(lines)}</td>'
    return cell, " ".join(analysis_tokens(analysis))


def _cap(words: str) -> str:
    return words[:1].upper() + words[1:]


def _position_words(record: dict[str, Any]) -> str:
    """Which position of a game was adjudicated, in a player's words: before its first
    illegal move ("before move 3, White"), or where reading stopped."""
    first = record.get("first_illegal")
    if isinstance(first, dict):
        where = move_words(int(first.get("move_number") or 0), str(first.get("side") or ""))
        return f"before {where}, the first illegal move"
    fields = str(record.get("final_fen") or "").split()
    if len(fields) > 5 and fields[5].isdigit():
        side = Side.WHITE if fields[1] == "w" else Side.BLACK
        return f"where reading stopped, before {move_words(int(fields[5]), side)}"
    return "where reading stopped"


def _source_cell(source: str, viewer: str | None, common: str, facts: GameFacts | None) -> str:
    link = facts.link if facts is not None else None
    name = breakable(source[len(common) :] if common and source.startswith(common) else source)
    if viewer is not None:
        name = f'<a href="{_e(viewer)}">{name}</a>'
    if link is not None:
        name += f' <a class="view" href="{_e(link)}" rel="noopener noreferrer">page ↗</a>'
    return name


def _clip(text: str) -> str:
    return text if len(text) <= NOTE_LIMIT else text[: NOTE_LIMIT - 1] + "…"


def _notes(record: dict[str, Any], first: dict[str, Any], facts: GameFacts | None) -> list[str]:
    """What a row says besides its columns: error, finding, players, suggestion, warnings."""
    notes: list[str] = []
    if record.get("error"):
        if record.get("status") == Status.SYNTAX_ERROR and record.get("final_fen"):
            legal = int(record.get("legal_plies") or 0)  # judged up to the unreadable ply
            notes.append(f"legal for {plural(legal, 'ply')}; ply {legal + 1} unreadable")
        error = str(record["error"]).splitlines()[0]
        source = str(record.get("source"))
        if error.startswith(f"{source}:"):  # the row names the source already
            error = error[len(source) + 1 :].lstrip()
        notes.append(_e(_clip(error)))
    if first:
        notes.append(_e(_clip(f"{first.get('reason', '')}.")))
        suggestions = first.get("suggestions") or []
        if suggestions and isinstance(suggestions[0], dict):
            best = suggestions[0]
            notes.append(
                f"did you mean <code>{_e(best.get('text'))}</code> ({_e(best.get('san'))})"
            )
        if record.get("status") == Status.ILLEGAL and facts is not None:
            white, black = facts.white, facts.black
            if white or black:  # as the viewer's title: White – Black
                notes.append(f"{_e(_clip(white or '?'))} – {_e(_clip(black or '?'))}")
    notes.extend(_e(_clip(str(w))) for w in (record.get("warnings") or [])[:5])
    extra = len(record.get("warnings") or []) - 5
    if extra > 0:
        notes.append(f"and {extra} more warnings")
    return notes


def _game_row(
    number: int,
    record: dict[str, Any],
    viewer: str | None,
    common: str,
    facts: GameFacts | None = None,
    *,
    adjudicated: bool = False,
    analysed: bool = False,
) -> str:
    first = record.get("first_illegal") or {}
    status = str(record.get("status"))
    category = str(first.get("category") or "")
    ply = ""
    if first:
        move = f"<code>{_e(first.get('text'))}</code>"
        if viewer is not None:
            move = f'<a href="{_e(viewer)}#ply={_e(first.get("ply"))}">{move}</a>'
        where = move_words(int(first.get("move_number") or 0), str(first.get("side") or ""))
        at = first.get("ply")
        ply = (
            f'<td data-label="First illegal move" data-v="{_e(at)}">'
            f"{term(where, f'ply {at}')}: {move}</td>"
        )
    else:
        ply = "<td></td>"
    termination = _e(record.get("termination") or "")
    result = str(record.get("result") or "")
    shown_result = term("not finished", "*") if result == Result.UNDECIDED else _e(result)
    notes = "".join(f'<span class="note">{note}</span>' for note in _notes(record, first, facts))
    cells = [
        f"<td>{number}</td>",
        f"<td>{_source_cell(str(record.get('source')), viewer, common, facts)}</td>",
        f'<td class="{_e(status)}">{_e(status)}</td>',
        f'<td data-label="Plies">{_e(record.get("plies"))}</td>',
        f'<td data-label="Legal">{_e(record.get("legal_plies"))}</td>',
        f'<td data-label="Result" data-v="{_e(result)}">{shown_result}</td>',
        f'<td data-label="Termination">{termination}</td>' if termination else "<td></td>",
        ply,
        (
            f'<td data-label="Category" data-v="{_e(category)}">'
            f"{term(category_sentence(category), category)}</td>"
            if category
            else "<td></td>"
        ),
        f"<td>{notes}</td>",
    ]
    filters = f'data-s="{_e(status)}" data-c="{_e(category)}"'
    if adjudicated:
        cell, tokens = _adjudication_cell(record)
        cells.insert(-1, cell)
        filters += f' data-a="{_e(tokens)}"'
    if analysed:
        cell, tokens = _analysis_cell(record, viewer)
        cells.insert(-1, cell)
        filters += f' data-m="{_e(tokens)}"'
    return f"<tr {filters}>{''.join(cells)}</tr>\n"


def _viewer_href(source: str, viewers: Path | None, report_dir: Path) -> str | None:
    """The link from the report to a game's viewer, if the audit wrote one."""
    if viewers is None:
        return None
    from gcadj.outputs.viewer import viewer_filename

    target = viewers / viewer_filename(source)
    if not target.is_file():
        return None
    try:
        relative = os.path.relpath(target, report_dir)
    except ValueError:  # another drive (Windows): an absolute file URL
        return target.resolve().as_uri()
    return quote(Path(relative).as_posix())


def _page_top(
    summary: Summary, name: str, made: str, where: str, columns: tuple[tuple[str, str, str], ...]
) -> str:
    """The report's page up to its first row: the title, the summary and its charts, the
    filter box and chips, and the table's head."""
    adjudicated, analysed = summary.adjudicated, bool(summary.analysed)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
        f"{GENERATOR_META}\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(name)} — gcadj report</title>\n<style>{STYLE}</style></head>\n"
        f'<body>\n<div class="intro"><h1>{_e(name)}</h1><p>{summary.total} '
        f"games judged by gcadj, made {made}.</p></div>\n"
        '<details class="summary-box"><summary><b>Summary</b>: '
        + _e(", ".join(f"{n} {status}" for status, n in summary.by_status.most_common()))
        + " (charts by category and termination)</summary>\n"
        '<div class="summary">'
        + _counts_table("Status", summary.by_status)
        + bar_chart("First illegal move, by category", summary.by_category)
        + bar_chart("Games by termination", summary.by_termination)
        + "</div>\n<details><summary>The counts as tables</summary>"
        '<div class="summary">'
        + _counts_table("Termination", summary.by_termination)
        + _counts_table("First illegal move", summary.by_category)
        + "</div></details></details>\n"
        + '<div id="tools"><h2>Games</h2>'
        '<input id="filter" type="search" placeholder="Filter: any text" '
        'aria-label="Filter the games"> <span><span id="shown">'
        f"{summary.total}</span> of {summary.total} games shown</span></div>\n"
        f'<div id="tools-chips">Status: {_chips("s", summary.by_status)}'
        + (f" Category: {_chips('c', summary.by_category)}" if summary.by_category else "")
        + (_adjudication_chips(summary) if adjudicated else "")
        + (_analysis_chips(summary) if analysed else "")
        + f'</div>\n<p class="hint">{where}Click a heading to sort (again to reverse; '
        "blanks last), a source to step through its game.</p>\n"
        '<div id="scroller"><table id="games"><colgroup>'
        + "".join(f'<col class="{css}">' for _, _, css in columns)
        + "</colgroup><thead><tr>"
        + "".join(f'<th data-type="{kind}">{_e(name)}</th>' for name, kind, _ in columns)
        + "</tr></thead>\n<tbody>\n"
    )


def write_report(
    jsonl: Path,
    target: Path,
    summary: Summary | None = None,
    *,
    order: Mapping[str, int] | None = None,
    viewers: Path | None = None,
    facts: FactsLookup | None = None,
    links: LinkLookup | None = None,
    name: str | None = None,
) -> None:
    """One self-contained page: the summary with bar charts, then one row per game in the
    order of its source (`order`, as `AuditRun.order` gives it; without it, file order),
    sortable by any column, with a filter box and one-click filters by status and
    category; when the games were adjudicated (``audit --adjudicate``), a column says how
    and filters pick a class, or the games with a forced mate; when they were analysed
    (``audit --analyse``), a column lists each game's findings (sorted by their number)
    and filters pick the games with mistakes, or with a kind of them. A game whose viewer is in
    `viewers` links to it (its first illegal ply to that ply); `links` gives each source's
    link instead (``gcadj serve``'s addresses). Rows carry no diagram: the viewers have
    them. `name` is what the games are called in the title (the upload's name; default:
    the JSONL file's).

    What a row shows besides the verdict (`GameFacts`: the link to the game's page, the
    players of an illegal game) comes from `facts`, given by whoever judged the games
    (``gcadj audit``'s workers, ``gcadj serve``'s); without it, none: the report never
    reads a source again (``gcadj serve``'s sources are uploads, never files to open).
    """
    summary = summary or summarize(jsonl)
    adjudicated, analysed = summary.adjudicated, bool(summary.analysed)
    columns = (
        GAME_COLUMNS[:-1]
        + (ADJUDICATION_COLUMN,) * adjudicated
        + (ANALYSIS_COLUMN,) * analysed
        + GAME_COLUMNS[-1:]
    )
    made = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    name = name or jsonl.name
    report_dir = target.resolve().parent
    rows = _plan_rows(jsonl, order)
    where = ""
    if rows.common:
        where = (
            f"Every source is in <code>{breakable(rows.common)}</code>; the rows name the rest. "
        )
    with atomic_text_file(target) as out:
        out.write(_page_top(summary, name, made, where, columns))
        for number, record in enumerate(_records_at(jsonl, rows.offsets), 1):
            source = str(record.get("source"))
            if links is not None:
                viewer = links(source)
            else:
                viewer = _viewer_href(source, viewers, report_dir)
            known = facts(source) if facts is not None else None
            out.write(
                _game_row(
                    number,
                    record,
                    viewer,
                    rows.common,
                    known,
                    adjudicated=adjudicated,
                    analysed=analysed,
                )
            )
        out.write(
            "</tbody></table></div>\n"
            '<p class="made">Made by gcadj. Each game\'s viewer shows its diagrams; a game '
            "without a link to one could not be replayed or was judged elsewhere.</p>\n"
            f"<script>{SCRIPT}</script>\n</body></html>\n"
        )


__all__ = [
    "ADJUDICATED_CSV_HEADER",
    "ADJUDICATION_COLUMNS",
    "ANALYSIS_COLUMNS",
    "CSV_HEADER",
    "CSV_HEADERS",
    "MATE_TOKENS",
    "MISTAKES_TOKEN",
    "FactsLookup",
    "Failing",
    "GameFacts",
    "LinkLookup",
    "Summary",
    "adjudication_cells",
    "adjudication_of",
    "analysis_cells",
    "analysis_counts",
    "analysis_of",
    "analysis_tokens",
    "bar_chart",
    "csv_cell",
    "csv_columns",
    "csv_row",
    "is_audit_csv",
    "iter_records",
    "summarize",
    "write_csv",
    "write_report",
]
