"""What the text views of a game share: how to show it (``View``: from which seat, tiles as
glyphs or notation), tiles as text (``TileWriter``), the styles, and the names of seats, rounds
and events.

``replay_render`` (the whole game), ``board_render`` (one moment, ``--at``) and
``analysis_render`` (the discard analysis) all build on this module; none of them imports
another's view code, so there is no import circle between them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rich.text import Text

from ..events import Agari, Call, CallKind, Discard, Draw, Event, Game, Hand, Meld, NewDora, Riichi, Ryuukyoku
from ..tiles import RED_FIVES, format_tiles, glyph, kind_name
from .term import visible

WINDS = "ESWN"
ROUND_WINDS = ("East", "South", "West", "North")

STYLE_DRAW = "dim"
STYLE_TSUMOGIRI = "dim"
STYLE_RIICHI = "bold red"
STYLE_CALL = "bold cyan"
STYLE_DORA = "yellow"
STYLE_WIN = "bold green"
STYLE_RED_FIVE = "red"
STYLE_OK = "bold green"
STYLE_FAIL = "bold red"

CALL_WORDS = {
    CallKind.CHI: "chi",
    CallKind.PON: "pon",
    CallKind.OPEN_KAN: "kan",
    CallKind.ADDED_KAN: "kakan",
    CallKind.CLOSED_KAN: "ankan",
    CallKind.KITA: "kita",
}


@dataclass(frozen=True, slots=True)
class View:
    """How to show a game: from which seat, and how to write tiles."""

    viewer: int | None = None
    """The seat viewed from (``--seat`` or the URL's ``tw``); ``None``: every seat."""
    all_hands: bool = False
    """Show every seat's concealed tiles even when viewing from a seat."""
    ascii: bool = False
    """Tiles in ``123m`` notation (``0`` a red five) instead of unicode glyphs."""

    def hides(self, seat: int) -> bool:
        """Whether ``seat``'s concealed tiles are hidden in this view."""
        return self.viewer is not None and not self.all_hands and seat != self.viewer


def seat_wind(seat: int, dealer: int, players: int) -> str:
    return WINDS[(seat - dealer) % players]


def round_name(hand: Hand) -> str:
    init = hand.init
    return f"{ROUND_WINDS[init.wind % 4]} {init.hand_number}"


def player_name(game: Game, seat: int) -> str:
    """The seat's name as the text views show it (``term.visible``), or ``S2`` when it has none."""
    return visible(game.header.players[seat].name) or f"S{seat}"


def event_text(event: Event) -> str:
    """A short description of an event, for a finding's location (tiles in notation)."""
    if isinstance(event, Draw):
        return f"S{event.seat} draws {kind_name(event.tile >> 2)}"
    if isinstance(event, Discard):
        return f"S{event.seat} discards {kind_name(event.tile >> 2)}"
    if isinstance(event, Call):
        return f"S{event.seat} {CALL_WORDS[event.meld.kind]} {format_tiles(event.meld.tiles)}"
    if isinstance(event, Riichi):
        return f"S{event.seat} riichi step {event.step}"
    if isinstance(event, NewDora):
        return f"new dora indicator {kind_name(event.tile >> 2)}"
    if isinstance(event, Agari):
        return f"S{event.who} tsumo" if event.is_tsumo else f"S{event.who} ron on S{event.from_who}"
    if isinstance(event, Ryuukyoku):
        return f"draw ({event.kind.value})"
    return type(event).__name__


class TileWriter:
    """Tiles as text: unicode glyphs (a space after each, so wide-drawn glyphs do not overlap;
    red fives in red on a colour terminal) or the ``123m`` notation (``0`` a red five)."""

    def __init__(self, view: View, red: bool):
        self.ascii = view.ascii
        self.red = red

    def one(self, tile: int) -> Text:
        if self.ascii:
            return Text(format_tiles((tile,), red=self.red))
        return Text(glyph(tile), style=STYLE_RED_FIVE if self.red and tile in RED_FIVES else "")

    def many(self, tiles: Iterable[int]) -> Text:
        tiles = list(tiles)
        if self.ascii:
            return Text(format_tiles(tiles, red=self.red))
        out = Text()
        for i, tile in enumerate(sorted(tiles, key=lambda t: (t >> 2, t not in RED_FIVES))):
            if i:
                out.append(" ")
            out.append_text(self.one(tile))
        return out

    def apart(self, tiles: Iterable[int]) -> Text:
        """Tiles one by one, in the order given, a space between (dora indicators: ``2m 6m``)."""
        out = Text()
        for i, tile in enumerate(tiles):
            if i:
                out.append(" ")
            out.append_text(self.one(tile))
        return out

    def kind(self, k: int) -> Text:
        return self.one(k * 4 + 1)  # a copy that is never red

    def kinds(self, kinds: Iterable[int], left: Iterable[int] | None = None) -> Text:
        """Kinds apart (``6p 9p 8s``), each with how many are left when ``left`` gives it
        (``6p:3`` in notation, ``×3`` after a glyph)."""
        counts = list(left) if left is not None else None
        out = Text()
        for i, k in enumerate(kinds):
            if i:
                out.append(" ")
            out.append_text(self.kind(k))
            if counts is not None:
                out.append(f":{counts[i]}" if self.ascii else f"×{counts[i]}")
        return out

    def meld(self, meld: Meld) -> Text:
        word = CALL_WORDS[meld.kind]
        if meld.kind is CallKind.KITA:
            return Text(word, style=STYLE_CALL)
        return Text.assemble((word, STYLE_CALL), " ", self.many(meld.tiles))
