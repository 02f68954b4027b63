"""rules.draws: tenpai at the exhaustive draw, nagashi mangan, and the abortive draws."""

from __future__ import annotations

from tenhou_tools.rules.draws import (
    four_kans_abort,
    four_riichi,
    four_winds,
    is_tenpai,
    nagashi_mangan,
    nine_terminal_kinds,
    nine_terminals_allowed,
    wins_on,
)
from tenhou_tools.tiles import parse_tiles as tiles


def one(tile: str) -> int:
    return tiles(tile)[0]


def test_keishiki_tenpai():
    assert is_tenpai(tiles("123456789m1123p"))  # waits 1p 4p
    assert is_tenpai(tiles("123m456p789s111z5z"))  # a tanki on 5z, yaku or not
    assert not is_tenpai(tiles("2468m5678p1357s7z"))


def test_a_wait_on_a_fifth_copy_is_not_tenpai():
    # the only wait of 1111m 234p 567s 789s would be a fifth 1m
    assert not is_tenpai(tiles("1111m234p567s789s"))


def test_nine_terminals():
    hand = tiles("19m19p19s123z23456m")  # nine kinds of terminals and honours in 14 tiles
    assert nine_terminal_kinds(hand) == 9
    assert nine_terminals_allowed(hand, own_discards=0, any_call=False)
    assert not nine_terminals_allowed(hand, own_discards=1, any_call=False)  # not the first draw
    assert not nine_terminals_allowed(hand, own_discards=0, any_call=True)  # after a call
    assert not nine_terminals_allowed(tiles("19m19p19s12z234567m"), own_discards=0, any_call=False)  # eight


def test_four_winds():
    assert four_winds(tiles("1111z"))
    assert four_winds(tiles("4444z"))
    assert not four_winds(tiles("1112z"))
    assert not four_winds(tiles("5555z"))  # dragons are not winds
    assert not four_winds(tiles("111z"))


def test_four_riichi():
    assert four_riichi([True] * 4, 4)
    assert not four_riichi([True, True, True, False], 4)
    assert not four_riichi([True, True, True], 3)


def test_four_kans_by_two_or_more_players():
    assert four_kans_abort([2, 1, 1, 0])
    assert four_kans_abort([1, 1, 1, 1])
    assert not four_kans_abort([4, 0, 0, 0])  # one player's four kans: suukantsu is played for
    assert not four_kans_abort([1, 1, 1, 0])


def test_wins_on():
    hand = tiles("123456789m1123p")
    assert wins_on(hand, one("4p")) and wins_on(hand, one("1p"))
    assert not wins_on(hand, one("5p"))


def test_nagashi_mangan():
    assert nagashi_mangan(tiles("19m9p1s7z"), called_away=0)
    assert not nagashi_mangan(tiles("19m5p"), called_away=0)  # a simple discarded
    assert not nagashi_mangan(tiles("19m9p"), called_away=1)  # one of them was called
    assert not nagashi_mangan([], called_away=0)  # no discard at all
