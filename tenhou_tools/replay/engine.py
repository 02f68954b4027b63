"""The replay engine: re-execute every hand of a ``Game`` and check what the log claims.

The driver walks the game hand by hand: each INIT against the hand before (``replay._flow``),
the hand's wall regenerated from the seed, then each event checked against the table state
before it (``replay._hand_checks``, with wins in ``replay._win_checks`` and draws in
``replay._draw_checks``) and applied to it by the one fold (``replay.state``), then whether the
game should end there. At every point where the log states a fact, the fact is recomputed under
the Tenhou rules (pure functions in ``tenhou_tools.rules``) and compared.

A disagreement becomes a ``Finding``; the state follows the log's own value (for example the
log's score), so one wrong number gives one finding, not a cascade.
``GameReport.checks`` counts every check that ran, by kind (``CheckKind``).
"""

from __future__ import annotations

import traceback

from ..events import Bye, Game, Init, Layout, Reconnect
from ..findings import FindingCode as F
from ..findings import Severity
from ..ids import announced_table, game_start
from ..rules.riichi import step2_scores_required
from ..rules.scoring import ScoringRules
from ..rules.wall import (
    HandWall,
    WallGenerator,
    WallSeedError,
    hand_wall_from_init_shuffle,
)
from ._flow import GameFlow, hand_outcome
from ._hand_checks import Connections, HandChecks, check_hand
from ._header_checks import check_header, verified_table
from ._recorder import NO_INDEX, Recorder
from .board import Outcome
from .checks import CheckKind as K
from .checks import GameReport
from .state import TableState

__all__ = ["GameReport", "replay_game"]


def replay_game(game: Game) -> GameReport:
    """Replay every hand of ``game``. Never raises: an engine bug becomes ``INTERNAL_ERROR``."""
    replay = _Replay(game)
    try:
        replay.run()
    except Exception as exc:  # noqa: BLE001 - one bad log must not stop a batch
        replay.rec.find(F.INTERNAL_ERROR, f"the replay engine failed: {type(exc).__name__}: {exc}",
                        severity=Severity.ERROR, detail=traceback.format_exc())
    return replay.rec.report(game.log_id, len(game.hands))


class _Replay:
    """One game's replay: the wall generator and the checks that span hands."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rec = Recorder()
        rules = game.header.ruleset
        self.n = rules.players
        self.chips = bool(rules.chips)
        self.scoring = ScoringRules.from_ruleset(rules)
        self.announced = announced_table(game.log_id)
        """The table the game id announces (``ids.announced_table``), or ``None`` without an id."""
        self.table = verified_table(game, self.announced)
        """The table rules the checks follow (``replay._header_checks.verified_table``), once a game."""
        self.flow = GameFlow(game, self.rec, self.table)
        self.step2_scores = step2_scores_required(game_start(game.log_id))
        """Whether REACH step 2 must state ``ten``: an mjlog's claim (tenhou.net/6 JSON has none)."""
        self.mjlog = game.log_format == "mjlog"
        header = game.header
        self.connections = Connections(self.rec, tuple(p.name for p in header.players),
                                       header.layout is Layout.REWRITTEN)
        """Seats away (after BYE, before their return), across hands, and what they may do."""
        self.walls: WallGenerator | None = None
        self.bad_seed: str | None = None
        """Why a seed the log does carry cannot be read (a finding, unlike a missing seed)."""
        self.seed_faulty = False
        """Whether ``WALL_SEED`` was reported: the wall is then wrong, not uncheckable, and is not
        also counted ``wall_not_checkable`` (which validate's report warns of)."""
        shuffle = game.header.shuffle
        self.init_seeded = shuffle is None and any(hand.init.shuffle for hand in game.hands)
        """A 2009 log: the seed is on each ``INIT`` (``shuffle``), so every ``INIT`` must carry one."""
        if shuffle is not None:
            if not shuffle.seed:
                self.bad_seed = "the SHUFFLE tag's seed is empty"
            elif any(hand.init.shuffle for hand in game.hands):
                self.bad_seed = "the log has both a SHUFFLE seed and per-hand INIT shuffle seeds"
            else:
                try:
                    self.walls = WallGenerator(shuffle.seed, self.n)
                except WallSeedError as exc:
                    self.bad_seed = str(exc)
            self.rec.check(K.WALL_SEED, self.bad_seed is None)  # reported at the first hand
        elif (self.mjlog and not self.init_seeded and game.header.layout is Layout.TENHOU
              and self.announced is not None):
            # a Tenhou game (its id) in the layout of Tenhou's server, which writes every log with
            # its seed (on each INIT in 2009, in SHUFFLE since); a log without an id (a hand-written
            # one) or that another program wrote again (MJLogDecoder's corpus log) may lack it:
            # wall_not_checkable, and validate's report warns
            self.rec.check(K.WALL_SEED, False)
            self.bad_seed = ("the log has none (no SHUFFLE tag, no INIT shuffle), while every log Tenhou "
                             "writes carries one")

    def run(self) -> None:
        rec = self.rec
        previous: Outcome | None = None
        hands = self.game.hands
        check_header(rec, self.game, self.announced, self.table)
        for event in self.game.prelude:  # disconnects and returns before the first hand
            if type(event) is Bye:
                self.connections.leaves(event.seat)
            elif type(event) is Reconnect:
                self.connections.returns(event.seat, event.name)
        for hand in hands:
            rec.hand_index = hand.index
            rec.event_index = NO_INDEX
            self.flow.carry_over(previous, hand.init)
            state = TableState(hand.init, self.n, self.chips)
            check_hand(HandChecks(rec, self.hand_wall(hand.init), self.scoring, self.chips, self.mjlog,
                                  self.step2_scores, self.connections), state, hand.events)
            previous = hand_outcome(state)
            rec.event_index = NO_INDEX
            self.flow.end_of_hand(previous, hand, hand.index == len(hands) - 1)

    def hand_wall(self, init: Init) -> HandWall | None:
        """The hand's wall from the game's seed (or the 2009 per-hand ``shuffle``), or ``None``:
        no seed (the wall is not checkable) or one that cannot be read (a finding)."""
        wall = None
        try:
            if self.walls is not None:
                wall = self.walls.next_hand(init.dealer)
            elif self.init_seeded:
                # 2009 per-hand seeds (一局ごとの牌山): each INIT's seed is a claim of its own
                if self.rec.check(K.WALL_SEED, bool(init.shuffle)):
                    wall = hand_wall_from_init_shuffle(init.shuffle or "", self.n, init.dealer)
                else:
                    self.bad_seed = "this INIT carries no shuffle seed, while the game's other INITs do"
        except (WallSeedError, ValueError) as exc:
            self.bad_seed = str(exc)
        if wall is None:
            if self.bad_seed is not None:
                self.rec.find(F.WALL_SEED, f"{init.label()}: the shuffle seed cannot be read: {self.bad_seed}")
                self.bad_seed = None  # the game's one seed, or this hand's: reported once
                self.seed_faulty = True
            if not self.seed_faulty:
                self.rec.not_checkable(K.WALL_NOT_CHECKABLE)
        return wall
