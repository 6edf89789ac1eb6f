"""The pocket file found from the log (issue 28 item 3): a log of the newer preset
(p1/p8) needs no option; a tag or --pocket-file still wins; two pocket files in one log
are a syntax error at the first square of the second, with a hint."""

from __future__ import annotations

import string

import pytest
from conftest import FIXTURES, invoke_gcadj

from gcadj.app.check import check_source, check_text
from gcadj.vocabulary import PocketFile

OPENING = "P e2-e4\np e7-e5\n"


def test_a_log_of_the_newer_preset_needs_no_option() -> None:
    verdict = check_source(str(FIXTURES / "parse" / "pocket_p.txt"))
    assert verdict.status == "illegal" and verdict.log is not None  # read, then judged
    assert verdict.log.pocket_file == "p"
    assert verdict.first_illegal is not None
    assert verdict.first_illegal.category == "pocket-first-move"
    later = check_text(OPENING + "R h1-p1; I-p1\nr h8-p8\nI p1-h4\n", "g.txt")
    assert later.status == "legal" and later.plies == 5
    assert later.log is not None and later.log.pocket_file == "p"


@pytest.mark.parametrize("letter", [c for c in string.ascii_lowercase if c > "i"])
def test_only_a_presets_file_is_read_as_the_pockets_from_the_plies(letter: str) -> None:
    """The presets put the pockets on i or p: a log whose plies use p1/p8 is read so, and
    any other file past h (``N g1-k1``) is a syntax error whose hint names the presets and
    the option that reads such a log all the same."""
    verdict = check_text(OPENING + f"R h1-{letter}1\nr h8-{letter}8\n", "g.txt")
    if letter == "p":
        assert verdict.status == "legal" and verdict.log is not None
        assert verdict.log.pocket_file == letter
    else:
        assert verdict.status == "syntax-error" and verdict.legal_plies == 2
        error = str(verdict.error)
        assert f"{letter}1 is not a square" in error
        assert f"no preset has its pockets on file {letter}" in error
        assert f"--pocket-file {letter}" in error
        given = check_text(OPENING + f"R h1-{letter}1\n", "g.txt", pocket_file=PocketFile(letter))
        assert given.status == "legal"  # told, gcadj reads it
    for rank in "234567":  # not a pocket square of any preset: the parser's error stands
        wrong = check_text(OPENING + f"R h1-{letter}{rank}\n", "g.txt")
        assert wrong.status == "syntax-error" and wrong.legal_plies == 2
        assert f"{letter}{rank} is not a square" in str(wrong.error)


def test_a_tag_or_the_option_wins_over_the_plies() -> None:
    tagged = check_text('[PocketFile "i"]\n' + OPENING + "R h1-p1\n", "g.txt")
    assert tagged.status == "syntax-error" and "p1 is not a square" in str(tagged.error)
    given = check_text(OPENING + "R h1-p1\n", "g.txt", pocket_file=PocketFile("i"))
    assert given.status == "syntax-error" and given.legal_plies == 2
    assert "is read so without --pocket-file, or with --pocket-file p" in str(given.error)
    other = check_text(OPENING + "R h1-i1\n", "g.txt", pocket_file=PocketFile("p"))
    assert other.status == "syntax-error" and "i1 is not a square" in str(other.error)


@pytest.mark.parametrize(
    ("text", "line", "column", "first"),
    [
        (OPENING + "R h1-i1\nr h8-i8\nR i1-h1\nr i8-p1\n", 6, 6, "i1 on line 3"),
        (OPENING + "R h1-p1\nr h8-i8\n", 4, 6, "p1 on line 3"),
        (OPENING + "R h1-p1; I-i1\n", 3, 12, "p1 on line 3"),
    ],
)
def test_two_pocket_files_are_a_syntax_error_at_the_first_square_of_the_second(
    text: str, line: int, column: int, first: str
) -> None:
    verdict = check_text(text, "g.txt")
    assert verdict.status == "syntax-error" and verdict.error is not None
    assert verdict.error.startswith(f"g.txt:{line}:{column}: syntax error: expected a pocket")
    assert f"this log puts its pockets on file {first[0]} ({first})" in verdict.error
    assert verdict.partial and verdict.legal_plies == line - 1  # the plies before it judged


def test_a_square_typo_is_not_taken_for_a_preset() -> None:
    """A pocket-like word where no square goes reads no further with its file: the error
    is the one the log has with the pockets on i."""
    verdict = check_text("P e2-e4 p1\n", "g.txt")
    assert verdict.error is not None and verdict.error.startswith("g.txt:1:9: syntax error")
    assert "files run from a to h, plus i for the pockets" in verdict.error


def test_the_cli_reads_a_p_log_without_the_option() -> None:
    path = str(FIXTURES / "parse" / "pocket_p.txt")
    assert invoke_gcadj("check", path).returncode == 1  # an illegal ply, not 3
    assert invoke_gcadj("check", "--pocket-file", "i", path).returncode == 3
    assert invoke_gcadj("check", "--pocket-file", "P", path).returncode == 1


def test_gc_plies_inside_pgn_find_the_pocket_file_as_a_log_does() -> None:
    """``{gc: R h1-p1}`` in a PGN game is read with the pockets on p, as the same plies in
    a log are (and as the hint for p1 says), and the SAN after it drops from p1."""
    pgn = '[Event "x"]\n\n1. e4 e5 2. {gc: R h1-p1} Nc6 3. R@h4 *\n'
    log = OPENING + "R h1-p1\nn b8-c6\nR p1-h4\n"
    from_pgn, from_log = check_text(pgn, "g.pgn"), check_text(log, "g.txt")
    assert from_pgn.status == from_log.status == "legal"
    assert from_pgn.final_fen == from_log.final_fen
    assert from_pgn.log is not None and from_pgn.log.pocket_file == "p"
    told = check_text(pgn, "g.pgn", pocket_file=PocketFile("i"))  # told otherwise: i it is
    assert told.status == "syntax-error" and "p1 is not a square" in str(told.error)
    tagged = check_text('[PocketFile "i"]\n' + pgn[pgn.index("\n") + 1 :], "g.pgn")
    assert tagged.status == "syntax-error"
