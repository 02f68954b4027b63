"""Play quality (opt-in ``stats --quality``): how many of a player's discards were the most
efficient by shanten and tile acceptance, read from the discard analysis (``analysis``).

``game_quality(game)`` counts, per seat, the discards that were a choice (not the forced
discards after a riichi) and, of those, the **efficient** ones: no allowed discard leaves a
lower shanten, or the same shanten with more unseen accepted tiles (the discard is among the
best; kuikae's forbidden kinds are never candidates). The analysis walks each hand once through
the one fold (``replay.fold``), as the replay and the board do.

It costs the discard analysis (about 170 µs of CPU a discard), which is why the default
``stats`` run does not do it. Definitions: ``docs/stats.md``, "Play quality".
"""

from __future__ import annotations

from ..analysis import analyze_game
from ..events import Game

__all__ = ["game_quality"]


def game_quality(game: Game) -> list[tuple[int, int]]:
    """``(discards judged, efficient ones)`` per seat (index = seat) over the whole game."""
    n = game.header.ruleset.players
    judged = [0] * n
    efficient = [0] * n
    for note in analyze_game(game).discards:
        if note.analysis.forced:
            continue
        judged[note.seat] += 1
        efficient[note.seat] += note.analysis.loss is None
    return list(zip(judged, efficient))
