"""``gcadj export`` as one job: the sources judged, the format chosen and checked, the notes
said, the export written, and the exit code.

`run_export` holds the whole workflow, so the command line only turns its options into an
`ExportJob` and exits with the code it gets back. Every game is judged once, by the one way
in (`gcadj.app.pipeline.judge_source`); the writer (`gcadj.outputs.registry`) reads the
judged games and never judges again. Nothing is written before the writer has accepted the
games and the options: a usage error leaves no file behind and nothing on stdout.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from gcadj.app.exit_codes import (
    EXIT_CANNOT_WRITE,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_UNREADABLE,
    EXIT_USAGE,
    INTERNAL_ERROR_HINT,
    exit_code_of,
)
from gcadj.app.pipeline import JudgeOptions, judge_source
from gcadj.errors import CannotWrite, ExportError
from gcadj.judging.verdict import Verdict, internal_error_verdict
from gcadj.outputs.files import atomic_text_file
from gcadj.outputs.registry import (
    ExportGame,
    ExportOptions,
    Writer,
    WriteTo,
    several,
    writer_for,
)
from gcadj.sources.walk import SourceWalker
from gcadj.vocabulary import Category, Status, VerdictKind
from gcadj.words import plural

__all__ = ["ExportJob", "run_export"]

Say = Callable[[str], None]
"""Where the job's diagnostics go, one line each (the CLI: stderr)."""

PREFIX = "gcadj export: "


@dataclass(frozen=True)
class ExportJob:
    """Everything ``gcadj export`` was asked: the sources, the format (`to`), where to write
    (`output`, None for the given stream; `force` to replace a file), how games are judged
    (`judge`), the format's options (`options`), and how much to say."""

    sources: tuple[str, ...]
    to: str
    output: str | None = None
    force: bool = False
    judge: JudgeOptions = field(default_factory=JudgeOptions)
    options: ExportOptions = field(default_factory=ExportOptions)
    quiet: bool = False
    verbose: bool = False


def run_export(job: ExportJob, *, out: IO[str], say: Say) -> int:
    """Do `job` (see the module docstring); the export goes to `out` unless `job.output`
    names a file. Returns the exit code: 0 written; 2 usage; 3, 4 or 5 for the worst
    source that could not be parsed, read or judged (the others are still written; a game
    that stops being readable is written up to there, and exits 3 as check does)."""
    try:
        writer = writer_for(job.to)
        _check_job(job, writer)
    except ExportError as err:
        say(f"{PREFIX}{err}")
        return EXIT_USAGE
    verdicts, notes, worst = _judge_all(job, say)
    if not verdicts:
        return worst or EXIT_UNREADABLE
    try:
        writer.check_count(len(verdicts))  # before --fix says anything
        games = _fixed(verdicts, job, say) if job.options.fix else [ExportGame(v) for v in verdicts]
        write_to = writer.start(games, job.options)
        for note in notes:
            say(note)
        _write(job, write_to, out)
    except ExportError as err:
        say(f"{PREFIX}{err}")
        return EXIT_USAGE
    except CannotWrite as err:  # the -o file (a full disk): not a bug
        say(f"{PREFIX}{err}")
        return EXIT_CANNOT_WRITE
    except Exception as err:  # a bug while converting: exit 5, never a traceback
        problem = internal_error_verdict(verdicts[0].source, err).error
        say(f"{PREFIX}{problem}; {INTERNAL_ERROR_HINT}")
        return EXIT_INTERNAL
    if job.verbose:
        where = job.output or "standard output"
        say(f"{PREFIX}wrote {plural(len(games), 'game')} to {where}")
    return worst


def _check_job(job: ExportJob, writer: Writer) -> None:
    """What can be refused before any source is read."""
    writer.check_options(job.options)
    if len(job.sources) > 1 and not writer.many:
        raise ExportError(f"--to {writer.name} writes one game; {several()}")
    if job.output is not None and os.path.isdir(job.output):
        raise ExportError(f"-o {job.output}: that is a folder; -o names the file to write")
    if (
        job.output is not None
        and not job.force
        and any(_same_file(source, job.output) for source in job.sources)
    ):
        raise ExportError(f"-o {job.output} is the source itself; use --force to overwrite it")


def _same_file(source: str, output: str) -> bool:
    """Does `-o` name the source file itself (through any path or link)?"""
    try:
        return source != "-" and os.path.samefile(source, output)
    except OSError:  # either does not exist (a URL, a new file): not the same file
        return False


