"""Every hint is one the judge accepts (issue 19.5).

Each hint path of gcadj/notation/hints.py is driven by a concrete bad line typed in a
concrete position (a log before it). What the hint shows is then typed back:

* the rewrite of the player's ply (the text after ``write``) in place of the bad line, in
  the same position: it parses and the judge finds it legal;
* every other Game Courier text the hint quotes (a later ply, the other side's form, a
  comment) in the position the case gives for it, and every tag it shows in the header:
  legal too.

Hints that show no way to write the move (castling does not exist in Pocket Mutation
Chess; a bad square; a tag in the wrong place) must quote no ply at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

import gcadj
from gcadj.notation.parse import LogSyntaxError, parse_log
from gcadj.vocabulary import PocketFile

STANDARD_AFTER_1_E4_E5 = "P e2-e4\np e7-e5\n"
WHITE_PAWN_ON_E7 = '[FEN "k7/4P3/8/8/8/8/8/K7[] w - - 0 1"]\n'
BLACK_PAWN_ON_E2 = '[FEN "k7/8/8/8/8/8/4p3/K7[] b - - 0 1"]\n'
BLACK_ROOK_ON_H1 = '[FEN "k7/8/8/8/8/K7/8/7r[] b - - 0 1"]\n'
POCKETS_FULL = '[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Ii] w - - 0 5"]\n'


@dataclass(frozen=True)
class Case:
    """A bad line typed after `setups[0]`; later setups are where the hint's other
    examples (a later ply, the other side's form) are typed."""

    typed: str
    setups: tuple[str, ...]
    hint_has: str  # names the hint path
    pocket_file: str = "i"


CASES = {
    "spaced move": Case("P e2 e4", ("",), "join the two squares"),
    "x capture": Case("P e4xd5", ("P e2-e4\np d7-d5\n",), "no 'x'"),
    "x en passant": Case("P e5xd6; d5-", ("P e2-e4\np a7-a6\nP e4-e5\np d7-d5\n",), "no 'x'"),
    "uci": Case("g1f3", ("",), "put '-' between the squares"),
    "uci with its label": Case("P e2e4", ("",), "write 'P e2-e4'"),
    "en dash": Case("P e2\u2013e4", ("",), "an en dash"),
    "em dash in a pocketing": Case("R h1\u2014i1", (STANDARD_AFTER_1_E4_E5,), "an em dash"),
    "minus sign": Case("N g1\u2212f3", ("",), "a minus sign"),
    "two plies on a line": Case("1. P e2-e4 p e7-e5", ("", "P e2-e4\n"), "one ply per line"),
    "check mark": Case("Q d1-h5+", ("P e2-e4\np f7-f6\n",), "check and mate marks"),
    "mate mark": Case("q d8-h4#", ("P f2-f3\np e7-e5\nP g2-g4\n",), "check and mate marks"),
    "# comment after a ply": Case("P e2-e4 # best by test", ("",), "'#' does not start"),
    "# header line": Case("# White: Alice", ("",), "'#' does not start"),
    "# line after a ply": Case("# Game 1", ("P e2-e4\n",), "'#' does not start"),
    "=Q on arrival": Case(
        "P e7-e8=Q", (WHITE_PAWN_ON_E7, WHITE_PAWN_ON_E7 + "P e7-e8\nk a8-b7\n"), "arrival"
    ),
    "=Q on arrival, the issue's": Case("P e4-e5=Q", ("P e2-e4\np a7-a6\n",), "arrival"),
    "=q on arrival, Black": Case(
        "p e2-e1=q", (BLACK_PAWN_ON_E2, BLACK_PAWN_ON_E2 + "p e2-e1\nK a1-b2\n"), "arrival"
    ),
    "SAN promotion": Case(
        "e8=Q", (WHITE_PAWN_ON_E7, WHITE_PAWN_ON_E7 + "P e7-e8\nk a8-b7\n"), "stays a Pawn"
    ),
    "=I on pocketing": Case("R h1-i1=I", (STANDARD_AFTER_1_E4_E5,), "as it is pocketed"),
    "=I on pocketing, no label": Case("h1-i1=I", (STANDARD_AFTER_1_E4_E5,), "as it is pocketed"),
    "=Q on arrival, no label": Case(
        "e7-e8=Q", (WHITE_PAWN_ON_E7, WHITE_PAWN_ON_E7 + "P e7-e8\nk a8-b7\n"), "arrival"
    ),
    "=Q on pocketing, wrong class": Case(
        "R h1-i1=Q", (STANDARD_AFTER_1_E4_E5,), "may become R (Rook), I (Nightrider)"
    ),
    "=Q on pocketing from rank 8": Case(
        "P e8-i1=Q", (WHITE_PAWN_ON_E7 + "P e7-e8\nk a8-b7\n",), "must promote to B"
    ),
    "=I on pocketing, p preset": Case(
        "R h1-p1=I", (STANDARD_AFTER_1_E4_E5,), "as it is pocketed", pocket_file="p"
    ),
    "SAN pocketing": Case(
        "Rh1@=I", (STANDARD_AFTER_1_E4_E5, BLACK_ROOK_ON_H1), "pocketing as gcadj's PGN"
    ),
    "SAN pocketing, kept": Case(
        "Rh1@", (STANDARD_AFTER_1_E4_E5, BLACK_ROOK_ON_H1), "pocketing as gcadj's PGN"
    ),
    "SAN pocketing, Black": Case("rh8@=i", ("P e2-e4\n",), "pocketing as gcadj's PGN"),
    "SAN drop": Case("I@c4", (POCKETS_FULL, POCKETS_FULL + "P e2-e4\n"), "drop as PGN"),
    "SAN drop with '-'": Case("I@-c4", (POCKETS_FULL, POCKETS_FULL + "P e2-e4\n"), "drop"),
    "SAN drop, spaced": Case("I @ c4", (POCKETS_FULL, POCKETS_FULL + "P e2-e4\n"), "drop"),
    "SAN drop, Black": Case("i@c4", (POCKETS_FULL + "P e2-e4\n",), "drop as PGN"),
    "SAN drop, p preset": Case(
        "I@c4", (POCKETS_FULL, POCKETS_FULL + "P e2-e4\n"), "p1 is White's", pocket_file="p"
    ),
    "missing hyphen": Case("R h1-i1; I i1", (STANDARD_AFTER_1_E4_E5,), "'-' between"),
    "missing hyphen, Black": Case(
        "r h8-i8; i i8", (STANDARD_AFTER_1_E4_E5 + "N g1-f3\n",), "'-' between"
    ),
    "missing hyphen, p preset": Case(
        "R h1-p1; I p1", (STANDARD_AFTER_1_E4_E5,), "'-' between", pocket_file="p"
    ),
    "PGN movetext": Case("e4 e5", ("", "P e2-e4\n"), "PGN movetext"),
    "numbered PGN movetext in a log": Case(
        "1. e4 e5", ("// a log\n", "// a log\nP e2-e4\n"), "PGN movetext"
    ),
    "SAN": Case("Nf3", ("",), "looks like SAN"),
    "result": Case("1-0", ("P e2-e4\n",), "results are not moves"),
    "malformed tag": Case("[White Alice]", ("",), 'a tag is written [Name "value"]'),
}

NO_EXAMPLE = {
    "castling": Case("O-O", (STANDARD_AFTER_1_E4_E5,), "no castling"),
    "long castling": Case("0-0-0", (STANDARD_AFTER_1_E4_E5,), "no castling"),
    "King into the pocket": Case("K e1-i1=Q", (STANDARD_AFTER_1_E4_E5,), "never pocketed"),
    "King into the pocket, no hyphen": Case(
        "K e1-i1; Q i1", (STANDARD_AFTER_1_E4_E5,), "never pocketed"
    ),
    "a King from the pocket": Case("R h1-i1=K", (STANDARD_AFTER_1_E4_E5,), "becomes a King"),
    "bad pocket square": Case("R h1-i2; I-i2", ("",), "i2 is not a square"),
    "upper-case square": Case("P E2-E4", ("",), "lower case"),
    "pocket of the other preset": Case("R h1-i1=I", ("",), "plus p for", pocket_file="p"),
    "tag after a ply": Case('[Black "B"]', ("P e2-e4\n",), "tags go in the header"),
}

# A quotation opens after a space, '(' or ':' and closes before a space or punctuation,
# so an apostrophe ("gcadj's") is not one.
_QUOTED = re.compile(r"(?:^|(?<=[\s(:]))'([^']+)'(?=$|[\s),;:.])")
_TAG = re.compile(r'\[[A-Za-z][A-Za-z0-9_]* "[^"]*"\]')


def hint_of(case: Case, setup: str) -> str:
    verdict = judged(setup + case.typed + "\n", case.pocket_file)
    assert verdict.status == "syntax-error", verdict
    assert verdict.error is not None and "\nhint: " in verdict.error, verdict.error
    return verdict.error.split("\nhint: ", 1)[1]


def quoted_plies(hint: str, pocket_file: str) -> list[str]:
    """The quoted texts of a hint that are Game Courier plies or comments."""
    found = []
    for text in _QUOTED.findall(hint):
        if _TAG.fullmatch(text):
            continue
        try:
            log = parse_log(text + "\n", pocket_file=PocketFile(pocket_file))
        except LogSyntaxError:
            continue
        if any(record.submoves for record in log.records) or (
            not log.records and log.leading_comment is not None
        ):
            found.append(text)
    return found


def judged(text: str, pocket_file: str) -> gcadj.Verdict:
    return gcadj.check_text(text, pocket_file=PocketFile(pocket_file))


def assert_legal(text: str, pocket_file: str, plies: int) -> None:
    verdict = judged(text, pocket_file)
    assert verdict.status == "legal", (text, verdict.to_json())
    assert verdict.plies == plies, (text, verdict.to_json())


def plies_in(setup: str, pocket_file: str) -> int:
    return judged(setup, pocket_file).plies if setup.strip() else 0


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_every_example_in_a_hint_is_judged_legal(case: Case) -> None:
    pocket = case.pocket_file
    hint = hint_of(case, case.setups[0])
    assert case.hint_has in hint, hint
    for setup in case.setups[1:]:  # a hint never depends on the position
        assert hint_of(case, setup) == hint

    # The rewrite of the player's ply, typed in the same position.
    rewrite = re.search(r"write '([^']+)'", hint)
    plies = quoted_plies(hint, pocket)
    tags = _TAG.findall(hint)
    assert rewrite or plies or tags, f"the hint shows nothing to type: {hint}"
    if rewrite is not None:
        assert rewrite[1] in plies, hint
        before = plies_in(case.setups[0], pocket)
        adds = len(parse_log(rewrite[1] + "\n", pocket_file=PocketFile(pocket)).records)
        assert_legal(case.setups[0] + rewrite[1] + "\n", pocket, before + adds)

    # Every other ply or comment it quotes: legal where the case says it is typed.
    for text in plies:
        adds = len(parse_log(text + "\n", pocket_file=PocketFile(pocket)).records)
        outcomes = []
        for setup in case.setups:
            verdict = judged(setup + text + "\n", pocket)
            outcomes.append(verdict.to_json())
            if verdict.status == "legal" and verdict.plies == plies_in(setup, pocket) + adds:
                break
        else:
            pytest.fail(f"{text!r} from the hint {hint!r} is legal in no setup: {outcomes}")

    # Every tag it shows, in the header of the setup.
    for tag in tags:
        assert_legal(tag + "\n" + case.setups[0], pocket, plies_in(case.setups[0], pocket))


@pytest.mark.parametrize("case", list(NO_EXAMPLE.values()), ids=list(NO_EXAMPLE))
def test_hints_without_a_way_to_write_the_move_quote_no_ply(case: Case) -> None:
    hint = hint_of(case, case.setups[0])
    assert case.hint_has in hint, hint
    assert "write '" not in hint
    assert quoted_plies(hint, case.pocket_file) == [], hint


def test_a_castling_hint_never_shows_castling() -> None:
    """The old hint showed 'K e1-g1; R h1-f1', which the judge then calls castling."""
    hint = hint_of(NO_EXAMPLE["castling"], STANDARD_AFTER_1_E4_E5)
    assert "K e1-g1" not in hint and "R h1-f1" not in hint


def test_promotion_on_arrival_is_never_suggested() -> None:
    """The old '=Q' hint showed 'P e7-e8; Q-e8': the judge's `promotion-on-arrival`."""
    for case in (CASES["=Q on arrival"], CASES["SAN promotion"]):
        hint = hint_of(case, case.setups[0])
        assert "Q-e8" not in hint and "; Q" not in hint
        verdict = judged(case.setups[0] + "P e7-e8; Q-e8\n", "i")
        assert verdict.first_illegal is not None
        assert verdict.first_illegal.category == "promotion-on-arrival"


def test_a_long_ply_gets_a_hint_but_no_rewrite() -> None:
    """A ply line may be megabytes long; a hint stays one line."""
    long_ply = "; ".join(["P e2-e4"] * 40 + ["P e7-e8=Q"])
    verdict = judged(long_ply + "\n", "i")
    assert verdict.error is not None and "\nhint: " in verdict.error
    hint = verdict.error.split("\nhint: ", 1)[1]
    assert "no '=Q' promotion suffix" in hint and "write '" not in hint
    assert len(hint) < 300
