"""`gcadj serve`'s one concurrency rule, its one way of refusing, and its options read once.

- The handlers await what the threads hand them (`gcadj.web.handoff`): a check's end
  and its JSON lines wake the waiting coroutine once each, never a loop of timed polls;
  counted as wake-ups (`Signal.wakeups`, `Handoff.wakeups`), never timed.
- A refusal raised deep in a handler (`gcadj.errors.Refused`) comes out of the one
  handler with its status, headers and words: a line of text for the API, a page for a
  browser.
- Every option of ``gcadj serve`` reaches the running server's settings.
"""

from __future__ import annotations

import asyncio
import html
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
import typer
from conftest import FIXTURES
from serving import Server, request_from, running_server, stalled, wait_for

from gcadj.app.pipeline import JudgeOptions, judge_source
from gcadj.app.pool import HANG_ENV
from gcadj.web.handoff import Handoff, Signal

EXAMPLES = FIXTURES / "examples"
LOGS = sorted((FIXTURES / "logs").rglob("*.txt"))[:12]

# -- the primitives: a thread wakes the loop, once -------------------------------------------


def test_a_signal_set_by_a_thread_wakes_each_waiting_coroutine_exactly_once() -> None:
    signal = Signal()
    waiting = threading.Event()
    thread = threading.Thread(target=lambda: (waiting.wait(60), signal.set()))
    thread.start()

    async def main() -> list[bool]:
        waiters = [asyncio.ensure_future(signal.wait()) for _ in range(50)]
        asyncio.get_running_loop().call_soon(waiting.set)  # once all of them sleep
        return list(await asyncio.gather(*waiters))

    assert asyncio.run(main()) == [True] * 50
    thread.join(60)
    assert signal.wakeups == 50  # one wake-up each: nobody looked again in between


def test_a_signal_already_set_is_not_waited_for_and_one_never_set_times_out() -> None:
    done, never = Signal(), Signal()
    done.set()

    async def main() -> tuple[bool, bool]:
        return await done.wait(), await never.wait(timeout=0.01)

    assert asyncio.run(main()) == (True, False)
    assert done.wakeups == never.wakeups == 0
    assert done.wait_blocking(0) and not never.wait_blocking(0)


def test_a_handoff_delivers_every_item_in_order_waking_only_when_one_came() -> None:
    handoff: Handoff[int | None] = Handoff()
    count = 2000

    def produce() -> None:
        for i in range(count):
            handoff.put(i)
        handoff.put(None)

    async def main() -> list[int]:
        got: list[int] = []
        thread = threading.Thread(target=produce)
        thread.start()
        while (item := await handoff.get()) is not None:
            got.append(item)
        thread.join(60)
        return got

    assert asyncio.run(main()) == list(range(count))
    assert handoff.wakeups <= count + 1  # each wake-up had an item waiting for it


# -- the real runner: many tiny checks, each awaited ------------------------------------------


def test_many_tiny_checks_are_awaited_to_their_end_and_their_lines(tmp_path: Path) -> None:
    """A real `JobRunner` (its worker process, its store): each check's end wakes the
    coroutine that awaits it at most once, and its lines come in order, ending, as the
    pipeline judges the same texts."""
    from gcadj.web.jobs import JobRunner
    from gcadj.web.limits import ServeSettings
    from gcadj.web.store import ResultStore
    from gcadj.web.uploads import Upload

    store = ResultStore.open(tmp_path / "data", keep_days=1, max_bytes=100_000_000)
    runner = JobRunner(ServeSettings(workers=1, data=str(tmp_path / "data")), store)
    texts = [path.read_bytes() for path in LOGS]
    expected = [
        [v.json_line() for v in judge_source(path.name, JudgeOptions(), text=text.decode())]
        for path, text in zip(LOGS, texts, strict=True)
    ]

    async def one(name: str, text: bytes) -> tuple[list[str], int, int]:
        job, _ = await asyncio.to_thread(
            runner.submit, [Upload(name, text)], [], JudgeOptions(), api=True, adjudicate=False
        )

        async def read() -> list[str]:
            lines = []
            while (line := await job.lines.get()) is not None:
                lines.append(line)
            return lines

        ended, lines = await asyncio.gather(job.finished.wait(), read())
        assert ended
        return lines, job.finished.wakeups, job.lines.wakeups

    async def main() -> list[tuple[list[str], int, int]]:
        return [await one(path.name, text) for path, text in zip(LOGS, texts, strict=True)]

    try:
        answers = asyncio.run(main())
    finally:
        runner.shutdown()
        store.close()
    assert [lines for lines, _, _ in answers] == expected
    for lines, ended, handed in answers:
        assert ended <= 1  # woken by the end itself, once (0: it had ended already)
        assert handed <= len(lines) + 1  # woken only by a line (or the end) handed over


