"""What every command shares: exit codes, the options that read games, and the ways a
command fails or writes a file the user named. The CLI is the one place that turns results
into exit codes; `STATUS_EXIT` maps a verdict's outcome (`Verdict.outcome`: its status, or
"internal-error" when gcadj itself failed on the source) to its code."""

from __future__ import annotations

from collections.abc import Callable
from typing import IO, Annotated

import typer

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_USAGE = 2
EXIT_SYNTAX = 3
EXIT_UNREADABLE = 4
EXIT_INTERNAL = 5  # gcadj itself failed on a source (a bug): never 1, which means "illegal"

# Options shared by every command that reads games (check, export, audit): one wording.
FenOption = Annotated[
    str | None,
    typer.Option(
        "--fen",
        help="Start position of every game, a gcadj FEN or a Game Courier code "
        "(default: the log's FEN tag, else the standard array).",
    ),
]
PocketFileOption = Annotated[
    str,
    typer.Option(
        "--pocket-file",
        help="Letter of the pocket file: i (i1/i8) or p (p1/p8); a PocketFile tag overrides it.",
    ),
]

STATUS_EXIT = {
    "legal": EXIT_OK,
    "illegal": EXIT_ILLEGAL,
    "syntax-error": EXIT_SYNTAX,
    "error": EXIT_UNREADABLE,
    "internal-error": EXIT_INTERNAL,
}

# The exit codes of the commands that judge games, for their --help epilogs.
EXIT_CODES_HELP = (
    "Exit codes: 0 every source legal; 1 some illegal move found; 3 some source could not be "
    "parsed; 4 some source could not be read (or is empty); 5 gcadj failed on some source "
    "(an internal error: a bug, please report it); 2 usage. When several apply, the highest "
    "wins."
)
INTERNAL_ERROR_HINT = "this is a bug in gcadj, not a fault of the game; please report it"


CacheOption = Annotated[
    str | None,
    typer.Option(
        "--cache",
        metavar="DIR",
        help="Page cache folder (default: $XDG_CACHE_HOME/gcadj/pages or ~/.cache/gcadj/pages).",
    ),
]
NoCacheOption = Annotated[
    bool, typer.Option("--no-cache", help="Neither read nor write the page cache.")
]
DelayOption = Annotated[
    float,
    typer.Option("--delay", min=0, metavar="SECONDS", help="Pause between requests to one host."),
]
TimeoutOption = Annotated[
    float,
    typer.Option(
        "--timeout", min=0.001, metavar="SECONDS", help="Connect and read timeout per request."
    ),
]
RetriesOption = Annotated[
    int,
    typer.Option("--retries", min=0, help="Retries after a connection error, timeout, 429 or 5xx."),
]
MaxSizeOption = Annotated[
    int, typer.Option("--max-size", min=1, metavar="KB", help="Largest page accepted, in KiB.")
]


def install_fetcher(
    cache: str | None, no_cache: bool, delay: float, timeout: float, retries: int, max_kb: int
) -> None:
    """Make the shared fetcher (used for every URL source) follow the command's options."""
    from pathlib import Path

    from gcadj.sources.fetch import Fetcher, FetchOptions, default_cache_dir, set_default_fetcher

    options = FetchOptions(
        connect_timeout=timeout,
        read_timeout=timeout,
        total_timeout=max(4 * timeout, timeout + 10),
        retries=retries,
        backoff=min(1.0, timeout),
        delay=delay,
        max_bytes=max_kb * 1024,
        cache_dir=None if no_cache else Path(cache) if cache else default_cache_dir(),
    )
    set_default_fetcher(Fetcher(options))


def fail(command: str, message: str, code: int) -> typer.Exit:
    typer.echo(f"gcadj {command}: {message}", err=True)
    return typer.Exit(code)


def check_options(command: str, pocket_file: str, fen: str | None = None) -> None:
    """Usage errors (exit 2) for a bad --pocket-file or --fen, before any source is read."""
    from gcadj.adjudication.verdict import start_position
    from gcadj.engine.fen import FenError
    from gcadj.notation.language import is_pocket_file

    if not is_pocket_file(pocket_file):
        message = f"--pocket-file must be one letter from i to z, not {pocket_file!r}"
        raise fail(command, message, EXIT_USAGE)
    if fen is not None:
        try:
            start_position(fen, pocket_file)
        except FenError as err:
            raise fail(command, f"--fen: {err}", EXIT_USAGE) from None


def write_output(
    command: str, path: str, content: str | Callable[[IO[str]], None], force: bool
) -> None:
    """Write an output file the user named: atomically, replacing a file only with --force.

    `content` is the text, or a function that writes it to the open file (a long export
    is streamed, never held whole in memory)."""
    from pathlib import Path

    from gcadj.outputs.files import atomic_text_file

    try:
        with atomic_text_file(Path(path), overwrite=force) as handle:
            if isinstance(content, str):
                handle.write(content)
            else:
                content(handle)
    except FileExistsError:
        raise fail(command, f"{path} exists; use --force to overwrite it", EXIT_USAGE) from None
    except OSError as err:
        raise fail(command, f"cannot write {path}: {err.strerror or err}", EXIT_USAGE) from None
