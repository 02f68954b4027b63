"""Meld bitfield decoding, against examples worked out by hand from the bit layout."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tenhou_tools.events import CallKind
from tenhou_tools.mjlog import MeldError, decode_meld, encode_meld


def test_pon_from_shimocha():
    # 46185 = 0b1011010001101001: rel 1, pon, unused copy 3, T = 90 -> North, called index 0
    m = decode_meld(46185, who=3)
    assert m.kind is CallKind.PON
    assert m.tiles == (120, 121, 122)
    assert m.called == 120 and m.from_seat == 0


def test_chi_with_red_five():
    # 54431: chi, T = 53 -> run 4s-5s-6s, copies 3,0,1, called the third tile
    m = decode_meld(54431, who=3)
    assert m.kind is CallKind.CHI
    assert m.tiles == (87, 88, 93)
    assert m.called == 93 and m.from_seat == 2


def test_pon_called_index():
    m = decode_meld(48682, who=0)  # rel 2, unused copy 1, haku, called index 2
    assert (m.kind, m.tiles, m.called, m.from_seat) == (CallKind.PON, (124, 126, 127), 127, 2)


def test_added_kan():
    # 16947: rel 3, kakan, added copy 1, T = 33 -> 3p, pon 44,46,47 called 44
    m = decode_meld(16947, who=1)
    assert m.kind is CallKind.ADDED_KAN
    assert m.tiles == (44, 45, 46, 47)
    assert m.added == 45 and m.called == 44 and m.from_seat == 0


def test_open_kan():
    m = decode_meld(15106, who=1)  # rel 2, tile 59 -> 6p
    assert (m.kind, m.tiles, m.called, m.from_seat) == (CallKind.OPEN_KAN, (56, 57, 58, 59), 59, 3)


def test_closed_kan():
    m = decode_meld(1024, who=2)  # tile 4 -> 2m
    assert (m.kind, m.tiles, m.called, m.from_seat) == (CallKind.CLOSED_KAN, (4, 5, 6, 7), None, None)
    # low bits of the tile field carry nothing for a closed kan
    assert decode_meld(1024 + (2 << 8), who=2).tiles == (4, 5, 6, 7)


def test_kita():
    m = decode_meld(31264, who=0)  # 0x20 with tile 122
    assert (m.kind, m.tiles, m.from_seat) == (CallKind.KITA, (122,), None)


@pytest.mark.parametrize("code", [0x20 | (100 << 8), 0x4, 0x8, (34 * 3) << 9 | 0x8 | 1, 70000])
def test_bad_codes(code):
    with pytest.raises(MeldError):
        decode_meld(code, who=0)


@given(st.integers(0, 0xFFFF), st.integers(0, 3))
def test_encode_decode_round_trip(code, who):
    try:
        meld = decode_meld(code, who)
    except MeldError:
        assume(False)
    again = decode_meld(encode_meld(meld, who), who)
    assert (again.kind, again.tiles, again.called, again.from_seat, again.added) == (
        meld.kind, meld.tiles, meld.called, meld.from_seat, meld.added)
