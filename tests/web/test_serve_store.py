"""The store of `gcadj serve`'s results (a real SQLite file in the test's folder): what is
kept comes back, from many threads at once; it is bounded; it expires; a damaged, foreign
or unwritable data folder is a clear error at start-up, from the CLI too (exit 6)."""

from __future__ import annotations

import os
import secrets
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest
from conftest import FIXTURES, GCADJ, ROOT

from gcadj.app.exit_codes import EXIT_CANNOT_WRITE
from gcadj.app.pipeline import judge_source
from gcadj.errors import StoreError
from gcadj.web.check_work import read_view, stored_view
from gcadj.web.store import DONE, INTERRUPTED, ResultStore, StoredGame

EX5 = FIXTURES / "examples" / "ex5_syntax_variants.txt"
MB = 1000 * 1000


def opened(folder: Path, *, keep_days: float = 30, max_bytes: int = 100 * MB) -> ResultStore:
    return ResultStore.open(folder, keep_days=keep_days, max_bytes=max_bytes)


def game_of(n: int, text: str = "P e2-e4\np e7-e5\n") -> StoredGame:
    (verdict,) = judge_source(f"g{n}.txt", text=text)
    return StoredGame(n, verdict.source, verdict.json_line(), stored_view(verdict, fen=None))


def test_a_result_comes_back_as_it_was_kept_after_the_store_is_opened_again(
    tmp_path: Path,
) -> None:
    store = opened(tmp_path / "data")
    text = EX5.read_text("utf-8")
    rid, token = store.create("ex5.txt", "ex5", {"pocket_file": "", "all": "1"}, text)
    (verdict,) = judge_source("ex5.txt", text=text)
    game = StoredGame(1, "ex5.txt", verdict.json_line(), stored_view(verdict, fen=None))
    store.add_games(rid, [game])
    store.finish(rid)
    store.close()
    again = opened(tmp_path / "data")  # a restart
    result = again.get(rid)
    assert result is not None and result.state == DONE and result.games == 1
    assert (result.name, result.stem, result.text) == ("ex5.txt", "ex5", text)
    assert result.options == {"pocket_file": "", "all": "1"}
    assert result.owned_by(token) and not result.owned_by("guess") and not result.owned_by(None)
    kept = again.game(rid, 1)
    assert kept is not None and kept.record() == verdict.to_json()
    assert kept.view is not None
    view, downloads = read_view(kept.view)
    assert view.steps[view.initial].fen == verdict.first_illegal.fen_before  # type: ignore[union-attr]
    assert [label for label, _, _ in downloads][:2] == ["Download PGN", "Download Game Courier log"]
    assert list(again.lines(rid)) == [verdict.json_line()]
    assert (tmp_path / "data").stat().st_mode & 0o077 == 0  # private
    again.close()


def test_a_check_running_when_the_server_stopped_is_marked_interrupted(tmp_path: Path) -> None:
    store = opened(tmp_path)
    rid, _ = store.create("a.zip", "a", {}, None)
    store.add_games(rid, [game_of(1)])
    store.close()
    result = opened(tmp_path).get(rid)
    assert result is not None and result.state == INTERRUPTED and result.games == 1


