"""What every command shares: the options that read games and fetch pages, and the ways a
command fails or writes a file the user named. The exit-code policy itself lives in
`gcadj.app.exit_codes` (its names are re-exported here for the commands)."""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Annotated, Any, Final, TypeVar

import typer

from gcadj.analysis.options import (  # light: no search is loaded
    DEFAULT_ANALYSE_DEPTH,
    DEFAULT_ANALYSE_NODES,
    DEFAULT_BUDGET,
    DEFAULT_EVIDENCE_MARGIN,
    DEFAULT_MATE_DEPTH,
    DEFAULT_MATERIAL_THRESHOLD,
    DEFAULT_TABLE_MB,
    AdjudicateOptions,
    AnalyseOptions,
)
from gcadj.app.exit_codes import (
    EXIT_CANNOT_WRITE,
    EXIT_ILLEGAL,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_SYNTAX,
    EXIT_UNREADABLE,
    EXIT_USAGE,
    INTERNAL_ERROR_HINT,
    STATUS_EXIT,
)
from gcadj.app.fetching import FetchSettings
from gcadj.cli.streams import say
from gcadj.errors import CannotWrite
from gcadj.vocabulary import (
    DEFAULT_POCKET_FILE,
    POCKET_LETTERS,
    PocketFile,
    not_a_pocket_file,
    presets_in_words,
)

if TYPE_CHECKING:
    from gcadj.app.batch import Limits
    from gcadj.errors import OptionError

# Options shared by every command that reads games (check, export, audit): one wording.
FenOption = Annotated[
    str | None,
    typer.Option(
        "--fen",
        metavar="FEN",
        help="Start position of every game, a gcadj FEN or a Game Courier code "
        "(default: the log's FEN tag, else the standard array; '-': read it from stdin).",
    ),
]
PocketFileOption = Annotated[
    str | None,
    typer.Option(
        "--pocket-file",
        metavar="LETTER",
        help=f"The file of the pockets, {POCKET_LETTERS}: {presets_in_words()}. A PocketFile "
        "tag in a log overrides it. Default: the file the log's plies use (p1 makes it p), "
        f"else {DEFAULT_POCKET_FILE}.",
    ),
]
QuietOption = Annotated[
    bool,
    typer.Option(
        "--quiet", "-q", help="Print only illegal, unreadable and failing sources, one line each."
    ),
]
VerboseOption = Annotated[
    bool, typer.Option("--verbose", "-v", help="Print more about each game (see the manual).")
]


def _number_words(minimum: float, whole: bool, strict: bool) -> str:
    kind = "a whole number" if whole else "a number"
    shown = int(minimum) if minimum == int(minimum) else minimum
    return f"{kind} {'>' if strict else '≥'} {shown}"


def number_parser(
    option: str, minimum: float, *, whole: bool = True, strict: bool = False
) -> Callable[[str], float]:
    """A typer `parser` that says in words what a number option needs ("--ply needs a whole
    number ≥ 0, not 'abc'") and exits 2, instead of click's "not a valid int range"."""

    def parse(text: str) -> float:
        try:
            value: float | None = int(text) if whole else float(text)
        except (TypeError, ValueError):
            value = None
        if value is None or value != value or value < minimum or (strict and value == minimum):
            words = _number_words(minimum, whole, strict)
            say(f"gcadj: {option} needs {words}, not {str(text)!r}", err=True)
            raise typer.Exit(EXIT_USAGE)
        return value

    parse.__name__ = "whole number" if whole else "number"
    return parse


def number_option(
    *names: str,
    metavar: str,
    minimum: float,
    help: str,
    whole: bool = True,
    strict: bool = False,
    show_default: bool = True,
) -> Any:
    """A typer option taking a number, checked by `number_parser` (which names the option
    by its first name): the one shape of every number option of every command.
    `show_default` false: the help says the default in its own words."""
    parser = number_parser(names[0], minimum, whole=whole, strict=strict)
    return typer.Option(
        *names, metavar=metavar, parser=parser, help=help, show_default=show_default
    )


