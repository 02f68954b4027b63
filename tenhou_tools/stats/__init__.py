"""Per-player statistics: additive counters (``counters``), rates and intervals (``report``), and
a SQLite store that adds games incrementally (``store``), each player's games one by one (``games``:
table kinds, dan points, stable dan, history) and the opt-in play quality (``quality``).
Definitions: ``docs/stats.md``."""

from .counters import PlayerCounters, PlayerKey, game_counters
from .report import PlayerReport, wilson

__all__ = ["PlayerCounters", "PlayerKey", "PlayerReport", "game_counters", "wilson"]
