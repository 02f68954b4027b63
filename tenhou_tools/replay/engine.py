"""The replay engine: re-execute every hand of a ``Game`` and check what the log claims.

The engine keeps the table state (absolute seats) while it walks each hand's events and, at
every point where the log states a fact, recomputes it under the Tenhou rules and compares:
each win's hand, yaku, han, fu, points and payments; each draw's tenpai hands and payments;
the scores, honba and sticks carried into the next hand; the end of the game and ``owari``; and
every dealt and drawn tile against the wall regenerated from the seed.

A disagreement becomes a ``Finding``; after reporting it the engine continues from the log's
own value (for example the log's score), so one wrong number gives one finding, not a cascade.
``checks`` counts every check that ran, by kind.

The mutable state lives only inside this module; the rules it applies are pure functions in
``tenhou_tools.rules``.
"""

from __future__ import annotations

import traceback
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from .. import native
from ..events import Agari, Bye, Call, CallKind, Discard, Draw, DrawKind, Game, Hand, Init, Meld, NewDora
from ..events import Owari, Reconnect, Riichi, Ruleset, Ryuukyoku, Unknown
from ..findings import Finding, FindingCode, Severity
from ..rules import game_end
from ..rules.hand import counts34, is_complete, waits
from ..rules.legality import (
    RIICHI_COST,
    chi_allowed,
    four_kans_abort,
    four_winds,
    is_ankan_allowed_in_riichi,
    kuikae_forbidden,
    nine_terminal_kinds,
    riichi_live_minimum,
)
from ..rules.payments import exhaustive_draw_deltas, nagashi_deltas, win_deltas
from ..rules.scoring import ScoredHand, ScoringRefusal, ScoringRules, WinContext, score_win
from ..rules.wall import HandWall, WallGenerator, WallSeedError, hand_wall_from_init_shuffle
from ..rules.yaku import limit_name, yaku_difference, yakuman_names
from ..tiles import TERMINAL_HONOR_KINDS, format_tiles

F = FindingCode
_DRAGONS = (31, 32, 33)
_WINDS = (27, 28, 29, 30)
_SET_KINDS = (CallKind.PON, CallKind.OPEN_KAN, CallKind.ADDED_KAN, CallKind.CLOSED_KAN)


@dataclass
class GameReport:
    """What the replay found in one game."""

    log_id: str | None
    hands: int
    checks: Counter = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)


def game_date(log_id: str | None) -> date | None:
    """The day a game was played, from its id (``YYYYMMDDHHgm-...``)."""
    if not log_id or len(log_id) < 8 or not log_id[:8].isdigit():
        return None
    try:
        return date(int(log_id[:4]), int(log_id[4:6]), int(log_id[6:8]))
    except ValueError:
        return None


def replay_game(game: Game) -> GameReport:
    """Replay every hand of ``game``. Never raises: an engine bug becomes ``INTERNAL_ERROR``."""
    replay = _Replay(game)
    try:
        replay.run()
    except Exception as exc:  # noqa: BLE001 - one bad log must not stop a batch
        replay.report.findings.append(
            Finding(
                F.INTERNAL_ERROR,
                Severity.ERROR,
                f"the replay engine failed: {type(exc).__name__}: {exc}",
                hand=replay.hand_index,
                event_index=replay.event_index,
                detail=traceback.format_exc(),
            )
        )
    return replay.report


class _HandState:
    """The table during one hand (kyoku). Private to the engine; mutated in place."""

    __slots__ = (
        "init", "wall", "concealed", "melds", "river_ok", "river_kinds", "discards", "riichi",
        "double_riichi", "ippatsu", "any_call", "live_drawn", "rinshan_drawn", "dora", "dora_due",
        "open_kan_dora", "last_draw", "last_discard", "last_kakan", "last_kita", "last_ankan",
        "ippatsu_cancel_pending", "wins", "ended", "scores", "honba", "sticks", "seen", "next_draw",
        "must_discard", "kuikae", "riichi_discard_due", "step2_due", "kans", "passes",
        "turn_start", "riichi_start", "first_discards", "abort_due", "open_sets", "kan_total",
        "draws", "discards_total", "wall_checked",
    )

    def __init__(self, init: Init, players: int):
        self.init = init
        self.wall: HandWall | None = None
        self.concealed = [list(h) for h in init.hands]
        self.melds: list[list[Meld]] = [[], [], [], []]
        self.river_ok = [True] * 4
        """Nagashi mangan still possible: only terminals and honours discarded, none called."""
        self.river_kinds: list[set[int]] = [set(), set(), set(), set()]
        """Kinds each seat has discarded (discard furiten; kakan and kita tiles do not count)."""
        self.discards = [0, 0, 0, 0]
        self.riichi = [0, 0, 0, 0]
        """0 none, 1 declared (REACH step 1), 2 accepted (stick paid)."""
        self.double_riichi = [False] * 4
        self.ippatsu = [False] * 4
        self.any_call = False
        self.live_drawn = 0
        self.rinshan_drawn = 0
        self.dora = [init.dora_indicator]
        self.dora_due = 0
        self.open_kan_dora = 0
        self.last_draw: tuple[int, int, bool] | None = None
        self.last_discard: tuple[int, int] | None = None
        self.last_kakan: tuple[int, int] | None = None
        self.last_kita: tuple[int, int] | None = None
        self.last_ankan: tuple[int, int] | None = None
        self.ippatsu_cancel_pending = False
        self.wins: list[Agari] = []
        self.ended = False
        self.scores = list(init.scores)
        self.honba = init.honba
        self.sticks = init.sticks
        self.seen = bytearray(136)
        """Tile ids that have appeared in this hand (dealt, drawn or revealed)."""
        self.next_draw: int | None = init.dealer
        """The seat that must draw next (``None`` while someone must discard)."""
        self.must_discard: int | None = None
        """A seat that called chi or pon and must now discard."""
        self.kuikae: frozenset[int] = frozenset()
        self.riichi_discard_due: int | None = None
        """A seat that declared riichi and has not made the declaration discard yet."""
        self.step2_due: int | None = None
        """A seat whose riichi discard is out: REACH step 2 must follow unless it is ronned."""
        self.kans = [0, 0, 0, 0]
        self.passes: list[tuple[int, int, bool]] = []
        """Tiles that went past each player: (seat, kind, own draw) for every discard, added
        kan tile, kita tile and draw, in order (furiten is judged on these)."""
        self.turn_start = [0, 0, 0, 0]
        """Index into ``passes`` after each seat's last discard (same-turn furiten window)."""
        self.riichi_start = [-1, -1, -1, -1]
        """Index into ``passes`` when each seat's riichi was accepted (riichi furiten window)."""
        self.first_discards: list[int] = []
        """The first discards of the hand while no call has been made (four winds)."""
        self.abort_due: DrawKind | None = None
        """An abortive draw that the rules make happen now (four winds, four riichi, four kans)."""
        self.open_sets = [0, 0, 0, 0]
        """Melds per seat that take three tiles from the hand (every meld but kita)."""
        self.kan_total = 0
        self.draws = 0
        self.discards_total = 0
        self.wall_checked = 0


