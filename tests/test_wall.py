"""Wall regeneration (``tenhou_tools.rules.wall``) against mt19937ar.c, WALL.md and real logs.

Tests that need real logs read them from ``$TENHOU_CORPUS`` (default ``../shared/corpus`` from the
repository root) and skip when it is absent. Only numbers that WALL.md itself states are written
here; everything else is read from the corpus at test time.
"""

from __future__ import annotations

import base64
import dataclasses
import gzip
import os
import random
import re
import struct
from pathlib import Path

import pytest

from tenhou_tools.rules.wall import (
    FORMAT_BASE64,
    FORMAT_HEX,
    FORMAT_LEGACY,
    HandWall,
    WallGenerator,
    WallSeedError,
    hand_wall_from_init_shuffle,
    init_by_array,
    mt19937,
    seed_format,
    sha512_words,
    shuffle_order,
    walls,
)

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("TENHOU_CORPUS") or ROOT / ".." / "shared" / "corpus").resolve()
WORKED_GAME = "2010081709gm-00a9-0000-fe3371ad"

# Syntactically valid seeds made up for the tests (not from any log).
_FAKE_RAW = random.Random(7).randbytes(2496)
FAKE_SEED = "mt19937ar-sha512-n288-base64," + base64.b64encode(_FAKE_RAW).decode()
_RNG8 = random.Random(8)
FAKE_HEX = "mt19937ar-sha512-n288," + ",".join(f"{_RNG8.getrandbits(32):08X}" for _ in range(32))
FAKE_LEGACY = "mt19937ar," + ",".join(f"{(k * 0x9E3779B9 + 1) & 0xFFFFFFFF:08X}" for k in range(8))


# ------------------------------------------------------------------------------------------
# MT19937


MT_REFERENCE_KEY = (0x123, 0x234, 0x345, 0x456)
# mt19937ar.c's own test output (mt19937ar.out), first line.
MT_REFERENCE_OUT = (
    1067595299, 955945823, 477289528, 4107218783, 4228976476,
    3344332714, 3355579695, 227628506, 810200273, 2591290167,
)  # fmt: skip


def test_mt19937_reference_outputs():
    rng = mt19937(MT_REFERENCE_KEY)
    assert tuple(rng.getrandbits(32) for _ in range(10)) == MT_REFERENCE_OUT


def test_pure_init_by_array_reference_outputs():
    rng = random.Random()
    rng.setstate((3, init_by_array(MT_REFERENCE_KEY) + (624,), None))
    assert tuple(rng.getrandbits(32) for _ in range(10)) == MT_REFERENCE_OUT


def test_getrandbits_packs_outputs_little_endian():
    a, b = mt19937(MT_REFERENCE_KEY), mt19937(MT_REFERENCE_KEY)
    packed = a.getrandbits(32 * 10).to_bytes(40, "little")
    assert struct.unpack("<10I", packed) == tuple(b.getrandbits(32) for _ in range(10))


@pytest.mark.parametrize("length", [1, 2, 8, 32, 623, 624, 625, 700])
def test_init_by_array_matches_cpython_seeding(length):
    key = [random.Random(length).getrandbits(32) | 1 for _ in range(length)]
    state = init_by_array(key)
    assert state == mt19937(key).getstate()[1][:624]


def test_trailing_zero_key_word():
    # CPython's random.Random(int) would drop the zero word and seed with the shorter key.
    key = (1, 2, 0)
    # Outputs of mt19937ar.c's init_by_array({1, 2, 0}, 3) (as computed by numpy's RandomState).
    expected = (4156206574, 4063420426, 1670572027, 2382247123, 1808059545)
    rng = mt19937(key)
    assert tuple(rng.getrandbits(32) for _ in range(5)) == expected
    shortened = random.Random(1 + (2 << 32))
    assert tuple(shortened.getrandbits(32) for _ in range(5)) != expected


