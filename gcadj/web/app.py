"""The Starlette app of `gcadj serve`: its routes, as module-level endpoints.

Routes:

- ``GET /``: the form (paste, an address, files);
- ``POST /check``: one game answers with its viewer at once (nothing kept); several, or a
  check that takes more than a few seconds, redirect to ``/job/<id>/``;
- ``GET /job/<id>/``: the progress page until the check ends, then its report (or the
  viewer of its one game); ``/job/<id>/v/<file>`` is a game's viewer,
  ``/job/<id>/results.jsonl`` and ``results.csv`` its verdicts;
  ``POST /job/<id>/delete`` forgets it at once;
- ``POST /api/check``: JSON lines, one per game, as ``gcadj check --json`` prints them.

The endpoints share what the app holds (`ServerState`, in ``request.app.state``): the
settings, the pool of checks (`gcadj.web.jobs.JobRunner`, made at start-up, stopped at
shutdown) and the reader of bodies (`gcadj.web.receive.Receiver`: the size limit, the
budget of bytes held at once, the spilling of large uploads). A client that hangs up is
one line of the log at info level. An unexpected error answers a page that says so, never
a traceback. `create_app` puts `gcadj.web.guard.Guard` in front of it all: the security
headers on every answer (500s too), the ``Host`` and ``Origin`` checks, the cap on
requests at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from gcadj.app.pipeline import JudgeOptions
from gcadj.errors import BadRequest as BadInput
from gcadj.outputs.viewer import VIEWER_FILE
from gcadj.web import pages
from gcadj.web.forms import FormError, Part, media_type, urlencoded_parts
from gcadj.web.guard import Guard
from gcadj.web.jobs import Busy, Job, JobRunner, first_record
from gcadj.web.limits import ServeSettings, size_text
from gcadj.web.receive import Receipt, Receiver, TooLarge
from gcadj.web.uploads import Upload

log = logging.getLogger(__name__)

INLINE_SECONDS: Final = 8.0  # how long POST /check waits before showing progress instead
RELEASE_SECONDS: Final = 0.2  # how often a finished check's uploads are looked for
PASTED: Final = "pasted text"
BODY: Final = "<body>"
JSONL_TYPE: Final = "application/x-ndjson; charset=utf-8"
NOTHING: Final = "Nothing to check: paste a log, give an address or choose files."
NOTHING_API: Final = "nothing to check: send a log, files (-F file=@...) or -F url=..."
CLOSE: Final = {"connection": "close"}  # a refusal: the client may still be sending


@dataclass
class ServerState:
    """What the endpoints share: the settings, the pool of checks, the reader of bodies,
    and the tasks that give a check's uploads back once it has ended."""

    settings: ServeSettings
    runner: JobRunner
    receiver: Receiver
    releases: set[asyncio.Task[None]] = field(default_factory=set)


def is_api(request: Request) -> bool:
    """Is this a request of the JSON API (answered in text, never in pages)?"""
    return request.url.path.startswith("/api/")


def state_of(request: Request) -> ServerState:
    state: ServerState = request.app.state.server
    return state


def judge_options(fields: dict[str, str]) -> JudgeOptions:
    """The options a form or query gives (pocket_file, all, fen), checked as the CLI
    checks them; `BadInput` says what is wrong."""
    from gcadj.adjudication.verdict import start_position
    from gcadj.errors import FenError
    from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile, not_a_pocket_file

    typed = (fields.get("pocket_file") or "").strip()  # none: the file the log uses
    pocket_file = PocketFile.read(typed) if typed else None
    if typed and pocket_file is None:
        raise BadInput(not_a_pocket_file("pocket_file", typed))
    fen = (fields.get("fen") or "").strip() or None
    if fen is not None:
        try:
            start_position(fen, pocket_file or DEFAULT_POCKET_FILE)
        except FenError as err:
            raise BadInput(f"fen: {err}") from None
    everything = (fields.get("all") or "").strip().lower() in ("1", "true", "on", "yes")
    return JudgeOptions(fen=fen, pocket_file=pocket_file, all_findings=everything)


def upload_of(name: str, part: Part) -> Upload:
    return Upload(name, part.stored.data, path=part.stored.path)


