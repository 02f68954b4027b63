"""mjai JSON lines (the Mortal / mjai-reviewer dialect) <-> ``Game``.

``write_mjai(game)`` gives the events, one dict per line, in the order mjai tools expect (the
mjlog order: ``ankan`` -> ``dora`` -> ``tsumo``; ``daiminkan``/``kakan`` -> ``tsumo`` -> ``dora``
-> ``dahai``; ``reach`` -> ``dahai`` -> ``reach_accepted``); ``read_mjai(lines)`` reads them back
into a ``Game``; ``validate_mjai_event(event)`` checks one event against the protocol (the
fields Mortal's ``libriichi`` reads, plus the optional fields of the original gimite protocol
that this writer adds). ``docs/formats.md`` says what mjai cannot carry.

Three-player games: mjai has no standard form for them (Mortal and mjai-reviewer refuse them).
This writer follows the three-player forks of Mortal (``libriichi3p`` as Akagi and
MahjongCopilot use it) and RiichiEnv's converters: four seats with the empty seat 3 scored 0 and
dealt thirteen ``"?"``, and a kita as ``{"type": "nukidora", "actor": s, "pai": "N"}`` followed
by the replacement ``tsumo``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, cast

from ..errors import ParseError
from ..events import (
    Agari,
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
    Player,
    Riichi,
    Ruleset,
    Ryuukyoku,
)
from ..mjlog import encode_meld, ruleset_from_type
from ..replay.fold import walk_hand
from ..replay.state import TableState
from .common import TileIds, is_mjai_tile, mjai_kind, mjai_name

__all__ = ["looks_like_mjai", "read_mjai", "validate_mjai_event", "write_mjai"]

WINDS = ("E", "S", "W", "N")
UNKNOWN = "?"
REASONS = {
    DrawKind.EXHAUSTIVE: "fanpai",
    DrawKind.NINE_TERMINALS: "kyushukyuhai",
    DrawKind.FOUR_WINDS: "sufonrenta",
    DrawKind.FOUR_RIICHI: "suchareach",
    DrawKind.TRIPLE_RON: "sanchaho",
    DrawKind.FOUR_KANS: "sukaikan",
    DrawKind.NAGASHI_MANGAN: "nagashimangan",
}
"""``ryukyoku.reason`` as the original mjai protocol (gimite/mjai) names the draws."""
KINDS = {reason: kind for kind, reason in REASONS.items()}
EXTENSION = "tenhou"
"""``start_game.tenhou``: what a Tenhou game needs beyond mjai (``log_id``, the ``GO type``
code, the lobby); mjai readers ignore unknown fields."""


# =============================================================================================
# Game -> events
# =============================================================================================


def write_mjai(game: Game) -> list[dict[str, Any]]:
    """The game as mjai events (dicts ready for ``json.dumps``, one per line)."""
    rules = game.header.ruleset
    red = rules.red_fives
    name = lambda tile: mjai_name(tile, red=red)  # noqa: E731
    out: list[dict[str, Any]] = [{
        "type": "start_game",
        "names": [p.name for p in game.header.players],
        "kyoku_first": 0 if rules.east_south else 4,
        "aka_flag": red,
        EXTENSION: {"log_id": game.log_id, "type": rules.type_code, "lobby": game.header.lobby},
    }]
    for position, hand in enumerate(game.hands):
        writer = _HandWriter(hand, rules, name)
        walk_hand(game, position, writer)
        out.extend(writer.out)
        out.append({"type": "end_kyoku"})
    end: dict[str, Any] = {"type": "end_game"}
    owari = game.owari
    if owari is not None:
        end["scores"] = list(owari.scores)
    out.append(end)
    return out


class _HandWriter:
    """One hand's mjai events, written from each event and the table state before it (the one
    fold, ``replay.fold.walk_hand``: a noten seat's hidden hand at a draw is its size there)."""

    def __init__(self, hand: Hand, rules: Ruleset, name: Callable[[int], str]) -> None:
        self.name = name
        init = hand.init
        tehais = [[name(t) for t in init.hands[s]] if s < rules.players else [UNKNOWN] * 13 for s in range(4)]
        self.out: list[dict[str, Any]] = [{
            "type": "start_kyoku",
            "bakaze": WINDS[init.wind % 4],
            "dora_marker": name(init.dora_indicator),
            "kyoku": init.hand_number,
            "honba": init.honba,
            "kyotaku": init.sticks,
            "oya": init.dealer,
            "scores": list(init.scores),
            "tehais": tehais,
        }]

    def before(self, state: TableState, index: int, event: Event) -> None:
        name, out = self.name, self.out
        if isinstance(event, Draw):
            out.append({"type": "tsumo", "actor": event.seat, "pai": name(event.tile)})
        elif isinstance(event, Discard):
            out.append({"type": "dahai", "actor": event.seat, "pai": name(event.tile),
                        "tsumogiri": event.tsumogiri})
        elif isinstance(event, Call):
            out.append(_write_call(event, name))
        elif isinstance(event, Riichi):
            if event.step == 1:
                out.append({"type": "reach", "actor": event.seat})
            else:
                accepted: dict[str, Any] = {"type": "reach_accepted", "actor": event.seat}
                if event.scores is not None:
                    accepted["deltas"] = [-1000 if s == event.seat else 0 for s in range(4)]
                    accepted["scores"] = list(event.scores)
                out.append(accepted)
        elif isinstance(event, NewDora):
            out.append({"type": "dora", "dora_marker": name(event.tile)})
        elif isinstance(event, Agari):
            out.append({"type": "hora", "actor": event.who, "target": event.from_who,
                        "pai": name(event.win_tile), "deltas": list(event.deltas),
                        "ura_markers": [name(t) for t in event.ura_indicators]})
        elif isinstance(event, Ryuukyoku):
            shown = [h is not None for h in event.hands]
            out.append({
                "type": "ryukyoku",
                "reason": REASONS[event.kind],
                "deltas": list(event.deltas),
                "tenpais": shown,
                "tehais": [[name(t) for t in h] if h is not None else [UNKNOWN] * len(state.seats[s].concealed)
                           for s, h in enumerate(event.hands)],
            })
        # Bye, Reconnect and Unknown have no mjai event: a disconnected seat's auto-play is
        # just its tsumo/dahai events.


