"""gcadj's own outputs, read as sources: what gcadj writes, it reads back.

* The **JSON export** (``export --to json``) is read back as its game: its tags, its start,
  its pocket file and, ply by ply, the Game Courier text of each ply (``gc``: canonical for
  a legal ply, as typed for the others) with the text typed, the line and the column the
  ply had in its own source, so the game read back is judged as the original was, findings
  pointing where they did (`json_game`); only a warning about how a legal ply was typed
  (``f3-f3`` moves nothing) is lost with the typing. The result a record gave (a PGN's result token,
  `gcadj.vocabulary.RECORDED_ENDINGS`) comes from the document's verdict, and the text the
  original reader could not read stays unread.
* A **game viewer** (``export --to html``, an audit's viewers) carries its games as Game
  Courier text, as ``export --to gc`` writes them, in a
  ``<script type="application/json" id="gcadj-games">`` element (`page_games`): each is read
  as any log is.
* Anything else gcadj wrote holds no game: the verdicts of ``check --json``, an audit
  report, a viewer of a gcadj from before the games were carried. It is said so
  (`OwnFileError`, an "error" verdict); its text is never read as moves.

Recognising them costs nothing for other text: a page gcadj wrote carries its generator tag
(`gcadj.about.is_gcadj_html`), and every JSON object gcadj writes about a game starts with
its ``"source"`` (`looks_like_own_json`).
"""

from __future__ import annotations

import re
from typing import Any, Final

from gcadj.about import GAMES_BLOCK_ID
from gcadj.engine.fen import STARTING_FEN
from gcadj.engine.position import Position
from gcadj.errors import FenError, LogSyntaxError, OwnFileError
from gcadj.notation.parse import parse_log
from gcadj.notation.records import GameLog, MoveRecord, UnreadText
from gcadj.vocabulary import RECORDED_ENDINGS, PocketFile, Result, Status

__all__ = [
    "NO_GAME_PAGE",
    "OwnFileError",
    "json_game",
    "looks_like_own_json",
    "page_games",
]

_OWN_JSON: Final = re.compile(r'[\s\ufeff]*\{\s*"source"\s*:')
_BLOCK: Final = re.compile(
    rf'<script type="application/json" id="{GAMES_BLOCK_ID}">(.*?)</script>', re.DOTALL
)
NO_GAME_PAGE: Final = (
    "a page gcadj wrote that carries no game (an audit report, or a viewer of an older "
    "gcadj): check the sources it was made from"
)
NO_GAME_VERDICTS: Final = (
    "the verdicts gcadj check --json wrote, which hold no game: check the sources they name"
)
EXPORT: Final = "gcadj's JSON export of a game (gcadj export --to json)"


def looks_like_own_json(text: str) -> bool:
    """Does the text start like a JSON object gcadj wrote about a game (``{"source": ``)?"""
    return _OWN_JSON.match(text) is not None


def page_games(html: str, source: str) -> list[str]:
    """The Game Courier text of each game a page gcadj wrote carries; `OwnFileError` when
    it carries none (the page's text is never read as moves)."""
    import json

    found = _BLOCK.search(html)
    if found is None:
        raise OwnFileError(source, NO_GAME_PAGE)
    try:
        games = json.loads(found[1])["games"]
        texts = [game["gc"] for game in games]
    except (ValueError, KeyError, TypeError):
        games = texts = None
    if not texts or not all(isinstance(text, str) for text in texts):
        line = html.count("\n", 0, found.start(1)) + 1
        raise OwnFileError(
            source, f"the games of this gcadj page cannot be read ({NO_GAME_PAGE})", line
        )
    return texts


def json_game(text: str, source: str) -> GameLog:
    """The game of gcadj's JSON export (module docstring). A JSON text that is not one
    raises `LogSyntaxError` where it stops being one; the verdicts of ``check --json``
    raise `OwnFileError`."""
    import json

    try:
        document, end = json.JSONDecoder().raw_decode(text, len(text) - len(text.lstrip()))
        if text[end:].strip():
            raise json.JSONDecodeError("Extra data after the document", text, end)
    except json.JSONDecodeError as err:
        if err.pos > 0 and _is_verdict(_first_object(text)):
            raise OwnFileError(source, NO_GAME_VERDICTS) from None
        raise _json_error(text, source, err.lineno, err.colno, err.msg) from None
    if _is_verdict(document):
        raise OwnFileError(source, NO_GAME_VERDICTS)
    try:
        return _game(document, text, source)
    except LogSyntaxError:
        raise  # a ply's text, at the ply's line and column
    except (KeyError, TypeError, ValueError, FenError) as err:
        raise _json_error(text, source, 1, 1, f"not {EXPORT}: {_why(err)}") from None


