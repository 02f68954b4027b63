"""More rules of Tenhou's list, each broken by a hand-made log, beside a legal twin (see the
rules table in docs/rules.md; test_tamper_legality.py has the first ones)."""

from __future__ import annotations

from tenhou_tools.check import check_log
from tenhou_tools.events import CallKind

from .scenario import Scenario
from .test_tamper_legality import RON3, S0, S1, S2, S3, base, codes


def codes_on(xml: bytes, log_id: str) -> set[str]:
    """The findings of a hand-made log played at the time its game id says."""
    return {f.code.value for f in check_log(xml, path="scenario.xml", log_id=log_id).findings}

# -- abortive draws the rules require -------------------------------------------------------

# four tenpai hands: S0 waits 1p 4p, S1 a 9s tanki, S2 a 6s/7z shanpon, S3 seven pairs on 6z
TENPAI = (S0, "111222m444555p9s", "567m678p345s66s77z", "3377m3377p3377s6z")


def _four_riichi(end: bool) -> bytes:
    b = base(*TENPAI)
    for seat, tile in zip(range(4), ("5z", "5z", "5z", "1z"), strict=True):
        b.draw(seat, tile)
        b.riichi(seat, tile)
    if end:
        return b.ryuukyoku("reach4")
    b.turn(0, "2z")
    return b.ryuukyoku()


def test_four_riichi_must_abort():
    assert "ABORT_MISSING" in codes(_four_riichi(end=False))
    assert not {"ABORT_MISSING", "ABORT_CONDITION"} & codes(_four_riichi(end=True))


def _kans(b: Scenario, seat: int, draw: str, kans: list[tuple[str, str, str]]) -> None:
    """``seat`` draws, declares closed kans (each: its kind, the kan dora revealed at once, the
    replacement draw) and discards the last tile drawn."""
    t = b.draw(seat, draw)
    for kind, dora, replacement in kans:
        b.closed_kan(seat, kind)
        b.raw(f'<DORA hai="{b.take(dora)}"/>')
        t = b.draw(seat, replacement)
    b.discard(seat, tile=t)


def _four_kans(end: bool) -> bytes:
    b = base("1111m2222m345p67z", "3333s4444s567p12z", "99m99p88s112233z4z", "3377m3377p6677s6z")
    _kans(b, 0, "8p", [("1m", "5s", "6p"), ("2m", "5s", "6p")])
    # the fourth kan, by a second player: the hand must abort once its discard passes
    _kans(b, 1, "8p", [("3s", "5s", "4m"), ("4s", "9s", "4m")])
    if end:
        return b.ryuukyoku("kan4")
    b.turn(2, "8s")
    return b.ryuukyoku()


def test_four_kans_by_two_players_must_abort():
    assert "ABORT_MISSING" in codes(_four_kans(end=False))
    assert not {"ABORT_MISSING", "ABORT_CONDITION", "DORA_TIMING", "CALL_TIMING"} & codes(_four_kans(end=True))


# -- riichi ---------------------------------------------------------------------------------

def _ron_on_the_declaration(stick_paid: bool) -> bytes:
    """S0 declares riichi with a 1z that S1 (234567p 789s 11z 22z) wins on; the log pays the
    stick (REACH step 2) or not."""
    b = base(S0, "234567p789s1122z")
    b.draw(0, "1z")
    b.raw('<REACH who="0" step="1"/>')
    t = b.discard(0, "1z")
    if stick_paid:
        b.scores[0] -= 10
        b.raw(f'<REACH who="0" ten="{",".join(map(str, b.scores))}" step="2"/>')
    return b.agari(1, 0, t)


def test_no_stick_for_a_won_on_declaration():
    # 「リーチ宣言牌で放銃した場合は供託料は発生しない」
    assert "RIICHI_STEP" in codes(_ron_on_the_declaration(stick_paid=True))
    assert "RIICHI_STEP" not in codes(_ron_on_the_declaration(stick_paid=False))


def _triple_ron_on_the_declaration(stick_paid: bool, next_sticks: int | None = None) -> set[str]:
    """S0 declares riichi with a 6p that S1, S2 and S3 all win on: a triple ron, an abortive draw;
    the log pays the stick (REACH step 2) or not, and may deal the next hand with ``next_sticks``."""
    b = base(S0, *RON3)
    b.draw(0, "6p")
    b.riichi(0, "6p", accept=stick_paid)
    shown = {s: list(b.hands[s]) for s in (1, 2, 3)}
    if next_sticks is None:
        return codes(b.ryuukyoku("ron3", shown))
    b.next_hand(b.ryuukyoku_tag("ron3", shown, owari=False), [S0, S1, S2, S3], honba=1, sticks=next_sticks)
    b.turn(0, "5z")
    return codes(b.ryuukyoku())


