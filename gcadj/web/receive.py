"""Receiving a request's body under the server's limits: its size, and the bytes the server
holds for all requests at once.

Every body is read as it streams in (`gcadj.web.forms.BodyReader`), never whole first:

- past `ServeSettings.max_body` bytes it is refused (`BodyTooLarge`, a 413), at once when its
  declared ``Content-Length`` says so;
- the bytes it brings count, as they are received, against one budget shared by every
  request, `ServeSettings.max_buffer`, and against its client's share of it,
  `ServeSettings.client_buffer` (`BufferBudget`): once its next chunk does not fit, a
  request holds nothing more, the rest of its body is read and dropped (so that its
  client, still sending, reads the answer rather than a reset connection), and it is
  answered 503; the deadlines of `gcadj.web.protocol` still hold. Requests that began
  later are shed first to make room (`BufferBudget`), so that of many uploads arriving
  together the first are received whole. What a body only
  declares costs nothing, so bodies that declare 20 MB and trickle in hold what they
  sent, not the budget. Its share is given back when the check that holds its uploads
  has ended (`Receipt.close`), not when the answer is sent: a queued check still holds
  them;
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

from gcadj.errors import BodyTooLarge, ServerBusy
from gcadj.web.forms import BodyReader, Memory, Part, Spool
from gcadj.web.limits import ServeSettings, size_text


class BufferBudget:
    """The bytes of requests the server holds at once, in all and per client (see the
    module docstring). Used from the event loop only, so it needs no lock.

    When a chunk does not fit in all, the requests still being received that began after
    the one whose chunk it is are shed first, the latest first (`Receipt.shed`): so
    uploads that arrive together do not all get part of the way and all fail, the
    earliest are received whole and the latest told "busy" (a body that only declares
    its size holds nothing: a slow one cannot keep the budget this way)."""

    def __init__(self, limit: int, client_limit: int = 0) -> None:
        self.limit = limit
        self.client_limit = client_limit or limit
        self.held = 0
        self.clients: Counter[str] = Counter()
        self.receiving: dict[int, Receipt] = {}  # in the order they began

    def take(self, receipt: Receipt, size: int) -> bool:
        """Hold `size` more bytes for `receipt` if they fit under both limits, shedding
        later requests to make room if need be; whether they did."""
        client = receipt.client
        if self.clients[client] + size > self.client_limit:
            return False
        while self.held + size > self.limit:
            later = self.latest_after(receipt)
            if later is None:
                return False
            later.shed()
        self.held += size
        self.clients[client] += size
        return True

    def latest_after(self, receipt: Receipt) -> Receipt | None:
        """The request that began last, after `receipt`, still being received and
        holding bytes; None if there is none."""
        found = None
        after = False
        for other in self.receiving.values():
            if other is receipt:
                after = True
            elif after and other.held > 0:
                found = other
        return found

    def give_back(self, size: int, client: str = "") -> None:
        self.held = max(0, self.held - size)
        self.clients[client] -= size
        if self.clients[client] <= 0:
            del self.clients[client]


@dataclass
class Receipt:
    """What one request holds: its client's share of the budget and the files its
    uploads spilled to. `close` gives both back (once; later calls do nothing). `shed`:
    the request must give up what it holds for an earlier one (its body is then read and
    dropped, and it is answered "busy")."""

    budget: BufferBudget
    client: str = ""
    held: int = 0
    files: list[str] = field(default_factory=list)
    shed_for: bool = False

    def __post_init__(self) -> None:
        self.budget.receiving[id(self)] = self

    def hold(self, size: int) -> bool:
        if size <= 0:
            return True
        if self.shed_for or not self.budget.take(self, size):
            return False
        self.held += size
        return True

    def received(self) -> None:
        """The body is whole: what it holds stays until `close`, never shed."""
        self.budget.receiving.pop(id(self), None)

    def shed(self) -> None:
        self.shed_for = True
        self.close()

    def close(self) -> None:
        self.received()
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

    def busy(self, client: str, size: int) -> ServerBusy:
        """Why `size` more bytes of `client`'s do not fit: its share, or the budget."""
        budget = self.budget
        if size and budget.clients[client] + size > budget.client_limit:
            return ServerBusy(
                f"{size_text(budget.clients[client])} of your uploads are being received or "
                f"judged, the most this server holds for one client at once is "
                f"{size_text(budget.client_limit)}; try again when your checks have ended"
            )
        return ServerBusy(
            f"{size_text(budget.held)} of uploads are being received or judged, the most "
            f"this server holds at once is {size_text(budget.limit)}; try again in a minute"
        )

    async def read(
        self, request: Request, *, client: str = "", whole: bool = False
    ) -> tuple[list[Part], Receipt]:
        """The body's parts (`BodyReader.finish`; `whole`: the body as one part) and what
        they hold, charged to `client`; raises `BodyTooLarge`, `ServerBusy` (the budget),
        `FormError` or Starlette's `ClientDisconnect`, having given back whatever was
        held."""
        limit = self.settings.max_body
        declared = request.headers.get("content-length", "")
        receipt = Receipt(self.budget, client)
        memory = Memory(self.settings.spill_bytes)
        reader: BodyReader | None = None
        try:
            if declared.isdigit() and int(declared) > limit:
                raise BodyTooLarge
            reader = BodyReader(
                request.headers.get("content-type", ""),
                lambda: Spool(self.folder, memory, receipt.files),
                whole=whole,
            )
            received = 0
            refused: ServerBusy | None = None
            async for chunk in request.stream():
                received += len(chunk)
                if received > limit:
                    raise BodyTooLarge
                if refused is None and not receipt.hold(received - receipt.held):
                    wanted = 0 if receipt.shed_for else received - receipt.held
                    refused = self.busy(client, wanted)
                    reader.abort()  # nothing kept: the rest is read and dropped
                    receipt.close()
                if refused is None:
                    reader.feed(chunk)
            if refused is not None:
                raise refused
            receipt.received()
            return reader.finish(), receipt
        except BaseException:
            if reader is not None:
                reader.abort()
            receipt.close()
            raise


__all__ = ["BufferBudget", "ClientDisconnect", "Receipt", "Receiver"]
