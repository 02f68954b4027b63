"""The reader and parser on the project's fixtures and on logs altered in memory."""

from __future__ import annotations

import gzip
import zlib

import pytest

from tenhou_tools.errors import ParseError
from tenhou_tools.events import (
    Agari,
    Bye,
    Call,
    CallKind,
    Discard,
    Draw,
    DrawKind,
    NewDora,
    Reconnect,
    Riichi,
    Room,
    Ryuukyoku,
    Unknown,
)
from tenhou_tools.mjlog import parse_game, ruleset_from_type
from tenhou_tools.mjlog.read import MAX_BYTES
from tenhou_tools.sources.files import read_game

from .conftest import FIXTURES

HEAD = (
    '<mjloggm ver="2.3"><SHUFFLE seed="mt19937ar-sha512-n288-base64,AAAA" ref=""/>'
    '<GO type="169" lobby="0"/>'
    '<UN n0="%41" n1="%42" n2="%43" n3="%44" dan="10,11,12,13" rate="1500.5,1600,1700,1800" sx="M,F,M,F"/>'
    '<TAIKYOKU oya="0"/>'
)
INIT = (
    '<INIT seed="0,0,0,2,4,40" ten="250,250,250,250" oya="0" '
    'hai0="124,125,0,126,128,4,129,130,8,132,133,68,69" hai1="12,16,20,24,28,32,36,44,48,52,56,60,134" '
    'hai2="72,76,80,84,88,92,96,104,108,112,116,120,1" hai3="2,5,9,13,17,21,25,29,33,37,41,45,49"/>'
)
END = (
    '<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0" type="yao9"'
    ' hai0="0,4,8,68,69,124,125,126,128,129,130,132,133,100"'
    ' owari="250,20.0,250,0.0,250,-5.0,250,-15.0"/></mjloggm>'
)


def log(body: str, *, head: str = HEAD, init: str = INIT, end: str = END) -> bytes:
    return (head + init + body + end).encode()


def events_of(body: str):
    return parse_game(log(body)).hands[0].events


def test_one_hand_fixture(fixtures):
    game = read_game(fixtures / "one_hand.xml")
    assert game.header.ruleset.players == 4
    assert game.header.ruleset.room is Room.HOUOU
    assert [p.name for p in game.header.players] == ["Alice", "Bob", "さくら", "Dan"]
    assert game.header.players[0].dan == 16 and game.header.players[1].rate == 2080.5
    assert game.header.shuffle is None
    (hand,) = game.hands
    assert hand.init.dice == (3, 5) and hand.init.dora_indicator == 40
    assert hand.init.scores == (25000, 25000, 25000, 25000)
    assert hand.events[:4] == (Draw(0, 100), Discard(0, 100, True), Draw(1, 101), Discard(1, 134, False))
    agari = hand.events[4]
    assert isinstance(agari, Agari)
    assert (agari.who, agari.from_who, agari.win_tile, agari.points, agari.yakuman) == (0, 1, 134, 48000, (39,))
    assert agari.deltas == (48000, -48000, 0, 0)
    assert agari.owari.scores == (73000, -23000, 25000, 25000)
    assert agari.owari.points == (83.0, -73.0, 5.0, -15.0)


def test_gzip_is_sniffed_not_named(fixtures):
    assert read_game(fixtures / "one_hand.mjlog") == read_game(fixtures / "one_hand.xml")
    data = (fixtures / "one_hand.xml").read_bytes()
    assert parse_game(gzip.compress(data)) == parse_game(data)


def test_sanma_kita_fixture(fixtures):
    game = read_game(fixtures / "sanma_kita.xml")
    assert game.header.ruleset.sanma
    assert game.hands[0].init.hands[3] == ()
    call = game.hands[0].events[1]
    assert isinstance(call, Call) and call.meld.kind is CallKind.KITA and call.meld.tiles == (120,)
    assert game.hands[0].events[2] == Draw(0, 100, rinshan=True)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("truncated.mjlog", "gzip data is truncated"),
        ("not_mjlog.xml", "not a Tenhou log (an HTML page"),
        ("empty.mjlog", "empty file"),
    ],
)
def test_bad_fixtures(fixtures, name, message):
    with pytest.raises(ParseError) as info:
        read_game(fixtures / name)
    text = str(info.value)
    assert message in text and name in text and "\n" not in text


