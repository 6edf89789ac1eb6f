"""The Starlette app of `gcadj serve`: its routes, as module-level endpoints.

Routes:

- ``GET /``: the form (paste, an address, files);
- ``POST /check``: starts a check and answers 303 to its result's address, ``/r/<id>``,
  once it has ended (or after a few seconds, to its progress); the browser that made it
  gets the owner's cookie (it may delete the result);
- ``GET /r/<id>``: the result (its progress until the check ends): one game's viewer
  with the editor, or the report of several; the same page when reloaded, bookmarked,
  opened in another browser or after a restart, until it expires. ``#ply=N`` opens a
  position. ``/r/<id>/g/<n>`` is game n of a report, ``/r/<id>/<name>.jsonl`` and
  ``.csv`` its verdicts (named in any script: `attachment`), ``POST /r/<id>/delete``
  deletes it (its owner only). An id that cannot be a result's, or a game number out of
  range, is answered 404 before the store is asked;
- ``POST /api/check``: JSON lines, one per game, as ``gcadj check --json`` prints them
  (with ``adjudicate=1``, as ``gcadj adjudicate --json`` does; with ``analyse=1``, as
  ``gcadj analyse --json`` does); the result's address is
  in the answer's ``Link`` header (``rel="alternate"``). A client that hangs up before
  the last line stops its check, whose result is deleted (`JobLines`).

A page's check adjudicates every game (``--adjudicate-budget``: `gcadj.web.check_work.check_job`),
in the workers: every game's page shows what the adjudicator proposes, its mating
line stepped on the board. A check with ``analyse=1`` (the form's box) analyses every
game's plies too, within the same share of its deadlines: its pages mark the findings,
step their lines and draw the balance; its report has their column and filters.

The endpoints share what the app holds (`ServerState`, in ``request.app.state``): the
settings, the store of results (`gcadj.web.store.ResultStore`, opened before the server
listens), the pool of checks (`gcadj.web.jobs.JobRunner`, made at start-up, stopped at
shutdown) and the reader of bodies (`gcadj.web.receive.Receiver`: the size limit, the
budget of bytes held at once, the spilling of large uploads). Pages are made from the
store in a thread (`gcadj.web.result_pages`), never on the event loop; a check's end and
its lines are awaited (`gcadj.web.handoff`), never polled. A request refused anywhere
raises `gcadj.errors.Refused`, answered by one handler (`refused`: a line of text for the
API, a page for a browser). A client that hangs up is one line of the log at info
level. An unexpected error answers a page that says so, never a traceback. `create_app`
puts `gcadj.web.guard.Guard` in front of it all: the security headers on every answer
(500s too), the ``Host`` and ``Origin`` checks, the cap on requests at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from gcadj.app.pipeline import JudgeOptions
from gcadj.errors import BadRequest, BodyTooLarge, Refused, ServerBusy, StoreError
from gcadj.vocabulary import JobState
from gcadj.web import pages, result_pages
from gcadj.web.clients import CLIENT_SCOPE
from gcadj.web.forms import FormError, Part, media_type
from gcadj.web.guard import Guard
from gcadj.web.jobs import Job, JobRunner
from gcadj.web.limits import ServeSettings, size_text
from gcadj.web.receive import Receipt, Receiver
from gcadj.web.store import (
    DAY,
    INTERRUPTED,
    RUNNING,
    ResultStore,
    StoredResult,
    is_game_number,
    is_result_id,
)
from gcadj.web.uploads import Upload

log = logging.getLogger(__name__)

INLINE_SECONDS: Final = 8.0  # how long POST /check waits before showing progress instead
PASTED: Final = "pasted text"
BODY: Final = "<body>"
JSONL_TYPE: Final = "application/x-ndjson; charset=utf-8"
NOTHING: Final = "Nothing to check: paste a log, give an address or choose files."
NOTHING_API: Final = "nothing to check: send a log, files (-F file=@...) or -F url=..."
OWNER_COOKIE: Final = "gcadj-owner"  # the token of the browser that made a result
CLOSE: Final = {"connection": "close"}  # a refusal: the client may still be sending
FORM_TYPES: Final = ("multipart/form-data", "application/x-www-form-urlencoded")


@dataclass
class ServerState:
    """What the endpoints share: the settings, the store of results, the pool of checks,
    the reader of bodies, and the tasks that give a check's uploads back once it ended."""

    settings: ServeSettings
    store: ResultStore
    runner: JobRunner
    receiver: Receiver
    releases: set[asyncio.Task[None]] = field(default_factory=set)


