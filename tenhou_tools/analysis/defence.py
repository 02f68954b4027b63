"""Defence against riichi on a board: each tile of the discarder's hand classed against each
opponent in riichi, from the discarder's view only.

Reads a frozen ``replay.board.Board`` (the table just before the discard, from the one fold):
each pond tile carries the step it was discarded at, so the discards made after an opponent's
declaration discard are the ones with a later step; the classes and rates themselves are
``rules.danger``. Definitions: docs/analysis.md, "Danger against a riichi".
"""

from __future__ import annotations

from ..replay.board import Board
from ..rules.danger import assess_hand, danger_rate, dora_kinds, riichi_opponent, visible_counts
from ..rules.values import RiichiOpponent
from .values import DangerAgainst

__all__ = [
    "DangerAgainst",
    "danger_against",
    "opponents_in_riichi",
    "visible_from",
]


def visible_from(board: Board, seat: int, *, sanma: bool = False) -> list[int]:
    """Per kind 0-33, the copies ``seat`` can see on ``board``: its concealed tiles, every meld,
    every pond tile not called away (a called tile is in its meld) and the dora indicators."""
    public: list[int] = list(board.dora_indicators)
    for s in board.seats:
        for meld in s.melds:
            public += meld.tiles
        public += [p.tile for p in s.pond if not p.called]
    return visible_counts(board.seats[seat].concealed, public, sanma=sanma)


def opponents_in_riichi(board: Board, seat: int) -> list[RiichiOpponent]:
    """The opponents of ``seat`` whose riichi declaration discard is on ``board`` (seat order),
    each with the tiles discarded by anyone after that declaration discard (a later step)."""
    found = []
    players = len(board.seats)
    for r, s in enumerate(board.seats):
        if r == seat:
            continue
        marks = [i for i, p in enumerate(s.pond) if p.riichi]
        if not marks:
            continue
        declared_at = s.pond[marks[0]].step
        passed = [p.tile for other, o in enumerate(board.seats) if other != r
                  for p in o.pond if p.step > declared_at]
        found.append(riichi_opponent(r, [p.tile for p in s.pond], marks[0], passed,
                                     round_wind=board.round // 4, seat_wind=(r - board.dealer) % players))
    return found


def danger_against(board: Board, seat: int, tile: int, *, sanma: bool = False) -> tuple[DangerAgainst, ...] | None:
    """The hand of ``seat`` (before discarding ``tile``) against each opponent in riichi on
    ``board``; ``None`` when no opponent is in riichi."""
    opponents = opponents_in_riichi(board, seat)
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