# The batch runner's limits (gcadj.app.batch.Limits): options of audit and serve alike,
# each named and worded once here; a command says its own default (serve faces strangers).
MB = 1000 * 1000  # as the sizes of every other option (serve's --max-upload)
JobsOption = Annotated[
    int | None,
    number_option(
        "--jobs",
        "-j",
        metavar="N",
        minimum=1,
        help="Worker processes judging at once (default: one per core).",
    ),
]


def source_timeout_option(default: str) -> Any:
    """``--source-timeout``, with the command's `default` in words."""
    return number_option(
        "--source-timeout",
        metavar="SECONDS",
        minimum=0,
        whole=False,
        help="Deadline to judge one source (a file, a page, a zip member): past it the source "
        f"gets an error verdict and its worker is replaced; 0: none (default: {default}).",
        show_default=False,
    )


def memory_option(default: str) -> Any:
    """``--memory``, with the command's `default` in words."""
    return number_option(
        "--memory",
        metavar="MB",
        minimum=0,
        help="Memory (address space) each worker process may use, in MB: a source that needs "
        f"more gets an error verdict; 0: no limit (default: {default}).",
        show_default=False,
    )


def limits_of(jobs: int | None, source_timeout: float, memory: int, **more: float) -> Limits:
    """The limit options of a command as the batch runner's `Limits` (`jobs` None: one
    per core; MB as the other sizes, 1,000,000 bytes)."""
    from gcadj.app.batch import Limits, default_jobs

    return Limits(
        jobs=int(jobs) if jobs else default_jobs(),
        source_seconds=float(source_timeout),
        memory=int(memory) * MB,
        **more,
    )


# How a game is adjudicated (gcadj adjudicate, and audit --adjudicate): one wording. The
# command turns them into one `AdjudicateOptions` (`adjudicate_options_of`).
MateDepthOption = Annotated[
    int,
    number_option(
        "--mate-depth",
        metavar="N",
        minimum=1,
        help="Longest forced mate searched, in moves of the winning side.",
    ),
]
BudgetOption = Annotated[
    float,
    number_option(
        "--budget",
        metavar="SECONDS",
        minimum=0,
        whole=False,
        help="Time a search may take per game; past it, the answer says what was proved. "
        "0: no mate searched (the board's end, the record, a repetition and the material "
        "still count).",
    ),
]
NodesOption = Annotated[
    int | None,
    number_option(
        "--nodes",
        metavar="N",
        minimum=1,
        help="Positions a search may visit per game (default: no limit): the same answer "
        "on every machine.",
    ),
]
EvidenceMarginOption = Annotated[
    int,
    number_option(
        "--evidence-margin",
        metavar="N",
        minimum=1,
        help="Material lead, in class units (Pawn 1 ... AmazonRider 8), that counts as "
        "evidence when no mate is proved.",
    ),
]
TableOption = Annotated[
    float,
    number_option(
        "--table-mb",
        metavar="MB",
        minimum=1,
        whole=False,
        help="Memory the prover's transposition table may take per search, in MB (the "
        "search's whole memory stays a little above it).",
    ),
]
AdjudicateFlag = Annotated[
    bool,
    typer.Option(
        "--adjudicate",
        help="Adjudicate each game as gcadj adjudicate does (a forced mate with its checked "
        "proof, a claimable draw, the material): every JSON line gains its adjudication, "
        "and every viewer its adjudication and mating line.",
    ),
]


def adjudicate_options_of(
    mate_depth: int,
    budget: float,
    nodes: int | None,
    evidence_margin: int,
    table_mb: float = DEFAULT_TABLE_MB,
) -> AdjudicateOptions:
    """The adjudication options of a command as one `AdjudicateOptions`; a value out of
    its range (`gcadj.analysis.options.check_search_limits`, the one place that knows the
    ranges) is a usage error, in the API's words with the option's name."""
    from gcadj.errors import OptionError

    try:
        return AdjudicateOptions(
            mate_depth=int(mate_depth),
            budget=float(budget),
            node_limit=None if nodes is None else int(nodes),
            evidence_margin=int(evidence_margin),
            table_mb=float(table_mb),
        )
    except OptionError as error:
        raise _out_of_range(error, OPTION_FLAGS) from None