def test_tsumogiri_and_rinshan_are_derived():
    body = '<T100/><N who="0" m="31744"/><DORA hai="41"/><T101/><D101/><U102/><E12/>'
    ev = events_of(body)
    # 31744 = 124 << 8: a closed kan of haku
    assert ev[1].meld.kind is CallKind.CLOSED_KAN
    assert ev[2] == NewDora(41)
    assert ev[3] == Draw(0, 101, rinshan=True)
    assert ev[4] == Discard(0, 101, tsumogiri=True)
    assert ev[6] == Discard(1, 12, tsumogiri=False)


def test_discard_after_call_is_never_tsumogiri():
    ev = events_of('<T100/><D100/><N who="1" m="37449"/><E100/>')
    assert ev[3] == Discard(1, 100, tsumogiri=False)


def test_riichi_steps_with_and_without_ten():
    ev = events_of('<T100/><REACH who="0" step="1"/><D100/><REACH who="0" ten="240,250,250,250" step="2"/>'
                   '<U101/><REACH who="1" step="1"/><E101/><REACH who="1" step="2"/>')
    assert ev[1] == Riichi(0, 1)
    assert ev[3] == Riichi(0, 2, (24000, 25000, 25000, 25000))
    assert ev[7] == Riichi(1, 2, None)


def test_bye_and_reconnect_anywhere():
    game = parse_game(log('<BYE who="2"/><T100/><UN n2="%43"/>', head=HEAD + '<BYE who="1"/><UN n1="%42"/>'))
    assert game.prelude == (Bye(1), Reconnect(1, "B"))
    assert game.hands[0].events[:3] == (Bye(2), Draw(0, 100), Reconnect(2, "C"))


def test_unknown_tag_is_kept_with_a_warning():
    game = parse_game(log('<FOO bar="1"/>'))
    assert game.hands[0].events[0] == Unknown("FOO", (("bar", "1"),))
    assert len(game.warnings) == 1 and "FOO" in game.warnings[0]


def test_draw_kinds_and_shown_hands():
    game = parse_game(log(""))
    end = game.hands[0].events[-1]
    assert isinstance(end, Ryuukyoku) and end.kind is DrawKind.NINE_TERMINALS and end.kind.is_abortive
    assert end.hands[0] is not None and end.hands[1] is None


def test_chip_table_owari_and_sc():
    end = ('<AGARI ba="0,0" hai="0,1,2" machi="0" ten="30,1000,0" yaku="18,1" doraHai="40" who="0" fromWho="1" '
           'sc="250,10,250,-10,250,0,250,0,0,1,0,-1,0,0,0,0" chip="1,0" '
           'owari="260,10.0,240,-10.0,250,5.0,250,-5.0,-1,0,12,0,-8,0,-3,0"/></mjloggm>')
    game = parse_game(log("", end=end))
    agari = game.hands[0].events[-1]
    assert agari.chip_deltas == (1, -1, 0, 0)
    assert agari.extra == (("chip", "1,0"),)
    assert agari.owari.chips == (-1, 12, -8, -3)


def test_ruleset_bits():
    r = ruleset_from_type(185)
    assert (r.players, r.red_fives, r.open_tanyao, r.east_south, r.room) == (3, True, True, True, Room.HOUOU)
    assert r.name_ja() == "三鳳南喰赤"
    assert ruleset_from_type(225).name_ja() == "四鳳東喰赤速"
    assert ruleset_from_type(0x0009 | 0x2 | 0x4).name_ja() == "四般南"
    assert ruleset_from_type(0x200 | 0x400 | 0x1 | 0x8).chips == 5


@pytest.mark.parametrize(
    ("body", "end", "message"),
    [
        ('<T999/>', END, "outside 0-135"),
        ('<N who="7" m="1024"/>', END, "'who' = 7 is outside 0-3"),
        ('<N who="0" m="abc"/>', END, "not an integer"),
        ('<DORA/>', END, "missing attribute 'hai'"),
        ("", "</mjloggm>", "hand E1-0 has no AGARI or RYUUKYOKU"),
        ("", END.replace(' owari="250,20.0,250,0.0,250,-5.0,250,-15.0"', ""), "no final result (owari)"),
        ("", END.replace('250,20.0,250,0.0,250,-5.0,250,-15.0', ""), "'owari' has 0 values"),
        ("", END.replace('sc="250,0,250,0,250,0,250,0"', 'sc="1,2,3"'), "'sc' has 3 values"),
        ("", END.replace('type="yao9"', 'type="zzz"'), "unknown draw type"),
        ("", END.replace('sc="250,0,250,0', 'sc="250,' + "9" * 400 + ',250,0'),
         "'sc' has a value outside ±1000000"),
        ('<REACH who="0" step="2" ten="240,250,250,1000001"/>', END, "'ten' has a score outside ±1000000"),
    ],
)
def test_broken_logs_are_one_line_errors(body, end, message):
    with pytest.raises(ParseError) as info:
        parse_game(log(body, end=end), source="x.xml")
    assert message in str(info.value)
    assert str(info.value).startswith("x.xml: ")
    assert "\n" not in str(info.value)


