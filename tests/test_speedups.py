"""The C extension ``tenhou_tools._native._speedups`` against the Python reference of each kernel.

Without the extension ``tenhou_tools._native`` binds the references beside the C (``values.build``,
``integers.numbers``, ``wall.shuffle``, ``wall.mt_seeded`` and ``wall.mt_words``, which run
``random.Random``), and the domain's own Python answers for the kernels that may decline
(``rules.hand.waits_python``, ``mjlog.scan.scan_python``, the shanten's regular form); these tests
hold the two to the same answers, on written cases, on the corpus and on generated input
(hypothesis). They are skipped when the install did not build the extension, except under
``TENHOU_TOOLS_EXPECT_COMPILED=1`` (CI), where that is a failure. The C that reads untrusted
bytes (``scan``, ``numbers``, and ``mt_seeded`` a log's seed key) is also fuzzed under
AddressSanitizer (``test_scan_and_numbers_under_address_sanitizer``).
"""

from __future__ import annotations

import array
import dataclasses
import gzip
import importlib
import os
import random
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tenhou_tools._native import wall as wall_reference
from tenhou_tools._native.integers import numbers as numbers_python
from tenhou_tools._native.values import build as build_reference
from tenhou_tools.analysis import value
from tenhou_tools.events import CallKind, Discard, Init, Meld, Riichi
from tenhou_tools.mjlog import parse_game
from tenhou_tools.mjlog.scan import _TILE_ITEMS, _TILE_PIECES, scan, scan_python
from tenhou_tools.rules import hand, shanten, wall
from tenhou_tools.rules.scoring import ScoredHand, WinContext
from tenhou_tools.tiles import parse_tiles

from .conftest import FIXTURES, REPO, corpus_files
from .fuzzing.logs import MUTATIONS
from .positions import positions

try:
    core = importlib.import_module("tenhou_tools._native._speedups")
except ImportError:  # a plain install: nothing to compare
    core = None

pytestmark = pytest.mark.skipif(core is None and not os.environ.get("TENHOU_TOOLS_EXPECT_COMPILED"),
                                reason="this install did not build tenhou_tools._native._speedups")

ONE_HAND = re.sub(rb">\s+<", b"><", (FIXTURES / "one_hand.xml").read_bytes()).rstrip()
"""The fixture in Tenhou's own form: its elements back to back (the file has one a line)."""


def test_the_extension_is_built_when_ci_expects_it():
    assert core is not None, "TENHOU_TOOLS_EXPECT_COMPILED is set but tenhou_tools._native._speedups does not import"


# -- build --------------------------------------------------------------------------------------


MELD = (CallKind.PON, (0, 1, 2), 2, 1, None, 1234)


@pytest.mark.parametrize("cls, args, kw", [
    (Meld, MELD, {}),
    (Meld, (), dict(zip(("kind", "tiles", "called", "from_seat", "added", "code"), MELD, strict=True))),
    (Riichi, (1, 1), {}),
    (Riichi, (1,), {"step": 2, "scores": (1, 2, 3, 4)}),
    (Discard, (3, 17), {"tsumogiri": True}),
    (Init, (0, 0, 0, (1, 2), 5, (25000,) * 4, 0, ((),) * 4), {"chips": (0,) * 4}),
    (WinContext, ((0,) * 14, (), 0, True, 0, 0), {"ippatsu": True}),
    (ScoredHand, ((), (), 0, 30, 1000, 0, 250, False, False), {}),
])
def test_build_makes_the_same_value_as_the_class(cls, args, kw):
    built = core.build(cls, *args, **kw)
    reference = build_reference(cls, *args, **kw)
    assert type(built) is cls and built == reference and hash(built) == hash(reference)
    for field in dataclasses.fields(cls):
        assert getattr(built, field.name) is getattr(reference, field.name)


@given(order=st.permutations(range(6)), positional=st.integers(0, 6), copied=st.booleans())
def test_build_takes_keywords_in_any_order_and_names_equal_but_not_the_same(order, positional, copied):
    """Keywords are matched by identity from the field after the last one found, then by text:
    any order, and names that are equal strings but other objects (built at run time), give
    the class's value."""
    names = ("kind", "tiles", "called", "from_seat", "added", "code")
    kw = {}
    for i in order:
        if i >= positional:
            name = "".join(list(names[i])) if copied else names[i]
            kw[name] = MELD[i]
    built = core.build(Meld, *MELD[:positional], **kw)
    assert built == build_reference(Meld, *MELD[:positional], **kw) == Meld(*MELD)


