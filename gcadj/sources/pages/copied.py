"""The text of a Game Courier viewing page copied from a browser, read as a game.

A user who selects all of a viewing page and copies it, or dumps the page as text, hands
gcadj neither HTML nor a log: the markup is gone, form controls and images with it. What
remains, in roughly this order (though copies differ, so no order is relied on): the
site's banner, "Viewing Game", perhaps a status line ("bob has resigned."), the board as
rank lines whose empty squares are missing (``8 r``, ``4 P N``), a line of file letters
(``a b c d e f g h i``, reversed from Black's side), the game's name, "Uncoded. No rules
enforced. No legal moves displayed.", "White:" and "Black:", the labels of the display
controls ("Orientation:", "Scale:", ...), the rules text with its piece table, and perhaps
the moves.

Such text is recognised by those landmarks (`looks_like_copied_page`). The players, the
status line and the pocket file (from the file letters) are read; the move list, when the
copy holds one, is the longest run of lines the real parser reads as plies, and becomes
the game. A copy without moves is an error that says how to get them (the page's URL,
or the page saved as HTML): it is not a log with a typo, so no notation hint applies.
The board is never read from such text: with its empty squares missing, which square a
piece stands on cannot be known, and gcadj does not guess.
"""

from __future__ import annotations

import re
from typing import Final

from gcadj.errors import CopiedPageError, LogSyntaxError
from gcadj.notation.parse import parse_log
from gcadj.sources.pages.board import pocket_letter_from_labels
from gcadj.sources.pages.movelist import could_be_log_line, pocket_letter_in
from gcadj.sources.pages.scrape import BLACK_PLAYER, WHITE_PLAYER, ScrapedGame, player_name
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile

_HEADING: Final = re.compile(r"^\s*viewing game\s*$", re.IGNORECASE | re.MULTILINE)
_NOTICE: Final = re.compile(r"uncoded\.?\s+no rules (?:are )?enforced", re.IGNORECASE)
_CONTROL: Final = re.compile(
    r"^\s*(?:orientation|scale|render as|shape|piece set|colou?rs)\s*:", re.IGNORECASE
)
_PLAYER: Final = re.compile(r"^\s*(?:white|black)\s*:", re.IGNORECASE)
_RANK_LINE: Final = re.compile(r"^\s*[1-8](?:\s*[A-Za-z])*\s*$")
_BANNER: Final = re.compile(r"\bour featured variant\b", re.IGNORECASE)

NO_MOVES: Final = (
    "this is the text of a Game Courier viewing page without its move list (a copy of a "
    "page as text drops the moves); to check the game, give gcadj the page's URL "
    "(…/play/pbm/play.php?game=…&log=…), or the page saved from the browser as HTML "
    "(File > Save Page As…, 'Web Page, HTML only')"
)
UNREADABLE_BOARD: Final = (
    "the board in the copied page text cannot be read: its empty squares are missing, so "
    "which square a piece stands on is unknown; it is not compared with the replay"
)


# A copied page is tens of kilobytes; bigger text is not looked at (it costs a scan).
MAX_PAGE_TEXT: Final = 2_000_000


def _landmarks(text: str) -> int:
    """How many of a copied page's landmarks the text holds."""
    lines = text.splitlines()
    found = 0
    found += _HEADING.search(text) is not None
    found += _NOTICE.search(text) is not None
    found += _BANNER.search(text) is not None
    found += sum(1 for line in lines if _PLAYER.match(line)) >= 2
    found += sum(1 for line in lines if _CONTROL.match(line)) >= 2
    found += _file_letter(lines) is not None
    return found


def _file_letter(lines: list[str]) -> str | None:
    """The pocket file's letter from a line of file letters (``a b c … h i``, or reversed)."""
    return pocket_letter_from_labels([line.strip() for line in lines if len(line) < 40])


def looks_like_copied_page(text: str) -> bool:
    """Is this the text of a Game Courier viewing page? Two landmarks, in any order.

    None of them is a line of a Game Courier log, so a log is never taken for one.
    """
    return _landmarks(text) >= 2


def _runs(lines: list[str]) -> list[list[str]]:
    """Runs of consecutive lines that could be plies or comments (blank lines end none)."""
    runs: list[list[str]] = []
    current: list[str] = []
    for line in lines:
        stripped = line.strip()
        if not stripped:
            continue
        if (
            could_be_log_line(stripped)
            and not stripped.startswith("[")
            and not _RANK_LINE.match(stripped)  # "8 r", "1 R" are board rows, not plies
        ):
            current.append(stripped)
            continue
        if current:
            runs.append(current)
        current = []
    if current:
        runs.append(current)
    return runs


def _move_list(lines: list[str], letter: str | None) -> tuple[list[str], str] | None:
    """The longest run that parses as plies, with its pocket file; None if there is none.

    A lone unnumbered ply is not taken for a game: the rules text quotes single plies.
    """
    best: tuple[int, list[str], str] | None = None
    for run in _runs(lines):
        pocket_file = letter or pocket_letter_in(run) or DEFAULT_POCKET_FILE
        try:
            game = parse_log(
                "\n".join(run), source="<page text>", pocket_file=PocketFile(pocket_file)
            )
        except (LogSyntaxError, ValueError):
            continue
        plies = len(game.records)
        numbered = game.records and game.records[0].number is not None
        if (plies >= 2 or numbered) and (best is None or plies > best[0]):
            best = (plies, run, pocket_file)
    return None if best is None else (best[1], best[2])


def _status(lines: list[str]) -> str | None:
    """The line after "Viewing Game" when it is not another part of the page."""
    for i, line in enumerate(lines):
        if _HEADING.fullmatch(line):
            following = next((s.strip() for s in lines[i + 1 :] if s.strip()), "")
            if not following or len(following) > 200:
                return None
            other_part = (
                following.endswith(":")  # a label such as "Moves:"
                or could_be_log_line(following)
                or _RANK_LINE.match(following)
                or _PLAYER.match(following)
                or _CONTROL.match(following)
                or _NOTICE.search(following)
                or pocket_letter_from_labels([following])
            )
            return None if other_part else following
    return None


def read_if_copied_page(text: str, source: str = "<page text>") -> ScrapedGame | None:
    """The game in `text` if it is a copied page's text, else None (see `read_copied_page`)."""
    if len(text) > MAX_PAGE_TEXT or not looks_like_copied_page(text):
        return None
    return read_copied_page(text, source)


def read_copied_page(text: str, source: str = "<page text>") -> ScrapedGame:
    """The game in a copied page's text; raises `CopiedPageError` when it holds no moves."""
    lines = text.splitlines()
    letter = _file_letter(lines)
    white, black = player_name(lines, WHITE_PLAYER), player_name(lines, BLACK_PLAYER)
    status = _status(lines)
    found = _move_list(lines, letter)
    if found is None:
        read = [
            f"White: {white}" if white else "",
            f"Black: {black}" if black else "",
            f"status: {status!r}" if status else "",
            f"pocket file: {letter}" if letter else "",
        ]
        said = "; ".join(part for part in read if part)
        raise CopiedPageError(source, f"{NO_MOVES}" + (f" (the copy says {said})" if said else ""))
    moves, pocket_file = found
    warnings = []
    if any(_RANK_LINE.match(line) and len(line.split()) < 9 for line in lines):
        warnings.append(UNREADABLE_BOARD)
    return ScrapedGame(
        moves=tuple(moves),
        pocket_file=PocketFile(pocket_file),
        white=white,
        black=black,
        status=status,
        warnings=tuple(warnings),
    )
