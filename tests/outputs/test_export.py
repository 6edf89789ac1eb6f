"""Converters on the sample logs, compared exactly with reviewed golden files.

Regenerate the goldens after an intended change, then read the diff before committing:

    GCADJ_REGEN=1 pytest tests/outputs/test_export.py

That also re-renders the manual's picture (docs/ex5.png, on docs/convert.md) from the ex5
diagram.
"""

from __future__ import annotations

import json
import os
import struct
import zlib
from pathlib import Path
from xml.etree import ElementTree

import pytest
from conftest import FIXTURES, ROOT, invoke_gcadj

from gcadj.app.check import check_text
from gcadj.errors import ExportError
from gcadj.judging.verdict import Verdict
from gcadj.notation.records import MoveSub, PlaceSub
from gcadj.outputs.game_export import export_game
from gcadj.outputs.svg_diagram import diagram_size
from gcadj.outputs.writers.pgn import write_pgn
from gcadj.outputs.writers.svg import write_svg

EXAMPLES = sorted((FIXTURES / "examples").glob("*.txt"))
GOLDEN = FIXTURES / "golden"
SUFFIX = {"pgn": ".pgn", "gc": ".gc.txt", "fen": ".fen", "json": ".json", "svg": ".svg"}
FORMATS = tuple(SUFFIX)  # every format with golden files (the viewer has its own tests)
REGEN = os.environ.get("GCADJ_REGEN") == "1"
PICTURE = ROOT / "docs" / "ex5.png"


def example_verdict(path: Path) -> Verdict:
    return check_text(path.read_text(encoding="utf-8"), f"fixtures/examples/{path.name}")


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_golden(path: Path, fmt: str) -> None:
    out = export_game(example_verdict(path), fmt)
    golden = GOLDEN / f"{path.stem}{SUFFIX[fmt]}"
    if REGEN:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(out, encoding="utf-8", newline="\n")
    assert out == golden.read_text(encoding="utf-8")


def test_every_example_has_its_goldens() -> None:
    assert len(EXAMPLES) == 5
    for path in EXAMPLES:
        for suffix in SUFFIX.values():
            assert (GOLDEN / f"{path.stem}{suffix}").is_file()


# -- facts the goldens were reviewed for (so a regenerated golden cannot quietly lose them)


def golden(stem: str, fmt: str) -> str:
    return (GOLDEN / f"{stem}{SUFFIX[fmt]}").read_text(encoding="utf-8")


def test_pgn_goldens_show_the_variant_notation() -> None:
    ex1 = golden("ex1_pocket_mutation_drops", "pgn")
    assert '[Variant "Pocket Mutation Chess"]' in ex1
    assert "3. Rh1@=I {pocket the h1 Rook" in ex1
    assert "4. I@c4 {drop the Nightrider" in ex1
    assert "5. d3 Qd8@=M {Black pockets the Queen" in " ".join(ex1.split())
    assert "6. Be3 M@d4 *" in ex1
    ex2 = " ".join(golden("ex2_en_passant_numbered", "pgn").split())
    assert "3. cxd6 {en passant" in ex2 and "5. g4 hxg3 {Black takes en passant" in ex2
    ex3 = " ".join(golden("ex3_promotion_via_pocket", "pgn").split())
    assert "2. Pa2@" in ex3 and "4. hxg8" in ex3 and "5. Pg8@=B" in ex3 and "6. B@b5" in ex3
    ex4 = golden("ex4_resignation", "pgn")
    assert '[Result "1-0"]' in ex4 and '[Termination "resignation"]' in ex4
    assert '[Status "Bob Example has resigned."]' in ex4 and ex4.endswith("4. d3 1-0\n")


def test_pgn_golden_of_the_illegal_game_ends_with_the_finding() -> None:
    ex5 = golden("ex5_syntax_variants", "pgn")
    assert '[Result "*"]' in ex5 and '[Termination "rules infraction"]' in ex5
    flat = " ".join(ex5.split())
    assert "{gcadj: illegal ply 7 (4. I*d5) [drop-not-in-pocket]: 'I*d5' puts a new" in flat
    assert "4. {gc: I*d5}" in flat and "6. {gc: P d4-d5;  c6-} *" in ex5


