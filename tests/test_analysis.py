"""The discard analysis, riichi summaries and deal-in texts on readable hands."""

from __future__ import annotations

import json
import re

import pytest

from tenhou_tools.analysis import (
    DealIn,
    EfficiencyLoss,
    LossKind,
    RiichiSummary,
    analyze_discard,
    deal_in,
    riichi_summary,
    waits_text,
)
from tenhou_tools.rules.danger import DangerClass
from tenhou_tools.tiles import kind, parse_tiles

FULL = [4] * 34


def tile_of(hand: list[int], name: str) -> int:
    """The id in ``hand`` of the first tile written ``name`` (e.g. ``"2s"``)."""
    wanted = kind(parse_tiles(name)[0])
    return next(t for t in hand if kind(t) == wanted)


def kinds(text: str) -> tuple[int, ...]:
    return tuple(sorted({kind(t) for t in parse_tiles(text)}))


def unseen_after(hand: list[int], *visible: str) -> list[int]:
    """4 minus the copies in ``hand`` and in the ``visible`` tile strings (ponds, melds...)."""
    unseen = [4] * 34
    for t in hand:
        unseen[kind(t)] -= 1
    for text in visible:
        for t in parse_tiles(text):
            unseen[kind(t)] -= 1
    return unseen


# Two complete runs, three partial shapes (78p, 23s, 79s) and a pair: one partial shape must go,
# and the kanchan 79s is the weakest (12 tiles accepted after dropping 23s, 16 after 7s or 9s).
ONE_SHANTEN = "123456m78p2379s11z"


def test_best_discard_has_no_loss():
    hand = parse_tiles(ONE_SHANTEN)
    result = analyze_discard(hand, 0, tile_of(hand, "9s"), unseen_after(hand))
    assert (result.shanten_before, result.shanten_after) == (1, 1)
    assert result.chosen.kinds == kinds("69p14s")
    assert result.chosen.total == 16
    assert [o.kind for o in result.best] == list(kinds("79s"))
    assert result.loss is None


def test_fewer_accepted_tiles_is_an_acceptance_loss():
    hand = parse_tiles(ONE_SHANTEN)
    result = analyze_discard(hand, 0, tile_of(hand, "2s"), unseen_after(hand))
    assert result.chosen.kinds == kinds("69p8s")
    assert result.loss == EfficiencyLoss(LossKind.ACCEPTANCE, shanten=1, best_shanten=1, accepted=12, best_accepted=16)


def test_worse_shanten_is_a_shanten_loss():
    hand = parse_tiles(ONE_SHANTEN)
    result = analyze_discard(hand, 0, tile_of(hand, "1m"), unseen_after(hand))
    assert result.shanten_after == 2
    assert result.loss is not None
    assert (result.loss.kind, result.loss.shanten, result.loss.best_shanten) == (LossKind.SHANTEN, 2, 1)


def test_unseen_counts_decide_between_equal_shapes():
    hand = parse_tiles(ONE_SHANTEN)
    # three 1s and two 4s are in the ponds: the 23s ryanmen has 3 tiles left, the 79s kanchan 4
    unseen = unseen_after(hand, "111s44s")
    result = analyze_discard(hand, 0, tile_of(hand, "9s"), unseen)
    assert result.chosen.total == 4 + 4 + 1 + 2
    assert [o.kind for o in result.best] == list(kinds("23s"))
    assert result.loss == EfficiencyLoss(LossKind.ACCEPTANCE, 1, 1, 11, 12)


def test_forbidden_kinds_are_not_best_and_riichi_discards_are_no_choice():
    hand = parse_tiles(ONE_SHANTEN)
    kuikae = analyze_discard(hand, 0, tile_of(hand, "2s"), unseen_after(hand), forbidden=kinds("79s"))
    assert [o.kind for o in kuikae.best] == list(kinds("78p23s"))  # 12 tiles each
    assert kuikae.loss is None
    forced = analyze_discard(hand, 0, tile_of(hand, "1m"), unseen_after(hand), in_riichi=True)
    assert forced.loss is None and forced.shanten_after == 2


def test_open_hand_and_the_fifth_tile():
    # a pon of 1m (three copies out) and a 1m in hand: the 1m tanki is tenpai with no tile left
    hand = parse_tiles("1m234p567s789s5z")
    unseen = unseen_after(hand, "111m")
    tanki_1m = analyze_discard(hand, 1, tile_of(hand, "5z"), unseen)
    assert (tanki_1m.shanten_after, tanki_1m.chosen.kinds, tanki_1m.chosen.left) == (0, kinds("1m"), (0,))
    assert [o.kind for o in tanki_1m.best] == list(kinds("1m"))
    assert tanki_1m.loss == EfficiencyLoss(LossKind.ACCEPTANCE, 0, 0, 0, 3)


