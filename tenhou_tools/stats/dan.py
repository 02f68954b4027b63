"""Tenhou's dan points (段位pt), stable dan (安定段位) and rate (R, レート) as pure functions.

No I/O, no parsing: the caller passes what a log's ``GO`` and ``UN`` tags say (room, length,
player count, each player's dan id and rate) and the placements. Definitions, the tables, the
dates they are known to hold and the public sources: ``docs/stats.md``, section "Dan points,
stable dan and rate".

Dan ids are the ones of ``UN dan`` (``events.Player.dan``): 0 新人, 1-9 = 9級..1級, 10 初段 ...
19 十段, 20 天鳳位.

Four-player and three-player games have their own tables (``rule_era``); a three-player game
has no 2nd-place points and its 3rd place loses what a four-player 4th place does.

The rate formula, the table length and the ranks the rules of dan moves need (``TENHOUI``,
``FOURTH_LOSS_FREE_DAN``) are defined in ``rules.standing``, the point tables (``pt_table``,
``dan_step``, ``rule_era``) in ``rules.dan_points`` (``validate`` holds consecutive games to
them both) and named here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from ..events import DAN_NAMES, Room
from ..rules.dan_points import (
    SHODAN,
    DanStep,
    PtTable,
    RuleEra,
    dan_pt,
    dan_step,
    last_place_loss,
    length_scaled,
    pt_table,
    require_dan,
    rule_era,
)
from ..rules.standing import (
    FOURTH_LOSS_FREE_DAN,
    GAMES_FACTOR_FLOOR,
    RATE_DIVISOR,
    TENHOUI,
    Length,
    RateChange,
    games_factor,
    rate_change,
    require_players,
    table_average_rate,
)

__all__ = [
    "DAN_NAMES",
    "FOURTH_LOSS_FREE_DAN",
    "GAMES_FACTOR_FLOOR",
    "RATE_DIVISOR",
    "SHODAN",
    "TENHOUI",
    "DanStep",
    "Length",
    "PtTable",
    "RateChange",
    "RuleEra",
    "dan_name",
    "dan_pt",
    "dan_step",
    "expected_pt",
    "games_factor",
    "last_place_loss",
    "pt_table",
    "rate_change",
    "rule_era",
    "stable_dan",
    "stable_scale",
    "table_average_rate",
]


def dan_name(dan: int) -> str:
    """Tenhou's name of a dan id (``UN dan``): ``dan_name(16) == "七段"``."""
    require_dan(dan)
    return DAN_NAMES[dan]


def stable_scale(dan: int) -> int:
    """A dan id on the stable-dan scale that players quote: 初段 = 1 ... 十段 = 10, 1級 = 0,
    2級 = -1, 3級 = -2 (so ``stable_scale(16) == 7`` for 七段). Defined for the ids 0-19."""
    require_dan(dan)
    if dan == TENHOUI:
        raise ValueError("天鳳位 has no place on the stable-dan scale")
    return dan - (SHODAN - 1)


# -- expected points and stable dan ------------------------------------------------------


def expected_pt(rank_counts: Sequence[int], room: Room, length: Length, players: int, dan: int,
                on: date | None = None) -> float | None:
    """The mean dan points per game that a rank distribution would earn at a fixed rank ``dan``:
    Σ count·pt / Σ count. ``None`` without games or without a table."""
    counts = _check_counts(rank_counts, players)
    table = pt_table(room, length, players, dan, on)
    games = sum(counts)
    if table is None or games == 0:
        return None
    return sum(n * p for n, p in zip(counts, table.points)) / games


def stable_dan(rank_counts: Sequence[int], room: Room, length: Length, players: int,
               on: date | None = None) -> float | None:
    """The stable dan (安定段位): the rank, on the stable-dan scale (初段 = 1 ... 十段 = 10,
    1級 = 0, 2級 = -1, 3級 = -2; see ``stable_scale``), at which the rank distribution
    ``rank_counts`` (games finished 1st, 2nd, ...) earns zero points per game on average.

    Last place (4th of four, 3rd of three) loses ``step · (scale + 2)`` (step 10 East-only, 15
    East-South), so with ``g`` the points of the 1st and 2nd places (three-player: 1st only) and
    ``n_last`` the last places::

        stable = g / (step · n_last) - 2

    A fraction says where between two ranks the balance falls: 8.5 is halfway between 八段 and
    九段 (an expectation of zero at that point on the straight line of the loss). It is not
    clamped: above 10 it extends the line past 十段; its least value is -2 (nothing but last
    places). ``None`` without last places (no finite rank balances), without games, or without
    a confirmed table. The distribution may be rates instead of counts."""
    counts = _check_counts(rank_counts, players)
    era = rule_era(players, on)
    if era is None or sum(counts) == 0 or counts[-1] == 0:
        return None
    first, second = dict(era.first_second_east)[room]
    gain = length_scaled(first, length) * counts[0] + length_scaled(second, length) * counts[1]
    step = length_scaled(era.last_step_east, length)
    return gain / (step * counts[-1]) + stable_scale(FOURTH_LOSS_FREE_DAN)


# -- checks -----------------------------------------------------------------------------------


def _check_counts(rank_counts: Sequence[float], players: int) -> tuple[float, ...]:
    require_players(players)
    counts = tuple(rank_counts)
    if len(counts) != players:
        raise ValueError(f"{players} players need {players} rank counts, not {len(counts)}")
    if any(n < 0 for n in counts):
        raise ValueError(f"rank counts must not be negative: {counts}")
    return counts
