"""Downloading through the cache, against a loopback HTTP server that misbehaves on purpose.

The server (stdlib ``http.server`` on 127.0.0.1, an ephemeral port, a daemon thread that a
watchdog stops after 60 s at the latest) serves the repository's own fixture logs. Each test
scripts, per game id, what the server does on the 1st, 2nd, ... request (the last action
repeats). Time is faked (``sleep`` records and advances a fake clock), so backoff and polite
pauses cost nothing and their lengths can be asserted exactly; only the read-timeout cases wait
for real, half a second per attempt.
"""

from __future__ import annotations

import functools
import gzip
import os
import socket
import subprocess
import sys
import threading
import time
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Self

import pytest
from click.testing import CliRunner

from tenhou_tools import __version__
from tenhou_tools.cli import cli, download_cmd, progress
from tenhou_tools.errors import DownloadError, InputError
from tenhou_tools.ids import JST
from tenhou_tools.mjlog import parse_game
from tenhou_tools.mjlog.read import MAX_BYTES
from tenhou_tools.sources import cache as cache_mod
from tenhou_tools.sources.cache import (
    ExportConflict,
    LogCache,
    default_cache_dir,
    export_log,
    write_atomic,
)
from tenhou_tools.sources.http import (
    DEFAULT_BASE_URL,
    DEFAULT_RETRIES,
    REFUSED_BACKOFF,
    LogFetcher,
    NotFound,
    NotServed,
    StopDownloads,
    check_mjlog,
    default_user_agent,
    log_url,
    normalize_base_url,
    not_found_error,
    parse_retry_after,
    resolve_base_url,
)
from tenhou_tools.sources.logstore import NotServedRecord

from .conftest import FIXTURES, REPO

ONE_HAND = (FIXTURES / "one_hand.xml").read_bytes()
SANMA = (FIXTURES / "sanma_kita.xml").read_bytes()
SLOW_SECONDS = 1.5
READ_TIMEOUT = 0.5


def gid(n: int, sanma: bool = False) -> str:
    """A game id whose type part matches the fixture served for it (169 = 0x00a9, 185 = 0x00b9)."""
    return f"2014102312gm-{'00b9' if sanma else '00a9'}-0000-{n:08x}"


def recent_gid(n: int) -> str:
    """A 4-player id of a game that started this hour (Japan time): a 404 may mean it still runs."""
    return f"{datetime.now(JST):%Y%m%d%H}gm-00a9-0000-{n:08x}"


NOT_SERVED = "no longer served by tenhou.net (HTTP 404 from {host}; since about 2026-04 it answers 404 for most games of 2010-2025)"
IN_PROGRESS = "not found on {host} (HTTP 404): the game may still be in progress, or the id is wrong"


# -- the loopback server -----------------------------------------------------------------------


class Loopback:
    """A scripted mjlog server on 127.0.0.1. ``serve(id, body, *actions)`` sets the script."""

    def __init__(self) -> None:
        self.scripts: dict[str, tuple[bytes, tuple[str, ...]]] = {}
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.guard = threading.Lock()
        self.inflight = 0
        self.max_inflight = 0
        self.holding = threading.Event()
        self.release = threading.Event()
        self.stopping = threading.Event()
        self.httpd: ThreadingHTTPServer | None = None

    def serve(self, log_id: str, body: bytes, *actions: str) -> None:
        self.scripts[log_id] = (body, actions or ("ok",))

    def count(self, log_id: str) -> int:
        return sum(1 for path, _ in self.requests if path == f"/0/log/?{log_id}")

    @property
    def url(self) -> str:
        assert self.httpd is not None
        return f"http://127.0.0.1:{self.httpd.server_port}"

    @property
    def host(self) -> str:
        return self.url.removeprefix("http://")

    def __enter__(self) -> Self:
        app = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            timeout = 10

            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                with app.guard:
                    app.requests.append((self.path, dict(self.headers.items())))
                    app.inflight += 1
                    app.max_inflight = max(app.max_inflight, app.inflight)
                    log_id = self.path.partition("?")[2]
                    n = app.count(log_id) - 1
                try:
                    if not self.path.startswith("/0/log/?") or log_id not in app.scripts:
                        return self.reply(404, b"no such log", "text/plain")
                    body, actions = app.scripts[log_id]
                    app_action = actions[min(n, len(actions) - 1)]
                    self.act(app_action, body)
                finally:
                    with app.guard:
                        app.inflight -= 1

            def reply(self, status, body, ctype="text/xml", headers=()):
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                for key, value in headers:
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body)

            def act(self, action, body):
                name, _, arg = action.partition(":")
                if name == "ok":
                    return self.reply(200, body)
                if name == "gzipfile":  # the log itself gzip-compressed, like a .mjlog file
                    return self.reply(200, gzip.compress(body), "application/octet-stream")
                if name == "gzipencoding":  # HTTP compression, undone by requests
                    return self.reply(200, gzip.compress(body), "text/xml", [("Content-Encoding", "gzip")])
                if name == "status":
                    return self.reply(int(arg), b"error", "text/plain")
                if name == "retryafter":  # e.g. retryafter:429:7
                    status, seconds = arg.split(":")
                    return self.reply(int(status), b"slow down", "text/plain", [("Retry-After", seconds)])
                if name == "slow":
                    app.stopping.wait(SLOW_SECONDS)
                    return self.reply(200, body)
                if name == "html":
                    page = b"<!DOCTYPE html><html><head><title>Error</title></head><body>Not found</body></html>"
                    return self.reply(200, page, "text/html; charset=utf-8")
                if name == "truncated":
                    return self.reply(200, body[: len(body) * 2 // 3])
                if name == "empty":
                    return self.reply(200, b"")
                if name == "drop":  # announce the whole body, send half, hang up
                    self.send_response(200)
                    self.send_header("Content-Type", "text/xml")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body[: len(body) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return None
                if name == "hold":  # keep the request open until the test releases it
                    app.holding.set()
                    app.release.wait(10)
                    return self.reply(200, body)
                if name == "redirect":
                    return self.reply(302, b"", "text/plain", [("Location", "http://example.invalid/x")])
                if name == "huge":
                    return self.reply(200, b"<" * (MAX_BYTES + 1))
                raise AssertionError(f"unknown action {action}")

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):  # a client that gave up: fine
                pass

        self.httpd = Server(("127.0.0.1", 0), Handler)
        thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        thread.start()
        self.watchdog = threading.Timer(60, self.stop)
        self.watchdog.daemon = True
        self.watchdog.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.release.set()
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()

    def __exit__(self, *exc) -> None:
        self.watchdog.cancel()
        self.stop()


class FakeTime:
    """An injected clock: ``sleep`` records the pause and moves the clock; nothing waits."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(round(seconds, 6))
        self.now += seconds

    def clock(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch, tmp_path):
    """No proxy between us and 127.0.0.1, no user settings, no writes to the real cache."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy",
                 "TENHOU_TOOLS_BASE_URL", "TENHOU_TOOLS_CACHE_DIR"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))


