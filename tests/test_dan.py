"""``stats.dan``: Tenhou's dan points, stable dan and rate change, checked on examples worked out
by hand from the published tables (docs/stats.md, "Dan points, stable dan and rate").

Dan ids are those of ``UN dan``: 7 = 3級, 8 = 2級, 9 = 1級, 10 = 初段, 16 = 七段, 19 = 十段,
20 = 天鳳位. East-South values are 1.5 × the East-only ones.
"""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tenhou_tools.events import Room
from tenhou_tools.stats.dan import (
    DAN_NAMES,
    DanStep,
    Length,
    dan_name,
    dan_pt,
    dan_step,
    expected_pt,
    games_factor,
    last_place_loss,
    pt_table,
    rate_change,
    rule_era,
    stable_dan,
    stable_scale,
    table_average_rate,
)

EAST, SOUTH = Length.EAST, Length.SOUTH
IPPAN, JOUKYUU, TOKUJOU, HOUOU = Room.IPPAN, Room.JOUKYUU, Room.TOKUJOU, Room.HOUOU


# -- names and scale ------------------------------------------------------------------------


def test_dan_names_follow_the_un_ids():
    assert len(DAN_NAMES) == 21
    assert (dan_name(0), dan_name(1), dan_name(9), dan_name(10), dan_name(16), dan_name(20)) == (
        "新人", "9級", "1級", "初段", "七段", "天鳳位")


def test_the_stable_scale_counts_dans_from_shodan():
    """初段 (id 10) is 1, 七段 (16) is 7, 十段 (19) is 10; 1級 (9) is 0, 3級 (7) is -2."""
    assert [stable_scale(d) for d in (7, 8, 9, 10, 16, 19)] == [-2, -1, 0, 1, 7, 10]
    with pytest.raises(ValueError):
        stable_scale(20)


@pytest.mark.parametrize("bad", [-1, 21])
def test_an_unknown_dan_id_is_refused(bad):
    with pytest.raises(ValueError, match="dan id"):
        dan_pt(1, HOUOU, SOUTH, 4, bad)


# -- promotion -------------------------------------------------------------------------------


def test_kyu_ranks_start_at_zero_and_need_20_to_100():
    """新人 and 9級-7級 need 20, 6級 40, 5級 60, 4級 80, 3級-1級 100; all start at 0."""
    assert [dan_step(d).promote_at for d in range(10)] == [20, 20, 20, 20, 40, 60, 80, 100, 100, 100]
    assert {dan_step(d).start_pt for d in range(10)} == {0}


def test_dan_ranks_start_at_200n_and_need_400n():
    """初段 (n=1) starts at 200 and needs 400; 七段 (n=7): 1400 and 2800; 十段 (n=10): 2000, 4000."""
    assert dan_step(10) == DanStep(10, 200, 400)
    assert dan_step(16) == DanStep(16, 1400, 2800)
    assert dan_step(19) == DanStep(19, 2000, 4000)
    assert dan_step(20) == DanStep(20, None, None)


# -- dan points per game: one table kind at a time -------------------------------------------


