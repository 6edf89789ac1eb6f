"""The `Move` value: a board move, a pocketing or a drop.

A move is a small immutable tuple so the generator can hand out precomputed instances
instead of building new objects at every node (the tables at the bottom). Its text form
extends UCI the way Crazyhouse does:

* ``e2e4`` — a board move (en passant is a pawn's diagonal move to the en passant square);
* ``h1@I`` — pocket the piece on h1, which becomes (mutates or promotes to) an ``I``;
* ``I@c4`` — drop the pocketed ``I`` on c4.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from gcadj.engine.pieces import KIND, KINDS, PieceKind
from gcadj.engine.squares import POCKET, parse_square, square_name


class Move(NamedTuple):
    """`from_square`/`to_square` are 0..63 or `POCKET`; `kind` is the pocketed or dropped kind.

    Examples:
        >>> move = Move.from_uci("e2e4")
        >>> move.from_square, move.to_square, move.kind  # squares: a1 = 0 ... h8 = 63
        (12, 28, None)
        >>> pocketing = Move.from_uci("h1@I")
        >>> pocketing.is_pocketing, pocketing.kind.name
        (True, 'Nightrider')
    """

    from_square: int
    to_square: int
    kind: PieceKind | None = None

    @property
    def is_pocketing(self) -> bool:
        return self.to_square == POCKET

    @property
    def is_drop(self) -> bool:
        return self.from_square == POCKET

    def uci(self) -> str:
        """The move's text: ``e2e4``, ``h1@I`` (pocketing) or ``I@c4`` (drop).

        Examples:
            >>> Move.from_uci("I@c4").uci(), str(Move.from_uci("I@c4"))
            ('I@c4', 'I@c4')
        """
        if self.to_square == POCKET:
            assert self.kind is not None
            return f"{square_name(self.from_square)}@{self.kind.letter}"
        if self.from_square == POCKET:
            assert self.kind is not None
            return f"{self.kind.letter}@{square_name(self.to_square)}"
        return square_name(self.from_square) + square_name(self.to_square)

    @classmethod
    def from_uci(cls, text: str) -> Move:
        """Parse ``e2e4``, ``h1@I`` or ``I@c4``; raises ValueError with the reason.

        Examples:
            >>> Move.from_uci("I@c4").is_drop
            True
            >>> Move.from_uci("e2-e4")
            Traceback (most recent call last):
            ...
            ValueError: not a move: 'e2-e4' (expected e2e4, h1@I or I@c4)
        """
        try:
            if len(text) == 4 and text[2] == "@" and text[3].upper() in KIND:
                return cls(parse_square(text[:2]), POCKET, KIND[text[3].upper()])
            if len(text) == 4 and text[1] == "@" and text[0].upper() in KIND:
                return cls(POCKET, parse_square(text[2:]), KIND[text[0].upper()])
            if len(text) == 4:
                return cls(parse_square(text[:2]), parse_square(text[2:]))
        except ValueError:
            pass
        raise ValueError(f"not a move: {text!r} (expected e2e4, h1@I or I@c4)")

    def __str__(self) -> str:
        return self.uci()

    def __repr__(self) -> str:
        return f"Move.from_uci({self.uci()!r})"


# Precomputed instances: the generator indexes these instead of allocating. Made with
# tuple.__new__, which skips the named tuple's argument handling: 6,500 moves are made at
# every start-up.
_new = tuple.__new__
BOARD_MOVES: Final[tuple[tuple[Move, ...], ...]] = tuple(
    tuple(_new(Move, (f, t, None)) for t in range(64)) for f in range(64)
)
POCKET_MOVES: Final[tuple[tuple[Move, ...], ...]] = tuple(
    tuple(_new(Move, (f, POCKET, kind)) for kind in KINDS) for f in range(64)
)
DROP_MOVES: Final[tuple[tuple[Move, ...], ...]] = tuple(
    tuple(_new(Move, (POCKET, t, kind)) for t in range(64)) for kind in KINDS
)
