"""What the replay page promises (issue 26), in a real headless Chromium (tests/browser.py): the
text view's verdict on a log that stops early, nothing a seat cannot see in its view, names
isolated and never pushing the page wide, the honba of a double ron on its first winner, the ura
indicators face up and the net score changes, the keys, the laptop screen, auto-play, and every
number with its label."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli
from tenhou_tools.events import Agari

from .browser import browser, dom_board, open_page  # noqa: F401 - the fixture is found by name
from .conftest import FIXTURES
from .test_html_replay import corpus_game, game_of, write_page
from .test_replay_views import double_ron_on_one_honba


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], env={"COLUMNS": "200"})


def demo(tmp_path: Path) -> Path:
    from .demo_game import demo_hand

    source = tmp_path / "demo.xml"
    source.write_bytes(demo_hand())
    return source


def go(driver, position: int, step: int | str) -> None:
    driver.execute_script("TenhouReplay.go(arguments[0], arguments[1])", position, step)


def texts(driver, selector: str) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.textContent)", selector)


# -- #7 and #19: what a win collects, the ura indicators, the net changes -------------------------------


def test_the_second_winner_of_a_double_ron_shows_no_honba(browser, tmp_path):
    source = double_ron_on_one_honba(tmp_path)
    page, _ = write_page(source, tmp_path / "double.html", with_doc=False)
    open_page(browser, page)
    go(browser, 0, "end")
    first, second = texts(browser, "#result .result-extras")
    assert first.endswith(" · +1 honba and 1 riichi stick")
    assert "honba" not in second and "stick" not in second


def test_the_result_box_shows_the_net_change_as_the_text_does(browser, tmp_path):
    """S2's riichi stick is off its score: the hand's change is -1000 (the win's own score
    changes, 0 for S2, are the gross); the winner's +49000 is the 48000 and the stick."""
    source = demo(tmp_path)
    page, doc = write_page(source, tmp_path / "demo.html")
    (hand,) = doc["hands"]
    open_page(browser, page)
    go(browser, 0, "end")
    shown = browser.execute_script(
        "return [...document.querySelectorAll('#result .deltas li')].map(li => "
        "[+li.dataset.seat, +li.dataset.delta, +li.dataset.score, li.textContent])")
    assert [(seat, delta, score) for seat, delta, score, _ in shown] == [
        (s, hand["deltas"][s], hand["scores_after"][s]) for s in range(4)]
    assert hand["deltas"][2] == -1000 and hand["result"][0]["deltas"][2] == 0
    text = run("replay", source, "--ascii").stdout
    scores = next(line for line in text.splitlines() if line.startswith("Scores:"))
    for seat, delta, score, words in shown:  # the text view's numbers, seat by seat
        assert f"S{seat} {score} ({delta:+d})" in scores.replace("(0)", "(+0)")
        assert words.endswith(f" {score} ({delta:+d})".replace("(+0)", "(0)"))


@pytest.mark.corpus
@pytest.mark.parametrize("width", [1280, 375])
def test_a_riichi_win_turns_the_ura_indicators_face_up(browser, corpus, tmp_path, width):
    source = corpus_game("hanchan")
    game = game_of(source)
    position, hand, win = next((p, h, e) for p, h in enumerate(game.hands) for e in h.endings
                               if isinstance(e, Agari) and e.ura_indicators)
    page, _ = write_page(source, tmp_path / "game.html", with_doc=False)
    open_page(browser, page, width=width)
    step = hand.events.index(win) + 1
    ura = ("return [...document.querySelectorAll('#board g.ura g.tile')]"
           ".map(t => t.dataset.tile === undefined ? null : +t.dataset.tile)")
    go(browser, position, step - 1)
    assert browser.execute_script(ura) == []  # not before the win
    go(browser, position, step)
    assert [t for t in browser.execute_script(ura) if t is not None] == list(win.ura_indicators)
    assert dom_board(browser)["dora"] == list(win.dora_indicators)[:5]
    if width == 1280:  # the ura row sits inside the table's centre, above the facts
        box = browser.execute_script(
            "const c = document.querySelector('#board rect.centre').getBBox();"
            "const u = document.querySelector('#board g.ura').getBBox();"
            "const f = document.querySelector('#board g.table-facts').getBBox();"
            "return [c.y, c.y + c.height, u.y, u.y + u.height, f.y, f.y + f.height]")
        top, bottom, ura_top, ura_bottom, facts_top, facts_bottom = box
        assert top <= ura_top and ura_bottom <= facts_top and facts_bottom <= bottom
    extras = texts(browser, "#result .result-extras")
    assert any(" · ura " in e for e in extras)


