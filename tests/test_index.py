"""Tenhou's public index: the formats (pure), and `index` / `download` by selection against a
loopback stand-in of tenhou.net (``tests/tenhou_standin.py``) serving files in the real formats.

Every day file and list here is written by the tests with made-up players and ids; the last
tests build a stand-in from real corpus games at run time (see ``corpus_standin``).
"""

from __future__ import annotations

import functools
import gzip
import json
import re
import sqlite3
import zipfile
from collections import Counter
from datetime import date, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tenhou_tools import __version__
from tenhou_tools.cli import cli, download_cmd, index_cmd, progress
from tenhou_tools.ids import JST
from tenhou_tools.mjlog import parse_game
from tenhou_tools.sources import index_fetch
from tenhou_tools.sources.cache import LogCache
from tenhou_tools.sources.http import LogFetcher
from tenhou_tools.sources.index import (
    DayFile,
    IndexFormatError,
    LineError,
    Placement,
    Selection,
    merge_games,
    parse_day_file_name,
    parse_file_index,
    parse_line,
    read_day_file,
)
from tenhou_tools.sources.local import iter_logs
from tenhou_tools.sources.logstore import LogDatabase, LogRow

from .conftest import FIXTURES
from .download_support import FakeTime, _isolated_env  # noqa: F401 - the autouse fixture, by name
from .tenhou_standin import (
    Game,
    StandIn,
    corpus_standin,
    day_file,
    list_body,
    sca_line,
    scc_line,
    scf_line,
    scraw_zip,
)

ONE_HAND = (FIXTURES / "one_hand.xml").read_bytes()  # GO type 169: 四鳳南喰赤
SANMA = (FIXTURES / "sanma_kita.xml").read_bytes()  # GO type 185: 三鳳南喰赤


def g4(day: str, hour: int, n: int) -> str:
    """A 4-player Houou East-South id (type 00a9) of a day (YYYYMMDD)."""
    return f"{day}{hour:02d}gm-00a9-0000-{n:08x}"


def g3(day: str, hour: int, n: int) -> str:
    """A 3-player Houou East-South id (type 00b9)."""
    return f"{day}{hour:02d}gm-00b9-0000-{n:08x}"


FOUR = (("Ａｌｉｃｅ", 59.0), ("Bob&Co", 11.0), ("<ちよ>", -14.0), ("Dan", -56.0))
THREE = (("Carol", 42.0), ("Eve", -4.0), ("Frank", -38.0))


def game(log_id: str, hhmm: str, results=None, minutes: int = 30, label: str = "") -> Game:
    if results is None:
        results = THREE if "-00b9-" in log_id else FOUR
    return Game(log_id, hhmm, minutes, results, label)


# --- the FileIndex ---------------------------------------------------------------------------------


def test_file_index_in_the_real_form():
    body = list_body([("scc2026111500.html.gz", 8695), ("sca20261115.log.gz", 69273),
                      ("2026/scc20260101.html.gz", 40758)]).decode()  # fmt: skip
    assert body.startswith("list([\r\n{file:'scc2026111500.html.gz',size:8695},\r\n")
    index = parse_file_index(body)
    assert index.refused == ()
    assert [(f.name, f.kind, f.day, f.hour, f.size) for f in index.files] == [
        ("scc2026111500.html.gz", "scc", date(2026, 11, 15), 0, 8695),
        ("sca20261115.log.gz", "sca", date(2026, 11, 15), None, 69273),
        ("2026/scc20260101.html.gz", "scc", date(2026, 1, 1), None, 40758),
    ]
    assert [f.has_logs for f in index.files] == [True, False, True]


@pytest.mark.parametrize("body", ["list();", "list([]);", " list( [\r\n] ) ;\r\n", "list([\n]);"])
def test_empty_file_index(body):
    assert parse_file_index(body).files == ()


@pytest.mark.parametrize(
    "body",
    ["<!DOCTYPE html><html><body>maintenance</body></html>", "", "list([{file:'scc20260101.html.gz'}]);",
     "list([{file:'scc20260101.html.gz',size:1} alert(1)]);", "var x = 1;"],
)  # fmt: skip
def test_what_is_not_a_file_index_is_refused(body):
    with pytest.raises(IndexFormatError, match="not a Tenhou file index"):
        parse_file_index(body)


