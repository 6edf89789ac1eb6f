"""The PGN reader: any database read the way python-chess and pgn-extract read it, one game
at a time, a broken game costing only itself (issue 19 item 3, issue 23 item 1)."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from conftest import FIXTURES, invoke_gcadj

from gcadj.app.check import check_text
from gcadj.app.pipeline import JudgeOptions, judge_source
from gcadj.engine.position import Position
from gcadj.judging.verdict import Verdict
from gcadj.notation.lexicon import SourceFormat
from gcadj.notation.pgn import looks_like_pgn, movetext_kind
from gcadj.notation.records import ClearSub, MoveSub, PlaceSub
from gcadj.notation.tags import starts_like_tag, tag_pair
from gcadj.outputs.game_export import export_game
from gcadj.sources.formats import detect_format
from gcadj.sources.games import source_games
from gcadj.sources.pgn_reader import game_spans

GAME_COURIER, PGN = SourceFormat.GAME_COURIER, SourceFormat.PGN

ROSTER = '[Event "e"]\n[Site "s"]\n[White "w"]\n[Black "b"]\n'


def check(text: str, name: str = "db.pgn") -> list[Verdict]:
    return judge_source(name, text=text)


# -- PGN or Game Courier: the tag section, then the moves decide -------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (ROSTER + "\n1.e4 e5 2.Nf3 1-0\n", PGN),  # standard PGN: no Variant tag needed
        (ROSTER + "\n{an opening comment}\n1. d4 *\n", PGN),
        (ROSTER + "\n*\n", PGN),  # a game of no move, with its result token
        ('[Variant "Pocket Mutation Chess"]\n\n', PGN),  # gcadj's own, even without moves
        ('[Variant "Pocket Mutation Chess"]\n\n1. {gc: I*d5} *\n', PGN),
        (ROSTER + "P e2-e4\np e7-e5\n", GAME_COURIER),  # tags, then Game Courier plies
        (ROSTER + "1. P e2-e4 // a comment\n1... p e7-e5\n", GAME_COURIER),
        (ROSTER + "1. e4\n2. P d2-d4\n", GAME_COURIER),  # SAN typed into a log among plies
        (ROSTER + "e8=Q\n", GAME_COURIER),  # one SAN move alone: typed into a log
        (ROSTER + "I @ c4\n", GAME_COURIER),
        (ROSTER + "1. e4\n", PGN),  # numbered
        (ROSTER + "1. ... e5\n", PGN),
        (ROSTER + "e4 e5\n", PGN),  # two on a line
        (ROSTER + "// a note\n1. e4 e5\n", GAME_COURIER),
        ('[Variant "Pocket Mutation Chess"]\nP e2-e4\n', GAME_COURIER),
        (ROSTER, GAME_COURIER),  # tags and no ply: a log of no ply
        ("1. e4 e5 2. Nf3 *\n", PGN),  # no tags: PGN pasted from a forum
        ("e4 e5\n", GAME_COURIER),  # no tags and no move number: a slip in a log
        ("P e2 e4\n", GAME_COURIER),
        ("1. e2e4 e7e5\n", PGN),  # long algebraic that is no Game Courier text
        ("e4\n", GAME_COURIER),  # one SAN move alone: typed into a log
        ("1-0\n", GAME_COURIER),  # a result alone, without tags: typed into a log
        ("1. P e2-e4 p e7-e5\n", GAME_COURIER),  # two plies on a line: a slip in a log
        ("1. e2-e4 e7-e5\n", GAME_COURIER),  # Game Courier's o-d twice: a slip in a log
        ("P e2-e4\n", GAME_COURIER),
    ],
)
def test_pgn_is_known_by_its_moves(text: str, kind: SourceFormat) -> None:
    assert detect_format(text) is kind
    assert looks_like_pgn(text) == (kind is PGN)


def test_san_typed_into_a_game_courier_log_stays_a_syntax_error() -> None:
    """A SAN move among Game Courier plies is the log's syntax error, never guessed at."""
    verdict = check_text(ROSTER + "P e2-e4\n1... e5\n", "g.txt")
    assert verdict.status == "syntax-error" and verdict.partial
    assert verdict.error is not None and verdict.error.startswith("g.txt:6:")
    assert "hint:" in verdict.error


def test_the_movetext_decides_past_comments_and_a_first_game_without_moves() -> None:
    text = '[Event "a"]\n\n{a comment\nP e2-e4 inside it}\n*\n\n[Event "b"]\n\n1. d4 d5 *\n'
    assert movetext_kind(text, text.index("{")) is PGN
    assert movetext_kind('[Event "a"]\n\nhello there\n', 12) is None


