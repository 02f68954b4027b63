"""Danger classes against a riichi, on readable hands and on hand-made games: each class, its
grades and flags, four- and three-player, two riichi at once, a called declaration tile."""

from __future__ import annotations

import pytest

from tenhou_tools.analysis.defence import danger_against, opponents_in_riichi, threats_against, threats_at, visible_from
from tenhou_tools.analysis.game import unseen_in, visible_in
from tenhou_tools.events import CallKind, Discard, Game
from tenhou_tools.mjlog import parse_game
from tenhou_tools.replay.fold import board_at, follow_hand
from tenhou_tools.rules.danger import (
    Danger,
    DangerClass,
    DangerFlag,
    RiichiOpponent,
    assess,
    danger_class,
    danger_rate,
    dora_kinds,
    early_outside,
    genbutsu,
    riichi_opponent,
    safest,
    turn_bucket,
    visible_counts,
)
from tenhou_tools.tiles import parse_tiles

from .scenario import Scenario

C = DangerClass


def k(name: str) -> int:
    """The kind of one tile written in notation (``"4m"``)."""
    return parse_tiles(name)[0] >> 2


def kinds(text: str) -> frozenset[int]:
    return frozenset(t >> 2 for t in parse_tiles(text))


def seen(own: str = "", public: str = "", *, sanma: bool = False) -> list[int]:
    return visible_counts(parse_tiles(own) if own else [], parse_tiles(public) if public else [], sanma=sanma)


NOTHING = seen()


# -- the classes -------------------------------------------------------------------------------

def test_genbutsu_is_the_pond_and_what_passed_after_the_declaration():
    pond = parse_tiles("1z9m2p")
    passed = parse_tiles("5s")
    safe = genbutsu(pond, passed)
    assert safe == kinds("9m2p5s1z")
    for name in ("9m", "2p", "5s", "1z"):
        assert danger_class(k(name), safe, NOTHING) is C.GENBUTSU


@pytest.mark.parametrize(("tile", "safe"), [
    ("1m", "4m"), ("2m", "5m"), ("3m", "6m"),   # 1-3: the tile three above
    ("7p", "4p"), ("8p", "5p"), ("9p", "6p"),   # 7-9: the tile three below
    ("4s", "17s"), ("5s", "28s"), ("6s", "39s"),  # 4-6: both (nakasuji)
])
def test_suji_means_every_two_sided_wait_on_it_is_furiten(tile, safe):
    assert danger_class(k(tile), kinds(safe), NOTHING) is C.SUJI


@pytest.mark.parametrize(("tile", "safe"), [("1m", "7m"), ("3m", "9m"), ("9p", "3p"), ("7p", "1p")])
def test_the_wrong_side_is_not_suji(tile, safe):
    # 1m is suji through 4m only: a 23m wait takes 1m and 4m, and a genbutsu 7m says nothing of it
    assert danger_class(k(tile), kinds(safe), NOTHING) is C.NON_SUJI


@pytest.mark.parametrize(("tile", "safe", "grade"), [
    ("4m", "1m", "46_outer"), ("4m", "7m", "46_inner"),
    ("6p", "9p", "46_outer"), ("6p", "3p", "46_inner"),
    ("5s", "2s", "5"), ("5s", "8s", "5"),
])
def test_half_suji_is_a_4_to_6_with_exactly_one_suji_genbutsu(tile, safe, grade):
    opponent = RiichiOpponent(1, kinds(safe), 8, k(safe[0] + safe[-1]), frozenset(), frozenset())
    d = assess(k(tile), opponent, NOTHING)
    assert (d.danger_class, d.grade) == (C.HALF_SUJI, grade)


def test_no_chance_needs_every_two_sided_wait_walled():
    # 1m is taken two-sided only by 23m: with all four 2m visible, no two-sided wait can take it
    assert danger_class(k("1m"), frozenset(), seen("22m", "22m")) is C.NO_CHANCE
    assert danger_class(k("2m"), frozenset(), seen("3333m")) is C.NO_CHANCE  # 34m needs a 3m
    # 3m: 45m is its only two-sided wait (12m waits on 3m alone: a penchan); a wall of 5m blocks it
    assert danger_class(k("3m"), frozenset(), seen("", "0555m")) is C.NO_CHANCE
    # 4p: 23p (waits 1-4) and 56p (waits 4-7): one wall is not enough, both are
    assert danger_class(k("4p"), frozenset(), seen("3333p")) is C.NON_SUJI
    assert danger_class(k("4p"), frozenset(), seen("3333p", "6666p")) is C.NO_CHANCE


