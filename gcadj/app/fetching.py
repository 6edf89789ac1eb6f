"""How the commands that read URLs fetch them: one settings value, applied when needed.

``check``, ``export``, ``audit`` and ``fetch`` take the same fetch options (``--cache``,
``--no-cache``, ``--delay``, ``--timeout``, ``--retries``, ``--max-size``), which the CLI
turns into one `FetchSettings`. The settings are applied lazily: requests (a tenth of a
second to import) is loaded, and the shared fetcher of `gcadj.sources.fetch` replaced,
only when a URL is actually read. With no option given, the process's shared fetcher is
used as it is (`gcadj.sources.fetch.default_fetcher`: the same defaults, the per-user
cache), so a program embedding gcadj keeps the fetcher it installed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gcadj.sources.fetch import Fetcher, FetchOptions


@dataclass(frozen=True)
class FetchSettings:
    """The fetch options a user gives; None (or the default) means "not given"."""

    cache: Path | None = None  # the page cache folder (default: the per-user one)
    use_cache: bool = True  # False: neither read nor write the cache
    delay: float | None = None  # seconds between two requests to one host (default 1)
    timeout: float | None = None  # connect and read timeout (default: 10 s and 30 s)
    retries: int | None = None  # retries after a transient failure (default 3)
    max_kb: int | None = None  # the largest page accepted, in KiB (default 5 MiB)

    @property
    def given(self) -> bool:
        """Did the user set anything? Else the shared fetcher is used as it is."""
        return self != FetchSettings()

    def fetch_options(self) -> FetchOptions:
        """The fetcher's options: these settings over the defaults of `FetchOptions`.

        ``--timeout T`` sets the connect and read timeouts to T, the limit for a whole
        response body to ``max(4 × T, T + 10)`` (a server trickling bytes is cut off),
        and the first retry's backoff to at most T.
        """
        from gcadj.sources.fetch import FetchOptions, default_cache_dir

        defaults = FetchOptions()
        timeout = self.timeout
        return FetchOptions(
            connect_timeout=defaults.connect_timeout if timeout is None else timeout,
            read_timeout=defaults.read_timeout if timeout is None else timeout,
            total_timeout=defaults.total_timeout
            if timeout is None
            else max(4 * timeout, timeout + 10),
            retries=defaults.retries if self.retries is None else self.retries,
            backoff=defaults.backoff if timeout is None else min(defaults.backoff, timeout),
            delay=defaults.delay if self.delay is None else self.delay,
            max_bytes=defaults.max_bytes if self.max_kb is None else self.max_kb * 1024,
            cache_dir=None if not self.use_cache else self.cache or default_cache_dir(),
        )


_pending: FetchSettings | None = None


@contextmanager
def fetch_settings(settings: FetchSettings) -> Iterator[None]:
    """Within the block, the first URL read installs a fetcher with `settings` as the
    process's shared one (nothing happens with no setting given, or no URL read)."""
    global _pending
    previous = _pending
    _pending = settings if settings.given else None
    try:
        yield
    finally:
        _pending = previous


def shared_fetcher() -> Fetcher:
    """The fetcher every URL goes through: the settings' one once a URL is met."""
    global _pending
    from gcadj.sources.fetch import Fetcher, default_fetcher, set_default_fetcher

    if _pending is not None:
        set_default_fetcher(Fetcher(_pending.fetch_options()))
        _pending = None
    return default_fetcher()


__all__ = ["FetchSettings", "fetch_settings", "shared_fetcher"]
