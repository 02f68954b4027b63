"""The expected-points model and the verdict, worked out on readable hands (issue 33): every legal
discard valued in points, the threats combined, furiten a state of the hand, no yaku and no tile
left no win, a safe tile kept, placement in the last hand, and the verdict from the cost."""

from __future__ import annotations

import pytest

from tenhou_tools.analysis.defence import THREAT_MIN, threats_against
from tenhou_tools.analysis.model import Standing, _keep_terms, option_values, reach
from tenhou_tools.analysis.tables import (
    far_fit,
    far_points,
    far_points_of,
    keep_preference,
    ron_points,
    tenpai_chance,
    tile_role,
    value_marks_less_one,
    value_marks_of,
)
from tenhou_tools.analysis.values import OPTION_FIELDS, DangerAgainst, OptionValue, Reason, ValueSituation, Verdict
from tenhou_tools.analysis.verdict import (
    LOSS_THRESHOLD,
    NOT_IN_RIICHI,
    judge,
    judged_discard,
    reason_of,
    summarise,
)
from tenhou_tools.events import CallKind, Meld
from tenhou_tools.replay.board import Board, PondTile, SeatBoard
from tenhou_tools.rules.danger import (
    DangerClass,
    RiichiOpponent,
    assess_hand,
    danger_rate,
    dora_kinds,
    visible_counts,
)
from tenhou_tools.rules.hand import counts34
from tenhou_tools.rules.shanten import discard_options
from tenhou_tools.rules.values import Furiten
from tenhou_tools.tiles import parse_tiles, yakuhai_kinds


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


def situation(indicator: str = "1p", **kw) -> ValueSituation:
    fields = {"melds": (), "seat_wind": 1, "round_wind": 0, "draws_left": 10,
              "dora_indicators": tuple(parse_tiles(indicator))}
    fields.update(kw)
    return ValueSituation(**fields)


def riichi_threat(seat: int, hand: list[int], safe: str, *, turn: int = 9, dora: str = "",
                  value: float = 8000.0) -> DangerAgainst:
    """``hand`` against an opponent in riichi whose genbutsu are ``safe`` (nothing else seen)."""
    opponent = RiichiOpponent(seat, frozenset(t >> 2 for t in parse_tiles(safe)), turn, -1, frozenset(),
                              frozenset({31, 32, 33, 27}))
    assessed = assess_hand({t >> 2 for t in hand}, opponent, visible_counts(hand, []),
                           dora=frozenset(k(d + dora[-1]) for d in dora[:-1]) if dora else frozenset())
    danger = tuple(assessed.values())
    rates = tuple(danger_rate(d) for d in danger)
    return DangerAgainst(seat, danger[0], danger, rates, riichi=True, tenpai=1.0, hand_value=value)


def options_of(hand: list[int], s: ValueSituation, unseen: list[int], threats=(), *, chosen: str,
               turn: int = 8, standing: Standing | None = None) -> tuple[OptionValue, ...]:
    options = discard_options(counts34(hand), len(s.melds), unseen)
    return option_values(hand, options, s, unseen, tuple(threats), chosen=tile(hand, chosen), turn=turn,
                         standing=standing)


def by_kind(options: tuple[OptionValue, ...]) -> dict[int, OptionValue]:
    return {o.kind: o for o in options}


# -- the model --------------------------------------------------------------------------------


def test_every_legal_discard_is_valued_best_first_in_one_currency():
    hand = parse_tiles("123456m78p2379s11z")
    options = options_of(hand, situation(), unseen_of("123456m78p2379s11z"), chosen="2s")
    assert sorted(o.kind for o in options) == sorted({t >> 2 for t in hand})
    assert [o.ev for o in options] == sorted((o.ev for o in options), reverse=True)
    for o in options:
        assert o.ev == pytest.approx(o.win - o.risk - o.later + o.keep)
        assert (o.value is not None) == (o.shanten <= 1)
    # the 7s or 9s keep the ryanmen 23s (16 tiles), the 2s the kanchan (12): a faster hand
    top = options[0]
    assert top.kind in (k("7s"), k("9s")) and by_kind(options)[k("2s")].ev < top.ev


