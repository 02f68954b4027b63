"""Hand valuation under Tenhou rules (和了の点数計算): yaku, han, fu, points and limit.

``score_win(ctx)`` takes a ``WinContext`` (the winning hand and the situation) and returns a
``ScoredHand`` in Tenhou's own terms — ``(yaku id, han)`` pairs exactly as ``AGARI yaku`` lists
them, yakuman ids as ``AGARI yakuman`` lists them, fu, ``ten[1]`` points and the ``ten[2]`` limit
code — or a ``ScoringRefusal`` with a reason when the hand cannot be won. Payments (honba,
sticks, pao, double ron) are in ``rules/payments.py``.

The hand decomposition, yaku detection and fu are done by the ``mahjong`` library (2.1,
``HandCalculator.estimate_hand_value``), wrapped here so that nothing else in the project sees
its mutable ``HandConfig``, its string-typed melds or its ``HandResponse.error`` strings. One
``HandConfig`` is built per call from the immutable context. Like Tenhou, the library keeps the
reading with the highest points (then han, then fu).

Tenhou rules, and where the adapter corrects or completes the library's answer (each checked
on every AGARI of the 4,150-game corpus with ``scripts/check_scoring.py``):

1. **Variant yakuman are single.** 四暗刻単騎 (41), 純正九蓮宝燈 (46), 国士無双１３面 (48) and
   大四喜 (49) count one yakuman each on Tenhou: the library runs with
   ``has_double_yakuman=False``. The variant id replaces the base id (a tanki suuankou is
   listed as 41 only; corpus: ``yakuman="49,41,42"`` is a triple yakuman). Each listed id is one
   yakuman and different yakuman stack (大三元 + 字一色 = 64000). Kazoe (数え役満, 13+ han) is
   exactly one yakuman however many han (``KAZOE_LIMITED``) and is listed through ``yaku``.
2. **Ura dora entry on every riichi win.** Tenhou writes ``53,0`` for a riichi or double riichi
   winner without ura dora (9,157 corpus wins); the library omits a zero entry. Added here.
3. **Kita (抜きドラ) in three-player games** are not melds for the library (its divider raises on
   ``nuki`` melds). The adapter leaves them out of the melds and the tiles and passes their
   number as ``num_nuki_dora``: each kita is one dora plus one per indicator pointing at North,
   folded into id 52 as Tenhou does (no separate id in mjlog), and counts as ura dora for each
   ura indicator pointing at North. A kita does not open the hand. The draw after a kita is a
   rinshan draw (嶺上開花 with pinfu stays 20 fu on a tsumo: 21 corpus wins).
4. **Limit code of a kiriage mangan is 0.** Chip tables (祝儀) round 30 fu 4 han / 60 fu 3 han up
   to mangan, but Tenhou's ``ten[2]`` stays 0 (``ten="30,12000,0"``); the library calls it
   "kiriage mangan". ``ScoredHand.limit`` follows Tenhou, ``ScoredHand.base`` pays the mangan.
5. **Values in Tenhou's terms.** Points, base points and the limit are recomputed here
   (``rules/payments.py``) rather than read from the library's cost, whose totals mix in honba
   and sticks; the library's cost only ranks the readings. Yakuman wins report ``han`` 0 and the
   yakuman ids (the library reports 13 han per yakuman). Yaku come in a fixed order close to
   Tenhou's (Tenhou orders yakuhai by their place in the hand, so compare as a multiset).
6. **Not on Tenhou:** renhou (人和), open riichi, paarenchan, daisharin; never enabled.

Speed: about 75 µs per call over corpus wins on this machine, of which the library's
``estimate_hand_value`` takes about 58 µs (the hand decomposition dominates).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from mahjong.constants import EAST as _LIB_EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.yaku_config import YAKU_ID_TO_TENHOU_ID
from mahjong.meld import Meld as LibMeld

from ..events import CallKind, Meld, Ruleset
from .payments import Limit, base_points, hand_points, limit_for
from .yaku import YakuId

__all__ = [
    "Limit",
    "RefusalReason",
    "ScoredHand",
    "ScoringRefusal",
    "ScoringRules",
    "TENHOU_3P",
    "TENHOU_4P",
    "WinContext",
    "YakuId",
    "score_win",
]


# A canonical order close to Tenhou's own listing (Tenhou orders yakuhai by where the set sits
# in the hand, so compare yaku as a multiset, not as a sequence).
_TENHOU_ORDER: dict[int, int] = {
    yaku_id: position
    for position, yaku_id in enumerate(
        (1, 21, 2, 4, 0, 3, 5, 6, 7, 9, 22, 8, 24, 25, 30, 29, 28)
        + (10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)
        + (23, 26, 27, 31, 32, 33, 34, 35, 36)
        + (37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51)
        + (52, 54, 53)
    )
}


class RefusalReason(Enum):
    """Why a hand cannot be scored as a win."""

    INVALID_TILES = "invalid_tiles"
    """The tiles do not make a hand: wrong count, a repeated tile id, an id outside 0-135."""
    WIN_TILE_NOT_IN_HAND = "win_tile_not_in_hand"
    """The winning tile is not among the concealed tiles."""
    NOT_WINNING = "not_winning"
    """和了形でない: no decomposition into four sets and a pair, seven pairs or kokushi."""
    NO_YAKU = "no_yaku"
    """役なし: a complete hand with no yaku (dora alone do not count)."""
    CONFLICTING_CONDITIONS = "conflicting_conditions"
    """The situation is impossible (riichi with an open hand, rinshan by ron, ...)."""


@dataclass(frozen=True, slots=True)
class ScoringRules:
    """The table rules that change a hand's value."""

    players: int = 4
    """4, or 3 for sanma (三人麻雀)."""
    red_fives: bool = True
    """Aka ari (赤あり): ids 16, 52, 88 are red fives."""
    open_tanyao: bool = True
    """Kuitan ari (喰いタンあり): tanyao counts in an open hand."""
    kiriage: bool = False
    """Kiriage mangan (切り上げ満貫): 30 fu 4 han and 60 fu 3 han round up to mangan.

    Off on Tenhou's ranked tables, on at chip (祝儀) tables."""

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise ValueError(f"players must be 3 or 4, not {self.players}")

    @property
    def sanma(self) -> bool:
        return self.players == 3

    @classmethod
    def from_ruleset(cls, ruleset: Ruleset) -> ScoringRules:
        """The scoring rules of a lobby (chip tables use kiriage mangan)."""
        return cls(
            players=ruleset.players,
            red_fives=ruleset.red_fives,
            open_tanyao=ruleset.open_tanyao,
            kiriage=ruleset.chips > 0,
        )


