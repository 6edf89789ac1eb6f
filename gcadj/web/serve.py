"""Run `gcadj serve`: open the store of results, bind the address, say where, open a
browser if asked, serve.

The socket is bound here before uvicorn starts, so a port in use is one clear message
rather than a log of uvicorn's, and ``--port 0`` (any free port) prints the real one.

`SETTINGS_ENV` is a test hook in the spirit of `gcadj.app.pool.HANG_ENV`: set, the server
also prints the settings it runs with, as one JSON line after its first, so that a test
sees every option of the command reach the running server.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any, Final

from gcadj.errors import ServeError
from gcadj.web.limits import ANY_HOST, ServeSettings, is_loopback_host
from gcadj.web.pages import days_text

SETTINGS_ENV: Final = "GCADJ_SERVE_SAY_SETTINGS"
SETTINGS_LINE: Final = "gcadj serve: settings: "


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port; `ServeError` says why not."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as err:
        raise ServeError(f"cannot listen on {host!r}: {err}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as err:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {err.strerror or err}") from None
    sock.set_inheritable(True)
    return sock


def startup_line(settings: ServeSettings, workers: int) -> str:
    """What the server says when it starts: where, and what it guards, truthfully."""
    fetches = (
        "public addresses only"
        if settings.guards_urls
        else "any address, loopback and private ones too (--any-urls)"
    )
    if ANY_HOST in settings.allowed_hosts:
        names = "any name (--allowed-host '*')"
    elif settings.listens_everywhere:
        names = "its IP addresses, " + ", ".join(sorted(settings.allowed_host_names))
    else:
        names = ", ".join(sorted(settings.allowed_host_names))
    reach = "this machine only" if is_loopback_host(settings.host) else "the network"
    proxy = "; clients named by X-Forwarded-For (--trust-proxy)" if settings.trust_proxy else ""
    return (
        f"gcadj serve: {settings.url} (Ctrl-C to stop); {workers} workers; reachable from "
        f"{reach}; answers to {names}; fetches {fetches}{proxy}; results kept "
        f"{days_text(settings.keep_days)} in {settings.data_folder}"
    )


def log_to_stderr() -> None:
    """The server's own log (gcadj.web) on stderr, from info up: a client that hung up
    or was too slow is one line, a bug its traceback."""
    logger = logging.getLogger("gcadj.web")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("gcadj serve: %(levelname)s: %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False


def run_server(settings: ServeSettings, *, open_browser: bool = False) -> None:
    """Serve until Ctrl-C (or SIGTERM); prints the address first."""
    import uvicorn

    from gcadj.web.app import create_app
    from gcadj.web.protocol import ClientLimits, protocol_for
    from gcadj.web.store import ResultStore

    store = ResultStore.open(
        settings.data_folder, keep_days=settings.keep_days, max_bytes=settings.max_store
    )  # first: a data folder that cannot be used is said before anything listens
    try:
        sock = bind(settings.host, settings.port)
    except BaseException:
        store.close()
        raise
    port = int(sock.getsockname()[1])
    settings = dataclasses.replace(settings, port=port)
    app = create_app(settings, store)
    limits = ClientLimits(
        settings.client_timeout,
        settings.min_upload_rate,
        connection_cap(settings),
        body_timeout=settings.body_timeout,
        client_connections=settings.client_connections,
        trust_proxy=settings.trust_proxy,
    )
    config = uvicorn.Config(
        app,
        http=protocol_for(limits),
        lifespan="on",
        log_level="warning",
        proxy_headers=False,  # a client is its address; --trust-proxy is read by the Guard
        server_header=False,
        date_header=False,
        timeout_keep_alive=math.ceil(settings.client_timeout) + 1,  # ours closes first
        h11_max_incomplete_event_size=64 * 1024,
    )
    server = uvicorn.Server(config)
    before = stops_from_now(server.handle_exit)
    try:
        log_to_stderr()
        print(startup_line(settings, settings.pool_size), flush=True)
        if os.environ.get(SETTINGS_ENV):
            said = json.dumps(dataclasses.asdict(settings))
            print(SETTINGS_LINE + said, file=sys.stderr, flush=True)
        if open_browser:
            import webbrowser

            threading.Timer(0.5, webbrowser.open, args=(settings.url,)).start()
        server.run(sockets=[sock])
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
        sock.close()
        store.close()
    sys.stdout.flush()


def stops_from_now(stop: Callable[[int, FrameType | None], None]) -> dict[int, Any]:
    """Ctrl-C and SIGTERM call `stop` (uvicorn's own handler: the server stops, gracefully)
    from the moment the address is printed, not only once uvicorn listens for them: one that
    came in between interrupted the making of the event loop, and asyncio printed warnings
    and a traceback. The handlers before, to put back; none changed outside the main thread,
    where no signal can be handled."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {number: signal.signal(number, stop) for number in (signal.SIGINT, signal.SIGTERM)}


def connection_cap(settings: ServeSettings) -> int:
    """`ServeSettings.max_connections`, and at most half the files this process may open
    (the rest: the worker pipes, the reports, the spilled uploads)."""
    try:
        import resource

        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, ValueError, OSError):
        return settings.max_connections
    if soft == resource.RLIM_INFINITY:
        return settings.max_connections
    return max(16, min(settings.max_connections, soft // 2))


__all__ = [
    "SETTINGS_ENV",
    "SETTINGS_LINE",
    "bind",
    "connection_cap",
    "log_to_stderr",
    "run_server",
    "startup_line",
    "stops_from_now",
]
