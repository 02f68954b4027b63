"""rules/payments.py: base points, limits, win deltas (honba, sticks, double ron, pao), draws."""

from __future__ import annotations

import pytest

from tenhou_tools.rules.payments import (
    Limit,
    base_points,
    ceil100,
    draw_pool,
    exhaustive_draw_deltas,
    hand_points,
    limit_for,
    nagashi_deltas,
    ron_payment,
    tsumo_payments,
    win_deltas,
)

MANGAN, YAKUMAN = 2000, 8000


@pytest.mark.parametrize(
    ("han", "fu", "base", "limit"),
    [
        (1, 30, 240, Limit.NONE),
        (2, 25, 400, Limit.NONE),
        (3, 60, 1920, Limit.NONE),
        (4, 30, 1920, Limit.NONE),
        (4, 40, 2000, Limit.MANGAN),
        (3, 70, 2000, Limit.MANGAN),
        (5, 30, 2000, Limit.MANGAN),
        (6, 30, 3000, Limit.HANEMAN),
        (7, 30, 3000, Limit.HANEMAN),
        (8, 30, 4000, Limit.BAIMAN),
        (10, 30, 4000, Limit.BAIMAN),
        (11, 30, 6000, Limit.SANBAIMAN),
        (12, 30, 6000, Limit.SANBAIMAN),
        (13, 30, 8000, Limit.YAKUMAN),
        (30, 30, 8000, Limit.YAKUMAN),
    ],
)
def test_base_points_and_limit(han: int, fu: int, base: int, limit: Limit) -> None:
    assert base_points(han, fu) == base
    assert limit_for(han, fu) is limit


def test_yakuman_multiples() -> None:
    assert base_points(0, 0, yakuman=1) == 8000
    assert base_points(0, 0, yakuman=3) == 24000
    assert limit_for(0, 0, yakuman=2) is Limit.YAKUMAN


def test_kiriage_rounds_30_4_and_60_3_only() -> None:
    assert base_points(4, 30, kiriage=True) == MANGAN
    assert base_points(3, 60, kiriage=True) == MANGAN
    assert base_points(4, 25, kiriage=True) == 1600
    assert base_points(3, 50, kiriage=True) == 1600
    # The limit code stays 0, as Tenhou writes it.
    assert limit_for(4, 30) is Limit.NONE


def test_hand_points() -> None:
    assert ceil100(1920 * 4) == 7700
    assert ron_payment(1920, dealer=False) == 7700
    assert ron_payment(1920, dealer=True) == 11600
    assert tsumo_payments(240, dealer=False) == (500, 300)
    assert tsumo_payments(240, dealer=True) == (500, 500)
    assert hand_points(240, dealer=False, tsumo=True) == 1100
    assert hand_points(240, dealer=True, tsumo=True) == 1500
    # Three-player tsumo loss (ツモ損): 20 fu 4 han dealer tsumo is 2600 x 2.
    assert hand_points(1280, dealer=True, tsumo=True, players=3) == 5200
    assert hand_points(1280, dealer=False, tsumo=True, players=3) == 2600 + 1300
    assert hand_points(YAKUMAN, dealer=False, tsumo=True) == 32000


def test_ron_with_honba_and_sticks() -> None:
    deltas = win_deltas(MANGAN, winner=1, discarder=2, dealer=0, honba=2, sticks=1)
    assert deltas == (0, 8000 + 600 + 1000, -8600, 0)


def test_tsumo_with_honba_four_player() -> None:
    deltas = win_deltas(240, winner=2, discarder=None, dealer=0, honba=1, sticks=2)
    assert deltas == (-600, -400, 1100 + 300 + 2000, -400)
    # A discarder equal to the winner also means tsumo.
    assert win_deltas(240, winner=2, discarder=2, dealer=0, honba=1, sticks=2) == deltas


def test_three_player_honba() -> None:
    ron = win_deltas(MANGAN, winner=0, discarder=2, dealer=1, players=3, honba=2)
    assert ron == (8000 + 400, 0, -8400, 0)  # 200 per honba on a ron
    tsumo = win_deltas(MANGAN, winner=0, discarder=None, dealer=1, players=3, honba=3)
    assert tsumo == (4000 + 2000 + 600, -4300, -2300, 0)  # 100 per honba from each payer


