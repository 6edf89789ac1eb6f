"""Random legal games written as Game Courier plies, the brute-force oracle that judges a
ply by the boards it could leave, and the corruption of a ply: shared by the property tests."""

from __future__ import annotations

import random

from gcadj.engine.move import Move
from gcadj.engine.pieces import PIECES
from gcadj.engine.position import Position
from gcadj.engine.squares import POCKET, WHITE, square_name

Board = dict[str, str]  # square name -> piece symbol (absent = empty)
POCKET_NAMES = ("i1", "i8")


def board_of(position: Position) -> Board:
    board = {square_name(sq): p.symbol for sq, p in enumerate(position.board) if p is not None}
    for color, piece in enumerate(position.pockets):
        if piece is not None:
            board[POCKET_NAMES[color]] = piece.symbol
    return board


def apply_literally(board: Board, ply: str) -> Board | None:
    """Game Courier's literal execution; None where the site would stop (empty origin, label)."""
    out = dict(board)
    for sub in (s.strip() for s in ply.split(";")):
        if not sub:
            continue
        if sub.startswith("capture "):
            for name in sub.split()[1:]:
                out.pop(name, None)
        elif sub.startswith("@-"):
            out.pop(sub[2:], None)
        elif sub.endswith("-"):
            out.pop(sub[:-1], None)
        elif len(sub) == 4 and sub[1] in "-*":  # L-d / L*d
            out[sub[2:]] = sub[0]
        else:
            label, _, step = sub.rpartition(" ")
            origin, target = step.split("-")
            if origin not in out or (label and out[origin] != label):
                return None
            out[target] = out.pop(origin)
    return out


def oracle_moves(position: Position, ply: str) -> list[Move]:
    """Every legal move whose board equals the literal board of `ply`."""
    literal = apply_literally(board_of(position), ply)
    matches = []
    for move in position.legal_moves():
        position.push(move)
        if board_of(position) == literal:
            matches.append(move)
        position.pop()
    return matches


def write_ply(position: Position, move: Move, rng: random.Random) -> str:
    """One of the accepted ways to write `move` in Game Courier notation."""
    us = position.turn
    pocket = POCKET_NAMES[us]

    def label(symbol: str) -> str:
        return f"{symbol} " if rng.random() < 0.7 else ""

    f, t, kind = move
    if f == POCKET:
        held = position.pockets[us]
        assert held is not None
        return f"{label(held.symbol)}{pocket}-{square_name(t)}"
    piece = position.board[f]
    assert piece is not None
    if t == POCKET:
        assert kind is not None
        text = f"{label(piece.symbol)}{square_name(f)}-{pocket}"
        becomes = PIECES[us][kind.index].symbol
        if kind is not piece.kind or rng.random() < 0.2:
            text += f"; {becomes}{rng.choice('-*')}{pocket}"
        return text
    text = f"{label(piece.symbol)}{square_name(f)}-{square_name(t)}"
    if piece.pawn and t == position.ep_square and (f & 7) != (t & 7):
        victim = square_name(t - 8 if us == WHITE else t + 8)
        text += "; " + rng.choice([f"{victim}-", f"@-{victim}", f"capture {victim}"])
    return text


def random_game(rng: random.Random, plies: int) -> tuple[list[str], Position]:
    """Plies as text and the final position; biased towards pocket moves and en passant."""
    position = Position()
    texts: list[str] = []
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves or position.outcome() is not None:
            break
        special = [m for m in moves if m.from_square == POCKET or m.to_square == POCKET]
        special += [m for m in moves if m.to_square == position.ep_square]
        move = rng.choice(special if special and rng.random() < 0.4 else moves)
        texts.append(write_ply(position, move, rng))
        position.push(move)
    return texts, position


def corrupt(ply: str, rng: random.Random) -> str:
    """Change one sub-move: a label, a square, a placed letter, or drop a sub-move."""
    subs = [s.strip() for s in ply.split(";")]
    i = rng.randrange(len(subs))
    sub = subs[i]
    choice = rng.random()
    squares = [f + r for f in "abcdefgh" for r in "12345678"] + list(POCKET_NAMES)
    if len(subs) > 1 and choice < 0.2:
        del subs[i]
    elif len(sub) == 4 and sub[1] in "-*":
        subs[i] = rng.choice("PBNRIDAGQMUVFWXTHZpbnridagqmuvfwxthz") + sub[1:]
    elif " " in sub and not sub.startswith("capture") and choice < 0.5:
        step = sub.rpartition(" ")[2]
        subs[i] = f"{rng.choice('KQRBNPIkqrbnpi')} {step}"
    else:
        names = [w for w in squares if w in sub]
        if names:
            subs[i] = sub.replace(rng.choice(names), rng.choice(squares), 1)
    return "; ".join(subs)
