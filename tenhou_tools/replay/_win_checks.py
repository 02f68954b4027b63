"""A win (``AGARI``) against the table state before it: the tile won on, furiten, the hand and
melds, the dora, the value (yaku, han, fu, points, limit), pao, the scores before and the
payments. The state applies the win afterwards (``TableState.apply_win``).

The rules are pure functions in ``tenhou_tools.rules`` (``scoring``, ``payments``, ``furiten``,
``pao``); this module asks them and compares their answers with the log.
"""

from __future__ import annotations

from typing import Final

# build: a frozen value made by setting its slots (the _native kernel), not through the dataclass's
# __init__: the WinContext of every win, about 0.3 M of a game's 6.5 M instructions in check_log
# (scripts/bench_callgrind.py, 100 corpus games, 2026-11-29).
from .._native import build
from ..events import Agari, CallKind, Meld
from ..findings import FindingCode as F
from ..rules.pao import pao_seat
from ..rules.payments import win_deltas
from ..rules.scoring import (
    ScoredHand,
    ScoringRefusal,
    ScoringRules,
    WinContext,
    score_win,
)
from ..rules.wall import HandWall
from ..rules.yaku import limit_name, yaku_difference, yakuman_names
from ..tiles import format_tiles
from ._recorder import Recorder
from .checks import CheckKind as K
from .state import TableState

# Call kinds and check kinds read for every win, bound once: a C global in compiled code, where
# ``Enum.MEMBER`` goes through the enum's ``__getattr__`` hook each time. Measured: without this
# block check_log takes 0.15 M more of a game's 6.6 M instructions (2 %; scripts/bench_callgrind.py,
# 100 corpus games, 2026-11-29).
_CALL_ADDED_KAN: Final = CallKind.ADDED_KAN
_CALL_CLOSED_KAN: Final = CallKind.CLOSED_KAN
_K_AGARI: Final = K.AGARI
_K_AGARI_DORA: Final = K.AGARI_DORA
_K_AGARI_HAND: Final = K.AGARI_HAND
_K_AGARI_ORDER: Final = K.AGARI_ORDER
_K_AGARI_PAO: Final = K.AGARI_PAO
_K_AGARI_VALUE: Final = K.AGARI_VALUE
_K_BA: Final = K.BA
_K_FURITEN: Final = K.FURITEN
_K_FU_NOT_CHECKABLE: Final = K.FU_NOT_CHECKABLE
_K_PAYMENT: Final = K.PAYMENT
_K_PAYMENT_NOT_CHECKABLE: Final = K.PAYMENT_NOT_CHECKABLE
_K_RIICHI_ACCEPTED: Final = K.RIICHI_ACCEPTED
_K_SCORES_BEFORE: Final = K.SCORES_BEFORE
_K_WALL_URA: Final = K.WALL_URA


