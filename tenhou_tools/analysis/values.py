"""The analysis's records: the hand values (``value.py`` computes them), a discard's efficiency
(``discard.py``), its danger against each riichi (``defence.py``), a riichi's waits and a
deal-in (``waits.py``), the verdicts and the per-seat summary (``verdict.py``) and a game's
analysis (``game.py``). Each is imported from the module that makes it (``analysis.discard.
DiscardAnalysis``); they live in this plain module because those modules are compiled in a
compiled install, and a class defined there would become a native class (docs/development.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from ..events import Hand, Meld
from ..replay.board import FoldStop
from ..rounding import rounded
from ..rules.danger import safest
from ..rules.game_end import ranking
from ..rules.hand import meld_count
from ..rules.riichi import is_closed
from ..rules.values import TENHOU_4P, Acceptance, Danger, DangerClass, DiscardOption, ScoringRules
from ..tiles import kind as tile_kind

__all__ = [
    "DangerAgainst",
    "DealIn",
    "DiscardAnalysis",
    "DiscardNote",
    "EfficiencyLoss",
    "GameAnalysis",
    "HandValue",
    "JudgedDiscard",
    "Judgement",
    "LossKind",
    "OPTION_FIELDS",
    "OptionValue",
    "Reason",
    "RiichiSummary",
    "ScoreLine",
    "SeatSummary",
    "Standing",
    "ValueSituation",
    "Verdict",
    "WaitValue",
]


@dataclass(frozen=True, slots=True)
class ValueSituation:
    """Everything besides the concealed tiles that a hand's value depends on."""

    melds: tuple[Meld, ...]
    """Every declared meld of the seat (chi, pon, kans, closed kans, kita)."""
    seat_wind: int
    """0 for the dealer."""
    round_wind: int
    dora_indicators: tuple[int, ...]
    draws_left: int
    """The seat's own draws left (about the live wall's tiles over the player count)."""
    in_riichi: bool = False
    """The seat has declared riichi."""
    may_riichi: bool = True
    """A closed hand not in riichi may declare it on reaching tenpai (1,000 points or more and
    enough tiles in the wall): it is then valued as riichi."""
    own_discards: frozenset[int] = frozenset()
    """Kinds in the seat's own pond: a ron on them is furiten."""
    rules: ScoringRules = TENHOU_4P

    @property
    def closed(self) -> bool:
        return is_closed(self.melds)

    @property
    def riichi(self) -> bool:
        """The hand is valued as riichi."""
        return self.in_riichi or (self.closed and self.may_riichi)

    @property
    def sets(self) -> int:
        """Melds that take a set out of the hand (not kita)."""
        return meld_count(self.melds)


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One way to win, as the scorer values it."""

    han: int
    """0 on a yakuman."""
    fu: int
    points: int
    """``ten[1]``: the ron payment, or a tsumo's total of all payments."""
    yakuman: int = 0

    def to_json(self) -> dict[str, int]:
        return {"han": self.han, "fu": self.fu, "points": self.points, "yakuman": self.yakuman}


@dataclass(frozen=True, slots=True)
class WaitValue:
    """One wait of a tenpai hand."""

    kind: int
    left: int
    """Unseen copies."""
    ron: ScoreLine | None
    """``None``: no yaku on a ron, or furiten."""
    tsumo: ScoreLine | None
    """``None``: no yaku on a tsumo."""
    points: float
    """The value of a win on it: the tsumo and ron points mixed by the ron ratio of its tile's
    group (tsumo only when the hand is furiten; ``analysis.value``)."""

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "left": self.left,
            "ron": None if self.ron is None else self.ron.to_json(),
            "tsumo": None if self.tsumo is None else self.tsumo.to_json(),
            "points": rounded(self.points),
        }


@dataclass(frozen=True, slots=True)
class HandValue:
    """The value of a ``3n+1`` hand at tenpai or one-shanten."""

    shanten: int
    tiles: int
    """Tenpai: unseen copies of the waits that score; one-shanten: tiles that reach tenpai."""
    win_points: float
    """The average value of a win (points)."""
    win_chance: float
    """0-1, by the model in the module's docstring."""
    ev: float
    """Expected points: ``win_chance`` x ``win_points``."""
    waits: tuple[WaitValue, ...] = ()
    """Tenpai: every wait (kinds ascending)."""
    furiten: bool = False
    """Tenpai: a wait is among the seat's own discards, so every wait wins by tsumo only."""

    def to_json(self) -> dict[str, object]:
        return {
            "shanten": self.shanten,
            "tiles": self.tiles,
            "win_points": rounded(self.win_points),
            "win_chance": rounded(self.win_chance, 4),
            "ev": rounded(self.ev),
            "furiten": self.furiten,
            "waits": [w.to_json() for w in self.waits],
        }


