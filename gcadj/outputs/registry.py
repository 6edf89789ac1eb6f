"""The export formats, found where they live: one module per format in `gcadj.outputs.writers`.

Each module there declares ``WRITER = Writer(...)``: the format's name (the word after
``--to``), a one-line help, whether it takes one game or several, which options it accepts
(``--ply``, ``--to-pocket-file``, ``--fix``), and how it writes. `writers` finds them with
pkgutil, so adding a format is one new module (and its test): ``gcadj export --to``'s
choices, its help and the Python API (`gcadj.outputs.game_export`) all come from here.

Writing is two steps, so that a file named for an export is never started for nothing:
`Writer.start` checks the games and the options and raises `ExportError` (a usage error)
before anything is written; the function it returns writes to a text stream, as it goes.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Final, Literal

from gcadj.errors import ExportError
from gcadj.judging.verdict import Verdict
from gcadj.vocabulary import PocketFile
from gcadj.words import plural

__all__ = [
    "OPTION_FLAGS",
    "ExportError",
    "ExportGame",
    "ExportOptions",
    "Writer",
    "check_ply",
    "formats_in_words",
    "several",
    "text_writer",
    "writer_for",
    "writers",
]

WRITERS_PACKAGE: Final = "gcadj.outputs.writers"

OptionName = Literal["ply", "to_pocket_file", "fix"]
OPTION_FLAGS: Final[Mapping[OptionName, str]] = {
    "ply": "--ply",
    "to_pocket_file": "--to-pocket-file",
    "fix": "--fix",
}

WriteTo = Callable[[IO[str]], None]
"""Writes a checked export to a text stream."""


@dataclass(frozen=True)
class ExportOptions:
    """What the user asked of the export, besides the format."""

    ply: int | None = None  # fen, svg: the position after this many legal plies
    to_pocket_file: PocketFile | None = None  # gc: the preset to write for
    fix: bool = False  # gc: the games were corrected (`ExportGame.notes` say where)
    size: int = 48  # svg, html: the size of a board square, in pixels

    def given(self) -> list[OptionName]:
        """The options the user set."""
        values: dict[OptionName, object] = {
            "ply": self.ply,
            "to_pocket_file": self.to_pocket_file,
            "fix": self.fix or None,
        }
        return [name for name, value in values.items() if value is not None]


@dataclass(frozen=True)
class ExportGame:
    """One judged game to write, and gcadj's notes on its legal plies (0-based index ->
    text, such as ``--fix``'s ``gcadj: was 'p d8-d5'``)."""

    verdict: Verdict
    notes: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Writer:
    """An export format (see the module docstring).

    `prepare` is the format's own work: given games and options that `start` has checked,
    it raises `ExportError` for what only the format can see (a ply out of range) and
    returns what writes the export. `several` says what several games become ("one PGN
    database"), for a format that takes them (`many`). `refusals` adds a format's own
    advice to the refusal of an option it does not take. `order` places it in lists.
    """

    name: str
    title: str  # what the format is called in a list of them: "PGN", "an HTML viewer"
    help: str
    many: bool
    accepts: frozenset[OptionName]
    prepare: Callable[[Sequence[ExportGame], ExportOptions], WriteTo]
    several: str = ""
    refusals: Mapping[OptionName, str] = field(default_factory=dict)
    order: int = 100

    def check_options(self, options: ExportOptions) -> None:
        """`ExportError` for an option this format does not take: what can be refused
        before any game is read."""
        for option in options.given():
            if option not in self.accepts:
                raise ExportError(self._refusal(option))

    def check_count(self, count: int) -> None:
        """`ExportError` unless this format writes `count` games."""
        if not count:
            raise ExportError("no game to convert")
        if count > 1 and not self.many:
            raise ExportError(f"--to {self.name} writes one game, not {count}; {several()}")

    def start(self, games: Sequence[ExportGame], options: ExportOptions) -> WriteTo:
        """Check `games` and `options` against this format, then `prepare` the export."""
        self.check_options(options)
        self.check_count(len(games))
        for game in games:
            if game.verdict.log is None:
                raise ExportError(f"{game.verdict.source}: no game to convert")
        return self.prepare(games, options)

    def _refusal(self, option: OptionName) -> str:
        takers = [w.name for w in writers().values() if option in w.accepts]
        flag = OPTION_FLAGS[option]
        advice = self.refusals.get(option)
        shown = takers if option != "fix" else [f"--to {name}" for name in takers]
        where = " and ".join(shown)
        if advice:
            return f"{flag} applies to {where} only; {advice}"
        return f"{flag} applies to {where} only, not {self.name}"


def formats_in_words() -> str:
    """Every format by its title, in order: ``PGN, Game Courier text, …, SVG or an HTML
    viewer`` (the help's list, made from the writers themselves)."""
    titles = [w.title for w in writers().values()]
    return ", ".join(titles[:-1]) + " or " + titles[-1] if len(titles) > 1 else "".join(titles)


def several() -> str:
    """What the formats that take several games make of them, for a refusal's advice."""
    return "; ".join(
        f"--to {w.name} writes several as {w.several}" for w in writers().values() if w.many
    )


@functools.cache
def writers() -> dict[str, Writer]:
    """Every format, by name, in their `order`: each module of `gcadj.outputs.writers`
    declares one ``WRITER``."""
    package = importlib.import_module(WRITERS_PACKAGE)
    found: dict[str, Writer] = {}
    for info in pkgutil.iter_modules(package.__path__, f"{WRITERS_PACKAGE}."):
        module = importlib.import_module(info.name)
        writer = getattr(module, "WRITER", None)
        if not isinstance(writer, Writer):
            raise TypeError(f"{info.name} declares no WRITER = Writer(...)")
        if writer.name in found:
            raise TypeError(f"{info.name}: a second writer named {writer.name!r}")
        found[writer.name] = writer
    return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


def writer_for(name: str) -> Writer:
    """The format called `name`; `ExportError` naming the formats there are."""
    known = writers()
    if name not in known:
        raise ExportError(f"unknown format {name!r}; expected one of {', '.join(known)}")
    return known[name]


def check_ply(verdict: Verdict, ply: int) -> None:
    """`ExportError` unless `ply` names a position of the legal game (0: the start), for
    the formats that take ``--ply``."""
    available = len(verdict.moves)
    if 0 <= ply <= available:
        return
    detail = f"the game has {plural(available, 'legal ply', 'legal plies')}"
    if verdict.first_illegal is not None:
        detail += f" (ply {verdict.first_illegal.ply} is illegal)"
    raise ExportError(f"ply {ply} is out of range: {detail}; ply 0 is the start")


def text_writer(text: str) -> WriteTo:
    """What writes a text already made (a format whose output is one piece: SVG, a page)."""

    def write(out: IO[str]) -> None:
        out.write(text)

    return write