OPTION_FLAGS = {
    "mate_depth": "--mate-depth",
    "budget": "--budget",
    "node_limit": "--nodes",
    "evidence_margin": "--evidence-margin",
    "table_mb": "--table-mb",
}
"""The command line's name of each option `AdjudicateOptions` checks."""


def refuse_without(command: str, ctx: typer.Context, names: tuple[str, ...], flag: str) -> None:
    """A usage error (exit 2), in words, for an option of `names` that the command line
    gave although `flag`, the stage they tune, was not asked for."""
    for param in ctx.command.params:
        if param.name in names and param.name is not None:
            source = ctx.get_parameter_source(param.name)
            if source is not None and source.name != "DEFAULT":
                option = max(param.opts, key=len)
                raise fail(command, f"{option} needs {flag}", EXIT_USAGE)


def adjudication_wanted(command: str, ctx: typer.Context) -> AdjudicateOptions | None:
    """A command whose games are adjudicated only when asked (``audit --adjudicate``): the
    options (`adjudicate_options_of` of what `ctx` parsed), None without the flag; a usage
    error, in words, for an adjudication option given without it."""
    params = ctx.params
    if params.get("adjudicate"):
        return adjudicate_options_of(*(params[name] for name in ADJUDICATION_PARAMETERS))
    refuse_without(command, ctx, ADJUDICATION_PARAMETERS, "--adjudicate")
    return None


# How a whole game is analysed (gcadj analyse, and --analyse on check, export, audit and
# serve): one wording. `gcadj analyse` names its depth and nodes as adjudicate does
# (--mate-depth, --nodes); a command that also adjudicates (audit, export) names them
# --analyse-depth and --analyse-nodes beside adjudicate's. The command turns them into one
# `AnalyseOptions` (`analyse_options_of`).
ANALYSE_DEPTH_HELP = (
    "Longest forced mate looked for at each ply, in moves of the winning side: a mate "
    "missed or allowed within it is a finding."
)
ANALYSE_NODES_HELP = (
    "Positions each mate search of the analysis may visit: the same answer on every machine "
    "(a position whose search is cut claims nothing)."
)
AnalyseMateDepthOption = Annotated[
    int, number_option("--mate-depth", metavar="N", minimum=1, help=ANALYSE_DEPTH_HELP)
]
AnalyseNodesOption = Annotated[
    int, number_option("--nodes", metavar="N", minimum=1, help=ANALYSE_NODES_HELP)
]
AnalyseDepthOption = Annotated[
    int,
    number_option(
        "--analyse-depth", metavar="N", minimum=1, help=f"With --analyse: {ANALYSE_DEPTH_HELP}"
    ),
]
AnalyseMoreNodesOption = Annotated[
    int,
    number_option(
        "--analyse-nodes", metavar="N", minimum=1, help=f"With --analyse: {ANALYSE_NODES_HELP}"
    ),
]
ThresholdOption = Annotated[
    int,
    number_option(
        "--threshold",
        metavar="N",
        minimum=1,
        help="Class units the balance after the exchanges must fall by, against the mover, "
        "for a ply to lose material (2: a Bishop or a Knight; a Pawn is no finding).",
    ),
]
AnalyseFlag = Annotated[
    bool,
    typer.Option(
        "--analyse",
        "--analyze",
        help="Analyse each game as gcadj analyse does (at every ply: a mate missed, a mate "
        "allowed, material lost, each with its line): every JSON line gains its analysis.",
    ),
]
ANALYSE_FLAGS = {"mate_depth": "--mate-depth", "node_limit": "--nodes", "threshold": "--threshold"}
"""The command line's name of each option `AnalyseOptions` checks (gcadj analyse's)."""


