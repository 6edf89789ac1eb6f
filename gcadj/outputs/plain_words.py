"""A player's words for what the judge found, for the pages people read.

The CLI and the JSON keep the precise terms (``ply 24``, ``label-mismatch``, ``*``):
scripts read them and the manual defines them. The pages a player opens (the viewer,
the report, ``gcadj serve``'s) say the same in the words of the game: "move 12, Black",
"The piece named is not the one on that square.", "Game not finished", and show the
precise term on hover (`term`), so nothing is lost for those who want it.

Every sentence is written here, once: `CATEGORY_SENTENCES` has one for each `Category`
(a test holds it to the enum), `result_words` one for each result and ending.
"""

from __future__ import annotations

from typing import Final

from gcadj.vocabulary import AdjudicationClass, Category, Result, Termination

__all__ = [
    "ADJUDICATION_WORDS",
    "CATEGORY_SENTENCES",
    "PROPOSED_WORDS",
    "category_sentence",
    "move_words",
    "result_words",
    "term",
]

CATEGORY_SENTENCES: Final[dict[Category, str]] = {
    Category.WRONG_SIDE: "It moves a piece of the side whose turn it is not.",
    Category.EMPTY_ORIGIN: "There is no piece on the square it moves from.",
    Category.LABEL_MISMATCH: "The piece named is not the one on that square.",
    Category.ILLEGAL_PIECE_MOVE: "That piece cannot move that way.",
    Category.OWN_CAPTURE: "It takes a piece of its own side.",
    Category.KING_IN_CHECK: "It leaves its own King in check.",
    Category.EN_PASSANT_INCOMPLETE: "An en passant capture that leaves the taken Pawn there.",
    Category.POCKET_FULL: "The pocket already holds a piece.",
    Category.POCKET_KING: "A King can never go into the pocket.",
    Category.POCKET_FIRST_MOVE: "White may not use the pocket on the very first move.",
    Category.BAD_MUTATION: "In the pocket a piece may change only into one of its own class.",
    Category.MISSING_PROMOTION: "A piece pocketed from the far rank must promote.",
    Category.BAD_PROMOTION: "A piece pocketed from the far rank promotes to the next class only.",
    Category.DROP_OCCUPIED: "It drops a piece on a square that is taken.",
    Category.DROP_LAST_RANK: "No piece may be dropped on its player's far rank.",
    Category.DROP_NOT_IN_POCKET: "It drops a piece that is not in the pocket.",
    Category.CASTLING: "There is no castling in Pocket Mutation Chess.",
    Category.PROMOTION_ON_ARRIVAL: "A Pawn promotes only by being pocketed, not on arriving.",
    Category.EXTRA_SUBMOVE: "It adds or removes pieces besides its move.",
    Category.AFTER_GAME_END: "The game had already ended.",
    Category.UNSUPPORTED: "Something Pocket Mutation Chess never does.",
}
"""Each category of illegal ply as a short sentence a player reads (docs/rules.md §5.2
has the rules behind them)."""


ADJUDICATION_WORDS: Final[dict[AdjudicationClass, str]] = {
    AdjudicationClass.PROVEN: "Proven",
    AdjudicationClass.RECORDED: "As recorded",
    AdjudicationClass.CLAIMABLE: "A draw may be claimed",
    AdjudicationClass.EVIDENCE: "Evidence, not proof",
    AdjudicationClass.UNDETERMINED: "Undetermined",
}
"""How strong an adjudication is, as a player reads it (docs/rules.md §7 has the classes)."""

PROPOSED_WORDS: Final[dict[Result, str]] = {
    Result.WHITE_WINS: "White wins",
    Result.BLACK_WINS: "Black wins",
    Result.DRAW: "a draw",
    Result.UNDECIDED: "no result",
}
"""The result an adjudication proposes, as a player reads it."""


def category_sentence(category: str) -> str:
    """The sentence of a category (its JSON word); an unknown word is given back as is."""
    try:
        return CATEGORY_SENTENCES[Category(category)]
    except ValueError:
        return category


def move_words(move_number: int, side: str) -> str:
    """Where a ply is, as players say it: ``move_words(12, "black")`` is "move 12, Black"."""
    return f"move {move_number}, {side.capitalize()}"


_WINNERS: Final = {Result.WHITE_WINS: "White won", Result.BLACK_WINS: "Black won"}
_LOSERS: Final = {Result.WHITE_WINS: "Black", Result.BLACK_WINS: "White"}
_DRAWS: Final = {
    Termination.STALEMATE: "Draw by stalemate",
    Termination.FIFTY_MOVES: "Draw by the fifty-move rule",
    Termination.FIVEFOLD_REPETITION: "Draw by fivefold repetition",
    Termination.THREEFOLD_REPETITION: "Draw by threefold repetition",
    Termination.DEAD_POSITION: "Draw: neither side can ever mate",
    Termination.AGREEMENT: "Draw by agreement",
    Termination.TIME_FORFEIT: "Draw on time",
}
_HOW: Final = {
    Termination.CHECKMATE: " by checkmate",
    Termination.TIME_FORFEIT: " on time",
    Termination.ABANDONED: ": the game was abandoned",
    Termination.ADJUDICATION: " by adjudication",
    Termination.RECORDED: ", as recorded",
}


def result_words(result: str, termination: str | None = None) -> str:
    """A result and how the game ended, as a sentence: "Game not finished" for ``*``,
    "White won by checkmate", "Black won: White resigned", "Draw by stalemate"."""
    try:
        outcome = Result(result)
    except ValueError:
        return result
    try:
        how = Termination(termination) if termination else None
    except ValueError:
        how = None
    if outcome is Result.UNDECIDED:
        return "Game not finished"
    if outcome is Result.DRAW:
        return _DRAWS.get(how, "Draw") if how is not None else "Draw"
    won = _WINNERS[outcome]
    if how is Termination.RESIGNATION:
        return f"{won}: {_LOSERS[outcome]} resigned"
    return won + (_HOW.get(how, "") if how is not None else "")


def term(words: str, precise: str, *, tag: str = "span") -> str:
    """HTML for `words` with the precise term on hover (``title``), both escaped (the
    viewer's template ``term``)."""
    from gcadj.outputs.templating import viewer_macros  # pages only; plain text needs none

    return str(viewer_macros().term(words, precise, tag))
