"""How a source's games are read and judged: the one options value every caller passes."""

from __future__ import annotations

from dataclasses import dataclass

from gcadj.sources.read import DEFAULT_MAX_BYTES
from gcadj.vocabulary import PocketFile


@dataclass(frozen=True)
class JudgeOptions:
    """How each game is judged: the start position (a gcadj FEN or a Game Courier code;
    None: the log's FEN tag, else the standard array), the pocket file's letter (a
    ``PocketFile`` tag in a log overrides it; None: the file the log's plies use, else
    ``i``), every illegal ply or only the first. Small and picklable: it travels to the
    audit's workers."""

    fen: str | None = None
    pocket_file: PocketFile | None = None
    all_findings: bool = False
    max_bytes: int = DEFAULT_MAX_BYTES  # the most a file or stdin may hold (--max-bytes)


__all__ = ["JudgeOptions"]