def sources_of(parts: Sequence[Part]) -> tuple[list[Upload], list[str], dict[str, str]]:
    """A form's uploads (files and the pasted text), addresses, and plain fields."""
    uploads: list[Upload] = []
    urls: list[str] = []
    fields: dict[str, str] = {}
    for part in parts:
        stored = part.stored
        if part.filename is not None:
            if part.filename or stored.path or stored.data:  # an empty file input: no upload
                uploads.append(upload_of(part.filename or "upload", part))
        elif part.name == "text":
            if stored.path is not None or stored.data.strip():
                uploads.append(upload_of(PASTED, part))
        elif part.name == "url":
            urls += [line.strip() for line in part.text.splitlines() if line.strip()]
        else:
            fields[part.name] = part.text
    return uploads, urls, fields


def html(text: str, status: int = 200, headers: dict[str, str] | None = None) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers=headers)


def release_when_done(state: ServerState, job: Job, receipt: Receipt) -> None:
    """Give a check's uploads back (files and budget) once it has ended: until then its
    worker may still read them."""

    async def wait() -> None:
        try:
            while not job.finished.is_set():
                await asyncio.sleep(RELEASE_SECONDS)
        finally:
            receipt.close()

    task = asyncio.get_running_loop().create_task(wait())
    state.releases.add(task)
    task.add_done_callback(state.releases.discard)


def refusal(request: Request, status: int, message: str) -> Response:
    """A request refused, said as its caller reads it: a line of text for the API, a page
    for a browser (the form again, with the message, for a request that was wrong). A
    refusal before the body was read closes the connection: the client may still send."""
    close = CLOSE if status in (413, 503) else None
    if is_api(request):
        return PlainTextResponse(f"{message}\n", status, headers=close)
    shown = message[:1].upper() + message[1:]
    if status == 400:
        return html(pages.home(state_of(request).settings, message=shown), status)
    title = {413: "Too large", 503: "Busy"}.get(status, "Refused")
    return html(pages.message_page(title, shown), status, close)


async def receive(request: Request, state: ServerState) -> tuple[list[Part], Receipt] | Response:
    """The request's parts and what they hold, or the answer that refuses it: 413 too
    large, 503 over the budget, or (a client that hung up) an answer nobody reads."""
    try:
        return await state.receiver.read(request)
    except TooLarge:
        limit = size_text(state.settings.max_body)
        message = (
            f"refused: the upload is larger than this server's limit of {limit} per check; "
            "send fewer files at once, or zip them"
        )
        return refusal(request, 413, message)
    except Busy as err:
        return refusal(request, 503, f"busy: {err}")
    except FormError as err:
        return refusal(request, 400, str(err))
    except ClientDisconnect:
        log.info("%s: the client hung up before its request was whole", request.url.path)
        return Response(status_code=400)


def request_sources(
    request: Request, parts: list[Part]
) -> tuple[list[Upload], list[str], dict[str, str]]:
    """What a request asks to check: a form's uploads, addresses and fields; for the API
    also a body that is the log itself (``curl --data-binary``), and the query's fields."""
    kind = media_type(request.headers.get("content-type", ""))
    api = is_api(request)
    if kind == "multipart/form-data":
        uploads, urls, fields = sources_of(parts)
    elif api:  # the log itself (curl --data-binary sends it as a urlencoded form)
        name = request.query_params.get("name") or BODY
        uploads, urls, fields = [upload_of(name, part) for part in parts], [], {}
    elif kind == "application/x-www-form-urlencoded":
        uploads, urls, fields = sources_of(urlencoded_parts(b"".join(p.data for p in parts)))
    else:
        raise FormError(f"expected a form (multipart/form-data), not {kind or 'no content type'}")
    if api:
        fields = {**dict(request.query_params), **fields}
    return uploads, urls, fields


async def start_check(request: Request) -> Job | Response:
    """Read a request and start its check; the check holds the request's uploads (and its
    share of the budget) until it ends. Or the answer that refuses it."""
    state = state_of(request)
    api = is_api(request)
    received = await receive(request, state)
    if isinstance(received, Response):
        return received
    parts, receipt = received
    try:
        uploads, urls, fields = request_sources(request, parts)
        options = judge_options(fields)
        if not uploads and not urls:
            raise BadInput(NOTHING_API if api else NOTHING)
        job = state.runner.submit(uploads, urls, options, api=api)
    except (FormError, BadInput) as err:
        receipt.close()
        return refusal(request, 400, str(err))
    except Busy as err:
        receipt.close()
        return refusal(request, 503, f"busy: {err}")
    release_when_done(state, job, receipt)
    return job