def test_a_built_value_is_frozen():
    meld = core.build(Meld, *MELD)
    with pytest.raises(dataclasses.FrozenInstanceError):
        meld.code = 7  # type: ignore[misc]
    assert dataclasses.replace(meld, code=5) == Meld(*MELD[:-1], 5)


@pytest.mark.parametrize("args, kw", [
    ((), {}),                                   # nothing
    (MELD[:5], {}),                             # a field missing
    (MELD + (1,), {}),                          # one too many
    (MELD, {"code": 1}),                        # twice
    (MELD[:5], {"cod": 1}),                     # unknown
])
def test_build_refuses_what_the_class_refuses_with_its_message(args, kw):
    with pytest.raises(TypeError) as reference:
        build_reference(Meld, *args, **kw)
    with pytest.raises(TypeError) as fast:
        core.build(Meld, *args, **kw)
    assert str(fast.value) == str(reference.value)


def test_build_hands_other_classes_to_the_class():
    @dataclasses.dataclass
    class Mutable:
        x: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            if self.x < 0:
                raise ValueError("negative")

    assert core.build(Mutable, 1) == Mutable(1)
    assert core.build(Checked, 1) == Checked(1)
    with pytest.raises(ValueError, match="negative"):
        core.build(Checked, -1)
    assert core.build(tuple, [1, 2]) == (1, 2)
    with pytest.raises(TypeError):
        core.build(5)


@dataclasses.dataclass(frozen=True, slots=True)
class _WithFactory:
    a: int
    b: list = dataclasses.field(default_factory=list)
    c: str = "c"


@given(a=st.integers(), b=st.none() | st.lists(st.integers(), max_size=3), c=st.none() | st.text(max_size=3),
       by_name=st.booleans())
def test_build_fills_defaults_and_factories_as_the_class(a, b, c, by_name):
    kw = {k: v for k, v in (("b", b), ("c", c)) if v is not None}
    args = (a,) if not by_name else ()
    if by_name:
        kw["a"] = a
    built = core.build(_WithFactory, *args, **kw)
    assert built == build_reference(_WithFactory, *args, **kw)
    if b is None:
        assert built.b == [] and built.b is not core.build(_WithFactory, a).b


# -- numbers -------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, lo, hi", [
    ("", 0, 1), ("0", 0, 0), ("1,2,3", 0, 3), ("-5,5", -5, 5), ("-0", 0, 0), ("007", 0, 9),
    ("1,2,3", 0, 2), ("-6", -5, 5), ("1,,2", 0, 9), (",1", 0, 9), ("1,", 0, 9), ("-", 0, 9),
    ("--1", -9, 9), ("+1", 0, 9), (" 1", 0, 9), ("1 ", 0, 9), ("1_0", 0, 99), ("١", 0, 9),
    ("9" * 18, 0, 10**18 - 1), ("9" * 19, 0, 10**18 - 1), ("1e3", 0, 9999), ("0x10", 0, 99),
])
def test_numbers_is_the_reference(text, lo, hi):
    assert core.numbers(text, lo, hi) == numbers_python(text, lo, hi)


@given(st.text(alphabet="0123456789-,+ _a\u0661", max_size=40),
       st.integers(-(10**18 - 1), 10**18 - 1), st.integers(-(10**18 - 1), 10**18 - 1))
@settings(max_examples=3000)
def test_numbers_is_the_reference_on_any_text(text, lo, hi):
    assert core.numbers(text, lo, hi) == numbers_python(text, lo, hi)


@given(st.lists(st.integers(-(10**18 - 1), 10**18 - 1), max_size=20))
def test_numbers_reads_any_list_of_integers(values):
    text = ",".join(map(str, values))
    assert core.numbers(text, -(10**18 - 1), 10**18 - 1) == tuple(values)


# -- shuffle -------------------------------------------------------------------------------------


@given(st.binary(min_size=4 * 140, max_size=4 * 140), st.sampled_from([136, 108, 2, 1, 0]),
       st.integers(0, 138))
@settings(max_examples=500)
def test_shuffle_is_the_reference(rnd, n, dice_at):
    start = wall._start(4)[:n] if n != 108 else wall._start(3)
    try:
        expected = wall_reference.shuffle(rnd, start, dice_at)
    except ValueError as error:
        with pytest.raises(ValueError, match=str(error)):
            core.shuffle(rnd, start, dice_at)
        return
    assert core.shuffle(rnd, start, dice_at) == expected


