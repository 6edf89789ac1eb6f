"""Every exception gcadj defines, under one root: `GcadjError`.

One module, at the bottom of the house, so that any layer can raise or catch any of them
and a caller can tell gcadj's own errors from everything else with one ``except``. The
modules that raise an error re-export it where it was always imported from (``from
gcadj.engine.fen import FenError`` still works), but this is where each is written.

Two kinds live here:

* errors about the user's input (`FenError`, `LogSyntaxError`, `SourceError`, ...): each
  ends as a verdict, a message or an exit code, never a traceback;
* signals inside one module's work (`ParserDeclined`, `RetryableFetch`,
  `UnreadableCell`): they never leave that module.

An unexpected exception that is *not* a `GcadjError` while judging a source is a bug; the
application layer turns it into that source's internal-error verdict (exit code 5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, NamedTuple

from gcadj.terminal import visible

if TYPE_CHECKING:
    from pathlib import Path

    from gcadj.engine.move import Move
    from gcadj.notation.records import GameLog


class GcadjError(Exception):
    """The root of every exception gcadj defines."""


# -- the rules engine ----------------------------------------------------------------------


FEN_SHOWN = 100
"""Characters of a bad FEN (or Game Courier code) its error shows around the column: a
FEN is short, and a 5 MB input echoed whole is no message."""


def fen_excerpt(fen: str, column: int) -> tuple[str, str]:
    """The part of `fen` an error shows (at most `FEN_SHOWN` characters around 1-based
    `column`, an ellipsis where it is cut), and the caret line under it."""
    if len(fen) <= FEN_SHOWN:
        return fen, caret_padding(fen[: column - 1]) + "^"
    start = max(0, min(column - 1 - FEN_SHOWN // 2, len(fen) - FEN_SHOWN))
    end = start + FEN_SHOWN
    head = "…" if start > 0 else ""
    shown = head + fen[start:end] + ("…" if end < len(fen) else "")
    return shown, caret_padding(head + fen[start : column - 1]) + "^"


def _cut(message: str) -> str:
    """A message that may quote a field of a huge FEN, cut to twice `FEN_SHOWN`."""
    return message if len(message) <= 2 * FEN_SHOWN else message[: 2 * FEN_SHOWN] + "…"


class FenError(GcadjError, ValueError):
    """A FEN that cannot be read; `column` is 1-based into the FEN text. The message shows
    at most `FEN_SHOWN` characters of it (`fen_excerpt`); `fen` keeps it whole.

    Examples:
        >>> print(FenError("k7/8/8/8/8/8/8/7K[] w - - 0 x", 29, "no number"))
        bad FEN at column 29: no number
          k7/8/8/8/8/8/8/7K[] w - - 0 x
                                      ^
        >>> len(str(FenError("x" * 5_000_000, 1, "too long")))
        137
    """

    def __init__(self, fen: str, column: int, message: str) -> None:
        self.fen = fen
        self.column = column
        self.message = message = _cut(message)
        shown, caret = fen_excerpt(fen, column)
        super().__init__(f"bad FEN at column {column}: {message}\n  {shown}\n  {caret}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.fen, self.column, self.message))  # a Game Courier code's too


class IllegalMoveError(GcadjError, ValueError):
    """A move that is not legal in the position, with the FEN it was tried in and the rule
    it breaks."""

    def __init__(self, move: Move, fen: str, why: str = "") -> None:
        self.move = move
        self.fen = fen
        self.why = why  # the rule it breaks (`gcadj.engine.position.IllegalReason`'s words)
        super().__init__(f"illegal move: {move.uci()!r} in {fen}{f' ({why})' if why else ''}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.move, self.fen, self.why))


# -- notation ------------------------------------------------------------------------------


class GcCodeError(FenError):
    """A Game Courier code that cannot be read; `column` is 1-based into the code."""

    def __init__(self, code: str, column: int, message: str) -> None:
        self.fen = code
        self.column = column
        self.message = message = _cut(message)
        shown, caret = fen_excerpt(code, column)
        ValueError.__init__(
            self, f"bad Game Courier code at column {column}: {message}\n  {shown}\n  {caret}"
        )


class SanError(GcadjError, ValueError):
    """SAN text that is not a legal move in the position: the text, the FEN and why.

    `named` is the move the text names when it names one piece that could go there but
    the move is illegal (``Kf7`` into check, a pinned piece's move): a reader judges that
    move as a ply, as it would be judged in a Game Courier log. None when the text names
    no such move (no piece could go there, or several could)."""

    def __init__(self, san: str, fen: str, reason: str, named: Move | None = None) -> None:
        self.san = san
        self.fen = fen
        self.reason = reason
        self.named = named
        super().__init__(f"{san!r} is not a legal move in {fen}: {reason}")


class LogSyntaxError(GcadjError, ValueError):
    """A log that is not Game Courier syntax, with where and why.

    ``line`` and ``column`` are 1-based; ``expected`` says in words what the
    grammar wanted there; ``hint`` names a foreign notation or a bad square
    when one is recognised; ``line_text`` is the offending source line.

    ``partial`` is what could be read before the error when it stands on a ply line after
    at least one readable ply: the header and those plies, as a `GameLog`, so that the
    game can be judged up to the unreadable ply. It is None for an error in the header
    (tags, or the first ply), where there is no game to judge.

    Examples:
        >>> from gcadj import parse_log
        >>> try:
        ...     parse_log('''P e2-e4
        ... p e7 e5
        ... ''', "game.txt")
        ... except LogSyntaxError as error:
        ...     print(error.line, error.column, error.expected)
        ...     print(error.hint)
        ...     print(len(error.partial.records))
        2 6 '-' and a square after the square e7
        join the two squares with '-': write 'p e7-e5'
        1
    """

    def __init__(
        self,
        source: str,
        line: int,
        column: int,
        expected: str,
        line_text: str,
        hint: str | None = None,
        partial: GameLog | None = None,
    ) -> None:
        self.source = source
        self.line = line
        self.column = column
        self.expected = expected
        self.hint = hint
        self.line_text = line_text
        self.partial = partial
        super().__init__(self._render())

    def _render(self) -> str:
        head = f"{self.source}:{self.line}:{self.column}: syntax error: expected {self.expected}"
        shown, caret = excerpt(self.line_text, self.column - 1)
        text = f"{head}\n{INDENT}{shown}\n{INDENT}{caret}^"
        return f"{text}\nhint: {self.hint}" if self.hint else text

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by constructor arguments (errors cross process pools in audits)."""
        args = (
            self.source,
            self.line,
            self.column,
            self.expected,
            self.line_text,
            self.hint,
            self.partial,
        )
        return (type(self), args)


class MessageParts(NamedTuple):
    """A message as gcadj words one (`LogSyntaxError`'s layout), in the parts a page lays
    out apart: the first line (with any plain lines after it), the excerpt of the line
    and the caret under the column (two lines, as printed, without their indent; None
    when there is none), and the hint (None when there is none)."""

    message: str
    excerpt: str | None = None
    hint: str | None = None


def message_parts(text: str) -> MessageParts:
    r"""`text` (a verdict's error) split as `LogSyntaxError` lays it out: a head line, the
    line and its caret each indented four spaces, then ``hint: ...``. The reading of that
    layout is here, beside the writing of it.

    Examples:
        >>> parts = message_parts("g.txt:2:6: syntax error: expected '-'\n    p e7 e5\n"
        ...                       "         ^\nhint: join the two squares with '-'")
        >>> parts.message, parts.hint
        ("g.txt:2:6: syntax error: expected '-'", "join the two squares with '-'")
        >>> print(parts.excerpt)
        p e7 e5
             ^
        >>> message_parts("pasted text: empty")
        MessageParts(message='pasted text: empty', excerpt=None, hint=None)
    """
    message: list[str] = []
    shown: list[str] = []
    hint: list[str] = []
    for line in text.split("\n"):
        if hint:
            hint.append(line)
        elif line.startswith("hint: "):
            hint.append(line[len("hint: ") :])
        elif line.startswith(INDENT) and message and len(shown) < 2:
            shown.append(line[len(INDENT) :])
        else:
            message.append(line)
    excerpt_lines = shown if len(shown) == 2 and shown[1].endswith("^") else []
    if not excerpt_lines:
        message += [INDENT + line for line in shown]
    return MessageParts(
        "\n".join(message).strip(),
        "\n".join(excerpt_lines) or None,
        "\n".join(hint).strip() or None,
    )


INDENT = "    "  # the excerpt's and the caret's, under a message's head line


def excerpt(line_text: str, col0: int, span: int = 60) -> tuple[str, str]:
    """The line (cut around long lines) and the padding that puts a caret under ``col0``.

    The padding is `caret_padding`'s: the caret lines up under the line as printed.
    """
    start = max(0, col0 - span)
    shown = line_text[start : col0 + span]
    if start:
        shown = "..." + shown
    return shown, ("   " if start else "") + caret_padding(line_text[start:col0])


def caret_padding(before: str) -> str:
    """The padding that puts a caret under the character after `before`, as a terminal
    shows the line (`gcadj.terminal.visible`): a tab for a tab, so the caret lines up
    whatever the tab width, and as many spaces as each other character takes once made
    visible (one for a letter or ``␛``, four for a C1 control shown ``\x9b``)."""
    return "".join("\t" if ch == "\t" else " " * len(visible(ch)) for ch in before)


class ParserDeclined(GcadjError):
    """The parser's fast path met something it leaves to the reference path (Lark).

    ``valid_to`` is how far (an offset in the body, or once raised by the ply reader in the
    line) the text is known to be valid sub-moves ending with a ';': Lark need not read
    them again. Never leaves `gcadj.notation.parse`.
    """

    def __init__(self, valid_to: int = 0) -> None:
        super().__init__(valid_to)
        self.valid_to = valid_to


# -- analysis --------------------------------------------------------------------------------


class SearchCut(GcadjError):
    """A mate search ran out of what it was given: `why` is "budget" (its seconds) or
    "nodes" (its node limit). Never leaves `gcadj.analysis.search`, whose answer then says
    how far the search got."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class OptionError(GcadjError, ValueError):
    """An option of a search or an adjudication out of its range (a mate depth of 0, a
    negative node limit...): `option` names it as the API does (``mate_depth``), and the
    message says what it needs. The command line turns it into a usage error (exit 2).

    Examples:
        >>> print(OptionError("mate_depth", "a whole number from 1 to 30", 0))
        mate_depth needs a whole number from 1 to 30, not 0
    """

    def __init__(self, option: str, needs: str, value: object) -> None:
        self.option = option
        self.needs = needs
        self.value = value
        super().__init__(self.said_as(option))

    def said_as(self, name: str) -> str:
        """The message with the option called `name` (the command line's ``--mate-depth``).

        Examples:
            >>> OptionError("mate_depth", "a whole number from 1 to 30", 0).said_as("--mate-depth")
            '--mate-depth needs a whole number from 1 to 30, not 0'
        """
        return f"{name} needs {self.needs}, not {self.value!r}"

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.option, self.needs, self.value))


class UnheldProof(GcadjError):
    """A mate the prover took from its transposition table does not hold on the line its
    proof was rebuilt on (a draw by repetition there). Never leaves
    `gcadj.analysis.search`, which then searches again without trusting the table's
    mates."""


class ProofFault(GcadjError):
    """The first fault the proof checker found in a proof tree; its message is the reason.
    Never leaves `gcadj.analysis.proof_check`, which answers with a rejection."""


class ProofRejected(GcadjError, RuntimeError):
    """The proof checker rejected a proof the prover made: a bug of gcadj's (the
    adjudication of that game becomes an internal error), never a proven mate printed."""


# -- adjudication --------------------------------------------------------------------------


class UnsupportedSquare(GcadjError, ValueError):
    """A square name the literal board does not have (never produced by the parser)."""


# -- sources -------------------------------------------------------------------------------


class SourceError(GcadjError):
    """A source that could not be read; the message names it and says why."""


class FetchError(GcadjError):
    """A page that could not be fetched; the message names the URL and the reason."""

    def __init__(self, url: str, reason: str, status: int | None = None) -> None:
        self.url = url
        self.reason = reason
        self.status = status
        super().__init__(f"{url}: {reason}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.url, self.reason, self.status))


class AddressRefused(GcadjError):
    """A host that resolves (or connected) to an address a server must not fetch from:
    loopback, private, link-local, metadata; says which and why."""


class RetryableFetch(GcadjError):
    """A failure worth another attempt; `wait` overrides the backoff (Retry-After).
    Never leaves `gcadj.sources.fetch`."""

    def __init__(self, reason: str, wait: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.wait = wait


class PageError(LogSyntaxError):
    """A page that holds no readable game; says which page and what is missing.

    It is a `LogSyntaxError` so that a page without a move list is judged the way a
    text that is not a log is ("syntax-error", exit code 3), by the same code path.
    """

    def __init__(self, source: str, message: str, line: int = 1, column: int = 1) -> None:
        self.message = message
        super().__init__(source, line, column, "a Game Courier move list", "", None)

    def _render(self) -> str:
        return f"{self.source}:{self.line}:{self.column}: {self.message}"

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.source, self.message, self.line, self.column))


class CopiedPageError(PageError):
    """Page text without a move list: no game to judge, so the verdict is an "error"."""

    status = "error"


class OwnFileError(PageError):
    """A file gcadj wrote that holds no game (an audit report, the verdicts of ``check
    --json``): no game to judge, so the verdict is an "error"; its text is never read as
    moves."""

    status = "error"


class UnreadableCell(GcadjError):
    """A board cell whose content is not a piece we recognise: the page's board is then
    not compared with the replay. Never leaves `gcadj.sources.pages.board`."""


# -- reading a judged game ----------------------------------------------------------------


class NoGame(GcadjError, ValueError):
    """A verdict without a game to walk (`gcadj.judging.plies`): a source that could
    not be read or parsed."""


class StaleVisit(GcadjError, RuntimeError):
    """A judged ply's live position was asked for when it no longer stands: after the walk
    moved past the ply, or (for the position before it) inside its ``after()`` block."""


# -- outputs and whole jobs ----------------------------------------------------------------


class ExportError(GcadjError, ValueError):
    """A conversion the games or the options cannot give (no game, a ply out of range, an
    option the format does not take, an output that may not be written): a usage error,
    raised before anything is written."""


class AuditError(GcadjError):
    """The audit cannot start: an existing output, an output that is not a gcadj JSONL,
    an output held by another audit, a product that would replace a file it must not."""


class AuditInterrupted(GcadjError):
    """Ctrl-C stopped an audit; everything written stays valid: `judged` games this run,
    in `out` (None when the JSONL was a scratch file, deleted)."""

    def __init__(self, judged: int, out: Path | None) -> None:
        super().__init__(f"interrupted after {judged} verdicts")
        self.judged = judged
        self.out = out


class CannotWrite(GcadjError, OSError):
    """An output gcadj was told to write could not be written (a full disk, no permission,
    a closed device): the user's environment, not a bug in gcadj. Its message is one line,
    "cannot write results.jsonl: No space left on device", and every command exits with
    `gcadj.app.exit_codes.EXIT_CANNOT_WRITE` for it."""

    def __init__(self, target: str, err: OSError) -> None:
        reason = err.strerror or str(err) or type(err).__name__
        # As an OSError: its errno, its reason (strerror) and the file (filename), so code
        # that words an OSError itself ("cannot write {filename}: {strerror}") says the same.
        super().__init__(err.errno, reason, target)
        self.target = target
        self.reason = reason

    def __str__(self) -> str:
        return f"cannot write {visible(self.target)}: {self.reason}"


class RunStopped(GcadjError):
    """The client of a batch run said to stop (a server's check cancelled). Never leaves
    `gcadj.app.batch`: `run_batch` returns False."""


class InjectedFault(GcadjError, RuntimeError):
    """The fault ``GCADJ_INJECT_FAULT`` asks for: stands for any bug while judging a source,
    so it is handled as an unexpected exception would be (an internal-error verdict)."""


# -- gcadj serve (gcadj.web) -----------------------------------------------------------


class UploadRefused(GcadjError):
    """An upload or a zip member that will not be read; the message names it and says why
    (it becomes that source's "error" verdict)."""


class FormError(GcadjError, ValueError):
    """A request body that is not the form it says it is."""


class BodyTooLarge(GcadjError):
    """A request body over the server's limit (answered with 413)."""


class BadRequest(GcadjError):
    """A request that cannot be a check: nothing in it, a bad option; says what."""


class ServerBusy(GcadjError):
    """Too many checks are waiting: the server turns new ones away for now."""


class Refused(GcadjError):
    """A request `gcadj serve` refuses, raised wherever the refusal is found and answered
    in one place (`gcadj.web.app.refused`): its HTTP `status`, the `message` its caller
    reads (a line of text for the API and the guard, a page for a browser: the form again
    for a 400, else a page titled `title`), what a page adds after it (`note`) and the
    answer's `headers` (``Connection: close`` when the client may still be sending).

    >>> refused = Refused(413, "refused: too large", headers={"connection": "close"})
    >>> refused.status, refused.title, str(refused)
    (413, 'Too large', 'refused: too large')
    """

    TITLES: Final = {404: "Not found", 413: "Too large", 503: "Busy"}

    def __init__(
        self,
        status: int,
        message: str,
        *,
        title: str | None = None,
        note: str = "",
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.title = title or self.TITLES.get(status, "Refused")
        self.note = note
        self.headers = dict(headers or {})


class ServeError(GcadjError):
    """The server cannot start (the address is taken, or not this machine's)."""


class StoreError(GcadjError):
    """The server's store of results cannot be used: its data folder cannot be made or
    written, or its database is damaged or not gcadj's. Says which folder and what to do;
    at start-up the server stops with exit code 6 (`EXIT_CANNOT_WRITE`)."""


__all__ = [
    "FEN_SHOWN",
    "AddressRefused",
    "AuditError",
    "AuditInterrupted",
    "BadRequest",
    "BodyTooLarge",
    "CannotWrite",
    "CopiedPageError",
    "ExportError",
    "FenError",
    "FetchError",
    "FormError",
    "GcCodeError",
    "GcadjError",
    "IllegalMoveError",
    "InjectedFault",
    "LogSyntaxError",
    "MessageParts",
    "NoGame",
    "OptionError",
    "OwnFileError",
    "PageError",
    "ParserDeclined",
    "Refused",
    "RetryableFetch",
    "RunStopped",
    "SanError",
    "ServeError",
    "ServerBusy",
    "SourceError",
    "StaleVisit",
    "StoreError",
    "UnheldProof",
    "UnreadableCell",
    "UnsupportedSquare",
    "UploadRefused",
    "caret_padding",
    "excerpt",
    "fen_excerpt",
    "message_parts",
]
