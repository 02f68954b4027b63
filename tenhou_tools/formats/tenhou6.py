"""tenhou.net/6 JSON (the format of Tenhou's viewer and ``mjlog2json.cgi``) <-> ``Game``.

``write_tenhou6(game)`` gives the JSON object a Tenhou viewer reads; ``read_tenhou6(data)`` reads
one back into the same event stream the mjlog parser gives, as far as the JSON carries it
(``docs/formats.md`` lists exactly what it does not).

The JSON keeps, per hand and per seat, the tiles the seat *took* (draws and calls) and the tiles
it *gave* (discards, riichi, kans, kita), but not how the seats' actions interleave. The reader
re-simulates the turn order: after each discard the next action is a call on that tile by the
seat whose next take names it, or else the next seat's draw. When a seat's next take could be a
call on this discard or on a later identical one, both are tried (depth-first, backtracking on
the first contradiction: a discard of a tile the seat does not hold, a draw when the seat's next
take is a call, a hand that ends otherwise than its result says).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ParseError
from ..events import (
    Agari,
    Bye,
    Call,
    CallKind,
    Discard,
    Draw,
    DrawKind,
    Event,
    Game,
    Hand,
    Header,
    Init,
    Meld,
    NewDora,
    Owari,
    Player,
    Reconnect,
    Riichi,
    Room,
    Ruleset,
    Ryuukyoku,
)
from ..mjlog.meld import encode_meld
from ..mjlog.parse import MAX_POINTS, ruleset_from_type
from ..mjlog.read import decompress
from ..rules.hand import counts34, is_complete, waits
from ..rules.yaku import YAKU
from .common import TileIds, code_kind, code_of, code_sort_key

__all__ = ["read_tenhou6", "write_tenhou6", "looks_like_tenhou6"]

TSUMOGIRI = 60
"""The discard code of the tile just drawn."""
KITA_CODE = 44

DAN_NAMES = (
    "新人", "９級", "８級", "７級", "６級", "５級", "４級", "３級", "２級", "１級",
    "初段", "二段", "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段", "天鳳",
)
"""Tenhou's rank names as the JSON writes them (``UN dan`` 0-20)."""

YAKU_NAMES = {info.id: info.name_ja for info in YAKU.values()}
YAKU_IDS = {name: yaku_id for yaku_id, name in YAKU_NAMES.items()}
URA_DORA = 53

LIMIT_NAMES = {1: "満貫", 2: "跳満", 3: "倍満", 4: "三倍満", 5: "役満"}
LIMIT_CODES = {name: code for code, name in LIMIT_NAMES.items()}

DRAW_NAMES = {
    DrawKind.NINE_TERMINALS: "九種九牌",
    DrawKind.FOUR_RIICHI: "四家立直",
    DrawKind.TRIPLE_RON: "三家和了",
    DrawKind.FOUR_KANS: "四槓散了",
    DrawKind.FOUR_WINDS: "四風連打",
    DrawKind.NAGASHI_MANGAN: "流し満貫",
}
WIN = "和了"
EXHAUSTIVE = "流局"
ALL_TENPAI = "全員聴牌"
ALL_NOTEN = "全員不聴"
DRAW_KINDS = {name: kind for kind, name in DRAW_NAMES.items()}
DRAW_KINDS.update({EXHAUSTIVE: DrawKind.EXHAUSTIVE, ALL_TENPAI: DrawKind.EXHAUSTIVE,
                   ALL_NOTEN: DrawKind.EXHAUSTIVE})

_ROOM_CHARS = {"般": Room.IPPAN, "上": Room.JOUKYUU, "特": Room.TOKUJOU, "鳳": Room.HOUOU,
               "若": Room.IPPAN, "銀": Room.JOUKYUU, "琥": Room.TOKUJOU, "孔": Room.HOUOU}
_ROOM_BITS = {Room.IPPAN: 0x00, Room.JOUKYUU: 0x80, Room.TOKUJOU: 0x20, Room.HOUOU: 0xA0}


# =============================================================================================
# Game -> JSON
# =============================================================================================


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
    out["log"] = [_write_hand(hand, rules, red) for hand in game.hands]
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


