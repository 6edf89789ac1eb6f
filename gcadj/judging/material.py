"""Material by value class: what each side has on the board and in its pocket.

Pocket Mutation Chess sorts its pieces into classes 1 to 8 (docs/rules.md §1: the Pawn 1,
Bishop and Knight 2, ..., the AmazonRider 8); a piece keeps its class when it mutates and
climbs one when it is pocketed from the far rank. A side's material is counted per class,
its pocket's piece included, and summed in class units (a Queen is 5, a Pawn 1); the King
has no class and is not counted. The difference of the totals is the lead an adjudication
weighs as evidence (`gcadj.analysis.adjudicator`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gcadj.engine.pieces import HIGHEST_CLASS
from gcadj.engine.position import Position
from gcadj.engine.squares import BLACK, WHITE

CLASSES = tuple(range(1, HIGHEST_CLASS + 1))


@dataclass(frozen=True)
class SideMaterial:
    """One side's material: pieces per class (`by_class[0]` is class 1), the total in class
    units, and the letter of its pocket's piece (as Game Courier labels it: upper case for
    White, lower case for Black), None when the pocket is empty."""

    by_class: tuple[int, ...]
    pocket: str | None

    @property
    def total(self) -> int:
        return sum(count * value for count, value in zip(self.by_class, CLASSES, strict=True))

    @property
    def bare(self) -> bool:
        """Only the King: nothing on the board but it, nothing in the pocket."""
        return not any(self.by_class)

    def to_json(self) -> dict[str, Any]:
        """``{"total": 12, "by_class": {"1": 4, ..., "8": 0}, "pocket": "N"}``: every class
        is listed, none counted as absent."""
        return {
            "total": self.total,
            "by_class": {
                str(value): count for value, count in zip(CLASSES, self.by_class, strict=True)
            },
            "pocket": self.pocket,
        }


@dataclass(frozen=True)
class Material:
    """Both sides' material, and White's lead in class units (negative: Black leads)."""

    white: SideMaterial
    black: SideMaterial

    @property
    def lead(self) -> int:
        return self.white.total - self.black.total

    def side(self, color: int) -> SideMaterial:
        return self.white if color == WHITE else self.black

    def to_json(self) -> dict[str, Any]:
        return {"white": self.white.to_json(), "black": self.black.to_json()}


def material(position: Position) -> Material:
    """The material of both sides in `position`."""
    return Material(_side(position, WHITE), _side(position, BLACK))


def _side(position: Position, color: int) -> SideMaterial:
    counts = [0] * len(CLASSES)
    pieces = [position.board[square] for square in position.occupied[color]]
    held = position.pockets[color]
    for piece in [*pieces, held]:
        if piece is not None and not piece.king:
            counts[piece.kind.value_class - 1] += 1
    return SideMaterial(tuple(counts), None if held is None else held.symbol)


__all__ = ["CLASSES", "Material", "SideMaterial", "material"]
