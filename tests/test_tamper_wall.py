"""The wall check catches swapped draws, a changed dora indicator, dealt tile and ura indicator."""

from __future__ import annotations

import pytest

from tenhou_tools.events import Agari

from .tamper import clean_game, codes, elements, nth, serialize


def _seeded_riichi_win(game):
    if game.header.shuffle is None or not game.header.shuffle.seed:
        return False
    return any(isinstance(e, Agari) and e.ura_indicators for h in game.hands for e in h.events)


@pytest.fixture(scope="module", params=[4, 3], ids=["4p", "3p"])
def seeded(corpus, request):
    xml, game = clean_game(lambda g: g.header.ruleset.players == request.param and _seeded_riichi_win(g))
    return xml, game.log_id


def test_two_draws_swapped(seeded):
    xml, log_id = seeded
    root, kids = elements(xml)
    # the first two draws of one seat in the first hand: swap their tile ids in every tag naming them
    first_init = kids.index(nth(kids, "INIT", 0))
    draws = [el for el in kids[first_init:] if el.tag[0] == "T" and el.tag[1:].isdigit()][:2]
    a, b = draws[0].tag[1:], draws[1].tag[1:]
    for el in kids[first_init:]:
        if el.tag[1:] == a and el.tag[0] in "TD":
            el.tag = el.tag[0] + "X"
    for el in kids[first_init:]:
        if el.tag[1:] == b and el.tag[0] in "TD":
            el.tag = el.tag[0] + a
    for el in kids[first_init:]:
        if el.tag[1:] == "X":
            el.tag = el.tag[0] + b
    assert "WALL_DRAW" in codes(serialize(root), log_id)


def test_changed_dora_indicator(seeded):
    xml, log_id = seeded
    root, kids = elements(xml)
    init = nth(kids, "INIT", 0)
    seed = init.get("seed").split(",")
    seed[5] = str((int(seed[5]) + 4) % 136)
    init.set("seed", ",".join(seed))
    assert "WALL_DORA" in codes(serialize(root), log_id)


def test_changed_dealt_tile(seeded):
    xml, log_id = seeded
    root, kids = elements(xml)
    init = nth(kids, "INIT", 0)
    hai = init.get("hai0").split(",")
    hai[0], hai[1] = hai[1], hai[0]  # same tiles, different dealing order
    init.set("hai0", ",".join(hai))
    assert codes(serialize(root), log_id) == ["WALL_DEAL"]


def test_wrong_ura_indicator(seeded):
    xml, log_id = seeded
    root, kids = elements(xml)
    agari = next(el for el in kids if el.tag == "AGARI" and el.get("doraHaiUra"))
    ura = agari.get("doraHaiUra").split(",")
    ura[0] = str((int(ura[0]) + 1) % 136)
    agari.set("doraHaiUra", ",".join(ura))
    assert "WALL_URA" in codes(serialize(root), log_id)


def test_changed_dice(seeded):
    xml, log_id = seeded
    root, kids = elements(xml)
    init = nth(kids, "INIT", 0)
    seed = init.get("seed").split(",")
    seed[3] = str((int(seed[3]) + 1) % 6)
    init.set("seed", ",".join(seed))
    assert codes(serialize(root), log_id) == ["WALL_DICE"]


def test_no_seed_is_not_checkable(fixtures):
    from tenhou_tools.check import check_log

    record = check_log((fixtures / "one_hand.xml").read_bytes(), path="x")
    assert dict(record.checks)["wall_not_checkable"] == 1
    assert record.ok


def test_garbled_seed_is_a_finding(seeded):
    """A seed the log carries but that cannot be read is a finding, not 'not checkable'."""
    xml, log_id = seeded
    root, kids = elements(xml)
    shuffle = nth(kids, "SHUFFLE", 0)
    method, body = shuffle.get("seed").split(",", 1)
    shuffle.set("seed", method + "," + body[:-8] + "!!!!@@@@")
    found = codes(serialize(root), log_id)
    assert found == ["WALL_SEED"]


def test_empty_seed_is_a_finding(seeded):
    """An empty ``SHUFFLE seed`` switches the wall check off: a finding, not 'not checkable'
    (every genuine log with a SHUFFLE tag carries a seed)."""
    from tenhou_tools.check import check_log

    xml, log_id = seeded
    root, kids = elements(xml)
    nth(kids, "SHUFFLE", 0).set("seed", "")
    record = check_log(serialize(root), path="x", log_id=log_id)
    assert [f.code.value for f in record.findings] == ["WALL_SEED"]
    assert dict(record.checks)["wall_seed"] == 1


def test_init_shuffle_beside_a_shuffle_seed_is_a_finding(seeded):
    """A per-hand 2009 seed in a log with a SHUFFLE seed: one of them is not the log's."""
    xml, log_id = seeded
    root, kids = elements(xml)
    nth(kids, "INIT", 1).set("shuffle", "mt19937ar,0,1,2,3,4,5,6,7")
    assert codes(serialize(root), log_id) == ["WALL_SEED"]


@pytest.fixture(scope="module")
def init_seeded(corpus):
    """A 2009 log whose seed is on each INIT (no SHUFFLE tag)."""
    xml, game = clean_game(lambda g: g.header.shuffle is None and len(g.hands) > 2
                           and all(h.init.shuffle for h in g.hands))
    return xml, game.log_id


def test_init_shuffle_dropped_is_a_finding(init_seeded):
    """One hand's ``INIT shuffle`` dropped from a 2009 log: that hand's wall would go unchecked."""
    from tenhou_tools.check import check_log

    xml, log_id = init_seeded
    root, kids = elements(xml)
    init = nth(kids, "INIT", 1)
    del init.attrib["shuffle"]
    record = check_log(serialize(root), path="x", log_id=log_id)
    assert [(f.code.value, f.hand) for f in record.findings] == [("WALL_SEED", 1)]
    # a finding, so not also counted (and warned of) as a wall that cannot be checked
    assert "wall_not_checkable" not in dict(record.checks)
