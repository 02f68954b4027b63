"""Per-player statistics: additive counters (``counters``), rates and intervals (``report``), and
a SQLite store that adds games incrementally (``store``). Definitions: ``docs/stats.md``."""

from .counters import PlayerCounters, PlayerKey, game_counters
from .report import PlayerReport, wilson

__all__ = ["PlayerCounters", "PlayerKey", "PlayerReport", "game_counters", "wilson"]
