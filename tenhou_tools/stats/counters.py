"""Additive per-player counters, and their extraction from one parsed game.

``game_counters(game)`` reads a ``Game`` through the one fold (``replay.fold``: each hand's table
state after its last event, without the replay's checks; every statistic is a fact of that
state or of the results the log records) and returns one ``PlayerCounters`` per player, keyed
by ``(name, players)`` so that four-player and three-player games never meet in one row.
Counters hold integers only and add up (``a + b``, ``sum(counters)``), so one game, a batch
from a worker process, a Dask task and the rows of the SQLite store all merge the same way;
rates and averages are computed at report time (``report.py``). What each counter counts is
written on the field and, with the denominators of the rates built from them, in
``docs/stats.md``.

Conventions used throughout:

- A **hand** is one ``INIT`` (kyoku), abortive draws included; every seat at the table plays it.
- A player's **turn** at some moment of a hand is 1 + the number of tiles that player has
  discarded so far in the hand (calls followed by a discard advance it like any discard). So the
  riichi turn is the position of the riichi discard in the player's river, a deal-in's turn is
  the position of the tile dealt in (for a robbed kan: the turn the kan was made in), and a win's
  turn counts the winner's discards before the win, plus one.
- A player is **in riichi** from the declaration (``REACH`` step 1) on; the hand is **open** once
  the player has called chi, pon or an open kan (an added kan upgrades an earlier pon; closed kans
  and kita keep a hand closed); **dama** is closed and not in riichi. These states are taken at
  the moment the hand ends.
- **Points** of a win are the hand's value as the log states it (``AGARI ten``, second value):
  without honba and riichi sticks; for a tsumo, the sum of all payments.
- A player's **hand balance** is the change of their score over the hand: the ``sc`` deltas of
  every ending of the hand (both wins of a double ron), minus 1000 for their own accepted riichi
  stick. The sticks left on the table at the end of the game go to first place in the final
  score but belong to no hand, so they are not in any balance.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any

from ..events import Agari, CallKind, DrawKind, Game, Ryuukyoku
from ..replay.fold import game_states
from ..replay.state import NOBODY, TableState
from ..rules.draws import nagashi_mangan
from ..rules.game_end import ranking
from ..rules.payments import RIICHI_STICK
from ..rules.yaku import DORA_IDS

__all__ = ["COUNTER_FIELDS", "COUNTERS_VERSION", "PlayerCounters", "PlayerKey", "game_counters"]

PlayerKey = tuple[str, int]
"""``(name, players)``: a player's name and the table size (4 or 3)."""

COUNTERS_VERSION = 4
"""Bumped whenever a counter is added, removed or changes meaning (the SQLite store checks it)."""



