"""Furiten (振聴): when a tenpai hand may not win by ron (tsumo is always allowed).

Pure functions over explicit values: a hand's waits and the tiles that went past it, given as
the events that moved them (a ``Draw``, a ``Discard``, or the ``Call`` of an added kan or a
kita, whose tile others may rob). Sources: GAME_RULES.md §6.7 and the rule list:

- Discard furiten: a winning kind is among the player's own discards, called-away ones
  included; the tiles of one's own added kans and kita are not discards
  (「フリテンは河に捨てられた牌でのみ判定(加槓・抜きでさらした非純手牌を除く)」).
- Same-turn furiten (同巡内フリテン): a winning tile went past (another player's discard, added
  kan tile or kita) since the player's own last discard; passing a ron, a chankan included,
  makes the hand furiten until then (「和了放棄(搶槓を含む)後は同巡フリテン」). It is lifted by
  the player's own discard (「同巡振聴の解消は打牌時」), the one after any call included: the call
  itself lifts nothing (「逆巡副露では解消しない」), but its discard does. The corpus decided: 3
  rons after a reverse-order pon and its discard, on a go-around where a winning tile had gone
  past (games of flagged/), and 26 rons on a kind that had gone past before such a pon, all
  allowed by Tenhou (docs/rules.md).
- Riichi furiten: after riichi, a winning tile that went past (others' tiles, and one's own
  drawn tile not declared as tsumo) makes the hand furiten for the rest of the hand
  (「リーチ後の当たり牌見逃しは以降振聴」).

Waits are by shape (``rules.hand.waits``): a tile that completes the hand without a yaku counts.
In the corpus, a hand that let such a tile go past was offered 20 tiles with a yaku later in the
same go-around and won on none of them (docs/rules.md). Compiled in a compiled install (the replay
asks before every ron and at every exhaustive draw); the value ``Furiten`` is defined in
``rules.values``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from ..events import Call, CallKind, Discard, Draw
from .hand import counts34, waits
from .values import Furiten

__all__ = [
    "Furiten",
    "Passing",
    "discard_furiten",
    "pond_furiten",
    "furiten",
    "furiten_kinds",
    "passed_kind",
    "riichi_furiten",
    "same_turn_furiten",
]

Passing = Draw | Discard | Call
"""An event that moves a tile past the other players: a draw (seen only by the drawer), a
discard, or an added kan or kita call (its tile can be robbed)."""




def passed_kind(event: Passing) -> int:
    """The kind of the tile an event moves: the drawn or discarded tile, the tile added to a
    kan, or the North set aside."""
    if isinstance(event, Call):
        meld = event.meld
        tile = meld.added if meld.kind is CallKind.ADDED_KAN and meld.added is not None else meld.tiles[0]
        return tile >> 2
    return event.tile >> 2


def discard_furiten(wait_kinds: frozenset[int], own_discards: Iterable[Discard]) -> tuple[int, ...]:
    """Winning kinds among the player's own discards (called-away ones included)."""
    return tuple(sorted({d.tile >> 2 for d in own_discards} & wait_kinds))


def pond_furiten(wait_kinds: Iterable[int], pond_kinds: Collection[int]) -> bool:
    """Discard furiten of a whole hand: any of its winning kinds is among the kinds of the
    player's own discards. It is a state of the hand, not of one wait: no wait may then be won
    by ron (the discard analysis values such a hand by tsumo alone)."""
    return any(k in pond_kinds for k in wait_kinds)


def same_turn_furiten(seat: int, wait_kinds: frozenset[int], passed: Iterable[Passing]) -> tuple[int, ...]:
    """Kinds that make ``seat`` same-turn furiten: winning kinds among the tiles other players
    moved past since ``seat``'s own last discard (their draws are hidden and do not count)."""
    return tuple(sorted({k for k in _others_tiles(seat, passed) if k in wait_kinds}))


def riichi_furiten(seat: int, wait_kinds: frozenset[int], passed_since_riichi: Iterable[Passing]) -> tuple[int, ...]:
    """Winning kinds that went past since ``seat``'s riichi was accepted: other players'
    discards, added-kan tiles and kita, and ``seat``'s own draws that were not won on."""
    found = set()
    for event in passed_since_riichi:
        own_draw = type(event) is Draw
        if (event.seat == seat) == own_draw:
            k = passed_kind(event)
            if k in wait_kinds:
                found.add(k)
    return tuple(sorted(found))


def _others_tiles(seat: int, passed: Iterable[Passing]) -> list[int]:
    return [passed_kind(e) for e in passed if e.seat != seat and type(e) is not Draw]


def furiten_kinds(seat: int, concealed: Sequence[int], own_discards: Iterable[Discard],
                  passed_since_discard: Iterable[Passing], passed_since_riichi: Iterable[Passing] | None = None,
                  ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None:
    """``furiten``'s three fields (discard, same-turn, riichi), or ``None`` when
    the hand is not tenpai."""
    wait_kinds = waits(counts34(concealed))
    if not wait_kinds:
        return None
    return (
        discard_furiten(wait_kinds, own_discards),
        same_turn_furiten(seat, wait_kinds, passed_since_discard),
        () if passed_since_riichi is None else riichi_furiten(seat, wait_kinds, passed_since_riichi),
    )


def furiten(seat: int, concealed: Sequence[int], own_discards: Iterable[Discard],
            passed_since_discard: Iterable[Passing],
            passed_since_riichi: Iterable[Passing] | None = None) -> Furiten:
    """All three kinds of furiten for a ``3n + 1`` concealed hand (``passed_since_riichi`` is
    ``None`` when the player is not in riichi). A hand that is not tenpai is never furiten."""
    kinds = furiten_kinds(seat, concealed, own_discards, passed_since_discard, passed_since_riichi)
    if kinds is None:
        return Furiten()
    return Furiten(discard=kinds[0], same_turn=kinds[1], riichi=kinds[2])
