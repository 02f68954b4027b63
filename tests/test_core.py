"""The native core (``_core.c``) against the Python reference of the same kernels.

The compiled build generates walls and reads Tenhou's XML form in C; the plain build runs the
Python code in ``rules/wall.py`` and ``mjlog/scan.py``. These tests hold the two to the same
results: every random word, every shuffled wall, every element read. The core is imported
directly, so they run whenever the install built it, whichever build this process runs.
"""

from __future__ import annotations

import base64
import gzip
import importlib
import random
import struct

import pytest

from tenhou_tools import native
from tenhou_tools.mjlog.parse import parse_game
from tenhou_tools.mjlog.scan import _TILE_ITEMS, _TILE_PIECES, scan, scan_python
from tenhou_tools.rules import wall

from .conftest import FIXTURES, corpus_files
from .fuzzing.logs import MUTATIONS

try:
    core = importlib.import_module(native.NATIVE_CORE)
except ImportError:  # a plain install: nothing to compare
    core = None

pytestmark = pytest.mark.skipif(core is None, reason="this install has no native core")

ONE_HAND = (FIXTURES / "one_hand.xml").read_bytes()


def key_bytes(words: list[int]) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


def random_keys() -> list[list[int]]:
    rng = random.Random(7)
    keys = [[rng.getrandbits(32) for _ in range(n)] for n in (1, 2, 8, 32, 624, 700)]
    keys += [[0], [0xFFFFFFFF] * 3, [5, 0], [rng.getrandbits(32) for _ in range(623)] + [0]]
    return keys


# -- MT19937 and SHA-512 -------------------------------------------------------------------------


@pytest.mark.parametrize("key", random_keys(), ids=lambda k: f"{len(k)}-words")
def test_draws_are_genrand_int32_after_init_by_array(key):
    """Against random.Random seeded through ``wall.mt19937`` (CPython's MT19937, or the Python
    init_by_array for keys ending in a zero word), across two refills of the state."""
    reference = wall.mt19937(key)
    twister = core.Twister(key_bytes(key))
    assert twister.draw(1500) == tuple(reference.getrandbits(32) for _ in range(1500))


@pytest.mark.parametrize("key", random_keys(), ids=lambda k: f"{len(k)}-words")
def test_hand_words_are_the_sha512_of_the_draws(key):
    """``wall.sha512_words`` hashes with hashlib; five hands in a row keep the two in step."""
    reference = wall.mt19937(key)
    twister = core.Twister(key_bytes(key))
    for _ in range(5):
        assert twister.sha512_words() == wall.sha512_words(reference)


@pytest.mark.parametrize("players", [4, 3])
def test_shuffled_hand_is_the_reference_shuffle(players):
    rng = random.Random(players)
    start = tuple(range(136)) if players == 4 else wall._TILES_3P
    for _ in range(20):
        key = [rng.getrandbits(32) for _ in range(624)]
        reference, twister = wall.mt19937(key), core.Twister(key_bytes(key))
        for _ in range(3):
            rnd = wall.sha512_words(reference)
            order = wall.shuffle_order(rnd, len(start))
            expected = tuple(start[i] for i in order)
            assert twister.shuffled_hand(start) == (expected, rnd[135], rnd[136])


def test_a_wall_generator_deals_what_the_reference_deals(corpus):
    """Whole games from real seeds: the generator (the core, in the compiled build) against the
    Python functions hand by hand, and against the hands the log says were dealt."""
    hands = 0
    for path in corpus_files()[::40]:
        game = parse_game(path.read_bytes())
        if game.header.shuffle is None:
            continue
        seed = game.header.shuffle.seed
        players = 3 if game.header.ruleset.sanma else 4
        method, body = seed.split(",", 1)
        if method == wall.FORMAT_BASE64:
            key = base64.b64decode(body)
        else:
            key = key_bytes([int(word, 16) for word in body.split(",")])
        generator, reference = wall.WallGenerator(seed, players), wall._mt19937_from_bytes(key)
        for hand in game.hands:
            dealer = hand.init.dealer
            dealt = generator.next_hand(dealer)
            assert dealt == wall._hand_wall(wall.sha512_words(reference), players, dealer,
                                            method != wall.FORMAT_BASE64, 135)
            assert dealt.deal[:players] == hand.init.hands[:players]
            hands += 1
    assert hands > 500


