"""A bounded mutation-fuzz run over real-shaped logs: every input ends in a result.

Longer runs: ``python scripts/fuzz.py --minutes N``.
"""

from __future__ import annotations

import gzip
import random

from tenhou_tools.fuzz import MUTATIONS, fuzz

from .conftest import corpus_files


def _seeds(fixtures):
    seeds = [(fixtures / name).read_bytes() for name in ("one_hand.xml", "sanma_kita.xml")]
    seeds += [gzip.decompress(p.read_bytes()) for p in corpus_files("mjlog")[::400]]
    return seeds


def test_every_mutation_changes_a_real_log(fixtures):
    rng = random.Random(7)
    xml = (fixtures / "one_hand.xml").read_bytes()
    for name, mutate in MUTATIONS.items():
        assert any(mutate(xml, rng) != xml for _ in range(5)), name


def test_fuzz_run_has_no_crash_hang_or_traceback(fixtures):
    report = fuzz(_seeds(fixtures), iterations=1500, rng=random.Random(2026))
    assert report.tried == 1500
    assert report.failures == []
    # the run exercised both ends: logs the engine rejects and logs it replays
    assert report.outcomes.get("unreadable", 0) > 0 and report.outcomes.get("findings", 0) > 0
