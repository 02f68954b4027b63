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
``FOURTH_LOSS_FREE_DAN``) are defined in ``rules.standing`` (``validate`` holds consecutive games
to them) and named here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from ..events import DAN_NAMES, Room
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
    require_rank,
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

SHODAN = 10
"""Dan id of 初段 (first dan); ids below it are the kyu ranks (新人 and 9級..1級)."""
def dan_name(dan: int) -> str:
    """Tenhou's name of a dan id (``UN dan``): ``dan_name(16) == "七段"``."""
    _check_dan(dan)
    return DAN_NAMES[dan]


def stable_scale(dan: int) -> int:
    """A dan id on the stable-dan scale that players quote: 初段 = 1 ... 十段 = 10, 1級 = 0,
    2級 = -1, 3級 = -2 (so ``stable_scale(16) == 7`` for 七段). Defined for the ids 0-19."""
    _check_dan(dan)
    if dan == TENHOUI:
        raise ValueError("天鳳位 has no place on the stable-dan scale")
    return dan - (SHODAN - 1)


# -- promotion -------------------------------------------------------------------------------

_KYU_PROMOTE_AT = (20, 20, 20, 20, 40, 60, 80, 100, 100, 100)
"""昇段pt of 新人, 9級 ... 1級 (the current table; see the docs for the older 30/60/90 one)."""


@dataclass(frozen=True, slots=True)
class DanStep:
    """The points of one rank: what a player holds on reaching it (初期pt) and what promotes
    them to the next one (昇段pt). Four-player ranked games."""

    dan: int
    start_pt: int | None
    """初期pt: the points on reaching the rank (also after a promotion's surplus is dropped);
    ``None`` for 天鳳位, which keeps no points."""
    promote_at: int | None
    """昇段pt: reaching this total promotes; ``None`` for 天鳳位."""


def dan_step(dan: int) -> DanStep:
    """The starting and promotion points of a rank: kyu ranks start at 0 and need 20-100;
    the n-th dan starts at 200·n and needs 400·n (初段 200/400 ... 十段 2000/4000)."""
    _check_dan(dan)
    if dan < SHODAN:
        return DanStep(dan, 0, _KYU_PROMOTE_AT[dan])
    if dan < TENHOUI:
        n = dan - (SHODAN - 1)
        return DanStep(dan, 200 * n, 400 * n)
    return DanStep(dan, None, None)


# -- dan points per game ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RuleEra:
    """One period during which a set of dan-point tables held, for one player count.

    The tables are stored for East-only games; East-South games earn and lose exactly 1.5 times
    as much (every published value is divisible so)."""

    players: int
    start: date | None
    """First day the tables held (``None``: from the earliest log)."""
    end: date | None
    """First day they no longer held (``None``: still in force)."""
    first_second_east: tuple[tuple[Room, tuple[int, int]], ...]
    """Per room, the points of 1st and 2nd place in an East-only game; a four-player game's 3rd
    place earns 0 (a three-player game's 2nd place earns 0: its second value)."""
    last_step_east: int
    """The last place loss per rank above 3級 in an East-only game."""

    def covers(self, on: date | None) -> bool:
        if on is None:
            return self.end is None
        return (self.start is None or self.start <= on) and (self.end is None or on < self.end)


_ERAS: tuple[RuleEra, ...] = (
    RuleEra(
        players=4, start=None, end=None,
        first_second_east=(
            (Room.IPPAN, (20, 10)), (Room.JOUKYUU, (40, 10)),
            (Room.TOKUJOU, (50, 20)), (Room.HOUOU, (60, 30)),
        ),
        last_step_east=10,
    ),
    RuleEra(
        players=3, start=None, end=None,
        first_second_east=(
            (Room.IPPAN, (30, 0)), (Room.JOUKYUU, (50, 0)),
            (Room.TOKUJOU, (70, 0)), (Room.HOUOU, (90, 0)),
        ),
        last_step_east=10,
    ),
)
"""Every era we could confirm (the sources are in docs/stats.md). No source dated a change of the
four-player tables (sources from 2015 to 2022 agree, and the rate formula they quote beside them
fits logs from 2009 to 2022), nor of the three-player ones (three sources agree: 1st place 30 /
50 / 70 / 90 by room in East-only games, 2nd place 0, 3rd place the four-player last-place
loss)."""


