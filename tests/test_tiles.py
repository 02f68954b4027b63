import pytest
from hypothesis import given
from hypothesis import strategies as st

from tenhou_tools import tiles
from tenhou_tools.tiles import NotationError, dora_kind, format_tiles, glyph, kind, parse_tiles


def test_notation_assigns_ids():
    assert parse_tiles("123m") == [0, 4, 8]
    # a plain five never takes the red copy; 0 does
    assert parse_tiles("50m") == [17, 16]
    assert parse_tiles("1z7z") == [108, 132]
    assert parse_tiles("1111z") == [108, 109, 110, 111]


def test_notation_canonical_order():
    assert format_tiles(parse_tiles("9m1m")) == "19m"
    assert format_tiles(parse_tiles("556p0p")) == "0556p"
    assert format_tiles([16, 17], red=False) == "55m"


@pytest.mark.parametrize("bad", ["12", "m", "123x", "8z", "11111m", "00m"])
def test_notation_errors(bad):
    with pytest.raises(NotationError):
        parse_tiles(bad)


def test_red_and_kinds():
    assert {16, 52, 88} == tiles.RED_FIVES
    assert [kind(t) for t in (0, 35, 36, 107, 108, 135)] == [0, 8, 9, 26, 27, 33]


def test_dora_mapping():
    k = lambda s: kind(parse_tiles(s)[0])  # noqa: E731
    assert dora_kind(k("9m")) == k("1m")
    assert dora_kind(k("4z")) == k("1z")  # North -> East
    assert dora_kind(k("7z")) == k("5z")  # chun -> haku
    assert dora_kind(k("1m"), sanma=True) == k("9m")
    assert dora_kind(k("9m"), sanma=True) == k("1m")
    assert dora_kind(k("5p"), sanma=True) == k("6p")


def test_glyphs():
    assert glyph(0) == "\U0001f007"  # 1m
    assert glyph(36) == "\U0001f019"  # 1p
    assert glyph(72) == "\U0001f010"  # 1s
    assert glyph(124) == "\U0001f006"  # haku
    assert tiles.glyphs(parse_tiles("1z7z")) == "\U0001f000\U0001f004"


hands = st.lists(st.integers(0, 135), unique=True, max_size=18)


@given(hands)
def test_format_then_parse_keeps_kinds_and_reds(ids):
    back = parse_tiles(format_tiles(ids))
    assert sorted(kind(t) for t in back) == sorted(kind(t) for t in ids)
    assert sorted(t for t in back if t in tiles.RED_FIVES) == sorted(t for t in ids if t in tiles.RED_FIVES)


@given(hands)
def test_canonical_strings_round_trip(ids):
    text = format_tiles(ids)
    assert format_tiles(parse_tiles(text)) == text
