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

The markup is in templates (`gcadj/outputs/templates/viewer.html`, the page, and
``viewer_parts.html``, its pieces), the style and the script in static files
(`gcadj/outputs/static/viewer.css`, ``viewer.js``), rendered by the viewer's environment
(`gcadj.outputs.templating.viewer_environment`, compiled once per process); this module
says what goes in them.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import jinja2
from markupsafe import Markup

from gcadj.about import GAMES_BLOCK_ID
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
from gcadj.outputs.html_text import message_html
from gcadj.outputs.legend import piece_legend
from gcadj.outputs.plain_words import (
    ADJUDICATION_WORDS,
    PROPOSED_WORDS,
    category_sentence,
    move_words,
    result_words,
)
from gcadj.outputs.svg_diagram import FONT, board_kit, marked_cells, sides_marks
from gcadj.outputs.templating import BOXES, viewer_environment, viewer_macros
from gcadj.outputs.viewer_analysis import Mark, analysis_box, analysis_lines, move_mark
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


@dataclass
class _Item:
    """A move list's item before it is rendered: its macro (``viewer_parts.html``) and
    what the macro is given (a legal ply's, the most frequent, by position: a macro
    called so costs less); an analysed ply's lines are added after the walk."""

    macro: str
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)

    def html(self) -> str:
        return str(getattr(viewer_macros(), self.macro)(*self.args, **self.kwargs))


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
        items=tuple(item.html() for item in walk.items),
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
        self.items: list[_Item] = [_start_item(game)]  # marked when repeated: `game_view`
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
        """The box (the template ``adjudication``); the lines' steps are added to the walk."""
        adjudication = self.adjudication
        kind = adjudication.kind
        mate = adjudication.mate
        line = tree = more = None
        if mate is not None and adjudication.position is not None:
            line = self.line(mate)
            tree, more = self.proof(mate)
        box = {
            "kind": str(kind),
            "how": ADJUDICATION_WORDS.get(kind, str(kind)),
            "proposed": PROPOSED_WORDS.get(adjudication.result, ""),
            "result": str(adjudication.result),
            "reason": _cap(self.reason()),
            "precise": _cap(adjudication.reason),
            "line": line,
            "where": self.where,
            "tree": tree,
            "tree_words": plural(mate.tree_moves, "move") if mate is not None else "",
            "more": more,
            "repeated": [
                None if ply == 0 else self.walk_words(ply) for ply in adjudication.repeated_plies
            ],
            "material": adjudication.material,
            "notes": adjudication.notes,
        }
        return str(viewer_macros(BOXES).adjudication(box))

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

    def line(self, mate: ForcedMate) -> list[tuple[int, str]]:
        """The mating line, each move a step branching from the position adjudicated
        (`ForcedMate.steps`: recorded by the prover, checked by the proof checker): each
        move's step and its numbered SAN."""
        walk, before = self.walk, self.adjudication.position or ""
        parent = self.root
        links = []
        for san, step in zip(mate.san, mate.steps, strict=True):
            numbered = _numbered(before, san)
            label = f"Mating line, {self.label()}: {numbered}"
            here = len(walk.steps)
            walk.steps.append(
                walk.step(Position(step.fen_after), label, parent, last_move=step.move)
            )
            links.append((here, numbered))
            parent, before = here, step.fen_after
        return links

    def proof(self, mate: ForcedMate) -> tuple[list[_Node], tuple[str, str] | None]:
        """Every defence of the proof as a tree (the template ``tree``: a defence at a
        time, each opened to the winner's answer and the defences to that, each move a
        step of the board), and how many of its moves are drawn when not all are."""
        if not mate.drawn or mate.tree_moves <= 1:  # a mate in 1: its line is all of it
            return [], None
        before = self.adjudication.position or ""
        mated = mate.tree.get("move") is None  # the side to move is mated: its moves first
        tree = self.tree(mate.drawn, self.root, before, defences=mated)
        more = None
        if mate.drawn_moves < mate.tree_moves:
            more = (f"{mate.tree_moves:,}", f"{mate.drawn_moves:,}")
        return tree, more

    def tree(
        self, moves: tuple[ProofMove, ...], parent: int, before: str, *, defences: bool
    ) -> list[_Node]:
        """`moves` played from step `parent` (the position `before`): the winner's moves
        with the defences under them, or defences, each with the answer and what follows."""
        nodes = []
        for move in moves:
            link = self.move_link(move, parent, before)
            here = link[0]
            if not defences:  # the winner's move: every defence to it, below
                below = self.tree(move.answers, here, move.step.fen_after, defences=True)
                nodes.append(_Node(link, attack=True, below=below))
                continue
            if not move.answers:
                nodes.append(_Node(link))
                continue
            (answer,) = move.answers
            reply = self.move_link(answer, here, move.step.fen_after)
            deeper = self.tree(answer.answers, reply[0], answer.step.fen_after, defences=True)
            nodes.append(_Node(link, reply=reply, below=deeper))
        return nodes

    def move_link(self, move: ProofMove, parent: int, before: str) -> tuple[int, str]:
        """A step for `move`, played from step `parent`: its index and the numbered move."""
        walk = self.walk
        numbered = _numbered(before, move.san)
        here = len(walk.steps)
        label = f"Proof, {self.label()}: {numbered}"
        walk.steps.append(
            walk.step(Position(move.step.fen_after), label, parent, last_move=move.step.move)
        )
        return here, numbered