def test_a_furiten_hand_is_valued_by_tsumo_alone():
    # 123m 456p 789s 2345s: a nobetan on 2s and 5s; a 5s in the seat's own pond makes the whole
    # hand furiten, so the 2s cannot be won by ron either
    text = "123m456p789s2345s"
    hand = parse_tiles(text + "9p")
    unseen = unseen_of(text, "9p", "7z")
    clean = by_kind(options_of(hand, situation("7z", in_riichi=False), unseen, chosen="9p"))[k("9p")]
    furiten = by_kind(options_of(hand, situation("7z", own_discards=frozenset({k("5s")})), unseen,
                                 chosen="9p"))[k("9p")]
    assert clean.value is not None and furiten.value is not None
    assert not clean.value.furiten and furiten.value.furiten
    assert all(w.ron is None for w in furiten.value.waits)  # not only the 5s
    assert any(w.ron is not None for w in clean.value.waits)
    assert furiten.win < clean.win


def test_a_yakuless_open_tenpai_wins_nothing_and_is_not_the_top():
    # after a chi of 234m: 567p 789s 34s 55z 7z. Out with the 7z, tenpai on 2s-5s without a yaku
    # (open, a haku pair only): worth nothing. The top keeps the two dragons for a yakuhai.
    chi = Meld(CallKind.CHI, tuple(parse_tiles("234m")), parse_tiles("234m")[0], 0, None, 0)
    text = "567p789s34s55z7z"
    hand = parse_tiles(text)
    unseen = unseen_of(text, "234m", "1p")
    options = options_of(hand, situation(melds=(chi,)), unseen, chosen="7z")
    yakuless = by_kind(options)[k("7z")]
    assert yakuless.shanten == 0 and yakuless.value is not None and yakuless.win == 0
    assert options[0].kind != k("7z") and options[0].win > 0


def test_a_dead_wait_wins_nothing():
    # 123m 456p 789s 111z 5s + 7z: out with the 7z, a 5s single wait (a tanki); every 5s seen
    text = "123m456p789s111z5s7z"
    hand = parse_tiles(text)
    unseen = unseen_of(text, "1p")
    unseen[k("5s")] = 0
    dead = by_kind(options_of(hand, situation(), unseen, chosen="7z"))[k("7z")]
    assert dead.shanten == 0 and dead.value is not None and dead.value.tiles == 0 and dead.win == 0


def test_a_fold_onto_the_lower_rate_tile_beside_a_live_dora_honour():
    # far from tenpai against a riichi: the 7z is a dora (indicator 6z) and live, the 9m a suji
    # (6m genbutsu): the top is the tile with the lower measured rate, not the honour
    text = "159m258p369s147z23s"
    hand = parse_tiles(text)
    threat = riichi_threat(1, hand, "6m", turn=12, dora="7z")
    rates = dict(zip((d.kind for d in threat.hand), threat.rates, strict=True))
    assert threat.class_of(k("9m")) is DangerClass.SUJI
    assert rates[k("9m")] < rates[k("7z")]
    options = options_of(hand, situation("6z"), unseen_of(text, "6z"), [threat], chosen="7z", turn=12)
    assert options[0].risk <= by_kind(options)[k("9m")].risk
    assert by_kind(options)[k("7z")].ev < by_kind(options)[k("9m")].ev


