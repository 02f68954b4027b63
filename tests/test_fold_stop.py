"""One policy for a log the fold cannot follow (``replay.fold.follow_hand``): the walk stops
where the log stops holding together, says where and why, and every reader records it — the
analysis (``GameAnalysis.stopped``), its text view, ``stats --quality`` — instead of dropping the
rest of the hand without a word."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tenhou_tools.analysis import analyze_game
from tenhou_tools.cli import cli
from tenhou_tools.mjlog import parse_game
from tenhou_tools.replay.fold import FoldStop, follow_hand
from tenhou_tools.replay.state import TableState

from .conftest import FIXTURES

GENUINE = (FIXTURES / "one_hand.xml").read_bytes()
DAMAGED = GENUINE.replace(b"<T100/>\n<D100/>", b"<T100/>\n<D99/>")
"""The dealer discards a tile it does not hold (99: a 9p; its hand and draw hold none)."""


def test_the_fixture_is_damaged_where_we_say():
    assert DAMAGED != GENUINE and DAMAGED.count(b"<D99/>") == 1


class _FailsAt:
    """An observer with a bug at one event."""

    def __init__(self, index: int) -> None:
        self.index = index

    def before(self, state, index, event) -> None:
        if index == self.index:
            raise RuntimeError("a reader's bug")


def test_follow_hand_stops_where_the_walk_fails_and_says_why():
    game = parse_game(GENUINE)
    assert isinstance(follow_hand(game, 0), TableState)
    stop = follow_hand(game, 0, _FailsAt(2))
    assert stop == FoldStop(0, 2, "RuntimeError: a reader's bug")
    assert stop.to_json() == {"hand": 0, "event_index": 2, "reason": "RuntimeError: a reader's bug"}


def test_the_analysis_records_where_it_stopped():
    assert analyze_game(parse_game(GENUINE)).stopped == ()
    analysis = analyze_game(parse_game(DAMAGED))
    assert [(s.hand, s.event_index) for s in analysis.stopped] == [(0, 1)]
    assert analysis.discards == ()  # the hand's first discard is where it stopped
    assert analysis.to_json()["stopped"] == [s.to_json() for s in analysis.stopped]
    assert "stopped" not in analyze_game(parse_game(GENUINE)).to_json()


def test_the_replay_view_says_the_analysis_stopped(tmp_path):
    log = tmp_path / "damaged.xml"
    log.write_bytes(DAMAGED)
    result = CliRunner().invoke(cli, ["replay", str(log), "--analysis", "--all-hands"])
    text = " ".join(result.output.split())
    assert "The analysis stopped at step 2: the log does not hold together there (ValueError: " in text
    assert "later discards of this hand are not judged." in text


def test_stats_quality_reports_a_game_it_could_not_judge(tmp_path):
    """A game judged in part is not counted as judged (its other figures are): the summary says
    so, the figures do not quietly shrink."""
    log = tmp_path / "damaged.xml"
    log.write_bytes(DAMAGED)
    result = CliRunner().invoke(cli, ["stats", str(log), "--quality", "--no-progress", "--format", "json"])
    assert result.exit_code == 0
    text = " ".join(result.stderr.split())
    assert "1 game not judged (--quality)" in text
    assert f"not judged: {log}: the discard analysis stopped in hand E1-0 at event 2 (ValueError: " in text
    assert "its play quality is not counted" in text
    rows = json.loads(result.stdout)
    assert rows and all(row["games"] == 1 and row.get("play_quality") is None for row in rows)


def test_a_seat_page_names_where_the_analysis_stopped_not_why(tmp_path):
    """The reason a stop gives is an error's text, which may name any seat's tiles: a seat's page
    keeps where the analysis stopped and leaves the reason out, as it does a finding's values."""
    from tenhou_tools.documents.seat import HIDDEN_FINDING

    from .test_html_page import embedded

    log, page = tmp_path / "damaged.xml", tmp_path / "seat.html"
    log.write_bytes(DAMAGED)
    result = CliRunner().invoke(cli, ["replay", str(log), "--seat", "1", "--html", str(page)])
    assert result.exit_code in (0, 1), result.output
    stopped = embedded(page.read_text(encoding="utf-8"))["analysis"]["stopped"]
    assert stopped == [{"hand": 0, "event_index": 1, "reason": HIDDEN_FINDING}]


def test_an_analysis_given_to_a_seat_page_is_the_seats_too():
    """``replay_page(doc, analysis=...)`` of a seat's document embeds that analysis as the seat
    sees it (its own discards only), not as given."""
    from tenhou_tools.documents.replay import replay_document
    from tenhou_tools.replay.engine import replay_game
    from tenhou_tools.views.html import replay_page

    from .test_html_page import embedded

    game = parse_game(GENUINE)
    analysis = analyze_game(game)
    doc = replay_document(game, replay_game(game), source="x", viewer=1)
    assert {d["seat"] for d in analysis.to_json()["discards"]} == {0, 1}
    shown = embedded(replay_page(doc, analysis=analysis.to_json()))["analysis"]
    assert {d["seat"] for d in shown["discards"]} == {1}


def test_a_document_keeps_the_stops_of_the_hands_it_shows_only():
    """A document of some hands (``--hand``) keeps the analysis's stops in those hands, as it
    keeps their discards: a stop in a hand left out is not in its JSON."""
    from dataclasses import replace

    from tenhou_tools.documents.replay import replay_document
    from tenhou_tools.replay.engine import replay_game

    game = parse_game(DAMAGED)
    analysis = analyze_game(game)
    doc = replay_document(game, replay_game(game), source="x", analysis=analysis)
    assert doc.to_json()["analysis"]["stopped"] == [analysis.stopped[0].to_json()]
    assert "stopped" not in replace(doc, shown=()).to_json()["analysis"]
