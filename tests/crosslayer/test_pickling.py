"""What gcadj returns survives pickling (multiprocessing sends it between processes), the
same in the pure-Python and the compiled build (CI runs this file against both).

A compiled frozen dataclass cannot be unpickled the default way, so these classes say how
they are rebuilt (`gcadj.engine.compiled.rebuild_args`); piece kinds and pieces come back
as the very singletons the engine compares by identity.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from gcadj.app.check import check_text
from gcadj.engine.fen import FenError
from gcadj.engine.move import Move
from gcadj.engine.pieces import KIND, PIECE
from gcadj.engine.position import IllegalMoveError, Position
from gcadj.judging.judge import IllegalPly
from gcadj.notation.gccode import GcCodeError, gc_code_to_fen
from gcadj.notation.parse import LogSyntaxError, parse_log

GAME = "P e2-e4\np e7-e5\nN g1-f3\nn b8-i8; b-i8\nN f3-e5\nb i8-e7\nK e1-e3\n"


def round_trip(value: Any) -> Any:
    return pickle.loads(pickle.dumps(value))


def test_a_verdict_with_its_finding_suggestions_log_and_moves_comes_back_equal() -> None:
    verdict = check_text(GAME, "game.txt")
    assert verdict.status == "illegal" and verdict.first_illegal is not None
    assert any(m.is_pocketing for m in verdict.moves)
    again = round_trip(verdict)
    assert again == verdict
    assert again.json_line() == verdict.json_line()
    assert again.moves == verdict.moves and again.log == verdict.log
    assert again.first_illegal.suggestions == verdict.first_illegal.suggestions
    assert round_trip(IllegalPly("own-capture", "why")) == IllegalPly("own-capture", "why")


def test_kinds_and_pieces_come_back_as_the_same_singletons() -> None:
    assert round_trip(KIND["N"]) is KIND["N"]
    assert round_trip(PIECE["q"]) is PIECE["q"]
    move = Move.from_uci("e2@I")
    assert round_trip(move) == move and round_trip(move).kind is KIND["I"]


def test_a_position_comes_back_with_its_history() -> None:
    position = Position()
    for uci in ("e2e4", "g8@B", "d1h5", "B@c5"):
        position.push(Move.from_uci(uci))
    again = round_trip(position)
    assert again.fen() == position.fen()
    assert again.move_stack == position.move_stack
    assert sorted(map(str, again.legal_moves())) == sorted(map(str, position.legal_moves()))
    again.pop()
    assert again.fen() != position.fen()


def error(make: Any) -> Exception:
    with pytest.raises(Exception) as caught:
        make()
    return caught.value


@pytest.mark.parametrize(
    "make",
    [
        lambda: parse_log("P e2-e4\nNf3\n", "game.txt"),
        lambda: Position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN[] w - - 0 1"),
        lambda: gc_code_to_fen("rnbqkbnr{Q"),
        lambda: Position().push(Move.from_uci("e2e5")),
    ],
    ids=["log-syntax", "fen", "gc-code", "illegal-move"],
)
def test_errors_come_back_with_their_message_and_type(make: Any) -> None:
    err = error(make)
    assert isinstance(err, (LogSyntaxError, FenError, GcCodeError, IllegalMoveError))
    again = round_trip(err)
    assert type(again) is type(err)
    assert str(again) == str(err)
