"""A seat's page keeps that seat's secrets (issue 34, item 4): ``replay --seat N --html`` embeds
only what seat N sees, and shows each thing at its moment.

The embedded document is read back and checked against the one fold: at every step of every
hand, each tile the document names (the deal, each event) is one the seat can see by then (its
own tiles, the ponds, the melds, the dora indicators, the hands a result has shown), or hidden
(``documents.seat.HIDDEN``). Then, in a headless Chromium, the page at the deal and at the end.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tenhou_tools.analysis import analyze_game
from tenhou_tools.cli import cli
from tenhou_tools.documents.replay import ReplayDocument, replay_document
from tenhou_tools.documents.seat import HIDDEN, HIDDEN_FINDING
from tenhou_tools.events import Agari, Call, CallKind, Game, Ryuukyoku
from tenhou_tools.replay.engine import replay_game
from tenhou_tools.replay.fold import hand_boards
from tenhou_tools.sources.files import read_game
from tenhou_tools.views.html import replay_page

from .browser import browser, open_page  # noqa: F401 - the fixture is found by name
from .conftest import FIXTURES, corpus_files
from .test_html_page import embedded

# -- what the document names, and what the seat sees -------------------------------------------------


def event_tiles(event: Mapping[str, Any]) -> list[int]:
    """Every tile id an event of the document names."""
    kind = event["type"]
    if kind in ("draw", "discard", "new_dora"):
        return [event["tile"]]
    if kind == "call":
        meld = event["meld"]
        return [*meld["tiles"], *(t for t in (meld["called"], meld["added"]) if t is not None)]
    if kind == "agari":
        melds = [t for m in event["melds"] for t in m["tiles"]]
        return [*event["hand"], event["win_tile"], *melds, *event["dora_indicators"], *event["ura_indicators"]]
    if kind == "ryuukyoku":
        return [t for shown in event["hands"] if shown for t in shown]
    return []


def seen_by(game: Game, position: int, seat: int) -> Iterator[frozenset[int]]:
    """For each step of the hand (0 the deal), the tiles ``seat`` has seen by then: its own
    concealed tiles, every pond and meld, the dora indicators, the hands results have shown."""
    seen: set[int] = set()
    events = game.hands[position].events
    for step, board in enumerate(hand_boards(game, position)):
        event = events[step - 1] if step else None
        if isinstance(event, Agari):
            seen.update(event.hand)
            seen.update(event.ura_indicators)
        elif isinstance(event, Ryuukyoku):
            seen.update(t for shown in event.hands if shown for t in shown)
        seen.update(board.dora_indicators)
        for s in board.seats:
            if s.seat == seat:
                seen.update(s.concealed)
            seen.update(p.tile for p in s.pond)
            seen.update(t for m in s.melds for t in m.tiles)
        yield frozenset(seen)


def assert_keeps_secrets(doc: Mapping[str, Any], game: Game, seat: int) -> int:
    """No tile of the document is named before ``seat`` sees it; the number of hidden tiles."""
    assert doc["viewer"] == seat and doc["all_hands"] is False
    hidden = 0
    for hand in doc["hands"]:
        position = hand["index"]
        seen = list(seen_by(game, position, seat))
        init = hand["init"]
        assert init["shuffle"] is None
        for s, tiles in enumerate(init["hands"]):
            dealt = game.hands[position].init.hands[s]
            assert tiles == (list(dealt) if s == seat else [HIDDEN] * len(dealt)), (hand["label"], s)
        for step, event in enumerate(hand["events"], start=1):
            for t in event_tiles(event):
                if t == HIDDEN:
                    hidden += 1
                else:
                    assert t in seen[step], (hand["label"], step, event)
        result_tiles = [t for r in hand["result"] if r["type"] == "agari"
                        for t in (r["win_tile"], *r["dora_indicators"], *r["ura_indicators"])]
        assert set(result_tiles) <= seen[-1]
        for finding in hand["findings"]:
            assert finding["message"] == HIDDEN_FINDING or finding["code"] not in {"WALL_DEAL", "WALL_DRAW"}
    assert doc["header"]["shuffle"] is None  # the seed rebuilds the wall: every hand
    assert doc["seat_view"] is True
    analysis = doc["analysis"]
    assert {d["seat"] for d in analysis["discards"]} <= {seat}
    assert [r["seat"] for r in analysis["summary"]] == [seat]
    return hidden


# -- the games ------------------------------------------------------------------------------------------


def _wanted(game: Game) -> bool:
    """Four players, a ron and a tsumo, a draw that shows a hand, a call and a closed kan."""
    ends = [e for h in game.hands for e in h.endings]
    calls = [e.meld.kind for h in game.hands for e in h.events if isinstance(e, Call)]
    return (game.header.ruleset.players == 4 and game.header.shuffle is not None
            and any(isinstance(e, Agari) and e.is_tsumo for e in ends)
            and any(isinstance(e, Agari) and not e.is_tsumo for e in ends)
            and any(isinstance(e, Ryuukyoku) and any(e.hands) for e in ends)
            and CallKind.CLOSED_KAN in calls and CallKind.PON in calls)


@functools.cache
def corpus_game() -> Path:
    for path in corpus_files("mjlog"):
        if _wanted(read_game(path)):
            return path
    pytest.skip("no corpus game with a ron, a tsumo, a shown draw, a pon and a closed kan (TENHOU_CORPUS)")


@functools.cache
def full_document(path: Path) -> ReplayDocument:
    game = read_game(path)
    return replay_document(game, replay_game(game), source=str(path), analysis=analyze_game(game))


def seat_page_doc(path: Path, seat: int) -> dict:
    """The document a page viewed from ``seat`` embeds (the library's way: the CLI's)."""
    return embedded(replay_page(dataclasses.replace(full_document(path), viewer=seat)))


# -- the embedded document -------------------------------------------------------------------------------


def test_the_cli_seat_page_embeds_only_what_the_seat_sees(tmp_path):
    path = FIXTURES / "one_hand.xml"
    out = tmp_path / "seat1.html"
    result = CliRunner().invoke(cli, ["replay", str(path), "--seat", "1", "--html", str(out)])
    assert result.exit_code == 0, result.output
    doc = embedded(out.read_text(encoding="utf-8"))
    game = read_game(path)
    # S0's draw is hidden (S0 discards it at once: the tsumogiri shows the tile then), S1's own is not
    assert [(e["type"], e.get("seat", e.get("who")), e.get("tile")) for e in doc["hands"][0]["events"]] == [
        ("draw", 0, HIDDEN), ("discard", 0, 100), ("draw", 1, 101), ("discard", 1, 134), ("agari", 0, None)]
    assert doc["hands"][0]["init"]["hands"][1] == list(game.hands[0].init.hands[1])
    assert assert_keeps_secrets(doc, game, 1) == 1
    assert [(d["seat"], d["event_index"]) for d in doc["analysis"]["discards"]] == [(1, 3)]
    # everything public is as the full document has it
    full = json.loads(CliRunner().invoke(cli, ["replay", str(path), "--format", "json", "--analysis"]).stdout)
    for key in ("log_id", "hand_labels", "progression", "final", "verdict", "check_count", "hand_count"):
        assert doc[key] == full[key], key
    hand, whole = doc["hands"][0], full["hands"][0]
    for key in ("label", "dora_indicators", "riichi", "result", "scores_before", "scores_after", "deltas"):
        assert hand[key] == whole[key], key
    # --all-hands (and no seat) keep the whole document
    for args in (["--seat", "1", "--all-hands"], []):
        page = CliRunner().invoke(cli, ["replay", str(path), "--html", "-", *args]).stdout
        assert embedded(page) == {**full, "viewer": 1 if args else None, "all_hands": bool(args)}


@pytest.mark.corpus
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_corpus_seat_page_names_no_tile_before_the_seat_sees_it(corpus, seat):
    path = corpus_game()
    doc = seat_page_doc(path, seat)
    game = read_game(path)
    hidden = assert_keeps_secrets(doc, game, seat)
    others = sum(1 for h in game.hands for e in h.events if e.__class__.__name__ == "Draw" and e.seat != seat)
    assert hidden == others  # every other seat's draw, and nothing else of the events
    # the seat's own analysis is all there, as the full document has it
    full = full_document(path).to_json()
    assert doc["analysis"]["discards"] == [d for d in full["analysis"]["discards"] if d["seat"] == seat]
    assert doc["analysis"]["summary"] == [full["analysis"]["summary"][seat]]
    assert doc["progression"] == full["progression"] and doc["final"] == full["final"]


# -- the page in a browser: each thing at its moment --------------------------------------------------------

AT_MOMENT = r"""
const hands = {};
document.querySelectorAll('#board g.hand').forEach((g) => {
  hands[g.dataset.seat] = {
    hidden: g.dataset.hidden === '1',
    tiles: [...g.querySelectorAll('g.tile')].map((t) => t.dataset.tile === undefined ? null : +t.dataset.tile),
  };
});
const summary = document.getElementById('analysis-summary');
return {
  hands: hands,
  summary_rows: [...summary.querySelectorAll('tr[data-seat]')].map((r) => +r.dataset.seat),
  summary_caption: summary.caption ? summary.caption.textContent : null,
  hand_list: [...document.querySelectorAll('#hand-list > li')].filter((li) => !li.hidden)
               .map((li) => li.querySelector('.label').textContent),
  axis: [...document.querySelectorAll('#score-chart text.tick[text-anchor="middle"]')].map((t) => t.textContent),
  standings: !document.getElementById('standings').hidden,
  view_labels: [...document.querySelectorAll('#controls .view label')].map((l) => l.hidden),
  seat_page: document.getElementById('seat-page') ? document.getElementById('seat-page').textContent : null,
};
"""


def at(driver, position: int, step: int | str) -> dict:
    driver.execute_script("TenhouReplay.go(arguments[0], arguments[1])", position, step)
    return driver.execute_script(AT_MOMENT)


def test_a_seat_page_shows_the_others_face_down_and_the_verdicts_at_the_end(browser, tmp_path):
    source = FIXTURES / "one_hand.xml"
    page = tmp_path / "seat1.html"
    assert CliRunner().invoke(cli, ["replay", str(source), "--seat", "1", "--html", str(page)]).exit_code == 0
    game = read_game(source)
    hand = game.hands[0]
    open_page(browser, page)
    shown = at(browser, 0, 0)
    assert shown["view_labels"] == [True, True] and shown["seat_page"] == "S1 Bob's page: only what S1 sees"
    assert shown["hands"]["1"] == {"hidden": False, "tiles": sorted(hand.init.hands[1], key=lambda t: (t >> 2, t))}
    for s in (0, 2, 3):
        assert shown["hands"][str(s)] == {"hidden": True, "tiles": [None] * 13}, s
    assert shown["summary_rows"] == [] and shown["summary_caption"] == "Shown at the game's end."
    # the page's own board: each seat holds as many tiles as the fold says, S1 its very tiles
    for step, board in enumerate(hand_boards(game, 0)):
        seats = browser.execute_script("return TenhouReplay.board(0, arguments[0]).seats", step)
        assert [len(s["hand"]) for s in seats] == [len(s.concealed) for s in board.seats], step
        assert sorted(seats[1]["hand"]) == sorted(board.seats[1].concealed), step
        assert {t for s in seats if s["seat"] != 1 for t in s["hand"]} <= {HIDDEN}, step
    end = at(browser, 0, "end")
    winner = next(e for e in hand.events if isinstance(e, Agari))
    assert end["hands"]["0"]["hidden"] is False and sorted(end["hands"]["0"]["tiles"]) == sorted(winner.hand)
    assert end["hands"]["2"]["hidden"] is True and end["hands"]["3"]["hidden"] is True
    assert end["summary_rows"] == [1] and end["summary_caption"] is None and end["standings"]
    # one step back, the game is not over: the verdicts wait again
    assert at(browser, 0, len(hand.events) - 1)["summary_rows"] == []


@pytest.mark.corpus
def test_a_seat_page_shows_no_later_hand(browser, corpus, tmp_path):
    """A corpus game: the hand list and the chart's axis hold the hands played so far and the
    current one; the game's verdicts and standings come at its last step."""
    path = corpus_game()
    page = tmp_path / "seat2.html"
    assert CliRunner().invoke(cli, ["replay", str(path), "--seat", "2", "--html", str(page)]).exit_code == 0
    game = read_game(path)
    labels = [h.init.label() for h in game.hands]
    open_page(browser, page)
    for position, label in enumerate(labels):
        start = at(browser, position, 0)
        assert start["hand_list"] == labels[:position + 1], label
        assert set(start["axis"]) <= set(labels[:position + 1]), label
        assert start["summary_rows"] == [] and not start["standings"], label
        for s in {"0", "1", "3"}:
            assert start["hands"][s]["hidden"] and set(start["hands"][s]["tiles"]) == {None}, (label, s)
        end = at(browser, position, "end")
        last = position == len(labels) - 1
        assert end["hand_list"] == labels[:position + 1], label
        assert "end" in end["axis"] if last else "end" not in end["axis"], label
        assert end["summary_rows"] == ([2] if last else []) and end["standings"] == last, label


