"""Which kind of text a source holds, and the reader of a Game Courier log in any of its
forms (a log, a viewing page, a copied page).

gcadj reads Game Courier move lists (its main input), and also its own exports and
saved pages, so that a converted game can be read back and checked again. Detection
looks at the text only, never at a file name, so standard input works the same way.
Each format's reader is imported only when that format is seen (start-up stays fast).
PGN is read elsewhere (`gcadj.sources.pgn_reader`): its games are judged as they are
read, because SAN is read on a board.
"""

from __future__ import annotations

import dataclasses
from typing import Final

from gcadj.about import is_gcadj_html
from gcadj.errors import FenError, LogSyntaxError
from gcadj.judging.verdict import start_position
from gcadj.notation.lexicon import ALL_SPACE, BYTE_ORDER_MARK, LINE_SPACE, SourceFormat
from gcadj.notation.parse import parse_log
from gcadj.notation.pgn import looks_like_pgn
from gcadj.notation.records import GameLog
from gcadj.notation.tags import tag_pair, tag_value_column
from gcadj.sources.own import looks_like_own_json
from gcadj.sources.pocket_files import parse_log_finding_pockets
from gcadj.vocabulary import PocketFile, is_pocket_letter

_HEAD: Final = 16384  # where a page's <head>, and gcadj's generator tag, are


def detect_format(text: str) -> SourceFormat:
    """The format of normalised `text`: a Game Courier log (`SourceFormat.GAME_COURIER`,
    read here), a viewing page (`HTML`: `gcadj.sources.pages`), `PGN`
    (`gcadj.sources.pgn_reader`), or a file gcadj wrote (`OWN_PAGE`, `OWN_JSON`:
    `gcadj.sources.own`).

    PGN needs SAN moves (`gcadj.notation.pgn.looks_like_pgn`): tags alone do not decide,
    as a Game Courier log may have them too; nor does one SAN move alone on its line:
    SAN typed into a Game Courier log must stay a syntax error there (docs/rules.md §6.1),
    not be guessed at.
    """
    head = text.lstrip(BYTE_ORDER_MARK + ALL_SPACE)
    if head.startswith("<"):  # no log line can start with '<'
        return SourceFormat.OWN_PAGE if is_gcadj_html(text[:_HEAD]) else SourceFormat.HTML
    if head.startswith("{") and looks_like_own_json(head):  # no log line starts with '{'
        return SourceFormat.OWN_JSON
    if looks_like_pgn(text):
        return SourceFormat.PGN
    return SourceFormat.GAME_COURIER


def game_name(source: str, number: int) -> str:
    """How one game of a file of several is named: ``all.pgn#3`` (numbered from 1)."""
    return f"{source}#{number}"


def read_log_game(
    text: str, kind: SourceFormat, source: str, pocket_file: PocketFile | None
) -> GameLog:
    """The game of normalised text that is a Game Courier log (`SourceFormat.GAME_COURIER`,
    a copied viewing page included) or a viewing page (`SourceFormat.HTML`); raises
    `LogSyntaxError`.

    A ``[PocketFile "p"]`` tag in the header (written by ``gcadj fetch`` for the newer
    preset) overrides `pocket_file`: it is a fact about this game, the argument the
    user's. With neither, the squares the plies use say it
    (`gcadj.sources.pocket_files`).
    """
    if kind is SourceFormat.HTML:
        return _parse_page(text, source, pocket_file)
    return _parse_log(text, source, pocket_file)


def _parse_page(html: str, source: str, pocket_file: PocketFile | None) -> GameLog:
    """A page's game; a syntax error in the log read from it points into the page itself
    (the line and column of the HTML source where the offending move stands)."""
    from gcadj.sources.pages.scrape import scrape_page

    game = scrape_page(html, source=source)
    try:
        return _parse_text(game.log_text, source, pocket_file)  # a log gcadj made
    except LogSyntaxError as err:
        where = game.page_position(err.line)
        if where is None:
            raise
        line, column = where
        column += max(0, err.column - 1 - _lead(err.line_text))
        page_line = html.split("\n", line)[line - 1] if line >= 1 else ""
        raise LogSyntaxError(source, line, column, err.expected, page_line, err.hint) from None


