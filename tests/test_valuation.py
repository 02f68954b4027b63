"""rules/scoring.py: our own hand valuation, by hand-worked hands and against the library.

Two independent implementations of Tenhou's hand values exist in the package: our own (the
engine's, ``scoring.score_win``) and the ``mahjong`` library behind ``scoring_library``. Every
corpus win gives the same answer from both (``scripts/check_scoring.py --library``); here
hypothesis builds random winning hands of every shape — sets, pairs, seven pairs, thirteen
orphans, open and closed melds, kans, kita, red fives, every situation flag, both table sizes —
and requires the same yaku, yakuman, han, fu, points, limit and base points from both.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tenhou_tools.events import CallKind, Meld
from tenhou_tools.rules.hand import counts34
from tenhou_tools.rules.payments import Limit
from tenhou_tools.rules.scoring import (
    ScoredHand,
    ScoringRefusal,
    ScoringRules,
    WinContext,
    YakuId,
    score_win,
)
from tenhou_tools.rules.splits import SEQUENCE, standard_splits
from tenhou_tools.tiles import parse_tiles

from .scoring_library import library_score_win

Y = YakuId


def _meld(call: CallKind, tiles: list[int]) -> Meld:
    tiles_t = tuple(sorted(tiles))
    closed = call in (CallKind.CLOSED_KAN, CallKind.KITA)
    return Meld(call, tiles_t, None if closed else tiles_t[0], None if closed else 1, None, 0)


def _key(result: ScoredHand | ScoringRefusal) -> tuple:
    if isinstance(result, ScoringRefusal):
        return ("refused", result.reason)
    return (sorted(result.yaku), sorted(result.yakuman), result.han, result.fu, result.points,
            result.limit, result.base)


def _win(hand13: str, win: str, *, melds: tuple[Meld, ...] = (), tsumo: bool = False,
         seat_wind: int = 1, round_wind: int = 0, **kw) -> ScoredHand:
    """Score ``hand13`` (the concealed tiles before the win) completed by ``win``."""
    tiles = parse_tiles(hand13 + win)
    result = score_win(WinContext(concealed=tuple(tiles), melds=melds, win_tile=tiles[-1], tsumo=tsumo,
                                  seat_wind=seat_wind, round_wind=round_wind, **kw))
    assert isinstance(result, ScoredHand), result
    return result


# -- hand-worked readings (South seat, East round, no dora unless stated) -------------------------


def test_splits_of_a_pure_suit_hand():
    # 111222333m: three triplets, or three identical sequences
    splits = standard_splits(counts34(parse_tiles("111222333m456p77s")))
    shapes = sorted(sorted(shape for shape, _ in groups) for _, groups in splits)
    assert shapes == [[0, 0, 0, 0], [0, 1, 1, 1]]


def test_splits_are_the_same_when_asked_again():
    """``standard_splits`` is memoised by the counts: asked again (the same list, or changed and
    asked for other counts) it answers for the counts it is given."""
    runs = ((SEQUENCE, 0), (SEQUENCE, 12), (SEQUENCE, 19), (SEQUENCE, 24))  # 123m 456p 234s 789s
    counts = counts34(parse_tiles("123m456p789s11z234s"))
    assert standard_splits(counts) == standard_splits(list(counts)) == ((27, runs),)
    counts[27] -= 2
    counts[31] += 2
    assert standard_splits(counts) == ((31, runs),)


def test_the_reading_with_more_points_is_kept():
    # Ron on 3m. As triplets: 111m (concealed terminal, 8) + 222m (concealed, 4) + 333m
    # (completed by ron: open, 2) + closed ron 10 + base 20 = 44 -> 50 fu, riichi only (two
    # concealed triplets): 1 han 50 fu = 400 base points. As 123m x3: penchan 2 + closed ron 10
    # + base 20 -> 40 fu, riichi + iipeikou = 2 han 40 fu = 640. Tenhou keeps the second.
    hand = _win("11122233m456p77s", "3m", riichi=True)
    assert sorted(hand.yaku) == [(1, 1), (9, 1), (53, 0)]
    assert (hand.han, hand.fu, hand.points) == (2, 40, 2600)


def test_pinfu_tsumo_is_20_fu_and_ron_30():
    # 234m 567p 234s 456s 88s, 4s completes 23s or 56s (both two-sided): pinfu, tanyao
    tsumo = _win("234m567p23456s88s", "4s", tsumo=True, riichi=True)
    assert sorted(tsumo.yaku) == [(0, 1), (1, 1), (7, 1), (8, 1), (53, 0)]
    # 4 han 20 fu = 1280: the dealer pays 2600, the others 1300 each
    assert (tsumo.fu, tsumo.points) == (20, 5200)
    ron = _win("234m567p23456s88s", "4s", riichi=True)
    # 3 han 30 fu = 960 base points: 3840 -> 3900
    assert sorted(ron.yaku) == [(1, 1), (7, 1), (8, 1), (53, 0)]
    assert (ron.fu, ron.points) == (30, 3900)


def test_double_wind_pair_is_4_fu():
    # The dealer in the East round with a pair of East, ron on 2s into 13s (kanchan):
    # 20 + 10 (closed ron) + 2 (kanchan) + 4 (double wind pair) = 36 -> 40 fu; riichi, 1 han
    hand = _win("234m567p13s789s11z", "2s", seat_wind=0, round_wind=0, riichi=True)
    assert ("double_valued_pair", 4) in hand.fu_details and ("kanchan", 2) in hand.fu_details
    assert (hand.fu, hand.han, hand.points) == (40, 1, 2000)  # 320 x 6 = 1920 -> 2000


def test_an_open_hand_without_fu_is_30():
    chi = _meld(CallKind.CHI, parse_tiles("678p"))
    # open tanyao: 234m 456s 234s 55s + chi 678p, ron on 4s (two-sided either way): 20 -> 30 fu
    hand = _win("234m456s23s55s", "4s", melds=(chi,), rules=ScoringRules(red_fives=False))
    assert hand.yaku == ((int(Y.TANYAO), 1),)
    assert (hand.fu, hand.points) == (30, 1000)  # 240 x 4 = 960 -> 1000


def test_seven_pairs_is_25_fu():
    hand = _win("1133m5577p2244s6z", "6z", riichi=True)
    assert sorted(hand.yaku) == [(1, 1), (22, 2), (53, 0)]
    assert (hand.fu, hand.points) == (25, 3200)  # 3 han 25 fu = 800 x 4


def test_ryanpeikou_beats_the_seven_pairs_reading():
    # As seven pairs: riichi + chiitoitsu, 3 han 25 fu = 800. As 123m 123m 123p 123p 55s with
    # 3p completing 12p (penchan): riichi + ryanpeikou = 4 han, 20 + 10 + 2 -> 40 fu: mangan.
    hand = _win("112233m11223p55s", "3p", riichi=True)
    assert sorted(hand.yaku) == [(1, 1), (32, 3), (53, 0)]
    assert (hand.han, hand.fu, hand.limit, hand.points) == (4, 40, Limit.MANGAN, 8000)


def test_junsei_chuuren_and_thirteen_sided_kokushi_are_single_variant_ids():
    chuuren = _win("1112345678999m", "5m", tsumo=True)
    assert chuuren.yakuman == (int(Y.JUNSEI_CHUUREN),) and chuuren.yaku == ()
    assert chuuren.points == 32000  # one yakuman: 16000 from the dealer + 8000 x 2
    kokushi = _win("19m19p19s1234567z", "7z")
    assert kokushi.yakuman == (int(Y.KOKUSHI_13),)
    assert (kokushi.fu, kokushi.limit, kokushi.points) == (0, Limit.YAKUMAN, 32000)


def test_suuankou_needs_a_concealed_fourth_triplet():
    tanki = _win("111m333p555s777s9m", "9m")
    assert tanki.yakuman == (int(Y.SUUANKOU_TANKI),)
    # Ron on 7s with 77s and 99m waiting: the 7s triplet is open, so sanankou + toitoi;
    # 20 + 10 + 8 (111m) + 4 (333p) + 4 (555s) + 2 (777s open) = 48 -> 50 fu, 4 han: mangan
    shanpon = _win("111m333p555s77s99m", "7s")
    assert shanpon.yakuman == () and sorted(shanpon.yaku) == [(28, 2), (29, 2)]
    assert (shanpon.fu, shanpon.limit, shanpon.points) == (50, Limit.MANGAN, 8000)


def test_a_yakuman_reading_beats_a_kazoe_reading():
    # 111m 222m 33m + closed kan of East + South pair, the dealer draws 3m in the East round:
    # four concealed triplets (suuankou), or 123m x3 with riichi 1, tsumo 1, iipeikou 1, chanta
    # 2, honitsu 3, double East 2 and three dora (9m indicator) = 13 han (kazoe). Both are one
    # yakuman; the yakuman is the one Tenhou shows.
    kan = _meld(CallKind.CLOSED_KAN, parse_tiles("1111z"))
    hand = _win("11122233m22z", "3m", melds=(kan,), tsumo=True, seat_wind=0, riichi=True,
                dora_indicators=(parse_tiles("9m")[0],), rules=ScoringRules(red_fives=False))
    assert hand.yakuman == (int(Y.SUUANKOU),) and hand.yaku == ()
    assert hand.points == 48000


def test_kita_is_dora_and_counts_again_under_a_west_indicator():
    kita = (_meld(CallKind.KITA, parse_tiles("4z")[:1]), _meld(CallKind.KITA, parse_tiles("44z")[1:]))
    # riichi + menzen tsumo; two kita are 2 dora, and the West indicator points at North: 2 more
    hand = _win("123p456p789s11z23s", "4s", melds=kita, tsumo=True, riichi=True,
                dora_indicators=(parse_tiles("3z")[0],), rules=ScoringRules(players=3))
    assert sorted(hand.yaku) == [(0, 1), (1, 1), (52, 4), (53, 0)]
    assert (hand.han, hand.fu, hand.limit) == (6, 30, Limit.HANEMAN)


# -- the two implementations agree ----------------------------------------------------------------


@st.composite
def winning_contexts(draw):
    players = draw(st.sampled_from((4, 3)))
    sanma = players == 3
    kinds_allowed = [k for k in range(34) if not (sanma and 1 <= k <= 7)]
    counts = [0] * 34

    def take(kind: int, n: int = 1) -> bool:
        if counts[kind] + n > 4:
            return False
        counts[kind] += n
        return True

    shape = draw(st.sampled_from(("sets", "sets", "sets", "sets", "sets", "pairs", "kokushi", "chuuren")))
    # a theme narrows the kinds, so that the rare yaku and yakuman come up too
    suit = draw(st.sampled_from((9, 18) if sanma else (0, 9, 18)))
    number = draw(st.integers(0, 6))
    themes = {
        "any": kinds_allowed,
        "winds": [27, 28, 29, 30],
        "terminals only": [k for k in kinds_allowed if k in (0, 8, 9, 17, 18, 26)],
        "one suit and honours": [*range(suit, suit + 9), *range(27, 34)],
        "one suit": list(range(suit, suit + 9)),
        "honours": list(range(27, 34)),
        "winds and dragons": [27, 28, 29, 30, 31, 32, 33, suit + number],
        "terminals": [k for k in kinds_allowed if k in (0, 8, 9, 17, 18, 26) or k >= 27],
        "green": [19, 20, 21, 23, 25, 32],
        "same number": [k for k in (number, number + 9, number + 18) if k in kinds_allowed]
                       + [suit + 3, suit + 6, suit],
    }
    pool = themes[draw(st.sampled_from(sorted(themes)))]
    groups: list[tuple[str, int]] = []
    concealed_kinds: list[int] = []
    if shape == "chuuren":
        concealed_kinds = [suit + i for i, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)) for _ in range(n)]
        concealed_kinds.append(suit + draw(st.integers(0, 8)))
        for k in concealed_kinds:
            take(k)
    elif shape == "pairs":
        chosen = draw(st.lists(st.sampled_from(pool if len(pool) >= 7 else kinds_allowed), min_size=7,
                               max_size=7, unique=True))
        for k in chosen:
            take(k, 2)
            concealed_kinds += [k, k]
    elif shape == "kokushi":
        orphans = [0, 8, 9, 17, 18, 26, *range(27, 34)]
        extra = draw(st.sampled_from(orphans))
        concealed_kinds = [*orphans, extra]
        for k in concealed_kinds:
            take(k)
    else:
        starts = [k for k in pool if k < 27 and k % 9 <= 6 and not (sanma and k < 9)]
        for _ in range(4):
            for _attempt in range(20):
                if draw(st.booleans()) and starts:
                    k = draw(st.sampled_from(starts))
                    if all(counts[k + i] < 4 for i in range(3)):
                        for i in range(3):
                            take(k + i)
                        groups.append(("seq", k))
                        break
                else:
                    k = draw(st.sampled_from(pool))
                    if take(k, 3):
                        groups.append(("tri", k))
                        break
            else:
                return None
        pair = draw(st.sampled_from([k for k in pool if counts[k] <= 2] or
                                    [k for k in kinds_allowed if counts[k] <= 2]))
        take(pair, 2)
        concealed_kinds = [pair, pair]
    # tile ids: copies 0.. of each kind (copy 0 of a five is red)
    used = [0] * 34

    def ids(kind: int, n: int) -> list[int]:
        out = [kind * 4 + used[kind] + i for i in range(n)]
        used[kind] += n
        return out

    melds: list[Meld] = []
    concealed: list[int] = []
    called = False
    for what, k in groups:
        declare = draw(st.sampled_from(("none", "none", "open", "kan", "closed_kan", "added_kan")))
        if what == "seq":
            tiles = [ids(k + i, 1)[0] for i in range(3)]
            if declare == "open" and not sanma:
                melds.append(_meld(CallKind.CHI, tiles))
                called = True
            else:
                concealed += tiles
        else:
            can_kan = counts[k] == 3 and used[k] == 0
            if declare in ("kan", "closed_kan", "added_kan") and can_kan:
                counts[k] += 1
                tiles = ids(k, 4)
                call = {"kan": CallKind.OPEN_KAN, "closed_kan": CallKind.CLOSED_KAN,
                        "added_kan": CallKind.ADDED_KAN}[declare]
                melds.append(_meld(call, tiles))
                called = called or call is not CallKind.CLOSED_KAN
            elif declare == "open":
                melds.append(_meld(CallKind.PON, ids(k, 3)))
                called = True
            else:
                concealed += ids(k, 3)
    for k in concealed_kinds:
        concealed += ids(k, 1)
    if sanma and counts[30] == 0:
        for _ in range(draw(st.integers(0, 4))):
            melds.append(_meld(CallKind.KITA, [30 * 4 + used[30]]))
            used[30] += 1
            counts[30] += 1
    win_tile = draw(st.sampled_from(concealed))
    tsumo = draw(st.booleans())
    closed = not called
    riichi = closed and draw(st.booleans())
    double = riichi and draw(st.booleans())
    has_kan = any(m.kind.is_kan or m.kind is CallKind.KITA for m in melds)
    seat_wind = draw(st.integers(0, players - 1))
    no_melds = not melds
    first = tsumo and no_melds and draw(st.integers(0, 9)) == 0
    indicators = draw(st.lists(st.integers(0, 135), min_size=1, max_size=5, unique=True))
    ura = draw(st.lists(st.integers(0, 135), min_size=len(indicators), max_size=len(indicators),
                        unique=True)) if riichi else []
    last = draw(st.booleans()) and draw(st.booleans())
    rinshan = tsumo and has_kan and draw(st.booleans())
    return WinContext(
        concealed=tuple(concealed),
        melds=tuple(melds),
        win_tile=win_tile,
        tsumo=tsumo,
        seat_wind=seat_wind,
        round_wind=draw(st.integers(0, 1 if sanma else 3)),
        riichi=riichi and not double,
        double_riichi=double,
        ippatsu=riichi and draw(st.booleans()),
        haitei=tsumo and last and not rinshan,
        houtei=not tsumo and last,
        rinshan=rinshan,
        chankan=not tsumo and not last and draw(st.integers(0, 5)) == 0,
        tenhou=first and seat_wind == 0,
        chiihou=first and seat_wind != 0,
        dora_indicators=tuple(indicators),
        ura_indicators=tuple(ura),
        rules=ScoringRules(players=players, red_fives=draw(st.booleans()),
                           open_tanyao=draw(st.booleans()), kiriage=draw(st.booleans())),
    )


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.filter_too_much])
@given(winning_contexts())
def test_own_valuation_agrees_with_the_library(ctx):
    if ctx is None:
        return
    assert _key(score_win(ctx)) == _key(library_score_win(ctx))
