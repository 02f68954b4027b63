"""tenhou.net/6 JSON: writing mjlog games as Tenhou's viewer JSON, reading it back (turn order
re-simulated, with backtracking), and the corpus's games that exist in both formats."""

from __future__ import annotations

import json
import os

import pytest

from tenhou_tools.check import check_log
from tenhou_tools.errors import ParseError
from tenhou_tools.events import Bye, CallKind, Reconnect
from tenhou_tools.findings import Severity
from tenhou_tools.formats import detect_format, dumps, load_game
from tenhou_tools.formats.common import TileIds, code_kind, code_of, code_sort_key
from tenhou_tools.formats.tenhou6 import _tsumo_split, read_tenhou6, write_tenhou6
from tenhou_tools.ids import log_id_from_name
from tenhou_tools.mjlog import parse_game
from tenhou_tools.replay.engine import replay_game
from tenhou_tools.sources.files import read_game

from .conftest import FIXTURES, corpus_files, corpus_root
from .formats_support import corpus_pairs, json_stream, mjlog_as_json_sees_it, stream
from .scenario import Scenario


def round_trip(game):
    """mjlog game -> JSON text -> game."""
    text = dumps(game, "tenhou6")
    return read_tenhou6(text.encode(), source="<test>")


# -- tile codes and call strings -----------------------------------------------------------------


def test_tile_codes():
    assert [code_of(t, red=True) for t in (0, 16, 17, 52, 88, 108, 135)] == [11, 51, 15, 52, 53, 41, 47]
    assert code_of(16, red=False) == 15
    assert all(code_kind(code_of(t, red=True)) == t >> 2 for t in range(136))
    assert sorted([53, 35, 34, 36], key=code_sort_key) == [34, 35, 53, 36]  # red after the plain fives
    with pytest.raises(ValueError):
        code_kind(48)


def test_tile_ids_are_distinct_and_red_is_copy_zero():
    ids = TileIds(red=True, source="x", where="y")
    assert ids.new(4, True) == 16
    assert [ids.new(4, False) for _ in range(3)] == [17, 18, 19]
    with pytest.raises(ParseError, match="more copies"):
        ids.new(4, False)
    plain = TileIds(red=False, source="x", where="y")
    assert [plain.new(4, False) for _ in range(4)] == [16, 17, 18, 19]


CALLS = {
    # string: (kind, called code, consumed codes, offset of the seat called from)
    "c275226": (CallKind.CHI, 27, (52, 26), 3),
    "p252525": (CallKind.PON, 25, (25, 25), 3),
    "12p1212": (CallKind.PON, 12, (12, 12), 2),
    "3737p37": (CallKind.PON, 37, (37, 37), 1),
    "m39393939": (CallKind.OPEN_KAN, 39, (39, 39, 39), 3),
    "26m262626": (CallKind.OPEN_KAN, 26, (26, 26, 26), 2),
    "131313m13": (CallKind.OPEN_KAN, 13, (13, 13, 13), 1),
}


@pytest.mark.parametrize("text", sorted(CALLS))
def test_call_strings_both_ways(text):
    from tenhou_tools.formats.tenhou6 import _from_slot, _HandReader, meld_string

    kind, called, consumed, rel = CALLS[text]
    reader = _HandReader.__new__(_HandReader)
    reader.red, reader.where, reader.game = True, "test", None
    letter, got_called, got_consumed, from_seat, _ = reader.take_token(text, 0)
    assert (got_called, tuple(sorted(got_consumed, key=code_sort_key)), from_seat) == (
        called, tuple(sorted(consumed, key=code_sort_key)), rel)
    assert meld_string(letter, called, consumed, _from_slot(kind, rel)) == text


def test_kan_and_kita_strings():
    from tenhou_tools.formats.tenhou6 import _HandReader

    reader = _HandReader.__new__(_HandReader)
    reader.red, reader.where, reader.game = True, "test", None
    assert reader.give_token("424242a42", 0)[:2] == ("a", (42, 42, 42, 42))
    assert reader.give_token("151515a51", 0)[:2] == ("a", (15, 15, 15, 51))
    assert reader.give_token("k16161616", 0)[:2] == ("k", 16)
    assert reader.give_token("41k414141", 0)[:2] == ("k", 41)
    assert reader.give_token("4646k4646", 0)[:2] == ("k", 46)
    assert reader.give_token("f44", 0)[:2] == ("f", 44)
    assert reader.give_token("r60", 0) == ("x", 60, True)
    assert reader.give_token(0, 0) == ("0",)


