"""Shanten (向聴数) and tile acceptance (ukeire, 受け入れ) on 34-kind count arrays.

The shanten of a concealed hand is how many useful draws it is away from tenpai: -1 complete,
0 tenpai, 1 one draw from tenpai, and so on. It is the minimum over three forms:

- the regular form: ``4 - melds`` sets and a pair from the concealed tiles (open melds, closed
  kans and kita are outside the counts and only lower the number of sets needed);
- seven pairs (chiitoitsu, 七対子): seven distinct kinds, two each; closed 13/14-tile hands only;
- thirteen orphans (kokushi musou, 国士無双): closed 13/14-tile hands only.

Every value is exact under Tenhou's rule on the "fifth tile" (形式聴牌, keishiki tenpai): a hand
waits on a kind unless it holds all four copies in its concealed part, so the regular form never
counts on a fifth copy of a kind the concealed hand holds four times (``1111m`` cannot wait on
``1m``). Copies in melds, ponds or dora indicators do not change shanten or waits; they only
change how many accepted tiles are left (see ``acceptance``). With that rule, a 3n+1 hand is
tenpai exactly when ``rules.hand.waits`` finds a wait, and its waits are its accepted kinds.

The method, by name: **distance to the nearest complete hand, by min-plus convolution of
per-suit cost vectors read from a precomputed suit table** (the table-driven technique of fast
shanten calculators, rather than a search over block decompositions). How it is computed: the
regular form is the fewest tiles to add (each swapped in for a tile of the
hand) so that the hand holds the sets and the pair, with no kind above four copies. That number
is one plus the shanten. A group's cheapest additions for every count of sets (0-4) and pair
(0/1) form a vector of ten numbers: for a suit, from a dynamic programme over its nine counts
(``suit_vector``: memoised, and cut into independent pieces where two empty kinds separate its
tiles), which ``scripts/make_suit_table.py`` runs once for all 405,350 suit patterns into the
table ``_suit_table`` that the hot paths read; for the honours (and, in three-player games, 1m
and 9m, which form no runs) from their counts. Sets and
pairs made only of added tiles are priced once for the whole hand. A hand combines four vectors
(about 230 distinct ones exist, so combinations are memoised by id). Adding a tile changes one
group only, so acceptance and the discard options reuse the other groups' combination.

The regular form's cost and accepted kinds for one hand (``_regular_gains``), and the whole
acceptance after each discard (``_discard_acceptances``: the regular form, the closed forms and
the unseen copies), are the analysis's innermost loop: a C kernel of ``tenhou_tools._native``
runs the same steps on plain integer arrays when the extension is built, reading the same table,
and the Python functions here (``_regular_gains_python``, ``_discard_acceptances_python``) are
the reference that ``tests/test_speedups.py`` holds it to.
"""

from __future__ import annotations

import base64
import zlib
from collections.abc import Sequence
from typing import Final

# build: a frozen value made by setting its slots (the _native kernel), not through the dataclass's
# __init__: every acceptance and discard option of the analysis, 45 M of an analysed game's 1.8 G
# instructions (2.5 %; callgrind, analyze_game over 4 corpus games, 2026-11-29).
from .._native import build
from .._native import discard_acceptances as native_discard_acceptances
from .._native import regular_gains as native_regular_gains
from ..tiles import ORPHAN_KINDS, SANMA_MISSING_KINDS
from . import _suit_table
from .values import Acceptance, DiscardOption, ShantenForms

__all__ = [
    "Acceptance", "DiscardOption", "ShantenForms", "acceptance", "best_discards", "discard_options",
    "shanten", "shanten_before", "shanten_forms",
]

_KOKUSHI: Final = ORPHAN_KINDS
_KOKUSHI_SET: Final = frozenset(_KOKUSHI)
_SANMA_MISSING: Final = tuple(sorted(SANMA_MISSING_KINDS))

