"""What a new user meets going from a finding to the moment it is about, and what a narrow
terminal does to the views: one numbering of a hand's events (the step of ``replay --at``), a
viewer link that stays whole, the board's header in the view's words."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tenhou_tools.cli import cli

from .browser import browser, open_page  # noqa: F401 - the fixture is found by name
from .conftest import FIXTURES

ONE_HAND = (FIXTURES / "one_hand.xml").read_text()
REAL_ID = "2014102312gm-00a9-0000-afb21fa5"
POINTS = ('ten="50,48000,5"', 'ten="50,36000,5"')  # AGARI_POINTS on the hand's last event


def run(*args, env=None):
    return CliRunner().invoke(cli, [str(a) for a in args], env=env)


def test_a_findings_step_is_the_step_replay_at_shows(tmp_path):
    path = tmp_path / "game.xml"
    path.write_text(ONE_HAND.replace(*POINTS))
    report = run("validate", path)
    assert report.exit_code == 1
    assert report.stdout.splitlines()[9:13] == [  # after the verdict, the warning (3 lines), the codes
        f"  {path}",
        "    E1-0 AGARI_POINTS (step 5): S0's hand value (ten) is wrong",
        "      points (ten): 48000 by the rules, the log says 36000",
        f"      tenhou-tools replay {path} --hand E1-0",
    ]
    view = run("replay", path, "--hand", "E1-0", "--ascii")
    assert "  ✗ AGARI_POINTS (step 5: S0 ron on S1): S0's hand value (ten) is wrong\n" in view.stdout
    # the step the finding names is the moment of the event it is about
    board = run("replay", path, "--at", "E1-0:5", "--ascii")
    assert board.exit_code == 0
    assert board.stdout.splitlines()[0] == f"{path} · E1-0 step 5 of 5: S0 ron on S1"


def test_the_replay_json_says_what_a_findings_values_are(tmp_path):
    path = tmp_path / "game.xml"
    path.write_text(ONE_HAND.replace('yakuman="39"', 'yakuman="37"'))
    result = run("replay", path, "--format", "json")
    assert result.exit_code == 1
    (finding,) = json.loads(result.stdout)["hands"][0]["findings"]
    assert (finding["code"], finding["event_index"], finding["expected"], finding["actual"]) == (
        "AGARI_YAKUMAN", 4, [39], [37])
    assert finding["readable"] is None  # the message names both: "daisangen by the rules, the log says tenhou"
    path.write_text(ONE_HAND.replace(*POINTS))
    (finding,) = json.loads(run("replay", path, "--format", "json").stdout)["hands"][0]["findings"]
    assert finding["readable"] == {"form": "compare", "what": "points (ten)", "expected": "48000", "actual": "36000"}
    assert "values" not in finding  # the text view's sentence is the text view's, not the JSON's


def test_the_pages_findings_say_the_step_and_names_not_ids(browser, tmp_path):
    path = tmp_path / "game.xml"
    path.write_text(ONE_HAND.replace('yakuman="39"', 'yakuman="37"'))
    page = tmp_path / "game.html"
    assert run("replay", path, "--html", page).exit_code == 1
    open_page(browser, page)
    texts = browser.execute_script(
        "return Array.from(document.querySelectorAll('#hand-list .findings li')).map(e => e.innerText)")
    assert texts == ["✗ AGARI_YAKUMAN (step 5): S0's yakuman are wrong: daisangen by the rules, "
                     "the log says tenhou"]
    path.write_text(ONE_HAND.replace(*POINTS))
    assert run("replay", path, "--html", page).exit_code == 1
    open_page(browser, page)
    texts = browser.execute_script(
        "return Array.from(document.querySelectorAll('#hand-list .findings li')).map(e => e.innerText)")
    assert texts == ["✗ AGARI_POINTS (step 5): S0's hand value (ten) is wrong\n"
                     "points (ten): 48000 by the rules, the log says 36000"]


def test_the_viewer_link_stays_whole_on_a_narrow_terminal(tmp_path):
    path = tmp_path / f"{REAL_ID}.xml"  # a real game id: the view links to tenhou.net's viewer
    path.write_text(ONE_HAND)
    result = run("replay", path, "--seat", "1", "--ascii", env={"COLUMNS": "40"})
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:8] == [
        REAL_ID,
        "Houou 4-player East-South, red fives,",
        "open tanyao (四鳳南喰赤)",
        "Played 2014-10-23 12:xx JST · 1 hand ·",
        "viewed from S1 Bob (other seats'",
        "concealed tiles hidden)",
        f"https://tenhou.net/0/?log={REAL_ID}&tw=1",
        "",
    ]


def test_one_dora_indicator_is_said_in_the_singular(monkeypatch):
    monkeypatch.chdir(FIXTURES.parent)  # the title is the path as given: the same in any checkout
    result = run("replay", "fixtures/one_hand.xml", "--at", "E1-0:2", "--ascii")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:3] == [
        "fixtures/one_hand.xml · E1-0 step 2 of 5: S0 discards 8s (tsumogiri)",
        "East 1, 0 honba, 0 riichi sticks · dealer S0 · 69 tiles left in the wall",
        "Dora indicator 2p (dora 3p)",
    ]


def test_a_folded_result_line_keeps_its_indent(monkeypatch):
    """The winner's tiles line is indented by two; folded at 44 columns, its tail stays under
    that indent instead of starting at the left margin."""
    monkeypatch.setenv("COLUMNS", "44")
    lines = CliRunner().invoke(cli, ["replay", str(FIXTURES / "one_hand.xml"), "--ascii"]).stdout.splitlines()
    start = lines.index("  S0: 123m99p555666777z · wins on 7z · dora")
    assert lines[start + 1] == "  indicators 2p"


def test_format_beside_html_is_a_usage_error(tmp_path):
    for command in (["replay", FIXTURES / "one_hand.xml"], ["stats", FIXTURES / "one_hand.xml"]):
        result = run(*command, "--html", tmp_path / "page.html", "--format", "json")
        assert result.exit_code == 2
        assert "--html FILE writes a page: --format does not apply to it (leave one out)" in result.stderr
        assert not (tmp_path / "page.html").exists()
        assert run(*command, "--html", tmp_path / "page.html").exit_code == 0
        (tmp_path / "page.html").unlink()


def test_the_page_gives_the_start_hour_as_the_terminal_does(browser, tmp_path):
    """A game id names the hour a game started, not the minute: the page says 12:xx, as the
    terminal view does, not an invented 12:00."""
    path = tmp_path / f"{REAL_ID}.xml"
    path.write_text(ONE_HAND)
    page = tmp_path / "game.html"
    assert run("replay", path, "--html", page).exit_code == 0
    open_page(browser, page)
    lobby = browser.find_element("id", "game-lobby").text
    assert " · 2014-10-23 12:xx JST · 1 hand" in lobby
    played = run("replay", path, "--ascii").stdout.splitlines()[2]
    assert played.startswith("Played 2014-10-23 12:xx JST")
