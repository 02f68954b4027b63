"""The page's board is the fold's: at every step of every hand, the scores, sticks, honba, wall,
dora indicators and each seat's concealed tiles that the page's script computes
(``TenhouReplay.board``) equal the fold's boards (``replay.fold.hand_boards``, what ``replay --at``
and the text view show) — on a genuine game and on tampered copies of it, where a page that kept
numbers of its own would part from the fold (issue 35: the page's walker held equal to the fold).
"""

from __future__ import annotations

import random

import pytest

from tenhou_tools.replay.board import FoldStop
from tenhou_tools.replay.fold import follow_hand, hand_boards

from .browser import browser, open_page  # noqa: F401 - the fixture is found by name
from .fuzzing.logs import delete_tag, duplicate_tag, swap_tags
from .tamper import elements, serialize, xml_of
from .test_html_replay import corpus_game, game_of, write_page

BOARDS_JS = """
var out = [];
for (var p = 0; p < arguments[0].length; p++) {
  var pos = arguments[0][p], hand = [];
  for (var step = 0; step <= arguments[1][p]; step++) {
    var b = TenhouReplay.board(pos, step);
    hand.push({sticks: b.sticks, honba: b.honba, wall: b.wall_remaining, dora: b.dora_indicators,
               seats: b.seats.map(function (s) {
                 return {score: s.score, hand: s.hand.slice().sort(function (x, y) { return x - y; })};
               })});
  }
  out.push(hand);
}
return out;
"""


def _altered(xml: bytes, how: str) -> bytes:
    if how == "genuine":
        return xml
    if how == "riichi_ten":  # the stick taken twice over
        root, kids = elements(xml)
        reach = next(el for el in kids if el.tag == "REACH" and el.get("step") == "2" and el.get("ten"))
        ten = [int(v) for v in reach.get("ten").split(",")]
        ten[int(reach.get("who"))] -= 10
        reach.set("ten", ",".join(map(str, ten)))
        return serialize(root)
    mutate = {"delete_tag": delete_tag, "duplicate_tag": duplicate_tag, "swap_tags": swap_tags}[how.rsplit("_", 1)[0]]
    return mutate(xml, random.Random(int(how.rsplit("_", 1)[1])))


@pytest.mark.corpus
@pytest.mark.parametrize("how", ["genuine", "riichi_ten", "delete_tag_1", "delete_tag_2", "duplicate_tag_3",
                                 "swap_tags_4", "swap_tags_5"])
def test_the_page_computes_the_folds_boards(browser, corpus, tmp_path, how):
    log = tmp_path / "game.xml"
    log.write_bytes(_altered(xml_of(corpus_game("hanchan")), how))
    page, _ = write_page(log, tmp_path / "game.html", "--all-hands", with_doc=False)
    game = game_of(log)
    positions = [p for p in range(len(game.hands)) if not isinstance(follow_hand(game, p), FoldStop)]
    assert positions, how
    open_page(browser, page)
    shown = browser.execute_script(BOARDS_JS, positions, [len(game.hands[p].events) for p in positions])
    compared = 0
    for position, steps in zip(positions, shown, strict=True):
        for step, (page_board, board) in enumerate(zip(steps, hand_boards(game, position), strict=True)):
            where = (how, game.hands[position].init.label(), step)
            assert (page_board["sticks"], page_board["honba"]) == (board.sticks, board.honba), where
            assert page_board["wall"] == board.live_remaining, where
            assert page_board["dora"] == list(board.dora_indicators), where
            for s, seat in enumerate(board.seats):
                assert page_board["seats"][s]["score"] == seat.score, (*where, s)
                assert page_board["seats"][s]["hand"] == sorted(seat.concealed), (*where, s)
            compared += 1
    assert compared > 100
