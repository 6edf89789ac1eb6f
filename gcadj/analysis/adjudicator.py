"""The adjudication of a game: a proposed result, how strong it is, and why.

docs/rules.md §7 settles what is adjudicated for each kind of verdict, and this module
follows it:

* a legal game is adjudicated on its final position; an illegal one on the position
  before its first illegal ply; a game read up to an unreadable ply on the position where
  reading stopped (the reason says which); a source with no game has no position and is
  `undetermined`;
* a board that has ended (checkmate, stalemate, fifty moves, fivefold repetition, a dead
  position) is `proven`, with the board's result;
* a game the record ended (resignation, agreement, time forfeit, a PGN result) keeps the
  record's result, class `recorded`, and the reason says what the board says; a win on
  time by a side left with its bare King gets a note (FIDE rule 6.9: a draw);
* otherwise the prover looks for the shortest forced mate, for and against the side to
  move (`gcadj.analysis.search`); a mate it finds is checked by the proof checker
  (`gcadj.analysis.proof_check`) before it is called `proven`; a proof the checker rejects
  is a bug of gcadj's, raised as `ProofRejected`, never printed;
* with no mate: `claimable` when the position has occurred three times (a draw either
  player may claim), else `evidence` when one side leads by at least the evidence margin
  in class units **after the forced exchanges** (`gcadj.analysis.exchanges`; the static
  count of `gcadj.judging.material` stays beside it), or when the exchanges end in a
  mate the prover's depth did not reach; else `undetermined`;
* with no mate for or against the side to move, and the side to move not in check, the
  reason also states any mate in 1 or 2 the other side threatens (`threat_of`: a null
  move, then the prover, its proof checked): a fact of the position, not a proof.

What it makes is data (`gcadj.judging.adjudication`), carried by the judged game.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from gcadj.analysis.exchange_lines import after_exchanges, cut_words, exchange_words
from gcadj.analysis.options import THREAT_DEPTH, THREAT_NODES, AdjudicateOptions
from gcadj.analysis.proof import mating_line, proof_json
from gcadj.analysis.proof_check import check_proof
from gcadj.analysis.proof_steps import drawn_tree
from gcadj.analysis.search import (
    PROOF_LIMIT,
    ProgressCallback,
    Proof,
    SearchResult,
    search_mate,
)
from gcadj.engine.fen import format_fen
from gcadj.engine.position import Outcome, Position
from gcadj.engine.squares import BLACK, WHITE
from gcadj.errors import ProofRejected, SearchCut
from gcadj.judging.adjudication import Adjudication, AfterExchanges, ForcedMate, Threat
from gcadj.judging.material import Material, material
from gcadj.judging.plies import JudgedGame
from gcadj.judging.verdict import Verdict, start_position
from gcadj.vocabulary import (
    DEFAULT_POCKET_FILE,
    AdjudicationClass,
    PocketFile,
    Result,
    Side,
    Status,
    Termination,
)
from gcadj.words import plural

if TYPE_CHECKING:
    from gcadj.judging.verdict import Finding

BOARD_ENDINGS: Final = frozenset(
    {
        Termination.CHECKMATE,
        Termination.STALEMATE,
        Termination.FIFTY_MOVES,
        Termination.FIVEFOLD_REPETITION,
        Termination.DEAD_POSITION,
    }
)
CUT_WORDS: Final = {"budget": "the budget", "nodes": "the node limit", "interrupted": "Ctrl-C"}
NO_SEARCH: Final = "no mate was searched (a budget of 0 s)"
"""What is said of the mates when the budget was 0 s (``--budget 0``, a source with no time
left): the class comes from the board's end, the record, a repetition and the material."""


