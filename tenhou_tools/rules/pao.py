"""Pao (sekinin barai, 包): the player liable for a daisangen or daisuushii.

Pure function over explicit values. Sources: GAME_RULES.md §6.13 and the rule list's
「大三元/大四喜のパオあり」, 「四槓子のパオなし」.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..events import CallKind, Meld
from ..tiles import DRAGON_KINDS, WIND_KINDS

_SET_KINDS = (CallKind.PON, CallKind.OPEN_KAN, CallKind.ADDED_KAN, CallKind.CLOSED_KAN)
_CALLED_SETS = (CallKind.PON, CallKind.OPEN_KAN, CallKind.ADDED_KAN)


def pao_seat(melds: Sequence[Meld], winner: int, discarder: int | None = None) -> int | None:
    """The seat whose discard the winner called to complete the third dragon set (daisangen) or
    the fourth wind set (daisuushii), counting the winner's melds in call order (an added kan
    keeps its pon's place and discarder). ``None`` when no such call made the yakuman: it was
    completed by a closed kan or is not there.

    ``discarder`` is the seat a ron is made on (``None`` for a tsumo). When the liable player
    deals in the winning tile himself there is no pao either: Tenhou writes no ``paoWho`` and
    the discarder pays the ordinary ron (7 genuine games; every ``paoWho`` Tenhou writes names
    a seat other than ``fromWho``)."""
    for group, need in ((DRAGON_KINDS, 3), (WIND_KINDS, 4)):
        count = 0
        for m in melds:
            if m.kind in _SET_KINDS and (m.tiles[0] >> 2) in group:
                count += 1
                if count == need:
                    if m.kind in _CALLED_SETS and m.from_seat != winner and m.from_seat != discarder:
                        return m.from_seat
                    return None
    return None