def test_one_chance_is_three_visible_on_every_side():
    assert danger_class(k("1s"), frozenset(), seen("2s", "22s")) is C.ONE_CHANCE
    assert danger_class(k("9s"), frozenset(), seen("", "777s")) is C.ONE_CHANCE
    # 5s: 34s (waits 2-5) blocked by three 4s, 67s (waits 5-8) walled by four 6s
    assert danger_class(k("5s"), frozenset(), seen("444s", "6666s")) is C.ONE_CHANCE
    # one side open: a non-suji 5s
    assert danger_class(k("5s"), frozenset(), seen("444s")) is C.NON_SUJI


def test_a_suji_tile_stays_suji_whatever_the_walls():
    # suji comes before no-chance: 1m with 4m genbutsu and four 2m visible is suji
    assert danger_class(k("1m"), kinds("4m"), seen("22m", "22m")) is C.SUJI
    # and half-suji stays half-suji when its open side is walled (its rate may differ)
    assert danger_class(k("4m"), kinds("1m"), seen("0555m")) is C.HALF_SUJI


def test_honours_by_copies_the_discarder_cannot_see():
    east = k("1z")
    assert danger_class(east, frozenset(), seen("1z")) is C.HONOUR_LIVE          # 3 unseen
    assert danger_class(east, frozenset(), NOTHING) is C.HONOUR_LIVE             # 4 unseen
    assert danger_class(east, frozenset(), seen("1z", "1z")) is C.HONOUR_2_LEFT
    assert danger_class(east, frozenset(), seen("11z", "1z")) is C.HONOUR_1_LEFT
    assert danger_class(east, frozenset(), seen("11z", "11z")) is C.HONOUR_0_LEFT
    assert danger_class(east, kinds("1z"), seen("1z")) is C.GENBUTSU


def test_non_suji_is_every_other_number():
    for name in ("1m", "2p", "3s", "4m", "5p", "6s", "7m", "8p", "9s"):
        assert danger_class(k(name), frozenset(), NOTHING) is C.NON_SUJI


def test_three_player_manzu_terminals_have_no_two_sided_wait():
    # no 2m-8m in a three-player game: 1m and 9m can only be a single wait or shanpon
    assert danger_class(k("1m"), frozenset(), NOTHING, sanma=True) is C.NO_CHANCE
    assert danger_class(k("9m"), frozenset(), NOTHING, sanma=True) is C.NO_CHANCE
    assert danger_class(k("1m"), frozenset(), NOTHING) is C.NON_SUJI  # four-player: 23m waits on it
    # the other suits are as in four-player games
    assert danger_class(k("1p"), frozenset(), NOTHING, sanma=True) is C.NON_SUJI
    assert danger_class(k("1p"), kinds("4p"), NOTHING, sanma=True) is C.SUJI
    assert seen(sanma=True)[k("5m")] == 4


def test_labels_for_the_text_view():
    assert C.NON_SUJI.label == "no suji"
    assert C.HALF_SUJI.label == "half suji"
    assert C.HONOUR_1_LEFT.label == "honour, 1 left"
    assert len({c.label for c in C}) == len(C)


def test_the_order_is_safest_first():
    assert C.GENBUTSU.rank == 0
    assert safest([C.NON_SUJI, C.SUJI, C.HALF_SUJI]) is C.SUJI
    assert safest([C.NON_SUJI, C.GENBUTSU]) is C.GENBUTSU
    # the measured order puts half-suji with the dangerous classes, below a live honour
    assert C.HONOUR_LIVE.rank < C.HALF_SUJI.rank < C.NON_SUJI.rank


# -- grades and flags --------------------------------------------------------------------------

def opponent(pond: str, declaration: int, passed: str = "", *, seat_wind: int = 1) -> RiichiOpponent:
    return riichi_opponent(2, parse_tiles(pond), declaration, parse_tiles(passed) if passed else [],
                           round_wind=0, seat_wind=seat_wind)


def test_riichi_opponent_from_a_pond():
    # discards in order: 1z 9m 2p 8s 3p 6m, the declaration is the 6m (index 5); 4s passed since
    o = opponent("1z9m2p8s3p6m", 5, "4s")
    assert o.safe == kinds("9m6m2p3p48s1z")
    assert o.turn == 6
    assert o.declaration == k("6m")
    assert o.early == kinds("9m2p3p8s1z")  # the first five discards
    assert o.yakuhai == kinds("1z2z5z6z7z")  # East round, South seat, the dragons
    with pytest.raises(ValueError):
        riichi_opponent(2, parse_tiles("1z"), 1, [], round_wind=0, seat_wind=1)


def test_riichi_suji_flag_is_the_suji_made_by_the_declaration_tile():
    o = opponent("1z9m2p8s3p6m", 5)
    assert assess(k("3m"), o, NOTHING).flags == {DangerFlag.RIICHI_SUJI}  # 3m with 6m genbutsu
    assert assess(k("9m"), o, NOTHING).danger_class is C.GENBUTSU
    d = assess(k("6p"), o, NOTHING)  # 3p genbutsu, not the declaration: a half-suji without the flag
    assert (d.danger_class, d.grade, d.flags) == (C.HALF_SUJI, "46_inner", frozenset())


