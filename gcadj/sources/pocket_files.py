"""The pocket file of a log that does not name it, found from the squares its plies use.

Game Courier's two presets of Pocket Mutation Chess put the pockets on different files: the
2009 one on ``i`` (``i1``/``i8``), the newer one on ``p`` (``p1``/``p8``). A log says which
only if a ``PocketFile`` tag or ``--pocket-file`` does; otherwise its plies do: a log that
pockets onto ``p1`` is a log of the newer preset, and every player of it would otherwise meet
"p1 is not a square" at the first pocketing. Only a preset's file is found so: ``N g1-k1``
is a syntax error (no preset has its pockets on k), whose hint names the option that reads
such a log all the same.

The grammar stays the one definition of what a square is (``grammars/gamecourier.lark``,
with the pocket file as a setting): the log is read with the pockets on ``i``, and when the
parser stops at a square of another file past ``h`` (``p1``, ``k8``), it is read again with
the pockets on that file (`parse_log_finding_pockets`). A log that uses two such files
(``i1`` on one line, ``p1`` on a later one) is a syntax error at the first square of the
second, with a hint naming both: a game is played on one preset.
"""

from __future__ import annotations

import re
from typing import Final

from gcadj.errors import LogSyntaxError
from gcadj.notation.parse import parse_log
from gcadj.notation.records import GameLog, submove_squares
from gcadj.vocabulary import (
    DEFAULT_POCKET_FILE,
    PocketFile,
    is_preset_file,
    presets_in_words,
)

__all__ = ["parse_log_finding_pockets"]

# A pocket square of some file past h where the parser stopped: its file letter, a rank of
# the pockets (1 or 8), and no more digits. Only a square the parser wanted is retried.
_POCKET_SQUARE: Final = re.compile(r"([i-z])[18](?![0-9])")


def parse_log_finding_pockets(text: str, source: str) -> GameLog:
    """Parse normalised log text whose pocket file nothing names (module docstring); raises
    `LogSyntaxError` as `parse_log` does, and for a log that uses two pocket files."""
    letter = DEFAULT_POCKET_FILE
    first: LogSyntaxError | None = None  # the error with the pockets on i, if it stands
    tried = {letter}
    while True:
        try:
            return parse_log(text, source=source, pocket_file=letter, normalised=True)
        except LogSyntaxError as err:
            if first is not None and (err.line, err.column) <= (first.line, first.column):
                raise first from None  # another file read no further: the first error stands
            other = _pocket_file_at(err, letter)
            if other is None:
                raise
            used = _first_pocket_square(err, letter)
            if used is not None:
                raise _two_files(err, letter, other, used) from None
            if other in tried:
                raise first or err from None
            first = first or err
            letter = other
            tried.add(letter)


def _pocket_file_at(err: LogSyntaxError, letter: PocketFile) -> PocketFile | None:
    """The file of the pocket square past ``h`` where the parser wanted a square, if it is
    not `letter`'s; else None."""
    if "square" not in err.expected:
        return None
    found = _POCKET_SQUARE.match(err.line_text, max(0, err.column - 1))
    if found is None or found[1] == letter or not is_preset_file(found[1]):
        return None  # only a preset's file is found from the plies (k1 is no square)
    return PocketFile(found[1])


def _first_pocket_square(err: LogSyntaxError, letter: PocketFile) -> tuple[str, int] | None:
    """The first pocket square of file `letter` that the log uses before `err`, and its
    line: in the plies read (`LogSyntaxError.partial`), else in the sub-moves of the error's
    own line that the parser read before it stopped."""
    pockets = (letter.square(1), letter.square(8))
    for record in () if err.partial is None else err.partial.records:
        for sub in record.submoves:
            square = next((s for s in submove_squares(sub) if s in pockets), None)
            if square is not None:
                return square, record.line
    read = err.line_text[: max(0, err.column - 1)]
    for found in _POCKET_SQUARE.finditer(read):
        if found[1] == letter and (found.start() == 0 or not read[found.start() - 1].isalnum()):
            return found[0], err.line
    return None


def _two_files(
    err: LogSyntaxError, letter: PocketFile, other: PocketFile, used: tuple[str, int]
) -> LogSyntaxError:
    """The syntax error at the first square of a second pocket file."""
    square, line = used
    mixed = LogSyntaxError(
        err.source,
        err.line,
        err.column,
        f"a pocket square on file {letter} ({letter.square(1)} or {letter.square(8)}), "
        "the file of this log's pockets",
        err.line_text,
        hint=(
            f"this log puts its pockets on file {letter} ({square} on line {line}) and here "
            f"on file {other}: a game is played on one preset: {presets_in_words()}; a "
            "PocketFile tag or --pocket-file says which"
        ),
    )
    mixed.partial = err.partial
    return mixed
