"""Tenhou's yaku ids (0-54) with English and Japanese names, as ``AGARI yaku``/``yakuman`` use them."""

from __future__ import annotations

from dataclasses import dataclass


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

DORA_IDS = frozenset({52, 53, 54})
"""Dora, ura dora and aka dora: counted han, not yaku (they do not satisfy the one-yaku minimum)."""


def yaku_name(yaku_id: int) -> str:
    info = YAKU.get(yaku_id)
    return info.name if info else f"yaku {yaku_id}"
