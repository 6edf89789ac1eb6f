"""The defaults of `gcadj serve`, each written once.

`ServeSettings` (`gcadj.web.limits`) takes its fields' defaults from here, and the command
line its options' defaults, so that ``gcadj serve --help`` and a server made in Python
cannot disagree. A module of plain numbers, because every command's start-up imports it:
the settings themselves (a dataclass of thirty fields, with the address checks) would cost
each ``gcadj check`` a few milliseconds for a command it does not run.
"""

from __future__ import annotations

from typing import Final

MB: Final = 1000 * 1000  # as every size option of the command line
KB: Final = 1000

HOST: Final = "127.0.0.1"  # this machine only
PORT: Final = 8000
MAX_UPLOAD_MB: Final = 20  # one request: a paste, the files of one upload, a zip
ZIP_MAX_MB: Final = 200  # the uncompressed size of every zip member of one request
ZIP_MAX_FILES: Final = 10_000  # zip members of one request (folders not counted)
ZIP_MAX_RATIO: Final = 100  # uncompressed / compressed
SOURCE_TIMEOUT: Final = 60.0  # seconds to judge one source
JOB_TIMEOUT: Final = 900.0  # seconds for a whole check
WORKER_MEMORY_MB: Final = 2048  # address space of a worker process: the server faces strangers
KEEP_DAYS: Final = 30.0  # how long a result is kept at its address
MAX_STORE_MB: Final = 1000  # the most the kept results may hold
ADJUDICATE_BUDGET: Final = 1.0  # seconds to adjudicate an unfinished game of a check
# The longest mate a page's adjudication searches: what ADJUDICATE_BUDGET finishes on a
# middlegame (no mate within 3: at most 0.4 s on the prover's bench); the command's
# deeper default would be cut by the second on most positions.
ADJUDICATE_DEPTH: Final = 3
PUBLIC_URLS_ONLY: Final = True  # refuse loopback, private, link-local and metadata addresses
MAX_BUFFER_MB: Final = 200  # upload bytes held at once, for every client together
CLIENT_TIMEOUT: Final = 10.0  # seconds to send a request's headers
MIN_UPLOAD_RATE_KB: Final = 10  # KB a second a body must keep up after CLIENT_TIMEOUT
BODY_TIMEOUT: Final = 300.0  # seconds for a whole request body, however fast it comes
TRUST_PROXY: Final = False  # the client is the peer address, never a header it could write
CLIENT_CONNECTIONS: Final = 50  # connections open at once from one client
CLIENT_REQUESTS: Final = 20  # requests handled at once for one client
CLIENT_BUFFER_MB: Final = 50  # upload bytes held at once for one client (a quarter of the budget)
CLIENT_CHECKS: Final = 4  # checks running or waiting for one client
ADJUDICATE_SHARE: Final = 0.5  # of the workers' time, on average, that adjudicating may take
