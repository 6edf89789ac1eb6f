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


# -- logs of every kind, for the read-back property -------------------------------------

# Plies no reader can read, whatever the position; {other} is the other preset's pocket
# file, whose squares do not exist on the game's board.
TYPOS = (
    "Nc6",
    "P e2-e9",
    "1. e4 e5",
    "O-O",
    "P e2e4 // a typo",
    "N g1-f3 x",
    '[White "late"]',
    "R h1-{other}1",
    "q d8-{other}8; m-{other}8",
    "P e2-e4 }",
    "{ P e2-e4",
)
ILLEGAL = ("K e1-e5", "p a7-a5", "I {pocket}1-d4", "P e2-e5")
COMMENT_CHARS = "abc xyz{};:\"'()@-/\\01 gcadj"


def random_log(rng: random.Random) -> tuple[str, str]:
    """(text, pocket file): a Game Courier log of one of every kind gcadj reads: either
    preset (its PocketFile tag or not), tags, a set-up start or not, random legal plies
    (biased to drops, pocketing and en passant, written canonically on the game's own
    preset) with comments, then perhaps an illegal ply and perhaps an unreadable one
    somewhere, the plies after them kept."""
    from gcadj.notation.san import gc_text

    pocket_file = rng.choice("ip")
    other = "p" if pocket_file == "i" else "i"

    def comment() -> str:
        return "".join(rng.choice(COMMENT_CHARS) for _ in range(rng.randrange(12))).strip()

    lines = [f'[White "{comment().replace(chr(34), "")}"]', '[Event "random"]']
    if pocket_file == "p" and rng.random() < 0.5:
        lines.append('[PocketFile "p"]')
    position = Position()
    if rng.random() < 0.25:  # a set-up start, reached from the array
        for _ in range(rng.randrange(1, 9)):
            moves = position.legal_moves()
            if not moves:
                break
            position.push(rng.choice(moves))
        if position.legal_moves():
            lines.append(f'[FEN "{position.fen()}"]')
            position = Position(position.fen())
        else:
            position = Position()
    plies: list[str] = []
    for _ in range(rng.randrange(1, 41)):
        moves = position.legal_moves()
        if not moves or position.outcome() is not None:
            break
        en_passant = [
            m
            for m in moves
            if m.to_square == position.ep_square
            and m.from_square < 64
            and (p := position.board[m.from_square]) is not None
            and p.pawn
        ]
        special = [m for m in moves if m.from_square == POCKET or m.to_square == POCKET]
        pawns = [
            m
            for m in moves
            if m.from_square < 64 and (p := position.board[m.from_square]) and p.pawn
        ]
        if en_passant and rng.random() < 0.9:
            move = rng.choice(en_passant)
        elif special and rng.random() < 0.4:
            move = rng.choice(special)
        else:
            move = rng.choice(pawns if pawns and rng.random() < 0.4 else moves)
        ply = gc_text(position, move, pocket_file)
        if rng.random() < 0.2:
            ply += f" // {comment()}"
        plies.append(ply)
        position.push(move)
    kind = rng.choice(["legal", "illegal", "unreadable", "both"])
    if kind in ("illegal", "both"):
        plies.insert(
            rng.randrange(len(plies) + 1), rng.choice(ILLEGAL).replace("{pocket}", pocket_file)
        )
    if kind in ("unreadable", "both"):
        typo = rng.choice(TYPOS).replace("{other}", other)
        plies.insert(rng.randrange(1, len(plies) + 1) if plies else 0, typo)
    return "\n".join([*lines, *plies]) + "\n", pocket_file