@pytest.mark.parametrize("players", [4, 3])
@pytest.mark.parametrize("size", [1, 8, 32])
def test_an_init_shuffle_wall_is_the_reference_wall(players, size):
    """The per-hand seeds of early 2009: raw draws, no SHA-512 (the last key word is zero in
    every other case, which CPython's own seeding cannot take)."""
    rng = random.Random(size * players)
    n = 136 if players == 4 else 108
    for case in range(6):
        words = [rng.getrandbits(32) for _ in range(size)]
        if case % 2:
            words[-1] = 0
        shuffle = "mt19937ar," + ",".join(f"{w:08X}" for w in words)
        reference = wall.mt19937(words)
        rnd = tuple(reference.getrandbits(32) for _ in range(n + 1))
        for dealer in range(players):
            assert wall.hand_wall_from_init_shuffle(shuffle, players, dealer) == \
                wall._hand_wall(rnd, players, dealer, True, n - 1)


@pytest.mark.parametrize("key, message", [
    (b"", "the key must be a whole number of 32-bit words (1 or more), not 0 bytes"),
    (b"\x01\x02\x03", "the key must be a whole number of 32-bit words (1 or more), not 3 bytes"),
])
def test_twister_refuses_a_key_that_is_not_words(key, message):
    with pytest.raises(ValueError) as exc:
        core.Twister(key)
    assert str(exc.value) == message


@pytest.mark.parametrize("start, error, message", [
    ([0, 1, 2], TypeError, "shuffled_hand() takes the starting wall as a tuple of ints"),
    ((0,), ValueError, "shuffled_hand() takes 2 to 136 tiles, not 1"),
    (tuple(range(137)), ValueError, "shuffled_hand() takes 2 to 136 tiles, not 137"),
    ((0, "1"), TypeError, "shuffled_hand() takes the starting wall as a tuple of ints"),
    ((0, -1), ValueError, "shuffled_hand() takes values from 0 to 2**32 - 1"),
    ((0, 2**32), ValueError, "shuffled_hand() takes values from 0 to 2**32 - 1"),
    ((0, 2**70), ValueError, "shuffled_hand() takes values from 0 to 2**32 - 1"),
])
def test_shuffled_hand_refuses_a_bad_start(start, error, message):
    twister = core.Twister(b"\x01\x00\x00\x00")
    with pytest.raises(error) as exc:
        twister.shuffled_hand(start)
    assert message in str(exc.value)


def test_draw_refuses_a_negative_count():
    with pytest.raises(ValueError):
        core.Twister(b"\x01\x00\x00\x00").draw(-1)


# -- the reader -----------------------------------------------------------------------------------


def core_scan(xml: bytes):
    return core.scan(xml, _TILE_ITEMS)


def test_tenhou_form_is_read_to_the_reference_items():
    found = core_scan(ONE_HAND)
    assert found is not None
    assert found == scan_python(ONE_HAND)


def test_draw_and_discard_tags_are_the_shared_items():
    _root, items = core_scan(ONE_HAND)
    tiles = [item for item in items if item[0][0] in "TUVWDEFG" and item[0][1:].isdigit()]
    assert tiles
    assert all(item is _TILE_PIECES[f"{item[0]}/>"] for item in tiles)


def test_names_are_interned_and_values_are_fresh():
    _, first = core_scan(ONE_HAND)
    _, second = core_scan(ONE_HAND)
    go_1 = next(i for i in first if i[0] == "GO")
    go_2 = next(i for i in second if i[0] == "GO")
    assert go_1[0] is go_2[0] and next(iter(go_1[1])) is next(iter(go_2[1]))
    assert go_1[1] == go_2[1] and go_1[1] is not go_2[1]


GO = ONE_HAND[ONE_HAND.index(b"<GO "): ONE_HAND.index(b"/>", ONE_HAND.index(b"<GO ")) + 2]


def edit(old: bytes, new: bytes) -> bytes:
    assert old in ONE_HAND
    return ONE_HAND.replace(old, new, 1)


