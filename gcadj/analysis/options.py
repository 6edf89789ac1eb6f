"""How a game is adjudicated, and how a whole game is analysed: the options and their
defaults, apart from the prover, so that the command line reads the one set of defaults
without loading the search at start-up."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

DEFAULT_MATE_DEPTH: Final = 3
DEFAULT_BUDGET: Final = 30.0
DEFAULT_EVIDENCE_MARGIN: Final = 3
"""Class units: a Rook's worth, or three Pawns (docs/rules.md §7)."""
THREAT_DEPTH: Final = 2
"""The longest mate looked for as a threat of the side not to move (docs/rules.md §7.4)."""
THREAT_NODES: Final = 200_000
"""The most nodes the search for a threat may visit (and no more than the adjudication's
own node limit): a threat is a remark, never worth a second full budget."""

DEFAULT_ANALYSE_DEPTH: Final = 2
"""The longest forced mate the analysis of a game looks for at each ply (docs/rules.md §8)."""
DEFAULT_MATERIAL_THRESHOLD: Final = 2
"""Class units the balance after the exchanges must fall by for a ply to lose material: a
Bishop's or a Knight's worth, so that a Pawn given up is not called a mistake."""
DEFAULT_ANALYSE_NODES: Final = 200_000
"""The nodes one mate search of the analysis may visit (each position has one): a bound
the same on every machine, far above what the bench's games need (docs/analyse.md)."""


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


@dataclass(frozen=True)
class AnalyseOptions:
    """How a whole game is analysed (`gcadj.analysis.analyse`): the longest forced mate
    searched at each ply (`mate_depth`, the winner's moves), the class units the balance
    after the exchanges must fall by for a ply to lose material (`threshold`), and the
    bounds of each position's mate search: `node_limit` nodes (None: no limit) and
    `budget` seconds (wall clock; None, the default, keeps the answer the same on every
    machine). Small and picklable.

    Examples:
        >>> import gcadj
        >>> options = gcadj.AnalyseOptions(mate_depth=1)
        >>> options.mate_depth, options.threshold, options.node_limit
        (1, 2, 200000)
    """

    mate_depth: int = DEFAULT_ANALYSE_DEPTH
    threshold: int = DEFAULT_MATERIAL_THRESHOLD
    node_limit: int | None = DEFAULT_ANALYSE_NODES
    budget: float | None = None


__all__ = [
    "DEFAULT_ANALYSE_DEPTH",
    "DEFAULT_ANALYSE_NODES",
    "DEFAULT_BUDGET",
    "DEFAULT_EVIDENCE_MARGIN",
    "DEFAULT_MATERIAL_THRESHOLD",
    "DEFAULT_MATE_DEPTH",
    "INTERNAL_REASON",
    "THREAT_DEPTH",
    "THREAT_NODES",
    "AdjudicateOptions",
    "AnalyseOptions",
]
