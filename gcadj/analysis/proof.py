"""A proof of a forced mate, written for people and programs: Game Courier text, SAN, JSON.

The prover's tree (`gcadj.analysis.search.ProofNode`) holds engine moves; this module writes
each move as the canonical Game Courier ply a player would type (`gcadj.notation.san.gc_text`,
the text the ``gc`` export writes), so that a proof can be read back by anything that reads
a log: `gcadj.analysis.proof_check` does exactly that.

The JSON shape (the ``tree`` of ``gcadj adjudicate --json``) has two forms:

* a **tree**, for a proof of at most `gcadj.analysis.search.TREE_LIMIT` moves: a node is
  ``{"move": GC text of the winner's move, "replies": {GC text of a defence: node}}``; a
  mating move has ``"replies": {}``; when the side to move is the one mated, the root is
  ``{"move": null, "replies": {each of its moves: node}}``;
* a **graph**, for a larger one, where a position reached on several lines is written once:
  ``{"root": id, "nodes": {id: {"move": ..., "replies": {defence: id}}}}``, each node as in
  a tree but its replies naming other nodes by their ids (strings, "0" the root, then in
  the order a depth-first walk meets them). Each node stands for one position (the
  winner's, or the loser's at a null root), and no two nodes for the same one.

The mating line (`mating_line`) is the principal variation: the winner's moves of the tree
and, at each defence, the one that holds out longest (the first of them in the tree's
order), down to the mate.
"""

from __future__ import annotations

from dataclasses import dataclass

from gcadj.analysis.search import Proof, ProofNode
from gcadj.engine.move import Move
from gcadj.engine.position import Position
from gcadj.judging.adjudication import LineStep, Tree
from gcadj.notation.san import gc_text, move_san
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile


@dataclass(frozen=True)
class Line:
    """A line of moves from a position, in Game Courier text and in SAN, with each move's
    position after it."""

    gc: tuple[str, ...]
    san: tuple[str, ...]
    steps: tuple[LineStep, ...]


def proof_json(
    position: Position, proof: Proof, pocket_file: PocketFile = DEFAULT_POCKET_FILE
) -> Tree:
    """The JSON of a proof from `position` (not changed): a graph when the prover says so
    (`Proof.graph`), else a tree."""
    if proof.graph:
        return graph_json(position, proof.tree, pocket_file)
    return tree_json(position, proof.tree, pocket_file)


def tree_json(
    position: Position, node: ProofNode, pocket_file: PocketFile = DEFAULT_POCKET_FILE
) -> Tree:
    """The JSON of a proof written as a tree from `position` (not changed): a node shared
    by several lines is written on each."""
    return _node_json(position.copy(), node, pocket_file)


def graph_json(
    position: Position, root: ProofNode, pocket_file: PocketFile = DEFAULT_POCKET_FILE
) -> Tree:
    """The JSON of a proof written as a graph from `position` (not changed): each node
    once, named by its id."""
    ids: dict[int, str] = {}
    nodes: dict[str, Tree] = {}
    _graph_node(position.copy(), root, pocket_file, ids, nodes)
    return {"root": "0", "nodes": nodes}


def _graph_node(
    position: Position,
    node: ProofNode,
    pocket_file: PocketFile,
    ids: dict[int, str],
    nodes: dict[str, Tree],
) -> str:
    known = ids.get(id(node))
    if known is not None:
        return known
    name = ids[id(node)] = str(len(ids))
    written: Tree = {"move": None, "replies": {}}
    nodes[name] = written
    move = node.move
    if move is not None:
        written["move"] = gc_text(position, move, pocket_file)
        position.push_trusted(move)
    replies = written["replies"]
    for reply, answer in node.replies:
        key = gc_text(position, reply, pocket_file)
        position.push_trusted(reply)
        replies[key] = _graph_node(position, answer, pocket_file, ids, nodes)
        position.pop()
    if move is not None:
        position.pop()
    return name


def _node_json(position: Position, node: ProofNode, pocket_file: PocketFile) -> Tree:
    move = node.move
    text = None if move is None else gc_text(position, move, pocket_file)
    if move is not None:
        position.push_trusted(move)
    replies = {}
    for reply, answer in node.replies:
        key = gc_text(position, reply, pocket_file)
        position.push_trusted(reply)
        replies[key] = _node_json(position, answer, pocket_file)
        position.pop()
    if move is not None:
        position.pop()
    return {"move": text, "replies": replies}


def principal_moves(node: ProofNode) -> list[Move]:
    """The mating line of a tree as moves: its winner's moves, and at each node the defence
    whose answer takes the most moves (the first such in the tree's order)."""
    line: list[Move] = []
    while True:
        if node.move is not None:
            line.append(node.move)
        if not node.replies:
            return line
        longest = max(answer.moves() for _, answer in node.replies)
        reply, node = next(pair for pair in node.replies if pair[1].moves() == longest)
        line.append(reply)


def mating_line(
    position: Position, node: ProofNode, pocket_file: PocketFile = DEFAULT_POCKET_FILE
) -> Line:
    """The principal variation of a proof (`principal_moves`) as text."""
    return line_text(position, principal_moves(node), pocket_file)


def line_text(
    position: Position, moves: list[Move], pocket_file: PocketFile = DEFAULT_POCKET_FILE
) -> Line:
    """Legal moves played from `position` (not changed), in Game Courier text and SAN."""
    walk = position.copy()
    gc, san, steps = [], [], []
    for move in moves:
        gc.append(gc_text(walk, move, pocket_file))
        san.append(move_san(walk, move))
        walk.push_trusted(move)
        steps.append(LineStep(move, walk.fen()))
    return Line(tuple(gc), tuple(san), tuple(steps))


__all__ = [
    "Line",
    "graph_json",
    "line_text",
    "mating_line",
    "principal_moves",
    "proof_json",
    "tree_json",
]