def _write_hand(hand: Hand, rules: Ruleset, red: bool) -> list[Any]:
    init = hand.init
    code = lambda tile: code_of(tile, red=red)  # noqa: E731
    takes: list[list[Any]] = [[], [], [], []]
    gives: list[list[Any]] = [[], [], [], []]
    pons: list[dict[int, str]] = [{}, {}, {}, {}]
    riichi_pending = [False] * 4
    dora = [code(init.dora_indicator)]
    ura: list[int] = []
    endings: list[Agari | Ryuukyoku] = []
    for event in hand.events:
        if isinstance(event, Draw):
            takes[event.seat].append(code(event.tile))
        elif isinstance(event, Discard):
            value = TSUMOGIRI if event.tsumogiri else code(event.tile)
            if riichi_pending[event.seat]:
                riichi_pending[event.seat] = False
                gives[event.seat].append(f"r{value}")
            else:
                gives[event.seat].append(value)
        elif isinstance(event, Riichi):
            if event.step == 1:
                riichi_pending[event.seat] = True
        elif isinstance(event, NewDora):
            dora.append(code(event.tile))
        elif isinstance(event, Call):
            _write_call(event, code, takes, gives, pons)
        elif isinstance(event, (Agari, Ryuukyoku)):
            endings.append(event)
            if isinstance(event, Agari) and event.ura_indicators and not ura:
                ura = [code(t) for t in event.ura_indicators]
    row: list[Any] = [[init.round, init.honba, init.sticks], list(init.scores), dora, ura]
    for seat in range(4):
        row.append(sorted((code(t) for t in init.hands[seat]), key=code_sort_key))
        row.append(takes[seat])
        row.append(gives[seat])
    row.append(_write_result(endings, rules, init, code))
    return row


def _write_call(event: Call, code, takes, gives, pons) -> None:
    seat, meld = event.seat, event.meld
    kind = meld.kind
    if kind is CallKind.KITA:
        gives[seat].append(f"f{code(meld.tiles[0])}")
        return
    if kind is CallKind.CLOSED_KAN:
        codes = sorted((code(t) for t in meld.tiles), key=code_sort_key)
        gives[seat].append("".join(map(str, codes[:3])) + "a" + str(codes[3]))
        return
    if kind is CallKind.ADDED_KAN:
        base = pons[seat].get(meld.tiles[0] >> 2)
        called = code(meld.called)
        if base is None:  # a kakan on a pon this hand did not show: rebuild the pon string
            pon_tiles = [t for t in meld.tiles if t != meld.added]
            consumed = [code(t) for t in pon_tiles if t != meld.called]
            rel = (meld.from_seat - seat) % 4
            base = meld_string("p", called, consumed, _from_slot(CallKind.PON, rel))
        gives[seat].append(base.replace(f"p{called}", f"k{code(meld.added)}{called}", 1))
        return
    rel = (meld.from_seat - seat) % 4
    called = code(meld.called)
    consumed = [code(t) for t in meld.tiles if t != meld.called]
    letter = {CallKind.CHI: "c", CallKind.PON: "p", CallKind.OPEN_KAN: "m"}[kind]
    text = meld_string(letter, called, consumed, _from_slot(kind, rel))
    takes[seat].append(text)
    if kind is CallKind.PON:
        pons[seat][meld.tiles[0] >> 2] = text
    elif kind is CallKind.OPEN_KAN:
        gives[seat].append(0)


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
        if parent >= 100 and parent % 100 == 0 and _ceil100(low) <= parent <= _ceil100(high):
            if parent >= child:
                return child, parent
    return points // n, points - (points // n) * (n - 2)


def _ceil100(x: int) -> int:
    return -(-x // 100) * 100


# =============================================================================================
# JSON -> Game
# =============================================================================================

SEARCH_BUDGET = 50_000
"""Steps the turn-order search may take per hand before the log is declared unreadable (a
real hand needs about 150; ambiguous calls add a few branches each)."""

_TOKEN = re.compile(r"[a-z]?\d\d")
_POINTS = re.compile(r"^(?:(\d+)符(\d+)飜|(満貫|跳満|倍満|三倍満|役満))(\d+)(?:-(\d+))?点(∀)?")
_YAKU = re.compile(r"^(.+)\((?:(\d+)飜|(役満))\)$")


def looks_like_tenhou6(data: bytes | str) -> bool:
    """Whether (plain) data starts like a JSON object, as a tenhou.net/6 log does (mjlog is XML)."""
    head = data[:64]
    if isinstance(head, bytes):
        return head.lstrip(b" \t\r\n\xef\xbb\xbf").startswith(b"{")
    return head.lstrip(" \t\r\n\ufeff").startswith("{")


def read_tenhou6(data: bytes | str | dict, *, source: str = "<bytes>", log_id: str | None = None) -> Game:
    """Read a tenhou.net/6 JSON log (bytes, plain or gzip; text; or the decoded object).

    ``log_id`` is used when the JSON has no ``ref``. Raises ``ParseError`` (one line) when the
    data is not such a log or its hands cannot be played out in any turn order.
    """
    doc = _load(data, source)
    return _GameReader(doc, source, log_id).run()


def _load(data: bytes | str | dict, source: str) -> dict:
    if isinstance(data, dict):
        return data
    if isinstance(data, bytes):
        data = decompress(data, source=source)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ParseError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", source=source) from None
    else:
        text = data.removeprefix("\ufeff")
    if not text.strip():
        raise ParseError("empty file", source=source)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"not valid JSON: {exc.msg}", source=source,
                         where=f"line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:  # lists or objects nested thousands deep
        raise ParseError("not a tenhou.net/6 log: JSON nested too deeply", source=source) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("log"), list):
        raise ParseError("a JSON document without a 'log' list: not a tenhou.net/6 log", source=source)
    return doc


