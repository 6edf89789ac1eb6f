"""What a worker process of `gcadj serve` does: judge a check's sources, one at a time.

A worker is its own process so that the server can stop it: a source that takes longer
than its deadline, or a check that takes longer than its own, is ended by killing the
worker (`gcadj.web.jobs`), and a worker may use at most `ServeSettings.worker_memory` of
address space, so a hostile input costs its own verdict, never the server. It talks to the
server through one pipe, in messages (tuples):

- ``("plan", names, skipped)``: every source, in order (a zip expanded), and how many of
  the zips' files are not game files;
- ``("game", index, name, json_line, status, viewer, facts)``: one judged game of source
  `index`: its name, its line of ``gcadj check --json``, its status, its viewer's file
  name (or None) and what the report shows of it (`GameFacts`: a link, the players);
- ``("source", index)``: source `index` is done;
- ``("end",)``.

Each source is judged by the one pipeline (`gcadj.app.pipeline.judge_source`) with its
text in hand, named as the user named it: the verdicts are those of ``gcadj check``.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

from gcadj.adjudication.verdict import Verdict, failed_verdict
from gcadj.app.audit import game_facts
from gcadj.app.pipeline import JudgeOptions, judge_source
from gcadj.sources.decode import decode_text
from gcadj.vocabulary import Status
from gcadj.web.pages import downloads_bar
from gcadj.web.uploads import Refused, Upload, UploadReader, ZipLimits

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WorkerTask:
    """What one check asks of its worker (picklable: it travels to the worker process): the
    sources, the zip limits, the judge's options, the folder for the viewers (None: none)
    and the worker's memory cap in bytes (0: none)."""

    uploads: Sequence[Upload]
    limits: ZipLimits
    options: JudgeOptions
    viewers: str | None
    memory: int


def limit_memory(limit: int) -> None:
    """Cap this process's address space (a worker's), so a blow-up is a MemoryError here."""
    if limit <= 0:
        return
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def downloads(verdict: Verdict, fen: str | None) -> list[tuple[str, str, str]]:
    """The game as PGN and as a Game Courier log, and (for an illegal game with typing
    slips) the fixed log: (label, file name, text). A format the game cannot give is
    left out."""
    from gcadj.outputs.export import export_game

    stem = _stem(verdict.source)
    out: list[tuple[str, str, str]] = []
    for label, fmt, name in (
        ("PGN", "pgn", f"{stem}.pgn"),
        ("Game Courier log", "gc", f"{stem}.txt"),
    ):
        try:
            out.append((f"Download {label}", name, export_game(verdict, fmt)))
        except Exception:  # a format this game cannot give: no link
            log.debug("no %s for %s", fmt, verdict.source, exc_info=True)
    if verdict.first_illegal is not None and verdict.log is not None:
        try:
            from gcadj.adjudication.fix import fix_log
            from gcadj.outputs.writers.gc import write_fixed_gc

            fixed = fix_log(verdict.log, fen=fen)
            if fixed.fixes:
                out.append(("Download fixed log", f"{stem}-fixed.txt", write_fixed_gc(fixed)))
        except Exception:
            log.debug("no fixed log for %s", verdict.source, exc_info=True)
    return out


def _stem(source: str) -> str:
    tail = source.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    stem = tail.rsplit(".", 1)[0] if "." in tail else tail
    clean = "".join(c if c.isalnum() or c in "-_." else "_" for c in stem).strip("._")
    return clean[:60] or "game"


def write_game_viewer(verdict: Verdict, folder: Path, fen: str | None) -> str | None:
    """The game's viewer, with its downloads, in `folder`; its file name, or None when the
    verdict has no game to show (or the page failed: the verdict still stands)."""
    from gcadj.outputs.viewer import viewer_filename, write_viewer
    from gcadj.web.pages import add_bar

    if verdict.log is None:
        return None
    try:
        page = add_bar(write_viewer(verdict), downloads_bar(downloads(verdict, fen)))
        name = viewer_filename(verdict.source)
        part = folder / f"{name}.part"  # renamed when whole: a killed worker leaves no half page
        part.write_text(page, encoding="utf-8")
        os.replace(part, folder / name)
    except Exception:
        log.warning("no viewer for %s", verdict.source, exc_info=True)
        return None
    return name


def judge_sources(conn: Connection, task: WorkerTask, start: int) -> None:
    """The worker's whole life (see the module docstring): plan, judge from `start` on."""
    limit_memory(task.memory)
    options = task.options
    folder = Path(task.viewers) if task.viewers is not None else None
    reader = UploadReader(task.uploads, task.limits)
    try:
        planned = reader.plan()
        conn.send(("plan", [p.name for p in planned], reader.skipped))
        for index in range(start, len(planned)):
            item = planned[index]
            try:
                text: str | None = decode_text(reader.read(item))
                verdicts = judge_source(item.name, options, text=text)
            except Refused as err:
                verdicts = [failed_verdict(item.name, Status.ERROR, str(err))]
            except MemoryError:
                text = None
                verdicts = [
                    failed_verdict(
                        item.name, Status.ERROR, f"{item.name}: too large to judge on this server"
                    )
                ]
            text = None
            for verdict in verdicts:
                viewer = None
                if folder is not None:
                    viewer = write_game_viewer(verdict, folder, options.fen)
                conn.send(
                    (
                        "game",
                        index,
                        verdict.source,
                        verdict.json_line(),
                        str(verdict.status),
                        viewer,
                        game_facts(verdict),
                    )
                )
            conn.send(("source", index))
        conn.send(("end",))
    except (BrokenPipeError, EOFError):  # the server went away or stopped this check
        pass
    finally:
        reader.close()
        with contextlib.suppress(OSError):
            conn.close()


def worker_main(conn: Connection, task: WorkerTask, start: int) -> None:
    """A worker process's entry point; it leaves Ctrl-C to the server."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    judge_sources(conn, task, start)
    os._exit(0)  # nothing else of the server's to run or flush in this process


__all__ = [
    "WorkerTask",
    "downloads",
    "judge_sources",
    "limit_memory",
    "worker_main",
    "write_game_viewer",
]
