"""The whole game analysed: at every legal ply, a mate missed, a mate allowed, material lost.

`analyse_verdict` walks the positions of a judged game (`JudgedGame.positions`: its legal
moves replayed, never judged again) and looks once at each position:

* **one mate search** (`gcadj.analysis.search.search_mate`, to the options' depth N,
  within their node limit and seconds): the shortest forced mate within N for the side to
  move or against it, or neither, or a cut;
* **one count of the exchanges** (`gcadj.analysis.exchanges`): the balance after them.

A ply's mistakes are read off the two positions around it, as docs/rules.md §8 settles:

* **missed mate**: the mover had a forced mate within N, and after the move it has none
  within N any more, or the move ended the game otherwise than by its mate (a stalemate,
  a draw);
* **allows mate**: after the move, the opponent has a forced mate within N, and the mover
  was not already lost within N before it (it had a mate of its own, or the search proved
  neither side mates within N, so another move would have left no mate);
* **loses material**: neither position has a forced mate within N, neither count was cut
  or ends in mate, the game goes on, the ply has no mate finding, and the balance after
  the exchanges fell by at least the threshold against the mover.

Every mate reported (a finding's, and the one a position's facts give) is first accepted by
the proof checker (`checked_mate`). A position whose search or count was cut claims
nothing that needs it, and says so (`PositionFacts.mate_cut`, `exchanges_cut`). What it
makes is data (`gcadj.judging.game_analysis`), carried by the verdict (`Verdict.analysis`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from gcadj.analysis.adjudicator import checked_mate
from gcadj.analysis.exchange_lines import after_exchanges, exchange_words
from gcadj.analysis.exchanges import ExchangeCount
from gcadj.analysis.options import AnalyseOptions
from gcadj.analysis.search import SearchResult, search_mate
from gcadj.engine.move import Move
from gcadj.engine.position import Outcome, Position
from gcadj.judging.adjudication import AfterExchanges, ForcedMate
from gcadj.judging.game_analysis import (
    GameAnalysis,
    MateFact,
    Mistake,
    PlyAnalysis,
    PositionFacts,
)
from gcadj.judging.plies import JudgedGame
from gcadj.judging.verdict import Verdict
from gcadj.notation.san import gc_text, move_san, numbered_moves
from gcadj.vocabulary import MistakeKind, PocketFile, Side, Termination
from gcadj.words import plural

PlyProgress = Callable[[int, int], None]
"""Called after each ply is analysed: (plies done, plies in all)."""


@dataclass(frozen=True)
class Look:
    """What the analysis saw in one position: the position's FEN, how its game ended (if it
    did), its mate search (None when the game had ended), the mate found, checked, the
    count of the exchanges and that count as data."""

    fen: str
    over: Outcome | None
    search: SearchResult | None
    mate: ForcedMate | None
    count: ExchangeCount
    exchanges: AfterExchanges
    line_words: str

    @property
    def complete(self) -> bool:
        """Did the mate search finish (so "no mate within N" may be said)?"""
        return self.search is not None and self.search.cut is None

    @property
    def counted(self) -> bool:
        """Is the count of the exchanges a balance that may be weighed?"""
        return self.count.cut is None and self.count.mated is None

    def facts(self) -> PositionFacts:
        mate = None if self.mate is None else MateFact(self.mate.winner, self.mate.moves)
        return PositionFacts(
            balance=None if self.count.cut is not None else self.count.balance,
            exchange_mate=self.exchanges.mate,
            mate=mate,
            mate_cut=None if self.search is None else self.search.cut,
            exchanges_cut=self.count.cut,
        )

    def mate_for(self, side: Side) -> ForcedMate | None:
        return self.mate if self.mate is not None and self.mate.winner is side else None


def analyse_verdict(
    verdict: Verdict,
    options: AnalyseOptions | None = None,
    *,
    progress: PlyProgress | None = None,
    deadline: float | None = None,
) -> GameAnalysis:
    """The analysis of a judged game's legal plies (see the module docstring). A verdict
    with no game raises `NoGame`; Ctrl-C during a search raises `KeyboardInterrupt`.
    `deadline` (a `time.monotonic()` instant; None: none) bounds the whole analysis, as a
    source's deadline bounds its stages (`gcadj.app.stages`): each search gets what is
    left, at most `options.budget`, and a search with no time left is cut ("budget"): its
    position claims nothing, and the analysis still ends with every ply.

    Examples:
        >>> import gcadj
        >>> verdict = gcadj.check_text("P e2-e4\\np f7-f6\\nP d2-d4\\np g7-g5\\nP a2-a3\\n")
        >>> analysis = analyse_verdict(verdict, gcadj.AnalyseOptions(mate_depth=1))
        >>> [(m.ply, m.kind.value, m.san) for m in analysis.mistakes]
        [(4, 'allows-mate', ('Qh5#',)), (5, 'missed-mate', ('Qh5#',))]
        >>> analysis.plies[4].mistakes[0].reason
        'White had a forced mate in 1 (3. Qh5#); after 3. a3 it has none within 1 move'
    """
    options = options or AnalyseOptions()
    started = time.monotonic()
    game = JudgedGame(verdict)
    pocket_file = game.log.pocket_file
    positions = game.positions()
    position = next(positions)
    before = _look(position, options, pocket_file, deadline)
    start = before.facts()
    nodes = _nodes(before)
    plies: list[PlyAnalysis] = []
    total = len(verdict.moves)
    for index, move in enumerate(verdict.moves):
        mover = position.turn
        number = position.fullmove_number
        san = move_san(position, move)
        played = _Played(
            gc_text(position, move, pocket_file), san, numbered_moves([san], before.fen), move
        )
        position = next(positions)
        after = _look(position, options, pocket_file, deadline)
        nodes += _nodes(after)
        found = _mistakes(index + 1, Side.of(mover), played, before, after, options)
        plies.append(
            PlyAnalysis(
                index + 1, number, Side.of(mover), played.gc, played.san, after.facts(), found
            )
        )
        before = after
        if progress is not None:
            progress(index + 1, total)
    return GameAnalysis(
        options.mate_depth,
        options.threshold,
        start,
        tuple(plies),
        nodes=nodes,
        seconds=time.monotonic() - started,
    )


@dataclass(frozen=True)
class _Played:
    gc: str
    san: str
    numbered: str  # the SAN with its move number: "3. a3", "2... Qg5"
    move: Move


def _look(
    position: Position, options: AnalyseOptions, pocket_file: PocketFile, deadline: float | None
) -> Look:
    """The one mate search and the one count of a position (the live one: not kept), the
    search within `options.budget` and what is left before `deadline`."""
    over = position.outcome()
    search = mate = None
    if over is None:
        seconds = options.budget
        if deadline is not None:
            left = max(0.0, deadline - time.monotonic())
            seconds = left if seconds is None else min(seconds, left)
        if seconds is not None and seconds <= 0:  # no time: no search, and it says so
            search = SearchResult(None, options.mate_depth, 0, 0, "budget", 1, False, 0, 0.0)
        else:
            search = search_mate(
                position, options.mate_depth, seconds=seconds, node_limit=options.node_limit
            )
        if search.cut == "interrupted":
            raise KeyboardInterrupt
        if search.proof is not None:
            mate = checked_mate(position, search.proof, pocket_file)
    exchanges, count = after_exchanges(position, pocket_file)
    words = exchange_words(position, exchanges, count.line)
    return Look(position.fen(), over, search, mate, count, exchanges, words)


def _nodes(look: Look) -> int:
    return look.count.nodes + (0 if look.search is None else look.search.nodes)


def _mistakes(
    ply: int, mover: Side, played: _Played, before: Look, after: Look, options: AnalyseOptions
) -> tuple[Mistake, ...]:
    """The mistakes of one ply, from the positions before and after it."""
    other = mover.other
    found = []
    had = before.mate_for(mover)
    if had is not None and _lost_it(mover, after):
        found.append(_missed(ply, mover, played, before, had, after, options))
    given = after.mate_for(other)
    not_lost = had is not None or (before.complete and before.mate is None)
    if after.over is None and given is not None and not_lost:
        reason = (
            f"{mover.value.capitalize()} allows a forced mate in {given.moves} with "
            f"{played.numbered}: {numbered_moves(given.san, after.fen)}"
        )
        found.append(
            Mistake(
                MistakeKind.ALLOWS_MATE,
                ply,
                mover,
                reason,
                after.fen,
                given.line,
                given.san,
                moves=given.moves,
                steps=given.steps,
            )
        )
    if not found:
        lost = _material_lost(ply, mover, played, before, after, options)
        if lost is not None:
            found.append(lost)
    return tuple(found)


def _lost_it(mover: Side, after: Look) -> bool:
    """After the move, is the mover's forced mate within N gone: the game ended otherwise
    than by its mate, or a finished search finds none for it?"""
    if after.over is not None:
        return not (
            after.over.termination is Termination.CHECKMATE and after.over.winner == mover.colour
        )
    return after.complete and after.mate_for(mover) is None


def _missed(
    ply: int,
    mover: Side,
    played: _Played,
    before: Look,
    had: ForcedMate,
    after: Look,
    options: AnalyseOptions,
) -> Mistake:
    line = numbered_moves(had.san, before.fen)
    name = mover.value.capitalize()
    if after.over is not None:
        how = after.over.termination.value.replace("-", " ")
        then = f"{played.numbered} ends the game in a draw by {how}"
    else:
        then = f"after {played.numbered} it has none within {plural(options.mate_depth, 'move')}"
    return Mistake(
        MistakeKind.MISSED_MATE,
        ply,
        mover,
        f"{name} had a forced mate in {had.moves} ({line}); {then}",
        before.fen,
        had.line,
        had.san,
        moves=had.moves,
        steps=had.steps,
    )


def _material_lost(
    ply: int, mover: Side, played: _Played, before: Look, after: Look, options: AnalyseOptions
) -> Mistake | None:
    """The loses-material mistake of a ply, if its balances say so (module docstring)."""
    weighable = (
        after.over is None
        and before.complete
        and after.complete
        and before.mate is None
        and after.mate is None
        and before.counted
        and after.counted
    )
    if not weighable:
        return None
    then, now = before.count.balance, after.count.balance
    lost = then - now if mover is Side.WHITE else now - then
    if lost < options.threshold:
        return None
    if after.line_words or not before.line_words:
        start, shown = after, after.exchanges
        how = f"the exchanges {after.line_words} follow" if after.line_words else "so it stands"
    else:  # the exchanges the mover could have made are gone: show them
        start, shown = before, before.exchanges
        how = f"the exchanges {before.line_words} were there to be made before it"
    return Mistake(
        MistakeKind.LOSES_MATERIAL,
        ply,
        mover,
        f"{mover.value.capitalize()} loses {plural(lost, 'class unit')} with "
        f"{played.numbered}: {how}; the balance after the exchanges goes from "
        f"{balance_words(then)} to {balance_words(now)}",
        start.fen,
        shown.line,
        shown.san,
        before=then,
        after=now,
        lost=lost,
        steps=shown.steps,
    )


def balance_words(balance: int) -> str:
    """White's lead as a player says it: ``level``, ``White +5``, ``Black +3``."""
    if balance == 0:
        return "level"
    return f"{(Side.WHITE if balance > 0 else Side.BLACK).capitalized} +{abs(balance)}"


__all__ = ["Look", "PlyProgress", "analyse_verdict", "balance_words"]
