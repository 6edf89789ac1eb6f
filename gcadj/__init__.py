"""gcadj: adjudicate Game Courier games of Pocket Mutation Chess.

The package is layered along the data flow (docs/development.md, "How the code is laid
out"), each sub-package importing only those below it: `engine` (the rules), `notation`
(Game Courier text, SAN, position codes), `judging` (`replay`, the `Verdict`),
`analysis` (forced mates with their proofs, material, adjudications), `sources` (files,
pages, PGN), `outputs` (reports and exports), `app` (whole jobs: `check_text`, audits) and
`cli`. The public API below is imported lazily so `gcadj --help` starts fast.

`judge_source` is the one way in (every game of a file, a page, a URL or a text, judged as
``gcadj check`` judges it); `check_text` and `check_source` give the first game's verdict.
`adjudicate` judges a source's games and adjudicates each (``gcadj adjudicate``): each
judged game carries its adjudication (`Verdict.adjudication`); `adjudicate_position`
adjudicates one position. `analyse` judges a source's games and analyses each one's every
ply (``gcadj analyse``: a mate missed, a mate allowed, material lost), carried as
`Verdict.analysis`; `analyse_verdict` analyses a game already judged.

Examples:
    >>> import gcadj
    >>> verdict = gcadj.check_text('''P f2-f3
    ... p e7-e5
    ... P g2-g4
    ... q d8-h4
    ... ''', "fools-mate.txt")
    >>> verdict.status, verdict.result, verdict.termination
    (<Status.LEGAL: 'legal'>, <Result.BLACK_WINS: '0-1'>, <Termination.CHECKMATE: 'checkmate'>)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gcadj.about import __version__

if TYPE_CHECKING:
    from gcadj.analysis.adjudicator import adjudicate_position
    from gcadj.analysis.analyser import analyse_verdict
    from gcadj.analysis.options import AdjudicateOptions, AnalyseOptions
    from gcadj.app.adjudicate import adjudicate
    from gcadj.app.analyse import analyse
    from gcadj.app.check import check_source, check_text
    from gcadj.app.pipeline import JudgeOptions, judge_source
    from gcadj.engine.move import Move
    from gcadj.engine.position import Outcome, Position
    from gcadj.errors import LogSyntaxError
    from gcadj.judging.adjudication import Adjudication
    from gcadj.judging.game_analysis import GameAnalysis
    from gcadj.judging.verdict import Finding, Verdict, replay
    from gcadj.notation.parse import parse_log
    from gcadj.vocabulary import Termination

_LAZY = {
    "Position": "gcadj.engine.position",
    "Outcome": "gcadj.engine.position",
    "Termination": "gcadj.vocabulary",
    "Move": "gcadj.engine.move",
    "Verdict": "gcadj.judging.verdict",
    "Finding": "gcadj.judging.verdict",
    "check_text": "gcadj.app.check",
    "check_source": "gcadj.app.check",
    "judge_source": "gcadj.app.pipeline",
    "JudgeOptions": "gcadj.app.pipeline",
    "replay": "gcadj.judging.verdict",
    "parse_log": "gcadj.notation.parse",
    "adjudicate": "gcadj.app.adjudicate",
    "adjudicate_position": "gcadj.analysis.adjudicator",
    "Adjudication": "gcadj.judging.adjudication",
    "AdjudicateOptions": "gcadj.analysis.options",
    "AnalyseOptions": "gcadj.analysis.options",
    "analyse_verdict": "gcadj.analysis.analyser",
    "analyse": "gcadj.app.analyse",
    "GameAnalysis": "gcadj.judging.game_analysis",
    "LogSyntaxError": "gcadj.notation.parse",
}

__all__ = [
    "AdjudicateOptions",
    "Adjudication",
    "AnalyseOptions",
    "Finding",
    "GameAnalysis",
    "JudgeOptions",
    "LogSyntaxError",
    "Move",
    "Outcome",
    "Position",
    "Termination",
    "Verdict",
    "__version__",
    "adjudicate",
    "adjudicate_position",
    "analyse",
    "analyse_verdict",
    "check_source",
    "check_text",
    "judge_source",
    "parse_log",
    "replay",
]


def __dir__() -> list[str]:
    """The public API (`__all__`), not the names this module uses to load it lazily."""
    return sorted(__all__)


def __getattr__(name: str) -> Any:
    """Import the public API on first use, so `import gcadj` (and the CLI) start fast."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'gcadj' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
