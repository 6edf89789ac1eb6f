"""Summaries, CSV and a self-contained HTML report, all read back from an audit's JSONL.

Nothing is kept in memory per game: each product is one streaming pass over the file,
so a report of a huge archive costs file size, not RAM. The files are written to a
temporary name and renamed, so a half-written report never replaces a good one.

Everything shown in the report that came from a page or a log (sources, move texts,
reasons quoting them, warnings, error messages) is HTML-escaped: a player called
``<script>`` is text, not code. Links are emitted only for http(s) addresses.
"""

from __future__ import annotations

import csv
import html
import json
import logging
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Final

from gcadj.outputs.files import atomic_text_file
from gcadj.sources.urls import is_url

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
STATUS_ORDER: Final = ("legal", "illegal", "syntax-error", "error")


def iter_records(path: Path) -> Iterator[dict[str, Any]]:
    """The verdicts of an audit file, one dict per line (a torn last line is skipped)."""
    with path.open("rb") as handle:
        for raw in handle:
            if not raw.endswith(b"\n"):
                break
            record = json.loads(raw)
            if isinstance(record, dict):
                yield record


@dataclass
class Summary:
    """Counts over an audit file: by status, by termination, by first illegal category."""

    total: int = 0
    by_status: Counter[str] = field(default_factory=Counter)
    by_termination: Counter[str] = field(default_factory=Counter)
    by_category: Counter[str] = field(default_factory=Counter)


def summarize(path: Path) -> Summary:
    summary = Summary()
    for record in iter_records(path):
        summary.total += 1
        summary.by_status[str(record.get("status"))] += 1
        if record.get("termination"):
            summary.by_termination[str(record["termination"])] += 1
        first = record.get("first_illegal")
        if isinstance(first, dict) and first.get("category"):
            summary.by_category[str(first["category"])] += 1
    return summary


def csv_row(record: dict[str, Any]) -> list[str]:
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
    return ["" if value is None else str(value) for value in values]


def write_csv(jsonl: Path, target: Path) -> int:
    """One row per game, values as in the JSON, with the csv module's quoting and nothing more.

    Cells are not defused against spreadsheet formulas: a move such as ``@-d5`` or
    ``-d4`` (or any text starting with ``=``, ``+``, ``-``, ``@``) is written as typed,
    because it is the data. A spreadsheet that evaluates such cells on import may read
    them as formulas; import the file with text columns.
    """
    rows = 0
    with atomic_text_file(target, newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_COLUMNS)
        for record in iter_records(jsonl):
            writer.writerow(csv_row(record))
            rows += 1
    return rows


# ---------------------------------------------------------------------------------------
# HTML


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def head_tags(text: str) -> dict[str, str]:
    """The tag pairs at the head of a log (first value of each name), read as the parser
    reads them (`gcadj.notation.parse.tag_pair`)."""
    from gcadj.notation.parse import tag_pair

    tags: dict[str, str] = {}
    for line in text[:16384].splitlines():
        pair = tag_pair(line)
        if pair is not None:
            tags.setdefault(pair[0].casefold(), pair[1])
    return tags


def page_link(source: str) -> str | None:
    """Where a game can be seen: its URL, or the Site tag at the head of its log file.

    Cheap (one small read) so every row of the report can have it; a saved page's own
    address is not looked for here.
    """
    if is_url(source):
        return source
    try:
        with open(source, "rb") as handle:
            head = handle.read(16384).decode("utf-8", "replace")
    except OSError:
        return None
    if head.lstrip().startswith("<"):
        return None
    site = head_tags(head).get("site")
    return site if site and is_url(site) else None