@dataclass(frozen=True, slots=True, init=False)
class _Outcome:
    """How a hand ended, for the carry-over into the next."""

    scores: tuple[int, ...]
    sticks: int
    honba: int
    round: int
    dealer: int
    renchan: bool
    dealer_won: bool
    dealer_tenpai: bool
    abortive: bool
    any_win: bool
    owari: Owari | None = None
    """The final result written on the hand's last end tag, if any."""

    def __init__(
        self,
        scores: tuple[int, ...],
        sticks: int,
        honba: int,
        round: int,
        dealer: int,
        renchan: bool,
        dealer_won: bool,
        dealer_tenpai: bool,
        abortive: bool,
        any_win: bool,
        owari: Owari | None = None,
    ) -> None:
        self.scores = scores  # type: ignore[misc]  # set once: native.hand_written_inits
        self.sticks = sticks  # type: ignore[misc]
        self.honba = honba  # type: ignore[misc]
        self.round = round  # type: ignore[misc]
        self.dealer = dealer  # type: ignore[misc]
        self.renchan = renchan  # type: ignore[misc]
        self.dealer_won = dealer_won  # type: ignore[misc]
        self.dealer_tenpai = dealer_tenpai  # type: ignore[misc]
        self.abortive = abortive  # type: ignore[misc]
        self.any_win = any_win  # type: ignore[misc]
        self.owari = owari  # type: ignore[misc]


