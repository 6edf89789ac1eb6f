"""The settings of `gcadj serve`: where it listens, and every limit that keeps it safe.

The defaults (`gcadj.web.defaults`) suit one player or director on their own machine and
stay safe when the server is reached through a reverse proxy or exposed: it answers only
to the names of its listening address (`allowed_host_names`, plus ``--allowed-host``),
refuses forms posted from other sites, fetches public addresses only (``--any-urls`` to
fetch any), buffers at most `ServeSettings.max_buffer` bytes of uploads at once (larger
uploads spill to a private file), gives a client `ServeSettings.client_timeout` seconds to
send its request's headers and then a minimum rate and a deadline for its body, takes no
body over `ServeSettings.max_body`, checks zips before reading anything from them, and
judges each source within a deadline in a bounded pool of worker processes.

Each client (its address: `gcadj.web.clients`) has its share of what the server holds:
connections, requests and upload bytes at once, checks running or waiting, and the
workers while others wait for them (`gcadj.web.schedule`), so that no client can lock
out the rest.
"""

from __future__ import annotations

import functools
import ipaddress
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from gcadj.web import defaults
from gcadj.web.defaults import KB, MB

LOOPBACK_NAMES: Final = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})
EVERY_ADDRESS: Final = frozenset({"0.0.0.0", "::", ""})
ANY_HOST: Final = "*"  # --allowed-host '*': answer to any Host (the user's own risk)


def host_name(host: str) -> str:
    """A host as it is compared: without brackets, trailing dot or case ("[::1]" is "::1")."""
    return host.strip().strip("[]").rstrip(".").lower()


