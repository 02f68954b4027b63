"""The table during one hand (kyoku): what the replay knows after each event, and its snapshot.

``Table`` and its ``Seat`` objects are mutable and belong to the replay of one hand
(``replay._hand``), which changes them event by event; the rules they are judged by are pure
functions in ``tenhou_tools.rules``. Seats are absolute (seat 0 is the first dealer).

Each seat's discards are kept as the log's own ``Discard`` events (no copy per event), so a
frozen ``Board`` of the table can be taken at any moment, cheaply and only when asked for
(``Table.board()``): each seat's concealed hand, melds, discard pond with its tsumogiri, riichi
and called marks, score, riichi and furiten; the dora indicators, honba, riichi sticks and the
live wall's remaining tiles.
"""

from __future__ import annotations

from typing import Final

from .._values import build
from ..events import Agari, Call, CallKind, Discard, Draw, DrawKind, Init, Meld
from ..rules._furiten import Passing, furiten_kinds
from ..rules.furiten import Furiten
from ..rules.wall import HandWall
from .board import Board, PondTile, SeatBoard

# Enum members used in the hot paths, bound once: as module constants they cost a C global
# read in compiled code, where ``Enum.MEMBER`` is an attribute lookup on the class each time.
_CALL_CLOSED_KAN: Final = CallKind.CLOSED_KAN

NOBODY: Final = -1
"""No seat (``Table.next_draw`` while someone must discard, and so on)."""

LIVE_TILES = {4: 70, 3: 55}
"""Tiles drawn from the live wall in a hand that runs out: 136 - 52 dealt - 14 dead (four-player);
108 - 39 - 14 (three-player)."""


class Seat:
    """One player's part of the table."""

    def __init__(self, dealt: tuple[int, ...]) -> None:
        self.concealed: list[int] = list(dealt)
        """The tiles in hand (not in melds), in the order they came."""
        self.melds: list[Meld] = []
        """In call order (an added kan takes its pon's place)."""
        self.open_sets = 0
        """Melds that took three tiles out of the hand (every meld but kita and the added kan)."""
        self.short = 0
        """Tiles the hand is short of (少牌): one per second discard in a row (``DOUBLE_DISCARD``)."""
        self.kans = 0
        self.pond: list[Discard] = []
        """The discards, in order, called-away ones included (the river, kawa)."""
        self.riichi_discard = NOBODY
        """Index in ``pond`` of the riichi declaration discard."""
        self.called_away: list[int] = []
        """Indexes in ``pond`` of the discards another player called."""
        self.riichi = 0
        """0 none, 1 declared (REACH step 1), 2 accepted (the stick is paid)."""
        self.double_riichi = False
        self.ippatsu = False
        self.turn_start = 0
        """Index into ``Table.passes`` after this seat's last discard, which lifted same-turn
        furiten (the same-turn window starts here)."""
        self.away = False
        """Disconnected (``BYE``) and not back (``Reconnect``) in this hand: the server plays
        for the seat (``rules.calls.server_discard``)."""
        self.riichi_start = NOBODY
        """Index into ``Table.passes`` when this seat's riichi was accepted."""


_NOT_FURITEN: Final = Furiten()


class Table:
    """The table during one hand. Mutated in place by the replay of that hand."""

    def __init__(self, init: Init, players: int, wall: HandWall | None) -> None:
        self.init = init
        self.players = players
        self.wall = wall
        """The wall regenerated from the seed, or ``None`` when the log has no usable seed."""
        self.seats = [Seat(init.hands[s]) for s in range(4)]
        self.live_total = LIVE_TILES[players]
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
        self.seen = [False] * 136
        """Tile ids that have appeared in this hand (dealt, drawn or revealed)."""
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
        self.next_draw = init.dealer
        """The seat that must draw next (``NOBODY`` while someone must discard)."""
        self.must_discard = NOBODY
        """The seat that must discard next (after its draw, or its chi or pon)."""
        self.kuikae: frozenset[int] = frozenset()
        """Kinds the seat that just called chi or pon may not discard."""
        self.riichi_discard_due = NOBODY
        """A seat that declared riichi and has not made the declaration discard yet."""
        self.step2_due = NOBODY
        """A seat whose riichi discard is out: REACH step 2 must follow unless it is ronned."""
        self.any_call = False
        """A call of any kind (closed kans and kita included) was made in this hand."""
        self.kan_total = 0
        self.first_discards: list[int] = []
        """The first discards of the hand while no call has been made (four winds)."""
        self.abort_due: DrawKind | None = None
        """An abortive draw the rules make happen now (four winds, four riichi, four kans)."""
        self.ippatsu_cancel_pending = False
        """A kan or kita was declared: ippatsu ends unless its tile is robbed right away."""
        self.wins: list[Agari] = []
        self.ended = False

    def live_remaining(self) -> int:
        """Tiles left to draw from the live wall (each replacement draw takes one from it too)."""
        return self.live_total - self.live_drawn - self.rinshan_drawn

    def kans_by_seat(self) -> list[int]:
        return [seat.kans for seat in self.seats]

    def furiten_of(self, seat: int, concealed: list[int] | None = None, *, skip_last: bool = False) -> Furiten:
        """``seat``'s furiten now, for its concealed hand (or the one given); ``skip_last`` leaves
        out the last tile that went past (the one a ron is made on)."""
        s = self.seats[seat]
        end = len(self.passes) - (1 if skip_last and self.passes else 0)
        riichi = self.passes[s.riichi_start:end] if s.riichi == 2 else None
        kinds = furiten_kinds(seat, s.concealed if concealed is None else concealed, s.pond,
                              self.passes[s.turn_start:end], riichi)
        return _NOT_FURITEN if kinds is None else build(Furiten, *kinds)

    def on_offer(self) -> bool:
        """A tile others may win on has just gone out (a discard, an added kan's tile, a kita)."""
        call = self.last_call
        return self.last_discard is not None or (call is not None and call.meld.kind is not _CALL_CLOSED_KAN)

    def board(self) -> Board:
        """A frozen snapshot of the table now. Furiten is judged as for a ron on the tile on offer
        (that tile itself does not count)."""
        seats = []
        on_offer = self.on_offer()
        for index in range(self.players):
            s = self.seats[index]
            called = set(s.called_away)
            pond = tuple(PondTile(d.tile, d.tsumogiri, i == s.riichi_discard, i in called)
                         for i, d in enumerate(s.pond))
            waiting = len(s.concealed) % 3 == 1
            seat_furiten = self.furiten_of(index, skip_last=on_offer) if waiting else Furiten()
            seats.append(SeatBoard(index, tuple(s.concealed), tuple(s.melds), pond, self.scores[index],
                                   s.riichi == 2, seat_furiten))
        init = self.init
        return Board(init.round, init.dealer, self.honba, self.sticks, tuple(self.dora),
                     self.live_remaining(), tuple(seats))
