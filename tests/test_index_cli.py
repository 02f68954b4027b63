"""``index`` against a loopback stand-in of tenhou.net (``tests/tenhou_standin.py``) serving files
in the real formats: the recent days and the old list, filters, what a second run fetches,
missing, truncated and refused files, offline, the lock, the yearly archives, Ctrl-C."""

from __future__ import annotations

import functools
import json
import zipfile
from pathlib import Path

from tenhou_tools import __version__
from tenhou_tools.cli import index_cmd, progress
from tenhou_tools.sources.cache import LogCache
from tenhou_tools.sources.http import LogFetcher

from .download_support import _isolated_env  # noqa: F401 - the autouse fixture, by name
from .index_support import clock, fetchers, g3, g4, game, run, site, small_site  # noqa: F401 - fixtures, found by name
from .tenhou_standin import Game, day_file, sca_line, scc_line, scraw_zip


def test_index_lists_the_recent_days_by_default(site, clock, fetchers, tmp_path):
    games = small_site(site)
    result = run("index", "--delay", "2.5", site=site, cache_dir=tmp_path / "cache")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"{games['e'].log_id}  2026-11-15 00:30  四鳳南喰赤－  Houou 4-player East-South  Ａｌｉｃｅ(+59.0)  Bob&Co(+11.0)  <ちよ>(-14.0)  Dan(-56.0)",
        f"{games['f'].log_id}  2026-11-15 01:05  三鳳南喰赤－  Houou 3-player East-South  Carol(+42.0)  Eve(-4.0)  Frank(-38.0)",
        f"{games['g'].log_id}  2026-11-16 01:59  四鳳東喰赤－  Houou 4-player East-only  Ａｌｉｃｅ(+59.0)  Bob&Co(+11.0)  <ちよ>(-14.0)  Dan(-56.0)",
    ]
    assert result.stderr == "3 games in 3 day files from tenhou.net's index (3 fetched, 0 unchanged since an earlier run).\n"
    # the old list is not needed without --since; results-only files are never fetched
    assert site.paths() == ["/sc/raw/list.cgi"] + [f"/sc/raw/dat/scc20261115{h}.html.gz" for h in ("00", "01")] + [
        "/sc/raw/dat/scc2026111601.html.gz"
    ]
    agents = {headers["User-Agent"] for _, headers in site.requests}
    assert len(agents) == 1 and agents.pop().startswith(f"tenhou-tools/{__version__} (")
    assert site.max_inflight == 1
    assert fetchers.sleeps == [2.5, 2.5, 2.5]  # --delay between the four requests


def test_until_alone_reaches_into_the_old_list(site, clock, fetchers, tmp_path):
    games = small_site(site)
    result = run("index", "--until", "2026-11-10", site=site, cache_dir=tmp_path / "cache")
    assert [line.split()[0] for line in result.stdout.splitlines()] == [games[k].log_id for k in "ab"]
    assert site.paths() == ["/sc/raw/list.cgi", "/sc/raw/list.cgi?old", "/sc/raw/dat/2026/scc20261110.html.gz"]