class LossKind(Enum):
    """How a discard fell short of the best one."""

    SHANTEN = "shanten"
    """It left the hand further from tenpai than the best discard (shanten after is higher)."""
    ACCEPTANCE = "acceptance"
    """Same shanten after, but fewer accepted tiles left (ukeire) than the best discard."""


@dataclass(frozen=True, slots=True)
class EfficiencyLoss:
    """A discard that was not among the best, with the numbers that say by how much."""

    kind: LossKind
    shanten: int
    """Shanten after the chosen discard."""
    best_shanten: int
    """Shanten after the best discard(s)."""
    accepted: int
    """Accepted tiles left after the chosen discard."""
    best_accepted: int
    """Accepted tiles left after the best discard(s)."""

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind.value,
            "shanten": self.shanten,
            "best_shanten": self.best_shanten,
            "accepted": self.accepted,
            "best_accepted": self.best_accepted,
        }


@dataclass(frozen=True, slots=True)
class DiscardAnalysis:
    """One discard judged by tile efficiency (shanten, then acceptance)."""

    tile: int
    """The discarded tile id (0-135)."""
    shanten_before: int
    """Shanten of the 3n+2 hand before the discard (-1: it was complete)."""
    chosen: Acceptance
    """The hand after the chosen discard: its shanten and acceptance."""
    best: tuple[DiscardOption, ...]
    """The best discard(s) the seat was allowed (every one tied on shanten and acceptance)."""
    loss: EfficiencyLoss | None
    """Set when the chosen discard was worse than the best, and the discard was a choice."""
    options: tuple[DiscardOption, ...]
    """Every discard the hand had (one per kind held), allowed or not; only the chosen one when
    the discard was forced."""
    forced: bool = False
    """The discard after the seat's own riichi: the drawn tile, not a choice (no alternatives)."""

    @property
    def kind(self) -> int:
        return tile_kind(self.tile)

    @property
    def shanten_after(self) -> int:
        return self.chosen.shanten

    def to_json(self) -> dict[str, object]:
        """JSON-ready: tile id, kinds 0-33 and counts; ``options`` are left out (``best`` and
        ``chosen`` say what the view shows)."""
        return {
            "tile": self.tile,
            "kind": self.kind,
            "shanten_before": self.shanten_before,
            "shanten_after": self.shanten_after,
            "chosen": self.chosen.to_json(),
            "best": [option.to_json() for option in self.best],
            "loss": None if self.loss is None else self.loss.to_json(),
        }


@dataclass(frozen=True, slots=True)
class DangerAgainst:
    """The discarder's hand against one threat: an opponent in riichi, or one the model judges
    likely tenpai without it (an entry of ``danger``)."""

    seat: int
    """The opponent."""
    tile: Danger
    """The discarded tile's kind."""
    hand: tuple[Danger, ...]
    """Every kind in the hand before the discard, ascending."""
    rates: tuple[float, ...]
    """The measured danger of each kind of ``hand`` in percent (``rules.danger.danger_rate``):
    the chance it wins on that kind if it is tenpai."""
    riichi: bool = True
    """The opponent's riichi declaration discard is out."""
    tenpai: float = 1.0
    """The chance the opponent is tenpai, from the discarder's view (1 in riichi)."""
    hand_value: float = 0.0
    """The mean points its ron costs (``analysis.tables.ron_points``)."""
    open_melds: int = 0
    """Its open melds (chi, pon, open and added kans)."""

    def deal_in_chance(self, kind: int) -> float:
        """The chance that discarding ``kind`` (a kind of the hand) deals into this opponent:
        ``tenpai`` x its rate."""
        for d, r in zip(self.hand, self.rates, strict=True):
            if d.kind == kind:
                return self.tenpai * r / 100
        raise KeyError(kind)

    @property
    def tile_class(self) -> DangerClass:
        return self.tile.danger_class

    @property
    def safest_class(self) -> DangerClass:
        return safest(d.danger_class for d in self.hand)

    def class_of(self, kind: int) -> DangerClass:
        """The class of a kind of the hand (``KeyError`` for a kind it does not hold)."""
        for d in self.hand:
            if d.kind == kind:
                return d.danger_class
        raise KeyError(kind)

    def to_json(self) -> dict[str, object]:
        """``{"seat", "tile_class", "safest_class", "classes": {"KIND": CLASS}, "rates":
        {"KIND": percent}}``; kinds 0-33 as strings."""
        return {
            "seat": self.seat,
            "riichi": self.riichi,
            "tenpai": rounded(self.tenpai, 3),
            "hand_value": rounded(self.hand_value),
            "open_melds": self.open_melds,
            "tile_class": self.tile_class.value,
            "safest_class": self.safest_class.value,
            "classes": {str(d.kind): d.danger_class.value for d in self.hand},
            "rates": {str(d.kind): rounded(r, 2) for d, r in zip(self.hand, self.rates, strict=True)},
        }


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