def test_seven_pairs_and_thirteen_orphans():
    pairs = parse_tiles("1133m5577p11557z3z")
    result = analyze_discard(pairs, 0, tile_of(pairs, "3z"), unseen_after(pairs))
    assert (result.shanten_before, result.chosen.kinds, result.chosen.total) == (0, kinds("7z"), 3)
    assert [o.kind for o in result.best] == list(kinds("37z"))
    orphans = parse_tiles("159m19p19s1234567z")
    result = analyze_discard(orphans, 0, tile_of(orphans, "5m"), unseen_after(orphans))
    assert result.chosen.kinds == kinds("19m19p19s1234567z")
    assert result.chosen.total == 13 * 3
    assert result.loss is None


def test_to_json_is_plain_data():
    hand = parse_tiles(ONE_SHANTEN)
    result = analyze_discard(hand, 0, tile_of(hand, "2s"), unseen_after(hand))
    data = result.to_json()
    assert json.loads(json.dumps(data)) == data
    assert data == {
        "tile": tile_of(hand, "2s"),
        "kind": 19,
        "shanten_before": 1,
        "shanten_after": 1,
        "chosen": {"shanten": 1, "kinds": [14, 17, 25], "left": [4, 4, 4], "total": 12},
        "best": [
            {"kind": 24, "shanten": 1, "kinds": [14, 17, 18, 21], "left": [4, 4, 4, 4], "total": 16},
            {"kind": 26, "shanten": 1, "kinds": [14, 17, 18, 21], "left": [4, 4, 4, 4], "total": 16},
        ],
        "loss": {"kind": "acceptance", "shanten": 1, "best_shanten": 1, "accepted": 12, "best_accepted": 16},
    }


def test_bad_input():
    hand = parse_tiles(ONE_SHANTEN)
    with pytest.raises(ValueError, match="not in the concealed hand"):
        analyze_discard(hand, 0, 135, FULL)
    with pytest.raises(ValueError, match="3n\\+2"):
        analyze_discard(hand[:-1], 0, hand[0], FULL)


def test_riichi_summary():
    hand = parse_tiles("23m456p789s11122z")
    summary = riichi_summary(hand, unseen_after(hand, "1m44m"))
    assert summary == RiichiSummary(kinds("14m"), (3, 2))
    assert summary.total == 5
    assert summary.to_json() == {"waits": [0, 3], "left": [3, 2], "total": 5}


def test_waits_text():
    assert waits_text(kinds("47p")) == "4-7p"
    assert waits_text(kinds("147m")) == "1-4-7m"
    assert waits_text(kinds("5p2z")) == "5p-2z"
    assert waits_text(()) == "no"


def test_deal_in_text_in_the_issue_style():
    from tenhou_tools.cli.analysis_render import deal_in_text

    winner = parse_tiles("123m56p789s11122z")  # 56p: waits on 4p and 7p
    dealt = parse_tiles("7p")[0]
    record = deal_in(1, 3, dealt, winner, riichi=True, open_hand=False, points=8000)
    assert record == DealIn(1, 3, dealt, kinds("47p"), True, False, 8000)
    assert deal_in_text(record) == "S1 dealt 7p into S3's 4-7p wait (riichi, 8,000)"
    assert deal_in_text(deal_in(0, 2, dealt, winner, riichi=False, open_hand=False, points=3900)) == (
        "S0 dealt 7p into S2's 4-7p wait (dama, 3,900)"
    )
    assert deal_in_text(deal_in(2, 1, dealt, winner, riichi=False, open_hand=True, points=1000)) == (
        "S2 dealt 7p into S1's 4-7p wait (open, 1,000)"
    )
    data = record.to_json()
    assert data == {  # data only: the views put it in words
        "discarder": 1, "winner": 3, "tile": dealt, "kind": 15, "waits": [12, 15], "riichi": True,
        "open": False, "points": 8000, "tile_class": None,
    }
    classed = deal_in(1, 3, dealt, winner, riichi=True, open_hand=False, points=8000, tile_class=DangerClass.NON_SUJI)
    assert deal_in_text(classed) == "S1 dealt 7p (no suji) into S3's 4-7p wait (riichi, 8,000)"
    assert classed.to_json()["tile_class"] == "non_suji"


def test_the_docs_example_prints_what_the_docs_show(capsys):
    from .conftest import REPO

    text = (REPO / "docs" / "analysis.md").read_text().split("## Example", 1)[1]
    code, shown = re.findall(r"```(?:python)?\n(.*?)```", text, re.S)[:2]
    exec(compile(code, "docs/analysis.md", "exec"), {})
    assert capsys.readouterr().out == shown