def adjudicate_verdict(
    verdict: Verdict,
    options: AdjudicateOptions | None = None,
    *,
    progress: ProgressCallback | None = None,
) -> Adjudication:
    """The adjudication of a judged game: the one call per game (of ``gcadj adjudicate``,
    and of any caller holding verdicts). The game is never judged again: its position comes
    from replaying the verdict's legal moves (`JudgedGame.position_after`).

    Examples:
        >>> import gcadj
        >>> verdict = gcadj.check_text("P e2-e4\\np f7-f6\\nP d2-d4\\np g7-g5\\nQ d1-h6\\n")
        >>> verdict.status.value
        'illegal'
        >>> where, what = adjudicate_verdict(verdict).reason.split(": ")
        >>> where
        "on the position before ply 5 ('Q d1-h6'), the first illegal one"
        >>> what
        'White, to move, mates in 1'
    """
    options = options or AdjudicateOptions()
    no_game = verdict.status is Status.ERROR or (
        verdict.status is Status.SYNTAX_ERROR and not verdict.partial
    )
    if verdict.log is None or no_game:
        return _no_position(verdict)
    position = JudgedGame(verdict).position_after(len(verdict.moves))
    pocket_file = verdict.log.pocket_file
    where = _where(verdict)
    if _recorded(verdict):
        board = adjudicate_position(position, options, pocket_file=pocket_file, progress=progress)
        return _with_record(board, verdict)
    judged = adjudicate_position(position, options, pocket_file=pocket_file, progress=progress)
    if where is None:
        return judged
    return _replace(judged, reason=f"{where}: {judged.reason}", board_reason=judged.reason)


def adjudicate_position(
    position: Position | str,
    options: AdjudicateOptions | None = None,
    *,
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
    progress: ProgressCallback | None = None,
) -> Adjudication:
    """The adjudication of a position: a `Position` (with its history, for repetitions; not
    changed), or a gcadj FEN or Game Courier code (`FenError` if it is neither).

    Examples:
        >>> import gcadj
        >>> found = gcadj.adjudicate_position("k7/8/2K5/8/8/8/8/7R[] w - - 0 1")
        >>> found.kind.value, found.result.value, found.reason
        ('proven', '1-0', 'White, to move, mates in 2')
        >>> found.mate.san
        ('Kb6', 'Kb8', 'Rh8#')
    """
    options = options or AdjudicateOptions()
    if isinstance(position, str):
        position = Position.starting_at(start_position(position, pocket_file))
    fen = position.fen()
    counted = material(position)
    over = position.outcome()
    if over is not None:
        return Adjudication(
            AdjudicationClass.PROVEN,
            over.result(),
            _ended_words(over),
            position=fen,
            material=counted,
        )
    search = None
    if options.budget != 0:  # a budget of 0 s: no mate is searched (NO_SEARCH)
        search = search_mate(
            position,
            options.mate_depth,
            seconds=options.budget,
            node_limit=options.node_limit,
            progress=progress,
            table_mb=options.table_mb,
        )
    mate = None
    if search is not None and search.proof is not None:
        deadline = None if options.budget is None else time.monotonic() + _left(search, options)
        try:
            mate = checked_mate(position, search.proof, pocket_file, deadline=deadline)
        except SearchCut:  # the budget ran out while the proof was checked: not proven
            search = dataclasses.replace(
                search, proof=None, cut="budget", unwritten=search.proof.winner
            )
    exchanges, count = after_exchanges(position, pocket_file)
    threat = None
    if search is not None and search.proof is None and not position.is_check():
        threat = threat_of(position, options, pocket_file)
    weighed = Weighed(counted, exchanges, exchange_words(position, exchanges, count.line), threat)
    kind, result, reason = _classify(position, search, mate, weighed, options)
    return Adjudication(
        kind,
        result,
        reason,
        position=fen,
        mate=mate,
        no_mate_within=None if search is None else search.no_mate_within,
        not_mated_within=None if search is None else search.not_mated_within,
        mate_depth=options.mate_depth,
        cut=None if search is None else search.cut,
        material=counted,
        exchanges=exchanges,
        threat=threat,
        nodes=0 if search is None else search.nodes,
        seconds=0.0 if search is None else search.seconds,
        repeated_plies=repeated_plies(position),
    )


def repeated_plies(position: Position) -> tuple[int, ...]:
    """The plies after which `position` stood, counted from the start of its history (0:
    the start itself), when it has stood there three times or more (a claimable draw:
    docs/rules.md §4); () otherwise. Read from the position's own history, never replayed."""
    if not position.can_claim_threefold_repetition():
        return ()
    keys = position.history_keys()
    return tuple(ply for ply, key in enumerate(keys) if key == position.key)


