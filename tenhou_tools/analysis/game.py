"""The analysis of a whole game: every discard judged on the table the one fold keeps.

Each hand is walked once through the fold (``replay.fold.walk_hand``); an observer reads the
table state just before each event. Before a discard: the discarder's concealed tiles, its
melds, the kinds kuikae forbids and what it can see, and ``analyze_discard`` judges the
discard's efficiency on those; against each opponent in riichi the hand's danger classes
(``defence.danger_against``, from the discarder's view only); at tenpai and one-shanten the
expected value of the chosen and the efficiency-best discards (``value.discard_values``),
further away the value their tiles keep (``value.han_kept``); and one verdict
(``verdict.judge``: forced, best, defence, value, efficiency loss). A riichi declaration
discard also gets its waits (``riichi_summary``), and a ron on that discard one deal-in per
winner (``deal_in``, with the dealt tile's danger class against a winner in riichi). Each seat's
verdicts add up to a summary (``verdict.summarise``). The cost is linear in the hand: the state
is never rebuilt.

A hand the engine cannot follow (a damaged or altered log: a discard of a tile the hand does
not hold, a hand of the wrong size) keeps the entries before the point where it stops making
sense; the rest of that hand has none. The analysis never raises on a log that parses.
Definitions: docs/analysis.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..events import Agari, Call, CallKind, Discard, Draw, Event, Game, Riichi
from ..replay.fold import walk_hand
from ..replay.state import NOBODY, TableState
from ..rules.danger import dora_kinds
from ..rules.scoring import ScoringRules
from .defence import danger_against
from .discard import analyze_discard
from .value import discard_values, han_kept, situation_of
from .values import (
    DangerAgainst,
    DealIn,
    DiscardAnalysis,
    DiscardNote,
    GameAnalysis,
    HandValue,
    Judgement,
    RiichiSummary,
    ValueSituation,
)
from .verdict import judge, judged_discard, summarise, value_may_decide
from .waits import deal_in, riichi_summary

_SANMA_MISSING = range(1, 8)
"""Kinds 2m-8m: not in a three-player game's wall."""

VALUED_SHANTEN = 1
"""The candidates' value is computed at tenpai and one-shanten (shanten after the discard)."""


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


def analyze_game(game: Game, *, explain: bool = True) -> GameAnalysis:
    """Every discard of every hand of ``game`` analysed and judged (see the module's docstring).

    ``explain=False`` leaves out the hand values that only explain a verdict already decided
    (``verdict.value_may_decide``: a discard among the best, a defence, a loss of shanten or of
    more acceptance than a value may cost), so those judgements carry no value. Every verdict
    and the summary are the same (``stats --quality`` reads only those); the value model is most
    of the analysis's cost."""
    rules = ScoringRules.from_ruleset(game.header.ruleset)
    notes: list[DiscardNote] = []
    for position, hand in enumerate(game.hands):
        observer = _HandNotes(hand.index, rules, explain)
        try:
            walk_hand(game, position, observer)
        except Exception:  # noqa: BLE001 - a log the engine cannot follow gets no more notes for that hand
            pass
        notes += observer.notes()
    rows = [judged_discard(note.seat, note.judgement, note.danger, [d.winner for d in note.deal_ins])
            for note in notes]
    return GameAnalysis(tuple(notes), summarise(rows, game.header.ruleset.players))


class _Pending:
    """A discard's note while the rons on it are still to come."""

    __slots__ = ("analysis", "danger", "deal_ins", "event_index", "judgement", "riichi", "seat", "turn_start",
                 "values")

    def __init__(self, event_index: int, seat: int, analysis: DiscardAnalysis, riichi: RiichiSummary | None,
                 judgement: Judgement, danger: tuple[DangerAgainst, ...] | None,
                 values: tuple[tuple[int, HandValue | None], ...], turn_start: int) -> None:
        self.event_index = event_index
        self.seat = seat
        self.analysis = analysis
        self.riichi = riichi
        self.judgement = judgement
        self.danger = danger
        self.values = values
        self.turn_start = turn_start
        self.deal_ins: list[DealIn] = []


