"""mjai JSON lines: every written event passes the protocol check, and reading the events back
gives the same game in everything mjai carries."""

from __future__ import annotations

import json
import os

import pytest

from tenhou_tools.errors import ParseError
from tenhou_tools.events import Agari, Bye, Call, Discard, Draw, Game, NewDora, Reconnect, Riichi, Ryuukyoku
from tenhou_tools.formats import dumps
from tenhou_tools.formats.common import mjai_name
from tenhou_tools.formats.mjai import read_mjai, validate_mjai_event, write_mjai
from tenhou_tools.mjlog import parse_game
from tenhou_tools.sources.files import read_game

from .conftest import FIXTURES, corpus_files
from .scenario import Scenario
from .test_formats_tenhou6 import confusing_naki, every_meld_kind


def carried(game: Game) -> list[tuple]:
    """What mjai carries (tiles by name), plus what a reader derives from it (hands at a win,
    the winning tile, honba, sticks, scores before): the round trip must keep all of it."""
    red = game.header.ruleset.red_fives

    def n(tile: int) -> str:
        return mjai_name(tile, red=red)

    def meld(m):
        return (m.kind.value, tuple(sorted(map(n, m.tiles))), None if m.called is None else n(m.called),
                m.from_seat, None if m.added is None else n(m.added))

    out: list[tuple] = [("game", game.log_id, game.header.ruleset, game.header.lobby,
                         tuple(p.name for p in game.header.players))]
    for hand in game.hands:
        i = hand.init
        out.append(("init", i.round, i.honba, i.sticks, i.scores, i.dealer,
                    tuple(tuple(map(n, h)) for h in i.hands), n(i.dora_indicator)))
        for e in hand.events:
            if isinstance(e, Draw):
                out.append(("draw", e.seat, n(e.tile), e.rinshan))
            elif isinstance(e, Discard):
                out.append(("discard", e.seat, n(e.tile), e.tsumogiri))
            elif isinstance(e, Call):
                out.append(("call", e.seat, meld(e.meld)))
            elif isinstance(e, Riichi):
                out.append(("riichi", e.seat, e.step, e.scores))
            elif isinstance(e, NewDora):
                out.append(("dora", n(e.tile)))
            elif isinstance(e, Agari):
                out.append(("agari", e.who, e.from_who, tuple(sorted(map(n, e.hand))),
                            tuple(sorted(meld(m) for m in e.melds)), n(e.win_tile),
                            tuple(map(n, e.dora_indicators)), tuple(map(n, e.ura_indicators)),
                            e.honba, e.sticks, e.scores_before, e.deltas))
            elif isinstance(e, Ryuukyoku):
                out.append(("ryuukyoku", e.kind, e.honba, e.sticks, e.scores_before, e.deltas,
                            tuple(None if h is None else tuple(sorted(map(n, h))) for h in e.hands)))
    return out


def round_trip(game: Game) -> Game:
    return read_mjai(dumps(game, "mjai"), source="<test>")


@pytest.mark.parametrize("name", ["one_hand.mjlog", "sanma_kita.xml"])
def test_fixtures(name):
    game = read_game(FIXTURES / name)
    events = write_mjai(game)
    assert [p for e in events for p in validate_mjai_event(e)] == []
    assert events[0]["type"] == "start_game" and events[-1]["type"] == "end_game"
    assert carried(round_trip(game)) == carried(game)


def test_three_player_shape():
    events = write_mjai(read_game(FIXTURES / "sanma_kita.xml"))
    kyoku = next(e for e in events if e["type"] == "start_kyoku")
    assert kyoku["scores"][3] == 0 and kyoku["tehais"][3] == ["?"] * 13
    kita = [e for e in events if e["type"] == "nukidora"]
    assert kita and all(e["pai"] == "N" for e in kita)
    after = events[events.index(kita[0]) + 1]
    assert after["type"] == "tsumo" and after["actor"] == kita[0]["actor"]


def test_riichi_order_and_red_fives():
    events = write_mjai(read_game(FIXTURES / "one_hand.mjlog"))
    names = {p for e in events if e["type"] == "start_kyoku" for p in e["tehais"][1]}
    assert "5mr" in names and "5pr" in names
    b = Scenario(["123m456m789m1123p", "19m19p19s1234567z", "2345678m2345p6z", "2345678s5678p9p"]).begin()
    b.draw(0, "4p")
    b.riichi(0, "1p")
    b.turn(1, "3z")
    win = b.draw(2, "3z")
    mjai = write_mjai(parse_game(b.agari(who=2, from_who=2, win_tile=win)))
    types = [e["type"] for e in mjai]
    k = types.index("reach")
    assert types[k:k + 4] == ["reach", "dahai", "reach_accepted", "tsumo"]
    accepted = mjai[k + 2]
    assert accepted["deltas"] == [-1000, 0, 0, 0] and accepted["scores"][0] == 24000
    hora = mjai[types.index("hora")]
    assert hora["actor"] == hora["target"] == 2 and hora["ura_markers"] == []


def test_ambiguous_calls_and_disconnects():
    b, win = confusing_naki()
    game = parse_game(b.agari(who=0, from_who=3, win_tile=win))
    events = write_mjai(game)
    assert not any(e["type"] in ("bye", "reconnect") for e in events)  # mjai has no such event
    back = round_trip(game)
    assert carried(back) == carried(game)
    assert not any(isinstance(e, (Bye, Reconnect)) for h in back.hands for e in h.events)


