"""Four hand-made games for the statistics tests, and the counters each player gets from them,
worked out by hand from the play (the comments give the arithmetic).

Turns: a player's turn is 1 + the tiles they had discarded before (docs/stats.md). Balances: the
``sc`` deltas of the hand minus 1000 for the player's own accepted riichi.
"""

from __future__ import annotations

from .stats_logs import Log

ANN, BEN, CAT, DOV = "Ann", "Ben", "Cat", "Dov"


def game_a() -> bytes:
    """4p, seats Ann Ben Cat Dov. Ends Ben 49800, Ann 19100, Cat 18600, Dov 12500."""
    log = Log([ANN, BEN, CAT, DOV])
    # E1, dealer Ann. Ben riichi on his 2nd discard, Dov calls an open kan of Cat's discard,
    # Ann deals in to Ben with her 3rd discard: 8000 + Ben's own stick.
    h = log.hand(dealer=0)
    h.rounds([0, 1, 2, 3])
    h.go(0)
    h.riichi(1)
    h.go(2)
    h.open_kan(3)
    h.discard(3)
    h.go(0)
    h.ron(1, 0, 8000, yaku=((1, 1), (7, 1), (52, 2), (53, 0)), limit=1)
    # E2, dealer Ben. Cat riichi on her 1st discard; Ben chases on his 2nd; Dov chis Cat's 3s;
    # Ann makes a closed kan; Ben tsumo 3900 all + the 2 sticks.
    h = log.hand(dealer=1)
    h.go(1)
    h.riichi(2)
    h.go(3)
    h.go(0)
    h.riichi(1)
    h.go(2, "3s")
    h.chi(3)
    h.discard(3)
    h.draw(0)
    h.closed_kan(0, "1z")
    h.discard(0)
    h.draw(1)
    h.tsumo(1, {0: 3900, 2: 3900, 3: 3900}, yaku=((0, 1), (1, 1), (8, 1), (54, 1)))
    # E2-1, dealer Ben. Ann riichi on her 1st discard; Cat pons Ben's 7z; exhaustive draw with
    # Ann and Ben tenpai (1500 each from Cat and Dov). Ann's stick stays on the table.
    h = log.hand(dealer=1, honba=1)
    h.go(1)
    h.go(2)
    h.go(3)
    h.riichi(0)
    h.go(1, "7z")
    h.pon(2)
    h.discard(2)
    h.go(3)
    h.go(0)
    h.exhaustive([0, 1], [1500, 1500, -1500, -1500])
    # E3-2, dealer Cat, one stick. Ben chis Ann's 3p. Dov's 2nd discard: double ron, Ann (dama,
    # 3900 + 600 + the stick) first, then Ben (open, 2000 + 600).
    h = log.hand(dealer=2, honba=2)
    h.go(2)
    h.go(3)
    h.go(0, "3p")
    h.chi(1)
    h.discard(1)
    h.go(2)
    h.go(3)
    h.ron(0, 3, 3900, yaku=((7, 1), (8, 1), (9, 1)))
    h.ron(1, 3, 2000, yaku=((8, 1), (52, 1)), take_sticks=False)
    return log.xml([-0.9, 59.8, -21.4, -37.5])