def test_early_outside():
    early = kinds("3m5p7s")
    assert early_outside(k("1m"), early) and early_outside(k("2m"), early)
    assert not early_outside(k("4m"), early)
    assert early_outside(k("3p"), early) and early_outside(k("7p"), early)
    assert not early_outside(k("1p"), early)
    assert early_outside(k("8s"), early) and early_outside(k("9s"), early)
    assert not early_outside(k("6s"), early)
    assert not early_outside(k("1z"), early)
    # only discards among the first five before the declaration are early
    o = opponent("1z2z3z4z5z2m9p", 6)
    assert DangerFlag.EARLY_OUTSIDE not in assess(k("1m"), o, NOTHING).flags
    o = opponent("2m1z2z3z4z9p", 5)
    assert DangerFlag.EARLY_OUTSIDE in assess(k("1m"), o, NOTHING).flags


def test_dora_flag_and_honour_grades():
    o = opponent("9m1p", 1, seat_wind=3)  # their wind is North
    dora = dora_kinds(parse_tiles("4z"))  # North indicates East
    assert dora == kinds("1z")
    east = assess(k("1z"), o, NOTHING, dora=dora)
    assert (east.grade, east.flags) == ("yakuhai", {DangerFlag.DORA})  # the round wind
    assert assess(k("4z"), o, NOTHING).grade == "yakuhai"  # their own wind
    assert assess(k("3z"), o, NOTHING).grade == "guest"
    assert assess(k("6z"), o, NOTHING).grade == "yakuhai"
    assert assess(k("9m"), o, NOTHING, dora=kinds("9m")).flags == frozenset()  # genbutsu: no flags


def test_turn_buckets():
    assert [turn_bucket(t) for t in (1, 6, 7, 9, 10, 12, 13, 15, 16, 24)] == [
        "1-6", "1-6", "7-9", "7-9", "10-12", "10-12", "13-15", "13-15", "16+", "16+"]


def test_rates_follow_the_measured_table():
    genbutsu_tile = Danger(0, C.GENBUTSU, "", frozenset(), 8)
    assert danger_rate(genbutsu_tile) == 0.0
    # a table given by hand: 5 winning of 1,000 cases is 0.5 %
    table = {("non_suji", "456", "7-9"): (1000, 5)}
    assert danger_rate(Danger(4, C.NON_SUJI, "456", frozenset(), 8), table=table) == pytest.approx(0.5)
    # a bucket with too few cases borrows its grade over every turn: 5 + 1 winning of 1,000 + 100
    table[("non_suji", "456", "1-6")] = (100, 1)
    assert danger_rate(Danger(4, C.NON_SUJI, "456", frozenset(), 3), table=table) == pytest.approx(600 / 1100)
    # the shipped table: every non-genbutsu class has a rate, non-suji 4-6 above suji 1/9
    suji19 = danger_rate(Danger(0, C.SUJI, "19", frozenset(), 8))
    nonsuji456 = danger_rate(Danger(4, C.NON_SUJI, "456", frozenset(), 8))
    assert 0 < suji19 < nonsuji456
    assert danger_rate(Danger(1, C.NON_SUJI, "28", frozenset(), 8), players=3) > 0


# -- on the board of hand-made games -----------------------------------------------------------

HANDS = ["123m456p789s1122z", "11m345p678s234s77z", "66m234p55s123s567s", "1239m79p19s13z567z"]
"""S1 and S2 are tenpai (shanpon 1m-7z and 6m-5s); S3 holds 1m 9m 9p 3z among others."""


def _riichi_then_called() -> Scenario:
    """S1 declares riichi with 6m and S2 pons it and discards 2p; S3 then draws."""
    s = Scenario(hands=list(HANDS))
    s.begin()
    s.turn(0, "3z")
    six = s.draw(1, "6m")
    s.riichi(1, "6m")
    s.pon(2, 1, six)
    s.discard(2, "2p")
    s.draw(3, "8p")
    return s


def test_a_called_declaration_tile_stays_genbutsu():
    s = _riichi_then_called()
    game = parse_game(s.ryuukyoku())
    events = game.hands[0].events
    step = len(events) - 1  # S3 has drawn and must discard
    board = board_at(game, 0, step)
    assert any(p.called and p.riichi for p in board.seats[1].pond)
    (o,) = opponents_in_riichi(board, 3)
    assert o.seat == 1 and o.declaration == k("6m")
    assert k("6m") in o.safe and k("2p") in o.safe  # the called 6m, S2's 2p after the declaration
    visible = visible_from(board, 3)
    assert danger_class(k("3m"), o.safe, visible) is C.SUJI  # 3m with the called 6m genbutsu
    assert danger_class(k("9m"), o.safe, visible) is C.SUJI   # 9m with 6m
    assert assess(k("3m"), o, visible).flags == {DangerFlag.RIICHI_SUJI}
    assert any(m.kind is CallKind.PON for m in board.seats[2].melds)
    assert visible[k("6m")] == 3  # S2's pon: 66m from its hand and the called 6m, seen once