def test_tsumo_split():
    assert _tsumo_split(1500, 4) == (400, 700)  # 40 fu 1 han: 400-700
    assert _tsumo_split(8000, 4) == (2000, 4000)
    assert _tsumo_split(1100, 3) == (400, 700)  # three-player: no third payer
    assert _tsumo_split(4000, 4) == (1000, 2000)


# -- our fixtures ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["one_hand.mjlog", "sanma_kita.xml"])
def test_fixture_round_trip_and_replay(name):
    game = read_game(FIXTURES / name)
    back = round_trip(game)
    assert json_stream(back, game) == mjlog_as_json_sees_it(game)
    assert back.header.shuffle is None and back.header.ruleset == game.header.ruleset
    report = replay_game(back)
    assert report.ok, report.findings
    assert report.checks["wall_not_checkable"] == len(back.hands)


def test_written_json_shape():
    doc = write_tenhou6(read_game(FIXTURES / "sanma_kita.xml"))
    assert list(doc) == ["ver", "log", "ratingc", "rule", "lobby", "dan", "rate", "sx", "sc", "name"]
    assert doc["ratingc"] == "PF3" and doc["rule"]["disp"].startswith("三")
    hand = doc["log"][0]
    assert len(hand) == 17 and hand[13:16] == [[], [], []]  # the empty fourth seat
    assert any("f44" in gives for gives in hand[6:16:3])
    assert doc["sc"][6:] == [0, 0]


def confusing_naki() -> Scenario:
    """Seat 0 discards 9m twice with no draw of seat 3 in between (seat 0 pons in the middle);
    seat 3 pons the *second* 9m: its take list cannot say which."""
    b = Scenario(["99m55z1234p1234s1z", "2345678m5678p9p7z", "5z2345678s6789p2z", "99m11m345m567s3z4z7z"]).begin()
    b.draw(0, "6z")
    b.discard(0, "9m")
    b.turn(1, "8s")
    b.draw(2, "9s")
    five = b.discard(2, "5z")
    b.pon(0, 2, five)
    nine = b.discard(0, "9m")
    b.pon(3, 0, nine)
    b.raw('<BYE who="1"/>')
    win = b.discard(3, "3z")
    b.raw('<UN n1="%42"/>')
    return b, win


def test_ambiguous_calls_are_backtracked():
    b, win = confusing_naki()
    game = parse_game(b.agari(who=0, from_who=3, win_tile=win))
    back = round_trip(game)
    assert json_stream(back, game) == mjlog_as_json_sees_it(game)
    events = back.hands[0].events
    assert Bye(1) in events and Reconnect(1, "B") in events


def test_connection_entries_count_other_events():
    b, win = confusing_naki()
    doc = write_tenhou6(parse_game(b.agari(who=0, from_who=3, win_tile=win)))
    assert doc["connection"] == [{"what": 0, "log": 0, "who": 1, "step": 9},
                                 {"what": 1, "log": 0, "who": 1, "step": 10}]


# -- reading errors and dispatch ------------------------------------------------------------------


def minimal_doc() -> dict:
    return write_tenhou6(read_game(FIXTURES / "one_hand.mjlog"))


@pytest.mark.parametrize(("data", "message"), [
    (b"{", "not valid JSON"),
    (b"[]", "not a tenhou.net/6 log"),
    (b'{"log": []}', "no hands"),
    (b'{"log": [[1, 2]]}', "17 entries"),
    (b"   ", "empty file"),
])
def test_bad_json_is_one_line_parse_error(data, message):
    with pytest.raises(ParseError, match=message) as info:
        read_tenhou6(data, source="bad.json")
    assert "\n" not in str(info.value) and str(info.value).startswith("bad.json")


def test_a_call_that_fits_no_turn_order_is_refused():
    doc = minimal_doc()
    hand = doc["log"][0]
    hand[5].insert(0, "p434343")  # S0 "pons" a haku nobody discarded
    with pytest.raises(ParseError, match="fit no turn order"):
        read_tenhou6(json.dumps(doc), source="x.json")


def test_unknown_yaku_and_result():
    doc = minimal_doc()
    doc["log"][0][16][2][4] = "謎の役(1飜)"
    with pytest.raises(ParseError, match="unknown yaku"):
        read_tenhou6(json.dumps(doc))
    doc["log"][0][16] = ["引き分け"]
    with pytest.raises(ParseError, match="unknown result"):
        read_tenhou6(json.dumps(doc))


