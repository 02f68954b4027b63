"""One rounding rule for every number people read (``tenhou_tools/rounding.py``): a half rounds
away from zero, from the number as stored, in the terminal and on the pages alike. The pages round
with ``TenhouText.fixed`` (``views/static/shared_text.js``), held here to the terminal's ``fixed``
in a real headless Chromium (tests/browser.py); a player's rate of 2080.50 (Bob, in
``fixtures/one_hand.xml``) shows as 2081 in ``show``, ``stats`` and both pages (Python's own
rounding gave 2080, a half to even, while the pages gave 2081)."""

from __future__ import annotations

import random

from click.testing import CliRunner

from tenhou_tools.cli import cli
from tenhou_tools.rounding import fixed, rounded

from .browser import browser, open_page  # noqa: F401 - the fixture is found by name
from .conftest import FIXTURES

# (value, decimals, plus, grouping): halves on both sides of zero and of an even digit, halves a
# double cannot hold (1.45 is 1.4499999...: down on both sides), a sign on zero, thousands
CASES = [
    (2117.5, 0, False, False), (2118.5, 0, False, False), (2080.5, 0, False, True), (0.5, 0, False, False),
    (1.5, 0, False, False), (-0.5, 0, False, False), (-2.5, 0, False, False), (-3.5, 0, True, False),
    (0.25, 1, False, False), (-0.25, 1, True, False), (0.125, 2, False, False), (12.5, 0, False, False),
    (1.45, 1, False, False), (1.005, 2, False, False), (2.675, 2, False, False), (83.0, 1, True, False),
    (-0.04, 1, True, False), (-0.4, 0, False, False), (0.0, 1, True, False), (7774.5, 0, False, True),
    (-1234567.5, 0, True, True), (999.5, 0, False, True), (0.00005, 4, False, False), (64.5, 0, False, False),
]


def test_a_half_rounds_away_from_zero():
    assert [fixed(v, d, plus=p, grouping=g) for v, d, p, g in CASES] == [
        "2118", "2119", "2,081", "1",
        "2", "-1", "-3", "-4",
        "0.3", "-0.3", "0.13", "13",
        "1.4", "1.00", "2.67", "+83.0",
        "+0.0", "0", "+0.0", "7,775",
        "-1,234,568", "1,000", "0.0001", "65",
    ]


def test_rounded_is_the_same_rule_for_the_documents():
    """The JSON documents hold their figures rounded by the same rule (``round``'s shape: a whole
    number for no decimals)."""
    assert [rounded(v) for v in (2118.5, 2117.5, -2.5, -2.4, 2.4999, 0.5)] == [2119, 2118, -3, -2, 2, 1]
    assert all(isinstance(rounded(v), int) for v in (2118.5, -2.5, 3.0))
    assert [rounded(v, 4) for v in (0.03125, 0.12345, 0.1235)] == [0.0313, 0.1235, 0.1235]
    assert rounded(7, 2) == 7 and isinstance(rounded(7, 2), int)  # an int as it is


def test_rounded_takes_the_exact_reading_only_at_a_half():
    """``rounded`` (and ``fixed``, written with it) asks ``round`` first and reads the exact value
    only near a half: it gives what the exact reading gives (ties k/32, k/1024, and values of
    every size, a fixed sample)."""
    from decimal import ROUND_HALF_UP, Decimal

    sample = random.Random(35)
    values = ([k / 32 for k in range(-640, 640)] + [k / 1024 for k in range(-3000, 3000)]
              + [sample.uniform(-1, 1) for _ in range(20000)] + [sample.uniform(-1e6, 1e6) for _ in range(20000)])
    for digits in (1, 2, 3, 4):
        exact = Decimal(1).scaleb(-digits)
        assert [rounded(v, digits) for v in values] == [
            float(Decimal(v).quantize(exact, rounding=ROUND_HALF_UP)) for v in values], digits
        quantized = [Decimal(v).quantize(exact, rounding=ROUND_HALF_UP) for v in values]
        assert [fixed(v, digits) for v in values] == [f"{q.copy_abs() if q.is_zero() else q:f}" for q in quantized]


def _pages(tmp_path):
    replay, stats = tmp_path / "replay.html", tmp_path / "stats.html"
    one_hand = str(FIXTURES / "one_hand.xml")
    assert CliRunner().invoke(cli, ["replay", one_hand, "--html", str(replay)]).exit_code == 0
    assert CliRunner().invoke(cli, ["stats", one_hand, "--html", str(stats), "--jobs", "1"]).exit_code == 0
    return replay, stats


def test_the_pages_round_as_the_terminal_does(browser, tmp_path):
    expected = [fixed(v, d, plus=p, grouping=g) for v, d, p, g in CASES]
    for page in _pages(tmp_path):
        open_page(browser, page)
        shown = browser.execute_script(
            "return arguments[0].map(([v, d, p, g]) => TenhouText.fixed(v, d, {plus: p, grouping: g}))", CASES)
        assert shown == expected, page.name


def test_a_rate_of_half_is_one_number_in_every_view(browser, tmp_path):
    """Bob's rate of 2080.50: 2081 in ``show``, in ``stats --wide``, on the replay page and on the
    stats page."""
    one_hand = FIXTURES / "one_hand.xml"
    shown = CliRunner().invoke(cli, ["show", str(one_hand)])
    assert shown.exit_code == 0
    assert "S1    Bob     七段  2081" in shown.stdout.splitlines()
    wide = CliRunner().invoke(cli, ["stats", str(one_hand), "--wide", "--jobs", "1"])
    assert wide.exit_code == 0
    assert wide.stdout.splitlines()[4].startswith("Bob        4     1     1 七段 2,081 ")
    replay, stats = _pages(tmp_path)
    open_page(browser, replay)
    assert browser.execute_script(
        "return document.querySelector('#game-players .player[data-seat=\"1\"]').textContent") == "S1 Bob (R2081)"
    open_page(browser, stats)
    names = browser.execute_script("return Array.from({length: TenhouStats.count}, (_, i) => TenhouStats.row(i).name)")
    open_page(browser, stats, f"player={names.index('Bob')}")
    facts = browser.execute_script("return [...document.querySelectorAll('.facts span')].map((s) => s.textContent)")
    assert "latest 七段, R2081" in facts