def test_index_since_reads_the_old_list_and_every_format(site, clock, fetchers, tmp_path):
    games = small_site(site)
    cache = tmp_path / "cache"
    text = run("index", "--since", "2026-11-11", "--until", "2026-11-15", site=site, cache_dir=cache)
    assert text.exit_code == 0, text.output
    assert [line.split()[0] for line in text.stdout.splitlines()] == [games[k].log_id for k in "cdef"]
    assert "/sc/raw/list.cgi?old" in site.paths() and "/sc/raw/dat/2026/scc20261110.html.gz" not in site.paths()
    assert "/sc/raw/dat/2026/sca20261111.log.gz" not in site.paths()
    ndjson = run("index", "--since", "2026-11-11", "--until", "2026-11-11", "--format", "ndjson", site=site, cache_dir=cache)
    docs = [json.loads(line) for line in ndjson.stdout.splitlines()]
    assert docs[0] == {
        "id": games["c"].log_id, "start": "2026-11-11T08:00+09:00", "minutes": 30, "rule": "四鳳南喰赤－",
        "rule_en": "Houou 4-player East-South, red fives, open tanyao", "players": 4, "length": "south",
        "room": "houou", "lobby": 0,
        "results": [{"name": "Zed", "points": 30.0}, {"name": "Ａｌｉｃｅ", "points": 10.0},
                    {"name": "Yan", "points": -10.0}, {"name": "Xu", "points": -30.0}],
        "source": "dat/2026/scc20261111.html.gz",
    }  # fmt: skip
    assert docs[1]["id"] == games["d"].log_id and docs[1]["lobby"] == 10431 and docs[1]["room"] == "ippan"
    csv_out = run("index", "--since", "2026-11-15", "--players", "3", "--format", "csv", site=site, cache_dir=cache)
    assert csv_out.stdout.splitlines() == [
        "id,start,minutes,rule,rule_en,players,length,room,lobby,name1,points1,chips1,name2,points2,chips2,"
        "name3,points3,chips3,name4,points4,chips4,source",
        f'{games["f"].log_id},2026-11-15T01:05+09:00,30,三鳳南喰赤－,"Houou 3-player East-South, red fives, open tanyao",'
        "3,south,houou,0,Carol,42.0,,Eve,-4.0,,Frank,-38.0,,,,,scc2026111501.html.gz".replace(
            "scc2026111501", "dat/scc2026111501"),
    ]  # fmt: skip


def test_filters_and_houou_only_reads_scc_files(site, clock, fetchers, tmp_path):
    games = small_site(site)
    cache = tmp_path / "cache"
    houou = run("index", "--since", "2026-11-10", "--lobby", "houou", "--length", "south", site=site, cache_dir=cache)
    assert [line.split()[0] for line in houou.stdout.splitlines()] == [games[k].log_id for k in "abcef"]
    assert not any("scf" in p for p in site.paths())
    alice = run("index", "--since", "2026-11-10", "--player", "alice", "--format", "ndjson", site=site, cache_dir=cache)
    assert [json.loads(line)["id"] for line in alice.stdout.splitlines()] == [games[k].log_id for k in "acdeg"]
    lobby = run("index", "--since", "2026-11-10", "--room", "L10431", site=site, cache_dir=cache)
    assert [line.split()[0] for line in lobby.stdout.splitlines()] == [games["d"].log_id]
    bad = run("index", "--lobby", "nowhere", site=site, cache_dir=cache)
    assert bad.exit_code == 2 and "unknown lobby 'nowhere'" in bad.stderr
    order = run("index", "--since", "2026-11-12", "--until", "2026-11-11", site=site, cache_dir=cache)
    assert order.exit_code == 2 and "--since 2026-11-12 is after --until 2026-11-11" in order.stderr


def test_a_second_run_fetches_only_what_changed(site, clock, fetchers, tmp_path):
    games = small_site(site)
    cache = tmp_path / "cache"
    first = run("index", "--since", "2026-11-10", site=site, cache_dir=cache)
    assert first.exit_code == 0 and len(first.stdout.splitlines()) == 7
    requests = len(site.requests)
    # within 20 minutes: the kept lists are reused, no request at all
    clock[0] += 19 * 60
    same = run("index", "--since", "2026-11-10", site=site, cache_dir=cache)
    assert same.stdout == first.stdout and len(site.requests) == requests
    assert same.stderr == "7 games in 6 day files from tenhou.net's index (0 fetched, 6 unchanged since an earlier run).\n"
    # the index changes: a game is added to an hourly file, a new hour appears
    extra = game(g4("20261116", 1, 8), "01:30")
    newer = game(g3("20261116", 2, 9), "02:10")
    site.files["scc2026111601.html.gz"] = day_file([scc_line(games["g"]), scc_line(extra)])
    site.add_files({"scc2026111602.html.gz": day_file([scc_line(newer)])}, old=False)
    clock[0] += 2 * 60  # 21 minutes after the first run: the lists are fetched again
    changed = run("index", "--since", "2026-11-10", site=site, cache_dir=cache)
    assert changed.exit_code == 0
    assert [line.split()[0] for line in changed.stdout.splitlines()][-3:] == [extra.log_id, games["g"].log_id, newer.log_id]
    assert site.paths()[requests:] == [
        "/sc/raw/list.cgi", "/sc/raw/list.cgi?old", "/sc/raw/dat/scc2026111601.html.gz", "/sc/raw/dat/scc2026111602.html.gz",
    ]  # fmt: skip
    assert changed.stderr.endswith("(2 fetched, 5 unchanged since an earlier run).\n")


