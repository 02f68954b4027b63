"""The references of the wall's kernels: the MT19937 generator (``mt_seeded``, ``mt_words``), the
SHA-512 digests of a hand's blocks (``sha512_blocks``, ``hashlib``) and one hand's shuffle
(``shuffle``, whose loop is ``shuffled``: ``rules.wall.shuffle_order`` runs it too);
``rules/wall.py`` says what the wall is made of.

The generator's state is what the C kernels keep: a ``bytearray`` of 2,500 bytes, the 624 words
of MT19937 and its index, in the machine's byte order. The references hand it to the standard
library's ``random.Random`` (CPython's MT19937 is ``mt19937ar.c``) and take it back.
"""

from __future__ import annotations

import hashlib
import random
import struct
from collections.abc import Sequence

_N = 624
_MASK = 0xFFFFFFFF
_STATE = struct.Struct(f"={_N + 1}I")
"""The generator's state: 624 words and the index of the next one."""


def init_by_array(key: Sequence[int]) -> tuple[int, ...]:
    """The 624-word MT19937 state after ``init_by_array(key, len(key))`` of ``mt19937ar.c``,
    in pure Python (about 1 ms)."""
    if not key:
        raise ValueError("init_by_array needs at least one key word")
    mt = [0] * _N
    mt[0] = 19650218
    for i in range(1, _N):
        prev = mt[i - 1]
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & _MASK
    length = len(key)
    i, j = 1, 0
    for _ in range(max(_N, length)):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + (key[j] & _MASK) + j) & _MASK
        i += 1
        j += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(_N - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & _MASK
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    mt[0] = 0x80000000
    return tuple(mt)


def mt_seeded(key: bytes) -> bytearray:
    """The generator's state after ``init_by_array`` over ``key``'s little-endian 32-bit words
    (1 to 4,096 of them). CPython seeds an ``int`` the same way but drops its leading zero words,
    so a key whose last word is zero goes through ``init_by_array`` here."""
    key = memoryview(key).tobytes()
    if not key or len(key) % 4 or len(key) > 4 * 4096:
        raise ValueError("mt_seeded(): the key must be 1 to 4096 32-bit words")
    if key[-4:] != b"\0\0\0\0":
        words = random.Random(int.from_bytes(key, "little")).getstate()[1]
    else:
        words = (*init_by_array(struct.unpack(f"<{len(key) // 4}I", key)), _N)
    return bytearray(_STATE.pack(*words))


def mt_words(state: bytearray, n: int) -> bytes:
    """The next ``n`` outputs of the generator in ``state`` (any writable buffer of its 2,500
    bytes) as little-endian 32-bit words (as ``random.Random.getrandbits(32 * n).to_bytes(4 * n,
    "little")`` gives them); ``state`` advances in place."""
    view = memoryview(state).cast("B")
    if view.readonly or view.nbytes != _STATE.size:
        raise TypeError("mt_words(): the state must be the 2500 writable bytes of mt_seeded()")
    if not 0 <= n <= 65536:
        raise ValueError("mt_words(): the number of words must be 0..65536")
    words = _STATE.unpack(view)
    if words[_N] > _N:
        raise ValueError("mt_words(): the state's index is beyond 624")
    rng = random.Random()
    rng.setstate((3, words, None))
    raw = rng.getrandbits(32 * n).to_bytes(4 * n, "little") if n else b""
    view[:] = _STATE.pack(*rng.getstate()[1])
    return raw


def shuffled(rnd: Sequence[int], start: Sequence[int]) -> list[int]:
    """``start`` shuffled with the words ``rnd``: for each ``i`` below ``N - 1`` (``N`` items), swap
    ``w[i]`` and ``w[i + rnd[i] % (N - i)]`` (Tenhou's shuffle of a hand's wall)."""
    w = list(start)
    n = len(w)
    for i in range(n - 1):
        j = i + rnd[i] % (n - i)
        w[i], w[j] = w[j], w[i]
    return w


SHA512_BLOCK = 128
"""The bytes of each block ``sha512_blocks`` hashes (32 of the generator's words)."""


def sha512_blocks(data: bytes) -> bytes:
    """The 64-byte SHA-512 digest of each 128-byte block of ``data`` (0 to 4,096 blocks), one
    after another: a hand's nine blocks of 32 words give its 144 random words."""
    if len(data) % SHA512_BLOCK or len(data) > SHA512_BLOCK * 4096:
        raise ValueError("sha512_blocks(): the bytes must be 0 to 4096 blocks of 128")
    sha = hashlib.sha512
    return b"".join([sha(data[p : p + SHA512_BLOCK]).digest() for p in range(0, len(data), SHA512_BLOCK)])


def shuffle(rnd: bytes, start: tuple[int, ...], dice_at: int) -> tuple[list[int], int, int]:
    """One hand's shuffle from its random words (``rnd``: little-endian 32-bit words): ``start``
    ``shuffled`` with ``rnd[0 .. N-2]``, and the two dice words ``rnd[dice_at]``,
    ``rnd[dice_at + 1]``."""
    words = struct.unpack(f"<{len(rnd) // 4}I", rnd)
    if not (len(start) <= len(words) + 1 and dice_at >= 0 and dice_at + 1 < len(words)):
        raise ValueError("shuffle: too few random words for the array and the dice")
    return shuffled(words, start), words[dice_at], words[dice_at + 1]
