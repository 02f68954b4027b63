"""Findings: every disagreement between a log and the Tenhou rules, as data.

Each ``FindingCode`` is documented in ``docs/findings.md`` (what it means, an example). A
``Finding`` names the hand (0-based index into ``Game.hands``; ``label`` is the same hand as
``replay --hand`` names it, ``E2-1``: round and honba) and the event index inside that hand's
events (``None`` for the ``INIT`` itself or for game-level findings), with the value the rules
give (``expected``) and the value the log claims (``actual``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .rules.yaku import limit_name, yaku_name


class Severity(Enum):
    ERROR = "error"
    WARNING = "warning"


class FindingCode(Enum):
    # reading
    PARSE_ERROR = "PARSE_ERROR"
    PARSE_WARNING = "PARSE_WARNING"
    INTERNAL_ERROR = "INTERNAL_ERROR"
    # wins
    AGARI_HAND = "AGARI_HAND"
    AGARI_MELDS = "AGARI_MELDS"
    AGARI_WIN_TILE = "AGARI_WIN_TILE"
    AGARI_WINNER = "AGARI_WINNER"
    AGARI_NOT_WINNING = "AGARI_NOT_WINNING"
    AGARI_NO_YAKU = "AGARI_NO_YAKU"
    AGARI_YAKU = "AGARI_YAKU"
    AGARI_YAKUMAN = "AGARI_YAKUMAN"
    AGARI_FU = "AGARI_FU"
    AGARI_POINTS = "AGARI_POINTS"
    AGARI_LIMIT = "AGARI_LIMIT"
    AGARI_DORA = "AGARI_DORA"
    AGARI_URA = "AGARI_URA"
    AGARI_PAO = "AGARI_PAO"
    AGARI_ORDER = "AGARI_ORDER"
    # payments and counters
    PAYMENT = "PAYMENT"
    SCORES_BEFORE = "SCORES_BEFORE"
    BA = "BA"
    RIICHI_SCORES = "RIICHI_SCORES"
    # draws
    DRAW_TENPAI = "DRAW_TENPAI"
    DRAW_HAND = "DRAW_HAND"
    DRAW_PAYMENT = "DRAW_PAYMENT"
    NAGASHI = "NAGASHI"
    # between hands and the end
    CARRY_SCORES = "CARRY_SCORES"
    CARRY_HONBA = "CARRY_HONBA"
    CARRY_STICKS = "CARRY_STICKS"
    CARRY_ROUND = "CARRY_ROUND"
    GAME_END = "GAME_END"
    OWARI_SCORES = "OWARI_SCORES"
    OWARI_POINTS = "OWARI_POINTS"
    # table state and tile accounting
    TILE_NOT_IN_HAND = "TILE_NOT_IN_HAND"
    TILE_DUPLICATE = "TILE_DUPLICATE"
    HAND_SIZE = "HAND_SIZE"
    DRAW_ORDER = "DRAW_ORDER"
    DOUBLE_DISCARD = "DOUBLE_DISCARD"
    CALL_TILE = "CALL_TILE"
    DORA_TIMING = "DORA_TIMING"
    EVENT_AFTER_END = "EVENT_AFTER_END"
    # furiten
    FURITEN_DISCARD = "FURITEN_DISCARD"
    FURITEN_SAME_TURN = "FURITEN_SAME_TURN"
    FURITEN_RIICHI = "FURITEN_RIICHI"
    # riichi
    RIICHI_OPEN_HAND = "RIICHI_OPEN_HAND"
    RIICHI_NOT_TENPAI = "RIICHI_NOT_TENPAI"
    RIICHI_POINTS = "RIICHI_POINTS"
    RIICHI_LATE = "RIICHI_LATE"
    RIICHI_TWICE = "RIICHI_TWICE"
    RIICHI_STEP = "RIICHI_STEP"
    RIICHI_TSUMOGIRI = "RIICHI_TSUMOGIRI"
    RIICHI_KAN = "RIICHI_KAN"
    RIICHI_CALL = "RIICHI_CALL"
    # calls
    CALL_CHI_SEAT = "CALL_CHI_SEAT"
    CALL_KUIKAE = "CALL_KUIKAE"
    CALL_HOUTEI = "CALL_HOUTEI"
    CALL_TIMING = "CALL_TIMING"
    CALL_KITA = "CALL_KITA"
    KAN_LIMIT = "KAN_LIMIT"
    # abortive draws and multiple ron
    ABORT_CONDITION = "ABORT_CONDITION"
    ABORT_MISSING = "ABORT_MISSING"
    TRIPLE_RON = "TRIPLE_RON"
    # the header
    GAME_ID = "GAME_ID"
    LOBBY_RULES = "LOBBY_RULES"
    CHIPS = "CHIPS"
    SEATS = "SEATS"
    SEAT_RANK = "SEAT_RANK"
    DISCONNECT = "DISCONNECT"
    ERA = "ERA"
    # across games (validate's second pass over a batch)
    CROSS_DAN = "CROSS_DAN"
    DAN_POINTS = "DAN_POINTS"
    # the wall
    WALL_SEED = "WALL_SEED"
    WALL_DICE = "WALL_DICE"
    WALL_DEAL = "WALL_DEAL"
    WALL_DRAW = "WALL_DRAW"
    WALL_DORA = "WALL_DORA"
    WALL_URA = "WALL_URA"


@dataclass(frozen=True, slots=True)
class Finding:
    code: FindingCode
    severity: Severity
    message: str
    hand: int | None = None
    event_index: int | None = None
    expected: Any = None
    actual: Any = None
    detail: str | None = None
    """Extra text (the traceback of an ``INTERNAL_ERROR``)."""
    label: str | None = None
    """The hand as ``replay --hand`` takes it (``E2-1``), when the finding has a hand; the engine
    leaves it to ``check.label_findings``, which knows the game."""

    def to_json(self) -> dict[str, Any]:
        """The NDJSON contract's finding, plus ``label`` and, for yaku and limits, the names of
        the ids beside them (``expected_names``, ``actual_names``)."""
        out: dict[str, Any] = {
            "code": self.code.value,
            "severity": self.severity.value,
            "hand": self.hand,
            "label": self.label,
            "event_index": self.event_index,
            "message": self.message,
            "expected": self.expected,
            "actual": self.actual,
        }
        namer = _NAMERS.get(self.code)
        if namer is not None:
            out["expected_names"] = _named(namer, self.expected)
            out["actual_names"] = _named(namer, self.actual)
        if self.detail is not None:
            out["detail"] = self.detail
        return out


def _yaku_names(values: Any) -> list[list[Any]]:
    return [[yaku_name(int(yid)), han] for yid, han in values]


def _yakuman_names(values: Any) -> list[str]:
    return [yaku_name(int(yid)) for yid in values]


def _named(namer, values: Any) -> Any:
    if values is None:
        return None
    try:
        return namer(values)
    except (TypeError, ValueError):  # not the shape this code carries: no names rather than none
        return None


_NAMERS = {
    FindingCode.AGARI_YAKU: _yaku_names,
    FindingCode.AGARI_YAKUMAN: _yakuman_names,
    FindingCode.AGARI_LIMIT: lambda value: limit_name(int(value)),
}
"""Codes whose values are ids with names: ``[[1, 2]]`` is ``[["riichi", 2]]``, ``[39]`` is
``["daisangen"]``, limit ``2`` is ``"haneman"``."""
