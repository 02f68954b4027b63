"""Play quality (opt-in ``stats --quality``): each seat's verdicts over a game, read from the
discard analysis (``analysis.analyze_game``: one fold per hand, every discard judged).

``game_quality(game)`` returns the analysis's per-seat summary (``analysis.verdict.SeatSummary``):
the discards judged, the forced ones after a riichi declaration, the **best** ones (the top
pick of the expected-points model, or tied with it: the agreement), the ``close`` ones and the
losses with the expected points given up, pushes against a riichi, and deal-ins into a riichi by
the dealt tile's danger class. ``quality_counters`` turns
one seat's summary into the additive counters of ``stats``.

It costs the whole discard analysis, which is why the default ``stats`` run does not do it.
Definitions: ``docs/stats.md``, "Play quality", and ``docs/analysis.md``.
"""

from __future__ import annotations

from .._native import collection_paused
from ..analysis import analyze_game
from ..analysis.verdict import NOT_IN_RIICHI, SeatSummary
from ..events import Game
from .counters import PlayerCounters

__all__ = ["NotJudged", "game_quality", "quality_counters"]


class NotJudged(ValueError):
    """The discard analysis stopped in a hand of the game (``GameAnalysis.stopped``): its play
    quality is not counted (a game judged in part would shrink the figures without a word); the
    message says where and why."""


def game_quality(game: Game) -> tuple[SeatSummary, ...]:
    """Each seat's summary of the game's judged discards (index = seat). ``NotJudged`` when the
    analysis stopped in a hand."""
    # the game's records are dropped before the collector is back (``_native.collection_paused``):
    # kept past the block, the next young collection walked them all. The collector's time, timed
    # by gc.callbacks over 10 Houou games (compiled, two runs each): 33 ms a game, 13 ms without
    with collection_paused():
        analysis = analyze_game(game)
        stopped, summary = analysis.stopped, analysis.summary
        del analysis
    if stopped:
        stop = stopped[0]
        label = game.hands[stop.hand].init.label()
        raise NotJudged(f"the discard analysis stopped in hand {label} at event {stop.event_index + 1} "
                        f"({stop.reason}): its play quality is not counted")
    return summary


def quality_counters(summary: SeatSummary) -> PlayerCounters:
    """One seat's summary as the additive ``quality_*`` counters (one game judged)."""
    by_class = PlayerCounters.from_dict({f"quality_deal_ins_{cls}": n for cls, n in summary.deal_ins.items()
                                         if cls != NOT_IN_RIICHI})
    return by_class + PlayerCounters(
        quality_games=1,
        quality_discards=summary.choices,
        quality_best=summary.best,
        quality_forced=summary.forced,
        quality_close=summary.close,
        quality_losses=summary.loss,
        quality_cost_points=round(summary.cost_points),
        quality_pushes=summary.pushes,
    )
