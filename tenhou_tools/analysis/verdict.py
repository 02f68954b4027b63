"""One verdict per discard — forced, best, defence, value or efficiency loss — and the per-seat
summary of a game's verdicts.

``judge`` decides from explicit values: the efficiency analysis (``DiscardAnalysis``), whether
the seat had declared riichi, the danger of the hand against each opponent in riichi
(``defence.DangerAgainst``, or none), the value of the chosen and best discards
(``value.HandValue`` at tenpai and one-shanten) and the value a hand keeps by its tiles
(``value.han_kept``) further away. ``summarise`` adds verdicts up per seat. Definitions and the
bounds: docs/analysis.md, "The verdict".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..rules.danger import DangerClass
from .values import DangerAgainst, DiscardAnalysis, HandValue, JudgedDiscard, Judgement, SeatSummary, Verdict

__all__ = [
    "MARKS_ACCEPTANCE_KEPT",
    "VALUE_ACCEPTANCE_KEPT",
    "JudgedDiscard",
    "Judgement",
    "SeatSummary",
    "Verdict",
    "judge",
    "judged_discard",
    "safer_against",
    "summarise",
    "value_may_decide",
]

VALUE_ACCEPTANCE_KEPT = 0.5
"""At tenpai and one-shanten, a discard is ``value`` only if it keeps at least this share of the
best discard's accepted tiles (and its expected value is higher)."""
MARKS_ACCEPTANCE_KEPT = 2 / 3
"""Further from tenpai (no expected value), a discard is ``value`` only if it keeps at least
this share of the best discard's accepted tiles (and more ``han_kept``)."""


def safer_against(analysis: DiscardAnalysis, danger: Sequence[DangerAgainst] | None) -> tuple[int, ...]:
    """The opponents in riichi against whom the chosen tile is of a safer class than every
    efficiency-best discard (the ``defence`` verdict)."""
    best_kinds = [o.kind for o in analysis.best]
    return tuple(d.seat for d in danger or ()
                 if all(d.class_of(analysis.kind).rank < d.class_of(k).rank for k in best_kinds))


def value_may_decide(analysis: DiscardAnalysis, danger: Sequence[DangerAgainst] | None) -> bool:
    """Whether hand values can change this discard's verdict (``judge``): the chosen discard is
    not among the best, not ``defence``, leaves the best's shanten and keeps at least
    ``VALUE_ACCEPTANCE_KEPT`` of its accepted tiles (the looser of the two value bounds).
    Elsewhere the values only explain a verdict already decided (``analyze_game(explain=False)``
    leaves them out)."""
    if analysis.loss is None or safer_against(analysis, danger):
        return False
    top = analysis.best[0].acceptance
    return (analysis.shanten_after == top.shanten
            and analysis.chosen.total >= min(VALUE_ACCEPTANCE_KEPT, MARKS_ACCEPTANCE_KEPT) * top.total)


