"""The download cache, against the loopback server (``download_support``): offline and refresh,
atomic writes, one download session at a time (the lock)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from tenhou_tools.errors import DownloadError
from tenhou_tools.sources import cache as cache_mod
from tenhou_tools.sources.cache import ExportConflict, LogCache, export_log, write_atomic
from tenhou_tools.sources.http import LogFetcher, StopDownloads

from .conftest import REPO
from .download_support import (  # noqa: F401 - fixtures, found by name (_isolated_env: autouse)
    ONE_HAND,
    FakeTime,
    _isolated_env,
    cache_dir,
    download,
    fake,
    gid,
    leftovers,
    make_fetcher,
    server,
)

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
