"""The verdict of a discard and the per-seat summary, on readable hands."""

from __future__ import annotations

import pytest

from tenhou_tools.analysis import analyze_discard
from tenhou_tools.analysis.defence import DangerAgainst
from tenhou_tools.analysis.value import TSUMO_SHARE, HandValue, ValueSituation, discard_values
from tenhou_tools.analysis.verdict import (
    MARKS_ACCEPTANCE_KEPT,
    NOT_IN_RIICHI,
    JudgedDiscard,
    Verdict,
    judge,
    judged_discard,
    summarise,
)
from tenhou_tools.rules.danger import DangerClass, RiichiOpponent, assess_hand, visible_counts
from tenhou_tools.tiles import parse_tiles

SHARE = TSUMO_SHARE[4]


def k(name: str) -> int:
    return parse_tiles(name)[0] >> 2


def tile(hand: list[int], name: str) -> int:
    return next(t for t in hand if t >> 2 == k(name))


def unseen_of(*texts: str) -> list[int]:
    unseen = [4] * 34
    for text in texts:
        for t in parse_tiles(text):
            unseen[t >> 2] -= 1
    return unseen


def against(seat: int, hand: list[int], safe: str, chosen: int) -> DangerAgainst:
    """The hand against an opponent whose genbutsu are ``safe`` (nothing else visible)."""
    opponent = RiichiOpponent(seat, frozenset(t >> 2 for t in parse_tiles(safe)), 9, k(safe[:1] + safe[-1]),
                              frozenset(), frozenset())
    assessed = assess_hand({t >> 2 for t in hand}, opponent, visible_counts(hand, []))
    return DangerAgainst(seat, assessed[chosen >> 2], tuple(assessed.values()), (0.0,) * len(assessed))


# Two runs, three partial shapes (78p, 23s, 79s) and a pair: dropping 7s or 9s keeps 16 tiles,
# dropping 2s keeps 12 (docs/analysis.md's example).
ONE_SHANTEN = "123456m78p2379s11z"


def test_forced_after_the_own_riichi_declaration():
    hand = parse_tiles(ONE_SHANTEN)
    analysis = analyze_discard(hand, 0, tile(hand, "2s"), unseen_of(ONE_SHANTEN), in_riichi=True)
    judgement = judge(analysis, forced=True)
    assert judgement.verdict is Verdict.FORCED
    assert judgement.acceptance_cost == 0


def test_best_when_among_the_best():
    hand = parse_tiles(ONE_SHANTEN)
    analysis = analyze_discard(hand, 0, tile(hand, "9s"), unseen_of(ONE_SHANTEN))
    assert judge(analysis, forced=False).verdict is Verdict.BEST


def test_defence_a_genbutsu_over_a_non_suji_best():
    hand = parse_tiles(ONE_SHANTEN)
    chosen = tile(hand, "2s")
    analysis = analyze_discard(hand, 0, chosen, unseen_of(ONE_SHANTEN))
    # 2s is in the riichi player's pond; the best discards 7s and 9s are non-suji
    danger = [against(2, hand, "2s", chosen)]
    assert danger[0].tile_class is DangerClass.GENBUTSU
    assert danger[0].class_of(k("7s")) is DangerClass.NON_SUJI
    judgement = judge(analysis, forced=False, danger=danger)
    assert judgement.verdict is Verdict.DEFENCE
    assert judgement.safer_against == (2,)
    assert (judgement.accepted, judgement.best_accepted) == (12, 16)  # the cost, stated
    assert judgement.acceptance_cost == 4


def test_no_defence_when_a_best_discard_is_as_safe():
    hand = parse_tiles(ONE_SHANTEN)
    chosen = tile(hand, "2s")
    analysis = analyze_discard(hand, 0, chosen, unseen_of(ONE_SHANTEN))
    # 2s genbutsu, but so is 9s (one of the best): folding did not need the 2s
    danger = [against(2, hand, "2s9s", chosen)]
    assert judge(analysis, forced=False, danger=danger).verdict is Verdict.EFFICIENCY_LOSS


def test_two_riichi_defence_against_one_is_enough():
    hand = parse_tiles(ONE_SHANTEN)
    chosen = tile(hand, "2s")
    analysis = analyze_discard(hand, 0, chosen, unseen_of(ONE_SHANTEN))
    # against S1, 2s is as dangerous as the best (all non-suji); against S3 it is suji (5s genbutsu)
    danger = [against(1, hand, "1z", chosen), against(3, hand, "5s", chosen)]
    assert danger[0].tile_class is DangerClass.NON_SUJI
    assert danger[1].tile_class is DangerClass.SUJI
    judgement = judge(analysis, forced=False, danger=danger)
    assert (judgement.verdict, judgement.safer_against) == (Verdict.DEFENCE, (3,))


