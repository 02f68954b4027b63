"""Shanten and acceptance (rules/shanten.py) on readable hands, and against two independent
definitions on generated ones: tenpai and its waits from ``rules.hand.waits``, one-shanten as
"one swap from tenpai", and the ``mahjong`` package's shanten calculator."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong.shanten import Shanten

from tenhou_tools.rules.hand import counts34, is_complete, waits
from tenhou_tools.rules.shanten import (
    Acceptance,
    ShantenForms,
    acceptance,
    best_discards,
    discard_options,
    shanten,
    shanten_before,
    shanten_forms,
)
from tenhou_tools.tiles import ORPHAN_KINDS, SANMA_MISSING_KINDS, kind, parse_tiles


def c34(text: str) -> list[int]:
    return counts34(parse_tiles(text))


def kinds(text: str) -> tuple[int, ...]:
    return tuple(sorted({kind(t) for t in parse_tiles(text)}))


# -- readable hands ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "melds", "expected"),
    [
        ("123m456p789s11122z", 0, -1),  # complete
        ("123m456p789s1122z", 0, 0),  # shanpon tenpai
        ("123m456p789s1z", 1, 0),  # open, tanki
        ("34m55p", 3, 0),  # three melds, ryanmen
        ("2m", 4, 0),  # four melds: hadaka tanki
        ("22m", 4, -1),
        ("19m123456p789s11z", 0, 1),  # one set short: 1m or 9m must grow into one
        ("147m258p369s1234z", 0, 6),  # nothing connects: seven pairs (6) beats regular (8)
    ],
)
def test_shanten_of_readable_hands(hand, melds, expected):
    assert shanten(c34(hand), melds) == expected


def test_forms_each_have_their_value():
    # six pairs and a single: seven pairs tenpai, regular three away
    assert shanten_forms(c34("1122334455667z")) == ShantenForms(regular=3, seven_pairs=0, thirteen_orphans=5)
    # all thirteen orphans: the thirteen-sided wait
    forms = shanten_forms(c34("19m19p19s1234567z"))
    assert (forms.thirteen_orphans, forms.value) == (0, 0)
    # an open hand has the regular form only
    assert shanten_forms(c34("123m456p78s11z"), 1) == ShantenForms(regular=0, seven_pairs=None, thirteen_orphans=None)
    assert shanten_forms(c34("123m456p78s11z"), 1).to_json() == {
        "shanten": 0, "regular": 0, "seven_pairs": None, "thirteen_orphans": None,
    }


def test_seven_pairs_needs_distinct_pairs():
    # 1111m is one pair for seven pairs: five pairs, six kinds -> two away
    assert shanten_forms(c34("1111m2233p4455s6z")).seven_pairs == 2


def test_thirteen_orphans_single_wait():
    hand = c34("119m19p19s123456z")
    assert shanten(hand) == 0
    assert acceptance(hand).kinds == kinds("7z")


def test_complete_seven_pairs_and_kokushi():
    assert shanten(c34("11223344556677z")) == -1
    assert shanten(c34("119m19p19s1234567z")) == -1


def test_fifth_tile_held_in_hand_is_no_wait():
    # 1111m with three sets: the tanki on 1m would need a fifth 1m. Tenhou: not tenpai.
    hand = c34("1111m234p567s789s")
    assert waits(hand) == frozenset()
    assert shanten(hand) == 1
    # any other kind drawn makes tenpai (discard a 1m, wait on the drawn kind)
    assert acceptance(hand).kinds == tuple(k for k in range(34) if k != 0)


def test_fifth_tile_seen_elsewhere_is_a_wait():
    # a pon of 1m and a 1m tanki: all four copies are out, the wait still counts (keishiki tenpai)
    hand = c34("1m234p567s789s")
    unseen = [4] * 34
    unseen[0] = 0
    result = acceptance(hand, 1, unseen)
    assert result == Acceptance(0, kinds("1m"), (0,))
    assert result.total == 0
    assert frozenset(result.kinds) == waits(hand)


def test_three_player_hands_have_no_2m_to_8m():
    hand = c34("1111m111122233z")
    assert shanten(hand) == 1
    assert shanten(hand, sanma=True) == 2
    # in four-player the 1m can become a run with 2m and 3m; in three-player those do not exist
    assert acceptance(c34("1111m111122233z")).kinds == kinds("23m")
    # 1m and 9m float: four-player takes 1m-3m and 7m-9m, three-player only 1m and 9m
    four = set(acceptance(c34("19m123456p789s11z")).kinds)
    three = set(acceptance(c34("19m123456p789s11z"), sanma=True).kinds)
    assert four >= set(kinds("123789m1z"))
    assert three >= set(kinds("19m1z"))
    assert four - three == set(kinds("2378m"))
    with pytest.raises(ValueError, match="2m-8m"):
        shanten(c34("123m456p789s1122z"), sanma=True)


def test_acceptance_counts_unseen_tiles():
    hand = c34("23m456p789s11122z")  # ryanmen 1m/4m
    unseen = [4] * 34
    unseen[0], unseen[3] = 1, 3
    result = acceptance(hand, 0, unseen)
    assert (result.shanten, result.kinds, result.left, result.total) == (0, kinds("14m"), (1, 3), 4)
    assert result.to_json() == {"shanten": 0, "kinds": [0, 3], "left": [1, 3], "total": 4}
    # by default only the hand itself is seen
    assert acceptance(hand).left == (4, 4)


def test_discard_options_and_best():
    hand = c34("123789m4569p78s11z")  # 9p floats; without it the hand waits on 6s-9s
    options = discard_options(hand)
    assert [o.kind for o in options] == list(kinds("123789m4569p78s11z"))
    best = best_discards(options)
    assert [o.kind for o in best] == list(kinds("9p"))
    assert best[0].shanten == 0 and best[0].acceptance.kinds == kinds("69s")
    assert best[0].to_json() == {"kind": kinds("9p")[0], "shanten": 0, "kinds": [23, 26], "left": [4, 4], "total": 8}


def test_best_discards_ties_are_all_kept():
    # either end of 1234m leaves the same 1z/5z shanpon
    best = best_discards(discard_options(c34("1234m456p789s1155z")))
    assert [o.kind for o in best] == list(kinds("14m"))
    assert [(o.shanten, o.acceptance.kinds, o.acceptance.total) for o in best] == [(0, kinds("15z"), 4)] * 2


@pytest.mark.parametrize(
    ("counts", "melds", "message"),
    [
        ([0] * 33, None, "34 counts"),
        (c34("123m"), None, "3n\\+1 or 3n\\+2"),
        (c34("123m456p789s1z"), 0, "go with 1 melds"),
    ],
)
def test_bad_input_is_a_clear_error(counts, melds, message):
    with pytest.raises(ValueError, match=message):
        shanten(counts, melds)


def test_acceptance_and_options_want_the_right_size():
    with pytest.raises(ValueError, match="3n\\+1"):
        acceptance(c34("123m456p789s11122z"))
    with pytest.raises(ValueError, match="3n\\+2"):
        discard_options(c34("123m456p789s1z"))
    with pytest.raises(ValueError, match="unseen"):
        acceptance(c34("123m456p789s1z"), unseen=[5] * 34)


# -- generated hands against independent definitions -------------------------------------------

_BLOCKS = [("run", k) for base in (0, 9, 18) for k in range(base, base + 7)] + [("set", k) for k in range(34)]


def _near_complete(rng: random.Random, melds: int, noise: int) -> list[int]:
    """A 3n+1 hand: a complete hand of ``4 - melds`` sets and a pair, one tile removed and
    ``noise`` tiles swapped for random ones (never above four copies)."""
    while True:
        c = [0] * 34
        for _ in range(4 - melds):
            shape, k = rng.choice(_BLOCKS)
            for t in (k, k + 1, k + 2) if shape == "run" else (k, k, k):
                c[t] += 1
        c[rng.randrange(34)] += 2
        if max(c) > 4:
            continue
        tiles = [k for k in range(34) for _ in range(c[k])]
        rng.shuffle(tiles)
        tiles.pop()
        for i in range(noise):
            tiles[i] = rng.randrange(34)
        c = counts34(t * 4 for t in tiles)
        if max(c) <= 4:
            return c


def _hands(seed: int, count: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [_near_complete(rng, rng.choice((0, 0, 0, 1, 2, 3)), rng.randint(0, 3)) for _ in range(count)]


def test_tenpai_and_waits_agree_with_rules_hand():
    for c in _hands(1, 2000):
        result = acceptance(c)
        assert (result.shanten == 0) == bool(waits(c)), c
        if result.shanten == 0:
            assert frozenset(result.kinds) == waits(c), c


def _swaps_to_tenpai(c: list[int]) -> set[int]:
    """Kinds whose draw lets the hand reach tenpai by one discard (by the definition)."""
    found = set()
    for k in range(34):
        if c[k] == 4:
            continue
        c[k] += 1
        for d in range(34):
            if c[d]:
                c[d] -= 1
                tenpai = bool(waits(c))
                c[d] += 1
                if tenpai:
                    found.add(k)
                    break
        c[k] -= 1
    return found


def test_one_shanten_and_its_acceptance_by_definition():
    checked = 0
    for c in _hands(2, 400):
        result = acceptance(c)
        if result.shanten < 0 or waits(c):
            continue
        reach = _swaps_to_tenpai(c)
        assert (result.shanten == 1) == bool(reach), c
        if result.shanten == 1:
            assert set(result.kinds) == reach, c
            checked += 1
    assert checked > 100


def test_complete_and_discards_agree():
    rng = random.Random(3)
    for c in _hands(3, 800):
        k = rng.choice([k for k in range(34) if c[k] < 4])
        c[k] += 1
        value = shanten(c)
        assert (value == -1) == is_complete(c), c
        options = discard_options(c)
        if value >= 0:
            assert value == min(o.shanten for o in options), c
        seen_before = [4 - n for n in c]  # the default: the 3n+2 hand's own tiles are seen
        for option in options:
            after = list(c)
            after[option.kind] -= 1
            assert option.acceptance == acceptance(after, unseen=seen_before), (c, option.kind)


def test_shanten_agrees_with_the_mahjong_package():
    rng = random.Random(4)
    hands = _hands(4, 4000)
    for _ in range(2000):  # random draws from the wall too, far from complete
        c = [0] * 34
        for t in rng.sample(range(136), rng.choice((13, 14))):
            c[t >> 2] += 1
        hands.append(c)
    for c in hands:
        assert shanten(c) == Shanten.calculate_shanten(c), c


# -- what analysis/discard.py reads off the options ------------------------------------------


def _best_by_keys(options):
    """``best_discards`` by its definition: the least (shanten, -accepted tiles left), ties kept."""
    keys = [(o.acceptance.shanten, -o.acceptance.total) for o in options]
    return tuple(o for o, key in zip(options, keys, strict=True) if key == min(keys))


_SANMA_KINDS = [k for k in range(34) if k not in SANMA_MISSING_KINDS]


@st.composite
def hands_after_a_draw(draw: st.DrawFn) -> tuple[list[int], int, bool]:
    """A 3n+2 hand (counts, melds, sanma) from a pool that makes every form likely: any kinds, the
    orphans only (thirteen orphans), few kinds doubled (seven pairs), a near-complete hand with
    one tile drawn (complete ones among them)."""
    melds = draw(st.sampled_from((0, 0, 0, 1, 2, 3, 4)))
    sanma = draw(st.booleans())
    size = 14 - 3 * melds
    kinds = _SANMA_KINDS if sanma else list(range(34))
    pool = draw(st.sampled_from(("any", "orphans", "pairs", "near")))
    if pool == "near":
        rng = random.Random(draw(st.integers(0, 2**32)))
        c = _near_complete(rng, melds, draw(st.integers(0, 1 if melds == 4 else 2)))
        c[rng.choice([k for k in range(34) if c[k] < 4])] += 1
        if sanma:
            sanma = not any(c[k] for k in SANMA_MISSING_KINDS)
        return c, melds, sanma
    if pool == "orphans":
        kinds = [k for k in ORPHAN_KINDS if k in kinds] + draw(st.lists(st.sampled_from(kinds), max_size=2))
    elif pool == "pairs":
        kinds = draw(st.lists(st.sampled_from(kinds), min_size=4, max_size=9, unique=True))
    tiles = draw(st.lists(st.sampled_from(kinds), min_size=size, max_size=size).filter(
        lambda ts: all(ts.count(k) <= 4 for k in ts)))
    return [tiles.count(k) for k in range(34)], melds, sanma


@given(hands_after_a_draw())
@settings(max_examples=3000)
def test_the_shanten_before_is_read_off_every_option(hand):
    """The 3n+2 hand's shanten from any one of its discard options (``shanten_before``), equal to
    the direct computation in every form (complete hands, seven pairs, thirteen orphans, open
    and three-player hands); and ``best_discards`` equal to its definition."""
    c, melds, sanma = hand
    expected = shanten(c, melds, sanma=sanma)
    options = discard_options(c, melds, sanma=sanma)
    for option in options:
        assert shanten_before(option) == expected, (c, melds, sanma, option)
    assert best_discards(options) == _best_by_keys(options)
    assert best_discards(options[::-1]) == _best_by_keys(options[::-1])


def test_the_shanten_before_on_generated_hands_of_every_form():
    rng = random.Random(31)
    hands = []
    for c in _hands(31, 1500):  # near-complete hands with a tile drawn: complete ones among them
        c[rng.choice([k for k in range(34) if c[k] < 4])] += 1
        hands.append(c)
    for _ in range(1500):  # seven-pairs and thirteen-orphans shapes, and any 14 tiles
        pool = rng.choice((list(ORPHAN_KINDS) * 2 + [rng.randrange(34)], rng.sample(range(34), 7) * 2, list(range(34))))
        c = [0] * 34
        while sum(c) < 14:
            k = rng.choice(pool)
            if c[k] < 4:
                c[k] += 1
        hands.append(c)
    forms = set()
    for c in hands:
        expected = shanten(c)
        forms.add((expected, shanten_forms(c).regular == expected))
        for option in discard_options(c):
            assert shanten_before(option) == expected, (c, option)
    assert {(-1, True), (-1, False), (0, True), (0, False), (2, False)} <= forms


def test_best_discards_of_nothing():
    assert best_discards(()) == ()


# -- the suit table ---------------------------------------------------------------------------


def test_the_suit_table_is_the_programmes_answer():
    """``_suit_table`` (written by ``scripts/make_suit_table.py``) holds, for every suit pattern,
    the vector the programme computes: checked on 3,000 random patterns of every size, the 14-tile
    ones included, and a count over more than 14 tiles is refused. Run the script again after
    changing the programme."""
    from tenhou_tools.rules import shanten as module

    rng = random.Random(25)
    checked = 0
    while checked < 3000:
        counts = tuple(rng.choice((0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(counts) > 14:
            with pytest.raises(ValueError, match="at most 14 tiles"):
                module._suit_id(counts)
            continue
        assert module._VECTORS[module._suit_id(counts)] == module.suit_vector(counts), counts
        checked += 1
    assert module.suit_index((4,) * 9) == 5**9 - 1 and module.suit_index((1,) + (0,) * 8) == 1


def test_one_entry_of_a_combination_is_the_combinations_entry():
    """``_slot_cost`` (one odd entry of two groups together, read without making the
    combination) equals that entry of ``_combine``'s vector, for pairs of the vectors real suit
    patterns have, at every slot a hand asks (a pair sought with 0-4 sets)."""
    from tenhou_tools.rules import shanten as module

    rng = random.Random(27)
    ids = []
    while len(ids) < 60:
        counts = tuple(rng.choice((0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(counts) <= 14:
            ids.append(module._suit_id(counts))
    ids.append(module._FRESH)
    compared = 0
    for a in ids:
        for b in rng.sample(ids, 8):
            combined = module._VECTORS[module._combine(a, b)]
            for slot in (1, 3, 5, 7, 9):
                assert module._slot_cost(module._VECTORS[a], module._VECTORS[b], slot) == combined[slot], (a, b, slot)
                compared += 1
    assert compared == 61 * 8 * 5