# -- helpers for the tests below ----------------------------------------------------------------------


def page_of(tmp_path: Path, source: Path, *args: str) -> Path:
    page, _ = write_page(source, tmp_path / (source.stem + "".join(args).replace("-", "_") + ".html"), *args,
                         with_doc=False)
    return page


def doc_of(source: Path, *args: str) -> dict:
    return json.loads(run("replay", source, "--format", "json", *args).stdout)


FIXTURE = FIXTURES / "one_hand.xml"


# -- #2: a log that stops early is not "verified" on the page either ----------------------------------


def cut_log(tmp_path: Path) -> Path:
    """one_hand.xml without its result: the log stops before the hand (and the game) ends."""
    text = FIXTURE.read_text()
    path = tmp_path / "cut.xml"
    path.write_text(text[:text.index("<AGARI")] + "</mjloggm>")
    return path


def test_the_pages_verdict_is_the_texts(browser, tmp_path):
    tampered = tmp_path / "tampered.xml"
    tampered.write_text(FIXTURE.read_text().replace('ten="50,48000,5"', 'ten="50,36000,5"'))
    for source, verdict in ((FIXTURE, "verified"), (cut_log(tmp_path), "incomplete"), (tampered, "failed")):
        text = run("replay", source, "--ascii")
        assert text.exit_code == (0 if verdict == "verified" else 1)
        page = page_of(tmp_path, source)
        open_page(browser, page)
        shown = browser.execute_script(
            "const v = document.getElementById('game-verdict'); return [v.textContent, v.dataset.verdict]")
        assert shown == [text.stdout.splitlines()[-1], verdict]
        go(browser, 0, "end")
        hand_verdict = texts(browser, "#result .verdict")
        lines = text.stdout.splitlines()
        if verdict == "incomplete":
            assert shown[0].startswith("✗ Game not verified: the log ends before the game does")
            assert hand_verdict == [next(line for line in lines if line.startswith("… not verified"))]
            assert texts(browser, "#hand-list .verdict-mark") == ["…"]
        elif verdict == "verified":
            assert hand_verdict == ["✓ verified by the engine"]


# -- #3: nothing a seat cannot see reaches its view, at any step -------------------------------------

SEAT_VIEW = r"""
const entry = document.querySelector('#analysis .analysis-entry');
return {
  entry: entry ? +entry.dataset.seat : null,
  hidden_note: document.getElementById('analysis').textContent.includes('hidden from this seat'),
  deal_ins: document.querySelectorAll('#analysis .deal-in').length,
  results: [...document.querySelectorAll('#hand-list > li')].map(li => [+li.dataset.position,
            li.querySelector('.result-line').classList.contains('unseen'),
            li.querySelector('.result-line').textContent]),
  points: [...document.querySelectorAll('#score-chart circle.point')].filter(c => c.style.display !== 'none')
            .map(c => +c.dataset.position),
  standings: !document.getElementById('standings').hidden,
  ura: document.querySelectorAll('#board g.ura g.tile').length,
};
"""


