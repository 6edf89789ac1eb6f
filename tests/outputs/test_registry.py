"""The export formats register themselves: one module per format in gcadj/outputs/writers/,
and `gcadj export --to`'s choices, its help and the Python API all come from them."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import FIXTURES, invoke_gcadj

import gcadj.outputs.writers as writers_package
from gcadj.app.check import check_text
from gcadj.outputs.game_export import export_game
from gcadj.outputs.registry import ExportError, Writer, writer_for, writers

EX1 = FIXTURES / "examples" / "ex1_pocket_mutation_drops.txt"


def test_every_module_of_the_package_is_a_format_and_every_format_a_module() -> None:
    folder = Path(writers_package.__file__).parent
    modules = {path.stem for path in folder.glob("*.py")} - {"__init__"}
    assert len(modules) >= 6 and modules == set(writers())
    orders = [writer.order for writer in writers().values()]
    assert orders == sorted(orders)  # listed in their order
    for name, writer in writers().items():
        assert isinstance(writer, Writer) and writer.name == name and writer.help
        assert writer.title and writer.title not in {
            w.title for w in writers().values() if w is not writer
        }
        assert writer.several if writer.many else not writer.several


def test_the_cli_offers_exactly_the_registered_formats() -> None:
    done = invoke_gcadj("export", "--help")
    assert done.returncode == 0
    epilog = " ".join(done.stdout.split("Formats: ", 1)[1].split())
    for name, writer in writers().items():
        assert f"{name} ({' '.join(writer.help.split())}" in epilog
    wrong = invoke_gcadj("export", str(EX1), "--to", "tiff")
    assert wrong.returncode == 2
    choices = wrong.stderr.split("'tiff' is not one of ", 1)[1]
    assert [name.strip(" '.\n") for name in choices.split(",")] == list(writers())
    overview = " ".join(invoke_gcadj("--help").stdout.split())
    titles = [writer.title for writer in writers().values()]
    assert f"export Convert games to {', '.join(titles[:-1])} or {titles[-1]}." in overview


NEW_FORMAT = '''
"""--to lines: one line per ply, as typed (a format written for the registry's test)."""

from gcadj.judging.plies import judged_plies
from gcadj.outputs.registry import Writer


def _prepare(games, options):
    def write(out):
        for game in games:
            for ply in judged_plies(game.verdict):
                out.write(f"{ply.ply} {ply.status} {ply.text}\\n")
    return write


WRITER = Writer(
    name="lines", title="a list of lines", help="one line per ply, as typed", many=True,
    accepts=frozenset(), prepare=_prepare, several="one list",
)
'''


@pytest.fixture
def new_format(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A module dropped beside the writers (the package's path holds one more folder)."""
    (tmp_path / "lines.py").write_text(textwrap.dedent(NEW_FORMAT), encoding="utf-8")
    monkeypatch.setattr(writers_package, "__path__", [*writers_package.__path__, str(tmp_path)])
    writers.cache_clear()
    yield
    writers.cache_clear()


@pytest.mark.usefixtures("new_format")
def test_a_new_module_is_a_new_format_with_nothing_else_changed() -> None:
    assert "lines" in writers()
    help_text = " ".join(invoke_gcadj("export", "--help").stdout.split())
    assert "lines (one line per ply, as typed; several games: one list)" in help_text
    overview = " ".join(invoke_gcadj("--help").stdout.split())
    assert "or a list of lines." in overview  # the new format's title, last in the line
    done = invoke_gcadj("export", str(EX1), "--to", "lines")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == ["1 legal P e2-e4", "2 legal p e7-e5"]
    text = export_game(check_text("P e2-e4\nK e1-e3\n"), "lines")
    assert text == "1 legal P e2-e4\n2 illegal K e1-e3\n"


def test_the_registry_is_back_to_its_own_formats_after_the_new_one() -> None:
    assert "lines" not in writers()  # the fixture's module is gone with its folder


def test_an_option_a_format_does_not_take_is_refused_naming_those_that_do() -> None:
    messages = {}
    for flag, options in (("ply", {"ply": 1}), ("to_pocket_file", {"to_pocket_file": "p"})):
        with pytest.raises(ExportError) as info:
            export_game(check_text("P e2-e4\n"), "pgn", **options)  # type: ignore[arg-type]
        messages[flag] = str(info.value)
    assert messages["ply"] == "--ply applies to fen and svg only, not pgn"
    assert messages["to_pocket_file"] == "--to-pocket-file applies to gc only, not pgn"
    with pytest.raises(ExportError, match="#ply=N"):
        export_game(check_text("P e2-e4\n"), "html", ply=1)
    with pytest.raises(ExportError, match="unknown format 'tiff'; expected one of pgn, gc"):
        writer_for("tiff")
