"""Game Courier position codes: conversions both ways, their errors, and where they are accepted."""

from __future__ import annotations

import pytest
from conftest import invoke_gcadj

from gcadj.app.check import check_text
from gcadj.engine.fen import STARTING_FEN
from gcadj.engine.position import Position
from gcadj.errors import FenError, GcCodeError
from gcadj.notation.gccode import as_gcadj_fen, fen_to_gc_code, gc_code_to_fen, is_gc_code

START_CODE = "rnbqkbnr1/pppppppp-/8-/8-/8-/8-/PPPPPPPP-/RNBQKBNR1"


def test_standard_array_both_ways() -> None:
    assert fen_to_gc_code(STARTING_FEN) == START_CODE
    assert gc_code_to_fen(START_CODE) == STARTING_FEN


def test_pockets_sit_at_the_ends_of_ranks_8_and_1() -> None:
    fen = "4k3/8/8/8/8/8/8/4K3[Qn] b - - 3 40"
    code = fen_to_gc_code(fen)
    assert code == "4k3n/8-/8-/8-/8-/8-/8-/4K3Q"
    assert gc_code_to_fen(code, turn="b") == "4k3/8/8/8/8/8/8/4K3[Qn] b - - 0 1"


def test_empty_runs_merge_into_the_pocket_cell() -> None:
    assert fen_to_gc_code("8/8/8/8/8/8/8/K6k[] w - - 0 1") == "9/8-/8-/8-/8-/8-/8-/K6k1"


def test_code_without_slashes_is_read_by_width() -> None:
    assert gc_code_to_fen(START_CODE.replace("/", "")) == STARTING_FEN
    # A run of empty cells may then cross the end of a rank.
    # (12 = f8, g8, h8, i8 and all of rank 7 but the missing i7.)
    assert gc_code_to_fen("4k12-" + "8-" * 5 + "4K4") == "4k3/8/8/8/8/8/8/4K3[] w - - 0 1"


def test_empty_cells_are_accepted_where_cells_do_not_exist() -> None:
    assert gc_code_to_fen("rnbqkbnr1/pppppppp1/9/9/9/9/PPPPPPPP1/RNBQKBNR1") == STARTING_FEN


def test_long_labels_in_braces() -> None:
    code = START_CODE.replace("RNBQKBNR1", "RNBQKBNR{I}")
    assert gc_code_to_fen(code) == STARTING_FEN.replace("[]", "[I]")


def test_code_followed_by_fen_fields_keeps_them() -> None:
    assert gc_code_to_fen(START_CODE + " b - - 4 12") == STARTING_FEN.replace(
        " w - - 0 1", " b - - 4 12"
    )


def test_round_trip_over_positions_with_pockets() -> None:
    for fen in (
        "r1bqkbnr/ppp2ppp/2np4/4p3/4P3/5N2/PPPP1PPP/1NBQKB1R[I] w - - 6 4",
        "k7/8/1K6/8/8/8/8/8[Qz] w - - 0 1",
        "8/8/8/8/8/8/8/k6K[] w - - 0 1",
    ):
        code = fen_to_gc_code(fen)
        assert is_gc_code(code)
        assert gc_code_to_fen(code).split(" ")[0] == fen.split(" ")[0]


def test_detection() -> None:
    assert is_gc_code(START_CODE)
    assert is_gc_code(START_CODE.replace("/", ""))
    assert not is_gc_code(STARTING_FEN)
    assert not is_gc_code("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1")
    assert not is_gc_code("")
    assert as_gcadj_fen(STARTING_FEN) == STARTING_FEN
    assert as_gcadj_fen(START_CODE) == STARTING_FEN