def test_shuffle_is_the_wall_of_the_seed():
    """The walls of a real seed, hand after hand, the same either way."""
    key = bytes(range(256)) * 9 + bytes(191) + b"\x01"
    seed = "mt19937ar-sha512-n288-base64," + __import__("base64").b64encode(key).decode()
    fast, plain = wall.WallGenerator(seed, 4), random.Random(int.from_bytes(key, "little"))
    for index in range(5):
        rnd = wall_reference.sha512_blocks(plain.getrandbits(32 * 288).to_bytes(4 * 288, "little"))
        shuffled = wall_reference.shuffle(rnd, wall._start(4), 135)
        assert fast.next_hand(index % 4) == wall._laid_out(*shuffled, 4, index % 4, False)


# -- sha512_blocks -------------------------------------------------------------------------------


def test_sha512_blocks_is_bound_to_openssl_where_hashlib_has_it():
    """On a POSIX Python whose hashlib is OpenSSL's, the door binds the C ``sha512_blocks``
    (the functions are found in the library ``_hashlib`` loaded, and agree with it)."""
    hashlib_module = pytest.importorskip("_hashlib")
    if sys.platform == "win32" or not getattr(hashlib_module, "__file__", None):
        pytest.skip("no dynamically loaded OpenSSL to call")
    from tenhou_tools import _native
    assert core.openssl_sha512(hashlib_module.__file__) is True
    assert _native.sha512_blocks is core.sha512_blocks


def test_sha512_blocks_without_openssl_found():
    """A path that is not a loaded library finds nothing (``False``; the door then binds the
    reference); a wrong argument is a TypeError."""
    assert core.openssl_sha512("/nonexistent/_hashlib.so") is False
    with pytest.raises(TypeError):
        core.openssl_sha512(b"/bytes/path")


@given(st.integers(0, 12).flatmap(lambda n: st.binary(min_size=128 * n, max_size=128 * n)))
@settings(max_examples=300)
def test_sha512_blocks_is_hashlibs(data):
    """Every block's digest, in order: what ``hashlib.sha512`` gives (the reference)."""
    expected = b"".join(__import__("hashlib").sha512(data[p : p + 128]).digest() for p in range(0, len(data), 128))
    assert wall_reference.sha512_blocks(data) == expected
    assert core.sha512_blocks(data) == expected
    assert core.sha512_blocks(bytearray(data)) == expected


@pytest.mark.parametrize("size", [1, 127, 129, 128 * 4096 + 128])
def test_sha512_blocks_refuses_a_partial_or_huge_input(size):
    with pytest.raises(ValueError, match="0 to 4096 blocks of 128"):
        wall_reference.sha512_blocks(bytes(size))
    with pytest.raises(ValueError, match="0 to 4096 blocks of 128"):
        core.sha512_blocks(bytes(size))


# -- mt_seeded, mt_words -------------------------------------------------------------------------


def _words(key: list[int]) -> bytes:
    return b"".join(k.to_bytes(4, "little") for k in key)


@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=40), st.lists(st.integers(0, 1400), max_size=6))
@settings(max_examples=200)
def test_mt_seeded_and_mt_words_are_the_standard_librarys(key, counts):
    """From the state init_by_array gives over any key (a last word of zero too), chunk after
    chunk across the 624-word blocks, the words are random.Random's own: getrandbits(32 * n)
    as little-endian bytes, and the state is its getstate()."""
    reference = wall.mt19937(key)
    state = core.mt_seeded(_words(key))
    assert list(array.array("I", bytes(state))) == list(reference.getstate()[1])
    for n in counts:
        assert core.mt_words(state, n) == reference.getrandbits(32 * n).to_bytes(4 * n, "little")
    assert list(array.array("I", bytes(state))) == list(reference.getstate()[1])


def test_mt_seeded_is_the_seed_of_a_real_key():
    key = bytes(range(256)) * 9 + bytes(191) + b"\x01"
    reference = random.Random(int.from_bytes(key, "little"))
    state = core.mt_seeded(key)
    assert core.mt_words(state, 288 * 3) == reference.getrandbits(32 * 288 * 3).to_bytes(4 * 288 * 3, "little")


