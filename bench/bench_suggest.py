"""How often a suggestion restores the move a player meant (issue 12).

    python bench/bench_suggest.py [--cases 300] [--seed 12]

Corpus: random legal games from the standard array (moves drawn as in the round-trip
tests: a kind of move first -- pocket moves, en passant, pawn moves, any -- then a move of
that kind, so pockets, drops, en passant and promotions by pocketing all occur). Each
case is one game whose last ply is the intended legal move mistyped in one of the ways
below; the log (canonical plies, then the slip) goes through `gcadj.check_text`, and
the case counts only if that ply is its first illegal ply (a slip that happens to be
legal, or to be another legal move, is no mistake to correct). A case is *restored at 1*
when the first suggestion is the intended move's canonical text, *at 3* when one of the
first three is. `--cases` cases per kind of slip; the same seed gives the same corpus.

Not a test: the targets (>= 90% at 1, >= 98% at 3, over all cases) are reported, and the
exit status is 1 when they are missed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

from gcadj.app.check import check_text
from gcadj.engine.move import Move
from gcadj.engine.pieces import KINDS
from gcadj.engine.position import LAST_RANK, Position
from gcadj.engine.squares import POCKET, square_name
from gcadj.notation.san import gc_text

POCKETS = ("i1", "i8")
Slip = Callable[[Position, Move, random.Random], str | None]


def _is_en_passant(position: Position, move: Move) -> bool:
    f, t, _ = move
    if f >= 64 or t >= 64:
        return False
    piece = position.board[f]
    return bool(
        piece is not None and piece.pawn and position.board[t] is None and (f & 7) != (t & 7)
    )


def _label(position: Position, move: Move) -> str:
    f = move.from_square
    piece = position.pockets[position.turn] if f == POCKET else position.board[f]
    assert piece is not None
    return piece.symbol


def _board_move(position: Position, move: Move) -> bool:
    return move.from_square < 64 and move.to_square < 64 and not _is_en_passant(position, move)


def _neighbour(square: int, rng: random.Random) -> int:
    """A square one file or one rank away."""
    options = []
    file, rank = square & 7, square >> 3
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= file + df < 8 and 0 <= rank + dr < 8:
            options.append(square + df + 8 * dr)
    return rng.choice(options)


# -- the slips -------------------------------------------------------------------------


def ep_wrong_victim(position: Position, move: Move, rng: random.Random) -> str | None:
    """`P c5-d6; c6-`: the preset's help text clears the origin file on the target rank."""
    if not _is_en_passant(position, move):
        return None
    f, t, _ = move
    wrong = square_name((t & ~7) | (f & 7))
    return f"{_label(position, move)} {square_name(f)}-{square_name(t)}; {wrong}-"


def ep_forgotten(position: Position, move: Move, rng: random.Random) -> str | None:
    """`P c5-d6`: the en passant victim left on the board."""
    if not _is_en_passant(position, move):
        return None
    return f"{_label(position, move)} {square_name(move.from_square)}-{square_name(move.to_square)}"


def label_case(position: Position, move: Move, rng: random.Random) -> str | None:
    """`p e2-e4` for White (or the case of a mutation letter: `R h1-i1; i-i1`)."""
    text = gc_text(position, move)
    parts = text.split("; ")
    i = rng.randrange(len(parts)) if move.to_square == POCKET else 0
    if not parts[i][0].isalpha():
        return None
    parts[i] = parts[i][0].swapcase() + parts[i][1:]
    return "; ".join(parts)


def label_letter(position: Position, move: Move, rng: random.Random) -> str | None:
    """`B g1-f3`: another piece's letter, in the right case."""
    text = gc_text(position, move)
    right = text[0]
    letters = [k.letter for k in KINDS if k.letter != right.upper()]
    wrong = rng.choice(letters)
    return (wrong if right.isupper() else wrong.lower()) + text[1:]


def drop_as_placement(position: Position, move: Move, rng: random.Random) -> str | None:
    """`I*c4` or `I-c4` for the drop `I i1-c4`."""
    if move.from_square != POCKET:
        return None
    return f"{_label(position, move)}{rng.choice('*-')}{square_name(move.to_square)}"


def origin_one_off(position: Position, move: Move, rng: random.Random) -> str | None:
    """`N g2-f3` for `N g1-f3` (a board move or a pocketing)."""
    if move.from_square >= 64 or _is_en_passant(position, move):
        return None
    text = gc_text(position, move)
    origin = square_name(move.from_square)
    wrong = square_name(_neighbour(move.from_square, rng))
    if move.to_square < 64 and wrong == square_name(move.to_square):
        return None
    return text.replace(f" {origin}-", f" {wrong}-", 1)


def dest_one_off(position: Position, move: Move, rng: random.Random) -> str | None:
    """`N g1-f4` for `N g1-f3` (a board move or a drop)."""
    if move.to_square >= 64 or _is_en_passant(position, move):
        return None
    text = gc_text(position, move)
    dest = square_name(move.to_square)
    wrong = _neighbour(move.to_square, rng)
    if wrong == move.from_square:
        return None
    return text.replace(f"-{dest}", f"-{square_name(wrong)}", 1)


