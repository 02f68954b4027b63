"""Defence against riichi on a board: each tile of the discarder's hand classed against each
opponent in riichi, from the discarder's view only.

Reads a frozen ``replay.board.Board`` (the table just before the discard) and the pond lengths
at each opponent's declaration (to know which discards came after it); the classes and rates
themselves are ``rules.danger``. Definitions: docs/analysis.md, "Danger against a riichi".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..replay.board import Board
from ..rules.danger import (
    Danger,
    DangerClass,
    RiichiOpponent,
    assess_hand,
    danger_rate,
    dora_kinds,
    riichi_opponent,
    safest,
    visible_counts,
)

__all__ = [
    "DangerAgainst",
    "danger_against",
    "opponents_in_riichi",
    "pond_lengths",
    "visible_from",
]


def pond_lengths(board: Board) -> tuple[int, ...]:
    """Each seat's pond length on ``board`` (taken right after a declaration discard, it says
    which discards came after the declaration)."""
    return tuple(len(s.pond) for s in board.seats)


def visible_from(board: Board, seat: int, *, sanma: bool = False) -> list[int]:
    """Per kind 0-33, the copies ``seat`` can see on ``board``: its concealed tiles, every meld,
    every pond tile not called away (a called tile is in its meld) and the dora indicators."""
    public: list[int] = list(board.dora_indicators)
    for s in board.seats:
        for meld in s.melds:
            public += meld.tiles
        public += [p.tile for p in s.pond if not p.called]
    return visible_counts(board.seats[seat].concealed, public, sanma=sanma)


def opponents_in_riichi(board: Board, seat: int,
                        declared_ponds: Mapping[int, Sequence[int]]) -> list[RiichiOpponent]:
    """The opponents of ``seat`` whose riichi declaration discard is on ``board`` (seat order).

    ``declared_ponds[r]``: every seat's pond length right after ``r``'s declaration discard
    (``pond_lengths`` of that board); the tiles beyond them were discarded after it. An opponent
    missing from it is taken from its pond's declaration mark alone (its own pond is genbutsu,
    no later discard of the others is)."""
    found = []
    players = len(board.seats)
    for r, s in enumerate(board.seats):
        if r == seat:
            continue
        marks = [i for i, p in enumerate(s.pond) if p.riichi]
        if not marks:
            continue
        lengths = declared_ponds.get(r)
        passed = []
        if lengths is not None:
            for other, o in enumerate(board.seats):
                if other != r:
                    passed += [p.tile for p in o.pond[lengths[other]:]]
        found.append(riichi_opponent(r, [p.tile for p in s.pond], marks[0], passed,
                                     round_wind=board.round // 4, seat_wind=(r - board.dealer) % players))
    return found


@dataclass(frozen=True, slots=True)
class DangerAgainst:
    """The discarder's hand against one opponent in riichi (an entry of ``danger``)."""

    seat: int
    """The opponent in riichi."""
    tile: Danger
    """The discarded tile's kind."""
    hand: tuple[Danger, ...]
    """Every kind in the hand before the discard, ascending."""
    rates: tuple[float, ...]
    """The measured danger of each kind of ``hand`` in percent (``rules.danger.danger_rate``)."""

    @property
    def tile_class(self) -> DangerClass:
        return self.tile.danger_class

    @property
    def safest_class(self) -> DangerClass:
        return safest(d.danger_class for d in self.hand)

    def class_of(self, kind: int) -> DangerClass:
        """The class of a kind of the hand (``KeyError`` for a kind it does not hold)."""
        for d in self.hand:
            if d.kind == kind:
                return d.danger_class
        raise KeyError(kind)

    def to_json(self) -> dict[str, object]:
        """``{"seat", "tile_class", "safest_class", "classes": {"KIND": CLASS}, "rates":
        {"KIND": percent}}``; kinds 0-33 as strings."""
        return {
            "seat": self.seat,
            "tile_class": self.tile_class.value,
            "safest_class": self.safest_class.value,
            "classes": {str(d.kind): d.danger_class.value for d in self.hand},
            "rates": {str(d.kind): round(r, 2) for d, r in zip(self.hand, self.rates, strict=True)},
        }


def danger_against(board: Board, seat: int, tile: int, declared_ponds: Mapping[int, Sequence[int]], *,
                   sanma: bool = False) -> tuple[DangerAgainst, ...] | None:
    """The hand of ``seat`` (before discarding ``tile``) against each opponent in riichi on
    ``board``; ``None`` when no opponent is in riichi."""
    opponents = opponents_in_riichi(board, seat, declared_ponds)
    if not opponents:
        return None
    visible = visible_from(board, seat, sanma=sanma)
    dora = dora_kinds(board.dora_indicators, sanma=sanma)
    kinds = {t >> 2 for t in board.seats[seat].concealed} | {tile >> 2}
    players = len(board.seats)
    entries = []
    for opponent in opponents:
        assessed = assess_hand(kinds, opponent, visible, dora=dora, sanma=sanma)
        hand = tuple(assessed.values())
        rates = tuple(danger_rate(d, players=players) for d in hand)
        entries.append(DangerAgainst(opponent.seat, assessed[tile >> 2], hand, rates))
    return tuple(entries)
