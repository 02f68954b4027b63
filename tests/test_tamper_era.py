"""Issue 36, the era: a real log renamed to a game id of another era is caught by the format's
dated marks (``rules.era``): the wall seed's method, the ``GO lobby`` attribute, hundredths in
``UN rate``. Each forgery is a corpus game, clean under its own id, under a new id."""

from __future__ import annotations

from datetime import datetime

import pytest

from tenhou_tools.events import Game
from tenhou_tools.ids import JST
from tenhou_tools.rules.era import Mark, allowed
from tenhou_tools.rules.wall import FORMAT_BASE64, FORMAT_HEX, FORMAT_LEGACY

from .tamper import clean_game, codes


def test_the_marks_by_date():
    assert allowed(Mark.SEED, datetime(2009, 3, 1, 12, tzinfo=JST)) == {FORMAT_LEGACY}
    assert allowed(Mark.SEED, datetime(2009, 7, 18, 0, tzinfo=JST)) == {FORMAT_LEGACY, FORMAT_HEX}
    assert allowed(Mark.SEED, datetime(2009, 12, 1, 0, tzinfo=JST)) == {FORMAT_HEX}
    assert allowed(Mark.SEED, datetime(2011, 7, 26, 20, tzinfo=JST)) == {FORMAT_BASE64}
    assert allowed(Mark.LOBBY_ATTRIBUTE, datetime(2010, 10, 1, 0, tzinfo=JST)) == {False, True}
    assert allowed(Mark.RATE_HUNDREDTHS, datetime(2009, 3, 1, 0, tzinfo=JST)) == {False}
    assert allowed(Mark.RATE_HUNDREDTHS, datetime(2015, 3, 1, 0, tzinfo=JST)) == {False, True}
    assert allowed(Mark.SEED, None) is None
    assert allowed(Mark.SEED, datetime(2007, 1, 1, 0, tzinfo=JST)) is None


def _id(game: Game, day: str) -> str:
    assert game.log_id is not None
    return day + game.log_id[10:]


def test_a_2009_east_only_game_renamed_to_2011_is_caught(corpus):
    """The issue's example: the uma (5-10) was already held by date (OWARI_POINTS); the seed's
    method and the GO tag without lobby now say the era too, whatever the game's points."""
    xml, game = clean_game(lambda g: bool(g.log_id) and g.log_id < "2009080100"
                           and g.log_id[10:12] == "gm" and not g.header.ruleset.east_south
                           and g.header.ruleset.players == 4)
    found = codes(xml, _id(game, "2011072620"))
    assert found.count("ERA") == 2  # INIT shuffle seeds and no GO lobby, in 2011


def test_a_2015_game_renamed_to_2009_is_caught(corpus):
    xml, game = clean_game(lambda g: bool(g.log_id) and g.log_id.startswith("2015")
                           and g.log_id[10:12] == "gm")
    found = codes(xml, _id(game, "2009030112"))
    assert found.count("ERA") == 3  # a base64 seed, a GO lobby, rates with hundredths


@pytest.mark.parametrize("day", ["2009120112", "2010022712"])
def test_a_hex_seed_game_keeps_its_era(corpus, day):
    """A game of the hex-seed era renamed within it stays clean (the check is the era's, not the
    day's)."""
    xml, game = clean_game(lambda g: g.header.shuffle is not None and bool(g.log_id)
                           and g.header.shuffle.seed.startswith(FORMAT_HEX + ","))
    assert "ERA" not in codes(xml, _id(game, day))
    assert "ERA" in codes(xml, _id(game, "2012010112"))
