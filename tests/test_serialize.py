"""Event JSON: stable names and an exact round trip."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from tenhou_tools.events import (
    Agari,
    Bye,
    Call,
    Discard,
    Draw,
    DrawKind,
    NewDora,
    Owari,
    Reconnect,
    Riichi,
    Ryuukyoku,
    Unknown,
)
from tenhou_tools.mjlog import MeldError, decode_meld
from tenhou_tools.serialize import from_json, game_records, to_json
from tenhou_tools.sources.files import read_game

seat = st.integers(0, 3)
tile = st.integers(0, 135)
tiles = st.lists(tile, max_size=14).map(tuple)
four = st.tuples(*[st.integers(-100000, 200000)] * 4)


def _meld(code_who):
    code, who = code_who
    try:
        return decode_meld(code, who)
    except MeldError:
        return decode_meld(1024, who)


melds = st.tuples(st.integers(0, 0xFFFF), seat).map(_meld)
owari = st.builds(Owari, four, st.tuples(*[st.floats(-200, 200, allow_nan=False)] * 4))
events = st.one_of(
    st.builds(Draw, seat, tile, st.booleans()),
    st.builds(Discard, seat, tile, st.booleans()),
    st.builds(Call, seat, melds),
    st.builds(Riichi, seat, st.sampled_from([1, 2]), st.none() | four),
    st.builds(NewDora, tile),
    st.builds(Bye, seat),
    st.builds(Reconnect, seat, st.text(max_size=8)),
    st.builds(Unknown, st.text(min_size=1, max_size=5),
              st.lists(st.tuples(st.text(max_size=3), st.text(max_size=3)), max_size=2).map(tuple)),
    st.builds(
        Agari, who=seat, from_who=seat, hand=tiles, melds=st.lists(melds, max_size=4).map(tuple),
        win_tile=tile, fu=st.integers(0, 130), points=st.integers(0, 200000), limit=st.integers(0, 5),
        yaku=st.lists(st.tuples(st.integers(0, 54), st.integers(0, 13)), max_size=6).map(tuple),
        yakuman=st.lists(st.integers(37, 51), max_size=2).map(tuple), dora_indicators=tiles,
        ura_indicators=tiles, honba=st.integers(0, 20), sticks=st.integers(0, 10), scores_before=four,
        deltas=four, pao_who=st.none() | seat, owari=st.none() | owari,
    ),
    st.builds(
        Ryuukyoku, kind=st.sampled_from(list(DrawKind)), honba=st.integers(0, 20), sticks=st.integers(0, 10),
        scores_before=four, deltas=four, hands=st.tuples(*[st.none() | tiles] * 4), owari=st.none() | owari,
    ),
)


@given(events)
def test_event_json_round_trip(event):
    data = json.loads(json.dumps(to_json(event)))
    assert from_json(data) == event


def test_field_names_are_stable():
    assert to_json(Draw(1, 5, True)) == {"type": "draw", "seat": 1, "tile": 5, "rinshan": True}
    assert to_json(NewDora(3)) == {"type": "new_dora", "tile": 3}
    assert to_json(Call(0, decode_meld(31264, 0)))["meld"] == {
        "kind": "kita", "tiles": [122], "called": None, "from_seat": None, "added": None, "code": 31264}


def test_game_round_trip_and_records(fixtures):
    game = read_game(fixtures / "sanma_kita.xml")
    assert from_json(json.loads(json.dumps(to_json(game)))) == game
    records = list(game_records(game))
    assert [r["type"] for r in records] == ["game", "header", "init", "draw", "call", "draw", "discard",
                                           "draw", "discard", "agari"]
    assert all(r["hand"] == 0 for r in records[2:])
