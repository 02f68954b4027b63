"""Hand value at tenpai and one-shanten, worked out by hand on small hands."""

from __future__ import annotations

import pytest

from tenhou_tools.analysis.tables import mean_ron_ratio, riichi_bonus_han, ron_ratio
from tenhou_tools.analysis.value import (
    ScoreLine,
    ValueSituation,
    discard_values,
    han_kept,
    hand_value,
)
from tenhou_tools.events import CallKind, Meld
from tenhou_tools.rules.danger import dora_kinds
from tenhou_tools.rules.scoring import TENHOU_3P
from tenhou_tools.tiles import parse_tiles

U = riichi_bonus_han(4)
"""Ippatsu and ura dora han a riichi win carries on average (one more han that share of the
time: a hand of 1 to 3 han, or 4 han 30 fu and less, doubles)."""
NORM = 1 + mean_ron_ratio(4)


def mix(tsumo: float, ron: float, group: str, players: int = 4) -> float:
    """A wait's value: its tsumo and its ron weighed 1 to the ron ratio of the tile's group."""
    r = ron_ratio(players, group)
    return (tsumo + r * ron) / (1 + r)


def weight(group: str) -> float:
    """A wait's copies counted for the win chance: its tsumo and ron against the average wait's."""
    return (1 + ron_ratio(4, group)) / NORM


def k(name: str) -> int:
    return parse_tiles(name)[0] >> 2


def unseen_of(*texts: str) -> list[int]:
    unseen = [4] * 34
    for text in texts:
        for t in parse_tiles(text):
            unseen[t >> 2] -= 1
    return unseen


def situation(indicator: str, **kw) -> ValueSituation:
    fields = {"melds": (), "seat_wind": 1, "round_wind": 0, "draws_left": 10,
              "dora_indicators": tuple(parse_tiles(indicator))}
    fields.update(kw)
    return ValueSituation(**fields)


# 123m 456p 789s and 2345s: a nobetan, waiting on 2s (22s + 345s) and 5s (234s + 55s). A non-dealer
# (South) in the East round, the dora is haku (indicator 7z): none in hand, no tanyao (1m 9s).
NOBETAN = "123m456p789s2345s"


def test_tenpai_in_riichi_by_hand():
    hand = parse_tiles(NOBETAN)
    unseen = unseen_of(NOBETAN, "7z")  # 122 tiles unseen, 3 of 2s and 3 of 5s
    value = hand_value(hand, situation("7z", in_riichi=True), unseen)
    assert value is not None and value.shanten == 0
    # ron: riichi 1 han; 20 fu + 10 closed ron + 2 single wait = 32 -> 40 fu: 1,300
    # tsumo: riichi + menzen tsumo 2 han; 20 + 2 tsumo + 2 single wait = 24 -> 30 fu: 500/1,000 = 2,000
    # riichi doubles both with the average ippatsu and ura dora (U han, each worth a doubling here)
    two, five = mix(2000 * (1 + U), 1300 * (1 + U), "28"), mix(2000 * (1 + U), 1300 * (1 + U), "37")
    for wait, points in zip(value.waits, (two, five), strict=True):
        assert wait.ron == ScoreLine(han=1, fu=40, points=1300)
        assert wait.tsumo == ScoreLine(han=2, fu=30, points=2000)
        assert wait.points == pytest.approx(points)
        assert wait.left == 3
    assert [w.kind for w in value.waits] == [k("2s"), k("5s")]
    assert value.tiles == 6 and not value.furiten
    w2, w5 = 3 * weight("28"), 3 * weight("37")
    assert value.win_points == pytest.approx((w2 * two + w5 * five) / (w2 + w5))
    assert sum(unseen) == 122
    assert value.win_chance == pytest.approx(1 - (1 - (w2 + w5) / 122) ** 10)
    assert value.ev == pytest.approx(value.win_chance * value.win_points)


def test_a_closed_hand_without_riichi_has_no_yaku_on_a_ron():
    hand = parse_tiles(NOBETAN)
    unseen = unseen_of(NOBETAN, "7z")
    value = hand_value(hand, situation("7z", may_riichi=False), unseen)
    assert value is not None
    for wait in value.waits:
        assert wait.ron is None  # no yaku
        # menzen tsumo 1 han, 30 fu: 300/500 = 1,100; only the tsumo wins, so it is worth that
        assert wait.tsumo == ScoreLine(han=1, fu=30, points=1100)
        assert wait.points == pytest.approx(1100)
    # the chance counts each copy by its tsumo alone
    assert value.win_chance == pytest.approx(1 - (1 - 6 / NORM / 122) ** 10)


def test_furiten_waits_count_tsumo_only():
    hand = parse_tiles(NOBETAN)
    unseen = unseen_of(NOBETAN, "7z")
    value = hand_value(hand, situation("7z", in_riichi=True, own_discards=frozenset({k("2s")})), unseen)
    assert value is not None
    # a 2s in the pond makes the whole hand furiten: neither wait is won by ron
    assert value.furiten
    for wait in value.waits:
        assert wait.ron is None and wait.points == pytest.approx(2000 * (1 + U))


