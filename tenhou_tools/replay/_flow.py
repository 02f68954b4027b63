"""Between hands and at the end: how each INIT follows from the hand before, whether the game
should end after a hand, and the final result (``owari``).

The rules are pure functions in ``rules.game_end``; this module compares them with the log.
"""

from __future__ import annotations

from datetime import date

# build: a frozen value made by setting its slots (the _native kernel), not through the dataclass's
# __init__: every hand's Outcome, about 0.1 M of a game's 6.5 M instructions in check_log
# (scripts/bench_callgrind.py, 100 corpus games, 2026-11-29).
from .._native import build
from ..events import Game, Hand, Init, Owari
from ..findings import FindingCode as F
from ..ids import game_start
from ..rules import game_end
from ._header_checks import VerifiedTable
from ._recorder import Recorder
from .board import Outcome
from .checks import CheckKind as K
from .state import TableState


def hand_outcome(state: TableState) -> Outcome:
    """How the hand on ``state`` ended (its last state): a draw, one or more wins, or no result
    (a log that stops early)."""
    init = state.init
    draw = state.draw
    if draw is not None:
        abortive = draw.kind.is_abortive
        # the log's shown hands say who was tenpai (each is checked against the rules: draw_tenpai)
        dealer_tenpai = not abortive and draw.hands[init.dealer] is not None
        return build(Outcome, scores=tuple(state.scores), sticks=state.sticks, honba=init.honba, round=init.round,
                       dealer=init.dealer, renchan=abortive or dealer_tenpai, dealer_won=False,
                       dealer_tenpai=dealer_tenpai, abortive=abortive, any_win=False, owari=draw.owari)
    wins = state.wins
    dealer_won = False
    for win in wins:
        dealer_won = dealer_won or win.who == init.dealer
    return build(Outcome, scores=tuple(state.scores), sticks=state.sticks, honba=init.honba, round=init.round,
                   dealer=init.dealer, renchan=dealer_won, dealer_won=dealer_won, dealer_tenpai=False,
                   abortive=False, any_win=bool(wins), owari=wins[-1].owari if wins else None)


