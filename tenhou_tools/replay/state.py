"""The table state of one hand (kyoku) and the one fold that moves it: ``TableState.apply``.

Everything that reads the table reads this state: the checks of the replay (``replay.engine``),
the board after each step (``replay.fold``), the discard analysis, the statistics and the mjai
writer. ``TableState.apply(event)`` performs every transition of the table once: draws (live and
replacement), discards, every call and kan, kita, both riichi steps with the stick, kan dora
indicators, wins with their payments, exhaustive and abortive draws with theirs, and the sticks.
It judges nothing: where a log is wrong the state follows the log (a win's score changes are the
ones the log states, ``sc``), and the checks, which observe the state before each event, report
the disagreement (``replay._hand_checks``).

The state is mutable and belongs to one walk over one hand; ``TableState.board()`` takes a
frozen ``Board`` of it at any moment. Seats are absolute (seat 0 is the first dealer).
"""

from __future__ import annotations

from typing import Final, cast

# build: a frozen value made by setting its slots (the _native kernel), not through the dataclass's
# __init__: the board's values (the analysis asks for a board at every discard): 115 M of an
# analysed game's 1.8 G instructions (6 %; callgrind, analyze_game over 4 corpus games, 2026-11-29);
# a hand's Furiten, 0.03 M of check_log's 6.6 M a game (scripts/bench_callgrind.py).
from .._native import build
from ..events import (
    Agari,
    Bye,
    Call,
    CallKind,
    Discard,
    Draw,
    DrawKind,
    Event,
    Init,
    Meld,
    NewDora,
    Reconnect,
    Riichi,
    Ryuukyoku,
)
from ..rules.calls import KAN_LIMIT, kuikae_forbidden, opens_a_set
from ..rules.draws import four_kans_abort, four_riichi, four_winds
from ..rules.furiten import Furiten, Passing, furiten_kinds
from ..rules.riichi import RIICHI_COST, is_double_riichi
from .board import Board, PondTile, SeatBoard

# Event classes and call kinds read on every event, bound once: a C global in compiled code, where
# an imported name is a dictionary lookup and ``CallKind.X`` goes through the enum's ``__getattr__``
# hook each time. Measured: without this block and _hand_checks.py's, check_log takes 2.4 M more
# of a game's 6.6 M instructions (36 %; this module's share about 1.2 M: the fold's dispatch and
# its calls; scripts/bench_callgrind.py, 100 corpus games, 2026-11-29).
_ADDED_KAN: Final = CallKind.ADDED_KAN
_CHI: Final = CallKind.CHI
_CLOSED_KAN: Final = CallKind.CLOSED_KAN
_KITA: Final = CallKind.KITA
_OPEN_KAN: Final = CallKind.OPEN_KAN
_PON: Final = CallKind.PON
_AGARI: Final = Agari
_BYE: Final = Bye
_CALL: Final = Call
_DISCARD: Final = Discard
_DRAW: Final = Draw
_NEW_DORA: Final = NewDora
_RECONNECT: Final = Reconnect
_RIICHI: Final = Riichi
_RYUUKYOKU: Final = Ryuukyoku

NOBODY: Final = -1
"""No seat (``TableState.next_draw`` while someone must discard, and so on)."""

LIVE_TILES: Final = {4: 70, 3: 55}
"""Tiles drawn from the live wall in a hand that runs out: 136 - 52 dealt - 14 dead (four-player);
108 - 39 - 14 (three-player)."""

_NO_KINDS: Final[frozenset[int]] = frozenset()
_NOT_FURITEN: Final = Furiten()


def remove_tile(hand: list[int], tile: int) -> bool:
    """Remove ``tile`` from ``hand``; whether it was there. The search runs from the end, where
    the tile just drawn is (and a tile id is in a hand once: a second copy, in a broken log, is
    removed last first). Compiled, this loop compares machine integers; ``list.remove`` compares
    through the generic protocol and raises when the tile is missing."""
    i = len(hand) - 1
    while i >= 0:
        if hand[i] == tile:
            hand.pop(i)  # compiled, a direct call (``del hand[i]`` goes through the generic protocol)
            return True
        i -= 1
    return False


