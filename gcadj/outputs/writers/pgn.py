"""``--to pgn``: PGN-like text for Pocket Mutation Chess, one game or a database (read back
by `gcadj.sources.pgn_reader`).

The writer gives a chess user what they expect: the Seven Tag Roster plus
``[Variant "Pocket Mutation Chess"]``, ``Termination``, ``SetUp``/``FEN`` for a set-up
start, the log's own tags (``Log``, ``Status``, ...), SAN-like movetext (`gcadj.notation.san`)
wrapped at 80 columns, Game Courier ``//`` comments as ``{...}``.

Illegal games round-trip through the two comment markers described in `gcadj.notation.pgn`:
gcadj's note ``{gcadj: ...}``, then the first illegal ply and every ply after it as
``{gc: <the ply as typed>}``, or, for a ply typed as PGN writes moves (a game read from
PGN: ``O-O``, ``Kf7``), as typed, which the reader reads again on the same board. Text
the reader could not read follows gcadj's note too: its first line as ``{gc: ...}``
(which the reader cannot read either, so the game reads back cut at the same ply), the
other lines as ``;`` comments, each exactly as typed.
Several games make a database: each with its tags, a blank line between games.

A game analysed (``export --analyse``) is annotated as lichess annotates its games: a NAG
on each ply with a finding, ``{[%eval ...]}`` after every analysed ply, the finding in
gcadj's note and its line as a variation when it starts before the ply (`_annotate`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO

from gcadj.engine.fen import STARTING_FEN
from gcadj.judging.game_analysis import PlyAnalysis
from gcadj.judging.plies import JudgedGame
from gcadj.judging.verdict import Verdict
from gcadj.notation.pgn import GC_MARK, NOTE_MARK, ROSTER_UNKNOWN, VARIANT, escape_tag_value
from gcadj.notation.records import UnreadText
from gcadj.notation.san import numbered_moves
from gcadj.outputs.analysis import eval_command, nag_of
from gcadj.outputs.notes import finding_note, names_other_pockets, unread_note
from gcadj.outputs.registry import ExportGame, ExportOptions, Writer, WriteTo
from gcadj.vocabulary import DEFAULT_POCKET_FILE, Status, Termination

__all__ = ["WIDTH", "WRITER", "pgn_tags", "termination_tag", "write_pgn"]

WIDTH = 80

_GENERATED = frozenset(
    name.casefold()
    for name in (*ROSTER_UNKNOWN, "Result", "Variant", "SetUp", "FEN", "Termination", "PocketFile")
)


def termination_tag(verdict: Verdict) -> str:
    """The Termination tag: gcadj's ending, or PGN's words for an illegal or open game."""
    if verdict.status == Status.ILLEGAL:
        return "rules infraction"
    if verdict.partial:
        return "unterminated"
    if verdict.termination in (None, Termination.ONGOING):
        return "unterminated"
    return verdict.termination


def pgn_tags(game: JudgedGame) -> list[tuple[str, str]]:
    """Tags in order: the roster, Result, Variant, SetUp/FEN, Termination, the log's others."""
    verdict, log = game.verdict, game.log

    tags = [(name, log.tag(name) or unknown) for name, unknown in ROSTER_UNKNOWN.items()]
    tags += [("Result", verdict.result), ("Variant", VARIANT)]
    if game.start_fen != STARTING_FEN:
        tags += [("SetUp", "1"), ("FEN", verdict.start_fen)]
    tags.append(("Termination", termination_tag(verdict)))
    if log.pocket_file != DEFAULT_POCKET_FILE or names_other_pockets(log.pocket_file, game.unread):
        tags.append(("PocketFile", log.pocket_file))  # read back on the same file
    tags += [(k, v) for k, v in log.tags if k.casefold() not in _GENERATED]
    return tags


_NEWLINE = "\n"  # an atom that ends the line (after a ';' comment)