async def home(request: Request) -> Response:
    return html(pages.home(state_of(request).settings))


async def check(request: Request) -> Response:
    job = await start_check(request)
    if isinstance(job, Response):
        return job
    state = state_of(request)
    finish = time.monotonic() + INLINE_SECONDS
    while not job.finished.is_set() and time.monotonic() < finish:
        await asyncio.sleep(0.05)
    if job.finished.is_set() and job.games == 1:  # one game: its page, nothing kept
        response = single_game(job, [("Check another game", "/")])
        response.background = BackgroundTask(forget, state, job)
        return response
    return RedirectResponse(f"/job/{job.id}/", status_code=303)


async def forget(state: ServerState, job: Job) -> None:
    await asyncio.to_thread(state.runner.forget, job)


def single_game(job: Job, links: list[tuple[str, str]], delete: str | None = None) -> HTMLResponse:
    """The viewer of a check's one game, or its verdict when it has no game to show."""
    assert job.first is not None
    _, viewer = job.first
    if viewer is not None and job.viewers is not None:
        path = job.viewers / viewer
        with contextlib.suppress(OSError):
            text = path.read_text(encoding="utf-8")
            bar = pages.serve_bar(links, delete=delete)
            return html(text.replace(pages.NAV_MARK, bar, 1))
    record = first_record(job)
    return html(
        pages.verdict_page(
            str(record.get("source")),
            str(record.get("status")),
            str(record.get("error") or record.get("status")),
        )
    )


def find_job(request: Request) -> Job:
    job = state_of(request).runner.get(str(request.path_params["job"]))
    if job is None or job.api:
        raise HTTPException(404, "no such check")
    return job


async def job_page(request: Request) -> Response:
    job = find_job(request)
    if not job.finished.is_set():
        names = job.names
        waiting = state_of(request).runner.waiting if job.state == "queued" else 0
        total = None if names is None else len(names)
        return html(pages.progress_page(job.done, total, job.games, waiting=waiting))
    delete = f"/job/{job.id}/delete"
    if job.games == 1:
        return single_game(job, [("Check another game", "/")], delete=delete)
    report = job.report
    if report is None or not report.is_file():
        return html(pages.message_page("No report", "This check has no report."), 404)
    links = [
        ("Check other games", "/"),
        ("Verdicts as JSON lines", "results.jsonl"),
        ("as CSV", "results.csv"),
    ]
    bar = pages.serve_bar(links, delete=delete)
    skipped = ""
    if job.skipped:
        skipped = f" {job.skipped} files of the zip were not game files and were skipped."
    note = f"<span>{job.games} games.{pages.e(skipped)}</span>"
    nav = f'<style>{pages.BAR_STYLE}</style><nav class="serve-bar">{bar} {note}</nav>'
    return html(pages.add_bar(report.read_text(encoding="utf-8"), nav))


async def viewer_page(request: Request) -> Response:
    job = find_job(request)
    name = str(request.path_params["name"])
    if not VIEWER_FILE.fullmatch(name) or job.viewers is None:
        raise HTTPException(404, "no such game")
    path = job.viewers / name
    if not path.is_file():
        raise HTTPException(404, "no such game")
    bar = pages.serve_bar([("All games of this check", "../"), ("Check other games", "/")])
    return html(path.read_text(encoding="utf-8").replace(pages.NAV_MARK, bar, 1))


async def results(request: Request) -> Response:
    job = find_job(request)
    kind = str(request.path_params["kind"])
    if kind not in ("jsonl", "csv") or job.folder is None or not job.finished.is_set():
        raise HTTPException(404, "no such file")
    path = job.folder / f"results.{kind}"
    if not path.is_file():
        raise HTTPException(404, "no such file")
    media = JSONL_TYPE if kind == "jsonl" else "text/csv; charset=utf-8"
    return FileResponse(path, media_type=media, filename=f"gcadj-results.{kind}")