def test_no_stick_for_a_declaration_taken_by_a_triple_ron():
    # as for a ron on it: no stick, and the next hand's sticks are those before (2 genuine games
    # of flagged/)
    assert not {"RIICHI_STEP", "ABORT_CONDITION"} & _triple_ron_on_the_declaration(stick_paid=False)
    assert "RIICHI_STEP" in _triple_ron_on_the_declaration(stick_paid=True)
    assert "CARRY_STICKS" not in _triple_ron_on_the_declaration(stick_paid=False, next_sticks=0)
    assert "CARRY_STICKS" in _triple_ron_on_the_declaration(stick_paid=False, next_sticks=1)


def test_riichi_in_furiten_is_allowed():
    # 「振聴リーチあり」: S0 threw a winning 4p away, then declares riichi: no riichi finding
    b = base()
    b.turn(0, "4p")
    for seat in (1, 2, 3):
        b.turn(seat, "8s" if seat != 3 else "7z")
    b.draw(0, "5z")
    b.riichi(0, "5z")
    assert not {c for c in codes(b.ryuukyoku()) if c.startswith("RIICHI")}


# -- kan dora timing ------------------------------------------------------------------------

def _closed_kan_dora(revealed: bool) -> bytes:
    b = base(S0, S1, S2, "8888s2222s3377m6z")
    b.turn(0, "5z")
    b.turn(1, "6z")
    b.turn(2, "7z")
    b.draw(3, "7z")
    b.closed_kan(3, "8s")
    if revealed:
        b.raw(f'<DORA hai="{b.take("9p")}"/>')
    t = b.draw(3, "6p")  # the replacement draw
    b.discard(3, tile=t)
    return b.ryuukyoku()


def test_a_closed_kan_s_dora_comes_before_its_replacement_draw():
    # 「カンドラは、暗槓は即乗り」
    assert "DORA_TIMING" in codes(_closed_kan_dora(revealed=False))
    assert "DORA_TIMING" not in codes(_closed_kan_dora(revealed=True))


def _added_kan_dora(when: str | None) -> bytes:
    """S1 pons 8s, later draws the fourth and adds it (added kan), draws the replacement tile and
    discards it; the kan dora is revealed ``when``: "before" or "after" the replacement draw, or
    not at all."""
    b = base(S0, "88s44p1357m268p13z")
    b.turn(0, "5z")
    b.turn(1, "6z")
    t = b.draw(2, "8s")
    b.discard(2, tile=t)
    pon = [x for x in b.hands[1] if x >> 2 == t >> 2][:2] + [t]
    b.pon(1, 2, t)
    b.discard(1, "1m")
    for seat, tile in ((2, "7z"), (3, "7z"), (0, "5z")):
        b.turn(seat, tile)
    added = b.draw(1, "8s")
    b.call(1, CallKind.ADDED_KAN, [*pon, added], pon[2], 2, added=added)
    if when == "before":
        b.raw(f'<DORA hai="{b.take("9p")}"/>')
    t = b.draw(1, "6p")  # the replacement draw
    if when == "after":
        b.raw(f'<DORA hai="{b.take("9p")}"/>')
    b.discard(1, tile=t)
    return b.ryuukyoku()


def test_an_added_kan_s_dora_comes_after_its_replacement_draw():
    # 「明槓/加槓は後めくり（打牌または続く嶺上の直前）」
    assert "DORA_TIMING" in codes(_added_kan_dora(None))
    assert "DORA_TIMING" in codes(_added_kan_dora("before"))
    assert "DORA_TIMING" not in codes(_added_kan_dora("after"))


# -- three-player ---------------------------------------------------------------------------

SANMA = ("11m99m11p22p33p4z57z", "19m19p19s1237z666s", "19p19s55566677z1z", "")


def sanma(*hands: str) -> Scenario:
    return Scenario(list(hands) + list(SANMA[len(hands):]), players=3).begin()