# -- one way to refuse -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("serve-refusals")
    flags = ("--max-upload", "1", "--jobs", "1", "--client-checks", "1", "--keep", "3")
    with running_server(tmp, *flags, env={HANG_ENV: "stall"}) as s:
        yield s


def is_page(answer_type: str) -> bool:
    return answer_type.startswith("text/html")


def test_a_413_found_while_reading_is_a_line_for_the_api_and_a_page_for_a_browser(
    server: Server,
) -> None:
    big = b"P e2-e4\n" * 200_000  # 1.6 MB: over the 1 MB limit
    words = "larger than this server's limit of 1 MB per check"
    chunks = (big[i : i + 65536] for i in range(0, len(big), 65536))  # found as it streams
    api = requests.post(server.url + "api/check", data=chunks, timeout=60)
    assert (api.status_code, api.headers["connection"]) == (413, "close")
    assert api.headers["content-type"].startswith("text/plain")
    assert api.text == f"refused: the upload is {words}; send fewer files at once, or zip them\n"
    page = requests.post(server.url + "check", files=[("file", ("big.txt", big))], timeout=60)
    assert (page.status_code, page.headers["connection"]) == (413, "close")
    assert is_page(page.headers["content-type"])
    assert "<h1>Too large</h1>" in page.text
    assert f"Refused: the upload is {words}" in html.unescape(page.text)
    assert "content-security-policy" in page.headers  # the guard's headers on a refusal too


def test_a_400_raised_by_the_options_is_the_form_again_or_a_line(server: Server) -> None:
    api = requests.post(server.url + "api/check?pocket_file=7", data=b"P e2-e4\n", timeout=60)
    assert api.status_code == 400 and api.text.startswith("pocket_file must be ")
    assert api.text.count("\n") == 1
    page = requests.post(
        server.url + "check", data={"text": "P e2-e4\n", "pocket_file": "7"}, timeout=60
    )
    assert page.status_code == 400 and is_page(page.headers["content-type"])
    assert api.text.strip()[:1].upper() + api.text.strip()[1:] in html.unescape(page.text)
    assert 'name="text"' in page.text  # the form, to send again


def test_a_404_says_how_long_results_are_kept_on_a_page_and_only_what_on_the_api(
    server: Server,
) -> None:
    page = requests.get(server.url + "r/" + "a" * 22, timeout=60)
    assert page.status_code == 404 and is_page(page.headers["content-type"])
    assert "No such result. A result is kept 3 days after its check" in page.text
    missing = requests.get(server.url + "api/nothing", timeout=60)
    assert missing.status_code == 404 and missing.text == "Not Found\n"


def test_a_503_of_the_clients_share_closes_and_says_busy_in_both_shapes(server: Server) -> None:
    check = stalled(server, source="127.0.0.9")  # holds the one check of 127.0.0.9
    try:
        api = request_from(
            server,
            "POST",
            "/api/check",
            b"P e2-e4\n",
            {"content-type": "text/plain"},
            source="127.0.0.9",
        )
        form = request_from(
            server,
            "POST",
            "/check",
            b"text=P+e2-e4",
            {"content-type": "application/x-www-form-urlencoded"},
            source="127.0.0.9",
        )
    finally:
        check.close()
    words = "you have 1 checks running or waiting, the most this server takes from one client"
    assert (api.status, api.headers["connection"]) == (503, "close")
    assert api.text.startswith(f"busy: {words}") and api.text.endswith("\n")
    assert (form.status, form.headers["connection"]) == (503, "close")
    assert "<h1>Busy</h1>" in form.text and f"Busy: {words}" in form.text


def test_deleting_anothers_result_is_refused_with_a_page_of_its_own(server: Server) -> None:
    made = requests.post(server.url + "check", data={"text": "P e2-e4\n"}, timeout=120)
    assert made.status_code == 200 and "/r/" in made.url
    stranger = requests.post(made.url + "/delete", timeout=60)  # no owner's cookie
    assert stranger.status_code == 403 and "<h1>Not yours</h1>" in stranger.text
    assert "Only the browser that made this result can delete it" in stranger.text


