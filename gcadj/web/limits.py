"""The settings of `gcadj serve`: where it listens, and every limit that keeps it safe.

The defaults suit one player or director on their own machine and stay safe when the
server is exposed: no upload or body over 20 MB, zips checked before anything is read
from them, each source judged within a deadline in a bounded pool of worker processes,
and (on any address but loopback) only public addresses fetched.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Final

MB: Final = 1000 * 1000
LOOPBACK_NAMES: Final = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_loopback_host(host: str) -> bool:
    """Is this listening address reachable from this machine only (127.x, ::1, localhost)?"""
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class ServeSettings:
    """Everything `gcadj serve` can be told; `gcadj serve --help` lists the options."""

    host: str = "127.0.0.1"
    port: int = 8000
    max_body: int = 20 * MB  # one request: a paste, the files of one upload, a zip
    zip_max_total: int = 200 * MB  # the uncompressed size of every member of a zip
    zip_max_files: int = 10_000  # members of a zip (folders not counted)
    zip_max_ratio: int = 100  # uncompressed / compressed, for a member over zip_ratio_floor
    zip_ratio_floor: int = 1 * MB  # smaller members may compress well: text does
    workers: int = 0  # worker processes (one per check judged at once; 0: one per core)
    queue: int = 32  # checks waiting for a worker before new ones are turned away
    source_timeout: float = 60.0  # seconds to judge one source (a file, a page, a member; 0: none)
    job_timeout: float = 900.0  # seconds for a whole check (a zip of thousands of games)
    worker_memory: int = 2048 * MB  # address space of a worker process (0: no limit)
    keep_minutes: float = 60.0  # how long a report and its viewers stay available
    fetch_bytes: int = 5 * MB  # a fetched page
    fetch_timeout: float = 30.0  # seconds for a fetched page, whole
    public_urls_only: bool | None = None  # None: on unless host is loopback

    @property
    def pool_size(self) -> int:
        from gcadj.app.batch import default_jobs

        return self.workers or default_jobs()

    @property
    def guards_urls(self) -> bool:
        """Are loopback, private, link-local and metadata addresses refused when fetching?
        Always when the server listens on another address than loopback, unless told."""
        if self.public_urls_only is not None:
            return self.public_urls_only
        return not is_loopback_host(self.host)

    @property
    def url(self) -> str:
        host = self.host
        if ":" in host and not host.startswith("["):
            host = f"[{host}]"
        if host in ("0.0.0.0", "[::]"):  # every address: this machine's name for itself
            host = "127.0.0.1" if host == "0.0.0.0" else "[::1]"
        return f"http://{host}:{self.port}/"


def size_text(size: int) -> str:
    """A byte count as people read limits: "20 MB", "512 KB", "300 bytes"."""
    if size >= MB and size % (MB // 10) == 0:
        return f"{size / MB:g} MB"
    if size >= 1000:
        return f"{size / 1000:.0f} KB" if size % 1000 == 0 else f"{size / 1000:.1f} KB"
    return f"{size} bytes"


__all__ = ["MB", "ServeSettings", "is_loopback_host", "size_text"]
