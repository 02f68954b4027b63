"""Regenerate Tenhou's walls from the shuffle seed (docs: ``WALL.md``).

Tenhou shuffles every hand's wall with MT19937 (``mt19937ar.c``), seeded once per game from the
``SHUFFLE seed`` (or, in the oldest logs, once per hand from ``INIT shuffle``). Three seed formats
exist:

``mt19937ar-sha512-n288-base64,<2496 bytes in base64>`` (2010-08 onwards)
    ``init_by_array`` with the 624 little-endian words; per hand 288 outputs are hashed in nine
    blocks of 32 words with SHA-512 into 144 random words; new dead-wall layout.
``mt19937ar-sha512-n288,<32 hex words>`` (2009-08 .. 2010-01)
    ``init_by_array`` with the 32 words, then the same per-hand steps; old dead-wall layout.
``mt19937ar,<8 hex words>`` (``INIT shuffle``, up to 2009-07)
    a fresh ``init_by_array`` per hand; the raw outputs are the random words (no SHA-512);
    old dead-wall layout.

Each hand: ``w = [0 .. N-1]`` (N = 136, or 108 in three-player), for ``i`` in ``0 .. N-2`` swap
``w[i]`` with ``w[i + rnd[i] % (N - i)]``; two more random words give the dice. Tiles are taken
from the end of ``w``: the deal, then the live wall; ``w[0..13]`` is the dead wall. In
three-player the values ``0..107`` are mapped to the real tile ids (1m, 9m, then 1p..chun).

Everything here is pure: ``HandWall`` values are frozen, and a ``WallGenerator`` only carries
the MT19937 state between hands of one game.

The generator is MT19937 with ``init_by_array`` and SHA-512; its state and words, the nine
digests of a hand and the shuffle of a hand's array are kernels of ``tenhou_tools._native`` (C
when the extension is built: through ``random.Random`` each hand's 288 words pass through a
9216-bit Python int, which costs five times the generator, and ``hashlib`` looks SHA-512 up by
name at every digest; the references there run ``random.Random`` and ``hashlib.sha512``, and the
shuffle's loop there is ``shuffle_order``'s own). This module
is compiled in a compiled install (the replay asks for every hand's wall); its values
(``HandWall``, ``WallSeedError``) are defined in ``rules.values``.
"""

from __future__ import annotations

import base64
import binascii
import random
import re
import struct
from collections.abc import Sequence
from typing import Final

# build: a frozen value made by setting its slots (the _native kernel), not through the dataclass's
# __init__: every hand's HandWall, about 0.12 M of a game's 6.5 M instructions in check_log
# (scripts/bench_callgrind.py, 100 corpus games, 2026-11-29).
from .._native import build, init_by_array, mt_seeded, mt_words, sha512_blocks, shuffle, shuffled
from .values import HandWall, WallSeedError

__all__ = [
    "FORMAT_BASE64",
    "FORMAT_HEX",
    "FORMAT_LEGACY",
    "HandWall",
    "WallGenerator",
    "WallSeedError",
    "hand_wall_from_init_shuffle",
    "init_by_array",
    "mt19937",
    "seed_format",
    "sha512_words",
    "shuffle_order",
    "walls",
]

FORMAT_BASE64 = "mt19937ar-sha512-n288-base64"
"""``SHUFFLE seed`` since 2010-08: 2496 bytes of key, SHA-512 post-processing, new layout."""
FORMAT_HEX = "mt19937ar-sha512-n288"
"""``SHUFFLE seed`` of 2009-08 .. 2010-01: 32 hex key words, SHA-512, old layout."""
FORMAT_LEGACY = "mt19937ar"
"""``INIT shuffle`` up to 2009-07: hex key words per hand, raw MT output, old layout."""

_KEY_BYTES: Final = 2496  # 624 words
_WORDS_PER_HAND: Final = 288
_HEX_WORD = re.compile(r"[0-9A-Fa-f]{1,8}\Z")

_N: Final = 624
_MASK: Final = 0xFFFFFFFF
_KERNEL_KEY_WORDS: Final = 4096
"""The most key words ``mt_seeded`` takes (a 2009 ``INIT shuffle`` has 8, one corpus log 32; a longer
key seeds ``random.Random``, which takes any). Through the kernels a 2009 hand's wall costs about
33,000 fewer instructions than through ``random.Random`` (126,000), whose seed and words pass
through Python ints (bench_callgrind, 100 games: 0.053 M fewer a game in check_log)."""


# --------------------------------------------------------------------------------------------
# MT19937 (mt19937ar.c)


