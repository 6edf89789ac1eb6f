"""The proof checker: accepts a forced mate only when its tree, read as Game Courier text,
answers every defence and mates on every line.

It is not the prover (an import contract forbids it to import `gcadj.analysis.search`): it
reads the tree's JSON (`gcadj.analysis.proof`), the shape ``gcadj adjudicate --json``
prints, and replays it the way a log is judged:

* each of the winner's moves is read by the notation layer (`parse_log`, one ply) and
  judged by the single-ply resolver that judges every ply of a log
  (`gcadj.judging.judge.PlyResolver`): an illegal one is rejected with the judge's reason;
* at each of the loser's turns, the replies must be exactly the legal moves of the
  position (`Position.legal_moves`, written as Game Courier text): none left out, none
  added;
* every line must end in checkmate by the winner (`Position.outcome`), within the claimed
  number of the winner's moves; a position on the way where the game ends otherwise
  (stalemate, a dead position, fifty moves, a repetition the loser may claim) breaks the
  proof.

A proof written as a **graph** (``{"root": id, "nodes": {id: node}}``, a node's replies
naming other nodes by id) is checked the same way, each node once, however many lines reach
it. That is sound because the graph must hold each position once and have no cycle: then
no line repeats a position, so a position occurs on every line that reaches it as often as
on the first (once more than before the proof began), and what was judged there holds
everywhere. So the checker rejects a node reached in two different positions, two nodes of
the same position, and a node met again on its own line. A node reached later with a
higher fifty-move count is checked again with it; one reached with fewer moves left than
its lines take breaks the claim.

`check_proof` returns a `ProofCheck`: accepted, or the first reason to reject, naming the
line that leads to it. With a `deadline` (a `time.monotonic()` value) it stops there,
raising `SearchCut("budget")`: an adjudication's budget covers the checking of its proof.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from gcadj.engine.position import Position
from gcadj.errors import LogSyntaxError, ProofFault, SearchCut
from gcadj.judging.judge import IllegalPly, PlyResolver
from gcadj.notation.parse import parse_log
from gcadj.notation.records import MoveRecord
from gcadj.notation.san import gc_text
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile, Side, Termination

CLOCK_EVERY = 256
"""Nodes checked between two looks at the deadline."""


@dataclass(frozen=True)
class ProofCheck:
    """The checker's answer: `accepted`, and `reason`, which says why not (or what was
    accepted)."""

    accepted: bool
    reason: str


def check_proof(
    position: Position,
    tree: Any,
    *,
    winner: str,
    moves: int,
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
    deadline: float | None = None,
) -> ProofCheck:
    """Check that `tree` (JSON, see `gcadj.analysis.proof`: a tree or a graph) proves
    that `winner` ("white" or "black") mates within `moves` of its moves from `position`
    (not changed), by `deadline` if one is given (`SearchCut` past it)."""
    checker = _Checker(position.copy(), pocket_file, deadline)
    try:
        checker.check_root(tree, winner, moves)
    except ProofFault as fault:
        return ProofCheck(False, str(fault))
    plies = f"{checker.lines} line{'' if checker.lines == 1 else 's'}"
    return ProofCheck(
        True, f"every defence answered; {plies}, each mated within {_moves(moves)} of {winner}"
    )


def _moves(n: int) -> str:
    return f"{n} move{'' if n == 1 else 's'}"


@dataclass
class _Seen:
    """A graph's node checked already: its position's key, the highest fifty-move count
    it was checked with, and the winner's moves its longest line takes."""

    key: int
    clock: int
    depth: int


