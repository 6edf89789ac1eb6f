"""Receiving a request's body under the server's limits: its size, and the bytes the server
holds for all requests at once.

Every body is read as it streams in (`gcadj.web.forms.BodyReader`), never whole first:

- past `ServeSettings.max_body` bytes it is refused (`TooLarge`, a 413), at once when its
  declared ``Content-Length`` says so;
- the bytes it brings count, as they are received, against one budget shared by every
  request, `ServeSettings.max_buffer`, and against its client's share of it,
  `ServeSettings.client_buffer` (`BufferBudget`): a request is answered 503 as soon as its
  next chunk does not fit. What a body only declares costs nothing, so bodies that
  declare 20 MB and trickle in hold what they sent, not the budget. Its share is given
  back when the check that holds its uploads has ended (`Receipt.close`), not when the
  answer is sent: a queued check still holds them;
- its parts together keep at most `ServeSettings.spill_bytes` in memory
  (`gcadj.web.forms.Memory`); the rest goes to files of the server's private folder,
  deleted with its share.

So however many clients upload at once, the server holds at most the budget, each client
at most its share, and at most `spill_bytes` a request in memory.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from starlette.requests import ClientDisconnect, Request

from gcadj.errors import BodyTooLarge as TooLarge
from gcadj.errors import ServerBusy as Busy
from gcadj.web.forms import BodyReader, Memory, Part, Spool
from gcadj.web.limits import ServeSettings, size_text


class BufferBudget:
    """The bytes of requests the server holds at once, in all and per client (see the
    module docstring). Used from the event loop only, so it needs no lock."""

    def __init__(self, limit: int, client_limit: int = 0) -> None:
        self.limit = limit
        self.client_limit = client_limit or limit
        self.held = 0
        self.clients: Counter[str] = Counter()

    def take(self, size: int, client: str = "") -> bool:
        """Hold `size` more bytes for `client` if they fit under both limits; whether
        they did."""
        if self.held + size > self.limit or self.clients[client] + size > self.client_limit:
            return False
        self.held += size
        self.clients[client] += size
        return True

    def give_back(self, size: int, client: str = "") -> None:
        self.held = max(0, self.held - size)
        self.clients[client] -= size
        if self.clients[client] <= 0:
            del self.clients[client]


@dataclass
class Receipt:
    """What one request holds: its client's share of the budget and the files its
    uploads spilled to. `close` gives both back (once; later calls do nothing)."""

    budget: BufferBudget
    client: str = ""
    held: int = 0
    files: list[str] = field(default_factory=list)

    def hold(self, size: int) -> bool:
        if size <= 0:
            return True
        if not self.budget.take(size, self.client):
            return False
        self.held += size
        return True

    def close(self) -> None:
        for path in self.files:
            with contextlib.suppress(OSError):
                os.unlink(path)
        self.files.clear()
        self.budget.give_back(self.held, self.client)
        self.held = 0


class Receiver:
    """The server's reader of request bodies: the budget, and the private folder large
    uploads spill to (mode 0700, removed by `close` when the server stops)."""

    def __init__(self, settings: ServeSettings) -> None:
        self.settings = settings
        self.budget = BufferBudget(settings.max_buffer, settings.client_buffer)
        self.folder = Path(tempfile.mkdtemp(prefix="gcadj-upload-"))

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def busy(self, client: str, size: int) -> Busy:
        """Why `size` more bytes of `client`'s do not fit: its share, or the budget."""
        budget = self.budget
        if budget.clients[client] + size > budget.client_limit:
            return Busy(
                f"{size_text(budget.clients[client])} of your uploads are being received or "
                f"judged, the most this server holds for one client at once is "
                f"{size_text(budget.client_limit)}; try again when your checks have ended"
            )
        return Busy(
            f"{size_text(budget.held)} of uploads are being received or judged, the most "
            f"this server holds at once is {size_text(budget.limit)}; try again in a minute"
        )

    async def read(
        self, request: Request, *, client: str = "", whole: bool = False
    ) -> tuple[list[Part], Receipt]:
        """The body's parts (`BodyReader.finish`; `whole`: the body as one part) and what
        they hold, charged to `client`; raises `TooLarge`, `Busy` (the budget),
        `FormError` or Starlette's `ClientDisconnect`, having given back whatever was
        held."""
        limit = self.settings.max_body
        declared = request.headers.get("content-length", "")
        receipt = Receipt(self.budget, client)
        memory = Memory(self.settings.spill_bytes)
        try:
            if declared.isdigit() and int(declared) > limit:
                raise TooLarge
            reader = BodyReader(
                request.headers.get("content-type", ""),
                lambda: Spool(self.folder, memory, receipt.files),
                whole=whole,
            )
            received = 0
            async for chunk in request.stream():
                received += len(chunk)
                if received > limit:
                    raise TooLarge
                if not receipt.hold(received - receipt.held):
                    raise self.busy(client, received - receipt.held)
                reader.feed(chunk)
            return reader.finish(), receipt
        except BaseException:
            receipt.close()
            raise


__all__ = ["BufferBudget", "Busy", "ClientDisconnect", "Receipt", "Receiver", "TooLarge"]
