"""The project's own documentation: the rules page complete and in step with the engine,
the README a landing page whose links and commands hold, every page of the manual in its
navigation, and nothing pointing outside the project."""

from __future__ import annotations

import re
import shlex
import unicodedata

import pytest
from conftest import ROOT, invoke_gcadj

from gcadj.engine.pieces import KINDS

DOCS = ROOT / "docs"
RULES = DOCS / "rules.md"
README = ROOT / "README.md"
# Spelled in parts so that this file does not name them itself.
OUTSIDE = ("RULES" + ".md", "GAMECOURIER" + ".md", "STYLE" + ".md", "../" + "shared")


def test_the_piece_table_names_every_piece_with_its_letter_and_class() -> None:
    rows = re.findall(r"^\| ([A-Z]) \| (\w+) \| [^|]+ \| ([0-9—]) \|$", RULES.read_text(), re.M)
    table = {letter: (name, cls) for letter, name, cls in rows}
    expected = {
        kind.letter: (kind.name, "—" if kind.is_king else str(kind.value_class)) for kind in KINDS
    }
    assert table == expected


def test_nothing_in_the_project_points_at_files_outside_it() -> None:
    folders = ["gcadj", "tests", "bench", "docs", "fixtures", "grammars", ".ci"]
    files = [README, ROOT / "pyproject.toml", ROOT / "mkdocs.yml"]
    files += [p for folder in folders for p in (ROOT / folder).rglob("*") if p.is_file()]
    offenders = []
    for path in files:
        if path.suffix in {".png", ".pickle", ".pyc"}:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        offenders += [f"{path.relative_to(ROOT)}: {name}" for name in OUTSIDE if name in text]
    assert offenders == []


def test_the_readme_links_the_rules_page() -> None:
    assert "(docs/rules.md)" in README.read_text()


def test_the_readme_is_a_landing_page() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 350


def nav_pages() -> list[str]:
    """The pages the manual's navigation lists (mkdocs.yml; commented slots left out)."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:") :]
    return re.findall(r"^\s*- (?:[^:#\n]+: )?([\w./-]+\.md)\s*$", nav, re.M)


def test_every_page_of_the_manual_is_in_its_navigation_once() -> None:
    pages = nav_pages()
    assert len(pages) == len(set(pages))
    assert sorted(pages) == sorted(p.name for p in DOCS.glob("*.md"))


def test_the_readme_links_every_page_of_the_manual() -> None:
    linked = set(re.findall(r"\]\(docs/([\w.-]+\.md)(?:#[\w-]+)?\)", README.read_text()))
    assert linked == set(nav_pages())


def nav_names() -> dict[str, str]:
    """Each page of the navigation by its name there (mkdocs.yml)."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:") :]
    return dict(
        (page, name)
        for name, page in re.findall(r"^\s*- ([^:#\n]+): ([\w./-]+\.md)\s*$", nav, re.M)
    )


def test_the_manuals_home_page_links_every_page_by_its_one_name() -> None:
    """docs/index.md links every page of the manual, and a page has one name: the one the
    navigation gives it, in the README's table and on the home page alike (the command
    pages' headings begin with it too)."""
    names = nav_names()
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    linked = dict(re.findall(r"\[([^\]]+)\]\(([\w.-]+\.md)\)", home))
    by_page = {page: name for name, page in linked.items()}
    assert set(by_page) >= set(nav_pages()) - {"index.md"}
    readme = dict(
        (page, name)
        for name, page in re.findall(
            r"^\| \[([^\]]+)\]\(docs/([\w.-]+\.md)\) \|", README.read_text(), re.M
        )
    )
    for page, name in names.items():
        if page == "index.md":
            continue
        assert readme.get(page) == name, (page, readme.get(page), name)
        assert name in [n for n, p in linked.items() if p == page], (page, name)
    for page in ("adjudicate.md", "check.md", "convert.md"):
        heading = (DOCS / page).read_text(encoding="utf-8").split("\n", 1)[0]
        assert heading.startswith(f"# {names[page]}: "), (page, heading)


def slug(heading: str) -> str:
    """A heading's anchor, as MkDocs' table of contents makes it (Python-Markdown's slugify)."""
    text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(page: str) -> set[str]:
    text = re.sub(r"^```.*?^```", "", (DOCS / page).read_text(encoding="utf-8"), flags=re.M | re.S)
    return {slug(heading) for heading in re.findall(r"^#+ (.+)$", text, re.M)}


def test_the_readmes_links_into_the_manual_resolve() -> None:
    links = re.findall(r"\]\(docs/([^)#]+)(?:#([^)]+))?\)", README.read_text())
    assert links
    for target, anchor in links:
        assert (DOCS / target).is_file(), target
        if anchor:
            assert anchor in anchors(target), (target, anchor)


