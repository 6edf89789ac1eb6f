"""The prover of gcadj before issue 38, kept as it was: the reference the new prover is
tested against (tests/analysis/test_deep_search.py: the same shortest mate, the same "no mate
within") and measured against (bench/bench_adjudicate.py).

Iterative deepening over a depth-first AND/OR search, a transposition table used only in
the last four plies and only while no position of the game has occurred twice, the proof
rebuilt as a tree. Nothing in gcadj imports it. Its own docstring follows.

The forced-mate prover: the shortest forced mate within a depth, for either side, with
a proof tree that answers every defence.

It knows the rules only through the engine (an import contract keeps it so): a proof it
makes is checked by `gcadj.analysis.proof_check`, which replays it through the judge and
the legal-move list and never imports this module.

How it searches (docs/adjudicate.md, "How the prover works", says it for users):

* **Iterative deepening on the winner's moves**, n = 1, 2, ...: "the side to move mates in
  n" (an OR node at the root: one move must work), then "the side to move is mated in n
  whatever it plays" (an AND node: every move must fail), so the first proof found is the
  shortest, and "no mate within k" is said only once the search to k was complete.
* **Depth-first AND/OR search.** At the winner's last move only checks can mate, so only
  `Position.checking_moves()` are tried there, each followed by `has_legal_move()` (whose
  answer in check stops at the first evasion). Every defence is searched: board moves, en
  passant, each pocketing choice, each drop (`Position.legal_moves()`).
* **Move ordering**: the winner's checks first, then captures, then drops near the enemy
  King, then the rest; the defender's refutation that worked at a sibling (the killer of
  that ply) first.
* **A transposition table** per attacking colour, keyed by the engine's repetition key,
  holds proven bounds: "mates within d" and "no mate within d". Draws can end a line (the
  fifty-move rule at 100 plies, repetition, a dead position, stalemate): every node asks
  for them (`_status`), and a threefold repetition inside the search counts as a draw the
  defender claims. The table is used only where none of them can depend on the path:
  the fifty-move count cannot reach 100 below the node, no position of the game since the
  last capture or promotion, nor of the path, has occurred twice, and at most four plies
  remain (three occurrences of a position need eight plies, or an earlier one and four).
  Elsewhere the node is searched afresh.
* **Budgets**: seconds (wall clock) and nodes, checked every `TICK` nodes, where the
  caller's progress callback is also called, and Python given a moment to notice a
  Ctrl-C (`gcadj.analysis.pause`). A cut ends the search with what was proved so far.

The proof tree is rebuilt after the proof from the table (`_tree_attack`): at each
winner's node the shortest mate from there, at each defender's node every legal move; a
tree of more than `PROOF_LIMIT` nodes is not written out (the mate is then `unwritten`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from gcadj.analysis.pause import breathe
from gcadj.engine.move import Move
from gcadj.engine.position import Position
from gcadj.engine.squares import POCKET
from gcadj.errors import SearchCut

GOES_ON: Final = 0
MATED: Final = 1  # the side to move is checkmated
DRAWN: Final = 2  # stalemate, dead position, fifty moves, repetition (claimed or fivefold)

# Not Final: mypyc would compile the numbers in, and tests lower them at run time.
TICK = 1024
"""Nodes between two looks at the clock, the node limit and the progress callback."""
TABLE_LIMIT = 1 << 20
"""Entries a transposition table holds; when full it is emptied (about 100 MB at most)."""
PROOF_LIMIT = 200_000
"""Nodes a proof tree may have. A longer mate against a side with many moves can need
more (every defence is answered): it is then said found but not written out, so never
called proven, and nothing grows without bound (the JSON, the checker's work)."""

_UNKNOWN_MATE: Final = 255  # no "mates within d" known (bounds are packed in 8 bits)


class ProofNode:
    """A node of a proof tree: the winner's `move` (None at the root when the side to move
    is the loser) and each legal defence after it with the node that answers it. A mating
    move has no replies."""

    __slots__ = ("move", "replies")

    def __init__(self, move: Move | None, replies: tuple[tuple[Move, ProofNode], ...]) -> None:
        self.move = move
        self.replies = replies

    def moves(self) -> int:
        """The winner's moves on the longest line below and including this node."""
        own = 0 if self.move is None else 1
        return own + max((child.moves() for _, child in self.replies), default=0)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ProofNode)
            and self.move == other.move
            and self.replies == other.replies
        )

    def __hash__(self) -> int:
        return hash((self.move, self.replies))

    def __repr__(self) -> str:
        move = None if self.move is None else self.move.uci()
        return f"ProofNode({move!r}, {len(self.replies)} replies)"

    def __reduce__(self) -> tuple[object, ...]:
        return (ProofNode, (self.move, self.replies))


