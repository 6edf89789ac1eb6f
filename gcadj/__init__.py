"""gcadj: adjudicate Game Courier games of Pocket Mutation Chess.

The package is layered (see README, "Architecture"): piece kinds and squares at
the bottom, the rules engine (`Position`) above them, the Game Courier parser
beside it, the adjudicator (`replay`, `check_text`) on top, the CLI last.
Heavy or optional modules are imported lazily so `gcadj --help` starts fast.
"""

from __future__ import annotations

__version__ = "0.1.0"
