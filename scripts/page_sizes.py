#!/usr/bin/env python3
"""The sizes of the pages the tool writes, for the docs: ``replay --html`` of corpus games and
``stats --html`` of the corpus (docs/replay-html.md, docs/stats-html.md and the README quote
these numbers with the date they were measured).

    python scripts/page_sizes.py [--corpus ../shared/corpus] [--every 50] [--stats [--open]]

Replay pages: every ``--every``-th log of ``CORPUS/mjlog`` that is a four-player East-South
game, built as ``replay --html`` builds it (the engine's report and the discard analysis
embedded); printed: how many, the median, 90th percentile and largest page (``--every 0``: none).
``--stats`` also writes ``stats --html`` of the whole ``CORPUS/mjlog`` to a temporary file
(``--jobs 2``) and prints its size, its rows and what its document holds; with ``--open`` it
opens that page in headless Chromium (Selenium and chromedriver, as the browser tests find them)
at 1280x900, five times, and prints the median time from the start of the navigation to the
first frame drawn after the page marked itself ready (``data-ready``: the first row's charts
drawn), and the median time of ``TenhouStats.show`` for the next five rows.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tenhou_tools.analysis import analyze_game  # noqa: E402
from tenhou_tools.documents.replay import replay_document  # noqa: E402
from tenhou_tools.formats import load_game  # noqa: E402
from tenhou_tools.replay.engine import replay_game  # noqa: E402
from tenhou_tools.views.html import replay_page  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--stats", action="store_true", help="also the stats page of the whole corpus")
    parser.add_argument("--open", action="store_true", help="with --stats: time opening it in headless Chromium")
    args = parser.parse_args()
    sizes: list[int] = []
    replays = sorted(Path(args.corpus, "mjlog").glob("*/*.gz"))[::args.every] if args.every else []
    for path in replays:
        game = load_game(path.read_bytes(), source=str(path))
        if game.header.ruleset.players != 4 or not game.header.ruleset.east_south:
            continue
        doc = replay_document(game, replay_game(game), source=str(path), analysis=analyze_game(game))
        sizes.append(len(replay_page(doc).encode("utf-8")))
    if sizes:
        ordered = sorted(sizes)
        print(f"replay pages: {len(sizes)} four-player East-South games, "
              f"median {statistics.median(sizes) / 1000:,.0f} kB, "
              f"90th percentile {ordered[int(0.9 * (len(ordered) - 1))] / 1000:,.0f} kB, "
              f"largest {ordered[-1] / 1000:,.0f} kB")
    if args.stats:
        with tempfile.TemporaryDirectory() as folder:
            page = Path(folder, "stats.html")
            subprocess.run([sys.executable, "-m", "tenhou_tools", "stats", str(Path(args.corpus, "mjlog")), "--html",
                            str(page), "--no-progress", "--jobs", "2"], check=True, capture_output=True)
            text = page.read_text(encoding="utf-8")
            data = re.search(r'id="tenhou-tools-stats">(.*?)</script>', text, re.S)
            doc = json.loads(data.group(1)) if data else {}
            held = {k: len(json.dumps(v, ensure_ascii=False, separators=(",", ":")).encode()) for k, v in doc.items()}
            parts = ", ".join(f"{k} {n / 1e6:.2f} MB" for k, n in held.items() if n >= 10_000) or "nothing"
            print(f"stats page of {Path(args.corpus, 'mjlog')}: {page.stat().st_size / 1e6:,.2f} MB, "
                  f"{len(doc.get('rows', doc.get('players', [])))} player rows; its document: {parts}")
            if args.open:
                opened, switched = open_times(page)
                print(f"opened in headless Chromium at 1280x900: {opened:,.0f} ms to the first row drawn "
                      f"(median of 5), {switched:,.0f} ms to show another row (median of 5)")
    return 0


READY = """
const done = arguments[arguments.length - 1];
const wait = () => {
  if (document.documentElement.getAttribute('data-ready') !== '1') { setTimeout(wait, 5); return; }
  requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now())));
};
wait();
"""


def open_times(page: Path) -> tuple[float, float]:
    """The median milliseconds from navigation start to the first frame after ``data-ready``,
    over five loads, and the median of ``TenhouStats.show`` for rows 1 to 5."""
    import tempfile

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary = os.environ.get("TENHOU_TOOLS_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = (os.environ.get("TENHOU_TOOLS_CHROMEDRIVER") or shutil.which("chromedriver")
                   or "/usr/lib/chromium/chromedriver")
    options = webdriver.ChromeOptions()
    if binary:
        options.binary_location = binary
    with tempfile.TemporaryDirectory() as profile:
        for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                     "--disable-background-networking", "--force-device-scale-factor=1", f"--user-data-dir={profile}"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
        try:
            driver.set_window_size(1280, 900)
            driver.set_script_timeout(120)
            opened = []
            for _ in range(5):
                driver.get("about:blank")
                driver.get(page.resolve().as_uri())
                opened.append(driver.execute_async_script(READY))
            switched = [driver.execute_script("const t = performance.now(); TenhouStats.show(arguments[0]); "
                                              "return performance.now() - t", i) for i in range(1, 6)]
        finally:
            driver.quit()
    return statistics.median(opened), statistics.median(switched)


if __name__ == "__main__":
    raise SystemExit(main())
