"""Tenhou's public index, its formats (pure functions): the file index, day-file names and lines
of every kind, selection and merging, and any bytes read without an exception (hypothesis)."""

from __future__ import annotations

import gzip
import re
from datetime import date, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tenhou_tools.ids import JST
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

from .download_support import _isolated_env  # noqa: F401 - the autouse fixture, by name
from .index_support import FOUR, g3, g4, game
from .tenhou_standin import day_file, list_body, sca_line, scc_line, scf_line

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
