"""Human-readable adjudications (``gcadj adjudicate`` without ``--json``).

Everything comes from the judged game and the adjudication it carries
(`Verdict.adjudication`): the mating line and the proof tree are the Game Courier text the
adjudication holds, already checked; nothing is searched or judged again here.
`game_text` is what the command prints of one game, in each of its forms.
"""

from __future__ import annotations

from gcadj.judging.adjudication import Adjudication, Tree
from gcadj.judging.material import CLASSES, Material
from gcadj.judging.verdict import Verdict


def game_text(
    verdict: Verdict, *, json_lines: bool = False, quiet: bool = False, verbose: bool = False
) -> str:
    """One judged game as ``gcadj adjudicate`` prints it (no newline at the end): its JSON
    line (`json_lines`), its one line (`quiet`: `adjudication_line`), or its verdict line
    (`verbose`: the check's ``-v`` block) and its adjudication's block."""
    from gcadj.outputs.report import render_verdict, verdict_line

    if json_lines:
        return verdict.json_line()
    if quiet:
        return adjudication_line(verdict)
    head = render_verdict(verdict, verbose=True) if verbose else verdict_line(verdict)
    return f"{head}\n{render_adjudication(verdict, verbose=verbose)}"


def adjudication_line(verdict: Verdict) -> str:
    """``game.txt: proven 1-0: White, to move, mates in 1``: one game in one line, its notes
    after it (``; note: ...``), so that ``-q`` drops nothing the block says in words."""
    adjudication = _of(verdict)
    kind, result = adjudication.kind.value, adjudication.result.value
    notes = "".join(f"; note: {note}" for note in adjudication.notes)
    return f"{verdict.source}: {kind} {result}: {adjudication.reason}{notes}"


def render_adjudication(verdict: Verdict, *, verbose: bool = False) -> str:
    """The adjudication's block: its line, the mating line (Game Courier text and SAN), the
    material table and the notes; `verbose` adds the whole proof tree."""
    adjudication = _of(verdict)
    kind, result = adjudication.kind.value, adjudication.result.value
    lines = [f"{verdict.source}: {kind} {result}: {adjudication.reason}"]
    mate = adjudication.mate
    if mate is not None and adjudication.position is not None:
        lines.append(f"  mating line: {numbered(mate.line, adjudication.position)}")
        lines.append(f"          SAN: {numbered(mate.san, adjudication.position)}")
    if adjudication.material is not None:
        lines.extend(material_table(adjudication.material, indent="  "))
    lines.extend(f"  note: {note}" for note in adjudication.notes)
    if verbose and mate is not None:
        lines.append(
            f"  proof ({mate.winner.value} mates in {mate.moves}; each defence: its answer):"
        )
        lines.extend(tree_lines(mate.tree, indent="    "))
    return "\n".join(lines)


def _of(verdict: Verdict) -> Adjudication:
    if verdict.adjudication is None:
        raise ValueError(f"{verdict.source}: the game was not adjudicated")
    return verdict.adjudication


def numbered(moves: tuple[str, ...], fen: str) -> str:
    """Moves from the position `fen`, numbered as a game's moves: ``12. Q e1-e8  k g8-h7
    13. Q e8-h5`` (``12... k g8-h7`` when Black moves first)."""
    fields = fen.split()
    black = len(fields) > 1 and fields[1] == "b"
    number = int(fields[5]) if len(fields) > 5 and fields[5].isdigit() else 1
    parts = []
    for move in moves:
        if not black:
            parts.append(f"{number}. {move}")
        elif not parts:
            parts.append(f"{number}... {move}")
        else:
            parts.append(move)
        if black:
            number += 1
        black = not black
    return "  ".join(parts)


def material_table(counted: Material, *, indent: str = "") -> list[str]:
    """Pieces per class on the board and in the pocket, the total in class units, the
    pocket's piece ('-': empty)."""
    head = "".join(f"{value:>4}" for value in CLASSES)
    lines = [f"{indent}material {head}  total  pocket"]
    for name, side in (("White", counted.white), ("Black", counted.black)):
        cells = "".join(f"{count:>4}" for count in side.by_class)
        lines.append(f"{indent}  {name:<6} {cells}  {side.total:>5}  {side.pocket or '-'}")
    return lines


def tree_lines(tree: Tree, *, indent: str = "") -> list[str]:
    """A proof tree, one line per move: the winner's move, then each defence indented with
    the answer to it (``k a8-b8: R h7-h8``), and so on down to the mates (marked ``#``)."""
    lines: list[str] = []
    if tree["move"] is not None:
        lines.append(f"{indent}{_move(tree)}")
        indent += "  "
    for defence, answer in tree["replies"].items():
        lines.append(f"{indent}{defence}: {_move(answer)}")
        for subline in tree_lines({"move": None, "replies": answer["replies"]}, indent=indent):
            lines.append(f"  {subline}")
    return lines


def _move(node: Tree) -> str:
    return f"{node['move']}{'' if node['replies'] else ' #'}"


__all__ = [
    "adjudication_line",
    "game_text",
    "material_table",
    "numbered",
    "render_adjudication",
    "tree_lines",
]