def test_trailing_zero_against_numpy():
    import numpy as np  # the test extra has it: a reference MT19937 that cannot be skipped away
    for key in ([0, 0], [5, 0, 0, 0], [0xFFFFFFFF] * 623 + [0]):
        ours = mt19937(key)
        ref = np.random.RandomState(np.array(key, dtype=np.uint32))
        assert [ours.getrandbits(32) for _ in range(8)] == ref.randint(
            0, 2**32, size=8, dtype=np.uint32
        ).tolist()


def test_trailing_zero_in_a_seed_goes_through_the_pure_path():
    raw = _FAKE_RAW[:-4] + b"\0\0\0\0"
    seed = "mt19937ar-sha512-n288-base64," + base64.b64encode(raw).decode()
    gen = WallGenerator(seed, 4)
    ref = random.Random()
    ref.setstate((3, init_by_array(struct.unpack("<624I", raw)) + (624,), None))
    rnd = sha512_words(ref)
    w = shuffle_order(rnd, 136)
    hw = gen.next_hand(0)
    assert hw.deal[0][:4] == tuple(w[135:131:-1])
    assert hw.dice == (rnd[135] % 6 + 1, rnd[136] % 6 + 1)


# ------------------------------------------------------------------------------------------
# Structure (no corpus needed)


def _all_tiles_4p(hw: HandWall) -> list[int]:
    return [t for d in hw.deal for t in d] + list(hw.live) + list(hw.rinshan) + list(
        hw.dora_indicators
    ) + list(hw.ura_indicators)


@pytest.mark.parametrize("dealer", range(4))
@pytest.mark.parametrize("seed", [FAKE_SEED, FAKE_HEX])
def test_four_player_wall_is_a_permutation(seed, dealer):
    gen = walls(seed, 4)
    for _ in range(3):
        hw = gen.next_hand(dealer)
        assert sorted(_all_tiles_4p(hw)) == list(range(136))
        assert [len(d) for d in hw.deal] == [13] * 4
        assert (len(hw.live), len(hw.rinshan)) == (70, 4)
        assert len(hw.dora_indicators) == len(hw.ura_indicators) == 5
        assert all(1 <= d <= 6 for d in hw.dice)
    assert gen.hands == 3


@pytest.mark.parametrize("dealer", range(3))
@pytest.mark.parametrize("seed", [FAKE_SEED, FAKE_HEX])
def test_three_player_wall_is_a_permutation_of_real_ids(seed, dealer):
    hw = walls(seed, 3).next_hand(dealer)
    assert [len(d) for d in hw.deal] == [13, 13, 13, 0]
    assert (len(hw.live), len(hw.rinshan)) == (55, 8)
    # The dead wall w[0..13] = 8 replacement tiles + the first 3 indicator pairs; the later
    # indicator places overlap the live wall's end (they only open after kans shortened it).
    tiles = [t for d in hw.deal for t in d] + list(hw.live) + list(hw.rinshan)
    tiles += list(hw.dora_indicators[:3]) + list(hw.ura_indicators[:3])
    assert sorted(tiles) == [*range(4), *range(32, 136)]
    assert set(hw.dora_indicators[3:] + hw.ura_indicators[3:]) <= set(hw.live[-4:])


def test_dealer_rotates_the_deal():
    a = walls(FAKE_SEED, 4).next_hand(0)
    b = walls(FAKE_SEED, 4).next_hand(2)
    assert a.deal[0] == b.deal[2] and a.deal[1] == b.deal[3] and a.deal[3] == b.deal[1]
    assert (a.live, a.rinshan, a.dora_indicators, a.dice) == (
        b.live, b.rinshan, b.dora_indicators, b.dice
    )


