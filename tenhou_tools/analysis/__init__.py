"""Game analysis for review: per-discard tile efficiency, riichi waits and deal-ins.

Pure functions and frozen values on explicit inputs (tile ids, meld counts, the tiles unseen from
a seat's view); the replay's board supplies those. Shanten and acceptance themselves are in
``rules.shanten``. Definitions: docs/analysis.md.
"""

from .discard import DiscardAnalysis, EfficiencyLoss, LossKind, analyze_discard
from .game import DiscardNote, GameAnalysis, analyze_game
from .waits import DealIn, RiichiSummary, deal_in, riichi_summary, waits_text

__all__ = [
    "DealIn",
    "DiscardAnalysis",
    "DiscardNote",
    "EfficiencyLoss",
    "GameAnalysis",
    "LossKind",
    "RiichiSummary",
    "analyze_discard",
    "analyze_game",
    "deal_in",
    "riichi_summary",
    "waits_text",
]
