"""Issue 36: claims that went unchecked. Each test changes one claim of a real log (a corpus game,
clean as it is) and sees the finding that catches it."""

from __future__ import annotations

import pytest

from tenhou_tools.events import Agari, NewDora

from .tamper import assert_clean, codes, elements, find_game, nth, serialize, xml_of


def _clean(predicate):
    path, game = find_game(predicate)
    xml = xml_of(path)
    assert_clean(xml, game.log_id)
    return xml, game


# -- tile accounting: kan dora and ura indicators ------------------------------------------------


def _has(game, cls, test=lambda e: True) -> bool:
    return any(isinstance(e, cls) and test(e) for h in game.hands for e in h.events)


@pytest.mark.parametrize("players", [4, 3])
def test_a_kan_dora_indicator_already_dealt_is_a_duplicate(corpus, players):
    xml, game = _clean(lambda g: g.header.ruleset.players == players and _has(g, NewDora))
    root, kids = elements(xml)
    dora = nth(kids, "DORA", 0)
    start = max(i for i, k in enumerate(kids[:kids.index(dora)]) if k.tag == "INIT")
    dealt = kids[start].get("hai0").split(",")[0]
    dora.set("hai", dealt)  # a fifth copy: a tile held in S0's hand shown as the indicator too
    assert "TILE_DUPLICATE" in codes(serialize(root), game.log_id)


@pytest.mark.parametrize("players", [4, 3])
def test_an_ura_indicator_already_dealt_is_a_duplicate(corpus, players):
    xml, game = _clean(lambda g: g.header.ruleset.players == players
                       and _has(g, Agari, lambda a: bool(a.ura_indicators)))
    root, kids = elements(xml)
    win = next(k for k in kids if k.tag == "AGARI" and k.get("doraHaiUra"))
    start = max(i for i, k in enumerate(kids[:kids.index(win)]) if k.tag == "INIT")
    ura = win.get("doraHaiUra").split(",")
    ura[0] = kids[start].get("hai0").split(",")[0]
    win.set("doraHaiUra", ",".join(ura))
    assert "TILE_DUPLICATE" in codes(serialize(root), game.log_id)


def test_a_double_ron_shows_its_ura_indicators_twice(corpus):
    """Both riichi winners of a double ron show the same ura indicators: not a duplicate."""
    def double_ron_both_ura(g):
        for h in g.hands:
            wins = [e for e in h.events if isinstance(e, Agari)]
            if len(wins) == 2 and all(w.ura_indicators for w in wins):
                return True
        return False
    xml, game = _clean(double_ron_both_ura)
    assert_clean(xml, game.log_id)
