"""gcadj: adjudicate Game Courier games of Pocket Mutation Chess.

The package is layered (see README, "Architecture"): piece kinds and squares at
the bottom, the rules engine (`Position`) above them, the Game Courier parser
beside it, the adjudicator (`replay`, `check_text`) on top, the CLI last.
Heavy or optional modules are imported lazily so `gcadj --help` starts fast.
"""

from __future__ import annotations

__version__ = "0.1.0"

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gcadj.adjudication.verdict import Finding, Verdict, check_source, check_text, replay
    from gcadj.engine.move import Move
    from gcadj.engine.position import Outcome, Position, Termination
    from gcadj.notation.parse import LogSyntaxError, parse_log

_LAZY = {
    "Position": "gcadj.engine.position",
    "Outcome": "gcadj.engine.position",
    "Termination": "gcadj.engine.position",
    "Move": "gcadj.engine.move",
    "Verdict": "gcadj.adjudication.verdict",
    "Finding": "gcadj.adjudication.verdict",
    "check_text": "gcadj.adjudication.verdict",
    "check_source": "gcadj.adjudication.verdict",
    "replay": "gcadj.adjudication.verdict",
    "parse_log": "gcadj.notation.parse",
    "LogSyntaxError": "gcadj.notation.parse",
}

__all__ = [
    "Finding",
    "LogSyntaxError",
    "Move",
    "Outcome",
    "Position",
    "Termination",
    "Verdict",
    "__version__",
    "check_source",
    "check_text",
    "parse_log",
    "replay",
]


def __getattr__(name: str) -> Any:
    """Import the public API on first use, so `import gcadj` (and the CLI) start fast."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'gcadj' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
