"""The readings of a winning hand (``rules.scoring``'s valuation): yaku, yakuman and fu of every
way the tiles can be read, and the one Tenhou scores.

``best_readings(...)`` takes a winning hand as 34-kind counts of its concealed tiles plus a
``Setting`` (its declared sets and the situation: winds, the yaku and yakuman of the situation,
the rules asked), tries every reading of it — every split of the concealed tiles into four sets
and a pair (or seven pairs, or thirteen orphans) with the winning tile in every place it can sit
— and returns the reading Tenhou scores: the highest base points (a yakuman before a kazoe
yakuman), then the most han, then the most fu. ``rules.scoring`` builds the ``Setting``, adds the
dora and turns the reading into a value (its docstring lists the Tenhou rules that decide one).

Compiled (mypyc), and written for it: the readings loop runs some 16,000 times over 3 games'
analysis. Yaku ids are ``Final`` ints here, not ``YakuId`` members (a member is an attribute read
of a class of a plain module, some 900 instructions compiled); the wait is a small int, not a
string (string comparisons); sets of kinds are bit masks, not ``set`` objects; a triplet is one
int (its kind, concealed, kan), not an object. Measured in the commits that made them so.
"""

from __future__ import annotations

from typing import Final

from ..tiles import TERMINAL_HONOR_KINDS
from .payments import base_points
from .splits import SEQUENCE, TRIPLET, standard_splits
from .yaku import YAKU
from .yaku import YakuId as Y

__all__ = ["Group", "Reading", "Setting", "best_readings", "yaku_entry"]


Entry = tuple[int, ...]
"""A ``(yaku id, han)`` entry of a reading. Typed as a tuple of any length so that mypyc keeps
the entries below as the tuples they are: a ``tuple[int, int]`` constant is a C struct, boxed
into a new tuple at every use (callgrind, compiled, 3 corpus games' ``analyze_game``: the
readings loop took 58 M instructions against 85 M with its yaku and fu entries so made)."""


def yaku_entry(yaku: Y) -> Entry:
    """``(yaku id, han)`` by Tenhou's table (``rules.yaku.YAKU``), for a yaku worth the same han
    open or closed, or counted closed only."""
    info = YAKU[yaku]
    if info.closed_han is None or info.open_han not in (None, info.closed_han):
        raise ValueError(f"{info.name}: not one han value")
    return (int(yaku), info.closed_han)


def _open_closed(yaku: Y) -> tuple[Entry, Entry]:
    """The yaku's entries open and closed (one han less open), by Tenhou's table."""
    info = YAKU[yaku]
    if info.closed_han is None or info.open_han is None:
        raise ValueError(f"{info.name}: not counted both open and closed")
    return ((int(yaku), info.open_han), (int(yaku), info.closed_han))


# the entries a reading lists, as plain ints (a ``YakuId`` member is an attribute read of a class
# of a plain module: compiled, some 900 instructions)
_MENZEN_TSUMO: Final = yaku_entry(Y.MENZEN_TSUMO)
_PINFU: Final = yaku_entry(Y.PINFU)
_TANYAO: Final = yaku_entry(Y.TANYAO)
_IIPEIKOU: Final = yaku_entry(Y.IIPEIKOU)
_RYANPEIKOU: Final = yaku_entry(Y.RYANPEIKOU)
_CHIITOITSU: Final = yaku_entry(Y.CHIITOITSU)
_HONROUTOU: Final = yaku_entry(Y.HONROUTOU)
_TOITOI: Final = yaku_entry(Y.TOITOI)
_SANANKOU: Final = yaku_entry(Y.SANANKOU)
_SANKANTSU: Final = yaku_entry(Y.SANKANTSU)
_SANSHOKU_DOUKOU: Final = yaku_entry(Y.SANSHOKU_DOUKOU)
_SHOUSANGEN: Final = yaku_entry(Y.SHOUSANGEN)
_SANSHOKU: Final = _open_closed(Y.SANSHOKU)
"""Open, closed (likewise the next ones)."""
_ITTSU: Final = _open_closed(Y.ITTSU)
_CHANTA: Final = _open_closed(Y.CHANTA)
_JUNCHAN: Final = _open_closed(Y.JUNCHAN)
_HONITSU: Final = _open_closed(Y.HONITSU)
_CHINITSU: Final = _open_closed(Y.CHINITSU)
_DRAGON: Final[tuple[Entry, ...]] = tuple(yaku_entry(Y(Y.HAKU + i)) for i in range(3))
"""役牌 of haku, hatsu, chun; of the seat wind, of the round wind (East .. North)."""
_SEAT: Final[tuple[Entry, ...]] = tuple(yaku_entry(Y(Y.SEAT_EAST + i)) for i in range(4))
_ROUND: Final[tuple[Entry, ...]] = tuple(yaku_entry(Y(Y.ROUND_EAST + i)) for i in range(4))

