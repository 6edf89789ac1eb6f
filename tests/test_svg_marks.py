"""Which squares a picture marks for an illegal ply: one rule for export and audit report."""

from __future__ import annotations

import pytest

from gcadj.notation.parse import parse_log
from gcadj.outputs.svg import marked_cells


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