def _sanma_call(chi: bool) -> bytes:
    b = sanma("11m99m11p2344p4z57z")  # S0 holds 23p and 44p
    b.turn(0, "8s")
    b.turn(1, "8s")
    t = b.draw(2, "4p")
    b.discard(2, tile=t)  # S2 is S0's left-hand player in three-player
    if chi:
        b.chi(0, 2, t, "23p")
    else:
        b.pon(0, 2, t)
    b.discard(0, "5z")
    return b.ryuukyoku()


def test_no_chi_in_three_player():
    assert "CALL_CHI_SEAT" in codes(_sanma_call(chi=True))
    assert "CALL_CHI_SEAT" not in codes(_sanma_call(chi=False))


def _sanma_draw(tile: str) -> bytes:
    b = sanma()
    b.turn(0, tile)
    return b.ryuukyoku()


def test_three_player_has_no_2m_to_8m():
    assert "TILE_DUPLICATE" in codes(_sanma_draw("5m"))
    assert "TILE_DUPLICATE" not in codes(_sanma_draw("9m"))


SEVEN_PAIRS_ON_NORTH = "11m99m11p99p11s22s4z"  # seven pairs waiting on a North (4z)
RIICHI_IPPATSU_CHIITOI = "1,1,2,1,22,2,52,2,53,0"  # riichi, ippatsu, seven pairs, dora 2 (11s), ura 0


def _ron_on_a_kita(by_discard: bool, yaku: str) -> bytes:
    """S0 declares riichi on seven pairs; S1 sets a North aside (kita) and draws its replacement.
    S0 waits on the North and rons the kita itself, or (``by_discard``) waits on 3s and rons
    S1's discard of the replacement tile."""
    b = sanma("11m99m11p99p11s22s3s" if by_discard else SEVEN_PAIRS_ON_NORTH)
    for seat in (0, 1, 2):
        b.turn(seat, "8s")
    b.draw(0, "5z")
    b.riichi(0, "5z")
    north = b.draw(1, "4z")
    b.call(1, CallKind.KITA, [north], None, None)
    if not by_discard:
        return b.agari(0, 1, north, yaku=yaku)
    t = b.draw(1, "3s")  # the replacement draw ends ippatsu
    b.discard(1, tile=t)
    return b.agari(0, 1, t, yaku=yaku)


def test_ron_on_a_kita_keeps_ippatsu():
    # 「抜き北に対するロンあり」; ippatsu survives a ron on the kita itself, not its replacement draw
    found = codes(_ron_on_a_kita(by_discard=False, yaku=RIICHI_IPPATSU_CHIITOI))
    assert not {"AGARI_WINNER", "AGARI_YAKU", "FURITEN_SAME_TURN"} & found
    assert "AGARI_YAKU" in codes(_ron_on_a_kita(by_discard=True, yaku=RIICHI_IPPATSU_CHIITOI))
    assert "AGARI_YAKU" not in codes(_ron_on_a_kita(by_discard=True, yaku="1,1,22,2,52,2,53,0"))


def _first_turn(b: Scenario, kita: bool) -> None:
    """The dealer S0's first turn: it draws a North and sets it aside (kita), then discards its
    replacement draw; or it discards the North."""
    north = b.draw(0, "4z")
    if kita:
        b.call(0, CallKind.KITA, [north], None, None)
        b.discard(0, tile=b.draw(0, "8s"))
    else:
        b.discard(0, tile=north)


TANKI_ON_EAST = "999p789s234s567s1z"  # S1 waits on an East (1z), with no yaku of its own but menzen


def _nine_terminals_after(kita: bool) -> bytes:
    b = sanma()
    _first_turn(b, kita)
    b.draw(1, "8s")  # S1: ten kinds of terminals and honours
    return b.ryuukyoku("yao9", {1: sorted(b.hands[1])})


def _double_riichi_after(kita: bool) -> bytes:
    """S1 declares riichi on its first discard and wins by tsumo in the same go-around, and the
    log says double riichi (with ippatsu and menzen tsumo)."""
    b = sanma(SANMA[0], TANKI_ON_EAST)
    _first_turn(b, kita)
    b.draw(1, "2z")
    b.riichi(1, "2z")
    b.turn(2, "2z")
    b.turn(0, "3z")
    b.draw(1, "1z")
    return b.agari(1, 1, yaku="0,1,2,1,21,2,53,0")


def _chiihou_after(kita: bool) -> bytes:
    """S1 wins by tsumo on its first draw, and the log says chiihou."""
    b = sanma(SANMA[0], TANKI_ON_EAST)
    _first_turn(b, kita)
    b.draw(1, "1z")
    return b.agari(1, 1, yakuman="38")


