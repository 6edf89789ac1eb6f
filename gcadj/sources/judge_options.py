"""How a source's games are read and judged: the one options value every caller passes."""

from __future__ import annotations

from dataclasses import dataclass

from gcadj.analysis.options import AdjudicateOptions, AnalyseOptions
from gcadj.sources.read import DEFAULT_MAX_BYTES
from gcadj.vocabulary import PocketFile


@dataclass(frozen=True)
class JudgeOptions:
    """How each game is judged: the start position (a gcadj FEN or a Game Courier code;
    None: the log's FEN tag, else the standard array), the pocket file's letter (a
    ``PocketFile`` tag in a log overrides it; None: the file the log's plies use, else
    ``i``), every illegal ply or only the first. Small and picklable: it travels to the
    audit's workers.

    The stages after the judging, each run on every judged game when its option is set
    (`gcadj.app.stages`): `adjudicate`, how each game is adjudicated (the verdict then
    carries its `Verdict.adjudication`; None: not adjudicated, and its JSON is exactly
    ``gcadj check --json``'s); `analyse`, how the whole game is analysed (the verdict then
    carries its `Verdict.analysis`, a game with legal plies; None: not analysed).
    `stage_seconds` is the most the stages of one source's games
    may take together, wall clock (None: no bound): each game's search gets what is left,
    at most its own budget, so a source's stages never cost it its deadline.

    Examples:
        >>> from gcadj import judge_source
        >>> log = '''P e2-e4
        ... p e7-e5
        ... R h1-p1; I-p1
        ... '''
        >>> (verdict,) = judge_source("game.txt", JudgeOptions(), text=log)  # p1: newer preset
        >>> verdict.status, verdict.log.pocket_file
        (<Status.LEGAL: 'legal'>, 'p')
        >>> verdict.final_fen
        'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBN1[I] b - - 3 2'
        >>> (told,) = judge_source("game.txt", JudgeOptions(pocket_file="i"), text=log)
        >>> told.status, told.legal_plies  # p1 is no square of the 2009 preset
        (<Status.SYNTAX_ERROR: 'syntax-error'>, 2)
        >>> endgame = JudgeOptions(fen="k7/8/1K6/8/8/8/8/8[Q] w - - 0 1")
        >>> judge_source("mate.txt", endgame, text="Q i1-b7")[0].termination
        <Termination.CHECKMATE: 'checkmate'>
    """

    fen: str | None = None
    pocket_file: PocketFile | None = None
    all_findings: bool = False
    max_bytes: int = DEFAULT_MAX_BYTES  # the most a file or stdin may hold (--max-bytes)
    adjudicate: AdjudicateOptions | None = None
    analyse: AnalyseOptions | None = None
    stage_seconds: float | None = None


__all__ = ["JudgeOptions"]
