"""The closed vocabulary of a verdict: its status, an illegal ply's category, how the game
ended, who moved and the result, and the pocket file of the preset (the two presets and
the default among them are written here, once).

Each is an enum whose values are the strings the JSON has always carried, so the output
does not change: a member *is* its string (``Status.LEGAL == "legal"``, ``json.dumps``
writes ``"legal"``, ``f"{member}"`` gives the value). What changes is that a misspelt
status is a type error, not a silent new value, and that each word is written here once.

It sits at the bottom of the house, with `gcadj.errors`, so that the engine (which knows
how a game ends on the board) and the adjudicator (which knows the rest) share one word.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final


class Word(str, Enum):
    """An enum member that is its own value as text (`str()` and f-strings give the value)."""

    def __str__(self) -> str:
        return str(self.value)


class Status(Word):
    """What gcadj concludes about a source (the ``status`` of ``gcadj check --json``)."""

    LEGAL = "legal"
    ILLEGAL = "illegal"
    SYNTAX_ERROR = "syntax-error"
    ERROR = "error"


class VerdictKind(Word):
    """What a verdict means for the exit code: its status, or an error that is gcadj's own
    (a bug: exit code 5, never 1)."""

    LEGAL = "legal"
    ILLEGAL = "illegal"
    SYNTAX_ERROR = "syntax-error"
    ERROR = "error"
    INTERNAL_ERROR = "internal-error"


class Category(Word):
    """Why a ply is illegal: the arbiter's fixed list (docs/rules.md)."""

    WRONG_SIDE = "wrong-side"
    EMPTY_ORIGIN = "empty-origin"
    LABEL_MISMATCH = "label-mismatch"
    ILLEGAL_PIECE_MOVE = "illegal-piece-move"
    OWN_CAPTURE = "own-capture"
    KING_IN_CHECK = "king-in-check"
    EN_PASSANT_INCOMPLETE = "en-passant-incomplete"
    POCKET_FULL = "pocket-full"
    POCKET_KING = "pocket-king"
    POCKET_FIRST_MOVE = "pocket-first-move"
    BAD_MUTATION = "bad-mutation"
    MISSING_PROMOTION = "missing-promotion"
    BAD_PROMOTION = "bad-promotion"
    DROP_OCCUPIED = "drop-occupied"
    DROP_LAST_RANK = "drop-last-rank"
    DROP_NOT_IN_POCKET = "drop-not-in-pocket"
    CASTLING = "castling"
    PROMOTION_ON_ARRIVAL = "promotion-on-arrival"
    EXTRA_SUBMOVE = "extra-submove"
    AFTER_GAME_END = "after-game-end"
    UNSUPPORTED = "unsupported"


class Termination(Word):
    """How a game ended: on the board (the engine's first six), or by the record.

    A member is its JSON text, and compares equal to it.

    Examples:
        >>> Termination("checkmate")
        <Termination.CHECKMATE: 'checkmate'>
        >>> Termination.FIFTY_MOVES == "fifty-move", Termination.RESIGNATION.value
        (True, 'resignation')
    """

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    FIFTY_MOVES = "fifty-move"
    FIVEFOLD_REPETITION = "fivefold-repetition"
    THREEFOLD_REPETITION = "threefold-repetition"  # only when a draw is claimed
    DEAD_POSITION = "dead-position"
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    TIME_FORFEIT = "time-forfeit"
    ABANDONED = "abandoned"  # from a PGN's Termination tag
    ADJUDICATION = "adjudication"  # from a PGN's Termination tag
    RECORDED = "recorded"  # a result the record gives without saying how the game ended
    ONGOING = "ongoing"


RECORDED_ENDINGS: Final = frozenset(
    {
        Termination.RECORDED,
        Termination.RESIGNATION,
        Termination.TIME_FORFEIT,
        Termination.AGREEMENT,
        Termination.ABANDONED,
        Termination.ADJUDICATION,
    }
)
"""The endings a record gives (a status line, a result token, a Termination tag), not the
board: a writer keeps them in its output so that the game reads back with its result."""


