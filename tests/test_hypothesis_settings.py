"""Every property test runs under the suite's profile (``conftest.py``): no deadline, no "too
slow" health check, the same examples in every run — so that neither the machine's load nor luck
decides whether it passes."""

from __future__ import annotations

import importlib
from pathlib import Path

from hypothesis import HealthCheck


def _property_tests() -> list[tuple[str, object]]:
    found = []
    for path in sorted(Path(__file__).parent.glob("test_*.py")):
        if "@given" not in path.read_text(encoding="utf-8"):
            continue
        module = importlib.import_module(f"{__package__}.{path.stem}")
        for name, value in vars(module).items():
            if callable(value) and getattr(value, "is_hypothesis_test", False):
                found.append((f"{path.stem}.{name}", value))
    return found


def test_every_property_test_has_no_deadline_and_fixed_examples():
    tests = _property_tests()
    assert len(tests) >= 21  # the suite's property tests were found
    for name, test in tests:
        chosen = test._hypothesis_internal_use_settings
        assert chosen.deadline is None, name
        assert chosen.derandomize, name
        assert HealthCheck.too_slow in chosen.suppress_health_check, name