_TSUUIISOU: Final = int(Y.TSUUIISOU)
_RYUUIISOU: Final = int(Y.RYUUIISOU)
_CHINROUTOU: Final = int(Y.CHINROUTOU)
_KOKUSHI: Final = int(Y.KOKUSHI)
_KOKUSHI_13: Final = int(Y.KOKUSHI_13)
_SUUANKOU: Final = int(Y.SUUANKOU)
_SUUANKOU_TANKI: Final = int(Y.SUUANKOU_TANKI)
_DAISANGEN: Final = int(Y.DAISANGEN)
_DAISUUSHII: Final = int(Y.DAISUUSHII)
_SHOUSUUSHII: Final = int(Y.SHOUSUUSHII)
_SUUKANTSU: Final = int(Y.SUUKANTSU)
_CHUUREN: Final = int(Y.CHUUREN)
_JUNSEI_CHUUREN: Final = int(Y.JUNSEI_CHUUREN)

_GREEN: Final = sum(1 << k for k in (19, 20, 21, 23, 25, 32))
"""緑一色's tiles (2, 3, 4, 6, 8 of bamboo and the green dragon), one bit per kind."""
_NOT_GREEN: Final = ((1 << 34) - 1) ^ _GREEN
_TERMINALS: Final = sum(1 << k for k in (0, 8, 9, 17, 18, 26))
_SIMPLES: Final = ((1 << 27) - 1) ^ _TERMINALS
"""The suits' terminals, the suits' simples, one bit per kind."""
_ORPHANS: Final[tuple[int, ...]] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
"""The thirteen kinds of kokushi musou (``tiles.ORPHAN_KINDS``)."""
_NINE_GATES: Final[tuple[int, ...]] = (3, 1, 1, 1, 1, 1, 1, 1, 3)
"""九蓮宝燈's counts of one suit before the winning tile (a pure nine-sided wait)."""

# the wait of a reading: where the winning tile sits
_PAIR_WAIT: Final = 0
_KANCHAN: Final = 1
_PENCHAN: Final = 2
_RYANMEN: Final = 3
_SHANPON: Final = 4

_SET_FU: Final = tuple(
    (("closed_" if concealed else "open_") + ("terminal_" if yaochu else "") + ("kan" if kan else "pon"),
     2 * (2 if yaochu else 1) * (2 if concealed else 1) * (4 if kan else 1))
    for yaochu in (False, True) for concealed in (False, True) for kan in (False, True)
)
"""Fu of a set, by ``terminal or honour * 4 + concealed * 2 + kan``: 2, doubled for
terminals/honours, doubled when concealed, x4 for a kan."""
_DETAILS: Final[tuple[tuple[str, int], ...]] = (
    ("base", 20), ("closed_ron", 10), ("tsumo", 2), ("pair_wait", 2), ("kanchan", 2), ("penchan", 2),
    ("valued_pair", 2), ("double_valued_pair", 4), ("open_pinfu", 10), ("seven_pairs", 25), *_SET_FU)