def test_pgn_goldens_wrap_at_80_columns() -> None:
    for path in EXAMPLES:
        for line in golden(path.stem, "pgn").splitlines():
            assert len(line) <= 80 or line.startswith("["), line


def test_gc_goldens_are_canonical_game_courier() -> None:
    ex2 = golden("ex2_en_passant_numbered", "gc").splitlines()
    assert ex2[4] == "3. P c5-d6; d5- // en passant: the captured pawn on d5 is removed by hand"
    assert ex2[9].startswith("5... p h4-g3; g4- //")
    ex1 = golden("ex1_pocket_mutation_drops", "gc").splitlines()
    assert ex1[4].startswith("3. R h1-i1; I-i1 // ") and ex1[9].startswith("5... q d8-i8; m-i8")
    ex5 = golden("ex5_syntax_variants", "gc").splitlines()
    assert ex5[0] == "1. P e2-e4"  # the label the log omitted is written
    assert ex5[6].startswith("4. I*d5 // asterisk drop")  # the illegal ply as typed
    assert ex5[7].startswith("// gcadj: illegal ply 7")


def test_fen_goldens_have_the_start_and_one_line_per_legal_ply() -> None:
    assert len(golden("ex1_pocket_mutation_drops", "fen").splitlines()) == 13
    assert len(golden("ex5_syntax_variants", "fen").splitlines()) == 7  # 6 legal plies
    ex3 = golden("ex3_promotion_via_pocket", "fen").splitlines()
    assert ex3[9] == "rnbqkb1r/1pppppp1/8/p7/4P2p/8/1PPP1PPP/RNBQKBNR[B] b - - 0 5"  # promoted


def test_json_golden_is_the_whole_game() -> None:
    doc = json.loads(golden("ex5_syntax_variants", "json"))
    assert [p["status"] for p in doc["plies"]] == ["legal"] * 6 + ["illegal"] + ["unjudged"] * 4
    assert doc["plies"][4]["gc"] == "R a1-i1; I-i1" and doc["plies"][4]["san"] == "Ra1@=I"
    assert doc["plies"][6]["finding"]["category"] == "drop-not-in-pocket"
    assert doc["verdict"]["status"] == "illegal" and doc["verdict"]["legal_plies"] == 6
    ex4 = json.loads(golden("ex4_resignation", "json"))
    assert ex4["tags"]["White"] == "Alice Example" and ex4["verdict"]["result"] == "1-0"
    assert ex4["plies"][3]["comment"] == "a blunder"


# -- SVG -------------------------------------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_svg_is_self_contained_xml(path: Path) -> None:
    text = golden(path.stem, "svg")
    root = ElementTree.fromstring(text)
    assert root.tag == f"{SVG}svg"
    assert (int(root.attrib["width"]), int(root.attrib["height"])) == diagram_size(48)
    assert "href" not in text and "url(" not in text and "<script" not in text
    verdict = example_verdict(path)
    fen = verdict.final_fen or ""
    pieces = sum(ch.isalpha() for ch in fen.split(" ")[0])  # board and pockets
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("font-weight") == "bold"]
    assert len(labels) == pieces
    assert sorted(labels) == sorted(ch.upper() for ch in fen.split(" ")[0] if ch.isalpha())


def test_svg_marks_the_illegal_move_and_the_last_move() -> None:
    root = ElementTree.fromstring(golden("ex5_syntax_variants", "svg"))
    red = [e for e in root.iter() if "#d01c1c" in (e.get("stroke", "") + e.get("fill", ""))]
    assert [e.tag for e in red] == [f"{SVG}rect"]  # I*d5 has no origin: an outline, no arrow
    yellow = [e for e in root.iter(f"{SVG}rect") if e.get("fill") == "#f2e14c"]
    assert len(yellow) == 2  # d7 and d6
    root = ElementTree.fromstring(golden("ex1_pocket_mutation_drops", "svg"))
    assert not [e for e in root.iter() if "#d01c1c" in e.get("stroke", "")]


