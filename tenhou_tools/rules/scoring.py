"""Hand valuation under Tenhou rules (和了の点数計算): yaku, han, fu, points and limit.

``score_win(ctx)`` takes a ``WinContext`` (the winning hand and the situation) and returns a
``ScoredHand`` in Tenhou's own terms — ``(yaku id, han)`` pairs exactly as ``AGARI yaku`` lists
them, yakuman ids as ``AGARI yakuman`` lists them, fu, ``ten[1]`` points and the ``ten[2]`` limit
code — or a ``ScoringRefusal`` with a reason when the hand cannot be won. Payments (honba,
sticks, pao, double ron) are in ``rules/payments.py``.

The readings, yaku and fu are our own (below): ``best_readings(...)`` takes a winning hand as
34-kind counts plus its declared sets and the situation, tries every reading of it — every split
of the concealed tiles into four sets and a pair (or seven pairs, or thirteen orphans) with the
winning tile in every place it can sit — and returns the reading Tenhou scores: the highest base
points (a yakuman before a kazoe yakuman), then the most han, then the most fu. ``score_win``
checks the tiles and the situation, adds the dora entries and turns the reading into a
``ScoredHand`` (points, limit). All pure, on small tuples; a suit's splits are cached. The values
are in ``rules.values``. The ``mahjong`` library is a second, independent valuation behind the
same types (``tests/scoring_library.py``); both agree with Tenhou on every AGARI of the corpus
(``scripts/check_scoring.py``) and with each other on generated hands (``tests/test_valuation.py``).

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
7. **Fu and readings.** Kuitan as the table says; open "pinfu" shapes are 30 fu on a ron; a
   pinfu tsumo is 20 fu (also on the replacement draw after a kita); a double-wind pair is 4 fu;
   a triplet completed by ron counts as open; thirteen orphans has 0 fu and seven pairs 25.

Speed: about 28 µs per win on one core (the library adapter: about 67 µs).
"""

from __future__ import annotations

from typing import Final

# build: a frozen value made by setting its slots (the _native kernel), not through the dataclass's
# __init__: the ScoredHand of every reading scored, about 0.15 M of a game's 6.5 M instructions in
# check_log (scripts/bench_callgrind.py, 100 corpus games, 2026-11-29).
from .._native import build
from ..events import CallKind
from ..tiles import ORPHAN_KINDS, TERMINAL_HONOR_KINDS, dora_kind
from .hand import counts34
from .payments import base_points, hand_points, limit_for
from .splits import SEQUENCE, TRIPLET, standard_splits
from .values import (
    TENHOU_3P,
    TENHOU_4P,
    Limit,
    RefusalReason,
    ScoredHand,
    ScoringRefusal,
    ScoringRules,
    WinContext,
)
from .yaku import YakuId
from .yaku import YakuId as Y

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


# The constants the readings loop reads are ``Final`` (and ``SEQUENCE``, ``TRIPLET`` in
# ``rules.splits``): compiled, a module name that is not is a dictionary lookup at every read
# (the red fives' ids at every tile of every hand scored). Callgrind, compiled, 3 corpus games'
# ``analyze_game``: 2,889 M instructions against 2,943 M without.
_GREEN: Final = frozenset({19, 20, 21, 23, 25, 32})
"""緑一色's tiles: 2, 3, 4, 6, 8 of bamboo and the green dragon."""
_TERMINAL_HONOR = tuple(k in TERMINAL_HONOR_KINDS for k in range(34))
_ORPHANS: Final = ORPHAN_KINDS
_CHUUREN: Final = (3, 1, 1, 1, 1, 1, 1, 1, 3)
_SITUATION_YAKU = (Y.IPPATSU, Y.CHANKAN, Y.RINSHAN, Y.HAITEI, Y.HOUTEI)
"""The one-han yaku of the win's situation: 一発, 搶槓, 嶺上開花, 海底摸月, 河底撈魚 (``_Win``'s
flags in that order)."""
_TERMINAL_HONOR_SET: Final = frozenset(k for k in range(34) if _TERMINAL_HONOR[k])
_SET_FU: Final = {
    (yaochu, concealed, kan): (
        ("closed_" if concealed else "open_") + ("terminal_" if yaochu else "") + ("kan" if kan else "pon"),
        2 * (2 if yaochu else 1) * (2 if concealed else 1) * (4 if kan else 1),
    )
    for yaochu in (False, True) for concealed in (False, True) for kan in (False, True)
}
"""Fu of a set: 2, doubled for terminals/honours, doubled when concealed, x4 for a kan."""