def test_new_and_old_dead_wall_layouts():
    # Old layout (hex seed): rinshan w[0], w[1], ...; dora w[4], w[6], ...; ura w[5], w[7], ...
    key = list(range(1, 33))
    old = walls("mt19937ar-sha512-n288," + ",".join(f"{k:08x}" for k in key), 4).next_hand(0)
    wo = shuffle_order(sha512_words(mt19937(key)), 136)
    assert old.rinshan == (wo[0], wo[1], wo[2], wo[3])
    assert old.dora_indicators == (wo[4], wo[6], wo[8], wo[10], wo[12])
    assert old.ura_indicators == (wo[5], wo[7], wo[9], wo[11], wo[13])
    # New layout (base64 seed): each pair swapped.
    new = walls(FAKE_SEED, 4).next_hand(0)
    wn = shuffle_order(sha512_words(mt19937(struct.unpack("<624I", _FAKE_RAW))), 136)
    assert new.rinshan == (wn[1], wn[0], wn[3], wn[2])
    assert new.dora_indicators == (wn[5], wn[7], wn[9], wn[11], wn[13])
    assert new.ura_indicators == (wn[4], wn[6], wn[8], wn[10], wn[12])
    assert new.live[0] == wn[83] and new.live[-1] == wn[14]
    assert new.deal[0][:4] == tuple(wn[135:131:-1]) and new.deal[0][12] == wn[87]
    assert new.deal[3][12] == wn[84]


def test_legacy_init_shuffle_uses_raw_outputs():
    hw = hand_wall_from_init_shuffle(FAKE_LEGACY, 4, 1)
    key = [int(x, 16) for x in FAKE_LEGACY.split(",")[1:]]
    rng = mt19937(key)
    rnd = [rng.getrandbits(32) for _ in range(137)]
    w = shuffle_order(rnd, 136)
    assert hw.deal[1][:4] == tuple(w[135:131:-1])
    assert hw.dice == (rnd[135] % 6 + 1, rnd[136] % 6 + 1)
    assert hw.dora_indicators[0] == w[4] and hw.rinshan[0] == w[0]
    h3 = hand_wall_from_init_shuffle(FAKE_LEGACY, 3, 2)
    rng = mt19937(key)
    rnd = [rng.getrandbits(32) for _ in range(109)]
    assert h3.dice == (rnd[107] % 6 + 1, rnd[108] % 6 + 1)


@pytest.mark.parametrize("key", [[0x1234, 0], [7] * 8 + [0, 0], [5], list(range(1, 33)), [3] * 4096, [9] * 4097])
def test_legacy_init_shuffle_is_random_random_for_any_key(key):
    """The kernels (up to 4,096 key words, a last word of zero too) and random.Random beyond:
    the raw outputs of MT19937 seeded with the words, either way."""
    shuffle = FORMAT_LEGACY + "," + ",".join(f"{k:x}" for k in key)
    rng = mt19937(key)
    rnd = [rng.getrandbits(32) for _ in range(137)]
    w = shuffle_order(rnd, 136)
    hw = hand_wall_from_init_shuffle(shuffle, 4, 0)
    assert hw.dice == (rnd[135] % 6 + 1, rnd[136] % 6 + 1)
    assert hw.deal[0][:4] == tuple(w[135:131:-1]) and hw.live == tuple(w[135 - 52:13:-1])


