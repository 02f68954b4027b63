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
  the player's own discard, but not by the discard that follows a call made in reverse order
  (「同巡振聴の解消は打牌時、逆巡副露では解消しない」, ``rules.calls.is_reverse_order_call``):
  what went past before such a call still counts, judged on the hand before the call
  (``HeldOver``), until the player's next discard in turn.
- Riichi furiten: after riichi, a winning tile that went past (others' tiles, and one's own
  drawn tile not declared as tsumo) makes the hand furiten for the rest of the hand
  (「リーチ後の当たり牌見逃しは以降振聴」).

Waits are by shape (``rules.hand.waits``): a tile that completes the hand without a yaku counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..events import Call, CallKind, Discard, Draw
from .hand import counts34, waits

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


@dataclass(frozen=True, slots=True)
class HeldOver:
    """What a reverse-order call carries past the caller's next discard: the concealed hand
    just before the call, and the tiles that went past since the caller's last discard that
    lifted same-turn furiten, the called tile included (calling it instead of winning on it is
    passing a ron)."""

    hand: tuple[int, ...]
    passed: tuple[Passing, ...]


def same_turn_furiten(seat: int, wait_kinds: frozenset[int], passed: Iterable[Passing],
                      held_over: Sequence[HeldOver] = ()) -> tuple[int, ...]:
    """Kinds that make ``seat`` same-turn furiten: winning kinds among the tiles other players
    moved past since ``seat``'s own last discard (their draws are hidden and do not count),
    and, for each ``HeldOver`` since a reverse-order call, the kinds that were winning for the
    hand before that call."""
    found = {k for k in _others_tiles(seat, passed) if k in wait_kinds}
    for held in held_over:
        before = waits(counts34(held.hand))
        found.update(k for k in _others_tiles(seat, held.passed) if k in before)
    return tuple(sorted(found))


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


@dataclass(frozen=True, slots=True)
class Furiten:
    """A hand's furiten at one moment, by kind: the winning kinds that cause each (empty when
    that kind of furiten does not apply)."""

    discard: tuple[int, ...] = ()
    same_turn: tuple[int, ...] = ()
    riichi: tuple[int, ...] = ()

    @property
    def any(self) -> bool:
        """The hand may not win by ron now."""
        return bool(self.discard or self.same_turn or self.riichi)


def furiten(seat: int, concealed: Sequence[int], own_discards: Iterable[Discard],
            passed_since_discard: Iterable[Passing], held_over: Sequence[HeldOver] = (),
            passed_since_riichi: Iterable[Passing] | None = None) -> Furiten:
    """All three kinds of furiten for a ``3n + 1`` concealed hand (``passed_since_riichi`` is
    ``None`` when the player is not in riichi). A hand that is not tenpai is never furiten."""
    wait_kinds = waits(counts34(concealed))
    if not wait_kinds:
        return Furiten()
    return Furiten(
        discard_furiten(wait_kinds, own_discards),
        same_turn_furiten(seat, wait_kinds, passed_since_discard, held_over),
        () if passed_since_riichi is None else riichi_furiten(seat, wait_kinds, passed_since_riichi),
    )
