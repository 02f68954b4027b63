"""The replay of one hand (kyoku): each event applied to the ``Table`` after its checks.

Draws and discards are nine events in ten: their handlers (``HandReplay.draw`` and
``discard``) keep to native attributes and the log's own event objects, count their checks on
counters kept at hand (``Check``), and build a message only when a check fails. Calls, riichi,
kan dora, wins and draws are rarer and ask the pure rule functions of ``tenhou_tools.rules``
(``calls``, ``riichi``, ``draws``, ``furiten``...); wins and draws are checked by
``replay._wins`` and ``replay._ryuukyoku``.
"""

from __future__ import annotations

from typing import Final, cast

from .._values import build
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
from ..rules._calls import (
    CALLS_ON_A_DISCARD,
    KAN_LIMIT,
    allowed_in_riichi,
    chi_allowed,
    discard_callable,
    kan_allowed,
    kita_allowed,
    kuikae_forbidden,
    opens_a_set,
    server_discard,
)
from ..rules._counts import counts34
from ..rules._draws import four_kans_abort, four_riichi, four_winds
from ..rules.hand import waits
from ..rules.riichi import (
    RIICHI_COST,
    can_afford_riichi,
    is_ankan_allowed_in_riichi,
    is_closed,
    is_double_riichi,
    riichi_live_minimum,
)
from ..rules.scoring import ScoringRules
from ..tiles import format_tiles
from ._flow import Outcome
from ._recorder import Recorder
from ._ryuukyoku import check_ryuukyoku
from ._table import NOBODY, Seat, Table
from ._wins import check_agari
from .checks import CheckKind as K

# Enum members used in the hot paths, bound once: as module constants they cost a C global
# read in compiled code, where ``Enum.MEMBER`` is an attribute lookup on the class each time.
_CALL_ADDED_KAN: Final = CallKind.ADDED_KAN
_CALL_CHI: Final = CallKind.CHI
_CALL_CLOSED_KAN: Final = CallKind.CLOSED_KAN
_CALL_KITA: Final = CallKind.KITA
_CALL_OPEN_KAN: Final = CallKind.OPEN_KAN
_CALL_PON: Final = CallKind.PON
_DRAW_FOUR_KANS: Final = DrawKind.FOUR_KANS
_DRAW_FOUR_RIICHI: Final = DrawKind.FOUR_RIICHI
_DRAW_FOUR_WINDS: Final = DrawKind.FOUR_WINDS
_DRAW_TRIPLE_RON: Final = DrawKind.TRIPLE_RON
_K_ABORT_REQUIRED: Final = K.ABORT_REQUIRED
_K_CALL: Final = K.CALL
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

_NO_KINDS: frozenset[int] = frozenset()

# The event classes the loop dispatches on, bound once for the same reason: an imported name is
# a dictionary lookup in compiled code each time it is read, a ``Final`` one a C global.
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


def _seat_or_none(seat: int) -> int | None:
    return None if seat == NOBODY else seat


def _remove_tile(hand: list[int], tile: int) -> bool:
    """Remove the first ``tile`` from ``hand``; whether it was there. (``list.remove`` compares
    through the generic protocol and raises when it is missing; compiled, this loop compares
    machine integers.)"""
    for i in range(len(hand)):
        if hand[i] == tile:
            del hand[i]
            return True
    return False