@pytest.fixture
def server():
    with Loopback() as srv:
        yield srv


@pytest.fixture
def fake():
    return FakeTime()


@pytest.fixture
def cache_dir(tmp_path) -> Path:
    return tmp_path / "cache"


def make_fetcher(cache_dir: Path, server: Loopback, fake: FakeTime, **options) -> LogFetcher:
    settings = {
        "timeout": (READ_TIMEOUT, READ_TIMEOUT), "min_interval": 0.0, "jitter": 0.0,
        "lock_timeout": 1.0, "sleep": fake.sleep, "clock": fake.clock,
    }  # fmt: skip
    settings.update(options)
    return LogFetcher(cache_dir, server.url, **settings)


def leftovers(cache_dir: Path) -> list[str]:
    """Everything in the cache directory except the lock file (temporary files included)."""
    if not cache_dir.exists():
        return []
    return sorted(name for name in os.listdir(cache_dir) if name != "download.lock")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# -- success, the cache, politeness ------------------------------------------------------------


def test_download_stores_a_gzip_log_under_its_id(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND)
    with make_fetcher(cache_dir, server, fake) as fetcher:
        result = fetcher.fetch_result(gid(1))
    assert result.downloaded and result.log_id == gid(1)
    assert result.path == cache_dir / f"{gid(1)}.mjlog"
    stored = result.path.read_bytes()
    assert stored[:2] == b"\x1f\x8b" and gzip.decompress(stored) == ONE_HAND
    assert parse_game(stored).hands  # the parser reads the cached file as it is
    assert leftovers(cache_dir) == [f"{gid(1)}.mjlog"]
    (path, headers), = server.requests
    assert path == f"/0/log/?{gid(1)}"
    assert headers["User-Agent"] == default_user_agent()
    assert headers["User-Agent"].startswith(f"tenhou-tools/{__version__} (")


def test_three_player_fixture_and_gzip_bodies(server, fake, cache_dir):
    server.serve(gid(1, sanma=True), SANMA)
    server.serve(gid(2), ONE_HAND, "gzipfile")
    server.serve(gid(3), ONE_HAND, "gzipencoding")
    with make_fetcher(cache_dir, server, fake) as fetcher:
        for n, body in ((1, SANMA), (2, ONE_HAND), (3, ONE_HAND)):
            log_id = gid(n, sanma=n == 1)
            assert gzip.decompress(fetcher.fetch_bytes(log_id)) == body


def test_user_agent_can_be_overridden(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND)
    with make_fetcher(cache_dir, server, fake, user_agent="my-review-script/2") as fetcher:
        fetcher.fetch(gid(1))
    assert server.requests[0][1]["User-Agent"] == "my-review-script/2"
    with pytest.raises(InputError, match="one non-empty line"):
        make_fetcher(cache_dir, server, fake, user_agent="a\r\nX-Evil: 1")


def test_a_cached_id_is_never_downloaded_again(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND)
    with make_fetcher(cache_dir, server, fake) as fetcher:
        first = fetcher.fetch_result(gid(1))
        again = fetcher.fetch_result(gid(1))
    with make_fetcher(cache_dir, server, fake) as second_run:
        later = second_run.fetch_result(gid(1))
        assert second_run.requests_made == 0
    assert first.downloaded and not again.downloaded and not later.downloaded
    assert first.path == again.path == later.path
    assert server.count(gid(1)) == 1


def test_polite_pause_between_requests(server, fake, cache_dir):
    for n in (1, 2, 3):
        server.serve(gid(n), ONE_HAND)
    with make_fetcher(cache_dir, server, fake, min_interval=1.0, jitter=0.5, random=lambda: 0.5) as fetcher:
        for n in (1, 2, 3):
            fetcher.fetch(gid(n))
    # none before the first request; 1.0 + 0.5 * 0.5 before each later one (the fake clock
    # does not move during a request)
    assert fake.sleeps == [1.25, 1.25]
    assert server.max_inflight == 1


def test_requests_are_strictly_sequential(server, fake, cache_dir):
    for n in range(1, 6):
        server.serve(gid(n), ONE_HAND)
    with make_fetcher(cache_dir, server, fake) as fetcher:
        for n in range(1, 6):
            fetcher.fetch(gid(n))
    assert server.max_inflight == 1 and len(server.requests) == 5


# -- retries -----------------------------------------------------------------------------------


def test_500_then_success_is_retried_with_backoff(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND, "status:500", "status:503", "ok")
    with make_fetcher(cache_dir, server, fake) as fetcher:
        assert fetcher.fetch_result(gid(1)).downloaded
        assert fetcher.requests_made == 3
    assert fake.sleeps == [2.0, 4.0]  # backoff 2 * 2 ** (n - 1)


def test_500_forever_gives_up_after_the_retries(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND, "status:500")
    with make_fetcher(cache_dir, server, fake) as fetcher, pytest.raises(DownloadError) as err:
        fetcher.fetch(gid(1))
    assert str(err.value) == f"{gid(1)}: server error HTTP 500 from {server.host}, after 4 attempts"
    assert not isinstance(err.value, StopDownloads)
    assert server.count(gid(1)) == 4 and fake.sleeps == [2.0, 4.0, 8.0]
    assert leftovers(cache_dir) == []


def test_backoff_is_capped(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND, "status:502")
    fetcher = make_fetcher(cache_dir, server, fake, retries=5, backoff=10, backoff_max=25)
    with fetcher, pytest.raises(DownloadError):
        fetcher.fetch(gid(1))
    assert fake.sleeps == [10.0, 20.0, 25.0, 25.0, 25.0]


def test_slow_response_past_the_read_timeout_is_retried(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND, "slow", "ok")
    with make_fetcher(cache_dir, server, fake) as fetcher:
        assert fetcher.fetch_result(gid(1)).downloaded
    assert server.count(gid(1)) == 2


def test_slow_response_forever_is_a_clear_error(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND, "slow")
    with make_fetcher(cache_dir, server, fake, retries=1) as fetcher, pytest.raises(DownloadError) as err:
        fetcher.fetch(gid(1))
    assert str(err.value) == (
        f"{gid(1)}: no response from {server.host} within {READ_TIMEOUT:g} s (read timeout), "
        "after 2 attempts"
    )
    assert leftovers(cache_dir) == []


def test_429_with_retry_after_is_honoured(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND, "retryafter:429:7", "ok")
    with make_fetcher(cache_dir, server, fake) as fetcher:
        fetcher.fetch(gid(1))
    assert fake.sleeps == [7.0]  # the server's 7 s, longer than the first backoff (2 s)


def test_503_with_a_short_retry_after_uses_the_backoff(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND, "retryafter:503:1", "ok")
    with make_fetcher(cache_dir, server, fake) as fetcher:
        fetcher.fetch(gid(1))
    assert fake.sleeps == [2.0]


