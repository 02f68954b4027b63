"""Hand valuation under Tenhou rules (和了の点数計算): yaku, han, fu, points and limit.

``score_win(ctx)`` takes a ``WinContext`` (the winning hand and the situation) and returns a
``ScoredHand`` in Tenhou's own terms — ``(yaku id, han)`` pairs exactly as ``AGARI yaku`` lists
them, yakuman ids as ``AGARI yakuman`` lists them, fu, ``ten[1]`` points and the ``ten[2]`` limit
code — or a ``ScoringRefusal`` with a reason when the hand cannot be won. Payments (honba,
sticks, pao, double ron) are in ``rules/payments.py``.

The readings, yaku and fu are our own (``rules/valuation.py``); this module checks the tiles
and the situation, adds the dora entries and turns the chosen reading into Tenhou's values. The
``mahjong`` library is a second, independent valuation behind the same types
(``tests/scoring_library.py``); both agree with Tenhou on every AGARI of the 4,150-game corpus
(``scripts/check_scoring.py [--scorer library]``) and with each other on generated hands
(``tests/test_valuation.py``).

Tenhou rules that decide a value (each checked on every corpus AGARI):

1. **Variant yakuman are single.** 四暗刻単騎 (41), 純正九蓮宝燈 (46), 国士無双１３面 (48) and
   大四喜 (49) count one yakuman each on Tenhou. The variant id replaces the base id (a tanki
   suuankou is listed as 41 only; corpus: ``yakuman="49,41,42"`` is a triple yakuman). Each
   listed id is one yakuman and different yakuman stack (大三元 + 字一色 = 64000). Kazoe
   (数え役満, 13+ han) is exactly one yakuman however many han and is listed through ``yaku``.
2. **Ura dora entry on every riichi win.** Tenhou writes ``53,0`` for a riichi or double riichi
   winner without ura dora (9,157 corpus wins).
3. **Kita (抜きドラ) in three-player games** are not sets: each kita is one dora plus one per
   indicator pointing at North, folded into id 52 as Tenhou does (no separate id in mjlog), and
   counts as ura dora for each ura indicator pointing at North. A kita does not open the hand.
   The draw after a kita is a rinshan draw (嶺上開花 with pinfu stays 20 fu on a tsumo: 21
   corpus wins).
4. **Limit code of a kiriage mangan is 0.** Chip tables (祝儀) round 30 fu 4 han / 60 fu 3 han up
   to mangan, but Tenhou's ``ten[2]`` stays 0 (``ten="30,12000,0"``). ``ScoredHand.limit``
   follows Tenhou, ``ScoredHand.base`` pays the mangan.
5. **Values in Tenhou's terms.** Points, base points and the limit come from
   ``rules/payments.py``. Yakuman wins report ``han`` 0 and the yakuman ids. Yaku come in a fixed
   order close to Tenhou's (Tenhou orders yakuhai by their place in the hand, so compare as a
   multiset).
6. **Not on Tenhou:** renhou (人和), open riichi, paarenchan, daisharin; never awarded.

Speed: about 28 µs per win on one core (the library adapter: about 67 µs).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .. import native
from ..events import CallKind, Meld, Ruleset
from .hand import counts34
from .payments import Limit, base_points, hand_points, limit_for
from .valuation import SEQUENCE, TRIPLET, Group, best_reading, indicated
from .yaku import YakuId

__all__ = [
    "TENHOU_3P",
    "TENHOU_4P",
    "Limit",
    "RefusalReason",
    "ScoredHand",
    "ScoringRefusal",
    "ScoringRules",
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


@dataclass(frozen=True, slots=True, init=False)
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

    def __init__(
        self,
        concealed: tuple[int, ...],
        melds: tuple[Meld, ...],
        win_tile: int,
        tsumo: bool,
        seat_wind: int,
        round_wind: int,
        riichi: bool = False,
        double_riichi: bool = False,
        ippatsu: bool = False,
        haitei: bool = False,
        houtei: bool = False,
        rinshan: bool = False,
        chankan: bool = False,
        tenhou: bool = False,
        chiihou: bool = False,
        dora_indicators: tuple[int, ...] = (),
        ura_indicators: tuple[int, ...] = (),
        rules: ScoringRules = TENHOU_4P,
    ) -> None:
        self.concealed = concealed  # type: ignore[misc]  # set once: native.hand_written_inits
        self.melds = melds  # type: ignore[misc]
        self.win_tile = win_tile  # type: ignore[misc]
        self.tsumo = tsumo  # type: ignore[misc]
        self.seat_wind = seat_wind  # type: ignore[misc]
        self.round_wind = round_wind  # type: ignore[misc]
        self.riichi = riichi  # type: ignore[misc]
        self.double_riichi = double_riichi  # type: ignore[misc]
        self.ippatsu = ippatsu  # type: ignore[misc]
        self.haitei = haitei  # type: ignore[misc]
        self.houtei = houtei  # type: ignore[misc]
        self.rinshan = rinshan  # type: ignore[misc]
        self.chankan = chankan  # type: ignore[misc]
        self.tenhou = tenhou  # type: ignore[misc]
        self.chiihou = chiihou  # type: ignore[misc]
        self.dora_indicators = dora_indicators  # type: ignore[misc]
        self.ura_indicators = ura_indicators  # type: ignore[misc]
        self.rules = rules  # type: ignore[misc]

    @property
    def dealer(self) -> bool:
        """Oya (親)."""
        return self.seat_wind == 0

    @property
    def in_riichi(self) -> bool:
        return self.riichi or self.double_riichi


@dataclass(frozen=True, slots=True, init=False)
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

    def __init__(
        self,
        yaku: tuple[tuple[int, int], ...],
        yakuman: tuple[int, ...],
        han: int,
        fu: int,
        points: int,
        limit: Limit,
        base: int,
        dealer: bool,
        tsumo: bool,
        fu_details: tuple[tuple[str, int], ...] = (),
    ) -> None:
        self.yaku = yaku  # type: ignore[misc]  # set once: native.hand_written_inits
        self.yakuman = yakuman  # type: ignore[misc]
        self.han = han  # type: ignore[misc]
        self.fu = fu  # type: ignore[misc]
        self.points = points  # type: ignore[misc]
        self.limit = limit  # type: ignore[misc]
        self.base = base  # type: ignore[misc]
        self.dealer = dealer  # type: ignore[misc]
        self.tsumo = tsumo  # type: ignore[misc]
        self.fu_details = fu_details  # type: ignore[misc]

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


def _refuse(reason: RefusalReason, message: str) -> ScoringRefusal:
    return ScoringRefusal(reason, message)


def _conflict(ctx: WinContext, called: bool) -> str | None:
    """A situation no win can have (the same list the ``mahjong`` library refuses)."""
    tsumo = ctx.tsumo
    checks = (
        (called and ctx.riichi, "riichi with an open hand"),
        (called and ctx.double_riichi, "double riichi with an open hand"),
        (ctx.ippatsu and not ctx.in_riichi, "ippatsu without riichi"),
        (ctx.chankan and tsumo, "chankan on a tsumo"),
        (ctx.rinshan and not tsumo, "rinshan without a tsumo"),
        (ctx.haitei and not tsumo, "haitei without a tsumo"),
        (ctx.houtei and tsumo, "houtei on a tsumo"),
        (ctx.haitei and ctx.rinshan, "haitei on a replacement draw"),
        (ctx.houtei and ctx.chankan, "houtei on a robbed kan"),
        (ctx.tenhou and not ctx.dealer, "tenhou by a non-dealer"),
        (ctx.tenhou and not tsumo, "tenhou without a tsumo"),
        (ctx.chiihou and ctx.dealer, "chiihou by the dealer"),
        (ctx.chiihou and not tsumo, "chiihou without a tsumo"),
        ((ctx.tenhou or ctx.chiihou) and bool(ctx.melds) and not all(
            m.kind is CallKind.KITA for m in ctx.melds), "tenhou or chiihou after a call"),
    )
    for bad, message in checks:
        if bad:
            return message
    return None


_OPEN_KINDS = (CallKind.CHI, CallKind.PON, CallKind.OPEN_KAN, CallKind.ADDED_KAN)


def score_win(ctx: WinContext) -> ScoredHand | ScoringRefusal:
    """Value a win the way Tenhou does (see the module docstring and ``rules/valuation.py``)."""
    rules = ctx.rules
    tiles = list(ctx.concealed)
    groups: list[Group] = []
    kita = 0
    called = False
    for meld in ctx.melds:
        kind = meld.kind
        if kind is CallKind.KITA:
            kita += 1
            continue
        first = min(meld.tiles) >> 2
        if kind is CallKind.CHI:
            groups.append(Group(SEQUENCE, first, concealed=False))
        else:
            groups.append(Group(TRIPLET, first, kan=kind is not CallKind.PON,
                                concealed=kind is CallKind.CLOSED_KAN))
        called = called or kind in _OPEN_KINDS
        tiles.extend(meld.tiles)
    problem = _tile_problem(ctx, tiles, len(groups), kita)
    if problem is not None:
        return problem
    conflict = _conflict(ctx, called)
    if conflict is not None:
        return _refuse(RefusalReason.CONFLICTING_CONDITIONS, conflict)

    sanma = rules.sanma
    every = counts34(tiles)
    dora = kita + indicated(every, ctx.dora_indicators, kita, sanma)
    aka = sum(1 for t in tiles if t in _RED_IDS) if rules.red_fives else 0
    ura = indicated(every, ctx.ura_indicators, kita, sanma) if ctx.in_riichi else 0
    reading = best_reading(counts34(ctx.concealed), groups, ctx.win_tile >> 2, ctx,
                           closed=not called, dora_han=dora + aka + ura,
                           open_tanyao=rules.open_tanyao, kiriage=rules.kiriage)
    if reading is None:
        return _refuse(RefusalReason.NOT_WINNING, "the tiles are not a winning hand (和了形でない)")
    if not reading.yaku and not reading.yakuman:
        return _refuse(RefusalReason.NO_YAKU, "the hand is complete but has no yaku (役なし)")
    yaku = list(reading.yaku)
    if not reading.yakuman:
        for yid, count in ((YakuId.DORA, dora), (YakuId.AKA_DORA, aka), (YakuId.URA_DORA, ura)):
            if count:
                yaku.append((int(yid), count))
    return assemble(ctx, yaku, list(reading.yakuman), reading.fu, reading.fu_details)


_RED_IDS = frozenset({16, 52, 88})


def assemble(ctx: WinContext, yaku: list[tuple[int, int]], yakuman: list[int], fu: int,
             details: tuple[tuple[str, int], ...]) -> ScoredHand:
    """A ``ScoredHand`` from a reading in Tenhou ids: the ura entry of a riichi win, Tenhou's
    order, and the value (base points, ``ten[1]``, limit) from ``rules/payments.py``."""
    rules = ctx.rules
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
    points = hand_points(base, dealer=ctx.dealer, tsumo=ctx.tsumo, players=rules.players)
    return ScoredHand(
        yaku=tuple(yaku),
        yakuman=tuple(yakuman),
        han=han,
        fu=fu,
        points=points,
        limit=limit,
        base=base,
        dealer=ctx.dealer,
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


native.hand_written_inits(WinContext, ScoredHand)
