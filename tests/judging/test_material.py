"""Material by class on built positions, counted here from the table of docs/rules.md §1."""

from __future__ import annotations

import pytest

from gcadj.engine.position import Position
from gcadj.judging.material import material

# docs/rules.md §1, written out again: the letter of every piece but the King, its class.
CLASS_OF = {
    "P": 1,
    "B": 2,
    "N": 2,
    "R": 3,
    "I": 3,
    "D": 3,
    "A": 4,
    "G": 4,
    "Q": 5,
    "M": 5,
    "U": 5,
    "V": 5,
    "F": 6,
    "W": 6,
    "X": 6,
    "T": 7,
    "H": 7,
    "Z": 8,
}


def counted_by_hand(fen: str, white: bool) -> tuple[dict[str, int], int, str | None]:
    """(by class, total, pocket) of one side, read off the FEN's text."""
    placement, rest = fen.split("[", 1)
    pockets = rest.split("]", 1)[0]
    mine = [c for c in placement + pockets if c.isalpha() and c.isupper() == white]
    by_class = {str(n): 0 for n in range(1, 9)}
    for letter in mine:
        if letter.upper() != "K":
            by_class[str(CLASS_OF[letter.upper()])] += 1
    total = sum(CLASS_OF[c.upper()] for c in mine if c.upper() != "K")
    pocket = next((c for c in pockets if c.isupper() == white), None)
    return by_class, total, pocket


@pytest.mark.parametrize(
    "fen",
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3[Zi] w - - 0 1",  # only the pockets count
        "4k3/8/8/8/8/8/8/4K3[] w - - 0 1",  # bare Kings
        "zhtxwfvu/mqgadirn/bp2k3/8/8/8/8/4K3[] w - - 0 1",  # every kind
        "ZHTXWFVU/MQGADIRN/BP2K3/8/8/8/8/7k[q] b - - 0 1",
    ],
)
def test_material_is_counted_per_class_with_the_pocket(fen: str) -> None:
    counted = material(Position(fen))
    for side, white in ((counted.white, True), (counted.black, False)):
        by_class, total, pocket = counted_by_hand(fen, white)
        assert side.to_json() == {"total": total, "by_class": by_class, "pocket": pocket}
        assert side.bare == (total == 0)
    assert counted.lead == counted.white.total - counted.black.total


def test_the_opening_array_and_a_pocketed_amazonrider() -> None:
    start = material(Position("startpos"))
    assert start.white.total == start.black.total == 8 + 4 * 2 + 2 * 3 + 5 == 27
    assert start.lead == 0 and start.white.by_class == (8, 4, 2, 0, 1, 0, 0, 0)
    held = material(Position("4k3/8/8/8/8/8/8/4K3[Z] w - - 0 1"))
    assert held.to_json() == {
        "white": {
            "total": 8,
            "by_class": {"1": 0, "2": 0, "3": 0, "4": 0, "5": 0, "6": 0, "7": 0, "8": 1},
            "pocket": "Z",
        },
        "black": {
            "total": 0,
            "by_class": {str(n): 0 for n in range(1, 9)},
            "pocket": None,
        },
    }
    assert held.black.bare and not held.white.bare and held.lead == 8