def test_retry_after_over_the_cap_stops_instead_of_waiting(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND, "retryafter:429:99999")
    with make_fetcher(cache_dir, server, fake) as fetcher, pytest.raises(StopDownloads) as err:
        fetcher.fetch(gid(1))
    assert str(err.value) == (
        f"{gid(1)}: {server.host} asks to wait 99999 s before trying again (HTTP 429); "
        "stopping, try again later"
    )
    assert server.count(gid(1)) == 1 and fake.sleeps == []


def test_429_forever_stops_the_run(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND, "retryafter:429:1")
    with make_fetcher(cache_dir, server, fake, retries=2) as fetcher, pytest.raises(StopDownloads) as err:
        fetcher.fetch(gid(1))
    assert str(err.value) == (
        f"{gid(1)}: {server.host} is rate-limiting (HTTP 429), after 3 attempts; stopping, try again later"
    )


def test_connection_dropped_mid_body_is_retried(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND, "drop", "ok")
    with make_fetcher(cache_dir, server, fake) as fetcher:
        assert gzip.decompress(fetcher.fetch_bytes(gid(1))) == ONE_HAND
    assert server.count(gid(1)) == 2


def test_connection_dropped_every_time(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND, "drop")
    with make_fetcher(cache_dir, server, fake, retries=2) as fetcher, pytest.raises(DownloadError) as err:
        fetcher.fetch(gid(1))
    assert str(err.value) == (
        f"{gid(1)}: the connection to {server.host} dropped in the middle of the response, after 3 attempts"
    )
    assert leftovers(cache_dir) == []


def test_server_down(fake, cache_dir):
    """A refused connection (a real closed port) is tried twice, one second apart, whatever the
    retries for other failures, and stops the run: nobody is listening."""
    port = free_port()
    fetcher = LogFetcher(cache_dir, f"http://127.0.0.1:{port}", timeout=0.5, min_interval=0, jitter=0,
                         sleep=fake.sleep, clock=fake.clock)  # fmt: skip
    assert fetcher.retries == DEFAULT_RETRIES == 3
    with fetcher, pytest.raises(StopDownloads) as err:
        fetcher.fetch(gid(1))
    assert str(err.value) == (f"{gid(1)}: connection refused by 127.0.0.1:{port}, after 2 attempts: "
                              "is the server down, or the base URL wrong?")
    assert fetcher.requests_made == 2 and fake.sleeps == [REFUSED_BACKOFF] == [1.0]
    assert leftovers(cache_dir) == []


def test_an_unknown_host_says_the_machine_may_be_offline(fake, cache_dir, monkeypatch):
    """A host name that does not resolve (what an offline machine meets first) stops the run as a
    refused connection does, and the message names being offline as the likely cause."""
    import socket

    real = socket.getaddrinfo

    def no_dns(host, *args, **kwargs):
        if host == "tenhou.invalid":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    fetcher = LogFetcher(cache_dir, "http://tenhou.invalid", timeout=0.5, min_interval=0, jitter=0,
                         sleep=fake.sleep, clock=fake.clock)  # fmt: skip
    with fetcher, pytest.raises(StopDownloads) as err:
        fetcher.fetch(gid(1))
    assert str(err.value) == (f"{gid(1)}: cannot resolve the host name tenhou.invalid, after 2 attempts: "
                              "is this machine offline (no network or DNS), or the base URL wrong?")


def test_server_down_without_retries(fake, cache_dir):
    port = free_port()
    fetcher = LogFetcher(cache_dir, f"http://127.0.0.1:{port}", timeout=0.5, min_interval=0, jitter=0,
                         retries=0, sleep=fake.sleep, clock=fake.clock)  # fmt: skip
    with fetcher, pytest.raises(StopDownloads, match=r"refused by 127.0.0.1:.*wrong\?$"):
        fetcher.fetch(gid(1))
    assert fetcher.requests_made == 1 and fake.sleeps == []


# -- responses that are not a log --------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "body", "message"),
    [
        ("html", ONE_HAND, "{id}: the server sent an HTML page, not an mjlog (the id may be wrong, or the site has changed)"),
        ("empty", ONE_HAND, "{id}: the server sent an empty response (is the id right?)"),
        ("status:404", ONE_HAND, "{id}: " + NOT_SERVED),
        ("status:410", ONE_HAND, "{id}: unexpected HTTP 410 from {host}"),
        ("redirect", ONE_HAND, "{id}: {host} redirected to http://example.invalid/x (HTTP 302); not followed — set the base URL if the site moved"),
        ("ok", SANMA, "{id}: the server sent a different game (GO type 185, the id says 169)"),
        ("ok", b"<mjloggm ver=\"2.3\"></mjloggm>", "{id}: the response is not a complete mjlog ("),
        ("truncated", ONE_HAND, "{id}: the response is not a complete mjlog ("),
        ("huge", ONE_HAND, f"{{id}}: the response is larger than the {MAX_BYTES}-byte limit"),
    ],
)  # fmt: skip
def test_bad_responses_are_errors_and_never_cached(server, fake, cache_dir, action, body, message):
    server.serve(gid(1), body, action)
    with make_fetcher(cache_dir, server, fake) as fetcher, pytest.raises(DownloadError) as err:
        fetcher.fetch(gid(1))
    text = str(err.value)
    expected = message.format(id=gid(1), host=server.host)
    assert text == expected if not expected.endswith("(") else text.startswith(expected) and text.endswith(")")
    assert "\n" not in text and not isinstance(err.value, StopDownloads)
    assert server.count(gid(1)) == 1  # a bad answer is not retried
    assert leftovers(cache_dir) == []


def test_a_404_is_no_longer_served_for_a_finished_game_and_not_found_for_a_running_one(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND, "status:404")
    server.serve(recent_gid(1), ONE_HAND, "status:404")
    with make_fetcher(cache_dir, server, fake) as fetcher:
        with pytest.raises(NotServed) as old:
            fetcher.fetch(gid(1))
        with pytest.raises(NotFound) as running:
            fetcher.fetch(recent_gid(1))
    assert str(old.value) == f"{gid(1)}: " + NOT_SERVED.format(host=server.host)
    assert not isinstance(running.value, NotServed)
    assert str(running.value) == f"{recent_gid(1)}: " + IN_PROGRESS.format(host=server.host)
    assert server.count(gid(1)) == server.count(recent_gid(1)) == 1  # a 404 is never retried


def test_403_stops_the_run(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND, "status:403")
    with make_fetcher(cache_dir, server, fake) as fetcher, pytest.raises(StopDownloads) as err:
        fetcher.fetch(gid(1))
    assert str(err.value) == f"{gid(1)}: {server.host} refused the request (HTTP 403); stopping the downloads"


