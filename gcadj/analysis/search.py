"""The forced-mate prover: the shortest forced mate within a depth, for either side, with
a proof that answers every defence.

It knows the rules only through the engine (an import contract keeps it so): a proof it
makes is checked by `gcadj.analysis.proof_check`, which replays it through the judge and
the legal-move list and never imports this module.

How it searches (docs/adjudicate.md, "How the prover works", says it for users):

* **Iterative deepening on the winner's moves**, n = 1, 2, ...: "the side to move mates in
  n" (an OR node at the root: one move must work), then "the side to move is mated in n
  whatever it plays" (an AND node: every move must fail), so the first proof found is the
  shortest, and "no mate within k" is said only once the search to k was complete.
* **Depth-first AND/OR search** (`_attack`, `_defend`) for iterations below `DFPN_FROM`
  moves (where an analysis of every ply calls it, and where it is fastest), and **df-pn**
  from there (`_or_node`, `_and_node`): depth-bounded depth-first proof-number search
  (Nagai 2002). Each node's children are looked at once, their proof and disproof numbers
  counted from their legal moves (`_estimate`: 1 for the side to move, its legal moves
  for the other side), and the child of the smallest proof number (at the winner's node)
  or disproof number (at the loser's) is searched until its numbers pass thresholds a
  little past its best sibling's (`_widened`, the 1+epsilon trick of Pawlewicz and Lew).
  So the winner's moves that leave the fewest answers and the defences that leave the
  winner the fewest moves (checks, captures of its piece) go first. The numbers are kept
  in the table per position, attacker and depth (the depth bound makes the graph without
  cycles), never read as a proof; nodes with 2 moves or fewer left are settled by the
  depth-first search. Settled nodes store proven bounds, as the depth-first search does.
  At the winner's last move only checks can mate, so only `Position.checking_moves()`
  are tried there, by `Position.first_mate` (a check is known to check: only the
  answers are looked for). Whether the side to move has a legal move (dear for a bare
  King) is asked only where it changes the answer: not after the defender's move (an attacker
  without one fails anyway) nor after the attacker's move that gives no check (a
  defender without one is found stalemated by `_refutation`; `_status_unless_stuck`).
  Every defence is searched: board moves, en passant, each pocketing choice, each drop
  (`Position.legal_moves()`).
* **Move ordering**: the table's move first (the winner's mating move, or the defence that
  refuted, found at another depth), then the winner's checks, captures, drops near the
  enemy King and the rest, and with `ORDER_DEPTH` moves or more to go, the winner's moves
  that leave the fewest answers first (a proof-number search's choice); the defender's
  last two refutations at that ply (its killers).
* **A transposition table** (`gcadj.analysis.table`), bounded in memory, holds proven
  bounds per position and attacker: "mates within d" and "no mate within d"; and df-pn's
  numbers under a key salted with the depth (`DEPTH_SALT`).
* **Draws that depend on the path.** A line ends in a draw at stalemate, a dead position,
  a hundred plies without capture or promotion, and a position's third occurrence (the
  defender claims it). A position that already stands on the search's own path is a
  failure for the winner too: a shortest mate never needs one (whatever the winner would
  do at the second occurrence it can do at the first, with more moves in hand, a lower
  fifty-move count and no more repetitions), so nothing is lost, and no line can loop.
  What the table keeps must not depend on the path it was found on:

  - the fifty-move count: a node is looked up and stored only when the count cannot reach
    100 in the plies left below it;
  - a "no mate within d" that rests on a position of the path above the node (one that
    the line returned to) is not stored (`loop`: the highest such position's ply);
    everything else it rests on (stalemates, dead positions, positions that occurred
    twice before the search began) holds on any path. So a defence that refutes only by
    such a return is the defender's last resort (`_refutation` looks for one that holds
    on any path first), and a return whose failure the table proves (an earlier,
    shallower iteration showed no mate within the moves left there) rests on nothing
    (`_back_on_path`): in a long ending, where the bare King can always step back, the
    table would otherwise keep little;
  - a "mates within d" holds on any path but, when it came from the table, possibly not
    for repetitions: its lines may pass positions the new path holds. The proof's
    rebuilding (below) replays every line under the real rules; if one ends in a draw,
    the search is made again at that depth without trusting any proof from the table
    (`trust_proofs`), which makes only proofs that hold on their own path.

* **Budgets**: seconds (wall clock) and nodes, checked every `TICK` nodes, where the
  caller's progress callback is also called, and Python given a moment to notice a
  Ctrl-C (`gcadj.analysis.pause`). They cover the whole answer: the search, the proof's
  rebuilding, and its checking (each position of the proof as it will be written counts
  as a node). A cut ends the search with what was proved so far.

The proof is rebuilt after it is found (`_build_attack`): at each winner's node a mate
within the moves it has left (found by df-pn from 3 moves, `_solve_attack`), at each
defender's node every legal move. A position met again on another line shares its node,
so the proof is a graph (`ProofNode`, whose children may be shared); it is written out as
a tree when that is small (`TREE_LIMIT` moves) and as a graph of positions when it is not
(`gcadj.analysis.proof`). A proof of more than `PROOF_LIMIT` positions is not written out
(the mate is then `unwritten`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from gcadj.analysis.options import DEFAULT_TABLE_MB, MAX_MATE_DEPTH, check_search_limits
from gcadj.analysis.pause import breathe
from gcadj.analysis.table import (
    EMPTY,
    MOVE_OF_CODE,
    Table,
    code_of,
    entries_for,
    mate_of,
    move_code,
    pack,
    refuted_of,
)
from gcadj.engine.move import Move
from gcadj.engine.position import Position
from gcadj.engine.squares import POCKET
from gcadj.errors import SearchCut, UnheldProof

GOES_ON: Final = 0
MATED: Final = 1  # the side to move is checkmated
DRAWN: Final = 2  # stalemate, dead position, fifty moves, repetition (claimed or fivefold)
REVISIT: Final = 3  # the position stands on the search's path already: a failure for the winner

KNOWN_FAILURE: Final = -2
"""`MateSearch._known`: the table (or a bare attacker) says the attacker fails here."""
KNOWN_MATE: Final = -3
"""`MateSearch._known`: the table says the attacker mates here."""

NO_LOOP: Final = 1 << 30
"""The `loop` of a result that rests on no position of the path above its node."""

ATTACKER_SALT: Final = (0x5DEECE66D2B7E151, 0x3C6EF372FE94F82B)
"""Xored into a position's key per attacking colour: one table for both searches."""