@dataclass(frozen=True)
class _Node:
    """A move of a proof's tree: its link (step, numbered move); a winner's move
    (`attack`) has the defences to it `below`; a defence has the winner's answer
    (`reply`) and the defences to that `below`."""

    link: tuple[int, str]
    attack: bool = False
    reply: tuple[int, str] | None = None
    below: list[_Node] = field(default_factory=list)


def _analysed(analysis: GameAnalysis, walk: _Walker) -> str:
    """The game's analysis on its page (`gcadj.outputs.viewer_analysis`): each finding's
    line under its move item, as steps branching from the game's; the box under the
    verdict (counts, the graph of the balance, the findings)."""
    for analysed in analysis.plies:
        step = analysed.ply  # a legal ply's step and item are numbered by the ply
        if not analysed.mistakes or step >= len(walk.items):
            continue
        lines = analysis_lines(analysed, step, walk.steps[step].fen, walk.add_step)
        if lines:
            walk.items[step].kwargs["lines"] = lines
    return str(analysis_box(analysis))


# -- the move list ---------------------------------------------------------------------


def _start_item(game: JudgedGame, repeats: str | None = None) -> _Item:
    return _Item("start_item", kwargs={"comments": game.leading_comments, "repeats": repeats})


def _move_item(
    ply: JudgedPly, step: int, repeats: str | None = None, mark: Mark | None = None
) -> _Item:
    """A legal ply's item; `mark`: the mark of its analysis's findings
    (`gcadj.outputs.viewer_analysis.move_mark`)."""
    typed = ply.text
    return _Item(
        "move_item",
        (
            step,
            ply.move_number,
            _dots(ply.white),
            ply.san,
            typed,
            ply.gc or typed,
            ply.white,
            repeats,
            mark,
            ply.comments,
        ),
    )


def _finding(finding: Finding, san: bool) -> dict[str, object]:
    """A finding in a player's words (the category's term on hover), where it was typed,
    and each suggestion with the text that would replace the typed ply (`fix`: SAN for a
    ply typed as SAN, else Game Courier text)."""
    return {
        "sentence": category_sentence(finding.category),
        "category": str(finding.category),
        "reason": _cap(finding.reason),
        "text": finding.text,
        "line": finding.line,
        "column": finding.column,
        "suggestions": [
            {"fix": s.san if san else s.text, "text": s.text, "san": s.san, "why": s.why}
            for s in finding.suggestions
        ],
    }


def _illegal_item(ply: JudgedPly, finding: Finding, red: int | None, after: int | None) -> _Item:
    """An illegal ply: opens its red step (the board it was played on); the step after it,
    the board Game Courier showed, counts as its own too (`data-after`)."""
    return _Item(
        "illegal_item",
        kwargs={
            "red": red,
            "after": after,
            "number": ply.move_number,
            "dots": _dots(ply.white),
            "text": ply.text,
            "f": _finding(finding, ply.record.san),
            "comments": ply.comments,
        },
    )


def _shown_item(ply: JudgedPly, after: int | None, shown: ShownBoard | None) -> _Item:
    """A ply after the first illegal one: the board Game Courier showed after it, when
    that board is a position; not judged, since the game had gone wrong before it."""
    why = "not shown: the board before it is no position"
    if shown is not None and shown.problem:
        why = f"not shown: the board after it is no position ({shown.problem})"
    return _Item(
        "shown_item",
        kwargs={
            "after": after,
            "why": why,
            "number": ply.move_number,
            "dots": _dots(ply.white),
            "text": ply.text,
            "comments": ply.comments,
        },
    )


def _unreadable_item(words: str, error: str, source: str) -> _Item:
    error_html = message_html(error, source)
    return _Item("unreadable_item", kwargs={"words": _cap(words), "error": error_html})


def _unread_item(words: str, unread: UnreadText, source: str) -> _Item:
    """The text from the unreadable ply on, as typed, with the syntax error."""
    return _Item(
        "unreadable_item",
        kwargs={
            "words": _cap(words),
            "error": message_html(unread.error, source),
            "unread": unread.text.rstrip("\n"),
            "line": unread.line,
        },
    )


# -- the page --------------------------------------------------------------------------


