"""Our own hand valuation (和了の点数計算): readings, yaku, yakuman and fu of a winning hand.

``best_reading(...)`` takes a winning hand as 34-kind counts plus its declared sets and the
situation, tries every reading of it — every split of the concealed tiles into four sets and a
pair (or seven pairs, or thirteen orphans) with the winning tile in every place it can sit — and
returns the reading Tenhou scores: the highest base points (a yakuman before a kazoe yakuman),
then the most han, then the most fu. ``rules/scoring.py`` turns it into a ``ScoredHand`` (points, limit, payments).

The rules are Tenhou's (each one checked on every AGARI of the corpus, see
``rules/scoring.py``): kuitan as the table says; open "pinfu" shapes are 30 fu on a ron; a
pinfu tsumo is 20 fu (also on the replacement draw after a kita); a double-wind pair is 4 fu;
a triplet completed by ron counts as open; the variant yakuman (四暗刻単騎, 純正九蓮宝燈,
国士無双１３面, 大四喜) are one yakuman each and replace their base ids; thirteen orphans has 0
fu and seven pairs 25.

Everything is pure and works on small tuples; the split of one suit's counts is cached, since
the same suit patterns come back in hand after hand.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple, Protocol

from ..tiles import dora_kind
from .payments import base_points
from .yaku import YakuId as Y

_DRAGONS = (31, 32, 33)
_WINDS = (27, 28, 29, 30)
_GREEN = frozenset({19, 20, 21, 23, 25, 32})
"""緑一色's tiles: 2, 3, 4, 6, 8 of bamboo and the green dragon."""
_TERMINAL_HONOR = tuple(k in (0, 8, 9, 17, 18, 26) or k >= 27 for k in range(34))
_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_CHUUREN = (3, 1, 1, 1, 1, 1, 1, 1, 3)
_TERMINAL_HONOR_SET = frozenset(k for k in range(34) if _TERMINAL_HONOR[k])
_SET_FU = {
    (yaochu, concealed, kan): (
        ("closed_" if concealed else "open_") + ("terminal_" if yaochu else "") + ("kan" if kan else "pon"),
        2 * (2 if yaochu else 1) * (2 if concealed else 1) * (4 if kan else 1),
    )
    for yaochu in (False, True) for concealed in (False, True) for kan in (False, True)
}
"""Fu of a set: 2, doubled for terminals/honours, doubled when concealed, x4 for a kan."""


def _by_fu(detail: tuple[str, int]) -> int:
    return -detail[1]

SEQUENCE, TRIPLET = 0, 1


class Group(NamedTuple):
    """One set of a reading: a sequence (順子) from ``kind`` or a triplet/kan (刻子/槓子)."""

    shape: int
    """``SEQUENCE`` or ``TRIPLET``."""
    kind: int
    """The sequence's lowest kind, or the triplet's kind."""
    kan: bool = False
    concealed: bool = True
    """Concealed (暗刻/暗槓); a triplet completed by ron is open (明刻)."""


class Situation(Protocol):
    """What the valuation needs besides the tiles (``scoring.WinContext`` is one); read only."""

    @property
    def tsumo(self) -> bool: ...
    @property
    def seat_wind(self) -> int: ...
    @property
    def round_wind(self) -> int: ...
    @property
    def riichi(self) -> bool:
        """Riichi; ignored when ``double_riichi`` is set."""
    @property
    def double_riichi(self) -> bool: ...
    @property
    def ippatsu(self) -> bool: ...
    @property
    def haitei(self) -> bool: ...
    @property
    def houtei(self) -> bool: ...
    @property
    def rinshan(self) -> bool: ...
    @property
    def chankan(self) -> bool: ...
    @property
    def tenhou(self) -> bool: ...
    @property
    def chiihou(self) -> bool: ...


class Reading(NamedTuple):
    """The reading Tenhou scores: yaku (id, han) without the dora entries, yakuman ids, fu."""

    yaku: tuple[tuple[int, int], ...]
    yakuman: tuple[int, ...]
    fu: int
    fu_details: tuple[tuple[str, int], ...]
    han: int
    """Han of ``yaku`` plus ``dora_han`` (0 on a yakuman reading)."""