def analyse_options_of(
    mate_depth: int,
    threshold: int,
    nodes: int,
    flags: dict[str, str] | None = None,
) -> AnalyseOptions:
    """The analysis options of a command as one `AnalyseOptions`; a value out of its range
    (checked once, by `AnalyseOptions`) is a usage error in its words, with the option's
    name as `flags` gives it (default: gcadj analyse's)."""
    from gcadj.errors import OptionError

    try:
        return AnalyseOptions(
            mate_depth=int(mate_depth), threshold=int(threshold), node_limit=int(nodes)
        )
    except OptionError as error:
        raise _out_of_range(error, flags or ANALYSE_FLAGS) from None


def _out_of_range(error: OptionError, flags: dict[str, str]) -> typer.Exit:
    """A usage error (exit 2) for an option the API refused (`error`, from
    `gcadj.analysis.options`), said with the option's name on the command line (`flags`)."""
    say(f"gcadj: {error.said_as(flags.get(error.option, error.option))}", err=True)
    return typer.Exit(EXIT_USAGE)


def analysis_wanted(command: str, ctx: typer.Context) -> AnalyseOptions | None:
    """A command whose games are analysed only when asked (``check --analyse``): the
    options (`analyse_options_of` of what `ctx` parsed), None without the flag; a usage
    error, in words, for an analysis option given without it."""
    params = ctx.params
    if params.get("analyse"):
        flags = {"mate_depth": "--analyse-depth", "node_limit": "--analyse-nodes"}
        depth, threshold, nodes = (params[name] for name in ANALYSIS_PARAMETERS)
        return analyse_options_of(depth, threshold, nodes, flags={**ANALYSE_FLAGS, **flags})
    refuse_without(command, ctx, ANALYSIS_PARAMETERS, "--analyse")
    return None


OptionDeclaration = tuple[str, Any, Any]
"""An option declared once for several commands: (parameter, annotation, default)."""

ADJUDICATION_OPTIONS: tuple[OptionDeclaration, ...] = (
    ("adjudicate", AdjudicateFlag, False),
    ("mate_depth", MateDepthOption, DEFAULT_MATE_DEPTH),
    ("budget", BudgetOption, DEFAULT_BUDGET),
    ("nodes", NodesOption, None),
    ("evidence_margin", EvidenceMarginOption, DEFAULT_EVIDENCE_MARGIN),
    ("table_mb", TableOption, DEFAULT_TABLE_MB),
)
"""``--adjudicate`` and its options on a command that adjudicates only when asked,
declared once (`stage_options`), in their order of ``--help``."""

ANALYSIS_OPTIONS: tuple[OptionDeclaration, ...] = (
    ("analyse", AnalyseFlag, False),
    ("analyse_depth", AnalyseDepthOption, DEFAULT_ANALYSE_DEPTH),
    ("threshold", ThresholdOption, DEFAULT_MATERIAL_THRESHOLD),
    ("analyse_nodes", AnalyseMoreNodesOption, DEFAULT_ANALYSE_NODES),
)
"""``--analyse`` and its options on a command that analyses only when asked, declared
once (`stage_options`), in their order of ``--help``."""

ADJUDICATION_PARAMETERS = tuple(name for name, _, _ in ADJUDICATION_OPTIONS[1:])
"""The adjudication options without their flag, as `adjudicate_options_of` takes them."""
ANALYSIS_PARAMETERS = tuple(name for name, _, _ in ANALYSIS_OPTIONS[1:])
"""The analysis options without their flag (depth, threshold, nodes)."""


def stages_wanted(command: str, ctx: typer.Context) -> dict[str, Any]:
    """The stages a command runs only when asked (``--adjudicate``, ``--analyse``), as the
    keywords of its `JudgeOptions`: `adjudication_wanted`'s and `analysis_wanted`'s."""
    adjudicate = adjudication_wanted(command, ctx) if "adjudicate" in ctx.params else None
    return {"adjudicate": adjudicate, "analyse": analysis_wanted(command, ctx)}