def test_double_ron_bonus_goes_to_the_nearest_winner() -> None:
    # Seat 3 deals into seats 1 and 2 with 1 honba and 2 sticks; seat 0 (3+1) would be nearest,
    # here seat 1 is nearer than seat 2.
    first = win_deltas(MANGAN, winner=1, discarder=3, dealer=0, honba=1, sticks=2)
    second = win_deltas(240, winner=2, discarder=3, dealer=0, honba=1, sticks=2, collects_bonus=False)
    assert first == (0, 8000 + 300 + 2000, 0, -8300)
    assert second == (0, 0, 1000, -1000)


def test_pao_tsumo_liable_pays_everything() -> None:
    # mjx-pao-tsumo sample: seat 2 tsumo daisangen, pao seat 0, 1 honba.
    deltas = win_deltas(YAKUMAN, winner=2, discarder=None, dealer=3, honba=1, pao=0)
    assert deltas == (-32300, 0, 32300, 0)
    # Composite yakuman (daisangen + tsuuiisou, 2019103023gm-00a9-0000-f90e0fe9): non-dealer
    # tsumo with 3 honba, the liable seat pays the whole 64000 and every honba.
    double = win_deltas(2 * YAKUMAN, winner=0, discarder=None, dealer=1, honba=3, pao=2)
    assert double == (64900, 0, -64900, 0)


def test_pao_ron_split() -> None:
    # Dealer ron 48000 from seat 3, pao seat 2, 1 honba, 2 sticks (double-ron sample's first tag).
    deltas = win_deltas(YAKUMAN, winner=0, discarder=3, dealer=0, honba=1, sticks=2, pao=2)
    assert deltas == (48000 + 300 + 2000, 0, -24300, -24000)


def test_pao_ron_by_the_liable_player() -> None:
    deltas = win_deltas(YAKUMAN, winner=1, discarder=2, dealer=0, honba=1, pao=2)
    assert deltas == (0, 32300, -32300, 0)


def test_win_deltas_rejects_bad_seats() -> None:
    with pytest.raises(ValueError, match="seat"):
        win_deltas(MANGAN, winner=3, discarder=None, dealer=0, players=3)
    with pytest.raises(ValueError, match="pao"):
        win_deltas(YAKUMAN, winner=1, discarder=None, dealer=0, pao=1)


@pytest.mark.parametrize(
    ("tenpai", "expected"),
    [
        ((True, False, False, False), (3000, -1000, -1000, -1000)),
        ((True, True, False, False), (1500, 1500, -1500, -1500)),
        ((True, True, True, False), (1000, 1000, 1000, -3000)),
        ((True, True, True, True), (0, 0, 0, 0)),
        ((False, False, False, False), (0, 0, 0, 0)),
    ],
)
def test_noten_payments_four_player(tenpai: tuple[bool, ...], expected: tuple[int, ...]) -> None:
    assert exhaustive_draw_deltas(tenpai) == expected
    assert sum(expected) == 0


@pytest.mark.parametrize(
    ("tenpai", "expected"),
    [
        ((False, True, False), (-1000, 2000, -1000, 0)),
        ((True, False, True), (1000, -2000, 1000, 0)),
        ((True, True, True), (0, 0, 0, 0)),
        ((False, False, False), (0, 0, 0, 0)),
    ],
)
def test_noten_payments_three_player(tenpai: tuple[bool, ...], expected: tuple[int, ...]) -> None:
    assert exhaustive_draw_deltas(tenpai, players=3) == expected
    assert draw_pool(3) == 2000


def test_nagashi_mangan() -> None:
    # Non-dealer nagashi (sample 2019082700: -2000, -2000, +8000, -4000).
    assert nagashi_deltas([2], dealer=3) == (-2000, -2000, 8000, -4000)
    # Dealer nagashi: 4000 all.
    assert nagashi_deltas([0], dealer=0) == (12000, -4000, -4000, -4000)
    # Two nagashi players are paid separately.
    assert nagashi_deltas([0, 1], dealer=0) == (12000 - 4000, -4000 + 8000, -6000, -6000)
    # Three-player: the absent share is lost, as for a tsumo.
    assert nagashi_deltas([1], dealer=0, players=3) == (-4000, 6000, -2000, 0)
    assert nagashi_deltas([0], dealer=0, players=3) == (8000, -4000, -4000, 0)