def game_header(source: str) -> dict[str, str]:
    """The tags of a game (players, Site, PocketFile, ...) read again from its source.

    A log file's head is read; a saved page is scraped; a URL is read from the page cache
    only, never fetched again (no cache: no header). Used for the illegal games only.
    """
    from gcadj.sources.decode import decode_text

    text: str | None = None
    if is_url(source):
        from gcadj.sources.fetch import default_fetcher

        page = default_fetcher().cached(source)
        text = page.text() if page is not None else None
    else:
        try:
            text = decode_text(Path(source).read_bytes())
        except OSError:
            text = None
    if text is None:
        return {}
    if text.lstrip("\ufeff \t\r\n").startswith("<"):
        from gcadj.sources.pages.scrape import scrape_page

        try:
            text = scrape_page(text, source=source).log_text
        except ValueError:
            return {}
    return head_tags(text)


def _pocket_file(header: dict[str, str], move: str) -> str:
    squares = re.findall(r"(?<![A-Za-z])([i-z])[18](?![0-9])", move)
    if squares:
        return str(squares[0])
    letter = header.get("pocketfile", "i")
    return letter if len(letter) == 1 and "i" <= letter <= "z" else "i"


def diagram(fen: str, move: str, pocket_file: str) -> str | None:
    """The SVG of the position before an illegal ply, the ply's squares marked; None if
    the position or the picture cannot be made (the report then shows the FEN alone)."""
    try:
        from gcadj.engine.position import Position
        from gcadj.notation.parse import parse_log
        from gcadj.outputs.svg import marked_cells, render_svg

        position = Position(fen)
        try:
            records = parse_log(move + "\n", pocket_file=pocket_file).records
        except ValueError:
            records = ()
        marked = marked_cells(records[0]) if records else None
        try:
            return render_svg(position, illegal=marked, pocket_file=pocket_file)
        except (ValueError, KeyError, IndexError):
            return render_svg(position, pocket_file=pocket_file)
    except Exception:  # a picture must never cost the report
        log.warning("no diagram for %r", fen, exc_info=True)
        return None