def value(ev: float, tiles: int = 8) -> HandValue:
    return HandValue(0, tiles, ev, 1.0, ev)


def test_value_when_the_expected_value_is_higher_at_a_bounded_cost():
    hand = parse_tiles(ONE_SHANTEN)
    chosen = tile(hand, "2s")
    analysis = analyze_discard(hand, 0, chosen, unseen_of(ONE_SHANTEN))
    # 12 of the best's 16 tiles kept (75 %, above the half the bound asks), and a higher ev
    values = {k("2s"): value(3000), k("7s"): value(2000), k("9s"): value(2500)}
    judgement = judge(analysis, forced=False, values=values)
    assert judgement.verdict is Verdict.VALUE
    assert judgement.chosen_value == values[k("2s")]
    assert judgement.best_value == values[k("9s")]  # the best-valued of the best
    # a lower ev than one of the best: an efficiency loss, its cost the difference in ev
    values[k("9s")] = value(3500)
    judgement = judge(analysis, forced=False, values=values)
    assert judgement.verdict is Verdict.EFFICIENCY_LOSS
    assert judgement.cost_points == pytest.approx(500)


def test_value_needs_half_the_acceptance():
    # 1m out of ONE_SHANTEN leaves two-shanten: shanten differs, never value
    hand = parse_tiles(ONE_SHANTEN)
    analysis = analyze_discard(hand, 0, tile(hand, "1m"), unseen_of(ONE_SHANTEN))
    values = {k("1m"): value(9000), k("7s"): value(100), k("9s"): value(100)}
    assert judge(analysis, forced=False, values=values).verdict is Verdict.EFFICIENCY_LOSS
    # same shanten but fewer than half the tiles: 8s out of 23s-79s-88s? use a hand where it is so
    hand = parse_tiles("234m567p22s345578s")  # tenpai choices: 2s or 5s out keep 8 tiles, 8s out 4
    analysis = analyze_discard(hand, 0, tile(hand, "8s"), unseen_of("234m567p22s345578s", "4s"))
    assert (analysis.chosen.total, analysis.best[0].acceptance.total) == (4, 8)  # exactly half: allowed
    values = {k("8s"): value(9000, 4), k("2s"): value(100), k("5s"): value(100)}
    assert judge(analysis, forced=False, values=values).verdict is Verdict.VALUE


def test_efficiency_loss_costs_points_by_the_value_model():
    # 234m 567p 22s 345578s, dora 5s: 8s out leaves a kanchan 6s (4 tiles, a mangan); 2s out keeps
    # both fives with 78s waiting on 6s-9s (8 tiles). test_value works the numbers out by hand.
    text = "234m567p22s345578s"
    hand = parse_tiles(text)
    unseen = unseen_of(text, "4s")
    chosen = tile(hand, "8s")
    analysis = analyze_discard(hand, 0, chosen, unseen)
    assert sorted(o.kind for o in analysis.best) == [k("2s"), k("5s")]
    situation = ValueSituation(melds=(), seat_wind=1, round_wind=0, dora_indicators=tuple(parse_tiles("4s")),
                               draws_left=10)
    values = discard_values(hand, situation, unseen, [k("8s"), k("2s"), k("5s")], chosen=chosen)
    judgement = judge(analysis, forced=False, values=values)
    assert judgement.verdict is Verdict.EFFICIENCY_LOSS
    two_out = ((SHARE * 12000 + (1 - SHARE) * 8000) + (SHARE * 8000 + (1 - SHARE) * 7700)) / 2
    expected = two_out * (1 - (113 / 121) ** 10) - 8000 * (1 - (117 / 121) ** 10)
    assert judgement.cost_points == pytest.approx(expected)


# Two-shanten: 12m 345m 13p 79p 35s 22z 1z. Dropping the lone 1z is the only best discard;
# dropping 9p (from the kanchan 79p) keeps more than two thirds of its tiles.
TWO_SHANTEN = "12m345m13p79p35s22z1z"


