"""Issue 36: claims that went unchecked. Each test changes one claim of a real log (a corpus game,
clean as it is) and sees the finding that catches it."""

from __future__ import annotations

import pytest

from tenhou_tools.events import Agari, NewDora

from .tamper import assert_clean, codes, elements, find_game, nth, serialize, xml_of


def _clean(predicate):
    path, game = find_game(predicate)
    xml = xml_of(path)
    assert_clean(xml, game.log_id)
    return xml, game


# -- tile accounting: kan dora and ura indicators ------------------------------------------------


def _has(game, cls, test=lambda e: True) -> bool:
    return any(isinstance(e, cls) and test(e) for h in game.hands for e in h.events)


@pytest.mark.parametrize("players", [4, 3])
def test_a_kan_dora_indicator_already_dealt_is_a_duplicate(corpus, players):
    xml, game = _clean(lambda g: g.header.ruleset.players == players and _has(g, NewDora))
    root, kids = elements(xml)
    dora = nth(kids, "DORA", 0)
    start = max(i for i, k in enumerate(kids[:kids.index(dora)]) if k.tag == "INIT")
    dealt = kids[start].get("hai0").split(",")[0]
    dora.set("hai", dealt)  # a fifth copy: a tile held in S0's hand shown as the indicator too
    assert "TILE_DUPLICATE" in codes(serialize(root), game.log_id)


@pytest.mark.parametrize("players", [4, 3])
def test_an_ura_indicator_already_dealt_is_a_duplicate(corpus, players):
    xml, game = _clean(lambda g: g.header.ruleset.players == players
                       and _has(g, Agari, lambda a: bool(a.ura_indicators)))
    root, kids = elements(xml)
    win = next(k for k in kids if k.tag == "AGARI" and k.get("doraHaiUra"))
    start = max(i for i, k in enumerate(kids[:kids.index(win)]) if k.tag == "INIT")
    ura = win.get("doraHaiUra").split(",")
    ura[0] = kids[start].get("hai0").split(",")[0]
    win.set("doraHaiUra", ",".join(ura))
    assert "TILE_DUPLICATE" in codes(serialize(root), game.log_id)


def test_a_double_ron_shows_its_ura_indicators_twice(corpus):
    """Both riichi winners of a double ron show the same ura indicators: not a duplicate."""
    def double_ron_both_ura(g):
        for h in g.hands:
            wins = [e for e in h.events if isinstance(e, Agari)]
            if len(wins) == 2 and all(w.ura_indicators for w in wins):
                return True
        return False
    xml, game = _clean(double_ron_both_ura)
    assert_clean(xml, game.log_id)


# -- claims that switch checks off: the table, the lobby, the chips, the seats -------------------


def _ranked(players=4, room="houou", id_named=True, east_south=True):
    def fits(g):
        r = g.header.ruleset
        return (r.players == players and r.room.value == room and not r.chips and not r.special
                and not g.header.lobby and r.east_south == east_south
                and (g.log_id is not None and "gm-" in g.log_id) == id_named
                and all(p.sex != "C" for p in g.header.players[:players]))
    return _clean(fits)


def _go(kids):
    return nth(kids, "GO", 0)


@pytest.mark.parametrize("bit", [0x800, 0x200], ids=["0x800", "chips"])
def test_a_type_bit_against_the_game_id(corpus, bit):
    """The 0x800 family and the chip bit turned checks off; the id's type says what the table is."""
    xml, game = _ranked()
    root, kids = elements(xml)
    _go(kids).set("type", str(int(_go(kids).get("type")) | bit))
    assert "GAME_ID" in codes(serialize(root), game.log_id)


def test_a_lobby_against_the_game_id_keeps_the_checks_on(corpus):
    """A private lobby number dropped the start-score and game-point checks: the id's lobby is
    followed, so a wrong start score is still caught."""
    xml, game = _ranked()
    root, kids = elements(xml)
    _go(kids).set("lobby", "1234")
    assert codes(serialize(root), game.log_id) == ["GAME_ID"]
    init = nth(kids, "INIT", 0)
    init.set("ten", ",".join(str(int(v) + 10) for v in init.get("ten").split(",")))
    assert "CARRY_SCORES" in codes(serialize(root), game.log_id)


