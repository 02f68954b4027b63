"""Waits: a riichi's waits and how many are left, and a deal-in (who dealt what into whose wait),
as values; ``waits_text`` writes waits in tile notation. The views put them in words (the text
view's ``cli.analysis_render``: "S1 dealt 7p into S3's 4-7p wait (riichi, 8,000)"; the replay
page's script). Pure functions on explicit inputs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..rules.danger import DangerClass
from ..rules.hand import counts34
from ..rules.hand import waits as hand_waits
from ..tiles import kind as tile_kind
from ..tiles import suit_and_number


def waits_text(kinds: Iterable[int]) -> str:
    """Waits in tile notation, one suit letter per suit: ``4-7p``, ``1-4-7m``, ``5p-2z``."""
    groups: dict[str, list[str]] = {}
    for k in sorted(set(kinds)):
        suit, number = suit_and_number(k)
        groups.setdefault(suit, []).append(str(number))
    return "-".join("-".join(numbers) + suit for suit, numbers in groups.items()) or "no"


@dataclass(frozen=True, slots=True)
class RiichiSummary:
    """A riichi hand's waits and how many of each are unseen from the riichi seat's view."""

    waits: tuple[int, ...]
    """Kinds 0-33 that complete the hand (by shape: ``rules.hand.waits``)."""
    left: tuple[int, ...]
    """Unseen copies of each wait, in the order of ``waits``."""

    @property
    def total(self) -> int:
        return sum(self.left)

    def to_json(self) -> dict[str, object]:
        return {"waits": list(self.waits), "left": list(self.left), "total": self.total}


def riichi_summary(concealed: Sequence[int], unseen: Sequence[int]) -> RiichiSummary:
    """The summary of a riichi: ``concealed`` is the hand after the riichi discard (tile ids,
    3n+1), ``unseen`` per kind 4 minus the copies the riichi seat can see."""
    found = tuple(sorted(hand_waits(counts34(concealed))))
    return RiichiSummary(found, tuple(unseen[k] for k in found))


@dataclass(frozen=True, slots=True)
class DealIn:
    """A discard that a player won on (ron, 放銃 houjuu): who dealt what into whose wait."""

    discarder: int
    winner: int
    tile: int
    """The tile dealt in (id 0-135)."""
    waits: tuple[int, ...]
    """The winner's waits (kinds 0-33)."""
    riichi: bool
    """The winner had declared riichi."""
    open_hand: bool
    """The winner's hand was open (a called meld); a closed hand without riichi is dama."""
    points: int
    """The win's value without honba and sticks (``AGARI ten``)."""
    tile_class: DangerClass | None = None
    """The dealt tile's danger class against the winner from the discarder's view
    (``rules.danger``), when the winner's riichi declaration discard was out before it."""

    def to_json(self) -> dict[str, object]:
        return {
            "discarder": self.discarder,
            "winner": self.winner,
            "tile": self.tile,
            "kind": tile_kind(self.tile),
            "waits": list(self.waits),
            "riichi": self.riichi,
            "open": self.open_hand,
            "points": self.points,
            "tile_class": None if self.tile_class is None else self.tile_class.value,
        }


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
