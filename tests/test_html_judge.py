"""The replay page shows the analysis's verdicts and, when an opponent is in riichi, a danger mark
under each tile of the viewed hand (issue 27), in a real headless Chromium (tests/browser.py), at
desktop and phone widths. The hand-made table is the one of tests/test_analysis_judge.py: S1
declares riichi with 6m; S3 draws a 7m and folds with the 6m (genbutsu) instead of a lone honour.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tenhou_tools.analysis import analyze_game
from tenhou_tools.events import Discard
from tenhou_tools.mjlog import parse_game

from .browser import browser, open_page  # noqa: F401 - the fixture is found by name
from .scenario import Scenario
from .test_analysis_judge import S0, S1, S2, S3, k
from .test_html_replay import write_page

WIDTHS = [1280, 390]


def _defence_log(tmp_path: Path) -> tuple[Path, bytes]:
    s = Scenario([S0, S1, S2, S3]).begin()
    s.turn(0, "4z")
    s.draw(1, "6m")
    s.riichi(1, "6m")
    s.turn(2, "8p")
    s.draw(3, "7m")
    s.discard(3, "6m")
    s.turn(0, "9m")
    s.draw(1, "5m")
    s.discard(1, "5m")
    xml = s.ryuukyoku()
    path = tmp_path / "defence.xml"
    path.write_bytes(xml)
    return path, xml


def _steps(xml: bytes) -> dict[str, int]:
    """The step of S3's discard and of S1's forced one (1 + their index in the hand's events)."""
    events = parse_game(xml).hands[0].events
    discards = [i + 1 for i, e in enumerate(events) if isinstance(e, Discard)]
    seats = [e.seat for e in events if isinstance(e, Discard)]
    return {"S3": discards[seats.index(3)], "S1 forced": discards[len(seats) - 1 - seats[::-1].index(1)]}


def _view(driver, seat: int | None, step: int) -> None:
    driver.execute_script("TenhouReplay.setView(arguments[0], arguments[1]); TenhouReplay.go(0, arguments[2])",
                          seat, seat is None, step)


MARKS = ("return [...document.querySelectorAll('#board g.hand[data-seat=\"' + arguments[0] + '\"] rect.danger-mark')]"
         ".map(m => [+m.dataset.tile >> 2, m.dataset.class, m.dataset.mark])")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_viewed_hand_shows_its_danger_against_the_riichi_before_its_discard(browser, tmp_path, width):
    path, xml = _defence_log(tmp_path)
    page, _ = write_page(path, tmp_path / "defence.html", with_doc=False)
    open_page(browser, page, width=width)
    step = _steps(xml)["S3"]
    _view(browser, 3, step - 1)  # S3 has drawn its 7m: its decision
    marks = browser.execute_script(MARKS, 3)
    held = sorted({t >> 2 for t in Scenario([S0, S1, S2, S3]).take_many(S3 + "7m")})
    assert sorted({kind for kind, _, _ in marks}) == held  # a mark under every tile of the hand
    classes = {kind: (cls, mark) for kind, cls, mark in marks}
    assert classes[k("6m")] == ("genbutsu", "safe")  # S1's own declaration tile
    analysis = analyze_game(parse_game(xml))
    (note,) = [n for n in analysis.discards if n.seat == 3]
    (against,) = note.danger
    assert {kind: cls for kind, (cls, _) in classes.items()} == {d.kind: d.danger_class.value for d in against.hand}
    assert browser.execute_script("return !document.getElementById('danger-legend').hidden")
    title = browser.execute_script(
        "return document.querySelector('#board rect.danger-mark[data-class=\"genbutsu\"] title').textContent")
    assert "vs S1: genbutsu" in title
    _view(browser, 3, step)  # the discard is made: no marks, the verdict is shown
    assert browser.execute_script(MARKS, 3) == []
    assert browser.execute_script("return document.getElementById('danger-legend').hidden")
    verdict = browser.execute_script("return document.querySelector('#analysis .verdict').dataset.verdict")
    assert verdict == "close"  # a near-tie with a nearly safe honour (the keep term): no loss
    words = browser.execute_script("return document.querySelector('#analysis .verdict').textContent")
    assert words.startswith("≈ Close: ") and "(keep: a tile strong players hold on to longer)" in words
    assert "✗" not in words
    danger = browser.execute_script(
        "return [...document.querySelectorAll('#analysis .danger-list li')]"
        ".map(li => [li.dataset.seat, li.dataset.class, li.dataset.riichi, li.textContent])")
    assert [d[:3] for d in danger] == [["1", "genbutsu", "1"]] and danger[0][3].startswith("vs S1's riichi: ")
    chosen = browser.execute_script("return document.querySelector('#analysis .acceptance .numbers').textContent")
    assert f"ev {round(note.judgement.ev):,}" in chosen  # the model's number, as the text view shows it


@pytest.mark.parametrize("width", WIDTHS)
def test_marks_only_for_the_viewed_seat_and_never_for_a_hidden_hand(browser, tmp_path, width):
    path, xml = _defence_log(tmp_path)
    page, _ = write_page(path, tmp_path / "defence.html", with_doc=False)
    open_page(browser, page, width=width)
    step = _steps(xml)["S3"]
    _view(browser, 0, step - 1)  # viewed from S0: S3's hand is hidden, and so is its danger
    assert browser.execute_script(MARKS, 3) == []
    assert browser.execute_script(MARKS, 0) == []  # S0 has no decision now
    assert browser.execute_script("return document.getElementById('danger-legend').hidden")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_forced_discard_and_the_verdicts_over_the_game(browser, tmp_path, width):
    path, xml = _defence_log(tmp_path)
    page, _ = write_page(path, tmp_path / "defence.html", with_doc=False)
    open_page(browser, page, width=width)
    _view(browser, None, _steps(xml)["S1 forced"])
    entry = browser.execute_script("return document.querySelector('#analysis .analysis-entry').dataset.verdict")
    assert entry == "forced"
    assert browser.execute_script("return document.querySelectorAll('#analysis .acceptance').length") == 1
    rows = browser.execute_script(
        "return [...document.querySelectorAll('#analysis-summary tr[data-seat]')]"
        ".map(r => [r.dataset.seat, r.querySelector('[data-field=best]').textContent,"
        " r.querySelector('[data-field=forced]').textContent, r.querySelector('[data-field=loss]').textContent])")
    assert ["3", "0 (0%)", "0", "0"] in rows and ["1", "1 (100%)", "1", "0"] in rows
    assert ["2", "0 (0%)", "0", "1"] in rows  # S2's tenpai pushed for less than the fold was worth
    assert browser.execute_script("return !document.getElementById('summary-panel').hidden")
    _view(browser, 3, 1)  # from a seat, the game's verdicts wait for its end, as the standings do
    assert browser.execute_script("return document.querySelectorAll('#analysis-summary tr[data-seat]').length") == 0


def _luminance(rgb: str) -> float:
    """Relative luminance (WCAG 2) of ``rgb(r, g, b)`` or ``#rrggbb``."""
    if rgb.startswith("#"):
        parts = [int(rgb[i:i + 2], 16) for i in (1, 3, 5)]
    else:
        parts = [int(x) for x in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    linear = [(c / 255) / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in parts]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_every_danger_mark_stands_out_on_the_felt(browser, tmp_path):
    """Each danger mark's colour against the felt has a contrast ratio of 3 or more (WCAG's bar
    for graphics): the genbutsu mark no longer vanishes green on green (issue 34, item 9)."""
    path, xml = _defence_log(tmp_path)
    page, _ = write_page(path, tmp_path / "defence.html", with_doc=False)
    open_page(browser, page, width=1280)
    _view(browser, 3, _steps(xml)["S3"] - 1)
    felt = browser.execute_script("return getComputedStyle(document.querySelector('#board .felt')).fill")
    fills = browser.execute_script("return [...document.querySelectorAll('#board rect.danger-mark')]"
                                   ".map(r => [r.dataset.mark, r.getAttribute('fill')])")
    assert {mark for mark, _ in fills} >= {"safe"}
    for mark, fill in fills:
        light, dark = sorted((_luminance(fill), _luminance(felt)), reverse=True)
        assert (light + 0.05) / (dark + 0.05) >= 3, (mark, fill, felt)


@pytest.mark.corpus
def test_a_kind_with_none_left_is_greyed_in_the_accepted_tiles(browser, corpus, tmp_path):
    """An accepted kind whose every copy is seen cannot be drawn: the page greys it ("none
    left"), the others stay plain (issue 34, item 9)."""
    source = corpus / "mjlog" / "MahjongRepository__tenhou-python-bot"
    path = next(iter(sorted(source.glob("*.gz"))), None) if source.is_dir() else None
    if path is None:
        path = sorted((corpus / "mjlog").glob("*/*.gz"))[0]
    game = parse_game(path.read_bytes())
    entry = next(e for e in analyze_game(game).to_json()["discards"] if 0 in (e.get("chosen") or {}).get("left", []))
    page, _ = write_page(path, tmp_path / "game.html", "--all-hands", with_doc=False)
    open_page(browser, page, width=1280)
    browser.execute_script("TenhouReplay.go(arguments[0], arguments[1])", entry["hand"], entry["step"])
    spans = browser.execute_script(
        "return [...document.querySelectorAll('#analysis .acceptance')][0].querySelectorAll('.kind')"
        " && [...[...document.querySelectorAll('#analysis .acceptance')][0].querySelectorAll('.kind')]"
        ".map(s => [+s.dataset.kind, s.querySelector('.left').textContent, s.classList.contains('none-left'),"
        " +getComputedStyle(s).opacity])")
    left = dict(zip(entry["chosen"]["kinds"], entry["chosen"]["left"], strict=True))
    assert [kind for kind, _, _, _ in spans] == entry["chosen"]["kinds"]
    for kind, shown, greyed, opacity in spans:
        assert shown == str(left[kind]) and greyed == (left[kind] == 0) and (opacity < 1) == greyed