def test_check_mjlog_directly():
    check_mjlog(gid(1), ONE_HAND)
    check_mjlog(gid(1), gzip.compress(ONE_HAND))
    check_mjlog(gid(1, sanma=True), SANMA, "text/html")  # a real log with an odd content type
    for body in (b"", b"  \n", (FIXTURES / "not_mjlog.xml").read_bytes(), (FIXTURES / "truncated.mjlog").read_bytes()):
        with pytest.raises(DownloadError):
            check_mjlog(gid(1), body)


# -- ids, URLs, settings -----------------------------------------------------------------------


def test_ids_are_validated_before_any_request(server, fake, cache_dir):
    with make_fetcher(cache_dir, server, fake) as fetcher:
        for bad in ("../../etc/passwd", f"{gid(1)}/../x", f"{gid(1)}?a=b", gid(1).upper(), ""):
            with pytest.raises(InputError):
                fetcher.fetch(bad)
    assert server.requests == [] and not cache_dir.exists()
    with pytest.raises(InputError):
        log_url("https://tenhou.net", "x&y")
    assert log_url("https://tenhou.net/", gid(1)) == f"https://tenhou.net/0/log/?{gid(1)}"


def test_base_url_from_argument_environment_or_default(monkeypatch):
    assert resolve_base_url(None, {}) == DEFAULT_BASE_URL == "https://tenhou.net"
    assert resolve_base_url(None, {"TENHOU_TOOLS_BASE_URL": "http://127.0.0.1:8000/"}) == "http://127.0.0.1:8000"
    assert resolve_base_url("http://127.0.0.1:1/mirror/", {"TENHOU_TOOLS_BASE_URL": "http://x"}) == (
        "http://127.0.0.1:1/mirror"
    )
    monkeypatch.setenv("TENHOU_TOOLS_BASE_URL", "http://127.0.0.1:9")
    assert LogFetcher(Path("unused")).base_url == "http://127.0.0.1:9"
    for bad in ("tenhou.net", "ftp://tenhou.net", "http://", "https://tenhou.net/?a=b",
                "https://u:p@tenhou.net", "http://tenhou.net:99999", "http://a b", ""):  # fmt: skip
        with pytest.raises(InputError):
            normalize_base_url(bad)


def test_settings_are_checked():
    with pytest.raises(InputError, match="offline and refresh"):
        LogFetcher(Path("unused"), offline=True, refresh=True)
    with pytest.raises(InputError, match="timeout must be positive"):
        LogFetcher(Path("unused"), timeout=0)
    with pytest.raises(InputError, match="retries must not be negative"):
        LogFetcher(Path("unused"), retries=-1)


