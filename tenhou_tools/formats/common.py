"""What the tenhou.net/6 and mjai formats share: tile codes and names, and the tile ids a reader
hands out to tiles that a format names only by kind.

Both formats name a tile by its kind (and whether it is a red five), never by its physical copy.
A reader therefore gives each tile that appears in a hand (dealt, drawn, a dora or ura indicator)
a tile id of its own with ``TileIds``: red fives get copy 0 (ids 16, 52, 88), other tiles the
lowest free copy (1-3 for fives when the game has red fives). The ids are consistent within a
hand (a tile keeps its id from draw to discard or call), which is all the engine needs; they are
not the ids of the original mjlog.
"""

from __future__ import annotations

from ..errors import ParseError
from ..tiles import RED_FIVES

FIVE_KINDS = (4, 13, 22)
"""Kinds 5m, 5p, 5s."""


# -- tenhou.net/6 tile codes: 11-19 man, 21-29 pin, 31-39 sou, 41-47 honours, 51-53 red fives ---


def code_of(tile: int, *, red: bool) -> int:
    """The tenhou.net/6 code of a tile id (``red``: the game plays with red fives)."""
    kind = tile >> 2
    if red and tile in RED_FIVES:
        return 51 + kind // 9
    if kind >= 27:
        return 41 + kind - 27
    return 11 + 10 * (kind // 9) + kind % 9


def code_kind(code: int) -> int:
    """The kind (0-33) of a tile code; raises ``ValueError`` for a code that names no tile."""
    if 51 <= code <= 53:
        return FIVE_KINDS[code - 51]
    tens, units = divmod(code, 10)
    if 1 <= tens <= 3 and 1 <= units <= 9:
        return (tens - 1) * 9 + units - 1
    if tens == 4 and 1 <= units <= 7:
        return 27 + units - 1
    raise ValueError(f"{code} is not a tile code")


def code_sort_key(code: int) -> tuple[int, int]:
    """Order of codes inside hands and meld strings: by kind, a red five after the plain fives."""
    return (code_kind(code), 1 if 51 <= code <= 53 else 0)


# -- mjai tile names: "1m".."9m", "1p".., "1s".., "E" "S" "W" "N" "P" "F" "C", "5mr" "5pr" "5sr" --

_HONOR_NAMES = ("E", "S", "W", "N", "P", "F", "C")
_NAME_OF_KIND = tuple(f"{k % 9 + 1}{'mps'[k // 9]}" for k in range(27)) + _HONOR_NAMES
_KIND_OF_NAME = {name: k for k, name in enumerate(_NAME_OF_KIND)}
RED_NAMES = ("5mr", "5pr", "5sr")


def mjai_name(tile: int, *, red: bool) -> str:
    """The mjai name of a tile id (``"5pr"`` for a red five when the game has them)."""
    kind = tile >> 2
    if red and tile in RED_FIVES:
        return RED_NAMES[kind // 9]
    return _NAME_OF_KIND[kind]


def mjai_kind(name: str) -> tuple[int, bool]:
    """``(kind, is red)`` of an mjai tile name; ``ValueError`` for anything else (``"?"`` too)."""
    if name in RED_NAMES:
        return FIVE_KINDS[RED_NAMES.index(name)], True
    kind = _KIND_OF_NAME.get(name)
    if kind is None:
        raise ValueError(f"{name!r} is not an mjai tile name")
    return kind, False


def is_mjai_tile(name: object) -> bool:
    return isinstance(name, str) and (name in _KIND_OF_NAME or name in RED_NAMES)


# -- tile ids for tiles named by kind ------------------------------------------------------------


class TileIds:
    """Hands out a distinct tile id per physical tile of one hand (see the module docstring)."""

    __slots__ = ("red", "used", "source", "where")

    def __init__(self, *, red: bool, source: str, where: str):
        self.red = red
        self.used = [0] * 34
        """Bit mask of the copies of each kind already handed out."""
        self.source = source
        self.where = where

    def new(self, kind: int, is_red: bool) -> int:
        """A fresh id of ``kind`` (the red copy when ``is_red``)."""
        used = self.used[kind]
        copies: tuple[int, ...]
        if is_red:
            if not self.red or kind not in FIVE_KINDS:
                raise ParseError(f"a red five in a game without red fives ({kind})",
                                 source=self.source, where=self.where)
            copies = (0,)
        elif self.red and kind in FIVE_KINDS:
            copies = (1, 2, 3)
        else:
            copies = (0, 1, 2, 3)
        for copy in copies:
            if not used & (1 << copy):
                self.used[kind] = used | (1 << copy)
                return kind * 4 + copy
        raise ParseError(f"more copies of tile kind {kind} than the game has",
                         source=self.source, where=self.where)