@dataclass(frozen=True)
class Proof:
    """A forced mate: the `winner`'s colour, its number of moves, the tree."""

    winner: int
    moves: int
    tree: ProofNode


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
    "interrupted", or "proof": a mate was found whose tree passed `PROOF_LIMIT` nodes),
    None when it finished; `cut_at` is then the depth it was searching and `cut_mated`
    whether for a mate against the side to move. After a "proof" cut (or a Ctrl-C while
    a found mate was being written out) `unwritten` is that mate's winner, else None.
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


ProgressCallback = Callable[[Progress], None]


def search_mate(
    position: Position,
    depth: int,
    *,
    seconds: float | None = None,
    node_limit: int | None = None,
    progress: ProgressCallback | None = None,
) -> SearchResult:
    """The shortest forced mate within `depth` moves of the winner, for or against the side
    to move of `position` (not changed), within `seconds` (wall clock) and `node_limit`.

    A position whose game is over has nothing to search (a result with no proof and
    nothing proved). Ctrl-C during the search ends it as a cut ("interrupted").
    """
    search = MateSearch(position, seconds=seconds, node_limit=node_limit, progress=progress)
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
    ) -> None:
        self.pos = position.copy()
        self.started = time.monotonic()
        self.deadline = -1.0 if seconds is None else self.started + seconds
        self.node_limit = -1 if node_limit is None else node_limit
        self.progress = progress
        self.nodes = 0
        self.next_tick = TICK if node_limit is None else min(TICK, node_limit)
        self.limited = True  # the budgets apply (not while the proof tree is rebuilt)
        self.searching = 0
        self.mated = False
        self.tables: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self.bests: tuple[dict[int, Move], dict[int, Move]] = ({}, {})
        self.table = self.tables[0]
        self.best = self.bests[0]
        self.table_on = not relevant_history_repeats(position)
        self.repeats = 0  # positions on the path below the root that occurred before
        self.ply = 0
        self.killers: list[Move | None] = []
        self.found: Move | None = None
        self.tree_nodes = 0  # in the proof tree being written out
        self.unwritten: int | None = None

    # -- the driver ------------------------------------------------------------------

    def run(self, depth: int) -> SearchResult:
        pos = self.pos
        self.killers = [None] * (2 * depth + 2)
        no_mate = not_mated = 0
        proof: Proof | None = None
        cut: str | None = None
        if pos.outcome() is not None:
            return self._result(None, depth, 0, 0, None)
        us = pos.turn
        try:
            for n in range(1, depth + 1):
                self._aim(n, us, mated=False)
                if self._attack(n):
                    proof = Proof(us, n, self._rebuilt(self._tree_root_attack, n, us))
                    break
                no_mate = n
                self._aim(n, us ^ 1, mated=True)
                if self._defend(n):
                    proof = Proof(us ^ 1, n, self._rebuilt(self._tree_root_defend, n, us ^ 1))
                    break
                not_mated = n
        except SearchCut as stop:
            cut = stop.why
        except KeyboardInterrupt:
            cut = "interrupted"
        return self._result(proof, depth, no_mate, not_mated, cut)

    def _aim(self, n: int, attacker: int, *, mated: bool) -> None:
        self.searching = n
        self.mated = mated
        self.table = self.tables[attacker]
        self.best = self.bests[attacker]

    def _rebuilt(self, build: Callable[[int], ProofNode], n: int, winner: int) -> ProofNode:
        """The proof tree of a proved mate in `n`, budgets set aside (a proof found is
        not thrown away for the seconds its tree takes), but no larger than `PROOF_LIMIT`
        nodes; past it, or on Ctrl-C, the mate is `unwritten`."""
        self.limited = False
        self.tree_nodes = 0
        try:
            return build(n)
        except (SearchCut, KeyboardInterrupt):
            self.unwritten = winner
            raise
        finally:
            self.limited = True

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
        )

    # -- making moves, counting nodes ------------------------------------------------

    def _play(self, move: Move) -> None:
        pos = self.pos
        pos.push_trusted(move)
        self.ply += 1
        if pos.repetition_count() > 1:
            self.repeats += 1
        self.nodes += 1
        if self.nodes >= self.next_tick:
            self._tick()

    def _unplay(self) -> None:
        pos = self.pos
        if pos.repetition_count() > 1:
            self.repeats -= 1
        self.ply -= 1
        pos.pop()

    def _tick(self) -> None:
        self.next_tick = self.nodes + TICK
        breathe()  # where a Ctrl-C is noticed (see gcadj.analysis.pause)
        if self.limited:
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
        """How the game stands after a move: goes on, the side to move is mated, or drawn
        (a threefold repetition counts: the defender claims it)."""
        pos = self.pos
        if not pos.has_legal_move():
            return MATED if pos.is_check() else DRAWN
        if pos.halfmove_clock >= 100 or pos.repetition_count() >= 3 or pos.is_dead_position():
            return DRAWN
        return GOES_ON

    # -- the transposition table -----------------------------------------------------

    def _usable(self, plies_left: int) -> bool:
        """May the table answer for (or learn from) this node? See the module docstring."""
        return (
            self.table_on
            and self.repeats == 0
            and plies_left <= 4
            and self.pos.halfmove_clock + plies_left < 100
        )

    def _probe(self, key: int, d: int) -> int:
        """1: proved to mate within d; 0: proved not to; -1: not known."""
        entry = self.table.get(key)
        if entry is None:
            return -1
        if d <= entry & 255:
            return 0
        if d >= entry >> 8:
            return 1
        return -1

    def _store(self, key: int, d: int, proved: bool) -> None:
        table = self.table
        entry = table.get(key)
        if entry is None:
            if len(table) >= TABLE_LIMIT:
                table.clear()
                self.best.clear()
            entry = _UNKNOWN_MATE << 8
        refuted, mate = entry & 255, entry >> 8
        if proved:
            mate = min(mate, d)
        else:
            refuted = max(refuted, d)
        table[key] = refuted | (mate << 8)

    # -- the search ------------------------------------------------------------------

    def _attack(self, d: int, probe: bool = True) -> bool:
        """The attacker, to move in a game that goes on, mates within `d` of its moves;
        `self.found` is then its move."""
        pos = self.pos
        usable = self._usable(2 * d - 1)
        key = pos.key
        if usable and probe:
            known = self._probe(key, d)
            if known == 1:
                best = self.best.get(key)
                if best is not None:
                    self.found = best
                    return True
            elif known == 0:
                return False
        if d == 1:
            move = self._mate_in_one()
            won = move is not None
        else:
            move = self._winning_move(d)
            won = move is not None
        if usable:
            self._store(key, d, won)
            if move is not None:
                self.best[key] = move
        self.found = move
        return won

    def _mate_in_one(self) -> Move | None:
        pos = self.pos
        for move in pos.checking_moves():
            pos.push_trusted(move)
            self.nodes += 1
            mate = not pos.has_legal_move()
            pos.pop()
            if self.nodes >= self.next_tick:
                self._tick()
            if mate:
                return move
        return None

    def _winning_move(self, d: int) -> Move | None:
        """The attacker's first move (in `_attacking_moves` order) that mates, or after
        which every defence is mated within `d` - 1 more moves."""
        for move in self._attacking_moves():
            self._play(move)
            status = self._status()
            won = status == MATED or (status == GOES_ON and self._defend(d - 1))
            self._unplay()
            if won:
                return move
        return None

    def _attacking_moves(self) -> list[Move]:
        """Every legal move of the attacker: checks, captures, drops within two squares of
        the enemy King, the rest."""
        pos = self.pos
        checks = pos.checking_moves()
        if not checks:
            first: set[Move] = set()
        else:
            first = set(checks)
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
        return checks + captures + near + rest

    def _defend(self, d: int) -> bool:
        """The defender, to move in a game that goes on: whatever it plays, the attacker
        mates within `d` moves."""
        pos = self.pos
        usable = self._usable(2 * d)
        key = pos.key
        if usable:
            known = self._probe(key, d)
            if known >= 0:
                return known == 1
        ply = self.ply
        moves = pos.legal_moves()
        killer = self.killers[ply]
        if killer is not None and killer in moves:
            moves.remove(killer)
            moves.insert(0, killer)
        held = True
        for move in moves:
            self._play(move)
            held = self._status() == GOES_ON and self._attack(d)
            self._unplay()
            if not held:
                self.killers[ply] = move
                break
        if usable:
            self._store(key, d, held)
        return held

    # -- the proof tree --------------------------------------------------------------

    def _tree_root_attack(self, n: int) -> ProofNode:
        """The tree of the side to move's mate in `n` (no shorter one exists)."""
        if not self._attack(n, probe=False):
            raise AssertionError("a proved mate was not found again")
        return self._tree_after(self._found_move(), n)

    def _tree_root_defend(self, n: int) -> ProofNode:
        """The tree of the side to move's loss in `n`: every move, answered."""
        return ProofNode(None, self._answers(n))

    def _tree_attack(self, d: int) -> ProofNode:
        """The attacker to move, known to mate within `d`: the shortest mate from here."""
        for k in range(1, d + 1):
            if self._attack(k, probe=False):
                return self._tree_after(self._found_move(), k)
        raise AssertionError("a proved mate was not found again")

    def _found_move(self) -> Move:
        move = self.found
        if move is None:
            raise AssertionError("a proved mate has no move")
        return move

    def _tree_after(self, move: Move, k: int) -> ProofNode:
        """The node of the attacker's `move`, which mates within `k`, and its answers."""
        self.tree_nodes += 1
        if self.tree_nodes > PROOF_LIMIT:
            raise SearchCut("proof")
        self._play(move)
        try:
            if self._status() == MATED:
                return ProofNode(move, ())
            return ProofNode(move, self._answers(k - 1))
        finally:
            self._unplay()

    def _answers(self, d: int) -> tuple[tuple[Move, ProofNode], ...]:
        """Every legal move of the defender to move, each with the attacker's mate within
        `d` after it."""
        answers = []
        for reply in self.pos.legal_moves():
            self._play(reply)
            try:
                if self._status() != GOES_ON:
                    raise AssertionError("a defence ends the game in a proved mate")
                answers.append((reply, self._tree_attack(d)))
            finally:
                self._unplay()
        return tuple(answers)


__all__ = [
    "DRAWN",
    "GOES_ON",
    "MATED",
    "PROOF_LIMIT",
    "TABLE_LIMIT",
    "TICK",
    "MateSearch",
    "Progress",
    "ProgressCallback",
    "Proof",
    "ProofNode",
    "SearchResult",
    "relevant_history_repeats",
    "search_mate",
]