# The fetch options of every command that reads URLs (check, export, audit, fetch): the
# command turns them into one `FetchSettings` (`fetch_settings_of`). None: not given.
CacheOption = Annotated[
    str | None,
    typer.Option(
        "--cache",
        metavar="DIR",
        help="Page cache folder (default: $XDG_CACHE_HOME/gcadj/pages or ~/.cache/gcadj/pages).",
    ),
]
NoCacheOption = Annotated[
    bool, typer.Option("--no-cache", help="Neither read nor write the page cache.")
]
DelayOption = Annotated[
    float | None,
    number_option(
        "--delay",
        metavar="SECONDS",
        minimum=0,
        whole=False,
        help="Pause between requests to one host (default 1).",
    ),
]
TimeoutOption = Annotated[
    float | None,
    number_option(
        "--timeout",
        metavar="SECONDS",
        minimum=0,
        whole=False,
        strict=True,
        help="Connect and read timeout per request (default: 10 s to connect, 30 s to read).",
    ),
]
RetriesOption = Annotated[
    int | None,
    number_option(
        "--retries",
        metavar="N",
        minimum=0,
        help="Retries after a connection error, timeout, 429 or 5xx (default 3).",
    ),
]
MaxSizeOption = Annotated[
    int | None,
    number_option(
        "--max-size",
        metavar="KB",
        minimum=1,
        help="Largest page accepted, in KiB (default 5120).",
    ),
]


_BYTES = re.compile(r"\s*([0-9]+)\s*([KMG]?)(?:I?B)?\s*", re.IGNORECASE)
_MULTIPLES = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def parse_bytes(text: str) -> int:
    """--max-bytes: a number of bytes, or with K, M or G (KiB, MiB, GiB: 64M, 1G, 500KiB);
    says what it needs and exits 2 otherwise."""
    match = _BYTES.fullmatch(str(text))
    value = int(match[1]) * _MULTIPLES[match[2].upper()] if match else 0
    if value < 1:
        typer.echo(
            f"gcadj: --max-bytes needs a size in bytes ≥ 1, with K, M or G for KiB, MiB or GiB "
            f"(64M), not {str(text)!r}",
            err=True,
        )
        raise typer.Exit(EXIT_USAGE)
    return value


parse_bytes.__name__ = "size"

MaxBytesOption = Annotated[
    int,
    typer.Option(
        "--max-bytes",
        parser=parse_bytes,
        metavar="SIZE",
        help="Largest file or standard input read, in bytes or with K, M, G (64M); a larger "
        "source is an error.",
    ),
]
DEFAULT_MAX_BYTES = 64 << 20  # as gcadj.sources.read.DEFAULT_MAX_BYTES (not imported: start-up)


def fetch_settings_of(
    cache: str | None,
    no_cache: bool,
    delay: float | None,
    timeout: float | None,
    retries: int | None,
    max_kb: int | None,
) -> FetchSettings:
    """The fetch options of a command as one value (see `gcadj.app.fetching`)."""
    from pathlib import Path

    return FetchSettings(
        cache=Path(cache) if cache else None,
        use_cache=not no_cache,
        delay=delay,
        timeout=timeout,
        retries=None if retries is None else int(retries),
        max_kb=None if max_kb is None else int(max_kb),
    )


FETCH_OPTIONS: tuple[OptionDeclaration, ...] = (
    ("cache", CacheOption, None),
    ("no_cache", NoCacheOption, False),
    ("delay", DelayOption, None),
    ("timeout", TimeoutOption, None),
    ("retries", RetriesOption, None),
    ("max_kb", MaxSizeOption, None),
)
"""The fetch options, declared once: (parameter, annotation, default), in their order of
``--help``. `fetch_options` gives them to every command that reads URLs."""

GIVEN_NONE: Final = FetchSettings()
"""The ``fetch`` parameter's default in a command's own signature: no fetch option given
(typer never sees it: `fetch_options` replaces it with the options)."""

R = TypeVar("R")


