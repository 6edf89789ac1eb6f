"""parse_log on what players type: sub-move forms, samples, headers, comments, encodings."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import FIXTURES, read_log

from gcadj.notation import records
from gcadj.notation.parse import (
    clear_memo,
    normalise_text,
    parse_by_lines,
    parse_log,
    parse_with_lark,
)
from gcadj.notation.records import (
    CaptureSub,
    ClearSub,
    GameLog,
    MoveRecord,
    MoveSub,
    PlaceSub,
    RemoveSpaceSub,
    SubMove,
)
from gcadj.sources.decode import decode_text

EXAMPLES = FIXTURES / "examples"
PARSE = FIXTURES / "parse"


def subs(text: str, pocket_file: str = "i") -> tuple[SubMove, ...]:
    """The sub-moves of a one-ply log."""
    (record,) = parse_log(text, pocket_file=pocket_file).records
    return record.submoves


def both_paths(text: str, pocket_file: str = "i") -> GameLog:
    """Parse with the line path and the Lark reference; they must agree."""
    normal = normalise_text(text)
    fast = parse_by_lines(normal, "<string>", pocket_file)
    assert fast == parse_with_lark(normal, "<string>", pocket_file)
    return fast


# ---------------------------------------------------------------- sub-moves


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("P e2-e4", MoveSub(label="P", origin="e2", target="e4")),
        ("n b8-c6", MoveSub(label="n", origin="b8", target="c6")),
        ("e2-e4", MoveSub(label=None, origin="e2", target="e4")),
        ("I i1-c4", MoveSub(label="I", origin="i1", target="c4")),
        ("i1-c4", MoveSub(label=None, origin="i1", target="c4")),
        ("i i8-d4", MoveSub(label="i", origin="i8", target="d4")),
        ("I-i1", PlaceSub(label="I", target="i1", operator="-")),
        ("m-i8", PlaceSub(label="m", target="i8", operator="-")),
        ("I*c4", PlaceSub(label="I", target="c4", operator="*")),
        ("@-d5", ClearSub(square="d5", form="@")),
        ("d5-", ClearSub(square="d5", form="-")),
        ("capture d5", CaptureSub(squares=("d5",))),
        ("capture d5 e5  f5", CaptureSub(squares=("d5", "e5", "f5"))),
        ("-d4", RemoveSpaceSub(target="d4")),
        ("Z a1-h8", MoveSub(label="Z", origin="a1", target="h8")),
    ],
)
def test_each_submove_form(text: str, expected: SubMove) -> None:
    assert subs(text) == (expected,)
    assert both_paths(text).records[0].submoves == (expected,)


def test_parser_knows_no_rules() -> None:
    assert subs("P e2-e5") == (MoveSub("P", "e2", "e5"),)
    assert subs("K a1-h8; a1-") == (MoveSub("K", "a1", "h8"), ClearSub("a1", "-"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("R a1-i1;I-i1", (MoveSub("R", "a1", "i1"), PlaceSub("I", "i1", "-"))),
        ("P d4-d5;  c6-", (MoveSub("P", "d4", "d5"), ClearSub("c6", "-"))),
        ("p e7-e5 ;", (MoveSub("p", "e7", "e5"),)),
        ("P c5-d6; ; ;@-d5;;", (MoveSub("P", "c5", "d6"), ClearSub("d5", "@"))),
        ("; P e2-e4", (MoveSub("P", "e2", "e4"),)),
        ("P d2-d4 ; capture e5", (MoveSub("P", "d2", "d4"), CaptureSub(("e5",)))),
        ("P\te2 - e4", (MoveSub("P", "e2", "e4"),)),
        ("P\u00a0e2-e4", (MoveSub("P", "e2", "e4"),)),
    ],
)
def test_joined_submoves_and_irregular_spacing(text: str, expected: tuple[SubMove, ...]) -> None:
    assert subs(text) == expected


def test_a_line_of_only_semicolons_is_a_ply_without_submoves() -> None:
    log = both_paths("P e2-e4\n ; ;\np e7-e5\n")
    assert [r.submoves for r in log.records][1] == ()
    assert log.records[1].text == "; ;"
    assert log.records[2].ply == 2  # the empty ply keeps the sides of the later plies


# ---------------------------------------------------------------- the samples


def test_ex1_unnumbered_with_comments() -> None:
    log = read_log(EXAMPLES / "ex1_pocket_mutation_drops.txt")
    assert len(log.records) == 12
    assert log.tags == ()
    fifth = log.records[4]
    assert fifth == MoveRecord(
        ply=4,
        submoves=(MoveSub("R", "h1", "i1"), PlaceSub("I", "i1", "-")),
        text="R h1-i1; I-i1",
        comment="pocket the h1 Rook and mutate it to a Nightrider (class 3)",
        line=5,
        column=1,
        number=None,
    )
    assert log.records[9].submoves == (MoveSub("q", "d8", "i8"), PlaceSub("m", "i8", "-"))
    assert log.records[11] == MoveRecord(
        11, (MoveSub("m", "i8", "d4"),), "m i8-d4", None, 12, 1, None
    )
    assert [r.ply for r in log.records] == list(range(12))
    assert [r.line for r in log.records] == list(range(1, 13))


def test_ex2_numbered_plies_keep_their_prefix_and_columns() -> None:
    log = read_log(EXAMPLES / "ex2_en_passant_numbered.txt")
    assert [r.number for r in log.records[:4]] == ["1.", "1...", "2.", "2..."]
    assert [r.column for r in log.records[:2]] == [4, 6]
    assert log.records[4] == MoveRecord(
        ply=4,
        submoves=(MoveSub("P", "c5", "d6"), ClearSub("d5", "-")),
        text="P c5-d6; d5-",
        comment="en passant: the captured pawn on d5 is removed by hand",
        line=5,
        column=4,
        number="3.",
    )
    assert log.records[9].submoves == (MoveSub("p", "h4", "g3"), ClearSub("g4", "@"))
    assert log.records[9].white is False
    assert log.records[11].comment == "the open h-file wins the Rook"


def test_ex3_pocketing_and_promotion() -> None:
    log = read_log(EXAMPLES / "ex3_promotion_via_pocket.txt")
    assert len(log.records) == 12
    assert log.records[8].submoves == (MoveSub("P", "g8", "i1"), PlaceSub("B", "i1", "-"))
    assert log.records[8].comment is not None
    assert log.records[8].comment.startswith("pocketing from rank 8 promotes")
    assert log.records[10].text == "B i1-b5"


def test_ex4_tag_header() -> None:
    log = read_log(EXAMPLES / "ex4_resignation.txt")
    assert log.tags == (
        ("White", "Alice Example"),
        ("Black", "Bob Example"),
        ("Status", "Bob Example has resigned."),
    )
    assert log.tag("status") == "Bob Example has resigned."
    assert log.tag("Result") is None
    assert len(log.records) == 7
    assert (log.records[0].line, log.records[0].ply) == (4, 0)
    assert log.records[3].comment == "a blunder"
    assert log.source.endswith("ex4_resignation.txt")


def test_ex5_syntax_variants() -> None:
    log = read_log(EXAMPLES / "ex5_syntax_variants.txt")
    expected = [
        ((MoveSub(None, "e2", "e4"),), "e2-e4", None),
        ((MoveSub("p", "e7", "e5"),), "p e7-e5 ;", None),
        (
            (MoveSub("N", "g1", "f3"),),
            "N g1-f3",
            "label present; the rest of the line is a comment",
        ),
        ((MoveSub("n", "b8", "c6"),), "n b8-c6", None),
        ((MoveSub("R", "a1", "i1"), PlaceSub("I", "i1", "-")), "R a1-i1;I-i1", None),
        ((MoveSub("p", "d7", "d6"),), "p d7-d6", None),
        ((PlaceSub("I", "d5", "*"),), "I*d5", None),
        ((ClearSub("d5", "@"),), "@-d5", None),
        ((MoveSub("P", "d2", "d4"), CaptureSub(("e5",))), "P d2-d4 ; capture e5", None),
        ((MoveSub("p", "d6", "d5"),), "p d6-d5", None),
        ((MoveSub("P", "d4", "d5"), ClearSub("c6", "-")), "P d4-d5;  c6-", None),
    ]
    got = [(r.submoves, r.text, r.comment) for r in log.records]
    assert got[:6] + got[7:] == expected[:6] + expected[7:]
    assert got[6][:2] == expected[6][:2]
    assert got[6][2] is not None and got[6][2].startswith("asterisk drop")
    assert [(r.ply, r.line, r.column, r.number) for r in log.records] == [
        (i, i + 1, 1, None) for i in range(11)
    ]


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("ex*.txt")), ids=lambda p: p.name)
def test_samples_agree_on_both_paths(path: Path) -> None:
    text = decode_text(path.read_bytes())
    assert both_paths(text) == dataclasses.replace(read_log(path), source="<string>")


# ---------------------------------------------------------------- header, comments, numbering


def test_header_escapes_notes_and_numbering() -> None:
    log = read_log(PARSE / "header_and_notes.txt")
    assert log.tags == (
        ("White", 'Alice "the Rook" Example'),
        ("Black", "Bob\\Example"),
        ("Site", "https://www.chessvariants.com/play/pbm/play.php?game=Pocket+Mutation+Chess"),
        ("FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1"),
        ("Status", "Bob Example has resigned."),
    )
    assert log.leading_comment == "Pocket Mutation Chess, a friendly game"
    first, second, third, fourth = log.records
    assert (first.comment, first.line, first.column) == (
        "the classic\nAlice thought for a day",
        9,
        4,
    )
    assert (second.number, second.comment, second.line, second.column) == ("1...", None, 11, 6)
    assert third.comment == "pocket and mutate"
    assert fourth == MoveRecord(
        ply=3,
        submoves=(MoveSub("q", "d8", "i8"), PlaceSub("m", "i8", "-")),
        text="q d8-i8;m-i8;",
        comment="end of the first session\n",
        line=14,
        column=7,
        number="2...",
    )


def test_tag_lookup_is_case_insensitive_and_first_wins() -> None:
    log = parse_log('[White "A"]\n[white "B"]\n[Event "x"]\n')
    assert log.tag("WHITE") == "A"
    assert log.tags == (("White", "A"), ("white", "B"), ("Event", "x"))
    assert log.records == ()


def test_tag_value_escapes() -> None:
    log = parse_log(r'[Note "a \"b\" c\\d \n e\ f"]' + "\n")
    assert log.tags == (("Note", 'a "b" c\\d \\n e\\ f'),)
    assert parse_log('[E ""]').tags == (("E", ""),)
    assert parse_log('  [ Round   "3" ]  ').tags == (("Round", "3"),)


def test_comment_lines_before_any_ply_are_leading() -> None:
    log = both_paths('// one\n[White "A"]\n  //two  \n\nP e2-e4\n')
    assert log.leading_comment == "one\ntwo"
    assert log.records[0].comment is None


def test_comment_only_lines_join_the_previous_ply() -> None:
    log = both_paths("P e2-e4\n// a\n\n// b\np e7-e5 //c\n//d\n")
    assert [r.comment for r in log.records] == ["a\nb", "c\nd"]
    assert parse_log("P e2-e4 //").records[0].comment == ""
    assert parse_log("P e2-e4 // x // y").records[0].comment == "x // y"


def test_side_comes_from_the_index_not_the_number() -> None:
    log = both_paths("1... p e7-e5\n7. P e2-e4\n3.P d2-d4\n12... n b8-c6\n")
    assert [(r.ply, r.white, r.number) for r in log.records] == [
        (0, True, "1..."),
        (1, False, "7."),
        (2, True, "3."),
        (3, False, "12..."),
    ]
    assert log.records[2].column == 3


def test_blank_lines_and_an_empty_log() -> None:
    assert parse_log("") == GameLog(tags=(), records=())
    assert parse_log("\n \n\t\n") == GameLog(tags=(), records=())
    log = parse_log("\n\nP e2-e4\n\n\np e7-e5")
    assert [(r.ply, r.line) for r in log.records] == [(0, 3), (1, 6)]


def test_source_and_pocket_file_are_kept() -> None:
    log = parse_log("R h1-p1; I-p1", source="web", pocket_file="p")
    assert (log.source, log.pocket_file) == ("web", "p")


# ---------------------------------------------------------------- pocket file setting


def test_pocket_file_p() -> None:
    log = read_log(PARSE / "pocket_p.txt", pocket_file="p")
    assert log.records[0].submoves == (MoveSub("R", "h1", "p1"), PlaceSub("I", "p1", "-"))
    assert log.records[3].submoves == (MoveSub("m", "p8", "d4"),)
    assert subs("p p1-d4", pocket_file="p") == (MoveSub("p", "p1", "d4"),)
    assert subs("p-p8", pocket_file="p") == (PlaceSub("p", "p8", "-"),)
    assert subs("pp8-d4", pocket_file="p") == (MoveSub("p", "p8", "d4"),)


@pytest.mark.parametrize("bad", ["", "ij", "a", "h", "I", "1", "é"])
def test_pocket_file_must_be_a_letter_past_h(bad: str) -> None:
    with pytest.raises(ValueError, match="pocket_file"):
        parse_log("P e2-e4", pocket_file=bad)


# ---------------------------------------------------------------- text as users have it


def test_bom_crlf_tabs_trailing_spaces() -> None:
    log = read_log(PARSE / "bom_crlf_tabs.txt")
    assert log.tags == (("White", "Zoë"),)
    assert [(r.text, r.line, r.column, r.comment) for r in log.records] == [
        ("P e2-e4", 2, 2, None),
        ("p\te7-e5", 3, 1, "naïve"),
        ("N g1-f3", 5, 1, None),
    ]


def test_latin1_fallback() -> None:
    log = read_log(PARSE / "latin1.txt")
    assert log.tag("Black") == "André"
    assert log.records[0].comment == "1° coup"


def test_utf16_with_bom() -> None:
    log = read_log(PARSE / "utf16.txt")
    assert [r.text for r in log.records] == ["P e2-e4", "p e7-e5"]
    assert log.records[1].comment == "é"


def _cp1252_or_latin1(byte: int) -> str:
    return chr(byte) if byte in (0x81, 0x8D, 0x8F, 0x90, 0x9D) else bytes([byte]).decode("cp1252")


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (b"P e2-e4", "P e2-e4"),
        ("\ufeffP e2-e4 // é".encode(), "P e2-e4 // é"),
        ("P e2-e4 // é".encode(), "P e2-e4 // é"),
        ("P e2-e4 // é".encode("latin-1"), "P e2-e4 // é"),
        (b"\xff\xfe\x00", "ÿþ\x00"),  # a broken UTF-16 BOM falls back to Windows-1252
        # Windows-1252 (issue 11), its five undefined bytes read as Latin-1
        (bytes(range(256)), "".join(_cp1252_or_latin1(b) for b in range(256))),
    ],
)
def test_decode_text(data: bytes, text: str) -> None:
    assert decode_text(data) == text


def test_bom_in_a_str_and_every_line_end() -> None:
    expected = [(0, 1), (1, 2), (2, 4)]
    for newline in ("\n", "\r\n", "\r"):
        text = "\ufeffP e2-e4" + newline + "p e7-e5" + newline * 2 + "N g1-f3" + newline
        log = both_paths(text)
        assert [(r.ply, r.line) for r in log.records] == expected
        assert log.records[0].column == 1


# ---------------------------------------------------------------- the records themselves


def test_repr_round_trips_through_eval() -> None:
    log = read_log(PARSE / "header_and_notes.txt")
    namespace = {name: getattr(records, name) for name in records.__all__}
    assert eval(repr(log), namespace) == log
    for sub in [MoveSub(None, "e2", "e4"), CaptureSub(("d5", "e5")), RemoveSpaceSub("d4")]:
        assert eval(repr(sub), namespace) == sub
    assert repr(MoveSub("P", "e2", "e4")) == "MoveSub(label='P', origin='e2', target='e4')"


def test_records_are_frozen_slotted_and_plain_strings() -> None:
    log = read_log(EXAMPLES / "ex5_syntax_variants.txt")
    record = log.records[8]
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.text = "x"  # type: ignore[misc]
    assert not hasattr(record, "__dict__")
    strings = [record.text, *(s for sub in record.submoves for s in dataclasses.astuple(sub))]
    for value in strings:
        assert type(value) is str or type(value) is tuple  # never a lark Token
    assert type(parse_log("P e2-e4 ; capture e5").records[0].submoves[1]) is CaptureSub
    assert hash(log) == hash(read_log(EXAMPLES / "ex5_syntax_variants.txt"))


def test_lark_path_gives_plain_strings_too() -> None:
    log = parse_with_lark('[A "b"]\n1. P e2-e4; capture d5 // c\n', "s", "i")
    (record,) = log.records
    values = [log.tags[0][0], log.tags[0][1], record.text, record.number, record.comment]
    values += [record.submoves[0].label, record.submoves[1].squares[0]]  # type: ignore[union-attr]
    assert all(type(v) is str for v in values)


def test_memo_gives_the_same_records_cold_and_warm(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (EXAMPLES / "ex2_en_passant_numbered.txt").read_text()
    clear_memo()
    cold = parse_log(text)
    assert parse_log(text) == cold
    monkeypatch.setattr("gcadj.notation.parse.MEMO_LIMIT", 3)
    clear_memo()
    assert parse_log(text) == cold