def _lead(text: str) -> int:
    return len(text) - len(text.lstrip(LINE_SPACE))


def _tagged(text: str, source: str) -> PocketFile | None:
    """The game's own pocket file, from its PocketFile tag (see `pocket_file_tag`)."""
    tagged = pocket_file_tag(text, source)
    return PocketFile(tagged) if tagged else None


def _parse_log(text: str, source: str, pocket_file: PocketFile | None) -> GameLog:
    """A Game Courier log (normalised), or a viewing page copied as text when it is none,
    or a log pasted with talk before or after it (`gcadj.sources.pasted`: skipped, and
    named in a note)."""
    try:
        return _parse_text(text, source, pocket_file)
    except LogSyntaxError:
        from gcadj.sources.pages.copied import read_if_copied_page  # only for unreadable text

        copied = read_if_copied_page(text, source)
        if copied is not None:
            return parse_log(
                copied.log_text, source=source, pocket_file=copied.pocket_file, normalised=True
            )
        from gcadj.sources.pasted import without_talk  # only for unreadable text

        trimmed = without_talk(text)
        if trimmed is None:
            raise
        log_text, note = trimmed
        game = _parse_text(log_text, source, pocket_file)  # its own error, if any, stands
        return dataclasses.replace(game, warnings=(*game.warnings, note))


def _parse_text(text: str, source: str, pocket_file: PocketFile | None) -> GameLog:
    """A log in the grammar's form (normalised) with the pockets on the file its tag names,
    else `pocket_file`, else the one its plies use."""
    pocket_file = _tagged(text, source) or pocket_file
    if pocket_file is None:
        return parse_log_finding_pockets(text, source)
    return parse_log(text, source=source, pocket_file=pocket_file, normalised=True)


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
        first = line.lstrip(LINE_SPACE + "\r" + BYTE_ORDER_MARK)[:1]
        if first not in ("", "[", "/"):
            return None  # the first ply: the header is over
        pair = tag_pair(line.rstrip("\r"))
        if pair is None or pair[0] != "PocketFile":
            continue
        if is_pocket_letter(pair[1]):
            return pair[1]
        column = tag_value_column(line.rstrip("\r")) + 1
        raise LogSyntaxError(source, number, column, "a pocket file letter from i to z", line)
    return None


def _fen_tag_line(text: str) -> tuple[int, str] | None:
    """The 1-based number and the text of the header line that is the ``[FEN]`` tag."""
    for number, line in enumerate(text.split("\n"), 1):
        pair = tag_pair(line)
        if pair is not None and pair[0].casefold() == "fen":
            return number, line
        if line.strip() and not line.lstrip(LINE_SPACE + BYTE_ORDER_MARK).startswith(("[", "//")):
            return None  # the header ended: tags come first
    return None


def fen_tag_error(text: str, game: GameLog) -> LogSyntaxError | None:
    """The syntax error at the tag's own line and column when the log's ``[FEN]`` tag is no
    position; None when it is one, or when it is not a line of `text` (normalised: a
    page's tags are made by the scraper; `replay` then names the tag without a line)."""
    value = game.tag("FEN")
    if value is None:
        return None
    try:
        start_position(value, game.pocket_file)
    except FenError as err:
        found = _fen_tag_line(text)
        if found is None:
            return None
        line, line_text = found
        value_at = tag_value_column(line_text)  # 0-based index of the value in the line
        offset = line_text.find(err.fen, value_at) if err.fen else -1
        column = value_at + 1 + (offset - value_at + err.column - 1 if offset >= 0 else 0)
        return LogSyntaxError(
            game.source,
            line,
            column,
            "a start position (gcadj FEN or Game Courier code) in the [FEN] tag",
            line_text,
            hint=str(err).splitlines()[0],  # "bad FEN (or Game Courier code) at column N: ..."
        )
    return None