class GameFlow:
    """Checks the flow of one game from hand to hand."""

    def __init__(self, game: Game, rec: Recorder, table: VerifiedTable) -> None:
        self.game = game
        self.rec = rec
        self.rules = game.header.ruleset
        self.n = self.rules.players
        start = game_start(game.log_id)
        self.start = start
        """When the game started (Japan time), from its id; ``None`` without one."""
        self.day: date | None = start.date() if start is not None else None
        owari = game.owari  # a local: mypyc 1.13 dropped the reference of ``game.owari is None``
        self.fragment = owari is None
        """A game with no final result holds only some hands of a game (a tenhou.net/6 JSON may;
        the mjlog parser refuses such logs): how its first hand follows from the one before, and
        whether the game should have ended after its last, cannot be known."""
        # the table rules as the game id announces them (``table``: a claim it contradicts is not followed)
        self.table = game_end.table_rules(*table, self.day)
        # the checks of every hand, kept at hand
        self.carry = rec.of(K.CARRY)
        self.game_end = rec.of(K.GAME_END)

    def carry_over(self, prev: Outcome | None, init: Init) -> None:
        """INIT's scores, honba, sticks, round and dealer follow from the previous hand."""
        rec = self.rec
        if not self.carry.check(init.dealer == init.round % 4):
            rec.find(F.CARRY_ROUND, f"{init.label()}: the dealer is not the round's dealer",
                     init.round % 4, init.dealer)
        if prev is None and self.fragment:
            rec.not_checkable(K.FRAGMENT_NOT_CHECKABLE)
            return
        if prev is None:
            start = self.table.start
            if start is None:
                rec.not_checkable(K.START_SCORES_NOT_CHECKABLE)
            else:
                expected = [start] * self.n + [0] * (4 - self.n)
                if not self.carry.check(list(init.scores) == expected):
                    rec.find(F.CARRY_SCORES, "the first hand does not start from the lobby's starting points",
                             expected, list(init.scores))
            if not self.carry.check((init.round, init.honba, init.sticks) == (0, 0, 0)):
                rec.find(F.CARRY_ROUND, "the first hand is not East 1 with no honba and no sticks",
                         [0, 0, 0], [init.round, init.honba, init.sticks])
            return
        if not self.carry.check(list(init.scores) == list(prev.scores)):
            rec.find(F.CARRY_SCORES, f"{init.label()}: scores do not carry over from the previous hand",
                     list(prev.scores), list(init.scores))
        if not self.carry.check(init.sticks == prev.sticks):
            rec.find(F.CARRY_STICKS, f"{init.label()}: wrong riichi sticks after the previous hand",
                     prev.sticks, init.sticks)
        if not self.table.flow_known:
            rec.not_checkable(K.ROTATION_NOT_CHECKABLE)
            return
        exp_round = prev.round if prev.renchan else game_end.next_round(prev.round, self.n)
        if not self.carry.check(init.round == exp_round):
            rec.find(F.CARRY_ROUND, f"{init.label()}: wrong round after the previous hand", exp_round, init.round)
        if prev.any_win:
            exp_honba = prev.honba + 1 if prev.dealer_won else 0
        else:
            exp_honba = prev.honba + 1
        if not self.carry.check(init.honba == exp_honba):
            rec.find(F.CARRY_HONBA, f"{init.label()}: wrong honba after the previous hand", exp_honba, init.honba)

    def end_of_hand(self, out: Outcome, hand: Hand, is_last: bool) -> None:
        """Whether the game should end here, and ``owari`` if it did."""
        rec = self.rec
        owari = out.owari
        ended = owari is not None
        if is_last and self.fragment:
            rec.not_checkable(K.FRAGMENT_NOT_CHECKABLE)
        elif not self.table.flow_known:
            rec.not_checkable(K.GAME_END_NOT_CHECKABLE)
        else:
            decision = game_end.decide_end(
                self.rules,
                round_index=out.round,
                dealer=out.dealer,
                scores=out.scores,
                abortive=out.abortive,
                dealer_won=out.dealer_won,
                dealer_tenpai=out.dealer_tenpai,
                start=self.start,
                first_dealer=self.game.header.first_dealer,
            )
            if decision.ends is None:
                rec.not_checkable(K.GAME_END_NOT_CHECKABLE)
            elif not self.game_end.check(decision.ends == ended):
                rec.find(F.GAME_END, f"{hand.init.label()}: the game "
                         f"{'should end' if decision.ends else 'should go on'} ({decision.reason})",
                         decision.ends, ended)
        if owari is None:
            return
        if not is_last:
            rec.find(F.EVENT_AFTER_END, "hands follow the game's final result")
        self.owari(out, owari)

    def owari(self, out: Outcome, owari: Owari) -> None:
        """The final scores (leftover sticks to first place) and the game points."""
        rec, n = self.rec, self.n
        first_dealer = self.game.header.first_dealer
        final = game_end.final_scores(out.scores, out.sticks, n, first_dealer)
        if not rec.check(K.OWARI, list(owari.scores[:n]) == final[:n]):
            rec.find(F.OWARI_SCORES,
                     "final scores (owari) are not the last scores with the leftover sticks to first place",
                     final[:n], list(owari.scores[:n]))
        if n == 3 and not rec.check(K.OWARI, owari.scores[3] == 0 and owari.points[3] == 0):
            rec.find(F.OWARI_SCORES, "owari gives the empty seat S3 a result", [0, 0.0],
                     [owari.scores[3], owari.points[3]])
        table = self.table
        if table.umas is None or table.back is None:
            rec.not_checkable(K.OWARI_POINTS_NOT_CHECKABLE)
            return
        candidates = {
            tuple(game_end.owari_points(owari.scores, n, table.umas, back=table.back,
                                        rounded=rounded, first_dealer=first_dealer)[:n])
            for rounded in game_end.rounding_methods(self.day)
        }
        if len(candidates) > 1:
            rec.not_checkable(K.OWARI_POINTS_NOT_CHECKABLE)
            return
        points = list(candidates.pop())
        if not rec.check(K.OWARI, [round(p * 10) for p in points] == [round(p * 10) for p in owari.points[:n]]):
            rec.find(F.OWARI_POINTS,
                     "the game points (owari) do not follow from the final scores, return and uma",
                     points, list(owari.points[:n]))