def _judge_all(job: ExportJob, say: Say) -> tuple[list[Verdict], list[str], int]:
    """Every game of every source, judged once: the games to write, the notes to say once
    the export is known to be possible, and the worst exit code of what is left out."""
    walker = SourceWalker(job.sources)
    games: list[Verdict] = []
    notes: list[str] = []
    worst = EXIT_OK
    for spec in walker:
        for verdict in judge_source(spec, job.judge):  # never raises: a bad source is a verdict
            if verdict.log is None:  # nothing to write: said now, and in the exit code
                say(verdict.error or f"{verdict.source}: {verdict.status}")
                if verdict.outcome == VerdictKind.INTERNAL_ERROR:
                    say(f"{PREFIX}{INTERNAL_ERROR_HINT}")
                worst = max(worst, exit_code_of(verdict.outcome))
                continue
            games.append(verdict)
            notes += _notes(verdict, job)
            if verdict.outcome == VerdictKind.INTERNAL_ERROR:  # gcadj failed adjudicating it
                say(f"{PREFIX}{verdict.source}: {INTERNAL_ERROR_HINT}")
                worst = max(worst, exit_code_of(verdict.outcome))
            elif verdict.status == Status.SYNTAX_ERROR:  # written up to where reading stopped
                worst = max(worst, exit_code_of(verdict.outcome))  # 3, as check exits
    for problem in walker.problems:
        say(f"{PREFIX}{problem}")
        worst = max(worst, EXIT_UNREADABLE)
    return games, notes, worst


def _notes(verdict: Verdict, job: ExportJob) -> list[str]:
    """What stderr says of one game: where it stops being legal or readable, and that the
    export keeps the rest as typed (the same note is in the file, so ``-q`` drops them)."""
    if job.quiet:
        return []
    notes = []
    bad = verdict.first_illegal
    if bad is not None and not job.options.fix:
        notes.append(
            f"{PREFIX}note: {verdict.source}: ply {bad.ply} ({bad.text!r}) is illegal "
            f"[{bad.category}]; the export shows the game up to it, and the rest as typed"
        )
    unread = verdict.log.unread if verdict.log is not None else None
    if unread is not None:
        ply = verdict.plies + 1
        notes.append(
            f"{PREFIX}note: {verdict.source}: ply {ply} could not be read "
            f"({unread.error.split(chr(10), 1)[0]}); the export keeps it and everything "
            "after it as typed, after a note"
        )
    elif verdict.partial:
        notes.append(
            f"{PREFIX}note: {verdict.source}: ply {verdict.legal_plies + 1} could not be "
            f"read; the export holds the {verdict.legal_plies} legal plies before it"
        )
    if job.verbose and (bad is None or job.options.fix):
        notes.append(f"{PREFIX}{verdict.source}: {verdict.status}, {plural(verdict.plies, 'ply')}")
    return notes


def _fixed(verdicts: Sequence[Verdict], job: ExportJob, say: Say) -> list[ExportGame]:
    """``--fix``: each game corrected (`gcadj.judging.fix`); what was replaced, and
    where fixing stopped, said on stderr. The corrected game is a new judged game: the
    stages its options ask for (adjudication, analysis) are made of it, not of the game
    as typed."""
    from gcadj.app.stages import with_stages
    from gcadj.judging.fix import fix_log
    from gcadj.outputs.writers.gc import fix_notes

    games = []
    for verdict in verdicts:
        assert verdict.log is not None  # a parsed game
        fixed = fix_log(verdict.log, fen=job.judge.fen)
        for f in fixed.fixes:
            say(f"{PREFIX}{verdict.source}: ply {f.ply}: {f.typed!r} -> {f.text!r} ({f.why})")
        stop = fixed.verdict.first_illegal
        if stop is not None:
            if stop.category == Category.AFTER_GAME_END:
                why = "the game had already ended"
            elif len(stop.suggestions) == 1:  # check offers it; it is not a spelling
                best = stop.suggestions[0]
                why = (
                    f"its one suggestion, {best.text!r} ({best.why}), is another move, not "
                    "this one spelt right, so it is left to you (--fix replaces only a "
                    "label, an en passant removal or a letter's case)"
                )
            elif stop.suggestions:
                why = (
                    f"{len(stop.suggestions)} suggestions, none certain (--fix replaces only "
                    "a label, an en passant removal or a letter's case)"
                )
            else:
                why = "no close legal ply"
            say(
                f"{PREFIX}{verdict.source}: stopped at ply {stop.ply} ({stop.text!r}, "
                f"[{stop.category}]): {why}; it and the plies after it are kept as typed"
            )
        games.append(ExportGame(with_stages(fixed.verdict, job.judge), fix_notes(fixed)))
    return games


def _write(job: ExportJob, write_to: WriteTo, out: IO[str]) -> None:
    """The export to `out`, or to the file `job.output` (atomically, never over a file
    without `job.force`)."""
    if job.output is None:
        write_to(out)
        out.flush()
        return
    try:
        with atomic_text_file(Path(job.output), overwrite=job.force) as handle:
            write_to(handle)
    except FileExistsError:
        raise ExportError(f"{job.output} exists; use --force to overwrite it") from None
