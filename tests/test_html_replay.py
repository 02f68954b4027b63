"""The offline HTML replay page in a real headless Chromium (tests/browser.py).

Each page is written by ``tenhou-tools replay SOURCE --html FILE`` and loaded from ``file://``.
The tests step to moments of the game and compare what the page's DOM shows (each seat's
concealed tiles, pond, melds and score, the dora indicators, the wall, honba and sticks) with
``tests/board_tracker.py``, which follows the same events in Python and is itself checked
against what the log shows at each hand's end. They also drive the keyboard, buttons and
controls, check that hidden hands stay hidden, that log text stays text, and that the page
asks the network for nothing.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tenhou_tools.analysis import DealIn
from tenhou_tools.cli import cli
from tenhou_tools.cli.analysis_render import deal_in_text
from tenhou_tools.cli.render import describe_agari, describe_draw
from tenhou_tools.events import Agari, Call, CallKind, Discard, Draw, Game, Riichi, Ryuukyoku
from tenhou_tools.formats import load_game
from tenhou_tools.replay.fold import hand_boards
from tenhou_tools.rules.danger import DangerClass
from tenhou_tools.sources.files import read_game
from tenhou_tools.views.html import replay_page

from .board_tracker import board_at, check_against_log
from .browser import browser, dom_board, open_page, requests  # noqa: F401 - the fixture is found by name
from .conftest import FIXTURES, corpus_files
from .tamper import elements, nth, serialize, xml_of

# -- pages -------------------------------------------------------------------------------------


def write_page(source: Path, out: Path, *args: str, with_doc: bool = True) -> tuple[Path, dict]:
    """``replay SOURCE --html OUT`` (and the same game's ``--format json`` document)."""
    result = CliRunner().invoke(cli, ["replay", str(source), "--html", str(out), *args])
    assert result.exit_code in (0, 1), result.output
    assert out.is_file()
    if not with_doc:
        return out, {}
    doc = json.loads(CliRunner().invoke(cli, ["replay", str(source), "--format", "json", *args]).stdout)
    return out, doc


def game_of(path: Path) -> Game:
    return load_game(xml_of(path), source=str(path))


def result_words(game: Game, position: int) -> list[str]:
    """The text view's words for the hand's results: the page composes its own from the
    document's data, and says the same."""
    n = game.header.ruleset.players
    return [describe_agari(e) if isinstance(e, Agari) else describe_draw(e, n) for e in game.hands[position].endings]


def deal_in_words(deal: dict) -> str:
    """The text view's words for a deal-in of the document."""
    cls = DangerClass(deal["tile_class"]) if deal.get("tile_class") else None
    return deal_in_text(DealIn(deal["discarder"], deal["winner"], deal["tile"], tuple(deal["waits"]), deal["riichi"],
                               deal["open"], deal["points"], cls))


@functools.cache
def corpus_game(feature: str) -> Path:
    """The first corpus game (in path order) that has ``feature``."""
    for path in corpus_files("mjlog"):
        game = read_game(path)
        if _has(game, feature):
            return path
    raise LookupError(f"no corpus game with {feature}")


def _has(game: Game, feature: str) -> bool:
    rules = game.header.ruleset
    if feature == "hanchan":  # four players, East-South, with riichi, calls and a kan
        events = [e for h in game.hands for e in h.events]
        return (rules.players == 4 and rules.east_south and len(game.hands) >= 8
                and any(isinstance(e, Call) and e.meld.kind.is_kan for e in events))
    if feature == "sanma":  # three players, East-South, kita and a kan
        events = [e for h in game.hands for e in h.events]
        return (rules.players == 3 and rules.east_south and len(game.hands) >= 6
                and any(isinstance(e, Call) and e.meld.kind is CallKind.ADDED_KAN for e in events))
    if feature == "double ron":
        return rules.players == 4 and any(sum(isinstance(e, Agari) for e in h.endings) == 2 for h in game.hands)
    if feature == "abortive":  # nine terminals: the declarer's hand is shown
        return any(isinstance(e, Ryuukyoku) and e.kind.value == "yao9" for h in game.hands for e in h.endings)
    raise ValueError(feature)


# -- comparing the DOM with the tracker ------------------------------------------------------------


def assert_board(shown: dict, game: Game, position: int, step: int, *, viewer: int | None = None,
                 all_hands: bool = True) -> None:
    """The page's DOM shows the tracker's board for this moment, from this seat."""
    hand = game.hands[position]
    n = game.header.ruleset.players
    expected = board_at(hand, n, step)
    where = f"{hand.init.label()}:{step}"
    assert (shown["hand"], shown["step"]) == (hand.init.label(), step), where
    assert sorted(shown["seats"], key=int) == [str(s) for s in range(n)], where
    event = hand.events[step - 1] if step else None
    for s, seat in enumerate(expected.seats):
        dom = shown["seats"][str(s)]
        visible = all_hands or viewer is None or s == viewer or seat.shown is not None
        if visible:
            concealed = seat.shown if seat.shown is not None else seat.hand
            assert sorted(dom["hand"]) == sorted(concealed), (where, s)
            assert dom["hidden"] is False, (where, s)
            if isinstance(event, Draw) and event.seat == s:
                assert dom["extra"] == [[event.tile, "drawn"]], (where, s)
            plain = [t for t in dom["hand"] if [t, "drawn"] not in dom["extra"] and [t, "win"] not in dom["extra"]]
            assert [t >> 2 for t in plain] == sorted(t >> 2 for t in plain), (where, s)  # sorted by kind
        else:
            assert dom["hand"] == [None] * len(seat.hand), (where, s)
            assert dom["hidden"] is True, (where, s)
        assert dom["pond"] == [[p.tile, p.tsumogiri, p.riichi, p.called] for p in seat.pond], (where, s)
        assert [(kind, tiles) for kind, tiles, _ in dom["melds"]] == [(k, list(t)) for k, t in seat.melds], (where, s)
        for kind, tiles, faces in dom["melds"]:
            if kind == "closed_kan":  # the two end tiles face down
                assert faces[0] is None and faces[3] is None and sorted(faces[1:3]) == sorted(tiles[1:3])
            else:
                assert sorted(faces) == sorted(tiles), (where, s)
        assert dom["score"] == seat.score and dom["score_text"] == str(seat.score), (where, s)
        assert shown["chips"][str(s)]["score"] == str(seat.score), (where, s)
    assert shown["dora"] == expected.dora[:5], where
    assert (shown["wall"], shown["honba"], shown["sticks"]) == (expected.wall, expected.honba, expected.sticks), where
    assert f"{expected.honba} honba" in shown["facts_text"] and f"{expected.wall} " in shown["facts_text"], where
    assert f"{expected.sticks} stick" in shown["facts_text"], where


def sample_steps(count: int, every: int) -> list[int]:
    return sorted({0, count, *range(0, count + 1, every)})


def check_game(driver, page: Path, game: Game, *, every: int = 1, hands: list[int] | None = None,
               width: int = 1280, **view) -> int:
    """Walk the game's hands at the given steps; returns how many moments were compared."""
    open_page(driver, page, width=width)
    n = game.header.ruleset.players
    compared = 0
    for position in hands if hands is not None else range(len(game.hands)):
        hand = game.hands[position]
        for step in sample_steps(len(hand.events), every):
            assert_board(dom_board(driver, position, step), game, position, step, **view)
            compared += 1
        assert n == len(dom_board(driver)["seats"])
    return compared


# -- the fixtures: a four-player and a three-player game, every step -------------------------------


def test_tracker_agrees_with_the_fixtures_logs():
    for name in ("one_hand.xml", "sanma_kita.xml"):
        game = game_of(FIXTURES / name)
        after = json.loads(CliRunner().invoke(cli, ["replay", str(FIXTURES / name), "--format", "json"]).stdout)
        for hand, doc_hand in zip(game.hands, after["hands"], strict=True):
            check_against_log(hand, game.header.ruleset.players, doc_hand["scores_after"])


def test_four_player_fixture_every_step(browser, tmp_path):
    page, _doc = write_page(FIXTURES / "one_hand.xml", tmp_path / "one.html")
    game = game_of(FIXTURES / "one_hand.xml")
    assert check_game(browser, page, game) == len(game.hands[0].events) + 1
    last = dom_board(browser, 0, len(game.hands[0].events))
    assert last["result_text"] == result_words(game, 0) == ["Ron S0<-S1 48000 (yakuman: daisangen)"]
    assert last["seats"]["0"]["extra"] == [[game.hands[0].endings[0].win_tile, "win"]]


def test_three_player_fixture_every_step_with_kita(browser, tmp_path):
    page, _ = write_page(FIXTURES / "sanma_kita.xml", tmp_path / "sanma.html")
    game = game_of(FIXTURES / "sanma_kita.xml")
    check_game(browser, page, game)
    # the wall of a three-player game starts at 55; kita is a meld of its own
    start = dom_board(browser, 0, 0)
    assert start["wall"] == 55 and set(start["seats"]) == {"0", "1", "2"}
    kita = next(i for i, e in enumerate(game.hands[0].events, 1)
                if isinstance(e, Call) and e.meld.kind is CallKind.KITA)
    assert [m[0] for m in dom_board(browser, 0, kita)["seats"]["0"]["melds"]] == ["kita"]


def test_demo_game_every_step_from_two_seats(browser, tmp_path):
    """Tsumogiri, a chi, a pon, a riichi (sideways tile, stick), a ron with a stick collected."""
    from .demo_game import demo_hand

    source = tmp_path / "demo.xml"
    source.write_bytes(demo_hand())
    game = game_of(source)
    check_against_log(game.hands[0], 4, [74000, -23000, 24000, 25000])
    page, _ = write_page(source, tmp_path / "demo.html")
    check_game(browser, page, game)
    page, _ = write_page(source, tmp_path / "demo3.html", "--seat", "3")
    check_game(browser, page, game, viewer=3, all_hands=False)
    check_game(browser, page, game, viewer=3, all_hands=False, width=375)
    riichi = next(i for i, e in enumerate(game.hands[0].events, 1) if isinstance(e, Riichi) and e.step == 2)
    shown = dom_board(browser, 0, riichi)
    assert shown["chips"]["2"]["riichi"] and shown["sticks"] == 1


def test_phone_width_draws_the_same_board(browser, tmp_path):
    page, _ = write_page(FIXTURES / "sanma_kita.xml", tmp_path / "sanma.html")
    game = game_of(FIXTURES / "sanma_kita.xml")
    check_game(browser, page, game, width=375)
    assert dom_board(browser)["layout"] == "stack"
    # nothing sticks out sideways on a phone
    width = browser.execute_script("return document.documentElement.clientWidth")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    open_page(browser, page, width=1280)
    assert dom_board(browser)["layout"] == "table"


# -- the corpus: a hanchan, a three-player game, a double ron, an abortive draw -------------------


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    out = tmp_path_factory.mktemp("pages")
    made: dict[str, tuple[Path, Game, dict]] = {}

    def page(feature: str) -> tuple[Path, Game, dict]:
        if feature not in made:
            source = corpus_game(feature)
            path, doc = write_page(source, out / f"{feature.replace(' ', '_')}.html")
            game = game_of(source)
            for hand, doc_hand in zip(game.hands, doc["hands"], strict=True):
                check_against_log(hand, game.header.ruleset.players, doc_hand["scores_after"])
            made[feature] = (path, game, doc)
        return made[feature]

    return page


@pytest.mark.corpus
def test_corpus_hanchan(browser, corpus, pages):
    page, game, doc = pages("hanchan")
    assert check_game(browser, page, game, every=9) > 100
    # the hand list has every hand with its result and verdict; the chart every point
    items = browser.execute_script(
        "return [...document.querySelectorAll('#hand-list > li')]"
        ".map(li => li.querySelector('.hand-jump').textContent)")
    assert len(items) == len(doc["hands"])
    for position, (text, hand) in enumerate(zip(items, doc["hands"], strict=True)):
        assert text.startswith(hand["label"] + "✓")
        for words in result_words(game, position):
            assert words in text
    points = browser.execute_script(
        "return [...document.querySelectorAll('#score-chart circle.point')]"
        ".map(c => [+c.dataset.seat, +c.dataset.score])")
    assert points == [[s, v] for s, line in enumerate(doc["progression"]) for v in line]


@pytest.mark.corpus
def test_corpus_one_hand_of_a_hanchan(browser, corpus, pages, tmp_path):
    """With --hand the page holds that hand; the chart still spans the game, marking the hand."""
    _, game, doc = pages("hanchan")
    label = game.hands[3].init.label()
    page, one = write_page(corpus_game("hanchan"), tmp_path / "one.html", "--hand", label)
    assert [h["label"] for h in one["hands"]] == [label]
    only = Game(game.header, (game.hands[3],), log_id=game.log_id)
    check_game(browser, page, only, every=5)
    chart = browser.execute_script("""
        const now = document.getElementById('chart-now').getAttribute('x1');
        const xs = [...document.querySelectorAll('#score-chart circle.point[data-seat="0"]')]
          .map(c => c.getAttribute('cx'));
        return [xs.indexOf(now), xs.length];""")
    assert chart == [3, len(doc["progression"][0])]


@pytest.mark.corpus
def test_corpus_three_player_game(browser, corpus, pages):
    page, game, _ = pages("sanma")
    check_game(browser, page, game, every=7)
    kakan = next((p, i) for p, h in enumerate(game.hands) for i, e in enumerate(h.events, 1)
                 if isinstance(e, Call) and e.meld.kind is CallKind.ADDED_KAN)
    assert_board(dom_board(browser, *kakan), game, *kakan)
    check_game(browser, page, game, every=11, width=375)


@pytest.mark.corpus
def test_corpus_double_ron(browser, corpus, pages):
    page, game, _doc = pages("double ron")
    position = next(p for p, h in enumerate(game.hands) if sum(isinstance(e, Agari) for e in h.endings) == 2)
    check_game(browser, page, game, hands=[position])
    hand = game.hands[position]
    end = dom_board(browser, position, len(hand.events))
    assert end["result_text"] == result_words(game, position)
    assert len(end["result_text"]) == 2
    winners = [e.who for e in hand.endings]
    for who, ending in zip(winners, hand.endings, strict=True):
        assert end["seats"][str(who)]["extra"] == [[ending.win_tile, "win"]]


@pytest.mark.corpus
def test_corpus_abortive_draw(browser, corpus, pages):
    page, game, _doc = pages("abortive")
    position = next(p for p, h in enumerate(game.hands) if any(
        isinstance(e, Ryuukyoku) and e.kind.value == "yao9" for e in h.endings))
    hand = game.hands[position]
    ending = hand.endings[0]
    declarer = next(s for s, shown in enumerate(ending.hands) if shown is not None)
    viewer = (declarer + 1) % game.header.ruleset.players
    open_page(browser, page)
    browser.execute_script(f"TenhouReplay.setView({viewer}, false)")
    check_game(browser, page, game, hands=[position])  # all hands (the page's default)
    browser.execute_script(f"TenhouReplay.setView({viewer}, false)")
    for step in range(len(hand.events) + 1):
        assert_board(dom_board(browser, position, step), game, position, step, viewer=viewer, all_hands=False)
    end = dom_board(browser, position, len(hand.events))
    assert end["result_text"] == result_words(game, position)
    assert "Nine" in end["result_text"][0] or "nine" in end["result_text"][0]
    # the declarer's hand is shown at the end even though the page is viewed from another seat
    assert end["seats"][str(declarer)]["hidden"] is False


# -- the same without the corpus: hand-made logs (tests/scenario.py) ------------------------------------


def _agari_tag(b, who: int, from_who: int, win_tile: int, sc: str, owari: bool) -> str:
    hand = sorted(b.hands[who] + [win_tile])
    return (f'<AGARI ba="0,0" hai="{",".join(map(str, hand))}" machi="{win_tile}" ten="30,1000,0" yaku="1,1" '
            f'doraHai="{b.dora}" who="{who}" fromWho="{from_who}" sc="{sc}"'
            + (' owari="250,0.0,250,0.0,250,0.0,250,0.0"' if owari else "") + "/>")


def test_hand_made_double_ron_and_abortive_draw(browser, tmp_path):
    from .scenario import Scenario

    b = Scenario(hands=["19m19p19s1234567z", "123456789m123p5p", "123456789s1114z", "2468m2468p2468s3z"]).begin()
    b.turn(0, "5p")  # S0 draws 5p and lets it go: S1 and S2 both wait on it
    five = int(b.tags[-1][2:-2])
    ends = (_agari_tag(b, 1, 0, five, "250,-10,250,10,250,0,250,0", False)
            + _agari_tag(b, 2, 0, five, "240,-10,260,0,250,10,250,0", True))
    double = tmp_path / "double.xml"
    double.write_bytes(b.xml(ends))
    page, _doc = write_page(double, tmp_path / "double.html")
    game = game_of(double)
    check_game(browser, page, game)
    end = dom_board(browser, 0, len(game.hands[0].events))
    assert end["result_text"] == result_words(game, 0) and len(end["result_text"]) == 2
    assert [end["seats"][s]["extra"] for s in ("1", "2")] == [[[five, "win"]], [[five, "win"]]]

    b = Scenario(hands=["19m19p19s1234567z", "123456789m123p1z", "12345678s12224z", "2468m2468p2468s1z"]).begin()
    for seat in range(4):  # the four first discards are the same wind
        b.draw(seat, ("5p", "7p", "5p", "7p")[seat])
        b.discard(seat, "1z")
    aborted = tmp_path / "kaze4.xml"
    aborted.write_bytes(b.ryuukyoku("kaze4"))
    page, _doc = write_page(aborted, tmp_path / "kaze4.html")
    game = game_of(aborted)
    check_game(browser, page, game)
    end = dom_board(browser, 0, len(game.hands[0].events))
    assert end["result_text"] == result_words(game, 0) == ["Abortive draw: four winds"]


def test_hand_made_findings_jump(browser, tmp_path):
    from .demo_game import demo_hand

    root, kids = elements(demo_hand())
    nth(kids, "AGARI").set("ten", "40,32000,5")
    altered = tmp_path / "altered.xml"
    altered.write_bytes(serialize(root))
    page, doc = write_page(altered, tmp_path / "altered.html")
    game = game_of(altered)
    (finding,) = doc["hands"][0]["findings"]
    open_page(browser, page)
    browser.find_element("css selector", "#hand-list .finding-jump").click()
    shown = dom_board(browser)
    assert_board(shown, game, 0, finding["event_index"] + 1)
    assert finding["code"] in shown["event_text"] and "✗" in shown["event_text"]


# -- findings: a tampered log ------------------------------------------------------------------------


@pytest.mark.corpus
def test_findings_list_and_jump(browser, corpus, tmp_path):
    source = corpus_game("hanchan")
    root, kids = elements(xml_of(source))
    agari = nth(kids, "AGARI", 1)
    fu, points, limit = agari.get("ten").split(",")
    agari.set("ten", f"{fu},{int(points) + 1000},{limit}")
    altered = tmp_path / "altered.xml"
    altered.write_bytes(serialize(root))
    page, doc = write_page(altered, tmp_path / "altered.html")
    game = game_of(altered)
    flagged = [(p, f) for p, h in enumerate(doc["hands"]) for f in h["findings"]]
    assert flagged and not doc["ok"]
    open_page(browser, page)
    assert "not verified" in browser.find_element("id", "game-verdict").text
    position, finding = flagged[0]
    item = browser.find_element("css selector", f"#hand-list > li[data-position='{position}']")
    assert "✗" in item.find_element("css selector", ".verdict-mark").text
    button = item.find_element("css selector", ".finding-jump")
    assert finding["code"] in button.text
    button.click()
    step = finding["event_index"] + 1
    shown = dom_board(browser)
    assert_board(shown, game, position, step)
    assert finding["code"] in shown["event_text"]
    # the other hands stay ✓
    marks = browser.execute_script(
        "return [...document.querySelectorAll('#hand-list .verdict-mark')].map(m => m.textContent)")
    assert [m == "✗" for m in marks] == [not h["ok"] for h in doc["hands"]]


# -- controls ------------------------------------------------------------------------------------


def test_keyboard_and_buttons(browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    source = FIXTURES / "one_hand.xml"
    page, _ = write_page(source, tmp_path / "one.html")
    game = game_of(source)
    steps = len(game.hands[0].events)
    open_page(browser, page)
    keys = ActionChains(browser)

    def press(key, times=1):
        for _ in range(times):
            keys.send_keys(key).perform()
        return dom_board(browser)

    assert press(Keys.ARROW_RIGHT)["step"] == 1
    assert press(Keys.ARROW_RIGHT, 2)["step"] == 3
    assert press(Keys.ARROW_LEFT)["step"] == 2
    assert press(Keys.END)["step"] == steps
    assert press(Keys.ARROW_RIGHT)["step"] == steps  # the last moment of the game stays
    assert press(Keys.HOME)["step"] == 0
    assert press(Keys.ARROW_DOWN)["step"] == 0  # one hand: ↓ has nowhere to go
    browser.find_element("id", "next-step").click()
    browser.find_element("id", "next-step").click()
    assert_board(dom_board(browser), game, 0, 2)
    browser.find_element("id", "prev-step").click()
    assert dom_board(browser)["step"] == 1
    assert browser.execute_script("return location.hash") == "#E1-0:1"


NOTICE = "return [document.getElementById('moment-notice').hidden, document.getElementById('moment-notice').innerText]"


@pytest.mark.parametrize(("moment", "notice"), [
    ("E3-0:2", "The address asks for “E3-0:2”, but this game has no hand E3-0 (its one hand: E1-0): showing the "
               "first deal, E1-0 step 0."),
    ("e1-0:99", "The address asks for “e1-0:99”, but hand E1-0 has no step 99 (its steps: 0 to 5): showing the "
                "first deal, E1-0 step 0."),
    ("step-3", "The address asks for “step-3”, which is not a moment (HAND:STEP, such as E1-0:5): showing the first "
               "deal, E1-0 step 0."),
    ("<img src=x onerror=window.pwned=1>%E2%80%AE", "The address asks for “<img src=x onerror=window.pwned=1>\\u202e”, "
                                                    "which is not a moment (HAND:STEP, such as E1-0:5): showing the "
                                                    "first deal, E1-0 step 0."),
    ("E1-0:%E0%A4%A", "The address asks for “E1-0:%E0%A4%A”, which is not a moment (HAND:STEP, such as E1-0:5): "
                      "showing the first deal, E1-0 step 0."),
], ids=["unknown hand", "step past the end", "no moment", "markup and a bidi control", "a broken escape"])
def test_a_moment_the_game_does_not_have_opens_the_first_deal_and_says_so(browser, tmp_path, moment, notice):
    """An address that names no moment of the game (an unknown hand, a step past the hand's end,
    no moment at all) opens the first deal, and a notice says what was asked and what there is:
    text, never markup (a character that would hide or reorder text shown as its escape). The
    next move clears it."""
    page, _ = write_page(FIXTURES / "one_hand.xml", tmp_path / "one.html")
    game = game_of(FIXTURES / "one_hand.xml")
    open_page(browser, page, moment=moment)
    assert_board(dom_board(browser), game, 0, 0)
    assert browser.execute_script(NOTICE) == [False, notice]
    assert browser.execute_script("return document.querySelectorAll('#moment-notice *').length") == 0
    assert browser.execute_script("return window.pwned") is None
    assert browser.execute_script("return location.hash") == "#E1-0:0"  # the address says what is shown
    browser.find_element("id", "next-step").click()
    assert dom_board(browser)["step"] == 1
    assert browser.execute_script(NOTICE) == [True, ""]


def test_a_moment_the_game_has_shows_no_notice(browser, tmp_path):
    page, _ = write_page(FIXTURES / "one_hand.xml", tmp_path / "one.html")
    for moment in ("E1-0:3", "E1-0", "E1-0:5", None):
        open_page(browser, page, moment=moment)
        assert browser.execute_script(NOTICE) == [True, ""], moment
    open_page(browser, page, moment="E1-0:3")  # an address changed while the page is open is read the same way
    browser.execute_script("history.replaceState(null, '', '#S4-0:1');"
                           "window.dispatchEvent(new HashChangeEvent('hashchange'))")  # as the browser does, at once
    assert browser.execute_script(NOTICE)[0] is False and dom_board(browser)["step"] == 0


@pytest.mark.corpus
def test_arrows_cross_hands(browser, corpus, pages):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    page, game, _ = pages("hanchan")
    open_page(browser, page)
    keys = ActionChains(browser)
    keys.send_keys(Keys.ARROW_DOWN).perform()
    keys.send_keys(Keys.ARROW_DOWN).perform()
    assert (dom_board(browser)["hand"], dom_board(browser)["step"]) == (game.hands[2].init.label(), 0)
    keys.send_keys(Keys.ARROW_UP).perform()
    assert dom_board(browser)["hand"] == game.hands[1].init.label()
    keys.send_keys(Keys.ARROW_LEFT).perform()  # step 0 of a hand, back: the previous hand's end
    shown = dom_board(browser)
    assert (shown["hand"], shown["step"]) == (game.hands[0].init.label(), len(game.hands[0].events))
    keys.send_keys(Keys.ARROW_RIGHT).perform()
    assert (dom_board(browser)["hand"], dom_board(browser)["step"]) == (game.hands[1].init.label(), 0)
    # a hand from the list, and a moment from the address
    browser.find_element("css selector", "#hand-list > li[data-position='3'] .hand-jump").click()
    assert_board(dom_board(browser), game, 3, 0)
    label = game.hands[4].init.label()
    open_page(browser, page, moment=f"{label}:17")
    assert_board(dom_board(browser), game, 4, 17)


def test_seat_view_hides_other_hands(browser, tmp_path):
    from selenium.webdriver.support.ui import Select

    source = FIXTURES / "one_hand.xml"
    page, _ = write_page(source, tmp_path / "seat1.html", "--seat", "1")
    game = game_of(source)
    open_page(browser, page)
    for step in range(len(game.hands[0].events) + 1):
        shown = dom_board(browser, 0, step)
        assert_board(shown, game, 0, step, viewer=1, all_hands=False)
        event = game.hands[0].events[step - 1] if step else None
        if isinstance(event, Draw) and event.seat != 1:  # nobody learns what another seat drew
            assert "draws a tile" in shown["event_text"]
    # a seat's page holds no other view: no seat menu, no "all hands" (tests/test_html_seat.py)
    assert browser.execute_script(
        "return [...document.querySelectorAll('#controls .view label')].map(l => l.hidden)") == [True, True]
    assert browser.execute_script("return TenhouReplay.setView(2, true)")["seat"] == 1
    # the whole game's page, viewed from a seat: the menu and "all hands" choose what it shows
    page, _ = write_page(source, tmp_path / "all.html", with_doc=False)
    open_page(browser, page)
    browser.find_element("id", "all-hands").click()
    Select(browser.find_element("id", "seat-select")).select_by_value("2")
    assert_board(dom_board(browser, 0, 1), game, 0, 1, viewer=2, all_hands=False)
    browser.find_element("id", "all-hands").click()
    assert_board(dom_board(browser), game, 0, 1, viewer=2, all_hands=True)
    # from seat 2, the right-hand neighbour is seat 3 (the table turns with the viewer)
    rel = browser.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#board g.seat')]"
        ".map(g => [g.dataset.seat, g.dataset.rel]))")
    assert rel == {"2": "0", "3": "1", "0": "2", "1": "3"}


# -- safety: log text is data, and nothing is fetched ---------------------------------------------------


HOSTILE = ["</script><script>window.pwned=1</script>", "<!--", "<img src=x onerror=window.pwned=2>", "&amp; \u2028"]


def test_player_names_are_text_not_markup(browser, tmp_path):
    from urllib.parse import quote

    root, kids = elements(xml_of(FIXTURES / "one_hand.xml"))
    un = nth(kids, "UN")
    for seat, name in enumerate(HOSTILE):
        un.set(f"n{seat}", quote(name))
    hostile = tmp_path / "hostile.xml"
    hostile.write_bytes(serialize(root))
    page, doc = write_page(hostile, tmp_path / "hostile.html")
    assert [p["name"] for p in doc["header"]["players"]] == HOSTILE
    open_page(browser, page)
    assert browser.execute_script("return window.pwned") is None
    assert browser.execute_script("return document.querySelectorAll('img').length") == 0
    assert browser.execute_script("return document.scripts.length") == 2
    names = [c["who"] for _, c in sorted(dom_board(browser)["chips"].items())]
    assert names == [f"S{s} {name}" for s, name in enumerate(HOSTILE)]
    embedded = browser.execute_script("return TenhouReplay.document.header.players.map(p => p.name)")
    assert embedded == HOSTILE


def test_no_request_leaves_the_page(browser, tmp_path):
    page, _ = write_page(FIXTURES / "one_hand.xml", tmp_path / "one.html", "--seat", "0")
    open_page(browser, page)
    for _ in range(6):
        browser.execute_script("TenhouReplay.step(1)")
    browser.execute_script("TenhouReplay.setView(2, true)")
    assert requests(browser) == [page.resolve().as_uri()]
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    # and the page's policy would stop a request if one were tried: the browser refuses it
    # before any connection (the address is a closed loopback port in any case)
    outcome = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const seen = [];
        document.addEventListener('securitypolicyviolation', (e) => seen.push(e.violatedDirective));
        fetch('http://127.0.0.1:9/x').then(() => done(['fetched', seen]),
                                           () => setTimeout(() => done(['refused', seen]), 50));
    """)
    assert outcome[0] == "refused" and "connect-src" in outcome[1]
    assert requests(browser) == []


def test_analysis_panel_shows_what_the_hook_gives(browser, tmp_path):
    """The page shows a discard's analysis when the document carries one (the shape of
    docs/replay-html.md: the analysis package's to_json() values); with none, the panel stays
    hidden."""
    source = FIXTURES / "one_hand.xml"
    page = tmp_path / "one.html"  # a page without analysis (the CLI's pages always have one)
    doc = json.loads(CliRunner().invoke(cli, ["replay", str(source), "--format", "json"]).stdout)
    page.write_text(replay_page(doc), encoding="utf-8")
    open_page(browser, page)
    assert browser.execute_script("return document.getElementById('analysis-panel').hidden") is True
    game = game_of(source)
    events = game.hands[0].events
    index, discard = next((i, e) for i, e in enumerate(events) if isinstance(e, Discard) and e.seat == 1)
    entry = {
        "hand": 0, "event_index": index, "seat": discard.seat, "tile": discard.tile, "kind": discard.tile >> 2,
        "shanten_before": 1, "shanten_after": 2,
        "chosen": {"shanten": 2, "kinds": [0, 9], "left": [3, 4], "total": 7},
        "best": [{"kind": 1, "shanten": 1, "kinds": [3, 4, 5], "left": [4, 4, 4], "total": 12}],
        "loss": {"kind": "shanten", "shanten": 2, "best_shanten": 1, "accepted": 7, "best_accepted": 12},
        "riichi": {"waits": [3, 6], "left": [2, 3], "total": 5},
        "deal_in": {"discarder": 1, "winner": 0, "tile": discard.tile, "kind": discard.tile >> 2, "waits": [33],
                    "riichi": False, "open": False, "points": 48000},
    }
    browser.execute_script("TenhouReplay.setView(1, false); TenhouReplay.setAnalysis(arguments[0]);"
                           "TenhouReplay.go(0, arguments[1])", {"discards": [entry]}, index + 1)
    panel = browser.find_element("id", "analysis-panel")
    assert panel.is_displayed()
    text = panel.text
    assert "shanten 1 → 2" in text and "7 tiles" in text and "12 tiles" in text
    assert "Efficiency loss: shanten 2 after this discard, 1 after the best." in text
    assert "(5 left)" in text
    assert "dealt" not in text  # at the discard the winner's hand is hidden: its wait too (issue 26 #3)
    browser.execute_script("TenhouReplay.go(0, arguments[0])", index + 2)
    assert "S1 dealt 7z into S0's 7z wait (dama, 48,000)" in browser.find_element("id", "analysis").text
    browser.execute_script("TenhouReplay.go(0, arguments[0])", index + 1)
    kinds = browser.execute_script(
        "return [...document.querySelectorAll('#analysis .kinds .kind, #analysis .waits .kind')]"
        ".map(k => [+k.dataset.kind, k.textContent])")
    assert kinds == [[0, "3"], [9, "4"], [3, "4"], [4, "4"], [5, "4"], [3, "2"], [6, "3"]]
    # after the draw just before it, the page shows the same coming discard; at the ron after it too
    assert browser.execute_script("return TenhouReplay.analysisAt(0, arguments[0])", index) == entry
    assert isinstance(events[index + 1], Agari)
    assert browser.execute_script("return TenhouReplay.analysisAt(0, arguments[0])", index + 2) == entry
    # viewed from another seat, S1's analysis is not shown while its hand is hidden: at the ron too
    for step in (index + 1, index + 2):
        browser.execute_script("TenhouReplay.setView(2, false); TenhouReplay.go(0, arguments[0])", step)
        assert "hidden from this seat" in browser.find_element("id", "analysis").text


def panel_text(browser, position: int, step: int) -> str:
    browser.execute_script("TenhouReplay.go(arguments[0], arguments[1])", position, step)
    return browser.find_element("id", "analysis").text


def test_the_pages_analysis_is_the_games(browser, tmp_path):
    """The CLI's page carries the game's analysis (what --format json --analysis prints) and the
    panel shows it: S1's 7z in the one-hand fixture kept 21 tiles where 8s, the top option, kept
    22 (a near-tie in expected points), and dealt into the dealer's 9p-7z shanpon."""
    source = FIXTURES / "one_hand.xml"
    page, _ = write_page(source, tmp_path / "one.html", with_doc=False)
    doc = json.loads(CliRunner().invoke(cli, ["replay", str(source), "--format", "json", "--analysis"]).stdout)
    open_page(browser, page)
    assert browser.execute_script("return TenhouReplay.document.analysis") == doc["analysis"]
    browser.execute_script("TenhouReplay.setView(1, false)")
    assert browser.execute_script("return document.getElementById('analysis-panel').hidden") is False
    entry = next(e for e in doc["analysis"]["discards"] if e["seat"] == 1)
    text = panel_text(browser, 0, entry["event_index"] + 1)
    assert f"shanten {entry['shanten_before']} → {entry['shanten_after']}" in text
    assert f"{entry['chosen']['total']} tiles" in text and f"{entry['top']['total']} tiles" in text
    judgement = entry["judgement"]
    assert entry["verdict"] == "close" and judgement["reason"] == "efficiency"
    assert f"≈ Close: {judgement['cost_points']:,} points of ev below the top" in text
    assert "efficiency: a slower hand" in text
    assert f"ev {judgement['ev']:,}" in text and f"ev {judgement['top_ev']:,}" in text
    assert "dealt" not in text  # S0's wait is S0's secret until the ron shows its hand
    assert "S1 dealt 7z into S0's 9p-7z wait (dama, 48,000)" in panel_text(browser, 0, entry["event_index"] + 2)
    # S0's discard is S0's secret from S1's seat; all hands shows it
    s0 = next(e for e in doc["analysis"]["discards"] if e["seat"] == 0)
    assert "hidden from this seat" in panel_text(browser, 0, s0["event_index"] + 1)
    browser.execute_script("TenhouReplay.setView(1, true)")
    assert "✓ Best: the most expected points" in panel_text(browser, 0, s0["event_index"] + 1)


def test_a_double_ron_shows_both_deal_ins(browser, corpus, tmp_path):
    source = corpus_game("double ron")
    page, _ = write_page(source, tmp_path / "ron2.html", with_doc=False)
    doc = json.loads(CliRunner().invoke(cli, ["replay", str(source), "--format", "json", "--analysis"]).stdout)
    entry = next(e for e in doc["analysis"]["discards"] if len(e["deal_ins"]) == 2)
    position = next(i for i, h in enumerate(doc["hands"]) if h["index"] == entry["hand"])
    open_page(browser, page)
    # viewed from the discarder (the winners' hands hidden until their rons show them)
    browser.execute_script("TenhouReplay.setView(arguments[0], false)", entry["seat"])
    first, second = (deal_in_words(deal) for deal in entry["deal_ins"])
    text = panel_text(browser, position, entry["event_index"] + 1)  # the discard: no wait shown yet
    assert first not in text and second not in text
    text = panel_text(browser, position, entry["event_index"] + 2)  # the first ron shows its winner's
    assert first in text and second not in text
    text = panel_text(browser, position, entry["event_index"] + 3)  # the second ron, both
    assert first in text and second in text
    browser.execute_script("TenhouReplay.setView(null, true)")  # all hands: both waits at the discard
    text = panel_text(browser, position, entry["event_index"] + 1)
    assert first in text and second in text
    assert [d["winner"] for d in entry["deal_ins"]] == [
        e["who"] for e in doc["hands"][position]["events"][entry["event_index"] + 1:] if e["type"] == "agari"]


# -- the page's board at every step of a corpus sample ---------------------------------------------

BOARDS_OF_HAND = """
const pos = arguments[0], out = [];
const steps = TenhouReplay.document.hands[pos].events.length;
for (let step = 0; step <= steps; step++) {
  const b = TenhouReplay.board(pos, step);
  out.push([b.wall_remaining, b.honba, b.sticks, b.dora_indicators,
            b.seats.map(s => [s.hand.slice().sort((x, y) => x - y), s.score,
                              s.discards.map(d => [d.tile, d.tsumogiri, d.riichi, d.called]),
                              s.melds.map(m => [m.kind, m.tiles]), s.connected])]);
}
return JSON.stringify(out);
"""
"""The page's board after every step of a hand, as JSON text: Selenium hands a string over as it
is, while a nested array is unwrapped element by element in Python (a third of the test's time)."""


def fold_boards(game: Game, position: int) -> list:
    """The one fold's board after every step of a hand (``replay.fold.hand_boards``), in the
    shape ``BOARDS_OF_HAND`` gives the page's."""
    return [[b.live_remaining, b.honba, b.sticks, list(b.dora_indicators),
             [[sorted(s.concealed), s.score, [[p.tile, p.tsumogiri, p.riichi, p.called] for p in s.pond],
               [[m.kind.value, list(m.tiles)] for m in s.melds], s.connected] for s in b.seats]]
            for b in hand_boards(game, position)]


@functools.cache
def board_sample() -> tuple[Path, ...]:
    """Every 250th corpus game, and the first with each rarer event the page must follow."""
    from tenhou_tools.events import Bye, Reconnect

    files = corpus_files("mjlog")
    wanted = {"kan4", "ron3", "nm", "reach4", "kaze4", "bye", "reconnect", "pao"}
    chosen: dict[str, Path] = {}
    for path in files:
        game = read_game(path)
        found = set()
        for hand in game.hands:
            for e in hand.events:
                if isinstance(e, Ryuukyoku):
                    found.add(e.kind.value)
                elif isinstance(e, Bye):
                    found.add("bye")
                elif isinstance(e, Reconnect):
                    found.add("reconnect")
                elif isinstance(e, Agari) and e.pao_who is not None:
                    found.add("pao")
        for feature in (found & wanted) - set(chosen):
            chosen[feature] = path
        if set(chosen) == wanted:
            break
    return tuple(sorted(set(chosen.values()) | set(files[::250])))


@pytest.mark.corpus
def test_page_board_equals_the_fold_over_a_corpus_sample(browser, corpus, tmp_path):
    """The page draws its board from the document's events in its own script: at every step of
    every hand of the sample it must be the one fold's board (hands, ponds with their marks,
    melds, scores, sticks, honba, dora, the wall)."""
    sample = board_sample()
    assert len(sample) >= 20
    for path in sample:
        page, _ = write_page(path, tmp_path / "page.html", with_doc=False)
        game = game_of(path)
        open_page(browser, page)
        for position, hand in enumerate(game.hands):
            shown = json.loads(browser.execute_script(BOARDS_OF_HAND, position))
            expected = fold_boards(game, position)
            wrong = next((step for step, (a, b) in enumerate(zip(shown, expected, strict=True)) if a != b), None)
            assert wrong is None, (path.name, hand.init.label(), wrong, shown[wrong], expected[wrong])


@pytest.mark.corpus
def test_the_page_takes_the_scores_a_riichi_gives_as_the_fold_does(browser, corpus, tmp_path):
    """One walker's numbers: a riichi whose log says the stick took 2,000 (an altered ``REACH
    ten``) shows on the page as the fold keeps it (``replay --at`` and the text view), not a
    stick of the page's own."""
    root, kids = elements(xml_of(corpus_game("hanchan")))
    reach = next(el for el in kids if el.tag == "REACH" and el.get("step") == "2" and el.get("ten"))
    seat = int(reach.get("who"))
    ten = [int(v) for v in reach.get("ten").split(",")]
    ten[seat] -= 10  # in hundreds: 1,000 more than the stick
    reach.set("ten", ",".join(map(str, ten)))
    position = sum(1 for el in kids[:kids.index(reach)] if el.tag == "INIT") - 1
    altered = tmp_path / "altered.xml"
    altered.write_bytes(serialize(root))
    page, _ = write_page(altered, tmp_path / "altered.html")
    game = game_of(altered)
    boards = hand_boards(game, position)
    hand = game.hands[position]
    at = next(i for i, e in enumerate(hand.events) if isinstance(e, Riichi) and e.step == 2 and e.seat == seat) + 1
    assert boards[at].seats[seat].score == boards[at - 1].seats[seat].score - 2000
    open_page(browser, page)
    for step in sorted({at - 1, at, at + 1, len(hand.events)}):
        shown = dom_board(browser, position, step)
        assert [shown["seats"][str(s)]["score"] for s in range(4)] == [b.score for b in boards[step].seats], step


def test_a_path_with_control_characters_shows_them_escaped_on_the_page(browser, tmp_path):
    """The page's title and heading show a control or bidi character of the file's name as its
    escape, as the terminal does (``serialize.visible``), never as itself."""
    odd = tmp_path / "a\x1bb\u202e.xml"
    odd.write_bytes((FIXTURES / "one_hand.xml").read_bytes())
    out = tmp_path / "odd.html"
    assert CliRunner().invoke(cli, ["replay", str(odd), "--html", str(out)]).exit_code == 0
    shown = str(tmp_path) + "/a\\x1bb\\u202e.xml"
    page = out.read_text(encoding="utf-8")
    assert f"<title>{shown} · tenhou-tools replay</title>" in page
    open_page(browser, out)
    assert browser.execute_script("return document.getElementById('game-title').textContent") == shown
    assert browser.execute_script("return document.title") == f"{shown} · tenhou-tools replay"