def test_an_attribute_written_twice_with_the_same_value_is_read_with_a_warning():
    # Tenhou wrote owari twice on the last RYUUKYOKU of some logs of 2010-05-10 (the values
    # agree): not well-formed XML, which lxml refuses; read once, and say so
    owari = ' owari="250,20.0,250,0.0,250,-5.0,250,-15.0"'
    game = parse_game(log("", end=END.replace(owari, owari * 2)))
    assert game.owari == parse_game(log("")).owari and game.owari is not None
    assert game.warnings == ("element 5 <RYUUKYOKU>: the attribute 'owari' is written twice with the same "
                             "value, which is not well-formed XML (as Tenhou wrote some logs); read once",)
    # two different values cannot be read: the XML error as before
    with pytest.raises(ParseError, match="not well-formed XML: Attribute owari redefined"):
        parse_game(log("", end=END.replace(owari, owari + owari.replace("20.0", "21.0"))))


def test_bad_init():
    bad = INIT.replace('seed="0,0,0,2,4,40"', 'seed="0,0,0,9,4,40"')
    with pytest.raises(ParseError, match="dice"):
        parse_game(log("", init=bad))


def test_external_entities_are_not_resolved(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    doc = (f'<?xml version="1.0"?><!DOCTYPE mjloggm [<!ENTITY x SYSTEM "file://{secret}">]>'
           f'<mjloggm ver="&x;"/>').encode()
    try:
        game = parse_game(doc)
    except ParseError as exc:
        assert "TOPSECRET" not in str(exc)
    else:  # pragma: no cover - an entity that resolved would be a leak
        assert "TOPSECRET" not in game.header.version


def test_billion_laughs_is_rejected():
    ents = '<!ENTITY a0 "lol">' + "".join(
        f'<!ENTITY a{i} "{f"&a{i - 1};" * 10}">' for i in range(1, 10))
    doc = f'<?xml version="1.0"?><!DOCTYPE mjloggm [{ents}]><mjloggm ver="&a9;"/>'.encode()
    with pytest.raises(ParseError):
        parse_game(doc)


def test_size_cap_before_parsing():
    with pytest.raises(ParseError, match="limit"):
        parse_game(b"<mjloggm>" + b" " * (MAX_BYTES + 1))


def test_gzip_bomb_is_capped():
    bomb = gzip.compress(b"<mjloggm>" + b" " * (MAX_BYTES * 2) + b"</mjloggm>")
    with pytest.raises(ParseError, match="decompressed size"):
        parse_game(bomb)


def test_deep_nesting_is_rejected():
    doc = b"<mjloggm>" + b"<a>" * 5000 + b"</a>" * 5000 + b"</mjloggm>"
    with pytest.raises(ParseError):
        parse_game(doc)


def test_unknown_attributes_on_any_tag_are_warnings(fixtures):
    xml = (fixtures / "one_hand.xml").read_bytes()
    xml = xml.replace(b"<T100/>", b'<T100 x="1"/>').replace(b"<E134/>", b"<E134 />")
    game = parse_game(xml)
    assert game.warnings == ("element 4 <T100>: unknown attribute 'x'",)
    body = '<N who="0" m="1024" extra="1"/><REACH who="0" step="1" y="2"/>'
    warnings = parse_game(log(body)).warnings
    assert [w.split(": ", 1)[1] for w in warnings] == ["unknown attribute 'extra'", "unknown attribute 'y'"]


def test_seat_3_does_not_exist_in_sanma(fixtures):
    xml = (fixtures / "sanma_kita.xml").read_bytes()
    for bad in (xml.replace(b'oya="0"', b'oya="3"'), xml.replace(b"<U101/>", b"<W101/>"),
                xml.replace(b'who="0" fromWho="1"', b'who="3" fromWho="1"')):
        with pytest.raises(ParseError, match=r"outside 0-2|does not exist in a 3-player game"):
            parse_game(bad)


def test_header_oddities_are_warnings():
    game = parse_game(log("", head=HEAD + '<GO type="169" lobby="0" zzz="1"/>'))
    assert [w.split(": ", 1)[1] for w in game.warnings] == [
        "a second GO tag (the last one is used)", "unknown attribute 'zzz'"]


@pytest.mark.parametrize("text", [
    "", "Dan", "%41%6C%69%63%65", "%E3%83%81%E3%83%A3%E3%82%AA%E3%83%AA", "%E3%83", "%FF%FE%80%C3",
    "%e3%81%95", "%ZZ%41", "%4", "A%41", "%41 %42", "%20%20%20", "%%%", "%4%41", "% 4", "%+1%41",
    "%4 %41", "%%41%", "%G1%41", "%41%4", "%C3%A9%", "%0a%0D",
])
def test_player_names_decode_as_unquote_does(text):
    from urllib.parse import unquote

    from tenhou_tools.mjlog import player_name

    assert player_name(text) == unquote(text, errors="replace")


# -- logs that stop early, read without require_complete ------------------------------------------

ONE_HAND_XML = (FIXTURES / "one_hand.xml").read_bytes()
AGARI_AT = ONE_HAND_XML.index(b"<AGARI")


@pytest.mark.parametrize(("data", "notes"), [
    (ONE_HAND_XML.replace(b' owari="730,83.0,-230,-73.0,250,5.0,250,-15.0"', b""),
     ["incomplete game: the log ends after hand E1-0, without the game's final result (owari)"]),
    (ONE_HAND_XML[:AGARI_AT] + b"</mjloggm>",
     ["incomplete game: the log ends in hand E1-0, before its result"]),
    (ONE_HAND_XML[:AGARI_AT],
     ["incomplete game: the document has no </mjloggm> end tag",
      "incomplete game: the log ends in hand E1-0, before its result"]),
    (ONE_HAND_XML[:AGARI_AT + 30],
     ["incomplete game: the log is cut off in the middle of an element; read up to the last complete one",
      "incomplete game: the log ends in hand E1-0, before its result"]),
    (gzip.compress(ONE_HAND_XML[:AGARI_AT + 30], mtime=0)[:-12],  # and its gzip stream cut short as well
     ["incomplete game: the gzip data ends early; read what could be decompressed",
      "incomplete game: the log is cut off in the middle of an element; read up to the last complete one",
      "incomplete game: the log ends in hand E1-0, before its result"]),
])
def test_a_log_that_stops_early_is_read_up_to_where_it_stops(data, notes):
    with pytest.raises(ParseError, match=r"incomplete game|not well-formed|gzip data is truncated"):
        parse_game(data)
    game = parse_game(data, require_complete=False)
    assert list(game.warnings) == notes
    assert len(game.hands) == 1 and game.owari is None and not game.complete
    events = game.hands[0].events
    assert [type(e).__name__ for e in events[:4]] == ["Draw", "Discard", "Draw", "Discard"]


def test_a_complete_log_is_complete():
    assert parse_game(ONE_HAND_XML).complete
    assert parse_game(ONE_HAND_XML, require_complete=False).complete


ROOT_END = ONE_HAND_XML.rindex(b"</mjloggm>")
"""Where the fixture's closing root tag starts."""


@pytest.mark.parametrize(("data", "note"), [
    (ONE_HAND_XML[:ROOT_END], "the document has no </mjloggm> end tag"),
    (ONE_HAND_XML[:ROOT_END + 5], "the log is cut off in the middle of an element; read up to the last complete one"),
    (gzip.compress(ONE_HAND_XML, mtime=0)[:-8],  # the deflate stream is whole, the gzip trailer is missing
     "the gzip data ends early, after the game's end; read what could be decompressed"),
])
def test_a_log_cut_after_the_games_end_is_complete(data, note):
    """The game's end (the final result) is there: the game is complete, and the warning says
    what is missing without calling the game incomplete."""
    game = parse_game(data, require_complete=False)
    assert game.complete and game.owari is not None
    assert game.warnings == (note,)


def test_a_cut_gzip_log_reads_as_the_plain_log_it_decompresses_to():
    """Cut anywhere, a gzip log gives what its plain XML cut at the same place gives: the same
    game, or the same error (which also says that the gzip data ends early)."""
    packed = gzip.compress(ONE_HAND_XML, mtime=0)
    for cut in range(11, len(packed)):
        prefix = packed[:cut]
        plain = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(prefix)
        try:
            want = parse_game(plain, require_complete=False)
        except ParseError as exc:
            with pytest.raises(ParseError) as got:
                parse_game(prefix, require_complete=False)
            assert got.value.message.startswith(exc.message), cut
            assert got.value.message.endswith(f"(in what the gzip data decompresses to: it ends early, at byte "
                                              f"{cut})"), cut
            continue
        game = parse_game(prefix, require_complete=False)
        assert (game.hands, game.complete) == (want.hands, want.complete), cut
        assert game.warnings[1:] == want.warnings, cut
        assert game.warnings[0].startswith(("incomplete game: the gzip data ends early",
                                            "the gzip data ends early")), cut


def test_a_hand_with_no_result_before_the_next_one_is_a_warning():
    init = ONE_HAND_XML[ONE_HAND_XML.index(b"<INIT"):ONE_HAND_XML.index(b"<T100/>")]
    data = ONE_HAND_XML[:AGARI_AT] + init + ONE_HAND_XML[AGARI_AT:]  # GO UN TAIKYOKU INIT T D U E INIT
    game = parse_game(data, require_complete=False)
    assert game.warnings == ("incomplete game: hand E1-0 has no AGARI or RYUUKYOKU (element 8 <INIT> "
                             "starts the next)",)
    assert len(game.hands) == 2 and game.owari is not None
    assert not game.complete  # the final result is there, but not the first hand's


@pytest.mark.parametrize(("data", "message"), [
    (ONE_HAND_XML[:ONE_HAND_XML.index(b"<INIT") + 10], "not well-formed XML"),  # before any hand
    (ONE_HAND_XML.replace(b'<T100/>', b'<T100/><N who="9" m="1"/>'), "attribute 'who' = 9"),  # not a cut
    # cut inside the first INIT: what decompresses is read as the plain log would be, and says so
    ((FIXTURES / "truncated.mjlog").read_bytes(),
     r"not well-formed XML: .* \(in what the gzip data decompresses to: it ends early, at byte 305\)"),
])
def test_what_is_not_a_cut_game_is_still_an_error(data, message):
    with pytest.raises(ParseError, match=message):
        parse_game(data, require_complete=False)


@pytest.mark.parametrize(("xml", "layout"), [
    (b'<mjloggm ver="2.3"><GO type="169"/><UN n0="A"/></mjloggm>', "tenhou"),
    (b'<mjloggm ver="2.3"><UN n0="a> b"/></mjloggm>', "tenhou"),  # "> " inside a value, no tag after
    (b'<mjloggm ver="2.3"> <GO type="169"/></mjloggm>', "rewritten"),
    (b'<mjloggm ver="2.3"><GO type="169"/>\t<UN n0="A"/></mjloggm>', "rewritten"),
    (b'<mjloggm ver="2.3"><GO type="169"/>\r\n<UN n0="A"/></mjloggm>', "rewritten"),
    (b'<mjloggm ver="2.3">\n  <GO type="169"/>\n</mjloggm>', "rewritten"),
    (b'<mjloggm ver="2.3"><UN n0="A\nB"/></mjloggm>', "tenhou"),  # a line break, but not between elements
])
def test_the_layout_is_whitespace_between_elements(xml, layout):
    from tenhou_tools.mjlog._parse import layout_of

    assert layout_of(xml).value == layout


@pytest.mark.parametrize("rate", ["nan", "inf", "-inf"])
def test_a_rate_that_is_no_number_is_a_parse_error(rate):
    """``float()`` reads ``nan`` and ``inf``; a ``UN rate`` of either is not a rate (it would
    stop the era check and the cross-game pass later, and is no JSON number)."""
    from tenhou_tools.check import check_log

    from .conftest import FIXTURES

    xml = (FIXTURES / "one_hand.xml").read_bytes()
    assert b'rate="' in xml
    start = xml.index(b'rate="') + len(b'rate="')
    forged = xml[:start] + rate.encode() + xml[xml.index(b",", start):]
    assert [f.code.value for f in check_log(forged, path="x.xml").findings] == ["PARSE_ERROR"]
