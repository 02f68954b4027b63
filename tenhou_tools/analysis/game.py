"""The analysis of a whole game: every discard judged on the board the engine rebuilds.

For each discard of each hand, the board just before it (``replay.fold.board_at``) gives the
discarder's concealed tiles, its melds and what it can see; ``analyze_discard`` judges the
discard on those. A riichi declaration discard also gets its waits (``riichi_summary``), and a
discard that a player won on gets one deal-in per winner (``deal_in``: a double ron gives two).

A hand the engine cannot follow (a damaged or altered log: a discard of a tile the hand does
not hold, a hand of the wrong size) keeps the entries before the point where it stops making
sense; the rest of that hand has none. The analysis never raises on a log that parses.
Definitions: docs/analysis.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..events import Agari, Call, CallKind, Discard, Event, Game, Riichi
from ..replay.fold import board_at
from ..rules.calls import kuikae_forbidden
from .discard import DiscardAnalysis, analyze_discard
from .waits import DealIn, RiichiSummary, deal_in, riichi_summary

_SANMA_MISSING = range(1, 8)
"""Kinds 2m-8m: not in a three-player game's wall."""


@dataclass(frozen=True, slots=True)
class DiscardNote:
    """One discard of a game with its analysis: where it is, what the analysis says, and the
    riichi or deal-in it was part of."""

    hand: int
    """The hand's index in the game (``Hand.index``)."""
    event_index: int
    """The discard's 0-based index in the hand's events (as ``parse`` lists them)."""
    seat: int
    analysis: DiscardAnalysis
    riichi: RiichiSummary | None
    """Set on a riichi declaration discard: the waits after it and how many are left."""
    deal_ins: tuple[DealIn, ...]
    """The wins on this discard (ron; two for a double ron)."""

    def to_json(self) -> dict[str, object]:
        """The entry the HTML page reads (docs/replay-html.md): where, the discard analysis,
        ``riichi``, ``deal_in`` (the first deal-in, or ``None``) and ``deal_ins`` (all)."""
        deal_ins = [d.to_json() for d in self.deal_ins]
        return {
            "hand": self.hand,
            "event_index": self.event_index,
            "seat": self.seat,
            **self.analysis.to_json(),
            "riichi": None if self.riichi is None else self.riichi.to_json(),
            "deal_in": deal_ins[0] if deal_ins else None,
            "deal_ins": deal_ins,
        }


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """Every analysed discard of a game, in game order."""

    discards: tuple[DiscardNote, ...]

    def of_hand(self, hand: int) -> tuple[DiscardNote, ...]:
        return tuple(note for note in self.discards if note.hand == hand)

    def at(self, hand: int, event_index: int) -> DiscardNote | None:
        for note in self.discards:
            if note.hand == hand and note.event_index == event_index:
                return note
        return None

    def to_json(self) -> dict[str, object]:
        """``{"discards": [...]}``: the ``analysis`` member of ``replay --format json`` and of
        the HTML page's document."""
        return {"discards": [note.to_json() for note in self.discards]}


def unseen_from(board_seats: Sequence, dora_indicators: Sequence[int], seat: int, *,
                sanma: bool = False) -> list[int]:
    """Per kind 0-33: 4 minus the copies ``seat`` can see on this board (its own concealed
    tiles, every meld, every pond tile not called away (a called one is in its meld) and the
    dora indicators); never below 0. In a three-player game 2m-8m are 0 (not in the wall)."""
    seen = [0] * 34
    for tile in board_seats[seat].concealed:
        seen[tile >> 2] += 1
    for s in board_seats:
        for meld in s.melds:
            for tile in meld.tiles:
                seen[tile >> 2] += 1
        for pond_tile in s.pond:
            if not pond_tile.called:
                seen[pond_tile.tile >> 2] += 1
    for tile in dora_indicators:
        seen[tile >> 2] += 1
    unseen = [max(0, 4 - c) for c in seen]
    if sanma:
        for k in _SANMA_MISSING:
            unseen[k] = 0
    return unseen


def meld_count(melds: Sequence) -> int:
    """The melds that take a set out of the concealed hand: chi, pon, kans (not kita)."""
    return sum(1 for m in melds if m.kind is not CallKind.KITA)


def analyze_game(game: Game) -> GameAnalysis:
    """Every discard of every hand of ``game`` analysed (see the module's docstring)."""
    sanma = game.header.ruleset.players == 3
    notes: list[DiscardNote] = []
    for position, hand in enumerate(game.hands):
        try:
            notes += _hand_notes(game, position, hand.index, hand.events, sanma)
        except Exception:  # noqa: BLE001 - a log the engine cannot follow gets no more notes for that hand
            continue
    return GameAnalysis(tuple(notes))


def _hand_notes(game: Game, position: int, index: int, events: Sequence[Event], sanma: bool) -> list[DiscardNote]:
    notes: list[DiscardNote] = []
    for i, event in enumerate(events):
        if not isinstance(event, Discard):
            continue
        board = board_at(game, position, i)
        me = board.seats[event.seat]
        previous = events[i - 1] if i else None
        forbidden: frozenset[int] = frozenset()
        if isinstance(previous, Call) and previous.seat == event.seat:
            forbidden = kuikae_forbidden(previous.meld)
        declaring = isinstance(previous, Riichi) and previous.step == 1 and previous.seat == event.seat
        unseen = unseen_from(board.seats, board.dora_indicators, event.seat, sanma=sanma)
        try:
            analysis = analyze_discard(me.concealed, meld_count(me.melds), event.tile, unseen, sanma=sanma,
                                       forbidden=forbidden, in_riichi=me.riichi)
        except ValueError:  # the log does not hold together here: no notes from this point on
            break
        riichi = None
        if declaring:
            after = list(me.concealed)
            after.remove(event.tile)
            riichi = riichi_summary(after, unseen)
        wins = _rons_on(events, i)
        deals = tuple(_deal_in(game, position, events, j, event) for j in wins)
        notes.append(DiscardNote(index, i, event.seat, analysis, riichi, deals))
    return notes


def _rons_on(events: Sequence[Event], i: int) -> list[int]:
    """Indexes of the AGARI events that are rons on the discard at ``i`` (right after it)."""
    found = []
    for j in range(i + 1, len(events)):
        event = events[j]
        if isinstance(event, Agari):
            if not event.is_tsumo:
                found.append(j)
            continue
        break
    return found


def _deal_in(game: Game, position: int, events: Sequence[Event], j: int, discard: Discard) -> DealIn:
    win = events[j]
    assert isinstance(win, Agari)
    board = board_at(game, position, j)
    winner = board.seats[win.who]
    concealed = list(win.hand)
    concealed.remove(win.win_tile)
    open_hand = any(m.kind not in (CallKind.CLOSED_KAN, CallKind.KITA) for m in winner.melds)
    return deal_in(discard.seat, win.who, discard.tile, concealed, riichi=winner.riichi,
                   open_hand=open_hand, points=win.points)
