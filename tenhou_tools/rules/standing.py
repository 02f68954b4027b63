"""Standing across games: how a player's dan (段位) and rate (R, レート) move from one ranked game to
the next, as pure functions. ``validate`` holds a player's consecutive games to them
(``crossgame``); ``stats.dan`` (dan points, stable dan) names the rate formula from here.

Sources: Tenhou's rate formula and its tables (docs/stats.md, "Expected rate change": the
published formula, checked on the corpus), the promotion and demotion rules (docs/stats.md, "Dan
points per game"), and what the corpus's consecutive games show (docs/findings.md,
"Across games"). Dan ids are those of ``UN dan``: 0 新人, 1-9 = 9級..1級, 10 初段 ... 19 十段,
20 天鳳位.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

__all__ = [
    "FOURTH_LOSS_FREE_DAN",
    "GAMES_FACTOR_FLOOR",
    "RATE_DIVISOR",
    "RATE_SLACK",
    "RATE_STEP",
    "GAMES_PLAYED_FLOOR",
    "TENHOUI",
    "Length",
    "RateChange",
    "dan_moves",
    "games_factor",
    "next_rate",
    "rate_change",
    "rate_follows",
    "require_players",
    "require_rank",
    "table_average_rate",
    "whole_rates",
]

TENHOUI = 20
"""Dan id of 天鳳位, the final rank: it keeps no points and is never demoted."""
FOURTH_LOSS_FREE_DAN = 7
"""Dan id of 3級, the highest rank whose last place costs nothing; the loss grows by one step
per rank above it (2級 one step, 初段 three, 十段 twelve)."""






class Length(Enum):
    """How long a game is: East only (東風戦, tonpuusen) or East-South (東南戦, hanchan)."""

    EAST = "east"
    SOUTH = "south"

    @classmethod
    def from_east_south(cls, east_south: bool) -> Length:
        """From ``Ruleset.east_south`` (``GO type`` bit 0x08)."""
        return cls.SOUTH if east_south else cls.EAST




# -- rate -------------------------------------------------------------------------------------

_RATE_BASE = {4: (30, 10, -10, -30), 3: (30, 0, -30)}
"""順位基準点: the rate change by placement before the corrections."""
RATE_DIVISOR = 40
"""The table-average correction is (table average - own rate) / 40."""
GAMES_FACTOR_FLOOR = 0.2
"""The games-played factor from the 400th game on."""


def games_factor(games_played: int) -> float:
    """試合数補正: ``1 - 0.002 · n`` for a player who has played ``n`` < 400 games before this one
    (of that player count), ``0.2`` from 400 on."""
    if games_played < 0:
        raise ValueError(f"games played must be >= 0, not {games_played}")
    return 1 - 0.002 * games_played if games_played < 400 else GAMES_FACTOR_FLOOR


def table_average_rate(rates: Sequence[float]) -> float:
    """卓の平均R: the mean rate of everyone at the table, the player included (pass the three
    real players of a three-player game, not the empty seat's 1500)."""
    if len(rates) not in (3, 4):
        raise ValueError(f"a table has 3 or 4 players, not {len(rates)}")
    return sum(rates) / len(rates)


@dataclass(frozen=True, slots=True)
class RateChange:
    """The rate change (R) of one game, by Tenhou's published formula."""

    value: float
    """The change: ``factor · (base + (table average - own rate) / 40)``."""
    exact: bool
    """True when the games-played factor is known; otherwise ``value`` assumes 400 or more
    games (factor 0.2, the case of nearly every player in the upper rooms) and is an estimate."""
    factor: float
    """The games-played factor used."""
    low: float
    high: float
    """The range the change can take over every possible games-played factor (0.2 to 1.0);
    both equal ``value`` when it is exact."""


def rate_change(rank: int, own_rate: float, table_avg_rate: float, games_played: int | None,
                players: int, length: Length | None = None) -> RateChange:
    """The expected rate change for finishing ``rank`` with rate ``own_rate`` at a table whose
    average rate (the player included, see ``table_average_rate``) is ``table_avg_rate``.

    The base is +30/+10/-10/-30 in four-player games and +30/0/-30 in three-player ones; the
    formula has no length term (``length`` is accepted so callers can pass the table kind: the
    corpus check in the docs shows East-only and East-South games change alike)."""
    require_players(players)
    require_rank(rank, players)
    raw = _RATE_BASE[players][rank - 1] + (table_avg_rate - own_rate) / RATE_DIVISOR
    if games_played is not None:
        factor = games_factor(games_played)
        return RateChange(factor * raw, True, factor, factor * raw, factor * raw)
    bounds = (GAMES_FACTOR_FLOOR * raw, raw)
    return RateChange(GAMES_FACTOR_FLOOR * raw, False, GAMES_FACTOR_FLOOR, min(bounds), max(bounds))


# -- across games -----------------------------------------------------------------------------

RATE_STEP = 0.01
"""``UN rate`` carries hundredths (since late October 2010; whole numbers before)."""
RATE_SLACK = 0.001
"""How far a recorded rate may fall outside ``next_rate``'s hundredth. Measured on the corpus's
consecutive games: Tenhou's next rate is the formula's rate rounded *up* to the hundredth (3,052
of 3,096 pairs within 0.02), and the rest sit within 0.0005 of that hundredth's ends (the
server's arithmetic is not exact: 2271.02995 became 2271.04; 2077.14 - 5.7398875 became 2071.40,
a hair below the formula's 2071.4001)."""


def next_rate(own_rate: float, table_rates: Sequence[float], rank: int, players: int) -> float:
    """The rate (R) a player with 400 games or more holds in the next ranked game, by the
    formula, before Tenhou rounds it up to the hundredth (``rate_follows``)."""
    change = rate_change(rank, own_rate, table_average_rate(table_rates), GAMES_PLAYED_FLOOR, players)
    return own_rate + change.value


GAMES_PLAYED_FLOOR = 400
"""From this many games played the games factor is its floor (0.2): the only factor a pair of
logs can establish (a smaller one is not known: the count of games is in no log)."""


def rate_follows(predicted: float, recorded: float) -> bool:
    """Whether ``recorded`` (a later ``UN rate``) is ``predicted`` (``next_rate``) rounded up to
    Tenhou's hundredth: ``predicted <= recorded < predicted + 0.01``, with ``RATE_SLACK`` on
    each side."""
    return predicted - RATE_SLACK <= recorded <= predicted + RATE_STEP + RATE_SLACK


def whole_rates(rates: Sequence[float]) -> bool:
    """Whether every rate is a whole number (the 2009-2010 logs' ``UN rate``): such rates cannot
    establish that two games are consecutive (the step is as wide as a game's change)."""
    return all(math.isclose(r, round(r), abs_tol=1e-9) for r in rates)


def dan_moves(dan: int, rank: int, players: int) -> frozenset[int]:
    """The dan ids a player may hold in the next ranked game (of the same player count) after
    finishing ``rank`` (1 = first) at rank ``dan`` in this one: the same rank, one step up
    (昇段) after a place that earns points (1st; 2nd in a four-player game), one step down
    (降段) after last place where last place costs points (above 3級: ``FOURTH_LOSS_FREE_DAN``).
    天鳳位 (20) is the final rank: it neither moves up nor down.

    What this leaves open, because the points are not in the log: whether the game's points
    reached the promotion or fell below zero (both are allowed after such a place). Kyu ranks
    are allowed to move down after a last place that costs points (sources differ on whether
    1級 and 2級 are demoted; allowing it can only miss a forgery, never flag a genuine game)."""
    require_players(players)
    require_rank(rank, players)
    if dan >= TENHOUI:
        return frozenset({dan})
    moves = {dan}
    if rank == 1 or (rank == 2 and players == 4):
        moves.add(dan + 1)
    if rank == players and dan > FOURTH_LOSS_FREE_DAN:
        moves.add(dan - 1)
    return frozenset(moves)


# -- checks -----------------------------------------------------------------------------------


def require_players(players: int) -> None:
    """A player count the rules know (3 or 4), or ``ValueError``."""
    if players not in (3, 4):
        raise ValueError(f"players must be 3 or 4, not {players}")


def require_rank(rank: int, players: int) -> None:
    """A placement of ``players`` (1 = first), or ``ValueError``."""
    if not 1 <= rank <= players:
        raise ValueError(f"rank must be 1-{players}, not {rank}")
