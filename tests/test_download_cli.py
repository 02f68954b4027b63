"""The ``download`` command, against the loopback server (``download_support``): what it stores,
says and counts, its inputs, its options, Ctrl-C and the progress bar."""

from __future__ import annotations

import functools
import os
from datetime import datetime

import pytest

from tenhou_tools.cli import download_cmd, progress
from tenhou_tools.ids import JST
from tenhou_tools.sources import cache as cache_mod
from tenhou_tools.sources.cache import LogCache
from tenhou_tools.sources.http import LogFetcher, NotFound, NotServed, not_found_error
from tenhou_tools.sources.logstore import NotServedRecord

from .download_support import (  # noqa: F401 - fixtures, found by name (_isolated_env: autouse)
    IN_PROGRESS,
    NOT_SERVED,
    ONE_HAND,
    READ_TIMEOUT,
    SANMA,
    Loopback,
    _isolated_env,
    cache_dir,
    cli_fetcher,
    download,
    fake,
    gid,
    leftovers,
    make_fetcher,
    recent_gid,
    server,
)

# -- the CLI -----------------------------------------------------------------------------------

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