def _game(document: Any, text: str, source: str) -> GameLog:
    """The game of a decoded export (`KeyError`, `TypeError` or `ValueError` when it is
    none), judged as the original: the records keep the lines and columns they had."""
    pocket_file = PocketFile(document["pocket_file"])
    tags = [(str(key), _text(value, "a tag value")) for key, value in document["tags"].items()]
    start = _text(document["start_fen"], "start_fen")
    standard = Position.starting_at(start).fen() == Position.starting_at(STARTING_FEN).fen()
    if not standard and not any(key.casefold() == "fen" for key, _ in tags):
        tags.append(("FEN", start))
    records: list[MoveRecord] = []
    for index, ply in enumerate(document["plies"]):
        try:
            records.append(_record(index, ply, source, pocket_file))
        except LogSyntaxError as err:
            err.partial = _log(tags, records, source, pocket_file, document) if records else None
            raise
    return _log(tags, records, source, pocket_file, document)


def _record(index: int, ply: Any, source: str, pocket_file: PocketFile) -> MoveRecord:
    """One ply of the export: its ``gc`` text read by the parser (canonical for a legal
    ply, as typed for the others, or for a move typed as PGN writes it the sub-moves the
    reader made of it: `JudgedPly.typed_gc`), with the text typed, its line and column."""
    typed = _text(ply["typed"], "typed")
    gc = _text(ply["gc"], "gc")
    san = ply.get("status") != Status.LEGAL and gc != typed  # a ply not legal, typed as PGN's
    line, column = int(ply["line"]), int(ply["column"])
    comment = ply.get("comment")
    try:
        read = parse_log(gc, source, pocket_file).records
    except LogSyntaxError as err:
        raise LogSyntaxError(
            source, line, column, 'a Game Courier ply in the plies\' "gc"', gc, err.hint
        ) from None
    if len(read) != 1:
        raise LogSyntaxError(source, line, column, 'one Game Courier ply in "gc"', gc)
    return MoveRecord(
        ply=index,
        submoves=read[0].submoves,
        text=typed,
        comment=None if comment is None else _text(comment, "comment"),
        line=line,
        column=column,
        number=None,
        san=san,
    )


def _log(
    tags: list[tuple[str, str]],
    records: list[MoveRecord],
    source: str,
    pocket_file: PocketFile,
    document: Any,
) -> GameLog:
    unread = document.get("unread")
    return GameLog(
        tags=tuple(tags),
        records=tuple(records),
        source=source,
        pocket_file=pocket_file,
        result_token=_recorded_result(document, tags),
        unread=None
        if unread is None
        else UnreadText(
            int(unread["line"]),
            int(unread["column"]),
            _text(unread["text"], "unread text"),
            _text(unread["error"], "unread error"),
        ),
    )


def _recorded_result(document: Any, tags: list[tuple[str, str]]) -> str | None:
    """The result the original record gave (a PGN's result token), from the verdict, so
    the game reads back with it; None when the board or a status line gave it."""
    verdict = document.get("verdict") or {}
    ending = verdict.get("termination")
    if ending not in {str(end) for end in RECORDED_ENDINGS}:
        return None
    if any(key.casefold() == "status" for key, _ in tags):
        return None
    result = Result.read(str(verdict.get("result", "")))
    return None if result is None else result.value


def _is_verdict(document: object) -> bool:
    """Is this the object of ``check --json`` (a verdict, which the export holds as its
    ``verdict``), not a game?"""
    return isinstance(document, dict) and "status" in document and "legal_plies" in document


def _first_object(text: str) -> object:
    import json

    try:
        return json.JSONDecoder().raw_decode(text, len(text) - len(text.lstrip()))[0]
    except json.JSONDecodeError:
        return None


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} is not a text")
    return value


def _why(err: Exception) -> str:
    if isinstance(err, KeyError):
        return f"it has no {err.args[0]!r}"
    return str(err) or type(err).__name__


def _json_error(text: str, source: str, line: int, column: int, why: str) -> LogSyntaxError:
    line_text = text.split("\n", line)[line - 1] if line >= 1 else ""
    return LogSyntaxError(source, line, column, EXPORT, line_text, why)
