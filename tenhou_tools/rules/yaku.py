"""Tenhou's yaku ids (0-54) with English and Japanese names, as ``AGARI yaku``/``yakuman`` use them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class YakuId(IntEnum):
    """Tenhou yaku ids, as ``AGARI yaku`` / ``AGARI yakuman`` write them (YAKU_SCORING §4.1)."""

    MENZEN_TSUMO = 0
    """門前清自摸和: fully concealed self-draw."""
    RIICHI = 1
    """立直."""
    IPPATSU = 2
    """一発."""
    CHANKAN = 3
    """槍槓: robbing a kan."""
    RINSHAN = 4
    """嶺上開花: win on the replacement tile."""
    HAITEI = 5
    """海底摸月: tsumo on the last tile."""
    HOUTEI = 6
    """河底撈魚: ron on the last discard."""
    PINFU = 7
    """平和."""
    TANYAO = 8
    """断幺九: all simples."""
    IIPEIKOU = 9
    """一盃口."""
    SEAT_EAST = 10
    """自風 東."""
    SEAT_SOUTH = 11
    """自風 南."""
    SEAT_WEST = 12
    """自風 西."""
    SEAT_NORTH = 13
    """自風 北."""
    ROUND_EAST = 14
    """場風 東."""
    ROUND_SOUTH = 15
    """場風 南."""
    ROUND_WEST = 16
    """場風 西."""
    ROUND_NORTH = 17
    """場風 北."""
    HAKU = 18
    """役牌 白."""
    HATSU = 19
    """役牌 發."""
    CHUN = 20
    """役牌 中."""
    DOUBLE_RIICHI = 21
    """両立直."""
    CHIITOITSU = 22
    """七対子: seven pairs."""
    CHANTA = 23
    """混全帯幺九."""
    ITTSU = 24
    """一気通貫."""
    SANSHOKU = 25
    """三色同順."""
    SANSHOKU_DOUKOU = 26
    """三色同刻."""
    SANKANTSU = 27
    """三槓子."""
    TOITOI = 28
    """対々和."""
    SANANKOU = 29
    """三暗刻."""
    SHOUSANGEN = 30
    """小三元."""
    HONROUTOU = 31
    """混老頭."""
    RYANPEIKOU = 32
    """二盃口."""
    JUNCHAN = 33
    """純全帯幺九."""
    HONITSU = 34
    """混一色."""
    CHINITSU = 35
    """清一色."""
    RENHOU = 36
    """人和 (never awarded on Tenhou)."""
    TENHOU = 37
    """天和."""
    CHIIHOU = 38
    """地和."""
    DAISANGEN = 39
    """大三元."""
    SUUANKOU = 40
    """四暗刻."""
    SUUANKOU_TANKI = 41
    """四暗刻単騎 (single yakuman on Tenhou)."""
    TSUUIISOU = 42
    """字一色."""
    RYUUIISOU = 43
    """緑一色."""
    CHINROUTOU = 44
    """清老頭."""
    CHUUREN = 45
    """九蓮宝燈."""
    JUNSEI_CHUUREN = 46
    """純正九蓮宝燈 (single yakuman on Tenhou)."""
    KOKUSHI = 47
    """国士無双."""
    KOKUSHI_13 = 48
    """国士無双１３面 (single yakuman on Tenhou)."""
    DAISUUSHII = 49
    """大四喜 (single yakuman on Tenhou)."""
    SHOUSUUSHII = 50
    """小四喜."""
    SUUKANTSU = 51
    """四槓子."""
    DORA = 52
    """ドラ, including kita (抜きドラ) in three-player games."""
    URA_DORA = 53
    """裏ドラ: listed with 0 han for every riichi winner."""
    AKA_DORA = 54
    """赤ドラ: red fives."""


@dataclass(frozen=True, slots=True)
class YakuInfo:
    id: int
    name: str
    """English name (romaji where the field uses it)."""
    name_ja: str
    closed_han: int | None
    """Han when closed; ``None`` for yakuman and the counted dora entries."""
    open_han: int | None
    """Han when open; ``None`` when the yaku needs a closed hand (or is a yakuman / counted)."""
    yakuman: bool = False


_TABLE = [
    (0, "menzen tsumo", "門前清自摸和", 1, None),
    (1, "riichi", "立直", 1, None),
    (2, "ippatsu", "一発", 1, None),
    (3, "chankan", "槍槓", 1, 1),
    (4, "rinshan kaihou", "嶺上開花", 1, 1),
    (5, "haitei", "海底摸月", 1, 1),
    (6, "houtei", "河底撈魚", 1, 1),
    (7, "pinfu", "平和", 1, None),
    (8, "tanyao", "断幺九", 1, 1),
    (9, "iipeikou", "一盃口", 1, None),
    (10, "seat wind East", "自風 東", 1, 1),
    (11, "seat wind South", "自風 南", 1, 1),
    (12, "seat wind West", "自風 西", 1, 1),
    (13, "seat wind North", "自風 北", 1, 1),
    (14, "round wind East", "場風 東", 1, 1),
    (15, "round wind South", "場風 南", 1, 1),
    (16, "round wind West", "場風 西", 1, 1),
    (17, "round wind North", "場風 北", 1, 1),
    (18, "haku", "役牌 白", 1, 1),
    (19, "hatsu", "役牌 發", 1, 1),
    (20, "chun", "役牌 中", 1, 1),
    (21, "double riichi", "両立直", 2, None),
    (22, "chiitoitsu", "七対子", 2, None),
    (23, "chanta", "混全帯幺九", 2, 1),
    (24, "ittsu", "一気通貫", 2, 1),
    (25, "sanshoku doujun", "三色同順", 2, 1),
    (26, "sanshoku doukou", "三色同刻", 2, 2),
    (27, "sankantsu", "三槓子", 2, 2),
    (28, "toitoi", "対々和", 2, 2),
    (29, "sanankou", "三暗刻", 2, 2),
    (30, "shousangen", "小三元", 2, 2),
    (31, "honroutou", "混老頭", 2, 2),
    (32, "ryanpeikou", "二盃口", 3, None),
    (33, "junchan", "純全帯幺九", 3, 2),
    (34, "honitsu", "混一色", 3, 2),
    (35, "chinitsu", "清一色", 6, 5),
    (36, "renhou", "人和", None, None),
    (37, "tenhou", "天和", None, None),
    (38, "chiihou", "地和", None, None),
    (39, "daisangen", "大三元", None, None),
    (40, "suuankou", "四暗刻", None, None),
    (41, "suuankou tanki", "四暗刻単騎", None, None),
    (42, "tsuuiisou", "字一色", None, None),
    (43, "ryuuiisou", "緑一色", None, None),
    (44, "chinroutou", "清老頭", None, None),
    (45, "chuuren poutou", "九蓮宝燈", None, None),
    (46, "junsei chuuren poutou", "純正九蓮宝燈", None, None),
    (47, "kokushi musou", "国士無双", None, None),
    (48, "kokushi musou 13-wait", "国士無双１３面", None, None),
    (49, "daisuushii", "大四喜", None, None),
    (50, "shousuushii", "小四喜", None, None),
    (51, "suukantsu", "四槓子", None, None),
    (52, "dora", "ドラ", None, None),
    (53, "ura dora", "裏ドラ", None, None),
    (54, "aka dora", "赤ドラ", None, None),
]

YAKU: dict[int, YakuInfo] = {
    row[0]: YakuInfo(*row, yakuman=36 <= row[0] <= 51) for row in _TABLE
}
"""Every Tenhou yaku id. Id 36 (renhou) is listed but Tenhou does not award it."""

DORA_IDS = frozenset({YakuId.DORA, YakuId.URA_DORA, YakuId.AKA_DORA})
"""Dora, ura dora and aka dora: counted han, not yaku (they do not satisfy the one-yaku minimum)."""


def yaku_name(yaku_id: int) -> str:
    info = YAKU.get(yaku_id)
    return info.name if info else f"yaku {yaku_id}"


LIMIT_NAMES = {0: "no limit", 1: "mangan", 2: "haneman", 3: "baiman", 4: "sanbaiman", 5: "yakuman"}
"""``AGARI ten[2]`` (``payments.Limit``) in words: 満貫 mangan, 跳満 haneman, 倍満 baiman,
三倍満 sanbaiman, 役満 yakuman (kazoe yakuman included)."""


def limit_name(limit: int | None) -> str:
    """``mangan`` for 1, ...; ``no limit`` for 0; ``limit 9`` for a value Tenhou never writes."""
    if limit is None:
        return "none"
    return LIMIT_NAMES.get(limit, f"limit {limit}")


def yakuman_names(ids: list[int] | tuple[int, ...]) -> str:
    """``daisangen, tsuuiisou``, or ``none``."""
    return ", ".join(yaku_name(y) for y in ids) or "none"


def yaku_difference(expected: list | tuple, actual: list | tuple) -> str:
    """What differs between two ``(yaku id, han)`` lists, yaku by name, for a finding's message:
    ``riichi: 1 han by the rules, the log says 2; tanyao (1 han): in the log, not by the rules``.

    Entries the two lists share are left out; a yaku listed more than once is compared as the
    list of its han values."""
    ours: dict[int, list[int]] = {}
    theirs: dict[int, list[int]] = {}
    for yid, han in expected:
        ours.setdefault(int(yid), []).append(int(han))
    for yid, han in actual:
        theirs.setdefault(int(yid), []).append(int(han))
    parts = []
    for yid in sorted(ours.keys() | theirs.keys()):
        mine, logged = sorted(ours.get(yid, [])), sorted(theirs.get(yid, []))
        if mine == logged:
            continue
        name = yaku_name(yid)
        if not logged:
            parts.append(f"{name} ({_han(mine)}): by the rules, missing from the log")
        elif not mine:
            parts.append(f"{name} ({_han(logged)}): in the log, not by the rules")
        else:
            parts.append(f"{name}: {_han(mine)} by the rules, the log says {_han(logged, unit=False)}")
    return "; ".join(parts) or "the same yaku in another order"


def yaku_list_text(yaku: list | tuple) -> str:
    """``riichi 1, pinfu 1, dora 2`` (han after each name), or ``none``."""
    return ", ".join(f"{yaku_name(int(yid))} {int(han)}" for yid, han in yaku) or "none"


def _han(values: list[int], *, unit: bool = True) -> str:
    text = " and ".join(str(v) for v in values)
    return f"{text} han" if unit else text
