"""A broken game costs only itself (issue 23 item 1): take a PGN database, corrupt any one
game in any way (an unclosed brace or parenthesis, a stray '[' line, garbage characters,
a truncation), and every other game keeps its verdict; the count of verdicts stays the
count of games.

The databases mix real master games (standard chess: illegal at their first castling),
random Pocket Mutation Chess games exported by gcadj (drops, pocketing, en passant),
illegal ones with their ``{gc: ...}`` plies, and a game of the newer preset (pockets p1/p8).
Each game carries a ``GameId`` tag, so a verdict is matched to its game by its log.

Garbage never holds a line break, a digit or '*' (which could write a new tag section or a
result token: more games, by the rules), and never goes before the first character of a
line (which would turn a tag line into moves, and the tags after it into a new game).
"""

from __future__ import annotations

import functools
import io
import random
import re
from typing import Any

from conftest import FIXTURES, ROOT, budget
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_games import corrupt, random_game

from gcadj.app.check import check_text
from gcadj.app.pipeline import judge_source
from gcadj.judging.verdict import Verdict
from gcadj.outputs.game_export import export_game

GARBAGE = "abcxyzKQRI{}()[]$%;!?.=@#+-/\\\"'\t \x00\x07\x7f\u00a0\u00e9\u2028\ufffd"


@functools.cache
def pool() -> tuple[str, ...]:
    """Games as PGN text, each without its GameId (added when a database is built)."""
    games: list[str] = []
    text = (ROOT / "bench/data/pgn/WorldChamp1886.pgn").read_text(encoding="utf-8")
    games += [g.strip() + "\n" for g in re.split(r"\n(?=\[Event )", text.replace("\r", ""))][:6]
    rng = random.Random(19)
    for n in range(6):
        plies, _ = random_game(rng, 12 + 4 * n)
        if n % 2:  # an illegal game: one ply changed
            at = rng.randrange(len(plies))
            plies[at] = corrupt(plies[at], rng)
        verdict = check_text("\n".join(plies) + "\n", f"r{n}.txt")
        if verdict.log is not None:
            games.append(export_game(verdict, "pgn"))
    (page,) = judge_source(str(FIXTURES / "pages" / "pmc_pocket_p_code.html"))
    games.append(export_game(page, "pgn"))
    return tuple(games)


def database(games: list[str]) -> str:
    """The games one after another, a blank line between them (as PGN separates them, and
    as a tag section is known after a broken game)."""
    return "\n\n".join(f'[GameId "{n}"]\n{game.rstrip(chr(10))}' for n, game in enumerate(games))


def comparable(verdict: Verdict) -> dict[str, Any]:
    """What a game's verdict says, lines and columns aside (a corruption before it may
    add or remove lines)."""
    row = verdict.to_json()
    del row["source"]
    for finding in row["illegal"]:
        del finding["line"], finding["column"]
    row["first_illegal"] = row["illegal"][0] if row["illegal"] else None
    row["warnings"] = [re.sub(r"line \d+", "line N", w) for w in row["warnings"]]
    if row["error"]:
        row["error"] = re.sub(r":\d+:\d+: ", ":L:C: ", row["error"])
    return row


def movetext_start(game: str) -> int:
    return game.index("\n\n") + 2


def corrupted(game: str, kind: str, rng: random.Random) -> str:
    if kind == "truncated":  # within its moves: a game cut to its tags alone is no game
        return game[: rng.randrange(movetext_start(game) + 1, len(game))]  # (see below)
    if kind == "stray-line":
        lines = game.split("\n")
        first = game[: movetext_start(game)].count("\n")
        at = rng.randrange(first, len(lines))
        lines.insert(at, rng.choice(["[", "[stray", "[%clk 0:10]", "  [ e4 e5"]))
        return "\n".join(lines)
    if kind in ("brace", "paren"):
        at = rng.randrange(movetext_start(game), len(game))
        inserted = "{never closed" if kind == "brace" else "(1. d4 d5"
        return game[:at] + inserted + game[at:]
    length = rng.randrange(1, 8)
    junk = "".join(rng.choice(GARBAGE) for _ in range(length))
    starts = {0} | {m.end() for m in re.finditer("\n[ \t]*", game)}
    places = [i for i in range(len(game)) if i not in starts]
    at = rng.choice(places)
    return game[:at] + junk + game[at:]


@settings(
    max_examples=budget(40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    st.lists(st.integers(0, 12), min_size=2, max_size=5),
    st.integers(0, 4),
    st.sampled_from(["brace", "paren", "stray-line", "garbage", "truncated"]),
    st.integers(0, 2**32),
)
def test_any_one_broken_game_costs_only_itself(
    picks: list[int], victim: int, kind: str, seed: int
) -> None:
    games = [pool()[i % len(pool())] for i in picks]
    victim %= len(games)
    clean = judge_source("db.pgn", text=database(games))
    assert len(clean) == len(games)
    broken_games = list(games)
    broken_games[victim] = corrupted(games[victim], kind, random.Random(seed))
    broken = judge_source("db.pgn", text=database(broken_games))
    assert len(broken) == len(games), [v.source for v in broken]
    for number, (before, after) in enumerate(zip(clean, broken, strict=True)):
        assert after.source == f"db.pgn#{number + 1}"
        if number == victim:
            continue
        assert after.log is not None and after.log.tag("GameId") == str(number)
        assert comparable(after) == comparable(before), number


def test_a_game_cut_to_its_tags_reads_with_the_next_game_as_python_chess_reads_it() -> None:
    """Tags, a blank line, then the next game's tags: the first game had no moves, and the
    reader, as python-chess's, takes both tag sections as one game's, so a game cut right
    after its tags is not a game of its own. gcadj keeps every tag in order (its `tag` gives
    a name's first value, where python-chess keeps the last)."""
    import chess.pgn

    text = '[Event "A"]\n[White "x"]\n\n[Event "B"]\n[White "y"]\n\n1. e4 e5 *\n'
    stream = io.StringIO(text)
    theirs = []
    while (game := chess.pgn.read_game(stream)) is not None:
        theirs.append((game.headers["Event"], game.end().ply()))
    (ours,) = judge_source("db.pgn", text=text)
    assert ours.log is not None and theirs == [("B", ours.plies)] and ours.plies == 2
    assert ours.log.tags == (("Event", "A"), ("White", "x"), ("Event", "B"), ("White", "y"))