SEAT_VIEW_AT_EVERY_STEP = (
    "const out = [];\n"
    "for (let step = 0; step <= arguments[1]; step++) {\n"
    "  TenhouReplay.go(arguments[0], step);\n"
    "  out.push([(() => {" + SEAT_VIEW + "})(), TenhouReplay.analysisAt()]);\n"
    "}\n"
    "return out;"
)
"""Steps 0 to ``arguments[1]`` of hand ``arguments[0]``, one after the other: at each, what
``SEAT_VIEW`` reads and the analysis entry of the moment (one call to the browser per hand)."""


def check_seat_view(driver, game, viewer: int, positions: list[int], doc: dict) -> int:
    """At every step of the hands, viewed from ``viewer`` without all hands: the analysis shown
    is the viewer's own (another seat's says it is hidden), a deal-in only from its ron on, no
    hand's result before its end, no later score on the chart, no standings before the end."""
    driver.execute_script("TenhouReplay.setView(arguments[0], false)", viewer)
    count = len(doc["progression"][0])
    checked = 0
    for position in positions:
        hand = game.hands[position]
        rons = [i + 1 for i, e in enumerate(hand.events) if isinstance(e, Agari) and not e.is_tsumo]
        steps = driver.execute_script(SEAT_VIEW_AT_EVERY_STEP, position, len(hand.events))
        assert len(steps) == len(hand.events) + 1
        for step, (shown, entry) in enumerate(steps):
            if entry is not None and entry["seat"] != viewer:
                assert shown["entry"] is None and shown["hidden_note"], (position, step)
            if shown["entry"] is not None:
                assert shown["entry"] == viewer
                on_it = [r for r in rons if entry["step"] < r <= entry["last_step"]]  # the rons on this discard
                assert shown["deal_ins"] == sum(1 for r in on_it if r <= step), (position, step)
            ended = step == len(hand.events)
            for pos, unseen, text in shown["results"]:
                reached = pos < position or (pos == position and ended)
                assert unseen == (not reached), (position, step, pos)
                if not reached:
                    assert "Ron" not in text and "Tsumo" not in text and "tenpai" not in text
            index = hand.index
            assert max(shown["points"]) == (index + 1 if ended else index), (position, step)
            assert shown["standings"] == (ended and index + 1 == count - 1)
            checked += 1
    return checked


def test_a_seats_view_of_the_demo_game(browser, tmp_path):
    source = demo(tmp_path)
    game = game_of(source)
    page, doc = write_page(source, tmp_path / "seat1.html", "--seat", "1")  # a seat's page: its own view only
    open_page(browser, page)
    assert check_seat_view(browser, game, 1, [0], doc) == len(game.hands[0].events) + 1
    page, doc = write_page(source, tmp_path / "demo.html")  # the whole game's page, viewed from a seat
    open_page(browser, page)
    for viewer in (1, 3):
        assert check_seat_view(browser, game, viewer, [0], doc) == len(game.hands[0].events) + 1
    browser.execute_script("TenhouReplay.setView(1, true)")  # all hands: everything, at once
    go(browser, 0, 0)
    shown = browser.execute_script(SEAT_VIEW)
    assert not any(unseen for _, unseen, _ in shown["results"]) and shown["standings"]
    assert max(shown["points"]) == len(doc["progression"][0]) - 1


@pytest.mark.corpus
def test_a_seats_view_of_a_corpus_double_ron(browser, corpus, tmp_path):
    source = corpus_game("double ron")
    game = game_of(source)
    position = next(p for p, h in enumerate(game.hands) if sum(isinstance(e, Agari) for e in h.endings) == 2)
    discarder = next(e.from_who for e in game.hands[position].endings)
    page, doc = write_page(source, tmp_path / "ron2.html")
    open_page(browser, page)
    for viewer in {discarder, (discarder + 1) % 4}:
        check_seat_view(browser, game, viewer, [position], doc)
    page, doc = write_page(source, tmp_path / "seat.html", "--seat", str(discarder))  # the discarder's page
    open_page(browser, page)
    check_seat_view(browser, game, discarder, [position], doc)


# -- #18: the page shows the entry the board document shows, at every step --------------------------------