# Not Final: mypyc would compile the numbers in, and tests lower them at run time.
TICK = 1024
"""Nodes between two looks at the clock, the node limit and the progress callback."""
PROOF_LIMIT = 200_000
"""Positions a proof may have. A longer mate against a side with many moves can need
more (every defence is answered): it is then said found but not written out, so never
called proven, and nothing grows without bound (the JSON, the checker's work)."""
TRUST_TABLE_PROOFS = True
"""Whether a search starts out trusting the mates its table holds (see the module
docstring; tests turn it off to see the answers stay)."""
ORDER_DEPTH = 4
"""From this many moves left, the attacker's moves are ordered by the defender's answers."""
TREE_LIMIT = 2_000
"""Moves a proof written as a tree may have; a larger proof is written as a graph of its
positions, each once (docs/adjudicate.md, "The proof")."""
DFPN_FROM = 4
"""From this many moves, an iteration is searched by df-pn; below, by the depth-first
search alone (which also solves df-pn's nodes near the leaves)."""
LEAF_DEPTH = 2
"""df-pn hands a node of the attacker with this many moves or fewer in hand to the
depth-first search, which settles it exactly."""
DEFENCE_LEAF_DEPTH = 2
"""Likewise for a node of the defender, the attacker this many moves or fewer in hand."""
CHECKS_FROM = 2
"""From this many moves in hand for the attacker, the depth-first search tries the
defender's checks before its other moves."""

INFINITE: Final = (1 << 24) - 1
"""A proof or disproof number that stands for infinity: the node is settled."""
_PN_MASK: Final = (1 << 24) - 1


def _salts(count: int, seed: int) -> tuple[int, ...]:
    """`count` 64-bit numbers from a fixed seed (splitmix64): the same on every run."""
    out: list[int] = []
    x = seed
    mask = (1 << 64) - 1
    for _ in range(count):
        x = (x + 0x9E3779B97F4A7C15) & mask
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out.append(z ^ (z >> 31))
    return tuple(out)


DEPTH_SALT: Final = _salts(MAX_MATE_DEPTH + 2, 38)
"""Xored into a position's key with the moves in hand: df-pn's proof and disproof
numbers hold for one depth, where the proven bounds hold for all."""


class ProofNode:
    """A node of a proof: the winner's `move` (None at the root when the side to move is
    the loser) and each legal defence after it with the node that answers it. A mating
    move has no replies. Nodes may be shared: a position reached on several lines has one
    node (the proof is a graph without cycles). `depth` is the winner's moves on the
    longest line below and including this node."""

    __slots__ = ("_hash", "_size", "depth", "move", "replies")

    def __init__(self, move: Move | None, replies: tuple[tuple[Move, ProofNode], ...]) -> None:
        self.move = move
        self.replies = replies
        deepest = 0
        for _, child in replies:
            deepest = max(deepest, child.depth)
        self.depth: int = deepest + (0 if move is None else 1)
        self._size = -1
        self._hash = -1

    def moves(self) -> int:
        """The winner's moves on the longest line below and including this node."""
        return self.depth

    def size(self) -> int:
        """The moves of the proof written out as a tree: this node's and every node's
        below it, a shared node once per line that reaches it (worked out once a node)."""
        if self._size < 0:
            total = 0 if self.move is None else 1
            for _reply, child in self.replies:
                total += 1 + child.size()
            self._size = total
        return self._size

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return (
            isinstance(other, ProofNode)
            and self.move == other.move
            and hash(self) == hash(other)
            and self.replies == other.replies
        )

    def __hash__(self) -> int:
        if self._hash == -1:
            self._hash = hash((self.move, tuple((reply, hash(c)) for reply, c in self.replies)))
        return self._hash

    def __repr__(self) -> str:
        move = None if self.move is None else self.move.uci()
        return f"ProofNode({move!r}, {len(self.replies)} replies)"

    def __reduce__(self) -> tuple[object, ...]:
        return (ProofNode, (self.move, self.replies))


