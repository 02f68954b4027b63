"""Issue 36: claims that went unchecked. Each test changes one claim of a real log (a corpus game,
clean as it is) and sees the finding that catches it."""

from __future__ import annotations

import pytest

from tenhou_tools.events import Agari, Call, CallKind, NewDora
from tenhou_tools.ids import announced_table

from .tamper import clean_game, codes, elements, nth, serialize, xml_of

# -- tile accounting: kan dora and ura indicators ------------------------------------------------


def _has(game, cls, test=lambda e: True) -> bool:
    return any(isinstance(e, cls) and test(e) for h in game.hands for e in h.events)


@pytest.mark.parametrize("players", [4, 3])
def test_a_kan_dora_indicator_already_dealt_is_a_duplicate(corpus, players):
    xml, game = clean_game(lambda g: g.header.ruleset.players == players and _has(g, NewDora))
    root, kids = elements(xml)
    dora = nth(kids, "DORA", 0)
    start = max(i for i, k in enumerate(kids[:kids.index(dora)]) if k.tag == "INIT")
    dealt = kids[start].get("hai0").split(",")[0]
    dora.set("hai", dealt)  # a fifth copy: a tile held in S0's hand shown as the indicator too
    assert "TILE_DUPLICATE" in codes(serialize(root), game.log_id)


