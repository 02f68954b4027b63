"""``rules.dan_points``: how Tenhou's dan points (段位pt) carry from game to game, with readable
values (docs/findings.md "Across games", docs/stats.md "Dan points per game").

Dan ids are those of ``UN dan``: 8 = 2級, 9 = 1級, 10 = 初段, 11 = 二段, 16 = 七段, 17 = 八段,
18 = 九段, 19 = 十段, 20 = 天鳳位. Houou East-South: 1st +90, 2nd +45, 4th -15 per rank above 3級
(八段 -150); three-player Houou East-South: 1st +135.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from tenhou_tools.events import Room
from tenhou_tools.ids import JST
from tenhou_tools.rules.dan_points import (
    EAST_SOUTH_SCALED_FROM,
    KYU_TABLES_CHANGED,
    DanStanding,
    carried_pt,
    dan_after,
    demotion_anchor,
    demotion_start,
    promotion_anchor,
    promotion_points,
)
from tenhou_tools.rules.standing import Length

EAST, SOUTH = Length.EAST, Length.SOUTH
NIKYUU, IKKYUU, SHODAN, NIDAN, SHICHIDAN, HACHIDAN, KUDAN, JUUDAN, TENHOUI = 8, 9, 10, 11, 16, 17, 18, 19, 20
DAY = datetime(2020, 1, 1, 12, tzinfo=JST)


def after(dan: int, points: int | None, game_pt: int, players: int = 4, on: datetime = DAY):
    return dan_after(DanStanding(dan, points), game_pt, players, on)


def test_points_below_the_promotion_stay_at_the_rank():
    assert after(HACHIDAN, 3100, 90) == DanStanding(HACHIDAN, 3190)  # 3200 not reached
    assert after(HACHIDAN, 1600, 0) == DanStanding(HACHIDAN, 1600)  # a 3rd place


def test_reaching_the_promotion_points_promotes_to_the_starting_points():
    assert after(HACHIDAN, 3110, 90) == DanStanding(KUDAN, 1800)  # exactly 3200
    assert after(HACHIDAN, 3190, 90) == DanStanding(KUDAN, 1800)  # 3280: the surplus is dropped
    assert after(SHICHIDAN, 2760, 45) == DanStanding(HACHIDAN, 1600)  # a 2nd place promotes too


def test_falling_below_zero_demotes_to_the_lower_ranks_starting_points():
    assert after(HACHIDAN, 100, -150) == DanStanding(SHICHIDAN, 1400)
    assert after(NIDAN, 30, -60) == DanStanding(SHODAN, 200)
    assert after(HACHIDAN, 150, -150) == DanStanding(HACHIDAN, 0)  # zero is not below zero


def test_shodan_is_demoted_to_1_kyu_with_points_not_known():
    """The two code sources give 1級 0 and 50 points after a demotion from 初段: the rank is
    held, the points are not carried on."""
    assert after(SHODAN, 20, -45) == DanStanding(IKKYUU, None)
    assert demotion_start(SHODAN) is None
    assert after(IKKYUU, None, 90) is None


def test_a_kyu_rank_below_zero_is_not_carried():
    """Whether 2級 and 1級 are demoted is stated both ways (rules.standing.dan_moves allows both):
    the points stop there rather than pick one."""
    assert after(NIKYUU, 5, -15) is None
    assert after(NIKYUU, 15, -15) == DanStanding(NIKYUU, 0)  # zero is not below zero
    assert after(IKKYUU, 95, 20) == DanStanding(SHODAN, 200)  # 100 promotes 1級 (four-player, 2020)


def test_kyu_promotion_points_are_held_only_where_the_sources_agree():
    assert promotion_points(IKKYUU, 4, KYU_TABLES_CHANGED) == 100
    assert promotion_points(0, 4, KYU_TABLES_CHANGED) == 20
    assert promotion_points(0, 4, datetime(2017, 10, 24, 5, tzinfo=JST)) is None  # 30 or 20
    assert promotion_points(0, 3, DAY) is None  # three-player kyu tables: stated two ways
    assert after(0, 10, 20, on=datetime(2016, 1, 1, tzinfo=JST)) is None
    assert promotion_points(SHODAN, 3, datetime(2011, 1, 1, tzinfo=JST)) == 400  # dan ranks: always


def test_tenhoui_holds_no_points():
    assert after(JUUDAN, 3950, 90) == DanStanding(TENHOUI, None)
    assert promotion_anchor(TENHOUI) == DanStanding(TENHOUI, None)
    assert after(TENHOUI, None, -180) is None
    assert demotion_start(TENHOUI) is None
    assert carried_pt(1, Room.HOUOU, SOUTH, 4, TENHOUI, DAY) is None


def test_anchors():
    assert promotion_anchor(KUDAN) == DanStanding(KUDAN, 1800)
    assert promotion_anchor(SHODAN) == DanStanding(SHODAN, 200)
    assert demotion_anchor(HACHIDAN) == DanStanding(SHICHIDAN, 1400)
    assert demotion_anchor(SHODAN) == DanStanding(IKKYUU, None)
    with pytest.raises(ValueError, match="not demoted"):
        demotion_anchor(IKKYUU)
    with pytest.raises(ValueError, match="not demoted"):
        demotion_anchor(TENHOUI)


def test_the_points_a_game_carries():
    assert carried_pt(1, Room.HOUOU, SOUTH, 4, HACHIDAN, DAY) == 90
    assert carried_pt(4, Room.HOUOU, SOUTH, 4, HACHIDAN, DAY) == -150
    assert carried_pt(4, Room.HOUOU, EAST, 4, HACHIDAN, DAY) == -100
    assert carried_pt(1, Room.HOUOU, SOUTH, 3, HACHIDAN, DAY) == 135
    assert carried_pt(2, Room.HOUOU, SOUTH, 3, HACHIDAN, DAY) == 0


def test_the_points_are_not_carried_where_the_sources_disagree():
    before = datetime(2017, 10, 24, 5, tzinfo=JST)
    assert carried_pt(1, Room.IPPAN, EAST, 4, SHODAN, before) is None  # +30 or +20
    assert carried_pt(1, Room.IPPAN, EAST, 4, SHODAN, KYU_TABLES_CHANGED) == 20
    assert carried_pt(1, Room.IPPAN, EAST, 3, SHODAN, before) == 30  # three-player: one table
    assert carried_pt(1, Room.JOUKYUU, EAST, 4, SHODAN, before) == 40
    early = datetime(2008, 8, 31, 23, tzinfo=JST)
    assert carried_pt(1, Room.HOUOU, SOUTH, 4, SHICHIDAN, early) is None  # East-South: 60 or 90
    assert carried_pt(1, Room.HOUOU, SOUTH, 4, SHICHIDAN, EAST_SOUTH_SCALED_FROM) == 90
    assert carried_pt(1, Room.HOUOU, EAST, 4, SHICHIDAN, early) == 60
