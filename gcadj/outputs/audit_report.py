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

from gcadj.analysis.options import INTERNAL_REASON
from gcadj.judging.verdict import Suggestion, outcome_of
from gcadj.outputs.files import atomic_text_file
from gcadj.outputs.plain_words import category_sentence, move_words
from gcadj.outputs.report import failing_line
from gcadj.outputs.templating import template
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
# The markup is in templates/report.html and report_parts.html (autoescaped), the style
# and the script in static/report.css and report.js, inlined: what follows only chooses
# what each part of the page says.


class Column(NamedTuple):
    """A column of the report's table: its heading, how it sorts (``num``, ``text``) and
    its width's class in the style sheet."""

    title: str
    kind: str
    css: str


GAME_COLUMNS: Final = (
    Column("#", "num", "c-n"),
    Column("Source", "text", "c-src"),
    Column("Status", "text", "c-st"),
    Column("Plies", "num", "c-pl"),
    Column("Legal plies", "num", "c-lp"),
    Column("Result", "text", "c-res"),
    Column("Termination", "text", "c-term"),
    Column("First illegal move", "num", "c-ply"),
    Column("Category", "text", "c-cat"),
    Column("Notes", "text", "c-notes"),
)
ADJUDICATION_COLUMN: Final = Column("Adjudication", "text", "c-adj")  # after Category
ANALYSIS_COLUMN: Final = Column("Analysis", "num", "c-ana")  # after them, if any: findings
FINDINGS_SHOWN: Final = 6  # findings listed in a row's Analysis cell (the viewer has all)
NOTE_LIMIT: Final = 400  # characters of one note (an error, a warning) in a row


class Bar(NamedTuple):
    """One bar of a chart: its key and count, where its texts and rectangle go."""

    key: str
    n: int
    text_y: int
    rect_y: int
    width: str
    count_x: str


class Chart(NamedTuple):
    """A horizontal bar chart's geometry (the template ``bar_chart`` draws it)."""

    title: str
    width: int
    height: int
    label_x: int
    bar_x: int
    bar_height: int
    bars: list[Bar]


def chart_of(title: str, counts: Counter[str], width: int = 420) -> Chart | None:
    """The bars of `counts`, longest first, in a chart `width` wide (None: no count)."""
    items = counts.most_common()
    if not items:
        return None
    line, label_w, count_w = 19, 190, 50
    top = max(n for _, n in items)
    bars = []
    for i, (key, n) in enumerate(items):
        y = 24 + i * line
        w = max(1.0, (width - label_w - count_w) * n / top)
        bars.append(Bar(key, n, y + 14, y + 3, f"{w:.1f}", f"{label_w + w + 4:.1f}"))
    height = line * len(items) + 26
    return Chart(title, width, height, label_w - 6, label_w, line - 5, bars)


def bar_chart(title: str, counts: Counter[str], width: int = 420) -> str:
    """A horizontal bar chart as inline SVG: one labelled bar per key, longest first."""
    parts: Any = template("report_parts.html").module
    return str(parts.bar_chart(chart_of(title, counts, width)))


class Chip(NamedTuple):
    """A one-click filter: the token it picks, its label, how many games have it, and
    what a hover says (a category's sentence; None: nothing)."""

    key: str
    label: str
    n: int
    title: str | None


def _chips(kind: str, counts: Counter[str], labels: Mapping[str, str] | None = None) -> list[Chip]:
    """One-click filters: a button per key (shown as its label, if `labels` has one); a
    category's is its term, short enough for a row of chips, with its sentence on hover,
    as the rows show it."""
    return [
        Chip(key, (labels or {}).get(key, key), n, category_sentence(key) if kind == "c" else None)
        for key, n in counts.most_common()
    ]


def _adjudication_chips(summary: Summary) -> list[Chip]:
    """The report's filters by adjudication class, and by the side that holds a forced
    mate ("White mates", "Black mates", whatever the class)."""
    counts = Counter(summary.by_adjudication)
    for winner, n in summary.mates_by_winner.items():
        counts[MATE_TOKENS.get(winner, f"mate-{winner}")] = n
    return _chips("a", counts, MATE_WORDS)


def _text(value: object) -> str:
    return "" if value is None else str(value)


class AdjudicationCell(NamedTuple):
    """What a row's Adjudication cell says: the class and result, who mates in how many
    (`winner` None: no mate), which position was adjudicated when it is not the game's
    last (`position` in a player's words, `where` the JSON's, shown on hover; None: the
    last), the reason (about the board) and the notes."""

    kind: str
    result: str
    winner: str | None
    moves: str
    where: str | None
    position: str
    why: str
    notes: list[str]


