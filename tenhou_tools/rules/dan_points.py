"""Tenhou's dan points (段位pt): the points each placement earns or costs by room, length, player
count, rank and era, the points a rank starts with and needs (初期pt, 昇段pt), and how the points
carry from game to game (promotion, demotion), as pure functions. The one home of these tables:
``stats.dan`` (points per game, stable dan) and ``crossgame`` (a player's consecutive games held
to the points carried from an observed promotion or demotion) both use them from here.

Dan ids are those of ``UN dan``: 0 新人, 1-9 = 9級..1級, 10 初段 ... 19 十段, 20 天鳳位.

Sources: docs/stats.md, "Dan points per game" (the tables, their dates, where the sources
disagree) and docs/findings.md, "Across games" (the carry rule, measured on the corpus).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from ..events import Room
from ..ids import JST
from .standing import FOURTH_LOSS_FREE_DAN, TENHOUI, Length, require_players, require_rank

__all__ = [
    "EAST_SOUTH_SCALED_FROM",
    "KYU_TABLES_CHANGED",
    "SHODAN",
    "DanStanding",
    "DanStep",
    "PtTable",
    "RuleEra",
    "carried_pt",
    "dan_after",
    "dan_pt",
    "dan_step",
    "demotion_anchor",
    "demotion_start",
    "last_place_loss",
    "length_scaled",
    "promotion_anchor",
    "promotion_points",
    "pt_table",
    "require_dan",
    "rule_era",
]

SHODAN = 10
"""Dan id of 初段 (first dan); ids below it are the kyu ranks (新人 and 9級..1級)."""


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
    require_dan(dan)
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


def length_scaled(points: int, length: Length) -> int:
    """East-only points as a game of ``length`` earns them (East-South: 1.5 times)."""
    return points * 3 // 2 if length is Length.SOUTH else points


def last_place_loss(dan: int, length: Length, players: int = 4, on: date | None = None) -> int | None:
    """The points last place loses (a positive number) at a rank: 0 up to 3級, then 10 more per
    rank in East-only games (2級 10, 初段 30, 七段 90, 十段 120) and 15 more in East-South ones
    (2級 15, 初段 45, 七段 135, 十段 180). ``None`` for 天鳳位 and without a confirmed table."""
    require_dan(dan)
    era = rule_era(players, on)
    if era is None or dan == TENHOUI:
        return None
    return length_scaled(era.last_step_east * max(0, dan - FOURTH_LOSS_FREE_DAN), length)


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
    require_dan(dan)
    era = rule_era(players, on)
    if era is None or dan == TENHOUI:
        return None
    first, second = dict(era.first_second_east)[room]
    loss = era.last_step_east * max(0, dan - FOURTH_LOSS_FREE_DAN)
    east = (first, second) + (0,) * (players - 3) + (-loss,)
    return PtTable(room, length, players, dan, tuple(length_scaled(p, length) for p in east))


def dan_pt(rank: int, room: Room, length: Length, players: int, dan: int,
           on: date | None = None) -> int | None:
    """The dan points of one game: finishing ``rank`` at rank ``dan``. ``None`` where
    ``pt_table`` has no table (天鳳位)."""
    table = pt_table(room, length, players, dan, on)
    return None if table is None else table.pt(rank)


# -- carrying the points from game to game ----------------------------------------------------

KYU_TABLES_CHANGED = datetime(2017, 10, 24, 6, tzinfo=JST)
"""The hour two public sources (nodocchi-helper, Majsoul-QQBot: docs/stats.md) switch a
four-player 一般 game's 1st / 2nd place from +30 / 0 to +20 / +10 (East-only) and the kyu
ranks' promotion points from 30/30/30/60/60/60/90 to 20/20/20/20/40/60/80; ``pt_table`` keeps one
table for every day (no primary source dates it), so the points carried across games
(``carried_pt``, ``promotion_points``) are held only where both readings agree."""
EAST_SOUTH_SCALED_FROM = datetime(2008, 9, 1, 0, tzinfo=JST)
"""nodocchi-helper has East-South games earn the East-only points before this hour (1.5 times
from it on): the carry holds no East-South game before it."""


@dataclass(frozen=True, slots=True)
class DanStanding:
    """A player's rank and dan points (段位pt) before a game: what the carry knows."""

    dan: int
    points: int | None
    """``None``: none to carry (天鳳位), or not known (1級 after a demotion from 初段): the rank
    is known, the chain of carried points ends there."""


