"""PGN-like text for Pocket Mutation Chess, written from a verdict (read back by
`gcadj.sources.pgn_reader`).

The writer gives a chess user what they expect: the Seven Tag Roster plus
``[Variant "Pocket Mutation Chess"]``, ``Termination``, ``SetUp``/``FEN`` for a set-up
start, the log's own tags (``Log``, ``Status``, ...), SAN-like movetext (`gcadj.notation.san`)
wrapped at 80 columns, Game Courier ``//`` comments as ``{...}``.

Illegal games round-trip through the two comment markers described in `gcadj.notation.pgn`.
"""

from __future__ import annotations

from gcadj.adjudication.verdict import Finding, Verdict
from gcadj.engine.fen import STARTING_FEN, parse_fen
from gcadj.engine.position import Position
from gcadj.notation.pgn import GC_MARK, NOTE_MARK, ROSTER_UNKNOWN, VARIANT, escape_tag_value
from gcadj.notation.san import write_line

__all__ = ["finding_note", "unreadable_note", "user_comment_lines", "write_pgn"]

WIDTH = 80

_GENERATED = frozenset(
    name.casefold()
    for name in (*ROSTER_UNKNOWN, "Result", "Variant", "SetUp", "FEN", "Termination", "PocketFile")
)


def user_comment_lines(comment: str | None) -> list[str]:
    """A record's comment as lines, without gcadj's own notes (they are written afresh)."""
    if comment is None:
        return []
    return [line for line in comment.split("\n") if not line.startswith(NOTE_MARK)]


def finding_note(finding: Finding) -> str:
    """gcadj's note on an illegal ply, as it goes into a comment (no braces inside)."""
    dots = "." if finding.side == "white" else "..."
    text = (
        f"{NOTE_MARK} illegal ply {finding.ply} ({finding.move_number}{dots} {finding.text}) "
        f"[{finding.category}]: {finding.reason}"
    )
    return text.replace("{", "(").replace("}", ")")


def unreadable_note(verdict: Verdict) -> str | None:
    """gcadj's note after the last ply of a game judged up to an unreadable ply, else None."""
    if not verdict.partial:
        return None
    where = (verdict.error or "syntax error").split("\n", 1)[0]
    text = (
        f"{NOTE_MARK} the log stops being readable at ply {verdict.legal_plies + 1}, "
        f"left out with everything after it ({where})"
    )
    return text.replace("{", "(").replace("}", ")")


def is_standard_start(fen: str) -> bool:
    """Does the game start from the standard array, White to move, move 1?"""
    return Position(fen).fen() == STARTING_FEN


def termination_tag(verdict: Verdict) -> str:
    """The Termination tag: gcadj's ending, or PGN's words for an illegal or open game."""
    if verdict.status == "illegal":
        return "rules infraction"
    if verdict.partial:
        return "unterminated"
    if verdict.termination in (None, "ongoing"):
        return "unterminated"
    return verdict.termination


def pgn_tags(verdict: Verdict) -> list[tuple[str, str]]:
    """Tags in order: the roster, Result, Variant, SetUp/FEN, Termination, the log's others."""
    log = verdict.log
    assert log is not None

    tags = [(name, log.tag(name) or unknown) for name, unknown in ROSTER_UNKNOWN.items()]
    tags += [("Result", verdict.result), ("Variant", VARIANT)]
    if not is_standard_start(verdict.start_fen):
        tags += [("SetUp", "1"), ("FEN", verdict.start_fen)]
    tags.append(("Termination", termination_tag(verdict)))
    if log.pocket_file != "i":
        tags.append(("PocketFile", log.pocket_file))
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
            self.atoms += [f"; {text}", _NEWLINE]
            return
        words = text.split(" ")
        words[0] = "{" + words[0]
        words[-1] += "}"
        self.atoms += words

    def note(self, text: str) -> None:
        """gcadj's own note: a brace comment the reader drops."""
        self.after_comment = True
        words = text.split(" ")
        words[0] = "{" + words[0]
        words[-1] += "}"
        self.atoms += words

    def gc_ply(self, text: str) -> None:
        """A ply in Game Courier notation: one unbreakable atom."""
        self.atoms.append(f"{self.pending}{{{GC_MARK} {text}}}")
        self.pending = ""
        self.after_comment = True

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
    """The game as PGN-like text (see the module docstring); needs a verdict with its log."""
    log = verdict.log
    if log is None:
        raise ValueError(f"{verdict.source}: no game to write ({verdict.status})")
    written = write_line(verdict.start_fen, verdict.moves, log.pocket_file)
    text = _Movetext()
    for line in user_comment_lines(log.leading_comment):
        text.comment(line)
    for wm, record in zip(written, log.records[: len(written)], strict=True):
        text.number(wm.move_number, wm.white)
        text.move(wm.san)
        for line in user_comment_lines(record.comment):
            text.comment(line)
    if verdict.first_illegal is not None:
        text.note(finding_note(verdict.first_illegal))
        setup = parse_fen(verdict.final_fen or verdict.start_fen)
        number, white = setup.fullmove_number, setup.turn == 0
        for record in log.records[len(written) :]:
            text.number(number, white)
            text.gc_ply(record.text)
            for line in user_comment_lines(record.comment):
                text.comment(line)
            number += 0 if white else 1
            white = not white
    note = unreadable_note(verdict)
    if note is not None:
        text.note(note)
    text.move(verdict.result)
    head = [f'[{name} "{escape_tag_value(value)}"]' for name, value in pgn_tags(verdict)]
    return "\n".join([*head, "", *text.wrap(width)]) + "\n"
