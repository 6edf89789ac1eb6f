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
  SVG drawn by the template, no chart library), each finding a red dot linked to its ply.

Nothing is searched or judged here: everything is read from the analysis. The markup is
the viewer's templates' (``viewer_parts.html``: ``move_item``'s mark, ``analysis_lines``,
``analysis_box``, ``balance_graph``); this module says what goes in it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

from markupsafe import Markup

from gcadj.engine.move import Move
from gcadj.judging.game_analysis import GameAnalysis, PlyAnalysis, PositionFacts
from gcadj.notation.san import numbered_moves
from gcadj.outputs.analysis import MATE_NAG, finding_words, nag_of, summary_words
from gcadj.outputs.plain_words import move_words
from gcadj.outputs.templating import BOXES, viewer_macros
from gcadj.vocabulary import MistakeKind, Side

__all__ = [
    "GRAPH_LIMIT",
    "KIND_WORDS",
    "AddStep",
    "AnalysisLine",
    "Mark",
    "analysis_box",
    "analysis_lines",
    "balance_graph",
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


class Mark(NamedTuple):
    """A move item's mark of its analysis's findings: ``??`` or ``?`` (`nag`), the
    findings in words on hover (`said`), and their kinds, the item's classes (`kinds`)."""

    nag: str
    said: str
    kinds: str


class AnalysisLine(NamedTuple):
    """A finding's line under its move item: its kind (`kind`, the JSON's term), the
    kind as the page names it (`name`), and each move's step and numbered SAN (`links`)."""

    kind: str
    name: str
    links: tuple[tuple[int, str], ...]


def move_mark(analysed: PlyAnalysis | None) -> Mark | None:
    """A move item's mark of its findings: ``??`` for a mate missed or allowed, ``?`` for
    material lost, the findings in words on hover; None for a ply without one."""
    if analysed is None or not analysed.mistakes:
        return None
    nag = "??" if nag_of(analysed.mistakes) == MATE_NAG else "?"
    said = "; ".join(f"{m.kind.value}: {m.reason}" for m in analysed.mistakes)
    kinds = " ".join(dict.fromkeys(m.kind.value for m in analysed.mistakes))
    return Mark(nag, said, kinds)


def analysis_lines(
    analysed: PlyAnalysis, step: int, fen_after: str, add_step: AddStep
) -> tuple[AnalysisLine, ...]:
    """The lines of a ply's findings under its move item (none: empty), each move a step
    that branches from the position its line starts from: step `step`, the position after
    the ply (`fen_after`), or the step before it for a line from before the ply (a mate
    missed, exchanges left unmade)."""
    lines = []
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
            links.append((here, numbered))
            parent, fen = here, line_step.fen_after
        lines.append(AnalysisLine(mistake.kind.value, name, tuple(links)))
    return tuple(lines)


def _where(analysed: PlyAnalysis) -> str:
    return move_words(analysed.move_number, analysed.side.value)


def analysis_box(analysis: GameAnalysis, *, first_step: int = 0) -> Markup:
    """The box under the verdict: the counts per kind (`summary_words`), the graph of the
    balance after the exchanges, and every finding linked to its ply's step (`first_step`:
    the step of the start position, 0 on a game's page)."""
    if analysis.error is not None:
        return Markup(viewer_macros(BOXES).analysis_box(summary_words(analysis), None, ()))
    findings = []
    for mistake in analysis.mistakes:
        ply = analysis.plies[mistake.ply - 1]
        where = _where(ply)
        findings.append(
            {
                "step": first_step + mistake.ply,
                "kind": mistake.kind.value,
                "where": f"{where[:1].upper()}{where[1:]}: {ply.san}",
                "name": KIND_WORDS[mistake.kind],
                "words": finding_words(mistake),
            }
        )
    words = summary_words(analysis).removeprefix("analysis: ")
    graph = _graph(analysis, 320, 90, first_step)
    return Markup(viewer_macros(BOXES).analysis_box(words, graph, findings))


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
) -> Markup:
    """A small graph of the balance after the exchanges over the game (inline SVG): a
    line from the start to the last ply, White's lead up, level in the middle, cut at
    `GRAPH_LIMIT` class units (a forced mate at its winner's edge); a position whose count
    was cut leaves a gap. Each finding is a red dot on its ply, linked to its step
    (`first_step` + ply), with the finding on hover."""
    return Markup(viewer_macros(BOXES).balance_graph(_graph(analysis, width, height, first_step)))


def _graph(analysis: GameAnalysis, width: int, height: int, first_step: int) -> dict[str, object]:
    """What `balance_graph`'s template draws: the size, the runs of points, the dots."""
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
    dots = []
    for mistake in analysis.mistakes:
        value = _graph_value(facts[mistake.ply]) or 0.0
        dots.append(
            {
                "step": first_step + mistake.ply,
                "x": f"{x(mistake.ply):.1f}",
                "y": f"{y(value):.1f}",
                "ply": mistake.ply,
                "kind": mistake.kind.value,
                "reason": mistake.reason,
            }
        )
    return {
        "width": width,
        "height": height,
        "label": "Balance after the exchanges, ply by ply (White up, Black down)",
        "limit": GRAPH_LIMIT,
        "pad": pad,
        "mid": mid,
        "right": width - pad,
        "text_x": pad + 2,
        "bottom": height - 5,
        "runs": [run for run in runs if len(run) > 1],
        "dots": dots,
    }