@pytest.mark.corpus
def test_a_seat_page_asks_before_it_answers(browser, corpus, tmp_path):
    """A seat's page is a "what would you cut?" page: from the draw to the moment before the
    discard its analysis panel asks and names no choice; from the discard on it shows the choice
    and its verdict (found by a new-user trial: the answer showed with the question). The full
    page shows the choice from the draw."""
    path = corpus_game()
    seat_page, full_page = tmp_path / "seat1.html", tmp_path / "full.html"
    assert CliRunner().invoke(cli, ["replay", str(path), "--seat", "1", "--html", str(seat_page)]).exit_code == 0
    assert CliRunner().invoke(cli, ["replay", str(path), "--html", str(full_page)]).exit_code == 0
    doc = embedded(seat_page.read_text(encoding="utf-8"))
    turns = [e for e in doc["analysis"]["discards"] if e["first_step"] < e["step"] and e["verdict"] != "forced"][:4]
    assert turns
    positions = {h["index"]: p for p, h in enumerate(doc["hands"])}
    panel = "return document.getElementById('analysis').textContent"
    for page, asks in ((seat_page, True), (full_page, False)):
        open_page(browser, page)
        for e in turns:
            position = positions[e["hand"]]
            browser.execute_script("TenhouReplay.go(arguments[0], arguments[1])", position, e["first_step"])
            before = browser.execute_script(panel)
            assert ("What would you cut?" in before and "Chosen" not in before) == asks, (page.name, e["step"])
            browser.execute_script("TenhouReplay.go(arguments[0], arguments[1])", position, e["step"])
            assert "Chosen" in browser.execute_script(panel), (page.name, e["step"])