@dataclass(frozen=True, slots=True)
class PlayerCounters:
    """Integer counts for one player over some games. ``a + b`` merges; ``sum()`` works.

    Everything is a plain count or a sum of integer amounts (points, turns, tenths of a game
    point); nothing is a rate. "Hand" means a hand the player sat in; see the module docstring
    for turns, riichi, open, dama, points and balance.
    """

    # --- games and placement
    games: int = 0
    """Games played."""
    hands: int = 0
    """Hands played (every ``INIT`` of the player's games, abortive draws included)."""
    dealer_hands: int = 0
    """Hands played as dealer."""
    rank1: int = 0
    """Games finished first (final score order; a tie goes to the seat nearer the first dealer)."""
    rank2: int = 0
    rank3: int = 0
    rank4: int = 0
    """Games finished fourth (always 0 in three-player games)."""
    busts: int = 0
    """Games finished with a final score below zero (tobi)."""
    final_points: int = 0
    """Sum of the game results Tenhou wrote in ``owari`` (after return, oka and uma), in tenths."""
    final_points_sq: int = 0
    """Sum of the squares of those results (tenths squared), for a confidence interval."""
    final_score: int = 0
    """Sum of the final scores in ``owari`` (points, leftover riichi sticks given to first place)."""

    # --- wins
    wins: int = 0
    """Hands won (an ``AGARI`` naming the player as ``who``; each winner of a double ron counts)."""
    tsumo_wins: int = 0
    win_points: int = 0
    """Sum of the points of the player's wins."""
    dealer_wins: int = 0
    dealer_win_points: int = 0
    riichi_wins: int = 0
    riichi_win_points: int = 0
    open_wins: int = 0
    open_win_points: int = 0
    dama_wins: int = 0
    """Wins with a closed hand and no riichi."""
    dama_win_points: int = 0
    win_turns: int = 0
    """Sum of the turns of the player's wins."""
    win_balance: int = 0
    """Sum of the hand balance over the hands the player won (honba and sticks included)."""
    dora_han: int = 0
    """Sum of the dora, ura dora and red five han of the player's (non-yakuman) wins."""
    yakuman: int = 0
    """Wins with at least one yakuman (the ``yakuman`` attribute), not counting kazoe yakuman."""
    kazoe_yakuman: int = 0
    """Wins valued at yakuman by counting han (limit yakuman without a yakuman yaku)."""

    # --- dealing in
    deal_ins: int = 0
    """Ron wins of other players on the player's discard (or robbed kan). A double ron counts twice."""
    deal_in_hands: int = 0
    """Hands in which the player dealt in (a double ron counts once): the deal-in rate's count."""
    deal_in_points: int = 0
    """Sum of the points of the wins dealt into."""
    deal_in_turns: int = 0
    """Sum of the turns of the tiles dealt in, once per deal-in hand."""
    deal_in_balance: int = 0
    """Sum of the hand balance over the deal-in hands."""
    deal_ins_to_dealer: int = 0
    deal_in_points_to_dealer: int = 0
    deal_ins_to_riichi: int = 0
    """Deal-ins to a winner in riichi."""
    deal_in_points_to_riichi: int = 0
    deal_ins_to_open: int = 0
    """Deal-ins to a winner with an open hand."""
    deal_in_points_to_open: int = 0
    deal_ins_to_dama: int = 0
    """Deal-ins to a winner with a closed hand and no riichi."""
    deal_in_points_to_dama: int = 0
    tsumo_paid: int = 0
    """Hands in which another player won by tsumo (the player paid a share)."""
    tsumo_paid_points: int = 0
    """Sum of what the player paid in those hands (positive; honba included)."""

    # --- riichi
    riichi: int = 0
    """Hands in which the player declared riichi (``REACH`` step 1, also when the riichi tile
    was ronned and no stick was paid)."""
    riichi_chasing: int = 0
    """Riichi declared after another player had declared riichi in the same hand."""
    riichi_chased: int = 0
    """Riichi after which another player declared riichi in the same hand."""
    riichi_turns: int = 0
    """Sum of the turns of the riichi discards."""
    riichi_won: int = 0
    """Riichi hands the player won. The six ``riichi_*`` outcomes add up to ``riichi``."""
    riichi_dealt_in: int = 0
    """Riichi hands in which the player dealt in (the riichi tile itself included)."""
    riichi_tsumo_by_other: int = 0
    """Riichi hands another player won by tsumo."""
    riichi_other_ron: int = 0
    """Riichi hands won by ron off a third player's discard."""
    riichi_exhaustive: int = 0
    """Riichi hands that ended in an exhaustive draw (or nagashi mangan)."""
    riichi_abortive: int = 0
    """Riichi hands that ended in an abortive draw (four riichi, triple ron, four kans)."""
    riichi_balance: int = 0
    """Sum of the hand balance over the riichi hands (the stick paid included)."""

    # --- calls
    calls: int = 0
    """Hands with at least one open call (chi, pon or open kan) by the player."""
    call_count: int = 0
    """Open calls made (chi, pon, open kan; not added kans, closed kans or kita)."""
    call_won: int = 0
    """Hands with an open call that the player won."""
    call_dealt_in: int = 0
    """Hands with an open call in which the player dealt in."""
    call_balance: int = 0
    """Sum of the hand balance over the hands with an open call."""

    # --- draws
    exhaustive_draws: int = 0
    """Hands that ended in an exhaustive draw (the wall ran out; nagashi mangan included)."""
    tenpai_at_draw: int = 0
    """Exhaustive draws at which the player was tenpai (the log shows the tenpai hands)."""
    draw_balance: int = 0
    """Sum of the hand balance over the exhaustive draws (noten and nagashi payments)."""
    nagashi_mangan: int = 0
    """Exhaustive draws at which the player had nagashi mangan."""
    abortive_draws: int = 0
    """Hands that ended in an abortive draw (any kind, whoever caused it)."""
    nine_terminals: int = 0
    """Abortive draws the player declared (kyuushu kyuuhai)."""

    # --- score balance
    hand_balance: int = 0
    """Sum of the player's hand balances over all hands."""
    hand_balance_sq: int = 0
    """Sum of their squares (points squared), for a confidence interval."""

    # --- play quality (only with ``stats --quality``: ``quality.game_quality``, the verdicts
    # of the discard analysis, ``analysis.verdict``)
    quality_games: int = 0
    """Games whose discards were judged (0 unless the run asked for the play quality)."""
    quality_discards: int = 0
    """Discards judged that were a choice: every discard but the forced ones after the
    player's riichi declaration discard."""
    quality_best: int = 0
    """Judged discards that were the top pick of the expected-points model, or tied it: the
    ``best`` verdicts (the agreement)."""
    quality_forced: int = 0
    """Discards after the player's own riichi declaration discard (``forced``)."""
    quality_close: int = 0
    """``close`` verdicts: below the top by less than the loss threshold."""
    quality_losses: int = 0
    """``loss`` verdicts (✗)."""
    quality_cost_points: int = 0
    """Expected points given up against the top, summed over the choices (rounded per game)."""
    quality_pushes: int = 0
    """Discards of a tile not genbutsu against an opponent in riichi while not tenpai after it."""
    # deal-ins into a winner in riichi, by the dealt tile's danger class from the discarder's view
    # (``rules.danger.DangerClass``; docs/analysis.md): one counter per class
    quality_deal_ins_genbutsu: int = 0
    quality_deal_ins_honour_0_left: int = 0
    quality_deal_ins_honour_1_left: int = 0
    quality_deal_ins_honour_2_left: int = 0
    quality_deal_ins_no_chance: int = 0
    quality_deal_ins_suji: int = 0
    quality_deal_ins_honour_live: int = 0
    quality_deal_ins_one_chance: int = 0
    quality_deal_ins_half_suji: int = 0
    quality_deal_ins_non_suji: int = 0

    yaku: tuple[tuple[int, int], ...] = ()
    """``(yaku id, wins)`` pairs, ascending by id, for the player's wins: each yaku a win lists
    with at least one han counts once, each yakuman once; dora, ura dora and red fives are in
    ``dora_han`` instead."""

    def __add__(self, other: object) -> PlayerCounters:
        if not isinstance(other, PlayerCounters):
            return NotImplemented
        values = map(int.__add__, _get_ints(self), _get_ints(other))
        return PlayerCounters(*values, yaku=_merge_yaku(self.yaku, other.yaku))

    def __radd__(self, other: object) -> PlayerCounters:
        if other == 0:  # sum() starts from 0
            return self
        return NotImplemented

    def yaku_counts(self) -> dict[int, int]:
        return dict(self.yaku)

    def to_dict(self) -> dict[str, Any]:
        """The non-zero counters by name (``yaku`` as ``{"id": wins}``): a compact JSON value."""
        out: dict[str, Any] = {k: v for k, v in zip(INT_FIELDS, _get_ints(self)) if v}
        if self.yaku:
            out["yaku"] = {str(k): v for k, v in self.yaku}
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayerCounters:
        """The inverse of ``to_dict``; an unknown name is a ``ValueError``."""
        unknown = set(data) - _INT_FIELD_SET - {"yaku"}
        if unknown:
            raise ValueError(f"unknown counters: {', '.join(sorted(unknown))}")
        yaku = tuple(sorted((int(k), int(v)) for k, v in (data.get("yaku") or {}).items()))
        return cls(**{k: int(v) for k, v in data.items() if k != "yaku"}, yaku=yaku)