def rule_era(players: int, on: date | None = None) -> RuleEra | None:
    """The tables in force on a day (Japan time, the day in the game id), or today's when
    ``on`` is ``None``; ``None`` when no confirmed table covers it."""
    require_players(players)
    for era in _ERAS:
        if era.players == players and era.covers(on):
            return era
    return None


def _scaled(points: int, length: Length) -> int:
    return points * 3 // 2 if length is Length.SOUTH else points


def last_place_loss(dan: int, length: Length, players: int = 4, on: date | None = None) -> int | None:
    """The points last place loses (a positive number) at a rank: 0 up to 3級, then 10 more per
    rank in East-only games (2級 10, 初段 30, 七段 90, 十段 120) and 15 more in East-South ones
    (2級 15, 初段 45, 七段 135, 十段 180). ``None`` for 天鳳位 and without a confirmed table."""
    _check_dan(dan)
    era = rule_era(players, on)
    if era is None or dan == TENHOUI:
        return None
    return _scaled(era.last_step_east * max(0, dan - FOURTH_LOSS_FREE_DAN), length)


@dataclass(frozen=True, slots=True)
class PtTable:
    """The dan points (段位pt) each placement earns at one rank, for one table kind."""

    room: Room
    length: Length
    players: int
    dan: int
    points: tuple[int, ...]
    """Points of 1st, 2nd, ... last place (negative for a loss)."""

    def pt(self, rank: int) -> int:
        """The points of finishing ``rank`` (1 = first)."""
        require_rank(rank, self.players)
        return self.points[rank - 1]


def pt_table(room: Room, length: Length, players: int, dan: int,
             on: date | None = None) -> PtTable | None:
    """The points per placement for a ranked game in ``room`` of ``length`` for a player of
    rank ``dan`` (the ``UN dan`` of that game), played on day ``on``.

    ``None`` when there is none to give: 天鳳位 keeps no points. Points depend on the room only
    through 1st and 2nd place (three-player: 1st place, 2nd earns 0), on the rank only through
    last place (the same loss at 4th of four and 3rd of three)."""
    _check_dan(dan)
    era = rule_era(players, on)
    if era is None or dan == TENHOUI:
        return None
    first, second = dict(era.first_second_east)[room]
    loss = era.last_step_east * max(0, dan - FOURTH_LOSS_FREE_DAN)
    east = (first, second) + (0,) * (players - 3) + (-loss,)
    return PtTable(room, length, players, dan, tuple(_scaled(p, length) for p in east))


def dan_pt(rank: int, room: Room, length: Length, players: int, dan: int,
           on: date | None = None) -> int | None:
    """The dan points of one game: finishing ``rank`` at rank ``dan``. ``None`` where
    ``pt_table`` has no table (天鳳位)."""
    table = pt_table(room, length, players, dan, on)
    return None if table is None else table.pt(rank)


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
    gain = _scaled(first, length) * counts[0] + _scaled(second, length) * counts[1]
    step = _scaled(era.last_step_east, length)
    return gain / (step * counts[-1]) + stable_scale(FOURTH_LOSS_FREE_DAN)


# -- checks -----------------------------------------------------------------------------------


def _check_dan(dan: int) -> None:
    if not 0 <= dan <= TENHOUI:
        raise ValueError(f"dan id must be 0-{TENHOUI}, not {dan}")


def _check_counts(rank_counts: Sequence[float], players: int) -> tuple[float, ...]:
    require_players(players)
    counts = tuple(rank_counts)
    if len(counts) != players:
        raise ValueError(f"{players} players need {players} rank counts, not {len(counts)}")
    if any(n < 0 for n in counts):
        raise ValueError(f"rank counts must not be negative: {counts}")
    return counts