def holds(hand: list[int], tile: int) -> bool:
    """Whether ``tile`` is in ``hand`` (a compiled loop over machine integers, from the end, as
    ``remove_tile``)."""
    i = len(hand) - 1
    while i >= 0:
        if hand[i] == tile:
            return True
        i -= 1
    return False


class SeatState:
    """One player's part of the table."""

    def __init__(self, dealt: tuple[int, ...]) -> None:
        self.concealed: list[int] = list(dealt)
        """The tiles in hand (not in melds), in the order they came (a drawn tile last)."""
        self.melds: list[Meld] = []
        """In call order (an added kan takes its pon's place)."""
        self.open_sets = 0
        """Melds that took three tiles out of the hand (every meld but kita and the added kan)."""
        self.short = 0
        """Tiles the hand is short of (少牌): one per second discard in a row, a fault of Tenhou's
        server (``DOUBLE_DISCARD``)."""
        self.kans = 0
        self.pond: list[Discard] = []
        """The discards in order, called-away ones included (the river, kawa)."""
        self.pond_steps: list[int] = []
        """The step of each discard in ``pond`` (1 + its index in the hand's events)."""
        self.riichi_discard = NOBODY
        """Index in ``pond`` of the riichi declaration discard (sengenhai)."""
        self.called_away: list[int] = []
        """Indexes in ``pond`` of the discards another player called."""
        self.riichi = 0
        """0 none, 1 declared (REACH step 1), 2 accepted (the stick is paid)."""
        self.double_riichi = False
        self.ippatsu = False
        self.connected = True
        """False from a ``BYE`` (disconnected: the server plays for the seat,
        ``rules.calls.server_discard``) to its return (``Reconnect``)."""
        self.turn_start = 0
        """Index into ``TableState.passes`` after this seat's last discard, which lifted
        same-turn furiten (the same-turn window starts here)."""
        self.riichi_start = NOBODY
        """Index into ``TableState.passes`` when this seat's riichi was accepted."""


