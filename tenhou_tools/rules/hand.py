"""Hand shape: complete hands (agari-kei), waits and tenpai, on 34-kind count arrays.

A hand of ``3n + 2`` tiles is complete when it splits into ``n`` sets (runs or triplets) and a
pair, or is seven distinct pairs (chiitoitsu, closed 14-tile hands only), or is kokushi musou
(closed only). Per-suit decompositions are memoised, so a waits check is a handful of lookups.
Compiled in a compiled install (the replay counts tiles and asks for waits on every discard).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from .._native import tenpai_discards as native_tenpai_discards
from .._native import tenpai_draws as native_tenpai_draws
from .._native import waits as native_waits
from ..events import CallKind, Meld
from ..tiles import ORPHAN_KINDS

_KOKUSHI = ORPHAN_KINDS
_KOKUSHI_SET = frozenset(_KOKUSHI)


def meld_count(melds: Iterable[Meld]) -> int:
    """The melds that take a set out of the concealed hand: chi, pon, kans (not kita)."""
    return sum(1 for m in melds if m.kind is not CallKind.KITA)


def counts34(tiles: Iterable[int]) -> list[int]:
    """Counts per kind (0-33) of tile ids."""
    counts = [0] * 34
    for t in tiles:
        k = t >> 2
        counts[k] = counts[k] + 1  # compiled, an int add: ``+=`` on an item is a generic call (a third of this)
    return counts


@cache
def _suit_sets(counts: tuple[int, ...]) -> bool:
    """Whether one suit's counts split into runs and triplets only."""
    i = 0
    while i < 9 and counts[i] == 0:
        i += 1
    if i == 9:
        return True
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        if _suit_sets(tuple(c)):
            return True
        c[i] += 3
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        return _suit_sets(tuple(c))
    return False


@cache
def _suit_sets_pair(counts: tuple[int, ...]) -> bool:
    """Whether one suit's counts split into sets and exactly one pair."""
    for i in range(9):
        if counts[i] >= 2:
            c = list(counts)
            c[i] -= 2
            if _suit_sets(tuple(c)):
                return True
    return False


def is_standard_complete(counts: list[int]) -> bool:
    """Sets and one pair (any number of sets: melds are outside ``counts``)."""
    pair_groups = 0
    for base in (0, 9, 18):
        part = tuple(counts[base : base + 9])
        total = sum(part)
        rem = total % 3
        if rem == 1:
            return False
        if rem == 2:
            pair_groups += 1
            if pair_groups > 1 or not _suit_sets_pair(part):
                return False
        elif total and not _suit_sets(part):
            return False
    for k in range(27, 34):
        n = counts[k]
        if n == 2:
            pair_groups += 1
            if pair_groups > 1:
                return False
        elif n not in (0, 3):
            return False
    return pair_groups == 1


def is_chiitoitsu(counts: list[int]) -> bool:
    return sum(counts) == 14 and sum(1 for n in counts if n == 2) == 7


def is_kokushi(counts: list[int]) -> bool:
    if sum(counts) != 14:
        return False
    if any(counts[k] == 0 for k in _KOKUSHI):
        return False
    return sum(counts[k] for k in _KOKUSHI) == 14


def is_complete(counts: list[int]) -> bool:
    """A complete hand shape (agari-kei) of the concealed part ``counts`` (``3n + 2`` tiles)."""
    if sum(counts) % 3 != 2:
        return False
    if is_standard_complete(counts):
        return True
    return is_chiitoitsu(counts) or is_kokushi(counts)


@cache
def _group_status(part: tuple[int, ...]) -> tuple[bool, bool]:
    """(splits into sets only, splits into sets and one pair) for one suit (9 counts) or the
    honours (7 counts: triplets and at most one pair)."""
    if len(part) == 7:
        pairs = sum(1 for n in part if n == 2)
        plain = all(n in (0, 2, 3) for n in part)
        return plain and pairs == 0, plain and pairs == 1
    rem = sum(part) % 3
    return (rem == 0 and _suit_sets(part), rem == 2 and _suit_sets_pair(part))


