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

from ..events import Discard
from ._furiten import (
    Passing,
    discard_furiten,
    furiten_kinds,
    passed_kind,
    riichi_furiten,
    same_turn_furiten,
)

__all__ = [
    "Furiten",
    "HeldOver",
    "Passing",
    "discard_furiten",
    "furiten",
    "passed_kind",
    "riichi_furiten",
    "same_turn_furiten",
]


@dataclass(frozen=True, slots=True)
class HeldOver:
    """What a reverse-order call carries past the caller's next discard: the concealed hand
    just before the call, and the tiles that went past since the caller's last discard that
    lifted same-turn furiten, the called tile included (calling it instead of winning on it is
    passing a ron)."""

    hand: tuple[int, ...]
    passed: tuple[Passing, ...]


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
    ``None`` when the player is not in riichi). A hand that is not tenpai is never furiten.
    (Computed by ``rules._furiten``, compiled in a compiled install.)"""
    kinds = furiten_kinds(seat, concealed, own_discards, passed_since_discard, held_over, passed_since_riichi)
    return Furiten() if kinds is None else Furiten(*kinds)
