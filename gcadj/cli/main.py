"""The `gcadj` command line: thin typer commands that wire the library and render results.

Each command lives in its own module and imports what it needs inside its body, so
`gcadj --help` and `gcadj check` on one small game do not pay for requests, beautifulsoup4
or the SVG code. Data goes to stdout; diagnostics, warnings and progress go to stderr.
Commands are registered here, in the order users need them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer
from typer.core import TyperArgument, TyperCommand

from gcadj.about import __version__, build_flavour
from gcadj.cli import adjudicate, analyse, audit, check, export, fen, fetch, perft, serve


class Command(TyperCommand):
    """A gcadj command: its usage line names its arguments plainly (``SOURCES...``, not
    typer's ``{sources}...``: the braces are not a shell syntax anyone types), and its
    arguments are read with the habits of `gcadj.cli.habits`: a negative number is a
    value (and its own check says what it needs), an unknown option is answered with a
    close one or none, and contradicting flags are refused in words."""

    def collect_usage_pieces(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]
        return [
            piece.replace("{", "").replace("}", "") for piece in super().collect_usage_pieces(ctx)
        ]

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:  # type: ignore[override]
        from gcadj.cli import habits

        try:
            rest: list[str] = super().parse_args(ctx, list(args))
        except habits.no_such_option_error() as err:
            name: str = getattr(err, "option_name", "")
            if habits.is_negative_number(name) and any(
                isinstance(param, TyperArgument) for param in self.params
            ):
                ctx.ignore_unknown_options = True  # "-1" is an argument: let its check speak
                rest = super().parse_args(ctx, list(args))
            else:  # the same error, with sensible suggestions (or none)
                options = [name for param in self.params for name in param.opts]
                err.possibilities = habits.close_options(name, [*options, "--help"])  # type: ignore[attr-defined]
                if not err.possibilities:  # type: ignore[attr-defined]
                    owners = habits.owners_of(name, _sibling_options(ctx))
                    if owners:
                        err.message += habits.owners_words(name, owners)  # type: ignore[attr-defined]
                raise
        if not ctx.resilient_parsing:  # shell completion parses too: it reads no stdin
            habits.apply_habits(ctx.info_name or self.name or "gcadj", self.params, ctx.params)
        return rest

    def get_help(self, ctx: Any) -> str:
        """The help; an epilog in `LATE_EPILOGS` is made only now (export's list of formats
        comes from its registry, which the other commands need not load)."""
        make = LATE_EPILOGS.get(self.name or "")
        if make is not None:
            self.epilog = make()
        help_text: str = super().get_help(ctx)
        return help_text

    def get_short_help_str(self, limit: int = 45) -> str:
        """The line of ``gcadj --help``; one in `LATE_SHORT_HELPS` is made only when shown
        (export's names the formats, from the registry)."""
        make = LATE_SHORT_HELPS.get(self.name or "")
        if make is not None:
            self.short_help = make()
        short: str = super().get_short_help_str(limit)
        return short


def _sibling_options(ctx: typer.Context) -> dict[str, list[str]]:
    """The options of every gcadj command, by command name (from the group's context)."""
    parent = ctx.parent
    group = getattr(parent, "command", None) if parent is not None else None
    commands = getattr(group, "commands", {}) or {}
    return {
        name: [opt for param in command.params for opt in param.opts]
        for name, command in commands.items()
    }


LATE_EPILOGS = {"export": export.export_epilog}
LATE_SHORT_HELPS = {"export": export.export_short_help}


app = typer.Typer(
    name="gcadj",
    help="Adjudicate Game Courier games of Pocket Mutation Chess.",
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gcadj {__version__}, {build_flavour()}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Adjudicate Game Courier games of Pocket Mutation Chess."""


# Each command's line in `gcadj --help` is its short help, given whole: click would cut a
# docstring's first sentence to fit the terminal and end it with "...". Export's line and
# epilog name the formats, so they are made when shown (LATE_SHORT_HELPS, LATE_EPILOGS).
COMMANDS: tuple[tuple[str, Callable[..., None], str | None, str | None], ...] = (
    (
        "check",
        check.check,
        check.CHECK_EPILOG,
        "Judge games: the first illegal move, or how each game ended.",
    ),
    (
        "adjudicate",
        adjudicate.adjudicate,
        adjudicate.ADJUDICATE_EPILOG,
        "Adjudicate unfinished games: a proved forced mate, a claimable draw, material.",
    ),
    (
        "analyse",
        analyse.analyse,
        analyse.ANALYSE_EPILOG,
        "Analyse every ply: a mate missed, a mate allowed, material lost (alias: analyze).",
    ),
    ("analyze", analyse.analyse, analyse.ANALYSE_EPILOG, None),
    ("export", export.export, None, None),
    (
        "audit",
        audit.audit,
        audit.AUDIT_EPILOG,
        "Judge a whole archive in parallel, with a summary and reports.",
    ),
    (
        "fetch",
        fetch.fetch,
        fetch.FETCH_EPILOG,
        "Download a Game Courier page and save its game as a log.",
    ),
    (
        "fen",
        fen.fen_command,
        fen.FEN_EPILOG,
        "Convert between gcadj's FEN and Game Courier's position code.",
    ),
    (
        "serve",
        serve.serve,
        serve.SERVE_EPILOG,
        "Serve the adjudicator in a browser: paste, upload, or a JSON API.",
    ),
    (
        "perft",
        perft.perft,
        perft.PERFT_EPILOG,
        "Count the legal move tree to a depth (to test the engine).",
    ),
)
"""The commands, in the order users need them: (name, function, epilog, short help)."""

HIDDEN = frozenset({"analyze"})
"""Names that run a command but are not listed (the American spelling of analyse)."""


def _register(
    commands: tuple[tuple[str, Callable[..., None], str | None, str | None], ...],
) -> None:
    """Each command of `commands` made a `Command` of the app, in their order."""
    for name, function, epilog, short_help in commands:
        app.command(
            name=name, cls=Command, epilog=epilog, short_help=short_help, hidden=name in HIDDEN
        )(function)


_register(COMMANDS)


def main() -> None:
    """Console-script entry point.

    The standard streams are guarded first (`gcadj.cli.streams`): a reader that stops
    early ends gcadj quietly with exit 141, whichever command was writing. The last line
    of defence: a bug that escapes a command (each already turns one on a source into
    that source's verdict) exits 5 with one line naming it, never 1 (which means "illegal
    move found") and never a traceback. Both streams are flushed here, not at interpreter
    exit, so a reader gone by then still gives 141 and no "Exception ignored", and a
    stream that cannot be written (a full disk) gives one line and exit 6.
    """
    from gcadj.cli.streams import (
        StreamFailed,
        flush_standard_streams,
        guard_standard_streams,
        say,
    )

    guard_standard_streams()
    try:
        try:
            app()
        except Exception as err:
            from gcadj.cli.common_options import EXIT_INTERNAL, INTERNAL_ERROR_HINT

            message = str(err).strip() or "(no message)"
            say(
                f"gcadj: internal error: {type(err).__name__}: {message}; {INTERNAL_ERROR_HINT}",
                err=True,
            )
            raise SystemExit(EXIT_INTERNAL) from None
        finally:
            flush_standard_streams()
    except StreamFailed as failed:  # said once, here: its stream is silenced by now
        say(failed.message, err=True)
        flush_standard_streams()
        raise
