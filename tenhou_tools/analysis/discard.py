"""Per-discard tile efficiency: shanten before and after, the acceptance (ukeire) of the chosen
discard and of the best one, and an efficiency-loss flag with the numbers.

Pure functions on explicit inputs: the seat's concealed tiles before the discard, its meld count,
the discarded tile and the tiles unseen from that seat's view. The board (replay) computes those;
this module knows nothing of the table. Definitions: docs/analysis.md.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .._native import build
from ..rules.hand import counts34
from ..rules.shanten import DiscardOption, acceptance, best_discards, discard_options, shanten_before
from ..tiles import kind as tile_kind
from .values import DiscardAnalysis, EfficiencyLoss, LossKind


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
    kind = tile_kind(discarded)
    counts = counts34(concealed)
    if in_riichi:
        after = list(counts)
        after[kind] -= 1
        only = DiscardOption(kind, acceptance(after, melds, unseen, sanma=sanma))
        return DiscardAnalysis(discarded, shanten_before(only), only.acceptance, (only,), None, (only,), forced=True)
    options = discard_options(counts, melds, unseen, sanma=sanma)
    chosen = options[0]
    allowed: list[DiscardOption] = []
    for option in options:
        if option.kind == kind:
            chosen = option
        if not forbidden or option.kind not in forbidden:
            allowed.append(option)
    best = best_discards(allowed or options)
    loss = None
    if not any(option is chosen for option in best):  # the options are distinct kinds: "in" by identity
        top = best[0].acceptance
        worse_shanten = chosen.shanten > top.shanten
        loss = EfficiencyLoss(
            LossKind.SHANTEN if worse_shanten else LossKind.ACCEPTANCE,
            chosen.shanten,
            top.shanten,
            chosen.acceptance.total,
            top.total,
        )
    # the shanten before, read off the chosen option (``shanten_before``: that of the 3n+2 hand);
    # ``build``: the record made by setting its slots, not through the dataclass's __init__ (with
    # discard_options reading its classes once: analyze_game 1,756 M instructions against 1,776 M,
    # callgrind, compiled, 3 corpus games)
    return build(DiscardAnalysis, discarded, shanten_before(chosen), chosen.acceptance, best, loss, options)