def test_default_cache_dir(tmp_path):
    home = Path.home()
    assert default_cache_dir({}) == home / ".cache" / "tenhou-tools"
    assert default_cache_dir({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "tenhou-tools"
    assert default_cache_dir({"XDG_CACHE_HOME": "relative/dir"}) == home / ".cache" / "tenhou-tools"
    assert default_cache_dir({"TENHOU_TOOLS_CACHE_DIR": str(tmp_path / "c"), "XDG_CACHE_HOME": "/x"}) == tmp_path / "c"
    assert LogCache().root == Path(os.environ["XDG_CACHE_HOME"]) / "tenhou-tools"


def test_parse_retry_after():
    assert parse_retry_after(None) is None
    assert parse_retry_after("120") == 120.0
    assert parse_retry_after(" 3 ") == 3.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412490.0) == 0.0
    for junk in ("soon", "-5", "1.5", "٣", "9" * 20):
        assert parse_retry_after(junk) is None


# -- offline and refresh -----------------------------------------------------------------------


def test_offline_uses_the_cache_only(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND)
    with make_fetcher(cache_dir, server, fake) as fetcher:
        fetcher.fetch(gid(1))
    with LogFetcher(cache_dir, offline=True) as offline:
        assert offline.fetch(gid(1)) == cache_dir / f"{gid(1)}.mjlog"
        with pytest.raises(DownloadError) as err:
            offline.fetch(gid(2))
    assert str(err.value) == f"{gid(2)}: not in the cache ({cache_dir}) and offline mode does not download"
    assert len(server.requests) == 1


def test_offline_with_an_empty_cache(cache_dir):
    with LogFetcher(cache_dir, offline=True) as offline, pytest.raises(DownloadError, match="not in the cache"):
        offline.fetch(gid(1))
    assert not cache_dir.exists()


def test_refresh_downloads_again_and_keeps_the_old_copy_on_failure(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND, "ok", "ok", "status:404")
    with make_fetcher(cache_dir, server, fake) as fetcher:
        path = fetcher.fetch(gid(1))
    before = path.read_bytes()
    with make_fetcher(cache_dir, server, fake, refresh=True) as fetcher:
        assert fetcher.fetch_result(gid(1)).downloaded
        with pytest.raises(DownloadError, match="HTTP 404"):
            fetcher.fetch(gid(1))
    assert path.read_bytes() == before
    assert leftovers(cache_dir) == [f"{gid(1)}.mjlog"]
    assert server.count(gid(1)) == 3


# -- atomic writes ------------------------------------------------------------------------------


def test_interrupted_write_leaves_nothing(server, fake, cache_dir, monkeypatch):
    server.serve(gid(1), ONE_HAND)

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(cache_mod.os, "fsync", interrupted)
    with make_fetcher(cache_dir, server, fake) as fetcher, pytest.raises(KeyboardInterrupt):
        fetcher.fetch(gid(1))
    assert leftovers(cache_dir) == []
    monkeypatch.undo()
    with make_fetcher(cache_dir, server, fake) as fetcher:  # the lock was released
        assert fetcher.fetch_result(gid(1)).downloaded


def test_write_atomic_replaces_whole_files(tmp_path):
    target = tmp_path / "a.mjlog"
    write_atomic(target, b"first")
    write_atomic(target, b"second")
    assert target.read_bytes() == b"second" and os.listdir(tmp_path) == ["a.mjlog"]


def test_stale_temp_files_are_removed_under_the_lock(server, fake, cache_dir):
    cache_dir.mkdir()
    (cache_dir / f".{gid(9)}.mjlog.0123456789ab.tmp").write_bytes(b"partial")
    server.serve(gid(1), ONE_HAND)
    with make_fetcher(cache_dir, server, fake) as fetcher:
        fetcher.fetch(gid(1))
    assert leftovers(cache_dir) == [f"{gid(1)}.mjlog"]


def test_export_never_overwrites_a_different_file(server, fake, cache_dir, tmp_path):
    server.serve(gid(1), ONE_HAND)
    with make_fetcher(cache_dir, server, fake) as fetcher:
        src = fetcher.fetch(gid(1))
    out = tmp_path / "out" / "nested"
    dest, copied = export_log(src, out)
    assert copied and dest == out / src.name and dest.read_bytes() == src.read_bytes()
    assert export_log(src, out) == (dest, False)  # same content: fine
    dest.write_bytes(ONE_HAND)  # the same log, uncompressed: also the same content
    assert export_log(src, out) == (dest, False)
    dest.write_bytes(b"something else")
    with pytest.raises(ExportConflict, match="already exists with different content; not overwritten"):
        export_log(src, out)
    assert dest.read_bytes() == b"something else"
    assert sorted(os.listdir(out)) == [src.name]


# -- one download session at a time (the lock) -------------------------------------------------


def test_a_second_run_fails_clearly_while_the_first_downloads(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND, "hold")
    server.serve(gid(2), ONE_HAND)
    first = make_fetcher(cache_dir, server, FakeTime())
    results: dict[str, object] = {}

    def run_first():
        with first:
            results["first"] = first.fetch_result(gid(1))

    thread = threading.Thread(target=run_first, daemon=True)
    thread.start()
    try:
        assert server.holding.wait(10)
        # The waiting run's clock is fake: its 30 s of patience pass at once.
        second = make_fetcher(cache_dir, server, fake, lock_timeout=30)
        with second, pytest.raises(StopDownloads) as err:
            second.fetch(gid(2))
    finally:
        server.release.set()
        thread.join(10)
    assert str(err.value).startswith(f"another tenhou-tools download (process {os.getpid()}) is using the cache {cache_dir}; ")
    assert str(err.value).endswith("gave up after waiting 30 s (Tenhou allows one download session at a time)")
    assert server.count(gid(2)) == 0 and results["first"].downloaded
    with make_fetcher(cache_dir, server, fake) as third:  # the lock is free again
        assert third.fetch_result(gid(2)).downloaded


def test_a_second_run_waits_for_the_first(server, cache_dir):
    server.serve(gid(1), ONE_HAND, "hold")
    server.serve(gid(2), ONE_HAND)
    waiting = threading.Event()

    def sleep_and_say(seconds):
        waiting.set()
        time.sleep(min(seconds, 0.02))

    told: list[str] = []
    first = make_fetcher(cache_dir, server, FakeTime())
    second = make_fetcher(cache_dir, server, FakeTime(), sleep=sleep_and_say, clock=time.monotonic,
                          lock_timeout=20, on_lock_wait=told.append)  # fmt: skip
    results: dict[str, object] = {}

    def run(name, fetcher, log_id):
        with fetcher:
            results[name] = fetcher.fetch_result(log_id)

    threads = [threading.Thread(target=run, args=("first", first, gid(1)), daemon=True)]
    threads[0].start()
    try:
        assert server.holding.wait(10)
        threads.append(threading.Thread(target=run, args=("second", second, gid(2)), daemon=True))
        threads[1].start()
        assert waiting.wait(10)  # the second run is waiting for the lock ...
        assert server.count(gid(2)) == 0  # ... and has not sent anything
    finally:
        server.release.set()
        for thread in threads:
            thread.join(20)
    assert results["first"].downloaded and results["second"].downloaded
    assert server.max_inflight == 1
    assert told == [
        f"another tenhou-tools download (process {os.getpid()}) is using the cache {cache_dir}; "
        "waiting up to 20 s"
    ]


def test_the_lock_works_across_processes(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND)
    code = (
        "import sys\n"
        "from tenhou_tools.sources.cache import LogCache\n"
        "lock = LogCache(sys.argv[1]).lock(timeout=0)\n"
        "lock.acquire()\n"
        "print('locked', flush=True)\n"
        "sys.stdin.read()\n"
        "lock.release()\n"
    )
    cache_dir.mkdir()
    with subprocess.Popen([sys.executable, "-c", code, str(cache_dir)], cwd=REPO,
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as child:  # fmt: skip
        try:
            assert child.stdout.readline() == "locked\n"
            with make_fetcher(cache_dir, server, fake) as fetcher, pytest.raises(StopDownloads) as err:
                fetcher.fetch(gid(1))
            assert f"(process {child.pid})" in str(err.value)
            child.stdin.close()
            assert child.wait(10) == 0
        finally:
            if child.poll() is None:
                child.kill()
                child.wait(10)
    with make_fetcher(cache_dir, server, fake) as fetcher:
        assert fetcher.fetch_result(gid(1)).downloaded
    assert server.count(gid(1)) == 1


def test_cache_hits_need_no_lock(server, fake, cache_dir):
    server.serve(gid(1), ONE_HAND)
    with make_fetcher(cache_dir, server, fake) as fetcher:
        fetcher.fetch(gid(1))
    fetcher = make_fetcher(cache_dir, server, fake)
    with LogCache(cache_dir).lock(timeout=0), fetcher:  # another run is downloading
        assert not fetcher.fetch_result(gid(1)).downloaded


# -- the CLI -----------------------------------------------------------------------------------


@pytest.fixture
def cli_fetcher(monkeypatch, fake):
    """The command's fetcher, with short timeouts, one retry and the fake clock."""
    factory = functools.partial(
        LogFetcher, timeout=(READ_TIMEOUT, READ_TIMEOUT), min_interval=0.0, jitter=0.0, retries=1,
        lock_timeout=5.0, sleep=fake.sleep, clock=fake.clock,
    )  # fmt: skip
    monkeypatch.setattr(download_cmd, "LogFetcher", factory)
    return factory


def download(*args: str, server: Loopback | None = None, cache_dir: Path | None = None, input=None):
    argv = ["download", *args]
    if cache_dir is not None:
        argv += ["--cache-dir", str(cache_dir)]
    if server is not None:
        argv += ["--base-url", server.url]
    return CliRunner().invoke(cli, argv, input=input)


def test_cli_downloads_then_skips_cached_ids_with_the_server_down(server, cache_dir, cli_fetcher):
    server.serve(gid(1), ONE_HAND)
    server.serve(gid(2, sanma=True), SANMA)
    result = download(gid(1), gid(2, sanma=True), server=server, cache_dir=cache_dir)
    assert result.exit_code == 0, result.output
    paths = [cache_dir / f"{gid(1)}.mjlog", cache_dir / f"{gid(2, sanma=True)}.mjlog"]
    assert result.stdout == "".join(f"{p}\n" for p in paths)
    assert result.stderr == (
        f"{gid(1)}: downloaded\n{gid(2, sanma=True)}: downloaded\n"
        "2 ids: 2 downloaded, 0 already cached, 0 failed.\n"
    )
    server.stop()  # a second run needs no server
    again = download(gid(1), gid(2, sanma=True), server=server, cache_dir=cache_dir)
    assert again.exit_code == 0
    assert again.stdout == result.stdout
    assert again.stderr == (
        f"{gid(1)}: already cached, skipped\n{gid(2, sanma=True)}: already cached, skipped\n"
        "2 ids: 0 downloaded, 2 already cached, 0 failed.\n"
    )


@pytest.mark.parametrize(
    ("actions", "message", "reason"),
    [
        (("status:500",), "server error HTTP 500 from {host}, after 2 attempts", "network or server error"),
        (("slow",), f"no response from {{host}} within {READ_TIMEOUT:g} s (read timeout), after 2 attempts", "network or server error"),
        (("html",), "the server sent an HTML page, not an mjlog (the id may be wrong, or the site has changed)", "not a valid log"),
        (("truncated",), "the response is not a complete mjlog (", "not a valid log"),
        (("empty",), "the server sent an empty response (is the id right?)", "not a valid log"),
        (("drop",), "the connection to {host} dropped in the middle of the response, after 2 attempts", "network or server error"),
        (("retryafter:429:99999",), "{host} asks to wait 99999 s before trying again (HTTP 429); stopping, try again later", "stopped"),
    ],
)  # fmt: skip
def test_cli_misbehaviour_is_one_line_exit_1_and_nothing_cached(server, cache_dir, cli_fetcher, actions, message, reason):
    server.serve(gid(1), ONE_HAND, *actions)
    result = download(gid(1), server=server, cache_dir=cache_dir)
    assert result.exit_code == 1
    assert result.stdout == ""
    error, summary = result.stderr.splitlines()
    expected = f"Error: {gid(1)}: " + message.format(host=server.host)
    assert error == expected if not expected.endswith("(") else error.startswith(expected) and error.endswith(")")
    assert summary == f"1 id: 0 downloaded, 0 already cached, 1 failed (1 {reason})."
    assert "Traceback" not in result.output
    assert leftovers(cache_dir) == []


def test_cli_one_failure_does_not_stop_the_rest(server, cache_dir, cli_fetcher):
    server.serve(gid(1), ONE_HAND)
    server.serve(recent_gid(2), ONE_HAND, "status:404")
    server.serve(gid(3), ONE_HAND)
    result = download(gid(1), recent_gid(2), gid(3), server=server, cache_dir=cache_dir)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [str(cache_dir / f"{gid(n)}.mjlog") for n in (1, 3)]
    assert result.stderr.splitlines() == [
        f"{gid(1)}: downloaded",
        f"Error: {recent_gid(2)}: " + IN_PROGRESS.format(host=server.host),
        f"{gid(3)}: downloaded",
        "3 ids: 2 downloaded, 0 already cached, 1 failed (1 not found).",
    ]
    assert leftovers(cache_dir) == [f"{gid(1)}.mjlog", f"{gid(3)}.mjlog"]


def test_cli_no_longer_served_is_counted_apart_recorded_and_not_asked_again(server, cache_dir, cli_fetcher):
    server.serve(gid(1), ONE_HAND)
    server.serve(gid(2), ONE_HAND, "status:404")
    result = download(gid(1), gid(2), server=server, cache_dir=cache_dir)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{gid(1)}: downloaded",
        f"{gid(2)}: " + NOT_SERVED.format(host=server.host),
        "2 ids: 1 downloaded, 0 already cached, 1 no longer served by tenhou.net, 0 failed.",
    ]
    again = download(gid(1), gid(2), server=server, cache_dir=cache_dir)
    today = f"{datetime.now(JST):%Y-%m-%d}"
    assert again.stderr.splitlines() == [
        f"{gid(1)}: already cached, skipped",
        f"{gid(2)}: no longer served by tenhou.net (recorded {today}); --retry-not-served asks again",
        "2 ids: 0 downloaded, 1 already cached, 1 no longer served by tenhou.net (1 known from an earlier run), 0 failed.",
    ]
    assert server.count(gid(2)) == 1
    server.serve(gid(2), ONE_HAND)  # served again one day
    retried = download(gid(2), "--retry-not-served", server=server, cache_dir=cache_dir)
    assert retried.exit_code == 0
    assert retried.stderr.splitlines() == [f"{gid(2)}: downloaded", "1 id: 1 downloaded, 0 already cached, 0 failed."]


def test_a_404_is_blamed_on_the_2010_2025_policy_only_for_a_game_of_those_years(server, fake, cache_dir):
    """tenhou.net stopped serving the games of 2010-2025: a 404 for a game of another year (an
    old one, a recent one, one of a stand-in or a mirror) is "not found", never "no longer
    served"."""
    old, later = "2009101012gm-00a9-0000-00000001", "2026010112gm-00a9-0000-00000002"
    for log_id in (gid(1), old, later):
        server.serve(log_id, ONE_HAND, "status:404")
    with make_fetcher(cache_dir, server, fake) as fetcher:
        errors = []
        for log_id in (gid(1), old, later):
            with pytest.raises(NotFound) as err:
                fetcher.fetch(log_id)
            errors.append(err.value)
    assert [type(e) for e in errors] == [NotServed, NotFound, NotFound]
    assert str(errors[1]) == f"{old}: not found on {server.host} (HTTP 404)"
    assert str(errors[2]) == f"{later}: not found on {server.host} (HTTP 404)"
    assert [str(not_found_error(i, "h", listed=listed)) for i in (gid(1), recent_gid(1)) for listed in (False, True)] == [
        f"{gid(1)}: " + NOT_SERVED.format(host="h"), f"{gid(1)}: " + NOT_SERVED.format(host="h"),
        f"{recent_gid(1)}: " + IN_PROGRESS.format(host="h"), f"{recent_gid(1)}: not found on h (HTTP 404)",
    ]  # fmt: skip


def test_cli_a_404_outside_the_era_is_a_failure_and_is_not_recorded(server, cache_dir, cli_fetcher):
    later = "2026010112gm-00a9-0000-00000002"
    server.serve(later, ONE_HAND, "status:404")
    result = download(later, server=server, cache_dir=cache_dir)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"Error: {later}: not found on {server.host} (HTTP 404)",
        "1 id: 0 downloaded, 0 already cached, 1 failed (1 not found).",
    ]
    server.serve(later, ONE_HAND)  # there after all: asked again, since nothing was recorded
    again = download(later, server=server, cache_dir=cache_dir)
    assert again.exit_code == 0 and again.stderr.splitlines() == [
        f"{later}: downloaded", "1 id: 1 downloaded, 0 already cached, 0 failed."]
    assert not (cache_dir / "not-served.tsv").exists()


