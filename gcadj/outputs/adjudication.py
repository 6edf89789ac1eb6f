"""Human-readable adjudications (``gcadj adjudicate`` without ``--json``).

Everything comes from the `Adjudication` (and the verdict it was made from): the mating line
and the proof tree are the Game Courier text the adjudication holds, already checked; nothing
is searched or judged again here.
"""

from __future__ import annotations

from gcadj.judging.adjudication import Adjudication, Tree
from gcadj.judging.material import CLASSES, Material
from gcadj.judging.verdict import Verdict
from gcadj.words import plural


def adjudication_line(verdict: Verdict, adjudication: Adjudication) -> str:
    """``game.txt: proven 1-0: White, to move, mates in 1``: one game in one line."""
    kind, result = adjudication.kind.value, adjudication.result.value
    return f"{verdict.source}: {kind} {result}: {adjudication.reason}"


def render_adjudication(
    verdict: Verdict, adjudication: Adjudication, *, verbose: bool = False
) -> str:
    """The adjudication's block: its line, the mating line (Game Courier text and SAN), the
    material table and the notes; `verbose` adds the whole proof tree."""
    lines = [adjudication_line(verdict, adjudication)]
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
    the answer to it (``k a8-b8: R h7-h8``), and so on down to the mates (marked ``#``).
    A proof written as a graph (too large for a tree) is said in one line: how many
    positions it has, and where it is."""
    if "nodes" in tree:
        count = plural(len(tree["nodes"]), "position")
        return [f"{indent}a graph of {count}, too large to print as a tree: see --json"]
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


__all__ = ["adjudication_line", "material_table", "numbered", "render_adjudication", "tree_lines"]