class TableState:
    """The table during one hand, from the deal (``Init``) on. ``apply`` moves it by one event."""

    def __init__(self, init: Init, players: int, chips: bool = False) -> None:
        self.init = init
        self.players = players
        self.chips = chips
        """A chip table (shuugi): every kan's dora indicator is due at once."""
        self.seats = [SeatState(init.hands[s]) for s in range(4)]
        self.step = 0
        """Events applied so far (0: just dealt)."""
        self.live_total: int = LIVE_TILES[players]
        self.live_drawn = 0
        self.rinshan_drawn = 0
        self.dora: list[int] = [init.dora_indicator]
        """The dora indicators revealed so far."""
        self.dora_due = 0
        """Kan dora indicators that must be revealed before the next draw or discard."""
        self.open_kan_dora = 0
        """An open or added kan's indicator, due after its replacement draw (before the discard
        or the next replacement draw)."""
        self.scores = list(init.scores)
        self.honba = init.honba
        self.sticks = init.sticks
        """Riichi sticks (kyoutaku) on the table: the hand's first win takes them."""
        self.passes: list[Passing] = []
        """Every draw, discard, added kan and kita, in order: the tiles that went past each
        player (furiten is judged on these)."""
        self.last_draw: Draw | None = None
        """The draw the drawer has not yet answered with a discard or a call."""
        self.last_discard: Discard | None = None
        """The discard nobody has yet drawn after or called."""
        self.last_call: Call | None = None
        """An added kan, kita or closed kan made since the last draw (the first two can be
        robbed: chankan, a ron on a kita; Tenhou allows no ron on a closed kan)."""
        self.passed = False
        """The tile last offered went past without a ron (REACH step 2 accepted the riichi that
        discarded it): it may still be called, but no longer won on."""
        self.next_draw = init.dealer
        """The seat that must draw next (``NOBODY`` while someone must discard)."""
        self.must_discard = NOBODY
        """The seat that must discard next (after its draw, or its chi or pon)."""
        self.kuikae: frozenset[int] = _NO_KINDS
        """Kinds the seat that just called chi or pon may not discard (kuikae)."""
        self.riichi_discard_due = NOBODY
        """A seat that declared riichi and has not made the declaration discard yet."""
        self.step2_due = NOBODY
        """A seat whose riichi discard is out: REACH step 2 follows unless it is won on."""
        self.any_call = False
        """A call of any kind (closed kans and kita included) was made in this hand."""
        self.kan_total = 0
        self.first_discards: list[int] = []
        """The first discards of the hand while no call has been made (four winds)."""
        self.abort_due: DrawKind | None = None
        """An abortive draw the rules make happen now (four winds, four riichi, four kans)."""
        self.ippatsu_cancel_pending = False
        """A kan or kita was declared: ippatsu ends unless its tile is robbed right away."""
        self.pending = False
        """Something is settled at the next event (``ended``, ``ippatsu_cancel_pending``,
        ``step2_due`` or ``abort_due`` is set)."""
        self.wins: list[Agari] = []
        self.draw: Ryuukyoku | None = None
        """The hand's draw (ryuukyoku), when it ended in one."""
        self.ended = False

    # -- reading the state -----------------------------------------------------------------

    def live_remaining(self) -> int:
        """Tiles left to draw from the live wall (each replacement draw takes one from it too)."""
        return self.live_total - self.live_drawn - self.rinshan_drawn

    def kans_by_seat(self) -> list[int]:
        return [seat.kans for seat in self.seats]

    def indicators_due(self, event: Event) -> int:
        """The kan dora indicators Tenhou shows just before ``event`` (``kan_dora``'s timing), for
        a reader that must place them (tenhou.net/6 JSON lists them without their moment): before
        a draw those due (a closed kan's, or an open kan's that a later kan or kita brought
        forward); before the discard or riichi after an open or added kan's replacement draw, its
        own."""
        if isinstance(event, Draw):
            return self.dora_due
        if isinstance(event, Discard) or (isinstance(event, Riichi) and event.step == 1):
            return self.open_kan_dora if self.last_draw is not None else 0
        return 0

    def offered_tile(self) -> tuple[int, int] | None:
        """``(seat, tile)`` of the tile a ron would take now: an added kan's or a kita's (robbed),
        else the last discard's; ``None`` when there is neither (for a reader that must name the
        winning tile: the mjai and tenhou.net/6 readers)."""
        call = self.last_call
        if call is not None and (call.meld.kind is _ADDED_KAN or call.meld.kind is _KITA):
            added = call.meld.added
            return call.seat, added if call.meld.kind is _ADDED_KAN and added is not None else call.meld.tiles[0]
        last = self.last_discard
        return (last.seat, last.tile) if last is not None else None

    def on_offer(self) -> bool:
        """A tile others may still win on has just gone out (a discard, an added kan's tile, a
        kita) and has not gone past yet."""
        if self.passed:
            return False
        call = self.last_call
        return self.last_discard is not None or (call is not None and call.meld.kind is not _CLOSED_KAN)

    def furiten_of(self, seat: int, concealed: list[int] | None = None, *, skip_last: bool = False) -> Furiten:
        """``seat``'s furiten now, for its concealed hand (or the one given); ``skip_last`` leaves
        out the last tile that went past (the one a ron is made on)."""
        s = self.seats[seat]
        end = len(self.passes) - (1 if skip_last and self.passes else 0)
        riichi = self.passes[s.riichi_start:end] if s.riichi == 2 else None
        kinds = furiten_kinds(seat, s.concealed if concealed is None else concealed, s.pond,
                              self.passes[s.turn_start:end], riichi)
        return _NOT_FURITEN if kinds is None else build(Furiten, discard=kinds[0], same_turn=kinds[1],
                                                               riichi=kinds[2])

    def second_discard(self, seat: int) -> bool:
        """Whether a discard by ``seat`` now would be its second in a row, with nothing drawn or
        called between (two genuine games of 2010-02-28: a fault of Tenhou's server)."""
        last = self.last_discard
        return self.must_discard == NOBODY and last is not None and last.seat == seat

    def called_discard(self, meld: Meld) -> bool:
        """Whether ``meld`` calls the last discard: its tile, from its discarder."""
        discarded = self.last_discard
        return discarded is not None and discarded.tile == meld.called and discarded.seat == meld.from_seat

    def board(self) -> Board:
        """A frozen snapshot of the table now. Furiten is judged as for a ron on the tile on
        offer (that tile itself does not count) while one is on offer."""
        seats = []
        on_offer = self.on_offer()
        for index in range(self.players):
            s = self.seats[index]
            called = set(s.called_away)
            pond = tuple(build(PondTile, tile=d.tile, tsumogiri=d.tsumogiri, riichi=i == s.riichi_discard,
                               called=i in called, step=s.pond_steps[i])
                         for i, d in enumerate(s.pond))
            waiting = len(s.concealed) % 3 == 1
            seat_furiten = self.furiten_of(index, skip_last=on_offer) if waiting else _NOT_FURITEN
            seats.append(build(SeatBoard, seat=index, concealed=tuple(s.concealed), melds=tuple(s.melds),
                               pond=pond, score=self.scores[index], riichi=s.riichi == 2,
                               declared=s.riichi > 0, connected=s.connected, furiten=seat_furiten))
        init = self.init
        return build(Board, round=init.round, dealer=init.dealer, step=self.step, honba=self.honba,
                     sticks=self.sticks, dora_indicators=tuple(self.dora), live_remaining=self.live_remaining(),
                     seats=tuple(seats))

    # -- the fold ----------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Move the table by one event of the hand (the one fold: every transition is here)."""
        cls = type(event)
        if cls is _DRAW:
            draw = cast(Draw, event)
            self.move(event, cls, draw.seat, draw.tile, draw.rinshan)
        elif cls is _DISCARD:
            discard = cast(Discard, event)
            self.move(event, cls, discard.seat, discard.tile, False)
        else:
            self.move(event, cls, NOBODY, 0, False)

    def move(self, event: Event, cls: type, seat: int, tile: int, rinshan: bool) -> None:
        """``apply``, given the event's class and, for a draw or a discard, its seat and tile (and
        a draw's ``rinshan``), which the caller has read once: generic attribute access on a
        plain event costs compiled code about 160 instructions, and nine events in ten are draws
        and discards (``replay._hand_checks.check_hand`` reads them once for the checks and the
        fold). Measured: ``check_hand`` calling ``apply(event)`` instead, which reads them again,
        costs 0.43 M more of a game's 6.6 M instructions (6 %; scripts/bench_callgrind.py, 100
        corpus games, 2026-11-29)."""
        self.step += 1
        if cls is _BYE:
            self.seats[cast(Bye, event).seat].connected = False
            return
        if cls is _RECONNECT:
            self.seats[cast(Reconnect, event).seat].connected = True
            return
        if cls is not _DRAW and cls is not _DISCARD and cls is not _CALL and cls is not _RIICHI \
                and cls is not _NEW_DORA and cls is not _AGARI and cls is not _RYUUKYOKU:
            return  # Unknown: a tag the parser keeps but nothing acts on
        if self.pending:
            if self.ended and cls is not _AGARI:
                return  # nothing but another winner's AGARI follows a hand's end
            self.settle(cls is _AGARI, cls is _RIICHI)
        if cls is _DRAW:
            self.apply_draw(cast(Draw, event), seat, tile, rinshan)
        elif cls is _DISCARD:
            self.apply_discard(cast(Discard, event), seat, tile)
        else:
            if cls is _CALL:
                self.apply_call(cast(Call, event))
            elif cls is _RIICHI:
                self.apply_riichi(cast(Riichi, event))
            elif cls is _NEW_DORA:
                self.apply_new_dora(cast(NewDora, event))
            elif cls is _AGARI:
                self.apply_win(cast(Agari, event))
            else:
                self.apply_ryuukyoku(cast(Ryuukyoku, event))
            self.update_pending()

    def update_pending(self) -> None:
        self.pending = (self.ended or self.ippatsu_cancel_pending or self.step2_due != NOBODY
                        or self.abort_due is not None)

    def settle(self, is_win: bool, is_riichi: bool) -> None:
        """What happens at the event after a kan or kita (ippatsu ends unless its tile is
        robbed), a riichi discard (a riichi not accepted by the next event never will be) or an
        abortive draw that was due (it happens now or never)."""
        if self.ippatsu_cancel_pending and not is_win:
            for seat in self.seats:
                seat.ippatsu = False
            self.ippatsu_cancel_pending = False
        if self.step2_due != NOBODY and not (is_riichi or is_win):
            self.step2_due = NOBODY
        self.abort_due = None
        self.update_pending()

    def apply_draw(self, ev: Draw, seat: int, tile: int, rinshan: bool) -> None:
        self.dora_due = 0  # an indicator still due is not revealed any more
        if rinshan:
            self.rinshan_drawn += 1
        else:
            self.live_drawn += 1
        self.seats[seat].concealed.append(tile)
        self.passes.append(ev)
        self.last_draw = ev
        self.last_discard = None
        self.last_call = None
        self.next_draw = NOBODY
        self.must_discard = seat

    def apply_discard(self, ev: Discard, seat: int, tile: int) -> None:
        self.dora_due = self.open_kan_dora = 0
        s = self.seats[seat]
        if self.second_discard(seat):
            s.short += 1
        remove_tile(s.concealed, tile)
        self.kuikae = _NO_KINDS
        if s.riichi:
            if self.riichi_discard_due == seat:  # the declaration discard
                self.riichi_discard_due = NOBODY
                s.riichi_discard = len(s.pond)
                self.step2_due = seat
                self.pending = True
            if s.riichi == 2:
                s.ippatsu = False
        if not s.pond and not self.any_call:
            self.first_discards.append(tile)
            if self.players == 4 and four_winds(self.first_discards):
                self.abort_due = DrawKind.FOUR_WINDS
                self.pending = True
        s.pond.append(ev)
        s.pond_steps.append(self.step)
        passes = self.passes
        passes.append(ev)
        s.turn_start = len(passes)  # lifts same-turn furiten, after any call too
        self.last_discard = ev
        self.last_draw = None
        self.last_call = None
        self.passed = False
        self.must_discard = NOBODY
        self.next_draw = (seat + 1) % self.players
        if self.kan_total >= KAN_LIMIT and self.abort_due is None and four_kans_abort(self.kans_by_seat()):
            self.abort_due = DrawKind.FOUR_KANS
            self.pending = True

    def apply_call(self, ev: Call) -> None:
        """A chi, pon, kan or kita."""
        seat, meld = ev.seat, ev.meld
        kind = meld.kind
        s = self.seats[seat]
        if kind is _ADDED_KAN or kind is _OPEN_KAN or kind is _CLOSED_KAN:
            s.kans += 1
            self.kan_total += 1
        if opens_a_set(kind):
            s.open_sets += 1
        if kind is not _KITA:
            self.first_discards.clear()
        self.any_call = True
        if kind is _ADDED_KAN:
            self.added_kan(ev, s)
        elif kind is _KITA:
            self.kita(ev, s)
        elif kind is _CLOSED_KAN:
            self.closed_kan(ev, s)
        else:
            self.call_on_discard(ev, s)
        self.last_draw = None
        self.last_discard = None
        if kind is _CHI or kind is _PON:
            self.next_draw, self.must_discard = NOBODY, seat
        else:
            self.next_draw, self.must_discard = seat, NOBODY

    def added_kan(self, ev: Call, s: SeatState) -> None:
        meld = ev.meld
        if meld.added is not None:
            remove_tile(s.concealed, meld.added)
        pon = self.pon_of(s, meld)
        if pon >= 0:
            s.melds[pon] = meld
        else:
            s.melds.append(meld)
        self.last_call = ev
        self.passes.append(ev)
        self.passed = False
        self.ippatsu_cancel_pending = True
        self.kan_dora(opened=True)

    @staticmethod
    def pon_of(s: SeatState, meld: Meld) -> int:
        """Index in ``s.melds`` of the pon an added kan ``meld`` upgrades, or -1."""
        for i, old in enumerate(s.melds):
            if old.kind is _PON and (old.tiles[0] >> 2) == (meld.tiles[0] >> 2):
                return i
        return -1

    def kita(self, ev: Call, s: SeatState) -> None:
        # An open kan's dora still hidden is revealed before the kita's replacement draw.
        self.dora_due += self.open_kan_dora
        self.open_kan_dora = 0
        remove_tile(s.concealed, ev.meld.tiles[0])
        s.melds.append(ev.meld)
        self.last_call = ev
        self.passes.append(ev)
        self.passed = False
        self.ippatsu_cancel_pending = True

    def closed_kan(self, ev: Call, s: SeatState) -> None:
        meld = ev.meld
        for tile in meld.tiles:
            remove_tile(s.concealed, tile)
        s.melds.append(meld)
        self.last_call = ev
        for other in self.seats:
            other.ippatsu = False
        self.kan_dora(opened=False)

    def call_on_discard(self, ev: Call, s: SeatState) -> None:
        """Chi, pon or open kan of the last discard."""
        meld = ev.meld
        if self.called_discard(meld):
            discarded = self.last_discard
            assert discarded is not None
            giver = self.seats[discarded.seat]
            giver.called_away.append(len(giver.pond) - 1)
        for tile in meld.tiles:
            if tile != meld.called:
                remove_tile(s.concealed, tile)
        s.melds.append(meld)
        for other in self.seats:
            other.ippatsu = False
        if meld.kind is _OPEN_KAN:
            self.kan_dora(opened=True)
        else:
            self.kuikae = kuikae_forbidden(meld)

    def kan_dora(self, *, opened: bool) -> None:
        """Closed kan: its dora is due before the replacement draw. Open or added kan: after the
        replacement draw (before the kanner's discard), or before the next kan's draw. Chip
        tables reveal every kan's dora at once (the corpus's one open or added kan at a chip
        table)."""
        self.dora_due += self.open_kan_dora
        self.open_kan_dora = 0
        if opened and not self.chips:
            self.open_kan_dora = 1
        else:
            self.dora_due += 1

    def apply_new_dora(self, ev: NewDora) -> None:
        if self.dora_due:
            self.dora_due -= 1
        elif self.open_kan_dora and self.last_draw is not None:
            self.open_kan_dora -= 1
        self.dora.append(ev.tile)

    def apply_riichi(self, ev: Riichi) -> None:
        seat = ev.seat
        s = self.seats[seat]
        if ev.step == 1:
            s.riichi = 1
            self.riichi_discard_due = seat
            s.double_riichi = is_double_riichi(len(s.pond), self.any_call)
            return
        # step 2: the declaration discard went past without a ron; the stick is paid
        self.step2_due = NOBODY
        self.passed = True
        s.riichi = 2
        s.riichi_start = len(self.passes)
        s.ippatsu = True
        self.sticks += 1
        if ev.scores is not None:
            self.scores = list(ev.scores)
        else:
            self.scores[seat] -= RIICHI_COST
        if four_riichi([other.riichi == 2 for other in self.seats], self.players):
            self.abort_due = DrawKind.FOUR_RIICHI

    def apply_win(self, a: Agari) -> None:
        """A win (one AGARI; a double ron is two): the score changes the log states, and the
        sticks go to the first winner."""
        before = a.scores_before
        deltas = a.deltas
        self.scores = [before[s] + deltas[s] for s in range(4)]
        self.sticks = 0
        self.wins.append(a)
        self.ended = True

    def apply_ryuukyoku(self, r: Ryuukyoku) -> None:
        """A draw (exhaustive or abortive): the payments the log states; the sticks stay."""
        before = r.scores_before
        deltas = r.deltas
        self.scores = [before[s] + deltas[s] for s in range(4)]
        self.draw = r
        self.ended = True