# A group's vector: the fewest tiles to add for each (sets, pair), index ``sets * 2 + pair``,
# sets 0-4, pair 0/1. _INF marks an impossible entry.
_INF: Final = 99
_SLOTS: Final = 10
_NOTHING: Final = (0,) + (_INF,) * (_SLOTS - 1)
"""The vector of nothing: zero sets and no pair cost nothing; everything else is impossible."""


# -- group vectors ----------------------------------------------------------------------------

_VECTORS: Final[list[tuple[int, ...]]] = []
_VECTOR_IDS: Final[dict[tuple[int, ...], int]] = {}


def _intern(vector: tuple[int, ...]) -> int:
    """A small id for a vector: few distinct vectors exist, so combinations memoise on ids."""
    found = _VECTOR_IDS.get(vector)
    if found is None:
        found = _VECTOR_IDS[vector] = len(_VECTORS)
        _VECTORS.append(vector)
    return found


# Blocks made of added tiles only ("fresh" sets and pairs) are left out of the group vectors and
# priced once for the whole hand (_FRESH: 3 a set, 2 the pair): a hand has at most 14 tiles
# and 4 + 1 blocks, so some kind no block touches is always free for one (34 kinds; 27 in
# three-player games). Leaving them out lets a suit's pattern drop its far zeros.


def _trim(counts: tuple[int, ...]) -> tuple[int, ...]:
    """A suit pattern without the zeros more than two positions beyond its tiles: no block that
    uses a held tile reaches them."""
    lo, hi = 0, len(counts)
    while lo < hi and counts[lo] == 0:
        lo += 1
    if lo == hi:
        return ()
    while counts[hi - 1] == 0:
        hi -= 1
    return counts[max(0, lo - 2) : hi + 2]


_SUFFIXES: Final[dict[tuple[tuple[int, ...], int, int], tuple[int, ...]]] = {}
_SUFFIX_LIMIT: Final = 1 << 16
"""Entries of ``_suffix`` kept before its table starts afresh (a bound on memory)."""


def _suffix(rest: tuple[int, ...], x: int, y: int) -> tuple[int, ...]:
    """The vector of the suit positions ``rest``, given ``x`` runs begun one position earlier
    (they need this tile and the next) and ``y`` runs begun two earlier (they need this tile).

    At most two runs begin at one position: three equal runs hold the same tiles as three
    triplets (and count the same sets)."""
    if not rest:
        return _NOTHING
    memo_key = (rest, x, y)
    found = _SUFFIXES.get(memo_key)
    if found is not None:
        return found
    held = rest[0]
    tail = rest[1:]
    carried = x + y
    best = [_INF] * _SLOTS
    # runs begin here only with two positions after this one and a held tile among the three
    most_runs = min(2, 4 - carried) if len(rest) >= 3 and (held or rest[1] or rest[2]) else 0
    for runs in range(most_runs + 1):
        sub = _suffix(tail if runs or x else _trim(tail), runs, x)
        # nothing more here, a triplet here, or the pair here (these only with a held tile)
        for sets_here, pair_here, extra in ((0, 0, 0), (1, 0, 3), (0, 1, 2)) if held else ((0, 0, 0),):
            needed = carried + runs + extra
            if needed > 4:
                continue  # a fifth copy of a kind cannot exist
            cost = needed - held if needed > held else 0
            shift = (runs + sets_here) * 2 + pair_here
            for idx in range(0, _SLOTS - shift, 1 + pair_here):
                value = sub[idx]
                if value < _INF:
                    value += cost
                    if value < best[idx + shift]:
                        best[idx + shift] = value
    answer = tuple(best)
    if len(_SUFFIXES) >= _SUFFIX_LIMIT:
        _SUFFIXES.clear()
    _SUFFIXES[memo_key] = answer
    return answer