def is_api(request: Request) -> bool:
    """Is this a request of the JSON API (answered in text, never in pages)?"""
    return request.url.path.startswith("/api/")


def client_of(request: Request) -> str:
    """The client a request comes from, as `gcadj.web.guard.Guard` found it."""
    return str(request.scope.get(CLIENT_SCOPE, ""))


def state_of(request: Request) -> ServerState:
    state: ServerState = request.app.state.server
    return state


def judge_options(fields: dict[str, str]) -> JudgeOptions:
    """The options a form or query gives (pocket_file, all, fen, analyse), checked as the
    CLI checks them; `BadRequest` says what is wrong."""
    from gcadj.errors import FenError
    from gcadj.judging.verdict import start_position
    from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile, not_a_pocket_file

    typed = (fields.get("pocket_file") or "").strip()  # none: the file the log uses
    pocket_file = PocketFile.read(typed) if typed else None
    if typed and pocket_file is None:
        raise BadRequest(not_a_pocket_file("pocket_file", typed))
    fen = (fields.get("fen") or "").strip() or None
    if fen is not None:
        try:
            start_position(fen, pocket_file or DEFAULT_POCKET_FILE)
        except FenError as err:
            raise BadRequest(f"fen: {err}") from None
    analyse = None
    if is_yes(fields.get("analyse")):  # within the check's stage time (`check_job`)
        from gcadj.analysis.options import AnalyseOptions

        analyse = AnalyseOptions()
    return JudgeOptions(
        fen=fen,
        pocket_file=pocket_file,
        all_findings=is_yes(fields.get("all")),
        analyse=analyse,
    )


def is_yes(value: str | None) -> bool:
    """A form's or query's yes: a ticked box ("on", "1"), "true", "yes"."""
    return (value or "").strip().lower() in ("1", "true", "on", "yes")


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
            await job.finished.wait()
        finally:
            receipt.close()

    task = asyncio.get_running_loop().create_task(wait())
    state.releases.add(task)
    task.add_done_callback(state.releases.discard)


def sentence(message: str) -> str:
    """A refusal's message as a page shows it: capitalised, but for gcadj's own name.

    >>> sentence("busy: try again"), sentence("gcadj cannot keep results now")
    ('Busy: try again', 'gcadj cannot keep results now')
    """
    if message.startswith("gcadj"):
        return message
    return message[:1].upper() + message[1:]


def refusal_answer(request: Request, refusal: Refused) -> Response:
    """A refusal said as its caller reads it: a line of text for the API, a page for a
    browser (the form again, with the message, for a request that was wrong: 400)."""
    if is_api(request):
        return PlainTextResponse(f"{refusal.message}\n", refusal.status, headers=refusal.headers)
    shown = sentence(refusal.message)
    if refusal.status == 400:
        made = pages.home(state_of(request).settings, message=shown)
        return html(made, refusal.status, refusal.headers)
    if refusal.note:
        shown = f"{shown}. {refusal.note}"
    return html(pages.message_page(refusal.title, shown), refusal.status, refusal.headers)


async def refused(request: Request, exc: Exception) -> Response:
    """The one handler of refusals: a `Refused` raised by any endpoint, and Starlette's
    own (an address no route has, a method a route does not take), answered alike."""
    if isinstance(exc, HTTPException):
        exc = missing(request, str(exc.detail), status=exc.status_code)
    assert isinstance(exc, Refused)
    return refusal_answer(request, exc)


def busy(message: object) -> Refused:
    """The server cannot take this request now (503): said, and the connection closed
    (the client may still be sending)."""
    return Refused(503, f"busy: {message}", headers=CLOSE)


def missing(request: Request, what: str, *, status: int = 404) -> Refused:
    """A result, game or file that is not there (404), and on a page how long results
    are kept."""
    keep = pages.days_text(state_of(request).settings.keep_days)
    note = f"A result is kept {keep} after its check, unless its owner deletes it."
    return Refused(status, what, title="Not found", note=note)


def store_unavailable(err: StoreError) -> Refused:
    """The server's disk cannot keep or give results now (503): said, not a bug."""
    message = f"gcadj cannot read or keep results now: {err}"
    return Refused(503, message, title="Store unavailable")


