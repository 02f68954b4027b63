"""Waits: a riichi's waits and how many are left, and a deal-in (who dealt what into whose wait),
as values; ``waits_text`` writes waits in tile notation. The views put them in words (the text
view's ``cli.analysis_render``: "S1 dealt 7p into S3's 4-7p wait (riichi, 8,000)"; the replay
page's script). Pure functions on explicit inputs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..rules.hand import counts34
from ..rules.hand import waits as hand_waits
from ..rules.values import DangerClass
from ..tiles import suit_and_number
from .values import DealIn, RiichiSummary


def waits_text(kinds: Iterable[int]) -> str:
    """Waits in tile notation, one suit letter per suit: ``4-7p``, ``1-4-7m``, ``5p-2z``."""
    groups: dict[str, list[str]] = {}
    for k in sorted(set(kinds)):
        suit, number = suit_and_number(k)
        groups.setdefault(suit, []).append(str(number))
    return "-".join("-".join(numbers) + suit for suit, numbers in groups.items()) or "no"


def riichi_summary(concealed: Sequence[int], unseen: Sequence[int]) -> RiichiSummary:
    """The summary of a riichi: ``concealed`` is the hand after the riichi discard (tile ids,
    3n+1), ``unseen`` per kind 4 minus the copies the riichi seat can see."""
    found = tuple(sorted(hand_waits(counts34(concealed))))
    return RiichiSummary(found, tuple(unseen[k] for k in found))


def deal_in(
    discarder: int,
    winner: int,
    tile: int,
    winner_concealed: Sequence[int],
    *,
    riichi: bool,
    open_hand: bool,
    points: int,
    tile_class: DangerClass | None = None,
) -> DealIn:
    """A deal-in from explicit inputs: ``winner_concealed`` is the winner's concealed hand
    without the tile won on (tile ids, 3n+1); its waits are computed here."""
    found = tuple(sorted(hand_waits(counts34(winner_concealed))))
    return DealIn(discarder, winner, tile, found, riichi, open_hand, points, tile_class)
