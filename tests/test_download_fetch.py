"""Fetching a log through the cache, against the loopback server (``download_support``): a
log stored under its id, the cache, politeness, retries and backoff, answers that are not a log,
ids, URLs and settings."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from tenhou_tools import __version__
from tenhou_tools.errors import DownloadError, InputError
from tenhou_tools.mjlog import parse_game
from tenhou_tools.mjlog.read import MAX_BYTES
from tenhou_tools.sources.cache import LogCache, default_cache_dir
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
    parse_retry_after,
    resolve_base_url,
)

from .conftest import FIXTURES, closed_port
from .download_support import (  # noqa: F401 - fixtures, found by name (_isolated_env: autouse)
    IN_PROGRESS,
    NOT_SERVED,
    ONE_HAND,
    READ_TIMEOUT,
    SANMA,
    _isolated_env,
    cache_dir,
    fake,
    gid,
    leftovers,
    make_fetcher,
    recent_gid,
    server,
)

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
    with closed_port() as port:
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
    with closed_port() as port:
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