class _Replay:
    def __init__(self, game: Game):
        self.game = game
        self.rules: Ruleset = game.header.ruleset
        self.n = self.rules.players
        self.live_total = 70 if self.n == 4 else 55
        self.day = game_date(game.log_id)
        owari = game.owari  # a local: mypyc 1.13 dropped the reference of ``game.owari is None``
        self.fragment = owari is None
        """A game with no final result holds only some hands of a game (a tenhou.net/6 JSON may;
        the mjlog parser refuses such logs): how its first hand follows from the one before, and
        whether the game should have ended after its last, cannot be known."""
        header = game.header
        self.table = game_end.table_rules(self.rules, header.lobby, header.csrule, self.day)
        self.report = GameReport(game.log_id, len(game.hands))
        self.scoring_rules = ScoringRules.from_ruleset(self.rules)
        self.hand_index: int | None = None
        self.event_index: int | None = None
        self.walls: WallGenerator | None = None
        self.bad_seed: str | None = None
        """Why a seed the log does carry cannot be read (a finding, unlike a missing seed)."""
        shuffle = game.header.shuffle
        if shuffle is not None and shuffle.seed:
            try:
                self.walls = WallGenerator(shuffle.seed, self.n)
            except WallSeedError as exc:
                self.bad_seed = str(exc)

    # -- reporting -------------------------------------------------------------------------

    def find(self, code: FindingCode, message: str, expected: Any = None, actual: Any = None,
             severity: Severity = Severity.ERROR) -> None:
        self.report.findings.append(
            Finding(code, severity, message, self.hand_index, self.event_index, expected, actual)
        )

    def tally(self, kind: str, ok: bool) -> bool:
        """Count one check of ``kind`` and return its verdict. The caller reports a failure, and
        builds the message and values only then (``if not self.tally(...): self.find(...)``)."""
        self.report.checks[kind] += 1
        return ok

    # -- the game --------------------------------------------------------------------------

    def run(self) -> None:
        previous: _Outcome | None = None
        hands = self.game.hands
        for hand in hands:
            self.hand_index, self.event_index = hand.index, None
            self.carry_over(previous, hand.init)
            previous = self.play(hand)
            is_last = hand.index == len(hands) - 1
            self.end_of_hand(previous, hand, is_last)

    def carry_over(self, prev: _Outcome | None, init: Init) -> None:
        """INIT's scores, honba, sticks, round and dealer follow from the previous hand."""
        if not self.tally("carry", init.dealer == init.round % 4):
            self.find(F.CARRY_ROUND,
                      f"{init.label()}: the dealer is not the round's dealer", init.round % 4, init.dealer)
        if prev is None and self.fragment:
            self.report.checks["fragment_not_checkable"] += 1
            return
        if prev is None:
            start = self.table.start
            if start is None:
                self.report.checks["start_scores_not_checkable"] += 1
            else:
                expected = [start] * self.n + [0] * (4 - self.n)
                if not self.tally("carry", list(init.scores) == expected):
                    self.find(F.CARRY_SCORES,
                              "the first hand does not start from the lobby's starting points",
                              expected, list(init.scores))
            if not self.tally("carry", (init.round, init.honba, init.sticks) == (0, 0, 0)):
                self.find(F.CARRY_ROUND,
                          "the first hand is not East 1 with no honba and no sticks",
                          [0, 0, 0], [init.round, init.honba, init.sticks])
            return
        if not self.tally("carry", list(init.scores) == list(prev.scores)):
            self.find(F.CARRY_SCORES,
                      f"{init.label()}: scores do not carry over from the previous hand",
                      list(prev.scores), list(init.scores))
        if not self.tally("carry", init.sticks == prev.sticks):
            self.find(F.CARRY_STICKS,
                      f"{init.label()}: wrong riichi sticks after the previous hand", prev.sticks, init.sticks)
        if not self.table.flow_known:
            self.report.checks["rotation_not_checkable"] += 1
            return
        exp_round = prev.round if prev.renchan else game_end.next_round(prev.round, self.n)
        if not self.tally("carry", init.round == exp_round):
            self.find(F.CARRY_ROUND,
                      f"{init.label()}: wrong round after the previous hand", exp_round, init.round)
        if prev.any_win:
            exp_honba = prev.honba + 1 if prev.dealer_won else 0
        else:
            exp_honba = prev.honba + 1
        if not self.tally("carry", init.honba == exp_honba):
            self.find(F.CARRY_HONBA,
                      f"{init.label()}: wrong honba after the previous hand", exp_honba, init.honba)

    def end_of_hand(self, out: _Outcome, hand: Hand, is_last: bool) -> None:
        """Whether the game should end here, and ``owari`` if it did."""
        owari = out.owari
        self.event_index = None
        ended = owari is not None
        if is_last and self.fragment:
            self.report.checks["fragment_not_checkable"] += 1
        elif not self.table.flow_known:
            self.report.checks["game_end_not_checkable"] += 1
        else:
            decision = game_end.decide_end(
                self.rules,
                round_index=out.round,
                dealer=out.dealer,
                scores=out.scores,
                abortive=out.abortive,
                dealer_won=out.dealer_won,
                dealer_tenpai=out.dealer_tenpai,
                day=self.day,
                first_dealer=self.game.header.first_dealer,
            )
            if decision.ends is None:
                self.report.checks["game_end_not_checkable"] += 1
            else:
                if not self.tally("game_end", decision.ends == ended):
                    self.find(F.GAME_END,
                              f"{hand.init.label()}: the game "
                              f"{'should end' if decision.ends else 'should go on'} ({decision.reason})",
                              decision.ends, ended)
        if owari is None:
            return
        if not is_last:
            self.find(F.EVENT_AFTER_END, "hands follow the game's final result")
        first_dealer = self.game.header.first_dealer
        final = game_end.final_scores(out.scores, out.sticks, self.n, first_dealer)
        if not self.tally("owari", list(owari.scores[: self.n]) == final[: self.n]):
            self.find(F.OWARI_SCORES,
                      "final scores (owari) are not the last scores with the leftover sticks to first place",
                      final[: self.n], list(owari.scores[: self.n]))
        table = self.table
        if table.umas is None or table.back is None:
            self.report.checks["owari_points_not_checkable"] += 1
            return
        candidates = {
            tuple(game_end.owari_points(owari.scores, self.n, table.umas, back=table.back,
                                        rounded=rounded, first_dealer=first_dealer)[: self.n])
            for rounded in game_end.rounding_methods(self.day)
        }
        if len(candidates) > 1:
            self.report.checks["owari_points_not_checkable"] += 1
            return
        points = list(candidates.pop())
        if not self.tally("owari", [round(p * 10) for p in points]
                          == [round(p * 10) for p in owari.points[: self.n]]):
            self.find(F.OWARI_POINTS,
                      "the game points (owari) do not follow from the final scores, return and uma",
                      points, list(owari.points[: self.n]))

    # -- one hand --------------------------------------------------------------------------

    def play(self, hand: Hand) -> _Outcome:
        """Walk one hand's events. Draws and discards (nine events in ten) are handled inline
        with local names, the hot path of the whole engine; their checks count in bulk at the
        end of the hand (``count_hand_checks``) and build a message only when they fail."""
        init = hand.init
        hs = _HandState(init, self.n)
        self.wall_start(hs)
        self.deal_accounting(hs)
        outcome: _Outcome | None = None
        find = self.find
        checks = self.report.checks
        three = self.n == 3
        n = self.n
        live_total = self.live_total
        seen = hs.seen
        concealed = hs.concealed
        passes = hs.passes
        add_pass = passes.append
        river_kinds = hs.river_kinds
        river_ok = hs.river_ok
        discards = hs.discards
        riichi = hs.riichi
        open_sets = hs.open_sets
        turn_start = hs.turn_start
        wall = hs.wall
        live_wall = wall.live if wall is not None else ()
        rinshan_wall = wall.rinshan if wall is not None else ()
        n_live, n_rinshan = len(live_wall), len(rinshan_wall)
        terminal_honor = TERMINAL_HONOR_KINDS
        draws = discards_total = wall_checked = 0
        # True while the hand has ended or a rule is due at the next event (``pending_rules``);
        # only the non-tile handlers and a few discard branches can make it so.
        pending = False
        for index, event in enumerate(hand.events):
            self.event_index = index
            cls = type(event)
            if pending:
                if cls is Bye or cls is Reconnect or cls is Unknown:
                    continue
                if hs.ended and cls is not Agari:
                    find(F.EVENT_AFTER_END, f"{cls.__name__} after the hand ended")
                    continue
                self.pending_rules(hs, event)
                pending = hs.ended or hs.ippatsu_cancel_pending or hs.step2_due is not None or (
                    hs.abort_due is not None)
            if cls is Draw:
                draw: Draw = event  # type: ignore[assignment]  # cls is Draw
                seat, tile = draw.seat, draw.tile
                if hs.dora_due:
                    find(F.DORA_TIMING, "a kan dora indicator was not revealed before the next draw",
                         hs.dora_due, 0)
                    hs.dora_due = 0
                if hs.next_draw != seat:
                    find(F.DRAW_ORDER, f"S{seat} draws out of turn", hs.next_draw, seat)
                if seen[tile] or (three and 4 <= tile < 32):
                    self.see(hs, tile)
                seen[tile] = 1
                if draw.rinshan:
                    drawn = hs.rinshan_drawn
                    if drawn < n_rinshan:
                        wall_checked += 1
                        if rinshan_wall[drawn] != tile:
                            find(F.WALL_DRAW, f"S{seat}'s replacement draw is not the seed's",
                                 rinshan_wall[drawn], tile)
                    hs.rinshan_drawn = drawn + 1
                else:
                    drawn = hs.live_drawn
                    if live_total - drawn - hs.rinshan_drawn <= 0:
                        find(F.DRAW_ORDER, f"S{seat} draws from an empty live wall")
                    if drawn < n_live:
                        wall_checked += 1
                        if live_wall[drawn] != tile:
                            find(F.WALL_DRAW, f"S{seat}'s draw is not the seed's", live_wall[drawn], tile)
                    hs.live_drawn = drawn + 1
                concealed[seat].append(tile)
                add_pass((seat, tile >> 2, True))
                hs.last_draw = (seat, tile, draw.rinshan)
                hs.last_discard = hs.last_kakan = hs.last_kita = hs.last_ankan = None
                hs.next_draw = None
                hs.must_discard = seat
                draws += 1
            elif cls is Discard:
                discard: Discard = event  # type: ignore[assignment]  # cls is Discard
                seat, tile = discard.seat, discard.tile
                kind = tile >> 2
                if hs.dora_due or hs.open_kan_dora:
                    find(F.DORA_TIMING, "a kan dora indicator was not revealed before the discard",
                         hs.dora_due + hs.open_kan_dora, 0)
                    hs.dora_due = hs.open_kan_dora = 0
                if hs.must_discard != seat:
                    find(F.DRAW_ORDER, f"S{seat} discards out of turn", hs.must_discard, seat)
                in_hand = concealed[seat]
                if len(in_hand) != 14 - 3 * open_sets[seat]:
                    size = 14 - 3 * open_sets[seat]
                    find(F.HAND_SIZE, f"S{seat} holds {len(in_hand)} tiles before discarding, not {size}",
                         size, len(in_hand))
                if hs.kuikae:
                    checks["call"] += 1
                    if kind in hs.kuikae:
                        find(F.CALL_KUIKAE, f"S{seat} discards {format_tiles([tile])} right after "
                             "calling for it (kuikae)", sorted(hs.kuikae), kind)
                    hs.kuikae = frozenset()
                if riichi[seat]:
                    if hs.riichi_discard_due == seat:
                        self.riichi_discard(hs, seat, tile)
                        pending = True  # REACH step 2 is due
                    else:
                        self.riichi_tsumogiri(hs, seat, tile)
                else:
                    try:  # one scan of the hand, not a membership test and then a removal
                        in_hand.remove(tile)
                    except ValueError:  # not in the hand: take() reports it
                        self.take(hs, seat, tile, "discarded")
                if kind not in terminal_honor:
                    river_ok[seat] = False
                if not hs.any_call and discards[seat] == 0:
                    self.first_discard(hs, tile)
                    pending = pending or hs.abort_due is not None
                discards[seat] += 1
                river_kinds[seat].add(kind)
                add_pass((seat, kind, False))
                turn_start[seat] = len(passes)
                hs.last_discard = (seat, tile)
                hs.last_draw = hs.last_kakan = hs.last_kita = hs.last_ankan = None
                hs.must_discard = None
                hs.next_draw = (seat + 1) % n
                discards_total += 1
                if hs.kan_total >= 4 and hs.abort_due is None and four_kans_abort(hs.kans):
                    hs.abort_due = DrawKind.FOUR_KANS
                    pending = True
            elif cls is Bye or cls is Reconnect or cls is Unknown:
                continue
            else:
                if isinstance(event, Call):
                    self.call(hs, event)
                elif isinstance(event, Riichi):
                    self.riichi(hs, event)
                elif isinstance(event, NewDora):
                    self.new_dora(hs, event)
                elif isinstance(event, Agari):
                    self.agari(hs, event)
                elif isinstance(event, Ryuukyoku):
                    outcome = self.ryuukyoku(hs, event)
                pending = hs.ended or hs.ippatsu_cancel_pending or hs.step2_due is not None or (
                    hs.abort_due is not None)
        hs.draws, hs.discards_total, hs.wall_checked = draws, discards_total, wall_checked
        self.count_hand_checks(hs)
        if len(hs.wins) >= 3:
            self.find(F.TRIPLE_RON, "three players won on one tile: Tenhou aborts a triple ron (ron3)",
                      "ron3", len(hs.wins))
        return outcome if outcome is not None else self.win_outcome(hs)

    def pending_rules(self, hs: _HandState, event: object) -> None:
        """What must happen right after a kan/kita (ippatsu ends unless it is robbed), a riichi
        discard (REACH step 2 unless it is ronned) or a mandatory abortive draw."""
        is_agari = isinstance(event, Agari)
        if hs.ippatsu_cancel_pending and not is_agari:
            hs.ippatsu = [False] * 4
            hs.ippatsu_cancel_pending = False
        if hs.step2_due is not None and not isinstance(event, (Riichi, Agari)):
            self.find(F.RIICHI_STEP, f"S{hs.step2_due}'s riichi discard passed but the riichi was "
                      "not accepted (no REACH step 2)")
            hs.step2_due = None
        if hs.abort_due is not None:
            due, hs.abort_due = hs.abort_due, None
            if not (isinstance(event, Ryuukyoku) and event.kind is due) and not (
                    due is DrawKind.FOUR_KANS and is_agari):
                self.find(F.ABORT_MISSING, f"the hand had to end in an abortive draw ({due.value})",
                          due.value, type(event).__name__)

    def win_outcome(self, hs: _HandState) -> _Outcome:
        init = hs.init
        dealer_won = any(a.who == init.dealer for a in hs.wins)
        owari = hs.wins[-1].owari if hs.wins else None
        return _Outcome(tuple(hs.scores), 0 if hs.wins else hs.sticks, init.honba, init.round,
                        init.dealer, dealer_won, dealer_won, False, False, bool(hs.wins), owari)

    # -- the wall --------------------------------------------------------------------------

    def wall_start(self, hs: _HandState) -> None:
        init = hs.init
        wall = None
        try:
            if self.walls is not None:
                wall = self.walls.next_hand(init.dealer)
            elif init.shuffle:
                wall = hand_wall_from_init_shuffle(init.shuffle, self.n, init.dealer)
        except (WallSeedError, ValueError) as exc:
            self.bad_seed = str(exc)
        if wall is None:
            if self.bad_seed is not None:
                self.find(F.WALL_SEED, f"{init.label()}: the shuffle seed cannot be read: {self.bad_seed}")
                if not init.shuffle:
                    self.bad_seed = None  # the game's one seed: report it once
            self.report.checks["wall_not_checkable"] += 1
            return
        hs.wall = wall
        checks = self.report.checks
        checks["wall_dice"] += 1
        if wall.dice != init.dice:
            self.find(F.WALL_DICE, f"{init.label()}: the dice are not the seed's", list(wall.dice),
                      list(init.dice))
        checks["wall_dora"] += 1
        if wall.dora_indicators[0] != init.dora_indicator:
            self.find(F.WALL_DORA, f"{init.label()}: the dora indicator is not the seed's",
                      wall.dora_indicators[0], init.dora_indicator)
        checks["wall_deal"] += self.n
        for seat in range(self.n):
            if wall.deal[seat] != init.hands[seat]:
                self.find(F.WALL_DEAL, f"{init.label()}: S{seat}'s dealt tiles are not the seed's",
                          list(wall.deal[seat]), list(init.hands[seat]))

    # -- events ----------------------------------------------------------------------------

    def deal_accounting(self, hs: _HandState) -> None:
        init = hs.init
        tiles = [t for h in init.hands for t in h] + [init.dora_indicator]
        expected_sizes = [13] * self.n + [0] * (4 - self.n)
        if not self.tally("tiles", [len(h) for h in init.hands] == expected_sizes):
            self.find(F.HAND_SIZE,
                      f"{init.label()}: the dealt hands do not have 13 tiles each", expected_sizes,
                      [len(h) for h in init.hands])
        seen = hs.seen
        if len(set(tiles)) != len(tiles) or (self.n == 3 and any(4 <= t < 32 for t in tiles)):
            for t in tiles:
                self.see(hs, t)
        else:
            for t in tiles:
                seen[t] = 1

    # -- draws and discards (the rare branches of ``play``'s inline paths) ------------------

    def see(self, hs: _HandState, tile: int) -> None:
        """Tile accounting: every tile id appears once in a hand (3p: never 2m-8m)."""
        if hs.seen[tile] or (self.n == 3 and 4 <= tile < 32):
            self.find(F.TILE_DUPLICATE, f"tile id {tile} ({format_tiles([tile])}) appears twice or "
                      "does not exist in this game", None, tile)
        hs.seen[tile] = 1

    def take(self, hs: _HandState, seat: int, tile: int, what: str) -> None:
        try:
            hs.concealed[seat].remove(tile)
        except ValueError:
            self.find(F.TILE_NOT_IN_HAND, f"S{seat} {what} {format_tiles([tile])} (id {tile}), which is not in the hand",
                      None, tile)

    def riichi_tsumogiri(self, hs: _HandState, seat: int, tile: int) -> None:
        """A discard in riichi (after the declaration discard) must be the tile just drawn."""
        drawn = hs.last_draw
        self.report.checks["riichi"] += 1
        if drawn is None or drawn[0] != seat or drawn[1] != tile:
            self.find(F.RIICHI_TSUMOGIRI, f"S{seat} is in riichi but does not discard the drawn tile",
                      drawn[1] if drawn else None, tile)
        self.take(hs, seat, tile, "discarded")
        if hs.riichi[seat] == 2:
            hs.ippatsu[seat] = False

    def riichi_discard(self, hs: _HandState, seat: int, tile: int) -> None:
        """The declaration discard (between REACH step 1 and 2): the hand left must be tenpai."""
        self.take(hs, seat, tile, "discarded")
        hs.riichi_discard_due = None
        self.report.checks["riichi"] += 1
        hand = hs.concealed[seat]
        if not waits(counts34(hand)):
            self.find(F.RIICHI_NOT_TENPAI, f"S{seat} declared riichi with a hand that is not tenpai",
                      True, format_tiles(hand))
        hs.step2_due = seat
        if hs.riichi[seat] == 2:
            hs.ippatsu[seat] = False

    def first_discard(self, hs: _HandState, tile: int) -> None:
        """The first go-around with no call: four identical wind discards abort (kaze4)."""
        hs.first_discards.append(tile)
        if len(hs.first_discards) == 4 and self.n == 4 and four_winds(hs.first_discards):
            hs.abort_due = DrawKind.FOUR_WINDS

    def live_remaining(self, hs: _HandState) -> int:
        return self.live_total - hs.live_drawn - hs.rinshan_drawn

    def count_hand_checks(self, hs: _HandState) -> None:
        """The per-draw and per-discard checks, counted once per hand."""
        checks = self.report.checks
        checks["draw_order"] += hs.draws
        checks["turn"] += hs.discards_total
        checks["tiles"] += hs.draws + hs.discards_total
        if hs.wall_checked:
            checks["wall_draw"] += hs.wall_checked

    def call(self, hs: _HandState, ev: Call) -> None:
        seat, meld = ev.seat, ev.meld
        kind = meld.kind
        checks = self.report.checks
        # Every test below is one "call" check; a message is built only when one fails.
        if kind in (CallKind.CHI, CallKind.PON, CallKind.OPEN_KAN):
            checks["call"] += 5 if kind is CallKind.CHI else 4
            if hs.riichi[seat]:
                self.find(F.RIICHI_CALL, f"S{seat} calls {kind.value} while in riichi")
            if self.live_remaining(hs) <= 0:
                self.find(F.CALL_HOUTEI, f"S{seat} calls the last discard (houtei), which cannot be called")
            if kind is CallKind.CHI and not chi_allowed(seat, meld.from_seat, self.n):
                self.find(F.CALL_CHI_SEAT, f"S{seat} calls chi from S{meld.from_seat}: chi only from the "
                          "left, not in 3-player", (seat - 1) % 4, meld.from_seat)
            if hs.next_draw is None or hs.last_discard is None:
                self.find(F.CALL_TIMING, f"S{seat} calls when there is no discard to call")
        else:
            # closed kan, added kan, kita: only on one's own turn, after one's own draw
            checks["call"] += 3
            last = hs.last_draw
            if last is None or last[0] != seat:
                self.find(F.CALL_TIMING, f"S{seat} makes a {kind.value} without having just drawn")
            if kind is CallKind.KITA:
                if self.n != 3:
                    self.find(F.CALL_KITA, f"S{seat} sets a North aside (kita) in a 4-player game")
            elif self.live_remaining(hs) <= 0:
                self.find(F.CALL_HOUTEI, f"S{seat} declares a kan when the live wall is empty")
        if kind.is_kan:
            checks["call"] += 1
            if hs.kan_total >= 4:
                self.find(F.KAN_LIMIT, "a fifth kan in one hand", 4, hs.kan_total + 1)
            hs.kans[seat] += 1
            hs.kan_total += 1
        if kind is not CallKind.KITA and kind is not CallKind.ADDED_KAN:
            hs.open_sets[seat] += 1
        if kind is not CallKind.KITA:
            hs.first_discards.clear()
        hs.any_call = True
        if kind is CallKind.ADDED_KAN:
            if not self.tally("call", hs.riichi[seat] == 0):
                self.find(F.RIICHI_CALL, f"S{seat} makes an added kan while in riichi")
            added = meld.added
            assert added is not None, "decode_meld sets the added tile of every added kan"
            self.take(hs, seat, added, "added to a kan")
            melds = hs.melds[seat]
            for i, old in enumerate(melds):
                if old.kind is CallKind.PON and (old.tiles[0] >> 2) == (meld.tiles[0] >> 2):
                    melds[i] = meld
                    break
            else:
                self.find(F.CALL_TILE, f"S{seat} made an added kan without a pon of that tile")
                melds.append(meld)
            hs.last_kakan = (seat, added)
            hs.passes.append((seat, added >> 2, False))
            hs.ippatsu_cancel_pending = True
            self.kan_dora(hs, opened=True)
        elif kind is CallKind.KITA:
            # An open kan's dora still hidden is revealed before the kita's replacement draw.
            hs.dora_due += hs.open_kan_dora
            hs.open_kan_dora = 0
            self.take(hs, seat, meld.tiles[0], "set aside as kita")
            hs.melds[seat].append(meld)
            hs.last_kita = (seat, meld.tiles[0])
            hs.passes.append((seat, meld.tiles[0] >> 2, False))
            hs.ippatsu_cancel_pending = True
        elif kind is CallKind.CLOSED_KAN:
            if hs.riichi[seat]:
                self.riichi_kan(hs, seat, meld)
            for t in meld.tiles:
                self.take(hs, seat, t, "used in a closed kan")
            hs.melds[seat].append(meld)
            hs.last_ankan = (seat, meld.tiles[0])
            hs.ippatsu = [False] * 4
            self.kan_dora(hs, opened=False)
        else:
            discarded = hs.last_discard
            if discarded is None or discarded[1] != meld.called or discarded[0] != meld.from_seat:
                self.find(F.CALL_TILE, f"S{seat} called {format_tiles([meld.called]) if meld.called is not None else 'no tile'} "
                          "that is not the last discard",
                          list(discarded) if discarded else None, [meld.from_seat, meld.called])
            else:
                hs.river_ok[discarded[0]] = False
            for t in meld.tiles:
                if t != meld.called:
                    self.take(hs, seat, t, "used in a call")
            hs.melds[seat].append(meld)
            hs.ippatsu = [False] * 4
            if kind is CallKind.OPEN_KAN:
                self.kan_dora(hs, opened=True)
            else:
                hs.kuikae = kuikae_forbidden(meld)
        hs.last_draw = None
        hs.last_discard = None
        if kind in (CallKind.CHI, CallKind.PON):
            hs.next_draw, hs.must_discard = None, seat
        else:
            hs.next_draw, hs.must_discard = seat, None

    def riichi_kan(self, hs: _HandState, seat: int, meld: Meld) -> None:
        """A closed kan in riichi: on the tile just drawn, and the waits must not change."""
        last = hs.last_draw
        drawn_kind = last[1] >> 2 if last is not None and last[0] == seat else None
        hand = list(hs.concealed[seat])
        before = list(hand)
        if last is not None and last[1] in before:
            before.remove(last[1])
        after = [t for t in hand if t not in meld.tiles]
        ok = is_ankan_allowed_in_riichi(waits(counts34(before)), waits(counts34(after)),
                                        meld.tiles[0] >> 2, drawn_kind)
        if not self.tally("riichi", ok):
            self.find(F.RIICHI_KAN,
                      f"S{seat}'s closed kan in riichi changes the waits or does not use the drawn tile")

    def kan_dora(self, hs: _HandState, *, opened: bool) -> None:
        """Closed kan: its dora is due before the replacement draw. Open/added kan: after the
        replacement draw (before the kanner's discard), or before the next kan's draw.
        Chip tables reveal every kan's dora at once (seen on the corpus's one open/added kan
        at a chip table)."""
        hs.dora_due += hs.open_kan_dora
        hs.open_kan_dora = 0
        if opened and not self.rules.chips:
            hs.open_kan_dora = 1
        else:
            hs.dora_due += 1

    def new_dora(self, hs: _HandState, ev: NewDora) -> None:
        if hs.dora_due:
            hs.dora_due -= 1
        elif hs.open_kan_dora and hs.last_draw is not None:
            hs.open_kan_dora -= 1
        else:
            self.find(F.DORA_TIMING, "a kan dora indicator was revealed with no kan to reveal it", 0, 1)
        wall = hs.wall
        k = len(hs.dora)
        if wall is not None and k < len(wall.dora_indicators):
            if not self.tally("wall_dora", wall.dora_indicators[k] == ev.tile):
                self.find(F.WALL_DORA,
                          "the kan dora indicator is not the seed's", wall.dora_indicators[k], ev.tile)
        hs.dora.append(ev.tile)

    def riichi(self, hs: _HandState, ev: Riichi) -> None:
        seat = ev.seat
        if ev.step == 1:
            checks = self.report.checks
            checks["riichi_declared"] += 1
            checks["riichi"] += 5  # the five tests below; messages only on failure
            if hs.riichi[seat]:
                self.find(F.RIICHI_TWICE, f"S{seat} declares riichi twice")
            if hs.must_discard != seat:
                self.find(F.RIICHI_STEP, f"S{seat} declares riichi out of turn")
            if any(m.kind.is_open for m in hs.melds[seat]):
                self.find(F.RIICHI_OPEN_HAND, f"S{seat} declares riichi with an open hand")
            if hs.scores[seat] < RIICHI_COST:
                self.find(F.RIICHI_POINTS, f"S{seat} declares riichi with fewer than 1000 points",
                          RIICHI_COST, hs.scores[seat])
            minimum = riichi_live_minimum(self.n)
            if self.live_remaining(hs) < minimum:
                self.find(F.RIICHI_LATE, f"S{seat} declares riichi with fewer than {minimum} tiles left "
                          "in the live wall", minimum, self.live_remaining(hs))
            hs.riichi[seat] = 1
            hs.riichi_discard_due = seat
            hs.double_riichi[seat] = hs.discards[seat] == 0 and not hs.any_call
            return
        if hs.step2_due != seat:
            self.find(F.RIICHI_STEP, f"S{seat}'s riichi is accepted without a declaration and its discard")
        hs.step2_due = None
        hs.riichi[seat] = 2
        hs.riichi_start[seat] = len(hs.passes)
        hs.ippatsu[seat] = True
        hs.scores[seat] -= 1000
        hs.sticks += 1
        if ev.scores is not None:
            if not self.tally("riichi", list(ev.scores) == hs.scores):
                self.find(F.RIICHI_SCORES, f"S{seat}'s riichi: the scores after the stick are wrong",
                          list(hs.scores), list(ev.scores))
                hs.scores = list(ev.scores)
        if self.n == 4 and all(r == 2 for r in hs.riichi):
            hs.abort_due = DrawKind.FOUR_RIICHI

    def furiten(self, hs: _HandState, who: int, win_kind: int) -> None:
        """Furiten at a ron, judged once with the winner's waits at the ron (tsumo is allowed)."""
        self.report.checks["furiten"] += 1
        wait_kinds = waits(counts34(hs.concealed[who]))
        river = hs.river_kinds[who] & wait_kinds
        if river:
            self.find(F.FURITEN_DISCARD, f"S{who} rons while a winning tile is in their own river (furiten)",
                      [], sorted(river))
        passed = hs.passes[:-1]  # the last pass is the tile won on
        window = passed[hs.turn_start[who]:]
        same_turn = sorted({k for s, k, own in window if s != who and not own and k in wait_kinds})
        if same_turn:
            self.find(F.FURITEN_SAME_TURN,
                      f"S{who} rons after letting a winning tile pass since their last discard (same-turn furiten)",
                      [], same_turn)
        if hs.riichi[who] == 2:
            window = passed[hs.riichi_start[who]:]
            missed = sorted({k for s, k, own in window if (s == who) == own and k in wait_kinds})
            if missed:
                self.find(F.FURITEN_RIICHI, f"S{who} rons after letting a winning tile pass in riichi "
                          "(riichi furiten)", [], missed)

    # -- hand ends -------------------------------------------------------------------------

    def agari(self, hs: _HandState, a: Agari) -> None:
        self.report.checks["agari"] += 1
        init = hs.init
        who, from_who = a.who, a.from_who
        first = not hs.wins
        tsumo = who == from_who
        chankan = False
        # what was won on, from the replay
        if tsumo:
            last = hs.last_draw
            if not first or last is None or last[0] != who:
                self.find(F.AGARI_WINNER, f"S{who}'s tsumo does not follow S{who}'s draw")
                return self.agari_resync(hs, a, first)
            win_tile, rinshan = last[1], last[2]
            concealed = list(hs.concealed[who])
        else:
            rinshan = False
            if hs.last_kakan is not None and hs.last_kakan[0] == from_who:
                win_tile, chankan = hs.last_kakan[1], True
            elif hs.last_kita is not None and hs.last_kita[0] == from_who:
                win_tile = hs.last_kita[1]
            elif hs.last_discard is not None and hs.last_discard[0] == from_who:
                win_tile = hs.last_discard[1]
            elif hs.last_ankan is not None and hs.last_ankan[0] == from_who:
                self.find(F.AGARI_WINNER, f"S{who} robs S{from_who}'s closed kan: Tenhou allows no ron on a closed kan")
                return self.agari_resync(hs, a, first)
            else:
                self.find(F.AGARI_WINNER, f"S{who}'s ron names S{from_who}, who did not just discard")
                return self.agari_resync(hs, a, first)
            concealed = [*hs.concealed[who], win_tile]
            self.furiten(hs, who, win_tile >> 2)
        checks = self.report.checks
        if not first:
            prev = hs.wins[-1]
            checks["agari_order"] += 1
            if not (prev.from_who == from_who and (prev.who - from_who) % 4 < (who - from_who) % 4):
                self.find(F.AGARI_ORDER, "the wins of a multiple ron are not in turn order from the "
                          "discarder", None, [prev.who, who])
        # The hand, the melds and the winning tile (three agari_hand checks); messages and
        # their values are built only when a check fails (this runs on every win).
        checks["agari_hand"] += 3
        if sorted(concealed) != sorted(a.hand):
            self.find(F.AGARI_HAND, f"S{who}'s winning hand (hai) is not the replayed hand",
                      format_tiles(concealed), format_tiles(a.hand))
        my_melds = hs.melds[who]
        if len(my_melds) != len(a.melds) or (my_melds and sorted(
                (m.kind.value, m.tiles) for m in my_melds) != sorted((m.kind.value, m.tiles) for m in a.melds)):
            ours = sorted((m.kind.value, m.tiles) for m in my_melds)
            theirs = sorted((m.kind.value, m.tiles) for m in a.melds)
            self.find(F.AGARI_MELDS, f"S{who}'s melds (m) are not the replayed melds",
                      [list(t) for _, t in ours], [list(t) for _, t in theirs])
        if win_tile != a.win_tile:
            self.find(F.AGARI_WIN_TILE, f"S{who}'s winning tile (machi) is not the tile won on",
                      win_tile, a.win_tile)
        checks["agari_dora"] += 2
        dora = hs.dora
        if tuple(dora) != tuple(a.dora_indicators):
            self.find(F.AGARI_DORA, "the dora indicators (doraHai) are not the ones revealed",
                      list(dora), list(a.dora_indicators))
        in_riichi = hs.riichi[who] == 2
        expected_ura = len(dora) if in_riichi else 0
        if len(a.ura_indicators) != expected_ura:
            self.find(F.AGARI_URA, "the number of ura dora indicators (doraHaiUra) is wrong",
                      expected_ura, len(a.ura_indicators))
        if hs.wall is not None and a.ura_indicators:
            k = len(a.ura_indicators)
            checks["wall_ura"] += 1
            if tuple(a.ura_indicators) != hs.wall.ura_indicators[:k]:
                self.find(F.WALL_URA, "the ura dora indicators are not the seed's",
                          list(hs.wall.ura_indicators[:k]), list(a.ura_indicators))
        remaining = self.live_remaining(hs)
        first_turn = hs.discards[who] == 0 and not hs.any_call
        ctx = WinContext(
            concealed=tuple(concealed),
            melds=tuple(hs.melds[who]),
            win_tile=win_tile,
            tsumo=tsumo,
            seat_wind=(who - init.dealer) % self.n,
            round_wind=init.wind,
            riichi=in_riichi and not hs.double_riichi[who],
            double_riichi=in_riichi and hs.double_riichi[who],
            ippatsu=in_riichi and hs.ippatsu[who],
            haitei=tsumo and not rinshan and remaining == 0,
            houtei=not tsumo and not chankan and remaining == 0 and hs.last_kita is None,
            rinshan=tsumo and rinshan,
            chankan=chankan,
            tenhou=tsumo and first_turn and who == init.dealer,
            chiihou=tsumo and first_turn and who != init.dealer,
            dora_indicators=tuple(hs.dora),
            ura_indicators=tuple(a.ura_indicators) if in_riichi else (),
            rules=self.scoring_rules,
        )
        scored = score_win(ctx)
        pao = self.pao_seat(hs, who, a)
        if isinstance(scored, ScoringRefusal):
            code = F.AGARI_NO_YAKU if scored.reason.name == "NO_YAKU" else F.AGARI_NOT_WINNING
            self.report.checks["agari_value"] += 1
            self.find(code, f"S{who}'s win cannot be scored: {scored.message}")
            self.report.checks["payment_not_checkable"] += 1
        else:
            self.compare_value(scored, a)
            if self.rules.chips and hs.honba:
                # Chip tables' honba payments disagree between lobbies in the corpus.
                self.report.checks["payment_not_checkable"] += 1
            else:
                deltas = win_deltas(scored.base, winner=who, discarder=None if tsumo else from_who,
                                    dealer=init.dealer, players=self.n, honba=hs.honba,
                                    sticks=hs.sticks, collects_bonus=first, pao=pao)
                checks["payment"] += 1
                if tuple(deltas) != tuple(a.deltas):
                    self.find(F.PAYMENT, f"S{who}'s win: the score changes (sc) are wrong",
                              list(deltas), list(a.deltas))
        checks["agari_pao"] += 1
        if pao != a.pao_who:
            self.find(F.AGARI_PAO, "the seat liable for the yakuman (paoWho) is wrong", pao, a.pao_who)
        self.agari_resync(hs, a, first)

    def agari_resync(self, hs: _HandState, a: Agari, first: bool) -> None:
        """Check ``sc`` before and ``ba``, then apply the log's deltas."""
        checks = self.report.checks
        checks["scores_before"] += 1
        before_ok = list(a.scores_before) == hs.scores
        if not before_ok:
            self.find(F.SCORES_BEFORE, "the scores before the win (sc) are not the running scores",
                      list(hs.scores), list(a.scores_before))
        sticks = hs.sticks if first else 0
        checks["ba"] += 1
        if a.honba != hs.honba or a.sticks != sticks:
            self.find(F.BA, "honba and riichi sticks (ba) are not the ones on the table",
                      [hs.honba, sticks], [a.honba, a.sticks])
        base = hs.scores if before_ok else list(a.scores_before)
        hs.scores = [base[s] + a.deltas[s] for s in range(4)]
        hs.wins.append(a)
        hs.ended = True

    def compare_value(self, scored: ScoredHand, a: Agari) -> None:
        self.report.checks["agari_value"] += 1
        who = f"S{a.who}"
        if scored.yakuman or a.yakuman:
            if sorted(scored.yakuman) != sorted(a.yakuman):
                self.find(F.AGARI_YAKUMAN, f"{who}'s yakuman are wrong: {yakuman_names(sorted(scored.yakuman))} by "
                          f"the rules, the log says {yakuman_names(sorted(a.yakuman))}",
                          sorted(scored.yakuman), sorted(a.yakuman))
        elif sorted(scored.yaku) != sorted(a.yaku):
            self.find(F.AGARI_YAKU, f"{who}'s yaku are wrong: {yaku_difference(scored.yaku, a.yaku)}",
                      sorted(map(list, scored.yaku)), sorted(map(list, a.yaku)))
        if a.fu is None:
            self.report.checks["fu_not_checkable"] += 1
        elif scored.fu != a.fu:
            self.find(F.AGARI_FU, f"{who}'s fu are wrong", scored.fu, a.fu)
        if scored.points != a.points:
            self.find(F.AGARI_POINTS, f"{who}'s hand value (ten) is wrong", scored.points, a.points)
        if int(scored.limit) != a.limit:
            self.find(F.AGARI_LIMIT, f"{who}'s limit (ten) is wrong: {limit_name(int(scored.limit))} by the "
                      f"rules, the log says {limit_name(a.limit)}", int(scored.limit), a.limit)

    def pao_seat(self, hs: _HandState, who: int, a: Agari) -> int | None:
        """Pao (sekinin barai): the discarder of the call that completed the third dragon set
        (daisangen) or the fourth wind set (daisuushii), counting melds in call order."""
        melds = hs.melds[who]
        for group, need in ((_DRAGONS, 3), (_WINDS, 4)):
            count = 0
            for m in melds:
                if m.kind in _SET_KINDS and (m.tiles[0] >> 2) in group:
                    count += 1
                    if count == need:
                        if m.kind in (CallKind.PON, CallKind.OPEN_KAN) or (
                                m.kind is CallKind.ADDED_KAN):
                            return m.from_seat if m.from_seat != who else None
                        return None
        return None

    def abortive_condition(self, hs: _HandState, r: Ryuukyoku) -> None:
        """Each abortive draw only with its condition (tochuu ryuukyoku)."""
        kind = r.kind
        shown = [s for s in range(self.n) if r.hands[s] is not None]
        if kind is DrawKind.NINE_TERMINALS:
            last = hs.last_draw
            seat = last[0] if last is not None else None
            hand = hs.concealed[seat] if seat is not None else []
            ok = (seat is not None and shown == [seat] and hs.discards[seat] == 0 and not hs.any_call
                  and nine_terminal_kinds(hand) >= 9 and sorted(r.hands[seat] or ()) == sorted(hand))
            if not self.tally("abort", ok):
                self.find(F.ABORT_CONDITION,
                          "nine terminals (yao9) declared without its condition: the declarer's first draw, "
                          "no call, nine kinds of terminals and honours", None, seat)
        elif kind is DrawKind.FOUR_WINDS:
            ok = self.n == 4 and not hs.any_call and four_winds(hs.first_discards)
            if not self.tally("abort", ok):
                self.find(F.ABORT_CONDITION,
                          "four winds (kaze4) declared without four first discards of one wind and no call")
        elif kind is DrawKind.FOUR_RIICHI:
            ok = self.n == 4 and all(x == 2 for x in hs.riichi)
            if not self.tally("abort", ok):
                self.find(F.ABORT_CONDITION, "four riichi (reach4) declared without four riichi")
        elif kind is DrawKind.FOUR_KANS:
            ok = four_kans_abort(hs.kans) and hs.last_discard is not None
            if not self.tally("abort", ok):
                self.find(F.ABORT_CONDITION,
                          "four kans (kan4) declared without four kans by two or more players", 4, list(hs.kans))
        elif kind is DrawKind.TRIPLE_RON:
            src = hs.last_kakan or hs.last_kita or hs.last_discard
            ok = src is not None and len(shown) == 3 and src[0] not in shown
            for seat in shown:
                hand = [*hs.concealed[seat], src[1]] if src is not None else []
                ok = ok and sorted(r.hands[seat] or ()) == sorted(hs.concealed[seat]) and is_complete(counts34(hand))
            if not self.tally("abort", ok):
                self.find(F.ABORT_CONDITION,
                          "triple ron (ron3) declared without three players able to win on the tile", None, shown)

    def ryuukyoku(self, hs: _HandState, r: Ryuukyoku) -> _Outcome:
        init = hs.init
        self.report.checks["ryuukyoku"] += 1
        before_ok = self.tally("scores_before", list(r.scores_before) == hs.scores)
        if not before_ok:
            self.find(F.SCORES_BEFORE,
                      "the scores before the draw (sc) are not the running scores",
                      list(hs.scores), list(r.scores_before))
        if not self.tally("ba", (r.honba, r.sticks) == (hs.honba, hs.sticks)):
            self.find(F.BA,
                      "honba and riichi sticks (ba) are not the ones on the table",
                      [hs.honba, hs.sticks], [r.honba, r.sticks])
        dealer_tenpai = False
        if r.kind is DrawKind.EXHAUSTIVE or r.kind is DrawKind.NAGASHI_MANGAN:
            tenpai = [False] * 4
            for seat in range(self.n):
                tenpai[seat] = bool(waits(counts34(hs.concealed[seat])))
                shown = r.hands[seat]
                if not self.tally("draw_tenpai", tenpai[seat] == (shown is not None)):
                    self.find(F.DRAW_TENPAI,
                              f"S{seat} is {'tenpai' if tenpai[seat] else 'noten'} but the log says otherwise",
                              tenpai[seat], shown is not None)
                if shown is not None:
                    self.report.checks["draw_hand"] += 1
                    if sorted(shown) != sorted(hs.concealed[seat]):
                        self.find(F.DRAW_HAND, f"S{seat}'s shown hand is not the replayed hand",
                                  format_tiles(hs.concealed[seat]), format_tiles(shown))
            dealer_tenpai = tenpai[init.dealer]
            if not self.tally("draw_condition", self.live_remaining(hs) == 0):
                self.find(F.DRAW_TENPAI,
                          "an exhaustive draw while the live wall still has tiles",
                          0, self.live_remaining(hs))
            nagashi = [s for s in range(self.n) if hs.river_ok[s] and hs.discards[s] > 0]
            if not self.tally("nagashi", bool(nagashi) == (r.kind is DrawKind.NAGASHI_MANGAN)):
                self.find(F.NAGASHI,
                          "nagashi mangan is " + ("missing" if nagashi else "claimed without its condition"),
                          nagashi, r.kind is DrawKind.NAGASHI_MANGAN)
            if nagashi:
                deltas = nagashi_deltas(nagashi, dealer=init.dealer, players=self.n)
            else:
                deltas = exhaustive_draw_deltas(tenpai, players=self.n)
            if not self.tally("draw_payment", list(deltas) == list(r.deltas)):
                self.find(F.DRAW_PAYMENT,
                          "the tenpai/noten or nagashi payments are wrong", list(deltas), list(r.deltas))
            renchan = dealer_tenpai
            abortive = False
        else:
            if not self.tally("draw_payment", not any(r.deltas)):
                self.find(F.DRAW_PAYMENT,
                          "an abortive draw moves points", [0, 0, 0, 0], list(r.deltas))
            self.abortive_condition(hs, r)
            renchan = True
            abortive = True
        base = hs.scores if before_ok else list(r.scores_before)
        scores = tuple(base[s] + r.deltas[s] for s in range(4))
        hs.ended = True
        return _Outcome(scores, hs.sticks, init.honba, init.round, init.dealer, renchan, False,
                        dealer_tenpai, abortive, False, r.owari)


native.hand_written_inits(_Outcome)
