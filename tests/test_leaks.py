"""No reference or memory leak in parsing, replaying and checking, whichever build runs.

Compiled code manages reference counts itself, and a compiler bug can drop a decrement: mypyc
1.13 did so for ``game.owari is None`` in the engine once the value classes had hand-written
``__init__`` methods, and validate's workers grew by 0.7 MB every thousand logs. These tests
count: the references to every object of a game before and after replaying it, and the memory
blocks Python holds after checking one log a hundred times more.
"""

from __future__ import annotations

import dataclasses
import gc
import sys

from tenhou_tools.check import check_log
from tenhou_tools.mjlog import parse_game
from tenhou_tools.replay.engine import replay_game

from .conftest import FIXTURES, corpus_files


def _logs() -> list[bytes]:
    paths = corpus_files()[::83] or [FIXTURES / "one_hand.mjlog", FIXTURES / "sanma_kita.xml"]
    return [p.read_bytes() for p in paths]


def _reachable(root: object) -> list[object]:
    """Every event, value, tuple and list of a game (not the shared ints and strings)."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if obj is None or isinstance(obj, (int, float, str)) or id(obj) in seen:
            continue
        seen[id(obj)] = obj
        if dataclasses.is_dataclass(obj):
            stack.extend(getattr(obj, f.name) for f in dataclasses.fields(obj))
        elif isinstance(obj, (tuple, list)):
            stack.extend(obj)
    return [obj for obj in seen.values() if obj != ()]  # the empty tuple is everybody's


def test_replaying_a_game_leaves_every_reference_count_as_it_was():
    for data in _logs():
        game = parse_game(data)
        objects = _reachable(game)
        before = [sys.getrefcount(obj) for obj in objects]
        for _ in range(3):
            replay_game(game)
        after = [sys.getrefcount(obj) for obj in objects]
        leaked = [(type(o).__name__, b, a) for o, b, a in zip(objects, before, after) if a != b]
        assert leaked == [], leaked[:5]


def test_checking_a_log_again_and_again_holds_no_more_memory():
    """Checking one log 100 times more (caches full after the first few) may not hold more than
    a memory block per check. The plain build holds none; the compiled one a few dozen per
    hundred, the same before this test existed (mypyc's own bookkeeping: a run over 25,000 logs
    stays at the same resident size). The leaks this test was written for held 8 to 12."""
    for data in _logs()[:6]:
        for _ in range(5):
            check_log(data, path="log")
        gc.collect()
        before = sys.getallocatedblocks()
        for _ in range(100):
            check_log(data, path="log")
        gc.collect()
        grown = sys.getallocatedblocks() - before
        assert grown < 100, f"{grown} more memory blocks after checking one log 100 more times"