def test_the_pages_analysis_moment_is_the_documents(browser, tmp_path):
    """sanma_kita.xml: the kita and its replacement draw lie between S0's draw and its discard."""
    source = FIXTURES / "sanma_kita.xml"
    page = page_of(tmp_path, source)
    open_page(browser, page)
    steps = len(game_of(source).hands[0].events)
    at_draw = browser.execute_script("return TenhouReplay.analysisAt(0, 1)")  # S0's draw, before its kita
    assert (at_draw["seat"], at_draw["event_index"]) == (0, 3)
    for step in range(steps + 1):
        board = json.loads(run("replay", source, "--at", f"E1-0:{step}", "--format", "json", "--analysis").stdout)
        expected = board["board"]["analysis"]
        assert browser.execute_script("return TenhouReplay.analysisAt(0, arguments[0])", step) == expected, step
        go(browser, 0, step)
        entry = browser.execute_script(
            "const e = document.querySelector('#analysis .analysis-entry'); return e && +e.dataset.eventIndex")
        assert entry == (None if expected is None else expected["event_index"]), step


# -- #4: names isolated, long names folded or cut with a title -----------------------------------------

BIDI = "\u202eevil"
"""A name with RIGHT-TO-LEFT OVERRIDE and nothing to end it: unisolated, it mirrors the text after it."""
LONG_NAME = "ｗ" * 60 + "x" * 150
"""A name far longer than Tenhou's (no space to fold at)."""

ISOLATION = r"""
const bad = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const text = node.nodeValue;
  if (node.parentElement.closest('script, noscript')) continue;  // the embedded data, not shown
  for (const name of arguments[0]) {
    let at = text.indexOf(name);
    while (at >= 0) {
      const inBdi = node.parentElement.closest('bdi');
      const isolated = text[at - 1] === '\u2068' && text[at + name.length] === '\u2069';
      if (!inBdi && !isolated) bad.push([node.parentElement.tagName, node.parentElement.id, text]);
      at = text.indexOf(name, at + 1);
    }
  }
}
for (const el of document.querySelectorAll('[title]')) {
  for (const name of arguments[0]) {
    const t = el.getAttribute('title');
    if (t.includes(name) && !t.includes('\u2068' + name + '\u2069') && el.tagName !== 'BDI') bad.push(['title', t]);
  }
}
return bad;
"""

ORDER = r"""
// x of the first character of `a` and of `b` inside the element's text (as laid out)
const el = arguments[0], a = arguments[1], b = arguments[2];
function x(s) {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.nodeValue.indexOf(s);
    if (at >= 0) {
      const r = document.createRange();
      r.setStart(node, at);
      r.setEnd(node, at + 1);
      return r.getBoundingClientRect().left;
    }
  }
  return null;
}
return [x(a), x(b)];
"""


@pytest.mark.parametrize("width", [1280, 375])
def test_names_are_isolated_and_never_push_the_page_wide(browser, tmp_path, width):
    from .test_cli_output import with_names

    source = tmp_path / "names.xml"
    source.write_text(with_names([BIDI, "Bob", LONG_NAME, "Dan"]))
    page = page_of(tmp_path, source, "--seat", "0")
    open_page(browser, page, width=width)
    for step in (0, 3, "end"):
        go(browser, 0, step)
        assert browser.execute_script(ISOLATION, [BIDI, LONG_NAME]) == [], step
        scroll, client = browser.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert scroll <= client, (step, scroll, client)
    # the text after the reversing name reads left to right: S0's points, start then end
    legend = browser.find_element("css selector", "#chart-legend li[data-seat='0']")
    first, last = browser.execute_script(ORDER, legend, ": 25000", "→ 73000")
    assert first is not None and last is not None and first < last
    player = browser.find_element("css selector", "#game-players .player[data-seat='0']")
    name_at, rate_at = browser.execute_script(ORDER, player, "evil", "(R")
    assert name_at < rate_at
    # the long name is cut where space is short, with the whole name as its title
    chip = browser.execute_script(
        "const b = document.querySelector(\"#seats .seat-chip[data-seat='2'] bdi.name\");"
        "return [b.scrollWidth > b.clientWidth, b.title]")
    assert chip == [True, LONG_NAME]
    board_title = browser.execute_script(
        "return [...document.querySelectorAll('#board g.seat[data-seat=\"2\"] text.name title')]"
        ".map(t => t.textContent)")
    assert board_title and all(LONG_NAME in t for t in board_title)