class Side(Word):
    """Who made a ply. The engine numbers the sides (`gcadj.engine.squares.WHITE` 0,
    `BLACK` 1: its colours); a side converts to and from that number here, and nowhere
    else: `Side.of(colour)`, `side.colour`.

    >>> Side.of(1), Side.BLACK.colour, Side.WHITE.other, Side.BLACK.capitalized
    (<Side.BLACK: 'black'>, 1, <Side.BLACK: 'black'>, 'Black')
    """

    WHITE = "white"
    BLACK = "black"

    @classmethod
    def of(cls, colour: int) -> Side:
        """The side of an engine colour (0 White, 1 Black)."""
        return SIDES[colour]

    @property
    def colour(self) -> int:
        """The engine's colour of this side (0 White, 1 Black)."""
        return SIDES.index(self)

    @property
    def other(self) -> Side:
        """The opponent."""
        return SIDES[1 - SIDES.index(self)]

    @property
    def capitalized(self) -> str:
        """The side as a sentence names it: "White", "Black"."""
        return self.value.capitalize()


SIDES: Final = (Side.WHITE, Side.BLACK)
"""The sides in the engine's order of colours: `Side.of` and `Side.colour` read it."""


class Result(Word):
    """A game's result, as PGN writes it."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    UNDECIDED = "*"

    @classmethod
    def read(cls, text: str) -> Result | None:
        """The result a token or a Result tag names, as PGN writes it or as other programs
        do (`RESULT_SPELLINGS`: ``½-½``, ``1–0`` with an en dash); None if it names none."""
        return RESULT_SPELLINGS.get(text.strip())

    @classmethod
    def win_for(cls, side: Side) -> Result:
        """The result of a game `side` won.

        >>> Result.win_for(Side.BLACK)
        <Result.BLACK_WINS: '0-1'>
        """
        return cls.WHITE_WINS if side is Side.WHITE else cls.BLACK_WINS

    @property
    def winner(self) -> Side | None:
        """The side this result gives the game to; None for a draw or no result."""
        return {Result.WHITE_WINS: Side.WHITE, Result.BLACK_WINS: Side.BLACK}.get(self)


class JobState(Word):
    """Where a served check is (`gcadj.web.jobs.Job.state`): waiting for a worker, being
    judged, or ended (its result then has its own final state in the store)."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"


class AdjudicationClass(Word):
    """How strong an adjudication is (the ``class`` of ``gcadj adjudicate --json``), strongest
    first: docs/rules.md §7 says when each is given."""

    PROVEN = "proven"  # the board has ended, or a forced mate was proved
    RECORDED = "recorded"  # the record ended the game (resignation, agreement, time, result)
    CLAIMABLE = "claimable"  # a draw a player may claim now (threefold repetition)
    EVIDENCE = "evidence"  # no proof, but a clear material lead
    UNDETERMINED = "undetermined"  # none of these


class MistakeKind(Word):
    """What the analysis of a whole game finds at a ply (the ``kind`` of a mistake in the
    ``analysis`` of the JSON): docs/rules.md §8.3 says when each is found."""

    MISSED_MATE = "missed-mate"  # the mover had a forced mate and no longer has one
    ALLOWS_MATE = "allows-mate"  # after the move the opponent has a forced mate
    LOSES_MATERIAL = "loses-material"  # the balance after the exchanges fell


class PocketFile(str):
    """The file of the pockets: one lower-case letter from i to z (i on the 2009 preset,
    whose pockets are i1/i8; p on the newer one, p1/p8).

    Checked once, where the input comes in (an option, a tag); past that a `PocketFile`
    is known to be good. It is a `str`, so it is written and compared as its letter.
    """

    __slots__ = ()

    def __new__(cls, letter: str) -> PocketFile:
        if isinstance(letter, PocketFile):
            return letter
        if not is_pocket_letter(letter):
            raise ValueError(not_a_pocket_file("pocket_file", letter))
        return super().__new__(cls, letter)

    @classmethod
    def read(cls, text: str) -> PocketFile | None:
        """The pocket file a user typed, in either case (``P`` is ``p``); None if it is none."""
        letter = text.strip().lower()
        return cls(letter) if is_pocket_letter(letter) else None

    def square(self, rank: int) -> str:
        """The pocket square on `rank` (1 for White's pocket, 8 for Black's): ``i1``, ``p8``."""
        return f"{self}{rank}"