def test_cli_the_not_served_record_is_kept_by_server(cache_dir, cli_fetcher):
    """A game one server does not serve is not asked of that server again, but another server
    (another --base-url) is asked, and serves it."""
    with Loopback() as first, Loopback() as second:
        first.serve(gid(2), ONE_HAND, "status:404")
        second.serve(gid(2), ONE_HAND)
        refused = download(gid(2), server=first, cache_dir=cache_dir)
        assert refused.exit_code == 1 and first.count(gid(2)) == 1
        assert (cache_dir / "not-served.tsv").read_text().endswith(f"\t{first.url}\n")
        again = download(gid(2), server=first, cache_dir=cache_dir)
        assert again.exit_code == 1 and first.count(gid(2)) == 1  # not asked again
        elsewhere = download(gid(2), server=second, cache_dir=cache_dir)
        assert elsewhere.exit_code == 0 and second.count(gid(2)) == 1
        assert elsewhere.stderr.splitlines() == [f"{gid(2)}: downloaded", "1 id: 1 downloaded, 0 already cached, 0 failed."]


def test_a_not_served_line_of_an_older_version_is_not_used(cache_dir):
    """Lines without the server (written before the record was kept by server) name no server,
    so they block none."""
    cache_dir.mkdir()
    (cache_dir / "not-served.tsv").write_text(f"{gid(1)}\t2026-05-01\n{gid(2)}\t2026-05-02\thttps://tenhou.net\n")
    record = NotServedRecord(cache_dir)
    assert record.load("https://tenhou.net") == {gid(2): "2026-05-02"}
    assert record.load("http://127.0.0.1:1") == {}