def test_two_riichi_combine_into_one_deal_in_chance():
    text = "123456m78p2379s11z"
    hand = parse_tiles(text)
    one, two = riichi_threat(1, hand, "1z", value=8000), riichi_threat(3, hand, "5s", value=12000)
    options = by_kind(options_of(hand, situation(), unseen_of(text), [one, two], chosen="2s"))
    p1, p2 = one.deal_in_chance(k("2s")), two.deal_in_chance(k("2s"))
    assert options[k("2s")].deal_in == pytest.approx(1 - (1 - p1) * (1 - p2))
    assert options[k("2s")].risk == pytest.approx(p1 * 8000 + p2 * 12000)
    assert options[k("1z")].risk == pytest.approx(two.deal_in_chance(k("1z")) * 12000)  # genbutsu vs S1


def test_a_safe_tile_kept_counts_once_an_opponent_threatens():
    text = "159m258p369s147z23s"
    hand = parse_tiles(text)
    threat = riichi_threat(1, hand, "1z4z", turn=12)
    options = by_kind(options_of(hand, situation(), unseen_of(text), [threat], chosen="1z", turn=12))
    # out with one genbutsu, the other is kept for the next discard: nothing to lose then
    assert options[k("1z")].later == 0 and options[k("4z")].later == 0
    # out with a dangerous tile, the safest tile left is still a genbutsu
    assert options[k("5m")].later == 0
    without = riichi_threat(1, hand, "1z", turn=12)
    options = by_kind(options_of(hand, situation(), unseen_of(text), [without], chosen="1z", turn=12))
    assert options[k("1z")].later > 0  # the only genbutsu gone, the next discard is a risk


def test_a_yakuhai_single_is_kept_over_a_guest_wind_far_from_tenpai():
    # three-shanten, a South seat in the East round: 7z (chun) is a yakuhai, 3z (West) a guest
    text = "147m258p3689s37z25s"
    hand = parse_tiles(text)
    options = by_kind(options_of(hand, situation(), unseen_of(text, "1p"), chosen="3z", turn=3))
    assert options[k("3z")].shanten == options[k("7z")].shanten >= 2
    assert options[k("3z")].accepted == options[k("7z")].accepted
    assert options[k("3z")].ev > options[k("7z")].ev


def test_a_dealer_mangan_pushes_against_a_riichi():
    # the dealer: 234567m 2p 555p 66p 45s, three dora (indicator 4p). Out with the 2p (no suji
    # against the riichi) it is tenpai on 3-6s for a mangan or more; out with the 5p (genbutsu)
    # it folds a dora and its tenpai. The push is worth more.
    text = "234567m2p55566p45s"
    hand = parse_tiles(text)
    unseen = unseen_of(text, "4p")
    threat = riichi_threat(1, hand, "5p", turn=8)
    options = by_kind(options_of(hand, situation("4p", seat_wind=0), unseen, [threat], chosen="2p"))
    push, fold = options[k("2p")], options[k("5p")]
    assert push.shanten == 0 and push.risk > 0 and fold.risk == 0
    assert push.value is not None and push.value.win_points >= 12000
    assert push.ev > fold.ev


def test_placement_in_the_last_hand():
    # all-last: the seat leads by 1,000; a 8,000 deal-in into the second drops it to second
    standing = Standing(0, (31000, 30000, 20000, 19000), (20000, 10000, -10000, -20000))
    assert standing.deal_in_loss(1, 8000) == 10000  # first to second
    assert standing.deal_in_loss(3, 1000) == 0  # still first
    assert standing.win_gain(3900) == 0  # already first
    trailing = Standing(2, (31000, 30000, 20000, 19000), (20000, 10000, -10000, -20000))
    assert trailing.win_gain(12000) == 30000  # third to first: 32,000 against 27,000, 26,000, 15,000
    text = "123456m78p2379s11z"
    hand = parse_tiles(text)
    threat = riichi_threat(1, hand, "1z", value=8000)
    plain = by_kind(options_of(hand, situation(), unseen_of(text), [threat], chosen="2s"))
    last = by_kind(options_of(hand, situation(), unseen_of(text), [threat], chosen="2s", standing=standing))
    # the leader's deal-in costs its first place too
    assert last[k("2s")].risk == pytest.approx(plain[k("2s")].risk * (8000 + 10000) / 8000)


