"""A hand that ends without a win (``RYUUKYOKU``) against the table state before it: the
exhaustive draw's tenpai hands, nagashi mangan and payments, and each abortive draw's condition.
The state applies the draw afterwards (``TableState.apply_ryuukyoku``).

The rules are pure functions in ``rules.draws`` and ``rules.payments``; this module asks them
and compares their answers with the log.
"""

from __future__ import annotations

from ..events import CallKind, DrawKind, Ryuukyoku
from ..findings import FindingCode as F
from ..rules.draws import (
    four_kans_abort,
    four_riichi,
    four_winds,
    is_tenpai,
    nagashi_mangan,
    nine_terminals_allowed,
    wins_on,
)
from ..rules.payments import exhaustive_draw_deltas, nagashi_deltas
from ..rules.scoring import ScoringRules, ron_allowed
from ..tiles import format_tiles
from ._recorder import Recorder
from ._win_checks import win_context
from .checks import CheckKind as K
from .state import TableState


def check_ryuukyoku(rec: Recorder, table: TableState, r: Ryuukyoku, scoring: ScoringRules) -> None:
    """Check a draw against the table before it."""
    rec.check(K.RYUUKYOKU, True)
    if not rec.check(K.SCORES_BEFORE, list(r.scores_before) == table.scores):
        rec.find(F.SCORES_BEFORE, "the scores before the draw (sc) are not the running scores",
                 list(table.scores), list(r.scores_before))
    if not rec.check(K.BA, (r.honba, r.sticks) == (table.honba, table.sticks)):
        rec.find(F.BA, "honba and riichi sticks (ba) are not the ones on the table",
                 [table.honba, table.sticks], [r.honba, r.sticks])
    shown_hands(rec, table, r)
    if r.kind is DrawKind.EXHAUSTIVE or r.kind is DrawKind.NAGASHI_MANGAN:
        exhaustive_draw(rec, table, r)
    else:
        if not rec.check(K.DRAW_PAYMENT, not any(r.deltas)):
            rec.find(F.DRAW_PAYMENT, "an abortive draw moves points", [0, 0, 0, 0], list(r.deltas))
        abortive_condition(rec, table, r, scoring)


def shown_hands(rec: Recorder, table: TableState, r: Ryuukyoku) -> None:
    """The hands a draw shows beyond what its own checks read: none for a three-player table's
    empty seat (``hai3``), none at four winds and four kans, all four at four riichi, each the
    replayed hand (the exhaustive draw's, nine terminals' and triple ron's are read by their
    checks)."""
    n = table.players
    for seat in range(n, 4):
        if not rec.check(K.DRAW_HAND, r.hands[seat] is None):
            rec.find(F.DRAW_HAND, f"the draw shows a hand for the empty seat S{seat}", None,
                     format_tiles(r.hands[seat] or ()))
    kind = r.kind
    if kind is DrawKind.FOUR_WINDS or kind is DrawKind.FOUR_KANS:
        shown = [s for s in range(n) if r.hands[s] is not None]
        if not rec.check(K.DRAW_HAND, not shown):
            rec.find(F.DRAW_HAND, f"an abortive draw ({kind.value}) shows hands", [], shown)
    elif kind is DrawKind.FOUR_RIICHI:
        for seat in range(n):
            hand = table.seats[seat].concealed
            shown_hand = r.hands[seat]
            if not rec.check(K.DRAW_HAND, shown_hand is not None and sorted(shown_hand) == sorted(hand)):
                rec.find(F.DRAW_HAND, f"four riichi (reach4): S{seat}'s shown hand is not the replayed hand",
                         format_tiles(hand), None if shown_hand is None else format_tiles(shown_hand))


def exhaustive_draw(rec: Recorder, table: TableState, r: Ryuukyoku) -> None:
    """Tenpai hands shown, the wall empty, nagashi mangan and the payments."""
    n = table.players
    tenpai = [False] * 4
    for seat in range(n):
        hand = table.seats[seat].concealed
        tenpai[seat] = is_tenpai(hand)
        shown = r.hands[seat]
        if not rec.check(K.DRAW_TENPAI, tenpai[seat] == (shown is not None)):
            rec.find(F.DRAW_TENPAI, f"S{seat} is {'tenpai' if tenpai[seat] else 'noten'} but the log says otherwise",
                     tenpai[seat], shown is not None)
        if shown is not None and not rec.check(K.DRAW_HAND, sorted(shown) == sorted(hand)):
            rec.find(F.DRAW_HAND, f"S{seat}'s shown hand is not the replayed hand",
                     format_tiles(hand), format_tiles(shown))
    remaining = table.live_remaining()
    if not rec.check(K.DRAW_CONDITION, remaining == 0):
        rec.find(F.DRAW_TENPAI, "an exhaustive draw while the live wall still has tiles", 0, remaining)
    nagashi = [s for s in range(n) if nagashi_mangan([d.tile for d in table.seats[s].pond],
                                                     len(table.seats[s].called_away))]
    claimed = r.kind is DrawKind.NAGASHI_MANGAN
    if not rec.check(K.NAGASHI, bool(nagashi) == claimed):
        rec.find(F.NAGASHI, "nagashi mangan is " + ("missing" if nagashi else "claimed without its condition"),
                 nagashi, claimed)
    if nagashi:
        deltas = nagashi_deltas(nagashi, dealer=table.init.dealer, players=n)
    else:
        deltas = exhaustive_draw_deltas(tenpai, players=n)
    if not rec.check(K.DRAW_PAYMENT, list(deltas) == list(r.deltas)):
        rec.find(F.DRAW_PAYMENT, "the tenpai/noten or nagashi payments are wrong", list(deltas), list(r.deltas))