def test_a_kita_counts_as_a_call():
    # 「抜きは鳴きと同じ扱い(一発/地和/九種/両立直は消える)」: after the dealer's kita on its first
    # turn, no nine terminals, no double riichi and no chiihou for the next player (ippatsu:
    # test_ron_on_a_kita_keeps_ippatsu); with the North discarded instead, all three stand
    assert "ABORT_CONDITION" in codes(_nine_terminals_after(kita=True))
    assert "ABORT_CONDITION" not in codes(_nine_terminals_after(kita=False))
    assert "AGARI_YAKU" in codes(_double_riichi_after(kita=True))
    assert "AGARI_YAKU" not in codes(_double_riichi_after(kita=False))
    assert "AGARI_YAKUMAN" in codes(_chiihou_after(kita=True))
    assert "AGARI_YAKUMAN" not in codes(_chiihou_after(kita=False))


def _north_then_ron(set_aside: bool) -> bytes:
    """S0 (seven pairs on North) draws a North and sets it aside (kita) or discards it; then S1
    discards a North and S0 rons it."""
    b = sanma(SEVEN_PAIRS_ON_NORTH)
    t = b.draw(0, "4z")
    if set_aside:
        b.call(0, CallKind.KITA, [t], None, None)
        t = b.draw(0, "8s")
    b.discard(0, tile=t)
    north = b.draw(1, "4z")
    b.discard(1, tile=north)
    return b.agari(0, 1, north)


def test_a_kita_tile_is_not_a_discard_for_furiten():
    # 「フリテンは河に捨てられた牌でのみ判定(加槓・抜きでさらした非純手牌を除く)」
    assert "FURITEN_DISCARD" in codes(_north_then_ron(set_aside=False))
    assert "FURITEN_DISCARD" not in codes(_north_then_ron(set_aside=True))


# -- ippatsu and kans -----------------------------------------------------------------------

RIICHI_IPPATSU_CHANKAN = "1,1,2,1,3,1,7,1,24,2,53,0"  # riichi, ippatsu, chankan, pinfu, ittsu, ura 0


def _chankan_after_kans(first: str) -> bytes:
    """S1 pons 4p and 8s; S0 (waits 1p 4p) declares riichi; S1 draws the fourth ``first`` and adds
    it to its pon; if that was the 8s, S1 also adds the fourth 4p after the replacement draw.
    S0 robs the 4p (chankan) and claims ippatsu."""
    b = base(S0, "88s44p1357m268p13z")
    pons: dict[str, list[int]] = {}
    b.turn(0, "5z")
    b.turn(1, "6z")
    for kind, discard in (("4p", "1m"), ("8s", "3m")):
        t = b.draw(2, kind)
        b.discard(2, tile=t)  # S0 lets the 4p pass: furiten until its own discard
        pons[kind] = [x for x in b.hands[1] if x >> 2 == t >> 2][:2] + [t]
        b.pon(1, 2, t)
        b.discard(1, discard)
    b.turn(2, "7z")
    b.turn(3, "7z")
    b.draw(0, "5z")
    b.riichi(0, "5z")
    for kind in ([first] if first == "4p" else ["8s", "4p"]):
        added = b.draw(1, kind)
        tiles = pons[kind]
        b.call(1, CallKind.ADDED_KAN, [*tiles, added], tiles[2], 2, added=added)
    return b.agari(0, 1, added, yaku=RIICHI_IPPATSU_CHANKAN)


def test_no_ippatsu_on_the_second_of_two_kans():
    # 「連続する加槓の２回目には一発は付かない」: the first kan's replacement draw ends ippatsu
    assert "AGARI_YAKU" in codes(_chankan_after_kans(first="8s"))
    assert not {"AGARI_YAKU", "AGARI_WINNER", "FURITEN_SAME_TURN"} & codes(_chankan_after_kans(first="4p"))


# -- pao ------------------------------------------------------------------------------------

def _daisangen_ron(discarder: int, pao: int | None) -> set[str]:
    """S0 pons 5z from S1, 6z from S2 and the third dragon, 7z, from S3 (liable), then rons a 4p
    tanki from ``discarder``; the log writes ``paoWho=pao``."""
    b = base("55z66z77z123m4p9s1s2s")
    b.turn(0, "8s")
    for seat, dragon, junk in ((1, "5z", "9s"), (2, "6z", "1s"), (3, "7z", "2s")):
        for other in range(1, seat):
            b.turn(other, "4s" if other == 1 else "5m")
        t = b.draw(seat, dragon)
        b.discard(seat, tile=t)
        b.pon(0, seat, t)
        b.discard(0, junk)
    for other in range(1, discarder):
        b.turn(other, "6s")
    t = b.draw(discarder, "4p")
    b.discard(discarder, tile=t)
    return codes(b.agari(0, discarder, t, pao=pao))