def _by_fu(detail: tuple[str, int]) -> int:
    return -detail[1]



class Group:
    """One set of a reading: a sequence (順子) from ``kind`` or a triplet/kan (刻子/槓子). (A
    working record of the valuation, compiled with it: not a value type.)"""

    __slots__ = ("shape", "kind", "kan", "concealed")

    def __init__(self, shape: int, kind: int, *, kan: bool = False, concealed: bool = True) -> None:
        self.shape = shape
        """``SEQUENCE`` or ``TRIPLET``."""
        self.kind = kind
        """The sequence's lowest kind, or the triplet's kind."""
        self.kan = kan
        self.concealed = concealed
        """Concealed (暗刻/暗槓); a triplet completed by ron is open (明刻)."""


class _Win:
    """A win's situation as the valuation reads it: the ``WinContext``'s fields and the rules it
    asks, each read once; not the way it is won (tsumo or ron), which the scorer is given for each
    way it values. (A working record of the valuation, compiled with it: a field of the
    plain ``WinContext`` or ``ScoringRules`` is a generic attribute read, about 280 instructions
    compiled, and one ``score_wins`` read some 65 of them; callgrind, compiled, 3 corpus games'
    ``analyze_game``: 3,272 M instructions against 3,313 M with the fields read where they are
    used.) It is also what the yaku of the win's situation are read from."""

    __slots__ = ("concealed", "melds", "win_tile", "seat_wind", "round_wind", "riichi", "double_riichi",
                 "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "dora_indicators",
                 "ura_indicators", "players", "sanma", "red_fives", "open_tanyao", "kiriage")

    def __init__(self, ctx: WinContext) -> None:
        self.concealed = ctx.concealed
        self.melds = ctx.melds
        self.win_tile = ctx.win_tile
        self.seat_wind = ctx.seat_wind
        self.round_wind = ctx.round_wind
        self.riichi = ctx.riichi
        self.double_riichi = ctx.double_riichi
        self.ippatsu = ctx.ippatsu
        self.haitei = ctx.haitei
        self.houtei = ctx.houtei
        self.rinshan = ctx.rinshan
        self.chankan = ctx.chankan
        self.tenhou = ctx.tenhou
        self.chiihou = ctx.chiihou
        self.dora_indicators = ctx.dora_indicators
        self.ura_indicators = ctx.ura_indicators
        rules = ctx.rules
        self.players = rules.players
        self.sanma = rules.sanma
        self.red_fives = rules.red_fives
        self.open_tanyao = rules.open_tanyao
        self.kiriage = rules.kiriage


class Reading:
    """The reading Tenhou scores: yaku (id, han) without the dora entries, yakuman ids, fu. (A
    working record of the valuation, compiled with it: not a value type.)"""

    __slots__ = ("yaku", "yakuman", "fu", "fu_details", "han")

    def __init__(self, *, yaku: tuple[tuple[int, int], ...], yakuman: tuple[int, ...], fu: int,
                 fu_details: tuple[tuple[str, int], ...], han: int) -> None:
        self.yaku = yaku
        self.yakuman = yakuman
        self.fu = fu
        self.fu_details = fu_details
        """In the order they are found: ``_scored`` sorts the chosen reading's, largest first (sorting
        every reading's cost 27 M instructions of 2,970 M, callgrind, compiled, 3 corpus games'
        ``analyze_game``)."""
        self.han = han
        """Han of ``yaku`` plus ``dora_han`` (0 on a yakuman reading)."""


def indicated(kinds: list[int], indicators: tuple[int, ...], kita: int, sanma: bool) -> int:
    """Dora that ``indicators`` point at among the hand's tiles (``kinds``: counts over every
    tile, all four of a kan), plus one per kita (抜きドラ) for each indicator pointing at North."""
    total = 0
    for ind in indicators:
        k = dora_kind(ind >> 2, sanma=sanma)
        total += kinds[k]
        if k == 30:
            total += kita
    return total