class _Movetext:
    """Movetext as atoms (unbreakable pieces) joined by one space or a line break."""

    def __init__(self) -> None:
        self.atoms: list[str] = []
        self.after_comment = True  # a Black move then needs its number ("12...")
        self.pending = ""  # the move number, kept on the line of its move

    def number(self, number: int, white: bool) -> None:
        if white:
            self.pending = f"{number}. "
        elif self.after_comment:
            self.pending = f"{number}... "

    def move(self, text: str) -> None:
        self.atoms.append(self.pending + text)
        self.pending = ""
        self.after_comment = False

    def comment(self, text: str) -> None:
        self.after_comment = True
        stripped = text.strip()
        if "}" in text or stripped.startswith((GC_MARK, NOTE_MARK)):
            self.line_comment(text)
            return
        self.note(text)

    def line_comment(self, text: str) -> None:
        """A rest-of-line ``;`` comment: any text, kept exactly."""
        self.after_comment = True
        self.atoms += [f"; {text}".rstrip(), _NEWLINE]

    def note(self, text: str) -> None:
        """A brace comment, wrapped at its spaces (the reader joins the lines again);
        gcadj's own notes are dropped by the reader."""
        self.after_comment = True
        words = text.split(" ")
        words[0] = "{" + words[0]
        words[-1] += "}"
        self.atoms += words

    def nag(self, number: int) -> None:
        """A Numeric Annotation Glyph after the move (``$4``)."""
        self.atoms.append(f"${number}")

    def variation(self, moves: str) -> None:
        """A variation of gcadj's, ``({gcadj: line} 30. Ra8#)``: numbered moves from the
        position before the last move played, instead of it
        (`gcadj.notation.san.numbered_moves`'s text), led by gcadj's note so that the reader
        knows it for its own and passes over it without a warning."""
        words = [f"({{{NOTE_MARK}", "line}", *moves.replace("  ", " ").split(" ")]
        words[-1] += ")"
        self.atoms += words
        self.after_comment = True

    def gc_ply(self, text: str) -> None:
        """A ply in Game Courier notation: one unbreakable atom."""
        body = f" {text}" if text else ""
        self.atoms.append(f"{self.pending}{{{GC_MARK}{body}}}")
        self.pending = ""
        self.after_comment = True

    def unread(self, unread: UnreadText) -> None:
        """Text the reader could not read, as typed: its first line as a ``{gc: ...}`` ply
        (a ``}`` in it would end the brace early: then an empty ``{gc:}``, which no reader
        reads either, and the line as a ``;`` comment), the other lines as ``;`` comments."""
        first, *rest = unread.text.rstrip("\n").split("\n")
        if "}" in first:
            self.gc_ply("")
            rest = [first, *rest]
        else:
            self.gc_ply(first.strip())
        if rest:
            self.atoms.append(_NEWLINE)
        for line in rest:
            self.line_comment(line)

    def wrap(self, width: int) -> list[str]:
        lines: list[str] = []
        current: str | None = None
        for atom in self.atoms:
            if atom == _NEWLINE:
                if current is not None:
                    lines.append(current)
                current = None
            elif current is None:
                current = atom
            elif len(current) + 1 + len(atom) <= width:
                current += " " + atom
            else:
                lines.append(current)
                current = atom
        if current is not None:
            lines.append(current)
        return lines


def write_pgn(verdict: Verdict, *, width: int = WIDTH) -> str:
    """One game as PGN-like text (see the module docstring); needs a verdict with its log."""
    if verdict.log is None:
        raise ValueError(f"{verdict.source}: no game to write ({verdict.status})")
    game = JudgedGame(verdict)
    text = _Movetext()
    for line in game.leading_comments:
        text.comment(line)
    for ply in game.plies():
        if ply.finding is not None:
            text.note(finding_note(ply.finding))
        text.number(ply.move_number, ply.white)
        san = ply.san
        if san is not None:
            text.move(san)
        elif ply.record.san:
            text.move(ply.text)  # typed as PGN writes moves: read again on the same board
        else:
            text.gc_ply(ply.text)
        analysed = _analysed(verdict, ply.index)
        if analysed is not None:
            nag = nag_of(analysed.mistakes)
            if nag is not None:
                text.nag(nag)  # right after its move, before any comment
        for line in ply.comments:
            text.comment(line)
        if analysed is not None:
            _annotate(text, analysed, ply.fen_after)
    unread = game.unread
    if unread is not None:
        text.note(unread_note(len(game.log.records) + 1, unread))
        text.unread(unread)
    text.move(verdict.result)
    head = [f'[{name} "{escape_tag_value(value)}"]' for name, value in pgn_tags(game)]
    return "\n".join([*head, "", *text.wrap(width)]) + "\n"


def _analysed(verdict: Verdict, index: int) -> PlyAnalysis | None:
    """The analysis of the game's ply `index` (0-based), if the game was analysed and the
    ply is one of its legal plies."""
    analysis = verdict.analysis
    if analysis is None or index >= len(analysis.plies):
        return None
    return analysis.plies[index]


def _annotate(text: _Movetext, analysed: PlyAnalysis, fen_after: str | None) -> None:
    """A ply's analysis (``export --analyse``), as lichess annotates a game (its NAG,
    `nag_of`: ``$4`` a mate missed or allowed, ``$2`` material lost, is written right after
    the move), then the evaluation after it (``{[%eval #-1]}``, ``{[%eval 2.0]}``:
    `eval_command`), each finding in gcadj's note (``{gcadj: analysis: allows-mate:
    ...}``, the finding's line in SAN in its words) and, for a line from the position
    before the ply (a mate missed, the exchanges left unmade), that line as a variation.
    The reader passes over NAGs and variations, drops gcadj's notes and the comment
    commands: the game reads back the same."""
    command = eval_command(analysed.after)
    if command is not None:
        text.note(command)
    for mistake in analysed.mistakes:
        text.note(f"{NOTE_MARK} analysis: {mistake.kind.value}: {_no_brace(mistake.reason)}")
        if mistake.san and mistake.position != fen_after:
            text.variation(numbered_moves(mistake.san, mistake.position))


def _no_brace(words: str) -> str:
    return words.replace("}", ")")


def _prepare(games: Sequence[ExportGame], options: ExportOptions) -> WriteTo:
    def write(out: IO[str]) -> None:
        for i, game in enumerate(games):
            if i:
                out.write("\n")
            out.write(write_pgn(game.verdict))

    return write


WRITER = Writer(
    name="pgn",
    title="PGN",
    help="PGN-like text, SAN with I@c4 drops and Rh1@=I pocketing",
    many=True,
    accepts=frozenset(),
    prepare=_prepare,
    several="one PGN database",
    order=10,
)