@pytest.mark.parametrize(("room", "length", "dan", "points"), [
    # Ippan East at 5級 (id 5): 1st +20, 2nd +10, 3rd 0; 4th: 5級 is at or below 3級, so 0.
    (IPPAN, EAST, 5, (20, 10, 0, 0)),
    # Ippan East-South at 1級 (id 9): 1.5 × (20, 10) = (30, 15); 4th: two ranks above 3級,
    # 2 × 15 = 30.
    (IPPAN, SOUTH, 9, (30, 15, 0, -30)),
    # Joukyuu East at 二段 (id 11): (40, 10); 4th: 11 - 7 = 4 ranks above 3級, 4 × 10 = 40.
    (JOUKYUU, EAST, 11, (40, 10, 0, -40)),
    # Joukyuu East-South at 三段 (id 12): 1.5 × (40, 10) = (60, 15); 4th: 5 × 15 = 75.
    (JOUKYUU, SOUTH, 12, (60, 15, 0, -75)),
    # Tokujou East at 五段 (id 14): (50, 20); 4th: 7 × 10 = 70.
    (TOKUJOU, EAST, 14, (50, 20, 0, -70)),
    # Tokujou East-South at 五段: 1.5 × (50, 20) = (75, 30); 4th: 7 × 15 = 105 (the lobby
    # tooltip Riichi Book 1 quotes for a 五段: +75 / +30 / 0 / -105).
    (TOKUJOU, SOUTH, 14, (75, 30, 0, -105)),
    # Houou East at 七段 (id 16): (60, 30); 4th: 9 × 10 = 90.
    (HOUOU, EAST, 16, (60, 30, 0, -90)),
    # Houou East-South at 七段: (90, 45); 4th: 9 × 15 = 135 (Mortal's [90, 45, 0, -135]).
    (HOUOU, SOUTH, 16, (90, 45, 0, -135)),
    # Houou East-South at 十段 (id 19): 4th: 12 × 15 = 180, two tops to make up for it.
    (HOUOU, SOUTH, 19, (90, 45, 0, -180)),
])
def test_points_per_placement(room, length, dan, points):
    table = pt_table(room, length, 4, dan)
    assert table is not None and table.points == points
    assert [dan_pt(rank, room, length, 4, dan) for rank in (1, 2, 3, 4)] == list(points)


@pytest.mark.parametrize(("dan", "east", "south"), [
    (0, 0, 0),      # 新人
    (7, 0, 0),      # 3級: the last rank whose 4th place costs nothing
    (8, 10, 15),    # 2級: one step
    (10, 30, 45),   # 初段: three steps
    (19, 120, 180), # 十段: twelve steps
])
def test_the_last_place_loss_starts_above_3_kyu(dan, east, south):
    assert last_place_loss(dan, EAST) == east
    assert last_place_loss(dan, SOUTH) == south


def test_the_room_changes_only_first_and_second_place():
    """The same 六段 (id 15) loses 8 × 15 = 120 in every room's East-South game."""
    assert {pt_table(room, SOUTH, 4, 15).points[2:] for room in Room} == {(0, -120)}


def test_tenhoui_keeps_no_points():
    assert pt_table(HOUOU, SOUTH, 4, 20) is None
    assert dan_pt(1, HOUOU, SOUTH, 4, 20) is None
    assert last_place_loss(20, SOUTH) is None


# -- three-player tables ----------------------------------------------------------------------
# The arcturus wiki's "Tenhou.net ranking" (revision of 2019-09-19), nodocchi-helper's src.js and
# Majsoul-QQBot's ptcalculation.py agree (docs/stats.md): 1st place +30 / +50 / +70 / +90 by room
# in East-only games, 2nd place 0, 3rd place the four-player last-place loss; East-South 1.5 ×.


@pytest.mark.parametrize(("room", "length", "dan", "points"), [
    # Ippan East at 4級 (id 6): 1st +30, 2nd 0; 3rd: 4級 is below 2級, so 0.
    (IPPAN, EAST, 6, (30, 0, 0)),
    # Ippan East-South at 1級 (id 9): 1.5 × 30 = 45; 3rd: two ranks above 3級, 2 × 15 = 30.
    (IPPAN, SOUTH, 9, (45, 0, -30)),
    # Joukyuu East at 二段 (id 11): +50; 3rd: 11 - 7 = 4 ranks above 3級, 4 × 10 = 40.
    (JOUKYUU, EAST, 11, (50, 0, -40)),
    # Joukyuu East-South at 三段 (id 12): 1.5 × 50 = 75; 3rd: 5 × 15 = 75.
    (JOUKYUU, SOUTH, 12, (75, 0, -75)),
    # Tokujou East at 五段 (id 14): +70; 3rd: 7 × 10 = 70.
    (TOKUJOU, EAST, 14, (70, 0, -70)),
    # Tokujou East-South at 六段 (id 15): 1.5 × 70 = 105; 3rd: 8 × 15 = 120 (the wiki's row).
    (TOKUJOU, SOUTH, 15, (105, 0, -120)),
    # Houou East at 七段 (id 16): +90; 3rd: 9 × 10 = 90.
    (HOUOU, EAST, 16, (90, 0, -90)),
    # Houou East-South at 八段 (id 17): 1.5 × 90 = 135; 3rd: 10 × 15 = 150.
    (HOUOU, SOUTH, 17, (135, 0, -150)),
    # Houou East-South at 十段 (id 19): 3rd: 12 × 15 = 180.
    (HOUOU, SOUTH, 19, (135, 0, -180)),
])
def test_three_player_points_per_placement(room, length, dan, points):
    table = pt_table(room, length, 3, dan)
    assert table is not None and table.points == points
    assert [dan_pt(rank, room, length, 3, dan) for rank in (1, 2, 3)] == list(points)