class Verdict(Enum):
    """What a discard was, in one word, by its cost in expected points (``verdict.judge``)."""

    FORCED = "forced"
    """The discard after the seat's own riichi declaration discard: the drawn tile, no choice."""
    BEST = "best"
    """Its expected points are the top's (it is the top pick, or ties it)."""
    CLOSE = "close"
    """It costs less than the loss threshold (``verdict.LOSS_THRESHOLD``): a near-tie."""
    LOSS = "loss"
    """It costs the threshold or more: a mistake (✗)."""


class Reason(Enum):
    """Why a discard that is not the top pick costs what it costs, in a player's words."""

    EFFICIENCY = "efficiency"
    """A slower hand: further from tenpai, or fewer tiles that move it on."""
    VALUE = "value"
    """As fast, but a cheaper hand (fewer han, a worse wait, a furiten or yakuless one)."""
    DEFENCE = "defence"
    """A more dangerous tile with nothing gained for it."""
    PUSH = "push"
    """A dangerous tile for a hand that was not worth the risk."""
    FOLD = "fold"
    """A safer tile that gave up more of a winnable hand than the danger it avoided."""
    PLACEMENT = "placement"
    """In the last hand: the placement and uma the outcomes bring decide it."""
    KEEP = "keep"
    """Alike in value and danger, but a tile strong players keep longer (the keep table)."""