async def receive(request: Request, state: ServerState) -> tuple[list[Part], Receipt]:
    """The request's parts and what they hold; `Refused` 413 too large, 503 over the
    budget, 400 not a form. A client that hangs up raises Starlette's `ClientDisconnect`
    (answered by `failure`: nobody reads it)."""
    try:
        return await state.receiver.read(request, client=client_of(request), whole=is_api(request))
    except BodyTooLarge:
        limit = size_text(state.settings.max_body)
        message = (
            f"refused: the upload is larger than this server's limit of {limit} per check; "
            "send fewer files at once, or zip them"
        )
        raise Refused(413, message, headers=CLOSE) from None
    except ServerBusy as err:
        raise busy(err) from None
    except FormError as err:
        raise Refused(400, str(err)) from None


def request_sources(
    request: Request, parts: list[Part]
) -> tuple[list[Upload], list[str], dict[str, str]]:
    """What a request asks to check: a form's uploads, addresses and fields (its parts, as
    `receive` read them); for the API also a body that is the log itself (``curl
    --data-binary``), and the query's fields."""
    kind = media_type(request.headers.get("content-type", ""))
    api = is_api(request)
    if kind == "multipart/form-data" or (kind in FORM_TYPES and not api):
        uploads, urls, fields = sources_of(parts)
    elif api:  # the log itself (curl --data-binary sends it as a urlencoded form)
        name = request.query_params.get("name") or BODY
        uploads, urls, fields = [upload_of(name, part) for part in parts], [], {}
    else:
        raise FormError(f"expected a form (multipart/form-data), not {kind or 'no content type'}")
    if api:
        fields = {**dict(request.query_params), **fields}
    return uploads, urls, fields


async def start_check(request: Request) -> tuple[Job, str]:
    """Read a request and start its check: the check and its owner's token; the check
    holds the request's uploads (and its share of the budget) until it ends. `Refused`
    says why not."""
    state = state_of(request)
    api = is_api(request)
    parts, receipt = await receive(request, state)
    try:
        uploads, urls, fields = request_sources(request, parts)
        options = judge_options(fields)
        if not uploads and not urls:
            raise BadRequest(NOTHING_API if api else NOTHING)
        adjudicate = not api or is_yes(fields.get("adjudicate"))  # the API's lines: check's
        job, token = await asyncio.to_thread(
            state.runner.submit,
            uploads,
            urls,
            options,
            api=api,
            adjudicate=adjudicate,
            client=client_of(request),
        )
    except (FormError, BadRequest) as err:
        receipt.close()
        raise Refused(400, str(err)) from None
    except ServerBusy as err:
        receipt.close()
        raise busy(err) from None
    except StoreError as err:
        receipt.close()
        log.error("a check could not be started: %s", err)
        message = f"gcadj cannot keep results now: {err}"
        raise Refused(503, message, title="Busy", headers=CLOSE) from None
    release_when_done(state, job, receipt)
    return job, token


async def home(request: Request) -> Response:
    return html(pages.home(state_of(request).settings))


async def check(request: Request) -> Response:
    """Start a check and answer with its result's address as soon as it has ended (or
    after `INLINE_SECONDS`: its progress), awaiting its end, never polling it."""
    job, token = await start_check(request)
    state = state_of(request)
    await job.finished.wait(INLINE_SECONDS)
    response = RedirectResponse(result_path(job.id), status_code=303)
    response.set_cookie(
        OWNER_COOKIE,
        token,
        max_age=max(1, int(state.settings.keep_days * DAY)),
        path=result_path(job.id),
        httponly=True,
        samesite="lax",
    )
    return response


def result_path(result_id: str) -> str:
    return f"/r/{result_id}"


async def stored(request: Request) -> StoredResult:
    """The result the address names, or 404 (none, expired, deleted, or an id no result
    could have, which never reaches the store)."""
    state = state_of(request)
    result_id = str(request.path_params["id"])
    if not is_result_id(result_id):
        raise missing(request, "No such result")
    result = await asyncio.to_thread(state.store.get, result_id)
    if result is None:
        raise missing(request, "No such result")
    return result


def is_owner(request: Request, result: StoredResult) -> bool:
    return result.owned_by(request.cookies.get(OWNER_COOKIE))


