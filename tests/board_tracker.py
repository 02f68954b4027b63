"""A small board tracker for the HTML replay's browser tests, written apart from the page's JS.

It applies a hand's events (``tenhou_tools.events``) to its ``Init`` the way a person follows a
game: a draw adds the tile and takes one from the wall, a discard moves a tile from the hand to
the pond (tsumogiri as the log's event says; the tile after a riichi declaration lies sideways),
a call takes the tiles out of the hand and marks the called tile in its pond, an added kan turns
the pon into a kan, kita sets the North aside, a new dora indicator is added, the accepted riichi
puts a 1,000-point stick on the table, and a result sets each score to the log's ``sc`` (before
plus change). ``check_against_log`` ties the tracker to the log itself: at each hand's end the
concealed tiles it kept equal what AGARI and RYUUKYOKU show, and the scores equal the next
INIT's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tenhou_tools.events import Agari, Call, CallKind, Discard, Draw, Hand, NewDora, Riichi, Ryuukyoku

LIVE_WALL = {4: 70, 3: 55}


@dataclass
class Pond:
    tile: int
    tsumogiri: bool
    riichi: bool
    called: bool = False


@dataclass
class Seat:
    seat: int
    hand: list[int]
    score: int
    melds: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    """``(kind, tiles)`` in call order; an added kan replaces its pon."""
    pond: list[Pond] = field(default_factory=list)
    riichi_next: bool = False
    shown: list[int] | None = None
    """The tiles a result shows (the winner's hand, tenpai hands at a draw)."""


@dataclass
class Board:
    step: int
    seats: list[Seat]
    dora: list[int]
    wall: int
    honba: int
    sticks: int


def board_at(hand: Hand, players: int, step: int) -> Board:
    init = hand.init
    seats = [Seat(s, list(init.hands[s]), init.scores[s]) for s in range(players)]
    board = Board(step, seats, [init.dora_indicator], LIVE_WALL[players], init.honba, init.sticks)
    for event in hand.events[:step]:
        if isinstance(event, Draw):
            seats[event.seat].hand.append(event.tile)
            board.wall -= 1
        elif isinstance(event, Discard):
            seat = seats[event.seat]
            seat.hand.remove(event.tile)
            seat.pond.append(Pond(event.tile, event.tsumogiri, seat.riichi_next))
            seat.riichi_next = False
        elif isinstance(event, Call):
            _call(seats, seats[event.seat], event)
        elif isinstance(event, Riichi):
            if event.step == 1:
                seats[event.seat].riichi_next = True
            else:
                seats[event.seat].score -= 1000
                board.sticks += 1
        elif isinstance(event, NewDora):
            board.dora.append(event.tile)
        elif isinstance(event, Agari):
            for s in range(players):
                seats[s].score = event.scores_before[s] + event.deltas[s]
            seats[event.who].shown = list(event.hand)
            board.sticks = 0
        elif isinstance(event, Ryuukyoku):
            for s in range(players):
                seats[s].score = event.scores_before[s] + event.deltas[s]
                if event.hands[s] is not None:
                    seats[s].shown = list(event.hands[s])
    return board


def _call(seats: list[Seat], seat: Seat, event: Call) -> None:
    meld = event.meld
    if meld.kind in (CallKind.CHI, CallKind.PON, CallKind.OPEN_KAN):
        for tile in meld.tiles:
            if tile != meld.called:
                seat.hand.remove(tile)
        pond = seats[meld.from_seat].pond
        last = next(p for p in reversed(pond) if p.tile == meld.called and not p.called)
        last.called = True
        seat.melds.append((meld.kind.value, meld.tiles))
    elif meld.kind is CallKind.ADDED_KAN:
        seat.hand.remove(meld.added)
        kind = meld.tiles[0] >> 2
        i = next(i for i, (k, tiles) in enumerate(seat.melds) if k == "pon" and tiles[0] >> 2 == kind)
        seat.melds[i] = (meld.kind.value, meld.tiles)
    else:  # closed kan, kita
        for tile in meld.tiles:
            seat.hand.remove(tile)
        seat.melds.append((meld.kind.value, meld.tiles))


def check_against_log(hand: Hand, players: int, scores_after: list[int]) -> None:
    """The tracker agrees with the log at the hand's end (see the module's docstring)."""
    events = hand.events
    for i, event in enumerate(events):
        if isinstance(event, Agari):
            board = board_at(hand, players, i)  # just before the result
            concealed = list(board.seats[event.who].hand)
            if not event.is_tsumo:
                concealed.append(event.win_tile)
            assert sorted(concealed) == sorted(event.hand), (hand.init.label(), i)
        elif isinstance(event, Ryuukyoku):
            board = board_at(hand, players, i)
            for s in range(players):
                shown = event.hands[s]
                if shown is not None:
                    assert sorted(board.seats[s].hand) == sorted(shown), (hand.init.label(), i, s)
    end = board_at(hand, players, len(events))
    assert [s.score for s in end.seats] == scores_after[:players], hand.init.label()
