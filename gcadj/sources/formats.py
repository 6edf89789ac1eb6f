"""Which kind of text a source holds, and the reader that turns it into a `GameLog`.

gcadj reads Game Courier move lists (its main input), and also its own exports and
saved pages, so that a converted game can be read back and checked again. Detection
looks at the text only, never at a file name, so standard input works the same way.
Each format's reader is imported only when that format is seen (start-up stays fast).
"""

from __future__ import annotations

from collections.abc import Iterator

from gcadj.errors import LogSyntaxError
from gcadj.notation.language import is_pocket_file
from gcadj.notation.parse import normalise_text, parse_log
from gcadj.notation.pgn import looks_like_pgn as pgn_text
from gcadj.notation.records import GameLog
from gcadj.notation.tags import tag_pair, tag_value_column
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile

GAME_COURIER = "gamecourier"
HTML = "html"  # a saved or fetched Game Courier viewing page (gcadj.sources.pages)
PGN = "pgn"  # PGN: tag pairs, then SAN movetext (gcadj.sources.pgn_reader)


def detect_format(text: str) -> str:
    """The name of the format of `text` (one of the module constants)."""
    if text.lstrip("\ufeff \t\r\n").startswith("<"):  # no log line can start with '<'
        return HTML
    if looks_like_pgn(text):
        return PGN
    return GAME_COURIER


def looks_like_pgn(text: str) -> bool:
    """Is this PGN rather than a Game Courier log? A tag section, then SAN moves or a
    result token and no Game Courier ply (`gcadj.notation.pgn.looks_like_pgn`).

    Tags alone do not decide, as a Game Courier log may have them too; nor do SAN-looking
    moves without tags: SAN typed into a Game Courier log must stay a syntax error there
    (docs/rules.md §6.1), not be guessed at.
    """
    return pgn_text(text)


def parse_game_text(
    text: str, source: str = "<string>", pocket_file: PocketFile = DEFAULT_POCKET_FILE
) -> GameLog:
    """Read a game in any supported format; raises `LogSyntaxError` for text that is none.

    A ``[PocketFile "p"]`` tag in the header (written by ``gcadj fetch`` for the newer
    preset) overrides `pocket_file`: it is a fact about this game, the argument a default.
    Text that is no log but a viewing page copied as text is read as one
    (`gcadj.sources.pages.copied`).
    """
    text = normalise_text(text)  # CR-only or CRLF line ends: the header scans below need "\n"
    return read_game(text, detect_format(text), source, pocket_file)


def read_game(text: str, kind: str, source: str, pocket_file: PocketFile) -> GameLog:
    """`parse_game_text` for text already normalised (`normalise_text`) whose format
    (`detect_format`) is `kind`: the pipeline does both once per source."""
    if kind == HTML:
        return _parse_page(text, source, pocket_file)
    if kind == PGN:
        from gcadj.sources.pgn_reader import read_pgn

        return read_pgn(text, source=source, pocket_file=_tagged(text, source) or pocket_file)
    return _parse_log(text, source, pocket_file)


def _parse_page(html: str, source: str, pocket_file: PocketFile) -> GameLog:
    """A page's game; a syntax error in the log read from it points into the page itself
    (the line and column of the HTML source where the offending move stands)."""
    from gcadj.sources.pages.scrape import scrape_page

    game = scrape_page(html, source=source)
    try:
        return _parse_made_log(game.log_text, source, pocket_file)
    except LogSyntaxError as err:
        where = game.page_position(err.line)
        if where is None:
            raise
        line, column = where
        column += max(0, err.column - 1 - _lead(err.line_text))
        page_line = html.split("\n", line)[line - 1] if line >= 1 else ""
        raise LogSyntaxError(source, line, column, err.expected, page_line, err.hint) from None


def _lead(text: str) -> int:
    return len(text) - len(text.lstrip(" \t\u00a0"))


def _tagged(text: str, source: str) -> PocketFile | None:
    """The game's own pocket file, from its PocketFile tag (see `pocket_file_tag`)."""
    tagged = pocket_file_tag(text, source)
    return PocketFile(tagged) if tagged else None


def _parse_log(text: str, source: str, pocket_file: PocketFile) -> GameLog:
    """A Game Courier log (normalised), or a viewing page copied as text when it is none."""
    pocket_file = _tagged(text, source) or pocket_file
    try:
        return parse_log(text, source=source, pocket_file=pocket_file, normalised=True)
    except LogSyntaxError:
        from gcadj.sources.pages.copied import read_if_copied_page  # only for unreadable text

        copied = read_if_copied_page(text, source)
        if copied is None:
            raise
        return parse_log(
            copied.log_text, source=source, pocket_file=copied.pocket_file, normalised=True
        )


def _parse_made_log(text: str, source: str, pocket_file: PocketFile) -> GameLog:
    """A log that gcadj made from a page (`ScrapedGame.log_text`: tag lines, then the move
    lines, each ending in ``\n``), so already in the grammar's form."""
    pocket_file = _tagged(text, source) or pocket_file
    return parse_log(text, source=source, pocket_file=pocket_file, normalised=True)


def iter_games(
    text: str,
    source: str = "<string>",
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
    *,
    only: int | None = None,
) -> Iterator[tuple[str, GameLog | LogSyntaxError]]:
    """Every game a source's text holds, in order: its name and its log, or its syntax error.

    A PGN database gives one entry per game, named ``source#N``, read one at a time (see
    `gcadj.sources.pgn_reader`); any other text is one game named `source`. Each game of
    a database takes its pocket file from its own ``PocketFile`` tag. With `only` (from 1)
    just that game is read: nothing if the text holds no such game.
    """
    text = normalise_text(text)
    yield from read_games(text, detect_format(text), source, pocket_file, only=only)


def read_games(
    text: str, kind: str, source: str, pocket_file: PocketFile, *, only: int | None = None
) -> Iterator[tuple[str, GameLog | LogSyntaxError]]:
    """`iter_games` for text already normalised whose format is `kind` (see `read_game`)."""
    if kind == PGN:
        from gcadj.sources.pgn_reader import iter_pgn_games

        yield from iter_pgn_games(text, source=source, pocket_file=pocket_file, only=only)
        return
    if only is not None and only != 1:
        return
    try:
        yield source, read_game(text, kind, source, pocket_file)
    except LogSyntaxError as err:
        yield source, err


def parse_games(
    text: str,
    source: str = "<string>",
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
    *,
    only: int | None = None,
) -> list[tuple[str, GameLog | LogSyntaxError]]:
    """`iter_games` as a list."""
    return list(iter_games(text, source, pocket_file, only=only))


def pocket_file_tag(text: str, source: str = "<string>") -> str | None:
    """The letter of a PocketFile tag among the header lines, None if there is none.

    Only lines before the first ply count (tags come first); a value that is not one
    letter from i to z is a syntax error pointing at the tag.
    """
    if "PocketFile" not in text:  # the usual case, found without reading the lines
        return None
    offset, number = 0, 0
    while offset < len(text):
        end = text.find("\n", offset)
        end = len(text) if end < 0 else end
        line = text[offset:end]
        offset, number = end + 1, number + 1
        first = line.lstrip(" \t\u00a0\r\ufeff")[:1]
        if first not in ("", "[", "/"):
            return None  # the first ply: the header is over
        pair = tag_pair(line.rstrip("\r"))
        if pair is None or pair[0] != "PocketFile":
            continue
        if is_pocket_file(pair[1]):
            return pair[1]
        column = tag_value_column(line.rstrip("\r")) + 1
        raise LogSyntaxError(source, number, column, "a pocket file letter from i to z", line)
    return None
