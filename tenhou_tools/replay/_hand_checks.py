"""The checks of one hand (kyoku): an observer of the table state before each event.

The state moves in one place (``replay.state.TableState.apply``); this module only reads it.
Before each event, ``HandChecks.before`` asks the rules (pure functions in
``tenhou_tools.rules``) whether the event may happen on the table as it stands, and counts each
check by ``CheckKind`` where it runs; a failure becomes a ``Finding`` with the value the rules
give and the log's. Draws and discards are nine events in ten: their checks keep to native
attributes and counters kept at hand (``Check``), and build a message only when a check fails.
Wins are checked by ``replay._win_checks`` and draws by ``replay._draw_checks``.
"""

from __future__ import annotations

from typing import Final, cast

from ..events import (
    Agari,
    Bye,
    Call,
    CallKind,
    Discard,
    Draw,
    DrawKind,
    Event,
    Meld,
    NewDora,
    Reconnect,
    Riichi,
    Ryuukyoku,
    Unknown,
)
from ..findings import FindingCode as F
from ..rules.calls import (
    CALLS_ON_A_DISCARD,
    KAN_LIMIT,
    allowed_in_riichi,
    chi_allowed,
    discard_callable,
    kan_allowed,
    kita_allowed,
    server_discard,
)
from ..rules.hand import counts34, waits
from ..rules.riichi import (
    RIICHI_COST,
    can_afford_riichi,
    is_ankan_allowed_in_riichi,
    is_closed,
    riichi_live_minimum,
)
from ..rules.scoring import ScoringRules
from ..rules.wall import HandWall
from ..tiles import format_tiles, unused_tiles
from ._draw_checks import check_ryuukyoku
from ._recorder import Recorder
from ._win_checks import check_agari
from .checks import CheckKind as K
from .state import NOBODY, TableState, holds

# Event classes, call kinds and check kinds read on every event, bound once: a C global in compiled
# code, where an imported name is a dictionary lookup and ``CallKind.X`` goes through the enum's
# ``__getattr__`` hook each time. Measured: without this block and state.py's, check_log takes
# 2.4 M more of a game's 6.6 M instructions (36 %; this module's share about 1.2 M;
# scripts/bench_callgrind.py, 100 corpus games, 2026-11-29).
_CALL_ADDED_KAN: Final = CallKind.ADDED_KAN
_CALL_CHI: Final = CallKind.CHI
_CALL_CLOSED_KAN: Final = CallKind.CLOSED_KAN
_CALL_KITA: Final = CallKind.KITA
_CALL_OPEN_KAN: Final = CallKind.OPEN_KAN
_K_ABORT_REQUIRED: Final = K.ABORT_REQUIRED
_K_CALL: Final = K.CALL
_K_DISCONNECT: Final = K.DISCONNECT
_K_CHIPS: Final = K.CHIPS
_K_DORA_TIMING: Final = K.DORA_TIMING
_K_DRAW_ORDER: Final = K.DRAW_ORDER
_K_RIICHI: Final = K.RIICHI
_K_RIICHI_ACCEPTED: Final = K.RIICHI_ACCEPTED
_K_RIICHI_DECLARED: Final = K.RIICHI_DECLARED
_K_TILES: Final = K.TILES
_K_TURN: Final = K.TURN
_K_WALL_DEAL: Final = K.WALL_DEAL
_K_WALL_DICE: Final = K.WALL_DICE
_K_WALL_DORA: Final = K.WALL_DORA
_K_WALL_DRAW: Final = K.WALL_DRAW
_AGARI: Final = Agari
_BYE: Final = Bye
_CALL: Final = Call
_DISCARD: Final = Discard
_DRAW: Final = Draw
_NEW_DORA: Final = NewDora
_RECONNECT: Final = Reconnect
_RIICHI: Final = Riichi
_RYUUKYOKU: Final = Ryuukyoku
_UNKNOWN: Final = Unknown


def check_hand(checks: HandChecks, state: TableState, events: tuple[Event, ...]) -> None:
    """Check a whole hand: the deal, then each event against the state before it, the state
    moved by the one fold after it, and what the hand's end requires. (The walk is here, in a
    compiled module, rather than in the engine: it runs once per event.) The seat and tile of a
    draw or discard are read once, for the checks and the fold (``TableState.move``, which says
    what reading them again costs)."""
    checks.events = events
    checks.deal(state)
    for index, event in enumerate(events):
        cls = type(event)
        if cls is _DRAW:
            draw = cast(Draw, event)
            seat, tile, rinshan = draw.seat, draw.tile, draw.rinshan
        elif cls is _DISCARD:
            discard = cast(Discard, event)
            seat, tile, rinshan = discard.seat, discard.tile, False
        else:
            seat, tile, rinshan = NOBODY, 0, False
        checks.observe(state, index, event, cls, seat, tile, rinshan)
        state.move(event, cls, seat, tile, rinshan)
    checks.end(state)


