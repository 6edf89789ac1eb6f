"""The exit codes of every command, in one place: what each means, and the policy of the
commands that judge games.

A verdict's outcome (`Verdict.outcome`: its status, or "internal-error" when gcadj itself
failed on the source) maps to a code (`STATUS_EXIT`); a command that judged several games
exits with the highest code met (`worst`): an internal error (5) outranks an unreadable
source (4), which outranks a game that could not be parsed (3), then an illegal move (1).
The CLI only raises the code it is given.

What each code means is written once too (`MEANINGS`): every command's ``--help`` ends
with its "Exit codes" paragraph made from it (`exit_codes_help`), with the command's own
words where its codes say more (``fetch``'s 3 is "the page holds no move list").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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
EXIT_READER_GONE: Final = 141  # 128 + SIGPIPE (13): what a shell reports for `yes | head -1`

STATUS_EXIT: Final[dict[str, int]] = {
    VerdictKind.LEGAL: EXIT_OK,
    VerdictKind.ILLEGAL: EXIT_ILLEGAL,
    VerdictKind.SYNTAX_ERROR: EXIT_SYNTAX,
    VerdictKind.ERROR: EXIT_UNREADABLE,
    VerdictKind.INTERNAL_ERROR: EXIT_INTERNAL,
}

INTERNAL_ERROR_HINT: Final = "this is a bug in gcadj, not a fault of the game; please report it"


MEANINGS: Final[Mapping[int, str]] = {
    EXIT_OK: "every game legal",
    EXIT_ILLEGAL: "some illegal move found",
    EXIT_USAGE: "usage (a bad option, said in words)",
    EXIT_SYNTAX: "some game could not be parsed",
    EXIT_UNREADABLE: "some source could not be read (or is empty, or a folder holds no game)",
    EXIT_INTERNAL: "gcadj failed on some source (an internal error: a bug, please report it)",
    EXIT_CANNOT_WRITE: "an output could not be written (a full disk, no permission)",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C)",
    EXIT_READER_GONE: "the reader of the output stopped before gcadj finished (| head)",
}
"""What each exit code means, said for the commands that judge games."""

JUDGING_CODES: Final = (
    EXIT_OK,
    EXIT_ILLEGAL,
    EXIT_USAGE,
    EXIT_SYNTAX,
    EXIT_UNREADABLE,
    EXIT_INTERNAL,
    EXIT_CANNOT_WRITE,
    EXIT_READER_GONE,
)
"""The codes of a command that judges games and prints them (check, adjudicate, audit)."""


def exit_codes_help(
    codes: Iterable[int] = JUDGING_CODES,
    *,
    said: Mapping[int, str] | None = None,
    more: Mapping[int, str] | None = None,
    several: bool = True,
) -> str:
    """The "Exit codes" paragraph of a command's ``--help``: each of its `codes`, in
    numeric order, with its meaning (`MEANINGS`) or the command's own words for it (`said`),
    and what the command adds in parentheses (`more`); `several` says the highest of
    several codes wins.

    Examples:
        >>> exit_codes_help((EXIT_OK, EXIT_USAGE), said={EXIT_OK: "converted"}, several=False)
        'Exit codes: 0 converted; 2 usage (a bad option, said in words).'
        >>> exit_codes_help((EXIT_OK, EXIT_USAGE), more={EXIT_USAGE: "FILE exists"}, several=False)
        'Exit codes: 0 every game legal; 2 usage (a bad option, said in words; FILE exists).'
    """
    said, more = said or {}, more or {}
    parts = []
    for code in sorted(set(codes)):
        words = said.get(code, MEANINGS[code])
        parts.append(f"{code} {_with(words, more[code]) if code in more else words}")
    text = f"Exit codes: {'; '.join(parts)}."
    if several:
        text += " When several apply, the highest wins."
    return text


def _with(words: str, more: str) -> str:
    """`words` with `more` added inside their closing parenthesis, or in one of its own."""
    return f"{words[:-1]}; {more})" if words.endswith(")") else f"{words} ({more})"


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
    "EXIT_READER_GONE",
    "EXIT_SYNTAX",
    "EXIT_UNREADABLE",
    "EXIT_USAGE",
    "INTERNAL_ERROR_HINT",
    "JUDGING_CODES",
    "MEANINGS",
    "STATUS_EXIT",
    "exit_code_of",
    "exit_codes_help",
    "worst",
]