def test_two_riichi_at_once_are_classed_apart():
    s = Scenario(hands=list(HANDS))
    s.begin()
    s.turn(0, "3z")
    s.draw(1, "6m")
    s.riichi(1, "6m")
    s.draw(2, "9p")
    s.riichi(2, "9p")
    s.draw(3, "8p")
    game = parse_game(s.ryuukyoku())
    events = game.hands[0].events
    board = board_at(game, 0, len(events) - 1)
    held = next(t for t in board.seats[3].concealed if t >> 2 == k("9m"))
    entries = danger_against(board, 3, held)
    assert entries is not None
    against = {e.seat: e for e in entries}
    assert set(against) == {1, 2}
    # S1's 6m came before S2's declaration: genbutsu against S1 only
    assert against[1].class_of(k("9m")) is C.SUJI       # 6m is S1's own discard
    assert against[2].class_of(k("9m")) is C.NON_SUJI   # S2 never let a 6m pass after declaring
    # S2's declaration tile 9p passed after S1's declaration: genbutsu against both
    assert against[1].class_of(k("9p")) is C.GENBUTSU
    assert against[2].class_of(k("9p")) is C.GENBUTSU
    # S0's 3z came before both declarations: genbutsu for neither (S3 holds 3z and sees two)
    assert against[1].class_of(k("3z")) is C.HONOUR_2_LEFT
    assert against[2].tile_class is C.NON_SUJI
    assert against[1].tile_class is C.SUJI
    assert against[1].safest_class is C.GENBUTSU
    json = against[1].to_json()
    assert json["seat"] == 1 and json["tile_class"] == "suji" and json["classes"][str(k("9p"))] == "genbutsu"
    assert set(json["rates"]) == set(json["classes"]) and json["rates"][str(k("9p"))] == 0


def test_no_riichi_no_danger():
    s = Scenario(hands=list(HANDS))
    s.begin()
    s.turn(0, "3z")
    s.draw(1, "6m")
    game = parse_game(s.ryuukyoku())
    board = board_at(game, 0, len(game.hands[0].events) - 1)
    assert danger_against(board, 1, board.seats[1].concealed[0]) is None


def _three_player_riichi() -> Scenario:
    """A three-player hand: seat 1 declares riichi on 9m, seat 2 draws 8p."""
    s = Scenario(hands=["123p456p789s1122z", "11m345p678s234s77z", "19m2345p55s44z123s", ""], players=3)
    s.begin()
    s.turn(0, "3z")
    s.draw(1, "9m")
    s.riichi(1, "9m")
    s.draw(2, "8p")
    return s


def test_three_player_board():
    game = parse_game(_three_player_riichi().ryuukyoku())
    events = game.hands[0].events
    board = board_at(game, 0, len(events) - 1)
    assert len(board.seats) == 3
    held = next(t for t in board.seats[2].concealed if t >> 2 == k("1m"))
    entries = danger_against(board, 2, held, sanma=True)
    assert entries is not None
    (e,) = entries
    assert e.class_of(k("1m")) is C.NO_CHANCE  # no 2m, 3m in three-player
    assert e.class_of(k("5p")) is C.NON_SUJI


# -- on the table state itself -----------------------------------------------------------------


def state_and_board_agree(game: Game) -> int:
    """At every discard of ``game``: ``threats_at`` on the table state, with ``visible_in``'s
    counts, equals ``threats_against`` on the board of that state, and those counts are
    ``visible_from``'s; the discards with a threat."""
    sanma = game.header.ruleset.players == 3
    found = 0

    class Check:
        def before(self, state, index, event):
            nonlocal found
            if not isinstance(event, Discard):
                return
            board = state.board()
            visible = visible_in(state, event.seat)
            assert visible == visible_from(board, event.seat, sanma=sanma)
            assert unseen_in(state, event.seat) == [4 - n for n in visible]
            threats = threats_at(state, event.seat, event.tile, visible, sanma=sanma)
            assert threats == threats_against(board, event.seat, event.tile, sanma=sanma)
            found += bool(threats)

    for position in range(len(game.hands)):
        follow_hand(game, position, Check())
    return found


def test_the_table_state_and_its_board_show_the_same_threats():
    s = _riichi_then_called()
    assert state_and_board_agree(parse_game(s.ryuukyoku())) >= 1
    s = _three_player_riichi()
    s.discard(2, "8p")
    assert state_and_board_agree(parse_game(s.ryuukyoku())) >= 1
