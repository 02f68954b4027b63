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
