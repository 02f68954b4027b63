"""The one door to speed: the C kernels, each with its plain Python reference beside it.

The domain (``mjlog/``, ``rules/``, ``replay/``, ``analysis/``) is plain Python in the field's
words; where a profile found a small loop that Python runs slowly, the domain calls a kernel by a
plain name from here, and this module is the only one that imports the C extension
(``_speedups.c``, built by a compiled install; ``tenhou_tools._build`` lists it). Each name is
bound once, at import: to the C function when the extension loads, else to its reference.

Two kinds of kernel:

- **Answering kernels**: ``build`` (a frozen value; reference ``values.build``, the class's own
  call), ``numbers`` (an mjlog attribute's integers; ``integers.numbers``), ``mt_seeded`` and
  ``mt_words`` (the wall's MT19937; ``wall.py``, through ``random.Random``), ``sha512_blocks``
  (a hand's nine SHA-512 digests; ``wall.py``, through ``hashlib``: the C calls the same
  OpenSSL functions, found in the library ``hashlib`` loaded, and is bound only when they give
  ``hashlib``'s digest) and ``shuffle`` (one
  hand's wall; ``wall.shuffle``, whose loop ``wall.shuffled`` is also the rule's own:
  ``rules.wall.shuffle_order`` calls it). The C function and its reference give the same answer for
  every input (``tests/test_speedups.py``).
- **Declining kernels**: ``waits`` (the kinds that complete a hand), ``tenpai_discards`` (each
  discard of a hand that leaves it tenpai, with its waits), ``tenpai_draws`` (those after each of
  some draws), ``first_tenpai_sums`` (the hand value's
  one-shanten sum over the draw that reaches tenpai), ``scan_tenhou_form`` (a log
  in the exact XML form Tenhou writes), ``regular_gains`` (the shanten's regular form) and
  ``discard_acceptances`` (the acceptance after each discard: the regular form and the closed
  forms). Their reference is the domain's own definition — ``rules.hand``'s waits and
  tenpai discards, ``analysis.value``'s sum,
  ``mjlog.scan.scan_python``, the shanten's table programme in ``rules.shanten`` — which a rule
  or XML reader owns and which this package does not copy: the C function answers the common case
  or declines (``None``), and without the extension the stand-in here declines everything, so the
  caller's own Python answers. The tests hold each answer the C gives to the domain's.

The extension is not used when ``TENHOU_TOOLS_PURE`` is set (a plain run of a compiled install:
the references answer), nor when the compiled build is stale (``_build.use_sources_if_stale``
refuses to import it, so an edit to ``_speedups.c`` never runs old C).
"""

from __future__ import annotations

import gc
import importlib
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import Any, Protocol, TypeVar

from . import integers as _integers
from . import values as _values
from . import wall as _wall
from .wall import init_by_array, shuffled

__all__ = [
    "NATIVE", "build", "collect_rarely", "collection_paused", "first_tenpai_sums", "init_by_array", "mt_seeded",
    "discard_acceptances", "mt_words", "numbers", "regular_gains", "scan_tenhou_form", "sha512_blocks", "shuffle",
    "shuffled",
    "tenpai_discards", "tenpai_draws", "waits",
]

T = TypeVar("T")
Item = tuple[str, dict[str, str]]
Gains = tuple[int, tuple[int, ...]]
Row = tuple[int, int, tuple[int, ...], tuple[int, ...]]


class _Build(Protocol):
    def __call__(self, cls: type[T], /, *args: Any, **kw: Any) -> T: ...


def _extension() -> ModuleType | None:
    if os.environ.get("TENHOU_TOOLS_PURE", "") not in ("", "0"):
        return None
    try:
        from . import _speedups
    except ImportError:  # a plain install, or a stale build (``_build.SourcesFirst``)
        return None
    return _speedups


_c = _extension()
NATIVE = _c is not None
"""Whether the C kernels run (``tenhou-tools --version`` says so too)."""


# -- answering kernels: the C function, or the reference beside it -----------------------------

build: _Build = _c.build if _c is not None else _values.build
numbers: Callable[[str, int, int], tuple[int, ...] | None] = _c.numbers if _c is not None else _integers.numbers
mt_seeded: Callable[[bytes], bytearray] = _c.mt_seeded if _c is not None else _wall.mt_seeded
mt_words: Callable[[bytearray, int], bytes] = _c.mt_words if _c is not None else _wall.mt_words
shuffle: Callable[[bytes, tuple[int, ...], int], tuple[list[int], int, int]] = (
    _c.shuffle if _c is not None else _wall.shuffle)


