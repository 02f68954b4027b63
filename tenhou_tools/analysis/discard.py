"""Per-discard tile efficiency: shanten before and after, the acceptance (ukeire) of the chosen
discard and of the best one, and an efficiency-loss flag with the numbers.

Pure functions on explicit inputs: the seat's concealed tiles before the discard, its meld count,
the discarded tile and the tiles unseen from that seat's view. The board (replay) computes those;
this module knows nothing of the table. Definitions: docs/analysis.md.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import Enum

from ..rules.hand import counts34
from ..rules.shanten import Acceptance, DiscardOption, acceptance, best_discards, discard_options, shanten
from ..tiles import kind as tile_kind


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


def analyze_discard(
    concealed: Sequence[int],
    melds: int,
    discarded: int,
    unseen: Sequence[int],
    *,
    sanma: bool = False,
    forbidden: Collection[int] = (),
    in_riichi: bool = False,
) -> DiscardAnalysis:
    """Judge the discard of tile ``discarded`` from ``concealed`` (tile ids, 3n+2 of them,
    the discarded tile among them) of a seat with ``melds`` melds (chi, pon, kans; not kita).

    ``unseen``: per kind 0-33, 4 minus the copies this seat can see (its own hand, every pond,
    every meld, the dora indicators). ``sanma``: a three-player game. ``forbidden``: kinds the
    seat may not discard now (kuikae after a call, ``rules.calls.kuikae_forbidden``); they
    are not candidates for the best. ``in_riichi``: the seat's riichi is accepted, so the
    discard is forced (``forced``): only the chosen discard is judged (``best`` holds it alone)
    and no loss is flagged.
    Raises ``ValueError`` when the tile is not in the hand or the hand is not a 3n+2 hand.
    """
    if discarded not in concealed:
        raise ValueError(f"tile {discarded} is not in the concealed hand")
    counts = counts34(concealed)
    if in_riichi:
        after = list(counts)
        after[tile_kind(discarded)] -= 1
        only = DiscardOption(tile_kind(discarded), acceptance(after, melds, unseen, sanma=sanma))
        return DiscardAnalysis(discarded, shanten(counts, melds, sanma=sanma), only.acceptance, (only,), None,
                               (only,), forced=True)
    options = discard_options(counts, melds, unseen, sanma=sanma)
    chosen = next(o for o in options if o.kind == tile_kind(discarded))
    allowed = [o for o in options if o.kind not in forbidden] or list(options)
    best = best_discards(allowed)
    loss = None
    if chosen not in best:
        top = best[0].acceptance
        worse_shanten = chosen.shanten > top.shanten
        loss = EfficiencyLoss(
            LossKind.SHANTEN if worse_shanten else LossKind.ACCEPTANCE,
            chosen.shanten,
            top.shanten,
            chosen.acceptance.total,
            top.total,
        )
    return DiscardAnalysis(discarded, shanten(counts, melds, sanma=sanma), chosen.acceptance, best, loss, options)
