"""Run `gcadj serve`: bind the address, say where, open a browser if asked, serve.

The socket is bound here before uvicorn starts, so a port in use is one clear message
rather than a log of uvicorn's, and ``--port 0`` (any free port) prints the real one.
"""

from __future__ import annotations

import socket
import sys
import threading

from gcadj.errors import ServeError
from gcadj.web.limits import ServeSettings


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


def serve(settings: ServeSettings, *, open_browser: bool = False) -> None:
    """Serve until Ctrl-C (or SIGTERM); prints the address first."""
    import dataclasses

    import uvicorn

    from gcadj.web.app import create_app

    sock = bind(settings.host, settings.port)
    port = int(sock.getsockname()[1])
    settings = dataclasses.replace(settings, port=port)
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        log_level="warning",
        server_header=False,
        date_header=False,
        timeout_keep_alive=5,
        limit_concurrency=200,
        h11_max_incomplete_event_size=64 * 1024,
    )
    server = uvicorn.Server(config)
    guard = "on" if settings.guards_urls else "off (loopback only)"
    print(
        f"gcadj serve: {settings.url} (Ctrl-C to stop); {settings.pool_size} workers; "
        f"public addresses only: {guard}",
        flush=True,
    )
    if open_browser:
        import webbrowser

        threading.Timer(0.5, webbrowser.open, args=(settings.url,)).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    sys.stdout.flush()


__all__ = ["ServeError", "bind", "serve"]