def _verdict(verdict: Verdict, walk: _Walker) -> dict[str, object]:
    """The verdict in a player's words (the template ``verdict_box``): "move 12, Black"
    for "ply 24", a sentence for the category (its term on hover), "Game not finished"
    for ``*``."""
    finding = verdict.first_illegal
    said: dict[str, object] = {
        "legal": verdict.status == Status.LEGAL,
        "finding": verdict.status == Status.ILLEGAL and finding is not None,
        "last_words": walk.last_words,
        "next_words": walk.next_words,
        "result_words": result_words(verdict.result, verdict.termination),
        "result_precise": f"{verdict.result} ({verdict.termination or 'ongoing'})",
    }
    if finding is not None:
        said.update(
            where=_cap(move_words(finding.move_number, finding.side)),
            ply=f"ply {finding.ply}",
            text=finding.text,
            sentence=category_sentence(finding.category),
            category=str(finding.category),
            reason=_cap(finding.reason),
            count=len(walk.game.findings),
        )
    return said


def _head_html(
    verdict: Verdict, title: str, white: str | None, black: str | None, walk: _Walker
) -> str:
    players = None
    if white or black:
        players = (Side.WHITE.capitalized, white or "?", Side.BLACK.capitalized, black or "?")
    return str(viewer_macros().head(title, players, _verdict(verdict, walk)))


def _facts_html(verdict: Verdict, log: GameLog) -> str:
    tags = []
    for name in ("Event", "Site", "Date", "Status"):
        value = log.tag(name)
        if value:
            tags.append((name, value, name == "Site" and is_url(value)))
    termination = verdict.termination or ("rules infraction" if verdict.first_illegal else None)
    pockets = None if log.pocket_file == DEFAULT_POCKET_FILE else str(log.pocket_file)
    return str(
        viewer_macros().facts(
            verdict.source,
            tags,
            result_words(verdict.result, verdict.termination),
            f"{verdict.result} ({termination or 'none'})",
            pockets,
        )
    )


@functools.cache
def _legend_html() -> str:
    """The legend of the 19 letters: the same on every page, so made once per process (an
    audit writes thousands of viewers)."""
    return str(viewer_macros().legend(piece_legend()))


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
    """The shared files of linked viewer pages of this square size (see `ViewerAssets`).

    The templates are compiled here too (the kit's legend is a macro's, and
    `page_template`): an audit asks for the files before it forks the workers that write
    the pages, which then start with the templates compiled."""
    page_template()
    kit = _kit(size, SHARED_POCKET_FILES, PIECE)
    script = f"window.GCADJ_KIT = {_json_for_script(kit)};\n{VIEWER_SCRIPT}"
    names = [
        f"gcadj-viewer-{hashlib.sha1(text.encode()).hexdigest()[:10]}.{ext}"
        for text, ext in ((VIEWER_STYLE, "css"), (script, "js"))
    ]
    return ViewerAssets(names[0], names[1], {names[0]: VIEWER_STYLE, names[1]: script})


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
    kit_json = None
    if assets is None:
        used = set("".join(step.fen.split(" ", 1)[0] for g in games for step in g.steps))
        inline_kit = _kit(size, {g.pocket_file for g in games}, used & PIECE.keys())
        kit_json = Markup(_json_for_script(inline_kit))
    else:
        others = sorted({g.pocket_file for g in games} - set(SHARED_POCKET_FILES))
        if others:  # a board the shared kit lacks travels with the page
            data["backgrounds"] = {name: board_kit(name, size).background for name in others}
            data["flipped"] = {
                name: board_kit(name, size, flipped=True).background for name in others
            }
    step = first.steps[first.initial]
    return page_template().render(
        title=title,
        assets=assets,
        top=Markup(top),
        bottom=Markup(bottom),
        games=[_GameParts(game) for game in games],
        first=_GameParts(first),
        width=kit.width,
        height=kit.height,
        font=FONT,
        step=step,
        marks=Markup(step.marks),
        data=Markup(_json_for_script(data)),
        games_block_id=GAMES_BLOCK_ID,
        games_block=Markup(_json_for_script({"games": [{"gc": game.gc} for game in games]})),
        kit=kit_json,
    )


@functools.cache
def page_template() -> jinja2.Template:
    """The page's template, compiled once per process: an audit's parent compiles it (with
    the parts' macros, `viewer_assets`) before it forks the workers that write pages."""
    return viewer_environment().get_template("viewer.html")


class _GameParts:
    """A game's parts as the page template reads them: its HTML as markup (made by this
    module's templates: `game_view`, or kept by the server from it)."""

    def __init__(self, game: GameView) -> None:
        self.label = game.label
        self.initial = game.initial
        self.head = Markup(game.head)
        self.facts = Markup(game.facts)
        self.items = Markup("".join(game.items))
