"""Correct a log's typing slips: each illegal ply replaced by its one strong suggestion.

A suggestion is *strong* (`gcadj.judging.suggest`) when it keeps the typed origin and
destination and differs only in a label, the en passant removal, or the case of the
letter a pocketed piece becomes: then the player's move is certain and only its spelling
was wrong. `fix_log` replays the log, replaces the first illegal ply by its strong
suggestion when there is exactly one, and judges on from the corrected position; at the
first illegal ply without one it stops, leaving that ply and the rest as typed (the
verdict of the corrected log says where). `gcadj export --to gc --fix` writes the result.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from gcadj.judging.plies import JudgedGame
from gcadj.judging.suggest import suggest
from gcadj.judging.verdict import Verdict, replay
from gcadj.notation.records import GameLog
from gcadj.notation.san import gc_submoves
from gcadj.vocabulary import Category

__all__ = ["FixedGame", "PlyFix", "fix_log"]


@dataclass(frozen=True)
class PlyFix:
    """One replaced ply: where (1-based), what was typed, and what replaced it and why."""

    ply: int
    typed: str
    text: str
    san: str
    why: str


@dataclass(frozen=True)
class FixedGame:
    """The corrected game: its verdict (with the corrected log) and the plies replaced.

    `verdict.first_illegal`, if any, is where fixing stopped: an illegal ply without
    exactly one strong suggestion, kept as typed with every ply after it.
    """

    verdict: Verdict
    fixes: tuple[PlyFix, ...]


def fix_log(log: GameLog, *, fen: str | None = None) -> FixedGame:
    """Replace each illegal ply of `log` by its one strong suggestion, in order, until a
    ply has none (see the module docstring). `fen` is as for `replay`."""
    fixes: list[PlyFix] = []
    while True:
        verdict = replay(log, fen=fen)
        finding = verdict.first_illegal
        if finding is None or finding.category == Category.AFTER_GAME_END:
            return FixedGame(verdict, tuple(fixes))
        position = JudgedGame(verdict).position_after(len(verdict.moves))  # where it stopped
        index = finding.ply - 1
        record = log.records[index]
        strong = [c for c in suggest(position, record, log.pocket_file) if c.strong]
        if len(strong) != 1:
            return FixedGame(verdict, tuple(fixes))
        best = strong[0]
        fixed = dataclasses.replace(
            record, submoves=gc_submoves(position, best.move, log.pocket_file), text=best.text
        )
        records = (*log.records[:index], fixed, *log.records[index + 1 :])
        log = dataclasses.replace(log, records=records)
        fixes.append(PlyFix(finding.ply, record.text, best.text, best.san, best.why))