def _write_call(event: Call, name: Callable[[int], str]) -> dict[str, Any]:
    seat, meld = event.seat, event.meld
    kind = meld.kind
    if kind is CallKind.KITA:
        return {"type": "nukidora", "actor": seat, "pai": name(meld.tiles[0])}
    if kind is CallKind.CLOSED_KAN:
        return {"type": "ankan", "actor": seat, "consumed": [name(t) for t in meld.tiles]}
    if kind is CallKind.ADDED_KAN:
        assert meld.added is not None
        return {"type": "kakan", "actor": seat, "pai": name(meld.added),
                "consumed": [name(t) for t in meld.tiles if t != meld.added]}
    letter = {CallKind.CHI: "chi", CallKind.PON: "pon", CallKind.OPEN_KAN: "daiminkan"}[kind]
    assert meld.called is not None
    return {"type": letter, "actor": seat, "target": meld.from_seat, "pai": name(meld.called),
            "consumed": [name(t) for t in meld.tiles if t != meld.called]}


# =============================================================================================
# the protocol
# =============================================================================================

_ACTOR = "actor"
_SCHEMA: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    # each message type -> (required fields, optional fields); field kinds: ``_check_field``
    "none": ({}, {}),
    "start_game": ({}, {"names": "names", "seed": "seed", "kyoku_first": "kyoku_first",
                        "aka_flag": "bool", "id": "seat", EXTENSION: "object"}),
    "start_kyoku": ({"bakaze": "wind", "dora_marker": "tile", "kyoku": "kyoku", "honba": "count",
                     "kyotaku": "count", "oya": "seat", "scores": "scores", "tehais": "tehais"}, {}),
    "tsumo": ({_ACTOR: "seat", "pai": "tile?"}, {}),
    "dahai": ({_ACTOR: "seat", "pai": "tile", "tsumogiri": "bool"}, {}),
    "chi": ({_ACTOR: "seat", "target": "seat", "pai": "tile", "consumed": "tiles2"}, {}),
    "pon": ({_ACTOR: "seat", "target": "seat", "pai": "tile", "consumed": "tiles2"}, {}),
    "daiminkan": ({_ACTOR: "seat", "target": "seat", "pai": "tile", "consumed": "tiles3"}, {}),
    "kakan": ({_ACTOR: "seat", "pai": "tile", "consumed": "tiles3"}, {}),
    "ankan": ({_ACTOR: "seat", "consumed": "tiles4"}, {}),
    "nukidora": ({_ACTOR: "seat", "pai": "tile"}, {}),
    "dora": ({"dora_marker": "tile"}, {}),
    "reach": ({_ACTOR: "seat"}, {}),
    "reach_accepted": ({_ACTOR: "seat"}, {"deltas": "scores", "scores": "scores"}),
    "hora": ({_ACTOR: "seat", "target": "seat"},
             {"deltas": "scores", "ura_markers": "tiles", "pai": "tile", "scores": "scores"}),
    "ryukyoku": ({}, {"deltas": "scores", "reason": "reason", "tenpais": "bools4",
                      "tehais": "hands", "scores": "scores"}),
    "end_kyoku": ({}, {}),
    "end_game": ({}, {"scores": "scores"}),
}
"""Required and optional fields per event type: Mortal's ``libriichi`` events, the original
protocol's optional fields (``reason``, ``tenpais``, ``tehais``, ``scores``, ``pai`` of a
``hora``, ``deltas``/``scores`` of ``reach_accepted``), convlog's ``kyoku_first``/``aka_flag``,
this package's ``start_game.tenhou``, and the three-player ``nukidora``."""


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_field(kind: str, v: Any) -> bool:
    if kind == "seat":
        return _is_int(v) and 0 <= v <= 3
    if kind == "count":
        return _is_int(v) and v >= 0
    if kind == "kyoku":
        return _is_int(v) and 1 <= v <= 4
    if kind == "kyoku_first":
        return _is_int(v) and v in (0, 4)
    if kind == "bool":
        return isinstance(v, bool)
    if kind == "wind":
        return v in WINDS
    if kind == "tile":
        return is_mjai_tile(v)
    if kind == "tile?":
        return is_mjai_tile(v) or v == UNKNOWN
    if kind in ("tiles2", "tiles3", "tiles4"):
        return isinstance(v, list) and len(v) == int(kind[-1]) and all(is_mjai_tile(t) for t in v)
    if kind == "tiles":
        return isinstance(v, list) and all(is_mjai_tile(t) for t in v)
    if kind == "scores":
        return isinstance(v, list) and len(v) == 4 and all(_is_int(x) for x in v)
    if kind == "names":
        return isinstance(v, list) and len(v) == 4 and all(isinstance(x, str) for x in v)
    if kind == "seed":
        return isinstance(v, list) and len(v) == 2 and all(_is_int(x) and x >= 0 for x in v)
    if kind == "tehais":
        return (isinstance(v, list) and len(v) == 4 and all(
            isinstance(h, list) and len(h) == 13 and all(is_mjai_tile(t) or t == UNKNOWN for t in h)
            for h in v))
    if kind == "hands":
        return isinstance(v, list) and len(v) == 4 and all(
            isinstance(h, list) and all(is_mjai_tile(t) or t == UNKNOWN for t in h) for h in v)
    if kind == "bools4":
        return isinstance(v, list) and len(v) == 4 and all(isinstance(x, bool) for x in v)
    if kind == "reason":
        return v in KINDS
    if kind == "object":
        return isinstance(v, dict)
    raise AssertionError(kind)