def test_every_meld_kind_and_kan_dora_order():
    game = parse_game(every_meld_kind())
    events = write_mjai(game)
    assert [p for e in events for p in validate_mjai_event(e)] == []
    types = [e["type"] for e in events]
    for kind, after in (("ankan", ["dora", "tsumo"]), ("kakan", ["tsumo", "dora", "dahai"]),
                        ("daiminkan", ["tsumo", "dora", "dahai"])):
        k = types.index(kind)
        assert types[k + 1:k + 1 + len(after)] == after, kind
    assert carried(round_trip(game)) == carried(game)


@pytest.mark.parametrize(("event", "problem"), [
    ({"type": "dahai", "actor": 0, "pai": "5m"}, "missing field 'tsumogiri'"),
    ({"type": "dahai", "actor": 4, "pai": "5m", "tsumogiri": False}, "'actor'"),
    ({"type": "dahai", "actor": 0, "pai": "0m", "tsumogiri": False}, "'pai'"),
    ({"type": "tsumo", "actor": 0, "pai": "1z"}, "'pai'"),
    ({"type": "chi", "actor": 1, "target": 0, "pai": "3m", "consumed": ["4m", "6m"]}, "do not make a chi"),
    ({"type": "chi", "actor": 1, "target": 2, "pai": "3m", "consumed": ["4m", "5m"]}, "not on the left"),
    ({"type": "pon", "actor": 1, "target": 0, "pai": "C", "consumed": ["C"]}, "'consumed'"),
    ({"type": "pon", "actor": 1, "target": 1, "pai": "C", "consumed": ["C", "C"]}, "own discard"),
    ({"type": "ankan", "actor": 1, "consumed": ["5m", "5m", "5mr", "6m"]}, "do not make a ankan"),
    ({"type": "start_kyoku", "bakaze": "E", "dora_marker": "1m", "kyoku": 5, "honba": 0, "kyotaku": 0,
      "oya": 0, "scores": [25000] * 4, "tehais": [["?"] * 13] * 4}, "'kyoku'"),
    ({"type": "hora", "actor": 0, "target": 1, "deltas": [1, 2, 3]}, "'deltas'"),
    ({"type": "ryukyoku", "reason": "tired"}, "'reason'"),
    ({"type": "reach", "actor": 0, "extra": 1}, "unknown field 'extra'"),
    ({"type": "kan", "actor": 0}, "unknown event type"),
    (["type", "none"], "JSON object"),
])
def test_protocol_check_catches(event, problem):
    problems = validate_mjai_event(event)
    assert problems and any(problem in p for p in problems), problems


def test_protocol_check_accepts_mortal_examples():
    # The event shapes of Mortal's libriichi (its own JSON consistency test).
    for line in [
        '{"type":"none"}',
        '{"type":"start_game","names":["a","b","c","d"],"seed":[123,456]}',
        '{"type":"tsumo","actor":0,"pai":"?"}',
        '{"type":"chi","actor":1,"target":0,"pai":"6s","consumed":["5sr","7s"]}',
        '{"type":"daiminkan","actor":2,"target":0,"pai":"5p","consumed":["5pr","5p","5p"]}',
        '{"type":"kakan","actor":3,"pai":"S","consumed":["S","S","S"]}',
        '{"type":"ankan","actor":0,"consumed":["9m","9m","9m","9m"]}',
        '{"type":"hora","actor":3,"target":1,"deltas":[0,-8000,0,9000],"ura_markers":["4p"]}',
        '{"type":"hora","actor":3,"target":1}',
        '{"type":"ryukyoku","deltas":[0,1500,0,-1500]}',
        '{"type":"ryukyoku"}',
        '{"type":"end_kyoku"}',
        '{"type":"end_game"}',
    ]:
        assert validate_mjai_event(json.loads(line)) == [], line


def test_read_errors_are_one_line():
    with pytest.raises(ParseError, match="start_game"):
        read_mjai('{"type":"end_game"}')
    with pytest.raises(ParseError, match="line 2"):
        read_mjai('{"type":"start_game"}\n{oops')
    lines = dumps(read_game(FIXTURES / "one_hand.mjlog"), "mjai").splitlines()
    lines[3] = json.dumps({"type": "dahai", "actor": 0, "pai": "S", "tsumogiri": False})
    with pytest.raises(ParseError, match="does not hold"):
        read_mjai(lines)


def test_rules_without_the_extension():
    events = write_mjai(read_game(FIXTURES / "sanma_kita.xml"))
    del events[0]["tenhou"]
    game = read_mjai(events)
    assert game.header.ruleset.players == 3 and game.header.ruleset.red_fives


@pytest.mark.corpus
def test_corpus_sample_is_lossless(corpus):
    step = int(os.environ.get("TENHOU_FORMATS_STEP", "25"))
    files = corpus_files("mjlog")[::step]
    assert files
    for path in files:
        game = read_game(path)
        events = write_mjai(game)
        assert [p for e in events for p in validate_mjai_event(e)] == [], path
        assert carried(read_mjai(events)) == carried(game), path
