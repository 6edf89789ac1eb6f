"""Which squares a picture marks for an illegal ply: one rule for export and audit report."""

from __future__ import annotations

from xml.etree import ElementTree

import pytest

from gcadj.app.check import check_text
from gcadj.engine.squares import parse_square
from gcadj.notation.parse import parse_log
from gcadj.outputs.svg import CHECK, MATE, board_kit, marked_cells
from gcadj.outputs.writers.svg import write_svg


@pytest.mark.parametrize(
    ("ply", "cells"),
    [
        ("P c5-d6; c6-", ("c5", "d6")),  # the move, not the removal
        ("I*d5", (None, "d5")),
        ("@-d5", (None, "d5")),
        ("capture e5 d4", (None, "e5")),
        ("P e2-e4; -h5", ("e2", "e4")),
        ("-h5", (None, "h5")),  # a removed space is marked too (the copies disagreed here)
        (";", None),
    ],
)
def test_marked_cells(ply: str, cells: tuple[str | None, str] | None) -> None:
    record = parse_log(ply + "\n").records[0]
    assert marked_cells(record) == cells


# -- check, mate and arrows in the diagrams ----------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"
FOOLS_MATE = "P f2-f3\np e7-e5\nP g2-g4\nq d8-h4\n"


def _elements(svg: str) -> list[ElementTree.Element]:
    return list(ElementTree.fromstring(svg).iter())


def _cell_of(canvas_centres: tuple[tuple[float, float], ...], x: float, y: float) -> int:
    return min(
        range(len(canvas_centres)),
        key=lambda i: (canvas_centres[i][0] - x) ** 2 + (canvas_centres[i][1] - y) ** 2,
    )


def _king_disc_index(elements: list[ElementTree.Element], centre: tuple[float, float]) -> int:
    return next(
        i
        for i, e in enumerate(elements)
        if e.tag == f"{SVG}circle"
        and abs(float(e.get("cx", "0")) - centre[0]) < 0.01
        and abs(float(e.get("cy", "0")) - centre[1]) < 0.01
    )


def test_a_mated_king_gets_a_dark_square_and_a_hash() -> None:
    verdict = check_text(FOOLS_MATE, "g")
    assert verdict.termination == "checkmate"
    svg = write_svg(verdict)
    elements = _elements(svg)
    kit = board_kit()
    e1 = kit.centres[parse_square("e1")]
    mate = [e for e in elements if e.get("fill") == MATE]
    assert len(mate) == 1 and mate[0].tag == f"{SVG}rect"
    x, y = float(mate[0].get("x", "0")), float(mate[0].get("y", "0"))
    assert _cell_of(kit.centres, x + 24, y + 24) == parse_square("e1")
    assert elements.index(mate[0]) < _king_disc_index(elements, e1)  # under the King
    assert any(e.tag == f"{SVG}text" and e.text == "#" for e in elements)
    assert "White is checkmated" in svg


def test_a_king_in_check_gets_a_red_square_and_others_none() -> None:
    verdict = check_text("P e2-e4\np f7-f6\nQ d1-h5\n", "g")  # check, not mate (g6 blocks)
    svg = write_svg(verdict)
    elements = _elements(svg)
    kit = board_kit()
    check = [e for e in elements if e.get("fill") == CHECK]
    assert len(check) == 1 and not [e for e in elements if e.get("fill") == MATE]
    x, y = float(check[0].get("x", "0")), float(check[0].get("y", "0"))
    assert _cell_of(kit.centres, x + 24, y + 24) == parse_square("e8")
    assert elements.index(check[0]) < _king_disc_index(elements, kit.centres[parse_square("e8")])
    assert "Black is in check" in svg
    quiet = _elements(write_svg(check_text("P e2-e4\n", "g")))
    assert not [e for e in quiet if e.get("fill") in (CHECK, MATE)]


@pytest.mark.parametrize(
    "log",
    [
        "P e2-e4\np e7-e5\nR h1-i1; I-i1\nI i1-d8\n",  # pocket to an occupied square
        "P e2-e4\np e7-e5\nQ d1-d8\n",  # through pieces onto a piece
        "P e2-e4\np e7-e5\nB f1-f2\n",  # one step, onto a piece
        "P e2-e4\np e7-e5\nN g1-g3\n",  # onto an empty square
    ],
)
def test_an_arrow_is_under_the_pieces_and_stops_at_their_discs(log: str) -> None:
    verdict = check_text(log, "g")
    assert verdict.status == "illegal"
    elements = _elements(write_svg(verdict))
    discs = [e for e in elements if e.tag == f"{SVG}circle" and e.get("r") == "19.2"]
    arrow = [e for e in elements if e.tag in (f"{SVG}line", f"{SVG}polygon")]
    assert arrow and max(map(elements.index, arrow)) < min(map(elements.index, discs))
    ends: list[tuple[float, float]] = []  # where the shaft starts, where the head points
    for e in arrow:
        if e.tag == f"{SVG}line":
            ends.append((float(e.get("x1", "0")), float(e.get("y1", "0"))))
        else:
            x, y = e.get("points", "").split()[0].split(",")
            ends.append((float(x), float(y)))
    assert len(ends) == len(arrow)
    for disc in discs:  # neither end of the arrow lies inside a disc
        cx, cy = float(disc.get("cx", "0")), float(disc.get("cy", "0"))
        for px, py in ends:
            assert (px - cx) ** 2 + (py - cy) ** 2 >= 19.2**2 - 0.01
