"""Each check of the replay engine catches a log altered to break exactly its rule."""

from __future__ import annotations

import pytest

from tenhou_tools.events import Agari, DrawKind, Ryuukyoku

from .tamper import assert_clean, codes, elements, find_game, nth, serialize, xml_of


def _fixture(fixtures, name="one_hand.xml"):
    return (fixtures / name).read_bytes()


def alter_attr(xml: bytes, tag: str, n: int, attr: str, fn) -> bytes:
    root, kids = elements(xml)
    el = nth(kids, tag, n)
    el.set(attr, fn(el.get(attr)))
    return serialize(root)


def replace_item(csv: str, i: int, fn) -> str:
    parts = csv.split(",")
    parts[i] = str(fn(parts[i]))
    return ",".join(parts)


# -- on our own fixtures ---------------------------------------------------------------------


def test_fixtures_are_clean(fixtures):
    assert_clean(_fixture(fixtures))
    assert_clean(_fixture(fixtures, "sanma_kita.xml"))


def test_wrong_points(fixtures):
    xml = alter_attr(_fixture(fixtures), "AGARI", 0, "ten", lambda v: "50,36000,5")
    assert codes(xml) == ["AGARI_POINTS"]


def test_wrong_fu(fixtures):
    xml = alter_attr(_fixture(fixtures), "AGARI", 0, "ten", lambda v: "40,48000,5")
    assert codes(xml) == ["AGARI_FU"]


def test_wrong_limit(fixtures):
    xml = alter_attr(_fixture(fixtures), "AGARI", 0, "ten", lambda v: "50,48000,4")
    assert codes(xml) == ["AGARI_LIMIT"]


def test_wrong_yakuman(fixtures):
    xml = alter_attr(_fixture(fixtures), "AGARI", 0, "yakuman", lambda v: "42")
    assert codes(xml) == ["AGARI_YAKUMAN"]


def test_wrong_payment(fixtures):
    # the discarder pays less: the sc delta is wrong, and so are the final scores that follow
    xml = alter_attr(_fixture(fixtures), "AGARI", 0, "sc", lambda v: "250,480,250,-470,250,-10,250,0")
    assert codes(xml)[0] == "PAYMENT"


def test_wrong_scores_before(fixtures):
    xml = alter_attr(_fixture(fixtures), "AGARI", 0, "sc", lambda v: "260,480,240,-480,250,0,250,0")
    assert "SCORES_BEFORE" in codes(xml)


def test_wrong_ba(fixtures):
    xml = alter_attr(_fixture(fixtures), "AGARI", 0, "ba", lambda v: "1,0")
    assert codes(xml) == ["BA"]


def test_wrong_start_scores(fixtures):
    xml = alter_attr(_fixture(fixtures), "INIT", 0, "ten", lambda v: "260,240,250,250")
    assert "CARRY_SCORES" in codes(xml)


def test_wrong_start_scores_three_player(fixtures):
    # three-player games start from 35,000 each
    xml = alter_attr(_fixture(fixtures, "sanma_kita.xml"), "INIT", 0, "ten", lambda v: "250,250,250,0")
    assert "CARRY_SCORES" in codes(xml)


def test_wrong_owari_points_three_player(fixtures):
    # three-player game points: return 40,000, uma 0 / -20
    xml = _fixture(fixtures, "sanma_kita.xml")
    _root, kids = elements(xml)
    owari = [el for el in kids if el.get("owari")][-1].get("owari").split(",")
    owari[3] = str(float(owari[3]) + 10)  # last place (S1) 10 points better, first 10 worse
    owari[1] = str(float(owari[1]) - 10)
    assert "OWARI_POINTS" in codes(alter_attr(xml, "AGARI", -1, "owari", lambda v: ",".join(owari)))


def test_wrong_owari_scores(fixtures):
    xml = alter_attr(_fixture(fixtures), "AGARI", 0, "owari",
                     lambda v: "720,83.0,-230,-73.0,250,5.0,251,-15.0")
    assert codes(xml) == ["OWARI_SCORES"]