def _seat_or_none(seat: int) -> int | None:
    return None if seat == NOBODY else seat


class HandChecks:
    """Checks one hand's events against the table state before each of them."""

    def __init__(self, rec: Recorder, wall: HandWall | None, scoring: ScoringRules, chips: bool,
                 mjlog: bool = True, step2_scores: bool | None = None,
                 connections: Connections | None = None) -> None:
        self.rec = rec
        self.connections = connections if connections is not None else Connections(rec, ("",) * 4, False)
        """The seats' connections, shared by the game's hands: a player stays away across hands
        until the reconnecting ``UN``."""
        self.away = self.connections.away
        """Which seats are away (after their ``BYE``, before their return): ``Connections.away``."""
        self.step2_scores = step2_scores
        """Whether ``REACH step="2"`` must carry ``ten`` (``rules.riichi.step2_scores_required``;
        None: not known for this game)."""
        self.mjlog = mjlog
        """The log is an mjlog, whose chip claims (``INIT chip``, ``sc`` chip pairs) are its own;
        the other formats' readers fill them in."""
        self.wall = wall
        """The hand's wall regenerated from the seed, or ``None`` when the log has no usable seed."""
        self.scoring = scoring
        self.chips = chips
        """A chip table (shuugi): honba payments unchecked."""
        self.live_wall: tuple[int, ...] = wall.live if wall is not None else ()
        self.rinshan_wall: tuple[int, ...] = wall.rinshan if wall is not None else ()
        self.seen = [False] * 136
        """Tile ids accounted for in this hand: dealt, drawn or revealed, and from the deal on the
        ones the game does not use (``tiles.unused_tiles``: sanma's 2m-8m), so that ``account``
        is the one test of both."""
        self.ura_shown: list[int] = []
        """The ura dora indicators shown by a win of this hand (a double ron shows them twice)."""
        self.events: tuple[Event, ...] = ()
        """The hand's events (``check_hand``), for what follows the one being checked."""
        # the checks of every draw and discard, kept at hand
        self.draw_order = rec.of(_K_DRAW_ORDER)
        self.turn = rec.of(_K_TURN)
        self.tiles = rec.of(_K_TILES)
        self.wall_draw = rec.of(_K_WALL_DRAW)

    # -- the deal ----------------------------------------------------------------------------

    def deal(self, state: TableState) -> None:
        """The dealt hands against the seed's wall, and tile accounting of the deal."""
        rec, wall = self.rec, self.wall
        init, n = state.init, state.players
        if wall is not None:
            if not rec.check(_K_WALL_DICE, wall.dice == init.dice):
                rec.find(F.WALL_DICE, f"{init.label()}: the dice are not the seed's", list(wall.dice), list(init.dice))
            if not rec.check(_K_WALL_DORA, wall.dora_indicators[0] == init.dora_indicator):
                rec.find(F.WALL_DORA, f"{init.label()}: the dora indicator is not the seed's",
                         wall.dora_indicators[0], init.dora_indicator)
            for seat in range(n):
                if not rec.check(_K_WALL_DEAL, wall.deal[seat] == init.hands[seat]):
                    rec.find(F.WALL_DEAL, f"{init.label()}: S{seat}'s dealt tiles are not the seed's",
                             list(wall.deal[seat]), list(init.hands[seat]))
        chips = self.chips
        if self.mjlog and init.chips is not None:
            rec.not_checkable(K.CLAIMS_NOT_CHECKABLE)  # the chip balances (docs/findings.md, "Claims")
        if self.mjlog and not rec.check(_K_CHIPS, (init.chips is not None) == chips):
            rec.find(F.CHIPS, f"{init.label()}: INIT {'gives no' if chips else 'gives'} chips (chip) on "
                     f"{'a chip table' if chips else 'a table without chips'}", chips, not chips)
        tiles = [t for h in init.hands for t in h] + [init.dora_indicator]
        sizes = [len(h) for h in init.hands]
        expected_sizes = [13] * n + [0] * (4 - n)
        seen = self.seen
        for t in unused_tiles(n):
            seen[t] = True
        duplicates = [t for t in tiles if not self.account(t)]
        if not self.tiles.check(sizes == expected_sizes and not duplicates):
            if sizes != expected_sizes:
                rec.find(F.HAND_SIZE, f"{init.label()}: the dealt hands do not have 13 tiles each",
                         expected_sizes, sizes)
            for t in duplicates:
                self.duplicate(t)

    # -- each event --------------------------------------------------------------------------

    def before(self, state: TableState, index: int, event: Event) -> None:
        """Check ``event`` (the hand's ``index``-th) against the state it is about to move."""
        cls = type(event)
        if cls is _DRAW:
            draw = cast(Draw, event)
            self.observe(state, index, event, cls, draw.seat, draw.tile, draw.rinshan)
        elif cls is _DISCARD:
            discard = cast(Discard, event)
            self.observe(state, index, event, cls, discard.seat, discard.tile, False)
        else:
            self.observe(state, index, event, cls, NOBODY, 0, False)

    def observe(self, state: TableState, index: int, event: Event, cls: type, seat: int, tile: int,
                rinshan: bool) -> None:
        """``before``, given the event's class and a draw's or discard's fields, read once by the
        caller (``TableState.move``)."""
        rec = self.rec
        rec.event_index = index
        if cls is _BYE or cls is _RECONNECT or cls is _UNKNOWN:
            if cls is _BYE:
                self.connections.leaves(cast(Bye, event).seat)
            elif cls is _RECONNECT:
                back = cast(Reconnect, event)
                self.connections.returns(back.seat, back.name)
            if cls is not _UNKNOWN and self.mjlog:  # the disconnect itself: docs/findings.md, "Claims"
                rec.not_checkable(K.CLAIMS_NOT_CHECKABLE)
            return
        if state.pending:
            if state.ended and cls is not _AGARI:
                rec.find(F.EVENT_AFTER_END, f"{cls.__name__} after the hand ended")
                return
            self.pending_rules(state, event)
        if cls is _DRAW:
            self.draw(state, seat, tile, rinshan)
        elif cls is _DISCARD:
            self.discard(state, seat, tile)
        elif cls is _CALL:
            self.call(state, cast(Call, event))
        elif cls is _RIICHI:
            self.riichi(state, cast(Riichi, event))
        elif cls is _NEW_DORA:
            self.new_dora(state, cast(NewDora, event))
        elif cls is _AGARI:
            agari = cast(Agari, event)
            if self.away[agari.who]:
                self.connections.plays(agari.who, "wins", None, agari.who)
            self.ura(agari.ura_indicators)
            self.chip_pairs(agari.chips_before)
            if self.mjlog and (agari.extra or agari.chips_before is not None):
                rec.not_checkable(K.CLAIMS_NOT_CHECKABLE)  # chip, ratio, chip pairs: docs/findings.md, "Claims"
            check_agari(rec, state, agari, self.scoring, self.chips, self.wall)
        elif cls is _RYUUKYOKU:
            draw = cast(Ryuukyoku, event)
            self.chip_pairs(draw.chips_before)
            if self.mjlog and (draw.extra or draw.chips_before is not None):
                rec.not_checkable(K.CLAIMS_NOT_CHECKABLE)
            check_ryuukyoku(rec, state, draw, self.scoring)

    def end(self, state: TableState) -> None:
        """After the hand's last event: a third ron on one tile aborts the hand instead."""
        if len(state.wins) >= 3:
            self.rec.check(_K_ABORT_REQUIRED, False)
            self.rec.find(F.TRIPLE_RON, "three players won on one tile: Tenhou aborts a triple ron (ron3)",
                          "ron3", len(state.wins))

    def pending_rules(self, state: TableState, event: Event) -> None:
        """What must happen right after a riichi discard (REACH step 2 unless it is won on) or
        when the rules make an abortive draw happen now."""
        rec = self.rec
        is_agari = type(event) is _AGARI
        if state.step2_due != NOBODY and not (type(event) is _RIICHI or is_agari):
            # a triple ron on the declaration discard (an abortive draw) takes it as a ron does:
            # no stick (2 genuine games); ``abortive_condition`` checks that the three could win
            won_on = type(event) is _RYUUKYOKU and event.kind is DrawKind.TRIPLE_RON
            if not rec.check(_K_RIICHI_ACCEPTED, won_on):
                rec.find(F.RIICHI_STEP, f"S{state.step2_due}'s riichi discard passed but the riichi was "
                         "not accepted (no REACH step 2)")
        due = state.abort_due
        if due is not None:
            ok = (isinstance(event, Ryuukyoku) and event.kind is due) or (due is DrawKind.FOUR_KANS and is_agari)
            if not rec.check(_K_ABORT_REQUIRED, ok):
                rec.find(F.ABORT_MISSING, f"the hand had to end in an abortive draw ({due.value})",
                         due.value, type(event).__name__)

    # -- draws and discards: the hot path ----------------------------------------------------

    def draw(self, t: TableState, seat: int, tile: int, rinshan: bool) -> None:
        if t.dora_due:
            self.dora_missing("a kan dora indicator was not revealed before the next draw", t.dora_due)
        remaining = t.live_total - t.live_drawn - t.rinshan_drawn
        if not self.draw_order.check(t.next_draw == seat and (rinshan or remaining > 0)):
            if t.next_draw != seat:
                self.rec.find(F.DRAW_ORDER, f"S{seat} draws out of turn", _seat_or_none(t.next_draw), seat)
            if not rinshan and remaining <= 0:
                self.rec.find(F.DRAW_ORDER, f"S{seat} draws from an empty live wall")
        if not self.tiles.check(self.account(tile)):
            self.duplicate(tile)
        if rinshan:
            drawn = t.rinshan_drawn
            if drawn < len(self.rinshan_wall) and not self.wall_draw.check(self.rinshan_wall[drawn] == tile):
                self.rec.find(F.WALL_DRAW, f"S{seat}'s replacement draw is not the seed's",
                              self.rinshan_wall[drawn], tile)
        else:
            drawn = t.live_drawn
            if drawn < len(self.live_wall) and not self.wall_draw.check(self.live_wall[drawn] == tile):
                self.rec.find(F.WALL_DRAW, f"S{seat}'s draw is not the seed's", self.live_wall[drawn], tile)

    def discard(self, t: TableState, seat: int, tile: int) -> None:
        if t.dora_due or t.open_kan_dora:
            self.dora_missing("a kan dora indicator was not revealed before the discard",
                              t.dora_due + t.open_kan_dora)
        if not self.turn.check(t.must_discard == seat):
            self.out_of_turn(t, seat)
        s = t.seats[seat]
        hand = s.concealed
        held = len(hand)
        in_hand = holds(hand, tile)
        if not self.tiles.check(in_hand and held == 14 - 3 * s.open_sets - s.short - t.second_discard(seat)):
            self.wrong_discard(t, seat, tile, held, in_hand)
        if t.kuikae:
            self.kuikae(t, seat, tile)
        if self.away[seat]:
            self.away_discard(t, seat, tile)
        if s.riichi:
            if t.riichi_discard_due == seat:
                self.riichi_discard(t, seat, tile)
            else:
                self.riichi_tsumogiri(t, seat, tile)

    # -- the rare branches of draws and discards ---------------------------------------------

    def dora_missing(self, message: str, due: int) -> None:
        self.rec.check(_K_DORA_TIMING, False)
        self.rec.find(F.DORA_TIMING, message, due, 0)

    def chip_pairs(self, chips_before: tuple[int, ...] | None) -> None:
        """A result's ``sc`` has chip pairs (5-8) exactly on a chip table (祝儀)."""
        chips = self.chips
        if self.mjlog and not self.rec.check(_K_CHIPS, (chips_before is not None) == chips):
            self.rec.find(F.CHIPS, f"the result's sc {'has no' if chips else 'has'} chip pairs on "
                          f"{'a chip table' if chips else 'a table without chips'}", chips, not chips)

    def account(self, tile: int) -> bool:
        """Tile accounting (the deal, a draw, a revealed indicator): whether ``tile`` is one this
        game uses and not seen before in this hand; it is seen from now on."""
        seen = self.seen
        fresh = not seen[tile]
        seen[tile] = True
        return fresh

    def reveal(self, tile: int) -> None:
        """Tile accounting of a revealed tile (a kan dora or ura indicator): one ``tiles`` check."""
        if not self.tiles.check(self.account(tile)):
            self.duplicate(tile)

    def ura(self, indicators: tuple[int, ...]) -> None:
        """Tile accounting of a win's ura dora indicators (裏ドラ表示牌): tiles of the dead wall not
        seen before, except that the second winner of a double ron shows the same ones."""
        shown = self.ura_shown
        for tile in indicators:
            if tile not in shown:
                self.reveal(tile)
                shown.append(tile)

    def duplicate(self, tile: int) -> None:
        self.rec.find(F.TILE_DUPLICATE, f"tile id {tile} ({format_tiles([tile])}) appears twice or "
                      "does not exist in this game", None, tile)

    def not_in_hand(self, seat: int, tile: int, what: str) -> None:
        self.rec.find(F.TILE_NOT_IN_HAND,
                      f"S{seat} {what} {format_tiles([tile])} (id {tile}), which is not in the hand", None, tile)

    def out_of_turn(self, t: TableState, seat: int) -> None:
        """A discard by a seat that need not discard. Right after the seat's own discard (nothing
        drawn or called between) it is a second discard in a row, a fault of Tenhou's server
        (two games of 2010-02-28): one finding here, and the hand plays on a tile short (少牌,
        ``SeatState.short``)."""
        if t.second_discard(seat):
            self.rec.find(F.DOUBLE_DISCARD, f"S{seat} discards twice in a row, with no draw or call between: "
                          "the hand is a tile short from here", None, seat)
        else:
            self.rec.find(F.DRAW_ORDER, f"S{seat} discards out of turn", _seat_or_none(t.must_discard), seat)

    def wrong_discard(self, t: TableState, seat: int, tile: int, held: int, in_hand: bool) -> None:
        s = t.seats[seat]
        size = 14 - 3 * s.open_sets - s.short - t.second_discard(seat)
        if held != size:
            self.rec.find(F.HAND_SIZE, f"S{seat} holds {held} tiles before discarding, not {size}", size, held)
        if not in_hand:
            self.not_in_hand(seat, tile, "discarded")

    def kuikae(self, t: TableState, seat: int, tile: int) -> None:
        """Right after a chi or pon: no discard of a forbidden kind (kuikae), unless the server
        made it for a player who is away (``server_played``)."""
        forbidden = t.kuikae
        ok = (tile >> 2) not in forbidden or (
            tile == server_discard(t.seats[seat].concealed, None) and self.server_played(t, seat))
        if not self.rec.check(_K_CALL, ok):
            self.rec.find(F.CALL_KUIKAE, f"S{seat} discards {format_tiles([tile])} right after calling for it "
                          "(kuikae)", sorted(forbidden), tile >> 2)

    def away_discard(self, t: TableState, seat: int, tile: int) -> None:
        """A player who is away discards what the server discards for it: the tile just drawn
        (or, right after a call, the hand's last tile: ``rules.calls.server_discard``)."""
        last = t.last_draw
        drawn = last.tile if last is not None and last.seat == seat else None
        expected = server_discard(t.seats[seat].concealed, drawn)
        if expected != tile:
            self.connections.plays(seat, f"discards {format_tiles([tile])}, not the server's "
                                   f"{format_tiles([expected])}", expected, tile)
        else:
            self.connections.played(seat)

    def server_played(self, t: TableState, seat: int) -> bool:
        """Whether the server made ``seat``'s discard being checked: the seat is away, or its
        ``BYE`` comes before the next discard or the hand's end (its time ran out: the server
        discarded for it, then wrote that it left)."""
        if not t.seats[seat].connected:
            return True
        events = self.events
        for i in range(self.rec.event_index + 1, len(events)):
            event = events[i]
            cls = type(event)
            if cls is _BYE and cast(Bye, event).seat == seat:
                return True
            if cls is _DISCARD or cls is _AGARI or cls is _RYUUKYOKU:
                return False
        return False

    def riichi_tsumogiri(self, t: TableState, seat: int, tile: int) -> None:
        """A discard in riichi (after the declaration discard) must be the tile just drawn."""
        drawn = t.last_draw
        if not self.rec.check(_K_RIICHI, drawn is not None and drawn.seat == seat and drawn.tile == tile):
            self.rec.find(F.RIICHI_TSUMOGIRI, f"S{seat} is in riichi but does not discard the drawn tile",
                          drawn.tile if drawn is not None else None, tile)

    def riichi_discard(self, t: TableState, seat: int, tile: int) -> None:
        """The declaration discard (between REACH step 1 and 2): the hand left must be tenpai."""
        after = list(t.seats[seat].concealed)
        if tile in after:
            after.remove(tile)
        if not self.rec.check(_K_RIICHI, bool(waits(counts34(after)))):
            self.rec.find(F.RIICHI_NOT_TENPAI, f"S{seat} declared riichi with a hand that is not tenpai",
                          True, format_tiles(after))

    # -- calls -------------------------------------------------------------------------------

    def call(self, t: TableState, ev: Call) -> None:
        """A chi, pon, kan or kita: each rule of the call is one ``call`` check."""
        rec = self.rec
        seat, meld = ev.seat, ev.meld
        kind = meld.kind
        s = t.seats[seat]
        remaining = t.live_remaining()
        if self.away[seat]:
            self.connections.plays(seat, f"makes a {kind.value}", None, kind.value)
        if kind in CALLS_ON_A_DISCARD:
            if not rec.check(_K_CALL, not s.riichi or allowed_in_riichi(kind)):
                rec.find(F.RIICHI_CALL, f"S{seat} calls {kind.value} while in riichi")
            if not rec.check(_K_CALL, discard_callable(remaining)):
                rec.find(F.CALL_HOUTEI, f"S{seat} calls the last discard (houtei), which cannot be called")
            if kind is _CALL_CHI and not rec.check(_K_CALL, chi_allowed(seat, meld.from_seat, t.players)):
                rec.find(F.CALL_CHI_SEAT, f"S{seat} calls chi from S{meld.from_seat}: chi only from the left, "
                         "not in 3-player", (seat - 1) % 4, meld.from_seat)
            if not rec.check(_K_CALL, t.next_draw != NOBODY and t.last_discard is not None):
                rec.find(F.CALL_TIMING, f"S{seat} calls when there is no discard to call")
        else:
            # closed kan, added kan, kita: only on one's own turn, after one's own draw
            last = t.last_draw
            if not rec.check(_K_CALL, last is not None and last.seat == seat):
                rec.find(F.CALL_TIMING, f"S{seat} makes a {kind.value} without having just drawn")
            if kind is _CALL_KITA:
                if not rec.check(_K_CALL, kita_allowed(t.players)):
                    rec.find(F.CALL_KITA, f"S{seat} sets a North aside (kita) in a 4-player game")
            elif not rec.check(_K_CALL, kan_allowed(remaining)):
                rec.find(F.CALL_HOUTEI, f"S{seat} declares a kan when the live wall is empty")
        if kind is _CALL_ADDED_KAN or kind is _CALL_OPEN_KAN or kind is _CALL_CLOSED_KAN:  # is_kan
            if not rec.check(_K_CALL, t.kan_total < KAN_LIMIT):
                rec.find(F.KAN_LIMIT, "a fifth kan in one hand", KAN_LIMIT, t.kan_total + 1)
        if kind is _CALL_ADDED_KAN:
            self.added_kan(t, ev)
        elif kind is _CALL_KITA:
            tile = meld.tiles[0]
            if not rec.check(_K_CALL, holds(s.concealed, tile)):
                self.not_in_hand(seat, tile, "set aside as kita")
        elif kind is _CALL_CLOSED_KAN:
            if s.riichi:
                self.riichi_kan(t, seat, meld)
            missing = _missing(s.concealed, meld.tiles, None)
            if not rec.check(_K_CALL, not missing):
                for tile in missing:
                    self.not_in_hand(seat, tile, "used in a closed kan")
        else:
            self.call_on_discard(t, ev)

    def added_kan(self, t: TableState, ev: Call) -> None:
        rec = self.rec
        seat, meld = ev.seat, ev.meld
        s = t.seats[seat]
        if not rec.check(_K_CALL, not s.riichi or allowed_in_riichi(meld.kind)):
            rec.find(F.RIICHI_CALL, f"S{seat} makes an added kan while in riichi")
        added = meld.added
        assert added is not None, "decode_meld sets the added tile of every added kan"
        in_hand = holds(s.concealed, added)
        pon = t.pon_of(s, meld)
        if not rec.check(_K_CALL, in_hand and pon >= 0):
            if not in_hand:
                self.not_in_hand(seat, added, "added to a kan")
            if pon < 0:
                rec.find(F.CALL_TILE, f"S{seat} made an added kan without a pon of that tile")
        if pon >= 0:
            old = s.melds[pon]  # 加槓: the pon's tiles, called tile and seat stay what they were
            same = (old.from_seat == meld.from_seat and old.called == meld.called
                    and set(old.tiles) <= set(meld.tiles))
            if not rec.check(_K_CALL, same):
                rec.find(F.CALL_TILE, f"S{seat}'s added kan does not restate its pon (the seat called from, "
                         "the called tile, the tiles)", [old.from_seat, old.called, list(old.tiles)],
                         [meld.from_seat, meld.called, list(meld.tiles)])

    def call_on_discard(self, t: TableState, ev: Call) -> None:
        """Chi, pon or open kan of the last discard."""
        rec = self.rec
        seat, meld = ev.seat, ev.meld
        right_tile = t.called_discard(meld)
        missing = _missing(t.seats[seat].concealed, meld.tiles, meld.called)
        if not rec.check(_K_CALL, right_tile and not missing):
            if not right_tile:
                discarded = t.last_discard
                called = format_tiles([meld.called]) if meld.called is not None else "no tile"
                rec.find(F.CALL_TILE, f"S{seat} called {called} that is not the last discard",
                         [discarded.seat, discarded.tile] if discarded is not None else None,
                         [meld.from_seat, meld.called])
            for tile in missing:
                self.not_in_hand(seat, tile, "used in a call")

    def riichi_kan(self, t: TableState, seat: int, meld: Meld) -> None:
        """A closed kan in riichi: on the tile just drawn, and the waits must not change."""
        last = t.last_draw
        drawn_kind = last.tile >> 2 if last is not None and last.seat == seat else None
        hand = list(t.seats[seat].concealed)
        before = list(hand)
        if last is not None and last.tile in before:
            before.remove(last.tile)
        after = [tile for tile in hand if tile not in meld.tiles]
        ok = is_ankan_allowed_in_riichi(waits(counts34(before)), waits(counts34(after)),
                                        meld.tiles[0] >> 2, drawn_kind)
        if not self.rec.check(_K_RIICHI, ok):
            self.rec.find(F.RIICHI_KAN,
                          f"S{seat}'s closed kan in riichi changes the waits or does not use the drawn tile")

    def new_dora(self, t: TableState, ev: NewDora) -> None:
        rec = self.rec
        self.reveal(ev.tile)  # a kan dora indicator (槓ドラ表示牌) is a tile of the wall like any other
        due = bool(t.dora_due) or bool(t.open_kan_dora and t.last_draw is not None)
        if not rec.check(_K_DORA_TIMING, due):
            rec.find(F.DORA_TIMING, "a kan dora indicator was revealed with no kan to reveal it", 0, 1)
        wall = self.wall
        k = len(t.dora)
        if wall is not None and k < len(wall.dora_indicators):
            if not rec.check(_K_WALL_DORA, wall.dora_indicators[k] == ev.tile):
                rec.find(F.WALL_DORA, "the kan dora indicator is not the seed's", wall.dora_indicators[k], ev.tile)

    # -- riichi ------------------------------------------------------------------------------

    def riichi(self, t: TableState, ev: Riichi) -> None:
        rec = self.rec
        seat = ev.seat
        s = t.seats[seat]
        if ev.step == 1:
            rec.check(_K_RIICHI_DECLARED, True)
            if self.away[seat]:
                self.connections.plays(seat, "declares riichi", None, "riichi")
            if not rec.check(_K_RIICHI, not s.riichi):
                rec.find(F.RIICHI_TWICE, f"S{seat} declares riichi twice")
            if not rec.check(_K_RIICHI, t.must_discard == seat):
                rec.find(F.RIICHI_STEP, f"S{seat} declares riichi out of turn")
            if not rec.check(_K_RIICHI, is_closed(s.melds)):
                rec.find(F.RIICHI_OPEN_HAND, f"S{seat} declares riichi with an open hand")
            if not rec.check(_K_RIICHI, can_afford_riichi(t.scores[seat])):
                rec.find(F.RIICHI_POINTS, f"S{seat} declares riichi with fewer than {RIICHI_COST} points",
                         RIICHI_COST, t.scores[seat])
            minimum = riichi_live_minimum(t.players)
            if not rec.check(_K_RIICHI, t.live_remaining() >= minimum):
                rec.find(F.RIICHI_LATE, f"S{seat} declares riichi with fewer than {minimum} tiles left "
                         "in the live wall", minimum, t.live_remaining())
            stated = ev.scores
            if not rec.check(_K_RIICHI, stated is None):  # the stick is paid at step 2, not here
                rec.find(F.RIICHI_SCORES, f"S{seat}'s riichi declaration (REACH step 1) states scores (ten)",
                         None, list(stated or ()))
            return
        if not rec.check(_K_RIICHI_ACCEPTED, t.step2_due == seat):
            rec.find(F.RIICHI_STEP, f"S{seat}'s riichi is accepted without a declaration and its discard")
        expected = list(t.scores)
        expected[seat] -= RIICHI_COST
        if ev.scores is not None:
            if not rec.check(_K_RIICHI, list(ev.scores) == expected):
                rec.find(F.RIICHI_SCORES, f"S{seat}'s riichi: the scores after the stick are wrong",
                         expected, list(ev.scores))
        elif not self.mjlog:
            pass  # tenhou.net/6 JSON and mjai state no scores at riichi
        elif self.step2_scores is None:
            rec.not_checkable(K.RIICHI_SCORES_NOT_CHECKABLE)
        elif not rec.check(_K_RIICHI, not self.step2_scores):
            rec.find(F.RIICHI_SCORES, f"S{seat}'s accepted riichi (REACH step 2) states no scores (ten), "
                     "as every log since February 2010 does", expected, None)