def test_one_tag_pair_reader() -> None:
    assert tag_pair('[White "Ann \\"the\\" Bold"]') == ("White", 'Ann "the" Bold')
    assert tag_pair(' \t[ Event\u00a0"x" ] ') == ("Event", "x")
    assert tag_pair('[Event "x]') is None and starts_like_tag('[Event "x]')
    assert tag_pair("[garbage") is None and not starts_like_tag("[garbage")


# -- a standard database: one verdict per game --------------------------------------------


WORLD_CHAMP = (Path(__file__).resolve().parents[2] / "bench/data/pgn/WorldChamp1886.pgn").read_text(
    encoding="utf-8"
)


def test_a_standard_database_gives_one_verdict_per_game() -> None:
    verdicts = check(WORLD_CHAMP, "wc.pgn")
    assert [v.source for v in verdicts] == [f"wc.pgn#{n}" for n in range(1, 21)]
    first = verdicts[0]  # no castling: legal, with its recorded result
    assert (first.status, first.plies, first.result, first.termination) == (
        "legal",
        92,
        "0-1",
        "recorded",
    )
    second = verdicts[1]  # 9.O-O, ply 17: castling does not exist in Pocket Mutation Chess
    assert second.status == "illegal" and second.first_illegal is not None
    finding = second.first_illegal
    assert (finding.ply, finding.text, finding.category) == (17, "O-O", "castling")
    assert "castling does not exist" in finding.reason
    assert (finding.line, finding.column) == (32, 3)  # "9.O-O" on line 32, where O-O stands
    assert second.plies == 92  # the plies after it are read too


def test_a_game_in_a_database_does_not_depend_on_its_neighbours() -> None:
    games = WORLD_CHAMP.replace("\r\n", "\n").split("\n\n[Event")
    alone = check(games[0] + "\n", "one.pgn")
    own = '[Variant "Pocket Mutation Chess"]\n[White "x"]\n\n1. e4 e5 *\n\n'
    after_own = check(own + games[0] + "\n", "two.pgn")
    assert len(alone) == 1 and len(after_own) == 2
    assert after_own[1].to_json() | {"source": "one.pgn"} == alone[0].to_json()


def test_castling_and_promotion_are_the_plies_a_player_would_type() -> None:
    text = ROSTER + "\n1. Nf3 Nf6 2. g3 g6 3. Bg2 Bg7 4. O-O O-O *\n"
    (read,) = check(text, "c.pgn")
    game = read.log
    assert game is not None
    assert game.records[6].submoves == (MoveSub("K", "e1", "g1"), MoveSub("R", "h1", "f1"))
    assert game.records[7].submoves == (MoveSub("k", "e8", "g8"), MoveSub("r", "h8", "f8"))
    (verdict,) = judge_source("c.pgn", JudgeOptions(all_findings=True), text=text)
    assert [(f.ply, f.category) for f in verdict.illegal] == [(7, "castling"), (8, "castling")]
    promotion = '[FEN "4k3/P7/8/8/8/8/8/4K3[] w - - 0 1"]\n\n1. a8=Q+ Kd7 *\n'
    (verdict,) = check(promotion, "p.pgn")
    assert verdict.first_illegal is not None
    assert verdict.first_illegal.category == "promotion-on-arrival"
    assert verdict.log is not None
    assert verdict.log.records[0].submoves == (MoveSub("P", "a7", "a8"), PlaceSub("Q", "a8", "-"))


def test_long_castling_and_zeros() -> None:
    text = '[FEN "r3k3/8/8/8/8/8/8/R3K3[] w - - 0 1"]\n\n1. 0-0-0 O-O-O *\n'
    (verdict,) = judge_source("c.pgn", JudgeOptions(all_findings=True), text=text)
    assert [f.category for f in verdict.illegal] == ["castling", "castling"]
    assert verdict.log is not None
    assert verdict.log.records[1].submoves == (MoveSub("k", "e8", "c8"), MoveSub("r", "a8", "d8"))


# -- the movetext --------------------------------------------------------------------------