def mt19937(key: Sequence[int]) -> random.Random:
    """A ``random.Random`` in the state of ``mt19937ar.c`` after ``init_by_array(key)``.

    Its ``getrandbits(32)`` is ``genrand_int32()``, and ``getrandbits(32 * n)`` packs the next
    ``n`` outputs little-endian (first output in the lowest bits).

    CPython seeds an ``int`` with ``init_by_array`` over its 32-bit words, least significant
    first, but drops leading zero words of the number: a key whose last word is zero would be
    shortened. Such keys (and only those) go through the pure-Python ``init_by_array``.
    """
    if not key:
        raise ValueError("init_by_array needs at least one key word")
    if any(not 0 <= k <= _MASK for k in key):
        raise ValueError("key words must be 32-bit unsigned integers")
    if key[-1] != 0 or len(key) == 1:
        return random.Random(int.from_bytes(struct.pack(f"<{len(key)}I", *key), "little"))
    return _from_state(init_by_array(key))


def _from_state(state: tuple[int, ...]) -> random.Random:
    rng = random.Random()
    rng.setstate((3, state + (_N,), None))
    return rng


# --------------------------------------------------------------------------------------------
# One hand's random words, shuffle and layout

_RND_UNPACK = struct.Struct("<144I").unpack
_RAW_BITS: Final = _WORDS_PER_HAND * 32
_RAW_BYTES: Final = _WORDS_PER_HAND * 4


def sha512_words(rng: random.Random) -> tuple[int, ...]:
    """Draw 288 words from ``rng`` and hash them into the hand's 144 random words.

    Block ``i`` of 32 words (128 bytes, little-endian) gives the 16 little-endian words of its
    SHA-512 digest as ``rnd[16i .. 16i+15]``.
    """
    return _RND_UNPACK(sha512_blocks(rng.getrandbits(_RAW_BITS).to_bytes(_RAW_BYTES, "little")))


def shuffle_order(rnd: Sequence[int], n: int) -> list[int]:
    """``w = [0 .. n-1]`` shuffled with ``rnd[0 .. n-2]`` (swap ``w[i]``, ``w[i + rnd[i] % (n-i)]``):
    the loop of the ``shuffle`` kernel's reference (``_native.wall.shuffled``)."""
    return shuffled(tuple(rnd), tuple(range(n)))


_TILES_4P: Final = tuple(range(136))
_TILES_3P: Final = tuple(v if v < 4 else v + 28 for v in range(108))
"""Three-player: array values 0-3 are 1m (ids 0-3), 4-7 are 9m (32-35), 8-107 are ids 36-135."""


def _start(players: int) -> tuple[int, ...]:
    # Shuffling the real ids directly is the same as shuffling 0..N-1 and mapping afterwards.
    return _TILES_4P if players == 4 else _TILES_3P


def _hand_wall(rnd: bytes, players: int, dealer: int, old: bool, dice_at: int) -> HandWall:
    w, die1, die2 = shuffle(rnd, _start(players), dice_at)
    return _laid_out(w, die1, die2, players, dealer, old)


def _laid_out(w: list[int], die1: int, die2: int, players: int, dealer: int, old: bool) -> HandWall:
    """The hand's wall from the shuffled array and the two dice words. Each piece is a slice of
    the array (a compiled slice copies a run of items at once; picking items one by one through
    boxed ints cost about 150 instructions each)."""
    n = len(w)
    # Deal: three rounds of four tiles, then one tile each, from the end of the array.
    dealt = w[n - 1:n - 1 - 13 * players:-1]
    hands: list[tuple[int, ...]] = []
    for seat in range(4):
        if seat >= players:
            hands.append(())  # the empty fourth seat of a three-player game
            continue
        k = (seat - dealer) % players
        a, b, c, d = 4 * k, 4 * (players + k), 4 * (2 * players + k), 12 * players + k
        hands.append(tuple(dealt[a:a + 4] + dealt[b:b + 4] + dealt[c:c + 4] + dealt[d:d + 1]))
    live = tuple(w[n - 1 - 13 * players:13:-1])
    kans = 4 if players == 4 else 8
    base = 0 if players == 4 else 4  # three-player: the dead-wall indicators start 4 higher
    if old:
        rinshan = tuple(w[:kans])
        dora, ura = tuple(w[base + 4:base + 14:2]), tuple(w[base + 5:base + 15:2])
    else:
        swapped = [0] * kans
        for i in range(kans):
            swapped[i] = w[i ^ 1]
        rinshan = tuple(swapped)
        dora, ura = tuple(w[base + 5:base + 15:2]), tuple(w[base + 4:base + 14:2])
    return build(HandWall, dice=(die1 % 6 + 1, die2 % 6 + 1), deal=(hands[0], hands[1], hands[2], hands[3]),
                 live=live, rinshan=rinshan, dora_indicators=dora, ura_indicators=ura)


def _check_table(players: int, dealer: int) -> None:
    if players not in (3, 4):
        raise ValueError(f"players must be 3 or 4, not {players!r}")
    if not (isinstance(dealer, int) and 0 <= dealer < players):
        raise ValueError(f"dealer must be a seat 0..{players - 1}, not {dealer!r}")