def best_readings(
    concealed: list[int],
    melds: list[Group],
    win_kind: int,
    sit: _Win,
    ways: tuple[bool, ...],
    *,
    closed: bool,
    dora_han: int,
    open_tanyao: bool = True,
    kiriage: bool = False,
) -> list[Reading | None]:
    """The reading Tenhou scores for each of ``ways`` the hand is won (``True`` a tsumo,
    ``False`` a ron; ``sit.tsumo`` is not read), or ``None`` when the tiles are not a winning
    hand. The hand's facts, its splits and the places of the winning tile are found once for
    every way.

    ``concealed`` are the 34-kind counts of the concealed tiles (winning tile included),
    ``melds`` the declared sets (kita are not sets), ``closed`` false once a set was called.
    ``dora_han`` (dora, red fives, ura, kita) is added to a reading that has a yaku. A reading
    with no yaku is returned with empty ``yaku`` and ``yakuman``: the hand is complete but has
    no yaku (役なし). ``kiriage`` ranks 30 fu 4 han and 60 fu 3 han as mangan (chip tables).
    """
    all_kinds = list(concealed)
    for g in melds:
        if g.shape == SEQUENCE:
            all_kinds[g.kind] += 1
            all_kinds[g.kind + 1] += 1
            all_kinds[g.kind + 2] += 1
        else:
            all_kinds[g.kind] += 3  # the fourth tile of a kan changes no yaku test
    hand = _HandFacts(all_kinds, melds, sit, closed, open_tanyao)
    kokushi = seven_pairs = False
    if not melds:
        kokushi = sum(concealed) == 14 and all(concealed[k] for k in _ORPHANS)
        seven_pairs = all(n in (0, 2) for n in concealed) and sum(1 for n in concealed if n) == 7
    readings: list[tuple[int, tuple[tuple[int, int], ...], int]] = []  # (pair, groups, where the winning tile sits)
    for pair, groups in standard_splits(concealed):
        if pair == win_kind:
            readings.append((pair, groups, -1))  # -1: the pair (tanki), else an index into groups
        seen: set[tuple[int, int, int]] = set()
        for i, (shape, k) in enumerate(groups):
            if (shape == TRIPLET and k == win_kind) or (shape == SEQUENCE and k <= win_kind <= k + 2):
                place = (shape, k, win_kind - k)
                if place not in seen:  # two identical sets give the same reading
                    seen.add(place)
                    readings.append((pair, groups, i))
    thirteen_orphans = hand.kokushi(concealed, win_kind, dora_han) if kokushi else None  # the same either way
    found: list[Reading | None] = []
    for tsumo in ways:
        best: tuple[tuple[int, int, int, int], Reading] | None = None
        candidates: list[Reading] = []
        if thirteen_orphans is not None:
            candidates.append(thirteen_orphans)
        if seven_pairs:
            candidates.append(hand.seven_pairs(dora_han, tsumo))
        for pair, groups, at in readings:
            candidates.append(hand.standard(pair, groups, at, win_kind, dora_han, tsumo))
        for reading in candidates:
            if reading.yakuman:  # a real yakuman ranks above a kazoe yakuman of the same value
                key = (base_points(0, 0, yakuman=len(reading.yakuman)), 1, 0, reading.fu)
            elif reading.yaku:
                key = (base_points(reading.han, reading.fu, kiriage=kiriage), 0, reading.han, reading.fu)
            else:
                key = (-1, 0, 0, reading.fu)
            if best is None or key > best[0]:
                best = (key, reading)
        found.append(None if best is None else best[1])
    return found


