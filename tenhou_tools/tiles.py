"""Tiles: ids 0-135, kinds 0-33, red fives, a compact notation and unicode glyphs.

A tile *id* (``Tile``) names one physical tile: ``id // 4`` is its *kind* (``Kind``, 0-33) and
``id % 4`` its copy. Kinds 0-8 are 1m-9m (manzu), 9-17 are 1p-9p (pinzu), 18-26 are 1s-9s (souzu),
27-30 the winds East, South, West, North and 31-33 the dragons haku, hatsu, chun.

Red fives (aka dora) are copy 0 of each five: ids 16 (5m), 52 (5p) and 88 (5s). In a game
without red fives these ids are ordinary fives.

The notation writes tiles grouped by suit, digits then the suit letter: ``"123m406p789s1122z"``.
``0`` is a red five; honours are ``1z``-``7z`` (East, South, West, North, haku, hatsu, chun).
``parse_tiles`` assigns concrete ids (the lowest free non-red copy, copy 0 only for ``0``) and
``format_tiles`` writes ids back in a canonical order, so ``format_tiles(parse_tiles(s)) == s``
for every canonical string ``s``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NewType

Tile = NewType("Tile", int)
"""A physical tile, 0-135 (136-format)."""
Kind = NewType("Kind", int)
"""A tile kind, 0-33 (34-format)."""

NUM_TILES = 136
NUM_KINDS = 34
RED_FIVES: frozenset[int] = frozenset({16, 52, 88})
SUITS = "mps"
HONOR_NAMES = ("East", "South", "West", "North", "Haku", "Hatsu", "Chun")
EAST, SOUTH, WEST, NORTH, HAKU, HATSU, CHUN = range(27, 34)
WIND_KINDS = (EAST, SOUTH, WEST, NORTH)
DRAGON_KINDS = (HAKU, HATSU, CHUN)
TERMINAL_KINDS = (0, 8, 9, 17, 18, 26)
"""The 1 and 9 of each suit (routouhai)."""
ORPHAN_KINDS = (*TERMINAL_KINDS, *WIND_KINDS, *DRAGON_KINDS)
"""The thirteen kinds of kokushi musou, in kind order: the terminals and the honours
(yaochuuhai)."""
TERMINAL_HONOR_KINDS: frozenset[int] = frozenset(ORPHAN_KINDS)
SANMA_MISSING_KINDS: frozenset[int] = frozenset(range(1, 8))
"""Kinds 2m-8m, which three-player (sanma) games do not use."""


_SANMA_UNUSED_TILES: range = range(4 * min(SANMA_MISSING_KINDS), 4 * max(SANMA_MISSING_KINDS) + 4)


def unused_tiles(players: int) -> range:
    """The tile ids a game of ``players`` does not use: the four copies of each of
    ``SANMA_MISSING_KINDS`` (2m-8m, ids 4-31) in a three-player (sanma) game, none in four-player.
    (Asked at every hand's deal: the range is worked out once.)"""
    return _SANMA_UNUSED_TILES if players == 3 else range(0)


def kind(tile: int) -> int:
    """The kind (0-33) of a tile id."""
    return tile >> 2


def is_red(tile: int) -> bool:
    """Whether a tile id is a red five (aka dora) in a game that plays with red fives."""
    return tile in RED_FIVES


def is_terminal_or_honor(k: int) -> bool:
    """Yaochuuhai: 1 and 9 of each suit and every honour."""
    return k in TERMINAL_HONOR_KINDS


def is_honor(k: int) -> bool:
    return k >= 27


def suit_and_number(k: int) -> tuple[str, int]:
    """``(suit letter, number)`` of a kind; honours are suit ``z`` numbered 1-7."""
    if k >= 27:
        return "z", k - 26
    return SUITS[k // 9], k % 9 + 1


def yakuhai_kinds(round_wind: int, seat_wind: int) -> frozenset[int]:
    """The honour kinds whose triplet is a yaku for a seat: the three dragons, the round's wind
    and the seat's own wind (0 East ... 3 North; one kind when they are the same)."""
    return frozenset({31, 32, 33, 27 + round_wind, 27 + seat_wind})


def dora_kind(indicator_kind: int, *, sanma: bool = False) -> int:
    """The dora kind that an indicator kind points to.

    Suits wrap 9 -> 1, winds E -> S -> W -> N -> E, dragons haku -> hatsu -> chun -> haku. In
    three-player games 2m-8m do not exist, so the 1m indicator makes 9m the dora and 9m makes 1m.
    """
    if indicator_kind < 27:
        if sanma and indicator_kind == 0:
            return 8
        base, number = divmod(indicator_kind, 9)
        return base * 9 + (number + 1) % 9
    if indicator_kind < 31:
        return 27 + (indicator_kind - 27 + 1) % 4
    return 31 + (indicator_kind - 31 + 1) % 3


class NotationError(ValueError):
    """A tile string is not valid notation."""


def parse_tiles(text: str) -> list[int]:
    """Tile ids for a notation string such as ``"123m406p789s1122z"``.

    Each digit takes the lowest copy of its kind not used yet, skipping copy 0 of a five (the
    red one), which only ``0`` takes. Raises ``NotationError`` on bad input or a fifth copy.
    """
    used: dict[int, set[int]] = {}
    result: list[int] = []
    pending: list[str] = []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            pending.append(ch)
            continue
        if ch not in "mpsz":
            raise NotationError(f"unexpected character {ch!r} in tile string {text!r}")
        if not pending:
            raise NotationError(f"suit letter {ch!r} without digits in {text!r}")
        for digit in pending:
            result.append(_take(ch, int(digit), used, text))
        pending.clear()
    if pending:
        raise NotationError(f"digits without a suit letter at the end of {text!r}")
    return result


def _take(suit: str, number: int, used: dict[int, set[int]], text: str) -> int:
    if suit == "z":
        if not 1 <= number <= 7:
            raise NotationError(f"honour {number}z does not exist (1z-7z) in {text!r}")
        k = 26 + number
        copies: tuple[int, ...] = (0, 1, 2, 3)
    elif number == 0:
        k, copies = SUITS.index(suit) * 9 + 4, (0,)
    else:
        k = SUITS.index(suit) * 9 + number - 1
        copies = (1, 2, 3) if number == 5 else (0, 1, 2, 3)
    taken = used.setdefault(k, set())
    for copy in copies:
        if copy not in taken:
            taken.add(copy)
            return k * 4 + copy
    raise NotationError(f"too many copies of {number}{suit} in {text!r}")


def _sort_key(tile: int) -> tuple[int, int]:
    # Red five first among its fives, then the other copies: "0556p".
    return (tile >> 2, 0 if tile in RED_FIVES else 1)


def format_tiles(tiles: Iterable[int], *, red: bool = True) -> str:
    """Canonical notation for tile ids (sorted by kind, red five written ``0`` first).

    With ``red=False`` (a game without red fives) ids 16/52/88 are written as plain ``5``.
    """
    groups: dict[str, list[str]] = {}
    for tile in sorted(tiles, key=_sort_key):
        suit, number = suit_and_number(tile >> 2)
        digit = "0" if red and tile in RED_FIVES else str(number)
        groups.setdefault(suit, []).append(digit)
    return "".join("".join(groups[s]) + s for s in "mpsz" if s in groups)


def tile_name(tile: int, *, red: bool = True) -> str:
    """Notation of one tile id, e.g. ``"0p"`` (red five) or ``"3z"``."""
    return format_tiles((tile,), red=red)


def kind_name(k: int) -> str:
    """Notation of one kind, e.g. ``"5m"`` or ``"7z"``."""
    suit, number = suit_and_number(k)
    return f"{number}{suit}"


# Unicode Mahjong Tiles block: winds and dragons (chun, hatsu, haku) first, then man, sou, pin.
_GLYPHS: tuple[str, ...] = tuple(
    [chr(0x1F007 + i) for i in range(9)]  # 1m-9m
    + [chr(0x1F019 + i) for i in range(9)]  # 1p-9p
    + [chr(0x1F010 + i) for i in range(9)]  # 1s-9s
    + [chr(0x1F000 + i) for i in range(4)]  # E S W N
    + [chr(0x1F006), chr(0x1F005), chr(0x1F004)]  # haku hatsu chun
)


def glyph(tile: int) -> str:
    """The unicode glyph of a tile id (red fives share the glyph of the five)."""
    return _GLYPHS[tile >> 2]


def glyphs(tiles: Iterable[int]) -> str:
    """Glyphs of tile ids in canonical order."""
    return "".join(_GLYPHS[t >> 2] for t in sorted(tiles, key=_sort_key))