"""The fu entries a reading lists (``Reading.fu_details``), by number: a reading keeps the
numbers (packed in one int, ``_part``), and only the reading scored is given its
entries (a ``tuple[str, int]`` constant is boxed into a new tuple at every use, compiled)."""
_FU: Final[tuple[int, ...]] = tuple(fu for _, fu in _DETAILS)
_BASE: Final = 0
_CLOSED_RON: Final = 1
_TSUMO: Final = 2
_WAIT_FU: Final = 3
"""The entry of the wait, pair_wait, kanchan, penchan: this plus the wait's number."""
_VALUED_PAIR: Final = 6
_DOUBLE_VALUED_PAIR: Final = 7
_OPEN_PINFU: Final = 8
_SEVEN_PAIRS: Final = 9
_SET: Final = 10
"""A set's entry: this plus its index in ``_SET_FU``."""


_YAOCHU: Final[tuple[bool, ...]] = tuple(k in TERMINAL_HONOR_KINDS for k in range(34))


def _yaochu(k: int) -> bool:
    """Whether kind ``k`` is a terminal or an honour (幺九牌, ``tiles.TERMINAL_HONOR_KINDS``)."""
    return _YAOCHU[k]


class Group:
    """One declared set: a sequence (順子) from ``kind`` or a triplet/kan (刻子/槓子). (A
    working record of the valuation, compiled with it: not a value type.)"""

    __slots__ = ("shape", "kind", "kan", "concealed")

    def __init__(self, shape: int, kind: int, *, kan: bool = False, concealed: bool = True) -> None:
        self.shape = shape
        """``SEQUENCE`` or ``TRIPLET``."""
        self.kind = kind
        """The sequence's lowest kind, or the triplet's kind."""
        self.kan = kan
        self.concealed = concealed
        """Concealed (暗槓)."""


class Reading:
    """The reading Tenhou scores: yaku (id, han) without the dora entries, yakuman ids, fu. (A
    working record of the valuation, compiled with it: not a value type.)"""

    __slots__ = ("yaku", "yakuman", "fu", "fu_parts", "han")

    def __init__(self, *, yaku: tuple[Entry, ...], yakuman: tuple[int, ...], fu: int, fu_parts: int,
                 han: int) -> None:
        self.yaku = yaku
        self.yakuman = yakuman
        self.fu = fu
        self.fu_parts = fu_parts
        """The fu entries' numbers (``_DETAILS``) in the order they are found, packed by ``_part``."""
        self.han = han
        """Han of ``yaku`` plus ``dora_han`` (0 on a yakuman reading)."""

    def fu_details(self) -> tuple[tuple[str, int], ...]:
        """The fu entries, ``(name, fu)``, in the order they are found: ``rules.scoring`` sorts
        the chosen reading's, largest first (sorting every reading's cost 27 M instructions of
        2,970 M, callgrind, compiled, 3 corpus games' ``analyze_game``)."""
        found: list[tuple[str, int]] = []
        parts = self.fu_parts
        while parts:
            found.append(_DETAILS[(parts & _PART_MASK) - 1])
            parts >>= _PART_BITS
        found.reverse()
        return tuple(found)


_PART_BITS: Final = 5
_PART_MASK: Final = (1 << _PART_BITS) - 1


def _part(parts: int, part: int) -> int:
    """The fu entries ``parts`` with the entry numbered ``part`` (``_DETAILS``) after them: one int,
    five bits an entry (its number plus one), the first the highest (a reading has at most ten),
    not a list (callgrind, compiled, 3 corpus games' ``analyze_game``: the readings loop,
    ``_HandFacts.standard``, 46 M instructions against 58 M with the entries, and the concealed
    sequences for 一盃口, in lists)."""
    return parts << _PART_BITS | (part + 1)


