"""rules.pao: who is liable for a daisangen or daisuushii."""

from __future__ import annotations

from tenhou_tools.events import CallKind, Meld
from tenhou_tools.rules.pao import pao_seat
from tenhou_tools.tiles import parse_tiles


def pon(kind: str, from_seat: int) -> Meld:
    tiles = tuple(parse_tiles(kind * 3))
    return Meld(CallKind.PON, tiles, tiles[0], from_seat, None, 0)


def closed_kan(kind: str) -> Meld:
    return Meld(CallKind.CLOSED_KAN, tuple(parse_tiles(kind * 4)), None, None, None, 0)


def added_kan(kind: str, pon_from: int) -> Meld:
    tiles = tuple(parse_tiles(kind * 4))
    return Meld(CallKind.ADDED_KAN, tiles, tiles[0], pon_from, tiles[3], 0)


def test_the_discarder_of_the_third_dragon():
    assert pao_seat([pon("5z", 1), pon("6z", 2), pon("7z", 3)], winner=0) == 3
    assert pao_seat([pon("7z", 3), pon("5z", 1), pon("6z", 2)], winner=0) == 2  # in call order


def test_an_added_kan_keeps_its_pon_s_discarder():
    assert pao_seat([pon("5z", 1), pon("6z", 2), added_kan("7z", 3)], winner=0) == 3


def test_no_pao_when_a_closed_kan_completes_the_set():
    assert pao_seat([pon("5z", 1), pon("6z", 2), closed_kan("7z")], winner=0) is None


def test_no_pao_with_two_dragon_sets():
    assert pao_seat([pon("5z", 1), pon("6z", 2), pon("1z", 3)], winner=0) is None


def test_the_discarder_of_the_fourth_wind():
    melds = [pon("1z", 1), pon("2z", 2), pon("3z", 1), pon("4z", 2)]
    assert pao_seat(melds, winner=0) == 2
    assert pao_seat(melds[:3], winner=0) is None  # three winds: shousuushii at most, no pao


def test_no_pao_for_four_kans():
    # suukantsu: the discarder of the fourth open kan is not liable (四槓子のパオなし)
    kans = [Meld(CallKind.OPEN_KAN, tuple(parse_tiles(k * 4)), parse_tiles(k)[0], seat, None, 0)
            for k, seat in (("1m", 1), ("7p", 2), ("9s", 3), ("2s", 1))]
    assert pao_seat(kans, winner=0) is None


def test_no_pao_when_the_liable_player_deals_in():
    # Tenhou writes no paoWho when the liable seat discards the winning tile itself: the
    # discarder pays the ordinary ron (7 genuine games); another discarder still shares with it
    melds = [pon("5z", 1), pon("6z", 2), pon("7z", 3)]
    assert pao_seat(melds, winner=0, discarder=3) is None
    assert pao_seat(melds, winner=0, discarder=1) == 3
    assert pao_seat(melds, winner=0, discarder=None) == 3  # a tsumo: the liable seat pays it all
