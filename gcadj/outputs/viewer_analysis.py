"""A game's analysis in its viewer (``export --to html --analyse``, ``audit --analyse``'s
viewers, the pages of a ``gcadj serve`` check with ``analyse=1``): what
`gcadj.outputs.viewer` adds to a page when the judged game carries its analysis
(`Verdict.analysis`).

- **marks on the move list**: a ply with a finding is marked ``??`` (a mate missed or
  allowed) or ``?`` (material lost), as PGN's NAGs say it, with a class per kind
  (``mistake missed-mate``) and the finding in words on hover;
- **each finding's line as a side line**: its moves are steps that branch from the
  position the line starts from (`Step.parent`, as the adjudication's lines do): the
  position before the ply for a mate missed, after it for a mate allowed or the exchanges
  that follow; their boards are the ones the analysis recorded (`Mistake.steps`), the
  viewer plays no move. The line's links sit under the ply in the move list;
- **a box under the verdict**: the counts per kind, every finding linked to its ply, and a
  small graph of the balance after the exchanges over the plies (`balance_graph`: inline
  SVG drawn here, no chart library), each finding a red dot linked to its ply.

Nothing is searched or judged here: everything is read from the analysis.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Final

from gcadj.engine.move import Move
from gcadj.judging.game_analysis import GameAnalysis, PlyAnalysis, PositionFacts
from gcadj.notation.san import numbered_moves
from gcadj.outputs.analysis import MATE_NAG, finding_words, nag_of, summary_words
from gcadj.outputs.plain_words import move_words
from gcadj.vocabulary import MistakeKind, Side

__all__ = [
    "GRAPH_LIMIT",
    "KIND_WORDS",
    "AddStep",
    "analysis_box",
    "balance_graph",
    "line_html",
    "move_mark",
]

AddStep = Callable[[str, str, int, Move], int]
"""Adds a step to the page (the position's FEN, its label, the step it branches from, the
move that led to it) and gives its index."""

KIND_WORDS: Final = {
    MistakeKind.MISSED_MATE: "Missed mate",
    MistakeKind.ALLOWS_MATE: "Allows mate",
    MistakeKind.LOSES_MATERIAL: "Loses material",
}
"""Each kind of finding as the page names it (its term, the JSON's, on hover)."""

GRAPH_LIMIT: Final = 8
"""The graph's scale, in class units either side of level: an AmazonRider's worth; a
larger lead, or a forced mate, is drawn at the edge."""


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _term(words: str, precise: str) -> str:
    return f'<span class="term" title="{_e(precise)}">{_e(words)}</span>'


def move_mark(analysed: PlyAnalysis | None) -> tuple[str, str]:
    """A move item's mark of its findings and its classes: ``??`` for a mate missed or
    allowed, ``?`` for material lost, the findings in words on hover; ("", "") for a ply
    without one."""
    if analysed is None or not analysed.mistakes:
        return "", ""
    mark = "??" if nag_of(analysed.mistakes) == MATE_NAG else "?"
    said = "; ".join(f"{m.kind.value}: {m.reason}" for m in analysed.mistakes)
    kinds = " ".join(dict.fromkeys(m.kind.value for m in analysed.mistakes))
    return f' <span class="mark" title="{_e(said)}">{mark}</span>', f" mistake {kinds}"


def line_html(analysed: PlyAnalysis, step: int, fen_after: str, add_step: AddStep) -> str:
    """The lines of a ply's findings under its move item (empty: none), each move a step
    that branches from the position its line starts from: step `step`, the position after
    the ply (`fen_after`), or the step before it for a line from before the ply (a mate
    missed, exchanges left unmade)."""
    parts = []
    for mistake in analysed.mistakes:
        if not mistake.steps:
            continue
        parent = step if mistake.position == fen_after else step - 1
        name = KIND_WORDS[mistake.kind]
        fen, links = mistake.position, []
        for san, line_step in zip(mistake.san, mistake.steps, strict=False):
            numbered = numbered_moves([san], fen)
            label = f"{name} ({_where(analysed)}), not played: {numbered}"
            here = add_step(line_step.fen_after, label, parent, line_step.move)
            links.append(f'<li data-ply="{here}"><a href="#ply={here}">{_e(numbered)}</a></li>')
            parent, fen = here, line_step.fen_after
        parts.append(
            f'<div class="analysis-line {_e(mistake.kind.value)}">'
            f"{_term(name, mistake.kind.value)}: <ol>{''.join(links)}</ol></div>"
        )
    return "".join(parts)


def _where(analysed: PlyAnalysis) -> str:
    return move_words(analysed.move_number, analysed.side.value)


def analysis_box(analysis: GameAnalysis, *, first_step: int = 0) -> str:
    """The box under the verdict: the counts per kind (`summary_words`), the graph of the
    balance after the exchanges, and every finding linked to its ply's step (`first_step`:
    the step of the start position, 0 on a game's page)."""
    if analysis.error is not None:
        return f'<div class="analysis" id="analysis"><p>{_e(summary_words(analysis))}</p></div>'
    items = []
    for mistake in analysis.mistakes:
        ply = analysis.plies[mistake.ply - 1]
        step = first_step + mistake.ply
        where = f"{_where(ply)[:1].upper()}{_where(ply)[1:]}: {ply.san}"
        items.append(
            f'<li data-ply="{step}" class="{_e(mistake.kind.value)}"><a href="#ply={step}">'
            f"{_e(where)}</a> {_term(KIND_WORDS[mistake.kind], mistake.kind.value)}: "
            f"{_e(finding_words(mistake))}</li>"
        )
    found = f'<ol class="findings">{"".join(items)}</ol>' if items else ""
    words = summary_words(analysis).removeprefix("analysis: ")
    return (
        f'<div class="analysis" id="analysis"><p>Analysis: {_e(words)}.</p>'
        f"{balance_graph(analysis, first_step=first_step)}{found}</div>"
    )


def _graph_value(facts: PositionFacts) -> float | None:
    """Where a position goes on the graph, in class units (White up): its balance, cut at
    `GRAPH_LIMIT`; a forced mate at the edge of its winner; None when not known."""
    if facts.mate is not None:
        return float(GRAPH_LIMIT if facts.mate.winner is Side.WHITE else -GRAPH_LIMIT)
    if facts.balance is None:
        return None
    return float(max(-GRAPH_LIMIT, min(GRAPH_LIMIT, facts.balance)))


def balance_graph(
    analysis: GameAnalysis, *, width: int = 320, height: int = 90, first_step: int = 0
) -> str:
    """A small graph of the balance after the exchanges over the game (inline SVG): a
    line from the start to the last ply, White's lead up, level in the middle, cut at
    `GRAPH_LIMIT` class units (a forced mate at its winner's edge); a position whose count
    was cut leaves a gap. Each finding is a red dot on its ply, linked to its step
    (`first_step` + ply), with the finding on hover."""
    facts = [analysis.start, *(ply.after for ply in analysis.plies)]
    count = max(1, len(facts) - 1)
    pad, mid = 4.0, height / 2

    def x(ply: int) -> float:
        return pad + (width - 2 * pad) * ply / count

    def y(value: float) -> float:
        return mid - (mid - pad) * value / GRAPH_LIMIT

    runs: list[list[str]] = [[]]
    for ply, fact in enumerate(facts):
        value = _graph_value(fact)
        if value is None:
            runs.append([])
            continue
        runs[-1].append(f"{x(ply):.1f},{y(value):.1f}")
    lines = "".join(
        f'<polyline points="{" ".join(run)}" fill="none" stroke="#1b4f9c" stroke-width="1.5"/>'
        for run in runs
        if len(run) > 1
    )
    dots = []
    for mistake in analysis.mistakes:
        value = _graph_value(facts[mistake.ply]) or 0.0
        step = first_step + mistake.ply
        dots.append(
            f'<a href="#ply={step}"><circle class="dot" cx="{x(mistake.ply):.1f}" '
            f'cy="{y(value):.1f}" r="3.5" fill="#b00020"><title>ply {mistake.ply}: '
            f"{_e(mistake.kind.value)}: {_e(mistake.reason)}</title></circle></a>"
        )
    label = "Balance after the exchanges, ply by ply (White up, Black down)"
    return (
        f'<svg class="balance-graph" xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{label}">'
        f"<title>{label}; cut at {GRAPH_LIMIT} class units</title>"
        f'<rect width="{width}" height="{height}" fill="#fbfbfb" stroke="#ddd"/>'
        f'<line x1="{pad}" y1="{mid}" x2="{width - pad}" y2="{mid}" stroke="#bbb" '
        'stroke-dasharray="3,3"/>'
        f'<text x="{pad + 2}" y="12" font-size="10" fill="#777">White +</text>'
        f'<text x="{pad + 2}" y="{height - 5}" font-size="10" fill="#777">Black +</text>'
        f"{lines}{''.join(dots)}</svg>"
    )
