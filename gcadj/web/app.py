"""The Starlette app of `gcadj serve`: the routes, the body limit and the security headers.

Routes:

- ``GET /``: the form (paste, an address, files);
- ``POST /check``: one game answers with its viewer at once (nothing kept); several, or a
  check that takes more than a few seconds, redirect to ``/job/<id>/``;
- ``GET /job/<id>/``: the progress page until the check ends, then its report (or the
  viewer of its one game); ``/job/<id>/v/<file>`` is a game's viewer,
  ``/job/<id>/results.jsonl`` and ``results.csv`` its verdicts;
  ``POST /job/<id>/delete`` forgets it at once;
- ``POST /api/check``: JSON lines, one per game, as ``gcadj check --json`` prints them.

Every request body is read under `ServeSettings.max_body` while it streams in (a declared
``Content-Length`` over it is refused before reading anything): past it, 413. Every answer
carries the Content-Security-Policy of `gcadj.web.pages.csp_for` and headers that stop
sniffing, framing and referrers. An unexpected error answers a page that says so, never a
traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gcadj.app.pipeline import JudgeOptions
from gcadj.errors import BadRequest as BadInput
from gcadj.errors import BodyTooLarge as TooLarge
from gcadj.web import pages
from gcadj.web.forms import FormError, Part, media_type, parse_form
from gcadj.web.jobs import Busy, Job, JobRunner, first_record
from gcadj.web.limits import ServeSettings, size_text
from gcadj.web.uploads import Upload

log = logging.getLogger(__name__)

INLINE_SECONDS: Final = 8.0  # how long POST /check waits before showing progress instead
PASTED: Final = "pasted text"
BODY: Final = "<body>"
_VIEWER_FILE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,80}\.html")
JSONL_TYPE: Final = "application/x-ndjson; charset=utf-8"


async def read_body(request: Request, limit: int) -> bytes:
    """The whole body, read while it streams in; `TooLarge` as soon as it passes `limit`
    (at once when its declared length does)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise TooLarge
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise TooLarge
    return bytes(body)


def judge_options(fields: dict[str, str]) -> JudgeOptions:
    """The options a form or query gives (pocket_file, all, fen), checked as the CLI
    checks them; `BadInput` says what is wrong."""
    from gcadj.adjudication.verdict import start_position
    from gcadj.errors import FenError
    from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile

    typed = (fields.get("pocket_file") or "").strip()  # none: the file the log uses
    pocket_file = PocketFile.read(typed) if typed else None
    if typed and pocket_file is None:
        raise BadInput(f"pocket_file must be one letter from i to z, not {typed!r}")
    fen = (fields.get("fen") or "").strip() or None
    if fen is not None:
        try:
            start_position(fen, pocket_file or DEFAULT_POCKET_FILE)
        except FenError as err:
            raise BadInput(f"fen: {err}") from None
    everything = (fields.get("all") or "").strip().lower() in ("1", "true", "on", "yes")
    return JudgeOptions(fen=fen, pocket_file=pocket_file, all_findings=everything)


def sources_of(parts: Sequence[Part]) -> tuple[list[Upload], list[str], dict[str, str]]:
    """A form's uploads (files and the pasted text), addresses, and plain fields."""
    uploads: list[Upload] = []
    urls: list[str] = []
    fields: dict[str, str] = {}
    for part in parts:
        if part.filename is not None:
            if part.filename or part.data:  # a file input left empty sends an empty part
                uploads.append(Upload(part.filename or "upload", part.data))
        elif part.name == "text":
            if part.text.strip():
                uploads.append(Upload(PASTED, part.data))
        elif part.name == "url":
            urls += [line.strip() for line in part.text.splitlines() if line.strip()]
        else:
            fields[part.name] = part.text
    return uploads, urls, fields


class Security:
    """ASGI middleware: the security headers on every answer, HTML or not."""

    def __init__(self, app: ASGIApp, csp: str) -> None:
        self.app = app
        self.headers = [
            (b"content-security-policy", csp.encode("ascii")),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
            (b"x-frame-options", b"DENY"),
            (b"cross-origin-opener-policy", b"same-origin"),
            (b"cache-control", b"no-store"),
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.headers if k not in names]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)


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