def test_a_day_moving_to_the_old_list_is_read_once(site, clock, fetchers, tmp_path):
    games = small_site(site)
    # the old list now also has 2026-11-15 as one daily file; the hourly ones are still listed
    site.add_files({"2026/scc20261115.html.gz": day_file([scc_line(games["e"]), scc_line(games["f"])])}, old=True)
    result = run("index", "--since", "2026-11-14", site=site, cache_dir=tmp_path / "cache")
    assert [line.split()[0] for line in result.stdout.splitlines()] == [games[k].log_id for k in "efg"]
    assert "/sc/raw/dat/scc2026111500.html.gz" not in site.paths()
    assert "/sc/raw/dat/2026/scc20261115.html.gz" in site.paths()


def test_a_listed_file_the_server_lacks_and_a_truncated_transfer(site, clock, fetchers, tmp_path):
    games = small_site(site)
    site.recent.append("scc2026111602.html.gz")  # listed, never served
    site.sizes["scc2026111602.html.gz"] = 1234
    site.truncate.add("scc2026111500.html.gz")  # the connection drops half-way
    cache = tmp_path / "cache"
    result = run("index", site=site, cache_dir=cache)
    assert result.exit_code == 1
    assert [line.split()[0] for line in result.stdout.splitlines()] == [games[k].log_id for k in "fg"]
    assert result.stderr.splitlines() == [
        f"Warning: sc/raw/dat/scc2026111500.html.gz: the connection to {site.host} dropped in the middle of the "
        "response, after 2 attempts",
        "Warning: dat/scc2026111602.html.gz: listed by tenhou.net's index, but the server answers 404",
        "2 games in 2 day files from tenhou.net's index (2 fetched, 0 unchanged since an earlier run).",
    ]
    # the next run asks again for what failed, and only for that
    site.truncate.clear()
    before = len(site.requests)
    clock[0] += 25 * 60
    again = run("index", site=site, cache_dir=cache)
    assert [line.split()[0] for line in again.stdout.splitlines()] == [games[k].log_id for k in "efg"]
    assert site.paths()[before:] == ["/sc/raw/list.cgi", "/sc/raw/dat/scc2026111500.html.gz", "/sc/raw/dat/scc2026111602.html.gz"]


def test_a_truncated_day_file_is_read_in_part_and_fetched_again(site, clock, fetchers, tmp_path):
    games = small_site(site)
    whole = site.files["scc2026111500.html.gz"] = day_file(
        [scc_line(games["e"])] + [scc_line(game(g4("20261115", 0, 100 + i), f"00:{i + 31:02d}")) for i in range(20)]
    )
    site.files["scc2026111500.html.gz"] = whole[:-30]  # the file itself is cut short
    site.sizes["scc2026111500.html.gz"] = len(whole)
    cache = tmp_path / "cache"
    result = run("index", "--since", "2026-11-15", "--until", "2026-11-15", site=site, cache_dir=cache)
    assert result.exit_code == 1
    warning = [line for line in result.stderr.splitlines() if line.startswith("Warning")]
    assert len(warning) == 1 and warning[0].startswith(
        "Warning: dat/scc2026111500.html.gz: incomplete, the gzip data ends early (truncated); "
    ) and warning[0].endswith("games read from its complete lines (it is fetched again next time)")
    listed = [line.split()[0] for line in result.stdout.splitlines()]
    assert listed[0] == games["e"].log_id and games["f"].log_id in listed
    before = len(site.requests)
    again = run("index", "--since", "2026-11-15", "--until", "2026-11-15", site=site, cache_dir=cache)
    assert "/sc/raw/dat/scc2026111500.html.gz" in site.paths()[before:]
    assert "/sc/raw/dat/scc2026111501.html.gz" not in site.paths()[before:]
    assert again.exit_code == 1