async def result_page(request: Request) -> Response:
    """A result: its progress while its check runs, then its page, from the store."""
    state = state_of(request)
    job = state.runner.get(str(request.path_params["id"]))
    if job is not None and not job.finished.is_set():
        names = job.names
        waiting = state.runner.waiting if job.state is JobState.QUEUED else 0
        total = None if names is None else len(names)
        return html(pages.progress_page(job.done, total, job.games, waiting=waiting))
    result = await stored(request)
    # running with no check to hold it: a result the store could not end yet (a full disk)
    if result.state == INTERRUPTED or (result.state == RUNNING and job is None):
        return html(pages.interrupted_page(result.id, result.games))
    owner = is_owner(request, result)
    keep = state.settings.keep_days
    if result.games == 1:
        game = await asyncio.to_thread(state.store.game, result.id, 1)
        if game is not None:
            made = await asyncio.to_thread(
                result_pages.game_page, result, game, keep_days=keep, owner=owner
            )
            return html(made)
    report, _ = await asyncio.to_thread(state.store.products, result.id)
    if report is not None:
        made = await asyncio.to_thread(
            result_pages.report_page, result, report, keep_days=keep, owner=owner
        )
        return html(made)
    return html(pages.message_page("Nothing judged", "This check found no game to judge."))


async def report_game(request: Request) -> Response:
    """Game n of a report: its viewer."""
    state = state_of(request)
    n = int(request.path_params["n"])
    if not is_game_number(n):
        raise missing(request, "No such game in this result")
    result = await stored(request)
    game = await asyncio.to_thread(state.store.game, result.id, n)
    if game is None:
        raise missing(request, "No such game in this result")
    made = await asyncio.to_thread(
        result_pages.game_page,
        result,
        game,
        keep_days=state.settings.keep_days,
        owner=is_owner(request, result),
        report=result.games > 1,
    )
    return html(made)


async def download(request: Request) -> Response:
    """A result's verdicts, as JSON lines or CSV, named after what was checked."""
    state = state_of(request)
    result = await stored(request)
    kind = str(request.path_params["file"]).rsplit(".", 1)[-1]
    disposition = {"content-disposition": attachment(f"{result.stem}.{kind}")}
    if kind == "jsonl":
        lines = (line + "\n" for line in state.store.lines(result.id))  # read in a thread
        return StreamingResponse(lines, media_type=JSONL_TYPE, headers=disposition)
    if kind == "csv":
        _, csv = await asyncio.to_thread(state.store.products, result.id)
        if csv is not None:
            return Response(csv, media_type="text/csv; charset=utf-8", headers=disposition)
    raise missing(request, "No such file")


def attachment(filename: str) -> str:
    """The ``Content-Disposition`` of a download named `filename`, in any script, as RFC
    6266 asks: the name itself as UTF-8 (``filename*``, RFC 8187), after an ASCII
    ``filename`` for clients that know no better (the name's ASCII letters, digits and
    ``-_.``, others as ``_``; "download" when none are left). A header is Latin-1:
    the name as it is would not fit in one.

    >>> for part in attachment("партия.jsonl").split("; "):
    ...     print(part)
    attachment
    filename="download.jsonl"
    filename*=UTF-8''%D0%BF%D0%B0%D1%80%D1%82%D0%B8%D1%8F.jsonl
    >>> print(attachment("club-2024.csv"))
    attachment; filename="club-2024.csv"; filename*=UTF-8''club-2024.csv
    """
    stem, dot, ending = filename.rpartition(".")
    if not dot:
        stem, ending = filename, ""

    def ascii_of(text: str) -> str:
        return "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in text)

    fallback = ascii_of(stem) if any(c.isascii() and c.isalnum() for c in stem) else "download"
    if dot:
        fallback += "." + ascii_of(ending)
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"


async def delete_result(request: Request) -> Response:
    state = state_of(request)
    result = await stored(request)
    if not is_owner(request, result):
        message = (
            "Only the browser that made this result can delete it. It is deleted by itself "
            f"on {result_pages.kept_until(result, state.settings.keep_days)}."
        )
        raise Refused(403, message, title="Not yours")
    await asyncio.to_thread(state.runner.delete, result.id)
    response = html(pages.message_page("Deleted", "The result is deleted.", kind="ok"))
    response.delete_cookie(OWNER_COOKIE, path=result_path(result.id))
    return response


async def api_check(request: Request) -> Response:
    job, _ = await start_check(request)
    where = str(request.base_url).rstrip("/") + result_path(job.id)
    headers = {"link": f'<{where}>; rel="alternate"; type="text/html"'}
    return JobLines(state_of(request).runner, job, headers)


