"""Human-readable verdicts, in the style of pgn-extract: where, what, why, and the board."""

from __future__ import annotations

from gcadj.adjudication.verdict import Finding, Verdict
from gcadj.engine.position import Position
from gcadj.outputs.diagram import text_diagram


def render_verdict(verdict: Verdict) -> str:
    """One block per source: findings with diagrams for illegal games, the result for legal ones."""
    pocket_file = verdict.log.pocket_file if verdict.log is not None else "i"
    if verdict.partial:
        return _render_partial(verdict, pocket_file)
    if verdict.status in ("syntax-error", "error"):
        return verdict.error or f"{verdict.source}: {verdict.status}"
    lines: list[str] = []
    if verdict.status == "legal":
        how = verdict.termination or "ongoing"
        lines.append(
            f"{verdict.source}: legal, {verdict.plies} plies, result {verdict.result} ({how})"
        )
    else:
        first = verdict.first_illegal.ply if verdict.first_illegal else "?"
        for finding in verdict.illegal:
            lines.extend(_render_finding(verdict.source, finding, pocket_file))
        lines.append(
            f"{verdict.source}: illegal, first at ply {first}"
            f" ({verdict.legal_plies} legal plies before it, {verdict.plies} in the log)"
        )
    lines.extend(f"{verdict.source}: warning: {w}" for w in verdict.warnings)
    return "\n".join(lines)


def _render_partial(verdict: Verdict, pocket_file: str) -> str:
    """A game judged up to an unreadable ply: the error, the board before it, the summary."""
    error = verdict.error or f"{verdict.source}: syntax error"
    unreadable = verdict.legal_plies + 1
    lines = [error, f"  Position before ply {unreadable}:"]
    if verdict.final_fen:
        lines.append(text_diagram(Position(verdict.final_fen), pocket_file, indent="    "))
        lines.append(f"    FEN {verdict.final_fen}")
    first = error.split("\n", 1)[0]
    where = first[len(verdict.source) + 1 :] if first.startswith(f"{verdict.source}:") else first
    lines.append(
        f"{verdict.source}: legal for {verdict.legal_plies} plies; "
        f"ply {unreadable} unreadable: {where}"
    )
    lines.extend(f"{verdict.source}: warning: {w}" for w in verdict.warnings)
    return "\n".join(lines)


def _render_finding(source: str, finding: Finding, pocket_file: str) -> list[str]:
    dots = "." if finding.side == "white" else "..."
    head = (
        f"{source}:{finding.line}:{finding.column}: {finding.move_number}{dots} "
        f"{finding.text}  [{finding.category}] (ply {finding.ply}, {finding.side})"
    )
    body = [head, f"  {finding.reason[0].upper()}{finding.reason[1:]}."]
    if finding.fen_before:
        body.append("  Position before the move:")
        body.append(text_diagram(Position(finding.fen_before), pocket_file, indent="    "))
        body.append(f"    FEN {finding.fen_before}")
    return body