@pytest.mark.parametrize(
    "name",
    ["../scc20260101.html.gz", "/etc/passwd", "2025/scc20260101.html.gz", "scc20261301.html.gz",
     "scc2026010124.html.gz", "scg20260101.html.gz", "scc20260101.html.gz?x=1", "x/2026/scc20260101.html.gz",
     "scc20260101.txt", "SCC20260101.html.gz"],
)  # fmt: skip
def test_only_exact_day_file_names_are_used(name):
    assert parse_day_file_name(name) is None
    index = parse_file_index(f"list([\r\n{{file:'{name}',size:10}},\r\n{{file:'scc20260101.html.gz',size:5}}\r\n]);")
    assert index.refused == (name,) and [f.name for f in index.files] == ["scc20260101.html.gz"]


# --- day-file lines --------------------------------------------------------------------------------


def test_a_houou_line_with_escaped_names():
    line = scc_line(game(g4("20261115", 23, 1), "23:07", minutes=41))
    assert line == (
        '23:07 | 41 | 四鳳南喰赤－ | <a href="http://tenhou.net/0/?log=2026111523gm-00a9-0000-00000001">牌譜</a> | '
        "Ａｌｉｃｅ(+59.0) Bob&amp;Co(+11.0) &lt;ちよ&gt;(-14.0) Dan(-56.0)<br>"
    )
    parsed = parse_line(line, html=True, source="dat/x")
    assert parsed is not None
    assert parsed.log_id == "2026111523gm-00a9-0000-00000001"
    assert parsed.start == datetime(2026, 11, 15, 23, 7, tzinfo=JST)
    assert parsed.minutes == 41 and parsed.rule == "四鳳南喰赤－" and parsed.source == "dat/x"
    assert parsed.results == tuple(Placement(n, p) for n, p in FOUR)
    assert (parsed.players, parsed.is_tonpu, parsed.lobby) == (4, False, 0)
    assert parsed.rule_en == "Houou 4-player East-South, red fives, open tanyao"
    assert parsed.rule_short == "Houou 4-player East-South"


def test_lines_of_every_kind():
    # a tournament line (scf): lobby column, no duration
    scf = scf_line(game("2026111520gm-0009-10431-0000abcd", "20:08", label="C0431"))
    parsed = parse_line(scf, html=True)
    assert parsed is not None and parsed.lobby == 10431 and parsed.minutes is None
    assert parsed.rule == "四般南喰赤－" and parsed.rule_short == "Ippan 4-player East-South"
    # results-only lines (sca, scb) have no id: nothing to list, and not an error
    assert parse_line(sca_line(game(g3("20261115", 15, 2), "15:24")), html=False) is None
    assert parse_line("00:00 | 31 | 四上南喰赤－ | a(+46.0) b(+8.0) c(-15.0) d(-39.0)", html=False) is None
    # chips, the 2009 whole-number points, a name that is markup in a .log file
    chips = parse_line(
        '00:02 | 08 | 三若東喰赤祝５ | <a href="http://tenhou.net/0/?log=2026111500gm-0211-0000-00000003">牌譜</a> | '
        "x y(+70.0,+5枚) <br>(-20.0,-3枚) z(-50.0,-2枚)",
        html=False,
    )  # fmt: skip
    assert chips is not None
    assert chips.results == (Placement("x y", 70.0, 5), Placement("<br>", -20.0, -3), Placement("z", -50.0, -2))
    early = parse_line(scc_line(game(g4("20090201", 0, 4), "00:05")), html=True)
    assert early is not None and [p.points for p in early.results] == [59.0, 11.0, -14.0, -56.0]
    assert "(+59)" in scc_line(game(g4("20090201", 0, 4), "00:05"))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("junk", "no start time"),
        ("25:00 | 30 | 四鳳南喰赤－ | a(+1.0)<br>", "impossible start time 25:00"),
        ("23:00 | 30 | abc | a(+1.0)<br>", "no rule"),
        ('23:00 | 30 | 四鳳南喰赤－ | <a href="x?log=2026111523gm-00a9-0000-zz">牌譜</a> | a(+1.0)<br>', "not a canonical Tenhou game id"),
        ('23:00 | 30 | 四鳳南喰赤－ | <a href="x?log=2026111523gm-00a9-0000-00000001">牌譜</a> | a(+1.0) b(+2.0)<br>',
         "2 players, but the game id is a 4-player game"),
        ('23:00 | 30 | 四鳳南喰赤－ | <a href="x?log=2026111523gm-00a9-0000-00000001">牌譜</a> | a(+1.0) b(+2)) c<br>',
         "cannot read the players"),
        ('23:00 | 30 | 四鳳南喰赤－ | <a href="x?log=2026111523gm-00a9-0000-00000001">牌譜</a> | a(+1.0) b(+2.0) c(',
         "no <br> at the end (the line is cut short)"),
        ('23:00 | 30 | 四鳳南喰赤－ | <a hr', "no <br> at the end (the line is cut short)"),
    ],
)  # fmt: skip
def test_unreadable_lines_say_why(line, message):
    with pytest.raises(LineError, match=re.escape(message)):
        parse_line(line, html=True)