def test_one_shanten_by_hand():
    # 123m 456p 789s 11z (East pair) 5s 7z: one draw from tenpai. Only 7z is left among the tiles
    # that reach tenpai (the others are made unseen-free): drawing it, discarding 5s leaves
    # 11z + 77z waiting on 1z (none left) and 7z (2 left).
    hand = parse_tiles("123m456p789s11z5s7z")
    unseen = unseen_of("123m456p789s11z5s7z", "2p")
    for name in ("3s", "4s", "5s", "6s", "7s", "1z"):
        unseen[k(name)] = 0
    pool = sum(unseen)
    value = hand_value(hand, situation("2p", draws_left=2), unseen)
    assert value is not None and value.shanten == 1
    assert value.tiles == 3
    # the 7z win, valued as riichi (closed, may riichi), non-dealer, East round and the East pair:
    # ron: riichi + chun 2 han; 20 + 10 closed ron + 4 (chun triplet by ron counts open)
    #      + 2 (round-wind pair) = 36 -> 40 fu: 2,600
    # tsumo: riichi + menzen tsumo + chun 3 han; 20 + 2 + 8 + 2 = 32 -> 40 fu: 1,300/2,600 = 5,200
    # riichi: 3 han 40 fu tsumo and 2 han 40 fu ron, each one more han for U of the wins
    win = mix(5200 * (1 + U * (2000 / 1280 - 1)), 2600 * (1 + U), "honour")
    # two draws left: tenpai on the first (3 of pool), then a win on the second (2 copies of 7z)
    assert value.ev == pytest.approx(3 / pool * (2 * weight("honour") / pool) * win)
    assert value.win_points == pytest.approx(win)
    # a decision's shared look-ahead is keyed by the kinds let go: it needs the one discarded
    with pytest.raises(ValueError, match="shared"):
        hand_value(hand, situation("2p", draws_left=2), unseen, shared={})
    assert hand_value(hand, situation("2p", draws_left=2), unseen, discarded=k("2p"), shared={}) is not None


def test_far_hands_are_not_valued():
    hand = parse_tiles("147m258p369s1234z")
    assert hand_value(hand, situation("1p"), unseen_of("147m258p369s1234z")) is None


def basic(han: int, fu: int) -> int:
    """Basic points (基本点) below yakuman: fu x 2^(han+2) up to the mangan's 2,000, then 3,000
    haneman (6-7 han), 4,000 baiman (8-10), 6,000 sanbaiman (11-12)."""
    return {6: 3000, 7: 3000, 8: 4000, 9: 4000, 10: 4000, 11: 6000, 12: 6000}.get(
        han, 2000 if han == 5 else min(2000, fu * 2 ** (han + 2)))


def riichi(points: int, han: int, fu: int, u: float = U) -> float:
    """A riichi win's points with the average ippatsu and ura dora: one more han ``u`` of the time."""
    return points * (1 + u * (basic(han + 1, fu) / basic(han, fu) - 1))


def test_discard_values_by_hand_two_dora_kept():
    # 234m 567p 22s 345578s, dora 5s (indicator 4s): three ways to tenpai
    hand = parse_tiles("234m567p22s345578s")
    unseen = unseen_of("234m567p22s345578s", "4s")  # 121 unseen
    values = discard_values(hand, situation("4s"), unseen, [k("8s"), k("2s"), k("5s")])
    eight, two, five = values[k("8s")], values[k("2s")], values[k("5s")]
    assert eight is not None and two is not None and five is not None

    def chance(weighted: float) -> float:
        return 1 - (1 - weighted / 121) ** 10

    # 8s out: 345s + 57s, kanchan 6s (4 left): riichi, tanyao, dora 2 = 4 han 40 fu ron, 5 han
    # tsumo: a mangan (8,000) either way, the tsumo a haneman when one more han comes
    six = mix(riichi(8000, 5, 40), riichi(8000, 4, 40), "37")
    assert eight.tiles == 4 and eight.win_points == pytest.approx(six)
    assert eight.ev == pytest.approx(six * chance(4 * weight("37")))
    # 2s out: 234s 55s 78s waits 6s and 9s (8 left), both fives kept.
    # 6s: riichi tanyao pinfu dora 2 = 5 han ron 8,000; + tsumo 6 han 12,000
    # 9s: riichi pinfu dora 2 = 4 han 30 fu ron 7,700; + tsumo 5 han 8,000 (pinfu tsumo: 20 fu)
    six = mix(riichi(12000, 6, 20), riichi(8000, 5, 30), "37")
    nine = mix(riichi(8000, 5, 20), riichi(7700, 4, 30), "19")
    w6, w9 = 4 * weight("37"), 4 * weight("19")
    assert two.tiles == 8
    assert two.win_points == pytest.approx((w6 * six + w9 * nine) / (w6 + w9))
    assert two.ev == pytest.approx(two.win_points * chance(w6 + w9))
    # 5s out: 22s 345s 78s, one dora: 6s 4 han 30 fu ron 7,700, tsumo 5 han 8,000;
    # 9s 3 han 30 fu ron 3,900, tsumo 4 han 20 fu 5,200
    six = mix(riichi(8000, 5, 20), riichi(7700, 4, 30), "37")
    nine = mix(riichi(5200, 4, 20), riichi(3900, 3, 30), "19")
    assert five.win_points == pytest.approx((w6 * six + w9 * nine) / (w6 + w9))


