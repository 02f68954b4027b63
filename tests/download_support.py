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
from pathlib import Path
from typing import Self

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli, download_cmd
from tenhou_tools.ids import JST
from tenhou_tools.mjlog.read import MAX_BYTES
from tenhou_tools.sources.http import LogFetcher

from .conftest import FIXTURES
from .loopback_http import LoopbackServer, RecordingHandler

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


class Loopback(LoopbackServer):
    """A scripted mjlog server on 127.0.0.1. ``serve(id, body, *actions)`` sets the script: the
    n-th request for an id gets the n-th action (the last one from there on)."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: dict[str, tuple[bytes, tuple[str, ...]]] = {}
        self.holding = threading.Event()
        self.release = threading.Event()
        self.stopping = threading.Event()

    def serve(self, log_id: str, body: bytes, *actions: str) -> None:
        self.scripts[log_id] = (body, actions or ("ok",))

    def count(self, log_id: str) -> int:
        return sum(1 for path, _ in self.requests if path == f"/0/log/?{log_id}")

    def note(self, path: str) -> tuple[str, int]:
        """The id asked for, and how many requests for it came before this one."""
        log_id = path.partition("?")[2]
        return log_id, self.count(log_id) - 1

    def answer(self, handler: RecordingHandler, noted: tuple[str, int]) -> None:
        log_id, n = noted
        if not handler.path.startswith("/0/log/?") or log_id not in self.scripts:
            return handler.reply(404, b"no such log", "text/plain")
        body, actions = self.scripts[log_id]
        return self.act(handler, actions[min(n, len(actions) - 1)], body)

    def act(self, handler: RecordingHandler, action: str, body: bytes) -> None:
        reply = handler.reply
        name, _, arg = action.partition(":")
        if name == "ok":
            return reply(200, body)
        if name == "gzipfile":  # the log itself gzip-compressed, like a .mjlog file
            return reply(200, gzip.compress(body), "application/octet-stream")
        if name == "gzipencoding":  # HTTP compression, undone by requests
            return reply(200, gzip.compress(body), "text/xml", [("Content-Encoding", "gzip")])
        if name == "status":
            return reply(int(arg), b"error", "text/plain")
        if name == "retryafter":  # e.g. retryafter:429:7
            status, seconds = arg.split(":")
            return reply(int(status), b"slow down", "text/plain", [("Retry-After", seconds)])
        if name == "slow":
            self.stopping.wait(SLOW_SECONDS)
            return reply(200, body)
        if name == "html":
            page = b"<!DOCTYPE html><html><head><title>Error</title></head><body>Not found</body></html>"
            return reply(200, page, "text/html; charset=utf-8")
        if name == "truncated":
            return reply(200, body[: len(body) * 2 // 3])
        if name == "empty":
            return reply(200, b"")
        if name == "drop":  # announce the whole body, send half, hang up
            return handler.reply_cut(body, "text/xml")
        if name == "hold":  # keep the request open until the test releases it
            self.holding.set()
            self.release.wait(10)
            return reply(200, body)
        if name == "redirect":
            return reply(302, b"", "text/plain", [("Location", "http://example.invalid/x")])
        if name == "huge":
            return reply(200, b"<" * (MAX_BYTES + 1))
        raise AssertionError(f"unknown action {action}")

    def __enter__(self) -> Self:
        self.start()
        self.watchdog = threading.Timer(60, self.stop)
        self.watchdog.daemon = True
        self.watchdog.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.release.set()
        self.shutdown()

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