def _scc(day: str, hours_and_ids: list[tuple[str, str]]) -> list[str]:
    return [scc_line(game(i, hhmm)) for hhmm, i in hours_and_ids]


def test_a_day_file_with_crlf_plain_or_gzip():
    lines = _scc("20261115", [("00:10", g4("20261115", 0, 1)), ("00:40", g3("20261115", 0, 2))])
    file = DayFile("scc20261115.html.gz", "scc", date(2026, 11, 15))
    for data in (day_file(lines), day_file(lines, compress=False), "\n".join(lines).encode()):
        content = read_day_file(data, file)
        assert content.complete and content.bad_lines == 0 and content.lines == 2
        assert [g.log_id for g in content.games] == [g4("20261115", 0, 1), g3("20261115", 0, 2)]
    assert day_file(lines, compress=False).count(b"\r\n") == 2


def test_a_truncated_day_file_gives_its_complete_lines_and_says_so():
    lines = _scc("20261115", [(f"{h:02d}:{m:02d}", g4("20261115", h, 100 * h + m)) for h in range(3) for m in (5, 35)])
    file = DayFile("scc20261115.html.gz", "scc", date(2026, 11, 15))
    whole = day_file(lines)
    cut = read_day_file(whole[:-20], file)
    assert not cut.complete and cut.truncated == "the gzip data ends early (truncated)"
    assert 0 < len(cut.games) < 6 and cut.bad_lines == 0
    assert [g.log_id for g in cut.games] == [g.log_id for g in read_day_file(whole, file).games][: len(cut.games)]
    plain = day_file(lines, compress=False)
    half_line = read_day_file(plain[: plain.index(b"\r\n", 200) + 40], DayFile("scc20261115.html", "scc", date(2026, 11, 15)))
    assert half_line.truncated is not None and half_line.truncated.startswith("the last line is cut short")
    assert half_line.bad_lines == 0 and len(half_line.games) >= 1
    corrupt = bytearray(whole)
    corrupt[30:40] = b"\xff" * 10
    assert read_day_file(bytes(corrupt), file).truncated is not None


def test_bad_lines_are_counted_and_described_and_the_rest_read():
    lines = _scc("20261115", [("00:10", g4("20261115", 0, 1))]) + ["garbage line"] + _scc(
        "20261115", [("01:10", g4("20261115", 1, 2))]
    )
    content = read_day_file(day_file(lines), DayFile("scc20261115.html.gz", "scc", date(2026, 11, 15)))
    assert len(content.games) == 2 and content.bad_lines == 1
    assert content.bad_examples == ("line 2: no start time (HH:MM)",)


def test_selection_and_merging():
    a = parse_line(scc_line(game(g4("20261114", 9, 1), "09:00")), html=True)
    b = parse_line(scc_line(game(g3("20261115", 9, 2), "09:30")), html=True)
    c = parse_line(scc_line(game("2026111510gm-00e1-0000-00000003", "10:00")), html=True)  # East-only
    games = [a, b, c]
    assert all(g is not None for g in games)

    def ids(selection: Selection) -> list[str]:
        return [g.log_id[-1] for g in games if selection.matches(g)]

    assert ids(Selection()) == ["1", "2", "3"]
    assert ids(Selection(since=date(2026, 11, 15))) == ["2", "3"]
    assert ids(Selection(until=date(2026, 11, 14))) == ["1"]
    assert ids(Selection(players=3)) == ["2"]
    assert ids(Selection(length="east")) == ["3"] and ids(Selection(length="south")) == ["1", "2"]
    assert ids(Selection(player_names=("alice",))) == ["1", "3"]  # full-width Ａｌｉｃｅ, any case
    assert ids(Selection(player_names=("carol", "nobody"))) == ["2"]
    assert ids(Selection(lobbies=(lambda t, lobby: t == 0xE1,))) == ["3"]
    merged, duplicates = merge_games([[c, a], [a, b]])
    assert [g.log_id[-1] for g in merged] == ["1", "2", "3"] and duplicates == 1


