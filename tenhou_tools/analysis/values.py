"""The analysis's hand-value records (``analysis/value.py`` computes them; they live in this
plain module because ``value.py`` is compiled in a compiled install, and a class defined there
would become a native class: docs/development.md)."""

from __future__ import annotations

from dataclasses import dataclass

from ..events import CallKind, Meld
from ..rules.values import TENHOU_4P, ScoringRules

__all__ = ["HandValue", "ScoreLine", "ValueSituation", "WaitValue"]


@dataclass(frozen=True, slots=True)
class ValueSituation:
    """Everything besides the concealed tiles that a hand's value depends on."""

    melds: tuple[Meld, ...]
    """Every declared meld of the seat (chi, pon, kans, closed kans, kita)."""
    seat_wind: int
    """0 for the dealer."""
    round_wind: int
    dora_indicators: tuple[int, ...]
    draws_left: int
    """The seat's own draws left (about the live wall's tiles over the player count)."""
    in_riichi: bool = False
    """The seat has declared riichi."""
    may_riichi: bool = True
    """A closed hand not in riichi may declare it on reaching tenpai (1,000 points or more and
    enough tiles in the wall): it is then valued as riichi."""
    own_discards: frozenset[int] = frozenset()
    """Kinds in the seat's own pond: a ron on them is furiten."""
    rules: ScoringRules = TENHOU_4P

    @property
    def closed(self) -> bool:
        return all(not m.kind.is_open for m in self.melds)

    @property
    def riichi(self) -> bool:
        """The hand is valued as riichi."""
        return self.in_riichi or (self.closed and self.may_riichi)

    @property
    def sets(self) -> int:
        """Melds that take a set out of the hand (not kita)."""
        return sum(1 for m in self.melds if m.kind is not CallKind.KITA)


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One way to win, as the scorer values it."""

    han: int
    """0 on a yakuman."""
    fu: int
    points: int
    """``ten[1]``: the ron payment, or a tsumo's total of all payments."""
    yakuman: int = 0

    def to_json(self) -> dict[str, int]:
        return {"han": self.han, "fu": self.fu, "points": self.points, "yakuman": self.yakuman}


@dataclass(frozen=True, slots=True)
class WaitValue:
    """One wait of a tenpai hand."""

    kind: int
    left: int
    """Unseen copies."""
    ron: ScoreLine | None
    """``None``: no yaku on a ron, or furiten."""
    tsumo: ScoreLine | None
    """``None``: no yaku on a tsumo."""
    points: float
    """The value of a win on it: the ron and tsumo points mixed by ``TSUMO_SHARE`` (tsumo only
    when furiten)."""

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "left": self.left,
            "ron": None if self.ron is None else self.ron.to_json(),
            "tsumo": None if self.tsumo is None else self.tsumo.to_json(),
            "points": round(self.points),
        }


@dataclass(frozen=True, slots=True)
class HandValue:
    """The value of a ``3n+1`` hand at tenpai or one-shanten."""

    shanten: int
    tiles: int
    """Tenpai: unseen copies of the waits that score; one-shanten: tiles that reach tenpai."""
    win_points: float
    """The average value of a win (points)."""
    win_chance: float
    """0-1, by the model in the module's docstring."""
    ev: float
    """Expected points: ``win_chance`` x ``win_points``."""
    waits: tuple[WaitValue, ...] = ()
    """Tenpai: every wait (kinds ascending)."""

    def to_json(self) -> dict[str, object]:
        return {
            "shanten": self.shanten,
            "tiles": self.tiles,
            "win_points": round(self.win_points),
            "win_chance": round(self.win_chance, 4),
            "ev": round(self.ev),
            "waits": [w.to_json() for w in self.waits],
        }
