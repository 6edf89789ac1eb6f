"""A game viewer: an HTML page to step through checked games in a browser.

People who study or adjudicate a game want to walk through it, not read a list of FENs.
By default the page has everything inline (CSS, a small script, the SVG parts of the
diagram), loads nothing and works from ``file://``. The diagram is `gcadj.outputs.svg_diagram`'s:
the page holds its fixed parts once (the kit: `board_kit`'s board, one drawing per piece,
turn marks, and the legend of the letters) and, per position, the FEN (the script places
the pieces from it) and the `marks` (last move, check or mate, the illegal move), so a
long game stays small and the pictures match ``export --to svg`` exactly.

An audit writes thousands of pages into one folder: there each page links the style and
a script carrying the kit (`viewer_assets`, two files written once beside the pages), and
holds only its own game, about a sixth of a self-contained page.

The page is made from one walk over each judged game (`gcadj.judging.plies`): it
shows what the judge found, and never judges or replays a game of its own.

Steps are positions: step 0 is the start, step N the position after N legal plies.
Past the first ply that is not legal the game goes on as Game Courier showed it: each
illegal ply is a step of its own, in red on the board it was played on, with its finding
in a player's words (`gcadj.outputs.plain_words`: "move 12, Black", a sentence for the
category, its term on hover) and the suggestions; after it and after every later ply, a
step shows the board Game Courier showed, the ply's sub-moves applied as typed
(`JudgedGame.shown_boards`: nothing is judged; the steps stop at a board that is no
position). ``#ply=N`` in the address opens step N and follows the stepping, so a position
can be shared; ``&flip=1`` shows the board from Black's side. Without an address the page
opens at the end of the game, or at its first illegal ply. Text the reader could not read
is listed after the plies, as typed, its error laid out with its caret.

A game may carry its adjudication (`Verdict.adjudication`, made by the pipeline's stage
when asked: ``gcadj serve``, ``audit --adjudicate``, ``export --adjudicate``), whatever
ended it: how strong, the result proposed, the reason in a player's words, the material,
the notes (FIDE's rule 6.9), the positions a claimable repetition stood on (marked ↻ in
the move list), and a mate's lines: the mating line, and every defence of the proof as a
tree opened a defence at a time. Their positions are steps that **branch** from the
position adjudicated (the game's last, or the one before its first illegal move): each
step knows the step before it (`Step.parent`), so ◀ goes back along its line, ▶ goes on
along it, and ▶ at the end of the game's boards never jumps back in time into a line. The
positions are those the prover recorded for the proof the checker accepted
(`ForcedMate.steps`, `ForcedMate.drawn`): the viewer plays no move.

A game may carry its analysis (`Verdict.analysis`: ``export --to html --analyse``, ``audit
--analyse``, a ``gcadj serve`` check with ``analyse=1``): each ply with a finding is
marked in the move list (``??``, ``?``), its line steps on the board as a side line
branching from the position it starts from, and a box under the verdict has the counts,
the findings and a small graph of the balance after the exchanges
(`gcadj.outputs.viewer_analysis`).

A game's part of a page is data (`GameView`, made by `game_view`), and `viewer_page`
makes a page from such data alone: ``gcadj serve`` keeps the data and makes the page
whenever it is asked for.

A page of several games (`write_games_viewer`) has a game list (a menu and links) above
the board; the address is then ``#game=G&ply=N`` (games counted from 1), and each game's
header, facts and moves are swapped in when it is chosen.

Everything taken from the log (tags, moves as typed, comments, reasons quoting them) is
HTML-escaped; the game data travels as JSON in a non-executed script element with ``<``
escaped, so no log text can close it. So does each game itself, as Game Courier text
(``export --to gc``'s) in the ``gcadj-games`` element (`gcadj.about.GAMES_BLOCK_ID`):
``gcadj check viewer.html`` reads it back and gives the game's verdict
(`gcadj.sources.own`).
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from gcadj.about import GAMES_BLOCK_ID, GENERATOR_META
from gcadj.engine.move import Move
from gcadj.engine.pieces import PIECE
from gcadj.engine.position import Position
from gcadj.engine.squares import WHITE
from gcadj.errors import ExportError
from gcadj.judging.adjudication import Adjudication, ForcedMate, ProofMove
from gcadj.judging.game_analysis import GameAnalysis, PlyAnalysis
from gcadj.judging.plies import JudgedGame, JudgedPly, ShownBoard
from gcadj.judging.verdict import Finding, Verdict
from gcadj.notation.records import GameLog, UnreadText
from gcadj.outputs.html_text import breakable, message_html
from gcadj.outputs.legend import piece_legend
from gcadj.outputs.plain_words import (
    ADJUDICATION_WORDS,
    PROPOSED_WORDS,
    category_sentence,
    move_words,
    result_words,
    term,
)
from gcadj.outputs.svg_diagram import FONT, BoardKit, board_kit, marked_cells, sides_marks
from gcadj.outputs.viewer_analysis import analysis_box, line_html, move_mark
from gcadj.outputs.viewer_code import VIEWER_SCRIPT, VIEWER_STYLE
from gcadj.outputs.writers.gc import write_gc
from gcadj.urls import is_url
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PRESETS, PocketFile, Side, Status
from gcadj.words import plural

__all__ = [
    "VIEWER_FILE",
    "GameView",
    "Step",
    "ViewerAssets",
    "game_view",
    "viewer_assets",
    "viewer_filename",
    "viewer_page",
    "write_games_viewer",
    "write_viewer",
]


VIEWER_FILE: Final = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,39}-[0-9a-f]{12}\.html")
"""Every name `viewer_filename` gives, and nothing else: what a server may serve as a
viewer (no path, no hidden file, no option-like leading ``-``)."""


def viewer_filename(source: str) -> str:
    """The file name of a source's viewer in an audit's viewer folder: readable (the end of
    the source's name, in letters, digits, ``._-``) and unique (a digest of the whole
    name), so the audit's workers and the report agree on it without sharing anything.

    Whatever the name (``-final.txt``, ``.hidden``, a name in any script), the result
    matches `VIEWER_FILE`: it starts with a letter, a digit or ``_``.

    >>> viewer_filename("games/-final.txt")
    'final-a75ab2be800d.html'
    """
    tail = re.split(r"[/\\?=&]", source.rstrip("/"))[-1]
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", tail.rsplit(".", 1)[0] if "." in tail else tail)
    stem = stem[:40].lstrip(".-") or "game"
    digest = hashlib.sha1(source.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{stem}-{digest}.html"


@dataclass(frozen=True)
class Step:
    """One position a viewer shows: its FEN (the script draws the pieces and the turn from
    it), its marks for the board seen from White's side and from Black's
    (`gcadj.outputs.svg_diagram.marks`), its label, and the step before it (`parent`: None for the
    step just before it in the list, as along the game; a line that is not the game's, an
    adjudication's mating line or a defence of its proof, branches from the step it was
    played from, so that ◀ goes back there and ▶ at the game's end never jumps into it)."""

    fen: str
    marks: str
    flipped: str
    label: str
    parent: int | None = None

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"f": self.fen, "m": self.marks, "r": self.flipped}
        data["l"] = self.label
        if self.parent is not None:
            data["p"] = self.parent
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Step:
        parent = data.get("p")
        return cls(
            str(data["f"]),
            str(data["m"]),
            str(data["r"]),
            str(data["l"]),
            None if parent is None else int(parent),
        )


