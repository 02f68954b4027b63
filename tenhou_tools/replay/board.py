"""A frozen snapshot of the table at one moment of a hand (what ``replay --at HAND:STEP`` shows).

The replay's own table (``replay._table``) is mutable and private; ``Table.board()`` turns it into
these values, cheaply and only when asked for.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..events import Meld
from ..rules.furiten import Furiten


@dataclass(frozen=True, slots=True)
class PondTile:
    """One discard in a pond (kawa)."""

    tile: int
    tsumogiri: bool
    """The tile just drawn was discarded."""
    riichi: bool
    """The riichi declaration discard (shown sideways)."""
    called: bool
    """Another player called it (it stays in the pond for furiten)."""


@dataclass(frozen=True, slots=True)
class SeatBoard:
    """One seat at one moment."""

    seat: int
    concealed: tuple[int, ...]
    """The tiles in hand, in the order they came (a drawn tile last)."""
    melds: tuple[Meld, ...]
    pond: tuple[PondTile, ...]
    score: int
    """Points now (a riichi stick already paid is off the score)."""
    riichi: bool
    """In riichi (the stick is paid)."""
    furiten: Furiten
    """For a hand waiting on a tile (not between a draw and a discard); empty when not tenpai."""


@dataclass(frozen=True, slots=True)
class Board:
    """The table at one moment of a hand (what ``replay --at HAND:STEP`` shows)."""

    round: int
    dealer: int
    honba: int
    sticks: int
    dora_indicators: tuple[int, ...]
    live_remaining: int
    """Tiles left to draw from the live wall."""
    seats: tuple[SeatBoard, ...]
    """One per player (three in a three-player game)."""
