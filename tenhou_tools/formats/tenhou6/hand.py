"""tenhou.net/6 JSON -> ``Game``: one hand's tokens (its takes, gives and result, checked).

``read`` drives: it parses a hand here (``_HandReader.parse``), then finds its turn order and
builds its events in ``turns``, which reads the tokens parsed here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ...errors import ParseError
from ...events import (
    DrawKind,
    Header,
    Ruleset,
)
from ..common import code_kind
from .names import _POINTS, _TOKEN, _YAKU, DRAW_KINDS, TSUMOGIRI, WIN, YAKU_IDS


class _Game(Protocol):
    """What a hand asks of the game it belongs to (``read._GameReader``)."""

    source: str
    warnings: list[str]

    def fail(self, message: str, where: str | None = None) -> ParseError: ...


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
    """Parse one hand's 17 entries (``parse``); ``turns`` then finds the turn order and builds
    the events."""

    def __init__(self, game: _Game, index: int, row: Any, ruleset: Ruleset, header: Header):
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

    def parse(self) -> _HandReader:
        """Read and check the hand's entries into this reader's fields; returns itself."""
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
        return self

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

    def deltas(self, value: Any) -> tuple[int, int, int, int]:
        if not (isinstance(value, list) and len(value) in (3, 4)
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise self.fail(f"score changes {str(value)[:40]} are not four integers")
        return (value[0], value[1], value[2], value[3] if len(value) == 4 else 0)

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
            if m is None or yaku_id is None:
                raise self.fail(f"unknown yaku {str(text)[:30]!r}")
            if m.group(3):
                yakuman.append(yaku_id)
            else:
                yaku.append((yaku_id, int(m.group(2))))
        names = {y for y, _ in yaku} | set(yakuman)
        if not _POINTS.match(detail[3]):
            raise self.fail(f"points {detail[3][:30]!r} are not like 30符4飜7700点")
        return _Win(d, who, from_who, None if pao == who else pao, detail[3], yaku, yakuman, names)
