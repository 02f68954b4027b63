"""tenhou.net/6 JSON -> ``Game`` (``read_tenhou6``): the game, hand by hand."""

from __future__ import annotations

import json
import math
from typing import Any

from ...errors import ParseError
from ...events import (
    Agari,
    Bye,
    Event,
    Game,
    Hand,
    Header,
    Owari,
    Player,
    Reconnect,
    Room,
    Ruleset,
    Ryuukyoku,
)
from ...mjlog import MAX_POINTS, ruleset_from_type
from ...mjlog.read import MAX_BYTES, decompress
from .hand import _HandReader
from .names import _ROOM_BITS, _ROOM_CHARS, DAN_NAMES
from .turns import _EventBuilder, _TurnOrder


def looks_like_tenhou6(data: bytes | str) -> bool:
    """Whether (plain) data starts like a JSON object, as a tenhou.net/6 log does (mjlog is XML)."""
    head = data[:64]
    if isinstance(head, bytes):
        return head.lstrip(b" \t\r\n\xef\xbb\xbf").startswith(b"{")
    return head.lstrip(" \t\r\n\ufeff").startswith("{")


def read_tenhou6(data: bytes | str | dict, *, source: str = "<bytes>", log_id: str | None = None,
                 max_bytes: int = MAX_BYTES) -> Game:
    """Read a tenhou.net/6 JSON log (bytes, plain or gzip; text; or the decoded object).

    ``log_id`` is used when the JSON has no ``ref``; ``max_bytes`` caps bytes before and after
    gunzip. Raises ``ParseError`` (one line) when the data is not such a log or its hands cannot
    be played out in any turn order. A JSON without the final result (``sc``) holds part of a
    game: the game is not ``complete``.
    """
    doc = _load(data, source, max_bytes)
    return _GameReader(doc, source, log_id).run()


def _load(data: bytes | str | dict, source: str, max_bytes: int = MAX_BYTES) -> dict:
    if isinstance(data, dict):
        return data
    if isinstance(data, bytes):
        data = decompress(data, source=source, max_bytes=max_bytes)
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
        rule = doc["rule"] if isinstance(doc.get("rule"), dict) else {}
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
            hands.append(_read_hand(_HandReader(self, index, row, ruleset, header).parse()))
        hands = self.connections(hands, header)
        owari = self.owari()
        if owari is not None:
            last = hands[-1]
            events = list(last.events)
            for i in range(len(events) - 1, -1, -1):
                end = events[i]
                if isinstance(end, (Agari, Ryuukyoku)):
                    events[i] = _with_owari(end, owari)
                    break
            hands[-1] = Hand(last.index, last.init, tuple(events))
        else:
            self.warnings.append("no final result ('sc'): the JSON holds part of a game, so the "
                                 "start of its first hand and the end of the game are not checked")
        return Game(header, tuple(hands), (), tuple(self.warnings), log_id, complete=owari is not None,
                    log_format="tenhou6")

    def header(self, ruleset: Ruleset) -> Header:
        doc = self.doc
        names = _list4(doc.get("name"), "")
        dans = _list4(doc.get("dan"), "")
        rates = _list4(doc.get("rate"), 0)
        sexes = _list4(doc.get("sx"), "")
        players = tuple(
            Player(s, str(names[s]), DAN_NAMES.index(dans[s]) if dans[s] in DAN_NAMES else 0,
                   float(rates[s]) if isinstance(rates[s], (int, float)) and math.isfinite(rates[s]) else 0.0,
                   str(sexes[s]))
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
            here: Event | None
            for step, here in enumerate((*hand.events, None)):
                while i < len(pending) and pending[i][0] <= step:
                    events.append(pending[i][1])
                    i += 1
                if here is not None:
                    events.append(here)
            hands[log] = Hand(hand.index, hand.init, tuple(events))
        return hands


def _read_hand(hand: _HandReader) -> Hand:
    """One parsed hand's events: its turn order found, then played out."""
    order = _TurnOrder(hand)
    order.search()
    return _EventBuilder(hand, order).build()


def _list4(value: Any, default: Any) -> list:
    items = list(value) if isinstance(value, list) else []
    return (items + [default] * 4)[:4]


def _with_owari(end: Agari | Ryuukyoku, owari: Owari) -> Agari | Ryuukyoku:
    import dataclasses

    return dataclasses.replace(end, owari=owari)