def test_movetext_numbers_comments_nags_annotations_variations_escapes() -> None:
    text = ROSTER + (
        "\n% an escape line: not read\n"
        "1. e4 {a comment} 1... e5 $1 2. Nf3!? ; to the end of the line ( not a variation\n"
        "2... Nc6 (2... d6 3. d4 (3. Bc4 {inside} Be7) exd4) 3. Bb5?! a6 $14 *\n"
    )
    (verdict,) = check(text)
    assert verdict.status == "legal" and verdict.plies == 6
    assert verdict.warnings == (
        "a variation skipped (the first on line 8): gcadj judges the main line only",
    )
    log = verdict.log
    assert log is not None
    assert [(r.text, r.number) for r in log.records] == [
        ("e4", "1."),
        ("e5", "1..."),
        ("Nf3!?", "2."),
        ("Nc6", "2..."),
        ("Bb5?!", "3."),
        ("a6", None),
    ]
    assert log.records[0].comment == "a comment"
    assert log.records[2].comment == "to the end of the line ( not a variation"


def test_the_variants_own_san_in_any_pgn() -> None:
    text = ROSTER + "\n1. e4 d5 2. e5 f5 3. exf6 Nxf6 4. Nf3 Nc6 5. Rh1@=I e6 6. I@a3 Qd8@=M *\n"
    (verdict,) = check(text)  # en passant, pocketing with mutation, a drop; no Variant tag
    assert verdict.status == "legal", verdict.error
    log = verdict.log
    assert log is not None
    assert log.records[4].submoves == (MoveSub("P", "e5", "f6"), ClearSub("f5", "-"))
    assert log.records[8].submoves == (MoveSub("R", "h1", "i1"), PlaceSub("I", "i1", "-"))
    assert log.records[10].submoves == (MoveSub("I", "i1", "a3"),)
    assert log.records[11].submoves == (MoveSub("q", "d8", "i8"), PlaceSub("m", "i8", "-"))


def test_an_unreadable_move_gives_a_partial_verdict_and_the_next_game_is_read() -> None:
    text = ROSTER + "\n1. e4 e5 2. Nf3 Nc6 3. Qx9 *\n\n" + ROSTER + "\n1. d4 d5 *\n"
    first, second = check(text)
    assert first.status == "syntax-error" and first.partial
    assert (first.plies, first.legal_plies) == (4, 4)
    position = Position()
    for move in first.moves:
        position.push(move)
    assert first.final_fen == position.fen()
    assert first.error is not None and first.error.startswith("db.pgn#1:6:24: syntax error")
    assert second.status == "legal" and second.plies == 2


def test_a_variant_tag_naming_another_game_is_a_warning() -> None:
    (verdict,) = check('[Variant "Crazyhouse"]\n\n1. e4 *\n')
    assert verdict.status == "legal"
    assert verdict.warnings == (
        "the Variant tag names 'Crazyhouse': gcadj judges the game as Pocket Mutation Chess",
    )
    for name in ("Pocket Mutation Chess", "pocket-mutation chess", "PMC"):
        (verdict,) = check(f'[Variant "{name}"]\n\n1. e4 *\n')
        assert verdict.warnings == ()


# -- FEN, SetUp, PocketFile -------------------------------------------------------------


def test_setup_and_a_chess_fen_are_honoured() -> None:
    chess_fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"  # no pockets: a chess FEN
    (verdict,) = check(f'[SetUp "1"]\n[FEN "{chess_fen}"]\n\n1. e4 Kd7 *\n')
    assert verdict.status == "legal" and verdict.final_fen == "8/3k4/8/8/4P3/8/8/4K3[] w - - 2 2"
    (verdict,) = check('[White "w"]\n[SetUp "1"]\n\n1. e4 *\n')
    assert verdict.status == "syntax-error"
    assert verdict.error is not None and verdict.error.startswith("db.pgn:2:9: syntax error")
    assert "a [FEN] tag" in verdict.error


def test_a_p_preset_game_reads_back_alone_and_in_a_database(tmp_path: Path) -> None:
    page = FIXTURES / "pages" / "pmc_pocket_p_code.html"
    (original,) = judge_source(str(page))
    pgn = export_game(original, "pgn")
    assert '[PocketFile "p"]' in pgn
    (again,) = check(pgn, "p.pgn")
    keys = ("status", "plies", "legal_plies", "result", "termination", "final_fen")
    assert {k: again.to_json()[k] for k in keys} == {k: original.to_json()[k] for k in keys}
    assert again.log is not None and again.log.pocket_file == "p"
    database = tmp_path / "db.pgn"
    database.write_text(pgn + "\n" + WORLD_CHAMP.replace("\r\n", "\n"), encoding="utf-8")
    verdicts = judge_source(str(database))
    assert len(verdicts) == 21 and verdicts[0].status == "legal"
    assert [v.outcome for v in verdicts].count("internal-error") == 0
    for fmt in ("gc", "html"):  # exported again from the PGN (they exited 5)
        out = tmp_path / f"again.{fmt}"
        done = invoke_gcadj("export", str(database) + "#1", "--to", fmt, "-o", str(out))
        assert done.returncode == 0, done.stderr
        assert "carol" in out.read_text(encoding="utf-8")