def validate_mjai_event(event: Any) -> list[str]:
    """What is wrong with one mjai event (an empty list when nothing is).

    Checks the ``type``, that every required field is there with the right kind of value (seats
    0-3, tile names, ``kyoku`` 1-4, four scores, 4 x 13 ``tehais``, ...), that no field is
    unknown, and that a call's tiles make that call (a chi's three tiles a run of one suit, a
    pon's or kan's tiles one kind, a chi taken from the seat on the left).
    """
    if not isinstance(event, dict):
        return [f"an event is a JSON object, not {type(event).__name__}"]
    kind = event.get("type")
    if not isinstance(kind, str) or kind not in _SCHEMA:
        return [f"unknown event type {kind!r}"]
    required, optional = _SCHEMA[kind]
    problems = []
    for key, what in required.items():
        if key not in event:
            problems.append(f"{kind}: missing field {key!r}")
        elif not _check_field(what, event[key]):
            problems.append(f"{kind}: field {key!r} is not a valid {what}: {str(event[key])[:60]}")
    for key, value in event.items():
        if key == "type" or key in required:
            continue
        if key not in optional:
            problems.append(f"{kind}: unknown field {key!r}")
        elif not _check_field(optional[key], value):
            problems.append(f"{kind}: field {key!r} is not a valid {optional[key]}: {str(value)[:60]}")
    if problems:
        return problems
    if kind in ("chi", "pon", "daiminkan", "kakan", "ankan"):
        tiles = list(event["consumed"]) + ([event["pai"]] if "pai" in event else [])
        kinds = sorted(mjai_kind(t)[0] for t in tiles)
        if kind == "chi":
            ok = kinds[0] < 27 and kinds[0] // 9 == kinds[2] // 9 and kinds == list(range(kinds[0], kinds[0] + 3))
            if ok and event["target"] != (event["actor"] + 3) % 4:
                problems.append("chi: called from a seat that is not on the left")
        else:
            ok = len(set(kinds)) == 1
        if not ok:
            problems.append(f"{kind}: tiles {tiles} do not make a {kind}")
    if kind in ("chi", "pon", "daiminkan") and event["target"] == event["actor"]:
        problems.append(f"{kind}: a seat calls its own discard")
    return problems


