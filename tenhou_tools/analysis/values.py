"""The analysis's records: the hand values (``value.py`` computes them), a discard's efficiency
(``discard.py``), its danger against each riichi (``defence.py``), a riichi's waits and a
deal-in (``waits.py``), the verdicts and the per-seat summary (``verdict.py``) and a game's
analysis (``game.py``). Each is imported from the module that makes it (``analysis.discard.
DiscardAnalysis``); they live in this plain module because those modules are compiled in a
compiled install, and a class defined there would become a native class (docs/development.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from ..events import CallKind, Hand, Meld
from ..rules.danger import safest
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
    "RiichiSummary",
    "ScoreLine",
    "SeatSummary",
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
        return all(not m.kind.is_open for m in self.melds)

    @property
    def riichi(self) -> bool:
        """The hand is valued as riichi."""
        return self.in_riichi or (self.closed and self.may_riichi)

    @property
    def sets(self) -> int:
        """Melds that take a set out of the hand (not kita)."""
        return sum(1 for m in self.melds if m.kind is not CallKind.KITA)


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
    """The value of a win on it: the ron and tsumo points mixed by ``TSUMO_SHARE`` (tsumo only
    when furiten)."""

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "left": self.left,
            "ron": None if self.ron is None else self.ron.to_json(),
            "tsumo": None if self.tsumo is None else self.tsumo.to_json(),
            "points": round(self.points),
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

    def to_json(self) -> dict[str, object]:
        return {
            "shanten": self.shanten,
            "tiles": self.tiles,
            "win_points": round(self.win_points),
            "win_chance": round(self.win_chance, 4),
            "ev": round(self.ev),
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
    """The discarder's hand against one opponent in riichi (an entry of ``danger``)."""

    seat: int
    """The opponent in riichi."""
    tile: Danger
    """The discarded tile's kind."""
    hand: tuple[Danger, ...]
    """Every kind in the hand before the discard, ascending."""
    rates: tuple[float, ...]
    """The measured danger of each kind of ``hand`` in percent (``rules.danger.danger_rate``)."""

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
            "tile_class": self.tile_class.value,
            "safest_class": self.safest_class.value,
            "classes": {str(d.kind): d.danger_class.value for d in self.hand},
            "rates": {str(d.kind): round(r, 2) for d, r in zip(self.hand, self.rates, strict=True)},
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
    """What a discard was, in one word."""

    FORCED = "forced"
    """The discard after the seat's own riichi declaration discard: the drawn tile, no choice."""
    BEST = "best"
    """Among the best by efficiency (shanten, then accepted tiles)."""
    DEFENCE = "defence"
    """Against at least one opponent in riichi, a safer class than every efficiency-best
    discard."""
    VALUE = "value"
    """At equal shanten, more hand value kept than every best discard, at a bounded acceptance
    cost."""
    EFFICIENCY_LOSS = "efficiency_loss"
    """Anything else not among the best."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict of one discard and the numbers behind it."""

    verdict: Verdict
    accepted: int
    """Accepted tiles left after the chosen discard."""
    best_accepted: int
    """After the best discard(s)."""
    shanten: int
    """Shanten after the chosen discard."""
    best_shanten: int
    chosen_value: HandValue | None = None
    """The chosen discard's value (tenpai and one-shanten only)."""
    best_value: HandValue | None = None
    """The best-valued of the efficiency-best discards."""
    han_kept: int | None = None
    """The chosen discard's ``value.han_kept`` (for a ``value`` verdict away from tenpai)."""
    best_han_kept: int | None = None
    safer_against: tuple[int, ...] = ()
    """``defence``: the riichi seats against which the chosen tile is of a safer class."""
    cost_points: float | None = None
    """``efficiency_loss``: the best value's ev minus the chosen one's, when both are valued."""

    @property
    def acceptance_cost(self) -> int:
        """Accepted tiles given up against the best (0 when best or forced)."""
        return self.best_accepted - self.accepted if self.verdict not in (Verdict.BEST, Verdict.FORCED) else 0

    def to_json(self) -> dict[str, object]:
        return {
            "verdict": self.verdict.value,
            "accepted": self.accepted,
            "best_accepted": self.best_accepted,
            "shanten": self.shanten,
            "best_shanten": self.best_shanten,
            "value": None if self.chosen_value is None else self.chosen_value.to_json(),
            "best_value": None if self.best_value is None else self.best_value.to_json(),
            "han_kept": self.han_kept,
            "best_han_kept": self.best_han_kept,
            "safer_against": list(self.safer_against),
            "cost_points": None if self.cost_points is None else round(self.cost_points),
        }