def test_a_list_that_is_not_an_index(site, clock, fetchers, tmp_path):
    small_site(site)
    site.recent.clear()
    site.files.clear()
    result = run("index", site=site, cache_dir=tmp_path / "cache")
    assert result.exit_code == 0 and result.stdout == ""
    assert result.stderr == "0 games in 0 day files from tenhou.net's index (0 fetched, 0 unchanged since an earlier run).\n"


def test_offline_uses_the_kept_index_and_says_what_is_missing(site, clock, fetchers, tmp_path):
    small_site(site)
    cache = tmp_path / "cache"
    empty = run("index", "--offline", cache_dir=cache)
    assert empty.exit_code == 1 and empty.stdout == ""
    assert empty.stderr.splitlines()[0] == "Warning: sc/raw/list.cgi: not in the cache, and offline mode does not download"
    # nothing at all could be read: an error, not "0 games", and an -o file is left as it was
    assert empty.stderr.splitlines()[-1] == "Error: no index file could be fetched or read (no games listed)."
    kept = tmp_path / "games.txt"
    kept.write_text("an earlier listing\n")
    again = run("index", "--offline", "-o", str(kept), cache_dir=cache)
    assert again.exit_code == 1 and kept.read_text() == "an earlier listing\n"
    assert again.stderr.splitlines()[-1] == f"Error: no index file could be fetched or read ({kept} was not written)."
    online = run("index", site=site, cache_dir=cache)
    clock[0] += 3600
    offline = run("index", "--offline", cache_dir=cache)
    assert offline.exit_code == 0 and offline.stdout == online.stdout


def test_index_takes_the_download_lock(site, clock, fetchers, tmp_path):
    small_site(site)
    cache = tmp_path / "cache"
    with LogCache(cache).lock(timeout=0):
        result = run("index", site=site, cache_dir=cache)
    assert result.exit_code == 1 and site.requests == []
    assert "is using the cache" in result.stderr and "gave up after waiting 1 s" in result.stderr


# --- archives --------------------------------------------------------------------------------------


def make_archive(path: Path, year: int, games_by_day: dict[str, list[Game]]) -> Path:
    plain = year < 2013
    members = {}
    for day, games in games_by_day.items():
        suffix = "" if plain else ".gz"
        members[f"{year}/scc{day}.html{suffix}"] = day_file([scc_line(g) for g in games], compress=not plain)
        members[f"{year}/sca{day}.log{suffix}"] = day_file([sca_line(g) for g in games], compress=not plain)
    path.write_bytes(scraw_zip(members))
    return path


def test_archives_plain_and_gzip_and_duplicates_listed_once(site, clock, fetchers, tmp_path):
    old = make_archive(tmp_path / "scraw2011.zip", 2011, {
        "20110301": [game(g4("20110301", 10, 1), "10:01"), game(g3("20110301", 11, 2), "11:15")],
        "20110302": [game(g4("20110302", 0, 3), "00:00")],
    })  # fmt: skip
    new = make_archive(tmp_path / "scraw2015.zip", 2015, {"20150704": [game(g4("20150704", 23, 4), "23:59")]})
    with zipfile.ZipFile(old) as z:
        assert "2011/" in z.namelist() and "2011/scc20110301.html" in z.namelist()
    cache = tmp_path / "cache"
    result = run("index", "--until", "2015-12-31", "--archive", str(old), "--archive", str(new), "--archive", str(old),
                 "--format", "ndjson", site=site, cache_dir=cache)  # fmt: skip
    assert result.exit_code == 0, result.output
    docs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["id"] for d in docs] == [g4("20110301", 10, 1), g3("20110301", 11, 2), g4("20110302", 0, 3), g4("20150704", 23, 4)]
    assert docs[0]["source"] == "scraw2011.zip:2011/scc20110301.html"
    assert docs[3]["source"] == "scraw2015.zip:2015/scc20150704.html.gz"
    assert result.stderr == "4 games in 5 day files from 3 archives.\n"
    assert site.requests == []  # 2015 is neither this year nor the last seven days: no list holds it


