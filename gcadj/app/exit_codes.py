"""The exit-code policy of every command that judges games, in one place.

A verdict's outcome (`Verdict.outcome`: its status, or "internal-error" when gcadj itself
failed on the source) maps to a code (`STATUS_EXIT`); a command that judged several games
exits with the highest code met (`worst`): an internal error (5) outranks an unreadable
source (4), which outranks a game that could not be parsed (3), then an illegal move (1).
The CLI only raises the code it is given.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from gcadj.vocabulary import VerdictKind

EXIT_OK: Final = 0
EXIT_ILLEGAL: Final = 1
EXIT_USAGE: Final = 2
EXIT_SYNTAX: Final = 3
EXIT_UNREADABLE: Final = 4
EXIT_INTERNAL: Final = 5  # gcadj itself failed on a source (a bug): never 1, which means "illegal"
EXIT_CANNOT_WRITE: Final = 6  # an output could not be written (full disk, no permission): not a bug
EXIT_INTERRUPTED: Final = 130

STATUS_EXIT: Final[dict[str, int]] = {
    VerdictKind.LEGAL: EXIT_OK,
    VerdictKind.ILLEGAL: EXIT_ILLEGAL,
    VerdictKind.SYNTAX_ERROR: EXIT_SYNTAX,
    VerdictKind.ERROR: EXIT_UNREADABLE,
    VerdictKind.INTERNAL_ERROR: EXIT_INTERNAL,
}

INTERNAL_ERROR_HINT: Final = "this is a bug in gcadj, not a fault of the game; please report it"


def exit_code_of(outcome: VerdictKind | str) -> int:
    """The code of one verdict's outcome (an unknown outcome counts as unreadable)."""
    return STATUS_EXIT.get(outcome, EXIT_UNREADABLE)


def worst(codes: Iterable[int]) -> int:
    """The code a command exits with after several results: the highest wins (0 for none)."""
    return max(codes, default=EXIT_OK)


__all__ = [
    "EXIT_CANNOT_WRITE",
    "EXIT_ILLEGAL",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_SYNTAX",
    "EXIT_UNREADABLE",
    "EXIT_USAGE",
    "INTERNAL_ERROR_HINT",
    "STATUS_EXIT",
    "exit_code_of",
    "worst",
]