def _adjudication_cell(record: dict[str, Any]) -> tuple[AdjudicationCell | None, str]:
    """The report's Adjudication cell of a game (None: an empty cell), and its filter
    tokens (`data-a`): the class, and the mating side's token (`MATE_TOKENS`) when a mate
    was proved."""
    adjudication = adjudication_of(record)
    if not adjudication:
        return None, ""
    kind, result = str(adjudication.get("class")), str(adjudication.get("result"))
    mate = adjudication.get("mate")
    winner: str | None = None
    moves = ""
    tokens = kind
    if isinstance(mate, dict):
        side = str(mate.get("winner"))
        winner, moves = side.capitalize(), _text(mate.get("moves"))
        tokens += f" {MATE_TOKENS.get(side, f'mate-{side}')}"
    reason = str(adjudication.get("reason", ""))
    board = adjudication.get("board_reason")
    where: str | None = None
    why = _clip(reason)
    if isinstance(board, str) and board and reason.endswith(board):
        where = reason[: len(reason) - len(board)].rstrip(": ")
        why = _clip(board)
    notes = [_clip(str(note)) for note in adjudication.get("notes") or []]
    position = _cap(_position_words(record)) if where is not None else ""
    cell = AdjudicationCell(kind, result, winner, moves, where, position, why, notes)
    return cell, tokens


class ReportMistake(NamedTuple):
    """One mistake in a row's Analysis cell: its ply (`href`: that ply in the game's
    viewer, None: no viewer), the move, the kind and its line in SAN."""

    ply: str
    href: str | None
    move: str
    kind: str
    san: str


class AnalysisCell(NamedTuple):
    """What a row's Analysis cell says: the analysis's error, or the number of findings
    (what the column sorts by), its words, the first `FINDINGS_SHOWN` and how many more."""

    error: str | None
    total: int
    head: str
    findings: list[ReportMistake]
    more: int


def _analysis_cell(record: dict[str, Any], viewer: str | None) -> tuple[AnalysisCell | None, str]:
    """The report's Analysis cell of a game (None: an empty cell), and its filter tokens
    (`data-m`, `analysis_tokens`)."""
    analysis = analysis_of(record)
    if not analysis:
        return None, ""
    if analysis.get("error"):
        return AnalysisCell(_clip(str(analysis["error"])), 0, "", [], 0), ""
    found = [
        (ply, mistake)
        for ply in analysis.get("plies") or []
        if isinstance(ply, dict)
        for mistake in ply.get("mistakes") or []
        if isinstance(mistake, dict)
    ]
    findings = [
        ReportMistake(
            _text(ply.get("ply")),
            None if viewer is None else f"{viewer}#ply={_text(ply.get('ply'))}",
            _text(ply.get("move")),
            _text(mistake.get("kind")),
            " ".join(str(move) for move in mistake.get("san") or []),
        )
        for ply, mistake in found[:FINDINGS_SHOWN]
    ]
    head = "no mistake" if not found else plural(len(found), "finding")
    more = max(0, len(found) - FINDINGS_SHOWN)
    cell = AnalysisCell(None, len(found), head, findings, more)
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


def _clip(text: str) -> str:
    return text if len(text) <= NOTE_LIMIT else text[: NOTE_LIMIT - 1] + "…"


def _notes(
    record: dict[str, Any], first: dict[str, Any], facts: GameFacts | None
) -> list[str | Suggestion]:
    """What a row says besides its columns: error, finding, players, suggestion, warnings."""
    notes: list[str | Suggestion] = []
    if record.get("error"):
        if record.get("status") == Status.SYNTAX_ERROR and record.get("final_fen"):
            legal = int(record.get("legal_plies") or 0)  # judged up to the unreadable ply
            notes.append(f"legal for {plural(legal, 'ply')}; ply {legal + 1} unreadable")
        error = str(record["error"]).splitlines()[0]
        source = str(record.get("source"))
        if error.startswith(f"{source}:"):  # the row names the source already
            error = error[len(source) + 1 :].lstrip()
        notes.append(_clip(error))
    if first:
        notes.append(_clip(f"{first.get('reason', '')}."))
        suggestions = first.get("suggestions") or []
        if suggestions and isinstance(suggestions[0], dict):
            best = suggestions[0]
            notes.append(
                Suggestion(_text(best.get("text")), _text(best.get("san")), _text(best.get("why")))
            )
        if record.get("status") == Status.ILLEGAL and facts is not None:
            white, black = facts.white, facts.black
            if white or black:  # as the viewer's title: White – Black
                notes.append(f"{_clip(white or '?')} – {_clip(black or '?')}")
    notes.extend(_clip(str(w)) for w in (record.get("warnings") or [])[:5])
    extra = len(record.get("warnings") or []) - 5
    if extra > 0:
        notes.append(f"and {extra} more warnings")
    return notes


