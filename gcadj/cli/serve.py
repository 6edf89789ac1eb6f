"""`gcadj serve`: the adjudicator as a local web app, with its limits as options.

Starlette and uvicorn (the ``serve`` extra) are imported only when the command runs, so
``gcadj --help`` and every other command start without them; without the extra the
command says how to install it and exits 2. Each option is declared once, as a typed
parameter of `serve_run_of`, which alone reads them, into the server's one
`ServeSettings`; `serve` gets what it made (`serve_options`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from gcadj.app.exit_codes import EXIT_OK, exit_codes_help
from gcadj.cli.common_options import (
    EXIT_CANNOT_WRITE,
    EXIT_USAGE,
    JobsOption,
    limits_of,
    memory_option,
    number_option,
    option_group,
    options_of,
    source_timeout_option,
)
from gcadj.cli.streams import say
from gcadj.web import defaults

if TYPE_CHECKING:
    from gcadj.web.limits import ServeSettings

SERVE_EPILOG = (
    "Open the printed address in a browser: paste a log, give a game page's address or "
    "upload files (logs, saved pages, PGN databases, a .zip of an archive). POST /api/check "
    "answers JSON lines, as gcadj check --json. Every result has its own address, kept "
    "--keep days in the --data folder. Safe by default: pages are fetched from "
    "public addresses only (--any-urls to fetch any), the server answers only to its own "
    "address's names (--allowed-host for a reverse proxy's), forms posted from other sites "
    "are refused, slow clients are cut off, and each client has its share of the server "
    "(connections, uploads, checks, workers: no client locks out the rest). Needs the "
    "serve extra: "
    "pip install 'gcadj[serve]'. "
    + exit_codes_help(
        (EXIT_OK, EXIT_USAGE),
        said={EXIT_OK: "the server was stopped (Ctrl-C)"},
        more={EXIT_USAGE: "or the serve extra missing, or the port cannot be listened on"},
        several=False,
    )
)


def megabytes(name: str, help: str) -> object:
    """A size option, in MB (a number > 0)."""
    return number_option(name, metavar="MB", minimum=0, whole=False, strict=True, help=help)


def count(name: str, minimum: int, help: str) -> object:
    """A whole-number option (at least `minimum`)."""
    return number_option(name, metavar="N", minimum=minimum, help=help)


def seconds(name: str, help: str) -> object:
    """A duration option, in seconds (a number > 0)."""
    return number_option(name, metavar="SECONDS", minimum=0, whole=False, strict=True, help=help)


HostOption = Annotated[
    str,
    typer.Option("--host", metavar="ADDRESS", help="Address to listen on (0.0.0.0: every one)."),
]
PortOption = Annotated[
    int, number_option("--port", metavar="N", minimum=0, help="Port (0: any free one).")
]
OpenOption = Annotated[bool, typer.Option("--open", help="Open the page in the default browser.")]
MaxUploadOption = Annotated[
    float, megabytes("--max-upload", "Largest request body (paste, files, zips together), in MB.")
]
ZipMaxOption = Annotated[
    float, megabytes("--zip-max-mb", "Largest uncompressed size of a check's zips, in MB.")
]
ZipFilesOption = Annotated[int, count("--zip-max-files", 1, "Most files in a check's zips.")]
ZipRatioOption = Annotated[
    int,
    count(
        "--zip-max-ratio",
        1,
        "Most a zip, or a member, over 1 MB may expand (uncompressed / compressed).",
    ),
]
SourceTimeoutOption = Annotated[float, source_timeout_option("60 s, as the server faces strangers")]
MemoryOption = Annotated[
    int, memory_option(f"{defaults.WORKER_MEMORY_MB} MB, as the server faces strangers")
]
JobTimeoutOption = Annotated[
    float, seconds("--job-timeout", "Deadline for a whole check (a zip of thousands of games).")
]
KeepOption = Annotated[
    float,
    number_option(
        "--keep",
        metavar="DAYS",
        minimum=0,
        whole=False,
        strict=True,
        help="How long a result is kept at its address (fractions too: 0.5 is 12 hours).",
    ),
]
DataOption = Annotated[
    str | None,
    typer.Option(
        "--data",
        metavar="DIR",
        help="The folder the results are kept in (made if need be). Default: gcadj's "
        "per-user data folder ($XDG_DATA_HOME/gcadj, ~/.local/share/gcadj).",
    ),
]
AdjudicateBudgetOption = Annotated[
    float,
    number_option(
        "--adjudicate-budget",
        metavar="SECONDS",
        minimum=0,
        whole=False,
        help="Time to adjudicate each game of a check (a mate searched up to "
        f"{defaults.ADJUDICATE_DEPTH} moves; "
        "0: no mate searched, as gcadj adjudicate --budget 0). A source spends at most a "
        "quarter of its deadline adjudicating, a check a tenth of its own.",
    ),
]
MaxStoreOption = Annotated[
    float,
    megabytes(
        "--max-store",
        "Most the kept results may hold, in MB; past it the oldest are deleted first.",
    ),
]
PublicUrlsOption = Annotated[
    bool,
    typer.Option(
        "--public-urls-only/--any-urls",
        help="Refuse (the default) or allow fetching loopback, private, link-local and "
        "metadata addresses, whatever --host is.",
    ),
]
AllowedHostOption = Annotated[
    list[str] | None,
    typer.Option(
        "--allowed-host",
        metavar="NAME",
        help="Also answer to this name in a request's Host (a reverse proxy's; may be "
        "repeated; '*': any name). Default: the --host address's own names.",
    ),
]
MaxBufferOption = Annotated[
    float,
    megabytes(
        "--max-buffer",
        "Most upload bytes held at once for all clients, in MB; past it a new upload is "
        "answered 503 (busy) before it is read.",
    ),
]
ClientTimeoutOption = Annotated[
    float,
    seconds(
        "--client-timeout",
        "Deadline for a client to send a request's headers (and to start its body).",
    ),
]
MinRateOption = Annotated[
    float,
    number_option(
        "--min-upload-rate",
        metavar="KB",
        minimum=0,
        whole=False,
        help="Slowest a request body may arrive once --client-timeout has passed, in KB a "
        "second (0: no minimum).",
    ),
]


BodyTimeoutOption = Annotated[
    float,
    number_option(
        "--body-timeout",
        metavar="SECONDS",
        minimum=0,
        whole=False,
        help="Deadline for a whole request body, however fast it comes (0: none but the "
        "minimum rate).",
    ),
]
TrustProxyOption = Annotated[
    bool,
    typer.Option(
        "--trust-proxy",
        help="The server sits behind a reverse proxy: a client is the last address of "
        "X-Forwarded-For, as the proxy appends it (default: the peer address; the header "
        "is never read).",
    ),
]
ClientConnectionsOption = Annotated[
    int, count("--client-connections", 0, "Most connections open at once per client (0: no cap).")
]
ClientRequestsOption = Annotated[
    int, count("--client-requests", 0, "Most requests handled at once per client (0: no cap).")
]
ClientBufferOption = Annotated[
    float,
    megabytes("--client-buffer", "Most upload bytes held at once for one client, in MB."),
]
ClientChecksOption = Annotated[
    int,
    count("--client-checks", 0, "Most checks running or waiting per client (0: no cap)."),
]
AdjudicateShareOption = Annotated[
    float,
    number_option(
        "--adjudicate-share",
        metavar="FRACTION",
        minimum=0,
        whole=False,
        help="Most of the workers' time adjudicating may take over a minute, for all checks "
        "together; past it games are judged with a search cut at once (0: no bound).",
    ),
]


@dataclass(frozen=True)
class ServeRun:
    """What ``gcadj serve`` was told: the server's settings, and whether to open a
    browser on its page."""

    settings: ServeSettings
    open_browser: bool = False


def serve_run_of(
    host: HostOption = defaults.HOST,
    port: PortOption = defaults.PORT,
    open_browser: OpenOption = False,
    max_upload: MaxUploadOption = float(defaults.MAX_UPLOAD_MB),
    zip_max_mb: ZipMaxOption = float(defaults.ZIP_MAX_MB),
    zip_max_files: ZipFilesOption = defaults.ZIP_MAX_FILES,
    zip_max_ratio: ZipRatioOption = defaults.ZIP_MAX_RATIO,
    jobs: JobsOption = None,
    source_timeout: SourceTimeoutOption = defaults.SOURCE_TIMEOUT,
    memory: MemoryOption = defaults.WORKER_MEMORY_MB,
    job_timeout: JobTimeoutOption = defaults.JOB_TIMEOUT,
    keep: KeepOption = defaults.KEEP_DAYS,
    data: DataOption = None,
    max_store: MaxStoreOption = float(defaults.MAX_STORE_MB),
    adjudicate_budget: AdjudicateBudgetOption = defaults.ADJUDICATE_BUDGET,
    public_urls_only: PublicUrlsOption = defaults.PUBLIC_URLS_ONLY,
    allowed_host: AllowedHostOption = None,
    max_buffer: MaxBufferOption = float(defaults.MAX_BUFFER_MB),
    client_timeout: ClientTimeoutOption = defaults.CLIENT_TIMEOUT,
    min_upload_rate: MinRateOption = float(defaults.MIN_UPLOAD_RATE_KB),
    body_timeout: BodyTimeoutOption = defaults.BODY_TIMEOUT,
    trust_proxy: TrustProxyOption = defaults.TRUST_PROXY,
    client_connections: ClientConnectionsOption = defaults.CLIENT_CONNECTIONS,
    client_requests: ClientRequestsOption = defaults.CLIENT_REQUESTS,
    client_buffer: ClientBufferOption = float(defaults.CLIENT_BUFFER_MB),
    client_checks: ClientChecksOption = defaults.CLIENT_CHECKS,
    adjudicate_share: AdjudicateShareOption = defaults.ADJUDICATE_SHARE,
) -> ServeRun:
    """``gcadj serve``'s options, declared once (this signature: `serve` shows them to
    typer through `serve_options`) and read here only, into the server's one
    `ServeSettings` (sizes in MB and KB as bytes, the limits of the batch runner as
    `limits_of` makes them for audit too)."""
    from gcadj.web.limits import KB, MB, ServeSettings

    limits = limits_of(jobs, source_timeout, memory)
    settings = ServeSettings(
        host=host,
        port=port,
        max_body=int(max_upload * MB),
        zip_max_total=int(zip_max_mb * MB),
        zip_max_files=zip_max_files,
        zip_max_ratio=zip_max_ratio,
        workers=limits.jobs,
        source_timeout=limits.source_seconds,
        worker_memory=limits.memory,
        job_timeout=float(job_timeout),
        keep_days=float(keep),
        data=data,
        max_store=int(max_store * MB),
        adjudicate_budget=float(adjudicate_budget),
        public_urls_only=public_urls_only,
        allowed_hosts=tuple(allowed_host or ()),
        max_buffer=int(max_buffer * MB),
        client_timeout=float(client_timeout),
        min_upload_rate=int(min_upload_rate * KB),
        body_timeout=float(body_timeout),
        trust_proxy=trust_proxy,
        client_connections=client_connections,
        client_requests=client_requests,
        client_buffer=int(client_buffer * MB),
        client_checks=client_checks,
        adjudicate_share=float(adjudicate_share),
    )
    return ServeRun(settings, open_browser)


serve_options = option_group("run", options_of(serve_run_of), serve_run_of)
"""``gcadj serve``'s options (`serve_run_of`'s parameters) in place of its ``run``."""


@serve_options
def serve(run: ServeRun) -> None:
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
    from gcadj.errors import ServeError, StoreError
    from gcadj.web.serve import run_server

    settings = run.settings
    if settings.port > 65535:
        say(f"gcadj serve: --port must be at most 65535, not {settings.port}", err=True)
        raise typer.Exit(EXIT_USAGE)
    try:
        run_server(settings, open_browser=run.open_browser)
    except ServeError as err:
        say(f"gcadj serve: {err}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    except StoreError as err:  # the data folder: the user's disk, not a bug
        say(f"gcadj serve: {err}", err=True)
        raise typer.Exit(EXIT_CANNOT_WRITE) from None
    except KeyboardInterrupt:
        pass