def check_agari(rec: Recorder, table: TableState, a: Agari, scoring: ScoringRules, chips: bool,
                wall: HandWall | None) -> None:
    """Check one win against the table before it."""
    init = table.init
    n = table.players
    who, from_who = a.who, a.from_who
    first = not table.wins
    tsumo = who == from_who
    chankan = False
    kita = False
    seat = table.seats[who]
    # what was won on, from the replay
    win_tile = -1
    rinshan = False
    problem = ""
    if tsumo:
        last = table.last_draw
        if first and last is not None and last.seat == who:
            win_tile, rinshan = last.tile, last.rinshan
        else:
            problem = f"S{who}'s tsumo does not follow S{who}'s draw"
    else:
        call = table.last_call
        discard = table.last_discard
        if call is not None and call.seat == from_who and call.meld.kind is not _CALL_CLOSED_KAN:
            added = call.meld.added
            if call.meld.kind is _CALL_ADDED_KAN and added is not None:
                win_tile, chankan = added, True
            else:
                win_tile, kita = call.meld.tiles[0], True
        elif discard is not None and discard.seat == from_who:
            win_tile = discard.tile
        elif call is not None and call.seat == from_who:
            problem = f"S{who} robs S{from_who}'s closed kan: Tenhou allows no ron on a closed kan"
        else:
            problem = f"S{who}'s ron names S{from_who}, who did not just discard"
    if not rec.check(_K_AGARI, not problem):
        rec.find(F.AGARI_WINNER, problem)
        check_scores(rec, table, a)
        return
    if tsumo:
        concealed = list(seat.concealed)
    else:
        concealed = [*seat.concealed, win_tile]
        check_furiten(rec, table, who)
        giver = table.seats[from_who]
        if not chankan and not kita and giver.riichi_discard == len(giver.pond) - 1:
            # 「リーチ宣言牌で放銃した場合は供託料は発生しない」: no stick for a won-on declaration
            if not rec.check(_K_RIICHI_ACCEPTED, giver.riichi != 2):
                rec.find(F.RIICHI_STEP, f"S{from_who}'s riichi is accepted (REACH step 2) although its "
                         "declaration discard is won on")
    if not first:
        prev = table.wins[-1]
        if not rec.check(_K_AGARI_ORDER, prev.from_who == from_who
                         and (prev.who - from_who) % 4 < (who - from_who) % 4):
            rec.find(F.AGARI_ORDER, "the wins of a multiple ron are not in turn order from the discarder",
                     None, [prev.who, who])
    check_hand(rec, table, a, concealed, win_tile, wall)
    ctx = win_context(table, who, concealed, win_tile, scoring, tsumo=tsumo, rinshan=rinshan, chankan=chankan,
                      kita=kita, ura=a.ura_indicators)
    scored = score_win(ctx)
    pao = pao_seat(seat.melds, who, None if tsumo else from_who)
    if isinstance(scored, ScoringRefusal):
        code = F.AGARI_NO_YAKU if scored.reason.name == "NO_YAKU" else F.AGARI_NOT_WINNING
        rec.check(_K_AGARI_VALUE, False)
        rec.find(code, f"S{who}'s win cannot be scored: {scored.message}")
        rec.not_checkable(_K_PAYMENT_NOT_CHECKABLE)
    else:
        compare_value(rec, scored, a)
        if chips and table.honba:
            # Chip tables' honba payments disagree between lobbies in the corpus.
            rec.not_checkable(_K_PAYMENT_NOT_CHECKABLE)
        else:
            deltas = win_deltas(scored.base, winner=who, discarder=None if tsumo else from_who,
                                dealer=init.dealer, players=n, honba=table.honba,
                                sticks=table.sticks, collects_bonus=first, pao=pao)
            if not rec.check(_K_PAYMENT, tuple(deltas) == tuple(a.deltas)):
                rec.find(F.PAYMENT, f"S{who}'s win: the score changes (sc) are wrong", list(deltas), list(a.deltas))
    if not rec.check(_K_AGARI_PAO, pao == a.pao_who):
        rec.find(F.AGARI_PAO, "the seat liable for the yakuman (paoWho) is wrong", pao, a.pao_who)
    check_scores(rec, table, a)


def win_context(table: TableState, who: int, concealed: list[int], win_tile: int, scoring: ScoringRules, *,
                tsumo: bool, rinshan: bool, chankan: bool, kita: bool, ura: tuple[int, ...]) -> WinContext:
    """The situation of a win by ``who`` on ``win_tile`` now, as the valuation takes it:
    ``concealed`` holds the winning tile; a ron (not ``tsumo``) is on a discard, or on an added
    kan's tile (``chankan``) or a kita (``kita``); ``ura`` the ura indicators (read for a riichi
    winner only)."""
    init = table.init
    seat = table.seats[who]
    remaining = table.live_remaining()
    in_riichi = seat.riichi == 2
    first_turn = not seat.pond and not table.any_call
    return build(
        WinContext,
        concealed=tuple(concealed),
        melds=tuple(seat.melds),
        win_tile=win_tile,
        tsumo=tsumo,
        seat_wind=(who - init.dealer) % table.players,
        round_wind=init.wind,
        riichi=in_riichi and not seat.double_riichi,
        double_riichi=in_riichi and seat.double_riichi,
        ippatsu=in_riichi and seat.ippatsu,
        haitei=tsumo and not rinshan and remaining == 0,
        houtei=not tsumo and not chankan and remaining == 0 and not kita,
        rinshan=tsumo and rinshan,
        chankan=chankan,
        tenhou=tsumo and first_turn and who == init.dealer,
        chiihou=tsumo and first_turn and who != init.dealer,
        dora_indicators=tuple(table.dora),
        ura_indicators=tuple(ura) if in_riichi else (),
        rules=scoring,
    )