def test_cli_stop_leaves_the_rest_unattempted(server, cache_dir, cli_fetcher):
    server.serve(gid(1), ONE_HAND, "status:403")
    server.serve(gid(2), ONE_HAND)
    result = download(gid(1), gid(2), server=server, cache_dir=cache_dir)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"Error: {gid(1)}: {server.host} refused the request (HTTP 403); stopping the downloads",
        "Stopped downloading: 1 not attempted.",
        "2 ids: 0 downloaded, 0 already cached, 1 failed (1 stopped), 1 not attempted.",
    ]
    assert server.count(gid(2)) == 0


def test_cli_while_another_run_holds_the_lock(server, cache_dir, cli_fetcher):
    server.serve(gid(1), ONE_HAND)
    server.serve(gid(2), ONE_HAND)
    with LogCache(cache_dir).lock(timeout=0):
        result = download(gid(1), gid(2), server=server, cache_dir=cache_dir)
    assert result.exit_code == 1
    busy = f"another tenhou-tools download (process {os.getpid()}) is using the cache {cache_dir}"
    assert result.stderr.splitlines() == [
        f"{busy}; waiting up to 5 s",
        f"Error: {busy}; gave up after waiting 5 s (Tenhou allows one download session at a time)",
        "Stopped downloading: 1 not attempted.",
        "2 ids: 0 downloaded, 0 already cached, 1 failed (1 stopped), 1 not attempted.",
    ]
    assert server.requests == [] and leftovers(cache_dir) == []


def test_cli_urls_obfuscated_ids_duplicates_and_from_file(server, cache_dir, cli_fetcher, tmp_path):
    real = "2016062415gm-0089-0000-1c26604c"
    # serve the 4-player fixture under this id: the id's type (0x89) differs from the fixture's
    # (0xa9), so expect exactly that complaint, which proves the decoded id was requested
    server.serve(real, ONE_HAND)
    server.serve(gid(1), ONE_HAND)
    server.serve(gid(2), ONE_HAND)
    listing = tmp_path / "ids.txt"
    listing.write_text(f"# my games\n{gid(2)}  # the second one\n\nhttps://tenhou.net/0/?log={gid(1)}&tw=3\n")
    result = download(
        f"https://tenhou.net/3/?log={gid(1)}&tw=1", gid(1), "2016062415gm-0089-0000-x52645f60d396",
        "--from-file", str(listing), server=server, cache_dir=cache_dir,
    )  # fmt: skip
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{gid(1)}: downloaded",
        f"Error: {real}: the server sent a different game (GO type 169, the id says 137)",
        f"{gid(2)}: downloaded",
        "3 ids: 2 downloaded, 0 already cached, 1 failed (1 not a valid log).",
    ]
    assert [path for path, _ in server.requests] == [f"/0/log/?{i}" for i in (gid(1), real, gid(2))]


def test_cli_from_stdin(server, cache_dir, cli_fetcher):
    server.serve(gid(1), ONE_HAND)
    result = download("--from-file", "-", server=server, cache_dir=cache_dir, input=f"{gid(1)}\n")
    assert result.exit_code == 0 and result.stdout == f"{cache_dir / gid(1)}.mjlog\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["2014102312gm-00a9-0000-afb21fa"],
         "Error: not a Tenhou game id: '2014102312gm-00a9-0000-afb21fa' (the key must be 8 hex digits, or x and 12 hex digits)"),
        (["fixtures/one_hand.xml"],
         ("Error: not a Tenhou game id or viewer URL: 'fixtures/one_hand.xml' "
          "(expected e.g. 2014102312gm-00c1-0000-afb21fa5 or https://tenhou.net/0/?log=ID&tw=0)")),
        ([f"https://tenhou.net/0/?log={gid(1)}&tw=7"], "Error: tw='7' in the URL is not a seat 0-3"),
        ([], "Error: give at least one game id or tenhou.net viewer URL (or --from-file F)"),
        ([gid(1), "--offline", "--refresh"], "Error: --offline and --refresh cannot be used together"),
        ([gid(1), "--base-url", "ftp://example"],
         "Error: base URL 'ftp://example' must start with http:// or https:// and name a host"),
    ],
)  # fmt: skip
def test_cli_usage_errors_exit_2_before_any_request(server, cache_dir, cli_fetcher, args, message):
    server.serve(gid(1), ONE_HAND)
    result = download(*args, server=None if "--base-url" in args else server, cache_dir=cache_dir)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [message]
    assert result.stdout == "" and server.requests == [] and not cache_dir.exists()


def test_cli_unusable_cache_dir_exits_2(server, cli_fetcher, tmp_path):
    server.serve(gid(1), ONE_HAND)
    (tmp_path / "afile").write_text("")
    cache_dir = tmp_path / "afile" / "cache"
    result = download(gid(1), server=server, cache_dir=cache_dir)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"Error: cannot create the cache directory {cache_dir}: Not a directory",
        "1 id: 0 downloaded, 0 already cached, 0 failed.",
    ]
    assert server.requests == []


def test_cli_bad_lines_in_a_file_are_named(server, cache_dir, cli_fetcher, tmp_path):
    listing = tmp_path / "ids.txt"
    listing.write_text(f"{gid(1)}\nnot-an-id/x\n2014102312gm-00a9-0000-zzzzzzzz\n")
    result = download("--from-file", str(listing), server=server, cache_dir=cache_dir)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        (
            f"Error: {listing}:2: not a Tenhou game id or viewer URL: 'not-an-id/x' "
            "(expected e.g. 2014102312gm-00c1-0000-afb21fa5 or https://tenhou.net/0/?log=ID&tw=0)"
        ),
        (
            f"Error: {listing}:3: not a Tenhou game id: '2014102312gm-00a9-0000-zzzzzzzz' "
            "(the key must be 8 hex digits, or x and 12 hex digits)"
        ),
    ]
    assert server.requests == []
    missing = download("--from-file", str(tmp_path / "nope.txt"), cache_dir=cache_dir)
    assert missing.exit_code == 2
    assert missing.stderr == f"Error: --from-file {tmp_path / 'nope.txt'}: no such list file\n"


