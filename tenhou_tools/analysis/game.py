"""The analysis of a whole game: every discard judged on the table the one fold keeps.

Each hand is walked once through the fold (``replay.fold.walk_hand``); an observer reads the
table state just before each event. Before a discard: the discarder's concealed tiles, its
melds, the kinds kuikae forbids and what it can see, and ``analyze_discard`` gives every
discard's shanten and acceptance on those; against every threat (an opponent in riichi, or one
likely tenpai by its calls and turn) the hand's danger classes (``defence.threats_at``,
from the discarder's view only); every legal discard valued in expected points
(``model.option_values``); and one verdict by the chosen discard's cost against the top
(``verdict.judge``: forced, best, close, loss). A riichi declaration
discard also gets its waits (``riichi_summary``), and a ron on that discard one deal-in per
winner (``deal_in``, with the dealt tile's danger class against a winner in riichi). Each seat's
verdicts add up to a summary (``verdict.summarise``). The cost is linear in the hand: the state
is never rebuilt.

A hand the fold cannot follow (a damaged or altered log: a discard of a tile the hand does not
hold, a hand of the wrong size; or a bug) keeps the entries before the point where it stops
making sense, and the analysis records where and why (``GameAnalysis.stopped``, from
``replay.fold.follow_hand``): the rest of that hand has none, and no caller can miss it. The
analysis never raises on a log that parses.
Definitions: docs/analysis.md.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from functools import partial

from .._native import build
from ..events import Agari, Call, Discard, Draw, Event, Game, Riichi, Ruleset
from ..ids import game_start
from ..replay.fold import FoldStop, follow_hand
from ..replay.state import NOBODY, TableState
from ..rules.danger import visible_counts
from ..rules.game_end import all_last_round, uma
from ..rules.hand import meld_count
from ..rules.riichi import is_closed
from ..rules.scoring import ScoringRules
from .defence import threats_at
from .discard import analyze_discard
from .model import Standing, option_values
from .value import situation_of
from .values import (
    DangerAgainst,
    DealIn,
    DiscardAnalysis,
    DiscardNote,
    GameAnalysis,
    Judgement,
    RiichiSummary,
    ValueSituation,
)
from .verdict import Reason, Verdict, judge, judged_discard, loss_threshold, summarise
from .waits import deal_in, riichi_summary


def visible_in(state: TableState, seat: int) -> list[int]:
    """Per kind 0-33, the copies ``seat`` can see on the table (``rules.danger.visible_counts``:
    its own concealed tiles, every meld, every pond tile not called away (a called one is in its
    meld) and the dora indicators); in a three-player game 2m-8m count 4 (they do not exist)."""
    public = list(state.dora)
    for s in state.seats[:state.players]:
        for meld in s.melds:
            public.extend(meld.tiles)
        called = s.called_away
        pond = s.pond
        for i in range(len(pond)):
            if not called or i not in called:
                public.append(pond[i].tile)
    return visible_counts(state.seats[seat].concealed, public, sanma=state.players == 3)


def unseen_in(state: TableState, seat: int) -> list[int]:
    """Per kind 0-33: 4 minus the copies ``seat`` can see on the table (``visible_in``); in a
    three-player game 2m-8m are 0 (not in the wall)."""
    return [4 - n for n in visible_in(state, seat)]


def final_uma(ruleset: Ruleset, day: date | None) -> tuple[int, ...] | None:
    """Points for each final rank, first to last: the lobby's uma (``rules.game_end.uma``, in
    thousands) with the first place's share the rest; ``None`` where it is not known (a private
    lobby, a chip table, an early East-only game without a date)."""
    if ruleset.chips or ruleset.special:
        return None
    rest = uma(ruleset, day)
    if rest is None:
        return None
    return tuple(1000 * u for u in (-sum(rest), *rest))


def analyze_game(game: Game) -> GameAnalysis:
    """Every discard of every hand of ``game`` analysed and judged (see the module's docstring)."""
    ruleset = game.header.ruleset
    rules = ScoringRules.from_ruleset(ruleset)
    start = game_start(game.log_id)
    standing_uma = final_uma(ruleset, start.date() if start else None)
    notes: list[DiscardNote] = []
    stopped: list[FoldStop] = []
    for position, hand in enumerate(game.hands):
        observer = _HandNotes(hand.index, rules, standing_uma, all_last_round(ruleset))
        followed = follow_hand(game, position, observer)
        if isinstance(followed, FoldStop):
            stopped.append(followed)
        notes += observer.notes()
    rows = [judged_discard(note.seat, note.judgement, note.danger, [d.winner for d in note.deal_ins])
            for note in notes]
    return GameAnalysis(tuple(notes), summarise(rows, game.header.ruleset.players),
                        loss_threshold(game.header.ruleset.players), tuple(stopped))


class _Pending:
    """A discard's note while the rons on it are still to come."""

    __slots__ = ("analysis", "danger", "deal_ins", "event", "event_index", "judgement", "riichi", "seat",
                 "turn_start")

    def __init__(self, event: Discard, event_index: int, seat: int, analysis: DiscardAnalysis,
                 riichi: RiichiSummary | None, judgement: Judgement, danger: tuple[DangerAgainst, ...] | None,
                 turn_start: int) -> None:
        self.event = event
        self.event_index = event_index
        self.seat = seat
        self.analysis = analysis
        self.riichi = riichi
        self.judgement = judgement
        self.danger = danger
        self.turn_start = turn_start
        self.deal_ins: list[DealIn] = []


class _HandNotes:
    """The observer that judges each discard of one hand on the state before it."""

    def __init__(self, hand_index: int, rules: ScoringRules, uma: tuple[int, ...] | None = None,
                 last_round: int = 99) -> None:
        self.hand_index = hand_index
        self.rules = rules
        self.uma = uma
        """Points for each final rank (first to last): the last hand values placement."""
        self.last_round = last_round
        """The all-last round (oorasu): from it on, a hand may be the game's last."""
        self.threshold = loss_threshold(rules.players)
        self.sanma = rules.sanma
        self.pending: list[_Pending] = []
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
        if isinstance(event, Agari) and not event.is_tsumo and self.pending and state.on_offer() \
                and state.last_discard is self.pending[-1].event:  # a ron on the last discard judged
            self.pending[-1].deal_ins.append(self.deal_in(state, event))

    def discard(self, state: TableState, index: int, event: Discard) -> None:
        seat = event.seat
        me = state.seats[seat]
        visible = visible_in(state, seat)
        unseen = [4 - n for n in visible]
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
        threats = threats_at(state, seat, event.tile, visible, sanma=self.sanma)
        kind = event.tile >> 2
        legal = [o for o in analysis.options if o.kind not in state.kuikae or o.kind == kind] or analysis.options
        value_of = partial(option_values, me.concealed, legal, self.situation(state, seat), unseen, threats,
                           chosen=event.tile, turn=len(me.pond) + 1)
        standing = None
        if self.uma is not None and state.init.round >= self.last_round:
            standing = Standing(seat, tuple(state.scores[:state.players]), self.uma)
        judgement = judge(value_of(standing=standing), kind, forced=forced, threshold=self.threshold)
        if standing is not None and judgement.reason is not None:
            plain = judge(value_of(), kind, forced=forced, threshold=self.threshold)
            if plain.verdict is Verdict.BEST or plain.cost_points < judgement.cost_points / 2:
                judgement = replace(judgement, reason=Reason.PLACEMENT)
        start = self.turn_start if self.turn_seat == seat else index + 1
        self.pending.append(_Pending(event, index, seat, analysis, riichi, judgement, threats or None, start))

    def situation(self, state: TableState, seat: int) -> ValueSituation:
        me = state.seats[seat]
        players = state.players
        return situation_of(melds=me.melds, seat_wind=(seat - state.init.dealer) % players,
                            round_wind=state.init.wind, dora_indicators=state.dora,
                            live_remaining=state.live_remaining(), players=players,
                            own_discards=(d.tile for d in me.pond), score=state.scores[seat],
                            declared=me.riichi_discard != NOBODY, rules=self.rules)

    def deal_in(self, state: TableState, win: Agari) -> DealIn:
        winner = state.seats[win.who]
        concealed = list(win.hand)
        concealed.remove(win.win_tile)
        open_hand = not is_closed(winner.melds)
        against = {d.seat: d for d in self.pending[-1].danger or () if d.riichi}
        tile_class = against[win.who].tile_class if win.who in against else None
        return deal_in(win.from_who, win.who, win.win_tile, concealed, riichi=winner.riichi == 2,
                       open_hand=open_hand, points=win.points, tile_class=tile_class)

    def notes(self) -> list[DiscardNote]:
        # ``build``: the frozen dataclass's own __init__ sets each field through
        # object.__setattr__ (callgrind, compiled, 3 corpus games' analyze_game: the notes took
        # 19 M instructions of 1,352 M that way)
        return [build(DiscardNote, hand=self.hand_index, event_index=p.event_index, seat=p.seat, analysis=p.analysis,
                      riichi=p.riichi, deal_ins=tuple(p.deal_ins), judgement=p.judgement, danger=p.danger,
                      turn_start=p.turn_start)
                for p in self.pending]
