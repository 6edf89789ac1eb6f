"""The examples in the docstrings of the adjudication API run, and say what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["gcadj.app.adjudicate", "gcadj.analysis.adjudicate"]


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert attempted >= 3, f"{name} lost its examples"
    assert failed == 0