def judge(
    analysis: DiscardAnalysis,
    *,
    forced: bool,
    danger: Sequence[DangerAgainst] | None = None,
    values: Mapping[int, HandValue | None] | None = None,
    kept: Mapping[int, int] | None = None,
) -> Judgement:
    """The verdict of one discard.

    ``forced``: the seat had made its riichi declaration discard before this one.
    ``danger``: the hand against each opponent in riichi (``None``: nobody in riichi).
    ``values``: per kind, the value after discarding it (``value.discard_values``), for the
    chosen kind and the best kinds (missing or ``None``: not valued). ``kept``: per kind,
    ``value.han_kept`` after discarding it, for the chosen and best kinds.
    The first that holds: forced; best (the chosen kind is among ``analysis.best``); defence;
    value; efficiency loss.
    """
    chosen = analysis.kind
    best_kinds = [o.kind for o in analysis.best]
    top = analysis.best[0].acceptance
    accepted, shanten_after = analysis.chosen.total, analysis.shanten_after
    if forced:
        return Judgement(verdict=Verdict.FORCED, accepted=accepted, best_accepted=top.total,
                         shanten=shanten_after, best_shanten=top.shanten)
    values = values or {}
    chosen_value = values.get(chosen)
    valued = [v for v in (values.get(k) for k in best_kinds) if v is not None]
    best_value = max(valued, key=lambda v: v.ev) if valued else None

    def verdict(v: Verdict, *, han_kept: int | None = None, best_han_kept: int | None = None,
                safer_against: tuple[int, ...] = (), cost_points: float | None = None) -> Judgement:
        return Judgement(verdict=v, accepted=accepted, best_accepted=top.total, shanten=shanten_after,
                         best_shanten=top.shanten, chosen_value=chosen_value, best_value=best_value,
                         han_kept=han_kept, best_han_kept=best_han_kept, safer_against=safer_against,
                         cost_points=cost_points)

    if chosen in best_kinds:
        return verdict(Verdict.BEST)
    safer = safer_against(analysis, danger)
    if safer:
        return verdict(Verdict.DEFENCE, safer_against=safer)
    if shanten_after == top.shanten:
        if chosen_value is not None and best_value is not None and len(valued) == len(best_kinds):
            if chosen_value.ev > best_value.ev and accepted >= VALUE_ACCEPTANCE_KEPT * top.total:
                return verdict(Verdict.VALUE)
        elif kept is not None and chosen in kept and all(k in kept for k in best_kinds):
            best_kept = max(kept[k] for k in best_kinds)
            if kept[chosen] > best_kept and accepted >= MARKS_ACCEPTANCE_KEPT * top.total:
                return verdict(Verdict.VALUE, han_kept=kept[chosen], best_han_kept=best_kept)
    cost = None
    if chosen_value is not None and best_value is not None:
        cost = best_value.ev - chosen_value.ev
    return verdict(Verdict.EFFICIENCY_LOSS, cost_points=cost)


# -- the per-seat summary ---------------------------------------------------------------------

NOT_IN_RIICHI = "not_in_riichi"
"""The deal-in class key of a deal-in to a winner who was not in riichi."""


def judged_discard(seat: int, judgement: Judgement, danger: Sequence[DangerAgainst] | None,
                   winners: Iterable[int] = ()) -> JudgedDiscard:
    """The summary's row for one discard: ``winners`` are the seats that won on it (ron)."""
    against = {d.seat: d for d in danger or ()}
    push = judgement.shanten > 0 and any(d.tile_class is not DangerClass.GENBUTSU for d in against.values())
    deal_ins = tuple(against[w].tile_class.value if w in against else NOT_IN_RIICHI for w in winners)
    shanten_loss = judgement.shanten > judgement.best_shanten
    cost = judgement.acceptance_cost if judgement.verdict is Verdict.EFFICIENCY_LOSS and not shanten_loss else 0
    return JudgedDiscard(seat, judgement.verdict, cost,
                         shanten_loss and judgement.verdict is Verdict.EFFICIENCY_LOSS, push, deal_ins)


def summarise(rows: Iterable[JudgedDiscard], seats: int) -> tuple[SeatSummary, ...]:
    """The summary of every seat 0..``seats``-1 over ``rows``."""
    tallies = [dict.fromkeys(("judged", "best", "forced", "defence", "value", "efficiency_loss",
                              "acceptance_given_up", "shanten_losses", "pushes"), 0) for _ in range(seats)]
    deal_ins: list[dict[str, int]] = [{} for _ in range(seats)]
    for row in rows:
        t = tallies[row.seat]
        t["judged"] += 1
        t[row.verdict.value] += 1
        t["acceptance_given_up"] += row.acceptance_cost
        t["shanten_losses"] += row.shanten_loss
        t["pushes"] += row.push
        for cls in row.deal_ins:
            deal_ins[row.seat][cls] = deal_ins[row.seat].get(cls, 0) + 1
    return tuple(SeatSummary(seat, **tallies[seat], deal_ins=deal_ins[seat]) for seat in range(seats))