def test_a_damaged_archive_member_and_a_file_that_is_no_archive(site, clock, fetchers, tmp_path):
    path = make_archive(tmp_path / "scraw2014.zip", 2014, {"20140101": [game(g4("20140101", 1, 1), "01:00")],
                                                          "20140102": [game(g4("20140102", 1, 2), "01:00")]})  # fmt: skip
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        info = z.getinfo("2014/scc20140101.html.gz")
    start = info.header_offset + 30 + len(info.filename) + 5
    data[start : start + 8] = b"\x00" * 8
    path.write_bytes(bytes(data))
    result = run("index", "--until", "2014-12-31", "--archive", str(path), site=site, cache_dir=tmp_path / "c")
    assert result.exit_code == 1
    assert [line.split()[0] for line in result.stdout.splitlines()] == [g4("20140102", 1, 2)]
    assert result.stderr.splitlines()[0].startswith("Warning: scraw2014.zip:2014/scc20140101.html.gz: cannot be read (")
    junk = tmp_path / "scraw2013.zip"
    junk.write_bytes(b"not a zip")
    refused = run("index", "--archive", str(junk), site=site, cache_dir=tmp_path / "c")
    assert refused.exit_code == 2 and f"Error: {junk}: not a readable zip archive" in refused.stderr
    missing = run("index", "--archive", str(tmp_path / "nope.zip"), site=site, cache_dir=tmp_path / "c")
    assert missing.exit_code == 2 and "does not exist" in missing.stderr


def test_a_selection_before_the_lists_says_where_the_games_are(site, clock, fetchers, tmp_path):
    small_site(site)
    result = run("index", "--since", "2025-06-01", "--until", "2025-06-30", site=site, cache_dir=tmp_path / "c")
    assert result.exit_code == 0 and result.stdout == "" and site.requests == []
    assert result.stderr.splitlines()[0] == (
        "Note: tenhou.net's lists name this year and the last seven days only: the games up to 2025-06-30 are "
        "in the yearly archives (scrawYYYY.zip from https://tenhou.net/sc/raw/; read them with --archive)"
    )
    early = run("index", "--since", "2026-10-01", site=site, cache_dir=tmp_path / "c")
    assert "Note: tenhou.net's lists start on 2026-11-10: the games from 2026-10-01 to 2026-11-09 are in the yearly archives" in early.stderr


def test_ctrl_c_while_reading_the_index_keeps_what_was_fetched(site, clock, fetchers, tmp_path, monkeypatch):
    games = small_site(site)
    cache = tmp_path / "cache"
    keywords = dict(index_cmd.LogFetcher.keywords)

    class Interrupting(LogFetcher):
        def fetch_file(self, path):
            if path.endswith("scc2026111501.html.gz"):
                raise KeyboardInterrupt
            return super().fetch_file(path)

    monkeypatch.setattr(index_cmd, "LogFetcher", functools.partial(Interrupting, **keywords))
    stopped = run("index", site=site, cache_dir=cache)
    assert stopped.exit_code == 130 and stopped.stdout == "" and stopped.stderr == "Interrupted.\n"
    assert not list((cache / "index").rglob("*.tmp"))
    monkeypatch.setattr(index_cmd, "LogFetcher", functools.partial(LogFetcher, **keywords))
    monkeypatch.setattr(progress, "stderr_is_terminal", lambda: True)  # with the progress bar
    before = len(site.requests)
    resumed = run("index", site=site, cache_dir=cache)
    assert resumed.exit_code == 0
    assert [line.split()[0] for line in resumed.stdout.splitlines()] == [games[k].log_id for k in "efg"]
    assert site.paths()[before:] == ["/sc/raw/dat/scc2026111501.html.gz", "/sc/raw/dat/scc2026111601.html.gz"]
    assert [line for line in resumed.stderr.splitlines() if line] == [
        "3 games in 3 day files from tenhou.net's index (2 fetched, 1 unchanged since an earlier run)."
    ]


def test_download_does_not_ask_for_logs_when_the_index_was_refused(site, clock, fetchers, tmp_path):
    small_site(site)
    cache = tmp_path / "cache"
    with LogCache(cache).lock(timeout=0):
        result = run("download", "--since", "2026-11-15", "--db", str(tmp_path / "h.db"), site=site, cache_dir=cache)
    assert result.exit_code == 1 and site.requests == []
    lines = result.stderr.splitlines()
    assert "gave up after waiting 1 s" in lines[-3] and lines[-1] == "Stopped before downloading anything."