class _HandFacts:
    """What does not depend on the reading nor on the way the hand is won (tsumo or ron), worked
    out once per hand."""

    __slots__ = ("kinds", "melds_triplets", "melds_sequences", "seat_wind", "round_wind", "closed", "suits", "honors",
                 "all_terminal_honor", "yaku_fixed", "yaku_fixed_tsumo", "yakuman_fixed", "chuuren_suit")

    def __init__(self, kinds: list[int], melds: list[Group], sit: _Win, closed: bool,
                 open_tanyao: bool):
        self.kinds = kinds
        self.melds_triplets = [g for g in melds if g.shape == TRIPLET]
        self.melds_sequences = [g.kind for g in melds if g.shape == SEQUENCE]
        self.seat_wind = sit.seat_wind
        self.round_wind = sit.round_wind
        self.closed = closed
        suits = set()
        honors = simples = terminals = False
        green = True
        for k in range(34):
            if kinds[k]:
                if k >= 27:
                    honors = True
                else:
                    suits.add(k // 9)
                    if k % 9 == 0 or k % 9 == 8:
                        terminals = True
                    else:
                        simples = True
                if green and k not in _GREEN:
                    green = False
        self.suits = suits
        self.honors = honors
        self.all_terminal_honor = not simples
        self.chuuren_suit = -1
        if closed and not melds and len(suits) == 1 and not honors:
            base = 9 * next(iter(suits))
            if all(kinds[base + i] >= _CHUUREN[i] for i in range(9)):
                self.chuuren_suit = base // 9
        yaku: list[tuple[int, int]] = []
        if sit.double_riichi:
            yaku.append((Y.DOUBLE_RIICHI, 2))
        elif sit.riichi:
            yaku.append((Y.RIICHI, 1))
        for flag, yid in zip((sit.ippatsu, sit.chankan, sit.rinshan, sit.haitei, sit.houtei), _SITUATION_YAKU):
            if flag:
                yaku.append((yid, 1))
        if not honors and not terminals and (closed or open_tanyao):
            yaku.append((Y.TANYAO, 1))
        if len(suits) == 1:
            if honors:
                yaku.append((Y.HONITSU, 3 if closed else 2))
            else:
                yaku.append((Y.CHINITSU, 6 if closed else 5))
        self.yaku_fixed = yaku
        """The yaku of every reading won by ron."""
        self.yaku_fixed_tsumo = [(Y.MENZEN_TSUMO, 1), *yaku] if closed else yaku
        """The same won by tsumo: 門前清自摸和 first on a closed hand."""
        yakuman: list[int] = []
        if sit.tenhou:
            yakuman.append(Y.TENHOU)
        if sit.chiihou:
            yakuman.append(Y.CHIIHOU)
        if not suits:
            yakuman.append(Y.TSUUIISOU)
        if green:
            yakuman.append(Y.RYUUIISOU)
        if terminals and not simples and not honors:
            yakuman.append(Y.CHINROUTOU)
        self.yakuman_fixed = yakuman

    # -- the three shapes ---------------------------------------------------------------------

    def kokushi(self, concealed: list[int], win_kind: int, dora_han: int) -> Reading:
        thirteen = concealed[win_kind] == 2  # all 13 kinds were there before the winning tile
        ids = (*self.yakuman_fixed, Y.KOKUSHI_13 if thirteen else Y.KOKUSHI)
        return Reading(yaku=(), yakuman=tuple(map(int, ids)), fu=0, fu_details=(), han=0)

    def seven_pairs(self, dora_han: int, tsumo: bool) -> Reading:
        details = (("seven_pairs", 25),)
        if self.yakuman_fixed:
            return Reading(yaku=(), yakuman=tuple(map(int, self.yakuman_fixed)), fu=25, fu_details=details, han=0)
        yaku = [*(self.yaku_fixed_tsumo if tsumo else self.yaku_fixed), (Y.CHIITOITSU, 2)]
        if self.all_terminal_honor:
            yaku.append((Y.HONROUTOU, 2))
        return self._finish(yaku, 25, details, dora_han)

    def standard(self, pair: int, split: tuple[tuple[int, int], ...], at: int, win_kind: int,
                 dora_han: int, tsumo: bool) -> Reading:
        closed = self.closed
        seat_wind, round_wind = self.seat_wind, self.round_wind
        seat_kind, round_kind = 27 + seat_wind, 27 + round_wind
        wait = "pair_wait" if at < 0 else ""
        sequences: list[int] = []
        triplets: list[Group] = list(self.melds_triplets)
        concealed_seq: list[int] = []
        for i, (shape, k) in enumerate(split):
            if shape == SEQUENCE:
                sequences.append(k)
                concealed_seq.append(k)
                if i == at:
                    offset = win_kind - k
                    if offset == 1:
                        wait = "kanchan"
                    elif (offset == 0 and k % 9 == 6) or (offset == 2 and k % 9 == 0):
                        wait = "penchan"
                    else:
                        wait = "ryanmen"
            elif i == at:
                wait = "shanpon"
                triplets.append(Group(TRIPLET, k, concealed=tsumo))
            else:
                triplets.append(Group(TRIPLET, k))
        sequences.extend(self.melds_sequences)
        pinfu = closed and len(concealed_seq) == 4 and wait == "ryanmen" and not (
            pair >= 31 or pair == seat_kind or pair == round_kind)
        concealed_triplets = kans = dragon_sets = wind_sets = 0
        for g in triplets:
            if g.concealed:
                concealed_triplets += 1
            if g.kan:
                kans += 1
            if g.kind >= 31:
                dragon_sets += 1
            elif g.kind >= 27:
                wind_sets += 1

        # yakuman of this reading
        yakuman = list(self.yakuman_fixed)
        if concealed_triplets == 4:
            yakuman.append(Y.SUUANKOU_TANKI if wait == "pair_wait" else Y.SUUANKOU)
        if dragon_sets == 3:
            yakuman.append(Y.DAISANGEN)
        if wind_sets == 4:
            yakuman.append(Y.DAISUUSHII)
        elif wind_sets == 3 and 27 <= pair <= 30:
            yakuman.append(Y.SHOUSUUSHII)
        if kans == 4:
            yakuman.append(Y.SUUKANTSU)
        if self.chuuren_suit >= 0:
            base = 9 * self.chuuren_suit
            before = self.kinds[base:base + 9]
            before[win_kind - base] -= 1
            yakuman.append(Y.JUNSEI_CHUUREN if tuple(before) == _CHUUREN else Y.CHUUREN)

        # fu (符)
        details: list[tuple[str, int]] = [("base", 20)]
        if pinfu and tsumo:
            fu = 20
        else:
            if closed and not tsumo:
                details.append(("closed_ron", 10))
            if tsumo and not pinfu:
                details.append(("tsumo", 2))
            if wait == "kanchan" or wait == "penchan" or wait == "pair_wait":
                details.append((wait, 2))
            if pair >= 31:
                details.append(("valued_pair", 2))
            elif pair == seat_kind and pair == round_kind:
                details.append(("double_valued_pair", 4))
            elif pair == seat_kind or pair == round_kind:
                details.append(("valued_pair", 2))
            for g in triplets:
                details.append(_SET_FU[g.kind in _TERMINAL_HONOR_SET, g.concealed, g.kan])
            raw = 0
            for _, value in details:
                raw += value
            if raw == 20:
                details.append(("open_pinfu", 10))  # an open hand without fu is 30 on Tenhou
                raw = 30
            fu = -(-raw // 10) * 10
        if yakuman:
            return Reading(yaku=(), yakuman=tuple(map(int, yakuman)), fu=fu, fu_details=tuple(details), han=0)

        # yaku of this reading
        yaku = list(self.yaku_fixed_tsumo if tsumo else self.yaku_fixed)
        if pinfu:
            yaku.append((Y.PINFU, 1))
        if closed and len(concealed_seq) >= 2:
            concealed_seq.sort()
            twice = 0
            i = 0
            while i + 1 < len(concealed_seq):
                if concealed_seq[i] == concealed_seq[i + 1]:
                    twice += 1
                    i += 2
                else:
                    i += 1
            if twice == 2:
                yaku.append((Y.RYANPEIKOU, 3))
            elif twice == 1:
                yaku.append((Y.IIPEIKOU, 1))
        numbers = set()
        outside = pair in _TERMINAL_HONOR_SET
        for g in triplets:
            k = g.kind
            if k >= 31:
                yaku.append((Y.HAKU + (k - 31), 1))
            elif k >= 27:
                if k == seat_kind:
                    yaku.append((Y.SEAT_EAST + seat_wind, 1))
                if k == round_kind:
                    yaku.append((Y.ROUND_EAST + round_wind, 1))
            else:
                numbers.add(k)
            if outside and k not in _TERMINAL_HONOR_SET:
                outside = False
        if sequences:
            if len(sequences) >= 3:
                seq_set = set(sequences)
                for n in sequences:
                    if n < 9 and n + 9 in seq_set and n + 18 in seq_set:
                        yaku.append((Y.SANSHOKU, 2 if closed else 1))
                        break
                for base in (0, 9, 18):
                    if base in seq_set and base + 3 in seq_set and base + 6 in seq_set:
                        yaku.append((Y.ITTSU, 2 if closed else 1))
                        break
            if outside:
                for k in sequences:
                    if k % 9 != 0 and k % 9 != 6:
                        outside = False
                        break
            if outside:
                if self.honors:
                    yaku.append((Y.CHANTA, 2 if closed else 1))
                else:
                    yaku.append((Y.JUNCHAN, 3 if closed else 2))
        else:
            yaku.append((Y.TOITOI, 2))
            if self.all_terminal_honor:
                yaku.append((Y.HONROUTOU, 2))
        if concealed_triplets == 3:
            yaku.append((Y.SANANKOU, 2))
        if kans == 3:
            yaku.append((Y.SANKANTSU, 2))
        if len(numbers) >= 3:
            for n in numbers:
                if n < 9 and n + 9 in numbers and n + 18 in numbers:
                    yaku.append((Y.SANSHOKU_DOUKOU, 2))
                    break
        if dragon_sets == 2 and pair >= 31:
            yaku.append((Y.SHOUSANGEN, 2))
        return self._finish(yaku, fu, tuple(details), dora_han)

    @staticmethod
    def _finish(yaku: list[tuple[int, int]], fu: int, details: tuple[tuple[str, int], ...],
                dora_han: int) -> Reading:
        if not yaku:
            return Reading(yaku=(), yakuman=(), fu=fu, fu_details=details, han=0)
        han = sum(h for _, h in yaku) + dora_han
        return Reading(yaku=tuple((int(y), h) for y, h in yaku), yakuman=(), fu=fu, fu_details=details, han=han)


# --------------------------------------------------------------------------------------------
# The win's value in Tenhou's terms

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


def _tenhou_position(entry: tuple[int, int]) -> int:
    """A ``(yaku id, han)`` entry's place in ``_TENHOU_ORDER``."""
    return _TENHOU_ORDER[entry[0]]


def _refuse(reason: RefusalReason, message: str) -> ScoringRefusal:
    return ScoringRefusal(reason=reason, message=message)


def _conflicts(win: _Win, called: bool, ways: tuple[bool, ...]) -> list[str | None]:
    """For each of ``ways`` (``True`` a tsumo, ``False`` a ron), a
    situation no win can have (the same list the ``mahjong`` library refuses), the first that
    applies."""
    riichi, double_riichi, ippatsu = win.riichi, win.double_riichi, win.ippatsu
    rinshan, chankan, haitei, houtei = win.rinshan, win.chankan, win.haitei, win.houtei
    tenhou, chiihou, dealer = win.tenhou, win.chiihou, win.seat_wind == 0
    found: list[str | None] = []
    for tsumo in ways:
        conflict: str | None = None
        if called and riichi:
            conflict = "riichi with an open hand"
        elif called and double_riichi:
            conflict = "double riichi with an open hand"
        elif ippatsu and not (riichi or double_riichi):
            conflict = "ippatsu without riichi"
        elif chankan and tsumo:
            conflict = "chankan on a tsumo"
        elif rinshan and not tsumo:
            conflict = "rinshan without a tsumo"
        elif haitei and not tsumo:
            conflict = "haitei without a tsumo"
        elif houtei and tsumo:
            conflict = "houtei on a tsumo"
        elif haitei and rinshan:
            conflict = "haitei on a replacement draw"
        elif houtei and chankan:
            conflict = "houtei on a robbed kan"
        elif tenhou and not dealer:
            conflict = "tenhou by a non-dealer"
        elif tenhou and not tsumo:
            conflict = "tenhou without a tsumo"
        elif chiihou and dealer:
            conflict = "chiihou by the dealer"
        elif chiihou and not tsumo:
            conflict = "chiihou without a tsumo"
        elif (tenhou or chiihou) and not all(m.kind is CallKind.KITA for m in win.melds):
            conflict = "tenhou or chiihou after a call"
        found.append(conflict)
    return found


_OPEN_KINDS = (CallKind.CHI, CallKind.PON, CallKind.OPEN_KAN, CallKind.ADDED_KAN)
_DORA_YAKU = (YakuId.DORA, YakuId.AKA_DORA, YakuId.URA_DORA)
"""The yaku entries of dora, red fives and ura dora, in that order (their han is their count)."""


def score_win(ctx: WinContext) -> ScoredHand | ScoringRefusal:
    """Value a win the way Tenhou does (see the module docstring)."""
    return score_wins(ctx, (ctx.tsumo,))[0]


def score_wins(ctx: WinContext, ways: tuple[bool, ...]) -> list[ScoredHand | ScoringRefusal]:
    """``score_win`` of ``ctx`` won in each of ``ways`` (``True`` a tsumo, ``False`` a ron, in
    place of ``ctx.tsumo``). What does not depend on the way (the tiles checked, the melds'
    sets, the dora, the hand's facts and splits) is worked out once: the hand value asks for a
    wait's tsumo and ron together. Measured (callgrind, compiled, 3 corpus games'
    ``analyze_game``): 3,469 M instructions with one pass against 3,717 M with two ``score_win``
    calls."""
    read = _read(ctx, ways)
    if isinstance(read, list):
        return list(read)
    win, conflicts, readings, dora_counts = read
    return [_refuse(RefusalReason.CONFLICTING_CONDITIONS, conflict) if conflict is not None
            else _scored(win, tsumo, reading, dora_counts)
            for tsumo, conflict, reading in zip(ways, conflicts, readings, strict=True)]


def score_values(ctx: WinContext, ways: tuple[bool, ...]) -> list[tuple[int, int, int, int] | None]:
    """What the hand value reads of ``score_wins(ctx, ways)``, from the same readings: each way's
    ``(han, fu, points, yakuman)`` (a ``ScoredHand``'s ``han``, ``fu``, ``points`` and
    ``len(yakuman)``), or ``None`` where ``score_wins`` refuses. It leaves out what only the
    record needs (the yaku and their Tenhou order, the limit code, the record): callgrind,
    compiled, 3 corpus games' ``analyze_game``, 2,970 M instructions against 3,161 M with
    ``score_wins`` (of which 34 M the ``zip``'s ``strict=``, left out: the lists are the ways').
    ``tests/test_scoring.py`` holds the two equal on the corpus's wins and on every hand waiting
    to draw in corpus games, completed by each kind."""
    read = _read(ctx, ways)
    if isinstance(read, list):
        return [None for _ in ways]
    win, conflicts, readings, _ = read
    found: list[tuple[int, int, int, int] | None] = []
    for tsumo, conflict, reading in zip(ways, conflicts, readings):
        if conflict is None and reading is not None and (reading.yaku or reading.yakuman):
            yakuman = len(reading.yakuman)
            han = 0 if yakuman else reading.han  # the yaku's han and the dora entries' (``_finish``)
            found.append((han, reading.fu, _points(win, tsumo, han, reading.fu, yakuman)[1], yakuman))
        else:
            found.append(None)
    return found


_Read = tuple[_Win, list[str | None], list[Reading | None], tuple[int, int, int]]
"""What both ``score_wins`` and ``score_values`` read of a win: the situation, each way's
conflict (``_conflicts``) and best reading (``None``: not a winning hand), and the dora, red five
and ura dora counts."""


def _read(ctx: WinContext, ways: tuple[bool, ...]) -> _Read | list[ScoringRefusal]:
    """The win read for each of ``ways``, or a refusal of every way (the tiles, or no way can be
    won)."""
    win = _Win(ctx)
    tiles = list(win.concealed)
    groups: list[Group] = []
    kita = 0
    called = False
    for meld in win.melds:
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
    problem = _tile_problem(win, tiles, len(groups), kita)
    if problem is not None:
        return [problem for _ in ways]
    conflicts = _conflicts(win, called, ways)
    if None not in conflicts:  # no way can be won: nothing to read
        return [_refuse(RefusalReason.CONFLICTING_CONDITIONS, str(conflict)) for conflict in conflicts]

    sanma = win.sanma
    every = counts34(tiles)
    dora = kita + indicated(every, win.dora_indicators, kita, sanma)
    aka = sum(1 for t in tiles if t in _RED_IDS) if win.red_fives else 0
    ura = indicated(every, win.ura_indicators, kita, sanma) if (win.riichi or win.double_riichi) else 0
    # the concealed tiles' counts are every tile's when there is no meld (both only read from here)
    concealed = every if not win.melds else counts34(win.concealed)
    readings = best_readings(concealed, groups, win.win_tile >> 2, win, ways, closed=not called,
                             dora_han=dora + aka + ura, open_tanyao=win.open_tanyao, kiriage=win.kiriage)
    return win, conflicts, readings, (dora, aka, ura)


def _scored(win: _Win, tsumo: bool, reading: Reading | None,
            dora_counts: tuple[int, int, int]) -> ScoredHand | ScoringRefusal:
    """The win's value from its best reading, with its dora, red five and ura dora entries
    (``dora_counts``), or why it is refused."""
    if reading is None:
        return _refuse(RefusalReason.NOT_WINNING, "the tiles are not a winning hand (和了形でない)")
    if not reading.yaku and not reading.yakuman:
        return _refuse(RefusalReason.NO_YAKU, "the hand is complete but has no yaku (役なし)")
    yaku = list(reading.yaku)
    if not reading.yakuman:
        for yid, count in zip(_DORA_YAKU, dora_counts):
            if count:
                yaku.append((int(yid), count))
    details = reading.fu_details
    if len(details) > 1:
        details = tuple(sorted(details, key=_by_fu))
    return _assemble(win, tsumo, yaku, list(reading.yakuman), reading.fu, details)


_RED_IDS: Final = frozenset({16, 52, 88})


def assemble(ctx: WinContext, yaku: list[tuple[int, int]], yakuman: list[int], fu: int,
             details: tuple[tuple[str, int], ...]) -> ScoredHand:
    """A ``ScoredHand`` from a reading in Tenhou ids: the ura entry of a riichi win, Tenhou's
    order, and the value (base points, ``ten[1]``, limit) from ``rules/payments.py``."""
    return _assemble(_Win(ctx), ctx.tsumo, yaku, yakuman, fu, details)


def _assemble(win: _Win, tsumo: bool, yaku: list[tuple[int, int]], yakuman: list[int], fu: int,
              details: tuple[tuple[str, int], ...]) -> ScoredHand:
    """``assemble`` of a win by ``tsumo`` (``True``) or ron."""
    if yakuman:
        yaku = []
        han = 0
        limit = Limit.YAKUMAN
        yakuman.sort(key=_TENHOU_ORDER.__getitem__)
    else:
        ura_dora = YakuId.URA_DORA
        if (win.riichi or win.double_riichi) and all(y != ura_dora for y, _ in yaku):
            yaku.append((int(ura_dora), 0))
        yaku.sort(key=_tenhou_position)
        han = sum(h for _, h in yaku)
        limit = limit_for(han, fu)
    dealer = win.seat_wind == 0
    base, points = _points(win, tsumo, han, fu, len(yakuman))
    return build(
        ScoredHand,
        yaku=tuple(yaku),
        yakuman=tuple(yakuman),
        han=han,
        fu=fu,
        points=points,
        limit=limit,
        base=base,
        dealer=dealer,
        tsumo=tsumo,
        fu_details=details,
    )


def _points(win: _Win, tsumo: bool, han: int, fu: int, yakuman: int) -> tuple[int, int]:
    """``(base points, ten[1])`` of a win of ``han`` and ``fu``, or of ``yakuman`` yakuman (from
    ``rules/payments.py``)."""
    base = base_points(0, fu, yakuman=yakuman) if yakuman else base_points(han, fu, kiriage=win.kiriage)
    return base, hand_points(base, dealer=win.seat_wind == 0, tsumo=tsumo, players=win.players)


def _tile_problem(
    win: _Win, tiles: list[int], sets: int, kita: int
) -> ScoringRefusal | None:
    if not 0 <= win.seat_wind < win.players or not 0 <= win.round_wind <= 3:
        return _refuse(
            RefusalReason.CONFLICTING_CONDITIONS,
            f"seat wind {win.seat_wind} / round wind {win.round_wind} out of range",
        )
    if any(not 0 <= t < 136 for t in tiles) or len(set(tiles)) != len(tiles):
        return _refuse(RefusalReason.INVALID_TILES, "a tile id is repeated or outside 0-135")
    if len(win.concealed) + 3 * sets != 14:
        return _refuse(
            RefusalReason.INVALID_TILES,
            f"{len(win.concealed)} concealed tiles and {sets} melds do not make a 14-tile hand",
        )
    if kita and not win.sanma:
        return _refuse(RefusalReason.INVALID_TILES, "kita melds in a four-player game")
    if win.win_tile not in win.concealed:
        return _refuse(RefusalReason.WIN_TILE_NOT_IN_HAND, "the winning tile is not in the hand")
    return None


def ron_allowed(ctx: WinContext, furiten: bool) -> bool:
    """Whether a player may ron the tile in ``ctx`` (a ron's situation, ``ctx.tsumo`` false): a
    winning hand with a yaku (dora alone do not count: 役なし), and not ``furiten`` (振聴, any of
    the three kinds of ``rules.furiten``). Tenhou offers no ron otherwise; a triple ron (三家和了)
    needs three players who each may."""
    return not furiten and not isinstance(score_win(ctx), ScoringRefusal)
