"""The vocabulary of tenhou.net/6 JSON: tile codes, the Japanese names of ranks, yaku, limits and
draws, and the patterns of its result strings."""

from __future__ import annotations

import re

from ...events import DAN_NAMES as EVENT_DAN_NAMES
from ...events import (
    DrawKind,
    Room,
)
from ...rules.yaku import YAKU

_FULL_WIDTH_DIGITS = str.maketrans("0123456789", "０１２３４５６７８９")

TSUMOGIRI = 60
"""The discard code of the tile just drawn."""
KITA_CODE = 44

DAN_NAMES = (*(name.translate(_FULL_WIDTH_DIGITS) for name in EVENT_DAN_NAMES[:-1]), "天鳳")
"""Tenhou's rank names (``events.DAN_NAMES``) as the JSON writes them: full-width digits in the kyu
ranks (９級), and 天鳳 for 天鳳位."""

YAKU_NAMES = {info.id: info.name_ja for info in YAKU.values()}
YAKU_IDS = {name: yaku_id for yaku_id, name in YAKU_NAMES.items()}
URA_DORA = 53

LIMIT_NAMES = {1: "満貫", 2: "跳満", 3: "倍満", 4: "三倍満", 5: "役満"}
LIMIT_CODES = {name: code for code, name in LIMIT_NAMES.items()}

DRAW_NAMES = {
    DrawKind.NINE_TERMINALS: "九種九牌",
    DrawKind.FOUR_RIICHI: "四家立直",
    DrawKind.TRIPLE_RON: "三家和了",
    DrawKind.FOUR_KANS: "四槓散了",
    DrawKind.FOUR_WINDS: "四風連打",
    DrawKind.NAGASHI_MANGAN: "流し満貫",
}
WIN = "和了"
EXHAUSTIVE = "流局"
ALL_TENPAI = "全員聴牌"
ALL_NOTEN = "全員不聴"
DRAW_KINDS = {name: kind for kind, name in DRAW_NAMES.items()}
DRAW_KINDS.update({EXHAUSTIVE: DrawKind.EXHAUSTIVE, ALL_TENPAI: DrawKind.EXHAUSTIVE,
                   ALL_NOTEN: DrawKind.EXHAUSTIVE})

_ROOM_CHARS = {"般": Room.IPPAN, "上": Room.JOUKYUU, "特": Room.TOKUJOU, "鳳": Room.HOUOU,
               "若": Room.IPPAN, "銀": Room.JOUKYUU, "琥": Room.TOKUJOU, "孔": Room.HOUOU}
_ROOM_BITS = {Room.IPPAN: 0x00, Room.JOUKYUU: 0x80, Room.TOKUJOU: 0x20, Room.HOUOU: 0xA0}

SEARCH_BUDGET = 50_000
"""Steps the turn-order search may take per hand before the log is declared unreadable (a
real hand needs about 150; ambiguous calls add a few branches each)."""

_TOKEN = re.compile(r"[a-z]?\d\d")
_POINTS = re.compile(r"^(?:(\d+)符(\d+)飜|(満貫|跳満|倍満|三倍満|役満))(\d+)(?:-(\d+))?点(∀)?")
_YAKU = re.compile(r"^(.+)\((?:(\d+)飜|(役満))\)$")