def test_three_player_last_place_loses_what_a_four_player_last_place_does():
    for dan in range(20):
        for length in Length:
            assert last_place_loss(dan, length, 3) == last_place_loss(dan, length, 4)
            assert pt_table(HOUOU, length, 3, dan).points[-1] == pt_table(HOUOU, length, 4, dan).points[-1]
    assert pt_table(HOUOU, SOUTH, 3, 20) is None  # 天鳳位 keeps no points
    with pytest.raises(ValueError, match="rank must be 1-3"):
        dan_pt(4, HOUOU, SOUTH, 3, 16)


def test_three_player_stable_dan_houou_even_distribution():
    """A third of each place in Houou East-South (+135, 2nd 0, 3rd 15·(d+2)):
    (10·135) / (15·10) - 2 = 1350 / 150 - 2 = 9 - 2 = 7.0: the players' shortcut 9·n1/n3 - 2."""
    assert stable_dan([10, 10, 10], HOUOU, SOUTH, 3) == pytest.approx(7.0)
    assert stable_dan([10, 10, 10], HOUOU, EAST, 3) == pytest.approx(7.0)


def test_three_player_stable_dan_worked_examples():
    """Tokujou East-only (+70), 1st 40, 2nd 33, 3rd 27: (40·70) / (10·27) - 2 = 2800/270 - 2 =
    8.370...; Joukyuu East-South (+75), 1st 12, 2nd 20, 3rd 8: (12·75) / (15·8) - 2 = 900/120 - 2
    = 5.5; Ippan East-South (+45), 1st 10, 2nd 10, 3rd 15: 450 / 225 - 2 = 0.0: 1級. 2nd places
    earn nothing, so they do not move it."""
    assert stable_dan([40, 33, 27], TOKUJOU, EAST, 3) == pytest.approx(2800 / 270 - 2)
    assert stable_dan([12, 20, 8], JOUKYUU, SOUTH, 3) == pytest.approx(5.5)
    assert stable_dan([12, 99, 8], JOUKYUU, SOUTH, 3) == pytest.approx(5.5)
    assert stable_dan([10, 10, 15], IPPAN, SOUTH, 3) == pytest.approx(0.0)
    assert stable_dan([5, 5, 0], HOUOU, SOUTH, 3) is None  # no last place: nothing balances


def test_three_player_expected_points():
    """Houou East-South at 七段 (3rd loses 9 × 15 = 135), ranks 40/30/30 games:
    (40·135 + 30·0 - 30·135) / 100 = (5400 - 4050) / 100 = 13.5."""
    assert expected_pt([40, 30, 30], HOUOU, SOUTH, 3, 16) == pytest.approx(13.5)


def test_a_rank_outside_the_table_is_refused():
    with pytest.raises(ValueError, match="rank must be 1-4"):
        dan_pt(5, HOUOU, SOUTH, 4, 16)
    with pytest.raises(ValueError, match="players"):
        pt_table(HOUOU, SOUTH, 2, 16)


@pytest.mark.parametrize("day", [
    date(2008, 12, 31),   # before the earliest four-player log in the corpus (2009)
    date(2009, 2, 1),     # the corpus's first Houou game
    date(2015, 12, 20),   # Riichi Book 1's snapshot of the tables
    date(2017, 1, 1),
    date(2022, 6, 19),    # the Japanese Wikipedia revision quoted in the docs
    date(2026, 1, 1),
])
def test_the_four_player_tables_hold_on_every_date(day):
    """No source dates a change of the four-player tables: one era covers every day, so the
    table of a day equals today's (``on=None``)."""
    assert rule_era(4, day) is rule_era(4)
    assert pt_table(HOUOU, SOUTH, 4, 17, on=day) == pt_table(HOUOU, SOUTH, 4, 17)


