"""How a game is adjudicated, and how a whole game is analysed: the options, their defaults
and their ranges, apart from the prover, so that the command line reads the one set of
defaults without loading the search at start-up. The ranges are checked here once
(`check_search_limits`, the options' `__post_init__`) for the API and the command line
alike."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from gcadj.errors import OptionError

DEFAULT_MATE_DEPTH: Final = 4
"""The longest mate searched by default: "no mate within 4" for either side is what the
default budget proves on a middlegame of the sample games (7 s of CPU in the compiled build
on the final position of ex3_promotion_via_pocket.txt; "within 5" takes minutes there:
docs/performance-adjudicate.md)."""
MAX_MATE_DEPTH: Final = 30
"""The longest mate that may be asked for: past a dozen moves no search finishes anyway,
and the depth sizes the search's own bookkeeping."""
DEFAULT_BUDGET: Final = 30.0
DEFAULT_EVIDENCE_MARGIN: Final = 3
"""Class units: a Rook's worth, or three Pawns (docs/rules.md §7)."""
DEFAULT_TABLE_MB: Final = 512
"""Megabytes the prover's transposition table may take (a search's whole memory stays a
little above it): what a search of the default budget fills on a middlegame, with room."""
MIN_TABLE_MB: Final = 1
MAX_TABLE_MB: Final = 1 << 20

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


def check_search_limits(
    depth: int,
    seconds: float | None,
    node_limit: int | None,
    table_mb: float,
    *,
    depth_from: int = 1,
) -> None:
    """`OptionError` for a limit of a mate search out of its range: the depth (from
    `depth_from` to `MAX_MATE_DEPTH` moves), the seconds (None, or a number ≥ 0), the
    node limit (None, or a whole number ≥ 1) and the table's megabytes.

    Examples:
        >>> check_search_limits(5, 30.0, None, 512)
        >>> check_search_limits(5, 30.0, -1, 512)
        Traceback (most recent call last):
        ...
        gcadj.errors.OptionError: node_limit needs None or a whole number ≥ 1, not -1
    """
    if not _whole(depth) or not depth_from <= depth <= MAX_MATE_DEPTH:
        raise OptionError(
            "mate_depth", f"a whole number from {depth_from} to {MAX_MATE_DEPTH}", depth
        )
    if seconds is not None and not (_number(seconds) and seconds >= 0):
        raise OptionError("budget", "None or a number of seconds ≥ 0", seconds)
    if node_limit is not None and not (_whole(node_limit) and node_limit >= 1):
        raise OptionError("node_limit", "None or a whole number ≥ 1", node_limit)
    if not (_number(table_mb) and MIN_TABLE_MB <= table_mb <= MAX_TABLE_MB):
        raise OptionError(
            "table_mb", f"a number of megabytes from {MIN_TABLE_MB} to {MAX_TABLE_MB:,}", table_mb
        )


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


@dataclass(frozen=True)
class AdjudicateOptions:
    """How each game is adjudicated: the longest mate searched (the winner's moves), the
    seconds (wall clock) and nodes a search may take per game (None: no limit), the
    material lead, in class units, that counts as evidence, and the megabytes of the
    prover's transposition table. Small and picklable; `OptionError` (a ValueError) for a
    value out of its range (`check_search_limits`; the margin is a whole number ≥ 1).

    Examples:
        >>> import gcadj
        >>> quick = gcadj.AdjudicateOptions(mate_depth=1, budget=None, node_limit=10_000)
        >>> found = gcadj.adjudicate_position("k7/8/2K5/8/8/8/8/7R[] w - - 0 1", quick)
        >>> found.kind.value, found.no_mate_within, found.mate_depth  # the mate is in 2
        ('evidence', 1, 1)
        >>> gcadj.AdjudicateOptions(evidence_margin=0)
        Traceback (most recent call last):
        ...
        gcadj.errors.OptionError: evidence_margin needs a whole number ≥ 1, not 0
    """

    mate_depth: int = DEFAULT_MATE_DEPTH
    budget: float | None = DEFAULT_BUDGET
    node_limit: int | None = None
    evidence_margin: int = DEFAULT_EVIDENCE_MARGIN
    table_mb: float = DEFAULT_TABLE_MB

    def __post_init__(self) -> None:
        check_search_limits(self.mate_depth, self.budget, self.node_limit, self.table_mb)
        if not (_whole(self.evidence_margin) and self.evidence_margin >= 1):
            raise OptionError("evidence_margin", "a whole number ≥ 1", self.evidence_margin)


@dataclass(frozen=True)
class AnalyseOptions:
    """How a whole game is analysed (`gcadj.analysis.analyser`): the longest forced mate
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

    def __post_init__(self) -> None:
        check_search_limits(self.mate_depth, self.budget, self.node_limit, DEFAULT_TABLE_MB)
        if not (_whole(self.threshold) and self.threshold >= 1):
            raise OptionError("threshold", "a whole number ≥ 1", self.threshold)


__all__ = [
    "DEFAULT_ANALYSE_DEPTH",
    "DEFAULT_ANALYSE_NODES",
    "DEFAULT_BUDGET",
    "DEFAULT_EVIDENCE_MARGIN",
    "DEFAULT_MATERIAL_THRESHOLD",
    "DEFAULT_MATE_DEPTH",
    "DEFAULT_TABLE_MB",
    "INTERNAL_REASON",
    "MAX_MATE_DEPTH",
    "MAX_TABLE_MB",
    "MIN_TABLE_MB",
    "THREAT_DEPTH",
    "THREAT_NODES",
    "AdjudicateOptions",
    "AnalyseOptions",
    "check_search_limits",
]