class Setting:
    """What the readings of a win depend on besides its concealed tiles: the declared sets
    (``melds``, kita are not sets), whether a set was called (``closed`` false), the winds, the
    yaku and yakuman of the situation (``situation_yaku``: riichi or double riichi, ippatsu,
    chankan, rinshan, haitei, houtei in that order; ``situation_yakuman``: tenhou, chiihou) and
    the rules asked. Worked out once for every hand valued in the same situation. (A working
    record of the valuation, compiled with it: not a value type.)"""

    __slots__ = ("has_melds", "meld_triplets", "meld_sequences", "meld_sequence_mask",
                 "meld_sequences_outside", "meld_mask", "closed", "seat_wind", "round_wind", "situation_yaku",
                 "situation_yakuman", "open_tanyao", "kiriage")

    def __init__(self, melds: list[Group], *, closed: bool, seat_wind: int, round_wind: int,
                 situation_yaku: list[Entry], situation_yakuman: list[int], open_tanyao: bool,
                 kiriage: bool) -> None:
        self.has_melds = bool(melds)
        triplets: list[int] = []
        sequences = 0
        mask = 0
        outside = True
        held = 0
        for g in melds:
            k = g.kind
            if g.shape == SEQUENCE:
                held |= 7 << k
                sequences += 1
                mask |= 1 << k
                if k % 9 != 0 and k % 9 != 6:
                    outside = False
            else:
                held |= 1 << k
                triplets.append(_triplet(k, g.concealed, g.kan))
        self.meld_triplets = triplets
        """The triplets and kans (``_triplet``)."""
        self.meld_sequences = sequences
        self.meld_sequence_mask = mask
        """One bit per lowest kind of a declared sequence."""
        self.meld_sequences_outside = outside
        """Whether every declared sequence holds a terminal (123 or 789)."""
        self.meld_mask = held
        """One bit per kind the sets hold."""
        self.closed = closed
        self.seat_wind = seat_wind
        self.round_wind = round_wind
        self.situation_yaku = situation_yaku
        self.situation_yakuman = situation_yakuman
        self.open_tanyao = open_tanyao
        self.kiriage = kiriage
        """30 fu 4 han and 60 fu 3 han rank as mangan (chip tables)."""


def _triplet(kind: int, concealed: bool, kan: bool) -> int:
    """A triplet or kan as one int: ``kind << 2 | concealed << 1 | kan`` (concealed: 暗刻/暗槓; a
    triplet completed by ron is open, 明刻)."""
    return kind << 2 | (2 if concealed else 0) | (1 if kan else 0)


def best_readings(concealed: list[int], win_kind: int, setting: Setting, ways: tuple[bool, ...],
                  dora_han: int) -> list[Reading | None]:
    """The reading Tenhou scores for each of ``ways`` the hand is won (``True`` a tsumo,
    ``False`` a ron), or ``None`` when the tiles are not a winning hand. The hand's facts, its
    splits and the places of the winning tile are found once for every way.

    ``concealed`` are the 34-kind counts of the concealed tiles (winning tile included).
    ``dora_han`` (dora, red fives, ura, kita) is added to a reading that has a yaku. A reading
    with no yaku is returned with empty ``yaku`` and ``yakuman``: the hand is complete but has
    no yaku (役なし).
    """
    hand = _HandFacts(concealed, win_kind, setting)
    kokushi = seven_pairs = False
    if not setting.has_melds:
        kokushi = _kokushi_shape(concealed)
        seven_pairs = not kokushi and _seven_pairs_shape(concealed)
    readings: list[tuple[int, tuple[tuple[int, int], ...], int]] = []  # (pair, groups, where the winning tile sits)
    for pair, groups in standard_splits(concealed):
        if pair == win_kind:
            readings.append((pair, groups, -1))  # -1: the pair (tanki), else an index into groups
        last_shape = last_kind = -1
        for i, (shape, k) in enumerate(groups):
            if (shape == TRIPLET and k == win_kind) or (shape == SEQUENCE and k <= win_kind <= k + 2):
                # two identical sets give the same reading (the groups are sorted: they are next
                # to each other)
                if shape != last_shape or k != last_kind:
                    readings.append((pair, groups, i))
            last_shape, last_kind = shape, k
    thirteen_orphans = hand.kokushi(concealed, win_kind) if kokushi else None  # the same either way
    kiriage = setting.kiriage
    found: list[Reading | None] = []
    for tsumo in ways:
        best: Reading | None = None
        best_key = -1
        if thirteen_orphans is not None:
            best, best_key = _better(thirteen_orphans, kiriage, best, best_key)
        if seven_pairs:
            best, best_key = _better(hand.seven_pairs(dora_han, tsumo), kiriage, best, best_key)
        for pair, groups, at in readings:
            best, best_key = _better(hand.standard(pair, groups, at, win_kind, dora_han, tsumo), kiriage, best,
                                     best_key)
        found.append(best)
    return found


