"""Random Pocket Mutation Chess games as Game Courier logs, from a fixed seed.

    python bench/random_corpus.py OUT_DIR [--games 600] [--seed 20240521]

Two users, one generator:

* CI (.ci/run) writes a corpus with it and checks that the compiled and the pure-Python
  builds give byte-identical ``gcadj check --json`` output on it: legal games, illegal
  plies (a sub-move changed), unreadable lines, set-up starts (FEN tags), the ``p`` pocket
  file (in OUT_DIR/p, for ``--pocket-file p``), move numbers, comments and status lines,
  so every branch of the judge and the reader runs in both builds;
* bench/bench_long.py times long games rich in pocketing and drops (`long_game`).

Every legal ply is written by gcadj's own writer (`gcadj.notation.san.gc_text`), so the
games are in the notation gcadj documents; the same seed gives the same files.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from gcadj.engine.move import Move
from gcadj.engine.position import Position
from gcadj.engine.squares import POCKET
from gcadj.notation.san import gc_text

SEED = 20240521
STATUS_LINES = (
    "Alice has resigned.",
    "Bob has resigned.",
    "Alice has lost on time.",
    "The game was drawn by agreement.",
    "Somebody else has resigned.",
)


def pick_move(position: Position, rng: random.Random, fairy_bias: float) -> Move | None:
    """A random legal move; with probability `fairy_bias` a pocketing or drop when any exists."""
    moves = position.legal_moves()
    if not moves:
        return None
    fairy = [m for m in moves if POCKET in (m.from_square, m.to_square)]
    if fairy and rng.random() < fairy_bias:
        return rng.choice(fairy)
    return rng.choice(moves)


def long_game(rng: random.Random, plies: int, fairy_bias: float = 0.35) -> tuple[list[str], int]:
    """A legal game of up to `plies` plies from the standard array, as Game Courier plies,
    and how many of them are pocket moves or drops. It stops early only where the game
    ends (mate, stalemate, a drawn end)."""
    position = Position()
    texts: list[str] = []
    fairy = 0
    for _ in range(plies):
        if position.outcome() is not None:
            break
        move = pick_move(position, rng, fairy_bias)
        if move is None:
            break
        fairy += POCKET in (move.from_square, move.to_square)
        texts.append(gc_text(position, move))
        position.push(move)
    return texts, fairy


def _corrupt(ply: str, rng: random.Random) -> str:
    """The ply with one thing changed: a square, a label, or an extra sub-move."""
    choice = rng.random()
    if choice < 0.4:
        squares = [f + r for f in "abcdefgh" for r in "12345678"]
        names = [s for s in squares if s in ply]
        if names:
            return ply.replace(rng.choice(names), rng.choice(squares), 1)
    if choice < 0.7 and len(ply) > 1 and ply[1] == " ":
        return rng.choice("KQRBNPIDAGMUVFWXTHZkqrbnpi") + ply[1:]
    return f"{ply}; {rng.choice(['@-e4', 'd5-', 'capture a1', 'Q*d4', 'N-h3'])}"


def corpus_game(rng: random.Random, pocket_file: str = "i") -> str:
    """One log of the CI corpus: a random mix of what logs hold, its pockets on the
    `pocket_file` (``--pocket-file`` reads it)."""
    lines: list[str] = []
    position = Position()
    if rng.random() < 0.5:
        lines += ['[White "Alice"]', '[Black "Bob"]']
    if rng.random() < 0.2:  # a set-up start reached by random moves
        for _ in range(rng.randrange(2, 30)):
            move = pick_move(position, rng, 0.5)
            if move is None or position.outcome() is not None:
                break
            position.push(move)
        if position.outcome() is None:
            lines.append(f'[FEN "{position.fen()}"]')
            position = Position(position.fen())
        else:
            position = Position()
    numbered = rng.random() < 0.3
    plies = rng.choice([0, 1, 5, 20, 60, 150])
    for index in range(plies):
        if position.outcome() is not None:
            break
        move = pick_move(position, rng, rng.choice([0.0, 0.3, 0.7]))
        if move is None:
            break
        ply = gc_text(position, move, pocket_file)
        position.push(move)
        if numbered:
            ply = f"{index // 2 + 1}{'.' if index % 2 == 0 else '...'} {ply}"
        if rng.random() < 0.05:
            ply += f" // note {index}"
        lines.append(ply)
    ending = rng.random()
    if ending < 0.3 and lines:  # an illegal ply, and sometimes more plies after it
        move = pick_move(position, rng, 0.5)
        if move is None or position.outcome() is not None:
            lines.append("P a2-a3")  # a ply after the end of the game
        else:
            lines.append(_corrupt(gc_text(position, move, pocket_file), rng))
        for _ in range(rng.randrange(0, 4)):
            lines.append(f"P {rng.choice('abcdefgh')}2-{rng.choice('abcdefgh')}4")
    elif ending < 0.4:  # a line the reader cannot read
        lines.append(rng.choice(["e4", "Nf3", "O-O", "P e2-e9", "K e1-g1!!", "1-0"]))
    elif ending < 0.55:
        lines.insert(0, f'[Status "{rng.choice(STATUS_LINES)}"]')
    return "\n".join(lines) + "\n"


def write_corpus(folder: Path, games: int, seed: int = SEED) -> list[Path]:
    """`games` logs, the same for the same seed: one in seven in `folder`/p (pockets on
    the p file, the newer preset's), the others in `folder`/i."""
    rng = random.Random(seed)
    paths = []
    for number in range(games):
        pocket_file = "p" if number % 7 == 6 else "i"
        path = folder / pocket_file / f"game{number:04d}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(corpus_game(rng, pocket_file), encoding="utf-8")
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path, help="folder to write the logs into")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    paths = write_corpus(args.out, args.games, args.seed)
    print(f"{len(paths)} random logs in {args.out} (seed {args.seed})")


if __name__ == "__main__":
    main()