# --------------------------------------------------------------------------------------------
# Seeds


def seed_format(seed: str) -> str:
    """The seed's method name (``FORMAT_BASE64``, ``FORMAT_HEX`` or ``FORMAT_LEGACY``).

    Only looks at the part before the first comma; raises ``WallSeedError`` for anything else.
    """
    if not isinstance(seed, str):
        raise WallSeedError(f"wall seed must be a string, not {type(seed).__name__}")
    method = seed.split(",", 1)[0].strip()
    if method in (FORMAT_BASE64, FORMAT_HEX, FORMAT_LEGACY):
        return method
    shown = method if len(method) <= 40 else method[:40] + "..."
    raise WallSeedError(f"unknown wall seed format {shown!r}")


def _hex_words(body: str, what: str, count: int | None) -> list[int]:
    parts = [p.strip() for p in body.split(",")]
    if any(not _HEX_WORD.match(p) for p in parts):
        raise WallSeedError(f"{what}: key words must be 1-8 hex digits")
    if count is not None and len(parts) != count:
        raise WallSeedError(f"{what}: expected {count} key words, found {len(parts)}")
    return [int(p, 16) for p in parts]


def _split(seed: str) -> tuple[str, str]:
    method = seed_format(seed)
    if "," not in seed:
        raise WallSeedError(f"{method}: the seed has no key")
    return method, seed.split(",", 1)[1].strip()


class WallGenerator:
    """The walls of one game, hand after hand, from its ``SHUFFLE seed``.

    Call ``next_hand(dealer)`` once per ``INIT`` in log order (abortive draws included: every
    hand consumes its 288 words whether or not the wall is used up). ``format`` is the seed's
    method name, ``hands`` the number of hands generated so far. Raises ``WallSeedError`` for
    an unknown or damaged seed, ``ValueError`` for a player count other than 3 or 4.
    """

    def __init__(self, seed: str, players: int) -> None:
        _check_table(players, 0)
        method, body = _split(seed)
        if method == FORMAT_BASE64:
            try:
                key = base64.b64decode(body, validate=True)
            except (binascii.Error, ValueError) as exc:
                raise WallSeedError(f"{method}: the key is not valid base64 ({exc})") from None
            if len(key) != _KEY_BYTES:
                raise WallSeedError(
                    f"{method}: the key decodes to {len(key)} bytes, expected {_KEY_BYTES}"
                )
            self._old = False
        elif method == FORMAT_HEX:
            key = struct.pack("<32I", *_hex_words(body, method, 32))
            self._old = True
        else:
            raise WallSeedError(
                f"{method}: a per-hand INIT shuffle seed, use hand_wall_from_init_shuffle"
            )
        self._state = mt_seeded(key)
        """MT19937 after ``init_by_array`` over the key's words; each hand draws 288 words."""
        self.format = method
        self.players = players
        self.hands = 0

    def next_hand(self, dealer: int) -> HandWall:
        """The next hand's wall, dealt starting with seat ``dealer``."""
        players = self.players
        if not (type(dealer) is int and 0 <= dealer < players):
            _check_table(players, dealer)
        self.hands += 1
        rnd = sha512_blocks(mt_words(self._state, _WORDS_PER_HAND))
        w, die1, die2 = shuffle(rnd, _TILES_4P if players == 4 else _TILES_3P, 135)
        return _laid_out(w, die1, die2, players, dealer, self._old)


def walls(seed: str, players: int) -> WallGenerator:
    """A ``WallGenerator`` for a game's ``SHUFFLE seed`` (``WallSeedError`` if it is unusable)."""
    return WallGenerator(seed, players)


def hand_wall_from_init_shuffle(shuffle: str, players: int, dealer: int) -> HandWall:
    """One hand's wall from an early-2009 ``INIT shuffle="mt19937ar,<hex words>"`` attribute.

    The generator is seeded per hand with the listed words; its raw outputs shuffle the wall
    (``rnd[0 .. N-2]``) and roll the dice (``rnd[N-1]``, ``rnd[N]``). Old dead-wall layout.
    Normally 8 words; any number is accepted (one 2009 log in the corpus has 32 and checks out
    the same way).
    """
    _check_table(players, dealer)
    method, body = _split(shuffle)
    if method != FORMAT_LEGACY:
        raise WallSeedError(f"{method}: not an INIT shuffle seed (use WallGenerator)")
    words = _hex_words(body, method, None)
    n = 136 if players == 4 else 108
    if len(words) <= _KERNEL_KEY_WORDS:  # any real seed: the generator's kernels, as a game's seed
        rnd = mt_words(mt_seeded(struct.pack(f"<{len(words)}I", *words)), n + 1)
    else:
        rnd = mt19937(words).getrandbits(32 * (n + 1)).to_bytes(4 * (n + 1), "little")
    return _hand_wall(rnd, players, dealer, True, n - 1)