class JobLines(StreamingResponse):
    """A check's JSON lines as they come. When the answer ends before its last line (the
    client went away, however Starlette hears it), the check is abandoned: it stops and
    its result is deleted, nobody waits for it (`JobRunner.abandon`, which returns at
    once: nothing is awaited once the client is gone)."""

    def __init__(self, runner: JobRunner, job: Job, headers: dict[str, str]) -> None:
        self.runner = runner
        self.job = job
        self.delivered = False
        super().__init__(self.lines(), media_type=JSONL_TYPE, headers=headers)

    async def lines(self) -> AsyncIterator[str]:
        """Each line as the check's thread hands it over (awaited: `Handoff.get`)."""
        while True:
            line = await self.job.lines.get()
            if line is None:
                self.delivered = True
                return
            yield line + "\n"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            if not self.delivered:
                self.runner.abandon(self.job)


async def failure(request: Request, exc: Exception) -> Response:
    if isinstance(exc, ClientDisconnect):  # not a failure: the client went away
        log.info("%s: the client hung up", request.url.path)
        return Response(status_code=400)
    if isinstance(exc, StoreError):  # the server's disk: said, not a bug
        log.error("%s: %s", request.url.path, exc)
        return refusal_answer(request, store_unavailable(exc))
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
    """Start the pool and the reader of bodies with the server; stop both (every check,
    every spilled upload) when it stops. The store stays: its results outlive the server."""
    settings: ServeSettings = app.state.settings
    receiver = Receiver(settings)
    store: ResultStore = app.state.store
    state = ServerState(settings, store, JobRunner(settings, store), receiver)
    app.state.server = state
    try:
        yield
    finally:
        for task in list(state.releases):
            task.cancel()
        await asyncio.to_thread(state.runner.shutdown)
        receiver.close()


def sample_pages() -> list[str]:
    """A page of each kind the server makes, from a known game (a viewer with the bar and
    the editor, a verdict, a report, its own pages): the inline code the
    Content-Security-Policy allows is theirs."""
    import tempfile

    from gcadj.analysis.options import AdjudicateOptions
    from gcadj.app.pipeline import JudgeOptions, judge_source
    from gcadj.outputs.audit_report import write_report
    from gcadj.web.check_work import stored_view
    from gcadj.web.store import StoredGame

    text = "P e2-e4\np f7-f6\nP d2-d4\np g7-g5\n"  # a mate in 1: the adjudication's line
    adjudicated = JudgeOptions(adjudicate=AdjudicateOptions(mate_depth=1, budget=None))
    verdict = judge_source("sample.txt", adjudicated, text=text)[0]
    result = StoredResult("sample", time.time(), "sample.txt", "sample", "done", {}, 1, 0, text, "")
    game = StoredGame(1, "sample.txt", verdict.json_line(), stored_view(verdict, fen=None))
    bad = judge_source("bad.txt", text="not a game\n")[0]
    broken = StoredGame(1, "bad.txt", bad.json_line(), None)
    keep = 1.0
    made = [
        result_pages.game_page(result, game, keep_days=keep, owner=True),
        result_pages.game_page(result, broken, keep_days=keep, owner=True),
    ]
    with tempfile.TemporaryDirectory(prefix="gcadj-serve-sample-") as folder:
        jsonl = Path(folder) / "sample.jsonl"
        jsonl.write_text(verdict.json_line() + "\n", encoding="utf-8")
        write_report(jsonl, Path(folder) / "report.html")
        report = (Path(folder) / "report.html").read_text(encoding="utf-8")
    made.append(result_pages.report_page(result, report, keep_days=keep, owner=True))
    return [*made, pages.message_page("sample", "")]


ROUTES: Final = [
    Route("/", home, methods=["GET"]),
    Route("/check", check, methods=["POST"]),
    Route("/api/check", api_check, methods=["POST"]),
    Route("/r/{id}", result_page, methods=["GET"]),
    Route("/r/{id}/g/{n:int}", report_game, methods=["GET"]),
    Route("/r/{id}/delete", delete_result, methods=["POST"]),
    Route("/r/{id}/{file}", download, methods=["GET"]),
]


def create_app(settings: ServeSettings, store: ResultStore) -> Guard:
    """The web app behind its `Guard` (an ASGI app for uvicorn), keeping its results in
    `store`; its checks run in a `JobRunner` made at start-up, stopped at shutdown."""
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        Refused: refused,
        HTTPException: refused,
        Exception: failure,
    }
    app = Starlette(routes=ROUTES, lifespan=lifespan, exception_handlers=handlers)
    app.state.settings = settings
    app.state.store = store
    return Guard(app, settings, pages.csp_for(sample_pages()))


__all__ = [
    "OWNER_COOKIE",
    "JobLines",
    "ServerState",
    "attachment",
    "create_app",
    "judge_options",
    "sources_of",
    "state_of",
]