@pytest.mark.parametrize("players", [4, 3])
def test_an_ura_indicator_already_dealt_is_a_duplicate(corpus, players):
    xml, game = clean_game(lambda g: g.header.ruleset.players == players
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
    xml, game = clean_game(double_ron_both_ura)
    assert codes(xml, game.log_id) == []  # the shared ura indicators are no fifth copy


# -- claims that switch checks off: the table, the lobby, the chips, the seats -------------------


def _ranked(players=4, room="houou", id_named=True, east_south=True):
    def fits(g):
        r = g.header.ruleset
        return (r.players == players and r.room.value == room and not r.chips and not r.special
                and not g.header.lobby and r.east_south == east_south
                and (g.log_id is not None and "gm-" in g.log_id) == id_named
                and all(p.sex != "C" for p in g.header.players[:players]))
    return clean_game(fits)


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
    xml, _game = clean_game(tokujou_below_houou)
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
    xml, game = clean_game(lambda g: g.header.ruleset.chips and all(h.init.chips for h in g.hands))
    root, kids = elements(xml)
    del nth(kids, "INIT", -1).attrib["chip"]
    assert codes(serialize(root), game.log_id) == ["CHIPS"]



# -- claims the log states twice ----------------------------------------------------------------


def _meld_kind(code: int) -> str:
    if code & 0x4:
        return "chi"
    if code & 0x8:
        return "pon"
    if code & 0x10:
        return "added_kan"
    return "other"


def _win_with(kind):
    def fits(g):
        return any(isinstance(e, Agari) and any(m.kind.value == kind for m in e.melds)
                   for h in g.hands for e in h.events)
    return clean_game(fits)


def _agari_meld(kind):
    """A clean corpus win with a ``kind`` meld: the log's tree, the AGARI, its ``m`` codes and
    the place of the first such meld among them, and the game."""
    xml, game = _win_with(kind)
    root, kids = elements(xml)
    win = next(k for k in kids if k.tag == "AGARI" and k.get("m")
               and any(_meld_kind(int(c)) == kind for c in k.get("m").split(",")))
    codes_m = [int(c) for c in win.get("m").split(",")]
    return root, win, codes_m, next(i for i, c in enumerate(codes_m) if _meld_kind(c) == kind), game


def _messages(xml: bytes, log_id: str | None) -> list[str]:
    from tenhou_tools.check import check_log

    return [f.message for f in check_log(xml, path="x.xml", log_id=log_id).findings]


def test_agari_m_restates_the_seat_a_pon_came_from(corpus):
    root, win, codes_m, i, game = _agari_meld("pon")
    rel = codes_m[i] & 3
    codes_m[i] = (codes_m[i] & ~3) | (rel % 3 + 1)  # the same tiles, called from another seat
    win.set("m", ",".join(map(str, codes_m)))
    assert codes(serialize(root), game.log_id) == ["AGARI_MELDS"]
    # the message names the seats that differ, not only the tiles (which are the same)
    message = _messages(serialize(root), game.log_id)[0]
    who = int(win.get("who"))
    stated, replayed = (who + rel % 3 + 1) % 4, (who + rel) % 4
    assert "the log states pon" in message and f"from S{stated})" in message.split(";")[0]
    assert f"from S{replayed})" in message.split(";")[1]


def test_agari_m_restates_the_tile_a_chi_called(corpus):
    root, win, codes_m, i, game = _agari_meld("chi")
    t = codes_m[i] >> 10
    t = t - t % 3 + (t % 3 + 1) % 3  # the same run, another of its tiles called
    codes_m[i] = (t << 10) | (codes_m[i] & 0x3FF)
    win.set("m", ",".join(map(str, codes_m)))
    assert codes(serialize(root), game.log_id) == ["AGARI_MELDS"]
    # the message names the called tiles that differ (the run's tiles are the same)
    from tenhou_tools.mjlog import decode_meld

    message = _messages(serialize(root), game.log_id)[0]
    stated = decode_meld(codes_m[i], int(win.get("who"))).called
    assert f"(id {stated})" in message.split(";")[0] and f"(id {stated})" not in message.split(";")[1]


def test_an_added_kan_restates_the_seat_of_its_pon(corpus):
    xml, game = clean_game(lambda g: _has(g, Call, lambda c: c.meld.kind is CallKind.ADDED_KAN))
    root, kids = elements(xml)
    kan = next(k for k in kids if k.tag == "N" and _meld_kind(int(k.get("m"))) == "added_kan")
    code = int(kan.get("m"))
    kan.set("m", str((code & ~3) | ((code & 3) % 3 + 1)))
    assert "CALL_TILE" in codes(serialize(root), game.log_id)


def test_a_yakuman_win_lists_no_yaku(corpus):
    xml, game = clean_game(lambda g: _has(g, Agari, lambda a: bool(a.yakuman)))
    root, kids = elements(xml)
    win = next(k for k in kids if k.tag == "AGARI" and k.get("yakuman"))
    win.set("yaku", "52,1")  # dora 1 beside the yakuman
    assert codes(serialize(root), game.log_id) == ["AGARI_YAKU"]


def _draw_of(kind, players=4):
    from tenhou_tools.events import Ryuukyoku

    return clean_game(lambda g: g.header.ruleset.players == players
                  and _has(g, Ryuukyoku, lambda r: r.kind.value == kind))


def test_four_riichi_shows_every_hand(corpus):
    xml, game = _draw_of("reach4")
    root, kids = elements(xml)
    draw = next(k for k in kids if k.tag == "RYUUKYOKU" and k.get("type") == "reach4")
    del draw.attrib["hai2"]
    assert codes(serialize(root), game.log_id) == ["DRAW_HAND"]


@pytest.mark.parametrize("kind", ["kaze4", "kan4"])
def test_four_winds_and_four_kans_show_no_hand(corpus, kind):
    xml, game = _draw_of(kind)
    root, kids = elements(xml)
    draw = next(k for k in kids if k.tag == "RYUUKYOKU" and k.get("type") == kind)
    draw.set("hai1", "0,1,2,4,5,6,8,9,10,12,13,14,16")
    assert codes(serialize(root), game.log_id) == ["DRAW_HAND"]


def test_a_three_player_draw_shows_no_hand_for_the_empty_seat(corpus):
    from tenhou_tools.events import Ryuukyoku

    xml, game = clean_game(lambda g: g.header.ruleset.players == 3 and _has(g, Ryuukyoku))
    root, kids = elements(xml)
    draw = nth(kids, "RYUUKYOKU", 0)
    draw.set("hai3", "0,1,2,3,108,109,110,112,113,114,116,117,118")
    assert codes(serialize(root), game.log_id) == ["DRAW_HAND"]


def test_a_three_player_owari_gives_the_empty_seat_nothing(corpus):
    xml, game = clean_game(lambda g: g.header.ruleset.players == 3)
    root, kids = elements(xml)
    end = next(k for k in reversed(kids) if k.get("owari"))
    owari = end.get("owari").split(",")
    owari[7] = "5.0"
    end.set("owari", ",".join(owari))
    assert codes(serialize(root), game.log_id) == ["OWARI_SCORES"]


def _riichi_game(named: bool):
    from tenhou_tools.events import Riichi
    from tenhou_tools.ids import game_start

    return clean_game(lambda g: _has(g, Riichi, lambda r: r.step == 2 and r.scores is not None)
                  and (game_start(g.log_id) is not None) == named)


def test_reach_step_1_states_no_scores(corpus):
    xml, game = _riichi_game(named=True)
    root, kids = elements(xml)
    step2 = next(k for k in kids if k.tag == "REACH" and k.get("step") == "2" and k.get("ten"))
    step1 = max((k for k in kids[:kids.index(step2)] if k.tag == "REACH" and k.get("step") == "1"),
                key=kids.index)
    step1.set("ten", step2.get("ten"))
    assert codes(serialize(root), game.log_id) == ["RIICHI_SCORES"]


def test_reach_step_2_states_its_scores_since_2010(corpus):
    from tenhou_tools.check import check_log

    xml, game = _riichi_game(named=True)
    root, kids = elements(xml)
    step2 = next(k for k in kids if k.tag == "REACH" and k.get("step") == "2" and k.get("ten"))
    del step2.attrib["ten"]
    assert codes(serialize(root), game.log_id) == ["RIICHI_SCORES"]
    # with no id, the date is not known: not checkable, and counted so
    record = check_log(serialize(root), path="x.xml", log_id=None)
    assert record.ok and dict(record.checks)["riichi_scores_not_checkable"] == 1


# -- the format: what the reader does not know is said ------------------------------------------


@pytest.mark.parametrize(("tag", "attr", "value"), [
    ("mjloggm", "ver", "2.4"), ("mjloggm", "foo", "1"), ("SHUFFLE", "ref", "x"), ("SHUFFLE", "foo", "1"),
    ("TAIKYOKU", "oei", "1"),
])
def test_format_claims_not_understood_are_warned(corpus, tag, attr, value):
    xml, game = clean_game(lambda g: g.header.shuffle is not None and bool(g.header.shuffle.seed))
    root, kids = elements(xml)
    (root if tag == "mjloggm" else nth(kids, tag, 0)).set(attr, value)
    assert codes(serialize(root), game.log_id) == ["PARSE_WARNING"]


def test_a_claim_no_check_can_verify_is_counted_not_passed_over(corpus):
    """A private lobby's title on a game: nothing can verify it, and the record says so."""
    from tenhou_tools.check import check_log

    xml, game = _ranked()
    before = dict(check_log(xml, path="x.xml", log_id=game.log_id).checks)["claims_not_checkable"]
    root, kids = elements(xml)
    _go(kids).set("title", "%41")
    record = check_log(serialize(root), path="x.xml", log_id=game.log_id)
    assert dict(record.checks)["claims_not_checkable"] == before + 1


# -- disconnects: a BYE and its return ---------------------------------------------------------


def _with_bye(corpus):
    from tenhou_tools.events import Bye, Reconnect

    return clean_game(lambda g: _has(g, Bye) and _has(g, Reconnect))


def test_a_reconnect_without_a_disconnect(corpus):
    xml, game = _ranked()
    root, kids = elements(xml)
    un = nth(kids, "UN", 0)
    back = root.makeelement("UN", {"n1": un.get("n1")})
    draw = next(i for i, k in enumerate(kids) if k.tag[0] == "T" and k.tag[1:].isdigit())
    root.insert(draw, back)
    assert codes(serialize(root), game.log_id) == ["DISCONNECT"]


def test_a_second_disconnect_while_away(corpus):
    xml, game = _with_bye(corpus)
    root, kids = elements(xml)
    bye = next(k for k in kids if k.tag == "BYE")
    root.insert(kids.index(bye) + 1, root.makeelement("BYE", {"who": bye.get("who")}))
    assert codes(serialize(root), game.log_id) == ["DISCONNECT"]


def test_a_disconnect_and_its_return_areclean_game(corpus):
    from tenhou_tools.check import check_log

    xml, game = _with_bye(corpus)
    record = check_log(xml, path="x.xml", log_id=game.log_id)
    assert record.ok and not record.findings and dict(record.checks)["disconnect"] >= 2


def test_a_three_player_id_on_a_four_player_log(corpus):
    """The id's table is followed for the lobby's rules, not for the number of seats."""
    xml, game = _ranked()
    three = game.log_id[:13] + f"{int(game.log_id[13:17], 16) | 0x10:04x}" + game.log_id[17:]
    assert codes(xml, three) == ["GAME_ID"]


# -- the wall seed: a log with none at all -------------------------------------------------------


def _layout(xml: bytes):
    from tenhou_tools.mjlog import parse_game

    return parse_game(xml).header.layout


def _rewritten(root) -> bytes:
    """The log as another program writes it again: one element a line, indented."""
    from lxml import etree

    etree.indent(root, space="\t")
    return etree.tostring(root)


def test_tenhou_writes_its_elements_back_to_back(corpus):
    from tenhou_tools.events import Layout

    xml, _game = _ranked()
    root, _kids = elements(xml)
    assert _layout(xml) is Layout.TENHOU
    assert _layout(_rewritten(root)) is Layout.REWRITTEN


def test_a_log_without_its_seed_is_a_finding(corpus):
    """Every log Tenhou writes carries its seed: a Tenhou game (its id) whose SHUFFLE is gone is a
    WALL_SEED; without its id, a log may be anyone's (the project's own scenarios have no seed)."""
    xml, game = _ranked()
    root, kids = elements(xml)
    root.remove(nth(kids, "SHUFFLE"))
    assert codes(serialize(root), game.log_id) == ["WALL_SEED"]
    assert codes(serialize(root), None) == []
    # the finding says what is wrong: the wall is not also counted uncheckable (warned of)
    from tenhou_tools.check import check_log

    checks = dict(check_log(serialize(root), path="x.xml", log_id=game.log_id).checks)
    assert "wall_not_checkable" not in checks
    assert dict(check_log(serialize(root), path="x.xml", log_id=None).checks)["wall_not_checkable"] \
        == len(game.hands)


def test_a_2009_log_without_its_init_seeds_is_a_finding(corpus):
    """Before SHUFFLE, each INIT carried its hand's seed: a log with none of them is a WALL_SEED."""
    xml, game = clean_game(lambda g: g.header.shuffle is None and all(h.init.shuffle for h in g.hands)
                           and announced_table(g.log_id) is not None)
    root, kids = elements(xml)
    for init in (k for k in kids if k.tag == "INIT"):
        del init.attrib["shuffle"]
    assert codes(serialize(root), game.log_id) == ["WALL_SEED"]


def test_a_rewritten_log_without_its_seed_is_not_checkable(corpus):
    """A log another program wrote again (MJLogDecoder's corpus log) may have lost its seed there:
    its wall is counted not checkable, hand by hand (and the report warns: test_cli_validate)."""
    from tenhou_tools.check import check_log

    xml, game = _ranked()
    root, kids = elements(xml)
    root.remove(nth(kids, "SHUFFLE"))
    record = check_log(_rewritten(root), path="x.xml", log_id=game.log_id)
    assert record.findings == ()
    assert dict(record.checks)["wall_not_checkable"] == len(game.hands)
    assert "wall_draw" not in dict(record.checks)


# -- the away player: the server plays for it; its return names it -------------------------------

_OWN = {"D": 0, "E": 1, "F": 2, "G": 3}
"""The discard tags' letters and their seats."""


def _last_hand(kids) -> list:
    start = max(i for i, k in enumerate(kids) if k.tag == "INIT")
    return kids[start + 1:]


def _away_before(predicate, pick, players=4):
    """A clean ranked game whose last hand has an element ``pick`` finds, with a ``BYE`` for that
    element's seat written just before it: from there the seat is away (no ``UN`` follows)."""
    xml, game = clean_game(lambda g: g.header.ruleset.players == players and predicate(g)
                           and g.log_id is not None and "gm-" in g.log_id)
    root, kids = elements(xml)
    element, seat = pick(_last_hand(kids))
    root.insert(kids.index(element), root.makeelement("BYE", {"who": str(seat)}))
    return root, game


def _own_discard(last):
    """A discard that is not the tile the seat just drew (the player's own choice)."""
    drawn = {}
    for k in last:
        if k.tag[0] in "TUVW" and k.tag[1:].isdigit():
            drawn["TUVW".index(k.tag[0])] = k.tag[1:]
        elif k.tag[0] in _OWN and k.tag[1:].isdigit():
            seat = _OWN[k.tag[0]]
            if drawn.get(seat) is not None and drawn[seat] != k.tag[1:]:
                return k, seat
            drawn[seat] = None
    raise LookupError


def _last_hand_has(tag, test=lambda k: True):
    from tenhou_tools.events import Riichi

    cls = {"AGARI": Agari, "N": Call, "REACH": Riichi}[tag]

    def fits(g):
        last = g.hands[-1].events
        return any(isinstance(e, cls) and test(e) for e in last)
    return fits


def _disconnects(xml: bytes, log_id: str) -> list[str]:
    from tenhou_tools.check import check_log

    return [f.message for f in check_log(xml, path="x.xml", log_id=log_id).findings if f.code.value == "DISCONNECT"]


def test_an_away_player_discards_only_its_drawn_tile(corpus):
    root, game = _away_before(lambda g: True, _own_discard)
    found = _disconnects(serialize(root), game.log_id)
    assert len(found) == 1 and "not the server's" in found[0]


def test_an_away_player_does_not_win(corpus):
    root, game = _away_before(_last_hand_has("AGARI"),
                              lambda last: next((k, k.get("who")) for k in last if k.tag == "AGARI"))
    assert codes(serialize(root), game.log_id) == ["DISCONNECT"]


def test_an_away_player_does_not_call(corpus):
    root, game = _away_before(_last_hand_has("N", lambda e: e.meld.kind.value in ("pon", "chi")),
                              lambda last: next((k, k.get("who")) for k in last if k.tag == "N"))
    assert any("makes a" in m for m in _disconnects(serialize(root), game.log_id))


def test_an_away_player_does_not_declare_riichi(corpus):
    root, game = _away_before(_last_hand_has("REACH"),
                              lambda last: next((k, k.get("who")) for k in last if k.tag == "REACH"))
    assert any("declares riichi" in m for m in _disconnects(serialize(root), game.log_id))


def test_a_rewritten_log_may_have_lost_the_return(corpus):
    """A log another program wrote again may have dropped the reconnecting UN (MahjongPantheon's
    anonymised nagashi log): the away player's own play is counted not checkable, once."""
    from tenhou_tools.check import check_log

    root, game = _away_before(_last_hand_has("AGARI"),
                              lambda last: next((k, k.get("who")) for k in last if k.tag == "AGARI"))
    record = check_log(_rewritten(root), path="x.xml", log_id=game.log_id)
    assert record.findings == ()
    assert dict(record.checks)["disconnect_not_checkable"] == 1


def _reconnect_renamed(corpus):
    from tenhou_tools.events import Bye, Reconnect

    xml, game = clean_game(lambda g: _has(g, Bye) and _has(g, Reconnect) and g.log_id is not None)
    root, kids = elements(xml)
    back = next(k for k in kids[1:] if k.tag == "UN" and len(k.attrib) == 1)
    (key, _name), = back.attrib.items()
    other = next(n for n in ("n0", "n1", "n2") if n != key)
    back.set(key, nth(kids, "UN", 0).get(other))  # another seat's player comes back in its place
    return root, game


def test_a_reconnect_names_the_seats_own_player(corpus):
    root, game = _reconnect_renamed(corpus)
    found = _disconnects(serialize(root), game.log_id)
    assert len(found) == 1 and "not the seat's player" in found[0]


def test_a_rewritten_log_may_have_replaced_the_names(corpus):
    """MahjongPantheon's anonymiser replaced the first UN's names and left the reconnects' (two
    corpus logs): in a rewritten log another name is counted not checkable."""
    from tenhou_tools.check import check_log

    root, game = _reconnect_renamed(corpus)
    record = check_log(_rewritten(root), path="x.xml", log_id=game.log_id)
    assert record.findings == ()
    assert dict(record.checks)["disconnect_not_checkable"] == 1


# -- seats marked C (computer) at a ranked table -------------------------------------------------


def _seat_as(kids, seat: int, **values: str) -> None:
    un = nth(kids, "UN", 0)
    for attr, value in values.items():
        listed = un.get(attr).split(",")
        listed[seat] = value
        un.set(attr, ",".join(listed))


def test_a_ranked_table_seats_no_computer(corpus):
    xml, game = _ranked()
    root, kids = elements(xml)
    _seat_as(kids, 1, sx="C")
    assert codes(serialize(root), game.log_id) == ["SEATS"]


def test_a_seat_marked_computer_still_meets_the_room(corpus):
    """sx C excused a seat from Houou's 七段 and R2000: it no longer does."""
    xml, game = _ranked()
    root, kids = elements(xml)
    _seat_as(kids, 2, sx="C", dan="12", rate="1700.00")
    assert codes(serialize(root), game.log_id) == ["SEATS", "SEAT_RANK"]


def test_withheld_seats_are_not_checkable(corpus):
    """Tenhou's server gave one 2009 Houou log with its players withheld: every seat C, 新人, R1500
    (2009020103gm-00a9-0000-47e70b77). Their rank is not the players': counted not checkable."""
    from tenhou_tools.check import check_log

    from .conftest import corpus_files

    path = next(p for p in corpus_files("mjlog") if p.name.startswith("2009020103gm-00a9-0000-47e70b77"))
    record = check_log(xml_of(path), path=str(path), log_id="2009020103gm-00a9-0000-47e70b77")
    assert record.findings == ()
    assert dict(record.checks)["seat_rank_not_checkable"] == 4


def test_the_withheld_form_excuses_no_later_game(corpus):
    """The withheld form is the server's only before 2010: a later ranked game whose seats are
    set to it (to hide players below the room) is held to the room like any other."""
    xml, game = _ranked()
    assert game.log_id is not None and game.log_id[:4] >= "2010"
    root, kids = elements(xml)
    for seat in range(4):
        _seat_as(kids, seat, sx="C", dan="0", rate="1500")
    found = codes(serialize(root), game.log_id)
    assert found.count("SEATS") == 4 and found.count("SEAT_RANK") == 4