class _Checker:
    def __init__(self, position: Position, pocket_file: PocketFile, deadline: float | None) -> None:
        self.position = position
        self.pocket_file = pocket_file
        self.deadline = deadline
        self.resolver = PlyResolver(pocket_file)
        self.path: list[str] = []
        self.lines = 0
        self.checked = 0  # nodes, for the deadline
        self.nodes: dict[str, Any] | None = None  # a graph's nodes by id (None: a tree)
        self.seen: dict[str, _Seen] = {}
        self.owner: dict[int, str] = {}  # a position's key -> the node that stands for it
        self.active: set[str] = set()  # the nodes on the line being checked
        self.root = ""  # a graph's root id

    def reject(self, what: str) -> ProofFault:
        where = f"after {', '.join(self.path)}: " if self.path else "at the start: "
        return ProofFault(where + what)

    def check_root(self, tree: Any, winner: str, moves: int) -> None:
        if winner not in {side.value for side in Side}:
            raise self.reject(f"the winner must be 'white' or 'black', not {winner!r}")
        if not isinstance(moves, int) or isinstance(moves, bool) or moves < 1:
            raise self.reject(f"the number of moves must be a whole number ≥ 1, not {moves!r}")
        position = self.position
        over = position.outcome()
        if over is not None:
            raise self.reject(f"the game is already over ({over.termination})")
        graph = isinstance(tree, dict) and set(tree) == {"root", "nodes"}
        if graph:
            tree = self.graph_root(tree)
        move, replies = self.node(tree)
        if graph and move is not None:
            self.owner[position.key] = self.root
        if Side(winner).colour == position.turn:
            if move is None:
                raise self.reject(f"{winner} is to move, so the root needs {winner}'s move")
            self.winner_move(move, replies, moves)
        else:
            if move is not None:
                raise self.reject(f"{winner} is not to move, so the root's move must be null")
            self.defences(replies, moves)

    def graph_root(self, graph: dict[str, Any]) -> Any:
        """The root node of a graph (whose nodes are kept for its replies' ids)."""
        nodes, root = graph["nodes"], graph["root"]
        if not isinstance(nodes, dict) or not all(isinstance(key, str) for key in nodes):
            raise self.reject('a graph\'s "nodes" must be an object (id: node)')
        if not isinstance(root, str) or root not in nodes:
            raise self.reject(
                f'the graph\'s "root" must be the id of one of its nodes, not {root!r}'
            )
        self.nodes = nodes
        self.root = root
        self.active.add(root)
        return nodes[root]

    def node(self, tree: Any) -> tuple[str | None, dict[str, Any]]:
        if not isinstance(tree, dict) or set(tree) != {"move", "replies"}:
            raise self.reject('a node must be an object with exactly "move" and "replies"')
        move, replies = tree["move"], tree["replies"]
        if move is not None and not isinstance(move, str):
            raise self.reject(f'"move" must be Game Courier text or null, not {move!r}')
        if not isinstance(replies, dict):
            raise self.reject('"replies" must be an object (defence: answer)')
        return move, replies

    def winner_move(self, text: str, replies: dict[str, Any], moves_left: int) -> int:
        """Judge the winner's move `text`, then its replies; the winner's moves its longest
        line takes."""
        self.tick()
        if moves_left < 1:
            raise self.reject(f"{text!r} is one move too many: the line is longer than claimed")
        position = self.position
        mover = position.turn
        self.play(text, "the winner's move")
        try:
            if not replies:
                over = position.outcome()
                if over is None or over.termination is not Termination.CHECKMATE:
                    ending = "the game goes on" if over is None else f"{over.termination}"
                    raise self.reject(f"the line ends without checkmate ({ending})")
                if over.winner != mover:
                    raise self.reject("the line ends in checkmate of the winner")
                self.lines += 1
                return 1
            if position.is_checkmate():
                raise self.reject("the move mates, so no defence can answer it")
            self.goes_on()
            return 1 + self.defences(replies, moves_left - 1)
        finally:
            self.unplay()

    def tick(self) -> None:
        self.checked += 1
        due = self.deadline is not None and self.checked % CLOCK_EVERY == 0
        if due and time.monotonic() >= (self.deadline or 0.0):
            raise SearchCut("budget")

    def defences(self, replies: dict[str, Any], moves_left: int) -> int:
        """The loser to move: `replies` must answer exactly its legal moves; the winner's
        moves the longest line after them takes."""
        position = self.position
        legal = {gc_text(position, move, self.pocket_file): move for move in position.legal_moves()}
        for text in legal:
            if text not in replies:
                raise self.reject(f"the defence {text!r} is not answered")
        for text in replies:
            if text not in legal:
                raise self.reject(self.not_a_defence(text))
        if moves_left < 1:
            raise self.reject("the line is longer than claimed: no move is left to mate")
        deepest = 0
        for text, answer in replies.items():
            position.push_trusted(legal[text])
            self.path.append(text)
            try:
                self.goes_on()
                if self.nodes is None:
                    move, next_replies = self.node(answer)
                    if move is None:
                        raise self.reject(f"the defence {text!r} has no answer (its move is null)")
                    depth = self.winner_move(move, next_replies, moves_left)
                else:
                    depth = self.graph_node(text, answer, moves_left)
                deepest = max(deepest, depth)
            finally:
                self.path.pop()
                position.pop()
        return deepest

    def graph_node(self, text: str, name: Any, moves_left: int) -> int:
        """The node `name` of a graph answers the defence `text` just played: checked
        once (see the module docstring), its depth."""
        nodes = self.nodes
        assert nodes is not None
        if not isinstance(name, str) or name not in nodes:
            raise self.reject(f"the defence {text!r} is answered by {name!r}, no node of the graph")
        position = self.position
        key, clock = position.key, position.halfmove_clock
        if name in self.active:
            raise self.reject(f"the graph has a cycle: node {name!r} comes back on its own line")
        seen = self.seen.get(name)
        if seen is not None:
            if seen.key != key:
                raise self.reject(f"node {name!r} is reached in two different positions")
            if seen.depth > moves_left:
                raise self.reject(
                    f"node {name!r} takes {_moves(seen.depth)}: the line is longer than claimed"
                )
            if clock <= seen.clock:
                return seen.depth
        owner = self.owner.setdefault(key, name)
        if owner != name:
            raise self.reject(
                f"nodes {owner!r} and {name!r} are the same position: a graph holds each once"
            )
        move, next_replies = self.node(nodes[name])
        if move is None:
            raise self.reject(f"the defence {text!r} has no answer (its move is null)")
        self.active.add(name)
        try:
            depth = self.winner_move(move, next_replies, moves_left)
        finally:
            self.active.discard(name)
        self.seen[name] = _Seen(key, clock, depth)
        return depth

    def goes_on(self) -> None:
        """The game must go on here (a draw the loser may claim counts as an end)."""
        over = self.position.outcome(claim_draw=True)
        if over is not None:
            result = "" if over.winner is None else f", {Side.of(over.winner).capitalized} wins"
            raise self.reject(f"the game ends here ({over.termination}{result}), not in mate")

    def not_a_defence(self, text: str) -> str:
        """Why a reply's text is no defence: an illegal ply, or a legal move written
        otherwise than gcadj writes it."""
        try:
            record = self.one_ply(text)
        except ProofFault as fault:
            return str(fault).split(": ", 1)[-1]
        ruling = self.resolver.resolve(self.position, record)
        if isinstance(ruling, IllegalPly):
            return f"{text!r} is no legal move here ({ruling.category}: {ruling.reason})"
        written = gc_text(self.position, ruling, self.pocket_file)
        return f"{text!r} is a legal move, but it is written {written!r}"

    def one_ply(self, text: str) -> MoveRecord:
        if not text.strip() or "\n" in text or "\r" in text:
            raise self.reject(f"{text!r} is not one ply of Game Courier text")
        try:
            log = parse_log(text, "<proof>", self.pocket_file)
        except LogSyntaxError as err:
            first = str(err).splitlines()[0]
            raise self.reject(f"{text!r} cannot be read: {first}") from None
        if len(log.records) != 1 or log.tags:
            raise self.reject(f"{text!r} is not one ply of Game Courier text")
        return log.records[0]

    def play(self, text: str, what: str) -> None:
        record = self.one_ply(text)
        ruling = self.resolver.play(self.position, record)
        if isinstance(ruling, IllegalPly):
            raise self.reject(f"{what} {text!r} is illegal ({ruling.category}: {ruling.reason})")
        self.path.append(text)

    def unplay(self) -> None:
        self.path.pop()
        self.position.pop()


__all__ = ["ProofCheck", "check_proof"]
