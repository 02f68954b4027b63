"""One verdict per discard — forced, best, close or loss — by what it costs in expected points
against the top option, with the reason in a player's words; and the per-seat summary.

``judge`` reads the options the model valued (``model.option_values``, best first): the chosen
discard's cost is the top's ``ev`` minus its own, never below 0. A discard whose ``ev`` is at
least the top's is ``best``; one that costs less than ``LOSS_THRESHOLD`` is ``close`` (a
near-tie, ≈); anything else is a ``loss`` (✗). So a verdict can never contradict the numbers it
shows. Definitions and the threshold's measurement: docs/analysis.md, "The verdict".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .._native import build
from ..rules.danger import DangerClass
from .values import DangerAgainst, JudgedDiscard, Judgement, OptionValue, Reason, SeatSummary, Verdict

__all__ = [
    "LOSS_THRESHOLD",
    "LOSS_THRESHOLDS",
    "NOT_IN_RIICHI",
    "JudgedDiscard",
    "Judgement",
    "Reason",
    "SeatSummary",
    "Verdict",
    "judge",
    "judged_discard",
    "loss_threshold",
    "reason_of",
    "summarise",
]

LOSS_THRESHOLDS = {4: 600.0, 3: 1200.0}
"""By player count: a choice that costs fewer expected points than this against the top is
``close``, not a ``loss``. Measured on the Houou games (``scripts/measure_judgement.py``, docs/
analysis.md, "Calibration of the verdicts"): a round figure at which a discard drawn at random
among the legal ones is still a loss more than half the time while the strong players' own
choices are one at most one time in twenty; below it they would be ✗ for differences the model
cannot tell apart from a tie (the keep table moves options by a few hundred points). Three-player
points run larger (a ron is worth 1.7 times a four-player one) and its model is noisier."""

LOSS_THRESHOLD = LOSS_THRESHOLDS[4]


def loss_threshold(players: int) -> float:
    """The loss threshold of a ``players`` game (``LOSS_THRESHOLDS``)."""
    return LOSS_THRESHOLDS[players]


def reason_of(chosen: OptionValue, top: OptionValue) -> Reason:
    """Why ``chosen`` is worth less than ``top``: the larger of the two gaps, danger (``risk``
    and ``later``) or the win, decides; a safer tile that lost on the win is a fold, a more
    dangerous one that gained on the win a push, one that gained nothing defence; a win lost at
    equal danger is efficiency when the hand is slower (shanten, then accepted tiles), else
    value. When the keep term (``keep``) is the largest gap of all, keep: a tile strong players
    hold on to."""
    danger_gap = (chosen.risk + chosen.later) - (top.risk + top.later)
    win_gap = top.win - chosen.win
    if top.keep - chosen.keep > max(danger_gap, win_gap, 0.0):
        return Reason.KEEP
    if danger_gap > 0 and danger_gap >= win_gap:
        return Reason.PUSH if chosen.win > top.win else Reason.DEFENCE
    if danger_gap < 0:
        return Reason.FOLD
    if chosen.shanten > top.shanten or (chosen.shanten == top.shanten and chosen.accepted < top.accepted):
        return Reason.EFFICIENCY
    return Reason.VALUE


def judge(options: Sequence[OptionValue], chosen_kind: int, *, forced: bool,
          threshold: float = LOSS_THRESHOLD) -> Judgement:
    """The verdict of one discard: ``options`` best first (``model.option_values``; when
    ``forced``, the chosen one alone), ``chosen_kind`` the kind discarded."""
    # ``build``, not the class: the frozen dataclass's own __init__ sets each field through
    # object.__setattr__ (callgrind, compiled, 3 corpus games' analyze_game: judge 7.0 M
    # instructions against 15 M)
    chosen = next(o for o in options if o.kind == chosen_kind)
    if forced:
        return build(Judgement, Verdict.FORCED, (chosen,), chosen)
    top = options[0]
    cost = top.ev - chosen.ev
    if cost <= 0:
        return build(Judgement, Verdict.BEST, tuple(options), chosen)
    verdict = Verdict.CLOSE if cost < threshold else Verdict.LOSS
    return build(Judgement, verdict, tuple(options), chosen, reason_of(chosen, top))


# -- the per-seat summary ---------------------------------------------------------------------

NOT_IN_RIICHI = "not_in_riichi"
"""The deal-in class key of a deal-in to a winner who was not in riichi."""


def judged_discard(seat: int, judgement: Judgement, danger: Sequence[DangerAgainst] | None,
                   winners: Iterable[int] = ()) -> JudgedDiscard:
    """The summary's row for one discard: ``winners`` are the seats that won on it (ron)."""
    # the chosen option's shanten read off its field, not the judgement's property (compiled, an
    # interpreted call of the plain records module), and ``build``, not the class (callgrind,
    # compiled, 3 corpus games' analyze_game: judged_discard 7.0 M instructions against 21 M);
    # the cost is the judgement's own ``cost_points``, its one definition
    against = {d.seat: d for d in danger or () if d.riichi}
    chosen = judgement.chosen
    push = chosen.shanten > 0 and any(d.tile_class is not DangerClass.GENBUTSU for d in against.values())
    deal_ins = tuple(against[w].tile_class.value if w in against else NOT_IN_RIICHI for w in winners)
    verdict = judgement.verdict
    cost = judgement.cost_points if verdict is not Verdict.FORCED else 0.0
    return build(JudgedDiscard, seat, verdict, cost, judgement.reason, push, deal_ins)


def summarise(rows: Iterable[JudgedDiscard], seats: int) -> tuple[SeatSummary, ...]:
    """The summary of every seat 0..``seats``-1 over ``rows``."""
    counts = [dict.fromkeys(("judged", "best", "forced", "close", "loss", "pushes"), 0) for _ in range(seats)]
    costs = [0.0] * seats
    reasons: list[dict[str, int]] = [{} for _ in range(seats)]
    deal_ins: list[dict[str, int]] = [{} for _ in range(seats)]
    for row in rows:
        t = counts[row.seat]
        t["judged"] += 1
        t[row.verdict.value] += 1
        t["pushes"] += row.push
        costs[row.seat] += row.cost_points
        if row.verdict is Verdict.LOSS and row.reason is not None:
            reasons[row.seat][row.reason.value] = reasons[row.seat].get(row.reason.value, 0) + 1
        for cls in row.deal_ins:
            deal_ins[row.seat][cls] = deal_ins[row.seat].get(cls, 0) + 1
    return tuple(SeatSummary(seat, **counts[seat], cost_points=costs[seat], reasons=reasons[seat],
                             deal_ins=deal_ins[seat]) for seat in range(seats))
