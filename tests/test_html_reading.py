"""The replay pages read well on a laptop (1280×900) and a phone (390×844) (issue 34, item 9), in
a real headless Chromium (tests/browser.py), on a corpus four-player East-South game with its
analysis, the whole game's page and a seat's: the whole board and the danger legend in view
without scrolling, the marks on the felt and coloured by the rate their tooltip shows (the
buckets the legend says), no centre text over a seat's name or stick when a win shows the ura
row, and the verdicts table inside its panel."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tenhou_tools.events import Agari

from .browser import browser, open_page  # noqa: F401 - the fixture is found by name
from .test_html_replay import corpus_game, game_of, write_page

LAPTOP = (1280, 900)
PHONE = (390, 844)

pytestmark = pytest.mark.corpus


@pytest.fixture(scope="module")
def pages(corpus, tmp_path_factory) -> dict[str, Path]:
    """The whole game's page and S1's page of the first corpus hanchan."""
    source = corpus_game("hanchan")
    out = tmp_path_factory.mktemp("reading")
    full, _ = write_page(source, out / "game.html", with_doc=False)
    seat, _ = write_page(source, out / "seat1.html", "--seat", "1", with_doc=False)
    return {"source": source, "game": full, "seat": seat}


@contextmanager
def screen(driver, page: Path, width: int, height: int) -> Iterator[None]:
    """The page on a screen of exactly this size (the window's inner size: no browser frame)."""
    open_page(driver, page)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    try:
        driver.get(page.resolve().as_uri())
        assert driver.execute_script("return [innerWidth, innerHeight]") == [width, height]
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


# Every moment at which `seat` has danger marks (its decision, before its discard), as
# [hand label, step]; the page's own document says where.
DANGER_MOMENTS = """
const doc = TenhouReplay.document;
return doc.analysis.discards.filter((e) => e.seat === arguments[0] && e.danger && e.danger.length)
  .map((e) => [doc.hand_labels[e.hand], e.step - 1]);
"""

# At each moment: the marks' fills and tooltips, and the rects of the board, the legend and the marks.
AT_MOMENTS = """
const rect = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
return arguments[0].map(([label, step]) => {
  TenhouReplay.go(label, step);
  const legend = document.getElementById('danger-legend');
  const marks = [...document.querySelectorAll('#board rect.danger-mark')];
  return {where: label + ':' + step, scroll: scrollY, board: rect(document.getElementById('board')),
          legend: legend.hidden ? null : rect(legend),
          marks: marks.map((m) => [m.getAttribute('fill'), m.querySelector('title').textContent, rect(m)])};
});
"""


def _views(name: str) -> list[int]:
    """The seats whose marks a page shows: every seat on the whole game's page, S1 on S1's."""
    return [1] if name == "seat" else [0, 1, 2, 3]


def _moments(driver, name: str, seat: int) -> list[dict]:
    if name == "game":
        driver.execute_script("TenhouReplay.setView(arguments[0], true)", seat)
    moments = driver.execute_script(DANGER_MOMENTS, seat)
    assert moments, seat
    return driver.execute_script(AT_MOMENTS, moments)


@pytest.mark.parametrize("name", ["game", "seat"])
def test_the_board_its_marks_and_the_legend_are_in_view_on_a_laptop(browser, pages, name):
    """At 1280×900, at every decision with danger marks, the whole board (every seat's hand and
    pond, the centre), each mark under the viewed hand, on the felt, and the legend are in view
    without scrolling."""
    with screen(browser, pages[name], *LAPTOP):
        for seat in _views(name):
            for shown in _moments(browser, name, seat):
                board, legend = shown["board"], shown["legend"]
                assert shown["scroll"] == 0 and shown["marks"], shown["where"]
                assert board[1] >= 0 and board[3] <= LAPTOP[1], shown
                assert legend is not None and board[3] <= legend[1] and legend[3] <= LAPTOP[1], shown
                for _, _, mark in shown["marks"]:  # inside the board's felt, not cut at its edge
                    assert board[0] < mark[0] and mark[2] < board[2] and mark[3] <= board[3] - 1, (shown["where"], mark)


def _rgb(colour: str) -> tuple[int, ...]:
    if colour.startswith("#"):
        return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return tuple(int(x) for x in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3])


LEGEND = """
const legend = document.getElementById('danger-legend');
return [legend.textContent,
        [...legend.querySelectorAll('.mark')].map((m) => [m.textContent, getComputedStyle(m).backgroundColor])];
"""


def _buckets(browser) -> list[tuple[float, float, tuple[int, ...]]]:
    """The legend's buckets, safest first: (from, below, colour), from the rates its words say."""
    text, marks = browser.execute_script(LEGEND)
    assert [word for word, _ in marks] == ["safe", "low", "medium", "high"]
    bounds = [float(x) for x in re.findall(r"(\d+(?:\.\d+)?)%", text)]
    cuts = sorted(set(bounds))
    assert len(cuts) == len(marks) - 1, text  # "<1%", "1–5%", "5–10%", "≥10%": three cuts
    edges = [0.0, *cuts, float("inf")]
    return [(edges[i], edges[i + 1], _rgb(colour)) for i, (_, colour) in enumerate(marks)]