# -- expected points and stable dan ----------------------------------------------------------


def test_expected_points_per_game():
    """Houou East-South at 八段 (id 17: 4th loses 10 × 15 = 150), ranks 30/25/25/20 games:
    (30·90 + 25·45 + 25·0 - 20·150) / 100 = (2700 + 1125 - 3000) / 100 = 8.25."""
    assert expected_pt([30, 25, 25, 20], HOUOU, SOUTH, 4, 17) == pytest.approx(8.25)
    assert expected_pt([0, 0, 0, 0], HOUOU, SOUTH, 4, 17) is None


def test_stable_dan_houou_east_worked_example():
    """1st 3, 2nd 4, 3rd 3, 4th 3 games in Houou East-only (+60/+30, 4th 10·(d+2)):
    (3·60 + 4·30) / (10·3) - 2 = 300 / 30 - 2 = 8.0 (the example of mahjong-dora2.com,
    ((3·60 + 4·30)/3 - 20)/10 = 8)."""
    assert stable_dan([3, 4, 3, 3], HOUOU, EAST, 4) == pytest.approx(8.0)


def test_stable_dan_houou_south_even_distribution():
    """25 % of each place in Houou East-South: (25·90 + 25·45) / (15·25) - 2 = 3375/375 - 2 = 7.0:
    the average Houou player balances at 七段."""
    assert stable_dan([25, 25, 25, 25], HOUOU, SOUTH, 4) == pytest.approx(7.0)


def test_stable_dan_is_the_same_for_east_and_south():
    """Every East-South value is 1.5 × the East-only one, so the ratio does not change."""
    counts = [31, 27, 22, 20]
    assert stable_dan(counts, TOKUJOU, EAST, 4) == pytest.approx(stable_dan(counts, TOKUJOU, SOUTH, 4))


def test_stable_dan_tokujou_worked_example():
    """Tokujou East-South (+75/+30), 1st 30, 2nd 26, 3rd 24, 4th 20:
    (30·75 + 26·30) / (15·20) - 2 = (2250 + 780) / 300 - 2 = 10.1 - 2 = 8.1;
    the same as the players' shortcut (5·n1 + 2·n2)/n4 - 2 = (150 + 52)/20 - 2 = 8.1."""
    assert stable_dan([30, 26, 24, 20], TOKUJOU, SOUTH, 4) == pytest.approx(8.1)


def test_stable_dan_joukyuu_worked_example():
    """Joukyuu East-only (+40/+10), 1st 28, 2nd 26, 3rd 25, 4th 21:
    (28·40 + 26·10) / (10·21) - 2 = 1380 / 210 - 2 = 6.5714... - 2 = 4.5714..."""
    assert stable_dan([28, 26, 25, 21], JOUKYUU, EAST, 4) == pytest.approx(1380 / 210 - 2)


def test_stable_dan_ippan_worked_example():
    """Ippan East-South (+30/+15), 1st 25, 2nd 25, 3rd 25, 4th 25:
    (25·30 + 25·15) / (15·25) - 2 = 1125 / 375 - 2 = 1.0: 初段."""
    assert stable_dan([25, 25, 25, 25], IPPAN, SOUTH, 4) == pytest.approx(1.0)


def test_stable_dan_of_rates_equals_that_of_counts():
    assert stable_dan([0.3, 0.25, 0.25, 0.2], HOUOU, SOUTH, 4) == pytest.approx(
        stable_dan([30, 25, 25, 20], HOUOU, SOUTH, 4))


def test_stable_dan_edges():
    """No 4th place: nothing balances the gains, undefined. Only 4th places: the floor, 3級 (-2).
    No games: undefined."""
    assert stable_dan([10, 5, 5, 0], HOUOU, SOUTH, 4) is None
    assert stable_dan([0, 0, 0, 0], HOUOU, SOUTH, 4) is None
    assert stable_dan([0, 0, 0, 7], HOUOU, SOUTH, 4) == pytest.approx(-2.0)
    with pytest.raises(ValueError):
        stable_dan([1, 2, 3], HOUOU, SOUTH, 4)
    with pytest.raises(ValueError):
        stable_dan([1, -2, 3, 4], HOUOU, SOUTH, 4)