class FirstIllegal(NamedTuple):
    """A row's First illegal move cell: the move in a player's words, its ply, its text
    and (`href`) that ply in the game's viewer (None: no viewer)."""

    where: str
    ply: str
    text: str
    href: str | None


class GameRow(NamedTuple):
    """What one row of the report says (the template ``game_row`` lays it out)."""

    number: int
    name: str  # the source, less the folder every source shares
    viewer: str | None
    link: str | None
    status: str
    plies: str
    legal_plies: str
    result: str
    undecided: bool
    termination: str
    first: FirstIllegal | None
    category: str
    category_sentence: str
    adjudicated: bool
    adjudication: AdjudicationCell | None
    adjudication_tokens: str
    analysed: bool
    analysis: AnalysisCell | None
    analysis_tokens: str
    notes: list[str | Suggestion]


def _first_illegal(first: dict[str, Any], viewer: str | None) -> FirstIllegal | None:
    if not first:
        return None
    where = move_words(int(first.get("move_number") or 0), str(first.get("side") or ""))
    ply = _text(first.get("ply"))
    href = None if viewer is None else f"{viewer}#ply={ply}"
    return FirstIllegal(where, ply, _text(first.get("text")), href)


def _game_row(
    number: int,
    record: dict[str, Any],
    viewer: str | None,
    common: str,
    facts: GameFacts | None = None,
    *,
    adjudicated: bool = False,
    analysed: bool = False,
) -> GameRow:
    first = record.get("first_illegal") or {}
    source = str(record.get("source"))
    category = str(first.get("category") or "")
    result = str(record.get("result") or "")
    adjudication, adjudication_tokens = _adjudication_cell(record) if adjudicated else (None, "")
    analysis, analysis_tokens_ = _analysis_cell(record, viewer) if analysed else (None, "")
    return GameRow(
        number=number,
        name=source[len(common) :] if common and source.startswith(common) else source,
        viewer=viewer,
        link=facts.link if facts is not None else None,
        status=str(record.get("status")),
        plies=_text(record.get("plies")),
        legal_plies=_text(record.get("legal_plies")),
        result=result,
        undecided=result == Result.UNDECIDED,
        termination=_text(record.get("termination") or ""),
        first=_first_illegal(first, viewer),
        category=category,
        category_sentence=category_sentence(category) if category else "",
        adjudicated=adjudicated,
        adjudication=adjudication,
        adjudication_tokens=adjudication_tokens,
        analysed=analysed,
        analysis=analysis,
        analysis_tokens=analysis_tokens_,
        notes=_notes(record, first, facts),
    )


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


def _page(summary: Summary, name: str, common: str, columns: tuple[Column, ...]) -> dict[str, Any]:
    """What the report's page says around its rows: the title, the summary and its
    charts, the filter chips, the folder every source shares and the table's head."""
    return {
        "name": name,
        "total": summary.total,
        "made": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "status_words": ", ".join(f"{n} {s}" for s, n in summary.by_status.most_common()),
        "by_status": summary.by_status.most_common(),
        "by_termination": summary.by_termination.most_common(),
        "by_category": summary.by_category.most_common(),
        "category_chart": chart_of("First illegal move, by category", summary.by_category),
        "termination_chart": chart_of("Games by termination", summary.by_termination),
        "status_chips": _chips("s", summary.by_status),
        "category_chips": _chips("c", summary.by_category),
        "adjudication_chips": _adjudication_chips(summary) if summary.adjudicated else None,
        "analysis_chips": (
            _chips("m", summary.games_by_mistake, MISTAKE_WORDS) if summary.analysed else None
        ),
        "common": common,
        "columns": columns,
    }


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

    The page is the template ``report.html`` rendered as a stream: a row is made, written
    and forgotten, so the report of a huge archive costs its file, not RAM.
    """
    summary = summary or summarize(jsonl)
    adjudicated, analysed = summary.adjudicated, bool(summary.analysed)
    columns = (
        GAME_COLUMNS[:-1]
        + (ADJUDICATION_COLUMN,) * adjudicated
        + (ANALYSIS_COLUMN,) * analysed
        + GAME_COLUMNS[-1:]
    )
    report_dir = target.resolve().parent
    plan = _plan_rows(jsonl, order)

    def rows() -> Iterator[GameRow]:
        for number, record in enumerate(_records_at(jsonl, plan.offsets), 1):
            source = str(record.get("source"))
            if links is not None:
                viewer = links(source)
            else:
                viewer = _viewer_href(source, viewers, report_dir)
            known = facts(source) if facts is not None else None
            yield _game_row(
                number,
                record,
                viewer,
                plan.common,
                known,
                adjudicated=adjudicated,
                analysed=analysed,
            )

    page = _page(summary, name or jsonl.name, plan.common, columns)
    with atomic_text_file(target) as out:
        for chunk in template("report.html").generate(rows=rows(), **page):
            out.write(chunk)


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