@pytest.mark.parametrize(
    ("code", "column", "message"),
    [
        ("", 1, "empty code"),
        (START_CODE[:-1], 50, "rank 1 has only 8 cells; expected 9"),
        (START_CODE.replace("PPPPPPPP-", "PPPPPPPP"), 40, "rank 2 has only 8 cells"),
        (START_CODE + "/9", 52, "more than 8 ranks"),
        ("rnbqkbnr1/pppppppp-/8-", 22, "found 3 ranks separated by '/'; expected 8"),
        (START_CODE.replace("8-/8-/8-/8-", "8-/8Q/8-/8-"), 25, "i5 does not exist"),
        (START_CODE.replace("pppppppp-", "ppppyppp-"), 15, "'y' is not a piece label"),
        (START_CODE.replace("R1", "Rn"), 51, "i1 is White's pocket, but it holds a Black Knight"),
        (START_CODE.replace("R1", "RK"), 51, "a King can never be in a pocket (i1)"),
        (START_CODE.replace("r1/", "r-/"), 9, "'-' marks a cell that does not exist, but i8"),
        (START_CODE.replace("/8-/", "/4-3-/", 1), 22, "but e6 is on the board"),
        (START_CODE.replace("/8-/", "/0-/", 1), 21, "a run of empty cells cannot be 0"),
        (START_CODE.replace("/8-/", "/9-/", 1), 22, "rank 6 has more than 9 cells"),
        ("rnbqkbnr{Q", 9, "never closed"),
        ("rnbqkbnr{Queen}", 9, "'{Queen}' is not a piece label"),
        ("k8" + "-8" * 6, 14, "found 63 cells; expected 72"),
        (START_CODE + " x - - 0 1", 53, "side to move must be 'w' or 'b'"),
    ],
)
def test_errors_name_the_column_and_what_was_expected(code: str, column: int, message: str) -> None:
    with pytest.raises(GcCodeError) as caught:
        gc_code_to_fen(code)
    assert message in caught.value.message
    assert caught.value.column == column
    assert isinstance(caught.value, FenError)  # callers that handle bad FENs handle codes
    assert str(caught.value).startswith(f"bad Game Courier code at column {column}: ")


def test_bad_fen_for_to_gc() -> None:
    with pytest.raises(FenError):
        fen_to_gc_code("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP[] w - - 0 1")


# -- where codes are accepted ----------------------------------------------------------

ENDGAME_CODE = "k8/8-/1K6-/8-/8-/8-/8-/8Q"  # White: Kb6, Queen in the pocket; Black: Ka8


def test_fen_tag_may_hold_a_code() -> None:
    verdict = check_text(f'[FEN "{ENDGAME_CODE}"]\nQ i1-a7\n', "mate.txt")
    assert verdict.status == "legal"
    assert verdict.termination == "checkmate"
    assert verdict.start_fen == "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1"


def test_fen_option_may_hold_a_code() -> None:
    verdict = check_text("Q i1-a7\n", "mate.txt", fen=ENDGAME_CODE)
    assert (verdict.status, verdict.result) == ("legal", "1-0")


def test_bad_code_in_a_tag_is_a_syntax_error_verdict_naming_it() -> None:
    verdict = check_text('[FEN "k8/8-/1K6-"]\nQ i1-a7\n', "bad.txt")
    assert verdict.status == "syntax-error"
    assert verdict.error is not None and "bad Game Courier code" in verdict.error


def test_code_position_is_checked_like_a_fen() -> None:
    with pytest.raises(FenError, match="no King"):
        Position(gc_code_to_fen("9/8-/8-/8-/8-/8-/8-/K8"))


# -- the command -----------------------------------------------------------------------


def test_cli_from_gc_and_to_gc() -> None:
    done = invoke_gcadj("fen", "--from-gc", START_CODE)
    assert (done.returncode, done.stdout) == (0, STARTING_FEN + "\n")
    done = invoke_gcadj("fen", "--from-gc", ENDGAME_CODE, "--turn", "b")
    assert done.stdout == "k7/8/1K6/8/8/8/8/8[Q] b - - 0 1\n"
    done = invoke_gcadj("fen", "--to-gc", "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1")
    assert (done.returncode, done.stdout) == (0, ENDGAME_CODE + "\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("fen",), "exactly one of --from-gc CODE and --to-gc FEN"),
        (("fen", "--from-gc", "x", "--to-gc", "y"), "exactly one"),
        (("fen", "--from-gc", "rnbqkbnr{Q"), "bad Game Courier code at column 9"),
        (("fen", "--to-gc", "nonsense"), "bad FEN"),
        (("fen", "--to-gc", STARTING_FEN, "--turn", "b"), "--turn applies to --from-gc only"),
    ],
)
def test_cli_errors_are_usage_errors_on_stderr(args: tuple[str, ...], message: str) -> None:
    done = invoke_gcadj(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stdout == ""
