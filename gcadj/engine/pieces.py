"""The King and the eighteen piece kinds of Pocket Mutation Chess, as data (docs/rules.md §1).

A kind is its components: K (one king step), N (knight leap), B (diagonal slide),
R (orthogonal slide), I (Nightrider: repeated knight leaps in one direction), and P for
the pawn's own moves. Everything the move generator and the attack test need is derived
from the components here, once, into per-square tables and a few booleans, so movement
code never asks *which* piece it has, only *how* it moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from gcadj.engine.squares import (
    BLACK,
    DIAGONAL_VECTORS,
    KING_VECTORS,
    KNIGHT_VECTORS,
    ORTHOGONAL_VECTORS,
    WHITE,
    Ray,
    rays_for,
    steps_for,
)


@dataclass(frozen=True, eq=False)
class PieceKind:
    """One kind of piece. Kinds are singletons (compared by identity), listed in `KINDS`."""

    index: int
    letter: str  # Game Courier label, upper case
    name: str
    value_class: int  # 1..8; 0 for the King, which has no class
    components: str  # letters from "KNBRIP"
    leaps: tuple[tuple[int, ...], ...] = field(repr=False)  # per square: step/leap targets
    rays: tuple[tuple[Ray, ...], ...] = field(repr=False)  # per square: slide/ride rays

    @property
    def is_king(self) -> bool:
        return self.value_class == 0

    @property
    def is_pawn(self) -> bool:
        return "P" in self.components

    def __repr__(self) -> str:
        return f"KIND[{self.letter!r}]"

    def __reduce__(self) -> tuple[Any, ...]:
        return (kind_by_letter, (self.letter,))  # unpickled as the same singleton


def _make_kind(index: int, letter: str, name: str, value_class: int, components: str) -> PieceKind:
    """Derive the movement tables from the components.

    Rays win over steps in the same direction (a SuperBishop's diagonal king steps are the
    first squares of its bishop rays; a Nightrider's knight leaps the first of its rider
    rays), so every destination is produced exactly once.
    """
    ray_vectors: tuple[tuple[int, int], ...] = ()
    if "B" in components:
        ray_vectors += DIAGONAL_VECTORS
    if "R" in components:
        ray_vectors += ORTHOGONAL_VECTORS
    if "I" in components:
        ray_vectors += KNIGHT_VECTORS
    step_vectors: tuple[tuple[int, int], ...] = ()
    if "K" in components:
        step_vectors += tuple(v for v in KING_VECTORS if v not in ray_vectors)
    if "N" in components:
        step_vectors += tuple(v for v in KNIGHT_VECTORS if v not in ray_vectors)
    return PieceKind(
        index=index,
        letter=letter,
        name=name,
        value_class=value_class,
        components=components,
        leaps=steps_for(step_vectors),
        rays=rays_for(ray_vectors),
    )


_KIND_DATA = (
    # letter, name, class, components
    ("K", "King", 0, "K"),
    ("P", "Pawn", 1, "P"),
    ("B", "Bishop", 2, "B"),
    ("N", "Knight", 2, "N"),
    ("R", "Rook", 3, "R"),
    ("I", "Nightrider", 3, "I"),
    ("D", "SuperBishop", 3, "BK"),
    ("A", "Cardinal", 4, "BN"),
    ("G", "SuperRook", 4, "RK"),
    ("Q", "Queen", 5, "BR"),
    ("M", "Chancellor", 5, "RN"),
    ("U", "CardinalRider", 5, "BI"),
    ("V", "SuperCardinal", 5, "BNK"),
    ("F", "ChancellorRider", 6, "RI"),
    ("W", "SuperChancellor", 6, "RNK"),
    ("X", "SuperCardinalRider", 6, "BIK"),
    ("T", "Amazon", 7, "BRN"),
    ("H", "SuperChancellorRider", 7, "RIK"),
    ("Z", "AmazonRider", 8, "BRI"),
)

KINDS: Final[tuple[PieceKind, ...]] = tuple(
    _make_kind(i, letter, name, cls, comps)
    for i, (letter, name, cls, comps) in enumerate(_KIND_DATA)
)
KIND: Final[dict[str, PieceKind]] = {kind.letter: kind for kind in KINDS}
"""Kinds by upper-case letter."""
KING: Final = KIND["K"]
PAWN: Final = KIND["P"]
HIGHEST_CLASS: Final = max(kind.value_class for kind in KINDS)

CLASS_MEMBERS: Final[dict[int, tuple[PieceKind, ...]]] = {
    c: tuple(kind for kind in KINDS if kind.value_class == c) for c in range(1, HIGHEST_CLASS + 1)
}


def mutation_choices(kind: PieceKind) -> tuple[PieceKind, ...]:
    """What a piece pocketed from ranks 1-7 may become: any kind of its class, itself included."""
    return CLASS_MEMBERS[kind.value_class]


def promotion_choices(kind: PieceKind) -> tuple[PieceKind, ...]:
    """What a piece pocketed from its rank 8 must become: a kind of the next class.

    The AmazonRider (class 8) has no higher class and stays an AmazonRider (docs/rules.md §3).
    """
    return CLASS_MEMBERS.get(kind.value_class + 1, (kind,))


@dataclass(frozen=True, eq=False)
class Piece:
    """A kind with a colour. The 38 pieces are singletons: `PIECES[color][kind.index]`.

    The booleans are the kind's components flattened for the attack test, which is the
    hottest code in the engine: it reads `piece.diagonal` rather than asking the kind.
    """

    kind: PieceKind
    color: int
    symbol: str  # FEN / Game Courier letter: upper case White, lower case Black
    diagonal: bool  # slides diagonally (B component)
    orthogonal: bool  # slides orthogonally (R component)
    nightrider: bool  # rides knight lines (I component)
    knight: bool  # attacks a knight leap away (N or I component)
    king_step: bool  # attacks one step away in every direction (K component, the King)
    pawn: bool
    king: bool  # this is a King (never pocketed; tracked by the position)
    rides: tuple[bool, bool, bool]  # slides along diagonal, orthogonal, knight lines
    near: tuple[bool, bool, bool]  # also attacks the first square of such a line (not pawns)
    # attacks[from * 64 + to]: ATTACKS_DIRECTLY when the piece on `from` attacks `to`
    # whatever stands between, ATTACKS_ALONG when it does once the squares between are
    # empty, else 0 -- "does this piece attack that square?" in one look, which is how the
    # attack test asks it when the attacker has only a few pieces.
    attacks: bytes = field(repr=False)

    def __repr__(self) -> str:
        return f"PIECE[{self.symbol!r}]"

    def __reduce__(self) -> tuple[Any, ...]:
        return (piece_by_symbol, (self.symbol,))  # unpickled as the same singleton


def _make_piece(kind: PieceKind, color: int) -> Piece:
    comps = kind.components
    return Piece(
        kind=kind,
        color=color,
        symbol=kind.letter if color == WHITE else kind.letter.lower(),
        diagonal="B" in comps,
        orthogonal="R" in comps,
        nightrider="I" in comps,
        knight="N" in comps or "I" in comps,
        king_step="K" in comps,
        pawn="P" in comps,
        king=kind.is_king,
        rides=("B" in comps, "R" in comps, "I" in comps),
        near=("K" in comps, "K" in comps, "N" in comps or "I" in comps),
        attacks=_attack_table(kind, color),
    )


ATTACKS_DIRECTLY: Final = 1
ATTACKS_ALONG: Final = 2
_PAWN_CAPTURE_VECTORS: Final = (((1, 1), (-1, 1)), ((1, -1), (-1, -1)))  # per colour
_ATTACK_TABLES: dict[tuple[str, int], bytes] = {}


def _attack_table(kind: PieceKind, color: int) -> bytes:
    """`Piece.attacks` of a `color` piece of `kind` (made once per kind, the Pawn once per
    colour): its leaps and the first square of each ray attack directly, the rest of a ray
    along it; a Pawn attacks diagonally forward."""
    cache_key = (kind.letter, color if kind.is_pawn else WHITE)
    table = _ATTACK_TABLES.get(cache_key)
    if table is not None:
        return table
    codes = bytearray(64 * 64)
    leaps = steps_for(_PAWN_CAPTURE_VECTORS[color]) if kind.is_pawn else kind.leaps
    for f in range(64):
        row = f * 64
        for t in leaps[f]:
            codes[row + t] = ATTACKS_DIRECTLY
        for ray in kind.rays[f]:
            codes[row + ray[0]] = ATTACKS_DIRECTLY
            for t in ray[1:]:
                codes[row + t] = ATTACKS_ALONG
    table = _ATTACK_TABLES[cache_key] = bytes(codes)
    return table


PIECES: Final[tuple[tuple[Piece, ...], tuple[Piece, ...]]] = (
    tuple(_make_piece(kind, WHITE) for kind in KINDS),
    tuple(_make_piece(kind, BLACK) for kind in KINDS),
)
PIECE: Final[dict[str, Piece]] = {p.symbol: p for side in PIECES for p in side}
"""Pieces by symbol: 'Q' is the White Queen, 'q' the Black one."""


def kind_by_letter(letter: str) -> PieceKind:
    """The kind of that upper-case letter (how a pickled kind comes back: the singleton)."""
    return KIND[letter]


def piece_by_symbol(symbol: str) -> Piece:
    """The piece of that symbol (how a pickled piece comes back: the singleton)."""
    return PIECE[symbol]


__all__ = [
    "BLACK",
    "CLASS_MEMBERS",
    "KIND",
    "KINDS",
    "KING",
    "PAWN",
    "PIECE",
    "PIECES",
    "WHITE",
    "Piece",
    "PieceKind",
    "mutation_choices",
    "promotion_choices",
]