@cache
def _group_completions(part: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Offsets in the group whose tile makes it (sets only, sets and one pair)."""
    sets_only, with_pair = [], []
    counts = list(part)
    for i, n in enumerate(part):
        if n >= 4:
            continue
        counts[i] += 1
        plain, paired = _group_status(tuple(counts))
        counts[i] -= 1
        if plain:
            sets_only.append(i)
        elif paired:
            with_pair.append(i)
    return tuple(sets_only), tuple(with_pair)


_GROUPS = ((0, 9), (9, 18), (18, 27), (27, 34))


def waits(counts: list[int]) -> frozenset[int]:
    """Kinds that complete a ``3n + 1`` concealed part, by shape (yaku and furiten ignored);
    ``waits_python`` says how. The replay asks on every discard: a C kernel answers for the
    counts of a real hand (0-4 each) when the extension is built (``tenhou_tools._native``)."""
    found = native_waits(counts)
    return found if found is not None else waits_python(counts)


def tenpai_discards(counts: list[int], kept: int = -1) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For a ``3n + 2`` concealed part: each kind whose discard leaves it tenpai, ascending, with
    the waits then (``waits``, ascending); ``kept`` (a kind) is not discarded (the tile just
    drawn). The hand value's look-ahead asks after every draw that reaches tenpai: a C kernel
    answers for a real hand when the extension is built (measured: the look-ahead took 0.74 G
    instructions of 8.1 G for 4 games' analysis with ``waits`` asked per discard, compiled)."""
    found = native_tenpai_discards(counts, kept)
    return found if found is not None else tenpai_discards_python(counts, kept)


def tenpai_discards_python(counts: list[int], kept: int = -1) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """``tenpai_discards`` by its definition: the waits after each discard (``waits_python``, so
    that the reference asks no kernel)."""
    rest = list(counts)
    options = []
    for d in range(34):
        if rest[d] and d != kept:
            rest[d] -= 1
            found = waits_python(rest)
            rest[d] += 1
            if found:
                options.append((d, tuple(sorted(found))))
    return tuple(options)


def tenpai_draws(counts: list[int], draws: Sequence[int]) -> list[tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]]:
    """For a ``3n + 1`` concealed part: each kind of ``draws``, in their order, with the
    ``tenpai_discards`` of the hand having drawn it (the drawn tile kept). The hand value's
    one-shanten look-ahead asks with the kinds that reach tenpai: one C kernel call reads the hand
    once for all of them."""
    found = native_tenpai_draws(counts, draws)
    return found if found is not None else tenpai_draws_python(counts, draws)


def tenpai_draws_python(counts: list[int], draws: Sequence[int]
                        ) -> list[tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]]:
    """``tenpai_draws`` by its definition (``tenpai_discards_python`` after each draw)."""
    found = []
    for k in draws:
        drawn = list(counts)
        drawn[k] += 1
        found.append((k, tenpai_discards_python(drawn, k)))
    return found


def waits_python(counts: list[int]) -> frozenset[int]:
    """Kinds that complete a ``3n + 1`` concealed part, by shape (yaku and furiten ignored).

    A kind of which the hand already holds all four copies is not a wait: Tenhou does not count
    a wait on a fifth copy (the tile cannot exist). Copies in the player's own melds do not
    count against it.

    Adding a tile changes one suit only: each suit pattern's status and completing tiles are
    computed once and cached, so a call is a few table lookups.
    """
    parts = [tuple(counts[lo:hi]) for lo, hi in _GROUPS]
    status = [_group_status(part) for part in parts]
    result: list[int] = []
    for g, (lo, _) in enumerate(_GROUPS):
        other_pairs = 0
        for h in range(4):
            if h != g:
                plain, paired = status[h]
                if paired:
                    other_pairs += 1
                elif not plain:
                    other_pairs = 9
                    break
        if other_pairs > 1:
            continue
        sets_only, with_pair = _group_completions(parts[g])
        result.extend(lo + i for i in (with_pair if other_pairs == 0 else sets_only))
    if sum(counts) == 13:
        result.extend(_seven_pairs_and_orphans_waits(counts))
    return frozenset(result)


def _seven_pairs_and_orphans_waits(counts: list[int]) -> list[int]:
    """Waits of a closed 13-tile hand as chiitoitsu (six distinct pairs and a single: the
    single) or kokushi (thirteen orphans: the missing one, or all thirteen)."""
    singles = [k for k in range(34) if counts[k] == 1]
    pairs = sum(1 for n in counts if n == 2)
    found = []
    if pairs == 6 and len(singles) == 1:
        found.append(singles[0])
    if all(counts[k] == 0 for k in range(34) if k not in _KOKUSHI_SET):
        held = [k for k in _KOKUSHI if counts[k]]
        if len(held) == 13:
            found.extend(_KOKUSHI)
        elif len(held) == 12 and max(counts[k] for k in _KOKUSHI) == 2:
            found.extend(k for k in _KOKUSHI if counts[k] == 0)
    return found


def is_tenpai(counts: list[int]) -> bool:
    """Keishiki tenpai: one tile from a complete shape (yakuless and furiten hands count)."""
    return bool(waits(counts))
