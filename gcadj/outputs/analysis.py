"""Human-readable analyses of whole games (``gcadj analyse``, ``check --analyse``).

Everything comes from the analysis the judged game carries (`Verdict.analysis`): each
finding's line is the Game Courier text and SAN it holds, its mates already checked by the
proof checker; nothing is searched or judged again here. One line per finding, like the
checker's findings, short and greppable: where (the ply, its move number and side, the
move in Game Courier text), the kind's term in brackets, what it means and its line in SAN
then in Game Courier text::

    game.txt: ply 3 (move 2, White) P g2-g4 [allows-mate]: Black mates in 1: 2... Qh4#
    (GC: 2... q d8-h4)

(one line: cut here to fit)

and a summary of the counts per kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from gcadj.judging.game_analysis import GameAnalysis, Mistake, PositionFacts
from gcadj.judging.verdict import Verdict
from gcadj.notation.san import numbered_moves
from gcadj.vocabulary import MistakeKind, Side
from gcadj.words import plural


def analysed_text(
    verdict: Verdict, *, json_lines: bool = False, quiet: bool = False, verbose: bool = False
) -> str:
    """One judged game as ``gcadj analyse`` prints it (no newline at the end): its JSON line
    (`json_lines`); with `quiet`, the check's ``-q`` line if it is not legal and one line per
    finding, each starting with the source (empty: a legal game with no finding);
    otherwise its verdict (``-v``: the check's ``-v`` block), then its findings and the
    summary of its analysis."""
    from gcadj.outputs.report import render_verdict, verdict_line
    from gcadj.vocabulary import Status

    if json_lines:
        return verdict.json_line()
    if quiet:
        head = [] if verdict.status == Status.LEGAL else [verdict_line(verdict)]
        return "\n".join(head + finding_lines(verdict, prefix=f"{verdict.source}: "))
    return "\n".join([render_verdict(verdict, verbose=verbose), *analysis_lines(verdict)])


def analysis_lines(verdict: Verdict) -> list[str]:
    """The findings of the game's analysis, one line each, indented, then its summary
    (nothing when the game was not analysed: no legal ply)."""
    analysis = verdict.analysis
    if analysis is None:
        return []
    return [*finding_lines(verdict, prefix="  "), f"  {summary_words(analysis)}"]


def finding_lines(verdict: Verdict, *, prefix: str = "") -> list[str]:
    """One line per finding of the game's analysis, in the order of the plies, each
    after `prefix` (an analysis that failed, a bug: one line saying so)."""
    analysis = verdict.analysis
    if analysis is None:
        return []
    if analysis.error is not None:
        return [f"{prefix}analysis: {analysis.error}"]
    return [f"{prefix}{finding_line(analysis, mistake)}" for mistake in analysis.mistakes]


def finding_line(analysis: GameAnalysis, mistake: Mistake) -> str:
    """``ply 3 (move 2, White) P g2-g4 [allows-mate]: Black mates in 1: 2... Qh4# (GC:
    2... q d8-h4)``: one finding in one line."""
    ply = analysis.plies[mistake.ply - 1]
    where = f"ply {ply.ply} (move {ply.move_number}, {ply.side.value.capitalize()}) {ply.move}"
    return f"{where} [{mistake.kind.value}]: {finding_words(mistake)}"


def finding_words(mistake: Mistake) -> str:
    """What a finding means, then its line in SAN and in Game Courier text."""
    mover = mistake.side.value.capitalize()
    other = (Side.BLACK if mistake.side is Side.WHITE else Side.WHITE).value.capitalize()
    if mistake.kind is MistakeKind.MISSED_MATE:
        what = f"{mover} had a mate in {mistake.moves}"
    elif mistake.kind is MistakeKind.ALLOWS_MATE:
        what = f"{other} mates in {mistake.moves}"
    else:
        from gcadj.analysis.analyser import balance_words

        then = balance_words(mistake.before or 0)
        now = balance_words(mistake.after or 0)
        what = f"loses {plural(mistake.lost or 0, 'class unit')} ({then} to {now})"
    if not mistake.line:
        return what
    san = numbered_moves(mistake.san, mistake.position)
    text = numbered_moves(mistake.line, mistake.position)
    return f"{what}: {san} (GC: {text})"


def summary_words(analysis: GameAnalysis) -> str:
    """``analysis: 0 missed-mate, 1 allows-mate, 0 loses-material (mates within 2 moves,
    threshold 2 class units)``, and the positions whose search or count was cut."""
    if analysis.error is not None:
        return f"analysis: {analysis.error}"
    counts = ", ".join(f"{count} {kind.value}" for kind, count in analysis.counts().items())
    cut = analysis.cut
    cut_words = "" if not cut else f"; {plural(cut, 'position')} cut short, claiming nothing"
    return (
        f"analysis: {counts} (mates within {plural(analysis.mate_depth, 'move')}, threshold "
        f"{plural(analysis.threshold, 'class unit')}){cut_words}"
    )


# The PGN conventions other tools read (lichess writes them so): a Numeric Annotation Glyph
# per ply with a finding, and the engine's evaluation in a comment command.
MATE_NAG: Final = 4
"""``$4`` (``??``, a blunder): a mate missed or allowed."""
MATERIAL_NAG: Final = 2
"""``$2`` (``?``, a mistake): material lost."""


def nag_of(mistakes: Sequence[Mistake]) -> int | None:
    """The NAG of a ply's findings (a mate finding outweighs a material one); None: none."""
    if not mistakes:
        return None
    if any(mistake.kind is not MistakeKind.LOSES_MATERIAL for mistake in mistakes):
        return MATE_NAG
    return MATERIAL_NAG


def eval_command(facts: PositionFacts) -> str | None:
    """What is known of a position as lichess writes an evaluation: ``[%eval #2]`` for a
    forced mate by White within the depth, ``[%eval #-2]`` by Black, else the balance after
    the exchanges in class units, White's view (``[%eval 2.0]``, ``[%eval -5.0]``); None
    when neither is known (a count cut short, or exchanges that end in mate: the balance
    then weighs nothing)."""
    if facts.mate is not None:
        moves = facts.mate.moves if facts.mate.winner is Side.WHITE else -facts.mate.moves
        return f"[%eval #{moves}]"
    if facts.balance is None or facts.exchange_mate is not None:
        return None
    return f"[%eval {facts.balance:.1f}]"


__all__ = [
    "MATERIAL_NAG",
    "MATE_NAG",
    "analysed_text",
    "analysis_lines",
    "eval_command",
    "finding_line",
    "finding_lines",
    "finding_words",
    "nag_of",
    "summary_words",
]