_LINE_PIECES = st.sampled_from([
    " | ", "23:07", "25:99", "41", "四鳳南喰赤－", "三", '<a href="http://tenhou.net/0/?log=', "2026111523gm-00a9-0000-00000001",
    "2026111523gm-00b9-0000-00000002", '">牌譜</a>', "Ａｌｉｃｅ", "(+59.0)", "(-14.0,+5枚)", "(", ")", "&amp;", "<br>",
    "\r", " ", "L1001", "C0431", "log=", "x",
])  # fmt: skip


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(_LINE_PIECES, max_size=14).map("".join), st.booleans())
def test_any_line_is_a_game_nothing_or_a_line_error(line, html):
    try:
        parsed = parse_line(line, html=html)
    except LineError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    if parsed is not None:
        assert len(parsed.results) == parsed.players


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.binary(max_size=600), st.integers(0, 600))
def test_any_bytes_make_a_day_file_without_an_exception(noise, cut):
    good = day_file([scc_line(game(g4("20261115", 0, 1), "00:10")), scc_line(game(g3("20261115", 1, 2), "01:10"))])
    file = DayFile("scc20261115.html.gz", "scc", date(2026, 11, 15))
    for data in (noise, good[:cut] + noise, gzip.compress(noise), good[:cut]):
        content = read_day_file(data, file)
        assert content.lines == len(content.games) + content.bad_lines + content.without_log
    for text in (noise.decode("utf-8", "replace"), "list([" + noise.decode("latin-1") + "]);"):
        try:
            index = parse_file_index(text)
        except IndexFormatError:
            continue
        assert all(parse_day_file_name(f.name, f.size) == f for f in index.files)


# --- the stand-in, and the commands ----------------------------------------------------------------


NOW = datetime(2026, 11, 20, 12, 0, tzinfo=JST).timestamp()


@pytest.fixture
def clock(monkeypatch):
    """The index's wall clock (the age of the kept lists): 2026-11-20 12:00 JST, moved by tests."""
    now = [NOW]
    monkeypatch.setattr(index_fetch, "_now", lambda: now[0])
    return now


@pytest.fixture
def fetchers(monkeypatch):
    """Both commands' fetchers without real pauses (the fake clock records them)."""
    fake = FakeTime()
    factory = functools.partial(LogFetcher, timeout=(2.0, 2.0), jitter=0.0, retries=1, lock_timeout=1.0,
                                sleep=fake.sleep, clock=fake.clock)  # fmt: skip
    monkeypatch.setattr(download_cmd, "LogFetcher", factory)
    monkeypatch.setattr(index_cmd, "LogFetcher", factory)
    return fake


@pytest.fixture
def site():
    with StandIn() as server:
        yield server


def run(*args: str, site: StandIn | None = None, cache_dir: Path | None = None, input=None):
    argv = list(args)
    if cache_dir is not None:
        argv += ["--cache-dir", str(cache_dir)]
    if site is not None:
        argv += ["--base-url", site.url]
    return CliRunner().invoke(cli, argv, input=input)


def small_site(site: StandIn) -> dict[str, Game]:
    """Two days in list.cgi?old (one also has a tournament file), the last days hourly in
    list.cgi, a results-only file, and logs for every game."""
    games = {
        "a": game(g4("20261110", 9, 1), "09:12"),
        "b": game(g3("20261110", 21, 2), "21:40"),
        "c": game(g4("20261111", 8, 3), "08:00", results=(("Zed", 30.0), ("Ａｌｉｃｅ", 10.0), ("Yan", -10.0), ("Xu", -30.0))),
        "d": game("2026111118gm-0009-10431-00000004", "18:20", label="C0431"),
        "e": game(g4("20261115", 0, 5), "00:30"),
        "f": game(g3("20261115", 1, 6), "01:05"),
        "g": game("2026111601gm-00e1-0000-00000007", "01:59"),
    }  # fmt: skip
    site.add_files({
        "2026/scc20261110.html.gz": day_file([scc_line(games["a"]), scc_line(games["b"])]),
        "2026/scc20261111.html.gz": day_file([scc_line(games["c"])]),
        "2026/scf20261111.html.gz": day_file([scf_line(games["d"])]),
        "2026/sca20261111.log.gz": day_file([sca_line(games["c"])]),
    }, old=True)  # fmt: skip
    site.add_files({
        "scc2026111500.html.gz": day_file([scc_line(games["e"])]),
        "scc2026111501.html.gz": day_file([scc_line(games["f"])]),
        "scc2026111601.html.gz": day_file([scc_line(games["g"])]),
        "scb2026111601.log.gz": day_file(["01:00 | 20 | 四般東喰赤－ | p(+40.0) q(+10.0) r(-20.0) s(-30.0)"]),
    }, old=False)  # fmt: skip
    for g in games.values():
        site.logs[g.log_id] = log_for(g)
    return games


def log_for(g: Game) -> bytes:
    """One of our fixture logs, with the GO type (and lobby) the id announces."""
    base = SANMA if g.type_code & 0x10 else ONE_HAND
    lobby = int(g.log_id.split("-")[2])
    head = b'<GO type="185" lobby="0"/>' if g.type_code & 0x10 else b'<GO type="169" lobby="0"/>'
    return base.replace(head, f'<GO type="{g.type_code}" lobby="{lobby}"/>'.encode())


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


