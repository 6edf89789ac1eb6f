"""A log pasted as people paste it, from a forum post or an e-mail: talk before and after
the moves is skipped and named in a note; what could be a ply is never skipped."""

from __future__ import annotations

import pytest

from gcadj.app.check import check_text
from gcadj.sources.pasted import is_talk, without_talk

GAME = "P e2-e4\np e7-e5\nN g1-f3\n"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("Some forum post:\n", ""),
        ("", "\nThanks, Alice\n"),
        ("Hi Bob,\nhere is our game from the club, as it stands:\n\n", "\n--\nAlice\n"),
    ],
)
def test_talk_around_a_log_is_skipped_and_named(before: str, after: str) -> None:
    plain = check_text(GAME, "paste.txt")
    pasted = check_text(before + GAME + after, "paste.txt")
    assert pasted.status == plain.status == "legal"
    assert pasted.final_fen == plain.final_fen and pasted.plies == plain.plies == 3
    talk = [
        (number, line)
        for number, line in enumerate((before + GAME + after).split("\n"), 1)
        if line.strip() and is_talk(line)
    ]
    assert talk  # the lines said, each by its number and text
    (note,) = [w for w in pasted.warnings if w.startswith("skipped ")]
    for number, line in talk:
        assert f"line {number} ({line.strip()!r})" in note


def test_the_lines_of_the_paste_are_the_ones_said() -> None:
    pasted = check_text("Some forum post:\n\nP e2-e4\np e7-e5\nN g1-g3\n", "paste.txt")
    assert pasted.status == "illegal" and pasted.first_illegal is not None
    assert (pasted.first_illegal.line, pasted.first_illegal.ply) == (5, 3)


def test_what_could_be_a_ply_is_never_skipped() -> None:
    typo = check_text(GAME + "P e4 e5\nThanks, Alice\n", "paste.txt")  # a slip, then talk
    assert typo.status == "syntax-error" and typo.partial and typo.legal_plies == 3
    assert "4:6: syntax error" in str(typo.error)
    middle = check_text("P e2-e4\nwell played!\np e7-e5\n", "paste.txt")  # talk among moves
    assert middle.status == "syntax-error" and "2:" in str(middle.error).split("syntax")[0]
    assert without_talk("no game here at all\n") is None  # nothing of a log: the error stands
    assert not check_text("no game here at all\n", "x").warnings


def test_slips_gcadj_has_a_hint_for_are_no_talk() -> None:
    for slip in ("1-0", "O-O", "# Game 1", "*"):
        verdict = check_text(GAME + slip + "\n", "paste.txt")
        assert verdict.status == "syntax-error" and not verdict.warnings, slip