def test_mt_seeded_and_mt_words_refuse_what_they_cannot_read():
    for key in (b"", b"abc", bytes(4 * 4097), "abcd"):
        with pytest.raises((ValueError, TypeError)):
            core.mt_seeded(key)
    state = core.mt_seeded(bytes(8))
    for bad in (bytes(state), bytearray(2496), bytearray(2504), array.array("I", [0] * 624)):
        with pytest.raises((TypeError, BufferError)):
            core.mt_words(bad, 1)
    late = bytearray(state)
    late[-4:] = (625).to_bytes(4, sys.byteorder)
    with pytest.raises(ValueError):
        core.mt_words(late, 1)
    for n in (-1, 65537):
        with pytest.raises(ValueError):
            core.mt_words(state, n)
    assert core.mt_words(state, 0) == b""
    assert len(core.mt_words(array.array("I", array.array("I", bytes(state)).tolist()), 3)) == 12


def test_shuffle_refuses_a_bad_start():
    with pytest.raises(TypeError):
        core.shuffle(bytes(600), list(range(136)), 135)
    with pytest.raises(TypeError):
        core.shuffle(bytes(600), tuple(range(137)), 135)
    with pytest.raises(ValueError):
        core.shuffle(bytes(8), tuple(range(136)), 0)


# -- scan --------------------------------------------------------------------------------------


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


@pytest.mark.corpus  # every log of the corpus: a long run
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


# -- AddressSanitizer ----------------------------------------------------------------------------

def asan_library() -> str | None:
    found = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
    return found if found and Path(found).is_absolute() and Path(found).exists() else None


FUZZ = r"""
import gzip, random, sys
from pathlib import Path

import _speedups as c  # the ASan build, from the folder on PYTHONPATH

from tenhou_tools._native.integers import numbers as numbers_python
from tenhou_tools.mjlog.scan import _TILE_ITEMS, scan_python
from tests.fuzzing.logs import MUTATIONS

seeds = [Path(p).read_bytes() for p in sys.argv[1:]]
seeds = [gzip.decompress(s) if s[:2] == b"\x1f\x8b" else s for s in seeds]
rng = random.Random(20261127)
names = sorted(MUTATIONS)
read = 0
for i in range(3000):
    xml = rng.choice(seeds)
    if i % 3:
        xml = MUTATIONS[names[i % len(names)]](xml, rng)
    if i % 7 == 0:
        xml = xml[: rng.randrange(len(xml) + 1)]
    if i % 11 == 0:
        xml = bytes(rng.getrandbits(8) for _ in range(rng.randrange(64)))
    found = c.scan(xml, _TILE_ITEMS)
    if found is not None:
        assert found == scan_python(xml), i
        read += 1
alphabet = "0123456789-,+ x\u0661"
for i in range(5000):
    text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(30)))
    if i % 2:
        text = ",".join(str(rng.randint(-10**19, 10**19)) for _ in range(rng.randrange(6)))
    lo, hi = sorted(rng.randint(-10**18 + 1, 10**18 - 1) for _ in range(2))
    assert c.numbers(text, lo, hi) == numbers_python(text, lo, hi), (text, lo, hi)
for i in range(300):
    size = rng.choice([0, 1, 3, 4, 8, 128, 2496, 16384, 16388]) + (rng.randrange(4) if i % 5 == 0 else 0)
    key = bytes(rng.getrandbits(8) for _ in range(size))
    try:
        state = c.mt_seeded(key)
    except ValueError:
        assert size == 0 or size % 4 or size > 16384, size
        continue
    reference = random.Random(int.from_bytes(key, "little"))
    if key[-4:] != bytes(4):
        n = rng.randrange(1400)
        assert c.mt_words(state, n) == reference.getrandbits(32 * n).to_bytes(4 * n, "little")
    else:
        c.mt_words(state, rng.randrange(1400))
print("ok", read)
"""


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_scan_and_numbers_under_address_sanitizer(tmp_path):
    """The C that reads untrusted bytes, built with -fsanitize=address and fed real logs, their
    mutations, prefixes and random bytes, random number lists, and wall seed keys of any length
    (mt_seeded, mt_words, against random.Random): no out-of-bounds read or
    write, and every answer the reference's. Objects come from malloc (PYTHONMALLOC=malloc), so a
    read past a document's end is caught, not hidden inside a pymalloc arena."""
    library = asan_library()
    if library is None:
        pytest.skip("gcc has no libasan")
    target = tmp_path / f"_speedups{sysconfig.get_config_var('EXT_SUFFIX')}"
    subprocess.run(["gcc", "-fsanitize=address", "-fno-omit-frame-pointer", "-g", "-O1", "-shared", "-fPIC",
                    f"-I{sysconfig.get_paths()['include']}", str(REPO / "tenhou_tools" / "_native" / "_speedups.c"),
                    "-o", str(target)], check=True, capture_output=True, timeout=300)
    seeds = [FIXTURES / "one_hand.xml", FIXTURES / "sanma_kita.xml", FIXTURES / "one_hand.mjlog"]
    if corpus_files():
        seeds += corpus_files()[::150]
    env = {**os.environ, "LD_PRELOAD": library, "ASAN_OPTIONS": "detect_leaks=0", "PYTHONMALLOC": "malloc",
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)])}
    done = subprocess.run([sys.executable, "-c", FUZZ, *map(str, seeds)], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=900)
    assert done.returncode == 0 and "AddressSanitizer" not in done.stderr, done.stderr[-3000:]
    status, read = done.stdout.split()
    assert status == "ok" and int(read) > 0