@pytest.mark.parametrize("name", ["game", "seat"])
def test_a_marks_colour_is_the_legends_bucket_of_the_highest_rate_its_tooltip_shows(browser, pages, name):
    """One ordering: a tile with a higher deal-in rate in its tooltip never has a safer mark
    than one with a lower rate, and each mark is the legend's colour for its rate."""
    open_page(browser, pages[name])
    buckets = _buckets(browser)
    colours = [c for _, _, c in buckets]
    seen = []
    for seat in _views(name):
        for shown in _moments(browser, name, seat):
            for fill, title, _ in shown["marks"]:
                rates = [float(r) for r in re.findall(r"\(([\d.]+)%\)", title)]
                assert rates, title
                rate = max(rates)
                (want,) = [c for low, high, c in buckets if low <= rate < high]
                assert _rgb(fill) == want, (shown["where"], title, fill)
                seen.append((rate, colours.index(_rgb(fill))))
    seen.sort()
    assert all(a[1] <= b[1] for a, b in itertools.pairwise(seen))
    assert len({bucket for _, bucket in seen}) >= 3  # the game's marks span the scale


OVERLAPS = """
const rect = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const centre = [...document.querySelectorAll(['> text', 'g.dora', 'g.ura', 'g.table-facts']
  .map((s) => '#board .centre-info ' + s).join(', '))];
const seats = [...document.querySelectorAll('#board g.seat')].flatMap((g) =>
  [...g.querySelectorAll('.seat-info text, .riichi-stick')]
    .map((e) => [`S${g.dataset.seat} ${e.getAttribute('class')}`, e]));
const hits = [];
for (const c of centre) {
  const a = rect(c);
  for (const [what, e] of seats) {
    const b = rect(e);
    const meet = a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
    if (meet) hits.push([c.getAttribute('class') || c.textContent, what]);
  }
}
return [document.querySelectorAll('#board g.ura g.tile').length, hits];
"""


@pytest.mark.parametrize(("width", "height"), [LAPTOP, PHONE])
def test_no_centre_text_sits_over_a_seat_when_the_ura_row_shows(browser, pages, width, height):
    """At every win of the game that turns ura indicators face up, viewed from each seat: the hand
    label, the dora and ura rows and the table's facts overlap no seat's name, score or riichi
    stick (the ura row used to push the label onto the top seat's name)."""
    game = game_of(pages["source"])
    wins = [(h.init.label(), h.events.index(e) + 1) for h in game.hands for e in h.endings
            if isinstance(e, Agari) and e.ura_indicators]
    assert wins
    with screen(browser, pages["game"], width, height):
        for label, step in wins:
            for seat in range(4):
                browser.execute_script("TenhouReplay.setView(arguments[0], true);"
                                       "TenhouReplay.go(arguments[1], arguments[2])", seat, label, step)
                ura, hits = browser.execute_script(OVERLAPS)
                assert ura and hits == [], (label, step, seat, hits)


TABLE = """
const panel = document.getElementById('summary-panel');
const rect = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
return {shown: !panel.hidden, rows: document.querySelectorAll('#analysis-summary tr[data-seat]').length,
        client: panel.clientWidth, scroll: panel.scrollWidth, panel: rect(panel),
        page: document.documentElement.scrollWidth,
        cells: [...document.querySelectorAll('#analysis-summary td')].map(rect)};
"""


@pytest.mark.parametrize(("width", "height"), [LAPTOP, (1000, 800), PHONE])
@pytest.mark.parametrize("name", ["game", "seat"])
def test_the_verdicts_table_fits_its_panel(browser, pages, name, width, height):
    """At the game's end the verdicts table is inside its panel, every cell in view: a table at
    1280 px, a seat's labelled lines where the panel is narrow; nothing scrolls sideways."""
    with screen(browser, pages[name], width, height):
        labels = browser.execute_script("return TenhouReplay.document.hand_labels")
        browser.execute_script("TenhouReplay.go(arguments[0], 'end')", labels[-1])
        shown = browser.execute_script(TABLE)
        assert shown["shown"] and shown["rows"] == (4 if name == "game" else 1), shown
        assert shown["scroll"] <= shown["client"] and shown["page"] <= width, shown
        left, _, right, _ = shown["panel"]
        assert right <= width
        for cell in shown["cells"]:
            assert left <= cell[0] and cell[2] <= right, (cell, shown["panel"])
        if width == LAPTOP[0]:  # a table: one row per seat
            assert browser.execute_script("return getComputedStyle(document.querySelector("
                                          "'#analysis-summary tr[data-seat]')).display") == "table-row"