def check_furiten(rec: Recorder, table: TableState, who: int) -> None:
    """Furiten at a ron, judged once with the winner's waits at the ron (tsumo is allowed)."""
    found = table.furiten_of(who, skip_last=True)
    if rec.check(_K_FURITEN, not found.any):
        return
    if found.discard:
        rec.find(F.FURITEN_DISCARD, f"S{who} rons while a winning tile is in their own river (furiten)",
                 [], list(found.discard))
    if found.same_turn:
        rec.find(F.FURITEN_SAME_TURN,
                 f"S{who} rons after letting a winning tile pass since their last discard (same-turn furiten)",
                 [], list(found.same_turn))
    if found.riichi:
        rec.find(F.FURITEN_RIICHI, f"S{who} rons after letting a winning tile pass in riichi (riichi furiten)",
                 [], list(found.riichi))


def check_hand(rec: Recorder, table: TableState, a: Agari, concealed: list[int], win_tile: int,
               wall: HandWall | None) -> None:
    """The hand, the melds and the winning tile (three agari_hand checks), the dora and ura
    indicators (two agari_dora checks) and the ura indicators against the seed."""
    who = a.who
    if not rec.check(_K_AGARI_HAND, sorted(concealed) == sorted(a.hand)):
        rec.find(F.AGARI_HAND, f"S{who}'s winning hand (hai) is not the replayed hand",
                 format_tiles(concealed), format_tiles(a.hand))
    my_melds = table.seats[who].melds
    same = len(my_melds) == len(a.melds) and (not my_melds or sorted(
        _meld_key(m) for m in my_melds) == sorted(_meld_key(m) for m in a.melds))
    if not rec.check(_K_AGARI_HAND, same):
        ours = sorted(_meld_key(m) for m in my_melds)
        theirs = sorted(_meld_key(m) for m in a.melds)
        stated = ", ".join(_meld_words(k) for k in theirs if k not in ours) or "no other meld"
        replayed = ", ".join(_meld_words(k) for k in ours if k not in theirs) or "no other meld"
        rec.find(F.AGARI_MELDS, f"S{who}'s melds (m) are not the replayed melds: the log states {stated}; "
                 f"the replay has {replayed}", [list(k[1]) for k in ours], [list(k[1]) for k in theirs])
    if not rec.check(_K_AGARI_HAND, win_tile == a.win_tile):
        rec.find(F.AGARI_WIN_TILE, f"S{who}'s winning tile (machi) is not the tile won on", win_tile, a.win_tile)
    dora = table.dora
    if not rec.check(_K_AGARI_DORA, tuple(dora) == tuple(a.dora_indicators)):
        rec.find(F.AGARI_DORA, "the dora indicators (doraHai) are not the ones revealed",
                 list(dora), list(a.dora_indicators))
    expected_ura = len(dora) if table.seats[who].riichi == 2 else 0
    if not rec.check(_K_AGARI_DORA, len(a.ura_indicators) == expected_ura):
        rec.find(F.AGARI_URA, "the number of ura dora indicators (doraHaiUra) is wrong",
                 expected_ura, len(a.ura_indicators))
    if wall is not None and a.ura_indicators:
        k = len(a.ura_indicators)
        if not rec.check(_K_WALL_URA, tuple(a.ura_indicators) == wall.ura_indicators[:k]):
            rec.find(F.WALL_URA, "the ura dora indicators are not the seed's",
                     list(wall.ura_indicators[:k]), list(a.ura_indicators))