def test_value_away_from_tenpai_keeps_a_dora():
    hand = parse_tiles(TWO_SHANTEN)
    analysis = analyze_discard(hand, 0, tile(hand, "9p"), unseen_of(TWO_SHANTEN, "4z"))
    assert [o.kind for o in analysis.best] == [k("1z")]
    assert analysis.shanten_after == analysis.best[0].shanten == 2
    assert analysis.chosen.total >= MARKS_ACCEPTANCE_KEPT * analysis.best[0].acceptance.total
    # the dora is East (indicator North): keeping the 1z keeps one han, dropping it none
    judgement = judge(analysis, forced=False, kept={k("9p"): 1, k("1z"): 0})
    assert judgement.verdict is Verdict.VALUE
    assert (judgement.han_kept, judgement.best_han_kept) == (1, 0)
    # dropping 1m breaks the penchan: too many tiles given up for the dora
    analysis = analyze_discard(hand, 0, tile(hand, "1m"), unseen_of(TWO_SHANTEN, "4z"))
    assert analysis.chosen.total < MARKS_ACCEPTANCE_KEPT * analysis.best[0].acceptance.total
    judgement = judge(analysis, forced=False, kept={k("1m"): 1, k("1z"): 0})
    assert judgement.verdict is Verdict.EFFICIENCY_LOSS
    assert judgement.cost_points is None  # no value model this far from tenpai


def test_defence_comes_before_value():
    hand = parse_tiles(ONE_SHANTEN)
    chosen = tile(hand, "2s")
    analysis = analyze_discard(hand, 0, chosen, unseen_of(ONE_SHANTEN))
    values = {k("2s"): value(3000), k("7s"): value(2000), k("9s"): value(2500)}
    judgement = judge(analysis, forced=False, danger=[against(2, hand, "2s", chosen)], values=values)
    assert judgement.verdict is Verdict.DEFENCE


# -- the summary -------------------------------------------------------------------------------

def test_judged_discard_push_and_deal_ins():
    hand = parse_tiles(ONE_SHANTEN)
    chosen = tile(hand, "2s")
    analysis = analyze_discard(hand, 0, chosen, unseen_of(ONE_SHANTEN))
    danger = [against(1, hand, "1z", chosen), against(3, hand, "5s", chosen)]
    judgement = judge(analysis, forced=False, danger=danger)
    row = judged_discard(0, judgement, danger, winners=[1, 2])
    assert row.push  # one-shanten after it, and not genbutsu against S1 (nor S3)
    assert row.deal_ins == ("non_suji", NOT_IN_RIICHI)  # S1 in riichi; S2 was not
    # genbutsu against every riichi: not a push
    safe = [against(1, hand, "2s", chosen)]
    assert not judged_discard(0, judge(analysis, forced=False, danger=safe), safe).push
    # tenpai after the discard: not a push whatever the tile
    nobetan = parse_tiles("123m456p789s23455s")
    tenpai = analyze_discard(nobetan, 0, tile(nobetan, "5s"), unseen_of("123m456p789s23455s"))
    assert tenpai.shanten_after == 0
    live = [against(1, nobetan, "1z", tile(nobetan, "5s"))]
    assert live[0].tile_class is DangerClass.NON_SUJI
    assert not judged_discard(0, judge(tenpai, forced=False, danger=live), live).push


def test_summary_adds_up_per_seat():
    rows = [
        JudgedDiscard(0, Verdict.BEST, 0, False, False),
        JudgedDiscard(0, Verdict.BEST, 0, False, True),
        JudgedDiscard(0, Verdict.EFFICIENCY_LOSS, 4, False, False),
        JudgedDiscard(0, Verdict.EFFICIENCY_LOSS, 0, True, True, ("non_suji",)),
        JudgedDiscard(0, Verdict.FORCED, 0, False, False),
        JudgedDiscard(1, Verdict.DEFENCE, 0, False, False),
        JudgedDiscard(1, Verdict.VALUE, 0, False, False, (NOT_IN_RIICHI,)),
    ]
    s0, s1, s2 = summarise(rows, 3)
    assert (s0.judged, s0.best, s0.forced, s0.efficiency_loss) == (5, 2, 1, 2)
    assert s0.choices == 4 and s0.share_best == 0.5
    assert (s0.acceptance_given_up, s0.shanten_losses, s0.pushes) == (4, 1, 2)
    assert s0.deal_ins == {"non_suji": 1}
    assert (s1.judged, s1.defence, s1.value, s1.deal_ins) == (2, 1, 1, {NOT_IN_RIICHI: 1})
    assert s2.judged == 0 and s2.share_best is None
    assert s0.to_json()["share_best"] == 0.5
    assert s2.to_json()["deal_ins"] == {}
