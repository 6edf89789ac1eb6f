"""The grammar (``grammars/gamecourier.lark``) is the one definition of a Game Courier ply;
every other statement of the sub-move syntax is held to it here, both ways where both
apply:

* `gcadj.notation.language.submove_patterns`, the expressions the parser's line path and
  the hints read sub-moves with: whatever one of them accepts, the grammar reads as one
  sub-move, and the line path makes the same record of it as Lark (the other way, text
  made from the grammar, is tests/notation/test_parse_props.py's);
* `gcadj.notation.hints.is_game_courier_ply`, what a hint may show as a rewrite: it accepts
  every ply body the grammar makes, and the grammar reads whatever it accepts as one ply
  of as many sub-moves;
* PGN detection (`gcadj.notation.pgn.movetext_kind`, its expression of a Game Courier line):
  every ply line and comment line the grammar makes is Game Courier, so a log is never
  read as PGN; and a line it calls Game Courier whose squares are on the board is one
  the grammar reads.

The page scraper's restatement (which lines could be a log's) is held to the grammar in
tests/sources/test_scrape_lines.py.
"""

from __future__ import annotations

import re
import string

from grammar_text import logs, ply_bodies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gcadj.errors import LogSyntaxError
from gcadj.notation.hints import is_game_courier_ply
from gcadj.notation.language import submove_patterns
from gcadj.notation.lexicon import LINE_SPACE, SourceFormat
from gcadj.notation.parse import normalise_text, parse_by_lines, parse_log, parse_with_lark
from gcadj.notation.tags import starts_like_tag
from gcadj.vocabulary import PocketFile

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
POCKET_FILES = st.sampled_from([PocketFile("i"), PocketFile("p")])
# What a line of a log may hold, line ends aside (the patterns' text is drawn from it).
LINE_CHARACTERS = "".join(c for c in string.printable if c not in "\r\n\x0b\x0c") + LINE_SPACE


@st.composite
def pattern_text(draw: st.DrawFn) -> tuple[PocketFile, int, str]:
    """A pocket file, the index of one of its sub-move patterns, and text it matches whole."""
    pocket_file = draw(POCKET_FILES)
    index = draw(st.integers(0, len(submove_patterns(pocket_file)) - 1))
    pattern = submove_patterns(pocket_file)[index]
    text = draw(st.from_regex(pattern, fullmatch=True, alphabet=LINE_CHARACTERS))
    return pocket_file, index, text


@SETTINGS
@given(pattern_text())
def test_what_a_submove_pattern_accepts_the_grammar_reads_alike(
    drawn: tuple[PocketFile, int, str],
) -> None:
    pocket_file, _, text = drawn
    line = text + "\n"
    expected = parse_with_lark(line, "<string>", pocket_file)  # no LogSyntaxError: it reads
    assert len(expected.records) == 1 and len(expected.records[0].submoves) == 1
    assert parse_by_lines(line, "<string>", pocket_file) == expected


def test_each_pattern_reads_one_form_of_sub_move() -> None:
    """The patterns come in the grammar's order (move, place, clear_at, clear_origin,
    capture, remove_space), one form each: a typical sub-move of each form is matched by
    its own pattern only."""
    examples = ["P e2-e4", "Q*d5", "@-d5", "d5-", "capture d5 e5", "-d4"]
    for index, example in enumerate(examples):
        patterns = submove_patterns(PocketFile("i"))
        assert [i for i, p in enumerate(patterns) if p.fullmatch(example)] == [index], example


@SETTINGS
@given(body=ply_bodies("i"))
def test_the_hints_know_every_ply_the_grammar_makes(body: str) -> None:
    parts = [part for part in body.split(";") if part.strip(LINE_SPACE)]
    assert is_game_courier_ply(body, PocketFile("i")) == bool(parts)


NOISE = [*"PpNnQqIi-*@;: \t\u00a0=x+#.12345678abcdefghijpz", "capture", "e4", "i1", "p8", "O-O"]


@SETTINGS
@given(
    text=st.one_of(
        st.lists(st.sampled_from(NOISE), max_size=14).map("".join),
        ply_bodies("i"),
    ),
    pocket_file=POCKET_FILES,
)
def test_what_the_hints_call_a_ply_the_grammar_reads(text: str, pocket_file: PocketFile) -> None:
    if not is_game_courier_ply(text, pocket_file):
        return
    log = parse_log(text, pocket_file=pocket_file)  # no LogSyntaxError
    parts = [part for part in text.split(";") if part.strip(LINE_SPACE)]
    assert len(log.records) == 1 and len(log.records[0].submoves) == len(parts)


def _is_game_courier(line: str) -> bool:
    return parse_kind(line) is SourceFormat.GAME_COURIER


def parse_kind(line: str) -> SourceFormat | None:
    from gcadj.notation.pgn import movetext_kind

    return movetext_kind(line + "\n")


# A ply that starts with ';' (";", "7. ;; P e2-e4") is no evidence either way: PGN's
# rest-of-line comment starts with ';' too, so detection leaves such a line to the others.
_SEMICOLON_FIRST = re.compile(rf"[{LINE_SPACE}]*(?:[0-9]+\.(?:\.\.)?)?[{LINE_SPACE}]*;")


@SETTINGS
@given(text=logs("i") | logs("p"))
def test_every_line_of_a_log_is_game_courier_to_pgn_detection(text: str) -> None:
    for line in normalise_text(text).split("\n"):
        if not line.strip() or starts_like_tag(line):
            continue
        if not _SEMICOLON_FIRST.match(line):
            assert _is_game_courier(line), line


# A square written as Game Courier writes one (a letter, a digit 1-8): the pattern PGN
# detection looks for, whatever the board.
_SQUARE_LIKE = re.compile(r"(?<![A-Za-z])[a-z][1-8]")


@SETTINGS
@given(
    text=st.lists(st.sampled_from([*NOISE, "1.", "7...", " // a note"]), max_size=14).map("".join),
    pocket_file=POCKET_FILES,
)
def test_a_line_pgn_detection_calls_game_courier_the_grammar_reads(
    text: str, pocket_file: PocketFile
) -> None:
    """When its squares are squares of the board (and of the one pocket file), a line that
    detection calls Game Courier text is a log's line; with other squares it is still no
    PGN, so the reader of logs says what is wrong with it."""
    line = text.strip()
    if not line or "[" in line or not _is_game_courier(line):
        return
    body = line.split("//", 1)[0]
    squares = _SQUARE_LIKE.findall(body)
    if not all(sq[0] in "abcdefgh" or (sq[0] == pocket_file and sq[1] in "18") for sq in squares):
        return
    try:
        parse_log(line, pocket_file=pocket_file)
    except LogSyntaxError as error:
        raise AssertionError(f"{line!r} is Game Courier to PGN detection: {error}") from None
