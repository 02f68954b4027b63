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
same go-around and won on none of them (docs/rules.md).
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
    "Passing",
    "discard_furiten",
    "furiten",
    "passed_kind",
    "riichi_furiten",
    "same_turn_furiten",
]


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
            passed_since_discard: Iterable[Passing],
            passed_since_riichi: Iterable[Passing] | None = None) -> Furiten:
    """All three kinds of furiten for a ``3n + 1`` concealed hand (``passed_since_riichi`` is
    ``None`` when the player is not in riichi). A hand that is not tenpai is never furiten.
    (Computed by ``rules._furiten``, compiled in a compiled install.)"""
    kinds = furiten_kinds(seat, concealed, own_discards, passed_since_discard, passed_since_riichi)
    return Furiten() if kinds is None else Furiten(*kinds)