def test_cli_offline_with_an_empty_cache(cache_dir, cli_fetcher):
    result = download(gid(1), "--offline", cache_dir=cache_dir)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"Error: {gid(1)}: not in the cache ({cache_dir}) and offline mode does not download",
        "1 id: 0 downloaded, 0 already cached, 1 failed (1 not in the cache).",
    ]
    assert not cache_dir.exists()


def test_cli_offline_with_a_cached_log(server, cache_dir, cli_fetcher):
    server.serve(gid(1), ONE_HAND)
    assert download(gid(1), server=server, cache_dir=cache_dir).exit_code == 0
    result = download(gid(1), "--offline", "--base-url", "http://127.0.0.1:9", cache_dir=cache_dir)
    assert result.exit_code == 0 and result.stderr.endswith("1 id: 0 downloaded, 1 already cached, 0 failed.\n")


def test_cli_refresh(server, cache_dir, cli_fetcher):
    server.serve(gid(1), ONE_HAND)
    assert download(gid(1), server=server, cache_dir=cache_dir).exit_code == 0
    result = download(gid(1), "--refresh", server=server, cache_dir=cache_dir)
    assert result.exit_code == 0 and f"{gid(1)}: downloaded\n" in result.stderr
    assert server.count(gid(1)) == 2


def test_cli_base_url_from_the_environment(server, cache_dir, cli_fetcher, monkeypatch):
    server.serve(gid(1), ONE_HAND)
    monkeypatch.setenv("TENHOU_TOOLS_BASE_URL", server.url)
    result = download(gid(1), cache_dir=cache_dir)
    assert result.exit_code == 0 and server.count(gid(1)) == 1


def test_cli_default_cache_dir_is_the_xdg_one(server, cli_fetcher, tmp_path):
    server.serve(gid(1), ONE_HAND)
    result = download(gid(1), server=server)
    expected = tmp_path / "xdg-cache" / "tenhou-tools" / f"{gid(1)}.mjlog"
    assert result.exit_code == 0 and result.stdout == f"{expected}\n" and expected.is_file()


def test_cli_out_copies_and_never_overwrites(server, cache_dir, cli_fetcher, tmp_path):
    server.serve(gid(1), ONE_HAND)
    server.serve(gid(2), ONE_HAND)
    out = tmp_path / "out"
    result = download(gid(1), "--out", str(out), server=server, cache_dir=cache_dir)
    assert result.exit_code == 0
    assert result.stdout == f"{out / gid(1)}.mjlog\n"
    assert result.stderr.splitlines()[-1] == f"1 id: 1 downloaded, 0 already cached, 0 failed, 1 copied to {out}."
    assert (out / f"{gid(1)}.mjlog").read_bytes() == (cache_dir / f"{gid(1)}.mjlog").read_bytes()
    # the same again: identical content is fine
    again = download(gid(1), "--out", str(out), server=server, cache_dir=cache_dir)
    assert again.exit_code == 0
    assert again.stderr.splitlines()[-1] == f"1 id: 0 downloaded, 1 already cached, 0 failed, 0 copied to {out}."
    # a different file of that name is left alone; the other id goes on
    (out / f"{gid(1)}.mjlog").write_bytes(b"mine")
    clash = download(gid(1), gid(2), "--out", str(out), server=server, cache_dir=cache_dir)
    assert clash.exit_code == 1
    assert clash.stderr.splitlines() == [
        f"Error: {gid(1)}: {out / gid(1)}.mjlog already exists with different content; not overwritten",
        f"{gid(2)}: downloaded",
        f"2 ids: 1 downloaded, 0 already cached, 1 failed (1 could not be stored), 1 copied to {out}.",
    ]
    assert (out / f"{gid(1)}.mjlog").read_bytes() == b"mine"
    assert sorted(os.listdir(out)) == [f"{gid(1)}.mjlog", f"{gid(2)}.mjlog"]


def test_cli_ctrl_c_exits_130_with_the_summary_so_far(server, cache_dir, cli_fetcher, monkeypatch):
    for n in (1, 2, 3):
        server.serve(gid(n), ONE_HAND)

    class Interrupting(LogFetcher):
        def fetch_result(self, log_id):
            if log_id == gid(2):
                raise KeyboardInterrupt
            return super().fetch_result(log_id)

    monkeypatch.setattr(download_cmd, "LogFetcher", functools.partial(Interrupting, **cli_fetcher.keywords))
    result = download(gid(1), gid(2), gid(3), server=server, cache_dir=cache_dir)
    assert result.exit_code == 130
    assert result.stdout == f"{cache_dir / gid(1)}.mjlog\n"
    assert result.stderr.splitlines() == [
        f"{gid(1)}: downloaded",
        "Interrupted. So far: 3 ids: 1 downloaded, 0 already cached, 0 failed.",
    ]
    assert server.count(gid(3)) == 0


def test_cli_ctrl_c_while_writing_leaves_no_partial_file(server, cache_dir, cli_fetcher, monkeypatch):
    server.serve(gid(1), ONE_HAND)

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(cache_mod.os, "fsync", interrupted)
    result = download(gid(1), server=server, cache_dir=cache_dir)
    assert result.exit_code == 130
    assert result.stderr == "Interrupted. So far: 1 id: 0 downloaded, 0 already cached, 0 failed.\n"
    assert leftovers(cache_dir) == []


def test_cli_progress_bar_only_on_a_terminal(server, cache_dir, cli_fetcher, monkeypatch):
    """The bar is drawn only when stderr is a terminal and --no-progress is not given; the
    messages are the same lines either way (printed above the bar, markup not interpreted)."""
    server.serve(gid(1), ONE_HAND)
    server.serve(gid(2), ONE_HAND)
    enabled: list[bool] = []
    real_bar = progress.ProgressBar

    def spy(label, **kw):
        enabled.append(kw["enabled"])
        return real_bar(label, **kw)

    monkeypatch.setattr(download_cmd, "ProgressBar", spy)
    plain = download(gid(1), server=server, cache_dir=cache_dir)  # the runner's stderr: no terminal
    monkeypatch.setattr(progress, "stderr_is_terminal", lambda: True)
    no_bar = download(gid(1), "--no-progress", server=server, cache_dir=cache_dir)
    bar = download(gid(1), gid(2), server=server, cache_dir=cache_dir)
    assert enabled == [False, False, True]
    assert plain.exit_code == no_bar.exit_code == bar.exit_code == 0
    # (rich ends a bar on a non-interactive console with one blank line; a terminal gets none)
    assert [line for line in bar.stderr.splitlines() if line] == [
        f"{gid(1)}: already cached, skipped",
        f"{gid(2)}: downloaded",
        "2 ids: 1 downloaded, 1 already cached, 0 failed.",
    ]
    bar_ = real_bar("download", total=1, enabled=True)
    with bar_:
        bar_.update(label=gid(2))
        bar_.say("[bold]not markup[/bold]")
        bar_.update(advance=1)
    assert bar_.completed == 1
