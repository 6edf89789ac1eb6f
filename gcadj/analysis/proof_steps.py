"""A proof tree's first moves with the positions they lead to, for a viewer to draw (the
proof's defences, a defence at a time), made once where the proof is made.

The viewer never plays a move (`gcadj.outputs.viewer` reads positions, never makes them),
so the positions of the tree's moves are recorded here, from the prover's own tree
(`gcadj.analysis.search.ProofNode`, a proof the checker accepted), as `ProofMove`s. A
proof tree can hold 200,000 moves: it is drawn level by level (the winner's first move,
every defence to it, the answer to each, ...), a level only when all of it fits within
`DRAWN_LIMIT` moves, so what is drawn is always whole levels: every defence at a depth
with its answer, or none of them.
"""

from __future__ import annotations

from typing import Final

from gcadj.analysis.search import ProofNode
from gcadj.engine.move import Move
from gcadj.engine.position import Position
from gcadj.judging.adjudication import LineStep, ProofMove
from gcadj.notation.san import gc_text, move_san
from gcadj.vocabulary import PocketFile

DRAWN_LIMIT: Final = 400
"""The most moves of a proof tree a viewer draws (each is a position of the page)."""


def drawn_depth(node: ProofNode, limit: int = DRAWN_LIMIT) -> int:
    """How many levels of moves of the tree fit within `limit` moves, whole levels only
    (a level: the moves at one distance from the root)."""
    level: list[ProofNode] = [node]
    moves, depth = 0, 0
    while level:
        # the moves of the next two levels: the nodes' own moves, then their defences
        own = sum(n.move is not None for n in level)
        if own:
            if moves + own > limit:
                return depth
            moves += own
            depth += 1
        defences = sum(len(n.replies) for n in level)
        if not defences:
            return depth
        if moves + defences > limit:
            return depth
        moves += defences
        depth += 1
        level = [answer for n in level for _, answer in n.replies]
    return depth


def drawn_tree(
    position: Position, node: ProofNode, pocket_file: PocketFile, limit: int = DRAWN_LIMIT
) -> tuple[tuple[ProofMove, ...], int]:
    """The tree's moves from `position` (not changed), down to the levels that fit within
    `limit` moves (`drawn_depth`), each with the position it leads to; and how many moves
    that is."""
    depth = drawn_depth(node, limit)
    walk = position.copy()
    counted = [0]
    if node.move is None:  # the side to move is mated: each of its moves is a root
        drawn = _defences(walk, node, pocket_file, depth, counted)
    elif depth == 0:
        drawn = ()
    else:
        drawn = (_attack(walk, node.move, node, pocket_file, depth - 1, counted),)
    return drawn, counted[0]


def _played(position: Position, move: Move, pocket_file: PocketFile) -> tuple[str, str, LineStep]:
    text = gc_text(position, move, pocket_file)
    san = move_san(position, move)
    position.push_trusted(move)  # a move of a checked proof: legal
    return text, san, LineStep(move, position.fen())


def _attack(
    position: Position,
    move: Move,
    node: ProofNode,
    pocket_file: PocketFile,
    depth: int,
    counted: list[int],
) -> ProofMove:
    """The winner's `move` and, within `depth` more levels, every defence to it."""
    text, san, step = _played(position, move, pocket_file)
    counted[0] += 1
    answers = _defences(position, node, pocket_file, depth, counted)
    position.pop()
    return ProofMove(text, san, step, answers)


def _defences(
    position: Position, node: ProofNode, pocket_file: PocketFile, depth: int, counted: list[int]
) -> tuple[ProofMove, ...]:
    """Each defence of `node` with the winner's answer, within `depth` levels."""
    if depth <= 0:
        return ()
    out = []
    for reply, answer in node.replies:
        text, san, step = _played(position, reply, pocket_file)
        counted[0] += 1
        answers: tuple[ProofMove, ...] = ()
        if depth > 1 and answer.move is not None:
            answers = (_attack(position, answer.move, answer, pocket_file, depth - 2, counted),)
        position.pop()
        out.append(ProofMove(text, san, step, answers))
    return tuple(out)


__all__ = ["DRAWN_LIMIT", "drawn_depth", "drawn_tree"]
