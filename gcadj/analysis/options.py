"""How a game is adjudicated: the options and their defaults, apart from the prover, so that
the command line reads the one set of defaults without loading the search at start-up."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

DEFAULT_MATE_DEPTH: Final = 3
DEFAULT_BUDGET: Final = 30.0
DEFAULT_EVIDENCE_MARGIN: Final = 3
"""Class units: a Rook's worth, or three Pawns (docs/rules.md §7)."""


INTERNAL_REASON: Final = "internal error: "
"""How the reason of an adjudication on which gcadj itself failed (a bug) begins: an
audit's JSONL is read back by its products, which know the failure by it."""


@dataclass(frozen=True)
class AdjudicateOptions:
    """How each game is adjudicated: the longest mate searched (the winner's moves), the
    seconds (wall clock) and nodes a search may take per game (None: no limit), and the
    material lead, in class units, that counts as evidence. Small and picklable.

    Examples:
        >>> import gcadj
        >>> quick = gcadj.AdjudicateOptions(mate_depth=1, budget=None, node_limit=10_000)
        >>> found = gcadj.adjudicate_position("k7/8/2K5/8/8/8/8/7R[] w - - 0 1", quick)
        >>> found.kind.value, found.no_mate_within, found.mate_depth  # the mate is in 2
        ('evidence', 1, 1)
    """

    mate_depth: int = DEFAULT_MATE_DEPTH
    budget: float | None = DEFAULT_BUDGET
    node_limit: int | None = None
    evidence_margin: int = DEFAULT_EVIDENCE_MARGIN


__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_EVIDENCE_MARGIN",
    "DEFAULT_MATE_DEPTH",
    "INTERNAL_REASON",
    "AdjudicateOptions",
]