GAME_A = {
    ANN: dict(
        games=1, hands=4, dealer_hands=1, rank2=1, final_points=-9, final_points_sq=81, final_score=19100,
        wins=1, win_points=3900, dama_wins=1, dama_win_points=3900, win_turns=2, win_balance=5500,
        deal_ins=1, deal_in_hands=1, deal_in_points=8000, deal_in_turns=3, deal_in_balance=-8000,
        deal_ins_to_riichi=1, deal_in_points_to_riichi=8000,
        tsumo_paid=1, tsumo_paid_points=3900,
        riichi=1, riichi_turns=1, riichi_exhaustive=1, riichi_balance=500,  # 1500 - 1000
        exhaustive_draws=1, tenpai_at_draw=1, draw_balance=500,
        hand_balance=-5900,  # -8000 - 3900 + 500 + 5500
        hand_balance_sq=8000**2 + 3900**2 + 500**2 + 5500**2,
        yaku={"7": 1, "8": 1, "9": 1},
    ),
    BEN: dict(
        games=1, hands=4, dealer_hands=2, rank1=1, final_points=598, final_points_sq=598**2, final_score=49800,
        wins=3, tsumo_wins=1, win_points=21700, dealer_wins=1, dealer_win_points=11700,
        riichi_wins=2, riichi_win_points=19700, open_wins=1, open_win_points=2000,
        win_turns=3 + 3 + 2, win_balance=8000 + 12700 + 2600, dora_han=2 + 1 + 1,
        riichi=2, riichi_chasing=1, riichi_turns=2 + 2, riichi_won=2, riichi_balance=8000 + 12700,
        calls=1, call_count=1, call_won=1, call_balance=2600,
        exhaustive_draws=1, tenpai_at_draw=1, draw_balance=1500,
        hand_balance=24800, hand_balance_sq=8000**2 + 12700**2 + 1500**2 + 2600**2,
        yaku={"0": 1, "1": 2, "7": 1, "8": 2},
    ),
    CAT: dict(
        games=1, hands=4, dealer_hands=1, rank3=1, final_points=-214, final_points_sq=214**2, final_score=18600,
        riichi=1, riichi_turns=1, riichi_chased=1, riichi_tsumo_by_other=1, riichi_balance=-4900,
        tsumo_paid=1, tsumo_paid_points=3900,
        calls=1, call_count=1, call_balance=-1500,
        exhaustive_draws=1, draw_balance=-1500,
        hand_balance=-6400, hand_balance_sq=4900**2 + 1500**2,
    ),
    DOV: dict(
        games=1, hands=4, rank4=1, final_points=-375, final_points_sq=375**2, final_score=12500,
        deal_ins=2, deal_in_hands=1, deal_in_points=5900, deal_in_turns=2, deal_in_balance=-7100,
        deal_ins_to_open=1, deal_in_points_to_open=2000, deal_ins_to_dama=1, deal_in_points_to_dama=3900,
        tsumo_paid=1, tsumo_paid_points=3900,
        calls=2, call_count=2, call_balance=-3900,
        exhaustive_draws=1, draw_balance=-1500,
        hand_balance=-12500, hand_balance_sq=3900**2 + 1500**2 + 7100**2,
    ),
}


def game_b() -> bytes:
    """4p, seats Dov Cat Ben Ann. Ends Ben 54900, Cat 36600, Dov 16000, Ann -7500 (bust)."""
    log = Log([DOV, CAT, BEN, ANN])
    # E1, dealer Dov: Cat declares nine terminals on her first draw.
    h = log.hand(dealer=0)
    h.go(0)
    h.draw(1)
    h.abort("yao9", shown=[1])
    # E1-1: Ann's riichi tile (her 2nd discard) is ronned by Ben (dama 3200 + 300): no stick.
    h = log.hand(dealer=0, honba=1)
    h.rounds([0, 1, 2, 3])
    h.rounds([0, 1, 2])
    h.riichi(3, accepted=False)
    h.ron(2, 3, 3200, yaku=((22, 2), (8, 1)), fu=25)
    # E2, dealer Cat: Dov riichi on his 1st discard, Ann pons Cat's 5z, Ann rons Ben's 2nd
    # discard (open 1000 + Dov's stick).
    h = log.hand(dealer=1)
    h.rounds([1, 2, 3])
    h.riichi(0)
    h.go(1, "5z")
    h.pon(3)
    h.discard(3)
    h.go(0)
    h.go(1)
    h.go(2)
    h.ron(3, 2, 1000, yaku=((18, 1),))
    # E3, dealer Ben: Ben pons Dov, then adds the fourth tile; Cat robs the kan (chankan 2600).
    h = log.hand(dealer=2)
    h.rounds([2, 3, 0])
    h.pon(2)
    h.discard(2)
    h.rounds([3, 0, 1])
    h.draw(2)
    h.added_kan(2)
    h.ron(1, 2, 2600, yaku=((3, 1), (8, 1)), fu=40)
    # E4, dealer Ann: Cat pons Ann's 1z (Ann's river no longer counts), Dov discards only
    # terminals: nagashi mangan (8000: 4000 from the dealer, 2000 from each other); Cat tenpai.
    h = log.hand(dealer=3)
    h.go(3, "1z")
    h.pon(1)
    h.discard(1)
    h.go(2)
    h.go(3, "9m")
    h.go(0, "1m")
    h.go(1)
    h.go(2)
    h.go(3, "9s")
    h.go(0, "9p")
    h.exhaustive([1], [8000, -2000, -2000, -4000], nagashi=True)
    # S1, dealer Dov: Ben riichi on his 1st discard, tsumo kazoe yakuman 32000 (16000 from the
    # dealer, 8000 from each other) + his own stick.
    h = log.hand(dealer=0)
    h.go(0)
    h.go(1)
    h.riichi(2)
    h.rounds([3, 0, 1])
    h.draw(2)
    h.tsumo(2, {0: 16000, 1: 8000, 3: 8000}, yaku=((1, 1), (0, 1), (35, 6), (52, 5)), limit=5)
    # S2, dealer Cat: Ann riichi on her 1st discard; her 2nd discard deals in to the dealer's dama
    # haneman 18000 (+ Ann's stick): Ann ends below zero.
    h = log.hand(dealer=1)
    h.go(1)
    h.go(2)
    h.riichi(3)
    h.rounds([0, 1, 2, 3])
    h.ron(1, 3, 18000, yaku=((20, 1), (34, 3), (52, 2)), fu=40, limit=2)
    return log.xml([-24.0, 16.6, 64.9, -57.5])


