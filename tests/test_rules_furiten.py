"""rules.furiten: discard, same-turn and riichi furiten.

Seat 0 holds 123456789m 1123p throughout (waits 1p and 4p) unless a test says otherwise.
"""

from __future__ import annotations

from tenhou_tools.events import Call, CallKind, Discard, Draw, Meld
from tenhou_tools.rules.furiten import (
    Furiten,
    discard_furiten,
    furiten,
    passed_kind,
    riichi_furiten,
    same_turn_furiten,
)
from tenhou_tools.rules.hand import counts34, waits
from tenhou_tools.tiles import format_tiles, parse_tiles

HAND = "123456789m1123p"


def tile(text: str) -> int:
    return parse_tiles(text)[0]


def names(found: tuple[int, ...]) -> str:
    """Kinds as tiles, e.g. ``"14p"``."""
    return format_tiles([k * 4 + 1 for k in found])


def wait(hand: str = HAND) -> frozenset[int]:
    return waits(counts34(parse_tiles(hand)))


def added_kan(seat: int, kind: str) -> Call:
    tiles = tuple(parse_tiles(kind * 4))
    return Call(seat, Meld(CallKind.ADDED_KAN, tiles, tiles[0], (seat + 1) % 4, tiles[3], 0))


def kita(seat: int) -> Call:
    return Call(seat, Meld(CallKind.KITA, (tile("4z"),), None, None, None, 0))


def test_the_tile_each_event_moves():
    assert names((passed_kind(Discard(1, tile("4p"))),)) == "4p"
    assert names((passed_kind(Draw(1, tile("7s"))),)) == "7s"
    assert names((passed_kind(added_kan(2, "1p")),)) == "1p"
    assert names((passed_kind(kita(2)),)) == "4z"


def test_discard_furiten():
    assert names(discard_furiten(wait(), [Discard(0, tile("9s")), Discard(0, tile("4p"))])) == "4p"
    assert discard_furiten(wait(), [Discard(0, tile("9s"))]) == ()


def test_same_turn_furiten_counts_others_tiles_that_went_past():
    passed = [Discard(1, tile("4p")), Draw(2, tile("1p")), Discard(2, tile("9s"))]
    assert names(same_turn_furiten(0, wait(), passed)) == "4p"  # S2's drawn 1p is hidden


def test_a_robbable_kan_tile_counts_for_same_turn_furiten():
    assert names(same_turn_furiten(0, wait(), [added_kan(2, "1p")])) == "1p"


def test_own_tiles_do_not_make_same_turn_furiten():
    assert same_turn_furiten(0, wait(), [Draw(0, tile("4p")), Discard(0, tile("4p"))]) == ()


def test_a_winning_tile_without_a_yaku_counts_for_same_turn_furiten():
    # 123m 789m 789s 55z 23p: a 1p gives chanta, a 4p no yaku; both are waits, and a 4p that
    # went past makes the hand furiten for the 1p too (waits are by shape)
    hand = parse_tiles("123789m789s55z23p")
    assert names(wait("123789m789s55z23p")) == "14p"
    assert names(furiten(0, hand, [], [Discard(1, tile("4p"))]).same_turn) == "4p"


def test_riichi_furiten():
    passed = [Draw(0, tile("1p")), Discard(0, tile("1p")), Discard(1, tile("8s")), Draw(1, tile("4p"))]
    # seat 0 drew a winning 1p and discarded it (no tsumo); seat 1's drawn 4p was never seen
    assert names(riichi_furiten(0, wait(), passed)) == "1p"
    assert names(riichi_furiten(0, wait(), [kita(2), Discard(3, tile("4p"))])) == "4p"
    assert riichi_furiten(0, wait(), [Discard(1, tile("8s"))]) == ()


def test_all_three_at_once():
    found = furiten(0, parse_tiles(HAND), [Discard(0, tile("4p"))], [Discard(1, tile("1p"))],
                    passed_since_riichi=[Draw(0, tile("1p"))])
    assert found == Furiten(discard=(tile("4p") >> 2,), same_turn=(tile("1p") >> 2,), riichi=(tile("1p") >> 2,))
    assert found.any


def test_a_hand_that_is_not_tenpai_is_never_furiten():
    found = furiten(0, parse_tiles("2468m5678p1357s7z"), [Discard(0, tile("7z"))], [Discard(1, tile("7z"))])
    assert found == Furiten() and not found.any


def test_not_in_riichi_means_no_riichi_furiten():
    assert furiten(0, parse_tiles(HAND), [], [], passed_since_riichi=None).riichi == ()
