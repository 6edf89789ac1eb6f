"""Human-readable verdicts, in the style of pgn-extract: where, what, why, and the board.

Everything comes from the verdict: the boards are drawn from the FENs the judge recorded
(`gcadj.outputs.text_diagram`), never rebuilt and judged again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gcadj.judging.verdict import Finding, Suggestion, Verdict
from gcadj.outputs.text_diagram import text_diagram
from gcadj.vocabulary import DEFAULT_POCKET_FILE, PocketFile, Side, Status
from gcadj.words import plural


def render_verdict(verdict: Verdict, *, verbose: bool = False) -> str:
    """One block per game: findings with diagrams for illegal games, the result for legal ones.

    `verbose` adds the game's tags and, for a legal game, the final position (diagram, FEN).
    """
    pocket_file = verdict.log.pocket_file if verdict.log is not None else DEFAULT_POCKET_FILE
    if verdict.partial:
        return _render_partial(verdict, pocket_file)
    if verdict.status in (Status.SYNTAX_ERROR, Status.ERROR):
        return verdict.error or f"{verdict.source}: {verdict.status}"
    lines: list[str] = []
    if verbose and verdict.log is not None and verdict.log.tags:
        tags = ", ".join(f"{key} {value!r}" for key, value in verdict.log.tags)
        lines.append(f"{verdict.source}: tags: {tags}")
    if verdict.status == Status.LEGAL:
        how = verdict.termination or "ongoing"
        lines.append(
            f"{verdict.source}: legal, {plural(verdict.plies, 'ply')}, "
            f"result {verdict.result} ({how})"
        )
        if verbose and verdict.final_fen:
            lines.append("  Final position:")
            lines.append(text_diagram(verdict.final_fen, pocket_file, indent="    "))
            lines.append(f"    FEN {verdict.final_fen}")
    else:
        first = verdict.first_illegal.ply if verdict.first_illegal else "?"
        for finding in verdict.illegal:
            lines.extend(_render_finding(verdict.source, finding, pocket_file))
        lines.append(
            f"{verdict.source}: illegal, first at ply {first}"
            f" ({plural(verdict.legal_plies, 'legal ply', 'legal plies')} before it,"
            f" {verdict.plies} in the log)"
        )
    lines.extend(f"{verdict.source}: warning: {w}" for w in verdict.warnings)
    return "\n".join(lines)


def verdict_line(verdict: Verdict) -> str:
    """A game's verdict in one line (``check --quiet``): where and why for an illegal game,
    the first line of the message for one that could not be read or parsed."""
    if verdict.status in (Status.ILLEGAL, Status.SYNTAX_ERROR, Status.ERROR):
        return failing_line(verdict.to_json())
    return render_verdict(verdict).split("\n", 1)[0]


def failing_line(record: Mapping[str, Any]) -> str:
    """`verdict_line` of a game that is not legal, from its JSON (as ``check --json``
    prints it and an audit's JSONL holds it), so ``check -q`` and ``audit`` print the same
    line: ``file:line:col: illegal at ply 5 (3. P c5-d6) [category]: reason``, or the first
    line of the error of a game that could not be read or parsed."""
    source, status, bad = record.get("source"), record.get("status"), record.get("first_illegal")
    if status == Status.ILLEGAL and isinstance(bad, Mapping):
        dots = "." if bad.get("side") == Side.WHITE else "..."
        return (
            f"{source}:{bad.get('line')}:{bad.get('column')}: illegal at ply {bad.get('ply')} "
            f"({bad.get('move_number')}{dots} {bad.get('text')}) [{bad.get('category')}]: "
            f"{bad.get('reason')}"
        )
    return str(record.get("error") or f"{source}: {status}").split("\n", 1)[0]


def _render_partial(verdict: Verdict, pocket_file: PocketFile) -> str:
    """A game judged up to an unreadable ply: the error, the board before it, the summary."""
    error = verdict.error or f"{verdict.source}: syntax error"
    unreadable = verdict.legal_plies + 1
    lines = [error, f"  Position before ply {unreadable}:"]
    if verdict.final_fen:
        lines.append(text_diagram(verdict.final_fen, pocket_file, indent="    "))
        lines.append(f"    FEN {verdict.final_fen}")
    first = error.split("\n", 1)[0]
    where = first[len(verdict.source) + 1 :] if first.startswith(f"{verdict.source}:") else first
    lines.append(
        f"{verdict.source}: legal for {plural(verdict.legal_plies, 'ply')}; "
        f"ply {unreadable} unreadable: {where}"
    )
    lines.extend(f"{verdict.source}: warning: {w}" for w in verdict.warnings)
    return "\n".join(lines)


def _render_finding(source: str, finding: Finding, pocket_file: PocketFile) -> list[str]:
    dots = "." if finding.side == Side.WHITE else "..."
    head = (
        f"{source}:{finding.line}:{finding.column}: {finding.move_number}{dots} "
        f"{finding.text}  [{finding.category}] (ply {finding.ply}, {finding.side})"
    )
    body = [head, f"  {finding.reason[0].upper()}{finding.reason[1:]}."]
    body.extend(suggestion_lines(finding.suggestions))
    if finding.fen_before:
        body.append("  Position before the move:")
        body.append(text_diagram(finding.fen_before, pocket_file, indent="    "))
        body.append(f"    FEN {finding.fen_before}")
    return body


def suggestion_lines(suggestions: tuple[Suggestion, ...]) -> list[str]:
    """``did you mean: P c5-d6; d5- (exd6 e.p.): <why>``, then ``or: ...`` for the others."""
    lines = []
    for i, suggestion in enumerate(suggestions):
        lead = "  did you mean:" if i == 0 else "            or:"
        en_passant = " e.p." if suggestion.text.endswith("-") else ""  # `P c5-d6; d5-`
        lines.append(f"{lead} {suggestion.text} ({suggestion.san}{en_passant}): {suggestion.why}")
    return lines