class HandReplay:
    """Replays one hand's events on its table, checking each against the rules."""

    def __init__(self, rec: Recorder, table: Table, scoring: ScoringRules, chips: bool) -> None:
        self.rec = rec
        self.table = table
        self.scoring = scoring
        self.chips = chips
        """A chip table (shuugi): kan dora at once, honba payments unchecked."""
        self.three = table.players == 3
        wall = table.wall
        self.live_wall: tuple[int, ...] = wall.live if wall is not None else ()
        self.rinshan_wall: tuple[int, ...] = wall.rinshan if wall is not None else ()
        # the checks of every draw and discard, kept at hand
        self.draw_order = rec.of(_K_DRAW_ORDER)
        self.turn = rec.of(_K_TURN)
        self.tiles = rec.of(_K_TILES)
        self.wall_draw = rec.of(_K_WALL_DRAW)
        self.pending = False
        """The hand has ended, or a rule is due at the next event (``pending_rules``)."""
        self.events: tuple[Event, ...] = ()
        """The hand's events (``play``), for what follows the one being checked."""
        self.outcome: Outcome | None = None

    # -- the deal --------------------------------------------------------------------------

    def deal(self) -> None:
        """The dealt hands against the seed's wall, and tile accounting of the deal."""
        rec, table = self.rec, self.table
        init, wall, n = table.init, table.wall, table.players
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
        tiles = [t for h in init.hands for t in h] + [init.dora_indicator]
        sizes = [len(h) for h in init.hands]
        expected_sizes = [13] * n + [0] * (4 - n)
        unique = len(set(tiles)) == len(tiles) and not (self.three and any(4 <= t < 32 for t in tiles))
        if not self.tiles.check(sizes == expected_sizes and unique):
            if sizes != expected_sizes:
                rec.find(F.HAND_SIZE, f"{init.label()}: the dealt hands do not have 13 tiles each",
                         expected_sizes, sizes)
            if not unique:
                seen = [False] * 136
                for t in tiles:
                    if seen[t] or (self.three and 4 <= t < 32):
                        self.duplicate(t)
                    seen[t] = True
        seen = table.seen
        for t in tiles:
            seen[t] = True

    # -- the events ------------------------------------------------------------------------

    def play(self, events: tuple[Event, ...], until: int = -1) -> Outcome:
        """Apply the events in order (the first ``until`` of them when ``until`` >= 0) and say
        how the hand ended."""
        rec = self.rec
        table = self.table
        self.events = events
        for index, event in enumerate(events):
            if index == until:
                break
            rec.event_index = index
            cls = type(event)
            if self.pending:
                if cls is _BYE or cls is _RECONNECT or cls is _UNKNOWN:
                    self.presence(event)
                    continue
                if table.ended and cls is not _AGARI:
                    rec.find(F.EVENT_AFTER_END, f"{cls.__name__} after the hand ended")
                    continue
                self.pending_rules(event)
                self.update_pending()
            if cls is _DRAW:
                self.draw(cast(Draw, event))
            elif cls is _DISCARD:
                self.discard(cast(Discard, event))
            elif cls is _BYE or cls is _RECONNECT or cls is _UNKNOWN:
                self.presence(event)
                continue
            else:
                if cls is _CALL:
                    self.call(cast(Call, event))
                elif cls is _RIICHI:
                    self.riichi(cast(Riichi, event))
                elif cls is _NEW_DORA:
                    self.new_dora(cast(NewDora, event))
                elif cls is _AGARI:
                    check_agari(rec, table, cast(Agari, event), self.scoring, self.chips)
                elif cls is _RYUUKYOKU:
                    self.outcome = check_ryuukyoku(rec, table, cast(Ryuukyoku, event), self.scoring)
                self.update_pending()
        if len(table.wins) >= 3 and until < 0:
            rec.check(_K_ABORT_REQUIRED, False)
            rec.find(F.TRIPLE_RON, "three players won on one tile: Tenhou aborts a triple ron (ron3)",
                     "ron3", len(table.wins))
        return self.outcome if self.outcome is not None else self.win_outcome()

    def update_pending(self) -> None:
        t = self.table
        self.pending = (t.ended or t.ippatsu_cancel_pending or t.step2_due != NOBODY
                        or t.abort_due is not None)

    def pending_rules(self, event: Event) -> None:
        """What must happen right after a kan or kita (ippatsu ends unless its tile is robbed), a
        riichi discard (REACH step 2 unless it is ronned) or a mandatory abortive draw."""
        t, rec = self.table, self.rec
        is_agari = type(event) is _AGARI
        if t.ippatsu_cancel_pending and not is_agari:
            for seat in t.seats:
                seat.ippatsu = False
            t.ippatsu_cancel_pending = False
        if t.step2_due != NOBODY and not (type(event) is _RIICHI or is_agari):
            # a triple ron on the declaration discard (an abortive draw) takes it as a ron does:
            # no stick (2 genuine games); ``abortive_condition`` checks that the three could win
            won_on = type(event) is _RYUUKYOKU and event.kind is _DRAW_TRIPLE_RON
            if not rec.check(_K_RIICHI_ACCEPTED, won_on):
                rec.find(F.RIICHI_STEP, f"S{t.step2_due}'s riichi discard passed but the riichi was "
                         "not accepted (no REACH step 2)")
            t.step2_due = NOBODY
        due = t.abort_due
        if due is not None:
            t.abort_due = None
            ok = (isinstance(event, Ryuukyoku) and event.kind is due) or (due is _DRAW_FOUR_KANS and is_agari)
            if not rec.check(_K_ABORT_REQUIRED, ok):
                rec.find(F.ABORT_MISSING, f"the hand had to end in an abortive draw ({due.value})",
                         due.value, type(event).__name__)

    def win_outcome(self) -> Outcome:
        t = self.table
        init = t.init
        dealer_won = any(a.who == init.dealer for a in t.wins)
        owari = t.wins[-1].owari if t.wins else None
        return build(Outcome, tuple(t.scores), 0 if t.wins else t.sticks, init.honba, init.round,
                       init.dealer, dealer_won, dealer_won, False, False, bool(t.wins), owari)

    # -- draws and discards: the hot path --------------------------------------------------

    def draw(self, ev: Draw) -> None:
        t = self.table
        seat, tile, rinshan = ev.seat, ev.tile, ev.rinshan
        if t.dora_due:
            self.dora_missing("a kan dora indicator was not revealed before the next draw", t.dora_due)
            t.dora_due = 0
        remaining = t.live_total - t.live_drawn - t.rinshan_drawn
        if not self.draw_order.check(t.next_draw == seat and (rinshan or remaining > 0)):
            if t.next_draw != seat:
                self.rec.find(F.DRAW_ORDER, f"S{seat} draws out of turn", _seat_or_none(t.next_draw), seat)
            if not rinshan and remaining <= 0:
                self.rec.find(F.DRAW_ORDER, f"S{seat} draws from an empty live wall")
        seen = t.seen
        if not self.tiles.check(not seen[tile] and not (self.three and 4 <= tile < 32)):
            self.duplicate(tile)
        seen[tile] = True
        if rinshan:
            drawn = t.rinshan_drawn
            if drawn < len(self.rinshan_wall) and not self.wall_draw.check(self.rinshan_wall[drawn] == tile):
                self.rec.find(F.WALL_DRAW, f"S{seat}'s replacement draw is not the seed's",
                              self.rinshan_wall[drawn], tile)
            t.rinshan_drawn = drawn + 1
        else:
            drawn = t.live_drawn
            if drawn < len(self.live_wall) and not self.wall_draw.check(self.live_wall[drawn] == tile):
                self.rec.find(F.WALL_DRAW, f"S{seat}'s draw is not the seed's", self.live_wall[drawn], tile)
            t.live_drawn = drawn + 1
        t.seats[seat].concealed.append(tile)
        t.passes.append(ev)
        t.last_draw = ev
        t.last_discard = None
        t.last_call = None
        t.next_draw = NOBODY
        t.must_discard = seat

    def discard(self, ev: Discard) -> None:
        t = self.table
        seat, tile = ev.seat, ev.tile
        if t.dora_due or t.open_kan_dora:
            self.dora_missing("a kan dora indicator was not revealed before the discard",
                              t.dora_due + t.open_kan_dora)
            t.dora_due = t.open_kan_dora = 0
        if not self.turn.check(t.must_discard == seat):
            self.out_of_turn(seat)
        s = t.seats[seat]
        hand = s.concealed
        held = len(hand)
        in_hand = _remove_tile(hand, tile)
        if not self.tiles.check(in_hand and held == 14 - 3 * s.open_sets - s.short):
            self.wrong_discard(seat, tile, held, in_hand)
        if t.kuikae:
            self.kuikae(seat, tile)
        if s.riichi:
            if t.riichi_discard_due == seat:
                self.riichi_discard(s, seat)
                self.pending = True  # REACH step 2 is due
            else:
                self.riichi_tsumogiri(s, seat, tile)
        if not s.pond and not t.any_call:
            self.first_discard(tile)
        s.pond.append(ev)
        passes = t.passes
        passes.append(ev)
        s.turn_start = len(passes)  # lifts same-turn furiten, after any call too
        t.last_discard = ev
        t.last_draw = None
        t.last_call = None
        t.must_discard = NOBODY
        t.next_draw = (seat + 1) % t.players
        if t.kan_total >= KAN_LIMIT and t.abort_due is None and four_kans_abort(t.kans_by_seat()):
            t.abort_due = _DRAW_FOUR_KANS
            self.pending = True

    # -- the rare branches of draws and discards -------------------------------------------

    def dora_missing(self, message: str, due: int) -> None:
        self.rec.check(_K_DORA_TIMING, False)
        self.rec.find(F.DORA_TIMING, message, due, 0)

    def duplicate(self, tile: int) -> None:
        self.rec.find(F.TILE_DUPLICATE, f"tile id {tile} ({format_tiles([tile])}) appears twice or "
                      "does not exist in this game", None, tile)

    def not_in_hand(self, seat: int, tile: int, what: str) -> None:
        self.rec.find(F.TILE_NOT_IN_HAND,
                      f"S{seat} {what} {format_tiles([tile])} (id {tile}), which is not in the hand", None, tile)

    def take(self, seat: int, tile: int) -> bool:
        """Remove a tile from the seat's hand; whether it was there."""
        return _remove_tile(self.table.seats[seat].concealed, tile)

    def out_of_turn(self, seat: int) -> None:
        """A discard by a seat that need not discard. Right after the seat's own discard (nothing
        drawn or called between) it is a second discard in a row, a fault of Tenhou's server
        (two games of 2010-02-28): one finding here, and the hand plays on a tile short (少牌)."""
        t = self.table
        last = t.last_discard
        if last is not None and last.seat == seat and t.must_discard == NOBODY:
            t.seats[seat].short += 1
            self.rec.find(F.DOUBLE_DISCARD, f"S{seat} discards twice in a row, with no draw or call between: "
                          "the hand is a tile short from here", None, seat)
        else:
            self.rec.find(F.DRAW_ORDER, f"S{seat} discards out of turn", _seat_or_none(t.must_discard), seat)

    def wrong_discard(self, seat: int, tile: int, held: int, in_hand: bool) -> None:
        s = self.table.seats[seat]
        size = 14 - 3 * s.open_sets - s.short
        if held != size:
            self.rec.find(F.HAND_SIZE, f"S{seat} holds {held} tiles before discarding, not {size}", size, held)
        if not in_hand:
            self.not_in_hand(seat, tile, "discarded")

    def kuikae(self, seat: int, tile: int) -> None:
        """Right after a chi or pon: no discard of a forbidden kind (kuikae), unless the server
        made it for a player who is away (``server_played``)."""
        forbidden = self.table.kuikae
        ok = (tile >> 2) not in forbidden or (
            tile == server_discard([*self.table.seats[seat].concealed, tile], None) and self.server_played(seat))
        if not self.rec.check(_K_CALL, ok):
            self.rec.find(F.CALL_KUIKAE, f"S{seat} discards {format_tiles([tile])} right after calling for it "
                          "(kuikae)", sorted(forbidden), tile >> 2)
        self.table.kuikae = _NO_KINDS

    def presence(self, event: Event) -> None:
        """A seat leaves (``BYE``: the server plays for it) or comes back (``Reconnect``)."""
        if type(event) is _BYE:
            self.table.seats[event.seat].away = True
        elif type(event) is _RECONNECT:
            self.table.seats[event.seat].away = False

    def server_played(self, seat: int) -> bool:
        """Whether the server made ``seat``'s discard being checked: the seat is away, or its
        ``BYE`` comes before the next discard or the hand's end (its time ran out: the server
        discarded for it, then wrote that it left)."""
        if self.table.seats[seat].away:
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

    def first_discard(self, tile: int) -> None:
        """The first go-around with no call: four identical wind discards abort (kaze4)."""
        t = self.table
        t.first_discards.append(tile)
        if t.players == 4 and four_winds(t.first_discards):
            t.abort_due = _DRAW_FOUR_WINDS
            self.pending = True

    def riichi_tsumogiri(self, s: Seat, seat: int, tile: int) -> None:
        """A discard in riichi (after the declaration discard) must be the tile just drawn."""
        drawn = self.table.last_draw
        if not self.rec.check(_K_RIICHI, drawn is not None and drawn.seat == seat and drawn.tile == tile):
            self.rec.find(F.RIICHI_TSUMOGIRI, f"S{seat} is in riichi but does not discard the drawn tile",
                          drawn.tile if drawn is not None else None, tile)
        if s.riichi == 2:
            s.ippatsu = False

    def riichi_discard(self, s: Seat, seat: int) -> None:
        """The declaration discard (between REACH step 1 and 2): the hand left must be tenpai."""
        t = self.table
        t.riichi_discard_due = NOBODY
        s.riichi_discard = len(s.pond)
        if not self.rec.check(_K_RIICHI, bool(waits(counts34(s.concealed)))):
            self.rec.find(F.RIICHI_NOT_TENPAI, f"S{seat} declared riichi with a hand that is not tenpai",
                          True, format_tiles(s.concealed))
        t.step2_due = seat
        if s.riichi == 2:
            s.ippatsu = False

    # -- calls -----------------------------------------------------------------------------

    def call(self, ev: Call) -> None:
        """A chi, pon, kan or kita: each rule of the call is one ``call`` check."""
        t, rec = self.table, self.rec
        seat, meld = ev.seat, ev.meld
        kind = meld.kind
        s = t.seats[seat]
        remaining = t.live_remaining()
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
            s.kans += 1
            t.kan_total += 1
        if opens_a_set(kind):
            s.open_sets += 1
        if kind is not _CALL_KITA:
            t.first_discards.clear()
        t.any_call = True
        if kind is _CALL_ADDED_KAN:
            self.added_kan(ev, s)
        elif kind is _CALL_KITA:
            self.kita(ev, s)
        elif kind is _CALL_CLOSED_KAN:
            self.closed_kan(ev, s)
        else:
            self.call_on_discard(ev, s)
        t.last_draw = None
        t.last_discard = None
        if kind is _CALL_CHI or kind is _CALL_PON:
            t.next_draw, t.must_discard = NOBODY, seat
        else:
            t.next_draw, t.must_discard = seat, NOBODY

    def added_kan(self, ev: Call, s: Seat) -> None:
        t, rec = self.table, self.rec
        seat, meld = ev.seat, ev.meld
        if not rec.check(_K_CALL, not s.riichi or allowed_in_riichi(meld.kind)):
            rec.find(F.RIICHI_CALL, f"S{seat} makes an added kan while in riichi")
        added = meld.added
        assert added is not None, "decode_meld sets the added tile of every added kan"
        in_hand = self.take(seat, added)
        pon = -1
        for i, old in enumerate(s.melds):
            if old.kind is _CALL_PON and (old.tiles[0] >> 2) == (meld.tiles[0] >> 2):
                pon = i
                break
        if pon >= 0:
            s.melds[pon] = meld
        else:
            s.melds.append(meld)
        if not rec.check(_K_CALL, in_hand and pon >= 0):
            if not in_hand:
                self.not_in_hand(seat, added, "added to a kan")
            if pon < 0:
                rec.find(F.CALL_TILE, f"S{seat} made an added kan without a pon of that tile")
        t.last_call = ev
        t.passes.append(ev)
        t.ippatsu_cancel_pending = True
        self.kan_dora(opened=True)

    def kita(self, ev: Call, s: Seat) -> None:
        t = self.table
        seat, tile = ev.seat, ev.meld.tiles[0]
        # An open kan's dora still hidden is revealed before the kita's replacement draw.
        t.dora_due += t.open_kan_dora
        t.open_kan_dora = 0
        if not self.rec.check(_K_CALL, self.take(seat, tile)):
            self.not_in_hand(seat, tile, "set aside as kita")
        s.melds.append(ev.meld)
        t.last_call = ev
        t.passes.append(ev)
        t.ippatsu_cancel_pending = True

    def closed_kan(self, ev: Call, s: Seat) -> None:
        t = self.table
        seat, meld = ev.seat, ev.meld
        if s.riichi:
            self.riichi_kan(seat, meld)
        missing = [tile for tile in meld.tiles if not self.take(seat, tile)]
        if not self.rec.check(_K_CALL, not missing):
            for tile in missing:
                self.not_in_hand(seat, tile, "used in a closed kan")
        s.melds.append(meld)
        t.last_call = ev
        for other in t.seats:
            other.ippatsu = False
        self.kan_dora(opened=False)

    def call_on_discard(self, ev: Call, s: Seat) -> None:
        """Chi, pon or open kan of the last discard."""
        t, rec = self.table, self.rec
        seat, meld = ev.seat, ev.meld
        discarded = t.last_discard
        right_tile = discarded is not None and discarded.tile == meld.called and discarded.seat == meld.from_seat
        missing = [tile for tile in meld.tiles if tile != meld.called and not self.take(seat, tile)]
        if not rec.check(_K_CALL, right_tile and not missing):
            if not right_tile:
                called = format_tiles([meld.called]) if meld.called is not None else "no tile"
                rec.find(F.CALL_TILE, f"S{seat} called {called} that is not the last discard",
                         [discarded.seat, discarded.tile] if discarded is not None else None,
                         [meld.from_seat, meld.called])
            for tile in missing:
                self.not_in_hand(seat, tile, "used in a call")
        if discarded is not None and right_tile:
            giver = t.seats[discarded.seat]
            giver.called_away.append(len(giver.pond) - 1)
        s.melds.append(meld)
        for other in t.seats:
            other.ippatsu = False
        if meld.kind is _CALL_OPEN_KAN:
            self.kan_dora(opened=True)
        else:
            t.kuikae = kuikae_forbidden(meld)

    def riichi_kan(self, seat: int, meld: Meld) -> None:
        """A closed kan in riichi: on the tile just drawn, and the waits must not change."""
        t = self.table
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

    def kan_dora(self, *, opened: bool) -> None:
        """Closed kan: its dora is due before the replacement draw. Open/added kan: after the
        replacement draw (before the kanner's discard), or before the next kan's draw.
        Chip tables reveal every kan's dora at once (seen on the corpus's one open/added kan
        at a chip table)."""
        t = self.table
        t.dora_due += t.open_kan_dora
        t.open_kan_dora = 0
        if opened and not self.chips:
            t.open_kan_dora = 1
        else:
            t.dora_due += 1

    def new_dora(self, ev: NewDora) -> None:
        t, rec = self.table, self.rec
        if t.dora_due:
            t.dora_due -= 1
            due = True
        elif t.open_kan_dora and t.last_draw is not None:
            t.open_kan_dora -= 1
            due = True
        else:
            due = False
        if not rec.check(_K_DORA_TIMING, due):
            rec.find(F.DORA_TIMING, "a kan dora indicator was revealed with no kan to reveal it", 0, 1)
        wall = t.wall
        k = len(t.dora)
        if wall is not None and k < len(wall.dora_indicators):
            if not rec.check(_K_WALL_DORA, wall.dora_indicators[k] == ev.tile):
                rec.find(F.WALL_DORA, "the kan dora indicator is not the seed's", wall.dora_indicators[k], ev.tile)
        t.dora.append(ev.tile)

    # -- riichi ----------------------------------------------------------------------------

    def riichi(self, ev: Riichi) -> None:
        t, rec = self.table, self.rec
        seat = ev.seat
        s = t.seats[seat]
        if ev.step == 1:
            rec.check(_K_RIICHI_DECLARED, True)
            if not rec.check(_K_RIICHI, not s.riichi):
                rec.find(F.RIICHI_TWICE, f"S{seat} declares riichi twice")
            if not rec.check(_K_RIICHI, t.must_discard == seat):
                rec.find(F.RIICHI_STEP, f"S{seat} declares riichi out of turn")
            if not rec.check(_K_RIICHI, is_closed(s.melds)):
                rec.find(F.RIICHI_OPEN_HAND, f"S{seat} declares riichi with an open hand")
            if not rec.check(_K_RIICHI, can_afford_riichi(t.scores[seat])):
                rec.find(F.RIICHI_POINTS, f"S{seat} declares riichi with fewer than 1000 points",
                         RIICHI_COST, t.scores[seat])
            minimum = riichi_live_minimum(t.players)
            if not rec.check(_K_RIICHI, t.live_remaining() >= minimum):
                rec.find(F.RIICHI_LATE, f"S{seat} declares riichi with fewer than {minimum} tiles left "
                         "in the live wall", minimum, t.live_remaining())
            s.riichi = 1
            t.riichi_discard_due = seat
            s.double_riichi = is_double_riichi(len(s.pond), t.any_call)
            return
        if not rec.check(_K_RIICHI_ACCEPTED, t.step2_due == seat):
            rec.find(F.RIICHI_STEP, f"S{seat}'s riichi is accepted without a declaration and its discard")
        t.step2_due = NOBODY
        s.riichi = 2
        s.riichi_start = len(t.passes)
        s.ippatsu = True
        t.scores[seat] -= RIICHI_COST
        t.sticks += 1
        if ev.scores is not None and not rec.check(_K_RIICHI, list(ev.scores) == t.scores):
            rec.find(F.RIICHI_SCORES, f"S{seat}'s riichi: the scores after the stick are wrong",
                     list(t.scores), list(ev.scores))
            t.scores = list(ev.scores)
        if four_riichi([other.riichi == 2 for other in t.seats], t.players):
            t.abort_due = _DRAW_FOUR_RIICHI
