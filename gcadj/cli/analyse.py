"""`gcadj analyse` (and its alias `gcadj analyze`): each game judged as `check` judges it,
then every legal ply analysed: a mate missed, a mate allowed, material lost, each with
its line (docs/analyse.md; docs/rules.md §8 is the rule).

Data on stdout (the verdict and one line per finding, or ``--json`` lines); on stderr the
notes. Several sources, or a folder, are judged by worker processes (``--jobs``), as
``gcadj adjudicate`` judges them (`gcadj.app.analyse`); Ctrl-C exits 130.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from gcadj.app.exit_codes import JUDGING_CODES, exit_codes_help
from gcadj.app.fetching import FetchSettings
from gcadj.cli.adjudicate import run_showing, show
from gcadj.cli.common_options import (
    DEFAULT_ANALYSE_DEPTH,
    DEFAULT_ANALYSE_NODES,
    DEFAULT_MATERIAL_THRESHOLD,
    DEFAULT_MAX_BYTES,
    EXIT_INTERRUPTED,
    EXIT_OK,
    GIVEN_NONE,
    AnalyseMateDepthOption,
    AnalyseNodesOption,
    FenOption,
    JobsOption,
    MaxBytesOption,
    PocketFileOption,
    ThresholdOption,
    VerboseOption,
    analyse_options_of,
    check_options,
    fetch_options,
    limits_of,
    report_problems,
)

if TYPE_CHECKING:
    from gcadj.app.adjudicate import Shown

ANALYSE_EPILOG = (
    "Sources as for check (files, folders, PGN databases, FILE#N, URLs, '-'). At each legal "
    "ply: missed-mate (the mover had a forced mate within --mate-depth and lost it), "
    "allows-mate (after the move the opponent mates within it, where another move would "
    "not have let it), loses-material (the balance after the exchanges fell by --threshold "
    "class units or more against the mover). Each finding is one line: the ply, the move, "
    "[its kind], its line in SAN and Game Courier text (GC). An illegal game is analysed up "
    "to its first illegal ply, a game that stops being readable up to there. Several "
    "sources, or a folder, are judged in parallel by --jobs worker processes, in order. "
    "gcadj analyze is the same command. "
    + exit_codes_help(
        (*JUDGING_CODES, EXIT_INTERRUPTED),
        said={EXIT_INTERRUPTED: "Ctrl-C stopped the analysis"},
    )
)

AnalyseQuietOption = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        help="One line per finding, after its source; a game that is not legal in check -q's line.",
    ),
]


@fetch_options
def analyse(
    sources: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="SOURCES...",
            help="Game logs: files, folders, saved pages, http(s) URLs, an audit's .jsonl, "
            "or '-' for stdin (read when none is named and stdin is not a terminal).",
        ),
    ] = None,
    json_lines: Annotated[
        bool,
        typer.Option(
            "--json", help="One JSON object per game per line: check's, with its analysis."
        ),
    ] = False,
    mate_depth: AnalyseMateDepthOption = DEFAULT_ANALYSE_DEPTH,
    threshold: ThresholdOption = DEFAULT_MATERIAL_THRESHOLD,
    nodes: AnalyseNodesOption = DEFAULT_ANALYSE_NODES,
    fen: FenOption = None,
    pocket_file: PocketFileOption = None,
    jobs: JobsOption = None,
    quiet: AnalyseQuietOption = False,
    verbose: VerboseOption = False,
    fetch: FetchSettings = GIVEN_NONE,
    max_bytes: MaxBytesOption = DEFAULT_MAX_BYTES,
) -> None:
    """Analyse each game's every ply: a mate missed, a mate allowed, material lost."""
    import functools

    from gcadj.app.analyse import AnalysePlan, run_analyse
    from gcadj.app.pipeline import JudgeOptions
    from gcadj.outputs.analysis import analysed_text

    letter = check_options("analyse", pocket_file, fen)
    plan = AnalysePlan(
        sources=tuple(sources or ()),
        judge=JudgeOptions(
            fen=fen,
            pocket_file=letter,
            max_bytes=max_bytes,
            analyse=analyse_options_of(mate_depth, threshold, nodes),
        ),
        fetch=fetch,
        limits=limits_of(jobs, 0.0, 0),
        text=functools.partial(analysed_text, json_lines=json_lines, quiet=quiet, verbose=verbose),
    )
    run = run_analyse(plan)
    code = run_showing("analyse", run, functools.partial(_show, json_lines=json_lines))
    raise typer.Exit(max(code, report_problems("analyse", run.problems), EXIT_OK))


def _show(game: Shown, *, json_lines: bool) -> None:
    """One game's text, as gcadj adjudicate shows it; nothing for an empty one (-q, a
    legal game with no finding)."""
    if game.text:
        show(game, json_lines=json_lines, command="analyse")