def looks_like_mjai(head: bytes | str) -> bool:
    """Whether the first line of (plain) data is an mjai event: a JSON object with a ``type``."""
    if isinstance(head, bytes):
        head = head.decode("utf-8", errors="replace")
    first = head.lstrip("\ufeff \t\r\n").split("\n", 1)[0]
    return first.startswith("{") and '"type"' in first and '"log"' not in first


# =============================================================================================
# events -> Game
# =============================================================================================


def read_mjai(lines: Iterable[str | dict] | str | bytes, *, source: str = "<mjai>") -> Game:
    """A ``Game`` from mjai events (JSON lines as one text, an iterable of lines, or dicts).

    What mjai does not carry stays empty: yaku, han, fu, points and limit of a win (0 / empty),
    pao, dice (``(0, 0)``), the wall seed, disconnects, and player ranks; tile ids are handed out
    per kind (``formats.common``). ``start_game.tenhou`` (written by ``write_mjai``) gives the
    lobby rules and the game id; without it the rules come from ``aka_flag``, ``kyoku_first``
    and whether seat 3 is the empty seat of a three-player game.
    """
    events = list(_events(lines, source))
    return _MjaiReader(events, source).run()


def _events(lines: Iterable[str | dict] | str | bytes, source: str) -> Iterable[dict]:
    if isinstance(lines, bytes):
        lines = lines.decode("utf-8-sig")
    if isinstance(lines, str):
        lines = lines.splitlines()
    for number, line in enumerate(lines, 1):
        if isinstance(line, dict):
            yield line
            continue
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ParseError(f"not a JSON object: {exc.msg}", source=source, where=f"line {number}") from None
        if not isinstance(event, dict):
            raise ParseError("not a JSON object", source=source, where=f"line {number}")
        yield event


