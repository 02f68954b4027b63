"""rules/scoring.py: Tenhou hand values for readable hands, plus a corpus sample against real AGARIs."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from pathlib import Path

import pytest

from tenhou_tools.events import CallKind, Meld
from tenhou_tools.rules.hand import counts34
from tenhou_tools.rules.payments import Limit
from tenhou_tools.rules.scoring import (
    TENHOU_3P,
    TENHOU_4P,
    RefusalReason,
    ScoredHand,
    ScoringRefusal,
    ScoringRules,
    WinContext,
    YakuId,
    prepare,
    score_prepared,
    score_values,
    score_win,
    score_wins,
)
from tenhou_tools.tiles import RED_FIVES, kind, parse_tiles

from .conftest import REPO, corpus_files


def _meld(call: CallKind, notation: str, from_seat: int | None = 1) -> Meld:
    tiles = tuple(sorted(parse_tiles(notation)))
    closed = call in (CallKind.CLOSED_KAN, CallKind.KITA)
    return Meld(
        kind=call,
        tiles=tiles,
        called=None if closed else tiles[0],
        from_seat=None if closed else from_seat,
        added=None,
        code=0,
    )


def _ctx(
    concealed: str,
    win: str,
    *,
    melds: tuple[Meld, ...] = (),
    taken: str = "",
    seat: int = 1,
    round_wind: int = 0,
    tsumo: bool = False,
    **flags: object,
) -> WinContext:
    """A context for ``concealed`` tiles (including the winning tile ``win``).

    ``taken`` names the tiles already in the melds, so that the concealed ids do not collide
    with them.
    """
    skip = len(parse_tiles(taken)) if taken else 0
    ids = parse_tiles(taken + concealed)[skip:]
    win_kind = kind(parse_tiles(win)[0])
    win_tile = next(t for t in ids if kind(t) == win_kind)
    return WinContext(
        concealed=tuple(ids),
        melds=melds,
        win_tile=win_tile,
        tsumo=tsumo,
        seat_wind=seat,
        round_wind=round_wind,
        **flags,  # type: ignore[arg-type]
    )


def _score(ctx: WinContext) -> ScoredHand:
    result = score_win(ctx)
    assert isinstance(result, ScoredHand), result
    return result


def test_pinfu_tsumo_is_20_fu() -> None:
    hand = _score(_ctx("234789m12345666p", "6p", tsumo=True))
    assert hand.fu == 20
    assert sorted(hand.yaku) == [(YakuId.MENZEN_TSUMO, 1), (YakuId.PINFU, 1)]
    assert (hand.han, hand.limit) == (2, Limit.NONE)
    assert hand.points == 1500  # 400 / 700
    assert hand.fu_details == (("base", 20),)


def test_pinfu_ron_is_30_fu() -> None:
    hand = _score(_ctx("234789m12345666p", "6p", riichi=True))
    assert (hand.fu, hand.han, hand.points) == (30, 2, 2000)


def test_chiitoitsu_is_25_fu_without_rounding() -> None:
    hand = _score(_ctx("1133m2277p4466s55z", "5z"))
    assert hand.yaku == ((YakuId.CHIITOITSU, 2),)
    assert hand.fu == 25
    assert hand.points == 1600


def test_open_pinfu_shape_ron_is_30_fu() -> None:
    chi = _meld(CallKind.CHI, "345s", from_seat=0)
    hand = _score(_ctx("234m456p678s55m", "6s", melds=(chi,), taken="345s"))
    assert hand.yaku == ((YakuId.TANYAO, 1),)
    assert hand.fu == 30
    assert hand.points == 1000


def test_open_tanyao_needs_kuitan() -> None:
    chi = _meld(CallKind.CHI, "345s", from_seat=0)
    ctx = _ctx("234m456p678s55m", "6s", melds=(chi,), taken="345s")
    refusal = score_win(replace(ctx, rules=ScoringRules(open_tanyao=False)))
    assert isinstance(refusal, ScoringRefusal)
    assert refusal.reason is RefusalReason.NO_YAKU


def test_double_wind_pair_is_4_fu() -> None:
    # Dealer in the East round with an East pair: 30 + 8 (closed 111m) + 4 = 42 -> 50 fu.
    dealer = _score(_ctx("111m456p789s234s11z", "4s", seat=0, riichi=True))
    assert ("double_valued_pair", 4) in dealer.fu_details
    assert (dealer.fu, dealer.points) == (50, 2400)
    # South seat: the same pair is only the round wind, 2 fu: 40 fu.
    south = _score(_ctx("111m456p789s234s11z", "4s", seat=1, riichi=True))
    assert ("valued_pair", 2) in south.fu_details
    assert (south.fu, south.points) == (40, 1300)


def test_riichi_win_lists_ura_dora_with_zero_han() -> None:
    hand = _score(_ctx("234789m12345666p", "6p", riichi=True, ura_indicators=tuple(parse_tiles("1z"))))
    assert (YakuId.URA_DORA, 0) in hand.yaku
    not_riichi = _score(_ctx("234789m12345666p", "6p", tsumo=True))
    assert all(y != YakuId.URA_DORA for y in not_riichi.yaku_ids())


def test_double_riichi_is_listed_without_riichi() -> None:
    hand = _score(_ctx("234789m12345666p", "6p", riichi=True, double_riichi=True))
    assert (YakuId.DOUBLE_RIICHI, 2) in hand.yaku
    assert YakuId.RIICHI not in hand.yaku_ids()
    assert (YakuId.URA_DORA, 0) in hand.yaku


def test_dora_and_red_fives() -> None:
    ctx = _ctx("234m406p789s23455s", "5s", riichi=True, dora_indicators=tuple(parse_tiles("4s")))
    hand = _score(ctx)
    assert (YakuId.DORA, 2) in hand.yaku  # two 5s
    assert (YakuId.AKA_DORA, 1) in hand.yaku
    no_red = _score(replace(ctx, rules=ScoringRules(red_fives=False)))
    assert YakuId.AKA_DORA not in no_red.yaku_ids()
    assert no_red.han == hand.han - 1


def test_no_kiriage_30_fu_4_han_is_7700() -> None:
    # riichi, pinfu, tanyao and one dora (2m): 4 han 30 fu by ron.
    ctx = _ctx("234m567p234678s88s", "6s", riichi=True, dora_indicators=tuple(parse_tiles("1m")))
    hand = _score(ctx)
    assert (hand.han, hand.fu) == (4, 30)
    assert hand.points == 7700
    assert hand.limit is Limit.NONE
    dealer = _score(replace(ctx, seat_wind=0))
    assert dealer.points == 11600


def test_kiriage_when_enabled() -> None:
    ctx = _ctx(
        "234m567p234678s88s",
        "6s",
        riichi=True,
        dora_indicators=tuple(parse_tiles("1m")),
        rules=ScoringRules(kiriage=True),
    )
    hand = _score(ctx)
    assert (hand.han, hand.fu) == (4, 30)
    assert hand.points == 8000
    # Tenhou writes limit code 0 for a kiriage mangan (chip-table logs: ten="30,12000,0").
    assert hand.limit is Limit.NONE
    assert hand.base == 2000


def test_kazoe_yakuman_is_a_single_yakuman() -> None:
    ctx = _ctx(
        "11223345678999m", "9m", tsumo=True, riichi=True, dora_indicators=tuple(parse_tiles("8m"))
    )
    hand = _score(ctx)
    assert hand.han >= 13
    assert hand.yakuman == ()
    assert hand.limit is Limit.YAKUMAN
    assert hand.yakuman_count == 1
    assert hand.points == 32000
    # 26+ han is still one yakuman. The hand holds 8m id 28 and 7m id 24: use the other copies.
    eights, sevens, last_nine = (29, 30, 31), (25, 26, 27), (35,)
    many = _score(replace(ctx, dora_indicators=eights, ura_indicators=sevens + last_nine))
    assert many.han == 12 + 9 + 5
    assert many.yakuman_count == 1
    assert many.points == 32000


def test_double_yakuman_stacks() -> None:
    pon_haku = _meld(CallKind.PON, "555z", from_seat=2)
    pon_hatsu = _meld(CallKind.PON, "666z", from_seat=3)
    hand = _score(
        _ctx("777z111z22z", "2z", melds=(pon_haku, pon_hatsu), taken="555z666z", seat=1)
    )
    assert sorted(hand.yakuman) == [YakuId.DAISANGEN, YakuId.TSUUIISOU]
    assert hand.yaku == ()
    assert hand.yakuman_count == 2
    assert hand.points == 64000
    assert hand.limit is Limit.YAKUMAN


def test_kokushi_13_wait_is_a_single_yakuman() -> None:
    hand = _score(_ctx("119m19p19s1234567z", "1m"))
    assert hand.yakuman == (YakuId.KOKUSHI_13,)
    assert hand.points == 32000
    single_wait = _score(_ctx("119m19p19s1234567z", "9m"))
    assert single_wait.yakuman == (YakuId.KOKUSHI,)


def test_suuankou_tanki_replaces_suuankou() -> None:
    hand = _score(_ctx("111m333p555s777s99m", "9m"))
    assert hand.yakuman == (YakuId.SUUANKOU_TANKI,)
    assert hand.points == 32000


def test_tenhou_stacks_with_another_yakuman() -> None:
    hand = _score(_ctx("111m333p555s777s99m", "7s", seat=0, tsumo=True, tenhou=True))
    assert sorted(hand.yakuman)[0] == YakuId.TENHOU
    assert len(hand.yakuman) == 2
    assert hand.points == 96000  # dealer double yakuman tsumo: 32000 all


def test_sanma_kita_counts_as_dora() -> None:
    kita = _meld(CallKind.KITA, "4z")
    kita2 = _meld(CallKind.KITA, "4z")
    # West indicator: North is dora, so each kita counts 1 (kita) + 1 (dora) = 2.
    ctx = _ctx(
        "123p456p789s11s777z",
        "9s",
        melds=(kita, kita2),
        taken="4z4z",
        rules=TENHOU_3P,
        dora_indicators=tuple(parse_tiles("3z")),
    )
    hand = _score(ctx)
    assert (YakuId.DORA, 4) in hand.yaku
    assert (YakuId.CHUN, 1) in hand.yaku
    # Kita does not open the hand: closed ron 30 + 8 (777z) = 38 -> 40 fu.
    assert hand.fu == 40


def test_sanma_kita_counts_for_ura_dora() -> None:
    kita = _meld(CallKind.KITA, "4z")
    ctx = _ctx(
        "123p456p789s11s777z",
        "9s",
        melds=(kita,),
        taken="4z",
        rules=TENHOU_3P,
        riichi=True,
        dora_indicators=tuple(parse_tiles("1z")),
        ura_indicators=tuple(parse_tiles("3z")),
    )
    hand = _score(ctx)
    assert (YakuId.DORA, 1) in hand.yaku  # the kita itself
    assert (YakuId.URA_DORA, 1) in hand.yaku  # ura indicator West -> North


def test_sanma_dora_wraps_1m_to_9m_and_tsumo_loses_a_share() -> None:
    # 1m indicator in sanma: 9m is dora.
    ctx = _ctx(
        "99m123p456p234789s", "4s", seat=0, tsumo=True, riichi=True,
        dora_indicators=tuple(parse_tiles("1m")), rules=TENHOU_3P,
    )
    hand = _score(ctx)
    assert (YakuId.DORA, 2) in hand.yaku
    # riichi, tsumo, pinfu, dora 2 -> 5 han mangan: dealer 4000 x 2 payers.
    assert hand.limit is Limit.MANGAN
    assert hand.points == 8000


def test_sanma_20_fu_4_han_dealer_tsumo() -> None:
    ctx = _ctx(
        "99m123p456p234789s", "4s", seat=0, tsumo=True, riichi=True,
        dora_indicators=tuple(parse_tiles("8s")), rules=TENHOU_3P,
    )
    hand = _score(ctx)
    assert (hand.han, hand.fu) == (4, 20)  # riichi, tsumo, pinfu, one dora (9s)
    assert hand.points == 5200  # 2600 x 2


def test_kita_in_four_player_is_refused() -> None:
    kita = _meld(CallKind.KITA, "4z")
    ctx = _ctx("123p456p789s11s777z", "9s", melds=(kita,), taken="4z", rules=TENHOU_4P)
    refusal = score_win(ctx)
    assert isinstance(refusal, ScoringRefusal)
    assert refusal.reason is RefusalReason.INVALID_TILES


def test_refusals() -> None:
    not_winning = score_win(_ctx("123m456p789s13577z", "1z"))
    assert isinstance(not_winning, ScoringRefusal)
    assert not_winning.reason is RefusalReason.NOT_WINNING
    no_yaku_ctx = _ctx("123m456p789s11s999m", "9m")
    no_yaku = score_win(no_yaku_ctx)
    assert isinstance(no_yaku, ScoringRefusal)
    assert no_yaku.reason is RefusalReason.NO_YAKU
    short = score_win(replace(no_yaku_ctx, concealed=no_yaku_ctx.concealed[:-1]))
    assert isinstance(short, ScoringRefusal)
    assert short.reason is RefusalReason.INVALID_TILES
    missing = score_win(replace(no_yaku_ctx, win_tile=135))
    assert isinstance(missing, ScoringRefusal)
    assert missing.reason is RefusalReason.WIN_TILE_NOT_IN_HAND
    chankan_tsumo = score_win(replace(no_yaku_ctx, tsumo=True, chankan=True))
    assert isinstance(chankan_tsumo, ScoringRefusal)
    assert chankan_tsumo.reason is RefusalReason.CONFLICTING_CONDITIONS


def test_highest_points_reading_is_chosen() -> None:
    # 111222333m: three concealed triplets (sanankou) beat three identical sequences.
    hand = _score(_ctx("111222333m456p77s", "7s", tsumo=True))
    assert YakuId.SANANKOU in hand.yaku_ids()


def test_closed_kan_fu_and_sankantsu() -> None:
    kans = tuple(_meld(CallKind.CLOSED_KAN, t) for t in ("1111m", "9999p", "2222s"))
    hand = _score(_ctx("456m77z", "6m", melds=kans, taken="1111m9999p2222s", tsumo=True))
    assert (YakuId.SANKANTSU, 2) in hand.yaku
    assert (YakuId.SANANKOU, 2) in hand.yaku
    # 20 + 32 + 32 + 16 + 2 (chun pair) + 2 (tsumo) = 104 -> 110
    assert hand.fu == 110


# --- real logs -------------------------------------------------------------------------------

def _load_checker():  # scripts/ is not a package
    spec = importlib.util.spec_from_file_location("check_scoring", REPO / "scripts" / "check_scoring.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.corpus
def test_corpus_sample_matches_every_agari(corpus: Path) -> None:
    """Every AGARI of a sample of real games: yaku, han, fu, points, limit, yakuman, sc deltas."""
    from tenhou_tools.events import Agari
    from tenhou_tools.sources.files import read_game

    checker = _load_checker()
    files = corpus_files()
    sample = files[:: max(1, len(files) // 300)]
    checked = 0
    failures: list[str] = []
    for path in sample:
        game = read_game(path)
        if game.header.ruleset.chips:
            continue  # chip tables: see scripts/check_scoring.py (one unexplained honba payment)
        for hand in game.hands:
            first = True
            for ending in hand.endings:
                if not isinstance(ending, Agari):
                    continue
                bad, _, _ = checker.compare(ending, hand, game, first)
                first = False
                checked += 1
                failures.extend(f"{path.name} {hand.init.label()}: {b}" for b in bad)
    assert checked > 1000
    assert failures == []


def _values_agree(ctx: WinContext) -> list[str]:
    """Where ``score_values`` differs from what ``score_wins`` gives for a tsumo and a ron of
    ``ctx`` (a ``ScoredHand``'s han, fu, points and number of yakuman; ``None`` for a refusal),
    and where ``score_prepared`` of the same hand differs from ``score_values``."""
    ways = (True, False)
    full = [None if isinstance(s, ScoringRefusal) else (s.han, s.fu, s.points, len(s.yakuman))
            for s in score_wins(ctx, ways)]
    light = score_values(ctx, ways)
    found = [] if light == full else [f"{ctx}: score_values {light}, score_wins {full}"]
    # the trusted entry, for hands that pass the checks it skips (the hand value's own)
    checked = score_wins(ctx, ways)
    if not any(isinstance(s, ScoringRefusal) and s.reason in _SKIPPED_CHECKS for s in checked):
        prepared = prepare(ctx)
        trusted = [None for _ in ways] if prepared is None else score_prepared(
            prepared, counts34(ctx.concealed), ctx.win_tile >> 2, sum(1 for t in ctx.concealed if t in RED_FIVES), ways)
        if trusted != light:
            found.append(f"{ctx}: score_prepared {trusted}, score_values {light}")
    return found


_SKIPPED_CHECKS = (RefusalReason.INVALID_TILES, RefusalReason.WIN_TILE_NOT_IN_HAND)
"""The refusals of a hand's tiles, which ``score_prepared`` leaves to its caller (``prepare``
answers for the situation's)."""


def test_score_values_agrees_with_score_wins_by_hand() -> None:
    kita = _meld(CallKind.KITA, "4z")
    kans = tuple(_meld(CallKind.CLOSED_KAN, t) for t in ("1111m", "9999p", "2222s"))
    pons = (_meld(CallKind.PON, "555z", from_seat=2), _meld(CallKind.PON, "666z", from_seat=3))
    no_yaku = _ctx("123m456p789s11s999m", "9m")
    for ctx in (
        _ctx("234789m12345666p", "6p", seat=0),  # pinfu: 20 fu tsumo, 30 ron
        _ctx("11223345678999m", "9m", riichi=True, dora_indicators=tuple(parse_tiles("8m"))),  # kazoe
        _ctx("777z111z22z", "2z", melds=pons, taken="555z666z"),  # double yakuman
        _ctx("119m19p19s1234567z", "1m"),  # thirteen-sided kokushi
        _ctx("111m333p555s777s99m", "7s", seat=0, tenhou=True),  # tenhou and suuankou; no ron
        _ctx("123p456p789s11s777z", "9s", melds=(kita,), taken="4z", rules=TENHOU_3P, riichi=True,
             dora_indicators=tuple(parse_tiles("1z")), ura_indicators=tuple(parse_tiles("3z"))),
        _ctx("456m77z", "6m", melds=kans, taken="1111m9999p2222s"),
        _ctx("123p456p789s11s777z", "9s", melds=(kita,), taken="4z", rules=TENHOU_4P),  # refused
        _ctx("123m456p789s13577z", "1z"),  # not a winning hand
        no_yaku,
        replace(no_yaku, chankan=True),  # a ron only
        replace(no_yaku, concealed=no_yaku.concealed[:-1]),
    ):
        assert _values_agree(ctx) == []


@pytest.mark.corpus
def test_score_values_agrees_with_score_wins_on_corpus_hands(corpus: Path) -> None:
    """``score_values`` (what the hand value reads) against ``score_wins``, each as a tsumo and as
    a ron: every AGARI of a sample of real games, and every concealed hand waiting to draw at
    every step of a few games, completed by every kind a free copy of which is left (the
    analysis's own hands: tenpai ones, and every other kind refused)."""
    from tenhou_tools.events import Agari
    from tenhou_tools.replay.fold import hand_boards
    from tenhou_tools.rules.riichi import is_closed
    from tenhou_tools.sources.files import read_game

    checker = _load_checker()
    files = corpus_files()
    failures: list[str] = []
    wins = 0
    for path in files[:: max(1, len(files) // 100)]:
        game = read_game(path)
        rules = ScoringRules.from_ruleset(game.header.ruleset)
        for hand in game.hands:
            for ending in hand.endings:
                if isinstance(ending, Agari):
                    failures += _values_agree(checker.context_from_agari(ending, hand, rules))
                    wins += 1
    hands = 0
    for path in files[:: max(1, len(files) // 4)][:4]:
        game = read_game(path)
        rules = ScoringRules.from_ruleset(game.header.ruleset)
        seen: set[tuple] = set()
        for position in range(len(game.hands)):
            for board in hand_boards(game, position):
                for me in board.seats:
                    if len(me.concealed) % 3 != 1 or (me.concealed, me.melds, me.riichi) in seen:
                        continue
                    seen.add((me.concealed, me.melds, me.riichi))
                    hands += 1
                    held = {*me.concealed, *(t for m in me.melds for t in m.tiles)}
                    for k in range(34):
                        free = [t for t in range(4 * k, 4 * k + 4) if t not in held]
                        if not free:
                            continue
                        ctx = WinContext(concealed=(*me.concealed, free[0]), melds=me.melds, win_tile=free[0],
                                         tsumo=True, seat_wind=(me.seat - board.dealer) % len(board.seats),
                                         round_wind=board.round // 4,
                                         riichi=me.riichi or (is_closed(me.melds) and k % 2 == 0),
                                         dora_indicators=board.dora_indicators, rules=rules)
                        failures += _values_agree(ctx)
    assert wins > 500 and hands > 1000
    assert failures == []


def test_rinshan_tsumo_counts_the_tsumo_2_fu() -> None:
    # 「嶺上ツモも2符加算」: closed kan 2222s (16) + closed 333m (4) + tsumo (2) = 42 -> 50 fu
    kan = _meld(CallKind.CLOSED_KAN, "2222s")
    ctx = _ctx("333m456p789s55p", "4p", melds=(kan,), taken="2222s", tsumo=True)
    rinshan = _score(replace(ctx, rinshan=True))
    assert (YakuId.RINSHAN, 1) in rinshan.yaku
    assert rinshan.fu == 50
    assert _score(ctx).fu == 50  # the same 2 fu as any tsumo


def test_north_is_a_guest_wind_in_three_player() -> None:
    # 「北は客風」: a North pair is worth no fu, so the hand is still pinfu (30 fu on a ron)
    ctx = _ctx("123p456p234s789s44z", "4s", seat=0, riichi=True, rules=TENHOU_3P)
    hand = _score(ctx)
    assert (YakuId.PINFU, 1) in hand.yaku
    assert hand.fu == 30