# --- download by selection -------------------------------------------------------------------------


def db_rows(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT id, date, num_players, is_tonpu, is_processed, was_error, log IS NOT NULL FROM logs ORDER BY id"
        ).fetchall()


def test_download_a_selection_into_a_houou_logs_database(site, clock, fetchers, tmp_path):
    games = small_site(site)
    cache, db = tmp_path / "cache", tmp_path / "houou.db"
    result = run("download", "--since", "2026-11-15", "--db", str(db), site=site, cache_dir=cache)
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "3 games in 3 day files from tenhou.net's index (3 fetched, 0 unchanged since an earlier run).",
        *(f"{games[k].log_id}: downloaded" for k in "efg"),
        "3 ids: 3 downloaded, 0 already had, 0 failed.",
    ]
    assert db_rows(db) == [
        (games["e"].log_id, "2026-11-15T00:30", 4, 0, 1, 0, 1),
        (games["f"].log_id, "2026-11-15T01:05", 3, 0, 1, 0, 1),
        (games["g"].log_id, "2026-11-16T01:59", 4, 1, 1, 0, 1),
    ]
    with sqlite3.connect(db) as conn:
        schema = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'logs'").fetchone()[0]
        blob = conn.execute("SELECT log FROM logs WHERE id = ?", (games["e"].log_id,)).fetchone()[0]
        assert [r[1] for r in conn.execute("PRAGMA index_list(logs)") if r[3] == "c"] == ["idx_logs_status_filter"]
    assert "WITHOUT ROWID" in schema and "CHECK(num_players IN (4, 3))" in schema
    assert gzip.decompress(blob) == ONE_HAND
    assert [item.log_id for item in iter_logs([db])] == [games[k].log_id for k in "efg"]
    assert not any((cache / f"{games[k].log_id}.mjlog").exists() for k in "efg")  # the database keeps them
    # a second run: no request at all (the lists are fresh, the files unchanged, the logs stored)
    before = len(site.requests)
    again = run("download", "--since", "2026-11-15", "--db", str(db), site=site, cache_dir=cache)
    assert again.exit_code == 0 and len(site.requests) == before
    assert again.stderr.splitlines()[-1] == "3 ids: 0 downloaded, 3 already had, 0 failed."
    validate = run("validate", str(db), "--format", "ndjson", "--jobs", "1")
    summary = json.loads(validate.stdout.splitlines()[-1])
    assert validate.exit_code == 0 and summary["games"] == 3 and summary["failed"] == 0


def test_a_404_in_a_selection_outside_the_2010_2025_era_is_not_found(site, clock, fetchers, tmp_path):
    """Games of 2026 the server answers 404 for are not blamed on tenhou.net's 2010-2025 policy
    (tests/test_download.py has those): they fail as "not found", are not recorded (neither in
    the cache nor as houou-logs' was_error), and the next run asks again."""
    games = small_site(site)
    site.not_served = {games["a"].log_id, games["c"].log_id}
    cache, db = tmp_path / "cache", tmp_path / "h.db"
    result = run("download", "--since", "2026-11-10", "--until", "2026-11-11", "--lobby", "houou", "--db", str(db),
                 site=site, cache_dir=cache)  # fmt: skip
    assert result.exit_code == 1
    assert result.stderr.splitlines()[1:] == [
        f"Error: {games['a'].log_id}: not found on {site.host} (HTTP 404)",
        f"{games['b'].log_id}: downloaded",
        f"Error: {games['c'].log_id}: not found on {site.host} (HTTP 404)",
        "3 ids: 1 downloaded, 0 already had, 2 failed (2 not found).",
    ]
    assert [(row[0], row[5]) for row in db_rows(db)] == [(games["b"].log_id, 0)]  # no was_error row
    before = len(site.log_requests())
    again = run("download", "--since", "2026-11-10", "--until", "2026-11-11", "--lobby", "houou", "--db", str(db),
                site=site, cache_dir=cache)  # fmt: skip
    assert len(site.log_requests()) == before + 2  # asked again: nothing was recorded
    assert again.stderr.splitlines()[-1] == "3 ids: 0 downloaded, 1 already had, 2 failed (2 not found)."
    assert not (cache / "not-served.tsv").exists()
    # replay says it in one line
    replay = run("replay", games["a"].log_id, site=site, cache_dir=cache)
    assert replay.exit_code == 1
    assert replay.stderr == f"Error: {games['a'].log_id}: not found on {site.host} (HTTP 404)\n"