def _islands(counts: tuple[int, ...]) -> list[tuple[int, ...]]:
    """A suit pattern cut where two or more empty positions separate its tiles, each piece with
    up to two empty positions either side (where its runs may add tiles).

    No block uses held tiles of two pieces, and an empty position never needs more than four
    copies (each tile added there belongs to a different run, and a hand has at most four sets),
    so the pieces are independent and the suit's vector is their combination."""
    pieces = []
    n = len(counts)
    i = 0
    while i < n:
        if not counts[i]:
            i += 1
            continue
        end = i
        j = i + 1
        while j < n:
            if counts[j]:
                end = j
                j += 1
            elif j + 1 < n and counts[j + 1]:
                end = j + 1
                j += 2
            else:
                break
        pieces.append(counts[max(0, i - 2) : end + 3])
        i = end + 1
    return pieces


_ISLAND_IDS: Final[dict[tuple[int, ...], int]] = {}
_LOOSE_IDS: Final[dict[tuple[int, ...], int]] = {}
_COMBINED: Final[dict[int, int]] = {}
"""Memos of the functions below, each keyed by what it is given (unbounded: they hold the few
patterns hands can have)."""


def _island_id(piece: tuple[int, ...]) -> int:
    found = _ISLAND_IDS.get(piece)
    if found is None:
        found = _ISLAND_IDS[piece] = _intern(_suffix(piece, 0, 0))
    return found


def suit_vector(counts: tuple[int, ...]) -> tuple[int, ...]:
    """The vector of one suit's nine counts by the programme above (its pieces combined): the
    definition that ``scripts/make_suit_table.py`` writes into ``_suit_table`` for every pattern."""
    found = _intern(_NOTHING)
    for piece in _islands(counts):
        found = _combine(found, _island_id(piece))
    return _VECTORS[found]


NO_PATTERN: Final = 255
"""The table's byte for an index that is no suit pattern (more than 14 tiles)."""

_SUIT_CODES: Final[list[bytes]] = []
"""The decoded table, once it is needed (``_suit_table.TABLE``): one byte per base-5 index."""
_CODE_IDS: Final[list[int]] = []
"""The vector id of each vector number of the table."""


def suit_index(counts: tuple[int, ...]) -> int:
    """A suit pattern's place in the table: its nine counts as a base-5 number, the first kind
    the lowest digit."""
    index = 0
    for i in range(8, -1, -1):
        index = index * 5 + counts[i]
    return index


def _suit_codes() -> bytes:
    """The table, decoded on first use (and the vector ids of its vector numbers)."""
    if not _SUIT_CODES:
        _SUIT_CODES.append(zlib.decompress(base64.b64decode(_suit_table.TABLE)))
        _CODE_IDS.extend(_intern(vector) for vector in _suit_table.VECTORS)
    return _SUIT_CODES[0]


def _suit_id(counts: tuple[int, ...]) -> int:
    """The vector id of one suit's nine counts, read from the table (``suit_vector`` computed
    once for every pattern by ``scripts/make_suit_table.py``)."""
    code = _suit_codes()[suit_index(counts)]
    if code == NO_PATTERN:
        raise ValueError(f"a suit holds at most 14 tiles: {list(counts)}")
    return _CODE_IDS[code]


def _loose_id(counts: tuple[int, ...]) -> int:
    """The vector id of kinds that form no runs (honours; 1m and 9m in three-player games), from
    their held counts in ascending order (the kinds are interchangeable; zeros are left out)."""
    found = _LOOSE_IDS.get(counts)
    if found is not None:
        return found
    best = _NOTHING
    for held in counts:
        if not held:
            continue
        options = ((0, 0, 0), (1, 0, max(0, 3 - held)), (0, 1, max(0, 2 - held)))
        new = [_INF] * _SLOTS
        for idx, value in enumerate(best):
            if value >= _INF:
                continue
            for sets_here, pair_here, cost in options:
                if pair_here and idx & 1:
                    continue
                j = idx + sets_here * 2 + pair_here
                if j < _SLOTS and value + cost < new[j]:
                    new[j] = value + cost
        best = tuple(new)
    found = _LOOSE_IDS[counts] = _intern(best)
    return found


