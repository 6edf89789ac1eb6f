"""What an adjudication of a game says: the proposed result, how strong it is, and why.

Data only: the analysis layer makes it (`gcadj.analysis.adjudicator`), a judged game
carries it, and every writer reads it (the text report, the JSON, the audit's CSV and
report, the viewer and the served pages), so that each says the same. Its JSON
(`Adjudication.to_json`) is the ``adjudication`` key of ``gcadj adjudicate --json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gcadj.engine.move import Move
from gcadj.judging.material import Material
from gcadj.vocabulary import AdjudicationClass, Result, Side

Tree = dict[str, Any]
"""A proof as JSON: a tree, ``{"move": str | None, "replies": {str: Tree}}``, or, when it
is large, a graph of its positions, ``{"root": id, "nodes": {id: {"move": str | None,
"replies": {str: id}}}}`` (`gcadj.analysis.proof` writes both, `gcadj.analysis.proof_check`
checks both; docs/adjudicate.md, "The proof")."""


@dataclass(frozen=True)
class LineStep:
    """One move of a line and the position it leads to, so that whoever draws the line
    (the viewer) reads its boards here and never plays the moves again."""

    move: Move
    fen_after: str


@dataclass(frozen=True)
class ProofMove:
    """A move of a proof tree as a viewer draws it: its Game Courier text and SAN, the move
    and the position it leads to (`step`), and the moves that answer it: after a winner's
    move, every defence; after a defence, the winner's answer (none after a mate, or where
    the drawing stopped: `ForcedMate.drawn_moves`)."""

    text: str
    san: str
    step: LineStep
    answers: tuple[ProofMove, ...] = ()


@dataclass(frozen=True)
class ForcedMate:
    """A forced mate, checked: the winner, its number of moves, the mating line (Game
    Courier text and SAN) and the whole proof, a tree or a graph (`Tree`). Not part of
    the JSON, for drawing it: `steps`, the line's moves and the positions they lead to;
    `drawn`, the proof tree's first moves from the adjudicated position with theirs (the
    winner's first move, or, when the side to move is mated, each of its moves), level by
    level while they fit (`drawn_moves` of the tree's `tree_moves`)."""

    winner: Side
    moves: int
    line: tuple[str, ...]
    san: tuple[str, ...]
    tree: Tree
    steps: tuple[LineStep, ...] = field(default=(), compare=False)
    drawn: tuple[ProofMove, ...] = field(default=(), compare=False)
    drawn_moves: int = field(default=0, compare=False)
    tree_moves: int = field(default=0, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner.value,
            "moves": self.moves,
            "line": list(self.line),
            "san": list(self.san),
            "tree": self.tree,
        }


@dataclass(frozen=True)
class AfterExchanges:
    """The material after the forced exchanges (`gcadj.analysis.exchanges`): each side's
    total in class units at the end of the principal line of exchanges, White's `balance`
    there, the line (Game Courier text and SAN, from the position counted; empty when the
    side to move stands pat), `mate`: the side that mates at the end of the line, if it
    ends in mate. `cut`: None, or why the count stopped short (``"nodes"``, ``"plies"``):
    a cut count is reported, never weighed. `steps`: the line's moves and positions, for
    drawing it (not part of the JSON).

    Examples:
        >>> import gcadj
        >>> found = gcadj.adjudicate_position(
        ...     "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R[] w - - 2 3",
        ...     gcadj.AdjudicateOptions(mate_depth=1))
        >>> found.exchanges.to_json()
        {'white': 27, 'black': 22, 'balance': 5, 'line': ['N f3-g5'], 'san': ['Nxg5'], \
'mate': None, 'cut': None}
    """

    white: int
    black: int
    line: tuple[str, ...] = ()
    san: tuple[str, ...] = ()
    mate: Side | None = None
    cut: str | None = None
    steps: tuple[LineStep, ...] = field(default=(), compare=False)

    @property
    def balance(self) -> int:
        return self.white - self.black

    def to_json(self) -> dict[str, Any]:
        return {
            "white": self.white,
            "black": self.black,
            "balance": self.balance,
            "line": list(self.line),
            "san": list(self.san),
            "mate": None if self.mate is None else self.mate.value,
            "cut": self.cut,
        }


@dataclass(frozen=True)
class Threat:
    """A mate the side not to move would give if it were its turn (the other side passing:
    a null move), found by the prover and checked by the proof checker from that position.
    A fact of the position, never a proof of a result: the side to move plays first. The
    `side` that threatens, its number of `moves`, the FEN after the null move (`position`,
    where the line starts), the mating line in Game Courier text and SAN; `steps` for
    drawing it (not part of the JSON)."""

    side: Side
    moves: int
    position: str
    line: tuple[str, ...]
    san: tuple[str, ...]
    steps: tuple[LineStep, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side.value,
            "moves": self.moves,
            "position": self.position,
            "line": list(self.line),
            "san": list(self.san),
        }


@dataclass(frozen=True)
class Adjudication:
    """A game's adjudication: its class, proposed result and reason (how each class is
    decided: `gcadj.analysis.adjudicator`). `no_mate_within` and
    `not_mated_within`: the side to move was proved to have no forced mate, and not to be
    mated, within that many moves (None: no search was made); `cut`: why the search
    stopped short of `mate_depth` (its budget, the node limit, Ctrl-C), None if it did not.
    `material` is the static count; `exchanges` the count after the forced exchanges,
    which the evidence class weighs; `threat` a mate the side not to move threatens.
    `repeated_plies`: the plies after which the adjudicated position stood (0: the start),
    when it stood there three times or more (a draw may be claimed), else empty.
    `internal`: gcadj failed on the game (a bug; not part of the JSON).

    Examples:
        >>> import gcadj
        >>> found = gcadj.adjudicate_position("4k3/8/8/8/8/8/8/R3K3[] b - - 0 1")
        >>> found.kind.value, found.result.value, found.no_mate_within, found.mate
        ('evidence', '1-0', 4, None)
        >>> found.to_json()["material"]["white"]["by_class"]["3"]
        1
    """

    kind: AdjudicationClass
    result: Result
    reason: str
    position: str | None = None
    mate: ForcedMate | None = None
    no_mate_within: int | None = None
    not_mated_within: int | None = None
    mate_depth: int | None = None
    cut: str | None = None
    material: Material | None = None
    exchanges: AfterExchanges | None = None
    threat: Threat | None = None
    notes: tuple[str, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    repeated_plies: tuple[int, ...] = ()
    internal: bool = field(default=False, compare=False)
    # The reason about the board alone, when `reason` begins by saying which position of
    # the game was adjudicated (an illegal or partial game's): pages say that part in a
    # player's words (move 4, White) instead of the JSON's (ply 7), and the report reads
    # it from the JSON (null when `reason` is about the board alone).
    board_reason: str | None = None

    @property
    def interrupted(self) -> bool:
        return self.cut == "interrupted"

    def to_json(self) -> dict[str, Any]:
        return {
            "class": self.kind.value,
            "result": self.result.value,
            "reason": self.reason,
            "position": self.position,
            "mate": None if self.mate is None else self.mate.to_json(),
            "no_mate_within": self.no_mate_within,
            "not_mated_within": self.not_mated_within,
            "mate_depth": self.mate_depth,
            "cut": self.cut,
            "material": None if self.material is None else self.material.to_json(),
            "exchanges": None if self.exchanges is None else self.exchanges.to_json(),
            "threat": None if self.threat is None else self.threat.to_json(),
            "notes": list(self.notes),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "repeated_plies": list(self.repeated_plies),
            "board_reason": self.board_reason,
        }


__all__ = [
    "Adjudication",
    "AfterExchanges",
    "ForcedMate",
    "LineStep",
    "ProofMove",
    "Threat",
    "Tree",
]