def _ruleset(disp: str, players: int, red: bool) -> Ruleset:
    """The ``GO type`` a game of this ``rule.disp`` has (``鳳南喰赤`` -> 169); bits the display
    does not show (special lobbies) are left clear, the online bit 0x01 is set."""
    code = 0x01
    if not red:
        code |= 0x02
    if "喰" not in disp and "Tanyao" not in disp and disp:
        code |= 0x04
    if "南" in disp or "South" in disp or (not disp):
        code |= 0x08
    if players == 3:
        code |= 0x10
    room = next((r for ch, r in _ROOM_CHARS.items() if ch in disp), Room.IPPAN)
    code |= _ROOM_BITS[room]
    if "速" in disp:
        code |= 0x40
    if "暗" in disp:
        code |= 0x100
    if any(ch in disp for ch in "若銀琥孔"):
        code |= 0x200 | (0x400 if "祝5" in disp else 0)
    return ruleset_from_type(code)


class _GameReader:
    def __init__(self, doc: dict, source: str, log_id: str | None):
        self.doc = doc
        self.source = source
        self.log_id = log_id
        self.warnings: list[str] = []

    def fail(self, message: str, where: str | None = None) -> ParseError:
        return ParseError(message, source=self.source, where=where)

    def run(self) -> Game:
        doc = self.doc
        log = doc["log"]
        if not log:
            raise self.fail("no hands: the 'log' list is empty")
        rule = doc.get("rule") if isinstance(doc.get("rule"), dict) else {}
        disp = str(rule.get("disp", ""))
        players = 3 if (disp.startswith("三") or "3-Player" in disp or doc.get("ratingc") == "PF3"
                        or all(isinstance(h, list) and len(h) > 13 and h[13] == [] for h in log)) else 4
        aka = [rule.get(k) for k in ("aka", "aka51", "aka52", "aka53") if k in rule]
        red = any(bool(v) for v in aka) if aka else ("赤" in disp or not disp)
        ruleset = _ruleset(disp, players, red)
        first = log[0] if isinstance(log[0], list) and len(log[0]) > 1 else None
        standard = [25000 if players == 4 else 35000] * players + [0] * (4 - players)
        ranked = doc.get("lobby") == 0
        if not ranked and first is not None and first[0] == [0, 0, 0] and first[1] != standard:
            # A table not stated to be a ranked lobby that starts from other points plays by
            # rules of its own (a private lobby's csrule, another site's) that the JSON does not
            # state: say so with the 0x800 bit, so that start points, dealer rotation, the end
            # and uma are not judged by the ranked rules. A ranked lobby (``"lobby": 0``) keeps
            # the ranked rules, and other start points are a finding.
            ruleset = ruleset_from_type(ruleset.type_code | 0x800)
            self.warnings.append("the game does not start from the ranked lobbies' points: its "
                                 "lobby's own rules are not in the JSON and are not checked")
        header = self.header(ruleset)
        ref = doc.get("ref")
        log_id = ref if isinstance(ref, str) and ref else self.log_id
        hands = []
        for index, row in enumerate(log):
            hands.append(_HandReader(self, index, row, ruleset, header).read())
        hands = self.connections(hands, header)
        owari = self.owari()
        if owari is not None:
            last = hands[-1]
            events = list(last.events)
            for i in range(len(events) - 1, -1, -1):
                if isinstance(events[i], (Agari, Ryuukyoku)):
                    events[i] = _with_owari(events[i], owari)
                    break
            hands[-1] = Hand(last.index, last.init, tuple(events))
        else:
            self.warnings.append("no final result ('sc'): the JSON holds part of a game, so the "
                                 "start of its first hand and the end of the game are not checked")
        return Game(header, tuple(hands), (), tuple(self.warnings), log_id)

    def header(self, ruleset: Ruleset) -> Header:
        doc = self.doc
        names = _list4(doc.get("name"), "")
        dans = _list4(doc.get("dan"), "")
        rates = _list4(doc.get("rate"), 0)
        sexes = _list4(doc.get("sx"), "")
        players = tuple(
            Player(s, str(names[s]), DAN_NAMES.index(dans[s]) if dans[s] in DAN_NAMES else 0,
                   float(rates[s]) if isinstance(rates[s], (int, float)) else 0.0, str(sexes[s]))
            for s in range(4)
        )
        lobby = doc.get("lobby")
        version = doc.get("ver")
        return Header(
            version=str(version) if version is not None else "",
            ruleset=ruleset,
            lobby=lobby if isinstance(lobby, int) and not isinstance(lobby, bool) else None,
            players=players,
            shuffle=None,
        )

    def owari(self) -> Owari | None:
        sc = self.doc.get("sc")
        if sc is None:
            return None
        if not isinstance(sc, list) or len(sc) != 8 or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in sc):
            raise self.fail(f"'sc' is not four score and point pairs: {str(sc)[:60]}")
        if not all(abs(sc[i]) <= MAX_POINTS for i in range(1, 8, 2)):  # also inf and nan
            raise self.fail(f"'sc' has points outside ±{MAX_POINTS}: {str(sc)[:60]}")
        return Owari(tuple(int(sc[i]) for i in range(0, 8, 2)), tuple(float(sc[i]) for i in range(1, 8, 2)))

    def connections(self, hands: list[Hand], header: Header) -> list[Hand]:
        """``connection`` entries -> ``Bye`` / ``Reconnect`` events at their place in the hand."""
        entries = self.doc.get("connection") or []
        if not isinstance(entries, list):
            raise self.fail("'connection' is not a list")
        by_hand: dict[int, list[tuple[int, Event]]] = {}
        for entry in entries:
            try:
                what, log, who, step = (int(entry[k]) for k in ("what", "log", "who", "step"))
            except (TypeError, KeyError, ValueError):
                raise self.fail(f"a 'connection' entry is not what/log/who/step: {str(entry)[:60]}") from None
            if not (0 <= log < len(hands) and 0 <= who <= 3 and what in (0, 1) and step >= 0):
                raise self.fail(f"a 'connection' entry names no hand or seat of this game: {entry}")
            event: Event = Bye(who) if what == 0 else Reconnect(who, header.players[who].name)
            by_hand.setdefault(log, []).append((step, event))
        for log, items in by_hand.items():
            hand = hands[log]
            events: list[Event] = []
            pending = sorted(items, key=lambda x: x[0])  # stable: same step keeps its order
            i = 0
            for step, event in enumerate((*hand.events, None)):
                while i < len(pending) and pending[i][0] <= step:
                    events.append(pending[i][1])
                    i += 1
                if event is not None:
                    events.append(event)
            hands[log] = Hand(hand.index, hand.init, tuple(events))
        return hands