def test_wrong_owari_uma(fixtures):
    # 2nd and 3rd place given the same uma
    xml = alter_attr(_fixture(fixtures), "AGARI", 0, "owari",
                     lambda v: "730,73.0,-230,-73.0,250,5.0,250,-5.0")
    assert codes(xml) == ["OWARI_POINTS"]


def test_wrong_dora_list(fixtures):
    xml = alter_attr(_fixture(fixtures), "AGARI", 0, "doraHai", lambda v: "40,44")
    assert "AGARI_DORA" in codes(xml)


def test_wrong_winning_hand_and_tile(fixtures):
    xml = alter_attr(_fixture(fixtures), "AGARI", 0, "machi", lambda v: "133")
    assert codes(xml) == ["AGARI_WIN_TILE"]
    xml = alter_attr(_fixture(fixtures), "AGARI", 0, "hai", lambda v: v.replace("69,", "70,"))
    assert codes(xml) == ["AGARI_HAND"]


def test_not_a_winning_hand(fixtures):
    # S1 discards a tile that does not complete the dealer's hand; the win is claimed anyway
    xml = _fixture(fixtures).replace(b"<E134/>", b"<E12/>").replace(b'machi="134"', b'machi="12"')
    assert "AGARI_NOT_WINNING" in codes(xml)


def test_discard_not_in_hand(fixtures):
    xml = _fixture(fixtures).replace(b"<D100/>", b"<D101/>")
    assert "TILE_NOT_IN_HAND" in codes(xml)


def test_kita_fixture_wrong_points(fixtures):
    xml = alter_attr(_fixture(fixtures, "sanma_kita.xml"), "AGARI", 0, "ten", lambda v: "60,32000,5")
    assert codes(xml) == ["AGARI_POINTS"]


# -- on corpus logs altered in memory --------------------------------------------------------


def _first_agari(game, pred):
    for hand in game.hands:
        for e in hand.events:
            if isinstance(e, Agari) and pred(e):
                return hand, e
    return None


@pytest.fixture(scope="module")
def plain_win(corpus):
    path, game = find_game(lambda g: _first_agari(g, lambda a: not a.yakuman and len(a.yaku) >= 3
                                                  and a.limit == 0) is not None)
    hand, agari = _first_agari(game, lambda a: not a.yakuman and len(a.yaku) >= 3 and a.limit == 0)
    # index of that AGARI among all AGARI tags of the game
    n = sum(1 for h in game.hands[: hand.index] for e in h.events if isinstance(e, Agari))
    return xml_of(path), game.log_id, n, agari


def test_corpus_log_is_clean(plain_win):
    xml, log_id, _, _ = plain_win
    assert_clean(xml, log_id)


def test_wrong_han(plain_win):
    xml, log_id, n, agari = plain_win
    yid = next(y for y, h in agari.yaku if y not in (52, 53, 54))
    def bump(v):
        pairs = v.split(",")
        i = pairs[::2].index(str(yid)) * 2 + 1
        pairs[i] = str(int(pairs[i]) + 1)
        return ",".join(pairs)
    assert codes(alter_attr(xml, "AGARI", n, "yaku", bump), log_id) == ["AGARI_YAKU"]


def test_wrong_yaku(plain_win):
    xml, log_id, n, agari = plain_win
    yid = next(y for y, h in agari.yaku if y not in (52, 53, 54) and y != 24)
    def swap(v):
        pairs = v.split(",")
        i = pairs[::2].index(str(yid)) * 2
        pairs[i] = "24"  # ittsu instead
        return ",".join(pairs)
    assert codes(alter_attr(xml, "AGARI", n, "yaku", swap), log_id) == ["AGARI_YAKU"]