INT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(PlayerCounters) if f.name != "yaku")
"""The integer counters, in declaration order."""
COUNTER_FIELDS = INT_FIELDS
_INT_FIELD_SET = frozenset(INT_FIELDS)
_get_ints = attrgetter(*INT_FIELDS)


def _merge_yaku(a: tuple[tuple[int, int], ...], b: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    if not b:
        return a
    if not a:
        return b
    merged = dict(a)
    for k, v in b:
        merged[k] = merged.get(k, 0) + v
    return tuple(sorted(merged.items()))


# --- extraction ----------------------------------------------------------------------------------


class _Tally:
    """One seat's counters while a game is read (mutable; turned into ``PlayerCounters`` once)."""

    __slots__ = (*INT_FIELDS, "yaku_map")

    def __init__(self) -> None:
        for name in INT_FIELDS:
            setattr(self, name, 0)
        self.yaku_map: dict[int, int] = {}

    def freeze(self) -> PlayerCounters:
        return PlayerCounters(*_get_ints(self), yaku=tuple(sorted(self.yaku_map.items())))


_OPEN_CALLS = (CallKind.CHI, CallKind.PON, CallKind.OPEN_KAN, CallKind.ADDED_KAN)
"""Melds made by calling another player's tile (an added kan is the pon it grew from)."""
_ROBBABLE = (CallKind.ADDED_KAN, CallKind.CLOSED_KAN, CallKind.KITA)
"""Calls made from one's own hand: a ron right after one is dealt in by its maker, in that turn."""


def game_counters(game: Game) -> dict[PlayerKey, PlayerCounters]:
    """One ``PlayerCounters`` per player of a complete game, keyed by ``(name, players)``.

    Pure: reads the events only. Seats that share a name (several ``NoName`` players) are added
    together, each seat counting as one game. ``ValueError`` if the game has no final result.
    """
    owari = game.owari
    if owari is None:
        raise ValueError("the game has no final result (owari)")
    n = game.header.ruleset.players
    seats = range(n)
    tallies = [_Tally() for _ in seats]

    # Placement from the final scores (Tenhou's tie-break: the seat nearer the first dealer).
    first = game.header.first_dealer
    order = ranking(owari.scores, n, first)
    for rank, seat in enumerate(order, 1):
        t = tallies[seat]
        t.games = 1
        setattr(t, f"rank{rank}", 1)
        t.busts = int(owari.scores[seat] < 0)
        tenths = round(owari.points[seat] * 10)
        t.final_points = tenths
        t.final_points_sq = tenths * tenths
        t.final_score = owari.scores[seat]

    for _, state in game_states(game):
        _count_hand(state, n, tallies)

    out: dict[PlayerKey, PlayerCounters] = {}
    for seat in seats:
        key = (game.header.players[seat].name, n)
        counters = tallies[seat].freeze()
        out[key] = out[key] + counters if key in out else counters
    return out


def _count_hand(state: TableState, n: int, tallies: list[_Tally]) -> None:
    """Add one hand to each seat's tallies, from the table state after its last event."""
    dealer = state.init.dealer
    seats = state.seats
    discards = [len(seat.pond) for seat in seats]
    call = state.last_call
    robbed = call.seat if call is not None and call.meld.kind in _ROBBABLE else -1
    riichi_turn = [0, 0, 0, 0]  # 0: no riichi declared
    declared_at = [0, 0, 0, 0]  # the step of each declaration discard, for who chased whom
    for s, seat in enumerate(seats):
        if seat.riichi:
            declared = seat.riichi_discard
            riichi_turn[s] = declared + 1 if declared != NOBODY else discards[s] + 1
            declared_at[s] = seat.pond_steps[declared] if declared != NOBODY else state.step + 1
    stick_paid = [seat.riichi == 2 for seat in seats]
    chasing = [bool(declared_at[s]) and any(0 < declared_at[o] < declared_at[s] for o in range(4)) for s in range(4)]
    chased = [bool(declared_at[s]) and any(declared_at[o] > declared_at[s] for o in range(4)) for s in range(4)]
    open_calls = [sum(1 for m in seat.melds if m.kind in _OPEN_CALLS) for seat in seats]
    nagashi = [nagashi_mangan([d.tile for d in seat.pond], len(seat.called_away)) for seat in seats]
    endings: list[Agari | Ryuukyoku] = [*state.wins]
    if state.draw is not None:
        endings.append(state.draw)

    # The hand's outcome for everyone.
    balance = [-RIICHI_STICK if stick_paid[s] else 0 for s in range(4)]
    winners: list[Agari] = []
    draw: Ryuukyoku | None = None
    for end in endings:
        deltas = end.deltas
        for s in range(n):
            balance[s] += deltas[s]
        if type(end) is Agari:
            winners.append(end)
        else:
            draw = end
    won = [False] * 4
    dealt_in = [False] * 4
    tsumo_by = -1
    for a in winners:
        won[a.who] = True
        if a.who == a.from_who:
            tsumo_by = a.who
        else:
            dealt_in[a.from_who] = True
    exhaustive = draw is not None and not draw.kind.is_abortive
    abortive = draw is not None and draw.kind.is_abortive

    for s in range(n):
        t = tallies[s]
        b = balance[s]
        t.hands += 1
        t.hand_balance += b
        t.hand_balance_sq += b * b
        if s == dealer:
            t.dealer_hands += 1
        if open_calls[s]:
            t.calls += 1
            t.call_count += open_calls[s]
            t.call_balance += b
            if won[s]:
                t.call_won += 1
            elif dealt_in[s]:
                t.call_dealt_in += 1
        if riichi_turn[s]:
            t.riichi += 1
            t.riichi_turns += riichi_turn[s]
            t.riichi_chasing += chasing[s]
            t.riichi_chased += chased[s]
            t.riichi_balance += b
            if won[s]:
                t.riichi_won += 1
            elif dealt_in[s]:
                t.riichi_dealt_in += 1
            elif tsumo_by >= 0:
                t.riichi_tsumo_by_other += 1
            elif winners:
                t.riichi_other_ron += 1
            elif exhaustive:
                t.riichi_exhaustive += 1
            else:
                t.riichi_abortive += 1
        if won[s]:
            t.win_balance += b
        if dealt_in[s]:
            t.deal_in_hands += 1
            t.deal_in_turns += discards[s] + (s == robbed)
            t.deal_in_balance += b
        if tsumo_by >= 0 and tsumo_by != s:
            t.tsumo_paid += 1
            t.tsumo_paid_points -= sum(a.deltas[s] for a in winners)
        if exhaustive:
            t.exhaustive_draws += 1
            t.draw_balance += b
            if draw.hands[s] is not None:
                t.tenpai_at_draw += 1
            if draw.kind is DrawKind.NAGASHI_MANGAN and nagashi[s]:
                t.nagashi_mangan += 1
        elif abortive:
            t.abortive_draws += 1
            if draw.kind is DrawKind.NINE_TERMINALS and draw.hands[s] is not None:
                t.nine_terminals += 1

    for a in winners:
        w = a.who
        t = tallies[w]
        points = a.points
        state_riichi = riichi_turn[w] > 0
        state_open = open_calls[w] > 0
        t.wins += 1
        t.win_points += points
        t.win_turns += discards[w] + 1
        if a.who == a.from_who:
            t.tsumo_wins += 1
        if w == dealer:
            t.dealer_wins += 1
            t.dealer_win_points += points
        if state_riichi:
            t.riichi_wins += 1
            t.riichi_win_points += points
        elif state_open:
            t.open_wins += 1
            t.open_win_points += points
        else:
            t.dama_wins += 1
            t.dama_win_points += points
        yaku = t.yaku_map
        for yid, han in a.yaku:
            if yid in DORA_IDS:
                t.dora_han += han
            elif han > 0:
                yaku[yid] = yaku.get(yid, 0) + 1
        for yid in a.yakuman:
            yaku[yid] = yaku.get(yid, 0) + 1
        if a.yakuman:
            t.yakuman += 1
        elif a.limit >= 5:
            t.kazoe_yakuman += 1
        if a.who != a.from_who:
            d = tallies[a.from_who]
            d.deal_ins += 1
            d.deal_in_points += points
            if w == dealer:
                d.deal_ins_to_dealer += 1
                d.deal_in_points_to_dealer += points
            if state_riichi:
                d.deal_ins_to_riichi += 1
                d.deal_in_points_to_riichi += points
            elif state_open:
                d.deal_ins_to_open += 1
                d.deal_in_points_to_open += points
            else:
                d.deal_ins_to_dama += 1
                d.deal_in_points_to_dama += points