@given(
    counts=st.lists(st.integers(0, 200), min_size=4, max_size=4).filter(lambda c: c[3] > 0),
    room=st.sampled_from(list(Room)),
    length=st.sampled_from(list(Length)),
)
def test_the_points_change_sign_at_the_stable_dan(counts, room, length):
    """Below the stable dan the expected points are positive, above it negative, and at an
    integer stable dan they are zero (dan ids 7-19, where the loss grows linearly)."""
    stable = stable_dan(counts, room, length, 4)
    for dan in range(7, 20):
        mean = expected_pt(counts, room, length, 4, dan)
        position = stable_scale(dan)
        if position < stable - 1e-9:
            assert mean > -1e-9
        elif position > stable + 1e-9:
            assert mean < 1e-9
        else:
            assert mean == pytest.approx(0, abs=1e-9)


# -- rate ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("games", "factor"), [(0, 1.0), (100, 0.8), (399, 0.202), (400, 0.2), (5000, 0.2)])
def test_games_factor(games, factor):
    """1 - 0.002·n below 400 games (100 games: 1 - 0.2 = 0.8; 399: 1 - 0.798 = 0.202), 0.2 after."""
    assert games_factor(games) == pytest.approx(factor)


def test_rate_change_four_player_worked_examples():
    """Own R 2000 at a table of 2000, 2100, 1900, 2000 (average 8000/4 = 2000), 400+ games,
    4th: 0.2 · (-30 + (2000 - 2000)/40) = -6.0.
    Own R 2000 with 1500, 1500, 1400 (average 6400/4 = 1600), 4th: 0.2 · (-30 - 400/40) = -8.0.
    Own R 1900, 100 games played, 1st at a table averaging 1900: 0.8 · 30 = 24.0."""
    assert table_average_rate([2000, 2100, 1900, 2000]) == 2000
    assert rate_change(4, 2000, 2000, 400, 4).value == pytest.approx(-6.0)
    assert table_average_rate([2000, 1500, 1500, 1400]) == 1600
    assert rate_change(4, 2000, 1600, 800, 4).value == pytest.approx(-8.0)
    change = rate_change(1, 1900, 1900, 100, 4)
    assert (change.value, change.exact, change.factor) == (pytest.approx(24.0), True, pytest.approx(0.8))


def test_rate_change_three_player_worked_example():
    """Three-player bases +30 / 0 / -30. Own R 2100 at 2100, 2200, 2000 (average 2100), 2nd:
    0.2 · (0 + 0) = 0. Own R 2000 at 2000, 2200, 2300 (average 2166.67), 3rd:
    0.2 · (-30 + 166.67/40) = 0.2 · (-30 + 4.1667) = -5.1667."""
    assert rate_change(2, 2100, table_average_rate([2100, 2200, 2000]), 999, 3).value == 0
    avg = table_average_rate([2000, 2200, 2300])
    assert rate_change(3, 2000, avg, 999, 3).value == pytest.approx(0.2 * (-30 + (6500 / 3 - 2000) / 40))
    with pytest.raises(ValueError):
        rate_change(4, 2000, 2000, 999, 3)


def test_rate_change_with_unknown_games_is_an_estimate():
    """Unknown games played: the 400+ factor 0.2 is assumed, and the range covers factors
    0.2-1.0. 1st at own 1800, average 1880: raw 30 + 80/40 = 32, estimate 6.4, range 6.4-32."""
    change = rate_change(1, 1800, 1880, None, 4, SOUTH)
    assert not change.exact
    assert (change.value, change.low, change.high) == (pytest.approx(6.4), pytest.approx(6.4), pytest.approx(32))
    loss = rate_change(4, 1800, 1800, None, 4)
    assert (loss.low, loss.high) == (pytest.approx(-30), pytest.approx(-6))


def test_rate_change_does_not_depend_on_the_length():
    assert rate_change(2, 2050, 2010, 700, 4, EAST) == rate_change(2, 2050, 2010, 700, 4, SOUTH)