def _combine(a: int, b: int) -> int:
    """The vector id of two groups together: the cheapest split of sets and pair between them."""
    memo_key = a << 16 | b
    found = _COMBINED.get(memo_key)
    if found is not None:
        return found
    va, vb = _VECTORS[a], _VECTORS[b]
    best = [_INF] * _SLOTS
    for i in range(_SLOTS):
        x = va[i]
        if x >= _INF:
            continue
        # one pair at most: with a pair in ``a``, only pair-less entries of ``b``
        step = 1 + (i & 1)
        j = 0
        while j < _SLOTS - i:
            y = vb[j]
            if y < _INF and x + y < best[i + j]:
                best[i + j] = x + y
            j += step
    found = _COMBINED[memo_key] = _intern(tuple(best))
    return found


def _slot_cost(va: tuple[int, ...], vb: tuple[int, ...], slot: int) -> int:
    """``_VECTORS[_combine(a, b)][slot]`` for the vectors ``va`` and ``vb`` of ``a`` and ``b``
    and an odd ``slot`` (a pair sought: exactly one of the two holds it), without making the
    combination: where only one entry is read, most combinations would be asked once."""
    best = _INF
    i = 0
    while i <= slot:
        x = va[i] + vb[slot - i]
        if x < best:
            best = x
        i += 1
    return best if best < _INF else _INF