@dataclass(frozen=True)
class GameView:
    """One game's part of a viewer page, made from its judged game by one walk
    (`game_view`): its steps and the first one shown (`initial`), the HTML of its header,
    facts and move list, its entry in a game list, and the game as Game Courier text
    (`write_gc`: what `gcadj check` reads back from the page).

    It is data (`to_json`, `from_json`): ``gcadj serve`` keeps it and makes the page from
    it (`viewer_page`) whenever the page is asked for, without the game's verdict."""

    title: str
    pocket_file: PocketFile
    steps: tuple[Step, ...]
    initial: int
    head: str
    facts: str
    items: tuple[str, ...]
    label: str
    gc: str

    def to_json(self) -> dict[str, object]:
        return {
            "title": self.title,
            "pocket_file": str(self.pocket_file),
            "steps": [step.to_json() for step in self.steps],
            "initial": self.initial,
            "head": self.head,
            "facts": self.facts,
            "items": list(self.items),
            "label": self.label,
            "gc": self.gc,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameView:
        return cls(
            title=str(data["title"]),
            pocket_file=PocketFile(str(data["pocket_file"])),
            steps=tuple(Step.from_json(step) for step in data["steps"]),
            initial=int(data["initial"]),
            head=str(data["head"]),
            facts=str(data["facts"]),
            items=tuple(str(item) for item in data["items"]),
            label=str(data["label"]),
            gc=str(data["gc"]),
        )


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _cap(words: str) -> str:
    """`words` with a capital first letter ("move 3, White" starts a label)."""
    return words[:1].upper() + words[1:]


def _dots(white: bool) -> str:
    return "." if white else "..."


def write_viewer(verdict: Verdict, *, size: int = 48, assets: ViewerAssets | None = None) -> str:
    """The viewer page of a game (see the module docstring).

    Works for legal and illegal games and for partial verdicts (a ``syntax-error`` whose
    log holds the readable plies before the unreadable one); raises `ExportError` when
    the verdict has no game at all.
    """
    return write_games_viewer([verdict], size=size, assets=assets)


def write_games_viewer(
    verdicts: Sequence[Verdict], *, size: int = 48, assets: ViewerAssets | None = None
) -> str:
    """One viewer page holding every game of `verdicts`, in order, with a game list when
    there are several (see the module docstring); `ExportError` for a verdict without a
    game, or for none. The page is self-contained, or, with `assets` (`viewer_assets`),
    links the shared style and script, which must be written beside it."""
    if not verdicts:
        raise ExportError("no game to show")
    return viewer_page([game_view(verdict, size=size) for verdict in verdicts], size, assets)


def game_view(verdict: Verdict, *, size: int = 48) -> GameView:
    """One walk over the judged game: a step per position, an item per ply (see the
    module docstring); `ExportError` when the verdict has no game. The game's
    adjudication (`Verdict.adjudication`) is shown under its verdict, its mating line as
    steps after the game's."""
    if verdict.log is None:
        raise ExportError(f"{verdict.source}: no game to show ({verdict.status})")
    game = JudgedGame(verdict)
    log = game.log
    walk = _Walker(game, size)
    adjudication = verdict.adjudication
    if adjudication is not None and adjudication.repeated_plies:
        walk.repeated = frozenset(adjudication.repeated_plies)
        walk.items[0] = _start_item(game, walk.repeats(0))
    for ply in game.plies():
        walk.visit(ply)
    initial = len(walk.steps) - 1 if walk.first_red is None else walk.first_red
    shown = ""
    if adjudication is not None:
        shown = _Adjudicated(verdict, adjudication, walk).html()
    if verdict.analysis is not None:
        shown += _analysed(verdict.analysis, walk)
    unread = game.unread
    nxt = walk.next_words
    if unread is not None:
        walk.items.append(_unread_item(nxt, unread, verdict.source))
    elif verdict.status == Status.SYNTAX_ERROR and verdict.error:
        walk.items.append(_unreadable_item(nxt, verdict.error, verdict.source))
    white, black = log.tag("White"), log.tag("Black")
    title = f"{white or '?'} – {black or '?'}" if white or black else verdict.source
    status = STATUS_WORDS.get(verdict.status, str(verdict.status))
    return GameView(
        title=title,
        pocket_file=log.pocket_file,
        steps=tuple(walk.steps),
        initial=initial,
        head=_head_html(verdict, title, white, black, walk) + shown,
        facts=_facts_html(verdict, log),
        items=tuple(walk.items),
        label=f"{title} ({status})" if white or black else f"{title}: {status}",
        gc=write_gc(verdict),
    )


STATUS_WORDS: Final = {
    "legal": "legal",
    "illegal": "illegal move",
    "syntax-error": "unreadable move",
    "error": "not read",
}


class _Walker:
    """The steps and items of one game, made ply by ply as the walk visits them.

    Steps: the start, the position after each legal ply; then, from the first ply that
    is not legal, the board Game Courier showed after each ply (`JudgedGame.shown_boards`),
    each illegal ply first shown in red on the board it was played on. A step's index is
    its ``#ply=N``: for the legal prefix, the number of plies played."""

    def __init__(self, game: JudgedGame, size: int) -> None:
        self.game = game
        self.size = size
        self.pocket_file = game.log.pocket_file
        start = game.position_after(0)
        self.steps: list[Step] = [self.step(start, "Start")]
        self.items: list[str] = [_start_item(game)]  # marked when repeated: `game_view`
        self.shown: Iterator[ShownBoard] | None = None
        self.before: Position | None = (
            None  # the board the next ply is played on, past the legal game
        )
        self.previous: Move | tuple[str | None, str] | None = None  # the last ply shown
        self.stopped: str | None = None  # why the boards shown stop (no position)
        self.first_red: int | None = None
        self.last_words: str | None = None
        self.next_number = start.fullmove_number
        self.next_white = start.turn == WHITE
        self.repeated: frozenset[int] = frozenset()  # plies after which a position repeats

    @property
    def next_words(self) -> str:
        return move_words(self.next_number, Side.WHITE if self.next_white else Side.BLACK)

    def step(self, position: Position, label: str, parent: int | None = None, **drawn: Any) -> Step:
        """A step of `position`, its marks drawn for both sides of the board."""
        try:
            straight, turned = sides_marks(
                position, pocket_file=self.pocket_file, size=self.size, **drawn
            )
        except (ValueError, KeyError, IndexError):  # a square the diagram cannot place
            straight, turned = sides_marks(position, pocket_file=self.pocket_file, size=self.size)
        return Step(position.fen(), straight, turned, label, parent)

    def repeats(self, step: int) -> str | None:
        """What a move item says when the position after it is one the adjudication found
        repeated ("3rd of 3 times"), else None. The legal steps are numbered by ply."""
        if step not in self.repeated:
            return None
        order = sorted(self.repeated)
        return f"this position, {_ordinal(order.index(step) + 1)} of {len(order)} times"

    def analysed(self, index: int) -> PlyAnalysis | None:
        """The analysis of the game's legal ply `index` (0-based), if the game has one."""
        analysis = self.game.verdict.analysis
        if analysis is None or index >= len(analysis.plies):
            return None
        return analysis.plies[index]

    def add_step(self, fen: str, label: str, parent: int, move: Move) -> int:
        """A step of a line that is not the game's (`gcadj.outputs.viewer_analysis`),
        branching from step `parent`: its index."""
        self.steps.append(self.step(Position(fen), label, parent, last_move=move))
        return len(self.steps) - 1

    def visit(self, ply: JudgedPly) -> None:
        words = move_words(ply.move_number, ply.side)
        self.last_words = words
        self.next_number = ply.move_number + (0 if ply.white else 1)
        self.next_white = not ply.white
        if ply.move is not None:
            marked = move_mark(self.analysed(ply.index))
            item = _move_item(ply, len(self.steps), self.repeats(len(self.steps)), marked)
            self.items.append(item)
            with ply.after() as after:
                self.steps.append(self.step(after, f"{_cap(words)}: {ply.san}", last_move=ply.move))
            self.previous = None
            return
        if self.shown is None:  # the first ply that is not legal: the boards shown start
            self.shown = self.game.shown_boards()
            self.before = ply.position.copy()
            moves = self.game.verdict.moves
            self.previous = moves[-1] if moves else None
        self._visit_unplayed(ply, words)

    def _visit_unplayed(self, ply: JudgedPly, words: str) -> None:
        """A ply past the legal game: in red on its board if it has a finding, then the
        board Game Courier showed after it."""
        red = None
        if ply.finding is not None and self.before is not None and self.stopped is None:
            red = len(self.steps)
            if self.first_red is None:
                self.first_red = red
            self.steps.append(
                self.step(
                    self.before,
                    f"{_cap(words)}: {ply.text} is illegal; the board it was played on",
                    last_move=self.previous,
                    illegal=marked_cells(ply.record),
                )
            )
        shown = next(self.shown, None) if self.shown is not None and self.stopped is None else None
        after = None
        cells = marked_cells(ply.record)
        if shown is not None and shown.position is not None:
            after = len(self.steps)
            label = f"{_cap(words)}: {ply.text}, as Game Courier showed it"
            if shown.refused is not None:
                label += " (it would have refused it, so the board is unchanged)"
            self.steps.append(self.step(shown.position, label, last_move=cells))
            self.before, self.previous = shown.position, cells
        elif shown is not None:
            self.stopped = shown.problem
        if ply.finding is not None:
            self.items.append(_illegal_item(ply, ply.finding, red, after))
        else:
            self.items.append(_shown_item(ply, after, shown))


# -- a game's adjudication ------------------------------------------------------------


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 < 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _numbered(fen: str, san: str) -> str:
    """A move numbered from the position it is played on (its FEN): ``3. Qh5#``, ``3... Kb8``."""
    fields = fen.split()
    number = fields[5] if len(fields) > 5 else "1"
    return f"{number}{_dots(len(fields) < 2 or fields[1] == 'w')} {san}"


class _Adjudicated:
    """A game's adjudication on its page: the box under the verdict (how strong, the result
    proposed, the reason, the mating line, every defence of the proof, the material, the
    notes), and the steps of its lines. Each line branches from the step of the position
    that was adjudicated: the game's last, or, for an illegal game, the one before its
    first illegal move (a step of the game, before the boards Game Courier showed)."""

    def __init__(self, verdict: Verdict, adjudication: Adjudication, walk: _Walker) -> None:
        self.verdict = verdict
        self.adjudication = adjudication
        self.walk = walk
        self.root = len(verdict.moves)  # the step of the position adjudicated
        first = verdict.first_illegal
        self.where: str | None = None  # that position, when it is not the game's last
        if first is not None:
            self.where = f"before {move_words(first.move_number, first.side)}"
        elif verdict.partial:
            self.where = "where gcadj stopped reading the game"

    def html(self) -> str:
        adjudication = self.adjudication
        kind = adjudication.kind
        how = term(ADJUDICATION_WORDS.get(kind, str(kind)), str(kind), tag="b")
        proposed = term(PROPOSED_WORDS.get(adjudication.result, ""), str(adjudication.result))
        reason = _reason_html(self.reason(), adjudication.reason)
        parts = [
            f'<div class="adjudication {_e(kind)}" id="adjudication"><p>Adjudication: {how}, '
            f"{proposed}. {reason}.</p>"
        ]
        mate = adjudication.mate
        if mate is not None and adjudication.position is not None:
            parts.append(self.line_html(mate))
            parts.append(self.proof_html(mate))
        if adjudication.repeated_plies:
            plies = ", ".join(
                "the start" if ply == 0 else f"after {_e(self.walk_words(ply))}"
                for ply in adjudication.repeated_plies
            )
            parts.append(
                f'<p class="repeated-plies">The position stood {len(adjudication.repeated_plies)}'
                f" times: {plies} (marked ↻ in the list).</p>"
            )
        parts.append(_material_html(adjudication))
        parts.extend(f'<p class="note">Note: {_e(note)}</p>' for note in adjudication.notes)
        parts.append("</div>")
        return "".join(parts)

    def walk_words(self, ply: int) -> str:
        """Ply `ply` of the game as players say it: "move 6, Black"."""
        start = self.walk.game.position_after(0)
        white_first = start.turn == WHITE
        index = ply - 1 + (0 if white_first else 1)
        return move_words(
            start.fullmove_number + index // 2, Side.WHITE if index % 2 == 0 else Side.BLACK
        )

    def reason(self) -> str:
        """The reason in a player's words: which position of the game it was made on (before
        the first illegal move, or where reading stopped) said with the move number and side,
        then what the board says."""
        adjudication, first = self.adjudication, self.verdict.first_illegal
        board = adjudication.board_reason
        if board is None:
            return adjudication.reason
        if first is not None:
            return f"on the position {self.where} ({first.text}), the first illegal move: {board}"
        return f"on the position {self.where}: {board}"

    def label(self) -> str:
        """How a line's steps are labelled: not played, and from which position."""
        if self.where is None:
            return "not played"
        return f"from the position {self.where}, not played"

    def line_html(self, mate: ForcedMate) -> str:
        """The mating line, each move a step branching from the position adjudicated
        (`ForcedMate.steps`: recorded by the prover, checked by the proof checker)."""
        walk, before = self.walk, self.adjudication.position or ""
        parent = self.root
        moves = []
        for san, step in zip(mate.san, mate.steps, strict=True):
            numbered = _numbered(before, san)
            label = f"Mating line, {self.label()}: {numbered}"
            here = len(walk.steps)
            walk.steps.append(
                walk.step(Position(step.fen_after), label, parent, last_move=step.move)
            )
            moves.append(f'<li data-ply="{here}"><a href="#ply={here}">{_e(numbered)}</a></li>')
            parent, before = here, step.fen_after
        where = "" if self.where is None else f", from the position {_e(self.where)}"
        return f'<div class="line">Mating line{where}: <ol>{"".join(moves)}</ol></div>'

    def proof_html(self, mate: ForcedMate) -> str:
        """Every defence of the proof as a tree: a defence at a time, each opened to the
        winner's answer and the defences to that, each move a step of the board."""
        if not mate.drawn or mate.tree_moves <= 1:  # a mate in 1: its line is all of it
            return ""
        before = self.adjudication.position or ""
        mated = mate.tree.get("move") is None  # the side to move is mated: its moves first
        tree = self.tree_html(mate.drawn, self.root, before, defences=mated)
        more = ""
        if mate.drawn_moves < mate.tree_moves:
            more = (
                f'<p class="more">The proof has {mate.tree_moves:,} moves; the first '
                f"{mate.drawn_moves:,} are drawn here (<code>gcadj adjudicate -v</code> lists "
                "them all).</p>"
            )
        return (
            f'<details class="proof"><summary>Every defence: the proof '
            f"({plural(mate.tree_moves, 'move')})</summary>{tree}{more}</details>"
        )

    def tree_html(
        self, moves: tuple[ProofMove, ...], parent: int, before: str, *, defences: bool
    ) -> str:
        """`moves` played from step `parent` (the position `before`): the winner's moves
        with the defences under them, or defences, each in its own ``<details>`` that
        opens to the answer and what follows."""
        items = []
        for move in moves:
            link = self.move_link(move, parent, before)
            here = len(self.walk.steps) - 1
            if not defences:  # the winner's move: every defence to it, below
                sub = self.tree_html(move.answers, here, move.step.fen_after, defences=True)
                items.append(f'<li class="attack">{link}{sub}</li>')
                continue
            if not move.answers:
                items.append(f'<li class="defence">{link}</li>')
                continue
            (answer,) = move.answers
            reply = self.move_link(answer, here, move.step.fen_after)
            answered = len(self.walk.steps) - 1
            deeper = self.tree_html(answer.answers, answered, answer.step.fen_after, defences=True)
            if not deeper:
                items.append(f'<li class="defence">{link} {reply}</li>')
            else:
                items.append(
                    f'<li class="defence"><details><summary>{link} {reply}</summary>'
                    f"{deeper}</details></li>"
                )
        return f'<ul class="tree">{"".join(items)}</ul>' if items else ""

    def move_link(self, move: ProofMove, parent: int, before: str) -> str:
        """A step for `move`, played from step `parent`, and its link."""
        walk = self.walk
        numbered = _numbered(before, move.san)
        here = len(walk.steps)
        label = f"Proof, {self.label()}: {numbered}"
        walk.steps.append(
            walk.step(Position(move.step.fen_after), label, parent, last_move=move.step.move)
        )
        return f'<a data-ply="{here}" href="#ply={here}">{_e(numbered)}</a>'


def _analysed(analysis: GameAnalysis, walk: _Walker) -> str:
    """The game's analysis on its page (`gcadj.outputs.viewer_analysis`): each finding's
    line under its move item, as steps branching from the game's; the box under the
    verdict (counts, the graph of the balance, the findings)."""
    for analysed in analysis.plies:
        step = analysed.ply  # a legal ply's step and item are numbered by the ply
        if not analysed.mistakes or step >= len(walk.items):
            continue
        lines = line_html(analysed, step, walk.steps[step].fen, walk.add_step)
        if lines:
            walk.items[step] = walk.items[step].removesuffix("</li>") + lines + "</li>"
    return analysis_box(analysis)


def _material_html(adjudication: Adjudication) -> str:
    material = adjudication.material
    if material is None:
        return ""
    rows = "".join(
        f"<tr><th>{name}</th>{''.join(f'<td>{n}</td>' for n in side.by_class)}"
        f"<td>{side.total}</td><td>{_e(side.pocket or '–')}</td></tr>"
        for name, side in (("White", material.white), ("Black", material.black))
    )
    heads = "".join(f"<th>{n}</th>" for n in range(1, len(material.white.by_class) + 1))
    return (
        f'<details class="material"><summary>Material: White {material.white.total}, '
        f"Black {material.black.total} (class units)</summary><table><tr><th>class</th>"
        f"{heads}<th>total</th><th>pocket</th></tr>{rows}</table></details>"
    )


def _reason_html(words: str, precise: str) -> str:
    """The reason in a player's words, with the precise one on hover when they differ."""
    if words == precise:
        return _e(_cap(words))
    return term(_cap(words), _cap(precise))


# -- the move list ---------------------------------------------------------------------


def _comment_html(comments: list[str]) -> str:
    if not comments:
        return ""
    return f'<div class="comment">{"<br>".join(_e(line) for line in comments)}</div>'


def _start_item(game: JudgedGame, repeats: str | None = None) -> str:
    mark = _repeat_mark(repeats)
    return (
        f'<li data-ply="0"{" class=repeated" if repeats else ""}><a href="#ply=0">'
        f'<span class="num">Start</span>{mark}</a>{_comment_html(game.leading_comments)}</li>'
    )


def _repeat_mark(repeats: str | None) -> str:
    """The mark of a position the adjudication found repeated (a claimable draw)."""
    if repeats is None:
        return ""
    return f' <span class="repeat" title="{_e(repeats)}">↻ {_e(repeats)}</span>'


def _move_item(
    ply: JudgedPly, step: int, repeats: str | None = None, marked: tuple[str, str] = ("", "")
) -> str:
    """A legal ply's item; `marked`: the mark of its analysis's findings and their classes
    (`gcadj.outputs.viewer_analysis.move_mark`)."""
    typed, canonical = ply.text, ply.gc or ply.text
    title = f' title="Game Courier, canonical: {_e(canonical)}"' if canonical != typed else ""
    side = "w" if ply.white else "b"
    mark, classes = marked
    return (
        f'<li data-ply="{step}" class="{side}{" repeated" if repeats else ""}{classes}">'
        f'<a href="#ply={step}">'
        f'<span class="num">{ply.move_number}{_dots(ply.white)}</span> '
        f'<span class="san">{_e(ply.san)}</span>{mark} '
        f'<code class="gc"{title}>{_e(typed)}</code>{_repeat_mark(repeats)}</a>'
        f"{_comment_html(ply.comments)}</li>"
    )


def _finding_html(finding: Finding, san: bool) -> str:
    """A finding in a player's words (the category's term on hover), where it was typed,
    and each suggestion with the text that would replace the typed ply (`data-fix`: SAN
    for a ply typed as SAN, else Game Courier text)."""
    sentence = category_sentence(finding.category)
    parts = [
        f'<div class="finding"><p>{term(sentence, str(finding.category), tag="b")} '
        f'{_e(_cap(finding.reason))}. <span class="where">(line {finding.line}, column '
        f"{finding.column})</span></p>"
    ]
    if finding.suggestions:
        parts.append('<div class="suggestions">Did you mean:<ul>')
        for s in finding.suggestions:
            fix = s.san if san else s.text
            parts.append(
                f'<li class="suggestion" data-fix="{_e(fix)}"><code>{_e(s.text)}</code> '
                f"({_e(s.san)}){' — ' + _e(s.why) if s.why else ''}</li>"
            )
        parts.append("</ul></div>")
    parts.append("</div>")
    return "".join(parts)


def _illegal_item(ply: JudgedPly, finding: Finding, red: int | None, after: int | None) -> str:
    """An illegal ply: opens its red step (the board it was played on); the step after it,
    the board Game Courier showed, counts as its own too (`data-after`)."""
    where = "" if red is None else f' data-ply="{red}"'
    if after is not None:
        where += f' data-after="{after}"'
    typed = (
        f' data-typed="{_e(finding.text)}" data-line="{finding.line}" '
        f'data-column="{finding.column}"'
    )
    head = (
        f'<span class="num">{ply.move_number}{_dots(ply.white)}</span> '
        f'<code class="gc">{_e(ply.text)}</code> <span class="flag">illegal</span>'
    )
    link = head if red is None else f'<a href="#ply={red}">{head}</a>'
    return (
        f'<li{where} class="illegal"{typed}>{link}{_finding_html(finding, ply.record.san)}'
        f"{_comment_html(ply.comments)}</li>"
    )


def _shown_item(ply: JudgedPly, after: int | None, shown: ShownBoard | None) -> str:
    """A ply after the first illegal one: the board Game Courier showed after it, when
    that board is a position; not judged, since the game had gone wrong before it."""
    body = (
        f'<span class="num">{ply.move_number}{_dots(ply.white)}</span> '
        f'<code class="gc">{_e(ply.text)}</code>'
    )
    if after is None:
        why = "not shown: the board before it is no position"
        if shown is not None and shown.problem:
            why = f"not shown: the board after it is no position ({shown.problem})"
        return f'<li class="unjudged" title="{_e(why)}">{body}{_comment_html(ply.comments)}</li>'
    title = "not judged: the game went wrong before it; the board Game Courier showed"
    return (
        f'<li data-ply="{after}" class="shown" title="{title}"><a href="#ply={after}">{body}</a>'
        f"{_comment_html(ply.comments)}</li>"
    )


def _unreadable_item(words: str, error: str, source: str) -> str:
    return (
        f'<li class="illegal unreadable"><span class="num">{_e(_cap(words))}</span> '
        f'<span class="flag">unreadable</span><div class="finding">'
        f"{message_html(error, source)}</div></li>"
    )


def _unread_item(words: str, unread: UnreadText, source: str) -> str:
    """The text from the unreadable ply on, as typed, with the syntax error."""
    return (
        f'<li class="illegal unreadable"><span class="num">{_e(_cap(words))}</span> '
        f'<span class="flag">unreadable</span><div class="finding">'
        f"{message_html(unread.error, source)}</div>"
        f'<pre class="unread" title="not read: as typed, from line {unread.line}">'
        f"{_e(unread.text.rstrip(chr(10)))}</pre></li>"
    )


# -- the page --------------------------------------------------------------------------


def _verdict_html(verdict: Verdict, walk: _Walker) -> str:
    """The verdict in a player's words: "move 12, Black" for "ply 24", a sentence for the
    category (its term on hover), "Game not finished" for ``*``."""
    finding = verdict.first_illegal
    precise = f"{verdict.result} ({verdict.termination or 'ongoing'})"
    result = term(result_words(verdict.result, verdict.termination), precise, tag="b")
    if verdict.status == Status.LEGAL:
        moves = (
            "No move was played."
            if walk.last_words is None
            else (f"Every move is legal, up to {walk.last_words}.")
        )
        return f'<div class="verdict legal"><p>{moves} {result}.</p></div>'
    if verdict.status == Status.ILLEGAL and finding is not None:
        where = move_words(finding.move_number, finding.side)
        sentence = category_sentence(finding.category)
        more = len(walk.game.findings)
        every = f" {more} illegal moves in all, each in red in the list." if more > 1 else ""
        return (
            f'<div class="verdict illegal"><p>{term(_cap(where), f"ply {finding.ply}", tag="b")}'
            f", <code>{_e(finding.text)}</code>, is illegal. "
            f"{term(sentence, str(finding.category))} {_e(_cap(finding.reason))}.</p>"
            f"<p>Every move before it is legal.{every}</p></div>"
        )
    legal = "" if walk.last_words is None else f"Every move is legal up to {walk.last_words}; "
    return (
        f'<div class="verdict illegal"><p>{legal}{_e(walk.next_words)} could not be read '
        "(in the list below).</p></div>"
    )


def _head_html(
    verdict: Verdict, title: str, white: str | None, black: str | None, walk: _Walker
) -> str:
    players = ""
    if white or black:
        players = (
            f'<p class="players">{Side.WHITE.capitalized}: {_e(white or "?")} · '
            f"{Side.BLACK.capitalized}: {_e(black or '?')}</p>"
        )
    return f"<h1>{_e(title)}</h1>{players}{_verdict_html(verdict, walk)}"


def _facts_html(verdict: Verdict, log: GameLog) -> str:
    rows = [("Source", breakable(verdict.source))]
    for name in ("Event", "Site", "Date", "Status"):
        value = log.tag(name)
        if value:
            text = _e(value)
            if name == "Site" and is_url(value):
                text = f'<a href="{text}" rel="noopener noreferrer">{text}</a>'
            rows.append((name, text))
    termination = verdict.termination or ("rules infraction" if verdict.first_illegal else None)
    precise = f"{verdict.result} ({termination or 'none'})"
    rows.append(("Result", term(result_words(verdict.result, verdict.termination), precise)))
    if log.pocket_file != DEFAULT_POCKET_FILE:
        rows.append(("Pockets", f"{_e(log.pocket_file)}1 and {_e(log.pocket_file)}8"))
    body = "".join(f"<tr><th>{name}</th><td>{value}</td></tr>" for name, value in rows)
    return f'<table class="facts">{body}</table>'


@functools.cache
def _legend_html() -> str:
    """The legend of the 19 letters: the same on every page, so made once per process (an
    audit writes thousands of viewers)."""
    rows = "".join(
        f'<tr><td class="letter">{_e(r.letter)}</td><td>{_e(r.name)}</td><td>{_e(r.moves)}</td>'
        f"<td>{_e(r.value_class)}</td></tr>"
        for r in piece_legend()
    )
    return (
        "<table><tr><th>Letter</th><th>Piece</th><th>Moves</th><th>Class</th></tr>"
        f"{rows}</table><p>White's pieces are light discs with upper-case letters, Black's "
        "dark ones; the King is ringed. A piece pocketed from ranks 1–7 may mutate into "
        "another of its class; one pocketed from rank 8 must promote to the next class.</p>"
    )


def _board_svg(kit: BoardKit, step: Step) -> str:
    """The diagram's frame and the shown step's marks; the script adds the background,
    the pieces and the turn mark from the kit (`_kit`), each drawn once in it."""
    return (
        f'<svg id="board" xmlns="http://www.w3.org/2000/svg" width="{kit.width}" '
        f'height="{kit.height}" viewBox="0 0 {kit.width} {kit.height}" font-family="{FONT}" '
        'role="img" aria-label="board">'
        f'<rect width="{kit.width}" height="{kit.height}" fill="#ffffff"/>'
        f'<g id="background"></g><g id="marks">{step.marks}</g><g id="pieces"></g>'
        '<g id="turn"></g></svg>'
    )


def _json_for_script(data: object) -> str:
    """JSON that is safe inside a <script> element: no '<' can end it early."""
    return (
        json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        .replace("<", "\\u003c")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def _kit(
    size: int, pocket_files: Iterable[PocketFile], symbols: Iterable[str]
) -> dict[str, object]:
    """What the script draws every position with, the same for every game: the board of
    each pocket file from either side, the drawing of each piece symbol, the cells'
    centres from either side, the turn marks and the legend of the letters."""
    files = sorted(set(pocket_files))
    kit = board_kit(files[0], size)
    return {
        "backgrounds": {name: board_kit(name, size).background for name in files},
        "flipped": {name: board_kit(name, size, flipped=True).background for name in files},
        "pieces": {symbol: kit.pieces[symbol] for symbol in sorted(symbols)},
        "centres": [[round(x, 2), round(y, 2)] for x, y in kit.centres],
        "fcentres": [
            [round(x, 2), round(y, 2)] for x, y in board_kit(files[0], size, flipped=True).centres
        ],
        "turn": list(kit.turn),
        "legend": _legend_html(),
    }


SHARED_POCKET_FILES: Final = tuple(preset.pocket_file for preset in PRESETS)  # their boards


@dataclass(frozen=True)
class ViewerAssets:
    """The viewer's style and script (with the kit) as two files that many pages link.

    An audit may write a viewer for each of thousands of games: linked pages hold only
    their game (a few KB, not 30), and the files are written once. Their names carry a
    digest of their text, so a page always gets the script it was made for, even when a
    later gcadj writes new pages into the same folder.
    """

    style_name: str
    script_name: str
    files: dict[str, str]  # file name -> text


@functools.cache
def viewer_assets(size: int = 48) -> ViewerAssets:
    """The shared files of linked viewer pages of this square size (see `ViewerAssets`)."""
    kit = _kit(size, SHARED_POCKET_FILES, PIECE)
    script = f"window.GCADJ_KIT = {_json_for_script(kit)};\n{VIEWER_SCRIPT}"
    names = [
        f"gcadj-viewer-{hashlib.sha1(text.encode()).hexdigest()[:10]}.{ext}"
        for text, ext in ((VIEWER_STYLE, "css"), (script, "js"))
    ]
    return ViewerAssets(names[0], names[1], {names[0]: VIEWER_STYLE, names[1]: script})


def _game_list(games: Sequence[GameView]) -> str:
    """The game list of a page of several games: a menu, and a link to each game's end
    (numbered by the list itself: "1. Alice – Bob")."""
    if len(games) == 1:
        return ""
    options = "".join(
        f'<option value="{n}">{n}. {_e(game.label)}</option>' for n, game in enumerate(games, 1)
    )
    links = "".join(
        f'<li><a href="#game={n}&amp;ply={game.initial}">{_e(game.label)}</a></li>'
        for n, game in enumerate(games, 1)
    )
    return (
        f'<nav id="games" aria-label="games"><label for="game-select">Game '
        f"({len(games)} in this page)</label> "
        f'<select id="game-select">{options}</select>'
        f'<ol id="game-links">{links}</ol></nav>\n'
    )


def _game_templates(games: Sequence[GameView]) -> str:
    """Each game's header, facts and moves, inert until the script swaps them in."""
    if len(games) == 1:
        return ""
    return "".join(
        f'<template class="game-parts" data-game="{n}">'
        f'<div data-part="head">{game.head}</div><div data-part="facts">{game.facts}</div>'
        f'<div data-part="moves">{"".join(game.items)}</div></template>\n'
        for n, game in enumerate(games, 1)
    )


def viewer_page(
    games: Sequence[GameView],
    size: int = 48,
    assets: ViewerAssets | None = None,
    *,
    top: str = "",
    bottom: str = "",
) -> str:
    """The page of `games` (`game_view`'s): self-contained (style, kit and script inline),
    or, with `assets`, linking the shared files and holding only its games. Made from the
    games' data alone: the server makes its pages from what it kept, with its own `top`
    (a bar) and `bottom` (an editor) around the viewer."""
    if not games:
        raise ExportError("no game to show")
    first = games[0]
    kit = board_kit(first.pocket_file, size)
    title = first.title if len(games) == 1 else f"{len(games)} games"
    data: dict[str, object] = {
        "games": [
            {
                "steps": [step.to_json() for step in game.steps],
                "initial": game.initial,
                "bg": game.pocket_file,
            }
            for game in games
        ]
    }
    if assets is None:
        used = set("".join(step.fen.split(" ", 1)[0] for g in games for step in g.steps))
        inline_kit = _kit(size, {g.pocket_file for g in games}, used & PIECE.keys())
        style = f"<style>{VIEWER_STYLE}</style>"
        code = (
            f'<script type="application/json" id="gcadj-kit">{_json_for_script(inline_kit)}'
            f"</script>\n<script>{VIEWER_SCRIPT}</script>"
        )
    else:
        others = sorted({g.pocket_file for g in games} - set(SHARED_POCKET_FILES))
        if others:  # a board the shared kit lacks travels with the page
            data["backgrounds"] = {name: board_kit(name, size).background for name in others}
            data["flipped"] = {
                name: board_kit(name, size, flipped=True).background for name in others
            }
        style = f'<link rel="stylesheet" href="{_e(assets.style_name)}">'
        code = f'<script src="{_e(assets.script_name)}"></script>'
    step = first.steps[first.initial]
    address = "#ply=N" if len(games) == 1 else "#game=G&amp;ply=N"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
        f"{GENERATOR_META}\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)} — gcadj viewer</title>\n{style}</head>\n"
        f'<body>\n{top}{_game_list(games)}<header id="game-head">{first.head}</header>\n'
        "<main>\n"
        f'<section id="view"><div id="board-box">{_board_svg(kit, step)}</div>\n'
        '<div id="controls"><button id="first" title="Start (Home)">|◀</button>'
        '<button id="prev" title="Back (←)">◀</button>'
        '<button id="next" title="Forward (→)">▶</button>'
        '<button id="last" title="End (End)">▶|</button>'
        '<button id="flip" title="Flip the board (F)" aria-pressed="false">⇅ Flip</button>'
        "</div>\n"
        f'<p id="ply-label">{_e(step.label)}</p>\n'
        f'<div id="fen-box"><span>FEN</span> <code id="fen">{_e(step.fen)}</code> '
        '<button id="copy" title="Copy the FEN">Copy</button>'
        '<span id="copied" aria-live="polite"></span></div>\n'
        f'<div id="facts-box">{first.facts}</div></section>\n'
        f'<section id="list"><h2>Moves</h2><ol id="moves">{"".join(first.items)}</ol></section>\n'
        f'</main>\n{bottom}<details id="legend" open><summary>Piece letters</summary>'
        "</details>\n"
        f'<p class="made">Made by gcadj. Keys: ← → Home End, F flips the board. '
        f"Add <code>{address}</code> to the address to open a position.</p>\n"
        f"{_game_templates(games)}"
        f'<script type="application/json" id="game-data">{_json_for_script(data)}</script>\n'
        f'<script type="application/json" id="{GAMES_BLOCK_ID}">'
        f"{_json_for_script({'games': [{'gc': game.gc} for game in games]})}</script>\n"
        f"{code}\n</body></html>\n"
    )