class _MjaiReader:
    def __init__(self, events: list[dict], source: str):
        self.events = events
        self.source = source
        self.index = 0

    def fail(self, message: str) -> ParseError:
        return ParseError(message, source=self.source, where=f"event {self.index + 1}")

    def run(self) -> Game:
        events = self.events
        if not events or events[0].get("type") != "start_game":
            raise ParseError("mjai events do not begin with start_game", source=self.source)
        for self.index, event in enumerate(events):
            problems = validate_mjai_event(event)
            if problems:
                raise self.fail(problems[0])
        start = events[0]
        kyokus = [e for e in events if e["type"] == "start_kyoku"]
        if not kyokus:
            raise ParseError("no start_kyoku: the game has no hands", source=self.source)
        ext = start.get(EXTENSION) or {}
        type_code = ext.get("type")
        if isinstance(type_code, int):
            ruleset = ruleset_from_type(type_code)
        else:
            sanma = all(k["scores"][3] == 0 and all(t == UNKNOWN for t in k["tehais"][3]) for k in kyokus)
            code = 0x01 | (0x10 if sanma else 0)
            code |= 0 if start.get("aka_flag", True) else 0x02
            code |= 0x08 if start.get("kyoku_first", 0) == 0 else 0
            ruleset = ruleset_from_type(code)
        self.ruleset = ruleset
        names = start.get("names") or ["", "", "", ""]
        players = tuple(Player(s, names[s], 0, 0.0, "") for s in range(4))
        lobby = ext.get("lobby")
        header = Header(version="", ruleset=ruleset, lobby=lobby if isinstance(lobby, int) else None,
                        players=players, shuffle=None)
        hands: list[Hand] = []
        i = 1
        while i < len(events):
            self.index = i
            kind = events[i]["type"]
            if kind == "start_kyoku":
                i = self.hand(i, hands)
            elif kind in ("end_game", "none"):
                i += 1
            else:
                raise self.fail(f"{kind} outside a hand")
        log_id = ext.get("log_id") if isinstance(ext.get("log_id"), str) else None
        return Game(header, tuple(hands), (), (), log_id, log_format="mjai")

    def hand(self, i: int, hands: list[Hand]) -> int:
        """Read the hand that starts at event ``i``; return the index after its ``end_kyoku``."""
        events = self.events
        red = self.ruleset.red_fives
        n = self.ruleset.players
        ids = TileIds(red=red, source=self.source, where=f"hand {len(hands) + 1}")
        new = lambda name: ids.new(*mjai_kind(name))  # noqa: E731
        start = events[i]
        wind = WINDS.index(start["bakaze"])
        deal = tuple(tuple(new(t) for t in start["tehais"][s]) if s < n else () for s in range(4))
        indicator = new(start["dora_marker"])
        init = Init(round=wind * 4 + start["kyoku"] - 1, honba=start["honba"], sticks=start["kyotaku"],
                    dice=(0, 0), dora_indicator=indicator, scores=tuple(start["scores"]),
                    dealer=start["oya"], hands=deal)
        # the one fold keeps the table as the events are made: what each seat holds, its melds,
        # the tile on offer, the dora, scores and sticks
        table = TableState(init, n, bool(self.ruleset.chips))
        kan_before = [False] * 4
        """The seat's last act was a kan or kita: its next draw is a replacement draw (mjai
        marks none)."""
        out: list[Event] = []
        wins = 0

        def emit(event: Event) -> None:
            out.append(event)
            table.apply(event)

        def pick(seat: int, name: str, avoid: int | None = None, taken: Iterable[int] = ()) -> int:
            kind, _is_red = mjai_kind(name)
            matches = [t for t in table.seats[seat].concealed
                       if t >> 2 == kind and mjai_name(t, red=red) == name and t not in taken]
            if not matches:
                raise self.fail(f"S{seat} does not hold {name}")
            return next((t for t in matches if t != avoid), matches[0])

        def picks(seat: int, names: Iterable[str]) -> list[int]:
            found: list[int] = []
            for name in names:
                found.append(pick(seat, name, taken=found))
            return found

        ura_ids: list[int] = []

        def ura(names: Iterable[str]) -> tuple[int, ...]:
            """The ura indicators (one set per hand: a double ron's winners share them)."""
            tiles = []
            for k, name in enumerate(names):
                if k == len(ura_ids):
                    ura_ids.append(new(name))
                elif mjai_name(ura_ids[k], red=red) != name:
                    raise self.fail("the winners of one hand have different ura indicators")
                tiles.append(ura_ids[k])
            return tuple(tiles)

        def add(seat: int, meld: Meld) -> None:
            emit(Call(seat, Meld(meld.kind, meld.tiles, meld.called, meld.from_seat, meld.added,
                                 encode_meld(meld, seat))))
            kan_before[seat] = meld.kind is not CallKind.CHI and meld.kind is not CallKind.PON

        i += 1
        while True:
            if i >= len(events):
                raise self.fail("the last hand has no end_kyoku")
            self.index = i
            e = events[i]
            kind = e["type"]
            i += 1
            if kind == "end_kyoku":
                break
            actor = cast(int, e.get("actor"))  # the schema requires it of every type that uses it
            if kind == "tsumo":
                if e["pai"] == UNKNOWN:
                    raise self.fail("a hidden draw ('?'): only complete logs can be read")
                emit(Draw(actor, new(e["pai"]), kan_before[actor]))
                kan_before[actor] = False
            elif kind == "dahai":
                last_draw = table.last_draw
                drawn = last_draw.tile if last_draw is not None and last_draw.seat == actor else None
                if e["tsumogiri"] and drawn is not None and mjai_name(drawn, red=red) == e["pai"]:
                    tile = drawn
                else:
                    tile = pick(actor, e["pai"], avoid=drawn)
                emit(Discard(actor, tile, tile == drawn))
            elif kind in ("chi", "pon", "daiminkan"):
                last = table.last_discard
                if last is None or last.seat != e["target"]:
                    raise self.fail(f"{kind} of a tile S{e['target']} did not just discard")
                tiles = [last.tile, *picks(actor, e["consumed"])]
                call_kind = {"chi": CallKind.CHI, "pon": CallKind.PON, "daiminkan": CallKind.OPEN_KAN}[kind]
                add(actor, Meld(call_kind, tuple(sorted(tiles)), last.tile, e["target"], None, 0))
            elif kind == "kakan":
                pon_kind = mjai_kind(e["pai"])[0]
                pon = next((m for m in table.seats[actor].melds
                            if m.kind is CallKind.PON and m.tiles[0] >> 2 == pon_kind), None)
                if pon is None:
                    raise self.fail(f"S{actor} adds {e['pai']} to a pon it does not have")
                added = pick(actor, e["pai"])
                add(actor, Meld(CallKind.ADDED_KAN, tuple(sorted((*pon.tiles, added))), pon.called, pon.from_seat,
                                added, 0))
            elif kind == "ankan":
                add(actor, Meld(CallKind.CLOSED_KAN, tuple(sorted(picks(actor, e["consumed"]))), None, None, None, 0))
            elif kind == "nukidora":
                add(actor, Meld(CallKind.KITA, (pick(actor, e["pai"]),), None, None, None, 0))
            elif kind == "dora":
                emit(NewDora(new(e["dora_marker"])))
            elif kind == "reach":
                emit(Riichi(actor, 1))
            elif kind == "reach_accepted":
                given = e.get("scores")
                emit(Riichi(actor, 2, tuple(given) if given is not None else None))
            elif kind == "hora":
                who, from_who = actor, e["target"]
                concealed = table.seats[who].concealed
                if who == from_who:
                    last_draw = table.last_draw
                    if last_draw is None or last_draw.seat != who:
                        raise self.fail(f"S{who}'s tsumo follows no draw of S{who}")
                    win_tile = last_draw.tile
                    hand = sorted(concealed)
                else:
                    offered = table.offered_tile()
                    taken = offered[1] if offered is not None and offered[0] == from_who else None
                    if taken is None:
                        raise self.fail(f"S{who}'s ron names S{from_who}, who did not just discard")
                    win_tile = taken
                    hand = sorted([*concealed, win_tile])
                emit(Agari(
                    who=who, from_who=from_who, hand=tuple(hand), melds=tuple(table.seats[who].melds),
                    win_tile=win_tile, fu=0, points=0, limit=0, yaku=(), yakuman=(),
                    dora_indicators=tuple(table.dora), ura_indicators=ura(e.get("ura_markers") or ()),
                    honba=init.honba, sticks=table.sticks if wins == 0 else 0, scores_before=tuple(table.scores),
                    deltas=tuple(e.get("deltas") or (0, 0, 0, 0)),
                ))
                wins += 1
            elif kind == "ryukyoku":
                reason = e.get("reason")
                draw_kind = KINDS[reason] if reason else DrawKind.EXHAUSTIVE
                tenpais = e.get("tenpais") or [False] * 4
                shown = tuple(tuple(sorted(table.seats[s].concealed)) if tenpais[s] else None for s in range(4))
                emit(Ryuukyoku(draw_kind, init.honba, table.sticks, tuple(table.scores),
                               tuple(e.get("deltas") or (0, 0, 0, 0)), shown))
            elif kind == "none":
                continue
            else:
                raise self.fail(f"{kind} inside a hand")
        hands.append(Hand(len(hands), init, tuple(out)))
        return i