GAME_B = {
    DOV: dict(
        games=1, hands=7, dealer_hands=3, rank3=1, final_points=-240, final_points_sq=240**2, final_score=16000,
        riichi=1, riichi_turns=1, riichi_other_ron=1, riichi_balance=-1000,
        tsumo_paid=1, tsumo_paid_points=16000,
        exhaustive_draws=1, draw_balance=8000, nagashi_mangan=1, abortive_draws=1,
        hand_balance=-9000, hand_balance_sq=1000**2 + 8000**2 + 16000**2,
    ),
    CAT: dict(
        games=1, hands=7, dealer_hands=2, rank2=1, final_points=166, final_points_sq=166**2, final_score=36600,
        wins=2, win_points=20600, dealer_wins=1, dealer_win_points=18000, dama_wins=2, dama_win_points=20600,
        win_turns=2 + 3, win_balance=2600 + 19000, dora_han=2,
        tsumo_paid=1, tsumo_paid_points=8000,
        calls=1, call_count=1, call_balance=-2000,
        exhaustive_draws=1, tenpai_at_draw=1, draw_balance=-2000, abortive_draws=1, nine_terminals=1,
        hand_balance=11600, hand_balance_sq=2600**2 + 2000**2 + 8000**2 + 19000**2,
        yaku={"3": 1, "8": 1, "20": 1, "34": 1},
    ),
    BEN: dict(
        games=1, hands=7, dealer_hands=1, rank1=1, final_points=649, final_points_sq=649**2, final_score=54900,
        wins=2, tsumo_wins=1, win_points=35200, riichi_wins=1, riichi_win_points=32000,
        dama_wins=1, dama_win_points=3200, win_turns=3 + 2, win_balance=3500 + 32000, dora_han=5,
        kazoe_yakuman=1,
        deal_ins=2, deal_in_hands=2, deal_in_points=3600, deal_in_turns=2 + 3, deal_in_balance=-3600,
        deal_ins_to_open=1, deal_in_points_to_open=1000, deal_ins_to_dama=1, deal_in_points_to_dama=2600,
        riichi=1, riichi_turns=1, riichi_won=1, riichi_balance=32000,
        calls=1, call_count=1, call_dealt_in=1, call_balance=-2600,
        exhaustive_draws=1, draw_balance=-2000, abortive_draws=1,
        hand_balance=29900, hand_balance_sq=3500**2 + 1000**2 + 2600**2 + 2000**2 + 32000**2,
        yaku={"0": 1, "1": 1, "8": 1, "22": 1, "35": 1},
    ),
    ANN: dict(
        games=1, hands=7, dealer_hands=1, rank4=1, busts=1, final_points=-575, final_points_sq=575**2,
        final_score=-7500,
        wins=1, win_points=1000, open_wins=1, open_win_points=1000, win_turns=3, win_balance=2000,
        deal_ins=2, deal_in_hands=2, deal_in_points=21200, deal_in_turns=2 + 2, deal_in_balance=-22500,
        deal_ins_to_dealer=1, deal_in_points_to_dealer=18000, deal_ins_to_dama=2, deal_in_points_to_dama=21200,
        tsumo_paid=1, tsumo_paid_points=8000,
        riichi=2, riichi_turns=2 + 1, riichi_dealt_in=2, riichi_balance=-22500,
        calls=1, call_count=1, call_won=1, call_balance=2000,
        exhaustive_draws=1, draw_balance=-4000, abortive_draws=1,
        hand_balance=-32500, hand_balance_sq=3500**2 + 2000**2 + 4000**2 + 8000**2 + 19000**2,
        yaku={"18": 1},
    ),
}