FIRST_POCKET_LETTER: Final = "i"
LAST_POCKET_LETTER: Final = "z"


def is_pocket_letter(letter: str) -> bool:
    """Can `letter` name the ninth file? One lower-case letter beyond the board's a-h.

    Examples:
        >>> is_pocket_letter("p"), is_pocket_letter("h"), is_pocket_letter("P")
        (True, False, False)
    """
    return len(letter) == 1 and FIRST_POCKET_LETTER <= letter <= LAST_POCKET_LETTER


POCKET_LETTERS: Final = f"one letter from {FIRST_POCKET_LETTER} to {LAST_POCKET_LETTER}"
"""What a pocket file must be, in the words of every message and help that asks for one."""


@dataclass(frozen=True)
class Preset:
    """One of Game Courier's presets of Pocket Mutation Chess: its name, and the file its
    two pockets are on (rank 1 White's, rank 8 Black's)."""

    name: str
    pocket_file: PocketFile

    def pockets(self, joiner: str = "/") -> str:
        """Its pocket squares: ``i1/i8``."""
        return joiner.join((self.pocket_file.square(1), self.pocket_file.square(8)))


PRESET_2009: Final = Preset("the 2009 preset", PocketFile("i"))
PRESET_NEWER: Final = Preset("the newer preset", PocketFile("p"))
PRESETS: Final = (PRESET_2009, PRESET_NEWER)
"""Game Courier's two presets, the default first."""

DEFAULT_POCKET_FILE: Final = PRESET_2009.pocket_file
"""The pocket file of a game that says nothing of it, and of the API's defaults."""


def is_preset_file(letter: str) -> bool:
    """Is `letter` the pocket file of one of Game Courier's presets? Only those are found
    from the squares a log's plies use; any other letter must be named (``--pocket-file``,
    a ``PocketFile`` tag).

    Examples:
        >>> is_preset_file("p"), is_preset_file("k")
        (True, False)
    """
    return any(preset.pocket_file == letter for preset in PRESETS)


def presets_in_words() -> str:
    """``i on the 2009 preset (i1/i8), p on the newer preset (p1/p8)``: for help texts and
    messages that name both presets.

    Examples:
        >>> presets_in_words()
        'i on the 2009 preset (i1/i8), p on the newer preset (p1/p8)'
    """
    return ", ".join(f"{p.pocket_file} on {p.name} ({p.pockets()})" for p in PRESETS)


def not_a_pocket_file(name: str, typed: str) -> str:
    """What is said of a pocket file that is none, wherever it was given (an option, a
    form's field, an argument): `name` is how the user gave it.

    Examples:
        >>> not_a_pocket_file("--pocket-file", "q1").split(":")[0]
        "--pocket-file must be one letter from i to z, not 'q1'"
    """
    return f"{name} must be {POCKET_LETTERS}, not {typed!r}: {presets_in_words()}"


RESULT_SPELLINGS: Final = {
    **{result.value: result for result in Result},
    # A half, a dash other than '-', as word processors, forums and some programs write
    # them: the same results.
    **{
        f"{white}{dash}{black}": result
        for result, (white, black) in (
            (Result.WHITE_WINS, ("1", "0")),
            (Result.BLACK_WINS, ("0", "1")),
            (Result.DRAW, ("½", "½")),
            (Result.DRAW, ("1/2", "1/2")),
            (Result.DRAW, ("0.5", "0.5")),
        )
        for dash in "-\u2013\u2014"  # hyphen, en dash, em dash
    },
}
"""Every way a result is written that gcadj reads, and the result it names."""

__all__ = [
    "DEFAULT_POCKET_FILE",
    "POCKET_LETTERS",
    "PRESETS",
    "PRESET_2009",
    "PRESET_NEWER",
    "RECORDED_ENDINGS",
    "RESULT_SPELLINGS",
    "SIDES",
    "AdjudicationClass",
    "Category",
    "JobState",
    "MistakeKind",
    "PocketFile",
    "Preset",
    "Result",
    "Side",
    "Status",
    "Termination",
    "VerdictKind",
    "Word",
    "is_pocket_letter",
    "is_preset_file",
    "not_a_pocket_file",
    "presets_in_words",
]