@dataclass(frozen=True, slots=True)
class JudgedDiscard:
    """What the summary needs of one judged discard."""

    seat: int
    verdict: Verdict
    acceptance_cost: int
    """Accepted tiles given up (``Judgement.acceptance_cost``) for a loss at equal shanten."""
    shanten_loss: bool
    """The chosen discard left a higher shanten than the best."""
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
    defence: int = 0
    value: int = 0
    efficiency_loss: int = 0
    acceptance_given_up: int = 0
    """Accepted tiles given up over the efficiency losses at equal shanten."""
    shanten_losses: int = 0
    """Efficiency losses that left a higher shanten than the best (counted apart: their
    acceptance is not comparable)."""
    pushes: int = 0
    deal_ins: dict[str, int] = field(default_factory=dict)
    """Deal-ins by the class of the tile against the winner (``not_in_riichi`` apart)."""

    @property
    def choices(self) -> int:
        """Discards that were a choice (judged minus forced)."""
        return self.judged - self.forced

    @property
    def share_best(self) -> float | None:
        """``best`` over ``choices``; ``None`` without a choice."""
        return self.best / self.choices if self.choices else None

    def to_json(self) -> dict[str, object]:
        share = self.share_best
        return {
            "seat": self.seat,
            "judged": self.judged,
            "best": self.best,
            "share_best": None if share is None else round(share, 4),
            "forced": self.forced,
            "defence": self.defence,
            "value": self.value,
            "efficiency_loss": self.efficiency_loss,
            "acceptance_given_up": self.acceptance_given_up,
            "shanten_losses": self.shanten_losses,
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
    """The hand before the discard against each opponent in riichi; ``None``: nobody in riichi."""
    values: tuple[tuple[int, HandValue | None], ...] = ()
    """``(kind, value)`` of the candidates valued (the chosen and the efficiency-best discards,
    at tenpai and one-shanten); empty when none was."""
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
        for k, v in self.values:
            if k == kind:
                return v
        return None

    def to_json(self) -> dict[str, object]:
        """The entry the HTML page reads (docs/replay-html.md, docs/analysis.md): where (``step``
        is ``event_index + 1``; ``first_step`` to ``last_step`` the moments that show the entry),
        the discard analysis (each candidate with its ``value``), ``verdict`` and its numbers,
        ``danger``, ``riichi``, ``deal_in`` (the first deal-in, or ``None``) and ``deal_ins``."""
        deal_ins = [d.to_json() for d in self.deal_ins]
        analysis = self.analysis.to_json()
        valued = {k for k, _ in self.values}
        chosen = analysis["chosen"]
        assert isinstance(chosen, dict)
        chosen["value"] = self._value_json(self.analysis.kind, valued)
        best = analysis["best"]
        assert isinstance(best, list)
        for option in best:
            option["value"] = self._value_json(option["kind"], valued)
        judgement = self.judgement.to_json()
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
            "danger": None if self.danger is None else [d.to_json() for d in self.danger],
            "riichi": None if self.riichi is None else self.riichi.to_json(),
            "deal_in": deal_ins[0] if deal_ins else None,
            "deal_ins": deal_ins,
        }

    def _value_json(self, kind: int, valued: set[int]) -> dict[str, object] | None:
        if kind not in valued:
            return None
        value = self.value_of(kind)
        return None if value is None else value.to_json()


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """Every analysed discard of a game, in game order, and each seat's summary."""

    discards: tuple[DiscardNote, ...]
    summary: tuple[SeatSummary, ...] = ()
    """One per seat: the verdicts, pushes and deal-ins by class over the game."""

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
        """``{"discards": [...], "summary": [...]}``: the ``analysis`` member of ``replay
        --format json`` and of the HTML page's document."""
        return {"discards": [note.to_json() for note in self.discards],
                "summary": [seat.to_json() for seat in self.summary]}