def test_download_a_selection_into_the_cache_and_a_folder_and_from_a_pipe(site, clock, fetchers, tmp_path):
    games = small_site(site)
    cache, out = tmp_path / "cache", tmp_path / "out"
    result = run("download", "--since", "2026-11-16", "--out", str(out), site=site, cache_dir=cache)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{out / games['g'].log_id}.mjlog\n"
    listing = run("index", "--since", "2026-11-15", site=site, cache_dir=cache)
    piped = run("download", "-", site=site, cache_dir=cache, input=listing.stdout)
    assert piped.exit_code == 0
    assert piped.stderr.splitlines() == [
        f"{games['e'].log_id}: downloaded", f"{games['f'].log_id}: downloaded",
        f"{games['g'].log_id}: already cached, skipped", "3 ids: 2 downloaded, 1 already cached, 0 failed.",
    ]  # fmt: skip
    ids = tmp_path / "ids.txt"
    ids.write_text(f"# mine\n{games['e'].log_id}\n")
    at = run("download", f"@{ids}", site=site, cache_dir=cache)
    assert at.exit_code == 0 and at.stderr.splitlines()[-1] == "1 id: 0 downloaded, 1 already cached, 0 failed."
    both = run("download", games["e"].log_id, "--since", "2026-11-15", site=site, cache_dir=cache)
    assert both.exit_code == 2 and "not both" in both.stderr
    clash = run("download", "--since", "2026-11-15", "--out", str(out), "--db", str(tmp_path / "x.db"), cache_dir=cache)
    assert clash.exit_code == 2 and "--out and --db cannot be used together" in clash.stderr


def test_ctrl_c_leaves_a_consistent_database_and_the_next_run_resumes(site, clock, fetchers, tmp_path, monkeypatch):
    games = small_site(site)
    cache, db = tmp_path / "cache", tmp_path / "h.db"

    class Interrupting(LogFetcher):
        def download(self, log_id):
            if log_id == games["c"].log_id:
                raise KeyboardInterrupt
            return super().download(log_id)

    keywords = dict(download_cmd.LogFetcher.keywords)
    monkeypatch.setattr(download_cmd, "LogFetcher", functools.partial(Interrupting, **keywords))
    stopped = run("download", "--since", "2026-11-10", "--db", str(db), site=site, cache_dir=cache)
    assert stopped.exit_code == 130
    assert stopped.stderr.splitlines()[-1] == "Interrupted. So far: 7 ids: 2 downloaded, 0 already had, 0 failed."
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert [row[0] for row in db_rows(db)] == [games["a"].log_id, games["b"].log_id]
    monkeypatch.setattr(download_cmd, "LogFetcher", functools.partial(LogFetcher, **keywords))
    before = site.log_requests()
    resumed = run("download", "--since", "2026-11-10", "--db", str(db), site=site, cache_dir=cache)
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stderr.splitlines()[-1] == "7 ids: 5 downloaded, 2 already had, 0 failed."
    assert site.log_requests()[len(before):] == [f"/0/log/?{games[k].log_id}" for k in "cdefg"]


def test_a_houou_logs_database_is_filled_in_and_a_phoenix_one_refused(site, clock, fetchers, tmp_path):
    games = small_site(site)
    db = tmp_path / "houou-logs.db"
    with sqlite3.connect(db) as conn:  # what houou-logs' fetch leaves: rows listed, not downloaded
        conn.execute(
            "CREATE TABLE logs (id TEXT PRIMARY KEY, date TEXT NOT NULL, num_players INTEGER NOT NULL CHECK(num_players IN (4, 3)), "
            "is_tonpu INTEGER NOT NULL CHECK(is_tonpu IN (0, 1)), is_processed INTEGER NOT NULL CHECK(is_processed IN (0, 1)), "
            "was_error INTEGER NOT NULL CHECK(was_error IN (0, 1)), log BLOB) WITHOUT ROWID"
        )
        conn.execute("CREATE TABLE file_index (file TEXT PRIMARY KEY, size INTEGER NOT NULL CHECK(size > 0)) WITHOUT ROWID")
        for k in "ab":
            conn.execute("INSERT INTO logs VALUES (?, ?, ?, 0, 0, 0, NULL)",
                         (games[k].log_id, "2026-11-10T00:00", len(games[k].results)))  # fmt: skip
    result = run("download", "--db", str(db), site=site, cache_dir=tmp_path / "cache")
    assert result.exit_code == 0, result.output
    assert [row[4:] for row in db_rows(db)] == [(1, 0, 1), (1, 0, 1)]
    assert [row[1] for row in db_rows(db)] == ["2026-11-10T00:00"] * 2  # houou-logs' dates are kept
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM file_index").fetchone() == (0,)
    phoenix = tmp_path / "phoenix.db"
    with sqlite3.connect(phoenix) as conn:
        conn.execute("CREATE TABLE logs (log_id text primary key, date text, is_tonpusen int, is_sanma int, "
                     "is_processed int, was_error int, log_content text)")  # fmt: skip
    refused = run("download", games["a"].log_id, "--db", str(phoenix), site=site, cache_dir=tmp_path / "cache")
    assert refused.exit_code == 2 and "phoenix-logs database without houou-logs' columns" in refused.stderr
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    assert run("download", games["a"].log_id, "--db", str(text)).exit_code == 2
    assert text.read_text() == "hello"


