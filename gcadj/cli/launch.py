"""The console script's entry point (``gcadj``, ``python -m gcadj``).

Importing the command line takes about a second on a busy machine (typer, click, the
layers below). A Ctrl-C in that second would otherwise end gcadj with a traceback, which
no input or timing may give: here it ends as a Ctrl-C during a command does, exit 130 and
one line. This module imports nothing of gcadj's until the command line itself, so the
guard is in place from the first moment.
"""

from __future__ import annotations

import re
import sys

_COMMAND_WORD = re.compile(r"[a-z]{1,20}")


def interrupted_line(argv: list[str]) -> str:
    """The one line said for a Ctrl-C while starting: ``gcadj <command>: interrupted`` when
    the first argument is a plain word (the command), else ``gcadj: interrupted``. Only a
    short word of letters is echoed, so no control character of the arguments is written.

    Examples:
        >>> interrupted_line(["gcadj", "analyse", "game.txt"])
        'gcadj analyse: interrupted'
        >>> interrupted_line(["gcadj", "\\x1b[2J"])
        'gcadj: interrupted'
    """
    first = argv[1] if len(argv) > 1 else ""
    if _COMMAND_WORD.fullmatch(first):
        return f"gcadj {first}: interrupted"
    return "gcadj: interrupted"


def main() -> None:
    """Import the command line under a guard for Ctrl-C, then run it (`gcadj.cli.main`)."""
    try:
        from gcadj.cli.main import main as run
    except KeyboardInterrupt:
        from gcadj.app.exit_codes import EXIT_INTERRUPTED  # small: the vocabulary only

        sys.stderr.write(interrupted_line(sys.argv) + "\n")
        sys.stderr.flush()
        raise SystemExit(EXIT_INTERRUPTED) from None
    run()