def test_a_room_relabelled_against_the_game_id(corpus):
    xml, game = _ranked(room="tokujou")
    root, kids = elements(xml)
    _go(kids).set("type", str(int(_go(kids).get("type")) | 0xA0))  # tokujou -> houou
    assert "GAME_ID" in codes(serialize(root), game.log_id)


def test_a_tokujou_game_relabelled_houou_without_an_id(corpus):
    """Without an id to hold the room against, the seats are: a Tokujou table's players do not
    all meet Houou's 七段 and R2000."""
    def tokujou_below_houou(g):
        r = g.header.ruleset
        return (r.room.value == "tokujou" and not r.chips and not g.header.lobby
                and any(p.dan < 16 or p.rate < 2000 for p in g.header.players[:r.players]))
    path, game = find_game(tokujou_below_houou)
    xml = xml_of(path)
    assert_clean(xml, game.log_id)
    root, kids = elements(xml)
    _go(kids).set("type", str(int(_go(kids).get("type")) | 0xA0))
    assert "SEAT_RANK" in codes(serialize(root), None)


@pytest.mark.parametrize(("attr", "index", "value"), [("dan", 1, "21"), ("dan", 2, "12"), ("rate", 0, "1999.99")])
def test_a_seat_below_the_room(corpus, attr, index, value):
    xml, game = _ranked()
    root, kids = elements(xml)
    un = nth(kids, "UN", 0)
    values = un.get(attr).split(",")
    values[index] = value
    un.set(attr, ",".join(values))
    assert codes(serialize(root), game.log_id) == ["SEAT_RANK"]


def test_a_csrule_in_a_ranked_lobby_keeps_rotation_and_game_end_on(corpus):
    """A csrule added to a ranked game dropped the rotation and game-end checks: a game cut
    after its second hand passed."""
    xml, game = _ranked()
    root, kids = elements(xml)
    _go(kids).set("csrule", "0FE0BF0B,0000001F,,,25000,30000,30000" + ",," * 20)
    assert codes(serialize(root), game.log_id) == ["LOBBY_RULES"]
    ends = [k for k in kids if k.tag in ("AGARI", "RYUUKYOKU")]
    second_end = ends[1]
    for k in kids[kids.index(second_end) + 1:]:
        root.remove(k)
    second_end.set("owari", ends[-1].get("owari"))  # the game "ends" after its second hand
    found = codes(serialize(root), game.log_id)
    assert "LOBBY_RULES" in found and "GAME_END" in found


@pytest.mark.parametrize(("players", "change"), [
    (4, ("n1", "n0")), (4, ("n2", "")), (4, ("sx", "M,X,M,M")), (3, ("n3", "%41%42")), (4, ("oya", "1")),
], ids=["duplicate-name", "missing-name", "sx", "sanma-empty-seat", "first-dealer"])
def test_seat_claims(corpus, players, change):
    xml, game = _ranked(players=players)
    root, kids = elements(xml)
    attr, value = change
    if attr == "oya":
        nth(kids, "TAIKYOKU", 0).set("oya", value)
    else:
        un = nth(kids, "UN", 0)
        un.set(attr, un.get(value) if value.startswith("n") and value[1:].isdigit() else value)
    assert "SEATS" in codes(serialize(root), game.log_id)


def test_chip_claims_on_a_table_without_chips(corpus):
    xml, game = _ranked()
    root, kids = elements(xml)
    nth(kids, "INIT", 0).set("chip", "0,0,0,0")
    assert codes(serialize(root), game.log_id) == ["CHIPS"]
    root, kids = elements(xml)
    un = nth(kids, "UN", 0)
    un.set("rc", "0,0,0,0")
    assert codes(serialize(root), game.log_id) == ["CHIPS"]


def test_a_chip_table_without_its_chips(corpus):
    xml, game = _clean(lambda g: g.header.ruleset.chips and all(h.init.chips for h in g.hands))
    root, kids = elements(xml)
    del nth(kids, "INIT", -1).attrib["chip"]
    assert codes(serialize(root), game.log_id) == ["CHIPS"]