def test_no_pao_when_the_liable_player_deals_in():
    # Tenhou writes no paoWho when the liable S3 deals in the winning tile himself (7 genuine
    # games in flagged/): the ordinary ron
    assert "AGARI_PAO" not in _daisangen_ron(discarder=3, pao=None)
    assert "AGARI_PAO" in _daisangen_ron(discarder=3, pao=3)
    # another discarder: the liable S3 still shares the payment, and paoWho must name it
    assert "AGARI_PAO" in _daisangen_ron(discarder=1, pao=None)
    assert "AGARI_PAO" not in _daisangen_ron(discarder=1, pao=3)


# -- the end of the game --------------------------------------------------------------------

LATE_2015 = "2015010112gm-00a9-0000-00000000"
W4, S4 = 11, 7  # round indexes of West 4 and South 4: seat 3 deals both


def _dealer_wins_the_last_round(dealer_score: int, *, goes_on: bool) -> bytes:
    """West 4 of an East-South game, the last possible round since 2009-07-04: the dealer S3,
    top with ``dealer_score`` (hundreds), wins by tsumo. The log ends the game there, or deals
    West 4 again, where S0 wins by tsumo and the game ends."""
    scores = [270, 220, 1000 - 270 - 220 - dealer_score, dealer_score]
    b = Scenario([S1, S2, S3, S0], scores=scores, round_index=W4).begin()
    b.draw(3, "1p")
    if not goes_on:
        return b.agari(3, 3)
    b.next_hand(b.agari_tag(3, 3, owari=False), [S0, S1, S2, S3], round_index=W4, honba=1)
    b.turn(3, "5z")
    b.draw(0, "1p")
    return b.agari(0, 0)


def test_the_top_dealer_below_30000_plays_on_in_the_last_round():
    # 「サドンデスルールは、30000点(供託未収)以上になった時点で終了、ただし親の連荘がある場合は連荘を
    # 優先する」: the renchan goes first in West 4 too; only the dealer's agari-yame (top with
    # 30,000) ends the game there (28 genuine hands, in the corpus's flagged/ games)
    assert "GAME_END" not in codes_on(_dealer_wins_the_last_round(290, goes_on=True), LATE_2015)
    assert "GAME_END" in codes_on(_dealer_wins_the_last_round(290, goes_on=False), LATE_2015)
    # with 30,000 the dealer's win ends the game, on any date
    assert "GAME_END" not in codes(_dealer_wins_the_last_round(310, goes_on=False))
    assert "GAME_END" in codes(_dealer_wins_the_last_round(310, goes_on=True))


def _dealer_tenpai_at_south_4(log_id: str, *, goes_on: bool) -> set[str]:
    """South 4: the dealer S3, top with 31,000, is tenpai at the draw (the wall is not drained:
    only the end of the game is read here). The log ends the game there or deals South 4 again."""
    b = Scenario([S1, S2, "2468m5678p1357s6z", S0], scores=[270, 220, 200, 310], round_index=S4).begin()
    shown = {3: list(b.hands[3])}
    if not goes_on:
        return codes_on(b.ryuukyoku(shown=shown), log_id)
    b.next_hand(b.ryuukyoku_tag(shown=shown, owari=False), [S1, S2, S3, S0], round_index=S4, honba=1)
    b.draw(3, "1p")
    return codes_on(b.agari(3, 3), log_id)


def test_tenpai_yame_came_during_2010_06_01():
    # 2010060106gm-00a9-0000-30d6de3b played on after the top dealer's tenpai; the first game to
    # stop there started at 22:xx that day (2010060122gm-0029-0000-64c7f112): the id's hour decides
    before, after = "2010060106gm-00a9-0000-00000000", "2010060122gm-0029-0000-00000000"
    assert "GAME_END" not in _dealer_tenpai_at_south_4(before, goes_on=True)
    assert "GAME_END" in _dealer_tenpai_at_south_4(before, goes_on=False)
    assert "GAME_END" not in _dealer_tenpai_at_south_4(after, goes_on=False)
    assert "GAME_END" in _dealer_tenpai_at_south_4(after, goes_on=True)