def test_load_game_dispatches_on_content(tmp_path):
    import gzip

    text = dumps(read_game(FIXTURES / "one_hand.mjlog"), "tenhou6").encode()
    assert detect_format(text) == "tenhou6" and detect_format(b"  \n" + text) == "tenhou6"
    assert detect_format(gzip.compress(text)) == "tenhou6"
    assert detect_format((FIXTURES / "one_hand.mjlog").read_bytes()) == "mjlog"
    assert load_game(gzip.compress(text)).hands[0].init.scores == (25000,) * 4
    mjai = dumps(read_game(FIXTURES / "one_hand.mjlog"), "mjai").encode()
    with pytest.raises(ParseError, match="mjai"):
        load_game(mjai, source="g.mjson")


def test_check_log_reads_json_and_keeps_the_record_contract():
    text = dumps(read_game(FIXTURES / "one_hand.mjlog"), "tenhou6").encode()
    record = check_log(text, path="g.json", log_id="2014x")
    assert record.ok and record.hands == 1
    assert set(record.to_json()) == {"type", "path", "log_id", "ok", "hands", "checks", "findings"}
    assert record.to_json()["checks"]["wall_not_checkable"] == 1
    assert check_log(text, path="g.json", log_format="tenhou6").ok
    bad = check_log(b"{", path="bad.json")
    assert not bad.ok and bad.findings[0].code.value == "PARSE_ERROR"


def test_a_part_of_a_game_is_checked_without_its_start_and_end():
    """mjx's test data keeps one hand per file: the first hand's carry-over and the end of the
    game cannot be known, everything else is checked."""
    doc = minimal_doc()
    doc["log"][0][0] = [4, 0, 0]  # South 1, not the first hand of a game
    doc["log"][0][1] = [30000, 20000, 25000, 25000]
    whole = check_log(json.dumps(doc).encode(), path="whole.json")
    assert {"CARRY_SCORES", "CARRY_ROUND"} <= {f.code.value for f in whole.findings}
    del doc["sc"]
    record = check_log(json.dumps(doc).encode(), path="part.json")
    codes = {f.code.value for f in record.findings if f.severity is Severity.ERROR}
    assert not {"CARRY_SCORES", "CARRY_ROUND", "GAME_END"} & codes
    # counted where it could not run: the first hand's start and the last hand's end
    assert record.to_json()["checks"]["fragment_not_checkable"] == 2
    assert any("no final result" in f.message for f in record.findings)


# -- the corpus -----------------------------------------------------------------------------------

PAIRS = corpus_pairs(corpus_root())
KNOWN_BAD = {
    # The winner of this hand is not given the riichi stick S2 paid (the deltas say 1600, the
    # rules 2600): mjai-reviewer's test file, not consistent with Tenhou's rules whatever the
    # turn order. The engine is right to flag it.
    "confusing_nakis_1.json": {"PAYMENT"},
}


@pytest.mark.corpus
@pytest.mark.skipif(not PAIRS, reason="corpus not found (set TENHOU_CORPUS)")
@pytest.mark.parametrize(("mjlog", "tenhou6"), PAIRS, ids=lambda p: p.name)
def test_paired_games_agree_both_ways(mjlog, tenhou6):
    game = read_game(mjlog)
    theirs = json.loads(tenhou6.read_bytes())
    ours = write_tenhou6(game)
    by_start = {json.dumps(h[:2]): h for h in ours["log"]}
    for hand in theirs["log"]:
        mine = by_start.get(json.dumps(hand[:2]))
        assert mine is not None, hand[:2]
        assert mine == hand  # deal, draws, discards, calls, dora, ura, result: entry by entry
    for key in ("sc", "dan", "rate", "sx", "lobby", "ratingc", "ver", "connection"):
        if key in theirs:
            assert ours.get(key) == theirs[key], key
    read = read_tenhou6(tenhou6.read_bytes(), source=str(tenhou6))
    starts = {(h.init.round, h.init.honba, h.init.scores): h for h in game.hands}
    hands = tuple(starts[(h.init.round, h.init.honba, h.init.scores)] for h in read.hands)
    import dataclasses

    part = dataclasses.replace(game, hands=hands)
    if len(hands) < len(game.hands):  # a fragment has no final result
        part = dataclasses.replace(part, hands=tuple(
            dataclasses.replace(h, events=tuple(
                dataclasses.replace(e, owari=None) if hasattr(e, "owari") else e for e in h.events))
            for h in hands))
    connections = "connection" in theirs or not any(isinstance(e, (Bye, Reconnect)) for h in hands for e in h.events)
    assert json_stream(read, game, connections=connections) == mjlog_as_json_sees_it(part, connections=connections)