# -- #20: the keys step the game with the seat menu focused --------------------------------------------


def test_arrows_step_the_game_with_the_seat_menu_focused(browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    page = page_of(tmp_path, demo(tmp_path))
    open_page(browser, page)
    browser.execute_script("TenhouReplay.setView(2, false)")
    go(browser, 0, 5)
    browser.execute_script("document.getElementById('seat-select').focus()")
    keys = ActionChains(browser)
    for key, step in ((Keys.ARROW_RIGHT, 6), (Keys.ARROW_DOWN, 0), (Keys.ARROW_UP, 0), (Keys.END, 35),
                      (Keys.ARROW_LEFT, 34), (Keys.HOME, 0)):
        keys.send_keys(key).perform()
        shown = browser.execute_script("return TenhouReplay.state()")
        assert (shown["step"], shown["seat"]) == (step, 2), key
        assert browser.execute_script("return document.activeElement.id") == "seat-select"
    # the menu still chooses the seat
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", "seat-select")).select_by_value("1")
    assert browser.execute_script("return TenhouReplay.state()")["seat"] == 1


# -- #22: auto-play ----------------------------------------------------------------------------------


def wait_for(driver, script: str, *args) -> object:
    """Wait until the script returns something true (a wait, not a timing assertion)."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, 30, poll_frequency=0.05).until(lambda d: d.execute_script(script, *args))


def test_auto_play_steps_on_its_own_and_stops(browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    page = page_of(tmp_path, demo(tmp_path))
    open_page(browser, page)
    button = browser.find_element("id", "play")
    assert button.get_attribute("aria-pressed") == "false" and button.get_attribute("aria-label") == "Play"
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", "speed")).select_by_value("4")
    assert browser.execute_script("return TenhouReplay.state().speed") == 4
    button.click()
    assert button.get_attribute("aria-pressed") == "true" and button.get_attribute("aria-label") == "Pause"
    wait_for(browser, "return TenhouReplay.state().step >= 3")
    button.click()  # pause: it stays where it is
    paused = browser.execute_script("return TenhouReplay.state()")
    assert paused["playing"] is False and button.get_attribute("aria-pressed") == "false"
    browser.execute_script("return new Promise(r => setTimeout(r, 600))")
    assert browser.execute_script("return TenhouReplay.state().step") == paused["step"]
    # space plays too, and the game's end stops it
    go(browser, 0, 33)
    browser.execute_script("document.activeElement.blur()")
    ActionChains(browser).send_keys(Keys.SPACE).perform()
    assert browser.execute_script("return TenhouReplay.state().playing") is True
    wait_for(browser, "return !TenhouReplay.state().playing")
    assert browser.execute_script("return TenhouReplay.state()")["step"] == 35
    assert button.get_attribute("aria-pressed") == "false"


# -- #21: a laptop screen shows the controls, the board and one's own hand ---------------------------

IN_VIEW = r"""
const r = (s) => {
  const b = document.querySelector(s).getBoundingClientRect();
  return [b.top, b.bottom];
};
return {height: innerHeight, width: innerWidth, scroll: scrollY, controls: r('#controls'), board: r('#board'),
        own: r(`#board g.seat[data-seat="${arguments[0]}"] g.hand`),
        layout: document.getElementById('board').dataset.layout};
"""


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (1366, 768), (375, 740)])
def test_the_controls_the_board_and_ones_own_hand_fit_the_screen(browser, tmp_path, width, height):
    source = demo(tmp_path)
    seat_page = page_of(tmp_path, source, "--seat", "2")
    page = page_of(tmp_path, source)
    open_page(browser, page)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    try:
        for path, seat in ((seat_page, 2), (page, 2), (page, 0)):  # S2's page; the whole game's, from S2 and S0
            browser.get(path.resolve().as_uri() + "#E1-0:20")
            browser.execute_script("TenhouReplay.setView(arguments[0], false)", seat)
            shown = browser.execute_script(IN_VIEW, seat)
            assert (shown["width"], shown["height"], shown["scroll"]) == (width, height, 0)
            assert shown["controls"][0] >= 0 and shown["controls"][1] <= height, shown
            assert shown["own"][0] >= 0 and shown["own"][1] <= height, shown  # one's own hand, whole
            if shown["layout"] == "table":  # the whole table, the own hand at its bottom edge
                assert shown["board"][1] <= height, shown
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


# -- #23: every number a person reads carries its label ------------------------------------------------


def test_the_pages_numbers_carry_their_label(browser, tmp_path):
    tampered = tmp_path / "tampered.xml"
    tampered.write_text(FIXTURE.read_text().replace('ten="50,48000,5"', 'ten="50,36000,5"'))
    page = page_of(tmp_path, tampered)
    open_page(browser, page)
    go(browser, 0, 5)
    assert texts(browser, "#event-text .step-no") == ["E1-0 step 5 of 5:"]
    assert browser.find_element("id", "position").text == "E1-0 · step 5 / 5"
    assert texts(browser, ".finding-jump")[0].startswith("✗ AGARI_POINTS (step 5): ")
    go(browser, 0, 0)
    assert texts(browser, "#event-text .step-no") == ["E1-0, the deal:"]


@pytest.mark.corpus
def test_the_chart_of_one_hand_names_every_hand(browser, corpus, tmp_path):
    source = corpus_game("hanchan")
    game = game_of(source)
    label = game.hands[2].init.label()
    page = page_of(tmp_path, source, "--hand", label)
    open_page(browser, page)
    ticks = texts(browser, "#score-chart text.tick")
    assert label in ticks and not any(t.startswith("#") for t in ticks)
    assert set(ticks) - {"end"} <= {h.init.label() for h in game.hands} | {t for t in ticks if t.lstrip("-").isdigit()}


# -- the layout of the verdicts over the game ----------------------------------------------------------

ONE_LINE_HEADERS = """
const row = document.querySelector(arguments[0] + ' tr');
const lines = [...row.querySelectorAll('th')].map((th) => {
  const range = document.createRange();
  range.selectNodeContents(th);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
});
const th = row.querySelector('th');
const style = getComputedStyle(th);
const line = parseFloat(style.lineHeight) + parseFloat(style.paddingTop) + parseFloat(style.paddingBottom)
  + parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth);
return {lines: lines, height: row.getBoundingClientRect().height, line: line,
        table: document.querySelector(arguments[0]).getBoundingClientRect().right,
        box: document.querySelector(arguments[0]).parentElement.getBoundingClientRect().right};
"""


def test_the_verdicts_header_is_one_line_at_a_laptop_width(browser, tmp_path):
    """At 1280 px the verdicts over the game are a table in the side column: its header is one
    line high (it wrapped over three), each header's text one line, and the table fits its panel."""
    open_page(browser, page_of(tmp_path, demo(tmp_path)), width=1280)
    shown = browser.execute_script(ONE_LINE_HEADERS, "#analysis-summary")
    assert shown["lines"] == [1] * 9, shown
    assert abs(shown["height"] - shown["line"]) <= 1, shown
    assert shown["table"] <= shown["box"], shown
    assert browser.execute_script("return [...document.querySelectorAll('#analysis-summary th[title]')]"
                                  ".map((th) => [th.textContent, th.title])") == [
        ["ev lost", "ev lost a choice"], ["into riichi", "dealt into riichi"]]  # the words in full