def positions(root: ProofNode) -> int:
    """The distinct nodes of a proof: how many a graph of it holds."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            stack.extend(child for _, child in node.replies)
    return len(seen)


@dataclass(frozen=True)
class Proof:
    """A forced mate: the `winner`'s colour, its number of moves, the proof. `graph`: it
    is to be written as a graph of positions (it is too large for a tree, and each of its
    positions has one node), not as a tree."""

    winner: int
    moves: int
    tree: ProofNode
    graph: bool = False


@dataclass(frozen=True)
class Progress:
    """Where a long search is, for a progress line: the winner's moves being searched,
    whether for a mate against the side to move (`mated`), nodes and seconds so far."""

    searching: int
    mated: bool
    nodes: int
    seconds: float


@dataclass(frozen=True)
class SearchResult:
    """What a search proved.

    `proof`: the shortest forced mate found, if any. `no_mate_within`: the side to move was
    proved to have no forced mate in that many moves; `not_mated_within`: nor to be mated
    in that many. `cut` says why the search stopped before `depth` ("budget", "nodes",
    "interrupted", or "proof": a mate was found whose proof passed `PROOF_LIMIT`
    positions), None when it finished; `cut_at` is then the depth it was searching and
    `cut_mated` whether for a mate against the side to move. After a cut while a found
    mate was being rebuilt (or one too large) `unwritten` is that mate's winner, else None.
    `table_entries`: what the transposition table held at the end.
    """

    proof: Proof | None
    depth: int
    no_mate_within: int
    not_mated_within: int
    cut: str | None
    cut_at: int
    cut_mated: bool
    nodes: int
    seconds: float
    unwritten: int | None = None
    table_entries: int = 0


ProgressCallback = Callable[[Progress], None]


def search_mate(
    position: Position,
    depth: int,
    *,
    seconds: float | None = None,
    node_limit: int | None = None,
    progress: ProgressCallback | None = None,
    table_mb: float = DEFAULT_TABLE_MB,
) -> SearchResult:
    """The shortest forced mate within `depth` moves of the winner, for or against the side
    to move of `position` (not changed), within `seconds` (wall clock) and `node_limit`,
    its transposition table within `table_mb` megabytes. `OptionError` (a ValueError) for
    a limit out of its range (`gcadj.analysis.options.check_search_limits`).

    A position whose game is over has nothing to search (a result with no proof and
    nothing proved). Ctrl-C during the search ends it as a cut ("interrupted").

    Examples:
        >>> from gcadj.engine.position import Position
        >>> found = search_mate(Position("k7/8/2K5/8/8/8/8/7R[] w - - 0 1"), 3)
        >>> found.proof.winner, found.proof.moves, found.no_mate_within, found.cut
        (0, 2, 1, None)
        >>> [move.uci() for move in (found.proof.tree.move, found.proof.tree.replies[0][0])]
        ['c6b6', 'a8b8']
    """
    check_search_limits(depth, seconds, node_limit, table_mb, depth_from=0)
    search = MateSearch(
        position, seconds=seconds, node_limit=node_limit, progress=progress, table_mb=table_mb
    )
    return search.run(depth)


def relevant_history_repeats(position: Position) -> bool:
    """Has a position occurred twice since the last capture or promotion (the positions
    before one can never come back: material only leaves the game, classes only rise)?"""
    keys = position.history_keys()[-(position.halfmove_clock + 1) :]
    return len(set(keys)) < len(keys)


class MateSearch:
    """One search from one position (see the module docstring); `run` it once."""

    def __init__(
        self,
        position: Position,
        *,
        seconds: float | None,
        node_limit: int | None,
        progress: ProgressCallback | None,
        table_mb: float = DEFAULT_TABLE_MB,
    ) -> None:
        self.pos = position.copy()
        self.started = time.monotonic()
        self.deadline = -1.0 if seconds is None else self.started + seconds
        self.node_limit = -1 if node_limit is None else node_limit
        self.progress = progress
        self.nodes = 0
        self.next_tick = TICK if node_limit is None else min(TICK, node_limit)
        self.searching = 0
        self.mated = False
        self.table = Table(entries_for(table_mb))
        self.salt = 0
        self.trust_proofs = TRUST_TABLE_PROOFS
        self.path: dict[int, int] = {self.pos.key: 0}  # key -> its ply on the search's path
        self.ply = 0
        self.revisit = 0  # the ply of the position a REVISIT status met again
        self.loop = NO_LOOP  # of the last result (see the module docstring)
        self.rpn = 0  # df-pn: the proof and disproof numbers of the last node searched
        self.rdn = 0
        self.rlen = 0  # the attacker's moves of the last node's proof
        self.killers: list[Move | None] = []
        self.found: Move | None = None
        self.memo: dict[int, tuple[ProofNode, int]] | None = None  # key -> (node, its clock)
        self.unique = True  # no two nodes of the proof being rebuilt share a position
        self.built = 0  # nodes of the proof being rebuilt
        self.unwritten: int | None = None
        self.returned = False  # the child that settled a df-pn node went back on the path
        self.usable = False  # the df-pn node probed last may use the table (`_probe`)

    # -- the driver ------------------------------------------------------------------

    def run(self, depth: int) -> SearchResult:
        pos = self.pos
        self.killers = [None] * (4 * depth + 8)  # two a ply
        no_mate = not_mated = 0
        proof: Proof | None = None
        cut: str | None = None
        if pos.outcome() is not None:
            return self._result(None, depth, 0, 0, None)
        us = pos.turn
        try:
            for n in range(1, depth + 1):
                proof = self._iteration(n, us, mated=False)
                if proof is not None:
                    break
                no_mate = n
                proof = self._iteration(n, us ^ 1, mated=True)
                if proof is not None:
                    break
                not_mated = n
        except SearchCut as stop:
            cut = stop.why
        except KeyboardInterrupt:
            cut = "interrupted"
        return self._result(proof, depth, no_mate, not_mated, cut)

    def _iteration(self, n: int, attacker: int, *, mated: bool) -> Proof | None:
        """Does `attacker` mate within `n` (the side to move when not `mated`)? Its proof,
        rebuilt (see the module docstring), or None."""
        self.searching = n
        self.mated = mated
        self.salt = ATTACKER_SALT[attacker]
        if not self._root(n, mated):
            return None
        tree = self._rebuilt(n, mated, attacker, share=True)
        if tree is None:  # a proof from the table did not hold: search without them
            self.trust_proofs = False
            if not self._root(n, mated):
                return None
            tree = self._rebuilt(n, mated, attacker, share=True)
            if tree is None:
                raise AssertionError("a proof made without the table does not hold")
        if not self.unique:  # a shared node might not hold on every line: a plain tree
            tree = self._rebuilt(n, mated, attacker, share=False)
            if tree is None:
                raise AssertionError("a proof rebuilt once does not hold")
        return self._written(Proof(attacker, n, tree), attacker)

    def _root(self, n: int, mated: bool) -> bool:
        """Does the attacker mate within `n` (the side to move unless `mated`)? Short
        searches depth-first, longer ones by df-pn while the table's proofs are trusted
        (the depth-first search alone does without them)."""
        if n < DFPN_FROM or not self.trust_proofs:
            return self._defend(n) if mated else self._attack(n)
        if mated:
            self._and_node(n, INFINITE, INFINITE)
        else:
            self._or_node(n, INFINITE, INFINITE)
        return self.rpn == 0

    def _written(self, proof: Proof, winner: int) -> Proof:
        """The proof in the form it is written in, its positions counted as nodes (the
        checker replays each once); too large, or past the node limit: a cut."""
        tree = proof.tree
        size = tree.size()
        graph = size > TREE_LIMIT and self.unique
        if graph:
            size = positions(tree)
        if size > PROOF_LIMIT:
            self.unwritten = winner
            raise SearchCut("proof")
        if 0 <= self.node_limit < self.nodes + size:
            self.unwritten = winner
            raise SearchCut("nodes")
        self.nodes += size
        return Proof(proof.winner, proof.moves, tree, graph)

    def _result(
        self, proof: Proof | None, depth: int, no_mate: int, not_mated: int, cut: str | None
    ) -> SearchResult:
        return SearchResult(
            proof=proof,
            depth=depth,
            no_mate_within=no_mate,
            not_mated_within=not_mated,
            cut=cut,
            cut_at=self.searching if cut is not None else 0,
            cut_mated=self.mated if cut is not None else False,
            nodes=self.nodes,
            seconds=time.monotonic() - self.started,
            unwritten=self.unwritten,
            table_entries=len(self.table),
        )

    # -- making moves, counting nodes ------------------------------------------------

    def _play(self, move: Move) -> None:
        self.pos.push_trusted(move)
        self.ply += 1
        self.nodes += 1
        if self.nodes >= self.next_tick:
            self._tick()

    def _unplay(self) -> None:
        self.ply -= 1
        self.pos.pop()

    def _enter(self) -> None:
        """The position after the last move goes on: it joins the path."""
        self.path[self.pos.key] = self.ply

    def _leave(self) -> None:
        del self.path[self.pos.key]

    def _tick(self) -> None:
        self.next_tick = self.nodes + TICK
        breathe()  # where a Ctrl-C is noticed (see gcadj.analysis.pause)
        if self.node_limit >= 0:
            if self.nodes >= self.node_limit:
                raise SearchCut("nodes")
            self.next_tick = min(self.next_tick, self.node_limit)
        if self.deadline >= 0 and time.monotonic() >= self.deadline:
            raise SearchCut("budget")
        if self.progress is not None:
            self.progress(
                Progress(self.searching, self.mated, self.nodes, time.monotonic() - self.started)
            )

    def _status(self) -> int:
        """How the game stands after a move: goes on, the side to move is mated, drawn (a
        threefold repetition counts: the defender claims it), or back on the path."""
        pos = self.pos
        if not pos.has_legal_move():
            return MATED if pos.is_check() else DRAWN
        return self._status_unless_stuck()

    def _status_unless_stuck(self) -> int:
        """`_status` without asking whether the side to move has a legal move (the engine's
        dearest question here, a bare King's every step tried): for a caller to which the
        side having none makes no difference, or which finds it out itself. After the
        defender's move, the attacker with no move has failed anyway, and `_attack` finds
        no mate there; after the attacker's move that gives no check, the defender cannot
        be mated, and `_refutation` calls a defender with no move stalemated. A position
        with no move that stands on the path is said back on it (its failure then rests on
        the path: less is stored, nothing wrong)."""
        pos = self.pos
        if pos.halfmove_clock >= 100 or pos.is_dead_position():
            return DRAWN
        count = pos.repetition_count()
        if count == 1:  # (a position of the path has occurred before)
            return GOES_ON
        at = self.path.get(pos.key, -1)
        if at >= 0:
            self.revisit = at
            return REVISIT
        return DRAWN if count >= 3 else GOES_ON

    # -- the search ------------------------------------------------------------------

    def _back_on_path(self, d: int, attacking: bool) -> int:
        """The `loop` of the attacker's failure at a position met again on the path (a
        REVISIT), the attacker `d` moves in hand and to move when `attacking`: none when
        the table proves that the attacker does not mate within `d` from it on any path
        (an earlier iteration, shallower, usually has: the position's first occurrence
        above had more moves in hand), so that what rests on it may be stored; else the
        ply of that first occurrence."""
        pos = self.pos
        plies = 2 * d - 1 if attacking else 2 * d
        if pos.halfmove_clock + plies < 100 and d <= refuted_of(
            self.table.get(pos.key ^ self.salt)
        ):
            return NO_LOOP
        return self.revisit

    def _known(self, d: int, attacking: bool) -> int:
        """What the table knows of this node (the attacker `d` moves in hand, to move when
        `attacking`): `KNOWN_FAILURE` when the attacker cannot mate (it has nothing but
        its King, or the table proved no mate within `d`: `loop` says it rests on
        nothing); `KNOWN_MATE` when the table holds a mate within `d` and its proofs are
        trusted (`rlen` its length, and at the attacker's node `found` its move); else the node's
        entry, and `usable` whether it may be stored and read (not when the fifty-move
        count could reach 100 below: then `EMPTY`). The one reading of the table for
        `_attack`, `_defend` and df-pn's `_probe`."""
        pos = self.pos
        if _bare(pos, pos.turn if attacking else pos.turn ^ 1):
            self.found = None
            self.loop = NO_LOOP
            return KNOWN_FAILURE
        usable = pos.halfmove_clock + (2 * d - 1 if attacking else 2 * d) < 100
        self.usable = usable
        if not usable:
            return EMPTY
        entry = self.table.get(pos.key ^ self.salt)
        if d <= refuted_of(entry):
            self.loop = NO_LOOP
            return KNOWN_FAILURE
        if d >= mate_of(entry) and self.trust_proofs:
            self.rlen = mate_of(entry)
            if attacking:
                self.found = MOVE_OF_CODE[code_of(entry)]
            return KNOWN_MATE
        return entry

    def _attack(self, d: int) -> bool:
        """The attacker, to move in a game that goes on, mates within `d` of its moves;
        `self.found` is then its move, else `self.loop` says what the failure rests on."""
        entry = self._known(d, True)
        if entry < 0:
            return entry == KNOWN_MATE
        usable = self.usable
        key = self.pos.key ^ self.salt
        if d == 1:
            move = self._mate_in_one()
            loop = NO_LOOP
        else:
            move, loop = self._winning_move(d, code_of(entry))
        if usable and (move is not None or loop >= self.ply):
            # `entry` is still this position's: it cannot come back below itself
            refuted, mate, code = refuted_of(entry), mate_of(entry), code_of(entry)
            if move is None:
                refuted = max(refuted, d)
            elif d < mate:
                mate, code = d, move_code(move)
            self.table.put(key, pack(refuted, mate, code))
        self.found = move
        self.loop = loop
        self.rlen = d
        return move is not None

    def _mate_in_one(self) -> Move | None:
        """The attacker's first checking move that mates (`Position.first_mate`), each
        check tried counted as a node: the engine tries them a stretch at a time, each
        stretch ending at the next look at the budget (usually all of them at once), so
        the count and the cuts are those of one check at a time."""
        pos = self.pos
        checks = pos.checking_moves()
        n = len(checks)
        start = 0
        while start < n:
            stop = min(n, start + max(1, self.next_tick - self.nodes))
            found = pos.first_mate(checks, start, stop)
            self.nodes += stop - start if found < 0 else found + 1 - start
            if self.nodes >= self.next_tick:
                self._tick()
            if found >= 0:
                return checks[found]
            start = stop
        return None

    def _winning_move(self, d: int, hint: int) -> tuple[Move | None, int]:
        """The attacker's first move (in `_attacking_moves` order) that mates, or after
        which every defence is mated within `d` - 1 more moves; else None and the lowest
        ply of the path its failures rest on."""
        loop = NO_LOOP
        pos = self.pos
        for move in self._attacking_moves(hint, d):
            self._play(move)
            status = self._status() if pos.is_check() else self._status_unless_stuck()
            if status == GOES_ON:
                self._enter()
                won = self._defend(d - 1)
                self._leave()
                below = self.loop
            else:
                won = status == MATED
                below = self._back_on_path(d - 1, False) if status == REVISIT else NO_LOOP
            self._unplay()
            if won:
                return move, NO_LOOP
            loop = min(loop, below)
        return None, loop

    def _attacking_moves(self, hint: int, d: int) -> list[Move]:
        """Every legal move of the attacker: the table's move, checks, captures, drops
        within two squares of the enemy King, the rest."""
        pos = self.pos
        checks = pos.checking_moves()
        first: set[Move] = set(checks)
        board = pos.board
        ek = pos.king_squares[pos.turn ^ 1]
        ek_file, ek_rank = ek & 7, ek >> 3
        captures: list[Move] = []
        near: list[Move] = []
        rest: list[Move] = []
        for move in pos.legal_moves():
            if move in first:
                continue
            f, t, _ = move
            if f == POCKET:
                if abs((t & 7) - ek_file) <= 2 and abs((t >> 3) - ek_rank) <= 2:
                    near.append(move)
                else:
                    rest.append(move)
            elif t != POCKET and board[t] is not None:
                captures.append(move)
            else:
                rest.append(move)
        moves = checks + captures + near + rest
        if d >= ORDER_DEPTH:
            moves = self._fewest_answers_first(moves)
        _to_front(moves, MOVE_OF_CODE[hint])
        return moves

    def _fewest_answers_first(self, moves: list[Move]) -> list[Move]:
        """The attacker's moves ordered by how many answers each leaves the defender
        (a check leaves only its evasions), fewest first: a proof-number search's choice,
        which sends a deep search to its most forcing tries first. Worth its cost (each
        move played and the answers counted) only far from the leaves."""
        pos = self.pos
        scored: list[tuple[int, int, Move]] = []
        for i, move in enumerate(moves):
            pos.push_trusted(move)
            answers = len(pos.legal_moves())
            pos.pop()
            scored.append((answers, i, move))
        scored.sort()
        return [move for _, _, move in scored]

    def _defend(self, d: int) -> bool:
        """The defender, to move in a game that goes on: whatever it plays, the attacker
        mates within `d` moves; else `self.loop` says what the refutation rests on."""
        entry = self._known(d, False)
        if entry < 0:
            return entry == KNOWN_MATE
        usable = self.usable
        key = self.pos.key ^ self.salt
        refuted, refutation, loop = self._refutation(d, code_of(entry))
        if usable and (not refuted or loop >= self.ply):
            bound, mate, code = refuted_of(entry), mate_of(entry), code_of(entry)
            if not refuted:
                mate = min(mate, d)
            elif d > bound:
                bound = d
                if refutation is not None:
                    code = move_code(refutation)
            self.table.put(key, pack(bound, mate, code))
        self.loop = loop
        return not refuted

    def _refutation(self, d: int, hint: int) -> tuple[bool, Move | None, int]:
        """Whether the defender has a move after which the attacker does not mate within
        `d`, that move (None for a stalemate: no move at all, out of check) and the lowest
        ply of the path that rests on; (False, None, `NO_LOOP`) when every move is mated.
        The likeliest refutations are tried before the moves are generated: the table's,
        with two moves or more to go the defender's checks (after which the attacker has
        few moves to try; looked for only when the table's move did not refute), and the
        killers of this ply."""
        pos = self.pos
        ply = self.ply
        fallback: Move | None = None  # a refutation that rests on the path, kept for last
        fallback_loop = NO_LOOP
        tried: list[Move] = []
        legal: list[Move] = []
        for stage in range(3):  # the table's move; checks and killers; every legal move
            if stage == 0:
                hinted = MOVE_OF_CODE[hint]
                candidates = [hinted] if hinted is not None and pos.is_legal(hinted) else []
            elif stage == 1:
                candidates = self._likely_refutations(d, tried)
            else:
                legal = pos.legal_moves()
                candidates = [move for move in legal if move not in tried]
            for move in candidates:
                if self._holds_after(move, d):
                    continue
                if self.loop >= ply:
                    return True, move, self.loop
                if fallback is None:
                    fallback, fallback_loop = move, self.loop
            tried.extend(candidates)
        if fallback is not None:
            return True, fallback, fallback_loop
        if not legal and not pos.is_check():  # stalemated (`_status_unless_stuck`)
            return True, None, NO_LOOP
        return False, None, NO_LOOP

    def _likely_refutations(self, d: int, tried: list[Move]) -> list[Move]:
        """The defender's moves to try after `tried`, before the others: with two moves or
        more to go its checks, then the killers of this ply that are legal here."""
        pos = self.pos
        ply = self.ply
        first: list[Move] = []
        if d >= CHECKS_FROM:
            for move in pos.checking_moves():
                if move not in tried:
                    first.append(move)
        killers = self.killers
        for killer in (killers[2 * ply], killers[2 * ply + 1]):
            if (
                killer is not None
                and killer not in tried
                and killer not in first
                and pos.is_legal(killer)
            ):
                first.append(killer)
        return first

    def _holds_after(self, move: Move, d: int) -> bool:
        """After the defender's `move`, the attacker mates within `d`; if not, the move
        is a killer of this ply (unless it went back on the path) and `loop` says what
        the refutation rests on."""
        ply = self.ply
        self._play(move)
        status = self._status_unless_stuck()
        if status == GOES_ON:
            self._enter()
            held = self._attack(d)
            self._leave()
            below = self.loop
        else:  # the defender mated the attacker, or drew, or went back on the path
            held = False
            below = self._back_on_path(d, True) if status == REVISIT else NO_LOOP
        self._unplay()
        if not held and status != REVISIT:  # a way back is no refutation elsewhere
            self._killer(ply, move)
        self.loop = below
        return held

    def _killer(self, ply: int, move: Move) -> None:
        """Two killers a ply: the last refutation, and the one before it (tried when the
        last is no move here)."""
        killers = self.killers
        if killers[2 * ply] != move:
            killers[2 * ply + 1] = killers[2 * ply]
            killers[2 * ply] = move

    def _defending_moves(self, hint: int) -> list[Move]:
        """Every legal move of the defender: the table's refutation, the killers of this
        ply, then the rest."""
        moves = self.pos.legal_moves()
        ply = self.ply
        _to_front(moves, self.killers[2 * ply + 1])
        _to_front(moves, self.killers[2 * ply])
        _to_front(moves, MOVE_OF_CODE[hint])
        return moves

    # -- df-pn -----------------------------------------------------------------------

    def _probe(self, d: int, attacking: bool, thpn: int, thdn: int) -> int:
        """The table's bounds of this df-pn node (the attacker `d` moves in hand, to move
        when `attacking`), as `_known` reads them (`usable` said; `EMPTY` when they cannot
        be used). When the node is settled, or its stored numbers pass a threshold,
        `rpn`/`rdn` say so and -2 is returned: nothing to search. (df-pn runs only while
        the table's proofs are trusted.)"""
        entry = self._known(d, attacking)
        if entry == KNOWN_FAILURE:
            self._disproved(NO_LOOP)
            return -2
        if entry == KNOWN_MATE:
            self._proved(self.rlen, self.found if attacking else None)
            return -2
        if not self.usable:
            return entry
        known = self.table.find(self.pos.key ^ self.salt ^ DEPTH_SALT[d])
        if known >= 0 and ((known & _PN_MASK) >= thpn or (known >> 24) >= thdn):
            self.rpn = known & _PN_MASK
            self.rdn = known >> 24
            return -2
        return entry

    def _or_node(self, d: int, thpn: int, thdn: int) -> None:
        """df-pn at a node of the attacker, to move in a game that goes on with `d` >= 2
        moves in hand, until it is settled or its proof number
        reaches `thpn` or its disproof number `thdn`: `rpn`, `rdn` (and `found`, `rlen`
        when proven, `loop` when disproven) say where it stands. The attacker's moves
        are each looked at once (a mate found there ends it), then the one of the
        smallest proof number is searched deeper, with thresholds a little past the
        second smallest's (`_widened`), until the node passes its own."""
        entry = self._probe(d, True, thpn, thdn)
        if entry == -2:
            return
        usable = self.usable
        pos = self.pos
        bkey = pos.key ^ self.salt
        moves = self._attacking_moves(code_of(entry), 0)
        cpn, cdn, clen, cloop, _ = self._children(moves, d, True)
        ply = self.ply
        while True:
            pn, pn2, best = _two_smallest(cpn)
            dn = min(sum(cdn), INFINITE - 1)
            if pn == 0:
                if usable and clen[best] + 1 < mate_of(entry):
                    self.table.put(
                        bkey, pack(refuted_of(entry), clen[best] + 1, move_code(moves[best]))
                    )
                self._proved(clen[best] + 1, moves[best])
                return
            if pn >= INFINITE:  # every move fails
                loop = min(cloop)
                if usable and loop >= ply:
                    self.table.put(bkey, pack(d, mate_of(entry), code_of(entry)))
                self._disproved(loop)
                return
            if pn >= thpn or dn >= thdn:
                self._unsettled(usable, d, pn, dn)
                return
            self._deeper(
                moves[best], d, True, min(thpn, _widened(pn2)), min(INFINITE, thdn - dn + cdn[best])
            )
            cpn[best], cdn[best], clen[best], cloop[best] = self.rpn, self.rdn, self.rlen, self.loop

    def _and_node(self, d: int, thpn: int, thdn: int) -> None:
        """df-pn at a node of the defender, to move in a game that goes on, the attacker
        with `d` > `LEAF_DEPTH` moves in hand (see `_or_node`; here the defence of the
        smallest disproof number is searched deeper)."""
        entry = self._probe(d, False, thpn, thdn)
        if entry == -2:
            return
        usable = self.usable
        pos = self.pos
        moves = self._defending_moves(code_of(entry))
        cpn, cdn, clen, cloop, settled = self._children(moves, d, False)
        if settled >= 0:
            self._refuted(d, usable, entry, moves[settled], cloop[settled], not self.returned)
            return
        while True:
            dn, dn2, best = _two_smallest(cdn)
            pn = min(sum(cpn), INFINITE - 1)
            if dn == 0:
                self._refuted(d, usable, entry, moves[best], cloop[best], True)
                return
            if dn >= INFINITE:  # every defence is mated
                length = max(clen)
                if usable and length < mate_of(entry):
                    key = pos.key ^ self.salt
                    self.table.put(key, pack(refuted_of(entry), length, code_of(entry)))
                self._proved(length, None)
                return
            if pn >= thpn or dn >= thdn:
                self._unsettled(usable, d, pn, dn)
                return
            self._deeper(
                moves[best],
                d,
                False,
                min(INFINITE, thpn - pn + cpn[best]),
                min(thdn, _widened(dn2)),
            )
            cpn[best], cdn[best], clen[best], cloop[best] = self.rpn, self.rdn, self.rlen, self.loop

    def _children(
        self, moves: list[Move], d: int, attacking: bool
    ) -> tuple[list[int], list[int], list[int], list[int], int]:
        """A df-pn node's children, each looked at once: after each of `moves` (the
        attacker's when `attacking`, the attacker `d` moves in hand), the proof and
        disproof numbers, the proof's length and the failure's `loop`, as `_estimate`
        and the game's status give them; and the index of the first child that settles
        the node (a mate, or a refutation: `returned` then says whether it went back on
        the path), -1 when none does. The one set-up of `_or_node` and `_and_node`: a
        call per node expanded, each looking at every move (nothing measurable)."""
        n = len(moves)
        cpn = [0] * n
        cdn = [0] * n
        clen = [0] * n
        cloop = [NO_LOOP] * n
        left = d - 1 if attacking else d  # the attacker's moves in hand after the move
        for i in range(n):
            self._play(moves[i])
            status = self._status()
            if status == GOES_ON:
                self._estimate(left, not attacking)
            elif status == MATED and attacking:
                self._proved(0, None)
            elif status == REVISIT:
                self._disproved(self._back_on_path(left, not attacking))
            else:  # drawn, or the defender mated the attacker
                self._disproved(NO_LOOP)
            self._unplay()
            cpn[i], cdn[i], clen[i], cloop[i] = self.rpn, self.rdn, self.rlen, self.loop
            if (cpn[i] if attacking else cdn[i]) == 0:
                self.returned = status == REVISIT
                return cpn, cdn, clen, cloop, i
        return cpn, cdn, clen, cloop, -1

    def _deeper(self, move: Move, d: int, attacking: bool, thpn: int, thdn: int) -> None:
        """A df-pn node's child after `move` (the attacker's when `attacking`, the attacker
        `d` moves in hand) searched until it passes `thpn` or `thdn`, or settled by the
        depth-first search near the leaves; `rpn`, `rdn`, `rlen`, `loop` say how it
        stands."""
        self._play(move)
        self._enter()
        if attacking and d - 1 <= DEFENCE_LEAF_DEPTH:
            if self._defend(d - 1):
                self._proved(d - 1, None)
            else:
                self._disproved(self.loop)
        elif attacking:
            self._and_node(d - 1, thpn, thdn)
        elif d <= LEAF_DEPTH:
            if self._attack(d):
                self._proved(self.rlen, None)
            else:
                self._disproved(self.loop)
        else:
            self._or_node(d, thpn, thdn)
        self._leave()
        self._unplay()

    def _unsettled(self, usable: bool, d: int, pn: int, dn: int) -> None:
        """A df-pn node leaves with its numbers past a threshold: they are stored (for this
        depth: a position's numbers at another depth say little) and returned."""
        if usable:
            self.table.put(self.pos.key ^ self.salt ^ DEPTH_SALT[d], pn | (dn << 24))
        self.rpn = pn
        self.rdn = dn

    def _refuted(
        self, d: int, usable: bool, entry: int, move: Move, loop: int, killer: bool
    ) -> None:
        """The defender to move refutes "mate within `d`" with `move`, resting on `loop`."""
        if killer:
            self._killer(self.ply, move)
        if usable and loop >= self.ply and d > refuted_of(entry):
            self.table.put(self.pos.key ^ self.salt, pack(d, mate_of(entry), move_code(move)))
        self._disproved(loop)

    def _proved(self, length: int, move: Move | None) -> None:
        self.rpn = 0
        self.rdn = INFINITE
        self.rlen = length
        self.found = move

    def _disproved(self, loop: int) -> None:
        self.rpn = INFINITE
        self.rdn = 0
        self.loop = loop

    def _estimate(self, d: int, attacking: bool) -> None:
        """The proof and disproof numbers of a position just reached in a game that goes
        on, the attacker `d` moves in hand and to move when `attacking`: the table's when
        it has them, else what the position's legal moves say. One move of the side to
        move is enough for it, and each of them must fail for the other side: 1 for its
        number, its legal moves for the other's (the defender in check has few moves, so
        a check is tried first; a defence after which the attacker has few moves, a
        check or a capture of the attacker's piece, is tried first)."""
        pos = self.pos
        self.rlen = 0
        self.loop = NO_LOOP
        attacker = pos.turn if attacking else pos.turn ^ 1
        if _bare(pos, attacker):
            self._disproved(NO_LOOP)
            return
        plies = 2 * d - 1 if attacking else 2 * d
        if pos.halfmove_clock + plies < 100:
            bkey = pos.key ^ self.salt
            entry = self.table.get(bkey)
            if d <= refuted_of(entry):
                self._disproved(NO_LOOP)
                return
            if mate_of(entry) <= d:
                self._proved(mate_of(entry), MOVE_OF_CODE[code_of(entry)])
                return
            known = self.table.find(bkey ^ DEPTH_SALT[d])
            if known >= 0:
                self.rpn = known & _PN_MASK
                self.rdn = known >> 24
                return
        count = len(pos.legal_moves())
        self.rpn = 1 if attacking else count
        self.rdn = count if attacking else 1

    # -- the proof -------------------------------------------------------------------

    def _rebuilt(self, n: int, mated: bool, winner: int, *, share: bool) -> ProofNode | None:
        """The proof of a mate in `n` just proved at the root (for the side to move, or
        against it when `mated`), or None if a proof from the table does not hold on its
        line. With `share`, positions met again share their node unless that cannot be
        (then `unique` is false: a node built on one line may not hold on another);
        without, every line is built on its own. Past `PROOF_LIMIT` positions, or a
        budget or Ctrl-C, the mate is `unwritten`."""
        self.memo = {} if share else None
        self.unique = share
        self.built = 0
        try:
            if mated:
                return self._counted(ProofNode(None, self._build_answers(n)))
            if not self._solve_attack(n):
                return None
            return self._build_after(self._found_move(), self.rlen)
        except UnheldProof:
            return None
        except (SearchCut, KeyboardInterrupt):
            self.unwritten = winner
            raise
        finally:
            self.memo = None

    def _counted(self, node: ProofNode) -> ProofNode:
        self.built += 1
        if self.built > PROOF_LIMIT:
            raise SearchCut("proof")
        return node

    def _found_move(self) -> Move:
        move = self.found
        if move is None:
            raise AssertionError("a proved mate has no move")
        return move

    def _build_attack(self, d: int) -> ProofNode:
        """The attacker to move, proved to mate within `d`: the node of its shortest mate
        from here, shared with the other lines that reach this position when it can be."""
        pos = self.pos
        memo = self.memo
        key = pos.key
        known = None if memo is None else memo.get(key)
        if known is not None:
            node, clock = known
            clock_fits = pos.halfmove_clock <= clock or pos.halfmove_clock + 2 * node.depth < 100
            if node.depth <= d and clock_fits:
                return node
            self.unique = False
        if not self._solve_attack(d):
            raise UnheldProof
        node = self._build_after(self._found_move(), self.rlen)
        if memo is not None and known is None:
            memo[key] = (node, pos.halfmove_clock)
        return node

    def _solve_attack(self, d: int) -> bool:
        """Does the attacker, to move in a game that goes on, mate within `d`? Settled by
        the table when it knows, else searched; `found` and `rlen` say how."""
        if d <= LEAF_DEPTH or not self.trust_proofs:
            return self._attack(d)
        self._or_node(d, INFINITE, INFINITE)
        return self.rpn == 0

    def _build_after(self, move: Move, k: int) -> ProofNode:
        """The node of the attacker's `move`, which mates within `k`, and its answers."""
        self._play(move)
        try:
            status = self._real_status()
            if status == MATED:
                return self._counted(ProofNode(move, ()))
            if status != GOES_ON or k < 2:
                raise UnheldProof
            self._enter()
            try:
                return self._counted(ProofNode(move, self._build_answers(k - 1)))
            finally:
                self._leave()
        finally:
            self._unplay()

    def _build_answers(self, d: int) -> tuple[tuple[Move, ProofNode], ...]:
        """Every legal move of the defender to move, each with the attacker's mate within
        `d` after it."""
        answers = []
        for reply in self.pos.legal_moves():
            self._play(reply)
            try:
                if self._real_status() != GOES_ON:
                    raise UnheldProof
                self._enter()
                try:
                    answers.append((reply, self._build_attack(d)))
                finally:
                    self._leave()
            finally:
                self._unplay()
        return tuple(answers)

    def _real_status(self) -> int:
        """`_status` under the rules alone: a position met again is no failure, but the
        proof being rebuilt must not pass it (its line could loop), so it is a draw."""
        status = self._status()
        return DRAWN if status == REVISIT else status


def _bare(pos: Position, color: int) -> bool:
    """Has `color` nothing but its King, and an empty pocket? Then it never mates: a King
    gives no check, and nothing it captures comes to it (a captured piece leaves the game)."""
    return len(pos.occupied[color]) == 1 and pos.pockets[color] is None


def _two_smallest(numbers: list[int]) -> tuple[int, int, int]:
    """The smallest of `numbers` (not empty), the second smallest (`INFINITE` when there
    is none) and the index of the first smallest."""
    first = second = INFINITE
    best = 0
    for i in range(len(numbers)):
        x = numbers[i]
        if x < first:
            second = first
            first = x
            best = i
        elif x < second:
            second = x
    return first, second, best


def _widened(x: int) -> int:
    """A second-best number raised by a quarter and one (the 1 + epsilon trick of
    Pawlewicz and Lew): a child's threshold a little past its sibling's, so that df-pn
    does not switch between two close children at every step."""
    return min(INFINITE, x + 1 + (x >> 2))


def _to_front(moves: list[Move], move: Move | None) -> None:
    """Move `move` to the front of `moves` if it is there."""
    if move is None:
        return
    try:
        i = moves.index(move)
    except ValueError:
        return
    if i:
        del moves[i]
        moves.insert(0, move)


__all__ = [
    "DRAWN",
    "GOES_ON",
    "MATED",
    "PROOF_LIMIT",
    "REVISIT",
    "TICK",
    "TREE_LIMIT",
    "MateSearch",
    "Progress",
    "ProgressCallback",
    "Proof",
    "ProofNode",
    "SearchResult",
    "positions",
    "relevant_history_repeats",
    "search_mate",
]