def test_many_threads_write_and_read_at_once(tmp_path: Path) -> None:
    """Checks writing their games while pages are read: every game kept, in order, each
    result whole; no "database is locked" reaches a caller."""
    store = opened(tmp_path)
    games = [game_of(n) for n in range(1, 4)]
    results: list[str] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def check() -> None:
        try:
            rid, _ = store.create("c", "c", {}, None)
            for n in range(1, 31):
                store.add_games(rid, [StoredGame(n, f"s{n}", games[n % 3].line, games[n % 3].view)])
            store.finish(rid)
            with lock:
                results.append(rid)
        except BaseException as err:
            errors.append(err)

    def read() -> None:
        try:
            for _ in range(60):
                with lock:
                    known = list(results)
                for rid in known:
                    assert store.get(rid) is not None
                    assert len(list(store.lines(rid))) == 30
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=check) for _ in range(6)]
    threads += [threading.Thread(target=read) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == [] and len(results) == 6
    for rid in results:
        assert list(store.lines(rid)) == [games[n % 3].line for n in range(1, 31)]
        assert [store.game(rid, n).source for n in (1, 30)] == ["s1", "s30"]  # type: ignore[union-attr]


def test_the_store_is_bounded_and_the_oldest_results_go_first(tmp_path: Path) -> None:
    game = game_of(1)
    cap = 5 * (game.size + 200)
    store = opened(tmp_path, max_bytes=cap)
    made = []
    for i in range(12):
        rid, _ = store.create(f"r{i}", "r", {}, None)
        store.add_games(rid, [game])
        store.finish(rid)
        made.append(rid)
        assert store.stored_bytes() <= cap
    kept = [rid for rid in made if store.get(rid) is not None]
    assert kept == made[-len(kept) :] and 3 <= len(kept) <= 5  # the newest, in order
    big, _ = store.create("big", "big", {}, secrets.token_hex(200_000))  # alone over the cap...
    store.add_games(big, [game])
    assert store.get(big) is not None  # ...the one being written is kept whole
    assert all(store.get(rid) is None for rid in made)


def test_results_expire_after_keep_days_and_are_swept(tmp_path: Path) -> None:
    store = opened(tmp_path, keep_days=1 / 86400)  # one second
    rid, _ = store.create("old", "old", {}, None)
    store.finish(rid)
    running, _ = store.create("running", "r", {}, None)
    assert store.get(rid) is not None
    time.sleep(1.2)
    assert store.get(rid) is None  # expired: not served, even before the sweep
    assert store.sweep() == 1  # and swept; a running check never is
    with sqlite3.connect(tmp_path / "results.sqlite3") as db:
        ids = [row[0] for row in db.execute("SELECT id FROM results")]
    assert ids == [running]


def test_deleting_a_result_deletes_its_games(tmp_path: Path) -> None:
    store = opened(tmp_path)
    rid, _ = store.create("x", "x", {}, None)
    store.add_games(rid, [game_of(1), game_of(2)])
    assert store.delete(rid) and not store.delete(rid)
    assert store.get(rid) is None and store.game(rid, 1) is None
    with sqlite3.connect(tmp_path / "results.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 0


def test_a_damaged_or_foreign_file_is_refused_with_what_to_do(tmp_path: Path) -> None:
    (tmp_path / "results.sqlite3").write_bytes(b"this is not a database, just bytes" * 100)
    with pytest.raises(StoreError, match=r"damaged or not a database.*--data another folder"):
        opened(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    with sqlite3.connect(other / "results.sqlite3") as db:
        db.execute("CREATE TABLE notes (body TEXT)")
    with pytest.raises(StoreError, match="not gcadj's store of results"):
        opened(other)


def test_a_second_server_on_the_same_folder_is_refused(tmp_path: Path) -> None:
    first = opened(tmp_path)
    try:
        with pytest.raises(StoreError, match="another gcadj serve is using"):
            opened(tmp_path)
    finally:
        first.close()
    opened(tmp_path).close()  # free again once the first has stopped


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_folder_is_refused(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    with pytest.raises(StoreError, match="cannot"):
        opened(locked / "data")


def serve(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GCADJ, "serve", "--port", "0", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        timeout=120,
        check=False,
    )


def test_the_cli_says_why_it_cannot_use_the_data_folder_and_exits_6(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "results.sqlite3").write_bytes(b"\0garbage" * 1000)
    done = serve("--data", str(damaged))
    assert done.returncode == EXIT_CANNOT_WRITE
    assert done.stderr.startswith(f"gcadj serve: {damaged / 'results.sqlite3'} is damaged")
    assert "Traceback" not in done.stderr and done.stdout == ""  # nothing listened
    taken = tmp_path / "taken"  # its database's name is taken by a folder: cannot be written
    (taken / "results.sqlite3").mkdir(parents=True)
    done = serve("--data", str(taken))
    assert done.returncode == EXIT_CANNOT_WRITE
    assert done.stderr.strip() == (
        f"gcadj serve: cannot write in the data folder {taken}: Is a directory"
    )
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    done = serve("--data", str(a_file / "data"))
    assert done.returncode == EXIT_CANNOT_WRITE
    assert "gcadj serve: cannot make the data folder" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_result_no_check_holds_is_ended_and_then_counts_as_any_other(tmp_path: Path) -> None:
    """Results left running by no check (a client that hung up, a server that failed to
    end them) are marked interrupted by the sweep; a running one that a check holds is
    not. Once ended they are evicted oldest first, like any other, instead of pushing
    newer results out of the store."""
    game = game_of(1)
    store = opened(tmp_path, max_bytes=5 * game.size + 100)  # room for 5 results of one game
    stranded = []
    for i in range(3):
        rid, _ = store.create(f"stranded {i}", "s", {}, None)
        store.add_games(rid, [game])
        stranded.append(rid)
    live, _ = store.create("live", "l", {}, None)
    assert store.end_stranded({live}, time.time() + 1) == 3
    assert [store.get(rid).state for rid in stranded] == [INTERRUPTED] * 3  # type: ignore[union-attr]
    assert store.get(live).state == "running"  # type: ignore[union-attr]
    assert store.end_stranded({live}, time.time() + 1) == 0  # ended once
    assert store.end_stranded(set(), 0.0) == 0  # none made before then: none stranded
    newer = []
    for i in range(4):
        rid, _ = store.create(f"new {i}", "n", {}, None)
        store.add_games(rid, [game])
        store.finish(rid)
        newer.append(rid)
    assert all(store.get(rid) is not None for rid in newer)  # the stranded ones went first
    assert store.get(stranded[0]) is None and store.get(stranded[1]) is None


def test_a_kept_text_that_cannot_be_read_back_is_a_store_error(tmp_path: Path) -> None:
    store = opened(tmp_path)
    rid, _ = store.create("x", "x", {}, "P e2-e4\n")
    store.finish(rid, report="<html></html>", csv="a,b\n")
    with sqlite3.connect(tmp_path / "results.sqlite3") as db:
        db.execute("UPDATE results SET report = ?, text = ? WHERE id = ?", (b"\0" * 40, b"x", rid))
    with pytest.raises(StoreError, match="damaged: a kept text is unreadable"):
        store.products(rid)
    with pytest.raises(StoreError, match="damaged"):
        store.get(rid)


def test_ids_and_game_numbers_are_checked_before_the_database() -> None:
    from gcadj.web.store import is_game_number, is_result_id

    assert is_result_id(secrets.token_urlsafe(18))
    for bad in ("", "x" * 23, "x" * 25, "a" * 23 + "!", "a" * 23 + "\0", "п" * 24):
        assert not is_result_id(bad)
    assert is_game_number(1) and is_game_number(2**31 - 1)
    assert not any(is_game_number(n) for n in (0, -1, 2**31, 2**63, 10**23))