async def delete_job(request: Request) -> Response:
    job = find_job(request)
    await forget(state_of(request), job)
    message = "The report, its viewers and its files are deleted."
    return html(pages.message_page("Deleted", message, kind="ok"))


async def api_check(request: Request) -> Response:
    job = await start_check(request)
    if isinstance(job, Response):
        return job
    return StreamingResponse(stream_lines(state_of(request), job), media_type=JSONL_TYPE)


async def stream_lines(state: ServerState, job: Job) -> AsyncIterator[str]:
    """A check's JSON lines as they come; a client that goes away stops the check."""
    try:
        while True:
            try:
                line = job.lines.get_nowait()
            except queue.Empty:
                await asyncio.sleep(0.05)
                continue
            if line is None:
                return
            yield line + "\n"
    finally:
        if not job.finished.is_set():
            job.cancel.set()  # the client went away: stop judging for it
        await forget(state, job)


async def not_found(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 404)
    detail = getattr(exc, "detail", "not found")
    if is_api(request):
        return PlainTextResponse(f"{detail}\n", status)
    keep = state_of(request).settings.keep_minutes
    message = f"{detail}. A report is kept {keep:g} minutes after its check."
    return html(pages.message_page("Not found", message), status)


async def failure(request: Request, exc: Exception) -> Response:
    if isinstance(exc, ClientDisconnect):  # not a failure: the client went away
        log.info("%s: the client hung up", request.url.path)
        return Response(status_code=400)
    log.error("internal error on %s", request.url.path, exc_info=exc)
    message = (
        f"gcadj failed on this request (internal error: {type(exc).__name__}). This is a "
        "bug in gcadj; the other checks go on."
    )
    if is_api(request):
        return PlainTextResponse(message + "\n", 500)
    return html(pages.message_page("Internal error", message), 500)


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Start the pool and the reader of bodies with the server; stop and delete both
    (every check, every spilled upload) when it stops."""
    settings: ServeSettings = app.state.settings
    receiver = Receiver(settings)
    state = ServerState(settings, JobRunner(settings), receiver)
    app.state.server = state
    try:
        yield
    finally:
        for task in list(state.releases):
            task.cancel()
        await asyncio.to_thread(state.runner.shutdown)
        receiver.close()


def sample_pages() -> list[str]:
    """A viewer (with the server's bar) and a report made from a known game: the inline
    code the Content-Security-Policy allows is theirs and the server's own pages'."""
    import tempfile

    from gcadj.app.pipeline import judge_source
    from gcadj.outputs.audit_report import write_report
    from gcadj.outputs.viewer import write_viewer

    verdict = judge_source("sample.txt", text="P e2-e4\np e7-e5\n")[0]
    viewer = pages.add_bar(write_viewer(verdict), pages.downloads_bar([]))
    with tempfile.TemporaryDirectory(prefix="gcadj-serve-sample-") as folder:
        jsonl = Path(folder) / "sample.jsonl"
        jsonl.write_text(verdict.json_line() + "\n", encoding="utf-8")
        write_report(jsonl, Path(folder) / "report.html")
        report = (Path(folder) / "report.html").read_text(encoding="utf-8")
    return [viewer, report, pages.page("sample", "")]


ROUTES: Final = [
    Route("/", home, methods=["GET"]),
    Route("/check", check, methods=["POST"]),
    Route("/api/check", api_check, methods=["POST"]),
    Route("/job/{job}/", job_page, methods=["GET"]),
    Route("/job/{job}/v/{name}", viewer_page, methods=["GET"]),
    Route("/job/{job}/results.{kind:str}", results, methods=["GET"]),
    Route("/job/{job}/delete", delete_job, methods=["POST"]),
]


def create_app(settings: ServeSettings) -> Guard:
    """The web app behind its `Guard` (an ASGI app for uvicorn); its checks run in a
    `JobRunner` made at start-up, stopped at shutdown."""
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        HTTPException: not_found,
        Exception: failure,
    }
    app = Starlette(routes=ROUTES, lifespan=lifespan, exception_handlers=handlers)
    app.state.settings = settings
    return Guard(app, settings, pages.csp_for(sample_pages()))


__all__ = [
    "BadInput",
    "ServerState",
    "create_app",
    "judge_options",
    "sources_of",
    "state_of",
]