# -- waits ---------------------------------------------------------------------------------------


def kind_counts(tiles: int, seed: int) -> list[int]:
    """Counts of ``tiles`` tiles drawn from the 136, often clustered (so that waits exist)."""
    rng = random.Random(seed)
    counts = [0] * 34
    suit = rng.randrange(4)
    while sum(counts) < tiles:
        kind = rng.randrange(34) if rng.random() < 0.4 else min(33, suit * 9 + rng.randrange(9))
        if counts[kind] < 4:
            counts[kind] += 1
    return counts


@pytest.mark.parametrize("tiles", [1, 4, 7, 10, 13, 14, 2, 0])
def test_waits_is_the_reference(tiles):
    found = 0
    for seed in range(1500):
        counts = kind_counts(tiles, seed)
        expected = hand.waits_python(counts)
        assert core.waits(counts) == expected, counts
        found += bool(expected)
    assert tiles not in (1, 4, 7, 10, 13) or found


@given(st.lists(st.integers(0, 4), min_size=34, max_size=34))
@settings(max_examples=2000)
def test_waits_is_the_reference_on_any_counts(counts):
    assert core.waits(counts) == hand.waits_python(counts)


@pytest.mark.parametrize("counts", [
    [2, 1, 1, 1, 1, 1, 1, 1, 1] + [0] * 25,                                    # a pair and 1-9
    [3, 1, 1, 1, 1, 1, 1, 1, 3] + [0] * 25,                                    # nine gates
    [1, 0, 0, 0, 0, 0, 0, 0, 1] * 3 + [1] * 7,                                  # thirteen orphans, 13-sided
    [2, 0, 0, 0, 0, 0, 0, 0, 1] + [1, 0, 0, 0, 0, 0, 0, 0, 1] * 2 + [1] * 6 + [0],  # orphans, one missing
    [2, 2, 2, 2, 2, 2, 1] + [0] * 27,                                          # seven pairs
])
def test_waits_of_known_shapes(counts):
    assert core.waits(counts) == hand.waits_python(counts) != frozenset()


@pytest.mark.parametrize("counts", [[0] * 33, [0] * 35, (0,) * 34, [5] + [0] * 33, [-1] + [0] * 33, [True] * 34])
def test_waits_leaves_what_is_no_hand_to_the_reference(counts):
    assert core.waits(counts) is None


# -- tenpai_discards ----------------------------------------------------------------------------


@pytest.mark.parametrize("tiles", [2, 5, 8, 11, 14])
def test_tenpai_discards_is_the_reference(tiles):
    found = 0
    for seed in range(800):
        counts = kind_counts(tiles, seed)
        kept = seed % 35 - 1  # -1: none kept
        expected = hand.tenpai_discards_python(counts, kept)
        assert core.tenpai_discards(counts, kept) == expected, counts
        found += bool(expected)
    assert found


@given(st.lists(st.integers(0, 4), min_size=34, max_size=34), st.integers(-1, 33))
@settings(max_examples=1000)
def test_tenpai_discards_is_the_reference_on_any_counts(counts, kept):
    assert core.tenpai_discards(counts, kept) == hand.tenpai_discards_python(counts, kept)


def test_tenpai_discards_of_a_hand():
    """123m456p789s 1122z (shanpon on 1z and 2z) having drawn 1z: letting go of 1z goes back to
    the shanpon, 2z leaves 111z and a tanki on 2z, each suit tile a wait of its own shape (1m:
    23m on 1m-4m, 2m: 13m on 2m, ...); the drawn 1z kept, it is not offered."""
    counts = hand.counts34(parse_tiles("123m456p789s11122z"))
    expected = ((0, (0, 3)), (1, (1,)), (2, (2,)), (12, (12, 15)), (13, (13,)), (14, (11, 14)), (24, (24,)),
                (25, (25,)), (26, (23, 26)), (28, (28,)))
    assert hand.tenpai_discards(counts, 27) == hand.tenpai_discards_python(counts, 27) == expected
    assert core.tenpai_discards(counts, 27) == expected
    assert core.tenpai_discards(counts, -1) == hand.tenpai_discards_python(counts) == tuple(
        sorted((*expected, (27, (27, 28)))))