def test_no_optional_yaku(plain_win):
    """「人和…なし」: a win that claims renhou (36) as an extra yakuman is not Tenhou's value."""
    xml, log_id, n, _ = plain_win
    assert "AGARI_YAKUMAN" in codes(alter_attr(xml, "AGARI", n, "yakuman", lambda v: "36"), log_id)


def _double_ron(game):
    for hand in game.hands:
        wins = [e for e in hand.events if isinstance(e, Agari)]
        if len(wins) == 2 and (wins[0].honba or wins[0].sticks):
            return hand, wins
    return None


@pytest.fixture(scope="module")
def double_ron(corpus):
    path, game = find_game(lambda g: _double_ron(g) is not None)
    hand, wins = _double_ron(game)
    n = sum(1 for h in game.hands[: hand.index] for e in h.events if isinstance(e, Agari))
    return xml_of(path), game.log_id, n, wins


def test_double_ron_is_clean(double_ron):
    xml, log_id, _, _ = double_ron
    assert_clean(xml, log_id)


def test_double_ron_bonus_to_the_second_winner(double_ron):
    """Honba and sticks moved from the nearest winner to the second one."""
    xml, log_id, n, (first, second) = double_ron
    bonus = first.honba * 300 + first.sticks * 1000
    root, kids = elements(xml)
    a1, a2 = nth(kids, "AGARI", n), nth(kids, "AGARI", n + 1)
    sc1 = a1.get("sc").split(",")
    sc2 = a2.get("sc").split(",")
    w1, w2, d = first.who, second.who, first.from_who
    sc1[2 * w1 + 1] = str(int(sc1[2 * w1 + 1]) - bonus // 100)
    sc1[2 * d + 1] = str(int(sc1[2 * d + 1]) + first.honba * 3)
    sc2[2 * w2 + 1] = str(int(sc2[2 * w2 + 1]) + bonus // 100)
    sc2[2 * d + 1] = str(int(sc2[2 * d + 1]) - first.honba * 3)
    a1.set("sc", ",".join(sc1))
    a2.set("sc", ",".join(sc2))
    a1.set("ba", f"{first.honba},0")
    a2.set("ba", f"{first.honba},{first.sticks}")
    found = codes(serialize(root), log_id)
    assert "PAYMENT" in found and "BA" in found


def test_double_ron_out_of_order(double_ron):
    xml, log_id, n, _ = double_ron
    root, kids = elements(xml)
    a1, a2 = nth(kids, "AGARI", n), nth(kids, "AGARI", n + 1)
    parent = a1.getparent()
    i = parent.index(a1)
    parent.remove(a2)
    parent.insert(i, a2)
    assert "AGARI_ORDER" in codes(serialize(root), log_id)


def _dealer_in_a_double_ron(game):
    for hand in game.hands[:-1]:
        wins = [e for e in hand.events if isinstance(e, Agari)]
        if len(wins) == 2 and hand.init.dealer in (wins[0].who, wins[1].who):
            return hand
    return None


def _abortive_draw(game):
    for hand in game.hands[:-1]:
        if any(isinstance(e, Ryuukyoku) and e.kind.is_abortive for e in hand.events):
            return hand
    return None


def test_an_abortive_draw_repeats_the_dealer(corpus):
    """「途中流局…すべて連荘」: the hand after an abortive draw moved on to the next round."""
    path, game = find_game(lambda g: g.header.lobby == 0 and _abortive_draw(g) is not None)
    hand = _abortive_draw(game)
    xml = xml_of(path)
    assert_clean(xml, game.log_id)
    moved = alter_attr(xml, "INIT", hand.index + 1, "seed", lambda v: replace_item(v, 0, lambda x: int(x) + 1))
    assert "CARRY_ROUND" in codes(moved, game.log_id)


def test_a_double_ron_with_the_dealer_repeats_the_dealer(corpus):
    """「ダブロンは親が含まれれば連荘」: the next hand moved on to the next dealer, and its honba
    reset as after a non-dealer win."""
    path, game = find_game(lambda g: g.header.lobby == 0 and _dealer_in_a_double_ron(g) is not None)
    hand = _dealer_in_a_double_ron(game)
    xml = xml_of(path)
    assert_clean(xml, game.log_id)
    moved = alter_attr(xml, "INIT", hand.index + 1, "seed",
                       lambda v: replace_item(replace_item(v, 0, lambda x: int(x) + 1), 1, lambda x: 0))
    found = codes(moved, game.log_id)
    assert "CARRY_ROUND" in found and "CARRY_HONBA" in found


@pytest.fixture(scope="module")
def pao_ron(corpus):
    path, game = find_game(lambda g: _first_agari(g, lambda a: a.pao_who is not None
                                                  and not a.is_tsumo) is not None)
    hand, agari = _first_agari(game, lambda a: a.pao_who is not None and not a.is_tsumo)
    n = sum(1 for h in game.hands[: hand.index] for e in h.events if isinstance(e, Agari))
    return xml_of(path), game.log_id, n, agari


def test_pao_is_clean(pao_ron):
    xml, log_id, _, _ = pao_ron
    assert_clean(xml, log_id)


def test_wrong_pao_split(pao_ron):
    """The discarder pays everything instead of half with the liable player."""
    xml, log_id, n, agari = pao_ron
    def all_from_discarder(v):
        sc = v.split(",")
        share = int(sc[2 * agari.pao_who + 1])
        sc[2 * agari.pao_who + 1] = "0"
        sc[2 * agari.from_who + 1] = str(int(sc[2 * agari.from_who + 1]) + share)
        return ",".join(sc)
    assert "PAYMENT" in codes(alter_attr(xml, "AGARI", n, "sc", all_from_discarder), log_id)


def test_wrong_pao_seat(pao_ron):
    xml, log_id, n, agari = pao_ron
    other = next(s for s in range(4) if s not in (agari.who, agari.pao_who, agari.from_who))
    assert "AGARI_PAO" in codes(alter_attr(xml, "AGARI", n, "paoWho", lambda v: str(other)), log_id)


def _noten_draw(game):
    for hand in game.hands:
        for e in hand.events:
            if isinstance(e, Ryuukyoku) and e.kind is DrawKind.EXHAUSTIVE and any(e.deltas):
                return hand, e
    return None


@pytest.fixture(scope="module")
def noten_draw(corpus):
    path, game = find_game(lambda g: g.header.ruleset.players == 4 and _noten_draw(g) is not None)
    hand, draw = _noten_draw(game)
    n = sum(1 for h in game.hands[: hand.index] for e in h.events if isinstance(e, Ryuukyoku))
    return xml_of(path), game.log_id, n, draw


def test_wrong_noten_payments(noten_draw):
    xml, log_id, n, _draw = noten_draw
    def halve(v):
        sc = v.split(",")
        for s in range(4):
            sc[2 * s + 1] = str(int(sc[2 * s + 1]) // 2)
        return ",".join(sc)
    assert "DRAW_PAYMENT" in codes(alter_attr(xml, "RYUUKYOKU", n, "sc", halve), log_id)


def test_hidden_tenpai_hand(noten_draw):
    xml, log_id, n, draw = noten_draw
    seat = next(s for s in range(4) if draw.hands[s] is not None)
    root, kids = elements(xml)
    del nth(kids, "RYUUKYOKU", n).attrib[f"hai{seat}"]
    assert "DRAW_TENPAI" in codes(serialize(root), log_id)


def test_false_nagashi(noten_draw):
    xml, log_id, n, _draw = noten_draw
    assert "NAGASHI" in codes(alter_attr(xml, "RYUUKYOKU", n, "type", lambda v: "nm"), log_id)


@pytest.fixture(scope="module")
def long_game(corpus):
    path, game = find_game(lambda g: g.header.ruleset.players == 4 and len(g.hands) >= 6
                           and g.hands[3].init.honba == 0 and g.hands[3].init.sticks == 0)
    return xml_of(path), game.log_id, game


def test_broken_carry_over(long_game):
    xml, log_id, _game = long_game
    assert_clean(xml, log_id)
    found = codes(alter_attr(xml, "INIT", 3, "ten", lambda v: replace_item(v, 0, lambda x: int(x) + 10)), log_id)
    assert found[0] == "CARRY_SCORES"
    found = codes(alter_attr(xml, "INIT", 3, "seed", lambda v: replace_item(v, 1, lambda x: 1)), log_id)
    assert "CARRY_HONBA" in found
    found = codes(alter_attr(xml, "INIT", 3, "seed", lambda v: replace_item(v, 2, lambda x: 2)), log_id)
    assert "CARRY_STICKS" in found
    found = codes(alter_attr(xml, "INIT", 3, "seed",
                             lambda v: replace_item(v, 0, lambda x: int(x) + 1)), log_id)
    assert "CARRY_ROUND" in found


def test_game_ends_too_early(long_game):
    """The final result moved to the second hand of a game that had to go on."""
    xml, log_id, _game = long_game
    root, kids = elements(xml)
    ends = [el for el in kids if el.tag in ("AGARI", "RYUUKYOKU")]
    owari = ends[-1].get("owari")
    del ends[-1].attrib["owari"]
    second_init = nth(kids, "INIT", 2)
    for el in kids[kids.index(second_init):]:
        root.remove(el)
    last = [el for el in root if el.tag in ("AGARI", "RYUUKYOKU")][-1]
    last.set("owari", owari)
    assert "GAME_END" in codes(serialize(root), log_id)


def _cut_after(xml: bytes, hand: int) -> bytes:
    """The game with its final result moved to the end of hand ``hand`` and the hands after it
    taken away."""
    root, kids = elements(xml)
    ends = [el for el in kids if el.tag in ("AGARI", "RYUUKYOKU")]
    owari = ends[-1].get("owari")
    del ends[-1].attrib["owari"]
    cut = nth(kids, "INIT", hand + 1)
    for el in kids[kids.index(cut):]:
        root.remove(el)
    [el for el in root if el.tag in ("AGARI", "RYUUKYOKU")][-1].set("owari", owari)
    return serialize(root)


@pytest.fixture(scope="module")
def went_to_west(corpus):
    """A four-player East-South game whose South 4 passed with nobody at 30,000 (the next hand
    is West 1), and the index of that South 4 hand."""
    def south4(game):
        rounds = [h.init.round for h in game.hands]
        return next((i for i in range(len(rounds) - 1) if rounds[i] == 7 and rounds[i + 1] == 8), None)
    path, game = find_game(lambda g: g.header.ruleset.players == 4 and g.header.ruleset.east_south
                           and g.header.lobby == 0 and south4(g) is not None)
    return xml_of(path), game.log_id, south4(game)


def test_game_cut_at_all_last_without_a_date(went_to_west):
    """Stopped after South 4 with nobody at 30,000: the game had to go on into West, on any date,
    so the log's date is not needed to flag it."""
    xml, log_id, hand = went_to_west
    assert_clean(xml, log_id)
    assert_clean(xml, None)  # no date: the whole game still checks clean
    cut = _cut_after(xml, hand)
    assert "GAME_END" in codes(cut, log_id)
    assert "GAME_END" in codes(cut, None)


def test_wrong_riichi_scores(corpus):
    path, game = find_game(lambda g: any(e.__class__.__name__ == "Riichi" and e.scores
                                         for h in g.hands for e in h.events))
    xml = xml_of(path)
    root, kids = elements(xml)
    reach = next(el for el in kids if el.tag == "REACH" and el.get("ten"))
    reach.set("ten", replace_item(reach.get("ten"), 0, lambda x: int(x) + 10))
    assert "RIICHI_SCORES" in codes(serialize(root), game.log_id)