def _openssl_sha512_blocks(c: ModuleType | None) -> Callable[[bytes], bytes] | None:
    """The C ``sha512_blocks`` when it can run: OpenSSL's SHA-512 functions found in the
    library the standard library's ``_hashlib`` loaded (``hashlib.sha512`` is that OpenSSL), and
    its digests of two test blocks those of the reference. ``hashlib`` also looks the digest up
    by name and makes and frees two contexts at every call: 6.9 against 2.9 microseconds for a
    hand's nine blocks, about 3 % of ``validate``'s CPU (measured 2026-11-29, compiled)."""
    if c is None:
        return None
    try:
        openssl = importlib.import_module("_hashlib")  # hashlib's OpenSSL module (no stubs)
    except ImportError:  # a Python built without OpenSSL: hashlib has its own SHA-512
        return None
    path = getattr(openssl, "__file__", None)
    if not isinstance(path, str) or not c.openssl_sha512(path):
        return None
    probe = bytes(range(256))
    if c.sha512_blocks(probe) != _wall.sha512_blocks(probe):
        return None
    return c.sha512_blocks


sha512_blocks: Callable[[bytes], bytes] = _openssl_sha512_blocks(_c) or _wall.sha512_blocks


# -- declining kernels: the C function, or a stand-in that leaves every case to the domain ----


def _declines(*args: object) -> None:
    """Without the extension: ``None`` for every input, so the domain's own Python answers."""
    return None


waits: Callable[[list[int]], frozenset[int] | None] = _c.waits if _c is not None else _declines
first_tenpai_sums: Callable[[list[tuple[int, list[tuple[float, float]]]], int, int, int],
                            tuple[float, float] | None] = _c.first_tenpai_sums if _c is not None else _declines
tenpai_discards: Callable[[list[int], int], tuple[tuple[int, tuple[int, ...]], ...] | None] = (
    _c.tenpai_discards if _c is not None else _declines)
tenpai_draws: Callable[[list[int], Sequence[int]], list[tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]] | None] = (
    _c.tenpai_draws if _c is not None else _declines)
scan_tenhou_form: Callable[[bytes, tuple[Item, ...]], tuple[dict[str, str], list[Item]] | None] = (
    _c.scan if _c is not None else _declines)
regular_gains: Callable[[list[int], int, bool, bytes, bytes], Gains | None] = (
    _c.regular_gains if _c is not None else _declines)
discard_acceptances: Callable[[list[int], int, bool, bytes, bytes, bool, list[int]], list[Row] | None] = (
    _c.discard_acceptances if _c is not None else _declines)


# -- the garbage collector ------------------------------------------------------------------------


def collect_rarely() -> Callable[[], None]:
    """Set Python's cyclic garbage collector for a long run over many logs (``batch.open_runner``
    calls it, and each pool worker as it starts). What is alive by
    then (the modules, their classes and tables) lives until the process ends: ``gc.freeze``
    keeps the collector from walking it again at every full collection; and the youngest
    generation is collected every 10,000 allocations, not 700 (a game makes hundreds of thousands
    of small records, almost none in a cycle). Measured: ``validate --jobs 1`` over the corpus's
    4,855 logs takes about 3 % less CPU with it (compiled build, five alternating runs, median
    ratio 0.97, 2026-11-29). A one-game command (``replay``) does not call it.

    Returns what undoes it (the caller's process is the caller's: ``batch.InProcessRunner``
    undoes it when it closes; a pool worker ends with its process)."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)

    def undo() -> None:
        gc.unfreeze()
        gc.set_threshold(*thresholds)

    return undo


@contextmanager
def collection_paused() -> Iterator[None]:
    """No cyclic garbage collection while the block runs (one game's discard analysis: ``stats
    --quality``), the collector as it was after it. What the analysis makes lives until the game
    is judged (every discard's options, acceptance and danger records, tens of thousands a game),
    so each young collection walked those survivors again, for nearly nothing found (a few hundred
    objects in cycles a game, collected after the block). Measured (compiled, 20 corpus games in one
    process, ``collect_rarely``'s settings): the collector took 37 ms a game, about an eighth of the
    analysis."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