# -- threats without a riichi ----------------------------------------------------------------


def _seat(seat: int, concealed: str, *, melds: tuple[Meld, ...] = (), pond: str = "", step0: int = 0) -> SeatBoard:
    tiles = parse_tiles(pond)
    return SeatBoard(seat=seat, concealed=tuple(parse_tiles(concealed)), melds=melds,
                     pond=tuple(PondTile(t, False, False, False, step0 + 4 * i) for i, t in enumerate(tiles)),
                     score=25000, riichi=False, declared=False, connected=True, furiten=Furiten())


def test_a_three_call_honitsu_is_a_threat_without_riichi():
    pons = tuple(Meld(CallKind.PON, tuple(t), t[0], 0, None, 0) for t in
                 (parse_tiles("111s"), parse_tiles("999s"), parse_tiles("555z")))
    seats = (
        _seat(0, "1m2m3m4p5p6p7m8m9m2s3s4s7z7z", pond="1z2z3z4z9p8p1p"),
        _seat(1, "1m", pond="1p2p3p4p5p6p7p8p"),
        _seat(2, "23456s", melds=pons, pond="9m1m9p1p2m8m3p"),
        _seat(3, "1m2m3m4m5m6m7m8m9m1p2p3p4p", pond="1z2z3z4z1m2m3m"),
    )
    board = Board(round=0, dealer=1, step=40, honba=0, sticks=0, dora_indicators=tuple(parse_tiles("9p")),
                  live_remaining=40, seats=seats)
    found = threats_against(board, 0, seats[0].concealed[0])
    assert [t.seat for t in found] == [2]
    threat = found[0]
    assert not threat.riichi and threat.open_melds == 3
    assert threat.tenpai == pytest.approx(tenpai_chance(4, 3, 7)) and threat.tenpai >= THREAT_MIN
    assert threat.hand_value == pytest.approx(ron_points(4, "open", False))
    classes = {d.kind: d.danger_class for d in threat.hand}
    assert classes[k("1m")] is DangerClass.GENBUTSU  # in its own pond: furiten
    rates = dict(zip((d.kind for d in threat.hand), threat.rates, strict=True))
    assert rates[k("3s")] > 0 and rates[k("1m")] == 0
    # the closed seat 3 at its seventh discard is not (about 3.5 %)
    assert tenpai_chance(4, 0, 7) < THREAT_MIN


# -- the verdict ------------------------------------------------------------------------------


def option(kind: int, ev: float, *, win: float | None = None, risk: float = 0.0, shanten: int = 1,
           accepted: int = 10) -> OptionValue:
    return OptionValue(kind=kind, shanten=shanten, accepted=accepted, win=ev + risk if win is None else win,
                       risk=risk, ev=ev)


def test_the_verdict_follows_the_cost():
    options = (option(1, 1000), option(2, 1000), option(3, 1000 - LOSS_THRESHOLD + 1), option(4, 100))
    assert judge(options, 1, forced=False).verdict is Verdict.BEST
    tie = judge(options, 2, forced=False)
    assert tie.verdict is Verdict.BEST and tie.cost_points == 0  # a tie with the top is never a loss
    close = judge(options, 3, forced=False)
    assert close.verdict is Verdict.CLOSE and close.cost_points == LOSS_THRESHOLD - 1
    loss = judge(options, 4, forced=False)
    assert loss.verdict is Verdict.LOSS and loss.cost_points == 900 and loss.top_kind == 1
    forced = judge(options[3:], 4, forced=True)
    assert forced.verdict is Verdict.FORCED and forced.options == (options[3],)
    json = loss.to_json()
    assert (json["verdict"], json["top_kind"], json["ev"], json["top_ev"], json["cost_points"]) == (
        "loss", 1, 100, 1000, 900)
    assert [o[0] for o in json["options"]] == [1, 2, 3, 4]


