"""A bounded mutation-fuzz run over real-shaped logs: every input ends in a result.

Longer runs: ``python scripts/fuzz.py --minutes N``.
"""

from __future__ import annotations

import gzip
import json
import random

from tenhou_tools.check import check_log
from tenhou_tools.findings import FindingCode

from .conftest import corpus_files
from .fuzzing.logs import JSON_MUTATIONS, MUTATIONS, PATHS, check_input, fuzz, tenhou6_seeds


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


def test_every_json_mutation_changes_a_tenhou6_log(fixtures):
    rng = random.Random(7)
    (doc,) = tenhou6_seeds([(fixtures / "one_hand.xml").read_bytes()])
    for name, mutate in JSON_MUTATIONS.items():
        assert any(mutate(doc, rng) != doc for _ in range(5)), name


def test_fuzz_every_input_path_with_json_seeds(fixtures):
    """The same mutated inputs, mjlog and tenhou.net/6 JSON, through validate, stats, convert
    and replay: each ends in a result on every path."""
    xml = _seeds(fixtures)[::2]
    seeds = xml + tenhou6_seeds(xml) + [p.read_bytes() for p in corpus_files("tenhou6", "*.json")[::60]]
    report = fuzz(seeds, iterations=300, rng=random.Random(2027), paths=PATHS)
    assert report.tried == 300 and report.json_inputs > 0
    assert report.by_path == {path: 300 for path in PATHS}
    assert report.failures == []


def test_deeply_nested_json_is_a_parse_error():
    """Found by the fuzzer: JSON nested past the recursion limit was a RecursionError (an
    INTERNAL_ERROR in validate, an internal error in stats, a traceback in convert and replay)."""
    data = b'{"log": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    record = check_log(data, path="deep.json")
    assert [f.code for f in record.findings] == [FindingCode.PARSE_ERROR]
    assert "nested too deeply" in record.findings[0].message
    assert check_input(data) == []


def test_infinite_or_huge_final_points_are_a_parse_error(fixtures):
    """Found by the fuzzer: final points of 1e308 (or inf, nan) in ``sc`` / ``owari`` crashed the
    engine and the stats counters (OverflowError rounding points * 10)."""
    xml = (fixtures / "one_hand.xml").read_bytes()
    (doc,) = tenhou6_seeds([xml])
    for value in ("1e308", "nan", "inf", "-2e6"):
        bad_xml = xml.replace(b"83.0", value.encode())
        data = json.loads(doc)
        data["sc"][1] = float(value)
        bad_json = json.dumps(data).encode()
        for data in (bad_xml, bad_json):
            record = check_log(data, path="bad")
            assert [f.code for f in record.findings] == [FindingCode.PARSE_ERROR], value
            assert "points outside" in record.findings[0].message
            assert check_input(data) == []


def test_mutated_files_through_the_commands(fixtures, tmp_path):
    """A small sample end to end: `validate`, `convert` and `replay` on mutated files exit with
    a documented code and at most one line on stderr per log, never a traceback."""
    from click.testing import CliRunner

    from tenhou_tools.cli import cli

    rng = random.Random(5)
    xml = [(fixtures / name).read_bytes() for name in ("one_hand.xml", "sanma_kita.xml")]
    seeds = xml + tenhou6_seeds(xml)
    every = {**MUTATIONS, **JSON_MUTATIONS}
    runner = CliRunner()
    for i in range(24):
        seed = seeds[i % len(seeds)]
        names = list(JSON_MUTATIONS) if seed.startswith(b"{") else list(MUTATIONS)
        path = tmp_path / f"fuzz{i}{'.json' if seed.startswith(b'{') else '.xml'}"
        path.write_bytes(every[rng.choice(names)](seed, rng))
        for args in (["validate", str(path), "--no-progress"], ["convert", str(path), "--to", "mjai"],
                     ["convert", str(path), "--to", "tenhou6"], ["replay", str(path), "--ascii"]):
            result = runner.invoke(cli, args)
            assert isinstance(result.exception, SystemExit | None), (args, result.exc_info)
            assert result.exit_code in (0, 1), (args, result.output)
            assert "Traceback" not in result.output, (args, result.output)


def test_a_huge_tsumo_total_is_split_at_once():
    """Found by the long fuzz run: writing a non-dealer tsumo of 10**30 points as tenhou.net/6
    JSON (``convert``) tried every payment from 100 up to the total, a hang. The split is now
    looked for only where it can be, and gives what the full search gave."""
    from tenhou_tools.formats.tenhou6 import _ceil100, _tsumo_split

    def full_search(points, n):
        for child in range(100, points + 1, 100):
            parent = points - child * (n - 2)
            if parent >= 100 and parent % 100 == 0 and \
                    _ceil100(2 * (child - 100) + 1) <= parent <= _ceil100(2 * child) and parent >= child:
                return child, parent
        return points // n, points - (points // n) * (n - 2)

    for n in (3, 4):
        for points in [*range(-300, 60_001, 100), *range(0, 3_000, 7), 96_000, 128_000]:
            assert _tsumo_split(points, n) == full_search(points, n), (points, n)
    assert _tsumo_split(8000, 4) == (2000, 4000) and _tsumo_split(3900, 4) == (1000, 1900)
    assert _tsumo_split(4 * 10**30, 4) == (10**30, 2 * 10**30)