@cache
def _suit_splits(counts: tuple[int, ...]) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Every split of one suit's nine counts into sets and at most one pair:
    ``(pair number or -1, ((shape, number), ...))``."""
    found: set[tuple[int, tuple[tuple[int, int], ...]]] = set()
    c = list(counts)
    groups: list[tuple[int, int]] = []

    def walk(i: int, pair: int) -> None:
        while i < 9 and not c[i]:
            i += 1
        if i == 9:
            found.add((pair, tuple(sorted(groups))))
            return
        if c[i] >= 3:
            c[i] -= 3
            groups.append((TRIPLET, i))
            walk(i, pair)
            groups.pop()
            c[i] += 3
        if pair < 0 and c[i] >= 2:
            c[i] -= 2
            walk(i, i)
            c[i] += 2
        if i <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            groups.append((SEQUENCE, i))
            walk(i, pair)
            groups.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1

    walk(0, -1)
    return tuple(sorted(found))


def standard_splits(counts: list[int]) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """Every split of concealed ``counts`` into sets and exactly one pair:
    ``(pair kind, ((shape, kind), ...))``."""
    honors: list[tuple[int, int]] = []
    honor_pair = -1
    for k in range(27, 34):
        n = counts[k]
        if n == 3:
            honors.append((TRIPLET, k))
        elif n == 2:
            if honor_pair >= 0:
                return []
            honor_pair = k
        elif n:
            return []
    partial = [(honor_pair, tuple(honors))]
    for base in (0, 9, 18):
        splits = _suit_splits(tuple(counts[base:base + 9]))
        if not splits:
            return []
        nxt = []
        for pair, groups in partial:
            for spair, sgroups in splits:
                if spair >= 0 and pair >= 0:
                    continue
                nxt.append((spair + base if spair >= 0 else pair,
                            groups + tuple((shape, n + base) for shape, n in sgroups)))
        partial = nxt
    return [p for p in partial if p[0] >= 0]


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


def best_reading(
    concealed: list[int],
    melds: list[Group],
    win_kind: int,
    sit: Situation,
    *,
    closed: bool,
    dora_han: int,
    open_tanyao: bool = True,
    kiriage: bool = False,
) -> Reading | None:
    """The reading Tenhou scores, or ``None`` when the tiles are not a winning hand.

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
    best: tuple[tuple[int, int, int, int], Reading] | None = None
    none_found = True

    def consider(reading: Reading) -> None:
        nonlocal best, none_found
        none_found = False
        if reading.yakuman:  # a real yakuman ranks above a kazoe yakuman of the same value
            key = (base_points(0, 0, yakuman=len(reading.yakuman)), 1, 0, reading.fu)
        elif reading.yaku:
            key = (base_points(reading.han, reading.fu, kiriage=kiriage), 0, reading.han, reading.fu)
        else:
            key = (-1, 0, 0, reading.fu)
        if best is None or key > best[0]:
            best = (key, reading)

    if not melds:
        if sum(concealed) == 14 and all(concealed[k] for k in _ORPHANS):
            consider(hand.kokushi(concealed, win_kind, dora_han))
        if all(n in (0, 2) for n in concealed) and sum(1 for n in concealed if n) == 7:
            consider(hand.seven_pairs(dora_han))
    for pair, groups in standard_splits(concealed):
        placements: list[int] = []  # -1: the pair (tanki), else an index into groups
        if pair == win_kind:
            placements.append(-1)
        seen: set[tuple[int, int, int]] = set()
        for i, (shape, k) in enumerate(groups):
            if (shape == TRIPLET and k == win_kind) or (shape == SEQUENCE and k <= win_kind <= k + 2):
                key = (shape, k, win_kind - k)
                if key not in seen:  # two identical sets give the same reading
                    seen.add(key)
                    placements.append(i)
        for at in placements:
            consider(hand.standard(pair, groups, at, win_kind, dora_han))
    if none_found:
        return None
    assert best is not None
    return best[1]


class _HandFacts:
    """What does not depend on the reading, worked out once per hand."""

    __slots__ = ("kinds", "melds_triplets", "melds_sequences", "sit", "closed", "suits", "honors",
                 "all_terminal_honor", "yaku_fixed", "yakuman_fixed", "chuuren_suit")

    def __init__(self, kinds: list[int], melds: list[Group], sit: Situation, closed: bool,
                 open_tanyao: bool):
        self.kinds = kinds
        self.melds_triplets = [g for g in melds if g.shape == TRIPLET]
        self.melds_sequences = [g.kind for g in melds if g.shape == SEQUENCE]
        self.sit = sit
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
        if closed and sit.tsumo:
            yaku.append((Y.MENZEN_TSUMO, 1))
        if sit.double_riichi:
            yaku.append((Y.DOUBLE_RIICHI, 2))
        elif sit.riichi:
            yaku.append((Y.RIICHI, 1))
        for flag, yid in ((sit.ippatsu, Y.IPPATSU), (sit.chankan, Y.CHANKAN), (sit.rinshan, Y.RINSHAN),
                          (sit.haitei, Y.HAITEI), (sit.houtei, Y.HOUTEI)):
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
        return Reading((), tuple(map(int, ids)), 0, (), 0)

    def seven_pairs(self, dora_han: int) -> Reading:
        details = (("seven_pairs", 25),)
        if self.yakuman_fixed:
            return Reading((), tuple(map(int, self.yakuman_fixed)), 25, details, 0)
        yaku = [*self.yaku_fixed, (Y.CHIITOITSU, 2)]
        if self.all_terminal_honor:
            yaku.append((Y.HONROUTOU, 2))
        return self._finish(yaku, 25, details, dora_han)

    def standard(self, pair: int, split: tuple[tuple[int, int], ...], at: int, win_kind: int,
                 dora_han: int) -> Reading:
        sit = self.sit
        tsumo = sit.tsumo
        closed = self.closed
        seat_kind, round_kind = 27 + sit.seat_wind, 27 + sit.round_wind
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
                triplets.append(Group(TRIPLET, k, False, tsumo))
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
        if len(details) > 1:
            details.sort(key=_by_fu)
        if yakuman:
            return Reading((), tuple(map(int, yakuman)), fu, tuple(details), 0)

        # yaku of this reading
        yaku = list(self.yaku_fixed)
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
                    yaku.append((Y.SEAT_EAST + sit.seat_wind, 1))
                if k == round_kind:
                    yaku.append((Y.ROUND_EAST + sit.round_wind, 1))
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
            return Reading((), (), fu, details, 0)
        han = sum(h for _, h in yaku) + dora_han
        return Reading(tuple((int(y), h) for y, h in yaku), (), fu, details, han)