def test_the_reason_in_a_players_words():
    top = option(1, 1000, win=1200, risk=200)
    assert reason_of(option(2, 600, win=1600, risk=1000), top) is Reason.PUSH
    assert reason_of(option(2, 600, win=1000, risk=400), top) is Reason.DEFENCE
    assert reason_of(option(2, 600, win=600, risk=0), top) is Reason.FOLD
    assert reason_of(option(2, 600, win=800, risk=200, shanten=2), top) is Reason.EFFICIENCY
    assert reason_of(option(2, 600, win=800, risk=200), top) is Reason.VALUE


def test_the_summary_adds_up_each_seat():
    options = (option(1, 1000), option(2, 800), option(3, 100))
    riichi = riichi_threat(1, parse_tiles("123m"), "1m")
    rows = [
        judged_discard(0, judge(options, 1, forced=False), None),
        judged_discard(0, judge(options, 2, forced=False), None),
        judged_discard(0, judge(options, 3, forced=False), [riichi], winners=[1]),
        judged_discard(0, judge(options[2:], 3, forced=True), None, winners=[2]),
    ]
    (s,) = summarise(rows, 1)
    assert (s.judged, s.best, s.close, s.loss, s.forced) == (4, 1, 1, 1, 1)
    assert s.cost_points == 200 + 900 and s.mean_cost == pytest.approx(1100 / 3)
    assert s.share_best == pytest.approx(1 / 3) and s.loss_rate == pytest.approx(1 / 3)
    assert s.reasons == {"value": 1}
    assert s.deal_ins == {riichi.tile_class.value: 1, NOT_IN_RIICHI: 1}


def test_dora_kinds_helper_is_the_rules_one():
    assert dora_kinds(parse_tiles("6z")) == frozenset({k("7z")})


# -- the keep table ------------------------------------------------------------------------------


def test_a_tile_role_is_what_the_tile_is_to_the_hand():
    hand = parse_tiles("1m 23p 5p 9p 44s 7s 2z 7z 6m".replace(" ", ""))
    counts = counts34(hand)
    dora = frozenset({k("6m")})  # a dora, and the 5p is not near it (another suit)

    def role(name: str, sanma: bool = False) -> str:
        return tile_role(k(name), counts, yakuhai=frozenset({k("7z"), k("2z")}), dora=dora,
                         unseen=unseen_of("1m23p5p9p44s7s2z7z6m"), sanma=sanma)

    assert role("1m") == "191i"  # a terminal, alone (the 6m is five away)
    assert role("2p") == "281c" and role("3p") == "371c"  # side by side
    assert role("5p") == "4561k"  # the 3p two away: a gap
    assert role("9p") == "191i"
    assert role("4s") == "4562i" and role("7s") == "371i"
    assert role("6m") == "4561iD"
    assert role("7z") == "yakuhai1u3" and role("2z") == "yakuhai1u3"
    assert role("1m", sanma=True) == "m191i"
    near_dora = tile_role(k("5m"), counts34(parse_tiles("5m1p")), yakuhai=(), dora=frozenset({k("6m")}),
                          unseen=[4] * 34, sanma=False)
    assert near_dora == "4561in"


def test_strong_players_let_a_guest_wind_go_early_and_a_lone_terminal_later():
    """The measured keep table (analysis/model_rates.txt): two or more from tenpai with no threat,
    a lone guest wind goes before a lone terminal in the first three discards, after it from the
    seventh (docs/analysis.md, "The keep table")."""
    early = keep_preference(4, "far", False, 2, "guest1u3") - keep_preference(4, "far", False, 2, "191i")
    late = keep_preference(4, "far", False, 8, "guest1u3") - keep_preference(4, "far", False, 8, "191i")
    assert early > 0 > late
    # a role the table never saw reads as its group's share (the mean: no push either way)
    unseen_role = keep_preference(4, "far", False, 8, "no such role")
    assert min(keep_preference(4, "far", False, 8, r) for r in ("191i", "4561c")) < unseen_role