def test_the_readmes_two_commands_are_what_ci_runs_and_say_how_long_they_take() -> None:
    readme = README.read_text(encoding="utf-8")
    section = readme[
        readme.index("## Two commands") : readme.index("\n## ", readme.index("## Two commands") + 1)
    ]
    commands = re.findall(r"```sh\n(.+?)\n```", section)
    assert len(commands) == 2
    install, tests = commands
    assert install.startswith("python3 -m venv .venv && .venv/bin/pip install -q . && ")
    assert "gcadj check fixtures/" in install
    assert (ROOT / install.split("gcadj check ")[1]).is_file()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    venv, pip, pytest = tests.split(" && ")
    assert (
        venv == "python3 -m venv .venv"
        and pip in ci
        and pytest.startswith(".venv/bin/python -m pytest -n ")
        and pytest in ci  # the same command, spread over the cores as CI spreads it
    )
    for command in commands:  # the paragraph after each: its time, and the load it holds under
        said = " ".join(section[section.index(command) + len(command) :].split("```")[1].split())
        assert re.search(r"\d+ (?:min|s)\b", said) and "load" in said, said


def console_sessions() -> list[tuple[str, str, str]]:
    """Every `$ gcadj …` command shown in a console block of the README or the manual, with
    the output shown under it: (where, command, output)."""
    sessions = []
    for path in [README, *sorted(DOCS.glob("*.md"))]:
        for block in re.findall(r"^```console\n(.*?)^```", path.read_text("utf-8"), re.M | re.S):
            for command, output in re.findall(r"^\$ (gcadj .*)\n((?:(?!\$ ).*\n)*)", block, re.M):
                sessions.append((path.name, command, output))
    return sessions


@pytest.mark.parametrize(("where", "command", "shown"), console_sessions())
def test_what_the_documentation_shows_a_command_print_is_what_it_prints(
    where: str, command: str, shown: str
) -> None:
    program, *args = shlex.split(command)
    assert program == "gcadj"
    done = invoke_gcadj(*args)
    assert done.stdout == shown, (where, command)


def test_the_documentation_shows_console_sessions() -> None:
    assert {where for where, _, _ in console_sessions()} >= {"README.md", "check.md"}


def listed(page: str, lead: str) -> list[str]:
    """The words in backquotes of the paragraph of `page` that starts with `lead`."""
    text = (DOCS / page).read_text(encoding="utf-8")
    paragraph = text[text.index(lead) :].split("\n\n", 1)[0]
    return re.findall(r"`([a-z_-]+)`", paragraph)


def test_the_manual_lists_every_category_and_every_ending() -> None:
    from gcadj.vocabulary import Category, Termination

    assert listed("check.md", "**Categories**") == [category.value for category in Category]
    endings = [t.value for t in Termination if t is not Termination.THREEFOLD_REPETITION]
    assert listed("check.md", "**Endings**") == endings  # threefold: a warning, not an end


def test_the_manual_names_every_key_of_a_verdicts_json() -> None:
    from gcadj import check_text

    verdict = check_text("P e2-e4\np e7-e5\nN g1-g3\n").to_json()
    finding = verdict["first_illegal"]
    words = set(listed("check.md", "`--json` writes"))
    assert set(verdict) | set(finding) | set(finding["suggestions"][0]) <= words


def test_the_adjudicate_page_names_every_class_and_every_key_of_an_adjudication() -> None:
    from gcadj import adjudicate_position
    from gcadj.vocabulary import AdjudicationClass

    found = adjudicate_position("k7/8/2K5/8/8/8/8/7R[] w - - 0 1").to_json()
    keys = set(found) | set(found["mate"]) | set(found["material"]["white"])
    text = (DOCS / "adjudicate.md").read_text(encoding="utf-8")
    assert [key for key in sorted(keys) if f"`{key}`" not in text] == []
    assert [kind.value for kind in AdjudicationClass if f"`{kind.value}`" not in text] == []


def test_the_adjudicate_page_names_every_key_of_the_exchanges_and_of_a_threat() -> None:
    import gcadj

    games = [ROOT / "fixtures" / "adjudicate" / name for name in ("queen-hangs.txt", "threat.txt")]
    # A mate search of one move: the keys are the same at any depth, and the default (4)
    # spends its whole 30 s budget on each game before it gives them.
    hangs, threat = (
        gcadj.adjudicate(str(path), mate_depth=1)[0].to_json()["adjudication"] for path in games
    )
    keys = set(hangs["exchanges"]) | set(threat["threat"])
    text = (DOCS / "adjudicate.md").read_text(encoding="utf-8")
    assert [key for key in sorted(keys) if f"`{key}`" not in text] == []


def test_the_analyse_page_names_every_kind_and_every_key_of_an_analysis() -> None:
    from gcadj import analyse_verdict, check_text
    from gcadj.vocabulary import MistakeKind

    game = (ROOT / "fixtures" / "analyse" / "allows-mate-in-1.txt").read_text(encoding="utf-8")
    found = analyse_verdict(check_text(game)).to_json()
    ply = found["plies"][2]
    keys = set(found) | set(found["start"]) | set(ply) | set(ply["mistakes"][0]) | set(ply["mate"])
    text = (DOCS / "analyse.md").read_text(encoding="utf-8")
    assert [key for key in sorted(keys) if f"`{key}`" not in text] == []
    assert [kind.value for kind in MistakeKind if f"`{kind.value}`" not in text] == []
