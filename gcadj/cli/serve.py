"""`gcadj serve`: the adjudicator in a browser (`gcadj.web`), with its limits as options.

Starlette and uvicorn (the ``serve`` extra) are imported only when the command runs, so
``gcadj --help`` and every other command start without them; without the extra the
command says how to install it and exits 2.
"""

from __future__ import annotations

from typing import Annotated

import typer

from gcadj.cli.options import (
    EXIT_USAGE,
    JobsOption,
    limits_of,
    memory_option,
    number_option,
    source_timeout_option,
)
from gcadj.cli.streams import say

SERVE_EPILOG = (
    "Open the printed address in a browser: paste a log, give a game page's address or "
    "upload files (logs, saved pages, PGN databases, a .zip of an archive). POST /api/check "
    "answers JSON lines, as gcadj check --json. On any --host but loopback, pages are fetched "
    "from public addresses only. Needs the serve extra: pip install 'gcadj[serve]'."
)


def serve(
    host: Annotated[
        str,
        typer.Option(
            "--host", metavar="ADDRESS", help="Address to listen on (0.0.0.0: every one)."
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int,
        number_option("--port", metavar="N", minimum=0, help="Port (0: any free one)."),
    ] = 8000,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the page in the default browser.")
    ] = False,
    max_upload: Annotated[
        float,
        number_option(
            "--max-upload",
            metavar="MB",
            minimum=0,
            whole=False,
            strict=True,
            help="Largest request body (paste, files, zips together), in MB.",
        ),
    ] = 20.0,
    zip_max_mb: Annotated[
        float,
        number_option(
            "--zip-max-mb",
            metavar="MB",
            minimum=0,
            whole=False,
            strict=True,
            help="Largest uncompressed size of a zip's members together, in MB.",
        ),
    ] = 200.0,
    zip_max_files: Annotated[
        int,
        number_option(
            "--zip-max-files",
            metavar="N",
            minimum=1,
            help="Most files in one zip.",
        ),
    ] = 10_000,
    zip_max_ratio: Annotated[
        int,
        number_option(
            "--zip-max-ratio",
            metavar="N",
            minimum=1,
            help="Most a member over 1 MB may expand (uncompressed / compressed).",
        ),
    ] = 100,
    jobs: JobsOption = None,
    source_timeout: Annotated[
        float, source_timeout_option("60 s, as the server faces strangers")
    ] = 60.0,
    memory: Annotated[int, memory_option("2048 MB, as the server faces strangers")] = 2048,
    job_timeout: Annotated[
        float,
        number_option(
            "--job-timeout",
            metavar="SECONDS",
            minimum=0,
            whole=False,
            strict=True,
            help="Deadline for a whole check (a zip of thousands of games).",
        ),
    ] = 900.0,
    keep: Annotated[
        float,
        number_option(
            "--keep",
            metavar="MINUTES",
            minimum=0,
            whole=False,
            help="How long a report and its viewers stay available.",
        ),
    ] = 60.0,
    public_urls_only: Annotated[
        bool | None,
        typer.Option(
            "--public-urls-only/--any-urls",
            help="Refuse (or allow) fetching loopback, private, link-local and metadata "
            "addresses. Default: refused unless --host is loopback.",
        ),
    ] = None,
) -> None:
    """Serve the adjudicator as a web page and a JSON API."""
    import importlib.util

    missing = [
        name
        for name in ("starlette", "uvicorn", "python_multipart")
        if importlib.util.find_spec(name) is None
    ]
    if missing:
        say(
            f"gcadj serve: needs the serve extra ({', '.join(missing)} not installed): "
            "pip install 'gcadj[serve]'",
            err=True,
        )
        raise typer.Exit(EXIT_USAGE)
    from gcadj.web.limits import MB, ServeSettings
    from gcadj.web.serve import ServeError
    from gcadj.web.serve import serve as run

    limits = limits_of(jobs, source_timeout, memory)
    settings = ServeSettings(
        host=host,
        port=int(port),
        max_body=int(max_upload * MB),
        zip_max_total=int(zip_max_mb * MB),
        zip_max_files=int(zip_max_files),
        zip_max_ratio=int(zip_max_ratio),
        workers=limits.jobs,
        source_timeout=limits.source_seconds,
        worker_memory=limits.memory,
        job_timeout=float(job_timeout),
        keep_minutes=float(keep),
        public_urls_only=public_urls_only,
    )
    if settings.port > 65535:
        say(f"gcadj serve: --port must be at most 65535, not {settings.port}", err=True)
        raise typer.Exit(EXIT_USAGE)
    try:
        run(settings, open_browser=open_browser)
    except ServeError as err:
        say(f"gcadj serve: {err}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    except KeyboardInterrupt:
        pass
