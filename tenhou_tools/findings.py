"""Findings: every disagreement between a log and the Tenhou rules, as data.

Each ``FindingCode`` is documented in ``docs/findings.md`` (what it means, an example). A
``Finding`` names the hand (0-based index into ``Game.hands``) and the event index inside that
hand's events (``None`` for the ``INIT`` itself or for game-level findings), with the value the
rules give (``expected``) and the value the log claims (``actual``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


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

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code.value,
            "severity": self.severity.value,
            "hand": self.hand,
            "event_index": self.event_index,
            "message": self.message,
            "expected": self.expected,
            "actual": self.actual,
        }
        if self.detail is not None:
            out["detail"] = self.detail
        return out