class _HandNotes:
    """The observer that judges each discard of one hand on the state before it."""

    def __init__(self, hand_index: int, rules: ScoringRules, explain: bool = True) -> None:
        self.hand_index = hand_index
        self.rules = rules
        self.explain = explain
        """Value the discards among the best too (``analyze_game``)."""
        self.sanma = rules.sanma
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
        forced = me.riichi_discard != NOBODY  # the seat's own riichi declaration discard is out
        # a ValueError here (a tile the hand does not hold, a hand of the wrong size): the log
        # does not hold together, and ``analyze_game`` keeps no more notes of this hand
        analysis = analyze_discard(me.concealed, meld_count(me.melds), event.tile, unseen, sanma=self.sanma,
                                   forbidden=state.kuikae, in_riichi=forced)
        riichi = None
        if state.riichi_discard_due == seat:  # the riichi declaration discard
            after = list(me.concealed)
            after.remove(event.tile)
            riichi = riichi_summary(after, unseen)
        danger = None
        if any(s.riichi_discard != NOBODY for r, s in enumerate(state.seats) if r != seat):
            danger = danger_against(state.board(), seat, event.tile, sanma=self.sanma)
        values: dict[int, HandValue | None] = {}
        kept: dict[int, int] | None = None
        if not forced and (self.explain or value_may_decide(analysis, danger)):
            kinds = [analysis.kind, *(o.kind for o in analysis.best if o.kind != analysis.kind)]
            if min(analysis.shanten_after, analysis.best[0].shanten) <= VALUED_SHANTEN:
                values = discard_values(me.concealed, self.situation(state, seat), unseen, kinds, chosen=event.tile)
            elif analysis.loss is not None:
                kept = self.kept(state, seat, event.tile, kinds)
        judgement = judge(analysis, forced=forced, danger=danger, values=values, kept=kept)
        start = self.turn_start if self.turn_seat == seat else index + 1
        self.pending.append(_Pending(index, seat, analysis, riichi, judgement, danger, tuple(values.items()), start))
        self.open = True

    def situation(self, state: TableState, seat: int) -> ValueSituation:
        me = state.seats[seat]
        players = state.players
        return situation_of(melds=me.melds, seat_wind=(seat - state.init.dealer) % players,
                            round_wind=state.init.wind, dora_indicators=state.dora,
                            live_remaining=state.live_remaining(), players=players,
                            own_discards=(d.tile for d in me.pond), score=state.scores[seat],
                            declared=me.riichi_discard != NOBODY, rules=self.rules)

    def kept(self, state: TableState, seat: int, tile: int, kinds: Sequence[int]) -> dict[int, int]:
        """``value.han_kept`` after discarding each of ``kinds`` (the chosen tile for its kind)."""
        me = state.seats[seat]
        seat_wind = (seat - state.init.dealer) % state.players
        yakuhai = {31, 32, 33, 27 + state.init.wind, 27 + seat_wind}
        dora = dora_kinds(state.dora, sanma=self.sanma)
        found = {}
        for k in kinds:
            rest = list(me.concealed)
            rest.remove(tile if k == tile >> 2 else next(t for t in rest if t >> 2 == k))
            found[k] = han_kept(rest, me.melds, dora, yakuhai, red_fives=self.rules.red_fives)
        return found

    def deal_in(self, state: TableState, win: Agari) -> DealIn:
        winner = state.seats[win.who]
        concealed = list(win.hand)
        concealed.remove(win.win_tile)
        open_hand = any(m.kind not in (CallKind.CLOSED_KAN, CallKind.KITA) for m in winner.melds)
        against = {d.seat: d for d in self.pending[-1].danger or ()}
        tile_class = against[win.who].tile_class if win.who in against else None
        return deal_in(win.from_who, win.who, win.win_tile, concealed, riichi=winner.riichi == 2,
                       open_hand=open_hand, points=win.points, tile_class=tile_class)

    def notes(self) -> list[DiscardNote]:
        return [DiscardNote(self.hand_index, p.event_index, p.seat, p.analysis, p.riichi, tuple(p.deal_ins),
                            p.judgement, p.danger, p.values, turn_start=p.turn_start)
                for p in self.pending]
