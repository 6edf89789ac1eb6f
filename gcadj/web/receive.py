"""Receiving a request's body under the server's limits: its size, and the bytes the server
holds for all requests at once.

Every body is read as it streams in (`gcadj.web.forms.BodyReader`), never whole first:

- past `ServeSettings.max_body` bytes it is refused (`TooLarge`, a 413), at once when its
  declared ``Content-Length`` says so;
- the bytes it brings count against one budget shared by every request,
  `ServeSettings.max_buffer` (`BufferBudget`): a request whose declared length does not fit
  is answered 503 before a byte of its body is read, and one sent in chunks when its
  next chunk does not fit. Its share is given back when the check that holds its
  uploads has ended (`Receipt.close`), not when the answer is sent: a queued check still
  holds them;
- an upload past `ServeSettings.spill_bytes` goes to a file of the server's private
  folder rather than memory, deleted with its share.

So however many clients upload at once, the server holds at most the budget, and only
the small uploads of it in memory.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from starlette.requests import ClientDisconnect, Request

from gcadj.errors import BodyTooLarge as TooLarge
from gcadj.errors import ServerBusy as Busy
from gcadj.web.forms import BodyReader, Part, Spool
from gcadj.web.limits import ServeSettings, size_text


class BufferBudget:
    """The bytes of requests the server holds at once (see the module docstring). Used
    from the event loop only, so it needs no lock."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0

    def take(self, size: int) -> bool:
        """Hold `size` more bytes if they fit under the limit; whether they did."""
        if self.held + size > self.limit:
            return False
        self.held += size
        return True

    def give_back(self, size: int) -> None:
        self.held = max(0, self.held - size)


@dataclass
class Receipt:
    """What one request holds: its share of the budget and the files its large uploads
    spilled to. `close` gives both back (once; later calls do nothing)."""

    budget: BufferBudget
    held: int = 0
    files: list[str] = field(default_factory=list)

    def hold(self, size: int) -> bool:
        if size <= 0:
            return True
        if not self.budget.take(size):
            return False
        self.held += size
        return True

    def close(self) -> None:
        for path in self.files:
            with contextlib.suppress(OSError):
                os.unlink(path)
        self.files.clear()
        self.budget.give_back(self.held)
        self.held = 0


class Receiver:
    """The server's reader of request bodies: the budget, and the private folder large
    uploads spill to (mode 0700, removed by `close` when the server stops)."""

    def __init__(self, settings: ServeSettings) -> None:
        self.settings = settings
        self.budget = BufferBudget(settings.max_buffer)
        self.folder = Path(tempfile.mkdtemp(prefix="gcadj-upload-"))

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def busy(self) -> Busy:
        held = size_text(self.budget.held)
        return Busy(
            f"{held} of uploads are being received or judged, the most this server holds "
            f"at once is {size_text(self.budget.limit)}; try again in a minute"
        )

    async def read(self, request: Request) -> tuple[list[Part], Receipt]:
        """The body's parts (`BodyReader.finish`) and what they hold; raises `TooLarge`,
        `Busy` (the budget), `FormError` or Starlette's `ClientDisconnect`, having given
        back whatever was held."""
        limit = self.settings.max_body
        declared = request.headers.get("content-length", "")
        receipt = Receipt(self.budget)
        try:
            if declared.isdigit():
                if int(declared) > limit:
                    raise TooLarge
                if not receipt.hold(int(declared)):
                    raise self.busy()
            reader = BodyReader(
                request.headers.get("content-type", ""),
                lambda: Spool(self.folder, self.settings.spill_bytes, receipt.files),
            )
            received = 0
            async for chunk in request.stream():
                received += len(chunk)
                if received > limit:
                    raise TooLarge
                if not receipt.hold(received - receipt.held):
                    raise self.busy()
                reader.feed(chunk)
            return reader.finish(), receipt
        except BaseException:
            receipt.close()
            raise


__all__ = ["BufferBudget", "Busy", "ClientDisconnect", "Receipt", "Receiver", "TooLarge"]