def test_the_keep_term_orders_options_valued_alike_and_moves_no_total():
    """Two far options worth the same: the one strong players let go more readily comes first,
    the keep terms sum to zero (the decision's mean is kept), and ``win`` is left as it was."""
    text = "147m258p369s1z4z59m"  # West is no yakuhai for this South seat; 1z (East) is the round's
    hand = parse_tiles(text)
    alike = [(k(name), 3, 800.0) for name in ("4z", "1m", "5m")]
    keeps = _keep_terms(alike, counts34(hand), situation(), unseen_of(text, "1p"), yakuhai_kinds(0, 1),
                        frozenset({k("2p")}), turn=9, safe=None)
    assert sum(keeps) == pytest.approx(0.0) and all(keep != 0.0 for keep in keeps)
    by = {kind: win + keep for (kind, _, win), keep in zip(alike, keeps, strict=True)}
    assert by[k("1m")] > by[k("4z")] and by[k("1m")] > by[k("5m")]  # the lone terminal goes first late


def test_an_option_row_leaves_out_the_zeros_that_end_it():
    """The JSON row is ``OPTION_FIELDS`` in order; the zeros after the fourth column that end it
    are left out (a calm decision's row stops at ``keep``), so a page of thousands stays small."""
    assert OPTION_FIELDS == ("kind", "ev", "shanten", "accepted", "keep", "deal_in", "risk", "later")
    row = OptionValue(kind=1, shanten=2, accepted=30, win=500.0, keep=-20.4, ev=479.6).to_json()
    assert row == [1, 480, 2, 30, -20]
    assert OptionValue(kind=1, shanten=2, accepted=30, win=500.0, ev=500.0).to_json() == [1, 500, 2, 30]
    assert OptionValue(kind=1, shanten=0, accepted=0, win=0.0, ev=0.0).to_json() == [1, 0, 0, 0]
    row = OptionValue(kind=9, shanten=1, accepted=20, win=900.0, deal_in=0.05, risk=200.0, ev=700.0).to_json()
    assert row == [9, 700, 1, 20, 0, 50, 200]


def test_the_models_per_decision_readings_equal_the_tables_own():
    """What the model reads once per decision (each kind's value marks less one copy, the far
    table's fit, a hand's reach for the kinds it holds) is what the tables and ``reach`` give when
    asked per option."""
    import random

    rng = random.Random(7)
    for _ in range(300):
        tiles = rng.sample(range(136), 14)
        counts = counts34(tiles)
        unseen = [rng.randint(0, 4 - min(n, 4)) for n in counts]
        dora = frozenset(rng.sample(range(34), rng.randint(1, 3)))
        yakuhai = yakuhai_kinds(rng.randint(0, 1), rng.randint(0, 3))
        reds = rng.randint(0, 2)
        marks, single = value_marks_less_one(counts, reds, dora, yakuhai, unseen)
        for kind in range(34):
            if counts[kind]:
                less = list(counts)
                less[kind] -= 1
                assert (marks[kind], single[kind]) == value_marks_of(less, reds, dora, yakuhai, unseen)
        held = reach(unseen, yakuhai, counts)
        whole = reach(unseen, yakuhai)
        assert all(held[kind] == whole[kind] for kind in range(34) if counts[kind])
    for players in (3, 4):
        for shanten in (2, 3, 5):
            for turn in (1, 5, 9, 15):
                for open_hand in (False, True):
                    fit = far_fit(players, shanten, turn, open_hand=open_hand)
                    for accepted in (0, 4, 23, 61):
                        assert far_points_of(fit, accepted) == far_points(players, shanten, turn, accepted,
                                                                           open_hand=open_hand)