def test_log_rows():
    assert LogRow.of("2026111523gm-00b9-0000-00000001") == LogRow("2026111523gm-00b9-0000-00000001", "2026-11-15T23:00", 3, False)
    assert LogRow.of("2009020100gm-00e1-0000-00000002", datetime(2009, 2, 1, 0, 7, tzinfo=JST)).date == "2009-02-01T00:07"
    assert LogRow.of("2009020100gm-00e1-0000-00000002").is_tonpu


def test_the_database_is_written_one_log_per_transaction(tmp_path):
    path = tmp_path / "h.db"
    with LogDatabase(path) as db:
        row = LogRow.of("2026111523gm-00a9-0000-00000001")
        db.store(row, gzip.compress(ONE_HAND))
        db.record_not_served(row)  # a log already there is never replaced by a failure
        assert db.status([row.log_id, "2026111523gm-00a9-0000-00000002"]) == {row.log_id: "stored"}
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT was_error, log IS NOT NULL FROM logs").fetchall() == [(0, 1)]
    assert parse_game(gzip.decompress(next(iter_logs([path])).data)).header.ruleset.type_code == 169


def test_a_database_the_run_created_and_left_empty_is_removed_one_the_user_had_is_kept(tmp_path):
    """download --db NEW whose every log failed leaves no empty database behind (issue 34, item
    7); a database that was there before is never removed, empty or not."""
    new = tmp_path / "new.db"
    LogDatabase(new).close()
    assert not new.exists()
    had = tmp_path / "had.db"
    sqlite3.connect(had).close()  # an empty SQLite file the user made
    LogDatabase(had).close()
    assert had.exists()
    kept = tmp_path / "kept.db"
    with LogDatabase(kept) as db:
        db.record_not_served(LogRow.of("2026111523gm-00a9-0000-00000001"))
    assert kept.exists()


# --- the corpus: a stand-in built from real games --------------------------------------------------


@pytest.fixture(scope="module")
def real(corpus):
    """Every 6th genuine game with an id (about 670), laid out as tenhou.net lays them out."""
    paths = sorted((corpus / "mjlog").glob("*/*gm-*"))[::6]
    # the stand-in's "now" is the last year of its games: the last year with enough games for
    # the current lists (the corpus's latest years hold few; theirs are left out)
    per_year = Counter(p.name[:4] for p in paths)
    last = max(year for year, count in per_year.items() if count >= 150)
    return corpus_standin([p for p in paths if p.name[:4] <= last])


def test_index_over_real_games_lists_exactly_what_the_files_hold(real, clock, fetchers, tmp_path):
    archives = []
    for name, data in real.archives.items():
        path = tmp_path / name
        path.write_bytes(data)
        archives += ["--archive", str(path)]
    last_year = max(int(i[:4]) for i in real.in_lists)
    clock[0] = datetime(last_year, 1, 20, tzinfo=JST).timestamp()  # "now", as the lists say
    with StandIn() as site:
        site.add_files(real.old, old=True)
        site.add_files(real.recent, old=False)
        result = run("index", "--since", "2000-01-01", *archives, "--format", "ndjson", site=site, cache_dir=tmp_path / "c")
    assert result.exit_code == 0, result.stderr
    docs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["id"] for d in docs] == sorted(real.games, key=lambda i: (docs_start(real.games[i]), i))
    assert {d["id"] for d in docs} == real.in_archives | real.in_lists
    assert len(real.in_archives) > 100 and len(real.in_lists) > 100 and real.left_out > 0
    for doc in docs:
        expected = real.games[doc["id"]]
        assert [(r["name"], r["points"]) for r in doc["results"]] == list(expected.results)
        assert doc["start"] == f"{doc['id'][:4]}-{doc['id'][4:6]}-{doc['id'][6:8]}T{expected.hhmm}+09:00"
        assert doc["players"] == (3 if expected.type_code & 0x10 else 4)


def docs_start(game: Game) -> str:
    return f"{game.log_id[:8]}{game.hhmm}"


