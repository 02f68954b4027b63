"""Tenhou's rate formula (``stats.dan.rate_change``) against the rates real logs record.

A log's ``UN rate`` is each player's rate before the game. When the corpus holds two games of
the same player with nothing played in between, the second game's rate minus the first's is
the first game's change, which the formula must give (with the 400+ games factor 0.2: ranked
players in these rooms have played that many). Which pairs are consecutive is not known, so
the test compares the formula with its plausible variants: it must explain many more pairs than
any of them. The logs are read with regular expressions (not our parser); ranks follow the
``owari`` scores, ties to the lower seat (the first dealer's side).
"""

from __future__ import annotations

import gzip
import itertools
import re
from collections import Counter, defaultdict
from urllib.parse import unquote

import pytest

from tenhou_tools.stats.dan import rate_change, table_average_rate

from .conftest import corpus_files

pytestmark = pytest.mark.corpus

GAME_ID = re.compile(r"^(\d{10})gm-([0-9a-f]{4})-(\d{4})-[0-9a-f]{8}$")


def read_games() -> list[dict]:
    games, seen = [], set()
    for path in corpus_files():
        log_id = path.name.split(".", 1)[0]
        match = GAME_ID.match(log_id)
        if not match or log_id in seen or match.group(3) != "0000":  # ranked lobby 0 only
            continue
        seen.add(log_id)
        text = gzip.decompress(path.read_bytes()).decode("utf-8", "replace")
        go = re.search(r'<GO type="(\d+)"', text)
        un = re.search(r"<UN ([^>]*)/>", text)
        owari = re.findall(r'owari="([^"]+)"', text)
        if not (go and un and owari):
            continue
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', un.group(1)))
        players = 3 if int(go.group(1)) & 0x10 else 4
        scores = [float(x) for x in owari[-1].split(",")[0:2 * players:2]]
        order = sorted(range(players), key=lambda s: (-scores[s], s))
        games.append({
            "id": log_id,
            "players": players,
            "south": bool(int(go.group(1)) & 0x08),
            "names": [unquote(attrs[f"n{s}"]) for s in range(players)],
            "rates": [float(x) for x in attrs["rate"].split(",")[:players]],
            "ranks": {seat: rank for rank, seat in enumerate(order, 1)},
        })
    return games


def variants(rank, own, rates, players, south):
    """The formula and the variants it must beat: another divisor (a rumour quoted by a blog),
    the average of the others instead of the whole table, and a 1.5 East-South multiplier."""
    avg = table_average_rate(rates)
    ours = rate_change(rank, own, avg, 400, players).value
    others = (sum(rates) - own) / (players - 1)
    base = rate_change(rank, own, own, 400, players).value / 0.2
    return {
        "formula": ours,
        "divisor 50": 0.2 * (base + (avg - own) / 50),
        "others' average": rate_change(rank, own, others, 400, players).value,
        "East-South x1.5": ours * (1.5 if south else 1.0),
    }


@pytest.fixture(scope="module")
def matches(corpus):
    by_player = defaultdict(list)
    for game in read_games():
        for seat, name in enumerate(game["names"]):
            if name and name != "NoName":
                by_player[(name, game["players"])].append((game, seat))
    counts: Counter = Counter()
    for (_, players), games in by_player.items():
        games.sort(key=lambda gs: gs[0]["id"])
        for (game, seat), (following, next_seat) in itertools.pairwise(games):
            own, after = game["rates"][seat], following["rates"][next_seat]
            whole = own == int(own) and after == int(after)  # 2009 logs record whole numbers
            tolerance = 1.0 if whole else 0.011
            for name, predicted in variants(game["ranks"][seat], own, game["rates"], players,
                                            game["south"]).items():
                if abs(after - own - predicted) <= tolerance:
                    precision = "whole" if whole else "decimal"
                    counts[(players, "south" if game["south"] else "east", precision, name)] += 1
    return counts


@pytest.mark.parametrize(("players", "length"), [(4, "south"), (4, "east"), (3, "south")])
def test_the_rate_formula_explains_the_recorded_rates(matches, players, length):
    """Logs with two-decimal rates (2012 on) tell the variants apart."""
    formula = matches[(players, length, "decimal", "formula")]
    assert formula >= 100, f"{players}p {length}: only {formula} consecutive games match"
    for variant in ("divisor 50", "others' average", "East-South x1.5"):
        if variant == "East-South x1.5" and length == "east":
            continue  # the same prediction as the formula
        assert formula >= 4 * matches[(players, length, "decimal", variant)], (variant, dict(matches))


@pytest.mark.parametrize(("players", "length"), [(4, "east"), (3, "south")])
def test_the_rate_formula_held_in_2009(matches, players, length):
    """2009 logs record whole rates, so they cannot tell the divisor or the average apart
    (both round alike), but their changes follow the same bases and factor to within 1."""
    assert matches[(players, length, "whole", "formula")] >= 100
    if length == "south":
        assert matches[(players, length, "whole", "formula")] >= 2 * matches[
            (players, length, "whole", "East-South x1.5")]
