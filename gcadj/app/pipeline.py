"""The one way in: a source, as the user named it, becomes its judged games.

Every caller that judges games goes through `judge_source`: ``gcadj check``, ``export``,
``audit`` (in its workers), ``adjudicate``, ``fetch``, the viewer, ``gcadj serve`` and the
public API (`gcadj.check_text`, `gcadj.check_source`, `gcadj.adjudicate`). So they all give
the same verdict, warnings included, for the same source.

Each verdict then goes through the stages its `JudgeOptions` ask for (`gcadj.app.stages`:
the adjudication, `JudgeOptions.adjudicate`), here, once, so that the judged game carries
what they made (`Verdict.adjudication`) and every writer reads it there.

The sources layer owns the steps (`gcadj.sources.games`: the source read, its text
normalised and its format detected, its games read and judged, what a page said
checked), and the pipeline makes one call to it per source. A judged game is a
`Verdict`: its summary (the schema of ``gcadj check --json``) and the game itself (its
log, the legal moves, the start position), which writers read and never judge again.

Every step that can fail on the user's input gives a `Verdict` instead of an exception.
What the pipeline adds is the defence in depth: should gcadj itself fail on a source (an
unexpected exception, a bug), that source gets an "error" verdict saying "<source>:
internal error: <type>: <message>" (`internal_error_verdict`, whose `Verdict.internal`
makes the CLI exit 5), and the caller's other sources go on. That guard is here, once,
around the whole pass; so is the command's fetch settings (`shared_fetcher`), handed to
the sources layer for the URLs it reads.

`FAULT_ENV` is the test hook for that defence: while the environment variable names a
piece of text, judging any source whose name contains it raises `InjectedFault`, as a bug
would, so tests and users can see what a bug costs without there being one.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from gcadj.app.stages import SourceProgress, StageClock, with_stages
from gcadj.errors import FenError, InjectedFault
from gcadj.judging.verdict import Verdict, failed_verdict, internal_error_verdict
from gcadj.sources.games import STDIN_NAME, JudgeOptions, source_games, source_name
from gcadj.vocabulary import Status

if TYPE_CHECKING:
    from gcadj.sources.fetch import Fetcher

FAULT_ENV: Final = "GCADJ_INJECT_FAULT"


def judge_source(
    spec: str,
    options: JudgeOptions | None = None,
    *,
    text: str | None = None,
    progress: SourceProgress | None = None,
) -> list[Verdict]:
    """Every game of a source, judged, in order; never raises for bad input.

    `spec` names the source: a file, '-' for standard input, an http(s) URL, or one game of
    a database (``all.pgn#3``). `text` is its text when the caller already has it (a page
    fetched earlier, an upload, pasted text): it is then not read again, and `spec` is only
    the name the verdicts carry (``name#N`` still picks game N of it). An unreadable
    source gives one "error" verdict; a bug of gcadj's on a source gives that source an
    internal-error verdict. A bad `options.fen` raises `FenError`: it is the caller's
    mistake (the CLI refuses it before reading anything). The stages `options` ask for
    (`JudgeOptions.adjudicate`) run on each verdict (`gcadj.app.stages.with_stages`): the
    verdict carries what they made; `progress` hears of a long search.

    Examples:
        A PGN database gives one verdict per game, named by its number:

        >>> pgn = '''[Event "First"]
        ...
        ... 1. e4 e5 2. Nf3 1-0
        ...
        ... [Event "Second"]
        ...
        ... 1. d4 Nf6 2. O-O *
        ... '''
        >>> for verdict in judge_source("club.pgn", text=pgn):
        ...     print(verdict.source, verdict.status.value, verdict.result.value)
        club.pgn#1 legal 1-0
        club.pgn#2 illegal *
        >>> judge_source("club.pgn#2", text=pgn)[0].first_illegal.category
        <Category.CASTLING: 'castling'>

        A file, as ``gcadj check`` names it:

        >>> (verdict,) = judge_source("fixtures/examples/ex4_resignation.txt")
        >>> verdict.result, verdict.termination
        (<Result.WHITE_WINS: '1-0'>, <Termination.RESIGNATION: 'resignation'>)
    """
    return list(iter_judge_source(spec, options, text=text, progress=progress))


def iter_judge_source(
    spec: str,
    options: JudgeOptions | None = None,
    *,
    text: str | None = None,
    progress: SourceProgress | None = None,
) -> Iterator[Verdict]:
    """`judge_source` one game at a time, so that a PGN database of any size is judged in
    constant memory (``gcadj check`` reads it so). The guard is here: a bug of gcadj's on
    one game ends the source there with an internal-error verdict, and the games before
    it keep theirs. Each verdict goes through its stages (`with_stages`) before it is
    given, the source's games sharing its `JudgeOptions.stage_seconds`."""
    options = options or JudgeOptions()
    source = source_games(spec, options, text=text, fetcher=_fetcher)
    name = source.name
    clock = StageClock(options.stage_seconds)

    def games() -> Iterator[Verdict]:
        fault = os.environ.get(FAULT_ENV)
        if fault and fault in name:
            raise InjectedFault(f"injected by {FAULT_ENV}={fault!r}")
        yield from source

    stream = games()
    while True:
        try:
            verdict = next(stream, None)
        except FenError as err:
            if options.fen is not None:
                raise
            verdict = _internal(name, err)
        except MemoryError:  # not a bug: the source is too large for this process
            from gcadj.app.pool import out_of_memory_words

            verdict = failed_verdict(name, Status.ERROR, f"{name}: {out_of_memory_words()}")
        except Exception as err:  # KeyboardInterrupt and SystemExit are not the judging's
            verdict = _internal(name, err)
        if verdict is None:
            return
        yield with_stages(verdict, options, clock, progress)  # guarded: never raises
        if verdict.internal:
            return  # the games after a bug are not read (the generator is spent)


def _fetcher() -> Fetcher:
    """The fetcher of the command's fetch settings (`gcadj.app.fetching`), loaded only
    when a URL is read."""
    from gcadj.app.fetching import shared_fetcher

    return shared_fetcher()


def _internal(name: str, err: Exception) -> Verdict:
    import logging  # only here: `gcadj check` starts without it

    logging.getLogger(__name__).debug("internal error judging %s", name, exc_info=True)
    return internal_error_verdict(name, err)


__all__ = [
    "FAULT_ENV",
    "STDIN_NAME",
    "JudgeOptions",
    "iter_judge_source",
    "judge_source",
    "source_name",
]
