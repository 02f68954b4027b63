"""The one door to speed, ``tenhou_tools._native``: which kernels it binds, and the references
beside the C (they run in every build; ``tests/test_speedups.py`` holds the C to them)."""

from __future__ import annotations

import array
import ast
import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tenhou_tools import _native
from tenhou_tools._native import integers, values
from tenhou_tools._native import wall as reference
from tenhou_tools.rules import wall

from .conftest import REPO


def test_only_the_door_imports_the_extension():
    """Every kernel reaches the domain through ``tenhou_tools._native``: no other module names the
    C extension in an import."""
    importers = []
    for path in sorted((REPO / "tenhou_tools").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.ImportFrom | ast.Import) else []
            module = node.module or "" if isinstance(node, ast.ImportFrom) else ""
            if "_speedups" in module or any("_speedups" in n for n in names):
                importers.append(path.relative_to(REPO).as_posix())
    assert importers == ["tenhou_tools/_native/__init__.py"]


def _bound(environment: dict[str, str]) -> dict[str, str]:
    code = ("from tenhou_tools import _native\n"
            "for name in ('build', 'numbers', 'mt_seeded', 'mt_words', 'shuffle', 'waits', 'scan_tenhou_form',"
            " 'regular_gains', 'discard_acceptances'):\n"
            "    print(name, getattr(_native, name).__module__)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO,
                          env={**os.environ, **environment}, timeout=120)
    return dict(line.split() for line in done.stdout.splitlines())


def test_tenhou_tools_pure_binds_every_reference():
    bound = _bound({"TENHOU_TOOLS_PURE": "1"})
    assert bound == {"build": "tenhou_tools._native.values", "numbers": "tenhou_tools._native.integers",
                     "mt_seeded": "tenhou_tools._native.wall", "mt_words": "tenhou_tools._native.wall",
                     "shuffle": "tenhou_tools._native.wall", "waits": "tenhou_tools._native",
                     "scan_tenhou_form": "tenhou_tools._native", "regular_gains": "tenhou_tools._native",
                     "discard_acceptances": "tenhou_tools._native"}


def test_a_built_extension_binds_every_c_function():
    if not _native.NATIVE:
        pytest.skip("the C extension is not in use here")
    bound = _bound({"TENHOU_TOOLS_PURE": ""})
    assert set(bound.values()) == {"tenhou_tools._native._speedups"}


def test_without_the_extension_the_declining_kernels_decline():
    if _native.NATIVE:
        pytest.skip("the C extension is in use here")
    assert _native.waits([0] * 34) is None
    assert _native.scan_tenhou_form(b"<mjloggm ver=\"2.3\"></mjloggm>", ()) is None


def test_build_reference_is_the_class():
    assert values.build(complex, 1, imag=2) == complex(1, 2)


def test_numbers_reference_reads_tenhous_lists():
    assert integers.numbers("1,-2,3", -5, 5) == (1, -2, 3)
    assert integers.numbers("", 0, 1) == ()
    assert integers.numbers("1,,2", 0, 9) is None and integers.numbers("6", 0, 5) is None


# -- the wall's references against the standard library -------------------------------------------


def _words(key: list[int]) -> bytes:
    return b"".join(k.to_bytes(4, "little") for k in key)


@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=40), st.lists(st.integers(0, 1400), max_size=6))
@settings(max_examples=100)
def test_mt_references_are_the_standard_librarys(key, counts):
    """The state after init_by_array over any key (a last word of zero too) and the words drawn
    from it, chunk after chunk, are random.Random's own."""
    expected = wall.mt19937(key)
    state = reference.mt_seeded(_words(key))
    assert list(array.array("I", bytes(state))) == list(expected.getstate()[1])
    for n in counts:
        assert reference.mt_words(state, n) == expected.getrandbits(32 * n).to_bytes(4 * n, "little")
    assert list(array.array("I", bytes(state))) == list(expected.getstate()[1])


def test_mt_references_refuse_what_they_cannot_read():
    for key in (b"", b"abc", bytes(4 * 4097), "abcd"):
        with pytest.raises((ValueError, TypeError)):
            reference.mt_seeded(key)  # type: ignore[arg-type]
    state = reference.mt_seeded(bytes(8))
    for bad in (bytes(state), bytearray(2496), bytearray(2504)):
        with pytest.raises(TypeError):
            reference.mt_words(bad, 1)  # type: ignore[arg-type]
    late = bytearray(state)
    late[-4:] = (625).to_bytes(4, sys.byteorder)
    with pytest.raises(ValueError):
        reference.mt_words(late, 1)
    for n in (-1, 65537):
        with pytest.raises(ValueError):
            reference.mt_words(state, n)
    assert reference.mt_words(state, 0) == b""


@given(st.binary(min_size=4 * 140, max_size=4 * 140))
@settings(max_examples=50)
def test_shuffle_reference_is_the_rule(rnd):
    """``shuffle`` is ``rules.wall.shuffle_order`` of the words, and the two dice words."""
    words = array.array("I", rnd)
    if sys.byteorder != "little":
        words.byteswap()
    w, die1, die2 = reference.shuffle(rnd, tuple(range(136)), 135)
    assert (w, die1, die2) == (wall.shuffle_order(list(words), 136), words[135], words[136])


def test_the_walls_of_a_seed_are_the_standard_librarys():
    """A real seed's walls, hand after hand, through the door (whichever is bound) and through
    random.Random."""
    key = bytes(range(256)) * 9 + bytes(191) + b"\x01"
    seed = "mt19937ar-sha512-n288-base64," + __import__("base64").b64encode(key).decode()
    generator, plain = wall.WallGenerator(seed, 4), random.Random(int.from_bytes(key, "little"))
    for index in range(5):
        rnd = wall.sha512_words(plain)
        expected = wall.shuffle_order(rnd, 136)
        assert list(generator.next_hand(index % 4).live) == expected[135 - 52:13:-1]


def test_an_in_process_run_gives_the_garbage_collector_back():
    """A library caller's process keeps its own collector settings after a run in it."""
    import gc

    from tenhou_tools.batch import open_runner

    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    with open_runner(jobs=1) as runner:
        assert gc.get_threshold() == (10_000, 10, 10)
        assert runner.name == "in-process"
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() <= frozen


def test_a_paused_collection_gives_the_collector_back():
    """``collection_paused`` (one game's analysis in ``stats --quality``) leaves the collector as
    it found it, enabled or not, also when the block raises."""
    import gc

    from tenhou_tools._native import collection_paused

    assert gc.isenabled()
    with collection_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(KeyError), collection_paused():
        raise KeyError("x")
    assert gc.isenabled()
    gc.disable()
    try:
        with collection_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