def test_svg_arrow_for_an_illegal_move_with_an_origin() -> None:
    verdict = check_text("P e2-e4\np e7-e5\nR h1-i1; I-i1\nI i1-d8\n", "g")
    root = ElementTree.fromstring(write_svg(verdict))
    tags = [e.tag for e in root.iter() if "#d01c1c" in (e.get("stroke", "") + e.get("fill", ""))]
    assert sorted(tags) == sorted([f"{SVG}rect", f"{SVG}rect", f"{SVG}line", f"{SVG}polygon"])


def test_svg_ply_selects_the_position() -> None:
    verdict = example_verdict(FIXTURES / "examples" / "ex1_pocket_mutation_drops.txt")
    start = ElementTree.fromstring(write_svg(verdict, 0))
    assert sum(1 for t in start.iter(f"{SVG}text") if t.get("font-weight") == "bold") == 32
    with pytest.raises(ExportError, match="ply 13 is out of range: the game has 12 legal plies"):
        write_svg(verdict, 13)


def _png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and RGBA rows of an 8-bit RGBA PNG (what resvg writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color = struct.unpack(">IIBB", header[:10])
    assert (depth, color) == (8, 6)
    raw, stride, rows, prev = zlib.decompress(idat), width * 4, [], bytearray(width * 4)
    for y in range(height):
        line = raw[y * (stride + 1) : (y + 1) * (stride + 1)]
        kind, row = line[0], bytearray(line[1:])
        for i in range(stride):
            a = row[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if kind == 1:
                row[i] = (row[i] + a) & 255
            elif kind == 2:
                row[i] = (row[i] + b) & 255
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(row))
        prev = row
    return width, height, rows


def test_svg_renders_to_a_png_with_the_board_pieces_and_marks() -> None:
    resvg_py = pytest.importorskip("resvg_py")
    svg = golden("ex5_syntax_variants", "svg")
    png = bytes(resvg_py.svg_to_bytes(svg_string=svg))
    width, height, rows = _png_pixels(png)
    assert (width, height) == diagram_size(48)
    colours: dict[tuple[int, int, int], int] = {}
    for row in rows:
        for x in range(0, len(row), 4):
            key = (row[x], row[x + 1], row[x + 2])
            colours[key] = colours.get(key, 0) + 1

    def share(rgb: tuple[int, int, int]) -> float:
        near = sum(n for c, n in colours.items() if max(abs(c[i] - rgb[i]) for i in range(3)) < 8)
        return near / (width * height)

    assert share((0xF0, 0xD9, 0xB5)) > 0.08  # light squares
    assert share((0xB5, 0x88, 0x63)) > 0.08  # dark squares
    assert share((0x1B, 0x1B, 0x1B)) > 0.03  # Black discs, outlines, letters
    assert share((0xFB, 0xFB, 0xF6)) > 0.03  # White discs
    assert share((0xD0, 0x1C, 0x1C)) > 0.002  # the red outline of the illegal drop
    assert len(colours) > 50  # anti-aliased letters and edges, not flat blocks
    if REGEN:
        PICTURE.parent.mkdir(exist_ok=True)
        PICTURE.write_bytes(png)


def test_the_manuals_picture_is_a_rendered_diagram() -> None:
    width, height, _ = _png_pixels(PICTURE.read_bytes())
    assert (width, height) == diagram_size(48)
    assert "](ex5.png)" in (ROOT / "docs" / "convert.md").read_text(encoding="utf-8")


# -- the command -----------------------------------------------------------------------


EX1 = "fixtures/examples/ex1_pocket_mutation_drops.txt"
EX5 = "fixtures/examples/ex5_syntax_variants.txt"


def test_cli_writes_the_golden_to_stdout() -> None:
    done = invoke_gcadj("export", EX1, "--to", "pgn")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == golden("ex1_pocket_mutation_drops", "pgn")


def test_cli_notes_an_illegal_game_on_stderr() -> None:
    done = invoke_gcadj("export", EX5, "--to", "fen")
    assert done.returncode == 0
    assert done.stdout == golden("ex5_syntax_variants", "fen")
    assert "ply 7 ('I*d5') is illegal [drop-not-in-pocket]" in done.stderr


def test_cli_output_file_is_never_overwritten_without_force(tmp_path: Path) -> None:
    target = tmp_path / "game.pgn"
    assert invoke_gcadj("export", EX1, "--to", "pgn", "-o", str(target)).returncode == 0
    assert target.read_text(encoding="utf-8") == golden("ex1_pocket_mutation_drops", "pgn")
    target.write_text("precious", encoding="utf-8")
    done = invoke_gcadj("export", EX1, "--to", "pgn", "-o", str(target))
    assert done.returncode == 2 and "exists; use --force" in done.stderr
    assert target.read_text(encoding="utf-8") == "precious"
    done = invoke_gcadj("export", EX1, "--to", "fen", "-o", str(target), "--force")
    assert done.returncode == 0
    assert target.read_text(encoding="utf-8") == golden("ex1_pocket_mutation_drops", "fen")
    assert [p.name for p in tmp_path.iterdir()] == ["game.pgn"]  # no temporary file left


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("export", EX1, "--to", "fen", "--ply", "13"), 2, "ply 13 is out of range"),
        (("export", EX1, "--to", "pgn", "--ply", "1"), 2, "--ply applies to fen and svg"),
        (("export", EX1, "--to", "tiff"), 2, "tiff"),
        (("export", EX1, "--to", "pgn", "--pocket-file", "pp"), 2, "one letter from i to z"),
        (("export", "fixtures/none.txt", "--to", "pgn"), 4, "no such file"),
        (("export", "fixtures/examples/README.md", "--to", "pgn"), 3, "syntax error"),
        (("export", EX1, "--to", "pgn", "-o", "/nonexistent/dir/x.pgn"), 6, "cannot write"),
    ],
)
def test_cli_errors(args: tuple[str, ...], code: int, message: str) -> None:
    done = invoke_gcadj(*args)
    assert done.returncode == code
    assert message in done.stderr
    assert done.stdout == ""


