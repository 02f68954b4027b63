"""Every discard of a parsed game as a position: the seat's concealed tiles before it, its meld
count, the tile, and the counts unseen from that seat's view.

A small tracker of its own (draws add, discards remove, calls take their tiles out of the hand),
independent of the replay engine, for the shanten cross-check and the analysis benchmark. It
checks itself against each win's hand (``AGARI hai``), so a tracking mistake cannot pass unseen.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tenhou_tools.events import Agari, Call, CallKind, Discard, Draw, Game, NewDora


@dataclass(frozen=True, slots=True)
class Position:
    seat: int
    concealed: tuple[int, ...]
    """Tile ids before the discard (3n+2 of them)."""
    melds: int
    """Chi, pon and kans (kita are not melds)."""
    discarded: int
    unseen: tuple[int, ...]
    """Per kind, 4 minus the copies the seat sees: its hand, every pond, meld and dora indicator."""
    sanma: bool


class TrackingError(AssertionError):
    pass


def positions(game: Game) -> Iterator[Position]:
    sanma = game.header.ruleset.sanma
    for hand in game.hands:
        seats = len(hand.init.hands)
        concealed = [list(tiles) for tiles in hand.init.hands]
        melds = [0] * seats
        public = [0] * 34  # ponds, melds, dora indicators: what every seat sees
        public[hand.init.dora_indicator >> 2] += 1
        for event in hand.events:
            if isinstance(event, Draw):
                concealed[event.seat].append(event.tile)
            elif isinstance(event, Discard):
                own = concealed[event.seat]
                seen = public[:]
                for t in own:
                    seen[t >> 2] += 1
                yield Position(event.seat, tuple(own), melds[event.seat], event.tile,
                               tuple(4 - n for n in seen), sanma)
                own.remove(event.tile)
                public[event.tile >> 2] += 1  # into the pond
            elif isinstance(event, Call):
                meld, own = event.meld, concealed[event.seat]
                kind = meld.kind
                if kind is CallKind.ADDED_KAN:
                    taken = [meld.added]
                elif kind in (CallKind.CLOSED_KAN, CallKind.KITA):
                    taken = list(meld.tiles)
                else:  # chi, pon, open kan: the called tile is already public (it was discarded)
                    taken = [t for t in meld.tiles if t != meld.called]
                for t in taken:
                    own.remove(t)
                    public[t >> 2] += 1
                if kind not in (CallKind.ADDED_KAN, CallKind.KITA):
                    melds[event.seat] += 1
            elif isinstance(event, NewDora):
                public[event.tile >> 2] += 1
            elif isinstance(event, Agari):
                held = concealed[event.who] + ([] if event.is_tsumo else [event.win_tile])
                if sorted(held) != sorted(event.hand):
                    raise TrackingError(f"{game.log_id} hand {hand.index}: tracked {sorted(held)}, "
                                        f"AGARI shows {sorted(event.hand)}")
