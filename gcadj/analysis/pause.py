"""Where a long compiled computation lets Python notice Ctrl-C.

Python runs a signal handler (the one that raises `KeyboardInterrupt`) only between
bytecodes of interpreted code; the compiled core (hatch_build.py) runs none while it
searches, so a Ctrl-C would wait for the search to end. The prover calls `breathe` every
`gcadj.analysis.search.TICK` nodes: entering an interpreted function is such a moment, so
Ctrl-C ends a search within milliseconds in both builds. This module must stay out of the
compiled core (tests/analysis/test_adjudicate_cli.py interrupts a search through the API).
"""

from __future__ import annotations


def breathe() -> None:
    """Nothing: that this function is interpreted Python is the point."""


__all__ = ["breathe"]