def option_group(
    parameter: str,
    options: list[inspect.Parameter],
    make: Callable[..., Any],
    *,
    with_arguments: Callable[[Any, dict[str, Any]], object] | None = None,
) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A decorator: a command whose parameter `parameter` stands for a group of options
    shows typer those `options` in its place (so ``--help`` lists them there, in their
    order), and gets them as one value, ``make(**their values)``: a group declared once
    and read in one place (`fetch_options`, `stage_options`, ``gcadj serve``'s settings).
    With `with_arguments`, the value is ``with_arguments(make(**values), other arguments)``
    (the stages read the command's own context)."""

    def decorate(command: Callable[..., R]) -> Callable[..., R]:
        signature = inspect.signature(command, eval_str=True)
        names = list(signature.parameters)
        at = names.index(parameter)
        parameters = list(signature.parameters.values())
        parameters[at : at + 1] = [
            option.replace(kind=inspect.Parameter.POSITIONAL_OR_KEYWORD) for option in options
        ]

        @functools.wraps(command)
        def with_group(*args: Any, **kwargs: Any) -> R:
            values = {option.name: kwargs.pop(option.name) for option in options}
            value = make(**values)
            if with_arguments is not None:
                value = with_arguments(value, kwargs)
            return command(*args, **{parameter: value}, **kwargs)

        with_group.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=parameters
        )
        with_group.__annotations__ = {p.name: p.annotation for p in parameters}
        return with_group

    return decorate


def options_of(function: Callable[..., Any]) -> list[inspect.Parameter]:
    """The parameters of `function`, each an option as its annotation declares it: a
    group for `option_group` declared as the one function that reads it."""
    return list(inspect.signature(function, eval_str=True).parameters.values())


def declared(options: tuple[OptionDeclaration, ...]) -> list[inspect.Parameter]:
    """Option declarations ((parameter, annotation, default)) as the parameters
    `option_group` shows typer."""
    return [
        inspect.Parameter(
            name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default, annotation=kind
        )
        for name, kind, default in options
    ]


def fetch_options(command: Callable[..., R]) -> Callable[..., R]:
    """A command that reads URLs, with the fetch options (`FETCH_OPTIONS`) in place of its
    parameter ``fetch: FetchSettings``: typer sees the options where ``fetch`` stands (so
    ``--help`` lists them there), and the command gets them as one `FetchSettings`
    (`fetch_settings_of`). The options are declared here only, for check, export, audit,
    fetch and adjudicate alike."""
    return option_group("fetch", declared(FETCH_OPTIONS), fetch_settings_of)(command)


Stages = Callable[[], dict[str, Any]]
"""The stages a command was asked for (``--adjudicate``, ``--analyse``), as keywords of
its `JudgeOptions` (`stages_wanted`), read when called: the command's own checks of its
command line come first."""


def _no_stages() -> dict[str, Any]:
    return {}


NO_STAGES: Final[Stages] = _no_stages
"""The ``stages`` parameter's default in a command's own signature (typer never sees it:
`stage_options` replaces it with the options)."""


def stage_options(
    name: str, *groups: tuple[OptionDeclaration, ...]
) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A command that runs stages only when asked (check, export, audit), with their
    options (`groups`: `ADJUDICATION_OPTIONS`, `ANALYSIS_OPTIONS`) in place of its parameter
    ``stages: Stages``: typer sees the options where ``stages`` stands, and the command
    gets one `Stages` that reads them from its context (its parameter ``ctx``:
    `stages_wanted`, a usage error of command `name` for an option given without its
    flag). The options are declared here only."""
    options = declared(tuple(option for group in groups for option in group))
    return option_group(
        "stages",
        options,
        dict,
        with_arguments=lambda _, kwargs: functools.partial(stages_wanted, name, kwargs["ctx"]),
    )


def fail(command: str, message: str, code: int) -> typer.Exit:
    say(f"gcadj {command}: {message}", err=True)
    return typer.Exit(code)


def check_options(
    command: str, pocket_file: str | None, fen: str | None = None
) -> PocketFile | None:
    """The --pocket-file as a `PocketFile` (either case: ``P`` is ``p``; None when it is
    not given: the logs say), checked with --fen before any source is read; a usage error
    (exit 2) for a bad one."""
    if pocket_file is None:
        if fen is not None:
            check_fen(command, fen, DEFAULT_POCKET_FILE)
        return None
    letter = PocketFile.read(pocket_file)
    if letter is None:
        raise fail(command, not_a_pocket_file("--pocket-file", pocket_file), EXIT_USAGE)
    if fen is not None:
        check_fen(command, fen, letter)
    return letter


def check_fen(command: str, fen: str, pocket_file: PocketFile) -> None:
    """A usage error (exit 2) for a --fen that is no start position."""
    from gcadj.errors import FenError
    from gcadj.judging.verdict import start_position

    try:
        start_position(fen, pocket_file)
    except FenError as err:
        raise fail(command, f"--fen: {err}", EXIT_USAGE) from None


def refuse_folder(command: str, option: str, path: str | None) -> None:
    """A usage error (exit 2) if an output the user named is a folder, said as such."""
    import os

    if path is not None and os.path.isdir(path):
        message = f"{option} {path}: that is a folder; {option} names the file to write"
        raise fail(command, message, EXIT_USAGE)


def report_problems(command: str, problems: list[str]) -> int:
    """Print what could not be expanded into sources (see `SourceWalker`); its exit code."""
    for problem in problems:
        say(f"gcadj {command}: {problem}", err=True)
    return EXIT_UNREADABLE if problems else EXIT_OK


def write_output(
    command: str, path: str, content: str | Callable[[IO[str]], None], force: bool
) -> None:
    """Write an output file the user named: atomically, replacing a file only with --force;
    one that cannot be written (a full disk) is one line and exit 6.

    `content` is the text, or a function that writes it to the open file (a long export
    is streamed, never held whole in memory)."""
    from pathlib import Path

    from gcadj.outputs.files import atomic_text_file

    refuse_folder(command, "-o", path)
    try:
        with atomic_text_file(Path(path), overwrite=force) as handle:
            if isinstance(content, str):
                handle.write(content)
            else:
                content(handle)
    except FileExistsError:
        raise fail(command, f"{path} exists; use --force to overwrite it", EXIT_USAGE) from None
    except CannotWrite as err:
        raise fail(command, str(err), EXIT_CANNOT_WRITE) from None


__all__ = [
    "ADJUDICATION_OPTIONS",
    "ANALYSE_FLAGS",
    "ANALYSIS_OPTIONS",
    "ANALYSIS_PARAMETERS",
    "DEFAULT_ANALYSE_DEPTH",
    "DEFAULT_ANALYSE_NODES",
    "DEFAULT_BUDGET",
    "DEFAULT_EVIDENCE_MARGIN",
    "DEFAULT_MATERIAL_THRESHOLD",
    "DEFAULT_MATE_DEPTH",
    "DEFAULT_TABLE_MB",
    "EXIT_CANNOT_WRITE",
    "EXIT_ILLEGAL",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_SYNTAX",
    "EXIT_UNREADABLE",
    "EXIT_USAGE",
    "FETCH_OPTIONS",
    "INTERNAL_ERROR_HINT",
    "NO_STAGES",
    "STATUS_EXIT",
    "AdjudicateFlag",
    "AnalyseDepthOption",
    "AnalyseFlag",
    "AnalyseMateDepthOption",
    "AnalyseMoreNodesOption",
    "AnalyseNodesOption",
    "BudgetOption",
    "EvidenceMarginOption",
    "JobsOption",
    "MateDepthOption",
    "NodesOption",
    "OptionDeclaration",
    "Stages",
    "TableOption",
    "ThresholdOption",
    "adjudicate_options_of",
    "adjudication_wanted",
    "analyse_options_of",
    "analysis_wanted",
    "check_options",
    "fail",
    "fetch_options",
    "fetch_settings_of",
    "limits_of",
    "memory_option",
    "number_option",
    "number_parser",
    "option_group",
    "options_of",
    "refuse_folder",
    "report_problems",
    "source_timeout_option",
    "stage_options",
    "stages_wanted",
    "write_output",
]