def test_three_player_ron_ratio_and_payments():
    # the nobetan in a three-player game (pinzu for the manzu), riichi, non-dealer: a 2 han 30 fu
    # tsumo is 500 from the other non-dealer and 1,000 from the dealer, nothing for the absent seat
    hand = parse_tiles("123p456p789s2345s")
    unseen = unseen_of("123p456p789s2345s", "7z")
    for m in range(1, 8):
        unseen[m] = 0
    value = hand_value(hand, situation("7z", in_riichi=True, rules=TENHOU_3P), unseen)
    assert value is not None
    wait = value.waits[0]
    assert wait.ron == ScoreLine(han=1, fu=40, points=1300)
    assert wait.tsumo == ScoreLine(han=2, fu=30, points=1500)
    u3 = riichi_bonus_han(3)
    assert wait.points == pytest.approx(mix(riichi(1500, 2, 30, u3), riichi(1300, 1, 40, u3), "28", players=3))


def test_han_kept_counts_dora_red_and_yakuhai_pairs():
    dora = dora_kinds(parse_tiles("4s"))  # 5s
    yakuhai = {k("5z"), k("6z"), k("7z"), k("1z"), k("2z")}
    assert han_kept(parse_tiles("123m055s66z1z"), [], dora, yakuhai) == 3 + 1 + 1  # three 5s, a red, 66z
    assert han_kept(parse_tiles("123m055s66z1z"), [], dora, yakuhai, red_fives=False) == 3 + 1
    pon = Meld(CallKind.PON, tuple(parse_tiles("777z")), parse_tiles("777z")[0], 1, None, 0)
    assert han_kept(parse_tiles("123m"), [pon], dora, yakuhai) == 1


def test_a_wait_on_a_fifth_copy_beside_a_meld_scores_nothing():
    # a pon of 5p and a single 5p: the 5p single wait needs a fifth copy (shape only)
    five = [t for t in range(52, 56)]
    pon = Meld(CallKind.PON, tuple(five[1:]), five[1], 2, None, 0)
    hand = [five[0], *parse_tiles("123m456m789s")]
    unseen = unseen_of("123m456m789s", "4z")
    for t in five:
        unseen[t >> 2] -= 1
    value = hand_value(hand, situation("4z", melds=(pon,), may_riichi=False), unseen)
    assert value is not None and value.shanten == 0
    (wait,) = value.waits
    assert (wait.kind, wait.left, wait.ron, wait.tsumo) == (k("5p"), 0, None, None)
    assert value.tiles == 0 and value.ev == 0


@pytest.mark.parametrize("players", [4, 3])
def test_the_analysis_values_riichi_where_the_rule_allows_it_and_nowhere_else(players):
    """One riichi rule: the value's ``may_riichi`` is ``rules.riichi.may_declare_riichi``, at its
    edges (the stick's 1,000 points, the live wall's minimum of 4 or 3 tiles, an open hand, a
    closed kan): a three-player hand with 3 live tiles left may still declare."""
    from tenhou_tools.analysis.value import situation_of
    from tenhou_tools.rules.riichi import RIICHI_COST, may_declare_riichi, riichi_live_minimum
    from tenhou_tools.rules.scoring import TENHOU_4P

    rules = TENHOU_4P if players == 4 else TENHOU_3P
    pon = Meld(CallKind.PON, (108, 109, 110), 110, 1, None, 0)
    closed_kan = Meld(CallKind.CLOSED_KAN, (112, 113, 114, 115), None, None, None, 0)
    minimum = riichi_live_minimum(players)
    assert minimum == (4 if players == 4 else 3) and RIICHI_COST == 1000
    allowed = 0
    for melds in ((), (pon,), (closed_kan,)):
        for score in (RIICHI_COST - 100, RIICHI_COST, 25000):
            for live in (minimum - 1, minimum, 40):
                s = situation_of(melds=melds, seat_wind=1, round_wind=0, dora_indicators=(0,), live_remaining=live,
                                 players=players, own_discards=(), score=score, declared=False, rules=rules)
                rule = may_declare_riichi(melds, score, live, players)
                assert s.may_riichi == rule, (melds, score, live)
                allowed += rule
    assert allowed == 2 * 2 * 2  # closed or with a closed kan, 1,000 or more, the minimum or more