def test_hand_wall_is_frozen():
    hw = walls(FAKE_SEED, 4).next_hand(0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        hw.dice = (1, 1)  # type: ignore[misc]
    assert not hasattr(hw, "__dict__")


# ------------------------------------------------------------------------------------------
# Bad seeds


@pytest.mark.parametrize(
    "seed",
    [
        "",
        "garbage",
        "xorshift,1234",
        "mt19937ar-sha512-n288-base64",
        "mt19937ar-sha512-n288-base64,",
        "mt19937ar-sha512-n288-base64,!!!notbase64!!!",
        "mt19937ar-sha512-n288-base64,AAAA",  # valid base64, too short
        FAKE_SEED[:-8],  # truncated
        FAKE_SEED[:100] + "*" + FAKE_SEED[101:],
        "mt19937ar-sha512-n288,0123ABCD",  # too few words
        "mt19937ar-sha512-n288," + ",".join(["XYZ12345"] * 32),
        "mt19937ar-sha512-n288," + ",".join(["123456789"] * 32),  # 9 hex digits
        FAKE_LEGACY,  # per-hand seed given as a game seed
    ],
)
def test_garbled_game_seed(seed):
    with pytest.raises(WallSeedError):
        WallGenerator(seed, 4)


@pytest.mark.parametrize(
    "shuffle",
    ["", "mt19937ar", "mt19937ar,", "mt19937ar,12,zz", FAKE_SEED, "sha,1,2"],
)
def test_garbled_init_shuffle(shuffle):
    with pytest.raises(WallSeedError):
        hand_wall_from_init_shuffle(shuffle, 4, 0)


def test_wall_seed_error_is_a_value_error():
    assert issubclass(WallSeedError, ValueError)
    with pytest.raises(ValueError, match="unknown wall seed format"):
        seed_format("nope,1,2")
    assert seed_format(FAKE_SEED) == FORMAT_BASE64
    assert seed_format(FAKE_HEX) == FORMAT_HEX
    assert seed_format(FAKE_LEGACY) == FORMAT_LEGACY


def test_bad_table_arguments():
    with pytest.raises(ValueError):
        WallGenerator(FAKE_SEED, 5)
    gen = WallGenerator(FAKE_SEED, 3)
    with pytest.raises(ValueError):
        gen.next_hand(3)
    assert gen.hands == 0


# ------------------------------------------------------------------------------------------
# Real logs (corpus)

_DRAW = re.compile(r"<([TUVW])(\d+)/>")
_TAG = re.compile(r"<(/?[A-Za-z]+)(\d*)([^>]*)>")


def _corpus_games() -> list[Path]:
    return sorted((CORPUS / "mjlog").glob("*/*.xml.gz"))


_skip_without_corpus = pytest.mark.skipif(
    not (CORPUS / "mjlog").is_dir(), reason=f"no corpus at {CORPUS} (set TENHOU_CORPUS)"
)


def needs_corpus(test):
    return pytest.mark.corpus(_skip_without_corpus(test))


def _read(path: Path) -> str:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return fh.read()


def _attr(tag: str, name: str) -> str | None:
    m = re.search(rf'\b{name}="([^"]*)"', tag)
    return m[1] if m else None


def _ints(s: str | None) -> tuple[int, ...]:
    return tuple(int(x) for x in s.split(",")) if s else ()


def _check_game(text: str, players: int, hand_wall_for) -> int:
    """Check every hand of one game against ``hand_wall_for(n, init_tag, dealer)``; return hands."""
    hands = 0
    hw = None
    live = rin = 0
    dora_next = 1
    pending = [False] * 4
    for m in _TAG.finditer(text):
        name, num, _rest = m[1], m[2], m[3]
        whole = m[0]
        if name == "INIT":
            seed = _ints(_attr(whole, "seed"))
            dealer = int(_attr(whole, "oya"))
            hw = hand_wall_for(hands, whole, dealer)
            hands += 1
            assert hw.dice == (seed[3] + 1, seed[4] + 1)
            assert hw.dora_indicators[0] == seed[5]
            for s in range(4):
                assert hw.deal[s] == _ints(_attr(whole, f"hai{s}"))
            live = rin = 0
            dora_next = 1
            pending = [False] * 4
        elif hw is None:
            continue
        elif name in ("T", "U", "V", "W") and num:
            seat = "TUVW".index(name)
            if pending[seat]:
                assert int(num) == hw.rinshan[rin]
                rin += 1
            else:
                assert live < len(hw.live) - rin
                assert int(num) == hw.live[live]
                live += 1
            pending[seat] = False
        elif name in ("D", "E", "F", "G") and num:
            pending["DEFG".index(name)] = False
        elif name == "N":
            pending[int(_attr(whole, "who"))] = int(_attr(whole, "m")) & 0x0C == 0
        elif name == "DORA":
            assert int(_attr(whole, "hai")) == hw.dora_indicators[dora_next]
            dora_next += 1
        elif name == "AGARI":
            dora = _ints(_attr(whole, "doraHai"))
            ura = _ints(_attr(whole, "doraHaiUra"))
            assert dora == hw.dora_indicators[: len(dora)]
            assert ura == hw.ura_indicators[: len(ura)]
    return hands


def _players(text: str) -> int:
    return 3 if int(_attr(re.search(r"<GO [^>]*>", text)[0], "type")) & 0x10 else 4


def _find_game(predicate) -> tuple[Path, str]:
    for path in _corpus_games():
        text = _read(path)
        if predicate(path, text):
            return path, text
    pytest.skip("no such game in the corpus")


def _shuffle_seed(text: str) -> str | None:
    m = re.search(r"<SHUFFLE [^>]*>", text)
    return _attr(m[0], "seed") if m else None


@needs_corpus
def test_worked_check_wall_md_7_3():
    _path, text = _find_game(lambda p, t: p.name.startswith(WORKED_GAME))
    seed = _shuffle_seed(text)
    assert seed.startswith("mt19937ar-sha512-n288-base64,0dmsw60vzo0xqN2T64k2PNo9Xu7Y1a8")
    assert len(seed) == 3357
    raw = base64.b64decode(seed.split(",", 1)[1])
    rng = mt19937(struct.unpack("<624I", raw))
    rnd = sha512_words(rng)
    assert rnd[:3] == (3280695525, 1866594739, 2734566913)
    assert (rnd[135], rnd[136]) == (929159307, 907116897)
    w = shuffle_order(rnd, 136)
    assert w[:14] == [29, 95, 105, 58, 70, 20, 59, 26, 61, 56, 52, 84, 71, 101]
    assert w[135:131:-1] == [34, 11, 120, 19]
    assert (w[83], w[82]) == (77, 86)

    gen = walls(seed, 4)
    h1 = gen.next_hand(0)
    assert h1.dice == (4, 4)
    assert h1.dora_indicators[0] == 20
    assert h1.rinshan == (95, 29, 58, 105)
    assert h1.deal[0][:4] == (34, 11, 120, 19)
    assert h1.live[:2] == (77, 86)
    h2 = gen.next_hand(1)
    assert h2.dice == (6, 1)
    assert h2.dora_indicators[0] == 24
    assert h2.deal[1][:4] == (67, 79, 93, 105)

    # And the whole game, every hand, against the log.
    gen = walls(seed, 4)
    assert _check_game(text, 4, lambda n, tag, dealer: gen.next_hand(dealer)) == gen.hands > 2


@needs_corpus
def test_three_player_base64_game():
    _path, text = _find_game(
        lambda p, t: _players(t) == 3
        and (_shuffle_seed(t) or "").startswith(FORMAT_BASE64 + ",")
        and "<DORA" in t
    )
    gen = walls(_shuffle_seed(text), 3)
    hands = _check_game(text, 3, lambda n, tag, dealer: gen.next_hand(dealer))
    assert hands == gen.hands > 0


@needs_corpus
def test_hex_seed_game():
    _path, text = _find_game(lambda p, t: (_shuffle_seed(t) or "").startswith(FORMAT_HEX + ","))
    gen = walls(_shuffle_seed(text), _players(text))
    hands = _check_game(text, _players(text), lambda n, tag, dealer: gen.next_hand(dealer))
    assert hands == gen.hands > 0


def _init_shuffle_game(players: int, words: int):
    pattern = re.compile(rf'shuffle="mt19937ar(,[0-9A-Fa-f]{{8}}){{{words}}}"')
    return _find_game(
        lambda p, t: _shuffle_seed(t) is None and _players(t) == players and pattern.search(t)
    )


@needs_corpus
@pytest.mark.parametrize("players", [4, 3])
def test_init_shuffle_game(players):
    _path, text = _init_shuffle_game(players, 8)
    hands = _check_game(
        text,
        players,
        lambda n, tag, dealer: hand_wall_from_init_shuffle(_attr(tag, "shuffle"), players, dealer),
    )
    assert hands > 0


@needs_corpus
def test_init_shuffle_32_words():
    _path, text = _init_shuffle_game(4, 32)
    hands = _check_game(
        text, 4, lambda n, tag, dealer: hand_wall_from_init_shuffle(_attr(tag, "shuffle"), 4, dealer)
    )
    assert hands > 0
