"""Property-based fuzzing: generated mjlog documents (random sequences of typed tags) and
generated JSON documents (tenhou.net/6-shaped and arbitrary) must each end in a result on every
input path — a game record without ``INTERNAL_ERROR`` and with one-line messages, a stats record,
a conversion, a replay view — never an exception.

Bounded (``max_examples``) so that the file runs in a few seconds; ``scripts/fuzz.py`` runs the
mutation fuzzer for longer.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tenhou_tools.check import check_log
from tenhou_tools.findings import FindingCode

from .fuzzing.logs import PATHS, check_input

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# --- mjlog XML -------------------------------------------------------------------------------------

odd_int = st.sampled_from([-1, 136, 999, 65535, 70000, 10**20, -(10**6)])
tile = st.one_of(st.integers(0, 135), st.integers(0, 135), odd_int)
seat = st.one_of(st.integers(0, 3), st.integers(0, 3), st.sampled_from([-1, 4, 9]))
score = st.one_of(st.integers(-500, 1000), odd_int)


def csv(strategy, min_size=0, max_size=16):
    return st.lists(strategy, min_size=min_size, max_size=max_size).map(
        lambda xs: ",".join(str(x) for x in xs))


def tag(name, **attrs):
    parts = [st.just(f"<{name}")]
    for key, strategy in attrs.items():
        parts.append(st.one_of(strategy.map(lambda v, k=key: f' {k}="{v}"'), st.just("")))
    return st.tuples(*parts).map(lambda xs: "".join(xs) + "/>")


init = tag("INIT", seed=csv(st.integers(0, 10), 6, 6), ten=csv(score, 4, 4), oya=seat,
           hai0=csv(tile, 13, 13), hai1=csv(tile, 13, 13), hai2=csv(tile, 12, 14),
           hai3=csv(tile, 0, 14))
draw_discard = st.tuples(st.sampled_from("TUVWDEFG"), tile).map(lambda x: f"<{x[0]}{x[1]}/>")
tags = st.one_of(
    init,
    draw_discard, draw_discard, draw_discard, draw_discard,
    tag("N", who=seat, m=st.one_of(st.integers(0, 65535), odd_int)),
    tag("REACH", who=seat, step=st.sampled_from([1, 2, 3]), ten=csv(score, 4, 4)),
    tag("DORA", hai=tile),
    tag("AGARI", ba=csv(st.integers(0, 5), 2, 2), hai=csv(tile, 1, 15), m=csv(st.integers(0, 65535), 0, 4),
        machi=tile, ten=csv(st.integers(0, 48000), 3, 3), yaku=csv(st.integers(0, 60), 0, 8),
        yakuman=csv(st.integers(0, 60), 0, 2), doraHai=csv(tile, 1, 5), doraHaiUra=csv(tile, 0, 5),
        who=seat, fromWho=seat, sc=csv(score, 8, 8), owari=csv(score, 8, 8)),
    tag("RYUUKYOKU", ba=csv(st.integers(0, 5), 2, 2), sc=csv(score, 8, 8), hai0=csv(tile, 0, 13),
        type=st.sampled_from(["yao9", "reach4", "ron3", "kan4", "kaze4", "nm", "bogus"]),
        owari=csv(score, 8, 8)),
    tag("BYE", who=seat),
    tag("UN", n0=st.sampled_from(["%41", "%FF%FE", "A", ""]), n1=st.just("%42"),
        dan=csv(st.integers(-1, 25), 4, 4), rate=csv(st.floats(-10, 3000, allow_nan=False), 4, 4),
        sx=csv(st.sampled_from("MFC"), 4, 4)),
)
go_type = st.one_of(st.just(169), st.just(169), st.sampled_from([9, 185, 161, 57, 1, 0, 4095, -1, 65535]))
first_tags = st.lists(tags, max_size=40)


@st.composite
def plausible_hand(draw):
    """A hand that deals distinct tiles and then draws from the wall and discards from the hand
    (in a random turn order, with random calls, riichi, dora and endings mixed in): it gets past
    the parser into the engine."""
    wall = draw(st.permutations(range(136)))
    oya = draw(st.integers(0, 3))
    hands = [sorted(wall[13 * s: 13 * s + 13]) for s in range(4)]
    dice = draw(st.tuples(st.integers(0, 5), st.integers(0, 5)))
    out = [f'<INIT seed="{draw(st.integers(0, 7))},{draw(st.integers(0, 3))},{draw(st.integers(0, 3))},'
           f'{dice[0]},{dice[1]},{wall[52]}" ten="250,250,250,250" oya="{oya}" '
           + " ".join(f'hai{s}="{",".join(map(str, hands[s]))}"' for s in range(4)) + "/>"]
    nxt, who = 53, oya
    for _ in range(draw(st.integers(0, 60))):
        step = draw(st.integers(0, 19))
        if step < 15 and nxt < 136:  # the usual: draw, then discard something held
            t = wall[nxt]
            nxt += 1
            hands[who].append(t)
            out.append(f"<{'TUVW'[who]}{t}/>")
            gone = draw(st.sampled_from(hands[who]))
            hands[who].remove(gone)
            out.append(f"<{'DEFG'[who]}{gone}/>")
            who = (who + 1) % 4
        else:
            out.append(draw(tags))
    out.append(draw(st.sampled_from([
        '<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0" owari="250,5.0,250,15.0,250,-5.0,250,-15.0"/>',
        '<RYUUKYOKU ba="0,0" sc="250,15,250,-15,250,-15,250,15" hai0="{}"/>'
        '<RYUUKYOKU ba="0,0" sc="265,0,235,0,235,0,265,0" owari="265,6.0,235,-16.0,235,-6.0,265,16.0"/>'.format(
            ",".join(map(str, sorted(hands[0])))),
        '<AGARI ba="0,0" hai="{}" machi="{}" ten="30,1000,0" yaku="1,1" doraHai="{}" who="{}" '
        'fromWho="{}" sc="250,10,250,-10,250,0,250,0" owari="260,26.0,240,-16.0,250,5.0,250,-15.0"/>'.format(
            ",".join(map(str, sorted(hands[oya][:13] + [wall[100]]))), wall[100], wall[52], oya,
            (oya + 1) % 4),
    ])))
    return "".join(out)


@st.composite
def mjlog_docs(draw):
    body = draw(first_tags)
    if draw(st.sampled_from([True, True, True, False])):  # most real logs start a hand first: go deeper into the engine
        body = [draw(plausible_hand())] + body[: draw(st.integers(0, 3))]
    return (f'<mjloggm ver="2.3"><GO type="{draw(go_type)}" lobby="0"/>'
            '<UN n0="%41" n1="%42" n2="%43" n3="%44" dan="16,15,17,14" rate="2150.00,1980.50,'
            '2240.25,1890.00" sx="F,M,F,M"/><TAIKYOKU oya="0"/>'
            + "".join(body) + "</mjloggm>").encode()


# --- JSON ------------------------------------------------------------------------------------------

good_code = st.sampled_from([c for c in range(11, 48) if c % 10] + [51, 52, 53])
code = st.one_of(good_code, good_code, good_code, good_code, st.just(60), st.just(60),
                 st.integers(0, 70), st.sampled_from([-1, 10**30, 1.5]))
give = st.one_of(code, code, code, code, good_code.map(lambda c: f"r{c}"), st.sampled_from(
    ["p121212", "c112233", "m11111111", "a11111111", "1111k11", "f44", "r60", "x", "", None]))
tiles13 = st.lists(good_code, min_size=13, max_size=13)  # a wrong deal: the mutation fuzzer
clean_takes = st.lists(good_code, max_size=20)
clean_gives = st.lists(st.one_of(good_code, good_code, st.just(60)), max_size=20)
noisy_takes = st.lists(st.one_of(good_code, give), max_size=20)
noisy_gives = st.lists(give, max_size=20)


@st.composite
def hand_json(draw):
    """One hand: a valid head, deals of 13 tile codes, take and discard lists that are tile codes
    (in any order: the reader's turn-order search has to give up cleanly) or, in one hand of
    four, also calls, riichi, kans and junk."""
    noisy = draw(st.sampled_from([False, False, False, True]))
    takes, gives = (noisy_takes, noisy_gives) if noisy else (clean_takes, clean_gives)
    seats = [draw(st.tuples(tiles13, takes, gives)) for _ in range(4)]
    return draw(head) + [x for seat in seats for x in seat] + [draw(result)]


head = st.tuples(
    st.tuples(st.integers(0, 7), st.integers(0, 3), st.integers(0, 3)).map(list),  # round, honba, sticks
    st.one_of(st.just([25000] * 4), st.lists(st.integers(-1000, 50000), min_size=4, max_size=4)),
    st.lists(good_code, min_size=1, max_size=5), st.lists(good_code, max_size=5),  # dora, ura
).map(list)
deltas = st.one_of(st.lists(st.integers(-50000, 50000), min_size=4, max_size=4),
                   st.lists(st.integers(-50000, 50000), max_size=5))
result = st.one_of(
    st.tuples(st.just("和了"), deltas,
              st.tuples(seat, seat, seat).map(list).flatmap(lambda who: st.lists(
                  st.sampled_from(["30符1飜1000点", "満貫8000点", "立直(1飜)", "役満", "ドラ(2飜)"]),
                  min_size=1, max_size=4).map(lambda words: who + words))).map(list),
    st.tuples(st.sampled_from(["流局", "九種九牌", "全員聴牌", "流し満貫", "?"]), deltas).map(list),
)
tenhou6_docs = st.fixed_dictionaries(
    {"log": st.lists(hand_json(), min_size=1, max_size=3)},
    optional={
        "ver": st.one_of(st.just(2.3), st.text(max_size=3)),
        "ref": st.sampled_from(["2014102312gm-00a9-0000-afb21fa5", "../x", ""]),
        "rule": st.fixed_dictionaries({}, optional={"disp": st.sampled_from(["鳳南喰赤", "三鳳南喰赤", "", "x"]),
                                                     "aka": st.integers(-1, 2)}),
        "name": st.lists(st.text(max_size=4), max_size=5),
        "dan": st.lists(st.text(max_size=3), max_size=5),
        "rate": st.lists(st.floats(allow_nan=True), max_size=5),
        "sx": st.lists(st.text(max_size=2), max_size=5),
        "sc": st.lists(st.one_of(st.integers(), st.floats()), max_size=9),
        "ratingc": st.sampled_from(["PF4", "PF3", "", "x"]),
        "lobby": st.one_of(st.integers(-1, 10**6), st.none()),
        "connection": st.lists(st.fixed_dictionaries(
            {"what": st.integers(-1, 2), "log": st.integers(-1, 5), "who": seat, "step": st.integers(-1, 50)}),
            max_size=3),
    },
)
any_json = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5)),
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.sampled_from(["log", "rule", "name", "x"]), children, max_size=4)),
    max_leaves=20,
)
other_json = st.one_of(st.fixed_dictionaries({"log": any_json}),
                       st.dictionaries(st.text(max_size=4), any_json, max_size=4))
json_docs = st.one_of(tenhou6_docs, other_json)


def _dumps(doc) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode("utf-8")


def _assert_result(data: bytes) -> None:
    record = check_log(data, path="hypothesis")
    assert not [f for f in record.findings if f.code is FindingCode.INTERNAL_ERROR], record.findings
    for f in record.findings:
        assert "\n" not in f.message, f.message


@SETTINGS
@given(mjlog_docs())
def test_generated_mjlog_ends_in_a_record(data):
    _assert_result(data)


@SETTINGS
@given(tenhou6_docs.map(_dumps))
def test_generated_tenhou6_ends_in_a_record(data):
    _assert_result(data)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(other_json.map(_dumps))
def test_arbitrary_json_ends_in_a_record(data):
    _assert_result(data)


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.one_of(mjlog_docs(), json_docs.map(_dumps)))
def test_generated_logs_pass_every_input_path(data):
    assert check_input(data, PATHS) == []