STYLE: Final = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#1b1b1b}
table{border-collapse:collapse;margin:.5em 0 1.5em}
th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
th{background:#f0f0f0}
#games th{cursor:pointer}
#games th::after{content:" \\2195";color:#999}
.legal{color:#176b2c}.illegal{color:#b00020;font-weight:bold}
.syntax-error,.error{color:#8a5300;font-weight:bold}
.game{border-top:1px solid #ccc;padding-top:.5em;margin-top:1em}
code{background:#f4f4f4;padding:0 .2em}
.summary{display:flex;gap:2em;flex-wrap:wrap}
"""

SORT_SCRIPT: Final = """
document.querySelectorAll('#games th').forEach(function (th, col) {
  th.addEventListener('click', function () {
    var body = th.closest('table').tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var up = th.dataset.dir !== 'up'; th.dataset.dir = up ? 'up' : 'down';
    var num = th.dataset.type === 'num';
    rows.sort(function (a, b) {
      var x = a.cells[col].textContent, y = b.cells[col].textContent;
      var c = num ? (parseFloat(x) || 0) - (parseFloat(y) || 0) : x.localeCompare(y);
      return up ? c : -c;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  });
});
"""

GAME_COLUMNS: Final = (
    ("#", "num"),
    ("Source", "text"),
    ("Status", "text"),
    ("Plies", "num"),
    ("Legal plies", "num"),
    ("Result", "text"),
    ("Termination", "text"),
    ("First illegal ply", "text"),
    ("Category", "text"),
    ("Notes", "text"),
)


def _counts_table(title: str, counts: Counter[str]) -> str:
    rows = "".join(
        f"<tr><td>{_e(key)}</td><td>{count}</td></tr>" for key, count in counts.most_common()
    )
    return (
        f"<table><caption>{_e(title)}</caption><tr><th>{_e(title)}</th><th>games</th></tr>"
        f"{rows or '<tr><td colspan=2>none</td></tr>'}</table>"
    )


def _source_cell(source: str) -> str:
    link = page_link(source)
    if link is None:
        return _e(source)
    return f'<a href="{_e(link)}" rel="noopener noreferrer">{_e(source)}</a>'


def _game_row(number: int, record: dict[str, Any]) -> str:
    first = record.get("first_illegal") or {}
    status = str(record.get("status"))
    ply = ""
    if first:
        ply = (
            f'<a href="#g{number}">{_e(first.get("ply"))}: <code>{_e(first.get("text"))}</code></a>'
        )
    notes = list(record.get("warnings") or [])
    if record.get("error"):
        notes.insert(0, str(record["error"]).splitlines()[0])
    cells = [
        str(number),
        _source_cell(str(record.get("source"))),
        f'<span class="{_e(status)}">{_e(status)}</span>',
        _e(record.get("plies")),
        _e(record.get("legal_plies")),
        _e(record.get("result")),
        _e(record.get("termination") or ""),
        ply,
        _e(first.get("category") or ""),
        "<br>".join(_e(note) for note in notes),
    ]
    return "<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>\n"


def _illegal_section(number: int, record: dict[str, Any]) -> str:
    first = record.get("first_illegal") or {}
    source = str(record.get("source"))
    move = str(first.get("text") or "")
    dots = "." if first.get("side") == "white" else "..."
    parts = [
        f'<section class="game" id="g{number}">',
        f"<h3>{number}. {_source_cell(source)}</h3>",
        f"<p>Ply {_e(first.get('ply'))} ({_e(first.get('move_number'))}{dots} "
        f"{_e(first.get('side'))}), line {_e(first.get('line'))}: <code>{_e(move)}</code> "
        f"[{_e(first.get('category'))}]<br>{_e(first.get('reason'))}.</p>",
    ]
    header = game_header(source)
    who = [
        f"{side}: {_e(header[key])}"
        for side, key in (("White", "white"), ("Black", "black"))
        if header.get(key)
    ]
    if header.get("status"):
        who.append(f"Status: {_e(header['status'])}")
    if who:
        parts.append(f"<p>{' · '.join(who)}</p>")
    fen = record.get("final_fen")
    if isinstance(fen, str) and fen:
        picture = diagram(fen, move, _pocket_file(header, move))
        if picture is not None:
            parts.append(f'<div class="diagram">{picture}</div>')
        parts.append(f"<p>Position before the move: <code>{_e(fen)}</code></p>")
    parts.append("</section>\n")
    return "\n".join(parts)


def write_report(jsonl: Path, target: Path, summary: Summary | None = None) -> None:
    """One self-contained page: summary, a sortable row per game, each illegal game's
    finding with its diagram. Streams the JSONL twice (rows, then illegal games)."""
    summary = summary or summarize(jsonl)
    made = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    with atomic_text_file(target) as out:
        out.write(
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>gcadj audit: {_e(jsonl.name)}</title>\n<style>{STYLE}</style></head>\n"
            f"<body>\n<h1>gcadj audit report</h1>\n<p>{summary.total} games from "
            f"<code>{_e(jsonl.name)}</code>, made {made}.</p>\n<h2>Summary</h2>\n"
            '<div class="summary">'
            + _counts_table("Status", summary.by_status)
            + _counts_table("Termination", summary.by_termination)
            + _counts_table("First illegal move", summary.by_category)
            + "</div>\n<h2>Games</h2>\n<p>Click a column heading to sort.</p>\n"
            '<table id="games"><thead><tr>'
            + "".join(f'<th data-type="{kind}">{_e(name)}</th>' for name, kind in GAME_COLUMNS)
            + "</tr></thead>\n<tbody>\n"
        )
        for number, record in enumerate(iter_records(jsonl), 1):
            out.write(_game_row(number, record))
        out.write("</tbody></table>\n<h2>Illegal games</h2>\n")
        illegal = 0
        for number, record in enumerate(iter_records(jsonl), 1):
            if record.get("status") == "illegal" and record.get("first_illegal"):
                out.write(_illegal_section(number, record))
                illegal += 1
        if not illegal:
            out.write("<p>None.</p>\n")
        out.write(f"<script>{SORT_SCRIPT}</script>\n</body></html>\n")


__all__ = [
    "Summary",
    "csv_row",
    "iter_records",
    "page_link",
    "summarize",
    "write_csv",
    "write_report",
]