def _left(search: SearchResult, options: AdjudicateOptions) -> float:
    """The seconds of the budget the search left for checking its proof (a moment at
    least: a proof found just before the end still gets its check)."""
    assert options.budget is not None
    return max(options.budget - search.seconds, 0.5)


def checked_mate(
    position: Position, proof: Proof, pocket_file: PocketFile, *, deadline: float | None = None
) -> ForcedMate:
    """A proof written out (a tree, or a graph when large: `gcadj.analysis.proof`) and
    accepted by the proof checker; `ProofRejected` if it is not; `SearchCut` if the
    checking passes `deadline` (a `time.monotonic()` value)."""
    tree = proof_json(position, proof, pocket_file)
    winner = Side.of(proof.winner)
    check = check_proof(
        position,
        tree,
        winner=winner.value,
        moves=proof.moves,
        pocket_file=pocket_file,
        deadline=deadline,
    )
    if not check.accepted:
        raise ProofRejected(f"the proof checker rejected the prover's mate: {check.reason}")
    line = mating_line(position, proof.tree, pocket_file)
    drawn, drawn_moves = drawn_tree(position, proof.tree, pocket_file)
    return ForcedMate(
        winner,
        proof.moves,
        line.gc,
        line.san,
        tree,
        line.steps,
        drawn=drawn,
        drawn_moves=drawn_moves,
        tree_moves=proof.tree.size(),
    )


def null_move(position: Position) -> Position | None:
    """The position as it stands with the other side to move (the side to move passing:
    no en passant, the counts kept, no history), or None when the side to move is in
    check: passing would leave its King to be taken."""
    if position.is_check():
        return None
    turn = position.turn ^ 1
    number = position.fullmove_number + (1 if turn == WHITE else 0)
    passed = format_fen(
        position.board, position.pockets, turn, None, position.halfmove_clock, number
    )
    return Position(passed)


def threat_of(
    position: Position,
    options: AdjudicateOptions | None = None,
    pocket_file: PocketFile = DEFAULT_POCKET_FILE,
) -> Threat | None:
    """The shortest mate within `THREAT_DEPTH` moves the side not to move would give if it
    were its turn (`null_move`), found by the prover within the options' budget and
    `THREAT_NODES` nodes (or the options' node limit, if lower) and accepted by the proof
    checker; None when there is none, when the search was cut, or when the side to move is
    in check (no threat is then looked for). Ctrl-C during its search raises
    `KeyboardInterrupt`.

    Examples:
        >>> from gcadj.engine.position import Position
        >>> foolish = Position("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR[] w - - 0 3")
        >>> found = threat_of(foolish)  # if White passed
        >>> found.side.value, found.moves, found.san
        ('black', 1, ('Qh4#',))
    """
    options = options or AdjudicateOptions()
    passed = null_move(position)
    if passed is None or passed.outcome() is not None:
        return None
    nodes = THREAT_NODES if options.node_limit is None else min(options.node_limit, THREAT_NODES)
    search = search_mate(passed, THREAT_DEPTH, seconds=options.budget, node_limit=nodes)
    if search.cut == "interrupted":
        raise KeyboardInterrupt  # Ctrl-C between the adjudication's searches: the caller's
    proof = search.proof
    if proof is None or proof.winner != passed.turn:
        return None
    mate = checked_mate(passed, proof, pocket_file)
    return Threat(mate.winner, mate.moves, passed.fen(), mate.line, mate.san, mate.steps)


# -- the classes -------------------------------------------------------------------------


@dataclass(frozen=True)
class Weighed:
    """What the classes below weigh when no mate was proved: the static count, the count
    after the forced exchanges (with their line in words), and a threat."""

    static: Material
    exchanges: AfterExchanges
    line_words: str
    threat: Threat | None