def _list4(value: Any, default: Any) -> list:
    items = list(value) if isinstance(value, list) else []
    return (items + [default] * 4)[:4]


def _with_owari(end: Agari | Ryuukyoku, owari: Owari) -> Agari | Ryuukyoku:
    import dataclasses

    return dataclasses.replace(end, owari=owari)


# --- one hand: tokens ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Win:
    deltas: tuple[int, ...]
    who: int
    from_who: int
    pao: int | None
    points_text: str
    yaku: list[tuple[int, int]]
    yakuman: list[int]
    names: set[int]


@dataclass(slots=True)
class _Result:
    name: str
    kind: DrawKind | None
    """``None`` for a win."""
    deltas: tuple[int, ...] = (0, 0, 0, 0)
    wins: list[_Win] = field(default_factory=list)


class _HandReader:
    """Parse one hand's 17 entries, find the turn order, then build the events."""

    def __init__(self, game: _GameReader, index: int, row: Any, ruleset: Ruleset, header: Header):
        self.game = game
        self.index = index
        self.row = row
        self.rules = ruleset
        self.n = ruleset.players
        self.red = ruleset.red_fives
        self.where = f"hand {index + 1}"

    def fail(self, message: str) -> ParseError:
        return self.game.fail(message, self.where)

    # -- parsing ---------------------------------------------------------------------------

    def code(self, value: Any, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{what}: {str(value)[:20]!r} is not a tile code")
        try:
            code_kind(value)
        except ValueError:
            raise self.fail(f"{what}: {value} is not a tile code") from None
        if 51 <= value <= 53 and not self.red:
            raise self.fail(f"{what}: red five {value} in a game without red fives")
        return value

    def read(self) -> Hand:
        row = self.row
        if not isinstance(row, list) or len(row) != 17:
            raise self.fail("a hand is not a list of 17 entries")
        head = row[0]
        if not (isinstance(head, list) and len(head) == 3 and all(isinstance(v, int) for v in head)):
            raise self.fail("entry 0 is not [round, honba, riichi sticks]")
        self.round, self.honba, self.sticks = head
        if not 0 <= self.round <= 15 or self.honba < 0 or self.sticks < 0:
            raise self.fail(f"entry 0 {head} is out of range")
        self.dealer = self.round % 4
        scores = row[1]
        if not (isinstance(scores, list) and len(scores) == 4 and all(isinstance(v, int) for v in scores)):
            raise self.fail("entry 1 is not four scores")
        self.scores = tuple(scores)
        if not isinstance(row[2], list) or not row[2]:
            raise self.fail("entry 2 has no dora indicator")
        self.dora_codes = [self.code(v, "dora indicator") for v in row[2]]
        if not isinstance(row[3], list):
            raise self.fail("entry 3 (the ura indicators) is not a list")
        self.ura_codes = [self.code(v, "ura indicator") for v in row[3]]
        self.haipai: list[list[int]] = []
        self.takes: list[list[tuple]] = []
        self.gives: list[list[tuple]] = []
        for seat in range(4):
            deal, takes, gives = row[4 + 3 * seat: 7 + 3 * seat]
            if not all(isinstance(x, list) for x in (deal, takes, gives)):
                raise self.fail(f"seat {seat}: the deal, takes and discards are not lists")
            if seat >= self.n and (deal or takes or gives):
                raise self.fail(f"seat {seat} plays in a three-player game")
            if seat < self.n and len(deal) != 13:
                raise self.fail(f"seat {seat} is dealt {len(deal)} tiles, not 13")
            self.haipai.append([self.code(v, f"seat {seat}'s deal") for v in deal])
            self.takes.append([self.take_token(v, seat) for v in takes])
            self.gives.append([self.give_token(v, seat) for v in gives])
        self.result = self.parse_result(row[16])
        order = _TurnOrder(self)
        order.search()
        return _EventBuilder(self, order).build()

    def split(self, text: str, seat: int) -> tuple[list[int], int, str]:
        """A call string -> (codes in order, index of the lettered code, letter)."""
        parts = _TOKEN.findall(text)
        if "".join(parts) != text:
            raise self.fail(f"seat {seat}: {text!r} is not a call string")
        lettered = [i for i, p in enumerate(parts) if p[0].isalpha()]
        if len(lettered) != 1:
            raise self.fail(f"seat {seat}: {text!r} is not a call string")
        slot = lettered[0]
        codes = [self.code(int(p[-2:]), f"seat {seat}'s {text!r}") for p in parts]
        return codes, slot, parts[slot][0]

    def take_token(self, value: Any, seat: int) -> tuple:
        if isinstance(value, int) and not isinstance(value, bool):
            return ("d", self.code(value, f"seat {seat}'s draw"))
        if not isinstance(value, str):
            raise self.fail(f"seat {seat}: take {str(value)[:20]!r} is neither a tile nor a call")
        codes, slot, letter = self.split(value, seat)
        called = codes[slot]
        consumed = tuple(codes[:slot] + codes[slot + 1:])
        if letter == "c" and len(codes) == 3 and slot == 0:
            rel = 3
        elif letter == "p" and len(codes) == 3:
            rel = (3, 2, 1)[slot]
        elif letter == "m" and len(codes) == 4:
            rel = 3 if slot == 0 else 1 if slot == 3 else 2
        else:
            raise self.fail(f"seat {seat}: take {value!r} is not a chi, pon or open kan")
        return (letter, called, consumed, (seat + rel) % 4, value)

    def give_token(self, value: Any, seat: int) -> tuple:
        if isinstance(value, int) and not isinstance(value, bool):
            if value == 0:
                return ("0",)
            if value == TSUMOGIRI:
                return ("x", TSUMOGIRI, False)
            return ("x", self.code(value, f"seat {seat}'s discard"), False)
        if not isinstance(value, str):
            raise self.fail(f"seat {seat}: discard {str(value)[:20]!r} is neither a tile nor an action")
        if value.startswith("r") and value[1:].isdigit():
            code = int(value[1:])
            return ("x", code if code == TSUMOGIRI else self.code(code, f"seat {seat}'s riichi"), True)
        codes, slot, letter = self.split(value, seat)
        if letter == "a" and len(codes) == 4:
            kind = code_kind(codes[0])
            if any(code_kind(c) != kind for c in codes):
                raise self.fail(f"seat {seat}: closed kan {value!r} of different tiles")
            return ("a", tuple(codes), value)
        if letter == "k" and len(codes) == 4 and slot <= 2:
            return ("k", codes[slot], value)
        if letter == "f" and len(codes) == 1:
            return ("f", codes[0], value)
        raise self.fail(f"seat {seat}: discard {value!r} is not a riichi, kan or kita")

    def parse_result(self, value: Any) -> _Result:
        if not isinstance(value, list) or not value or not isinstance(value[0], str):
            raise self.fail("entry 16 (the result) is not a list starting with its name")
        name = value[0]
        if name == WIN:
            wins = []
            rest = value[1:]
            if not rest or len(rest) % 2:
                raise self.fail("a win result without score changes and details")
            for i in range(0, len(rest), 2):
                wins.append(self.parse_win(rest[i], rest[i + 1]))
            return _Result(name, None, wins[0].deltas, wins)
        kind = DRAW_KINDS.get(name)
        if kind is None:
            raise self.fail(f"unknown result {name!r}")
        deltas = (0, 0, 0, 0)
        if len(value) > 1:
            deltas = self.deltas(value[1])
        return _Result(name, kind, deltas)

    def deltas(self, value: Any) -> tuple[int, ...]:
        if not (isinstance(value, list) and len(value) in (3, 4)
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise self.fail(f"score changes {str(value)[:40]} are not four integers")
        return tuple(value) + (0,) * (4 - len(value))

    def parse_win(self, deltas: Any, detail: Any) -> _Win:
        d = self.deltas(deltas)
        if not (isinstance(detail, list) and len(detail) >= 4 and all(isinstance(v, int) for v in detail[:3])
                and isinstance(detail[3], str)):
            raise self.fail(f"win details {str(detail)[:60]} are not [who, from, pao, points, yaku...]")
        who, from_who, pao = detail[:3]
        if not all(0 <= s < self.n for s in (who, from_who, pao)):
            raise self.fail(f"win details {detail[:3]} name a seat outside the game")
        yaku: list[tuple[int, int]] = []
        yakuman: list[int] = []
        for text in detail[4:]:
            m = _YAKU.match(text) if isinstance(text, str) else None
            yaku_id = YAKU_IDS.get(m.group(1)) if m else None
            if yaku_id is None:
                raise self.fail(f"unknown yaku {str(text)[:30]!r}")
            if m.group(3):
                yakuman.append(yaku_id)
            else:
                yaku.append((yaku_id, int(m.group(2))))
        names = {y for y, _ in yaku} | set(yakuman)
        if not _POINTS.match(detail[3]):
            raise self.fail(f"points {detail[3][:30]!r} are not like 30符4飜7700点")
        return _Win(d, who, from_who, None if pao == who else pao, detail[3], yaku, yakuman, names)


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
    """The turn order with tile ids: the events of the hand, its ``Init`` and its ending."""

    def __init__(self, hand: _HandReader, order: _TurnOrder):
        self.h = hand
        self.order = order
        self.ids = TileIds(red=hand.red, source=hand.game.source, where=hand.where)
        self.events: list[Event] = []
        self.concealed: list[list[int]] = [[], [], [], []]
        self.melds: list[list[Meld]] = [[], [], [], []]
        self.last_drawn: list[int | None] = [None] * 4
        self.last_discard: tuple[int, int] | None = None
        self.last_rob: tuple[int, int] | None = None
        self.riichi = [False] * 4
        self.dora: list[int] = []
        self.dora_feed = iter(hand.dora_codes[1:])
        self.open_pending = 0
        self.scores = list(hand.scores)
        self.sticks = hand.sticks

    def new(self, code: int) -> int:
        return self.ids.new(code_kind(code), 51 <= code <= 53)

    def pick(self, seat: int, code: int, avoid: int | None = None) -> int:
        """A tile id of ``code`` from the seat's hand (not ``avoid`` when another one will do)."""
        kind, red = code_kind(code), 51 <= code <= 53
        matches = [t for t in self.concealed[seat] if t >> 2 == kind and (code_of(t, red=self.h.red) == code)]
        if not matches:
            raise self.h.fail(f"S{seat} does not hold tile {code}")
        tile = next((t for t in matches if t != avoid), matches[0]) if len(matches) > 1 else matches[0]
        self.concealed[seat].remove(tile)
        return tile

    def reveal(self, count: int) -> None:
        for _ in range(count):
            code = next(self.dora_feed, None)
            if code is None:
                self.h.game.warnings.append(f"{self.h.where}: a kan reveals a dora indicator the JSON does not list")
                return
            tile = self.new(code)
            self.dora.append(tile)
            self.events.append(NewDora(tile))

    def flush_open(self) -> None:
        if self.open_pending:
            count, self.open_pending = self.open_pending, 0
            self.reveal(count)

    def build(self) -> Hand:
        h = self.h
        deal = [tuple(self.new(c) for c in h.haipai[s]) for s in range(4)]
        for s in range(4):
            self.concealed[s] = list(deal[s])
        indicator = self.new(h.dora_codes[0])
        self.dora.append(indicator)
        init = Init(round=h.round, honba=h.honba, sticks=h.sticks, dice=(0, 0), dora_indicator=indicator,
                    scores=h.scores, dealer=h.dealer, hands=tuple(deal))
        chips = h.rules.chips > 0
        # Kan dora (Tenhou's timing, as the engine checks it): a closed kan's indicator is shown
        # at once (before the replacement draw); an open or added kan's after the replacement
        # draw, before the next discard; but if another kan or a kita comes first, it is due
        # before that one's replacement draw (an added kan can still be robbed until then).
        # Chip tables show every kan's indicator at once.
        due = 0
        for action in self.order.actions:
            what, seat = action[0], action[1]
            if what == "draw":
                if due:
                    self.reveal(due)
                    due = 0
                tile = self.new(action[2])
                self.concealed[seat].append(tile)
                self.last_drawn[seat] = tile
                self.last_discard = self.last_rob = None
                self.events.append(Draw(seat, tile, action[3]))
            elif what == "riichi":
                self.flush_open()
                self.events.append(Riichi(seat, 1))
            elif what == "discard":
                self.flush_open()
                drawn = self.last_drawn[seat]
                if action[3]:
                    tile = drawn
                    self.concealed[seat].remove(tile)
                else:
                    tile = self.pick(seat, action[2], avoid=drawn)
                self.events.append(Discard(seat, tile, tile == drawn))
                self.last_drawn[seat] = None
                self.last_discard, self.last_rob = (seat, tile), None
            elif what == "accept":
                self.scores[seat] -= 1000
                self.sticks += 1
                self.riichi[seat] = True
                self.events.append(Riichi(seat, 2, tuple(self.scores)))
            elif what == "ankan":
                tiles = tuple(sorted(self.pick(seat, c) for c in action[2]))
                self.add_call(seat, Meld(CallKind.CLOSED_KAN, tiles, None, None, None, 0))
                self.reveal(due + self.open_pending + 1)
                due = self.open_pending = 0
            elif what in ("call", "kakan", "kita"):
                if what == "call":
                    self.open_call(seat, *action[2:])
                elif what == "kakan":
                    self.added_kan(seat, action[2])
                else:
                    tile = self.pick(seat, action[2])
                    self.add_call(seat, Meld(CallKind.KITA, (tile,), None, None, None, 0))
                    self.last_rob = (seat, tile)
                is_kan = what == "kakan" or (what == "call" and action[2] == "m")
                if what == "kita" or is_kan:
                    due += self.open_pending
                    self.open_pending = 0
                if is_kan:
                    if chips:
                        due += 1
                    else:
                        self.open_pending = 1
        if next(self.dora_feed, None) is not None:
            h.game.warnings.append(f"{h.where}: the JSON lists more dora indicators than the kans revealed")
        self.ending()
        return Hand(h.index, init, tuple(self.events))

    def add_call(self, seat: int, meld: Meld) -> None:
        meld = Meld(meld.kind, meld.tiles, meld.called, meld.from_seat, meld.added, encode_meld(meld, seat))
        self.melds[seat].append(meld)
        self.events.append(Call(seat, meld))
        self.last_drawn[seat] = None
        if meld.kind is CallKind.ADDED_KAN:
            self.last_rob = (seat, meld.added)
        elif meld.kind is not CallKind.KITA:
            self.last_rob = None

    def open_call(self, seat: int, letter: str, called: int, consumed: Sequence[int], from_seat: int) -> None:
        last = self.last_discard
        if last is None or last[0] != from_seat:
            raise self.h.fail(f"S{seat} calls a tile S{from_seat} did not just discard")
        tiles = [last[1]] + [self.pick(seat, c) for c in consumed]
        kind = {"c": CallKind.CHI, "p": CallKind.PON, "m": CallKind.OPEN_KAN}[letter]
        self.add_call(seat, Meld(kind, tuple(sorted(tiles)), last[1], from_seat, None, 0))
        self.last_discard = None

    def added_kan(self, seat: int, code: int) -> None:
        melds = self.melds[seat]
        kind = code_kind(code)
        for i, pon in enumerate(melds):
            if pon.kind is CallKind.PON and pon.tiles[0] >> 2 == kind:
                break
        else:
            raise self.h.fail(f"S{seat} adds {code} to a pon it does not have")
        added = self.pick(seat, code)
        meld = Meld(CallKind.ADDED_KAN, tuple(sorted((*pon.tiles, added))), pon.called, pon.from_seat, added, 0)
        meld = Meld(meld.kind, meld.tiles, meld.called, meld.from_seat, added, encode_meld(meld, seat))
        melds[i] = meld
        self.events.append(Call(seat, meld))
        self.last_drawn[seat] = None
        self.last_rob = (seat, added)

    # -- the ending ------------------------------------------------------------------------

    def ending(self) -> None:
        h = self.h
        result = h.result
        how, seat = self.order.end
        if result.kind is None:
            self.wins(result, how, seat)
            return
        kind = result.kind
        n = h.n
        shown: list[tuple[int, ...] | None] = [None] * 4
        if kind is DrawKind.EXHAUSTIVE:
            if result.name == ALL_TENPAI:
                tenpai = [True] * n
            elif result.name == ALL_NOTEN:
                tenpai = [False] * n
            elif any(result.deltas):
                tenpai = [result.deltas[s] > 0 for s in range(n)]
            else:
                tenpai = [bool(waits(counts34(self.concealed[s]))) for s in range(n)]
            for s in range(n):
                if tenpai[s]:
                    shown[s] = tuple(sorted(self.concealed[s]))
        elif kind is DrawKind.NAGASHI_MANGAN:
            for s in range(n):
                if waits(counts34(self.concealed[s])):
                    shown[s] = tuple(sorted(self.concealed[s]))
        elif kind is DrawKind.NINE_TERMINALS:
            shown[seat] = tuple(sorted(self.concealed[seat]))
        elif kind is DrawKind.FOUR_RIICHI:
            for s in range(n):
                shown[s] = tuple(sorted(self.concealed[s]))
        elif kind is DrawKind.TRIPLE_RON:
            tile = (self.last_rob or self.last_discard or (None, None))[1]
            ronners = [s for s in range(n) if s != seat and tile is not None
                       and is_complete(counts34([*self.concealed[s], tile]))]
            if len(ronners) != 3:
                ronners = [s for s in range(n) if s != seat]
            for s in ronners:
                shown[s] = tuple(sorted(self.concealed[s]))
        self.events.append(Ryuukyoku(kind, h.honba, self.sticks, tuple(self.scores), result.deltas,
                                     tuple(shown)))

    def wins(self, result: _Result, how: str, seat: int) -> None:
        h = self.h
        for number, win in enumerate(result.wins):
            who = win.who
            if how == "draw":
                win_tile = self.last_drawn[who]
                hand = sorted(self.concealed[who])
            else:
                win_tile = (self.last_rob if how == "rob" else self.last_discard)[1]
                hand = sorted([*self.concealed[who], win_tile])
            in_riichi = self.riichi[who]
            ura = tuple(self.ura_ids()[: len(self.dora)]) if in_riichi else ()
            yaku = list(win.yaku)
            if in_riichi and URA_DORA not in win.names and not win.yakuman:
                yaku.append((URA_DORA, 0))
            fu, points, limit = self.value(win, who, how)
            first = number == 0
            agari = Agari(
                who=who, from_who=win.from_who, hand=tuple(hand), melds=tuple(self.melds[who]),
                win_tile=win_tile, fu=fu, points=points, limit=limit, yaku=tuple(yaku),
                yakuman=tuple(win.yakuman), dora_indicators=tuple(self.dora), ura_indicators=ura,
                honba=h.honba, sticks=self.sticks if first else 0, scores_before=tuple(self.scores),
                deltas=win.deltas, pao_who=win.pao,
            )
            self.events.append(agari)
            self.scores = [self.scores[s] + win.deltas[s] for s in range(4)]

    def ura_ids(self) -> list[int]:
        if not hasattr(self, "_ura"):
            self._ura = [self.new(c) for c in self.h.ura_codes]
        return self._ura

    def value(self, win: _Win, who: int, how: str) -> tuple[int | None, int, int]:
        """``(fu or None, ten[1], ten[2])`` from ``30符4飜7700点`` / ``満貫2000-4000点``."""
        m = _POINTS.match(win.points_text)
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