def test_download_validate_resume_over_real_games(real, clock, fetchers, tmp_path, monkeypatch):
    last_year = max(int(i[:4]) for i in real.in_lists)
    clock[0] = datetime(last_year, 1, 20, tzinfo=JST).timestamp()
    days = sorted({real.games[i].log_id[:8] for i in real.in_lists})
    since, until = days[-4], days[-1]  # a few days of list.cgi?old and of list.cgi
    wanted = sorted(i for i in real.in_lists if since <= i[:8] <= until)
    assert 20 <= len(wanted) <= 200
    cache, db = tmp_path / "cache", tmp_path / "real.db"
    iso = lambda d: f"{d[:4]}-{d[4:6]}-{d[6:8]}"  # noqa: E731
    with StandIn() as site:
        site.add_files(real.old, old=True)
        site.add_files(real.recent, old=False)
        site.logs.update(real.logs)
        calls = {"n": 0}

        class Interrupting(LogFetcher):
            def download(self, log_id):
                calls["n"] += 1
                if calls["n"] == 10:
                    raise KeyboardInterrupt
                return super().download(log_id)

        keywords = dict(download_cmd.LogFetcher.keywords)
        monkeypatch.setattr(download_cmd, "LogFetcher", functools.partial(Interrupting, **keywords))
        stopped = run("download", "--since", iso(since), "--until", iso(until), "--db", str(db), site=site, cache_dir=cache)
        assert stopped.exit_code == 130
        assert len(db_rows(db)) == 9
        monkeypatch.setattr(download_cmd, "LogFetcher", functools.partial(LogFetcher, **keywords))
        resumed = run("download", "--since", iso(since), "--until", iso(until), "--db", str(db), site=site, cache_dir=cache)
        assert resumed.exit_code == 0, resumed.output
        assert resumed.stderr.splitlines()[-1] == f"{len(wanted)} ids: {len(wanted) - 9} downloaded, 9 already had, 0 failed."
        assert sorted(r[0] for r in db_rows(db)) == wanted
        before = len(site.requests)
        again = run("download", "--since", iso(since), "--until", iso(until), "--db", str(db), site=site, cache_dir=cache)
        assert again.exit_code == 0 and len(site.requests) == before
        assert site.max_inflight == 1
    validate = run("validate", str(db), "--format", "ndjson", "--jobs", "1")
    lines = [json.loads(line) for line in validate.stdout.splitlines()]
    assert validate.exit_code == 0
    assert lines[-1]["games"] == len(wanted) and lines[-1]["failed"] == 0
    assert sorted(doc["log_id"] for doc in lines[:-1]) == wanted
    with sqlite3.connect(db) as conn:  # the database holds the very bytes the site served, gzip-compressed
        for log_id, blob in conn.execute("SELECT id, log FROM logs"):
            assert gzip.decompress(blob) == real.logs[log_id]


def test_the_readme_flow_is_the_real_output(corpus, clock, fetchers, tmp_path, monkeypatch):
    """The README's "index -> download -> validate -> stats" example, against a stand-in built
    from the corpus games it shows (2009-03 in an archive, 2022-06-01 in list.cgi)."""
    from .conftest import REPO

    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = text.split("From the index to statistics", 1)[1].split("```\n", 2)[1]
    paths = sorted(p for p in (corpus / "mjlog").glob("*/*gm-*") if p.name.startswith(("200903", "20220601")))
    real = corpus_standin(paths)
    (tmp_path / "scraw2009.zip").write_bytes(real.archives["scraw2009.zip"])
    monkeypatch.chdir(tmp_path)
    clock[0] = datetime(2026, 11, 24, tzinfo=JST).timestamp()
    with StandIn() as site:
        site.add_files(real.old, old=True)
        site.add_files(real.recent, old=False)
        site.logs.update(real.logs)
        site.not_served = {i for i in real.logs if 2010 <= int(i[:4]) <= 2025}
        monkeypatch.setenv("TENHOU_TOOLS_BASE_URL", site.url)
        monkeypatch.setenv("TENHOU_TOOLS_CACHE_DIR", str(tmp_path / "cache"))
        for chunk in block.split("$ tenhou-tools ")[1:]:
            command, *expected = chunk.rstrip("\n").split("\n")
            command, _, pipe = command.partition(" | ")
            result = CliRunner().invoke(cli, command.split())
            out = result.stdout.splitlines()
            if pipe:
                assert pipe == "head -3"
                out = out[:3]
            err = [line for line in result.stderr.splitlines() if not line.startswith("stats: ")]  # timing
            shown = [line.replace("127.0.0.1:8765", site.host) for line in expected]
            assert err + out == shown or out + err == shown, command


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
