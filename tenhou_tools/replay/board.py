"""A frozen snapshot of the table at one moment of a hand (what ``replay --at HAND:STEP`` shows),
and how a hand ended (``Outcome``): the values read off the table state.

The table state (``replay.state.TableState``) is mutable and belongs to one walk over a hand;
``TableState.board()`` turns it into these values, only when asked for (``replay.fold``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..events import Meld, Owari
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
    step: int
    """The step of the hand at which it was discarded (1 + the discard's index in the hand's
    events): discards of different seats compare by it."""


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
    declared: bool
    """Riichi declared (REACH step 1), accepted or not yet."""
    connected: bool
    """False while the player is disconnected (after ``BYE``: the server plays for them)."""
    furiten: Furiten
    """For a hand waiting on a tile (not between a draw and a discard); empty when not tenpai."""


@dataclass(frozen=True, slots=True)
class Board:
    """The table at one moment of a hand (what ``replay --at HAND:STEP`` shows)."""

    round: int
    dealer: int
    step: int
    """Events of the hand applied (0: just dealt)."""
    honba: int
    sticks: int
    """Riichi sticks on the table (none once a win has taken them)."""
    dora_indicators: tuple[int, ...]
    live_remaining: int
    """Tiles left to draw from the live wall."""
    seats: tuple[SeatBoard, ...]
    """One per player (three in a three-player game)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a hand ended, for the carry-over into the next and the end of the game."""

    scores: tuple[int, ...]
    sticks: int
    """Riichi sticks left on the table for the next hand."""
    honba: int
    round: int
    dealer: int
    renchan: bool
    """The dealer keeps the seat (renchan)."""
    dealer_won: bool
    dealer_tenpai: bool
    abortive: bool
    any_win: bool
    owari: Owari | None = None
    """The final result written on the hand's last end tag, if any."""


@dataclass(frozen=True, slots=True)
class FoldStop:
    """Where the fold could not follow a hand of a log (``replay.fold.follow_hand``): a damaged or
    altered log (a discard of a tile the hand does not hold), or a bug. What came before it
    stands; nothing after it in that hand is known."""

    hand: int
    """The hand's position in the game (``Game.hands``)."""
    event_index: int
    """The 0-based index of the event it stopped at (-1: at the deal)."""
    reason: str
    """The error, as ``Type: message``."""

    def to_json(self) -> dict[str, object]:
        return {"hand": self.hand, "event_index": self.event_index, "reason": self.reason}
