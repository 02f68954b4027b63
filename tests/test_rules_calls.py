"""rules.calls: kuikae, chi seats, houtei, kans and kita, and the server's discard for a player
who is away."""

from __future__ import annotations

import pytest

from tenhou_tools.events import CallKind, Meld
from tenhou_tools.rules.calls import (
    allowed_in_riichi,
    chi_allowed,
    discard_callable,
    kan_allowed,
    kita_allowed,
    kuikae_forbidden,
    opens_a_set,
    server_discard,
)
from tenhou_tools.tiles import format_tiles, parse_tiles


def chi(held: str, called: str) -> Meld:
    """A chi of ``called`` with the two ``held`` tiles, from the seat on the left of seat 0."""
    (tile,) = parse_tiles(called)
    tiles = [t for t in parse_tiles(held) if t >> 2 != tile >> 2] + [tile]
    return Meld(CallKind.CHI, tuple(sorted(tiles)), tile, 3, None, 0)


def pon(kind: str) -> Meld:
    tiles = parse_tiles(kind * 3 if len(kind) == 2 else kind)
    return Meld(CallKind.PON, tuple(tiles), tiles[0], 2, None, 0)


def kinds(forbidden: frozenset[int]) -> str:
    return format_tiles(sorted(k * 4 + 1 for k in forbidden))


@pytest.mark.parametrize(("held", "called", "forbidden"), [
    ("23p", "4p", "14p"),    # the called tile and the other end of the run
    ("56p", "4p", "47p"),
    ("45p", "3p", "36p"),
    ("45p", "6p", "36p"),
    ("35p", "4p", "4p"),     # kanchan: only the called kind
    ("89s", "7s", "7s"),     # no 10s beyond the run
    ("12m", "3m", "3m"),     # no 0m below it
])
def test_kuikae_after_chi(held, called, forbidden):
    assert kinds(kuikae_forbidden(chi(held, called))) == forbidden


def test_kuikae_after_pon_is_the_called_kind():
    assert kinds(kuikae_forbidden(pon("7z"))) == "7z"


def test_the_server_discards_the_drawn_tile_else_the_last_one():
    hand = parse_tiles("2388m1p")
    assert server_discard(hand, None) == parse_tiles("1p")[0]  # after a call: the highest id
    assert server_discard([*hand, parse_tiles("9s")[0]], parse_tiles("9s")[0]) == parse_tiles("9s")[0]
    assert server_discard([*hand, parse_tiles("3m")[0]], parse_tiles("3m")[0]) == parse_tiles("3m")[0]


def test_no_kuikae_after_a_kan():
    kan = Meld(CallKind.OPEN_KAN, tuple(parse_tiles("5555z")), parse_tiles("5z")[0], 2, None, 0)
    assert kuikae_forbidden(kan) == frozenset()


def test_chi_only_from_the_left_and_never_in_three_player():
    assert chi_allowed(0, 3, 4) and chi_allowed(2, 1, 4)
    assert not chi_allowed(0, 2, 4) and not chi_allowed(0, 1, 4) and not chi_allowed(0, None, 4)
    assert not chi_allowed(0, 2, 3)


def test_the_last_discard_and_kans_need_a_live_tile():
    assert not discard_callable(0) and discard_callable(1)
    assert not kan_allowed(0) and kan_allowed(1)


def test_kita_only_in_three_player():
    assert kita_allowed(3) and not kita_allowed(4)


def test_calls_in_riichi():
    assert allowed_in_riichi(CallKind.CLOSED_KAN) and allowed_in_riichi(CallKind.KITA)
    for kind in (CallKind.CHI, CallKind.PON, CallKind.OPEN_KAN, CallKind.ADDED_KAN):
        assert not allowed_in_riichi(kind)


def test_which_calls_take_a_set_from_the_hand():
    assert [k for k in CallKind if opens_a_set(k)] == [CallKind.CHI, CallKind.PON, CallKind.OPEN_KAN,
                                                      CallKind.CLOSED_KAN]