def test_a_game_that_stops_being_readable_is_written_and_exits_as_check_does(
    tmp_path: Path,
) -> None:
    """The export keeps what could be read and says so; its exit code is check's for the
    same game (3: some game could not be parsed), as its help says."""
    cut = tmp_path / "cut.txt"
    cut.write_text("P e2-e4\np e7-e5\nP e4 e5\n", encoding="utf-8")
    checked = invoke_gcadj("check", str(cut))
    done = invoke_gcadj("export", str(cut), "--to", "pgn")
    assert done.returncode == checked.returncode == 3
    assert "1. e4 e5" in done.stdout and "ply 3 could not be read" in done.stderr
    help_text = " ".join(invoke_gcadj("export", "--help").stdout.split())
    assert "3 some game could not be parsed" in help_text


def test_fix_says_why_it_leaves_the_one_suggestion_check_offers(tmp_path: Path) -> None:
    """``N g1-f4``: check suggests ``N g1-f3``, another move (another square); --fix, which
    replaces only spellings, stops there and says so, naming that suggestion."""
    slip = tmp_path / "slip.txt"
    slip.write_text("P e2-e4\np e7-e5\nN g1-f4\n", encoding="utf-8")
    checked = json.loads(invoke_gcadj("check", "--json", str(slip)).stdout)
    (suggestion,) = checked["first_illegal"]["suggestions"]
    done = invoke_gcadj("export", "--to", "gc", "--fix", str(slip))
    assert done.returncode == 0
    said = done.stderr
    assert f"its one suggestion, {suggestion['text']!r} ({suggestion['why']})" in said
    assert "is another move" in said and "no single strong suggestion" not in said


def test_cli_fen_ply_and_svg_ply() -> None:
    done = invoke_gcadj("export", EX1, "--to", "fen", "--ply", "0")
    assert done.stdout == golden("ex1_pocket_mutation_drops", "fen").splitlines()[0] + "\n"
    done = invoke_gcadj("export", EX1, "--to", "svg", "--ply", "4")
    assert done.returncode == 0 and ElementTree.fromstring(done.stdout).tag == f"{SVG}svg"


def test_cli_reads_its_own_pgn_and_gc_output(tmp_path: Path) -> None:
    for fmt in ("pgn", "gc"):
        exported = tmp_path / f"ex5.{fmt}"
        exported.write_text(golden("ex5_syntax_variants", fmt), encoding="utf-8")
        done = invoke_gcadj("check", "--json", str(exported))
        assert done.returncode == 1
        verdict = json.loads(done.stdout)
        assert verdict["first_illegal"]["ply"] == 7
        assert verdict["first_illegal"]["category"] == "drop-not-in-pocket"
        again = invoke_gcadj("export", str(exported), "--to", fmt)
        assert again.stdout == golden("ex5_syntax_variants", fmt)