class Connections:
    """The seats' connections across a game's hands (切断 and 再接続), and what a player who is
    away may do: who is away (after its ``BYE``, before its reconnecting ``UN``), each counted
    ``disconnect`` check, and a ``DISCONNECT`` finding where the log breaks the rules.

    While a player is away the server plays for it: it discards the drawn tile (or, right after
    a call, the hand's last tile) and makes no call, riichi or win; the ``UN`` that brings it back
    names the seat's own player. Every genuine log of the corpus in Tenhou's layout keeps this
    (each discard while away is the drawn tile; docs/rules.md). A log another program wrote again (``Layout``) may
    have replaced the names or dropped the returns (MahjongPantheon's anonymised ``nagashi`` log
    lost its ``UN``s: its player plays on, calls, riichis and wins; its twin with the names keeps
    the ``UN``): there, what breaks the rules counts ``disconnect_not_checkable`` instead (once
    an absence: the rest of it is not held to the rules either), and ``validate`` warns."""

    def __init__(self, rec: Recorder, names: tuple[str, ...], rewritten: bool) -> None:
        self.rec = rec
        self.names = names
        """Each seat's player (``UN``), whom its reconnecting ``UN`` names."""
        self.rewritten = rewritten
        """The log was written again by another program (``Layout.REWRITTEN``)."""
        self.away = [False] * 4
        """Which seats are away: after their ``BYE``, before their reconnecting ``UN``."""
        self.unchecked = [False] * 4
        """Seats whose present absence already broke the rules (reported once, or counted not
        checkable in a rewritten log): the rest of it is not held to them again (no cascade)."""

    def leaves(self, seat: int) -> None:
        """A ``BYE`` (切断), for a seat that is present (one ``disconnect`` check)."""
        rec = self.rec
        if not rec.check(_K_DISCONNECT, not self.away[seat]):
            rec.find(F.DISCONNECT, f"S{seat} disconnects (BYE) while already away", False, True)
        self.away[seat] = True
        self.unchecked[seat] = False

    def returns(self, seat: int, name: str) -> None:
        """A reconnecting ``UN`` (再接続), for a seat that is away, naming its own player (one
        ``disconnect`` check each)."""
        rec = self.rec
        if not rec.check(_K_DISCONNECT, self.away[seat]):
            rec.find(F.DISCONNECT, f"S{seat} reconnects (UN) without having left (no BYE before)", True, False)
        own = self.names[seat]
        if name == own:
            rec.check(_K_DISCONNECT, True)
        elif self.rewritten:
            rec.not_checkable(K.DISCONNECT_NOT_CHECKABLE)  # the names may have been replaced
        else:
            rec.check(_K_DISCONNECT, False)
            rec.find(F.DISCONNECT, f"S{seat}'s reconnecting UN names {name!r}, not the seat's player {own!r}",
                     own, name)
        self.away[seat] = False
        self.unchecked[seat] = False

    def played(self, seat: int) -> None:
        """An away seat's discard that is the server's (one ``disconnect`` check)."""
        if not self.unchecked[seat]:
            self.rec.check(_K_DISCONNECT, True)

    def plays(self, seat: int, what: str, expected: object, actual: object) -> None:
        """An away seat plays as only the player could (``what`` it does): a ``DISCONNECT``
        finding, or in a rewritten log a ``disconnect_not_checkable``; once an absence."""
        rec = self.rec
        if self.unchecked[seat]:
            return
        self.unchecked[seat] = True
        if self.rewritten:
            rec.not_checkable(K.DISCONNECT_NOT_CHECKABLE)
            return
        rec.check(_K_DISCONNECT, False)
        rec.find(F.DISCONNECT, f"S{seat} is away (BYE, not back by UN) but {what}: the server plays for "
                 "an away player, discarding its drawn tile, and makes no call, riichi or win", expected, actual)


def _missing(hand: list[int], tiles: tuple[int, ...], called: int | None) -> list[int]:
    """The tiles of a meld (all but the called one) that ``hand`` does not hold."""
    left = list(hand)
    missing = []
    for tile in tiles:
        if tile != called:
            if tile in left:
                left.remove(tile)
            else:
                missing.append(tile)
    return missing
