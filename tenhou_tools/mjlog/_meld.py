"""The ``m`` bitfield of ``N`` tags and ``AGARI m``: chi, pon, added kan, open kan, closed kan, kita.

Bit layouts (``docs/events.md`` has them in full): ``m & 3`` is the offset from the caller to the
seat the tile came from (1 shimocha, 2 toimen, 3 kamicha, 0 none). Bit 2 marks a chi, else bit 3
a pon, else bit 4 an added kan, else bit 5 a kita, else it is a kan whose bits 8-15 hold a tile id
(open if the offset is non-zero, closed otherwise).
"""

from __future__ import annotations

# build: a frozen value made by setting its slots (the _native kernel): with the parser's events,
# about 1.15 M of a game's 6.5 M instructions in check_log (scripts/bench_callgrind.py, _parse.py).
from .._native import build
from ..errors import MeldError
from ..events import CallKind, Meld

__all__ = ["MeldError", "decode_meld", "encode_meld"]


def decode_meld(code: int, who: int) -> Meld:
    """Decode ``m`` for the calling seat ``who`` (absolute)."""
    if not 0 <= code <= 0xFFFF:
        raise MeldError(f"meld code {code} is out of range 0-65535")
    rel = code & 3
    from_seat = (who + rel) % 4 if rel else None
    if code & 0x4:
        return _chi(code, from_seat)
    if code & 0x18:
        return _pon_or_added_kan(code, from_seat)
    if code & 0x20:
        tile = code >> 8
        if not 120 <= tile <= 123:
            raise MeldError(f"kita meld {code} holds tile {tile}, not a North (120-123)")
        return build(Meld, kind=CallKind.KITA, tiles=(tile,), called=None, from_seat=None, added=None, code=code)
    tile = code >> 8
    if tile > 135:
        raise MeldError(f"kan meld {code} holds tile {tile}, beyond 135")
    base = tile & ~3
    tiles = (base, base + 1, base + 2, base + 3)
    if rel:
        return build(Meld, kind=CallKind.OPEN_KAN, tiles=tiles, called=tile, from_seat=from_seat, added=None,
                     code=code)
    return build(Meld, kind=CallKind.CLOSED_KAN, tiles=tiles, called=None, from_seat=None, added=None, code=code)


def _chi(code: int, from_seat: int | None) -> Meld:
    if from_seat is None:
        raise MeldError(f"chi meld {code} names no seat it was called from")
    t = code >> 10
    called_index, base = t % 3, t // 3
    if base >= 21:
        raise MeldError(f"chi meld {code} starts beyond 7s")
    first = (base // 7) * 9 + base % 7
    copies = ((code >> 3) & 3, (code >> 5) & 3, (code >> 7) & 3)
    tiles = tuple((first + i) * 4 + copies[i] for i in range(3))
    return build(Meld, kind=CallKind.CHI, tiles=tiles, called=tiles[called_index], from_seat=from_seat, added=None,
                 code=code)


def _pon_or_added_kan(code: int, from_seat: int | None) -> Meld:
    if from_seat is None:
        raise MeldError(f"pon meld {code} names no seat it was called from")
    t = code >> 9
    called_index, k = t % 3, t // 3
    if k > 33:
        raise MeldError(f"pon meld {code} names tile kind {k}, beyond 33")
    unused = (code >> 5) & 3
    pon = tuple(k * 4 + c for c in range(4) if c != unused)
    called = pon[called_index]
    if code & 0x8:
        return build(Meld, kind=CallKind.PON, tiles=pon, called=called, from_seat=from_seat, added=None, code=code)
    added = k * 4 + unused
    tiles = tuple(sorted((*pon, added)))
    return build(Meld, kind=CallKind.ADDED_KAN, tiles=tiles, called=called, from_seat=from_seat, added=added,
                 code=code)


def _required(value: int | None, kind: str, what: str) -> int:
    if value is None:
        raise MeldError(f"cannot encode an {kind} without its {what}")
    return value


def encode_meld(meld: Meld, who: int) -> int:
    """The ``m`` value of a meld (the inverse of ``decode_meld``; closed kans use ``kind*4``)."""
    rel = (meld.from_seat - who) % 4 if meld.from_seat is not None else 0
    kind = meld.tiles[0] >> 2
    if meld.kind is CallKind.CHI:
        called_index = meld.tiles.index(meld.called)
        t = ((kind // 9) * 7 + kind % 9) * 3 + called_index
        copies = [tile & 3 for tile in meld.tiles]
        return (t << 10) | (copies[2] << 7) | (copies[1] << 5) | (copies[0] << 3) | 0x4 | rel
    if meld.kind in (CallKind.PON, CallKind.ADDED_KAN):
        if meld.kind is CallKind.PON:
            present = {tile & 3 for tile in meld.tiles}
            unused = ({0, 1, 2, 3} - present).pop()
            pon = meld.tiles
        else:
            added = _required(meld.added, "added kan", "added tile")
            unused = added & 3
            pon = tuple(t for t in meld.tiles if t != added)
        t = kind * 3 + pon.index(meld.called)
        flag = 0x8 if meld.kind is CallKind.PON else 0x10
        return (t << 9) | (unused << 5) | flag | rel
    if meld.kind is CallKind.KITA:
        return (meld.tiles[0] << 8) | 0x20
    if meld.kind is CallKind.OPEN_KAN:
        return (_required(meld.called, "open kan", "called tile") << 8) | rel
    return (meld.code >> 8 << 8) if meld.code else (kind * 4) << 8
