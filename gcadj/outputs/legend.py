"""The legend of the piece letters, for pages that show diagrams (viewer, audit report).

Nineteen kinds, most without a familiar glyph, are drawn as their Game Courier letters;
a reader needs to know what D, M or U is. Each row is derived from the engine's own
table of kinds (`gcadj.engine.pieces.KINDS`): letter, name, how it moves (from its
components), and its class, so the legend cannot drift from the rules enforced.
"""

from __future__ import annotations

from dataclasses import dataclass

from gcadj.engine.pieces import KINDS, PieceKind

__all__ = ["LegendRow", "describe_moves", "piece_legend"]

_COMPONENTS = (
    ("B", "slides diagonally"),
    ("R", "slides orthogonally"),
    ("N", "leaps like a Knight"),
    ("I", "rides repeated Knight leaps in one direction"),
    ("K", "steps one square any way"),
)

_PAWN = (
    "steps one square forward (two from its rank 2, the squares empty), captures one "
    "square diagonally forward, en passant as in chess; stays a Pawn on rank 8"
)


@dataclass(frozen=True)
class LegendRow:
    letter: str
    name: str
    moves: str
    value_class: str  # "1" .. "8", or "none" for the King


def describe_moves(kind: PieceKind) -> str:
    """How a kind moves, in words, from its components."""
    if kind.is_pawn:
        return _PAWN
    if kind.is_king:
        return "steps one square any way; never pocketed"
    return "; ".join(words for letter, words in _COMPONENTS if letter in kind.components)


def piece_legend() -> list[LegendRow]:
    """One row per kind, in the engine's order (King, then by class)."""
    return [
        LegendRow(
            kind.letter,
            kind.name,
            describe_moves(kind),
            "none" if kind.is_king else str(kind.value_class),
        )
        for kind in KINDS
    ]
