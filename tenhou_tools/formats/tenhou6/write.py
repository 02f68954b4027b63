"""``Game`` -> tenhou.net/6 JSON (``write_tenhou6``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...events import (
    Agari,
    Bye,
    Call,
    CallKind,
    Discard,
    Draw,
    DrawKind,
    Event,
    Game,
    Init,
    Meld,
    NewDora,
    Reconnect,
    Ruleset,
    Ryuukyoku,
)
from ...replay.fold import walk_hand
from ...replay.state import TableState
from ..common import code_of, code_sort_key
from .names import (
    ALL_NOTEN,
    ALL_TENPAI,
    DAN_NAMES,
    DRAW_NAMES,
    EXHAUSTIVE,
    LIMIT_NAMES,
    TSUMOGIRI,
    URA_DORA,
    WIN,
    YAKU_NAMES,
)


def write_tenhou6(game: Game) -> dict[str, Any]:
    """The tenhou.net/6 JSON object of a game (keys in the order Tenhou's ``mjlog2json`` uses).

    Names, ranks, rates and the lobby come from the header; ``rule.disp`` is the lobby's
    Japanese name without the ``四`` of four-player games (``鳳南喰赤``). Disconnections become
    ``connection`` entries. What the JSON cannot hold (the wall seed, the dice, tile copies, the
    dealing order) is lost; ``docs/formats.md`` has the full list.
    """
    rules = game.header.ruleset
    red = rules.red_fives
    out: dict[str, Any] = {"ver": _version_number(game.header.version)}
    if game.log_id:
        out["ref"] = game.log_id
    out["log"] = [_write_hand(game, position, rules, red) for position in range(len(game.hands))]
    connection = _write_connections(game)
    if connection:
        out["connection"] = connection
    out["ratingc"] = f"PF{rules.players}"
    rule: dict[str, Any] = {"disp": rules.name_ja().removeprefix("四")}
    if red:
        rule.update({"aka53": 1, "aka52": 1, "aka51": 1})
    out["rule"] = rule
    if game.header.lobby is not None:
        out["lobby"] = game.header.lobby
    players = game.header.players
    out["dan"] = [DAN_NAMES[p.dan] if 0 <= p.dan < len(DAN_NAMES) else "" for p in players]
    out["rate"] = [_number(p.rate) for p in players]
    out["sx"] = [p.sex for p in players]
    owari = game.owari
    if owari is not None:
        out["sc"] = [v for s in range(4) for v in (owari.scores[s], _number(owari.points[s]))]
    out["name"] = [p.name for p in players]
    return out


def _version_number(version: str) -> float | str:
    """``2.3`` as Tenhou writes it (a number); 2.3 when the game does not say."""
    try:
        return float(version or "2.3")
    except ValueError:
        return version


def _number(value: float) -> int | float:
    """Whole numbers as ints (``-46``), others as they are (``63.8``), like Tenhou writes them."""
    return int(value) if float(value).is_integer() else value


def _write_connections(game: Game) -> list[dict[str, int]]:
    """``connection``: each disconnect (``what`` 0) and reconnect (1) in a hand, at ``step`` =
    the number of other events of the hand before it (mjlog tags, as Tenhou counts them)."""
    out = []
    for hand in game.hands:
        step = 0
        for event in hand.events:
            if isinstance(event, Bye):
                out.append({"what": 0, "log": hand.index, "who": event.seat, "step": step})
            elif isinstance(event, Reconnect):
                out.append({"what": 1, "log": hand.index, "who": event.seat, "step": step})
            else:
                step += 1
    return out


def meld_string(letter: str, called: int, consumed: Sequence[int], slot: int) -> str:
    """``c275226``-style call string: the consumed codes in order with ``letter`` + the called
    code inserted at ``slot`` (0 = from kamicha, the last slot = from shimocha)."""
    ordered = sorted(consumed, key=code_sort_key)
    parts = [str(c) for c in ordered]
    parts.insert(slot, f"{letter}{called}")
    return "".join(parts)


def _from_slot(kind: CallKind, rel: int) -> int:
    """Where the letter goes: kamicha (rel 3) first, toimen (2) second, shimocha (1) last."""
    last = 3 if kind is CallKind.OPEN_KAN else 2
    return {3: 0, 2: 1, 1: last}[rel]


class _HandWriter:
    """Reads a hand through the fold (``replay.fold.walk_hand``) and writes each seat's takes and
    gives as the JSON spells them: the state says when a discard is a riichi declaration's, and
    an added kan is written on the pon it upgrades, as the fold keeps it."""

    def __init__(self, red: bool) -> None:
        self.red = red
        self.takes: list[list[Any]] = [[], [], [], []]
        self.gives: list[list[Any]] = [[], [], [], []]
        self.dora: list[int] = []
        self.ura: list[int] = []
        self.endings: list[Agari | Ryuukyoku] = []

    def code(self, tile: int) -> int:
        return code_of(tile, red=self.red)

    def before(self, state: TableState, index: int, event: Event) -> None:
        if isinstance(event, Draw):
            self.takes[event.seat].append(self.code(event.tile))
        elif isinstance(event, Discard):
            value = TSUMOGIRI if event.tsumogiri else self.code(event.tile)
            self.gives[event.seat].append(f"r{value}" if state.riichi_discard_due == event.seat else value)
        elif isinstance(event, NewDora):
            self.dora.append(self.code(event.tile))
        elif isinstance(event, Call):
            self.call(state, event)
        elif isinstance(event, (Agari, Ryuukyoku)):
            self.endings.append(event)
            if isinstance(event, Agari) and event.ura_indicators and not self.ura:
                self.ura = [self.code(t) for t in event.ura_indicators]

    def call(self, state: TableState, event: Call) -> None:
        seat, meld = event.seat, event.meld
        kind = meld.kind
        code = self.code
        if kind is CallKind.KITA:
            self.gives[seat].append(f"f{code(meld.tiles[0])}")
            return
        if kind is CallKind.CLOSED_KAN:
            codes = sorted((code(t) for t in meld.tiles), key=code_sort_key)
            self.gives[seat].append("".join(map(str, codes[:3])) + "a" + str(codes[3]))
            return
        assert meld.from_seat is not None  # an open meld: called from a seat
        if kind is CallKind.ADDED_KAN:
            upgraded = state.pon_of(state.seats[seat], meld)
            pon = state.seats[seat].melds[upgraded] if upgraded >= 0 else None
            if pon is None:  # an added kan on no pon of this hand: its own tiles less the added one
                pon = Meld(CallKind.PON, tuple(t for t in meld.tiles if t != meld.added), meld.called,
                           meld.from_seat, None, 0)
            base = self.open_meld(seat, pon)
            assert pon.called is not None and meld.added is not None
            self.gives[seat].append(base.replace(f"p{code(pon.called)}", f"k{code(meld.added)}{code(pon.called)}", 1))
            return
        text = self.open_meld(seat, meld)
        self.takes[seat].append(text)
        if kind is CallKind.OPEN_KAN:
            self.gives[seat].append(0)

    def open_meld(self, seat: int, meld: Meld) -> str:
        """A chi, pon or open kan as the JSON writes it (``c275226``)."""
        assert meld.from_seat is not None and meld.called is not None
        rel = (meld.from_seat - seat) % 4
        consumed = [self.code(t) for t in meld.tiles if t != meld.called]
        letter = {CallKind.CHI: "c", CallKind.PON: "p", CallKind.OPEN_KAN: "m"}[meld.kind]
        return meld_string(letter, self.code(meld.called), consumed, _from_slot(meld.kind, rel))


def _write_hand(game: Game, position: int, rules: Ruleset, red: bool) -> list[Any]:
    hand = game.hands[position]
    init = hand.init
    writer = _HandWriter(red)
    writer.dora.append(writer.code(init.dora_indicator))
    walk_hand(game, position, writer)
    row: list[Any] = [[init.round, init.honba, init.sticks], list(init.scores), writer.dora, writer.ura]
    for seat in range(4):
        row.append(sorted((writer.code(t) for t in init.hands[seat]), key=code_sort_key))
        row.append(writer.takes[seat])
        row.append(writer.gives[seat])
    row.append(_write_result(writer.endings, rules, init, writer.code))
    return row


def _write_result(endings: list[Agari | Ryuukyoku], rules: Ruleset, init: Init, code) -> list[Any]:
    if not endings:
        return []
    first = endings[0]
    if isinstance(first, Ryuukyoku):
        kind = first.kind
        deltas = list(first.deltas)
        if kind is DrawKind.EXHAUSTIVE:
            if any(deltas):
                return [EXHAUSTIVE, deltas]
            shown = sum(1 for h in first.hands[: rules.players] if h is not None)
            return [ALL_TENPAI if shown == rules.players else ALL_NOTEN]
        if kind is DrawKind.NAGASHI_MANGAN:
            return [DRAW_NAMES[kind], deltas]
        return [DRAW_NAMES[kind]]
    out: list[Any] = [WIN]
    for a in endings:
        if not isinstance(a, Agari):
            continue
        out.append(list(a.deltas))
        detail: list[Any] = [a.who, a.from_who, a.who if a.pao_who is None else a.pao_who,
                             points_string(a, rules, init.dealer)]
        for yaku_id, han in a.yaku:
            if yaku_id == URA_DORA and han == 0:
                continue
            detail.append(f"{YAKU_NAMES.get(yaku_id, f'yaku {yaku_id}')}({han}飜)")
        for yaku_id in a.yakuman:
            detail.append(f"{YAKU_NAMES.get(yaku_id, f'yaku {yaku_id}')}(役満)")
        out.append(detail)
    return out


def points_string(a: Agari, rules: Ruleset, dealer: int) -> str:
    """``30符4飜7700点``, ``満貫2000-4000点``, ``40符2飜1300点∀`` (dealer tsumo: all pay)."""
    head = LIMIT_NAMES.get(a.limit) or f"{a.fu or 0}符{a.han}飜"
    n = rules.players
    if not a.is_tsumo:
        return f"{head}{a.points}点"
    if a.who == dealer:
        return f"{head}{a.points // (n - 1)}点∀"
    child, parent = _tsumo_split(a.points, n)
    return f"{head}{child}-{parent}点"


def _tsumo_split(points: int, n: int) -> tuple[int, int]:
    """A non-dealer tsumo's ``(each non-dealer pays, the dealer pays)`` from its total: the dealer
    pays twice the base and each other seat the base, each rounded up to 100.

    ``child`` pays a multiple of 100 and the dealer ``parent`` = ``points - child * (n - 2)`` lies
    in [2 child - 100, 2 child], so ``child`` lies in [points / n, (points + 100) / n]: only the
    few multiples of 100 from just below ``points / n`` are tried (trying all of them from 100
    up took forever for a log claiming 10**30 points; found by the fuzzer)."""
    start = max(100, points // n // 100 * 100 - 100)
    for child in range(start, min(points, start + 400) + 1, 100):
        parent = points - child * (n - 2)
        # the base lies in (child - 100, child]; the dealer's share is 2 x base rounded up
        low, high = 2 * (child - 100) + 1, 2 * child
        if parent >= 100 and parent % 100 == 0 and _ceil100(low) <= parent <= _ceil100(high) and parent >= child:
            return child, parent
    return points // n, points - (points // n) * (n - 2)


def _ceil100(x: int) -> int:
    return -(-x // 100) * 100