# (name, document, does the core read it?) - when it does, it must read what scan_python reads
CORE_CASES = [
    ("Tenhou's form", ONE_HAND, True),
    ("spaces before '/>'", edit(GO, GO[:-2] + b"  />"), True),
    ("line breaks between elements", ONE_HAND.replace(b"/><", b"/>\r\n\t<"), True),
    ("whitespace after the root's end", ONE_HAND + b"\n", True),
    ("an element with no attributes", edit(GO, b"<X/>" + GO), True),
    ("'>' and an apostrophe in a value", edit(GO, GO[:-2] + b' x="it\'s > 1"/>'), True),
    ("an empty value", edit(GO, GO[:-2] + b' x=""/>'), True),
    ("a tile tag with a leading zero", edit(GO, b"<T052/>" + GO), True),
    ("a tile tag beyond tile 135", edit(GO, b"<T136/><D200/>" + GO), True),
    ("a tile tag with a space", edit(GO, b"<T52 />" + GO), True),
    ("a tile tag with an attribute", edit(GO, b'<T52 x="1"/>' + GO), True),
    ("a name of 200 characters", edit(GO, b"<" + b"X" * 200 + b"/>" + GO), True),
    ("a name of 201 characters", edit(GO, b"<" + b"X" * 201 + b"/>" + GO), False),
    ("an empty root", b'<mjloggm ver="2.3"></mjloggm>', True),
    ("a line break inside a tag", edit(GO, GO.replace(b" ", b"\n", 1)), False),
    ("two spaces before an attribute", edit(GO, GO.replace(b" ", b"  ", 1)), False),
    ("single quotes", edit(GO, GO.replace(b'"', b"'")), False),
    ("spaces around '='", edit(GO, GO.replace(b"=", b" = ", 1)), False),
    ("a name with a dot", edit(GO, GO[:-2] + b' x.y="1"/>'), False),
    ("a repeated attribute", edit(GO, GO[:-2] + b' type="9"/>'), False),
    ("an entity", edit(GO, GO[:-2] + b' x="a&amp;b"/>'), False),
    ("a tab in a value", edit(GO, GO[:-2] + b' x="a\tb"/>'), False),
    ("a NUL byte", edit(GO, GO[:-2] + b' x="a\x00b"/>'), False),
    ("non-ASCII", edit(GO, GO[:-2] + ' x="名"/>'.encode()), False),
    ("a declaration", b'<?xml version="1.0"?>' + ONE_HAND, False),
    ("leading whitespace", b" " + ONE_HAND, False),
    ("a comment", edit(GO, b"<!-- x -->" + GO), False),
    ("text between elements", edit(GO, b"x" + GO), False),
    ("a nested element", edit(GO, b"<X><T5/></X>" + GO), False),
    ("no end tag", ONE_HAND[: ONE_HAND.rindex(b"</mjloggm>")], False),
    ("junk after the end tag", ONE_HAND + b"<T5/>", False),
    ("another root", ONE_HAND.replace(b"mjloggm", b"mjloggmx"), False),
    ("a self-closing root", b'<mjloggm ver="2.3"/>', False),
    ("empty", b"", False),
]


@pytest.mark.parametrize("name,xml,read", CORE_CASES, ids=[c[0] for c in CORE_CASES])
def test_core_reads_only_tenhou_form_and_reads_it_as_the_reference(name, xml, read):
    found = core_scan(xml)
    assert (found is not None) is read
    if found is not None:
        assert found == scan_python(xml)
    assert scan(xml) == scan_python(xml)  # whoever reads it, scan() gives the reference answer


def test_every_prefix_of_a_log_is_declined_or_read_as_the_reference():
    for end in range(len(ONE_HAND) + 1):
        found = core_scan(ONE_HAND[:end])
        assert found is None or found == scan_python(ONE_HAND[:end]), end
    assert core_scan(ONE_HAND) is not None


def test_core_reads_the_corpus_as_the_reference(corpus):
    read = 0
    for path in corpus_files():
        xml = gzip.decompress(path.read_bytes())
        found = core_scan(xml)
        if found is not None:
            assert found == scan_python(xml), path.name
            read += 1
    assert read >= 0.99 * len(corpus_files())


def test_fuzz_mutated_logs_are_declined_or_read_as_the_reference(corpus):
    rng = random.Random(20261122)
    seeds = [gzip.decompress(p.read_bytes()) for p in corpus_files()[::97]] + [ONE_HAND]
    names = sorted(MUTATIONS)
    read = 0
    for i in range(1500):
        xml = MUTATIONS[names[i % len(names)]](rng.choice(seeds), rng)
        found = core_scan(xml)
        if found is not None:
            assert found == scan_python(xml), names[i % len(names)]
            read += 1
    assert read > 0


def test_scan_refuses_a_wrong_tile_table():
    with pytest.raises(TypeError):
        core.scan(ONE_HAND, ())
    with pytest.raises(TypeError):
        core.scan("text", _TILE_ITEMS)