def is_loopback_host(host: str) -> bool:
    """Is this listening address reachable from this machine only (127.x, ::1, localhost)?"""
    name = host_name(host)
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host_name(host))
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class ServeSettings:
    """Everything `gcadj serve` can be told; `gcadj serve --help` lists the options. The
    defaults the command line shares are written in `gcadj.web.defaults`, with what each
    is for."""

    host: str = defaults.HOST
    port: int = defaults.PORT
    max_body: int = defaults.MAX_UPLOAD_MB * MB  # one request, all its parts
    zip_max_total: int = defaults.ZIP_MAX_MB * MB  # a request's zips, uncompressed
    zip_max_files: int = defaults.ZIP_MAX_FILES  # zip members of one request (folders not counted)
    zip_max_ratio: int = defaults.ZIP_MAX_RATIO  # a zip, a member over the floor
    zip_ratio_floor: int = 1 * MB  # smaller zips and members may compress well: text does
    workers: int = 0  # worker processes (one per check judged at once; 0: one per core)
    queue: int = 32  # checks waiting for a worker before new ones are turned away
    source_timeout: float = defaults.SOURCE_TIMEOUT  # seconds a source (0: none)
    job_timeout: float = defaults.JOB_TIMEOUT  # seconds for a whole check
    worker_memory: int = defaults.WORKER_MEMORY_MB * MB  # per worker (0: no limit)
    keep_days: float = defaults.KEEP_DAYS  # how long a result is kept (its address answers)
    data: str | None = None  # the data folder of the results (None: the per-user one)
    max_store: int = defaults.MAX_STORE_MB * MB  # oldest results go first
    adjudicate_budget: float = defaults.ADJUDICATE_BUDGET  # seconds a game (0: no mate search)
    fetch_bytes: int = 5 * MB  # a fetched page
    fetch_timeout: float = 30.0  # seconds for a fetched page, whole
    public_urls_only: bool = defaults.PUBLIC_URLS_ONLY  # refuse non-global ones
    allowed_hosts: tuple[str, ...] = ()  # names a reverse proxy sends as Host ("*": any)
    max_buffer: int = defaults.MAX_BUFFER_MB * MB  # held at once, spills too
    spill_bytes: int = 256 * KB  # a request's memory: past it its parts go to private files
    client_timeout: float = defaults.CLIENT_TIMEOUT  # for headers, and idle
    min_upload_rate: int = defaults.MIN_UPLOAD_RATE_KB * KB  # a body's, in bytes/s
    body_timeout: float = defaults.BODY_TIMEOUT  # seconds for a whole body (0: none)
    max_requests: int = 200  # requests handled at once; more are answered 503 at once
    max_connections: int = 1000  # open connections; more are closed at once
    trust_proxy: bool = defaults.TRUST_PROXY  # the client is X-Forwarded-For's last address
    client_connections: int = defaults.CLIENT_CONNECTIONS  # open at once, per client
    client_requests: int = defaults.CLIENT_REQUESTS  # handled at once, per client
    client_buffer: int = defaults.CLIENT_BUFFER_MB * MB  # upload bytes held, per client
    client_checks: int = defaults.CLIENT_CHECKS  # running or waiting, per client
    adjudicate_share: float = defaults.ADJUDICATE_SHARE  # of the workers' time (0: no bound)
    slice_seconds: float = 1.0  # a check judges this long before it yields its worker

    @property
    def pool_size(self) -> int:
        from gcadj.app.batch import default_jobs

        return self.workers or default_jobs()

    @property
    def data_folder(self) -> Path:
        """Where the results are kept: ``--data``, else `gcadj.about.user_data_dir`."""
        from gcadj.about import user_data_dir

        return Path(self.data) if self.data else user_data_dir()

    @property
    def guards_urls(self) -> bool:
        """Are loopback, private, link-local and metadata addresses refused when fetching?
        Yes, on every listening address, unless ``--any-urls`` says otherwise: a server on
        loopback behind a reverse proxy is as exposed as one listening on the network."""
        return self.public_urls_only

    @property
    def url(self) -> str:
        host = self.host
        if ":" in host and not host.startswith("["):
            host = f"[{host}]"
        if host in ("0.0.0.0", "[::]"):  # every address: this machine's name for itself
            host = "127.0.0.1" if host == "0.0.0.0" else "[::1]"
        return f"http://{host}:{self.port}/"

    @property
    def listens_everywhere(self) -> bool:
        return host_name(self.host) in EVERY_ADDRESS

    @functools.cached_property
    def allowed_host_names(self) -> frozenset[str]:
        """The names this server answers to in a request's ``Host`` (see `host_allowed`):
        its listening address, the loopback names when it listens on loopback (or on every
        address), this machine's name when it listens beyond loopback, and
        ``--allowed-host``'s."""
        names = {host_name(self.host), *(host_name(h) for h in self.allowed_hosts)}
        if is_loopback_host(self.host) or self.listens_everywhere:
            names |= LOOPBACK_NAMES | {"127.0.0.1", "::1"}
        if not is_loopback_host(self.host):
            names.add(host_name(socket.gethostname()))
        return frozenset(names - EVERY_ADDRESS)

    def host_allowed(self, host: str) -> bool:
        """May a request name `host` (its ``Host`` without the port)? One of
        `allowed_host_names`; on every address (0.0.0.0, ::), any IP address too, since a
        name is what DNS rebinding needs and an address cannot be rebound."""
        if ANY_HOST in self.allowed_hosts:
            return True
        name = host_name(host)
        if name in self.allowed_host_names:
            return True
        return self.listens_everywhere and is_ip_literal(name)


def size_text(size: int) -> str:
    """A byte count as people read limits: "20 MB", "512 KB", "300 bytes"."""
    if size >= MB:
        return f"{size / MB:.1f}".removesuffix(".0") + " MB"
    if size >= 1000:
        return f"{size / 1000:.0f} KB" if size % 1000 == 0 else f"{size / 1000:.1f} KB"
    return f"{size} bytes"


__all__ = [
    "ANY_HOST",
    "KB",
    "MB",
    "ServeSettings",
    "host_name",
    "is_ip_literal",
    "is_loopback_host",
    "size_text",
]
