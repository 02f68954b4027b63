"""What the download tests share: a loopback HTTP server that misbehaves on purpose, a fake
clock, the fixtures (``server``, ``fake``, ``cache_dir``, ``cli_fetcher``, and the autouse
``_isolated_env``, which a test module takes by importing it) and small helpers.

The server (stdlib ``http.server`` on 127.0.0.1, an ephemeral port, a daemon thread that a
watchdog stops after 60 s at the latest) serves the repository's own fixture logs. Each test
scripts, per game id, what the server does on the 1st, 2nd, ... request (the last action
repeats). Time is faked (``sleep`` records and advances a fake clock), so backoff and polite
pauses cost nothing and their lengths can be asserted exactly; only the read-timeout cases wait
for real, half a second per attempt.

The tests: ``test_download_fetch.py`` (one fetch: the cache, politeness, retries, bad answers,
ids and settings), ``test_download_cache.py`` (offline, refresh, atomic writes, the lock),
``test_download_cli.py`` (the ``download`` command).
"""

from __future__ import annotations

import functools
import gzip
import os
import threading
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Self

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli, download_cmd
from tenhou_tools.ids import JST
from tenhou_tools.mjlog.read import MAX_BYTES
from tenhou_tools.sources.http import LogFetcher

from .conftest import FIXTURES

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