def create_app(settings: ServeSettings) -> Starlette:
    """The web app; its checks run in a `JobRunner` made at start-up, stopped at shutdown."""
    state: dict[str, JobRunner] = {}

    def runner() -> JobRunner:
        return state["runner"]

    def html(
        text: str, status: int = 200, background: BackgroundTask | None = None
    ) -> HTMLResponse:
        return HTMLResponse(text, status_code=status, background=background)

    def too_large() -> HTMLResponse:
        return html(
            pages.message_page(
                "Too large",
                f"Refused: the upload is larger than this server's limit of "
                f"{size_text(settings.max_body)} per check. Send fewer files at once, or "
                "zip them.",
            ),
            413,
        )

    async def home(request: Request) -> Response:
        return html(pages.home(settings))

    async def check(request: Request) -> Response:
        try:
            body = await read_body(request, settings.max_body)
        except TooLarge:
            return too_large()
        try:
            parts = parse_form(body, request.headers.get("content-type", ""))
            uploads, urls, fields = sources_of(parts)
            options = judge_options(fields)
            if not uploads and not urls:
                raise BadInput("Nothing to check: paste a log, give an address or choose files.")
            job = runner().submit(uploads, urls, options, api=False)
        except (FormError, BadInput) as err:
            return html(pages.home(settings, message=str(err)), 400)
        except Busy as err:
            return html(pages.message_page("Busy", f"This server is busy: {err}."), 503)
        finish = time.monotonic() + INLINE_SECONDS
        while not job.finished.is_set() and time.monotonic() < finish:
            await asyncio.sleep(0.05)
        if job.finished.is_set() and job.games == 1:  # one game: its page, nothing kept
            response = single_game(job, [("Check another game", "/")])
            response.background = BackgroundTask(forget, job)
            return response
        return RedirectResponse(f"/job/{job.id}/", status_code=303)

    async def forget(job: Job) -> None:
        await asyncio.to_thread(runner().forget, job)

    def single_game(
        job: Job, links: list[tuple[str, str]], delete: str | None = None
    ) -> HTMLResponse:
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
        job = runner().get(str(request.path_params["job"]))
        if job is None or job.api:
            raise HTTPException(404, "no such check")
        return job

    async def job_page(request: Request) -> Response:
        job = find_job(request)
        if not job.finished.is_set():
            names = job.names
            return html(
                pages.progress_page(
                    job.done,
                    None if names is None else len(names),
                    job.games,
                    waiting=runner().waiting if job.state == "queued" else 0,
                )
            )
        delete = f"/job/{job.id}/delete"
        if job.games == 1:
            return single_game(job, [("Check another game", "/")], delete=delete)
        report = job.report
        if report is None or not report.is_file():
            return html(pages.message_page("No report", "This check has no report."), 404)
        bar = pages.serve_bar(
            [
                ("Check other games", "/"),
                ("Verdicts as JSON lines", "results.jsonl"),
                ("as CSV", "results.csv"),
            ],
            delete=delete,
        )
        skipped = ""
        if job.skipped:
            skipped = f" {job.skipped} files of the zip were not game files and were skipped."
        text = report.read_text(encoding="utf-8")
        note = f"<span>{job.games} games.{pages.e(skipped)}</span>"
        return html(
            pages.add_bar(
                text,
                f'<style>{pages.BAR_STYLE}</style><nav class="serve-bar">{bar} {note}</nav>',
            )
        )

    async def viewer_page(request: Request) -> Response:
        job = find_job(request)
        name = str(request.path_params["name"])
        if not _VIEWER_FILE.fullmatch(name) or job.viewers is None:
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
        await forget(job)
        return html(
            pages.message_page(
                "Deleted", "The report, its viewers and its files are deleted.", kind="ok"
            )
        )

    async def api_check(request: Request) -> Response:
        try:
            body = await read_body(request, settings.max_body)
        except TooLarge:
            return PlainTextResponse(
                f"refused: the body is larger than this server's limit of "
                f"{size_text(settings.max_body)}\n",
                413,
            )
        content_type = request.headers.get("content-type", "")
        try:
            if media_type(content_type) == "multipart/form-data":
                uploads, urls, fields = sources_of(parse_form(body, content_type))
            else:  # the log itself (curl --data-binary sends it as a urlencoded form)
                name = request.query_params.get("name") or BODY
                uploads, urls, fields = [Upload(name, body)], [], {}
            fields = {**dict(request.query_params), **fields}
            options = judge_options(fields)
            if not uploads and not urls:
                raise BadInput("nothing to check: send a log, files (-F file=@...) or -F url=...")
            job = runner().submit(uploads, urls, options, api=True)
        except (FormError, BadInput) as err:
            return PlainTextResponse(f"{err}\n", 400)
        except Busy as err:
            return PlainTextResponse(f"busy: {err}\n", 503)
        return StreamingResponse(stream_lines(job), media_type=JSONL_TYPE)

    async def stream_lines(job: Job) -> AsyncIterator[str]:
        import queue

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
            await forget(job)

    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        detail = getattr(exc, "detail", "not found")
        if request.url.path.startswith("/api/"):
            return PlainTextResponse(f"{detail}\n", status)
        message = f"{detail}. A report is kept {settings.keep_minutes:g} minutes after its check."
        return html(pages.message_page("Not found", message), status)

    async def failure(request: Request, exc: Exception) -> Response:
        log.error("internal error on %s", request.url.path, exc_info=exc)
        message = (
            f"gcadj failed on this request (internal error: {type(exc).__name__}). This is a "
            "bug in gcadj; the other checks go on."
        )
        if request.url.path.startswith("/api/"):
            return PlainTextResponse(message + "\n", 500)
        return html(pages.message_page("Internal error", message), 500)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        state["runner"] = JobRunner(settings)
        try:
            yield
        finally:
            await asyncio.to_thread(state["runner"].shutdown)

    routes = [
        Route("/", home, methods=["GET"]),
        Route("/check", check, methods=["POST"]),
        Route("/api/check", api_check, methods=["POST"]),
        Route("/job/{job}/", job_page, methods=["GET"]),
        Route("/job/{job}/v/{name}", viewer_page, methods=["GET"]),
        Route("/job/{job}/results.{kind:str}", results, methods=["GET"]),
        Route("/job/{job}/delete", delete_job, methods=["POST"]),
    ]
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        HTTPException: not_found,
        Exception: failure,
    }
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers)
    csp = pages.csp_for(sample_pages())
    app.add_middleware(Security, csp=csp)
    return app


__all__ = ["BadInput", "TooLarge", "create_app", "judge_options", "read_body", "sources_of"]