def abortive_condition(rec: Recorder, table: TableState, r: Ryuukyoku, scoring: ScoringRules) -> None:
    """Each abortive draw only with its condition (tochuu ryuukyoku)."""
    kind = r.kind
    n = table.players
    shown = [s for s in range(n) if r.hands[s] is not None]
    if kind is DrawKind.NINE_TERMINALS:
        last = table.last_draw
        seat = last.seat if last is not None else None
        ok = False
        if seat is not None:
            s = table.seats[seat]
            ok = (shown == [seat] and nine_terminals_allowed(s.concealed, len(s.pond), table.any_call)
                  and sorted(r.hands[seat] or ()) == sorted(s.concealed))
        if not rec.check(K.ABORT, ok):
            rec.find(F.ABORT_CONDITION, "nine terminals (yao9) declared without its condition: the declarer's "
                     "first draw, no call, nine kinds of terminals and honours", None, seat)
    elif kind is DrawKind.FOUR_WINDS:
        if not rec.check(K.ABORT, n == 4 and not table.any_call and four_winds(table.first_discards)):
            rec.find(F.ABORT_CONDITION,
                     "four winds (kaze4) declared without four first discards of one wind and no call")
    elif kind is DrawKind.FOUR_RIICHI:
        if not rec.check(K.ABORT, four_riichi([s.riichi == 2 for s in table.seats[:n]], n)):
            rec.find(F.ABORT_CONDITION, "four riichi (reach4) declared without four riichi")
    elif kind is DrawKind.FOUR_KANS:
        kans = table.kans_by_seat()
        if not rec.check(K.ABORT, four_kans_abort(kans) and table.last_discard is not None):
            rec.find(F.ABORT_CONDITION,
                     "four kans (kan4) declared without four kans by two or more players", 4, kans)
    elif kind is DrawKind.TRIPLE_RON:
        tile = robbable_tile(table)
        ok = tile is not None and len(shown) == 3 and robbable_seat(table) not in shown
        for seat in shown:
            hand = table.seats[seat].concealed
            ok = (ok and tile is not None and sorted(r.hands[seat] or ()) == sorted(hand) and wins_on(hand, tile)
                  and may_ron(table, seat, tile, scoring))
        if not rec.check(K.ABORT, ok):
            rec.find(F.ABORT_CONDITION, "triple ron (ron3) declared without three players who may each win "
                     "on the tile (a winning hand with a yaku, not furiten)", None, shown)
        declaration_won_on(rec, table)


def may_ron(table: TableState, seat: int, tile: int, scoring: ScoringRules) -> bool:
    """Whether ``seat`` may ron ``tile``, the tile on offer now (``robbable_tile``), as any ron:
    a yaku and no furiten (``rules.scoring.ron_allowed``)."""
    call = table.last_call
    added = call is not None and call.meld.kind is CallKind.ADDED_KAN
    kita = call is not None and call.meld.kind is CallKind.KITA
    ctx = win_context(table, seat, [*table.seats[seat].concealed, tile], tile, scoring, tsumo=False,
                      rinshan=False, chankan=added, kita=kita, ura=())
    return ron_allowed(ctx, table.furiten_of(seat, skip_last=True).any)


def declaration_won_on(rec: Recorder, table: TableState) -> None:
    """A triple ron on a riichi declaration discard: no stick, as for a ron on it
    (「リーチ宣言牌で放銃した場合は供託料は発生しない」); a REACH step 2 before it is a finding."""
    discard = table.last_discard
    if discard is None or table.last_call is not None:
        return
    giver = table.seats[discard.seat]
    if giver.riichi_discard == len(giver.pond) - 1 and not rec.check(K.RIICHI_ACCEPTED, giver.riichi != 2):
        rec.find(F.RIICHI_STEP, f"S{discard.seat}'s riichi is accepted (REACH step 2) although its "
                 "declaration discard is taken by a triple ron")


def robbable_tile(table: TableState) -> int | None:
    """The tile others could win on now: the last discard, added-kan tile or kita."""
    call = table.last_call
    if call is not None:
        meld = call.meld
        if meld.kind is CallKind.ADDED_KAN:
            return meld.added
        if meld.kind is CallKind.KITA:
            return meld.tiles[0]
        return None
    return table.last_discard.tile if table.last_discard is not None else None


def robbable_seat(table: TableState) -> int | None:
    """The seat whose tile others could win on now (see ``robbable_tile``)."""
    if table.last_call is not None:
        return table.last_call.seat
    return table.last_discard.seat if table.last_discard is not None else None
