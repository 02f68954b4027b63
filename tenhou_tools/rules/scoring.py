"""Hand valuation under Tenhou rules (和了の点数計算): yaku, han, fu, points and limit.

``score_win(ctx)`` takes a ``WinContext`` (the winning hand and the situation) and returns a
``ScoredHand`` in Tenhou's own terms — ``(yaku id, han)`` pairs exactly as ``AGARI yaku`` lists
them, yakuman ids as ``AGARI yakuman`` lists them, fu, ``ten[1]`` points and the ``ten[2]`` limit
code — or a ``ScoringRefusal`` with a reason when the hand cannot be won. Payments (honba,
sticks, pao, double ron) are in ``rules/payments.py``.

The readings, yaku and fu are our own (``rules/_valuation.py``, which also checks the tiles
and the situation, adds the dora entries and turns the chosen reading into Tenhou's values;
this module holds the values). The
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

from ..events import Meld, Ruleset
from .payments import Limit
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
    "ron_allowed",
    "score_win",
]


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


def score_win(ctx: WinContext) -> ScoredHand | ScoringRefusal:
    """Value a win the way Tenhou does (see the module docstring; the valuation itself is in
    ``rules/_valuation.py``)."""
    from ._valuation import score_win as value  # here: _valuation imports this module's values

    return value(ctx)


def ron_allowed(ctx: WinContext, furiten: bool) -> bool:
    """Whether a player may ron the tile in ``ctx`` (a ron's situation, ``ctx.tsumo`` false): a
    winning hand with a yaku (dora alone do not count: 役なし), and not ``furiten`` (振聴, any of
    the three kinds of ``rules.furiten``). Tenhou offers no ron otherwise; a triple ron (三家和了)
    needs three players who each may."""
    return not furiten and not isinstance(score_win(ctx), ScoringRefusal)