@pytest.mark.parametrize("counts", [[0] * 33, (0,) * 34, [5] + [0] * 33, [True] * 34])
def test_tenpai_discards_leaves_what_is_no_hand_to_the_reference(counts):
    assert core.tenpai_discards(counts, -1) is None


@pytest.mark.parametrize("kept", [True, 2 ** 70, -2 ** 70, 1.0])
def test_tenpai_discards_leaves_a_kept_kind_that_is_no_int_to_the_reference(kept):
    """A kernel answers or declines (None), never raises, whatever it is given."""
    assert core.tenpai_discards(hand.counts34(parse_tiles("123m456p789s11122z")), kept) is None


# -- tenpai_draws --------------------------------------------------------------------------------


@pytest.mark.parametrize("tiles", [1, 4, 7, 10, 13])
def test_tenpai_draws_is_the_reference(tiles):
    found = 0
    for seed in range(400):
        counts = kind_counts(tiles, seed)
        rng = random.Random(seed)
        draws = [k for k in range(34) if counts[k] < 4 and rng.random() < 0.3]
        expected = hand.tenpai_draws_python(counts, draws)
        assert core.tenpai_draws(counts, draws) == expected, counts
        assert core.tenpai_draws(counts, tuple(draws)) == expected, counts
        assert expected == [(k, hand.tenpai_discards_python([*counts[:k], counts[k] + 1, *counts[k + 1:]], k))
                            for k in draws]
        found += any(options for _, options in expected)
    assert found


@given(st.lists(st.integers(0, 3), min_size=34, max_size=34), st.lists(st.integers(0, 33), max_size=12))
@settings(max_examples=500)
def test_tenpai_draws_is_the_reference_on_any_counts(counts, draws):
    assert core.tenpai_draws(counts, draws) == hand.tenpai_draws_python(counts, draws)


def test_tenpai_draws_of_a_hand():
    """123m456p789s 1122z: drawing 1z or 2z each gives its tenpai discards; 3z none."""
    counts = hand.counts34(parse_tiles("123m456p789s1122z"))
    with_1z = [*counts[:27], 3, *counts[28:]]
    assert hand.tenpai_draws(counts, (27, 28, 29)) == core.tenpai_draws(counts, (27, 28, 29)) == [
        (27, hand.tenpai_discards(with_1z, 27)), (28, core.tenpai_discards([*counts[:28], 3, *counts[29:]], 28)),
        (29, hand.tenpai_discards([*counts[:29], 1, *counts[30:]], 29))]
    assert core.tenpai_draws(counts, ()) == []


@pytest.mark.parametrize(("counts", "draws"), [
    ([0] * 33, [0]), ((0,) * 34, [0]), ([5] + [0] * 33, [1]), ([0] * 34, {0}), ([0] * 34, [True]),
    ([0] * 34, [34]), ([0] * 34, [-1]), ([0] * 34, [2 ** 70]), ([4] + [0] * 33, [0]),
    ([0] * 34, list(range(34)) + [0])])
def test_tenpai_draws_leaves_what_is_no_hand_or_draw_to_the_reference(counts, draws):
    """A kernel answers or declines (None), never raises, whatever it is given."""
    assert core.tenpai_draws(counts, draws) is None


# -- first_tenpai_sums (analysis/value.py) ------------------------------------------------------


def random_branches(rng: random.Random) -> list:
    """A one-shanten look-ahead's branches: (copies drawn, [(weighted tiles, average win), ...])."""
    return [(rng.randrange(1, 5), [(rng.choice([0.0, rng.uniform(0, 12), float(rng.randrange(1, 9))]),
                                    rng.choice([0.0, rng.uniform(1000, 36000), 8000.0]))
                                   for _ in range(rng.randrange(0, 6))])
            for _ in range(rng.randrange(0, 9))]


def test_first_tenpai_sums_is_the_reference():
    """The same doubles as the Python loop (ties between discards included), on random branches."""
    rng = random.Random(33)
    for _ in range(3000):
        branches = random_branches(rng)
        tiles = sum(c for c, _ in branches) or 1
        pool, draws = rng.randrange(tiles, 124), rng.randrange(2, 20)
        assert core.first_tenpai_sums(branches, tiles, pool, draws) == value._first_tenpai_sums_python(
            branches, tiles, pool, draws), (branches, tiles, pool, draws)