def _classify(
    position: Position,
    search: SearchResult | None,
    mate: ForcedMate | None,
    weighed: Weighed,
    options: AdjudicateOptions,
) -> tuple[AdjudicationClass, Result, str]:
    turn = position.turn
    times = f"the position has occurred {_occurrences(repeated_plies(position))}"
    if mate is not None:
        winner = mate.winner.colour
        if winner != turn and position.can_claim_threefold_repetition():
            return (
                AdjudicationClass.CLAIMABLE,
                Result.DRAW,
                f"{times}: {Side.of(turn).capitalized}, to move, may claim a draw by threefold "
                f"repetition instead of being mated in {mate.moves}",
            )
        return (
            AdjudicationClass.PROVEN,
            Result.win_for(mate.winner),
            _mate_words(turn, winner, mate.moves),
        )
    searched = NO_SEARCH if search is None else _search_words(search, turn, options)
    if weighed.threat is not None:
        searched = f"{searched}; {threat_words(weighed.threat)}"
    if position.can_claim_threefold_repetition():
        return (
            AdjudicationClass.CLAIMABLE,
            Result.DRAW,
            f"{times}: a draw by threefold repetition may be claimed; {searched}",
        )
    exchanges = weighed.exchanges
    if exchanges.cut is None and exchanges.mate is not None:
        return (
            AdjudicationClass.EVIDENCE,
            Result.win_for(exchanges.mate),
            f"{searched}; the exchanges {weighed.line_words} are a forced mate of "
            "captures and checks, longer than the search: evidence, not proof",
        )
    lead, words = _lead(weighed)
    if abs(lead) >= options.evidence_margin:
        leader = WHITE if lead > 0 else BLACK
        return (
            AdjudicationClass.EVIDENCE,
            Result.win_for(Side.of(leader)),
            f"{searched}; {words}, at least the evidence margin of {options.evidence_margin}: "
            "evidence, not proof",
        )
    return AdjudicationClass.UNDETERMINED, Result.UNDECIDED, f"{searched}; {words}"


def _lead(weighed: Weighed) -> tuple[int, str]:
    """The lead weighed, and how it is said: after the exchanges, or the static count
    when their count was cut short."""
    exchanges = weighed.exchanges
    if exchanges.cut is not None:
        lead = weighed.static.lead
        return lead, (
            f"the count of the exchanges was cut ({cut_words(exchanges.cut)}), so "
            f"the board as it stands is weighed: {_material_words(lead)}"
        )
    lead = exchanges.balance
    if not weighed.line_words:
        return lead, _material_words(lead)
    return lead, f"after the exchanges {weighed.line_words}, {_material_words(lead)}"


def threat_words(threat: Threat) -> str:
    """``Black threatens mate in 1: Qh4#``: the threat as a fact of the position."""
    side = threat.side.capitalized
    return f"{side} threatens mate in {threat.moves}: {' '.join(threat.san)}"


def _occurrences(plies: tuple[int, ...]) -> str:
    """``3 times (after plies 4, 8 and 12)``; ``at the start`` for ply 0."""
    if not plies:
        return "once"
    where = [f"ply {ply}" for ply in plies if ply > 0]
    words = ["at the start"] if plies[0] == 0 else []
    if where:
        after = where[0] if len(where) == 1 else f"plies {', '.join(p[4:] for p in where[:-1])}"
        if len(where) > 1:
            after += f" and {where[-1][4:]}"
        words.append(f"after {after}")
    return f"{len(plies)} times ({', '.join(words)})"


def _mate_words(turn: int, winner: int, moves: int) -> str:
    if winner == turn:
        return f"{Side.of(winner).capitalized}, to move, mates in {moves}"
    loser = Side.of(turn).capitalized
    return f"{loser}, to move, is mated in {moves} whatever it plays"