def game_c() -> bytes:
    """3p, seats Ann Ben Eve. Ends Ann 83000 (82000 + the stick left), Ben 12000, Eve 10000."""
    log = Log([ANN, BEN, "Eve"], players=3)
    # E1, dealer Ann: Ben pons Ann's 6z and Eve's 7z, Eve takes a kita; Ann tsumo daisangen
    # (48000: 24000 from each).
    h = log.hand(dealer=0)
    h.go(0, "6z")
    h.pon(1)
    h.discard(1)
    h.draw(2)
    h.kita(2)
    h.discard(2, "7z")
    h.pon(1)
    h.discard(1)
    h.draw(0)
    h.tsumo(0, {1: 24000, 2: 24000}, yaku=(), yakuman=(39,), fu=40, limit=5)
    # E1-1: Ben riichi on his 1st discard; exhaustive draw, Ben alone tenpai (1000 from each).
    h = log.hand(dealer=0, honba=1)
    h.go(0)
    h.riichi(1)
    h.rounds([2, 0, 1, 2])
    h.exhaustive([1], [-1000, 2000, -1000, 0])
    return log.xml([78.0, -28.0, -50.0])


GAME_C = {
    ANN: dict(
        games=1, hands=2, dealer_hands=2, rank1=1, final_points=780, final_points_sq=780**2, final_score=83000,
        wins=1, tsumo_wins=1, win_points=48000, dealer_wins=1, dealer_win_points=48000,
        dama_wins=1, dama_win_points=48000, win_turns=2, win_balance=48000, yakuman=1,
        exhaustive_draws=1, draw_balance=-1000,
        hand_balance=47000, hand_balance_sq=48000**2 + 1000**2,  # the leftover stick is in no hand
        yaku={"39": 1},
    ),
    BEN: dict(
        games=1, hands=2, rank2=1, final_points=-280, final_points_sq=280**2, final_score=12000,
        calls=1, call_count=2, call_balance=-24000,
        tsumo_paid=1, tsumo_paid_points=24000,
        riichi=1, riichi_turns=1, riichi_exhaustive=1, riichi_balance=1000,
        exhaustive_draws=1, tenpai_at_draw=1, draw_balance=1000,
        hand_balance=-23000, hand_balance_sq=24000**2 + 1000**2,
    ),
    "Eve": dict(
        games=1, hands=2, rank3=1, final_points=-500, final_points_sq=500**2, final_score=10000,
        tsumo_paid=1, tsumo_paid_points=24000,
        exhaustive_draws=1, draw_balance=-1000,
        hand_balance=-25000, hand_balance_sq=24000**2 + 1000**2,
    ),
}


def game_d() -> bytes:
    """4p, two seats named NoName: four riichi in the first go-around, an abortive draw. All end
    on 24000; the four sticks go to first place, and the tie goes to the seat nearer East."""
    log = Log(["NoName", "X", "NoName", "Y"])
    h = log.hand(dealer=0)
    for seat in range(4):
        h.riichi(seat)
    h.abort("reach4", shown=[0, 1, 2, 3])
    return log.xml([38.0, 4.0, -16.0, -26.0])


_RIICHI_ABORT = dict(riichi=1, riichi_turns=1, riichi_abortive=1, riichi_balance=-1000, abortive_draws=1,
                     hand_balance=-1000, hand_balance_sq=1000**2)
GAME_D = {
    "NoName": dict(  # seats 0 (1st, dealer, chased) and 2 (3rd, chasing and chased)
        games=2, hands=2, dealer_hands=1, rank1=1, rank3=1, final_points=380 - 160,
        final_points_sq=380**2 + 160**2, final_score=28000 + 24000,
        riichi=2, riichi_turns=2, riichi_chasing=1, riichi_chased=2, riichi_abortive=2, riichi_balance=-2000,
        abortive_draws=2, hand_balance=-2000, hand_balance_sq=2 * 1000**2,
    ),
    "X": dict(games=1, hands=1, rank2=1, final_points=40, final_points_sq=40**2, final_score=24000,
              riichi_chasing=1, riichi_chased=1, **_RIICHI_ABORT),
    "Y": dict(games=1, hands=1, rank4=1, final_points=-260, final_points_sq=260**2, final_score=24000,
              riichi_chasing=1, **_RIICHI_ABORT),
}

GAMES = {"a": (game_a, GAME_A, 4), "b": (game_b, GAME_B, 4), "c": (game_c, GAME_C, 3), "d": (game_d, GAME_D, 4)}