@pytest.mark.corpus
def test_every_corpus_json_reads_and_validates(corpus):
    files = corpus_files("tenhou6", "*.json")
    assert len(files) >= 300
    problems = {}
    for path in files:
        record = check_log(path.read_bytes(), path=str(path), log_id=log_id_from_name(path.name))
        errors = {f.code.value for f in record.findings if f.severity is Severity.ERROR}
        if errors != KNOWN_BAD.get(path.name, set()):
            problems[path.name] = sorted(errors)
    assert problems == {}


@pytest.mark.corpus
def test_corpus_sample_round_trips_through_json(corpus):
    step = int(os.environ.get("TENHOU_FORMATS_STEP", "25"))
    files = corpus_files("mjlog")[::step]
    assert files
    for path in files:
        game = read_game(path)
        back = round_trip(game)
        assert stream(back, riichi_scores=False, chips=False) == stream(game, riichi_scores=False, chips=False), path
        assert replay_game(back).ok, path


def every_meld_kind() -> bytes:
    """A hand with a closed kan, a chi, a pon made an added kan, an open kan and their dora."""
    from tenhou_tools.mjlog import decode_meld

    b = Scenario(["1111m234p567s99p5z", "78p1s2345m678s12z6p", "11s2345p567m4z6z7z8m", "999s12345678p3z4z"],
                 dora="5s").begin()
    b.draw(0, "6z")
    b.closed_kan(0, "1m")
    doras = [b.dora, b.take("1z")]
    b.raw(f'<DORA hai="{doras[-1]}"/>')
    b.draw(0, "7z")
    nine = b.discard(0, "9p")
    b.chi(1, 0, nine, "78p")
    one = b.discard(1, "1s")
    b.pon(2, 1, one)
    b.discard(2, "4z")
    b.turn(3, "2z")
    b.turn(0, "2z")
    b.turn(1, "8m")
    added = b.draw(2, "1s")
    (code,) = b.melds[2]
    pon = decode_meld(code, 2)
    b.melds[2].clear()
    b.call(2, CallKind.ADDED_KAN, [*pon.tiles, added], pon.called, 1, added=added)
    b.draw(2, "9m")
    doras.append(b.take("2z"))
    b.raw(f'<DORA hai="{doras[-1]}"/>')
    b.discard(2, "9m")
    b.turn(3, "8s")
    b.draw(0, "9s")
    nine_s = b.discard(0, "9s")
    three = [t for t in b.hands[3] if t >> 2 == nine_s >> 2]
    b.call(3, CallKind.OPEN_KAN, [*three, nine_s], nine_s, 0)
    b.draw(3, "4s")
    doras.append(b.take("3z"))
    b.raw(f'<DORA hai="{doras[-1]}"/>')
    win = b.discard(3, "3z")
    xml = b.agari(who=1, from_who=3, win_tile=win)
    return xml.replace(f'doraHai="{b.dora}"'.encode(), f'doraHai="{",".join(map(str, doras))}"'.encode())


def test_every_meld_kind_round_trips():
    game = parse_game(every_meld_kind())
    kinds = [e.meld.kind for e in game.hands[0].events if hasattr(e, "meld")]
    assert set(kinds) == {CallKind.CLOSED_KAN, CallKind.CHI, CallKind.PON, CallKind.ADDED_KAN, CallKind.OPEN_KAN}
    doc = write_tenhou6(game)
    hand = doc["log"][0]
    strings = [x for x in hand[5:16] for x in x if isinstance(x, str)]
    assert any("a" in s for s in strings) and any(s.startswith("c") for s in strings)
    assert any("k" in s for s in strings) and any("m" in s for s in strings) and 0 in hand[15]
    assert len(hand[2]) == 4
    back = round_trip(game)
    assert json_stream(back, game) == mjlog_as_json_sees_it(game)


def test_other_start_points_are_a_finding_in_a_ranked_lobby():
    """A JSON stated to be from a ranked lobby keeps the ranked rules: other start points are a
    finding. Without the lobby, the table's own rules are unknown and only a warning says so."""
    doc = minimal_doc()
    assert doc["lobby"] == 0
    doc["log"][0][1] = [30000, 30000, 30000, 30000]
    ranked = check_log(json.dumps(doc).encode(), path="ranked.json")
    assert "CARRY_SCORES" in {f.code.value for f in ranked.findings}
    del doc["lobby"]
    unstated = check_log(json.dumps(doc).encode(), path="unstated.json")
    codes = {f.code.value: f.severity for f in unstated.findings}
    assert "CARRY_SCORES" not in codes and codes.get("PARSE_WARNING") is Severity.WARNING
