"""The analysis of a whole game: every discard judged on the table the one fold keeps.

Each hand is walked once through the fold (``replay.fold.walk_hand``); an observer reads the
table state just before each event: before a discard, the discarder's concealed tiles, its
melds, the kinds kuikae forbids and what it can see, and ``analyze_discard`` judges the
discard on those; a riichi declaration discard also gets its waits (``riichi_summary``); a ron
on that discard gives one deal-in per winner (``deal_in``: a double ron gives two). The cost is
linear in the hand: the state is never rebuilt.

A hand the engine cannot follow (a damaged or altered log: a discard of a tile the hand does
not hold, a hand of the wrong size) keeps the entries before the point where it stops making
sense; the rest of that hand has none. The analysis never raises on a log that parses.
Definitions: docs/analysis.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..events import Agari, Call, CallKind, Discard, Draw, Event, Game, Hand, Riichi
from ..replay.fold import walk_hand
from ..replay.state import TableState
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
    """The wins on this discard (ron; two for a double ron): the k-th is the hand's event just
    after the discard and k more (its step: ``step + 1 + k``)."""
    turn_start: int | None = None
    """The step at which the seat's turn that ends in this discard began: its draw or its call
    (a kan's or kita's replacement draw, a riichi declaration, a new dora indicator, a
    disconnect in between keep the turn). ``None``: the discard's own step."""

    @property
    def step(self) -> int:
        """The discard's step: ``event_index + 1``, what ``replay --at HAND:STEP`` takes."""
        return self.event_index + 1

    @property
    def first_step(self) -> int:
        """The first moment that shows this entry: the start of the seat's turn."""
        return self.turn_start if self.turn_start is not None else self.step

    @property
    def last_step(self) -> int:
        """The last moment that shows this entry: the discard, or the last ron on it."""
        return self.step + len(self.deal_ins)

    def ron_step(self, k: int) -> int:
        """The step of the ron of ``deal_ins[k]``: before it, the winner's wait is hidden."""
        return self.step + 1 + k

    def to_json(self) -> dict[str, object]:
        """The entry the HTML page reads (docs/replay-html.md): where (``step`` is
        ``event_index + 1``; ``first_step`` to ``last_step`` the moments that show the entry),
        the discard analysis, ``riichi``, ``deal_in`` (the first deal-in, or ``None``) and
        ``deal_ins`` (all)."""
        deal_ins = [d.to_json() for d in self.deal_ins]
        return {
            "hand": self.hand,
            "event_index": self.event_index,
            "step": self.step,
            "first_step": self.first_step,
            "last_step": self.last_step,
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

    def at_moment(self, hand: Hand, step: int) -> DiscardNote | None:
        """The entry a view shows at ``step`` of ``hand`` (0 the deal, k after its k-th event):
        the discard of the seat whose turn it is, from the draw or call that began the turn (a
        kan, a kita, their replacement draws, a riichi declaration, a new dora indicator or a
        disconnect in between) to the discard, and at the rons on it."""
        for note in self.discards:
            if note.hand == hand.index and note.first_step <= step <= note.last_step:
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
    return _unseen(seen, dora_indicators, sanma)


def unseen_in(state: TableState, seat: int) -> list[int]:
    """``unseen_from`` on the table state itself (the same counts, without taking a board)."""
    seen = [0] * 34
    for tile in state.seats[seat].concealed:
        seen[tile >> 2] += 1
    for s in state.seats[:state.players]:
        for meld in s.melds:
            for tile in meld.tiles:
                seen[tile >> 2] += 1
        called = s.called_away
        for i, discard in enumerate(s.pond):
            if i not in called:
                seen[discard.tile >> 2] += 1
    return _unseen(seen, state.dora, state.players == 3)


def _unseen(seen: list[int], dora_indicators: Sequence[int], sanma: bool) -> list[int]:
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
        observer = _HandNotes(hand.index, sanma)
        try:
            walk_hand(game, position, observer)
        except _Stop:
            pass
        except Exception:  # noqa: BLE001 - a log the engine cannot follow gets no more notes for that hand
            pass
        notes += observer.notes()
    return GameAnalysis(tuple(notes))


class _Stop(Exception):
    """The log stops making sense in this hand: no more notes from here."""


class _Pending:
    """A discard's note while the rons on it are still to come."""

    __slots__ = ("deal_ins", "event_index", "riichi", "seat", "analysis", "turn_start")

    def __init__(self, event_index: int, seat: int, analysis: DiscardAnalysis, riichi: RiichiSummary | None,
                 turn_start: int) -> None:
        self.event_index = event_index
        self.seat = seat
        self.analysis = analysis
        self.riichi = riichi
        self.turn_start = turn_start
        self.deal_ins: list[DealIn] = []


class _HandNotes:
    """The observer that judges each discard of one hand on the state before it."""

    def __init__(self, hand_index: int, sanma: bool) -> None:
        self.hand_index = hand_index
        self.sanma = sanma
        self.pending: list[_Pending] = []
        self.open = False
        """The last note's discard is the last event: a ron now is made on it."""
        self.turn_seat = -1
        """The seat whose turn it is (from its draw or call to its discard); -1 between turns."""
        self.turn_start = 0
        """The step at which that turn began."""

    def before(self, state: TableState, index: int, event: Event) -> None:
        if isinstance(event, Draw | Call) or (isinstance(event, Riichi) and event.step == 1):
            if event.seat != self.turn_seat:
                self.turn_seat, self.turn_start = event.seat, index + 1
        if isinstance(event, Discard):
            self.discard(state, index, event)
            self.turn_seat = -1
            return
        if isinstance(event, Agari):
            if self.open and not event.is_tsumo:
                self.pending[-1].deal_ins.append(self.deal_in(state, event))
            return
        self.open = False

    def discard(self, state: TableState, index: int, event: Discard) -> None:
        seat = event.seat
        me = state.seats[seat]
        unseen = unseen_in(state, seat)
        try:
            analysis = analyze_discard(me.concealed, meld_count(me.melds), event.tile, unseen, sanma=self.sanma,
                                       forbidden=state.kuikae, in_riichi=me.riichi == 2)
        except ValueError:  # the log does not hold together here: no notes from this point on
            raise _Stop from None
        riichi = None
        if state.riichi_discard_due == seat:  # the riichi declaration discard
            after = list(me.concealed)
            after.remove(event.tile)
            riichi = riichi_summary(after, unseen)
        start = self.turn_start if self.turn_seat == seat else index + 1
        self.pending.append(_Pending(index, seat, analysis, riichi, start))
        self.open = True

    @staticmethod
    def deal_in(state: TableState, win: Agari) -> DealIn:
        winner = state.seats[win.who]
        concealed = list(win.hand)
        concealed.remove(win.win_tile)
        open_hand = any(m.kind not in (CallKind.CLOSED_KAN, CallKind.KITA) for m in winner.melds)
        return deal_in(win.from_who, win.who, win.win_tile, concealed, riichi=winner.riichi == 2,
                       open_hand=open_hand, points=win.points)

    def notes(self) -> list[DiscardNote]:
        return [DiscardNote(self.hand_index, p.event_index, p.seat, p.analysis, p.riichi, tuple(p.deal_ins),
                            turn_start=p.turn_start) for p in self.pending]