@pytest.mark.parametrize("args", [
    ([(1, [(1.0, 2.0)])], 1, 10, 1),        # no draw after the first
    ([(1, [(1, 2.0)])], 1, 10, 5),          # an int where the loop sums floats
    ([[1, [(1.0, 2.0)]]], 1, 10, 5),        # a branch that is not a tuple
    (((1, [(1.0, 2.0)]),), 1, 10, 5),       # branches that are not a list
    ([(1, [(1.0, 2.0)])], 0, 10, 5),        # nothing reaches tenpai
])
def test_first_tenpai_sums_leaves_other_input_to_the_reference(args):
    assert core.first_tenpai_sums(*args) is None


# -- regular_gains, discard_acceptances (rules/shanten.py) ----------------------------------------


def shanten_native(name: str, counts: list[int], melds: int, sanma: bool, unseen: list[int] | None = None):
    """The extension's answer for a hand of ``counts`` with ``melds`` melds (``discard_acceptances``:
    the closed forms when no meld, ``unseen`` its unseen copies, by default 4 minus the hand's)."""
    table, vectors = shanten._native_tables()
    slot = (4 - melds) * 2 + 1
    if name == "discard_acceptances":
        seen = [4 - n for n in counts] if unseen is None else unseen
        return core.discard_acceptances(counts, slot, sanma, table, vectors, melds == 0, seen)
    return getattr(core, name)(counts, slot, sanma, table, vectors)


def shanten_reference(name: str, counts: list[int], melds: int, sanma: bool, unseen: list[int] | None = None):
    slot = (4 - melds) * 2 + 1
    if name == "discard_acceptances":
        seen = [4 - n for n in counts] if unseen is None else unseen
        return shanten._discard_acceptances_python(counts, slot, sanma, melds == 0, seen)
    return shanten._regular_gains_python(counts, slot, sanma)


def sanma_counts(counts: list[int]) -> list[int]:
    """``counts`` with 2m-8m moved onto 1m and 9m where they fit (a three-player hand)."""
    moved = list(counts)
    for k in range(1, 8):
        for _ in range(moved[k]):
            target = 0 if moved[0] < 4 else 8 if moved[8] < 4 else None
            if target is not None:
                moved[target] += 1
        moved[k] = 0
    return moved


def some_unseen(counts: list[int], seed: int) -> list[int]:
    """Unseen counts of a hand: 4 minus its copies, minus a few seen elsewhere (0 among them)."""
    rng = random.Random(seed)
    return [max(0, 4 - n - rng.choice((0, 0, 1, 2, 4))) for n in counts]


@pytest.mark.parametrize("tiles", [13, 14, 10, 11, 7, 8, 4, 5, 1, 2])
@pytest.mark.parametrize("sanma", [False, True])
def test_regular_gains_and_discard_acceptances_are_the_reference(tiles, sanma):
    melds = (14 - tiles) // 3
    checked = 0
    for seed in range(400):
        counts = kind_counts(tiles, seed)
        if sanma:
            counts = sanma_counts(counts)
            if sum(counts) != tiles:
                continue
        name = "regular_gains" if tiles % 3 == 1 else "discard_acceptances"
        unseen = some_unseen(counts, seed)
        assert shanten_native(name, counts, melds, sanma, unseen) == \
            shanten_reference(name, counts, melds, sanma, unseen), counts
        checked += 1
    assert checked >= 200


_ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


def closed_form_hands() -> st.SearchStrategy[list[int]]:
    """14 tiles of few kinds, or mostly orphans: seven pairs and thirteen orphans at their best."""
    few = st.lists(st.integers(0, 33), min_size=4, max_size=8, unique=True)
    pools = st.one_of(few, st.just(_ORPHANS), st.lists(st.integers(0, 33), max_size=3).map(lambda x: _ORPHANS + x))
    return pools.flatmap(lambda pool: st.lists(st.sampled_from(pool), min_size=14, max_size=14)).filter(
        lambda kinds: max(kinds.count(k) for k in set(kinds)) <= 4
    ).map(lambda kinds: [kinds.count(k) for k in range(34)])


