"""tenhou.net/6 JSON -> ``Game``: the turn order of one hand, found by a search, and its events."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...events import (
    Agari,
    Call,
    CallKind,
    Discard,
    Draw,
    DrawKind,
    Event,
    Hand,
    Init,
    Meld,
    NewDora,
    Riichi,
    Ryuukyoku,
)
from ...mjlog import encode_meld
from ...replay.state import TableState
from ...rules.hand import counts34, is_complete, waits
from ...rules.riichi import RIICHI_COST
from ..common import TileIds, code_kind, code_of
from .names import (
    _POINTS,
    ALL_NOTEN,
    ALL_TENPAI,
    LIMIT_CODES,
    SEARCH_BUDGET,
    TSUMOGIRI,
    URA_DORA,
)

if TYPE_CHECKING:
    from .hand import _HandReader, _Result, _Win


# --- one hand: the turn order -------------------------------------------------------------------

_DRAW, _ACT, _AFTER = 0, 1, 2
_ABORTS_AFTER_PASS = (DrawKind.FOUR_RIICHI, DrawKind.FOUR_KANS, DrawKind.FOUR_WINDS)


class _TurnOrder:
    """Depth-first search for the interleaving of the seats' takes and gives.

    Actions (plain tuples, tiles as codes): ``("draw", seat, code, rinshan)``, ``("riichi",
    seat)``, ``("discard", seat, code, tsumogiri)``, ``("accept", seat)`` (the riichi stick is
    paid), ``("call", seat, letter, called, consumed, from_seat)`` for chi/pon/open kan,
    ``("ankan", seat, codes)``, ``("kakan", seat, code)``, ``("kita", seat, code)``; the search
    ends with ``self.end`` = ``(how, seat)``: ``"draw"`` (a tsumo or nine terminals after
    ``seat``'s draw), ``"discard"`` or ``"rob"`` (after ``seat``'s discard, or its added kan or
    kita).
    """

    def __init__(self, hand: _HandReader):
        self.h = hand
        self.n = hand.n
        self.takes = hand.takes
        self.gives = hand.gives
        self.n_takes = [len(t) for t in hand.takes]
        self.n_gives = [len(g) for g in hand.gives]
        self.ti = [0, 0, 0, 0]
        self.di = [0, 0, 0, 0]
        self.hands = [Counter(hand.haipai[s]) for s in range(4)]
        self.last_draw: list[int | None] = [None] * 4
        self.pons: list[set[int]] = [set(), set(), set(), set()]
        self.riichi = [False] * 4
        self.pending: int | None = None
        self.actions: list[tuple] = []
        self.end: tuple[str, int] | None = None
        self.budget = SEARCH_BUDGET
        self.furthest = (-1, "")

    def search(self) -> list[tuple]:
        if self.go(_DRAW, self.h.dealer, False):
            return self.actions
        depth, why = self.furthest
        raise self.h.fail(f"the takes and discards fit no turn order (stuck after {depth} actions: {why})")

    # -- state ---------------------------------------------------------------------------

    def snapshot(self) -> tuple:
        return (self.ti[:], self.di[:], [c.copy() for c in self.hands], self.last_draw[:],
                [p.copy() for p in self.pons], self.riichi[:], self.pending, len(self.actions))

    def restore(self, snap: tuple) -> None:
        ti, di, hands, last, pons, riichi, pending, size = snap
        self.ti, self.di, self.hands, self.last_draw = ti[:], di[:], [c.copy() for c in hands], last[:]
        self.pons, self.riichi, self.pending = [p.copy() for p in pons], riichi[:], pending
        del self.actions[size:]

    def dead(self, why: str) -> bool:
        if len(self.actions) > self.furthest[0]:
            self.furthest = (len(self.actions), why)
        return False

    def done(self) -> bool:
        return self.ti == self.n_takes and self.di == self.n_gives

    def take(self, seat: int) -> tuple | None:
        i = self.ti[seat]
        return self.takes[seat][i] if i < self.n_takes[seat] else None

    def give(self, seat: int) -> tuple | None:
        i = self.di[seat]
        return self.gives[seat][i] if i < self.n_gives[seat] else None

    def remove(self, seat: int, codes: Sequence[int]) -> bool:
        hand = self.hands[seat]
        need = Counter(codes)
        if any(hand[c] < k for c, k in need.items()):
            return False
        hand.subtract(need)
        return True

    def accept(self) -> None:
        if self.pending is not None:
            self.actions.append(("accept", self.pending))
            self.pending = None

    # -- the walk ------------------------------------------------------------------------

    def go(self, phase: int, seat: int, info: Any) -> bool:
        while True:
            self.budget -= 1
            if self.budget < 0:
                raise self.h.fail("the turn order of the calls is too ambiguous to resolve")
            if phase == _DRAW:
                tok = self.take(seat)
                if tok is None or tok[0] != "d":
                    return self.dead(f"S{seat} has no draw to make")
                self.accept()
                code = tok[1]
                self.ti[seat] += 1
                self.hands[seat][code] += 1
                self.last_draw[seat] = code
                self.actions.append(("draw", seat, code, info))
                phase, info = _ACT, True
                continue
            if phase == _ACT:
                drew = info
                tok = self.give(seat)
                if tok is None:
                    if drew and self.done():
                        return self.finish("draw", seat)
                    return self.dead(f"S{seat} has nothing to discard")
                kind = tok[0]
                if kind == "x":
                    code, riichi = tok[1], tok[2]
                    tsumogiri = code == TSUMOGIRI
                    if tsumogiri:
                        code = self.last_draw[seat]
                        if not drew or code is None:
                            return self.dead(f"S{seat} discards the drawn tile without a draw")
                    if self.hands[seat][code] <= 0:
                        return self.dead(f"S{seat} discards {code}, which it does not hold")
                    self.di[seat] += 1
                    self.hands[seat][code] -= 1
                    if riichi:
                        self.actions.append(("riichi", seat))
                        self.riichi[seat] = True
                    self.actions.append(("discard", seat, code, tsumogiri))
                    self.last_draw[seat] = None
                    self.pending = seat if riichi else None
                    phase, info = _AFTER, (seat, code)
                    continue
                if not drew:
                    return self.dead(f"S{seat} declares a kan or kita right after a call")
                if kind == "a":
                    if not self.remove(seat, tok[1]):
                        return self.dead(f"S{seat} makes a closed kan {tok[2]} it does not hold")
                    self.di[seat] += 1
                    self.actions.append(("ankan", seat, tok[1]))
                elif kind == "k":
                    code = tok[1]
                    if code_kind(code) not in self.pons[seat] or not self.remove(seat, (code,)):
                        return self.dead(f"S{seat} adds {code} to a pon it does not have")
                    self.di[seat] += 1
                    self.pons[seat].discard(code_kind(code))
                    self.actions.append(("kakan", seat, code))
                    if self.done():
                        return self.finish("rob", seat)
                elif kind == "f":
                    if not self.remove(seat, (tok[1],)):
                        return self.dead(f"S{seat} sets aside a North it does not hold")
                    self.di[seat] += 1
                    self.actions.append(("kita", seat, tok[1]))
                    if self.done():
                        return self.finish("rob", seat)
                else:
                    return self.dead(f"S{seat}'s kan placeholder (0) follows no open kan")
                self.last_draw[seat] = None
                phase, info = _DRAW, True
                continue
            # _AFTER: a discard is on the table
            d, code = info
            if self.done():
                return self.finish("discard", d)
            calls = []
            for k in range(1, self.n):
                y = (d + k) % self.n
                tok = self.take(y)
                if tok is not None and tok[0] != "d" and tok[3] == d and tok[1] == code and not self.riichi[y]:
                    calls.append((0 if tok[0] != "c" else 1, k, y, tok))
            nxt = (d + 1) % self.n
            if not calls:
                phase, seat, info = _DRAW, nxt, False
                continue
            calls.sort()
            for _, _, y, tok in calls:
                snap = self.snapshot()
                if self.call(y, tok) and self.go(*self.after_call(y, tok)):
                    return True
                self.restore(snap)
            return self.go(_DRAW, nxt, False)

    def call(self, seat: int, tok: tuple) -> bool:
        letter, called, consumed, from_seat, text = tok
        if not self.remove(seat, consumed):
            return self.dead(f"S{seat} calls {text} without the tiles")
        if letter == "m":
            nxt = self.give(seat)
            if nxt is None or nxt[0] != "0":
                return self.dead(f"S{seat}'s open kan {text} has no placeholder (0) discard")
        self.accept()
        self.ti[seat] += 1
        self.actions.append(("call", seat, letter, called, consumed, from_seat))
        self.last_draw[seat] = None
        if letter == "p":
            self.pons[seat].add(code_kind(called))
        if letter == "m":
            self.di[seat] += 1
        return True

    def after_call(self, seat: int, tok: tuple) -> tuple[int, int, Any]:
        return (_DRAW, seat, True) if tok[0] == "m" else (_ACT, seat, False)

    def finish(self, how: str, seat: int) -> bool:
        """The tokens are used up: the result must be one that can end the hand here."""
        result = self.h.result
        if result.kind is None:
            wins = result.wins
            if how == "draw":
                ok = len(wins) == 1 and wins[0].who == seat == wins[0].from_who
            else:
                ok = all(w.from_who == seat != w.who for w in wins)
        elif how == "draw":
            ok = result.kind is DrawKind.NINE_TERMINALS
        elif how == "discard":
            ok = result.kind is not DrawKind.NINE_TERMINALS
        else:
            ok = result.kind is DrawKind.TRIPLE_RON
        if not ok:
            return self.dead(f"the hand ends after S{seat}'s {how} but the result is {result.name}")
        if result.kind in _ABORTS_AFTER_PASS or result.kind in (DrawKind.EXHAUSTIVE, DrawKind.NAGASHI_MANGAN):
            self.accept()
        self.end = (how, seat)
        return True



# --- one hand: events ---------------------------------------------------------------------------


class _EventBuilder:
    """The turn order with tile ids: the events of the hand, its ``Init`` and its ending, built on
    the one fold (``TableState``): each event is applied as it is made, and the state says what
    the hand holds, which tile is on offer, the scores and sticks, and when Tenhou shows a kan's
    dora indicator (``TableState.indicators_due``)."""

    def __init__(self, hand: _HandReader, order: _TurnOrder):
        self.h = hand
        self.order = order
        self.ids = TileIds(red=hand.red, source=hand.game.source, where=hand.where)
        self.events: list[Event] = []
        self.dora_feed = iter(hand.dora_codes[1:])
        self.state: TableState | None = None

    @property
    def table(self) -> TableState:
        assert self.state is not None  # set by build() before any event
        return self.state

    def new(self, code: int) -> int:
        return self.ids.new(code_kind(code), 51 <= code <= 53)

    def pick(self, seat: int, code: int, avoid: int | None = None, taken: Sequence[int] = ()) -> int:
        """A tile id of ``code`` in the seat's hand (not ``avoid`` when another one will do; none of
        ``taken``, the ids already picked for the same event)."""
        kind = code_kind(code)
        matches = [t for t in self.table.seats[seat].concealed
                   if t >> 2 == kind and code_of(t, red=self.h.red) == code and t not in taken]
        if not matches:
            raise self.h.fail(f"S{seat} does not hold tile {code}")
        return next((t for t in matches if t != avoid), matches[0]) if len(matches) > 1 else matches[0]

    def emit(self, event: Event) -> None:
        """``event`` after the kan dora indicators Tenhou shows before it (the fold says how many)."""
        self.reveal(self.table.indicators_due(event))
        self.apply(event)

    def reveal(self, count: int) -> None:
        """The JSON's next ``count`` kan dora indicators, each a ``NewDora`` applied."""
        for _ in range(count):
            code = next(self.dora_feed, None)
            if code is None:
                self.h.game.warnings.append(f"{self.h.where}: a kan reveals a dora indicator the JSON does not list")
                return
            self.apply(NewDora(self.new(code)))

    def apply(self, event: Event) -> None:
        self.events.append(event)
        self.table.apply(event)

    def build(self) -> Hand:
        h = self.h
        deal = tuple(tuple(self.new(c) for c in h.haipai[s]) for s in range(4))
        indicator = self.new(h.dora_codes[0])
        init = Init(round=h.round, honba=h.honba, sticks=h.sticks, dice=(0, 0), dora_indicator=indicator,
                    scores=h.scores, dealer=h.dealer, hands=deal)
        self.state = TableState(init, h.n, h.rules.chips > 0)
        for action in self.order.actions:
            what, seat = action[0], action[1]
            if what == "draw":
                self.emit(Draw(seat, self.new(action[2]), action[3]))
            elif what == "riichi":
                self.emit(Riichi(seat, 1))
            elif what == "discard":
                last = self.table.last_draw
                drawn = last.tile if last is not None and last.seat == seat else None
                tile = drawn if action[3] and drawn is not None else self.pick(seat, action[2], avoid=drawn)
                self.emit(Discard(seat, tile, tile == drawn))
            elif what == "accept":
                scores = list(self.table.scores)
                scores[seat] -= RIICHI_COST
                self.emit(Riichi(seat, 2, tuple(scores)))
            elif what == "ankan":
                picked: list[int] = []
                for c in action[2]:
                    picked.append(self.pick(seat, c, taken=picked))
                self.add_call(seat, Meld(CallKind.CLOSED_KAN, tuple(sorted(picked)), None, None, None, 0))
                self.reveal(self.table.dora_due)  # a closed kan's indicator is shown at once
            elif what == "call":
                self.open_call(seat, *action[2:])
            elif what == "kakan":
                self.added_kan(seat, action[2])
            else:  # kita
                self.add_call(seat, Meld(CallKind.KITA, (self.pick(seat, action[2]),), None, None, None, 0))
        if next(self.dora_feed, None) is not None:
            h.game.warnings.append(f"{h.where}: the JSON lists more dora indicators than the kans revealed")
        self.ending()
        return Hand(h.index, init, tuple(self.events))

    def add_call(self, seat: int, meld: Meld) -> None:
        self.emit(Call(seat, Meld(meld.kind, meld.tiles, meld.called, meld.from_seat, meld.added,
                                  encode_meld(meld, seat))))

    def open_call(self, seat: int, letter: str, called: int, consumed: Sequence[int], from_seat: int) -> None:
        last = self.table.last_discard
        if last is None or last.seat != from_seat:
            raise self.h.fail(f"S{seat} calls a tile S{from_seat} did not just discard")
        picked: list[int] = []
        for c in consumed:
            picked.append(self.pick(seat, c, taken=picked))
        kind = {"c": CallKind.CHI, "p": CallKind.PON, "m": CallKind.OPEN_KAN}[letter]
        self.add_call(seat, Meld(kind, tuple(sorted([last.tile, *picked])), last.tile, from_seat, None, 0))

    def added_kan(self, seat: int, code: int) -> None:
        melds = self.table.seats[seat].melds
        pon = next((m for m in melds if m.kind is CallKind.PON and m.tiles[0] >> 2 == code_kind(code)), None)
        if pon is None:
            raise self.h.fail(f"S{seat} adds {code} to a pon it does not have")
        added = self.pick(seat, code)
        self.add_call(seat, Meld(CallKind.ADDED_KAN, tuple(sorted((*pon.tiles, added))), pon.called, pon.from_seat,
                                 added, 0))

    # -- the ending ------------------------------------------------------------------------

    def ending(self) -> None:
        h = self.h
        t = self.table
        result = h.result
        assert self.order.end is not None  # the search ended the hand
        how, seat = self.order.end
        if result.kind is None:
            self.wins(result, how, seat)
            return
        kind = result.kind
        n = h.n
        concealed = [t.seats[s].concealed for s in range(4)]
        shown: list[tuple[int, ...] | None] = [None] * 4
        if kind is DrawKind.EXHAUSTIVE:
            if result.name == ALL_TENPAI:
                tenpai = [True] * n
            elif result.name == ALL_NOTEN:
                tenpai = [False] * n
            elif any(result.deltas):
                tenpai = [result.deltas[s] > 0 for s in range(n)]
            else:
                tenpai = [bool(waits(counts34(concealed[s]))) for s in range(n)]
            for s in range(n):
                if tenpai[s]:
                    shown[s] = tuple(sorted(concealed[s]))
        elif kind is DrawKind.NAGASHI_MANGAN:
            for s in range(n):
                if waits(counts34(concealed[s])):
                    shown[s] = tuple(sorted(concealed[s]))
        elif kind is DrawKind.NINE_TERMINALS:
            shown[seat] = tuple(sorted(concealed[seat]))
        elif kind is DrawKind.FOUR_RIICHI:
            for s in range(n):
                shown[s] = tuple(sorted(concealed[s]))
        elif kind is DrawKind.TRIPLE_RON:
            offered = t.offered_tile()
            tile = offered[1] if offered is not None else None
            ronners = [s for s in range(n) if s != seat and tile is not None
                       and is_complete(counts34([*concealed[s], tile]))]
            if len(ronners) != 3:
                ronners = [s for s in range(n) if s != seat]
            for s in ronners:
                shown[s] = tuple(sorted(concealed[s]))
        self.apply(Ryuukyoku(kind, h.honba, t.sticks, tuple(t.scores), result.deltas, tuple(shown)))

    def wins(self, result: _Result, how: str, seat: int) -> None:
        h = self.h
        t = self.table
        for win in result.wins:
            who = win.who
            concealed = t.seats[who].concealed
            if how == "draw":
                drawn = t.last_draw
                assert drawn is not None and drawn.seat == who  # the search ended the hand on this seat's draw
                win_tile = drawn.tile
                hand = sorted(concealed)
            else:
                offered = t.offered_tile()
                assert offered is not None  # ... or on this tile
                win_tile = offered[1]
                hand = sorted([*concealed, win_tile])
            in_riichi = t.seats[who].riichi == 2
            ura = tuple(self.ura_ids()[: len(t.dora)]) if in_riichi else ()
            yaku = list(win.yaku)
            if in_riichi and URA_DORA not in win.names and not win.yakuman:
                yaku.append((URA_DORA, 0))
            fu, points, limit = self.value(win, who, how)
            agari = Agari(
                who=who, from_who=win.from_who, hand=tuple(hand), melds=tuple(t.seats[who].melds),
                win_tile=win_tile, fu=fu, points=points, limit=limit, yaku=tuple(yaku),
                yakuman=tuple(win.yakuman), dora_indicators=tuple(t.dora), ura_indicators=ura,
                honba=h.honba, sticks=t.sticks, scores_before=tuple(t.scores),
                deltas=win.deltas, pao_who=win.pao,
            )
            self.apply(agari)  # the fold moves the scores and gives the sticks to the first winner

    def ura_ids(self) -> list[int]:
        if not hasattr(self, "_ura"):
            self._ura = [self.new(c) for c in self.h.ura_codes]
        return self._ura

    def value(self, win: _Win, who: int, how: str) -> tuple[int | None, int, int]:
        """``(fu or None, ten[1], ten[2])`` from ``30符4飜7700点`` / ``満貫2000-4000点``."""
        m = _POINTS.match(win.points_text)
        assert m is not None  # checked when the hand's result was read (hand.parse_win)
        fu = int(m.group(1)) if m.group(1) else None
        limit = LIMIT_CODES[m.group(3)] if m.group(3) else 0
        first, second, all_pay = int(m.group(4)), m.group(5), m.group(6)
        n = self.h.n
        if how != "draw":
            points = first
        elif all_pay or second is None:
            points = first * (n - 1)
        else:
            points = first * (n - 2) + int(second)
        return fu, points, limit