def promotion_forgotten(position: Position, move: Move, rng: random.Random) -> str | None:
    """`P g8-i1` for `P g8-i1; B-i1`: pocketed from rank 8 without the promotion piece."""
    f, t, kind = move
    if t != POCKET or f >> 3 != LAST_RANK[position.turn]:
        return None
    piece = position.board[f]
    if piece is None or kind is piece.kind:
        return None
    return gc_text(position, move).split("; ")[0]


def squares_swapped(position: Position, move: Move, rng: random.Random) -> str | None:
    """`N f3-g1` for `N g1-f3`."""
    if not _board_move(position, move):
        return None
    o, d = square_name(move.from_square), square_name(move.to_square)
    return f"{_label(position, move)} {d}-{o}"


def wrong_pocket(position: Position, move: Move, rng: random.Random) -> str | None:
    """`I i8-c4` for White's drop `I i1-c4`, or `R h1-i8` for the pocketing `R h1-i1`."""
    if POCKET not in (move.from_square, move.to_square):
        return None
    own, other = POCKETS[position.turn], POCKETS[position.turn ^ 1]
    return gc_text(position, move).replace(own, other, 1)


SLIPS: dict[str, Slip] = {
    "en passant victim on the wrong square": ep_wrong_victim,
    "en passant removal forgotten": ep_forgotten,
    "label in the wrong case": label_case,
    "label with the wrong letter": label_letter,
    "I*c4 / I-c4 for a drop": drop_as_placement,
    "origin one square off": origin_one_off,
    "destination one square off": dest_one_off,
    "promotion piece forgotten": promotion_forgotten,
    "origin and destination swapped": squares_swapped,
    "the other side's pocket": wrong_pocket,
}


# -- the corpus ------------------------------------------------------------------------


def random_move(position: Position, rng: random.Random) -> Move | None:
    """A legal move: first a kind (pocket move, en passant, pawn move, any), then a move."""
    moves = sorted(position.legal_moves(), key=Move.uci)
    if not moves:
        return None
    board = position.board
    buckets = [
        [m for m in moves if POCKET in (m.from_square, m.to_square)],
        [m for m in moves if _is_en_passant(position, m)],
        [m for m in moves if m.from_square < 64 and (p := board[m.from_square]) and p.pawn],
        moves,
    ]
    return rng.choice(rng.choice([b for b in buckets if b]))


def make_case(slip: Slip, rng: random.Random) -> tuple[str, int, str] | None:
    """(log text, 1-based ply of the slip, canonical text of the intended move), or None
    if a random game of up to 120 plies offered no move this slip applies to."""
    position = Position()
    lines: list[str] = []
    start = rng.randrange(0, 60)
    for ply in range(120):
        if position.outcome() is not None:
            return None
        if ply >= start:
            options = []
            for move in sorted(position.legal_moves(), key=Move.uci):
                typed = slip(position, move, rng)
                if typed is not None and typed != gc_text(position, move):
                    options.append((move, typed))
            if options:
                move, typed = rng.choice(options)
                return "\n".join([*lines, typed]) + "\n", ply + 1, gc_text(position, move)
        chosen = random_move(position, rng)
        if chosen is None:
            return None
        lines.append(gc_text(position, chosen))
        position.push(chosen)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=300, help="cases per kind of slip")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--show", action="store_true", help="print every case missed at 1")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    began = time.perf_counter()
    totals = [0, 0, 0, 0]  # cases, at 1, at 3, none
    print(f"{'kind of slip':40} {'cases':>6} {'at 1':>7} {'at 3':>7} {'none':>6}")
    for name, slip in SLIPS.items():
        counts = [0, 0, 0, 0]
        skipped = 0
        while counts[0] < args.cases:
            case = make_case(slip, rng)
            if case is None:
                continue
            text, ply, intended = case
            verdict = check_text(text, f"{name} #{counts[0]}")
            finding = verdict.first_illegal
            if finding is None or finding.ply != ply:
                skipped += 1  # the slip is legal here: nothing to correct
                continue
            texts = [s.text for s in finding.suggestions]
            counts[0] += 1
            counts[1] += texts[:1] == [intended]
            counts[2] += intended in texts[:3]
            counts[3] += not texts
            if args.show and texts[:1] != [intended]:
                print(f"   MISS {finding.text!r} meant {intended!r}: {texts} [{finding.category}]")
        n = counts[0]
        print(
            f"{name:40} {n:6} {counts[1] / n:7.1%} {counts[2] / n:7.1%} {counts[3] / n:6.1%}"
            f"   ({skipped} legal slips skipped)"
        )
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
    n = totals[0]
    at1, at3 = totals[1] / n, totals[2] / n
    print(f"{'all':40} {n:6} {at1:7.1%} {at3:7.1%} {totals[3] / n:6.1%}")
    print(
        f"targets: at 1 >= 90% {'met' if at1 >= 0.9 else 'MISSED'}, "
        f"at 3 >= 98% {'met' if at3 >= 0.98 else 'MISSED'}"
        f"  ({time.perf_counter() - began:.0f} s, seed {args.seed})"
    )
    return 0 if at1 >= 0.9 and at3 >= 0.98 else 1


if __name__ == "__main__":
    sys.exit(main())