# -- a broken game costs only itself ---------------------------------------------------------

GOOD = ROSTER + "\n1. e4 e5 2. Nf3 Nc6 *\n"


@pytest.mark.parametrize(
    ("broken", "line", "column", "words"),
    [
        (ROSTER + "\n1. d4 {an unclosed comment d5 2. c4 *\n", 13, 7, "never closed"),
        (ROSTER + "\n1. d4 (1. e4 e5 2. c4 *\n", 13, 7, "never closed"),
        (ROSTER + "\n1. d4 d5\n[a stray line\n2. c4 *\n", 14, 1, "no move"),
        (ROSTER + '[Date "1999\n\n1. d4 d5 *\n', 12, 1, "double quotes"),
        (ROSTER + "\n1. d4 \x00\x7f\ufffd d5 *\n", 13, 7, "a move like"),
        (ROSTER + "\n1. d4 d5 2. c", 13, 13, "a move like"),  # truncated
        (ROSTER + "\n1. d4 ) d5 *\n", 13, 7, "closes no variation"),
        (ROSTER + "\n1. d4 } d5 *\n", 13, 7, "closes no comment"),
    ],
)
def test_a_broken_game_costs_only_itself(broken: str, line: int, column: int, words: str) -> None:
    text = GOOD + "\n" + broken + "\n" + GOOD + "\n" + GOOD
    verdicts = check(text)
    assert [v.source for v in verdicts] == [f"db.pgn#{n}" for n in (1, 2, 3, 4)]
    assert [v.status for v in verdicts] == ["legal", "syntax-error", "legal", "legal"]
    assert [v.plies for v in verdicts[2:]] == [4, 4]
    error = verdicts[1].error
    assert error is not None and error.startswith(f"db.pgn#2:{line}:{column}: syntax error")
    assert words in error


def test_the_issues_four_games_with_an_unclosed_brace() -> None:
    games = [f'[Event "{n}"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n' for n in range(1, 5)]
    games[1] = '[Event "2"]\n\n1. e4 {unclosed e5 2. Nf3 Nc6 1-0\n'
    verdicts = check("\n".join(games))
    assert [v.status for v in verdicts] == ["legal", "syntax-error", "legal", "legal"]
    assert verdicts[1].error is not None and verdicts[1].error.startswith("db.pgn#2:7:7:")
    assert all(v.plies == 4 and v.result == "1-0" for v in (verdicts[0], *verdicts[2:]))


def test_text_between_games() -> None:
    """A comment or a % line between games is no game; junk after a result belongs to the
    game it follows, up to the next tag section; moves after a result begin a game."""
    text = GOOD + "\n{a comment between games}\n\n% an escape\n\n" + GOOD + "junk 1. d4\n\n" + GOOD
    verdicts = check(text)
    assert [v.status for v in verdicts] == ["legal", "syntax-error", "legal"]
    assert verdicts[1].error is not None
    assert verdicts[1].error.startswith("db.pgn#2:18:1: syntax error: expected the next game's")
    assert (verdicts[1].plies, verdicts[1].legal_plies) == (4, 4)  # its moves are judged
    verdicts = check(GOOD + "1. d4 d5 *\n")
    assert [(v.status, v.plies) for v in verdicts] == [("legal", 4), ("legal", 2)]


def test_a_header_without_moves_ends_at_the_next_tag_section() -> None:
    text = '[Event "a"]\n[Site "cut off\n\n' + GOOD
    verdicts = check(text)
    assert [v.status for v in verdicts] == ["syntax-error", "legal"]
    spans = list(game_spans(text))
    assert len(spans) == 2 and text[spans[1][0] :].startswith("[Event")


def test_games_are_read_one_at_a_time() -> None:
    games = iter(source_games("db.pgn", text=GOOD * 3))
    assert inspect.isgenerator(games)
    first = next(games)
    assert first.source == "db.pgn#1" and first.status == "legal"


def test_one_game_of_a_database_is_read_alone() -> None:
    text = GOOD + "\n" + ROSTER + "\n1. d4 {open\n\n" + GOOD
    (verdict,) = judge_source("db.pgn#3", text=text)
    assert verdict.source == "db.pgn#3" and verdict.status == "legal"
    (verdict,) = judge_source("db.pgn#2", text=text)
    assert verdict.status == "syntax-error"
    (missing,) = judge_source("db.pgn#4", text=text)
    assert missing.status == "error" and missing.error == "db.pgn#4: db.pgn holds 3 games"