_FRESH: Final = _intern(tuple(3 * (i // 2) + 2 * (i & 1) for i in range(_SLOTS)))
"""Blocks of added tiles only: 3 tiles a set, 2 the pair."""


# A hand is four groups: manzu, pinzu, souzu and honours; in three-player games the manzu group
# is 1m and 9m alone, which form no runs. A group's counts (its "key": nine counts for a suit,
# two or seven for run-less kinds) get a small id once, with their vector id beside it, so the
# hot paths hash a tuple once per group and then work on ints.

_GROUP_KINDS: Final = (
    (tuple(range(0, 9)), tuple(range(9, 18)), tuple(range(18, 27)), tuple(range(27, 34))),
    ((0, 8), tuple(range(9, 18)), tuple(range(18, 27)), tuple(range(27, 34))),
)
"""The kinds of each group, four-player and three-player."""

_KEY_IDS: Final[dict[tuple[int, ...], int]] = {}
_KEYS: Final[list[tuple[int, ...]]] = []
_KEY_VECTORS: Final[list[int]] = []


def _key_id(key: tuple[int, ...]) -> int:
    found = _KEY_IDS.get(key)
    if found is None:
        found = _KEY_IDS[key] = len(_KEYS)
        _KEYS.append(key)
        if len(key) == 9:
            vector = _suit_id(key)
        else:
            vector = _loose_id(tuple(sorted(n for n in key if n)))
            if len(key) == 7:  # the honours carry the fresh blocks
                vector = _combine(vector, _FRESH)
        _KEY_VECTORS.append(vector)
    return found


def _group_key(c: list[int], g: int, sanma: bool) -> tuple[int, ...]:
    if g == 3:
        return tuple(c[27:34])
    if g == 0 and sanma:
        return (c[0], c[8])
    return tuple(c[g * 9 : g * 9 + 9])


_GAINS: Final[dict[int, tuple[int, ...]]] = {}
_GAIN_TUPLES: Final[dict[tuple[int, ...], tuple[int, ...]]] = {}
"""One copy of each answer (there are few): the table holds references, not tuples."""
_GAINS_LIMIT: Final = 1 << 18
"""Entries kept before the table starts afresh (about 25 MB): a bound on memory in long runs. A
game adds a few thousand; the other tables are bounded by the few patterns hands can have."""


def _gains(kid: int, g: int, others: int, slot: int) -> tuple[int, ...]:
    """The kinds of group ``g`` (counts ``_KEYS[kid]``) whose draw lowers the regular cost, the
    other groups' combined vector ``others`` given; ``slot`` is the (sets, pair) entry sought."""
    memo_key = (((kid << 2 | g) << 24 | others) << 4) | slot  # vector ids stay in the hundreds
    found = _GAINS.get(memo_key)
    if found is not None:
        return found
    key = _KEYS[kid]
    kinds = _GROUP_KINDS[len(key) == 2][g]
    rest = _VECTORS[others]
    cost = _slot_cost(_VECTORS[_KEY_VECTORS[kid]], rest, slot)
    gains = []
    if len(key) == 9:  # a suit: the table at the index one tile up, no new key
        codes = _suit_codes()
        index = suit_index(key)
        step = 1
        for i in range(9):
            if key[i] < 4 and _slot_cost(_VECTORS[_CODE_IDS[codes[index + step]]], rest, slot) < cost:
                gains.append(kinds[i])
            step *= 5
    else:
        for i, n in enumerate(key):
            if n < 4:
                more = _key_id(key[:i] + (n + 1,) + key[i + 1 :])
                if _slot_cost(_VECTORS[_KEY_VECTORS[more]], rest, slot) < cost:
                    gains.append(kinds[i])
    if len(_GAINS) >= _GAINS_LIMIT:
        _GAINS.clear()
    answer = tuple(gains)
    found = _GAINS[memo_key] = _GAIN_TUPLES.setdefault(answer, answer)
    return found


# -- checks -----------------------------------------------------------------------------------


def _melds_for(counts: list[int], melds: int | None, sanma: bool) -> tuple[int, int]:
    """(tile count, melds) after checking that the counts are a hand with that many melds."""
    if len(counts) != 34:
        raise ValueError(f"a hand is 34 counts, not {len(counts)}")
    total = 0
    for n in counts:
        if n < 0 or n > 4:
            raise ValueError(f"a kind count must be 0-4: {counts}")
        total += n
    if total % 3 == 0 or total > 14:
        raise ValueError(f"a concealed hand has 3n+1 or 3n+2 tiles (at most 14), not {total}")
    implied = (14 - total) // 3
    if melds is None:
        melds = implied
    elif melds != implied:
        raise ValueError(f"{total} concealed tiles go with {implied} melds, not {melds}")
    if sanma:
        for k in _SANMA_MISSING:
            if counts[k]:
                raise ValueError("a three-player hand has no 2m-8m")
    return total, melds


def _unseen_or_default(unseen: Sequence[int] | None, counts: list[int]) -> list[int]:
    if unseen is None:
        return [4 - n for n in counts]
    found = list(unseen)
    if len(found) != 34:
        raise ValueError("unseen counts are 34 values of 0-4")
    for n in found:
        if n < 0 or n > 4:
            raise ValueError("unseen counts are 34 values of 0-4")
    return found


# -- shanten ----------------------------------------------------------------------------------


def _regular(c: list[int], melds: int, sanma: bool) -> int:
    m, p, s, z = (_KEY_VECTORS[_key_id(_group_key(c, g, sanma))] for g in range(4))
    return _VECTORS[_combine(_combine(_combine(m, p), s), z)][(4 - melds) * 2 + 1] - 1


def _seven_pairs(c: list[int]) -> int:
    pairs = kinds = 0
    for n in c:
        if n:
            kinds += 1
            if n >= 2:
                pairs += 1
    return 6 - pairs + (7 - kinds if kinds < 7 else 0)


def _thirteen_orphans(c: list[int]) -> int:
    kinds = pair = 0
    for k in _KOKUSHI:
        if c[k]:
            kinds += 1
            if c[k] >= 2:
                pair = 1
    return 13 - kinds - pair


def shanten_forms(counts: Sequence[int], melds: int | None = None, *, sanma: bool = False) -> ShantenForms:
    """The shanten of a concealed hand (``3n+1`` or ``3n+2`` tiles) in each form.

    ``counts`` are the concealed tiles per kind (``hand.counts34``); ``melds`` the number of
    melds (chi, pon, kans, not kita), which the tile count implies (``None``: take it from the
    count; a mismatch is a ``ValueError``). ``sanma``: a three-player hand (no 2m-8m).
    """
    c = list(counts)
    _total, melds = _melds_for(c, melds, sanma)
    regular = _regular(c, melds, sanma)
    if melds:
        return ShantenForms(regular, None, None)
    return ShantenForms(regular, _seven_pairs(c), _thirteen_orphans(c))


def shanten(counts: Sequence[int], melds: int | None = None, *, sanma: bool = False) -> int:
    """The shanten of a concealed hand: -1 complete, 0 tenpai (see ``shanten_forms``)."""
    c = list(counts)
    _total, melds = _melds_for(c, melds, sanma)
    value = _regular(c, melds, sanma)
    if melds == 0 and value >= 0:
        value = min(value, _seven_pairs(c), _thirteen_orphans(c))
    return value


# -- the regular form's cost and accepted kinds: the C kernel, or the Python reference ----------

_Gains = tuple[int, tuple[int, ...]]
_Option = tuple[int, int, tuple[int, ...]]

_NATIVE_TABLES: Final[list[tuple[bytes, bytes]]] = []


def _native_tables() -> tuple[bytes, bytes]:
    """The suit table and its vectors as the extension reads them: one byte per base-5 index,
    and ten bytes a vector number (decoded once)."""
    if not _NATIVE_TABLES:
        vectors = bytes(v for vector in _suit_table.VECTORS for v in vector)
        _NATIVE_TABLES.append((_suit_codes(), vectors))
    return _NATIVE_TABLES[0]


def _regular_gains(c: list[int], slot: int, sanma: bool) -> _Gains:
    """(regular cost, ascending kinds whose draw lowers it) of a ``3n+1`` hand: the cost is the
    fewest tiles to add for the sets and pair ``slot`` asks (the shanten plus one). The C kernel
    answers when it is built; ``_regular_gains_python`` is the reference."""
    table, vectors = _native_tables()
    found = native_regular_gains(c, slot, sanma, table, vectors)
    return found if found is not None else _regular_gains_python(c, slot, sanma)


def _regular_gains_python(c: list[int], slot: int, sanma: bool) -> _Gains:
    kids = [_key_id(_group_key(c, g, sanma)) for g in range(4)]
    m, p, s, z = (_KEY_VECTORS[kid] for kid in kids)
    ps, mz = _combine(p, s), _combine(m, z)
    others_m = _combine(ps, z)
    cost = _VECTORS[_combine(m, others_m)][slot]
    return cost, (
        _gains(kids[0], 0, others_m, slot)
        + _gains(kids[1], 1, _combine(mz, s), slot)
        + _gains(kids[2], 2, _combine(mz, p), slot)
        + _gains(kids[3], 3, _combine(ps, m), slot)
    )


def _regular_options_python(c: list[int], slot: int, sanma: bool) -> list[_Option]:
    """For a ``3n+2`` hand, per kind held (ascending): ``(kind, cost, kinds)``, the
    ``_regular_gains`` of the hand without one copy of that kind."""
    c = list(c)
    kids = [_key_id(_group_key(c, g, sanma)) for g in range(4)]
    vectors = [_KEY_VECTORS[kid] for kid in kids]
    rows: list[_Option] = []
    # A discard changes its own group only: the other three groups' combination is the same for
    # every discard from a group, and each other group sees the same two unchanged neighbours.
    for g, kinds in enumerate(_GROUP_KINDS[sanma]):
        rest = [h for h in range(4) if h != g]
        fixed = _combine(_combine(vectors[rest[0]], vectors[rest[1]]), vectors[rest[2]])
        fixed_vector = _VECTORS[fixed]
        pair_without = [0, 0, 0, 0]  # for each other group h, the remaining two combined
        for h in rest:
            two = [vectors[x] for x in rest if x != h]
            pair_without[h] = _combine(two[0], two[1])
        for k in kinds:
            n = c[k]
            if not n:
                continue
            c[k] = n - 1
            kid = _key_id(_group_key(c, g, sanma))
            vector = _KEY_VECTORS[kid]
            cost = _slot_cost(_VECTORS[vector], fixed_vector, slot)
            accepted: tuple[int, ...] = ()
            for h in range(4):
                if h == g:
                    accepted += _gains(kid, g, fixed, slot)
                else:
                    accepted += _gains(kids[h], h, _combine(pair_without[h], vector), slot)
            rows.append((k, cost, accepted))
            c[k] = n
    return rows


# -- acceptance -------------------------------------------------------------------------------


def _closed_forms(c: list[int]) -> tuple[int, int, int, int]:
    """(kinds held, pairs held, terminal and honour kinds held, pairs among them)."""
    kinds = pairs = orphans = orphan_pairs = 0
    for k, n in enumerate(c):
        if n:
            kinds += 1
            if n >= 2:
                pairs += 1
            if k in _KOKUSHI_SET:
                orphans += 1
                if n >= 2:
                    orphan_pairs += 1
    return kinds, pairs, orphans, orphan_pairs


def _with_closed_forms(c: list[int], value: int, kinds: tuple[int, ...], sanma: bool,
                       closed: tuple[int, int, int, int]) -> tuple[int, tuple[int, ...]]:
    """The shanten and accepted kinds of a closed ``3n+1`` hand from its regular shanten and
    accepted kinds, the closed forms (``closed``: ``_closed_forms(c)``) added."""
    held, pairs, orphans, orphan_pairs = closed
    seven = 6 - pairs + (7 - held if held < 7 else 0)
    thirteen = 13 - orphans - (1 if orphan_pairs else 0)
    if seven > value and thirteen > value:
        return value, kinds
    best = min(value, seven, thirteen)
    accepted = [False] * 34  # by kind: the forms at the best value whose draw lowers it
    if value == best:
        for k in kinds:
            accepted[k] = True
    if seven == best:  # a single grows a pair; a new kind counts while fewer than seven
        for k in range(34):
            n = c[k]
            if n == 1 or (n == 0 and held < 7):
                accepted[k] = True
    if thirteen == best:  # a missing orphan; a second copy while no orphan is paired
        for k in _KOKUSHI:
            n = c[k]
            if n == 0 or (n == 1 and not orphan_pairs):
                accepted[k] = True
    if sanma:
        for k in _SANMA_MISSING:
            accepted[k] = False
    return best, tuple([k for k in range(34) if accepted[k]])


_Row = tuple[int, int, tuple[int, ...], tuple[int, ...]]


def _discard_acceptances(c: list[int], slot: int, sanma: bool, closed: bool, unseen: list[int]) -> list[_Row]:
    """For a ``3n+2`` hand, per kind held (ascending): ``(kind, shanten, kinds, left)``, the
    acceptance of the hand without one copy of that kind (the closed forms added when
    ``closed``). The C kernel answers when it is built; ``_discard_acceptances_python`` is the
    reference."""
    table, vectors = _native_tables()
    found = native_discard_acceptances(c, slot, sanma, table, vectors, closed, unseen)
    return found if found is not None else _discard_acceptances_python(c, slot, sanma, closed, unseen)


def _discard_acceptances_python(c: list[int], slot: int, sanma: bool, closed: bool,
                                unseen: list[int]) -> list[_Row]:
    c = list(c)
    forms = _closed_forms(c) if closed else None
    rows: list[_Row] = []
    for k, cost, accepted in _regular_options_python(c, slot, sanma):
        value = cost - 1
        n = c[k]
        c[k] = n - 1
        if forms is not None:
            held, pairs, orphans, orphan_pairs = forms
            if n == 1:
                held -= 1
                orphans -= k in _KOKUSHI_SET
            elif n == 2:
                pairs -= 1
                orphan_pairs -= k in _KOKUSHI_SET
            value, accepted = _with_closed_forms(c, value, accepted, sanma, (held, pairs, orphans, orphan_pairs))
        rows.append((k, value, accepted, tuple([unseen[j] for j in accepted])))
        c[k] = n
    return rows


def acceptance(
    counts: Sequence[int],
    melds: int | None = None,
    unseen: Sequence[int] | None = None,
    *,
    sanma: bool = False,
) -> Acceptance:
    """The acceptance (ukeire) of a ``3n+1`` concealed hand.

    A kind is accepted when drawing it lowers the hand's shanten (the minimum over the forms);
    kinds of which the hand holds four copies cannot be drawn. ``unseen`` is, per kind, how many
    copies the seat cannot see (4 minus those in its own hand, every pond, every meld and the
    dora indicators): the caller knows the table, this function does not. ``None`` counts only
    the hand itself (4 minus the hand's copies). At tenpai the kinds are exactly
    ``rules.hand.waits``.
    """
    c = list(counts)
    total, melds = _melds_for(c, melds, sanma)
    if total % 3 != 1:
        raise ValueError(f"acceptance is for a 3n+1 hand (before a draw), not {total} tiles")
    cost, kinds = _regular_gains(c, (4 - melds) * 2 + 1, sanma)
    value = cost - 1
    if not melds:
        value, kinds = _with_closed_forms(c, value, kinds, sanma, _closed_forms(c))
    left = _unseen_or_default(unseen, c)
    return build(Acceptance, value, kinds, tuple([left[k] for k in kinds]))


def discard_options(
    counts: Sequence[int],
    melds: int | None = None,
    unseen: Sequence[int] | None = None,
    *,
    sanma: bool = False,
) -> tuple[DiscardOption, ...]:
    """Every discard of a ``3n+2`` concealed hand (one per kind held, ascending) with the
    shanten and acceptance after it. ``unseen`` as for ``acceptance``: the discarded tile is
    visible either way (in the hand, then in the pond), so one table serves every option."""
    c = list(counts)
    total, melds = _melds_for(c, melds, sanma)
    if total % 3 != 2:
        raise ValueError(f"discard options are for a 3n+2 hand (after a draw), not {total} tiles")
    # The acceptances worked out in one call of the C kernel, closed forms and unseen copies
    # included: discard_options 202 M instructions against 262 M (callgrind, compiled, 3 corpus
    # games' analyze_game of 1,995 M; 170 M with the kernel's reuse of other groups' gains).
    rows = _discard_acceptances(c, (4 - melds) * 2 + 1, sanma, melds == 0, _unseen_or_default(unseen, c))
    make, option, accepted = build, DiscardOption, Acceptance  # read once, not four times a row
    return tuple([make(option, k, make(accepted, value, kinds, left)) for k, value, kinds, left in rows])


def best_discards(options: Sequence[DiscardOption]) -> tuple[DiscardOption, ...]:
    """The best of ``discard_options``: the lowest shanten after the discard, then the most
    accepted tiles left; every option tied on both is best (in the given order)."""
    # One pass summing ints, not keys made by sum() over each option's ``left``: 13 M instructions
    # against 44 M (callgrind, compiled, 3 corpus games' analyze_game of 1,995 M).
    best: list[DiscardOption] = []
    top_shanten = top_total = 0
    for option in options:
        found = option.acceptance
        value = found.shanten
        if best and value > top_shanten:
            continue
        total = 0
        for n in found.left:  # ``found.total``, summed here on ints
            total += n
        if not best or value < top_shanten or total > top_total:
            best = [option]
            top_shanten, top_total = value, total
        elif total == top_total:
            best.append(option)
    return tuple(best)


def shanten_before(option: DiscardOption) -> int:
    """The shanten of the ``3n+2`` hand ``option`` was discarded from, read off the option.

    That hand is the option's ``3n+1`` hand with the discarded tile drawn back (never a fifth
    copy: the hand holds at most three after the discard). A draw lowers a hand's shanten by one
    when its kind is accepted and leaves it unchanged otherwise (in every form a tile more never
    raises the count of tiles still needed, and lowers it by at most one), so the hand before is
    one below the option's shanten exactly when the option accepts its own kind: -1, complete,
    when a tenpai hand waits on the tile just discarded. Equal to ``shanten`` of the ``3n+2``
    hand (``tests/test_shanten.py`` checks it on generated hands). Read so, not computed again from
    the 14 tiles: 1.4 M instructions against 36 M (callgrind, compiled, 3 corpus games'
    analyze_game of 1,995 M)."""
    found = option.acceptance
    kind = option.kind
    for k in found.kinds:
        if k == kind:
            return found.shanten - 1
    return found.shanten
