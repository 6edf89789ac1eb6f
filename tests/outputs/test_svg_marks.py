"""Which squares a picture marks for an illegal ply: one rule for export and audit report."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest

from gcadj.app.check import check_text
from gcadj.engine.squares import parse_square
from gcadj.notation.parse import parse_log
from gcadj.outputs.svg_diagram import (
    BLACK_POCKET_CELL,
    CHECK,
    MATE,
    WHITE_POCKET_CELL,
    board_kit,
    marked_cells,
    marks,
)
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
    (sign,) = [e for e in elements if e.get("class") == "mate-sign"]  # a drawn '#'
    numbers = [float(n) for n in re.findall(r"-?[\d.]+", sign.get("d", ""))]
    xs, ys = numbers[0::2], numbers[1::2]
    assert min(xs) >= x + 24 and max(xs) <= x + 48 and min(ys) >= y and max(ys) <= y + 24
    cx, cy = e1  # in the square's corner, clear of the King's disc
    assert all((px - cx) ** 2 + (py - cy) ** 2 > 19.2**2 for px, py in zip(xs, ys, strict=True))
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


# -- the board seen from Black's side ----------------------------------------------------


def test_a_flipped_board_turns_the_squares_and_keeps_each_pocket_beside_its_rank() -> None:
    kit, flipped = board_kit(), board_kit(flipped=True)
    assert (kit.width, kit.height) == (flipped.width, flipped.height)
    for square in range(64):  # a1 where h8 was: a half turn of the 8x8 board
        assert flipped.centres[square] == kit.centres[63 - square]
    # the pocket file stays on the right; each pocket beside its own rank
    white, black = WHITE_POCKET_CELL, BLACK_POCKET_CELL
    assert flipped.centres[white] == kit.centres[black]
    assert flipped.centres[black] == kit.centres[white]
    assert abs(flipped.centres[black][1] - flipped.centres[parse_square("a8")][1]) < 0.01
    labels = {
        e.text: (float(e.get("x", "0")), float(e.get("y", "0")))
        for e in _elements(f'<svg xmlns="http://www.w3.org/2000/svg">{flipped.background}</svg>')
        if e.tag == f"{SVG}text"
    }
    assert labels["1"][1] < labels["8"][1]  # rank 1 at the top
    assert labels["h"][0] < labels["a"][0]  # file h on the left


def test_marks_drawn_for_a_flipped_board_land_on_its_cells() -> None:
    verdict = check_text("P e2-e4\np e7-e5\nN g1-g3\n", "g")
    assert verdict.first_illegal is not None and verdict.log is not None
    from gcadj.judging.plies import JudgedGame

    position = JudgedGame(verdict).position_after(2)
    record = verdict.log.records[2]
    for flipped in (False, True):
        kit = board_kit(flipped=flipped)
        drawn = marks(position, illegal=marked_cells(record), flipped=flipped)
        outlines = [
            e
            for e in _elements(f'<svg xmlns="http://www.w3.org/2000/svg">{drawn}</svg>')
            if e.tag == f"{SVG}rect" and e.get("stroke") == "#d01c1c"
        ]
        cells = {
            _cell_of(kit.centres, float(e.get("x", "0")) + 22, float(e.get("y", "0")) + 22)
            for e in outlines
        }
        assert cells == {parse_square("g1"), parse_square("g3")}