def hand_counts(n: int) -> st.SearchStrategy[list[int]]:
    """34 kind counts of ``n`` tiles, each kind at most four."""
    return st.lists(st.integers(0, 33), min_size=n, max_size=n).filter(
        lambda kinds: max(kinds.count(k) for k in set(kinds)) <= 4
    ).map(lambda kinds: [kinds.count(k) for k in range(34)])


@given(st.one_of(st.sampled_from([1, 2, 4, 5, 7, 8, 10, 11, 13, 14]).flatmap(hand_counts), closed_form_hands()),
       st.integers(0, 2**32), st.booleans())
@settings(max_examples=1500)
def test_regular_forms_are_the_reference_on_any_hand(counts, seed, sanma):
    """A 3n+1 hand through regular_gains, a 3n+2 hand through discard_acceptances (four- and
    three-player: 2m-8m moved onto 1m and 9m where they fit, else the hand is four-player)."""
    if sanma:
        moved = sanma_counts(counts)
        sanma = sum(moved) == sum(counts)
        counts = moved if sanma else counts
    melds = (14 - sum(counts)) // 3
    name = "regular_gains" if sum(counts) % 3 == 1 else "discard_acceptances"
    unseen = some_unseen(counts, seed)
    assert shanten_native(name, counts, melds, sanma, unseen) == shanten_reference(name, counts, melds, sanma, unseen)


def test_discard_acceptances_is_the_reference_on_corpus_positions():
    files = corpus_files()[::250]
    if not files:
        pytest.skip("no corpus (TENHOU_CORPUS)")
    checked = 0
    for path in files:
        for pos in positions(parse_game(path.read_bytes())):
            counts = hand.counts34(pos.concealed)
            unseen = some_unseen(counts, checked)
            assert shanten_native("discard_acceptances", counts, pos.melds, pos.sanma, unseen) == \
                shanten_reference("discard_acceptances", counts, pos.melds, pos.sanma, unseen), (path.name, pos)
            after = list(counts)
            after[pos.discarded >> 2] -= 1
            assert shanten_native("regular_gains", after, pos.melds, pos.sanma) == \
                shanten_reference("regular_gains", after, pos.melds, pos.sanma), (path.name, pos)
            checked += 1
    assert checked > 1000


def call_kernel(name: str, counts: object, slot: int, table: bytes, vectors: bytes, unseen: object = None):
    args = (counts, slot, False, table, vectors)
    if name == "discard_acceptances":
        return core.discard_acceptances(*args, True, [4] * 34 if unseen is None else unseen)
    return getattr(core, name)(*args)


@pytest.mark.parametrize("name", ["regular_gains", "discard_acceptances"])
@pytest.mark.parametrize("counts", [[0] * 33, [0] * 35, (0,) * 34, [5] + [0] * 33, [-1] + [0] * 33])
def test_regular_forms_leave_what_is_no_hand_to_the_reference(name, counts):
    table, vectors = shanten._native_tables()
    assert call_kernel(name, counts, 9, table, vectors) is None


@pytest.mark.parametrize("unseen", [[4] * 33, [4] * 35, (4,) * 34, [5] + [4] * 33, [-1] + [4] * 33, [4.0] * 34])
def test_discard_acceptances_leaves_unseen_counts_out_of_range_to_the_reference(unseen):
    table, vectors = shanten._native_tables()
    counts = [1] * 14 + [0] * 20
    assert call_kernel("discard_acceptances", counts, 9, table, vectors) is not None
    assert call_kernel("discard_acceptances", counts, 9, table, vectors, unseen) is None


@pytest.mark.parametrize("name", ["regular_gains", "discard_acceptances"])
@pytest.mark.parametrize("slot", [0, 2, 8, 11, -1])
def test_regular_forms_leave_a_slot_no_hand_asks_to_the_reference(name, slot):
    """A hand asks for a pair with 0-4 sets: the odd entries 1-9 only."""
    table, vectors = shanten._native_tables()
    counts = [1] * 13 + [0] * 21 if name == "regular_gains" else [1] * 14 + [0] * 20
    assert call_kernel(name, counts, 9, table, vectors) is not None
    assert call_kernel(name, counts, slot, table, vectors) is None


@pytest.mark.parametrize("name", ["regular_gains", "discard_acceptances"])
def test_regular_forms_refuse_a_table_of_the_wrong_size(name):
    table, vectors = shanten._native_tables()
    with pytest.raises(ValueError, match="table"):
        call_kernel(name, [0] * 34, 9, table[:-1], vectors)
    with pytest.raises(ValueError, match="table"):
        call_kernel(name, [0] * 34, 9, table, vectors[:-1])