# -- the options, read once ------------------------------------------------------------------

MB, KB = 1_000_000, 1000
CHANGED: dict[str, tuple[list[str], dict[str, object]]] = {
    # option's parameter: (its arguments, the settings it must give)
    "host": (["--host", "127.0.0.2"], {"host": "127.0.0.2"}),
    "max_upload": (["--max-upload", "3"], {"max_body": 3 * MB}),
    "zip_max_mb": (["--zip-max-mb", "7"], {"zip_max_total": 7 * MB}),
    "zip_max_files": (["--zip-max-files", "11"], {"zip_max_files": 11}),
    "zip_max_ratio": (["--zip-max-ratio", "13"], {"zip_max_ratio": 13}),
    "jobs": (["--jobs", "1"], {"workers": 1}),
    "source_timeout": (["--source-timeout", "17"], {"source_timeout": 17.0}),
    "memory": (["--memory", "1500"], {"worker_memory": 1500 * MB}),
    "job_timeout": (["--job-timeout", "19"], {"job_timeout": 19.0}),
    "keep": (["--keep", "0.5"], {"keep_days": 0.5}),
    "data": (["--data", "DATA"], {"data": "DATA"}),
    "max_store": (["--max-store", "23"], {"max_store": 23 * MB}),
    "adjudicate_budget": (["--adjudicate-budget", "0.25"], {"adjudicate_budget": 0.25}),
    "public_urls_only": (["--any-urls"], {"public_urls_only": False}),
    "allowed_host": (
        ["--allowed-host", "a.example", "--allowed-host", "b.example"],
        {"allowed_hosts": ["a.example", "b.example"]},
    ),
    "max_buffer": (["--max-buffer", "29"], {"max_buffer": 29 * MB}),
    "client_timeout": (["--client-timeout", "31"], {"client_timeout": 31.0}),
    "min_upload_rate": (["--min-upload-rate", "2.5"], {"min_upload_rate": 2500}),
    "body_timeout": (["--body-timeout", "37"], {"body_timeout": 37.0}),
    "trust_proxy": (["--trust-proxy"], {"trust_proxy": True}),
    "client_connections": (["--client-connections", "41"], {"client_connections": 41}),
    "client_requests": (["--client-requests", "43"], {"client_requests": 43}),
    "client_buffer": (["--client-buffer", "3"], {"client_buffer": 3 * MB}),
    "client_checks": (["--client-checks", "47"], {"client_checks": 47}),
    "adjudicate_share": (["--adjudicate-share", "0.75"], {"adjudicate_share": 0.75}),
}


def serve_command() -> typer.core.TyperCommand:
    from gcadj.cli.main import app

    command = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    return command  # type: ignore[no-any-return]


def test_every_option_changed_reaches_the_running_servers_settings(tmp_path: Path) -> None:
    from gcadj.web.limits import ServeSettings
    from gcadj.web.serve import SETTINGS_ENV, SETTINGS_LINE

    options = {param.name for param in serve_command().params}
    # --port is the test's own (0: any free one), --open would start a browser
    assert set(CHANGED) == options - {"port", "open_browser"}
    data = tmp_path / "data"
    arguments = [a.replace("DATA", str(data)) for args, _ in CHANGED.values() for a in args]
    with running_server(tmp_path, *arguments, env={SETTINGS_ENV: "1"}) as server:
        said = wait_for(
            lambda: next((x for x in server.log if x.startswith(SETTINGS_LINE)), None), 60
        )
    settings = json.loads(said.removeprefix(SETTINGS_LINE))
    default = ServeSettings()
    assert settings["port"] == server.port
    for _, wanted in CHANGED.values():
        for name, value in wanted.items():
            value = str(data) if value == "DATA" else value
            assert settings[name] == value, name
            assert getattr(default, name) != (tuple(value) if isinstance(value, list) else value)


def test_open_is_read_with_the_rest() -> None:
    from gcadj.cli.serve import serve_run_of

    command = serve_command()
    assert serve_run_of(**command.make_context("serve", ["--open"]).params).open_browser
    assert not serve_run_of(**command.make_context("serve", []).params).open_browser
