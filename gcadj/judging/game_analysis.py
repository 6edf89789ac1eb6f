"""What the analysis of a whole game says: for each legal ply, the balance after the
exchanges and a forced mate within reach after it, and the mistakes found there (a mate
missed, a mate allowed, material lost), each with its line.

Data only: the analysis layer makes it (`gcadj.analysis.analyser`), a judged game carries it
(`Verdict.analysis`), and every writer reads it. docs/rules.md §8 settles when each mistake
is found; its JSON (`GameAnalysis.to_json`) is the ``analysis`` key of a verdict's JSON
when the game was analysed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gcadj.vocabulary import MistakeKind, Side

if TYPE_CHECKING:  # every verdict imports this module: `gcadj check` need not load more
    from gcadj.judging.adjudication import LineStep


@dataclass(frozen=True)
class MateFact:
    """A forced mate within the analysis's depth, found by the prover: the side that mates
    and its number of moves (lichess writes it ``#2``, ``#-2`` for Black)."""

    winner: Side
    moves: int

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner.value, "moves": self.moves}


@dataclass(frozen=True)
class PositionFacts:
    """What the analysis knows of one position of the game.

    `balance`: White's lead in class units after the forced exchanges (None when their
    count was cut); `exchange_mate`: the side that mates at the end of the exchanges, if
    they end in mate (the balance is then the material there, and weighs nothing);
    `mate`: the shortest forced mate within the depth, for either side, found by the
    prover (None: none within the depth, or the search was cut); `mate_cut` and
    `exchanges_cut`: why the mate search or the count stopped short (None: it did not).
    A position where either was cut claims nothing that needs it."""

    balance: int | None
    exchange_mate: Side | None = None
    mate: MateFact | None = None
    mate_cut: str | None = None
    exchanges_cut: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "balance": self.balance,
            "exchange_mate": None if self.exchange_mate is None else self.exchange_mate.value,
            "mate": None if self.mate is None else self.mate.to_json(),
            "mate_cut": self.mate_cut,
            "exchanges_cut": self.exchanges_cut,
        }


@dataclass(frozen=True)
class Mistake:
    """A mistake found at a ply: its `kind`, the 1-based `ply` and the `side` that made it,
    a `reason` in words, and its line from `position` (a FEN) in Game Courier text and
    SAN: the mate the mover had (missed mate, from the position before the ply), the
    opponent's mate (allows mate, from the position after it), the exchanges that follow
    (loses material, from the position after it). `moves`: the mate's length; `before`,
    `after`: White's balance after the exchanges before and after the ply, and `lost`
    the class units the mover lost (loses material). `steps`: the line's moves and
    positions, for drawing it (not part of the JSON)."""

    kind: MistakeKind
    ply: int
    side: Side
    reason: str
    position: str
    line: tuple[str, ...]
    san: tuple[str, ...]
    moves: int | None = None
    before: int | None = None
    after: int | None = None
    lost: int | None = None
    steps: tuple[LineStep, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "ply": self.ply,
            "side": self.side.value,
            "reason": self.reason,
            "position": self.position,
            "line": list(self.line),
            "san": list(self.san),
            "moves": self.moves,
            "before": self.before,
            "after": self.after,
            "lost": self.lost,
        }


@dataclass(frozen=True)
class PlyAnalysis:
    """One legal ply analysed: its place (1-based `ply`, `move_number`, `side`), the move
    (`move`: canonical Game Courier text; `san`), what is known of the position after it
    (`after`), and the `mistakes` found at it (none, one, or a missed mate with the mate it
    allows)."""

    ply: int
    move_number: int
    side: Side
    move: str
    san: str
    after: PositionFacts
    mistakes: tuple[Mistake, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "move_number": self.move_number,
            "side": self.side.value,
            "move": self.move,
            "san": self.san,
            **self.after.to_json(),
            "mistakes": [mistake.to_json() for mistake in self.mistakes],
        }


@dataclass(frozen=True)
class GameAnalysis:
    """The analysis of a whole game (`gcadj.analysis.analyser.analyse_verdict`): the depth of
    its mate searches (`mate_depth`, the winner's moves), the material `threshold` (class
    units), what is known of the `start` position, and one `PlyAnalysis` per legal ply.
    `nodes` and `seconds`: the work done (the mate searches' and the counts' nodes).
    `error`: gcadj's own failure analysing the game (a bug: ``internal error: <type>:
    <message>``; the game's outcome is then an internal error, exit 5), with no plies;
    None otherwise.

    Examples:
        >>> import gcadj
        >>> game = "P e2-e4\\np e7-e5\\nN g1-f3\\nq d8-g5\\nN f3-g5\\n"  # the Queen hangs
        >>> analysis = gcadj.analyse_verdict(gcadj.check_text(game))
        >>> [(ply.san, ply.after.balance) for ply in analysis.plies]
        [('e4', 0), ('e5', 0), ('Nf3', 0), ('Qg5', 5), ('Nxg5', 5)]
        >>> analysis.counts()[MistakeKind.LOSES_MATERIAL]
        1
        >>> analysis.to_json()["plies"][3]["mistakes"][0]["reason"]
        'Black loses 5 class units with 2... Qg5: the exchanges 3. Nxg5 (Black loses a Queen) \
follow; the balance after the exchanges goes from level to White +5'
    """

    mate_depth: int
    threshold: int
    start: PositionFacts
    plies: tuple[PlyAnalysis, ...]
    nodes: int = 0
    seconds: float = 0.0
    error: str | None = None

    @property
    def mistakes(self) -> tuple[Mistake, ...]:
        """Every mistake of the game, in the order of its plies."""
        return tuple(mistake for ply in self.plies for mistake in ply.mistakes)

    def counts(self) -> dict[MistakeKind, int]:
        """How many mistakes of each kind (every kind listed, 0 included)."""
        found = dict.fromkeys(MistakeKind, 0)
        for mistake in self.mistakes:
            found[mistake.kind] += 1
        return found

    @property
    def cut(self) -> int:
        """How many positions (the start's included) have a search or a count cut short."""
        facts = [self.start, *(ply.after for ply in self.plies)]
        return sum(1 for fact in facts if fact.mate_cut is not None or fact.exchanges_cut)

    def to_json(self) -> dict[str, Any]:
        return {
            "mate_depth": self.mate_depth,
            "material_threshold": self.threshold,
            "counts": {kind.value: count for kind, count in self.counts().items()},
            "cut": self.cut,
            "start": self.start.to_json(),
            "plies": [ply.to_json() for ply in self.plies],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "error": self.error,
        }


__all__ = ["GameAnalysis", "MateFact", "Mistake", "PlyAnalysis", "PositionFacts"]