OPTION_FIELDS = ("kind", "ev", "shanten", "accepted", "keep", "deal_in", "risk", "later")
"""The columns of an option in the JSON (``OptionValue.to_json``); ``deal_in`` in per mille; its
``win`` is ``ev + risk + later - keep``. Columns after the fourth that are 0 at the end of a row
are left out (no threat: the row ends at ``keep``)."""


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One legal discard kind valued in the model's one currency, expected points
    (``model.option_values``; docs/analysis.md, "The expected-points model")."""

    kind: int
    shanten: int
    """Shanten after discarding it."""
    accepted: int
    """Accepted tiles after it."""
    win: float
    """The points the hand is expected to win: the chance to win times the value (tenpai and
    one-shanten by the engine's scorer, further away by the measured far table)."""
    deal_in: float = 0.0
    """The chance that this tile deals in now: 1 - the product over the threats of (1 -
    tenpai chance x rate)."""
    risk: float = 0.0
    """The points it is expected to lose now: over the threats, tenpai chance x rate x the
    value of their win."""
    later: float = 0.0
    """Against a threat, the expected loss of the next discard from the hand that is left (the
    safest tile it keeps), weighted by ``model.LATER_WEIGHT``."""
    keep: float = 0.0
    """The keep term: how much more readily than the decision's mean strong players let this
    tile go, in points (``model.KEEP_WEIGHT_FAR``; 0 on average over a decision's options)."""
    ev: float = 0.0
    """``win - risk - later + keep``."""
    value: HandValue | None = None
    """At tenpai and one-shanten, the hand's value by the scorer."""

    def to_json(self) -> list[int]:
        """``[kind, ev, shanten, accepted, keep, deal_in, risk, later]`` (``OPTION_FIELDS``; the
        deal-in chance in per mille, points rounded; ``win`` is ``ev + risk + later - keep``),
        without the zeros that end it after the fourth column: a list, since a page holds
        thousands of these."""
        row = [self.kind, rounded(self.ev), self.shanten, self.accepted, rounded(self.keep),
               rounded(1000 * self.deal_in), rounded(self.risk), rounded(self.later)]
        while len(row) > 4 and row[-1] == 0:
            row.pop()
        return row


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict of one discard and the numbers behind it."""

    verdict: Verdict
    options: tuple[OptionValue, ...]
    """Every legal discard kind valued, best first (ties by kind); only the chosen one when the
    discard is forced."""
    chosen: OptionValue
    reason: Reason | None = None
    """Why it costs what it costs (``close`` and ``loss`` only)."""

    @property
    def top(self) -> OptionValue:
        return self.options[0]

    @property
    def top_kind(self) -> int:
        return self.top.kind

    @property
    def ev(self) -> float:
        return self.chosen.ev

    @property
    def top_ev(self) -> float:
        return self.top.ev

    @property
    def cost_points(self) -> float:
        """``top_ev - ev``, never below 0."""
        return max(0.0, self.top.ev - self.chosen.ev)

    @property
    def accepted(self) -> int:
        return self.chosen.accepted

    @property
    def best_accepted(self) -> int:
        return self.top.accepted

    @property
    def shanten(self) -> int:
        return self.chosen.shanten

    @property
    def best_shanten(self) -> int:
        return self.top.shanten

    def option(self, kind: int) -> OptionValue | None:
        return next((o for o in self.options if o.kind == kind), None)

    def to_json(self) -> dict[str, object]:
        return {
            "verdict": self.verdict.value,
            "reason": None if self.reason is None else self.reason.value,
            "top_kind": self.top_kind,
            "ev": rounded(self.ev),
            "top_ev": rounded(self.top_ev),
            "cost_points": rounded(self.cost_points),
            "shanten": self.shanten,
            "best_shanten": self.best_shanten,
            "accepted": self.accepted,
            "best_accepted": self.best_accepted,
            "options": [o.to_json() for o in self.options],
        }


@dataclass(frozen=True, slots=True)
class JudgedDiscard:
    """What the summary needs of one judged discard."""

    seat: int
    verdict: Verdict
    cost_points: float
    """``Judgement.cost_points``."""
    reason: Reason | None
    push: bool
    """Not tenpai after the discard and the tile not genbutsu against an opponent in riichi."""
    deal_ins: tuple[str, ...] = ()
    """Per win on this discard: the class of the tile against the winner in riichi, or
    ``not_in_riichi``."""


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's verdicts over a game (or any set of discards)."""

    seat: int
    judged: int = 0
    best: int = 0
    forced: int = 0
    close: int = 0
    loss: int = 0
    cost_points: float = 0.0
    """The cost in expected points, summed over the choices."""
    reasons: dict[str, int] = field(default_factory=dict)
    """The losses by reason."""
    pushes: int = 0
    deal_ins: dict[str, int] = field(default_factory=dict)
    """Deal-ins by the class of the tile against the winner (``not_in_riichi`` apart)."""

    @property
    def choices(self) -> int:
        """Discards that were a choice (judged minus forced)."""
        return self.judged - self.forced

    @property
    def share_best(self) -> float | None:
        """The agreement: ``best`` (the top pick, or a tie with it) over ``choices``; ``None``
        without a choice."""
        return self.best / self.choices if self.choices else None

    @property
    def loss_rate(self) -> float | None:
        return self.loss / self.choices if self.choices else None

    @property
    def mean_cost(self) -> float | None:
        """Expected points given up a choice."""
        return self.cost_points / self.choices if self.choices else None

    def to_json(self) -> dict[str, object]:
        share, rate, mean = self.share_best, self.loss_rate, self.mean_cost
        return {
            "seat": self.seat,
            "judged": self.judged,
            "best": self.best,
            "share_best": None if share is None else rounded(share, 4),
            "forced": self.forced,
            "close": self.close,
            "loss": self.loss,
            "loss_rate": None if rate is None else rounded(rate, 4),
            "cost_points": rounded(self.cost_points),
            "mean_cost": None if mean is None else rounded(mean, 1),
            "reasons": dict(sorted(self.reasons.items())),
            "pushes": self.pushes,
            "deal_ins": dict(sorted(self.deal_ins.items())),
        }


@dataclass(frozen=True, slots=True)
class DiscardNote:
    """One discard of a game with its analysis: where it is, what the analysis says, its
    verdict, its danger against each riichi, and the riichi or deal-in it was part of."""

    hand: int
    """The hand's index in the game (``Hand.index``)."""
    event_index: int
    """The discard's 0-based index in the hand's events (as ``parse`` lists them); its step
    (``replay --at HAND:STEP``) is ``event_index + 1``."""
    seat: int
    analysis: DiscardAnalysis
    riichi: RiichiSummary | None
    """Set on a riichi declaration discard: the waits after it and how many are left."""
    deal_ins: tuple[DealIn, ...]
    """The wins on this discard (ron; two for a double ron): the k-th is the hand's event just
    after the discard and k more (its step: ``step + 1 + k``)."""
    judgement: Judgement
    """The verdict and the numbers behind it (``verdict.judge``)."""
    danger: tuple[DangerAgainst, ...] | None = None
    """The hand before the discard against each threat (riichi, or likely tenpai without it);
    ``None``: no threat."""
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

    def value_of(self, kind: int) -> HandValue | None:
        """The scorer's value of the hand after discarding ``kind`` (tenpai and one-shanten)."""
        option = self.judgement.option(kind)
        return None if option is None else option.value

    def to_json(self) -> dict[str, object]:
        """The entry the HTML page reads (docs/replay-html.md, docs/analysis.md): where (``step``
        is ``event_index + 1``; ``first_step`` to ``last_step`` the moments that show the entry),
        the discard analysis (each candidate with its ``value``), ``verdict`` and its numbers,
        ``danger``, ``riichi``, ``deal_in`` (the first deal-in, or ``None``) and ``deal_ins``."""
        deal_ins = [d.to_json() for d in self.deal_ins]
        analysis = self.analysis.to_json()
        chosen = analysis["chosen"]
        assert isinstance(chosen, dict)
        chosen["value"] = self._value_json(self.analysis.kind)
        analysis["best"] = [o.kind for o in self.analysis.best]  # the kinds: the top option says more
        judgement = self.judgement.to_json()
        top_kind = self.judgement.top_kind
        top = None
        if self.judgement.verdict in (Verdict.CLOSE, Verdict.LOSS):
            top = next((o.to_json() for o in self.analysis.options if o.kind == top_kind), None)
            if top is not None:
                top["value"] = self._value_json(top_kind)
        return {
            "hand": self.hand,
            "event_index": self.event_index,
            "step": self.step,
            "first_step": self.first_step,
            "last_step": self.last_step,
            "seat": self.seat,
            **analysis,
            "verdict": judgement.pop("verdict"),
            "judgement": judgement,
            "top": top,
            "danger": None if self.danger is None else [d.to_json() for d in self.danger],
            "riichi": None if self.riichi is None else self.riichi.to_json(),
            "deal_in": deal_ins[0] if deal_ins else None,
            "deal_ins": deal_ins,
        }

    def _value_json(self, kind: int) -> dict[str, object] | None:
        value = self.value_of(kind)
        return None if value is None else value.to_json()


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """Every analysed discard of a game, in game order, and each seat's summary."""

    discards: tuple[DiscardNote, ...]
    summary: tuple[SeatSummary, ...] = ()
    """One per seat: the verdicts, pushes and deal-ins by class over the game."""
    loss_threshold_points: float = 300.0
    """The cost in expected points from which a discard is a ``loss`` (``verdict.loss_threshold``)."""
    stopped: tuple[FoldStop, ...] = ()
    """The hands the fold could not follow, where it stopped (a damaged log, or a bug): their
    later discards are not analysed."""

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
        """``{"loss_threshold_points", "option_fields", "discards": [...], "summary": [...]}``: the ``analysis``
        member of ``replay --format json`` and of the HTML page's document."""
        doc: dict[str, object] = {
            "loss_threshold_points": rounded(self.loss_threshold_points), "option_fields": list(OPTION_FIELDS),
            "discards": [note.to_json() for note in self.discards],
            "summary": [seat.to_json() for seat in self.summary]}
        if self.stopped:
            doc["stopped"] = [stop.to_json() for stop in self.stopped]
        return doc


@dataclass(frozen=True, slots=True)
class Standing:
    """The game's last hand as the model values it: the scores now and the lobby's uma, so that
    a win or a deal-in is worth its points plus the placement it brings (順位点)."""

    seat: int
    scores: tuple[int, ...]
    """Each seat's score now."""
    uma: tuple[int, ...]
    """Points for each final rank, first to last (the lobby's uma in thousands, x 1,000)."""
    first_dealer: int = 0

    def _uma_of(self, scores: Sequence[float], seat: int) -> int:
        return self.uma[ranking(scores, len(self.scores), self.first_dealer).index(seat)]

    def win_gain(self, points: float) -> float:
        """The uma the seat gains by winning ``points``, taken from the others alike."""
        players = len(self.scores)
        after = [s + (points if i == self.seat else -points / (players - 1)) for i, s in enumerate(self.scores)]
        return self._uma_of(after, self.seat) - self._uma_of(self.scores, self.seat)

    def deal_in_loss(self, winner: int, points: float) -> float:
        """The uma the seat loses by dealing ``points`` into ``winner``."""
        after = [s - points if i == self.seat else s + points if i == winner else s for i, s in enumerate(self.scores)]
        return self._uma_of(self.scores, self.seat) - self._uma_of(after, self.seat)
