"""``show`` and ``replay`` say the same score change for each hand (issue 34, item 5): the change
over the hand, riichi sticks paid and collected included, not the result's payments alone."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli
from tenhou_tools.cli.render import hand_deltas
from tenhou_tools.events import Agari
from tenhou_tools.formats import load_game

from .conftest import corpus_files

pytestmark = pytest.mark.corpus


def test_each_hands_change_is_the_replays(corpus):
    compared = riichi_wins = 0
    for path in corpus_files("mjlog")[::250]:
        game = load_game(path.read_bytes(), source=str(path))
        n = game.header.ruleset.players
        doc = json.loads(CliRunner().invoke(cli, ["replay", str(path), "--format", "json"]).stdout)
        for hand, shown in zip(game.hands, doc["hands"], strict=True):
            assert hand_deltas(hand, n) == shown["deltas"], (path.name, hand.init.label())
            compared += 1
            riichi_wins += any(isinstance(e, Agari) and e.scores_before[e.who] < hand.init.scores[e.who]
                               for e in hand.endings)
    assert compared > 100 and riichi_wins > 5, (compared, riichi_wins)


def test_a_riichi_win_shows_its_change_not_its_payment(corpus):
    path = next(p for p in corpus_files("mjlog") if p.name.startswith("2020010100gm-00a9-0000-03aa14b0"))
    out = CliRunner().invoke(cli, ["show", str(path)], env={"COLUMNS": "100"}).stdout
    row = next(line for line in out.splitlines() if line.startswith("E1-0 "))
    # S1 declared riichi (1,000 to the table), won 7,700 and took the stick back: +7,700, not +8,700
    assert row.split()[-4:] == ["0", "+7700", "-7700", "0"]