def _better(reading: Reading, kiriage: bool, best: Reading | None, best_key: int) -> tuple[Reading | None, int]:
    """The better of ``reading`` and ``best`` (ranked by ``best_key``; the first of equals): the
    highest base points, a real yakuman above a kazoe yakuman of the same value, then the most
    han, then the most fu. The rank is one int (base points + 1, yakuman, han, fu), not a tuple."""
    if reading.yakuman:
        key = ((base_points(0, 0, yakuman=len(reading.yakuman)) + 1) * 2 + 1) << 16
    elif reading.yaku:
        key = (((base_points(reading.han, reading.fu, kiriage=kiriage) + 1) * 2) << 16) + (reading.han << 8)
    else:
        key = 0
    key += reading.fu
    if best is None or key > best_key:
        return reading, key
    return best, best_key


def _kokushi_shape(concealed: list[int]) -> bool:
    """Thirteen orphans: 14 tiles, every terminal and honour among them (the kinds first: most
    hands lack one early)."""
    for k in _ORPHANS:
        if not concealed[k]:
            return False
    total = 0
    for n in concealed:
        total += n
    return total == 14


def _seven_pairs_shape(concealed: list[int]) -> bool:
    """Seven pairs: seven kinds held twice, nothing else."""
    pairs = 0
    for n in concealed:
        if n == 2:
            pairs += 1
        elif n:
            return False
    return pairs == 7