def carried_pt(rank: int, room: Room, length: Length, players: int, dan: int,
               start: datetime) -> int | None:
    """The dan points of one game (``dan_pt``) where the sources agree on them on the game's
    hour ``start`` (Japan time); ``None`` where they do not (a four-player 一般 game before
    ``KYU_TABLES_CHANGED``, an East-South game before ``EAST_SOUTH_SCALED_FROM``) and for
    天鳳位, which holds no points."""
    if players == 4 and room is Room.IPPAN and start < KYU_TABLES_CHANGED:
        return None
    if length is Length.SOUTH and start < EAST_SOUTH_SCALED_FROM:
        return None
    return dan_pt(rank, room, length, players, dan, start.astimezone(JST).date())


def promotion_points(dan: int, players: int, start: datetime) -> int | None:
    """昇段pt where the sources agree: 400·n for the n-th dan (every era, both player counts),
    ``dan_step``'s kyu table for a four-player game from ``KYU_TABLES_CHANGED`` on; ``None``
    for a kyu rank otherwise (three-player kyu tables and the older four-player one are stated
    both ways) and for 天鳳位."""
    require_players(players)
    step = dan_step(dan)
    if dan < SHODAN and (players == 3 or start < KYU_TABLES_CHANGED):
        return None
    return step.promote_at


def promotion_anchor(dan_after_promotion: int) -> DanStanding:
    """The standing right after a promotion (昇段) to ``dan_after_promotion``: its starting
    points, any surplus dropped (riichi.wiki "Tenhou.net ranking"; nodocchi-helper, `src.js`;
    Majsoul-QQBot). 天鳳位 holds no points (``points`` is ``None``)."""
    return DanStanding(dan_after_promotion, dan_step(dan_after_promotion).start_pt)


def demotion_start(dan: int) -> int | None:
    """The points a player demoted (降段) from ``dan`` holds at the rank below: that rank's
    starting points (二段 → 初段 at 200, 八段 → 七段 at 1400: nodocchi-helper and Majsoul-QQBot
    both set them so; the pages state only that points below zero demote). ``None`` for 初段,
    whose demotion to 1級 the two code sources settle differently (0 and 50), and for the ranks
    that are not demoted (up to 1級: mahjong-dora2.com, k-bys.work, Japanese Wikipedia; and
    天鳳位)."""
    require_dan(dan)
    if dan <= SHODAN or dan >= TENHOUI:
        return None
    return dan_step(dan - 1).start_pt


def demotion_anchor(dan_before_demotion: int) -> DanStanding:
    """The standing right after a demotion from ``dan_before_demotion`` (初段 or above): the
    rank below, at ``demotion_start`` (``None``, not known, for 1級 after 初段)."""
    if not SHODAN <= dan_before_demotion < TENHOUI:
        raise ValueError(f"dan id {dan_before_demotion} is not demoted")
    return DanStanding(dan_before_demotion - 1, demotion_start(dan_before_demotion))


def dan_after(before: DanStanding, game_pt: int, players: int, start: datetime) -> DanStanding | None:
    """The standing after a game that earned ``game_pt`` (``carried_pt``) from ``before``:

    - the points reach the rank's promotion points (``promotion_points``): one rank up, at its
      starting points (surplus dropped);
    - they fall below zero at 初段 or above: one rank down, at the lower rank's starting points
      (``demotion_start``);
    - otherwise the same rank with the new total.

    ``None`` where the rule has no answer: no points to carry (``before.points`` is ``None``:
    天鳳位 never moves), promotion points the sources disagree on (``promotion_points``), or a
    kyu rank's points falling below zero: whether 2級 and 1級 are then demoted is stated both
    ways (``rules.standing.dan_moves`` allows both), so the points are not carried past it."""
    dan = before.dan
    promote = promotion_points(dan, players, start)
    if promote is None or before.points is None:
        return None
    total = before.points + game_pt
    if total >= promote:
        return promotion_anchor(dan + 1)
    if total < 0:
        return demotion_anchor(dan) if dan >= SHODAN else None
    return DanStanding(dan, total)


# -- checks -----------------------------------------------------------------------------------


def require_dan(dan: int) -> None:
    """A dan id of ``UN dan`` (0-20), or ``ValueError``."""
    if not 0 <= dan <= TENHOUI:
        raise ValueError(f"dan id must be 0-{TENHOUI}, not {dan}")