def _meld_key(m: Meld) -> tuple[str, tuple[int, ...], int, int, int]:
    """What ``AGARI m`` restates of a meld its ``N`` tag made: kind, tiles, the called tile, the
    seat it came from and the added tile (-1 for none)."""
    return (m.kind.value, m.tiles, -1 if m.called is None else m.called,
            -1 if m.from_seat is None else m.from_seat, -1 if m.added is None else m.added)


def _meld_words(key: tuple[str, tuple[int, ...], int, int, int]) -> str:
    """A meld's ``_meld_key`` in words: ``pon 777z (7z from S1)``, ``added_kan 5555p (5p from S2,
    adding 5p)``, ``closed_kan 1111m``: every part the comparison holds, so a difference shows."""
    kind, tiles, called, from_seat, added = key
    parts = []
    if called >= 0:
        parts.append(f"{format_tiles([called])} (id {called})" + (f" from S{from_seat}" if from_seat >= 0 else ""))
    elif from_seat >= 0:
        parts.append(f"from S{from_seat}")
    if added >= 0:
        parts.append(f"adding {format_tiles([added])} (id {added})")
    return f"{kind} {format_tiles(list(tiles))}" + (f" ({', '.join(parts)})" if parts else "")


def compare_value(rec: Recorder, scored: ScoredHand, a: Agari) -> None:
    """Yaku (or yakuman), fu, points and limit: one agari_value check, a finding per part that
    differs."""
    rec.check(_K_AGARI_VALUE, True)
    who = f"S{a.who}"
    if scored.yakuman or a.yakuman:
        if sorted(scored.yakuman) != sorted(a.yakuman):
            rec.find(F.AGARI_YAKUMAN, f"{who}'s yakuman are wrong: {yakuman_names(sorted(scored.yakuman))} by "
                     f"the rules, the log says {yakuman_names(sorted(a.yakuman))}",
                     sorted(scored.yakuman), sorted(a.yakuman))
        if a.yaku:  # a yakuman win states its yakuman only (no yaku, no dora)
            rec.find(F.AGARI_YAKU, f"{who}'s yakuman win also lists yaku: {yaku_difference((), a.yaku)}",
                     [], sorted(map(list, a.yaku)))
    elif sorted(scored.yaku) != sorted(a.yaku):
        rec.find(F.AGARI_YAKU, f"{who}'s yaku are wrong: {yaku_difference(scored.yaku, a.yaku)}",
                 sorted(map(list, scored.yaku)), sorted(map(list, a.yaku)))
    if a.fu is None:
        rec.not_checkable(_K_FU_NOT_CHECKABLE)
    elif scored.fu != a.fu:
        rec.find(F.AGARI_FU, f"{who}'s fu are wrong", scored.fu, a.fu)
    if scored.points != a.points:
        rec.find(F.AGARI_POINTS, f"{who}'s hand value (ten) is wrong", scored.points, a.points)
    if int(scored.limit) != a.limit:
        rec.find(F.AGARI_LIMIT, f"{who}'s limit (ten) is wrong: {limit_name(int(scored.limit))} by the "
                 f"rules, the log says {limit_name(a.limit)}", int(scored.limit), a.limit)


def check_scores(rec: Recorder, table: TableState, a: Agari) -> None:
    """``sc`` before the win and ``ba``: the running scores, the hand's honba and the sticks
    still on the table (the first winner takes them)."""
    if not rec.check(_K_SCORES_BEFORE, list(a.scores_before) == table.scores):
        rec.find(F.SCORES_BEFORE, "the scores before the win (sc) are not the running scores",
                 list(table.scores), list(a.scores_before))
    if not rec.check(_K_BA, a.honba == table.honba and a.sticks == table.sticks):
        rec.find(F.BA, "honba and riichi sticks (ba) are not the ones on the table",
                 [table.honba, table.sticks], [a.honba, a.sticks])
