"""rules.riichi: when riichi may be declared, and closed kans in riichi."""

from __future__ import annotations

from tenhou_tools.events import CallKind, Meld
from tenhou_tools.rules.hand import counts34, waits
from tenhou_tools.rules.riichi import (
    can_afford_riichi,
    is_ankan_allowed_in_riichi,
    is_closed,
    is_double_riichi,
    riichi_live_minimum,
)
from tenhou_tools.tiles import parse_tiles


def wait(hand: str) -> frozenset[int]:
    return waits(counts34(parse_tiles(hand)))


def kind(tile: str) -> int:
    return parse_tiles(tile)[0] >> 2


def meld(kind_: CallKind, tiles: str) -> Meld:
    ids = tuple(parse_tiles(tiles))
    return Meld(kind_, ids, None, None, None, 0)


def test_a_draw_must_follow():
    assert riichi_live_minimum(4) == 4
    assert riichi_live_minimum(3) == 3


def test_one_thousand_points():
    assert can_afford_riichi(1000) and not can_afford_riichi(900)


def test_closed_hand():
    assert is_closed([])
    assert is_closed([meld(CallKind.CLOSED_KAN, "8888s"), meld(CallKind.KITA, "4z")])
    assert not is_closed([meld(CallKind.PON, "777z")])
    assert not is_closed([meld(CallKind.CHI, "345s")])


def test_double_riichi():
    assert is_double_riichi(0, False)
    assert not is_double_riichi(1, False)
    assert not is_double_riichi(0, True)  # any call before, a closed kan included


def test_closed_kan_in_riichi_keeps_the_waits():
    # 888s 456m 789p 234s 5z waits on 5z; drawing the fourth 8s and kanning it keeps that wait
    before, after = wait("888s456m789p234s5z"), wait("456m789p234s5z")
    assert is_ankan_allowed_in_riichi(before, after, kind("8s"), kind("8s"))
    # ... but not with a tile that was already in the hand (okuri-kan)
    assert not is_ankan_allowed_in_riichi(before, after, kind("8s"), kind("1m"))


def test_closed_kan_in_riichi_that_changes_the_waits():
    # 5556m 789p 234s 678s waits on 4m 6m 7m; a kan of 5m leaves 6m alone: a tanki on 6m
    before, after = wait("5556m789p234s678s"), wait("6m789p234s678s")
    assert before != after
    assert not is_ankan_allowed_in_riichi(before, after, kind("5m"), kind("5m"))
