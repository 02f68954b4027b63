"""Furiten, the computation behind ``rules.furiten`` (import from there): in a private module so
a compiled install compiles it (the replay asks before every ron and at every exhaustive draw).
The value (``Furiten``) is ``rules.furiten``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from ..events import Call, CallKind, Discard, Draw
from ._counts import counts34
from .hand import waits

Passing = Draw | Discard | Call
"""An event that moves a tile past the other players: a draw (seen only by the drawer), a
discard, or an added kan or kita call (its tile can be robbed)."""


_ADDED_KAN: Final = CallKind.ADDED_KAN
_CALL: Final = Call
_DRAW: Final = Draw


def passed_kind(event: Passing) -> int:
    """The kind of the tile an event moves: the drawn or discarded tile, the tile added to a
    kan, or the North set aside."""
    if isinstance(event, _CALL):
        meld = event.meld
        tile = meld.added if meld.kind is _ADDED_KAN and meld.added is not None else meld.tiles[0]
        return tile >> 2
    return event.tile >> 2


def discard_furiten(wait_kinds: frozenset[int], own_discards: Iterable[Discard]) -> tuple[int, ...]:
    """Winning kinds among the player's own discards (called-away ones included)."""
    return tuple(sorted({d.tile >> 2 for d in own_discards} & wait_kinds))


def same_turn_furiten(seat: int, wait_kinds: frozenset[int], passed: Iterable[Passing]) -> tuple[int, ...]:
    """Kinds that make ``seat`` same-turn furiten: winning kinds among the tiles other players
    moved past since ``seat``'s own last discard (their draws are hidden and do not count)."""
    return tuple(sorted({k for k in _others_tiles(seat, passed) if k in wait_kinds}))


def riichi_furiten(seat: int, wait_kinds: frozenset[int], passed_since_riichi: Iterable[Passing]) -> tuple[int, ...]:
    """Winning kinds that went past since ``seat``'s riichi was accepted: other players'
    discards, added-kan tiles and kita, and ``seat``'s own draws that were not won on."""
    found = set()
    for event in passed_since_riichi:
        own_draw = type(event) is _DRAW
        if (event.seat == seat) == own_draw:
            k = passed_kind(event)
            if k in wait_kinds:
                found.add(k)
    return tuple(sorted(found))


def _others_tiles(seat: int, passed: Iterable[Passing]) -> list[int]:
    return [passed_kind(e) for e in passed if e.seat != seat and type(e) is not _DRAW]


def furiten_kinds(seat: int, concealed: Sequence[int], own_discards: Iterable[Discard],
                  passed_since_discard: Iterable[Passing], passed_since_riichi: Iterable[Passing] | None = None,
                  ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None:
    """``rules.furiten.furiten``'s three fields (discard, same-turn, riichi), or ``None`` when
    the hand is not tenpai."""
    wait_kinds = waits(counts34(concealed))
    if not wait_kinds:
        return None
    return (
        discard_furiten(wait_kinds, own_discards),
        same_turn_furiten(seat, wait_kinds, passed_since_discard),
        () if passed_since_riichi is None else riichi_furiten(seat, wait_kinds, passed_since_riichi),
    )
