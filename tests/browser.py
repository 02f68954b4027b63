"""A real headless Chromium for the HTML pages' tests, driven with Selenium.

The browser is Debian's ``chromium`` with its ``chromium-driver`` (or the programs named by
``TENHOU_TOOLS_CHROMIUM`` and ``TENHOU_TOOLS_CHROMEDRIVER``); Selenium is given both paths, so
it never looks for or downloads a driver of its own. Without them the tests skip, unless
``TENHOU_TOOLS_REQUIRE_BROWSER=1`` (``.ci/run`` sets it): then they fail, so CI cannot pass
without having run them.

The browser starts with no network features of its own (no background networking, component
updates, sync or QUIC), a fresh profile, and the performance log on: ``requests`` lists every
URL the page asked for.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REQUIRE = os.environ.get("TENHOU_TOOLS_REQUIRE_BROWSER", "") not in ("", "0")

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
DRIVER_PLACES = ("chromedriver", "/usr/lib/chromium/chromedriver", "/usr/lib/chromium-browser/chromedriver")

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
)


def _missing(reason: str) -> None:
    if REQUIRE:
        pytest.fail(f"TENHOU_TOOLS_REQUIRE_BROWSER is set but {reason}")
    pytest.skip(reason)


def _which(names: tuple[str, ...], env: str) -> str | None:
    chosen = os.environ.get(env)
    if chosen:
        names = (chosen,)
    for name in names:
        found = shutil.which(name) if "/" not in name else (name if os.access(name, os.X_OK) else None)
        if found:
            return found
    return None


def missing_browser_parts(binary: str | None, driver_path: str | None) -> str:
    """What is missing of the browser, by name: Chromium, chromedriver, or both (and how to get
    them), so that a skip or a failure says which one to install."""
    parts = []
    if binary is None:
        parts.append(f"Chromium (looked for {', '.join(CHROMIUM_NAMES)}; or set TENHOU_TOOLS_CHROMIUM): "
                     "apt-get install chromium")
    if driver_path is None:
        parts.append(f"chromedriver (looked for {', '.join(DRIVER_PLACES)}; or set TENHOU_TOOLS_CHROMEDRIVER): "
                     "apt-get install chromium-driver")
    return "missing " + "; and ".join(parts)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """One headless Chromium for the whole session (each test sets its own window size)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("selenium is not installed (pip install -e '.[test]')")
    binary = _which(CHROMIUM_NAMES, "TENHOU_TOOLS_CHROMIUM")
    driver_path = _which(DRIVER_PLACES, "TENHOU_TOOLS_CHROMEDRIVER")
    if binary is None or driver_path is None:
        _missing(missing_browser_parts(binary, driver_path))
    profile = tempfile.mkdtemp(prefix="tenhou-tools-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument("--window-size=1280,1000")
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
    except Exception as exc:  # noqa: BLE001 - any reason the browser cannot start
        shutil.rmtree(profile, ignore_errors=True)
        _missing(f"Chromium ({binary}, {driver_path}) did not start: {str(exc).splitlines()[0]}")
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


PAGE_READY_SECONDS = 120
"""How long a page's script may take to draw it before the test fails (a generous bound: a
loaded machine's Chromium is slow, and a page that never draws fails all the same)."""


def open_page(driver, path: Path, moment: str | None = None, width: int = 1280, height: int = 1000) -> None:
    """Load a page from ``file://`` at a window width, optionally at ``#HAND:STEP``, and wait
    for its script to have drawn it. The logs of the previous page are dropped first."""
    driver.set_window_size(width, height)
    driver.get("about:blank")
    drain_logs(driver)
    url = path.resolve().as_uri() + (f"#{moment}" if moment else "")
    driver.get(url)
    # the page's script marks the document when it has drawn it; wait for that mark (or an error)
    # rather than read it once: on a loaded machine ``get`` has returned before it (one run in the
    # whole suite found it unset with no error logged)
    errors: list[dict] = []
    state = None
    deadline = time.monotonic() + PAGE_READY_SECONDS
    while True:
        state = driver.execute_script(
            "return [document.readyState, document.documentElement.getAttribute('data-ready')]")
        errors += [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        if state[1] == "1" or errors or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert state[1] == "1" and not errors, (state, errors)


def drain_logs(driver) -> None:
    driver.get_log("performance")
    driver.get_log("browser")


def requests(driver) -> list[str]:
    """Every URL the browser asked for since the last call (Network.requestWillBeSent)."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


DOM_BOARD = r"""
const num = (v) => (v === undefined ? null : Number(v));
const out = {
  layout: document.getElementById('board').getAttribute('data-layout'),
  hand: document.body.getAttribute('data-hand'),
  step: Number(document.body.getAttribute('data-step')),
  seats: {},
  chips: {},
};
document.querySelectorAll('#board g.seat').forEach((g) => {
  const tiles = (sel) => [...g.querySelectorAll(sel)];
  out.seats[g.dataset.seat] = {
    hand: tiles('g.hand > g.tile').map((t) => num(t.dataset.tile)),
    extra: tiles('g.hand > g.tile.extra').map((t) => [num(t.dataset.tile), t.dataset.extra]),
    hidden: g.querySelector('g.hand').dataset.hidden === '1',
    pond: tiles('g.pond > g.tile').map((t) => [num(t.dataset.tile), t.dataset.tsumogiri === '1',
                                               t.dataset.riichi === '1', t.dataset.called === '1']),
    melds: tiles('g.melds > g.meld').map((m) => [m.dataset.kind, m.dataset.tiles.split(',').map(Number),
                                                 [...m.querySelectorAll('g.tile')].map((t) => num(t.dataset.tile))]),
    score: Number(g.querySelector('.score').dataset.score),
    score_text: g.querySelector('.score').textContent,
  };
});
document.querySelectorAll('#seats .seat-chip').forEach((c) => {
  out.chips[c.dataset.seat] = {score: c.querySelector('.score').textContent,
                               riichi: !!c.querySelector('.riichi-flag'), who: c.querySelector('.who').textContent};
});
const facts = document.querySelector('#board g.table-facts');
out.honba = Number(facts.dataset.honba);
out.sticks = Number(facts.dataset.sticks);
out.wall = Number(facts.dataset.wall);
out.facts_text = facts.textContent;
out.dora = [...document.querySelectorAll('#board g.dora > g.tile')].filter((t) => t.dataset.tile !== undefined)
  .map((t) => Number(t.dataset.tile));
out.event_text = document.getElementById('event-text').textContent;
out.result_text = [...document.querySelectorAll('#result .result-text')].map((p) => p.textContent);
return out;
"""


def dom_board(driver, hand: int | None = None, step: int | None = None) -> dict:
    """What the page shows (read from its DOM), after going to ``hand``/``step`` if given."""
    script = DOM_BOARD
    if hand is not None:
        script = f"TenhouReplay.go({int(hand)}, {int(step or 0)});\n" + script
    return driver.execute_script(script)
