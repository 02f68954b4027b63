"""The ``mahjong`` library (2.1) as a second, independent hand valuation, for cross-checks.

``library_score_win(ctx)`` values a win with ``HandCalculator.estimate_hand_value`` and the
Tenhou corrections listed in ``rules/scoring.py`` (single variant yakuman, the ura entry of every
riichi win, kita as ``num_nuki_dora``, the kiriage limit code, values recomputed in Tenhou's
terms). The replay engine uses our own valuation (``rules/scoring.py``); the tests and
``scripts/check_scoring.py --library`` run both over every corpus win and over generated hands
and require the same answer, so each implementation checks the other.

It lives with the tests, not in the package: nothing at run time uses it, so the ``mahjong``
library is a test dependency only (the ``test`` extra). ``scripts/check_scoring.py --library``
and ``scripts/bench_core.py`` import it from a checkout.
"""

from __future__ import annotations

from functools import lru_cache

from mahjong.constants import EAST as _LIB_EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.yaku_config import YAKU_ID_TO_TENHOU_ID
from mahjong.meld import Meld as LibMeld

from tenhou_tools.events import CallKind
from tenhou_tools.rules.scoring import (
    RefusalReason,
    ScoredHand,
    ScoringRefusal,
    ScoringRules,
    WinContext,
    _refuse,
    _tile_problem,
    _Win,
    assemble,
)

_CONFLICT_ERRORS = frozenset(
    {
        HandCalculator.ERR_OPEN_HAND_RIICHI,
        HandCalculator.ERR_OPEN_HAND_DABURI,
        HandCalculator.ERR_IPPATSU_WITHOUT_RIICHI,
        HandCalculator.ERR_CHANKAN_WITH_TSUMO,
        HandCalculator.ERR_RINSHAN_WITHOUT_TSUMO,
        HandCalculator.ERR_HAITEI_WITHOUT_TSUMO,
        HandCalculator.ERR_HOUTEI_WITH_TSUMO,
        HandCalculator.ERR_HAITEI_WITH_RINSHAN,
        HandCalculator.ERR_HOUTEI_WITH_CHANKAN,
        HandCalculator.ERR_TENHOU_NOT_AS_DEALER,
        HandCalculator.ERR_TENHOU_WITHOUT_TSUMO,
        HandCalculator.ERR_TENHOU_WITH_MELD,
        HandCalculator.ERR_CHIIHOU_AS_DEALER,
        HandCalculator.ERR_CHIIHOU_WITHOUT_TSUMO,
        HandCalculator.ERR_CHIIHOU_WITH_MELD,
    }
)

_LIB_MELD_TYPE = {
    CallKind.CHI: (LibMeld.CHI, True),
    CallKind.PON: (LibMeld.PON, True),
    CallKind.ADDED_KAN: (LibMeld.SHOUMINKAN, True),
    CallKind.OPEN_KAN: (LibMeld.KAN, True),
    CallKind.CLOSED_KAN: (LibMeld.KAN, False),
}

_OPTIONS_CACHE: dict[ScoringRules, OptionalRules] = {}


def _options(rules: ScoringRules) -> OptionalRules:
    # OptionalRules is only read by the library, so one object per rule set is shared.
    options = _OPTIONS_CACHE.get(rules)
    if options is None:
        options = OptionalRules(
            has_open_tanyao=rules.open_tanyao,
            has_aka_dora=rules.red_fives,
            has_double_yakuman=False,
            kazoe_limit=HandConstants.KAZOE_LIMITED,
            kiriage=rules.kiriage,
            fu_for_open_pinfu=True,
            fu_for_pinfu_tsumo=False,
            renhou_as_yakuman=False,
            is_three_player=rules.sanma,
        )
        _OPTIONS_CACHE[rules] = options
    return options


@lru_cache(maxsize=4096)
def _hand_config(tsumo: bool, riichi: bool, double_riichi: bool, ippatsu: bool, rinshan: bool,
                 chankan: bool, haitei: bool, houtei: bool, tenhou: bool, chiihou: bool,
                 seat_wind: int, round_wind: int, rules: ScoringRules, kita: int) -> HandConfig:
    """One library ``HandConfig`` per distinct situation, built once: the library only reads
    it (building one instantiates every yaku class, about 12 us)."""
    return HandConfig(
        is_tsumo=tsumo,
        is_riichi=riichi,
        is_daburu_riichi=double_riichi,
        is_ippatsu=ippatsu,
        is_rinshan=rinshan,
        is_chankan=chankan,
        is_haitei=haitei,
        is_houtei=houtei,
        is_tenhou=tenhou,
        is_chiihou=chiihou,
        player_wind=_LIB_EAST + seat_wind,
        round_wind=_LIB_EAST + round_wind,
        options=_options(rules),
        num_nuki_dora=kita,
    )


def library_score_win(ctx: WinContext) -> ScoredHand | ScoringRefusal:
    """Value a win with the ``mahjong`` library, corrected to Tenhou's rules (module docstring)."""
    rules = ctx.rules
    tiles = list(ctx.concealed)
    lib_melds: list[LibMeld] = []
    kita = 0
    for meld in ctx.melds:
        if meld.kind is CallKind.KITA:
            kita += 1
            continue
        lib_type, opened = _LIB_MELD_TYPE[meld.kind]
        lib_melds.append(LibMeld(meld_type=lib_type, tiles=meld.tiles, opened=opened))
        tiles.extend(meld.tiles)
    problem = _tile_problem(_Win(ctx), tiles, len(lib_melds), kita)
    if problem is not None:
        return problem

    config = _hand_config(ctx.tsumo, ctx.in_riichi, ctx.double_riichi, ctx.ippatsu, ctx.rinshan,
                          ctx.chankan, ctx.haitei, ctx.houtei, ctx.tenhou, ctx.chiihou,
                          ctx.seat_wind, ctx.round_wind, rules, kita)
    response = HandCalculator.estimate_hand_value(
        tiles,
        ctx.win_tile,
        melds=lib_melds,
        dora_indicators=list(ctx.dora_indicators),
        config=config,
        ura_dora_indicators=list(ctx.ura_indicators),
    )
    error = response.error
    if error is not None:
        if error == HandCalculator.ERR_NO_YAKU:
            return _refuse(RefusalReason.NO_YAKU, "the hand is complete but has no yaku (役なし)")
        if error == HandCalculator.ERR_HAND_NOT_WINNING:
            return _refuse(RefusalReason.NOT_WINNING, "the tiles are not a winning hand (和了形でない)")
        if error == HandCalculator.ERR_NO_WINNING_TILE:
            return _refuse(RefusalReason.WIN_TILE_NOT_IN_HAND, "the winning tile is not in the hand")
        if error in _CONFLICT_ERRORS:
            return _refuse(RefusalReason.CONFLICTING_CONDITIONS, error.replace("_", " "))
        return _refuse(RefusalReason.NOT_WINNING, f"hand calculator error: {error}")

    is_open = response.is_open_hand
    yaku: list[tuple[int, int]] = []
    yakuman: list[int] = []
    for item in response.yaku or ():
        tenhou_id = YAKU_ID_TO_TENHOU_ID[item.yaku_id]
        if item.is_yakuman:
            yakuman.append(tenhou_id)
        else:
            yaku.append((tenhou_id, item.han_open if is_open and item.han_open else item.han_closed))
    details = tuple((d["reason"], d["fu"]) for d in response.fu_details or ())
    return assemble(ctx, yaku, yakuman, response.fu or 0, details)