def test_cli_export_with_a_start_position(tmp_path: Path) -> None:
    log = tmp_path / "mate.txt"
    log.write_text("Q i1-a7\n", encoding="utf-8")
    done = invoke_gcadj("export", str(log), "--to", "pgn", "--fen", "k8/8-/1K6-/8-/8-/8-/8-/8Q")
    assert '[FEN "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1"]' in done.stdout
    assert "1. Q@a7# 1-0" in done.stdout
    done = invoke_gcadj(
        "export", str(log), "--to", "gc", "--fen", "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1"
    )
    assert done.stdout == '[FEN "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1"]\n1. Q i1-a7\n'


# -- the PGN-like reader: errors point into the PGN text -------------------------------

HEAD = '[Variant "Pocket Mutation Chess"]\n\n'


@pytest.mark.parametrize(
    ("movetext", "line", "column", "message"),
    [
        ("1. e4 Nf6 2. Nf5", 3, 14, "expected a legal move for White"),
        ("1. d4 a6 2. Nf3 a5 3. Nd2", 3, 23, "ambiguous: it could be Nbd2 or Nfd2"),
        ("1. e4 {unclosed", 3, 7, "never closed"),
        ("1. e4 (1. d4 e5", 3, 7, "this '(' is never closed"),
        ("1. {gc: @-e1} 1... e5", 3, 20, "a ply written as {gc: <Game Courier text>}"),
        ("1. {gc: P e2-e4 x}", 3, 17, "syntax error"),
        ("1. e4 Y@c4", 3, 7, "'Y' is not a piece letter"),
    ],
)
def test_pgn_syntax_errors_have_line_and_column(
    movetext: str, line: int, column: int, message: str
) -> None:
    verdict = check_text(HEAD + movetext, "game.pgn")
    # a syntax error after an illegal ply is a warning of the illegal game's
    said = verdict.error if verdict.status == "syntax-error" else "\n".join(verdict.warnings)
    assert said is not None and message in said
    assert f"game.pgn:{line}:{column}: syntax error" in said


def test_pgn_bad_tag_and_bad_fen_tag() -> None:
    verdict = check_text('[Event "x]\n1. e4\n', "g.pgn")
    assert verdict.error is not None and verdict.error.startswith("g.pgn:1:1: syntax error")
    verdict = check_text('[Variant "Pocket Mutation Chess"]\n[FEN "8/8 w"]\n\n1. e4\n', "g.pgn")
    error = verdict.error
    assert error is not None and error.startswith("g.pgn:2:7: syntax error")
    assert "expected a start position (gcadj FEN or Game Courier code)" in error
    assert "8 ranks" in error


def test_pgn_reader_records_point_into_the_pgn() -> None:
    log = check_text(HEAD + "1. e4 {hi} e5\n2. Rh1@=I {gc: P d2-d4}\n", "g.pgn").log
    assert log is not None
    assert [(r.text, r.line, r.column, r.number) for r in log.records] == [
        ("e4", 3, 4, "1."),
        ("e5", 3, 12, None),
        ("Rh1@=I", 4, 4, "2."),
        ("P d2-d4", 4, 16, None),
    ]
    assert log.records[0].comment == "hi"
    assert log.records[2].submoves == (MoveSub("R", "h1", "i1"), PlaceSub("I", "i1", "-"))
    assert log.records[3].submoves == (MoveSub("P", "d2", "d4"),)  # as typed, judged later


def test_pgn_comments_that_look_like_markers_or_hold_braces_survive() -> None:
    text = "P e2-e4 // gc: not a ply\np e7-e5 // a } brace\nN g1-f3 // gcadj: gcadj's own note\n"
    verdict = check_text(text, "g")
    pgn = write_pgn(verdict)
    assert "; gc: not a ply\n" in pgn and "; a } brace\n" in pgn
    log = check_text(pgn, "g.pgn").log
    assert log is not None
    assert [r.comment for r in log.records] == ["gc: not a ply", "a } brace", None]