TENHOU_4P = ScoringRules()
"""Four-player ranked Tenhou: red fives, open tanyao, no kiriage."""
TENHOU_3P = ScoringRules(players=3)
"""Three-player ranked Tenhou."""


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything that decides a win's value (和了の状況).

    ``concealed`` holds the tiles in hand including the winning tile (``AGARI hai``), ``melds``
    every declared meld (chi, pon, kans, closed kans, kita). Winds are 0 East .. 3 North;
    ``seat_wind`` is relative to the dealer (the dealer's is 0).
    """

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    tsumo: bool
    """Tsumo (自摸) when true, ron (栄和) when false."""
    seat_wind: int
    """Jikaze (自風), 0 for the dealer."""
    round_wind: int
    """Bakaze (場風)."""
    riichi: bool = False
    """Riichi (立直), also true or implied for a double riichi."""
    double_riichi: bool = False
    """Double riichi (両立直)."""
    ippatsu: bool = False
    """Ippatsu (一発)."""
    haitei: bool = False
    """Haitei raoyue (海底摸月)."""
    houtei: bool = False
    """Houtei raoyui (河底撈魚)."""
    rinshan: bool = False
    """Rinshan kaihou (嶺上開花), including the replacement draw after a kita."""
    chankan: bool = False
    """Chankan (槍槓)."""
    tenhou: bool = False
    """Tenhou (天和)."""
    chiihou: bool = False
    """Chiihou (地和)."""
    dora_indicators: tuple[int, ...] = ()
    ura_indicators: tuple[int, ...] = ()
    rules: ScoringRules = TENHOU_4P

    @property
    def dealer(self) -> bool:
        """Oya (親)."""
        return self.seat_wind == 0

    @property
    def in_riichi(self) -> bool:
        return self.riichi or self.double_riichi


@dataclass(frozen=True, slots=True)
class ScoredHand:
    """A win's value as Tenhou states it in ``AGARI``."""

    yaku: tuple[tuple[int, int], ...]
    """``(yaku id, han)`` pairs as ``AGARI yaku`` writes them; empty on a yakuman win."""
    yakuman: tuple[int, ...]
    """Yakuman ids (``AGARI yakuman``), each worth one yakuman."""
    han: int
    """The sum of the yaku han (dora included); 0 on a yakuman win, as for ``Agari.han``."""
    fu: int
    """``ten[0]``. On a yakuman win it is the fu of the chosen reading (0 for kokushi), which the
    value ignores; it still equals Tenhou's ``ten[0]`` on all 64 yakuman wins of the corpus."""
    points: int
    """``ten[1]``: a ron's payment from the discarder, a tsumo's total of all payments."""
    limit: Limit
    """``ten[2]``."""
    base: int
    """Base points (基本点), what ``payments.win_deltas`` takes."""
    dealer: bool
    tsumo: bool
    fu_details: tuple[tuple[str, int], ...] = ()
    """Fu components (reason, fu) of the chosen reading, largest first."""

    @property
    def yakuman_count(self) -> int:
        """Number of yakuman: len(yakuman), or 1 for kazoe (数え役満), else 0."""
        if self.yakuman:
            return len(self.yakuman)
        return 1 if self.limit is Limit.YAKUMAN else 0

    def yaku_ids(self) -> tuple[int, ...]:
        return tuple(y for y, _ in self.yaku)


@dataclass(frozen=True, slots=True)
class ScoringRefusal:
    """A hand that cannot be scored as a win, and why."""

    reason: RefusalReason
    message: str


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


def _refuse(reason: RefusalReason, message: str) -> ScoringRefusal:
    return ScoringRefusal(reason, message)


def score_win(ctx: WinContext) -> ScoredHand | ScoringRefusal:
    """Value a win the way Tenhou does (see the module docstring for the Tenhou corrections)."""
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
    problem = _tile_problem(ctx, tiles, len(lib_melds), kita)
    if problem is not None:
        return problem

    dealer = ctx.dealer
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
    fu = response.fu or 0
    if yakuman:
        yaku = []
        han = 0
        base = base_points(0, fu, yakuman=len(yakuman))
        limit = Limit.YAKUMAN
        yakuman.sort(key=_TENHOU_ORDER.__getitem__)
    else:
        if ctx.in_riichi and all(y != YakuId.URA_DORA for y, _ in yaku):
            yaku.append((int(YakuId.URA_DORA), 0))
        yaku.sort(key=lambda pair: _TENHOU_ORDER[pair[0]])
        han = sum(h for _, h in yaku)
        base = base_points(han, fu, kiriage=rules.kiriage)
        limit = limit_for(han, fu)
    points = hand_points(base, dealer=dealer, tsumo=ctx.tsumo, players=rules.players)
    details = tuple((d["reason"], d["fu"]) for d in response.fu_details or ())
    return ScoredHand(
        yaku=tuple(yaku),
        yakuman=tuple(yakuman),
        han=han,
        fu=fu,
        points=points,
        limit=limit,
        base=base,
        dealer=dealer,
        tsumo=ctx.tsumo,
        fu_details=details,
    )


def _tile_problem(
    ctx: WinContext, tiles: list[int], sets: int, kita: int
) -> ScoringRefusal | None:
    if not 0 <= ctx.seat_wind < ctx.rules.players or not 0 <= ctx.round_wind <= 3:
        return _refuse(
            RefusalReason.CONFLICTING_CONDITIONS,
            f"seat wind {ctx.seat_wind} / round wind {ctx.round_wind} out of range",
        )
    if any(not 0 <= t < 136 for t in tiles) or len(set(tiles)) != len(tiles):
        return _refuse(RefusalReason.INVALID_TILES, "a tile id is repeated or outside 0-135")
    if len(ctx.concealed) + 3 * sets != 14:
        return _refuse(
            RefusalReason.INVALID_TILES,
            f"{len(ctx.concealed)} concealed tiles and {sets} melds do not make a 14-tile hand",
        )
    if kita and not ctx.rules.sanma:
        return _refuse(RefusalReason.INVALID_TILES, "kita melds in a four-player game")
    if ctx.win_tile not in ctx.concealed:
        return _refuse(RefusalReason.WIN_TILE_NOT_IN_HAND, "the winning tile is not in the hand")
    return None