class _HandFacts:
    """What does not depend on the reading nor on the way the hand is won (tsumo or ron), worked
    out once per hand."""

    __slots__ = ("setting", "seat_kind", "round_kind", "honors", "all_terminal_honor", "yaku_fixed",
                 "yaku_fixed_tsumo", "yakuman_fixed", "nine_gates")

    def __init__(self, concealed: list[int], win_kind: int, setting: Setting):
        self.setting = setting
        self.seat_kind = 27 + setting.seat_wind
        self.round_kind = 27 + setting.round_wind
        closed = setting.closed
        has_melds = setting.has_melds
        # one bit per kind held, in the sets or concealed, the facts read off it (callgrind,
        # compiled, 3 corpus games' ``analyze_game``: 21 M instructions here against 28 M with the
        # facts tested kind by kind on the counts)
        held = setting.meld_mask
        for k in range(34):
            if concealed[k]:
                held |= 1 << k
        suits = ((1 if held & 0x1FF else 0) | (2 if held & (0x1FF << 9) else 0)
                 | (4 if held & (0x1FF << 18) else 0))  # one bit per suit held
        honors = held >> 27 != 0
        simples = (held & _SIMPLES) != 0
        terminals = (held & _TERMINALS) != 0
        green = (held & _NOT_GREEN) == 0
        one_suit = suits == 1 or suits == 2 or suits == 4
        self.honors = honors
        self.all_terminal_honor = not simples
        self.nine_gates = -1
        """九蓮宝燈's yakuman id for this hand and winning tile, or -1."""
        if closed and not has_melds and one_suit and not honors:
            base = 0 if suits == 1 else 9 if suits == 2 else 18
            nine = True
            pure = True
            for i in range(9):
                n = concealed[base + i]
                if n < _NINE_GATES[i]:
                    nine = False
                    break
                if (n - 1 if base + i == win_kind else n) != _NINE_GATES[i]:
                    pure = False
            if nine:
                self.nine_gates = _JUNSEI_CHUUREN if pure else _CHUUREN
        yaku = list(setting.situation_yaku)
        if not honors and not terminals and (closed or setting.open_tanyao):
            yaku.append(_TANYAO)
        if one_suit:
            yaku.append((_HONITSU if honors else _CHINITSU)[1 if closed else 0])
        self.yaku_fixed = yaku
        """The yaku of every reading won by ron."""
        self.yaku_fixed_tsumo = [_MENZEN_TSUMO, *yaku] if closed else yaku
        """The same won by tsumo: 門前清自摸和 first on a closed hand."""
        yakuman = list(setting.situation_yakuman)
        if not suits:
            yakuman.append(_TSUUIISOU)
        if green:
            yakuman.append(_RYUUIISOU)
        if terminals and not simples and not honors:
            yakuman.append(_CHINROUTOU)
        self.yakuman_fixed = yakuman

    # -- the three shapes ---------------------------------------------------------------------

    def kokushi(self, concealed: list[int], win_kind: int) -> Reading:
        thirteen = concealed[win_kind] == 2  # all 13 kinds were there before the winning tile
        ids = (*self.yakuman_fixed, _KOKUSHI_13 if thirteen else _KOKUSHI)
        return Reading(yaku=(), yakuman=ids, fu=0, fu_parts=0, han=0)

    def seven_pairs(self, dora_han: int, tsumo: bool) -> Reading:
        if self.yakuman_fixed:
            return Reading(yaku=(), yakuman=tuple(self.yakuman_fixed), fu=25, fu_parts=_part(0, _SEVEN_PAIRS), han=0)
        yaku = [*(self.yaku_fixed_tsumo if tsumo else self.yaku_fixed), _CHIITOITSU]
        if self.all_terminal_honor:
            yaku.append(_HONROUTOU)
        return _finish(yaku, 25, _part(0, _SEVEN_PAIRS), dora_han)

    def standard(self, pair: int, split: tuple[tuple[int, int], ...], at: int, win_kind: int,
                 dora_han: int, tsumo: bool) -> Reading:
        setting = self.setting
        closed = setting.closed
        seat_kind, round_kind = self.seat_kind, self.round_kind
        wait = _PAIR_WAIT  # at < 0; else set below
        triplets = list(setting.meld_triplets)
        sequences = setting.meld_sequences
        sequence_mask = setting.meld_sequence_mask
        outside_sequences = setting.meld_sequences_outside
        concealed_sequences = 0
        twice = 0  # each second copy of a concealed sequence closes one pair of them (一盃口)
        open_copy = 0
        for i, (shape, k) in enumerate(split):
            if shape == SEQUENCE:
                sequences += 1
                sequence_mask |= 1 << k
                if k % 9 != 0 and k % 9 != 6:
                    outside_sequences = False
                concealed_sequences += 1
                if open_copy >> k & 1:
                    twice += 1
                open_copy ^= 1 << k
                if i == at:
                    offset = win_kind - k
                    if offset == 1:
                        wait = _KANCHAN
                    elif (offset == 0 and k % 9 == 6) or (offset == 2 and k % 9 == 0):
                        wait = _PENCHAN
                    else:
                        wait = _RYANMEN
            elif i == at:
                wait = _SHANPON
                triplets.append(_triplet(k, tsumo, False))
            else:
                triplets.append(_triplet(k, True, False))
        pinfu = closed and concealed_sequences == 4 and wait == _RYANMEN and not (
            pair >= 31 or pair == seat_kind or pair == round_kind)
        concealed_triplets = kans = dragon_sets = wind_sets = 0
        for t in triplets:
            if t & 2:
                concealed_triplets += 1
            if t & 1:
                kans += 1
            if t >= 31 << 2:
                dragon_sets += 1
            elif t >= 27 << 2:
                wind_sets += 1

        # fu (符)
        details = _part(0, _BASE)
        if pinfu and tsumo:
            fu = 20
        else:
            raw = 20
            if closed and not tsumo:
                details = _part(details, _CLOSED_RON)
                raw += 10
            if tsumo and not pinfu:
                details = _part(details, _TSUMO)
                raw += 2
            if wait <= _PENCHAN:
                details = _part(details, _WAIT_FU + wait)
                raw += 2
            if pair >= 31:
                details = _part(details, _VALUED_PAIR)
                raw += 2
            elif pair == seat_kind and pair == round_kind:
                details = _part(details, _DOUBLE_VALUED_PAIR)
                raw += 4
            elif pair == seat_kind or pair == round_kind:
                details = _part(details, _VALUED_PAIR)
                raw += 2
            for t in triplets:
                part = _SET + (4 if _yaochu(t >> 2) else 0) + (t & 3)
                details = _part(details, part)
                raw += _FU[part]
            if raw == 20:
                details = _part(details, _OPEN_PINFU)  # an open hand without fu is 30 on Tenhou
                raw = 30
            fu = -(-raw // 10) * 10

        # yakuman of this reading
        if (self.yakuman_fixed or concealed_triplets == 4 or dragon_sets == 3 or wind_sets >= 3 or kans == 4
                or self.nine_gates >= 0):
            yakuman = list(self.yakuman_fixed)
            if concealed_triplets == 4:
                yakuman.append(_SUUANKOU_TANKI if wait == _PAIR_WAIT else _SUUANKOU)
            if dragon_sets == 3:
                yakuman.append(_DAISANGEN)
            if wind_sets == 4:
                yakuman.append(_DAISUUSHII)
            elif wind_sets == 3 and 27 <= pair <= 30:
                yakuman.append(_SHOUSUUSHII)
            if kans == 4:
                yakuman.append(_SUUKANTSU)
            if self.nine_gates >= 0:
                yakuman.append(self.nine_gates)
            if yakuman:
                return Reading(yaku=(), yakuman=tuple(yakuman), fu=fu, fu_parts=details, han=0)

        # yaku of this reading
        yaku = list(self.yaku_fixed_tsumo if tsumo else self.yaku_fixed)
        if pinfu:
            yaku.append(_PINFU)
        if closed:
            if twice == 2:
                yaku.append(_RYANPEIKOU)
            elif twice == 1:
                yaku.append(_IIPEIKOU)
        numbers = 0  # one bit per kind of a suit triplet
        outside = _yaochu(pair)
        for t in triplets:
            k = t >> 2
            if k >= 31:
                yaku.append(_DRAGON[k - 31])
            elif k >= 27:
                if k == seat_kind:
                    yaku.append(_SEAT[setting.seat_wind])
                if k == round_kind:
                    yaku.append(_ROUND[setting.round_wind])
            else:
                numbers |= 1 << k
            if outside and not _yaochu(k):
                outside = False
        if sequences:
            if sequences >= 3:
                if sequence_mask & (sequence_mask >> 9) & (sequence_mask >> 18) & 0x1FF:
                    yaku.append(_SANSHOKU[1 if closed else 0])
                if sequence_mask & (sequence_mask >> 3) & (sequence_mask >> 6) & (1 | 1 << 9 | 1 << 18):
                    yaku.append(_ITTSU[1 if closed else 0])
            if outside and outside_sequences:
                if self.honors:
                    yaku.append(_CHANTA[1 if closed else 0])
                else:
                    yaku.append(_JUNCHAN[1 if closed else 0])
        else:
            yaku.append(_TOITOI)
            if self.all_terminal_honor:
                yaku.append(_HONROUTOU)
        if concealed_triplets == 3:
            yaku.append(_SANANKOU)
        if kans == 3:
            yaku.append(_SANKANTSU)
        if numbers & (numbers >> 9) & (numbers >> 18) & 0x1FF:
            yaku.append(_SANSHOKU_DOUKOU)
        if dragon_sets == 2 and pair >= 31:
            yaku.append(_SHOUSANGEN)
        return _finish(yaku, fu, details, dora_han)


def _finish(yaku: list[Entry], fu: int, details: int, dora_han: int) -> Reading:
    if not yaku:
        return Reading(yaku=(), yakuman=(), fu=fu, fu_parts=details, han=0)
    han = dora_han
    for entry in yaku:
        han += entry[1]
    return Reading(yaku=tuple(yaku), yakuman=(), fu=fu, fu_parts=details, han=han)
