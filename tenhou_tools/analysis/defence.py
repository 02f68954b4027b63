"""Defence on a board: each tile of the discarder's hand classed against each opponent in riichi
(``danger_against``) or against every opponent the model counts as a threat, riichi or not
(``threats_against``: with how likely that opponent is tenpai and what its win would cost),
from the discarder's view only.

Reads a frozen ``replay.board.Board`` (the table just before the discard, from the one fold):
each pond tile carries the step it was discarded at, so the discards made after an opponent's
declaration discard are the ones with a later step; the classes and rates themselves are
``rules.danger``. Definitions: docs/analysis.md, "Danger against a riichi".
"""

from __future__ import annotations

from ..replay.board import Board
from ..rules.danger import EARLY_DISCARDS, assess_hand, danger_rate, dora_kinds, riichi_opponent, visible_counts
from ..rules.values import RiichiOpponent
from ..tiles import yakuhai_kinds
from .tables import ron_points, tenpai_chance
from .values import DangerAgainst

__all__ = [
    "THREAT_MIN",
    "DangerAgainst",
    "danger_against",
    "opponents_in_riichi",
    "threat_chance",
    "threats_against",
    "visible_from",
]

THREAT_MIN = 0.25
"""An opponent not in riichi is a threat when the measured chance that it is tenpai
(``tables.tenpai_chance``: its open melds and turn) is at least this: two calls from the
seventh discard, one call from about the tenth, three calls always; a closed hand never (13 %
at most)."""


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


def threat_chance(players: int, *, riichi: bool, open_melds: int, discards: int) -> float:
    """How likely an opponent is tenpai, as far as the model counts it a threat: 1 in riichi,
    else its measured chance (``tables.tenpai_chance`` by its open melds and its discards so far)
    when that is at least ``THREAT_MIN``, else 0 (not a threat)."""
    if riichi:
        return 1.0
    chance = tenpai_chance(players, open_melds, discards)
    return chance if chance >= THREAT_MIN else 0.0


def danger_against(board: Board, seat: int, tile: int, *, sanma: bool = False) -> tuple[DangerAgainst, ...] | None:
    """The hand of ``seat`` (before discarding ``tile``) against each opponent in riichi on
    ``board`` (the riichi entries of ``threats_against``); ``None`` when no opponent is in
    riichi."""
    entries = tuple(t for t in threats_against(board, seat, tile, sanma=sanma) if t.riichi)
    return entries or None


def threats_against(board: Board, seat: int, tile: int, *, sanma: bool = False) -> tuple[DangerAgainst, ...]:
    """The hand of ``seat`` (before discarding ``tile``) against every threat on ``board``:
    each opponent in riichi (tenpai for sure), and each other opponent whose chance of being
    tenpai is at least ``THREAT_MIN``; each entry with that chance and the mean points its ron
    would cost (``tables.ron_points``: riichi, open or dama, dealer or not). Against an opponent
    not in riichi the genbutsu are its own discards (it may not ron them: furiten), the turn is
    its discards so far and no tile is its declaration's suji. Seat order; empty when there is
    no threat."""
    players = len(board.seats)
    riichi = {o.seat: o for o in opponents_in_riichi(board, seat)}
    found: list[tuple[RiichiOpponent, bool, float, str, int]] = []
    for r, s in enumerate(board.seats):
        if r == seat:
            continue
        open_melds = sum(1 for m in s.melds if m.kind.is_open)
        if r in riichi:
            found.append((riichi[r], True, 1.0, "riichi", open_melds))
            continue
        chance = threat_chance(players, riichi=False, open_melds=open_melds, discards=len(s.pond))
        if not chance:
            continue
        pond = [p.tile for p in s.pond]
        wind = (r - board.dealer) % players
        opponent = RiichiOpponent(r, frozenset(t >> 2 for t in pond), len(pond), -1,
                                  frozenset(t >> 2 for t in pond[:EARLY_DISCARDS]),
                                  yakuhai_kinds(board.round // 4, wind))
        found.append((opponent, False, chance, "open" if open_melds else "dama", open_melds))
    if not found:
        return ()
    visible = visible_from(board, seat, sanma=sanma)
    dora = dora_kinds(board.dora_indicators, sanma=sanma)
    kinds = {t >> 2 for t in board.seats[seat].concealed} | {tile >> 2}
    entries = []
    for opponent, in_riichi, chance, state, open_melds in found:
        assessed = assess_hand(kinds, opponent, visible, dora=dora, sanma=sanma)
        hand = tuple(assessed.values())
        rates = tuple(danger_rate(d, players=players) for d in hand)
        value = ron_points(players, state, opponent.seat == board.dealer)
        entries.append(DangerAgainst(opponent.seat, assessed[tile >> 2], hand, rates, riichi=in_riichi,
                                     tenpai=chance, hand_value=value, open_melds=open_melds))
    return tuple(entries)