def _search_words(search: SearchResult, turn: int, options: AdjudicateOptions) -> str:
    """What the search proved, and where it stopped if it was cut."""
    side = f"{Side.of(turn).capitalized} (to move)"
    for_side, against = search.no_mate_within, search.not_mated_within
    if for_side == against:
        proved = f"no forced mate within {plural(for_side, 'move')} for either side"
    else:
        proved = (
            f"no forced mate within {plural(for_side, 'move')} for {side}, "
            f"nor against it within {against}"
        )
    if search.cut is None:
        return proved
    if search.cut == "budget" and options.budget is not None:
        how = f"the budget ({options.budget:g} s)"
    elif search.cut == "nodes" and options.node_limit is not None:
        how = f"the node limit ({options.node_limit:,} nodes)"
    else:
        how = CUT_WORDS.get(search.cut, search.cut)
    if search.unwritten is not None:
        why = (
            f"its proof has more than {PROOF_LIMIT:,} positions, too many to write out and check"
            if search.cut == "proof"
            else f"{how} stopped its proof being written out and checked"
        )
        stopped = (
            f"a forced mate in {search.cut_at} for {Side.of(search.unwritten).capitalized} "
            f"was found, but {why}: it is not proven"
        )
    else:
        against_words = " against it" if search.cut_mated else ""
        stopped = f"the search for a mate in {search.cut_at}{against_words} was cut by {how}"
    return stopped if for_side == 0 and against == 0 else f"{proved}; {stopped}"


def _material_words(lead: int) -> str:
    if lead == 0:
        return "material is level"
    leader = "White" if lead > 0 else "Black"
    return f"{leader} leads by {plural(abs(lead), 'class unit')}"


def _ended_words(over: Outcome) -> str:
    how = over.termination.value.replace("-", " ")
    if over.winner is None:
        return f"the game has ended on the board: a draw by {how}"
    return f"the game has ended on the board: {Side.of(over.winner).capitalized} won by {how}"


# -- what a verdict is adjudicated on ----------------------------------------------------


def _no_position(verdict: Verdict) -> Adjudication:
    problem = (verdict.error or verdict.status.value).split("\n", 1)[0]
    return Adjudication(
        AdjudicationClass.UNDETERMINED,
        Result.UNDECIDED,
        f"no position to adjudicate: {problem}",
    )


def _where(verdict: Verdict) -> str | None:
    """Which position of the game is adjudicated, when it is not the final one."""
    first: Finding | None = verdict.first_illegal
    if verdict.status is Status.ILLEGAL and first is not None:
        return f"on the position before ply {first.ply} ({first.text!r}), the first illegal one"
    if verdict.partial:
        return f"on the position where reading stopped, before ply {verdict.plies + 1}"
    return None


def _recorded(verdict: Verdict) -> bool:
    """Did the record, not the board, end this legal game?"""
    return (
        verdict.status is Status.LEGAL
        and verdict.result is not Result.UNDECIDED
        and verdict.termination is not None
        and verdict.termination not in BOARD_ENDINGS
    )


def _with_record(board: Adjudication, verdict: Verdict) -> Adjudication:
    """The record's result stands; the board's own adjudication becomes the reason."""
    how = verdict.termination.value.replace("-", " ") if verdict.termination else "the record"
    notes = list(board.notes)
    if (
        verdict.termination is Termination.TIME_FORFEIT
        and verdict.result.winner is not None
        and board.material is not None
    ):
        winner = verdict.result.winner.colour
        if board.material.side(winner).bare:
            notes.append(
                f"{Side.of(winner).capitalized} won on time with only its King (nothing in its "
                "pocket): by FIDE's rule 6.9 that would be a draw, since a bare King can "
                "never mate"
            )
    if verdict.termination in (None, Termination.RECORDED):  # a result and nothing more
        ended = f"the record gives the result {verdict.result}"
    else:
        ended = f"the record ends the game by {how} ({verdict.result})"
    return _replace(
        board,
        kind=AdjudicationClass.RECORDED,
        result=verdict.result,
        reason=f"{ended}; on the board, {board.reason}",
        notes=tuple(notes),
    )


def _replace(adjudication: Adjudication, **changes: Any) -> Adjudication:
    return dataclasses.replace(adjudication, **changes)


__all__ = [
    "NO_SEARCH",
    "ProofRejected",
    "Weighed",
    "adjudicate_position",
    "adjudicate_verdict",
    "checked_mate",
    "null_move",
    "repeated_plies",
    "threat_of",
    "threat_words",
]
