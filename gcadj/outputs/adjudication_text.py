"""Human-readable adjudications (``gcadj adjudicate`` without ``--json``).

Everything comes from the judged game and the adjudication it carries
(`Verdict.adjudication`): the mating line and the proof tree are the Game Courier text the
adjudication holds, already checked; nothing is searched or judged again here.
`game_text` is what the command prints of one game, in each of its forms.
"""

from __future__ import annotations

from gcadj.judging.adjudication import Adjudication, AfterExchanges, Tree
from gcadj.judging.material import CLASSES, Material
from gcadj.judging.verdict import Verdict
from gcadj.notation.san import numbered_moves
from gcadj.words import plural


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
    material table, the material after the exchanges with their line, a threat, and the
    notes; `verbose` adds the whole proof tree."""
    adjudication = _of(verdict)
    kind, result = adjudication.kind.value, adjudication.result.value
    lines = [f"{verdict.source}: {kind} {result}: {adjudication.reason}"]
    mate = adjudication.mate
    if mate is not None and adjudication.position is not None:
        lines.append(f"  mating line: {numbered_moves(mate.line, adjudication.position)}")
        lines.append(f"          SAN: {numbered_moves(mate.san, adjudication.position)}")
    if adjudication.material is not None:
        lines.extend(material_table(adjudication.material, indent="  "))
    if adjudication.exchanges is not None:
        lines.extend(exchanges_lines(adjudication.exchanges, adjudication.position or ""))
    threat = adjudication.threat
    if threat is not None:
        lines.append(
            f"  threat: {threat.side.value.capitalize()} mates in {threat.moves} if it "
            "were its turn"
        )
        lines.append(f"    line: {numbered_moves(threat.line, threat.position)}")
        lines.append(f"     SAN: {numbered_moves(threat.san, threat.position)}")
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


def material_table(counted: Material, *, indent: str = "") -> list[str]:
    """Pieces per class on the board and in the pocket, the total in class units, the
    pocket's piece ('-': empty)."""
    head = "".join(f"{value:>4}" for value in CLASSES)
    lines = [f"{indent}material {head}  total  pocket"]
    for name, side in (("White", counted.white), ("Black", counted.black)):
        cells = "".join(f"{count:>4}" for count in side.by_class)
        lines.append(f"{indent}  {name:<6} {cells}  {side.total:>5}  {side.pocket or '-'}")
    return lines


def exchanges_lines(exchanges: AfterExchanges, fen: str) -> list[str]:
    """Each side's total after the forced exchanges from the position `fen`, and their line
    (Game Courier text and SAN); nothing when there is no exchange to make."""
    if exchanges.cut is not None:
        return [f"  after the exchanges: not counted (cut: {exchanges.cut})"]
    if not exchanges.line:
        return []
    mated = "" if exchanges.mate is None else f", {exchanges.mate.value} mates"
    return [
        f"  after the exchanges: White {exchanges.white}, Black {exchanges.black}{mated}",
        f"    line: {numbered_moves(exchanges.line, fen)}",
        f"     SAN: {numbered_moves(exchanges.san, fen)}",
    ]


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


__all__ = [
    "adjudication_line",
    "exchanges_lines",
    "game_text",
    "material_table",
    "render_adjudication",
    "tree_lines",
]
